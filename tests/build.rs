//! The run-time path to MuJoCo's library for these tests: with `robots/mujoco` on (as
//! scripts/test builds them), the runs of `robot_runner::run` link the MuJoCo
//! backend (`robot_core::build::mujoco_run_time_path`).

fn main() {
    robot_core::build::mujoco_run_time_path();
}
