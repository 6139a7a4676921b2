use robot_macros::robot;

robot! {
    robot Tiny { update_rate: 100 Hz }
    bus arm {}
    link base {}
    link hand { collision mesh { filename: "hand.stl" } }
    link finger {}
    joint wrist: revolute {
        parent: base,
        child: hand,
        limits { lower: -1, upper: 1, velocity: 10, effort: 10 },
        actuator { bus: arm, can_id: 1, model: RS02 },
        command: [position],
        state: [position],
    }
    joint tip: fixed { parent: hand, child: finger }
    force_torque base_ft { link: base, plugin: "pkg/Ft" }
    contact palm { link: hand, plugin: "pkg/Touch" }
    contact fingertip { link: finger, plugin: "pkg/Touch", threshold: -2 N }
    imu base_imu { link: base, plugin: "pkg/Imu", threshold: 1 N }
    contact thumb { link: finger, plugin: "pkg/Touch", threshold: 2 N·m }
}

fn main() {}
