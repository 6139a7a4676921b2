//! `<robot>_description/`: a ROS 2 package of the emitted descriptions, laid out as
//! lite_description's is, that `colcon build` installs and `ros2 launch` starts.
//!
//! * `package.xml` (format 3) and `CMakeLists.txt` (ament_cmake, installing the folders below);
//! * `urdf/<robot>.urdf.xacro`, `config/<robot>.controllers.yaml`, `mjcf/` (the model and its
//!   scenes);
//! * `launch/view.launch.py` (robot_state_publisher, joint_state_publisher_gui, rviz2) and
//!   `launch/bringup.launch.py` (the robot under ros2_control on the backend its args select);
//! * `rviz/<robot>.rviz`.
//!
//! The files are the same renderings as [`super::all_with`]'s, so the package and the loose
//! descriptions cannot disagree; the launch args and their defaults are the `.urdf.xacro`'s.

use std::path::Path;

use super::{Artifact, EmitError, LaunchDefaults, WriteError, Written};
use robot_model::model::Robot;

mod cmake;
mod info;
mod launch;
mod package_xml;
mod rviz;
#[cfg(test)]
mod tests;

pub use info::{Maintainer, PackageInfo, PackageInfoError};

/// The folders `CMakeLists.txt` installs into `share/<package>/`, each holding files of ours.
pub const INSTALLED_FOLDERS: [&str; 5] = ["config", "launch", "mjcf", "rviz", "urdf"];

/// The package's name: `<robot>_description`, as lite_description and the UR description name
/// theirs.
pub fn package_name(robot: &Robot) -> String {
    format!("{}_description", robot.name)
}

/// Every file of the package, by path inside it (`urdf/lite_biped.urdf.xacro`), in a fixed order.
pub fn files(
    robot: &Robot,
    defaults: &LaunchDefaults,
    info: &PackageInfo,
) -> Result<Vec<Artifact>, EmitError> {
    let name = &robot.name;
    let descriptions = super::all_with(robot, defaults)?;
    let folder_of = |file: &str| {
        if file.ends_with(".urdf.xacro") {
            Some("urdf")
        } else if file.ends_with(".controllers.yaml") {
            Some("config")
        } else if file.ends_with(".xml") {
            Some("mjcf")
        } else {
            None // the expanded URDFs (xacro makes them at launch) and the JSON definition
        }
    };
    let mut out = vec![
        Artifact {
            file_name: "package.xml".to_string(),
            contents: package_xml::document(robot, info)?,
        },
        Artifact {
            file_name: "CMakeLists.txt".to_string(),
            contents: cmake::lists(robot),
        },
    ];
    out.extend(descriptions.into_iter().filter_map(|artifact| {
        let folder = folder_of(&artifact.file_name)?;
        Some(Artifact {
            file_name: format!("{folder}/{}", artifact.file_name),
            contents: artifact.contents,
        })
    }));
    out.push(Artifact {
        file_name: "launch/view.launch.py".to_string(),
        contents: launch::view(robot),
    });
    out.push(Artifact {
        file_name: "launch/bringup.launch.py".to_string(),
        contents: launch::bringup(robot, defaults)?,
    });
    out.push(Artifact {
        file_name: format!("rviz/{name}.rviz"),
        contents: rviz::config(robot)?,
    });
    Ok(out)
}

/// Writes the package into `parent/<robot>_description/` ([`files`]), leaving files that already
/// hold what is emitted alone.
pub fn write(
    robot: &Robot,
    parent: &Path,
    defaults: &LaunchDefaults,
    info: &PackageInfo,
) -> Result<Written, WriteError> {
    let artifacts = files(robot, defaults, info).map_err(|source| WriteError::Emit {
        robot: robot.name.to_string(),
        source,
    })?;
    super::write::write_artifacts(&parent.join(package_name(robot)), artifacts)
}
