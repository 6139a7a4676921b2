//! A plain-text summary of a robot: its joints with their bus, CAN id, model, limits (in the
//! joint's own units: rad or m) and interfaces, and how the RobStride backend follows a motor that
//! leaves the MIT frame's ±4π window; its buses with their worst-case load at the update rate,
//! its trajectory controllers with what they feed forward, and its sensors.

use std::fmt::Write;

use robot_core::InterfaceKind;
use robot_core::Robot;
use robot_core::actuator::{MotorTravel, limit_angles};
use robot_core::bus_load;
use robot_core::controller_plan::{self, ControllerKind, Source};
use robot_core::model::{Feedforward, Joint, JointKind, SensorKind};
use robot_core::transmission::Transmission;

/// ` (body `pelvis`, turned 0.000 0.000 0.000 rad)`: where the IMU's readings are reported,
/// and how its link (the sensor frame) is turned in that body (roll, pitch, yaw).
fn mounted(robot: &Robot, link: &str) -> String {
    let Ok(mounting) = backend_witmotion::mounting::Mounting::of(robot, link) else {
        return String::new();
    };
    let r = mounting.rotation;
    let q = witmotion_protocol::Quaternion::new(r.x as f32, r.y as f32, r.z as f32, r.w as f32);
    let (roll, pitch, yaw) = q.to_euler();
    format!(
        " (reported for body `{}`, the link turned {roll:.3} {pitch:.3} {yaw:.3} rad in it)",
        mounting.body
    )
}

/// The units of a joint's position, velocity and effort, and the decimals its velocity is
/// shown with.
struct Units {
    position: &'static str,
    velocity: &'static str,
    effort: &'static str,
    decimals: usize,
}

impl Units {
    fn of(joint: &Joint) -> Units {
        if joint.kind == JointKind::Prismatic {
            Units {
                position: "m",
                velocity: "m/s",
                effort: "N",
                decimals: 3,
            }
        } else {
            Units {
                position: "rad",
                velocity: "rad/s",
                effort: "N·m",
                decimals: 1,
            }
        }
    }
}

/// How the RobStride backend follows an actuated joint's motor beyond the ±4π window, where it
/// does: `multi-turn, 15.0 motor turns` (its count seeded from the motor's own) or `continuous`
/// (counted from where it is first read). `None` for a joint inside the window.
fn counted_travel(joint: &Joint) -> Option<String> {
    let transmission = Transmission::of(joint.actuator.as_ref()?);
    match MotorTravel::of(joint, &transmission) {
        MotorTravel::Window => None,
        MotorTravel::Continuous => Some("continuous: motor turns counted".to_string()),
        MotorTravel::MultiTurn => {
            let angles: Vec<f64> = limit_angles(joint, &transmission)
                .map(|end| end.motor)
                .collect();
            let low = angles.iter().copied().fold(f64::INFINITY, f64::min);
            let high = angles.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let turns = (high - low) / std::f64::consts::TAU;
            Some(format!("multi-turn: {turns:.1} motor turns, counted"))
        }
    }
}

/// The summary table.
pub fn table(robot: &Robot) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({}): {} links, {} joints, {} actuated, update rate {} Hz",
        robot.type_name,
        robot.name,
        robot.links.len(),
        robot.joints.len(),
        robot.actuated_joints().count(),
        robot.update_rate
    );
    let _ = writeln!(out, "\njoints");
    let _ = writeln!(
        out,
        "  {:<20} {:<10} {:<10} {:>3} {:<5} {:>4} {:>21} {:>10} {:>9} {:>5}  interfaces (command | state)",
        "name", "type", "bus", "id", "model", "dir", "range", "velocity", "effort", "amps"
    );
    for joint in robot.joints.iter() {
        let (bus, id, model, dir) = match &joint.actuator {
            Some(a) => (
                a.bus.to_string(),
                a.can_id.to_string(),
                a.model.name().to_string(),
                format!("{:+}", i8::from(a.direction)),
            ),
            None => ("-".into(), "-".into(), "-".into(), "-".into()),
        };
        let limits = joint.limits.as_ref();
        let units = Units::of(joint);
        let range = match limits.and_then(|l| l.lower.zip(l.upper)) {
            Some((lower, upper)) => format!("{lower:+.3} .. {upper:+.3} {}", units.position),
            None => "-".into(),
        };
        let velocity = limits.map_or("-".into(), |l| {
            format!("{:.*} {}", units.decimals, l.velocity, units.velocity)
        });
        let effort = limits.map_or("-".into(), |l| format!("{:.1} {}", l.effort, units.effort));
        let current = limits
            .and_then(|l| l.current)
            .map_or("-".into(), |c| format!("{c:.0}"));
        let names = |list: &[robot_core::model::Interface]| {
            list.iter()
                .map(|i| i.kind.name())
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut interfaces = format!(
            "{} | {}",
            names(&joint.command_interfaces),
            names(&joint.state_interfaces)
        );
        if joint
            .actuator
            .as_ref()
            .is_some_and(|a| a.four_bar.is_some())
        {
            interfaces.push_str("  (four-bar)");
        }
        if let Some(travel) = counted_travel(joint) {
            interfaces.push_str(&format!("  ({travel})"));
        }
        if let Some(m) = &joint.mimic {
            interfaces.push_str(&format!(
                "  (mimics {} ×{} {:+})",
                m.joint, m.multiplier, m.offset
            ));
        }
        let _ = writeln!(
            out,
            "  {:<20} {:<10} {:<10} {:>3} {:<5} {:>4} {:>21} {:>10} {:>9} {:>5}  {}",
            joint.name,
            joint.kind.urdf_name(),
            bus,
            id,
            model,
            dir,
            range,
            velocity,
            effort,
            current,
            interfaces
        );
    }
    let _ = writeln!(
        out,
        "\nbuses (worst case: two {}-bit frames per actuator per cycle)",
        bus_load::WORST_CASE_FRAME_BITS
    );
    for bus in robot.buses.iter() {
        let load = bus_load::load(robot, bus);
        let fits = if load.actuators == 0 {
            "fits at any rate".to_string()
        } else {
            format!(
                "fits up to {} Hz within its {:.0}% ceiling",
                load.max_rate_within_ceiling,
                load.max_load * 100.0
            )
        };
        let _ = writeln!(
            out,
            "  {:<12} {} bit/s, {} actuators, {} bit/s at {} Hz = {:.1}% load, {fits}",
            bus.name,
            bus.kind.bitrate(),
            load.actuators,
            load.needed_bits_per_second,
            robot.update_rate,
            load.utilisation * 100.0,
        );
    }
    trajectory_controllers(robot, &mut out);
    if !robot.sensors.is_empty() {
        let _ = writeln!(out, "\nsensors");
        let width = (robot.sensors.iter().map(|s| s.name.len()))
            .max()
            .unwrap_or(0)
            .max(12);
        for sensor in robot.sensors.iter() {
            let threshold = match sensor.kind {
                SensorKind::Contact => format!(", contact from {} N", sensor.contact_threshold()),
                _ => String::new(),
            };
            // An IMU reports for the body it is fixed to (the rest read at their link).
            let mounting = match sensor.kind {
                SensorKind::Imu => mounted(robot, &sensor.link),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "  {:<width$} {} on link `{}`{mounting}{threshold}, real hardware: {}",
                sensor.name,
                sensor.kind.keyword(),
                sensor.link,
                sensor.plugin
            );
            let real = match sensor.kind {
                SensorKind::Imu => format!(
                    "{}, a WitMotion-protocol IMU on the port the configuration gives (`imus.{}`)",
                    robot.sensor_block_name(&sensor.name),
                    sensor.name
                ),
                kind => format!(
                    "{}, read from the topic its driver publishes ({}), or undriven on purpose, \
                     as the configuration says (`sensors.{}`)",
                    robot.sensor_block_name(&sensor.name),
                    if kind == SensorKind::ForceTorque {
                        "geometry_msgs/WrenchStamped"
                    } else {
                        "std_msgs/Bool"
                    },
                    sensor.name
                ),
            };
            let _ = writeln!(out, "  {:<width$} robot run on real: {real}", "");
        }
    }
    out
}

/// Each trajectory controller, its joints, and what it feeds forward: `gravity fed forward
/// (effort on 6 of 6 joints)`, or `servo alone`.
fn trajectory_controllers(robot: &Robot, out: &mut String) {
    let controllers: Vec<_> = (controller_plan::controllers(robot).into_iter())
        .filter(|c| matches!(c.kind, ControllerKind::Trajectory { .. }))
        .collect();
    if controllers.is_empty() {
        return;
    }
    let _ = writeln!(out, "\ntrajectory controllers");
    let width = (controllers.iter().map(|c| c.name.len()).max()).unwrap_or(0);
    for controller in &controllers {
        let feedforward = match controller.source {
            Source::Named(group) => {
                (robot.controller_groups.get(group)).map_or(Feedforward::None, |g| g.feedforward)
            }
            Source::Bus(_) => Feedforward::None,
        };
        let fed = match feedforward {
            Feedforward::None => "servo alone".to_string(),
            Feedforward::Gravity => {
                let carried = (controller.joints.iter())
                    .filter_map(|name| robot.joint(name))
                    .filter(|j| j.command_interface(InterfaceKind::Effort).is_some())
                    .count();
                format!(
                    "gravity fed forward (effort on {carried} of {} joints)",
                    controller.joints.len()
                )
            }
        };
        let _ = writeln!(
            out,
            "  {:<width$} {}: {fed}",
            controller.name,
            controller.joints.join(", ")
        );
    }
}

#[cfg(test)]
mod tests {
    use robot_macros::robot;

    robot! {
        robot Tower { update_rate: 200 Hz }
        bus base {}
        link base {}
        link carriage {}
        link head {}
        /// 300 mm on a 20 mm lead: 15 motor turns.
        joint lift: prismatic {
            parent: base,
            child: carriage,
            axis: [0, 0, 1],
            limits { lower: 0, upper: 300 mm, velocity: 0.15, effort: 1500 },
            actuator { bus: base, can_id: 1, model: RS06, lead: 20 mm },
            command: [position],
            state: [position],
        }
        joint pan: revolute {
            parent: carriage,
            child: head,
            axis: [0, 0, 1],
            limits { lower: -1.5, upper: 1.5, velocity: 4, effort: 10 },
            actuator { bus: base, can_id: 2, model: RS02 },
            command: [position],
            state: [position],
        }
    }

    fn row<'a>(table: &'a str, joint: &str) -> &'a str {
        table
            .lines()
            .find(|l| l.trim_start().starts_with(joint))
            .unwrap_or_default()
    }

    #[test]
    fn a_lift_is_shown_in_metres_and_marked_multi_turn_and_a_joint_in_the_window_is_not() {
        let table = super::table(Tower::DESCRIPTION);
        let lift = row(&table, "lift ");
        for shown in [
            "+0.000 .. +0.300 m",
            "0.150 m/s",
            "1500.0 N ",
            "(multi-turn: 15.0 motor turns, counted)",
        ] {
            assert!(lift.contains(shown), "{shown} in\n{table}");
        }
        let pan = row(&table, "pan ");
        for shown in ["-1.500 .. +1.500 rad", "4.0 rad/s", "10.0 N·m"] {
            assert!(pan.contains(shown), "{shown} in\n{table}");
        }
        assert!(!pan.contains("turns"), "{table}");
    }
}
