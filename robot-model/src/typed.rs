//! The contract between `robot!`'s generated types and generic code (backends, the control loop).
//!
//! Controllers use the generated structs by field: `cmd.left_knee_pitch.position = 0.3`. Generic code
//! cannot name those fields, so every generated state and command struct is also a flat array of
//! `f64` ([`Values`]), and [`Layout`] says which slot holds which joint's interface. A backend
//! resolves the slots it needs once, when it is configured, and then indexes; nothing on the
//! control path looks anything up by name.
//!
//! The slot order is fixed here, in [`state_slots`] and [`command_slots`], and the macro lays the
//! generated struct fields out by calling the same functions, so the two cannot disagree.

use crate::actuator::MitSlots;
use crate::interface::InterfaceKind;
use crate::model::Robot;

/// A robot variant, as `robot!` generates it. Implemented by the variant's marker type.
pub trait RobotTypes: Copy + Send + Sync + 'static {
    /// Every state interface of the robot.
    type State: Values;
    /// Every command interface of the robot.
    type Command: Values;
    /// The whole definition.
    const DESCRIPTION: &'static Robot;
    /// What each slot of [`RobotTypes::State`] holds.
    const STATE_LAYOUT: Layout;
    /// What each slot of [`RobotTypes::Command`] holds.
    const COMMAND_LAYOUT: Layout;
}

/// A plain-data struct that is also a flat array of `f64`.
///
/// # Safety
/// The implementor must be `#[repr(C)]`, made only of `f64` fields and of fields that are
/// themselves such structs, with `size_of::<Self>() == LEN * size_of::<f64>()`. `robot!` generates
/// exactly that and asserts the size at compile time.
pub unsafe trait Values: Copy + Default + std::fmt::Debug + Send + Sync + 'static {
    /// Number of `f64` slots.
    const LEN: usize;

    /// The slots, in layout order.
    fn as_slice(&self) -> &[f64] {
        if Self::LEN == 0 {
            // A zero-sized struct may sit at an address not aligned for `f64`.
            return &[];
        }
        // SAFETY: by the trait's contract `Self` is `LEN` contiguous, aligned `f64`s.
        unsafe { std::slice::from_raw_parts((self as *const Self).cast::<f64>(), Self::LEN) }
    }

    /// The slots, in layout order, for writing.
    fn as_mut_slice(&mut self) -> &mut [f64] {
        if Self::LEN == 0 {
            return &mut [];
        }
        // SAFETY: as in `as_slice`; the exclusive borrow of `self` covers every slot.
        unsafe { std::slice::from_raw_parts_mut((self as *mut Self).cast::<f64>(), Self::LEN) }
    }
}

/// What one slot holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slot {
    /// Interface `kind` of joint `joint` (an index into [`Robot::joints`]).
    Joint {
        /// Index into [`Robot::joints`].
        joint: u16,
        /// The interface.
        kind: InterfaceKind,
    },
    /// State interface `component` of sensor `sensor` (an index into [`Robot::sensors`]); the
    /// component indexes the sensor kind's
    /// [`state_interfaces`](crate::model::SensorKind::state_interfaces).
    Sensor {
        /// Index into [`Robot::sensors`].
        sensor: u16,
        /// Index into the sensor kind's state interfaces.
        component: u8,
    },
}

/// The slots of a state or command struct, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// One entry per `f64` slot.
    pub slots: &'static [Slot],
}

impl Layout {
    /// Number of slots.
    pub const fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether there are no slots.
    pub const fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The slot of a joint's interface, resolved when a backend is configured.
    pub fn joint_slot(&self, joint: usize, kind: InterfaceKind) -> Option<usize> {
        self.slots
            .iter()
            .position(|s| matches!(*s, Slot::Joint { joint: j, kind: k } if usize::from(j) == joint && k == kind))
    }

    /// The slots of joint `joint`'s five MIT interfaces (`position` … `damping`), where it
    /// declares them.
    pub fn mit_slots(&self, joint: usize) -> MitSlots {
        MitSlots {
            position: self.joint_slot(joint, InterfaceKind::Position),
            velocity: self.joint_slot(joint, InterfaceKind::Velocity),
            effort: self.joint_slot(joint, InterfaceKind::Effort),
            stiffness: self.joint_slot(joint, InterfaceKind::Stiffness),
            damping: self.joint_slot(joint, InterfaceKind::Damping),
        }
    }

    /// The first of the slots of sensor `sensor` (an index into [`Robot::sensors`]); the others
    /// follow it, as many as its kind has state interfaces.
    pub fn sensor_slot(&self, sensor: usize) -> Option<usize> {
        self.slots.iter().position(
            |s| matches!(*s, Slot::Sensor { sensor: i, component: 0 } if usize::from(i) == sensor),
        )
    }
}

/// The state slots of a robot, in struct order: each controlled joint's state interfaces in
/// declaration order, joints in declaration order; then each sensor's state interfaces, sensors in
/// declaration order.
pub fn state_slots(robot: &Robot) -> impl Iterator<Item = Slot> + '_ {
    let joints = robot.joints.iter().enumerate().flat_map(|(j, joint)| {
        joint.state_interfaces.iter().map(move |i| Slot::Joint {
            joint: j as u16,
            kind: i.kind,
        })
    });
    let sensors = robot.sensors.iter().enumerate().flat_map(|(s, sensor)| {
        (0..sensor.state_interfaces().len() as u8).map(move |component| Slot::Sensor {
            sensor: s as u16,
            component,
        })
    });
    joints.chain(sensors)
}

/// The command slots of a robot, in struct order: each joint's command interfaces in declaration
/// order, joints in declaration order.
pub fn command_slots(robot: &Robot) -> impl Iterator<Item = Slot> + '_ {
    robot.joints.iter().enumerate().flat_map(|(j, joint)| {
        joint.command_interfaces.iter().map(move |i| Slot::Joint {
            joint: j as u16,
            kind: i.kind,
        })
    })
}

/// A unit quaternion, `x, y, z, w` as ros2_control's IMU interfaces order it.
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C)]
#[allow(missing_docs)]
pub struct Quaternion {
    pub x: f64,
    pub y: f64,
    pub z: f64,
    pub w: f64,
}

impl Quaternion {
    /// No rotation.
    pub const IDENTITY: Quaternion = Quaternion {
        x: 0.0,
        y: 0.0,
        z: 0.0,
        w: 1.0,
    };
}

impl Default for Quaternion {
    fn default() -> Self {
        Quaternion::IDENTITY
    }
}

/// A 3-vector.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[repr(C)]
#[allow(missing_docs)]
pub struct Vector3 {
    pub x: f64,
    pub y: f64,
    pub z: f64,
}

/// The state of one IMU, in the order of [`crate::interface::IMU_STATE_INTERFACES`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[repr(C)]
pub struct ImuState {
    /// Orientation of the sensor frame in the world, `orientation.{x,y,z,w}`.
    pub orientation: Quaternion,
    /// Angular velocity in the sensor frame, rad/s, `angular_velocity.{x,y,z}`.
    pub angular_velocity: Vector3,
    /// Specific force in the sensor frame, m/s², `linear_acceleration.{x,y,z}`.
    pub linear_acceleration: Vector3,
}

const _: () = assert!(std::mem::size_of::<ImuState>() == 10 * std::mem::size_of::<f64>());

/// The ros2_control names of one IMU's ten state interfaces, `base_imu/orientation.x` and so on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_snake_case, missing_docs)]
pub struct ImuInterfaces {
    pub ORIENTATION_X: &'static str,
    pub ORIENTATION_Y: &'static str,
    pub ORIENTATION_Z: &'static str,
    pub ORIENTATION_W: &'static str,
    pub ANGULAR_VELOCITY_X: &'static str,
    pub ANGULAR_VELOCITY_Y: &'static str,
    pub ANGULAR_VELOCITY_Z: &'static str,
    pub LINEAR_ACCELERATION_X: &'static str,
    pub LINEAR_ACCELERATION_Y: &'static str,
    pub LINEAR_ACCELERATION_Z: &'static str,
}

/// The state of one force/torque sensor, in the order of
/// [`crate::interface::FORCE_TORQUE_STATE_INTERFACES`]: the wrench the link's parent exerts on the
/// link, in the link's frame.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[repr(C)]
pub struct ForceTorqueState {
    /// Force, N, `force.{x,y,z}`.
    pub force: Vector3,
    /// Torque, N·m, `torque.{x,y,z}`.
    pub torque: Vector3,
}

const _: () = assert!(std::mem::size_of::<ForceTorqueState>() == 6 * std::mem::size_of::<f64>());

/// The state of one contact sensor, in the order of
/// [`crate::interface::CONTACT_STATE_INTERFACES`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[repr(C)]
pub struct ContactState {
    /// 1 while the normal force reaches the sensor's threshold, else 0 (`contact`).
    pub contact: f64,
    /// The normal force, N, summed over the contacts the sensor senses (`normal_force`).
    pub normal_force: f64,
}

const _: () = assert!(std::mem::size_of::<ContactState>() == 2 * std::mem::size_of::<f64>());

impl ContactState {
    /// Whether the sensor is in contact.
    pub fn in_contact(&self) -> bool {
        self.contact >= 0.5
    }
}

/// The ros2_control names of one force/torque sensor's six state interfaces,
/// `left_foot_ft/force.x` and so on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_snake_case, missing_docs)]
pub struct ForceTorqueInterfaces {
    pub FORCE_X: &'static str,
    pub FORCE_Y: &'static str,
    pub FORCE_Z: &'static str,
    pub TORQUE_X: &'static str,
    pub TORQUE_Y: &'static str,
    pub TORQUE_Z: &'static str,
}

/// The ros2_control names of one contact sensor's state interfaces, `left_foot_contact/contact`
/// and `left_foot_contact/normal_force`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(non_snake_case, missing_docs)]
pub struct ContactInterfaces {
    pub CONTACT: &'static str,
    pub NORMAL_FORCE: &'static str,
}
