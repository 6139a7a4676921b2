//! A plain-text summary of a robot: its joints with their bus, CAN id, model, limits and
//! interfaces, its buses with their worst-case load at the update rate, and its sensors.

use std::fmt::Write;

use robot_core::Robot;
use robot_core::bus_load;
use robot_core::model::SensorKind;

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
        "  {:<20} {:<10} {:<10} {:>3} {:<5} {:>4} {:>18} {:>7} {:>7} {:>5}  interfaces (command | state)",
        "name", "type", "bus", "id", "model", "dir", "range [rad]", "vel", "effort", "amps"
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
        let range = match limits.and_then(|l| l.lower.zip(l.upper)) {
            Some((lower, upper)) => format!("{lower:+.3} .. {upper:+.3}"),
            None => "-".into(),
        };
        let velocity = limits.map_or("-".into(), |l| format!("{:.1}", l.velocity));
        let effort = limits.map_or("-".into(), |l| format!("{:.1}", l.effort));
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
        if let Some(m) = &joint.mimic {
            interfaces.push_str(&format!(
                "  (mimics {} ×{} {:+})",
                m.joint, m.multiplier, m.offset
            ));
        }
        let _ = writeln!(
            out,
            "  {:<20} {:<10} {:<10} {:>3} {:<5} {:>4} {:>18} {:>7} {:>7} {:>5}  {}",
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
                _ => "refused: no driver for it here (the mock and MuJoCo back it)".to_string(),
            };
            let _ = writeln!(out, "  {:<width$} robot run on real: {real}", "");
        }
    }
    out
}
