//! The ROS message types this crate speaks, each declared with [`ros_message!`](crate::ros_message)
//! in the field order of its `.msg` file (common_interfaces and rcl_interfaces, Jazzy).

use crate::message::Byte;
use crate::ros_message;

ros_message! {
    /// `builtin_interfaces/msg/Time`: seconds and nanoseconds since the epoch.
    pub struct Time in "builtin_interfaces" {
        /// Whole seconds.
        sec: i32,
        /// Nanoseconds within the second, below 10⁹.
        nanosec: u32,
    }
}

impl Time {
    /// The wall clock now (ROS time without simulated time). Allocates nothing.
    pub fn now() -> Time {
        let since = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        Time {
            // ROS's own Time is 32-bit seconds: good until 2038.
            sec: i32::try_from(since.as_secs()).unwrap_or(i32::MAX),
            nanosec: since.subsec_nanos(),
        }
    }

    /// The time `ns` nanoseconds after the epoch ([`Time::as_nanos`]'s inverse; seconds beyond
    /// ROS's 32 bits are held at the largest).
    pub fn from_nanos(ns: i128) -> Time {
        Time {
            sec: i32::try_from(ns.div_euclid(1_000_000_000)).unwrap_or(i32::MAX),
            nanosec: u32::try_from(ns.rem_euclid(1_000_000_000)).unwrap_or(0),
        }
    }

    /// Nanoseconds since the epoch.
    pub fn as_nanos(&self) -> i128 {
        i128::from(self.sec) * 1_000_000_000 + i128::from(self.nanosec)
    }
}

ros_message! {
    /// `std_msgs/msg/Header`: a stamp and a frame.
    pub struct Header in "std_msgs" {
        /// When the data was taken.
        stamp: Time,
        /// The coordinate frame.
        frame_id: String,
    }
}

ros_message! {
    /// `geometry_msgs/msg/Quaternion`.
    pub struct Quaternion in "geometry_msgs" {
        /// x.
        x: f64,
        /// y.
        y: f64,
        /// z.
        z: f64,
        /// w.
        w: f64,
    }
}

ros_message! {
    /// `geometry_msgs/msg/Vector3`.
    pub struct Vector3 in "geometry_msgs" {
        /// x.
        x: f64,
        /// y.
        y: f64,
        /// z.
        z: f64,
    }
}

ros_message! {
    /// `sensor_msgs/msg/JointState`: per joint name, any of position, velocity and effort (an
    /// array is either empty or as long as `name`).
    pub struct JointState in "sensor_msgs" {
        /// Stamp and frame.
        header: Header,
        /// Joint names.
        name: Vec<String>,
        /// rad or m.
        position: Vec<f64>,
        /// rad/s or m/s.
        velocity: Vec<f64>,
        /// N·m or N.
        effort: Vec<f64>,
    }
}

ros_message! {
    /// `sensor_msgs/msg/Imu`: orientation, angular velocity, linear acceleration, each with a
    /// row-major covariance (element 0 at −1: no estimate).
    pub struct Imu in "sensor_msgs" {
        /// Stamp and the sensor frame.
        header: Header,
        /// Orientation.
        orientation: Quaternion,
        /// Its covariance.
        orientation_covariance: [f64; 9],
        /// rad/s.
        angular_velocity: Vector3,
        /// Its covariance.
        angular_velocity_covariance: [f64; 9],
        /// m/s².
        linear_acceleration: Vector3,
        /// Its covariance.
        linear_acceleration_covariance: [f64; 9],
    }
}

ros_message! {
    /// `geometry_msgs/msg/Wrench`: a force and a torque.
    pub struct Wrench in "geometry_msgs" {
        /// N.
        force: Vector3,
        /// N·m.
        torque: Vector3,
    }
}

ros_message! {
    /// `geometry_msgs/msg/WrenchStamped`: a wrench in the header's frame.
    pub struct WrenchStamped in "geometry_msgs" {
        /// Stamp and the sensor frame.
        header: Header,
        /// The wrench.
        wrench: Wrench,
    }
}

ros_message! {
    /// `std_msgs/msg/String`: one string (`/robot_description` carries the URDF in it).
    pub struct StringMessage as "String" in "std_msgs" {
        /// The text.
        data: String,
    }
}

ros_message! {
    /// `geometry_msgs/msg/Transform`: a translation, then a rotation.
    pub struct Transform in "geometry_msgs" {
        /// m.
        translation: Vector3,
        /// A unit quaternion.
        rotation: Quaternion,
    }
}

ros_message! {
    /// `geometry_msgs/msg/TransformStamped`: the pose of `child_frame_id` in `header.frame_id`.
    pub struct TransformStamped in "geometry_msgs" {
        /// Stamp and the parent frame.
        header: Header,
        /// The child frame.
        child_frame_id: String,
        /// Child in parent.
        transform: Transform,
    }
}

ros_message! {
    /// `tf2_msgs/msg/TFMessage`: what `/tf` and `/tf_static` carry.
    pub struct TFMessage in "tf2_msgs" {
        /// The transforms.
        transforms: Vec<TransformStamped>,
    }
}

ros_message! {
    /// `diagnostic_msgs/msg/KeyValue`: one named value of a status.
    pub struct KeyValue in "diagnostic_msgs" {
        /// What the value is.
        key: String,
        /// The value, as text.
        value: String,
    }
}

ros_message! {
    /// `diagnostic_msgs/msg/DiagnosticStatus`: how one part of the system is doing.
    pub struct DiagnosticStatus in "diagnostic_msgs" {
        /// [`DiagnosticStatus::OK`], `WARN`, `ERROR` or `STALE`.
        level: Byte,
        /// What is described (`lite_biped: control loop`).
        name: String,
        /// How it is, in a few words.
        message: String,
        /// Which device, when it is one.
        hardware_id: String,
        /// The figures.
        values: Vec<KeyValue>,
    }
}

impl DiagnosticStatus {
    /// Working as it should.
    pub const OK: Byte = Byte(0);
    /// Working, with something to look at.
    pub const WARN: Byte = Byte(1);
    /// Not working.
    pub const ERROR: Byte = Byte(2);
    /// No news for too long.
    pub const STALE: Byte = Byte(3);
}

ros_message! {
    /// `diagnostic_msgs/msg/DiagnosticArray`: what `/diagnostics` carries.
    pub struct DiagnosticArray in "diagnostic_msgs" {
        /// When.
        header: Header,
        /// One status per part.
        status: Vec<DiagnosticStatus>,
    }
}

ros_message! {
    /// `builtin_interfaces/msg/Duration`: seconds and nanoseconds.
    pub struct Duration in "builtin_interfaces" {
        /// Whole seconds.
        sec: i32,
        /// Nanoseconds within the second, below 10⁹.
        nanosec: u32,
    }
}

ros_message! {
    /// `trajectory_msgs/msg/JointTrajectoryPoint`: where the joints are to be at
    /// `time_from_start`; each array empty or one value per joint of the trajectory.
    pub struct JointTrajectoryPoint in "trajectory_msgs" {
        /// rad or m.
        positions: Vec<f64>,
        /// rad/s or m/s.
        velocities: Vec<f64>,
        /// rad/s² or m/s².
        accelerations: Vec<f64>,
        /// N·m or N.
        effort: Vec<f64>,
        /// From the trajectory's start (its header stamp, or its receipt when that is zero).
        time_from_start: Duration,
    }
}

ros_message! {
    /// `trajectory_msgs/msg/JointTrajectory`: what joint_trajectory_controller's
    /// `~/joint_trajectory` topic takes.
    pub struct JointTrajectory in "trajectory_msgs" {
        /// The start (stamp; zero: on receipt).
        header: Header,
        /// The joints each point's arrays are for, in their order.
        joint_names: Vec<String>,
        /// The points, in time order.
        points: Vec<JointTrajectoryPoint>,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_bool_hashes_and_encodes_as_rosidl_and_cdr_have_it() {
        use crate::{Message, TypeHash};
        // std_msgs' ros-jazzy wheel: share/std_msgs/msg/Bool.json.
        assert_eq!(
            TypeHash::of_description(super::Bool::DESCRIPTION).to_string(),
            "RIHS01_feb91e995ff9ebd09c0cb3d2aed18b11077585839fb5db80193b62d74528f6c9"
        );
        let on = super::Bool { data: true };
        let mut bytes = Vec::new();
        crate::cdr::encode(&on, &mut bytes);
        assert_eq!(bytes, [0, 1, 0, 0, 1], "CDR little-endian, then one octet");
        assert_eq!(crate::cdr::decode::<super::Bool>(&bytes).unwrap(), on);
    }

    use super::*;
    use crate::Message;
    use crate::message::type_id;

    /// `level` is a `byte`, not a `uint8`: the type hash (REP-2011) sees the difference. No
    /// Jazzy hash of diagnostic_msgs is on hand to compare with (the ones found were generated by
    /// another rosidl version: their `std_msgs/Header` differs too), so the field type is checked.
    #[test]
    fn a_status_level_is_a_byte() {
        let level = &DiagnosticStatus::DESCRIPTION.fields[0];
        assert_eq!(level.name, "level");
        assert_eq!(level.field_type.type_id, type_id::BYTE);
        assert_eq!(type_id::BYTE, 16); // type_description_interfaces/FieldType FIELD_TYPE_BYTE
    }
}

ros_message! {
    /// `rmw_dds_common/msg/Gid`: an entity's global id, its DDS GUID (the participant's 12-byte
    /// prefix and the 4-byte entity id) as Jazzy's RMWs put it.
    pub struct Gid in "rmw_dds_common" {
        /// The GUID's 16 bytes (`char[16]`, which ROS maps to `uint8`).
        data: [u8; 16],
    }
}

ros_message! {
    /// `rmw_dds_common/msg/NodeEntitiesInfo`: one node and the readers and writers it owns.
    pub struct NodeEntitiesInfo in "rmw_dds_common" {
        /// Its namespace (`/`, `/robot1`).
        node_namespace: crate::BoundedString<256>,
        /// Its name (`joint_state_broadcaster`).
        node_name: crate::BoundedString<256>,
        /// Its subscriptions' (and service servers' request readers') GUIDs.
        reader_gid_seq: Vec<Gid>,
        /// Its publishers' (and service servers' reply writers') GUIDs.
        writer_gid_seq: Vec<Gid>,
    }
}

ros_message! {
    /// `rmw_dds_common/msg/ParticipantEntitiesInfo`: what a process publishes on
    /// `ros_discovery_info` so that ROS tools know its nodes: `ros2 node list`, and the node of
    /// each endpoint in `ros2 topic info -v`.
    pub struct ParticipantEntitiesInfo in "rmw_dds_common" {
        /// The participant's GUID.
        gid: Gid,
        /// Its nodes.
        node_entities_info_seq: Vec<NodeEntitiesInfo>,
    }
}

ros_message! {
    /// `rosgraph_msgs/msg/Clock`: simulated time, on `/clock`, for nodes with `use_sim_time`.
    pub struct Clock in "rosgraph_msgs" {
        /// The time now.
        clock: Time,
    }
}

ros_message! {
    /// `std_msgs/msg/MultiArrayDimension`: one dimension of a multi-array's layout.
    pub struct MultiArrayDimension in "std_msgs" {
        /// Its name.
        label: String,
        /// How many elements along it.
        size: u32,
        /// How many elements of `data` one step along it spans.
        stride: u32,
    }
}

ros_message! {
    /// `std_msgs/msg/MultiArrayLayout`: how a multi-array's flat `data` is shaped.
    pub struct MultiArrayLayout in "std_msgs" {
        /// Its dimensions, outermost first (none: a flat array).
        dim: Vec<MultiArrayDimension>,
        /// Where the data starts in `data`.
        data_offset: u32,
    }
}

ros_message! {
    /// `std_msgs/msg/Float64MultiArray`: what forward_command_controller takes on
    /// `~/commands`, one value per joint in the controller's order.
    pub struct Float64MultiArray in "std_msgs" {
        /// Its shape; forward_command_controller reads `data` only.
        layout: MultiArrayLayout,
        /// The values.
        data: Vec<f64>,
    }
}

ros_message! {
    /// `std_msgs/msg/Bool`: a switch, as a contact sensor's driver publishes it.
    pub struct Bool in "std_msgs" {
        /// Its state.
        data: bool,
    }
}

ros_message! {
    /// `geometry_msgs/msg/Twist`: a velocity, linear and angular.
    pub struct Twist in "geometry_msgs" {
        /// m/s.
        linear: Vector3,
        /// rad/s.
        angular: Vector3,
    }
}

ros_message! {
    /// `trajectory_msgs/msg/MultiDOFJointTrajectoryPoint`: where multi-DOF joints are to be.
    pub struct MultiDOFJointTrajectoryPoint in "trajectory_msgs" {
        /// One transform per joint.
        transforms: Vec<Transform>,
        /// One twist per joint, or none.
        velocities: Vec<Twist>,
        /// One twist per joint, or none.
        accelerations: Vec<Twist>,
        /// When, from the trajectory's start.
        time_from_start: Duration,
    }
}

ros_message! {
    /// `trajectory_msgs/msg/MultiDOFJointTrajectory` (this runtime has no multi-DOF joints: a
    /// goal naming one is refused).
    pub struct MultiDOFJointTrajectory in "trajectory_msgs" {
        /// Stamp: when it starts.
        header: Header,
        /// The joints.
        joint_names: Vec<String>,
        /// The points.
        points: Vec<MultiDOFJointTrajectoryPoint>,
    }
}
