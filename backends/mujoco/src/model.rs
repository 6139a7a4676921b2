//! Loading the MJCF: one of the robot's emitted scenes or a user's file, compiled by MuJoCo with
//! the timestep that divides the loop period.
//!
//! A scene `<include>`s `<robot>.mjcf.xml` by file name, so it cannot be compiled from its text
//! alone: both documents are rendered from the definition into a MuJoCo virtual file system
//! (VFS), and the scene is compiled from there. Nothing is written to disk, so no folder can be
//! stale, missing or shared with another run.

use std::path::Path;
use std::time::Duration;

use mujoco_rs::prelude::MjModel;
use mujoco_rs::wrappers::mj_auxiliary::MjVfs;
use robot_runtime::Robot;

use crate::options::ModelSource;

/// Why a model could not be loaded, in words for the hardware error.
pub(crate) type LoadError = String;

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
    let stand = match on_stand {
        true => {
            robot_emit::stand_scene(robot).map_err(|e| format!("the emitted stand scene: {e}"))?
        }
        false => None,
    };
    let (file, scene) = match stand {
        Some(text) => (format!("{}.stand.scene.xml", robot.name), text),
        None => (
            format!("{}.scene.xml", robot.name),
            robot_emit::scene(robot).map_err(|e| format!("the emitted scene: {e}"))?,
        ),
    };
    let origin = format!("the emitted {file}");
    let mjcf_file = format!("{}.mjcf.xml", robot.name);
    let mjcf = robot_emit::mjcf(robot).map_err(|e| format!("the emitted {mjcf_file}: {e}"))?;
    let mut vfs = MjVfs::new();
    for (name, text) in [(&mjcf_file, &mjcf), (&file, &scene)] {
        vfs.add_from_buffer(name, text.as_bytes())
            .map_err(|e| format!("{origin}: MuJoCo's virtual file system refused `{name}`: {e}"))?;
    }
    let model = MjModel::from_xml_vfs(&file, &vfs)
        .map_err(|e| format!("MuJoCo cannot compile {origin}: {e}"))?;
    Ok((model, origin))
}

/// A file, compiled from where it is, so includes and meshes resolve from its folder.
fn compile_file(path: &Path, origin: &str) -> Result<MjModel, LoadError> {
    if !path.is_file() {
        return Err(format!("{origin}: no such file"));
    }
    MjModel::from_xml(path).map_err(|e| format!("MuJoCo cannot compile {origin}: {e}"))
}
