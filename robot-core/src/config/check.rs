//! The checks of a configuration against the robot it is for: what the schema cannot know
//! because it is the same for every robot. One function per rule, each with its reason.

use crate::backend::Backend;
use crate::config::RuntimeConfig;
use crate::model::Robot;

use super::load::{FieldError, field_path, found};

/// Every rule, in the order of the fields in the file.
pub(super) fn against(config: &RuntimeConfig, robot: &Robot) -> Vec<FieldError> {
    let mut errors = Vec::new();
    robot_matches(config, robot, &mut errors);
    buses_are_the_robots(config, robot, &mut errors);
    interface_names_are_linux_names(config, &mut errors);
    real_backend_has_every_interface(config, robot, &mut errors);
    joints_are_the_robots(config, robot, &mut errors);
    unit_settings_need_an_actuator(config, robot, &mut errors);
    errors
}

/// A file written for another robot names other buses and joints, and would calibrate the wrong
/// units: refuse it as a whole rather than report each name.
fn robot_matches(config: &RuntimeConfig, robot: &Robot, errors: &mut Vec<FieldError>) {
    if config.robot != robot.name {
        errors.push(FieldError::new(
            "robot",
            format!(
                "expected {}, found {}",
                robot.name,
                found(&config.robot.as_str().into())
            ),
        ));
    }
}

/// A misspelt bus would leave the real bus without an interface and map a bus nobody uses.
fn buses_are_the_robots(config: &RuntimeConfig, robot: &Robot, errors: &mut Vec<FieldError>) {
    for name in config.buses.keys() {
        if robot.bus(name).is_none() {
            let known: Vec<&str> = robot.buses.iter().map(|b| b.name.as_ref()).collect();
            errors.push(FieldError::new(
                field_path(&["buses", name]),
                format!("unknown bus; {} has {}", robot.name, known.join(", ")),
            ));
        }
    }
}

/// The SocketCAN backend opens the interface by name; the kernel accepts only names of 1 to 15
/// bytes (`IFNAMSIZ` less the NUL), not `.` or `..`, without `/`, `:` or whitespace
/// (`dev_valid_name` in `net/core/dev.c`). Catch a bad one here, not when the socket is opened.
fn interface_names_are_linux_names(config: &RuntimeConfig, errors: &mut Vec<FieldError>) {
    for (bus, interface) in &config.buses {
        if !is_linux_interface_name(interface) {
            errors.push(FieldError::new(
                field_path(&["buses", bus]),
                format!(
                    "expected a Linux interface name (1 to 15 bytes, no `/`, `:` or whitespace), found {}",
                    found(&interface.as_str().into())
                ),
            ));
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
fn real_backend_has_every_interface(
    config: &RuntimeConfig,
    robot: &Robot,
    errors: &mut Vec<FieldError>,
) {
    if config.backend != Backend::Real {
        return;
    }
    for bus in robot.buses.iter() {
        if !config.buses.contains_key(bus.name.as_ref()) {
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
fn joints_are_the_robots(config: &RuntimeConfig, robot: &Robot, errors: &mut Vec<FieldError>) {
    for name in config.joints.keys() {
        if robot.joint(name).is_none() {
            let actuated: Vec<&str> = robot.actuated_joints().map(|j| j.name.as_ref()).collect();
            errors.push(FieldError::new(
                field_path(&["joints", name]),
                format!(
                    "unknown joint; the actuated joints of {} are {}",
                    robot.name,
                    actuated.join(", ")
                ),
            ));
        }
    }
}

/// A zero offset calibrates a unit, and disabling means not driving a unit (seed `004`): a joint
/// without an actuator (fixed, or following another) has neither, so either setting is a mistake.
fn unit_settings_need_an_actuator(
    config: &RuntimeConfig,
    robot: &Robot,
    errors: &mut Vec<FieldError>,
) {
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
        if !settings.enabled {
            errors.push(FieldError::new(
                field_path(&["joints", name, "enabled"]),
                format!("{name} has no actuator, so nothing to disable"),
            ));
        }
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
