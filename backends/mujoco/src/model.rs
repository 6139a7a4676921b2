//! Loading the MJCF: one of the robot's emitted scenes or a user's file, compiled by MuJoCo with
//! the timestep that divides the loop period.
//!
//! A scene `<include>`s `<robot>.mjcf.xml` by file name, so it cannot be compiled from its text
//! alone: both documents are rendered from the definition into a MuJoCo virtual file system
//! (VFS), and the scene is compiled from there. Nothing is written to disk, so no folder can be
//! stale, missing or shared with another run.

use std::path::Path;
use std::time::Duration;

use mujoco_rs::error::{MjModelError, MjVfsError};
use mujoco_rs::prelude::MjModel;
use mujoco_rs::wrappers::mj_auxiliary::MjVfs;
use robot_emit::EmitError;
use robot_runtime::Robot;

use crate::options::ModelSource;

/// Why a model could not be loaded; what the emitter or MuJoCo said is the source.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LoadError {
    /// The definition could not be rendered as the scene or the model.
    #[error("the emitted {file}")]
    Emit {
        /// The file.
        file: String,
        /// Why not.
        #[source]
        cause: EmitError,
    },
    /// MuJoCo's virtual file system refused a document.
    #[error("{origin}: MuJoCo's virtual file system refused `{file}`")]
    Vfs {
        /// What was being loaded.
        origin: String,
        /// The document.
        file: String,
        /// What MuJoCo said.
        #[source]
        cause: MjVfsError,
    },
    /// MuJoCo did not compile the model.
    #[error("MuJoCo cannot compile {origin}")]
    Compile {
        /// What was being loaded.
        origin: String,
        /// What MuJoCo said.
        #[source]
        cause: MjModelError,
    },
    /// A user's file that is not there.
    #[error("{origin}: no such file")]
    NoFile {
        /// The file, as named.
        origin: String,
    },
}

/// The compiled model and where it came from (for messages).
pub(crate) struct Loaded {
    pub model: MjModel,
    pub origin: String,
}

/// Compiles the model `source` names for `robot`, with timestep `timestep`.
pub(crate) fn load(
    robot: &Robot,
    source: &ModelSource,
    timestep: Duration,
) -> Result<Loaded, LoadError> {
    let (mut model, origin) = match source {
        ModelSource::Scene => emitted(robot, false)?,
        ModelSource::Stand => emitted(robot, true)?,
        ModelSource::File(path) => {
            let origin = format!("`{}`", path.display());
            (compile_file(path, &origin)?, origin)
        }
    };
    model.opt_mut().timestep = timestep.as_secs_f64();
    Ok(Loaded { model, origin })
}

/// The floor scene, or the stand scene when `on_stand` and the robot has one.
fn emitted(robot: &Robot, on_stand: bool) -> Result<(MjModel, String), LoadError> {
    let emit_error = |file: &str| {
        let file = file.to_string();
        move |cause| LoadError::Emit { file, cause }
    };
    let stand = match on_stand {
        true => robot_emit::stand_scene(robot).map_err(emit_error("stand scene"))?,
        false => None,
    };
    let (file, scene) = match stand {
        Some(text) => (format!("{}.stand.scene.xml", robot.name), text),
        None => (
            format!("{}.scene.xml", robot.name),
            robot_emit::scene(robot).map_err(emit_error("scene"))?,
        ),
    };
    let origin = format!("the emitted {file}");
    let mjcf_file = format!("{}.mjcf.xml", robot.name);
    let mjcf = robot_emit::mjcf(robot).map_err(emit_error(&mjcf_file))?;
    let mut vfs = MjVfs::new();
    for (name, text) in [(&mjcf_file, &mjcf), (&file, &scene)] {
        vfs.add_from_buffer(name, text.as_bytes())
            .map_err(|cause| LoadError::Vfs {
                origin: origin.clone(),
                file: name.clone(),
                cause,
            })?;
    }
    let model = MjModel::from_xml_vfs(&file, &vfs).map_err(|cause| LoadError::Compile {
        origin: origin.clone(),
        cause,
    })?;
    Ok((model, origin))
}

/// A file, compiled from where it is, so includes and meshes resolve from its folder.
fn compile_file(path: &Path, origin: &str) -> Result<MjModel, LoadError> {
    if !path.is_file() {
        return Err(LoadError::NoFile {
            origin: origin.to_string(),
        });
    }
    MjModel::from_xml(path).map_err(|cause| LoadError::Compile {
        origin: origin.to_string(),
        cause,
    })
}
