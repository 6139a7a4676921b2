//! With the `mujoco` feature, the run-time path to MuJoCo's library for this crate's tests
//! (`backends/mujoco/link.rs`).

#[path = "../backends/mujoco/link.rs"]
mod link;

fn main() {
    if std::env::var_os("CARGO_FEATURE_MUJOCO").is_some() {
        link::link();
    }
}
