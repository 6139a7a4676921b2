//! `cargo build` writes the robot's descriptions (URDF, xacro, controllers.yaml, MJCF, scene,
//! JSON) into `<OUT_DIR>/descriptions/pan_tilt/` and prints where. The definition file is compiled
//! here as a module too: a build script cannot use the crate it builds.

#[allow(dead_code)]
#[path = "src/robot.rs"]
mod robot;

fn main() -> Result<(), robot_core::emit::WriteError> {
    robot_core::build::emit_descriptions(&[robot::PanTilt::DESCRIPTION])?;
    Ok(())
}
