//! `cargo build` writes the robots' descriptions (URDF, xacro, controllers.yaml, MJCF, scene,
//! JSON) into `<OUT_DIR>/descriptions/<robot>/` and prints where. The definition files are
//! compiled here as modules too: a build script cannot use the crate it builds.

#[allow(dead_code)]
#[path = "src/robot.rs"]
mod robot;
#[allow(dead_code)]
#[path = "src/strider.rs"]
mod strider;

fn main() -> Result<(), robot_core::emit::WriteError> {
    robot_core::build::emit_descriptions(&[
        robot::PanTilt::DESCRIPTION,
        strider::Strider::DESCRIPTION,
    ])?;
    Ok(())
}
