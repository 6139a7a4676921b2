//! With the `mujoco` feature, the run-time path to MuJoCo's library for this crate's tests
//! (`robot_core::build::link_mujoco`).

fn main() {
    if std::env::var_os("CARGO_FEATURE_MUJOCO").is_some() {
        robot_core::build::link_mujoco();
    }
}
