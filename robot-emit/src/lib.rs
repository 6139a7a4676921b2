//! The emitters: plain functions from a [`Robot`] to the files the ROS 2, ros2_control and MuJoCo
//! worlds consume (URDF, xacro, ros2_control, `controllers.yaml`, MJCF and its scenes, the ROS 2
//! description package), and [`build`], for build scripts. Output is deterministic (declaration
//! order, one float format, one XML writer), so checked-in copies can be compared byte for byte.
//!
//! Emission apart from the runtime (`robot-runtime`): a backend or a controller that only runs
//! never compiles the XML writer. `robot-core` re-exports this crate as `robot_core::emit` (and
//! [`build`] as `robot_core::build`).
#![warn(missing_docs)]

use robot_model::model::Robot;
use robot_runtime::backend::Backend;

pub mod build;
mod controllers;
mod format;
mod mjcf;
#[cfg(test)]
mod read;
mod ros2_control;
pub mod ros_package;
mod urdf;
mod write;
mod xml;

pub use format::header_comment;
pub use ros2_control::launch_args::{LaunchDefaults, PrefixError};
pub use write::{WriteError, Written, write_all, write_all_with};

/// The command that regenerates this repository's checked-in emitted files
/// (`robots/descriptions/`, the ROS packages `robots/ros/`, `schema/`).
pub const REGENERATE_COMMAND: &str = "cargo regenerate";

/// How any emitted file is made again, as its header says: true in any robot crate, where
/// `cargo regenerate` (this repository's alias) does not exist.
pub const HOW_TO_REGENERATE: &str =
    "change the definition; building its crate writes this file again, as does its tool's emit";

/// Something went wrong writing a file (in practice only the XML writer can fail).
#[derive(Debug, thiserror::Error)]
pub enum EmitError {
    /// The XML writer failed.
    #[error("writing XML: {0}")]
    Xml(#[from] std::io::Error),
    /// The kinematic tree could not be walked (for the scenes' home pose).
    #[error("kinematics: {0}")]
    Kinematics(#[from] robot_model::kinematics::KinematicsError),
    /// JSON or YAML serialization failed.
    #[error("serializing {what}: {message}")]
    Serialize {
        /// What was being serialized.
        what: &'static str,
        /// The serializer's message.
        message: String,
    },
}

/// One emitted file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Artifact {
    /// File name, e.g. `lite_biped.urdf.xacro`.
    pub file_name: String,
    /// Full contents.
    pub contents: String,
}

/// `<robot>.urdf.xacro`: links, joints and the `<ros2_control>` blocks of every backend, selected
/// by the `sim_mujoco` and `use_mock_hardware` args.
pub fn urdf_xacro(robot: &Robot) -> Result<String, EmitError> {
    urdf::document(robot, urdf::Target::Xacro)
}

/// `<robot>.<backend>.urdf`: what xacro gives for the args that select `backend`.
pub fn urdf(robot: &Robot, backend: Backend) -> Result<String, EmitError> {
    urdf::document(robot, urdf::Target::Expanded(backend))
}

/// `<robot>.controllers.yaml`: controller_manager and its controllers.
pub fn controllers_yaml(robot: &Robot) -> Result<String, EmitError> {
    controllers::yaml(robot, "")
}

/// `<robot>.mjcf.xml`: a MuJoCo model of the same kinematics and inertias.
pub fn mjcf(robot: &Robot) -> Result<String, EmitError> {
    mjcf::document(robot)
}

pub use mjcf::{
    CONTACT_SITE_MARGIN, STAND_CLEARANCE, STAND_WELD, contact_shapes, touch_sensor_name,
};

/// `<robot>.scene.xml`: `<robot>.mjcf.xml` included, with a floor, a light and a `home` keyframe
/// whose base height puts the lowest collision geometry on the floor (from the definition's
/// kinematics, `robot_core::kinematics`).
pub fn scene(robot: &Robot) -> Result<String, EmitError> {
    mjcf::scene(robot)
}

/// `<robot>.stand.scene.xml`, for a floating-base robot (`None` otherwise): the floor scene with
/// the robot on a test stand, its root held by weld [`STAND_WELD`] [`STAND_CLEARANCE`] above its
/// standing height so the feet hang free. The free joint stays (held, not removed), so an IMU on
/// the root still reads gravity.
pub fn stand_scene(robot: &Robot) -> Result<Option<String>, EmitError> {
    mjcf::stand_scene(robot)
}

/// `<robot>.json`: the definition itself, valid against `schema/robot.schema.json`.
pub fn robot_json(robot: &Robot) -> Result<String, EmitError> {
    let mut text = serde_json::to_string_pretty(robot).map_err(|e| EmitError::Serialize {
        what: "robot JSON",
        message: e.to_string(),
    })?;
    text.push('\n');
    Ok(text)
}

/// Every per-robot file, in a fixed order.
pub fn all(robot: &Robot) -> Result<Vec<Artifact>, EmitError> {
    all_with(robot, &LaunchDefaults::default())
}

/// [`all`], with the launch args' defaults taken from `defaults` where it gives them (a
/// runtime configuration's interfaces and ports: `robot emit --config`).
pub fn all_with(robot: &Robot, defaults: &LaunchDefaults) -> Result<Vec<Artifact>, EmitError> {
    let name = &robot.name;
    // The four URDF documents are renderings of one tree: build it once.
    let tree = urdf::tree(robot, defaults)?;
    let mut files = vec![Artifact {
        file_name: format!("{name}.urdf.xacro"),
        contents: urdf::render(&tree, urdf::Target::Xacro)?,
    }];
    for backend in Backend::ALL {
        files.push(Artifact {
            file_name: format!("{name}.{backend}.urdf"),
            contents: urdf::render(&tree, urdf::Target::Expanded(backend))?,
        });
    }
    files.push(Artifact {
        file_name: format!("{name}.controllers.yaml"),
        contents: controllers::yaml(robot, defaults.prefix.as_deref().unwrap_or(""))?,
    });
    files.push(Artifact {
        file_name: format!("{name}.mjcf.xml"),
        contents: mjcf(robot)?,
    });
    files.push(Artifact {
        file_name: format!("{name}.scene.xml"),
        contents: scene(robot)?,
    });
    if let Some(contents) = stand_scene(robot)? {
        files.push(Artifact {
            file_name: format!("{name}.stand.scene.xml"),
            contents,
        });
    }
    files.push(Artifact {
        file_name: format!("{name}.json"),
        contents: robot_json(robot)?,
    });
    Ok(files)
}
