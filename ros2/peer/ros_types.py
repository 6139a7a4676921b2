"""ROS 2 message types for Eclipse Cyclone DDS's Python binding, declared as ROS 2's RMWs name
them on the wire (`sensor_msgs::msg::dds_::JointState_`), fields in `.msg` order: an independent
implementation of what crate `ros2-msg` declares, to test it against."""

from dataclasses import dataclass, field

from cyclonedds.core import Policy, Qos
from cyclonedds.idl import IdlStruct
from cyclonedds.idl.types import array, byte, float64, int32, sequence, uint32


@dataclass
class Time(IdlStruct, typename="builtin_interfaces::msg::dds_::Time_"):
    sec: int32 = 0
    nanosec: uint32 = 0


@dataclass
class Header(IdlStruct, typename="std_msgs::msg::dds_::Header_"):
    stamp: Time = field(default_factory=Time)
    frame_id: str = ""


@dataclass
class JointState(IdlStruct, typename="sensor_msgs::msg::dds_::JointState_"):
    header: Header = field(default_factory=Header)
    name: sequence[str] = field(default_factory=list)
    position: sequence[float64] = field(default_factory=list)
    velocity: sequence[float64] = field(default_factory=list)
    effort: sequence[float64] = field(default_factory=list)


@dataclass
class Quaternion(IdlStruct, typename="geometry_msgs::msg::dds_::Quaternion_"):
    x: float64 = 0.0
    y: float64 = 0.0
    z: float64 = 0.0
    w: float64 = 1.0


@dataclass
class Vector3(IdlStruct, typename="geometry_msgs::msg::dds_::Vector3_"):
    x: float64 = 0.0
    y: float64 = 0.0
    z: float64 = 0.0


def _zeros9():
    return [0.0] * 9


@dataclass
class Imu(IdlStruct, typename="sensor_msgs::msg::dds_::Imu_"):
    header: Header = field(default_factory=Header)
    orientation: Quaternion = field(default_factory=Quaternion)
    orientation_covariance: array[float64, 9] = field(default_factory=_zeros9)
    angular_velocity: Vector3 = field(default_factory=Vector3)
    angular_velocity_covariance: array[float64, 9] = field(default_factory=_zeros9)
    linear_acceleration: Vector3 = field(default_factory=Vector3)
    linear_acceleration_covariance: array[float64, 9] = field(default_factory=_zeros9)


@dataclass
class Wrench(IdlStruct, typename="geometry_msgs::msg::dds_::Wrench_"):
    force: Vector3 = field(default_factory=Vector3)
    torque: Vector3 = field(default_factory=Vector3)


@dataclass
class WrenchStamped(IdlStruct, typename="geometry_msgs::msg::dds_::WrenchStamped_"):
    header: Header = field(default_factory=Header)
    wrench: Wrench = field(default_factory=Wrench)


@dataclass
class Bool(IdlStruct, typename="std_msgs::msg::dds_::Bool_"):
    data: bool = False


@dataclass
class String(IdlStruct, typename="std_msgs::msg::dds_::String_"):
    data: str = ""


@dataclass
class Transform(IdlStruct, typename="geometry_msgs::msg::dds_::Transform_"):
    translation: Vector3 = field(default_factory=Vector3)
    rotation: Quaternion = field(default_factory=Quaternion)


@dataclass
class TransformStamped(IdlStruct, typename="geometry_msgs::msg::dds_::TransformStamped_"):
    header: Header = field(default_factory=Header)
    child_frame_id: str = ""
    transform: Transform = field(default_factory=Transform)


@dataclass
class TFMessage(IdlStruct, typename="tf2_msgs::msg::dds_::TFMessage_"):
    transforms: sequence[TransformStamped] = field(default_factory=list)


@dataclass
class KeyValue(IdlStruct, typename="diagnostic_msgs::msg::dds_::KeyValue_"):
    key: str = ""
    value: str = ""


@dataclass
class DiagnosticStatus(IdlStruct, typename="diagnostic_msgs::msg::dds_::DiagnosticStatus_"):
    level: byte = 0
    name: str = ""
    message: str = ""
    hardware_id: str = ""
    values: sequence[KeyValue] = field(default_factory=list)


@dataclass
class DiagnosticArray(IdlStruct, typename="diagnostic_msgs::msg::dds_::DiagnosticArray_"):
    header: Header = field(default_factory=Header)
    status: sequence[DiagnosticStatus] = field(default_factory=list)


@dataclass
class Clock(IdlStruct, typename="rosgraph_msgs::msg::dds_::Clock_"):
    clock: Time = field(default_factory=Time)


@dataclass
class Duration(IdlStruct, typename="builtin_interfaces::msg::dds_::Duration_"):
    sec: int32 = 0
    nanosec: uint32 = 0


@dataclass
class JointTrajectoryPoint(IdlStruct, typename="trajectory_msgs::msg::dds_::JointTrajectoryPoint_"):
    positions: sequence[float64] = field(default_factory=list)
    velocities: sequence[float64] = field(default_factory=list)
    accelerations: sequence[float64] = field(default_factory=list)
    effort: sequence[float64] = field(default_factory=list)
    time_from_start: Duration = field(default_factory=Duration)


@dataclass
class JointTrajectory(IdlStruct, typename="trajectory_msgs::msg::dds_::JointTrajectory_"):
    header: Header = field(default_factory=Header)
    joint_names: sequence[str] = field(default_factory=list)
    points: sequence[JointTrajectoryPoint] = field(default_factory=list)


# ROS 2 sends plain CDR (XCDR1); Cyclone's Python binding defaults to XCDR2.
PLAIN_CDR = Policy.DataRepresentation(use_cdrv0_representation=True)


def reliable(depth):
    """rclcpp::QoS(depth): reliable, keep-last `depth`, volatile."""
    return Qos(
        Policy.Reliability.Reliable(max_blocking_time=100_000_000),  # nanoseconds
        Policy.History.KeepLast(depth),
        Policy.Durability.Volatile,
        PLAIN_CDR,
    )


def sensor_data():
    """rclcpp::SensorDataQoS(): best effort, keep-last 5, volatile."""
    return Qos(
        Policy.Reliability.BestEffort,
        Policy.History.KeepLast(5),
        Policy.Durability.Volatile,
        PLAIN_CDR,
    )


def dds_topic(ros_name):
    """`/robot_joint_states` -> `rt/robot_joint_states`."""
    return "rt" + (ros_name if ros_name.startswith("/") else "/" + ros_name)


def transient_local(depth):
    """rclcpp::QoS(depth).transient_local(): reliable, keep-last `depth`, and late joiners get
    the last samples (/robot_description, /tf_static)."""
    return Qos(
        Policy.Reliability.Reliable(max_blocking_time=100_000_000),
        Policy.History.KeepLast(depth),
        Policy.Durability.TransientLocal,
        PLAIN_CDR,
    )
