//! Loading the MJCF: the emitted model or a user's file, the base welded when asked, compiled by
//! MuJoCo with the timestep that divides the loop period.

use std::path::Path;
use std::time::Duration;

use mujoco_rs::prelude::MjModel;
use robot_core::Robot;

use crate::options::{Base, ModelSource};

/// Why a model could not be loaded, in words for the hardware error.
pub(crate) type LoadError = String;

/// The compiled model and where it came from (for messages).
pub(crate) struct Loaded {
    pub model: MjModel,
    pub origin: String,
}

/// Compiles the model `source` names for `robot`, its base held as `base`, with timestep
/// `timestep`.
pub(crate) fn load(
    robot: &Robot,
    source: &ModelSource,
    base: Base,
    timestep: Duration,
) -> Result<Loaded, LoadError> {
    let (mut model, origin) = match source {
        ModelSource::Emitted => {
            let origin = format!("the emitted {}.mjcf.xml", robot.name);
            let text = robot_core::emit::mjcf(robot).map_err(|e| format!("{origin}: {e}"))?;
            (compile_text(&weld(&text, base, &origin)?, &origin)?, origin)
        }
        ModelSource::File(path) => {
            let origin = format!("`{}`", path.display());
            let model = match base {
                // From the file itself, so includes and meshes resolve from its folder.
                Base::AsModelled => compile_file(path, &origin)?,
                Base::Fixed => {
                    let text = std::fs::read_to_string(path)
                        .map_err(|e| format!("reading {origin}: {e}"))?;
                    compile_text(&weld(&text, base, &origin)?, &origin)?
                }
            };
            (model, origin)
        }
    };
    model.opt_mut().timestep = timestep.as_secs_f64();
    Ok(Loaded { model, origin })
}

fn compile_text(text: &str, origin: &str) -> Result<MjModel, LoadError> {
    MjModel::from_xml_string(text).map_err(|e| format!("MuJoCo cannot compile {origin}: {e}"))
}

fn compile_file(path: &Path, origin: &str) -> Result<MjModel, LoadError> {
    if !path.is_file() {
        return Err(format!("{origin}: no such file"));
    }
    MjModel::from_xml(path).map_err(|e| format!("MuJoCo cannot compile {origin}: {e}"))
}

/// The MJCF with every body at the top of `<worldbody>` that has a free joint welded to the world
/// (for [`Base::Fixed`]), or unchanged. The free joint stays and a weld equality holds it: a body
/// without one would be static, and MuJoCo computes no acceleration for static bodies, so an IMU
/// on it would read zero instead of gravity. The weld is inserted as text before `</mujoco>`, so
/// the rest of the document stays as it was.
pub(crate) fn weld(text: &str, base: Base, origin: &str) -> Result<String, LoadError> {
    if base == Base::AsModelled {
        return Ok(text.to_string());
    }
    let document =
        roxmltree::Document::parse(text).map_err(|e| format!("{origin} is not XML: {e}"))?;
    let is_free = |node: roxmltree::Node| {
        node.has_tag_name("freejoint")
            || (node.has_tag_name("joint") && node.attribute("type") == Some("free"))
    };
    let mut welds = String::new();
    for body in document
        .descendants()
        .filter(|n| n.has_tag_name("worldbody"))
        .flat_map(|world| world.children().filter(|b| b.has_tag_name("body")))
        .filter(|body| body.children().any(is_free))
    {
        let name = body.attribute("name").ok_or_else(|| {
            format!("{origin}: a floating body at the top of <worldbody> has no name to weld it by")
        })?;
        welds.push_str(&format!(r#"<weld body1="{name}" solref="{WELD_SOLREF}"/>"#));
    }
    if welds.is_empty() {
        return Ok(text.to_string());
    }
    let root = document.root_element();
    let close = root.range().end - "</mujoco>".len();
    if !root.has_tag_name("mujoco") || text.get(close..root.range().end) != Some("</mujoco>") {
        return Err(format!("{origin}: the document does not end in </mujoco>"));
    }
    Ok(format!(
        "{}<equality>{welds}</equality>\n{}",
        &text[..close],
        &text[close..]
    ))
}

/// The weld's time constant and damping ratio: stiff (10 ms, about the shortest MuJoCo keeps
/// stable at the default 1 ms timestep), critically damped.
const WELD_SOLREF: &str = "0.01 1";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn welding_holds_each_floating_root_body_and_nothing_else() {
        let text = r#"<mujoco><worldbody>
  <body name="a"><freejoint name="f"/><body name="b"><joint name="inner" type="free"/></body></body>
  <body name="c"><joint name="j" type="free"/><geom size="1"/></body>
  <body name="d"><joint name="hinge"/></body>
</worldbody></mujoco>"#;
        let welded = weld(text, Base::Fixed, "test").unwrap();
        let equality = r#"<equality><weld body1="a" solref="0.01 1"/><weld body1="c" solref="0.01 1"/></equality>"#;
        assert_eq!(
            welded,
            text.replace("</mujoco>", &format!("{equality}\n</mujoco>"))
        );
        assert_eq!(weld(text, Base::AsModelled, "test").as_deref(), Ok(text));
        let fixed = "<mujoco><worldbody><body name=\"a\"/></worldbody></mujoco>";
        assert_eq!(
            weld(fixed, Base::Fixed, "test").as_deref(),
            Ok(fixed),
            "nothing floats"
        );
    }

    #[test]
    fn welding_something_that_is_not_xml_says_so() {
        let error = weld("<mujoco>", Base::Fixed, "`x.xml`").unwrap_err();
        assert!(error.starts_with("`x.xml` is not XML"), "{error}");
    }
}
