//! The checks of a configuration against the robot it is for: what the schema cannot know
//! because it is the same for every robot. One function per rule, each with its reason.
//!
//! The rules run on [`Parsed`], every part of the file that has the right type, so that a type
//! error the schema reports hides no mistake elsewhere; a part of the wrong type is left out
//! (the schema has said what is wrong with it) and the rules that need it stay silent.

use serde_json::Value as Json;

use crate::actuator::{TURN_COUNTER_SPAN, limit_angles, within_turn_counter};
use crate::backend::Backend;
use crate::model::Robot;
use crate::transmission::Transmission;

use super::error::{FieldError, field_path, found};

/// The parts of a configuration file that have the right type.
pub(super) struct Parsed<'a> {
    robot: Option<&'a str>,
    backend: Option<Backend>,
    /// Each bus and its interface, when a string; `None` when `buses` is not a mapping.
    buses: Option<Vec<(&'a str, Option<&'a str>)>>,
    /// Each joint and its settings; the name is there even when the settings are not a mapping.
    joints: Vec<(&'a str, JointSettings)>,
    /// Each IMU, its port when a string, and whether it gives a baud rate.
    imus: Vec<(&'a str, Option<&'a str>, bool)>,
    /// Each force/torque or contact sensor, whether it gives a topic, and `undriven` when a
    /// boolean.
    sensors: Vec<(&'a str, bool, Option<bool>)>,
    /// `mujoco.model`, when a string.
    mujoco_model: Option<&'a str>,
    /// `topic.domain_id` and `ros.domain_id`, when numbers.
    domains: (Option<u64>, Option<u64>),
}

/// The settings of one joint that have the right type.
#[derive(Default)]
struct JointSettings {
    enabled: Option<bool>,
    zero_offset: Option<f64>,
}

impl<'a> Parsed<'a> {
    /// The parts of `json`, the whole file, that have the right type.
    pub(super) fn of(json: &'a Json) -> Self {
        let field = |name: &str| json.get(name);
        let buses = match field("buses") {
            None => Some(Vec::new()),
            Some(Json::Object(buses)) => Some(
                buses
                    .iter()
                    .map(|(bus, interface)| (bus.as_str(), interface.as_str()))
                    .collect(),
            ),
            Some(_) => None,
        };
        let joints = match field("joints") {
            Some(Json::Object(joints)) => joints
                .iter()
                .map(|(name, settings)| {
                    let settings = JointSettings {
                        enabled: settings.get("enabled").and_then(Json::as_bool),
                        zero_offset: settings.get("zero_offset").and_then(Json::as_f64),
                    };
                    (name.as_str(), settings)
                })
                .collect(),
            _ => Vec::new(),
        };
        let imus = match field("imus") {
            Some(Json::Object(imus)) => imus
                .iter()
                .map(|(name, settings)| {
                    (
                        name.as_str(),
                        settings.get("port").and_then(Json::as_str),
                        settings.get("baud").is_some(),
                    )
                })
                .collect(),
            _ => Vec::new(),
        };
        let sensors = match field("sensors") {
            Some(Json::Object(sensors)) => sensors
                .iter()
                .map(|(name, settings)| {
                    (
                        name.as_str(),
                        settings.get("topic").is_some(),
                        settings.get("undriven").and_then(Json::as_bool),
                    )
                })
                .collect(),
            _ => Vec::new(),
        };
        Parsed {
            robot: field("robot").and_then(Json::as_str),
            backend: field("backend")
                .and_then(Json::as_str)
                .and_then(|name| Backend::ALL.into_iter().find(|b| b.name() == name)),
            buses,
            joints,
            imus,
            sensors,
            mujoco_model: field("mujoco")
                .and_then(|m| m.get("model"))
                .and_then(Json::as_str),
            domains: (
                field("topic")
                    .and_then(|t| t.get("domain_id"))
                    .and_then(Json::as_u64),
                field("ros")
                    .and_then(|r| r.get("domain_id"))
                    .and_then(Json::as_u64),
            ),
        }
    }

    fn buses(&self) -> impl Iterator<Item = (&'a str, Option<&'a str>)> + '_ {
        self.buses.iter().flatten().copied()
    }

    fn has_bus(&self, name: &str) -> bool {
        self.buses().any(|(bus, _)| bus == name)
    }
}

/// Every rule, in the order of the fields in the file.
pub(super) fn against(config: &Parsed, robot: &Robot) -> Vec<FieldError> {
    let mut errors = Vec::new();
    robot_matches(config, robot, &mut errors);
    buses_are_the_robots(config, robot, &mut errors);
    interface_names_are_linux_names(config, &mut errors);
    buses_have_their_own_interfaces(config, &mut errors);
    real_backend_has_every_interface(config, robot, &mut errors);
    joints_are_the_robots(config, robot, &mut errors);
    unit_settings_need_an_actuator(config, robot, &mut errors);
    zero_offsets_within_the_turn_counter(config, robot, &mut errors);
    imus_are_the_robots(config, robot, &mut errors);
    imu_ports_are_device_paths(config, &mut errors);
    sensors_are_the_robots(config, robot, &mut errors);
    a_sensor_is_read_one_way(config, &mut errors);
    mujoco_model_is_a_word_or_an_mjcf_file(config, &mut errors);
    one_domain(config, &mut errors);
    errors
}

/// A file written for another robot names other buses and joints, and would calibrate the wrong
/// units: refuse it as a whole rather than report each name.
fn robot_matches(config: &Parsed, robot: &Robot, errors: &mut Vec<FieldError>) {
    if let Some(name) = config.robot
        && name != robot.name.as_ref()
    {
        errors.push(FieldError::new(
            "robot",
            format!("expected {}, found {}", robot.name, found(&name.into())),
        ));
    }
}

/// A misspelt bus would leave the real bus without an interface and map a bus nobody uses.
fn buses_are_the_robots(config: &Parsed, robot: &Robot, errors: &mut Vec<FieldError>) {
    for (name, _) in config.buses() {
        if robot.bus(name).is_none() {
            let known: Vec<&str> = robot.buses.iter().map(|b| b.name.as_ref()).collect();
            let hint = crate::validate::suggest::did_you_mean_before(name, known.iter().copied());
            errors.push(FieldError::new(
                field_path(&["buses", name]),
                format!("unknown bus; {hint}{} has {}", robot.name, known.join(", ")),
            ));
        }
    }
}

/// The SocketCAN backend opens the interface by name; the kernel accepts only names of 1 to 15
/// bytes (`IFNAMSIZ` less the NUL), not `.` or `..`, without `/`, `:` or whitespace
/// (`dev_valid_name` in `net/core/dev.c`). Catch a bad one here, not when the socket is opened.
fn interface_names_are_linux_names(config: &Parsed, errors: &mut Vec<FieldError>) {
    for (bus, interface) in config.buses() {
        let Some(interface) = interface else { continue };
        if !is_linux_interface_name(interface) {
            errors.push(FieldError::new(
                field_path(&["buses", bus]),
                format!(
                    "expected a Linux interface name (1 to 15 bytes, no `/`, `:` or whitespace), found {}",
                    found(&interface.into())
                ),
            ));
        }
    }
}

/// Each bus is a wire of its own, so it needs an interface of its own. On one interface, the two
/// ros2_control components (one per bus) would each open a socket on it, and SocketCAN delivers
/// every frame to every socket: each would see the other's actuators' replies as its own
/// traffic. And the bus-load budget (`robot describe`) is per wire: two buses each within it
/// could together exceed it on the one wire they share.
///
/// [`super::SIMULATED_BUS`] is the exception: each bus that names it gets an in-process bus of its own.
fn buses_have_their_own_interfaces(config: &Parsed, errors: &mut Vec<FieldError>) {
    let mut taken: Vec<(&str, &str)> = Vec::new(); // (interface, bus)
    for (bus, interface) in config.buses() {
        let Some(interface) = interface else { continue };
        if interface == super::SIMULATED_BUS {
            continue;
        }
        match taken.iter().find(|(taken, _)| *taken == interface) {
            Some((_, first)) => errors.push(FieldError::new(
                field_path(&["buses", bus]),
                format!(
                    "buses `{first}` and `{bus}` are both on `{interface}`; each bus needs an interface of its own"
                ),
            )),
            None => taken.push((interface, bus)),
        }
    }
}

fn is_linux_interface_name(name: &str) -> bool {
    (1..=15).contains(&name.len())
        && name != "."
        && name != ".."
        && !name
            .chars()
            .any(|c| c == '/' || c == ':' || c.is_whitespace())
}

/// Real hardware runs one component per bus, each on its interface; a bus without one cannot be
/// driven, and failing at activation would leave the other buses half started.
fn real_backend_has_every_interface(config: &Parsed, robot: &Robot, errors: &mut Vec<FieldError>) {
    if config.backend != Some(Backend::Real) || config.buses.is_none() {
        return;
    }
    for bus in robot.buses.iter() {
        if !config.has_bus(&bus.name) {
            errors.push(FieldError::new(
                field_path(&["buses", &bus.name]),
                format!(
                    "missing; backend real needs the OS interface of every bus, e.g. `{}: can0`",
                    bus.name
                ),
            ));
        }
    }
}

/// A misspelt joint would silently keep the defaults of the joint that was meant: driven, and
/// uncalibrated.
fn joints_are_the_robots(config: &Parsed, robot: &Robot, errors: &mut Vec<FieldError>) {
    for &(name, _) in &config.joints {
        if robot.joint(name).is_none() {
            let actuated: Vec<&str> = robot.actuated_joints().map(|j| j.name.as_ref()).collect();
            let hint =
                crate::validate::suggest::did_you_mean_before(name, actuated.iter().copied());
            errors.push(FieldError::new(
                field_path(&["joints", name]),
                format!(
                    "unknown joint; {hint}the actuated joints of {} are {}",
                    robot.name,
                    actuated.join(", ")
                ),
            ));
        }
    }
}

/// A zero offset calibrates a unit, and disabling means not driving a unit (`docs/runtime-configuration.md`): a joint
/// without an actuator (fixed, or following another) has neither, so either setting is a mistake.
fn unit_settings_need_an_actuator(config: &Parsed, robot: &Robot, errors: &mut Vec<FieldError>) {
    for (name, settings) in &config.joints {
        let Some(joint) = robot.joint(name) else {
            continue; // reported by `joints_are_the_robots`
        };
        if joint.actuator.is_some() {
            continue;
        }
        if settings.zero_offset.is_some() {
            errors.push(FieldError::new(
                field_path(&["joints", name, "zero_offset"]),
                format!("{name} has no actuator, so no zero offset to calibrate"),
            ));
        }
        if settings.enabled == Some(false) {
            errors.push(FieldError::new(
                field_path(&["joints", name, "enabled"]),
                format!("{name} has no actuator, so nothing to disable"),
            ));
        }
    }
}

/// A zero offset is a motor angle (the one at which the joint is at zero), held to the rule
/// `robot!` holds the definition's to ([`crate::actuator`]): the joint's whole range, through
/// direction, four-bar or lead, within what the turn counter follows, ±4096 rad of the motor's
/// zero (beyond the MIT frame's ±4π the backend counts turns; beyond the counter, the motor's own
/// multi-turn angle steps coarser than its feedback). The offset itself too: one beyond it is a
/// unit mistake (a raw encoder count), and the joint's zero could never be reached.
fn zero_offsets_within_the_turn_counter(
    config: &Parsed,
    robot: &Robot,
    errors: &mut Vec<FieldError>,
) {
    for (name, settings) in &config.joints {
        let (Some(offset), Some(joint)) = (settings.zero_offset, robot.joint(name)) else {
            continue; // no offset, or an unknown joint (reported by the rules above)
        };
        let Some(actuator) = &joint.actuator else {
            continue; // reported by the rules above
        };
        let field = field_path(&["joints", name, "zero_offset"]);
        let model = actuator.model.name();
        if !(offset.is_finite() && within_turn_counter(offset)) {
            errors.push(FieldError::new(
                field,
                format!(
                    "the zero offset of `{name}`, {} rad, is beyond the ±{TURN_COUNTER_SPAN} rad \
                     its {model}'s turns are counted over",
                    short(offset),
                ),
            ));
            continue;
        }
        let transmission = Transmission::of(actuator).with_zero_offset(offset);
        if let Some(end) =
            limit_angles(joint, &transmission).find(|e| !within_turn_counter(e.motor))
        {
            errors.push(FieldError::new(
                field,
                format!(
                    "with a zero offset of {} rad, the {} limit of `{name}` ({}) is motor angle \
                     {:.3} rad, beyond the ±{TURN_COUNTER_SPAN} rad its {model}'s turns are \
                     counted over",
                    short(offset),
                    end.end,
                    short(end.limit),
                    end.motor,
                ),
            ));
        }
    }
}

/// A misspelt IMU would leave the real one without a port: the run would refuse it, but the
/// file is where the mistake is.
fn imus_are_the_robots(config: &Parsed, robot: &Robot, errors: &mut Vec<FieldError>) {
    let imus = || {
        robot
            .sensors_of(crate::model::SensorKind::Imu)
            .map(|(_, s)| s)
    };
    for &(name, _, _) in &config.imus {
        if imus().any(|s| s.name == name) {
            continue;
        }
        let known: Vec<&str> = imus().map(|s| s.name.as_ref()).collect();
        let hint = crate::validate::suggest::did_you_mean_before(name, known.iter().copied());
        let has = if known.is_empty() {
            "no IMU".to_string()
        } else {
            known.join(", ")
        };
        errors.push(FieldError::new(
            field_path(&["imus", name]),
            format!("unknown IMU; {hint}{} has {has}", robot.name),
        ));
    }
}

/// A misspelt sensor would leave the real one unread: the run would refuse it, but the file is
/// where the mistake is. IMUs have their own section (`imus:`), with a serial port.
fn sensors_are_the_robots(config: &Parsed, robot: &Robot, errors: &mut Vec<FieldError>) {
    let others = || (robot.sensors.iter()).filter(|s| s.kind != crate::model::SensorKind::Imu);
    for &(name, _, _) in &config.sensors {
        if others().any(|s| s.name == name) {
            continue;
        }
        let message = if robot.sensors.iter().any(|s| s.name == name) {
            format!("`{name}` is an IMU: give its serial port under `imus:`")
        } else {
            let known: Vec<&str> = others().map(|s| s.name.as_ref()).collect();
            let hint = crate::validate::suggest::did_you_mean_before(name, known.iter().copied());
            let has = if known.is_empty() {
                "no force/torque or contact sensor".to_string()
            } else {
                known.join(", ")
            };
            format!("unknown sensor; {hint}{} has {has}", robot.name)
        };
        errors.push(FieldError::new(field_path(&["sensors", name]), message));
    }
}

/// A sensor is read from a topic or declared undriven: both, or neither, leaves what the run
/// would do to a guess.
fn a_sensor_is_read_one_way(config: &Parsed, errors: &mut Vec<FieldError>) {
    for &(name, topic, undriven) in &config.sensors {
        let message = match (topic, undriven) {
            (true, Some(true)) => "a topic, and undriven: give one or the other",
            (false, None | Some(false)) => {
                "give the `topic` it is read from, or `undriven: true` to run without it"
            }
            _ => continue,
        };
        errors.push(FieldError::new(
            field_path(&["sensors", name]),
            message.to_string(),
        ));
    }
}

/// A serial port is a device file, named by its absolute path (`/dev/ttyUSB0`, or better the
/// stable `/dev/serial/by-id/...`); a bare `ttyUSB0` would be looked up in whatever folder the
/// run starts from.
fn imu_ports_are_device_paths(config: &Parsed, errors: &mut Vec<FieldError>) {
    for &(name, port, baud) in &config.imus {
        let Some(port) = port else { continue };
        if port == super::SIMULATED_IMU {
            continue;
        }
        if !baud {
            // The simulated device has a baud of its own; a real one is at its saved setting,
            // which only the file can say.
            errors.push(FieldError::new(
                field_path(&["imus", name, "baud"]),
                format!(
                    "required for a serial port: the rate the device is set to (`robot imu scan \
                     --port {port}` finds it); only `port: sim` may leave it out"
                ),
            ));
        }
        if port.starts_with('/') {
            continue;
        }
        errors.push(FieldError::new(
            field_path(&["imus", name, "port"]),
            format!(
                "expected the absolute path of a serial device (`/dev/ttyUSB0`; `ls /dev/serial/by-id` lists stable names) or `sim`, found {}",
                found(&port.into())
            ),
        ));
    }
}

/// The MuJoCo backend loads one of the robot's own scenes by name or a user's MJCF file; a value
/// that is neither (a misspelt `stand`) would otherwise be taken for a file name and fail only
/// when the run starts. The schema cannot say it: one string field, two meanings.
fn mujoco_model_is_a_word_or_an_mjcf_file(config: &Parsed, errors: &mut Vec<FieldError>) {
    if let Some(Err(error)) = config.mujoco_model.map(str::parse::<super::MujocoModel>) {
        errors.push(FieldError::new("mujoco.model", error.to_string()));
    }
}

/// A process is one DDS participant, in one domain, whatever speaks ROS 2 in it (the topic
/// backend, the graph, the trajectory controller): two sections naming two domains cannot both
/// be had.
fn one_domain(config: &Parsed, errors: &mut Vec<FieldError>) {
    if let (Some(topic), Some(ros)) = config.domains
        && topic != ros
    {
        errors.push(FieldError::new(
            "topic.domain_id",
            format!(
                "{topic}, but ros.domain_id is {ros}: a run is one DDS participant in one domain; \
                 give one of them, or the same in both"
            ),
        ));
    }
}

/// A number as the user would write it: `-12.6`, and `1e9` rather than ten digits (or three
/// hundred for `1e300`).
fn short(value: f64) -> String {
    if value.abs() >= 1e6 {
        format!("{value:e}")
    } else {
        value.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::is_linux_interface_name;

    #[test]
    fn linux_interface_names() {
        for good in ["can0", "vcan12", "can-left_leg.1", "a", "fifteen_chars15"] {
            assert!(is_linux_interface_name(good), "{good}");
        }
        for bad in [
            "",
            ".",
            "..",
            "can/0",
            "can 0",
            "can0:1",
            "sixteen_chars_16",
            "\tcan0",
        ] {
            assert!(!is_linux_interface_name(bad), "{bad:?}");
        }
    }
}
