//! The run-time path to MuJoCo's library for this crate's tests and benches, or an error naming
//! the script that installs it (`robot_emit::build::link_mujoco`).

fn main() {
    robot_emit::build::link_mujoco();
}
