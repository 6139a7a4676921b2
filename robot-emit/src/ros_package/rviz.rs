//! `rviz/<robot>.rviz`: RViz 2 showing the robot model (from `/robot_description`) and its TF
//! frames, fixed on the root link.

use serde_yaml_ng::{Mapping, Value};

use crate::EmitError;
use crate::format::header_comment;
use robot_model::model::Robot;

fn map<const N: usize>(entries: [(&str, Value); N]) -> Value {
    Value::Mapping(
        entries
            .into_iter()
            .map(|(key, value)| (key.into(), value))
            .collect::<Mapping>(),
    )
}

/// A display of `class` (an `rviz_default_plugins` class), enabled, with its own settings.
fn display<const N: usize>(class: &str, name: &str, settings: [(&str, Value); N]) -> Value {
    let mut display = map([
        ("Class", format!("rviz_default_plugins/{class}").into()),
        ("Name", name.into()),
        ("Enabled", true.into()),
    ]);
    if let Value::Mapping(m) = &mut display {
        m.extend(settings.into_iter().map(|(k, v)| (k.into(), v)));
    }
    display
}

/// The `.rviz` text.
pub(super) fn config(robot: &Robot) -> Result<String, EmitError> {
    // Without the `prefix` launch arg; a prefixed robot's root is `<prefix><root>`.
    let root = robot
        .root_link()
        .map(|l| l.name.to_string())
        .unwrap_or_default();
    let displays: Value = vec![
        display(
            "Grid",
            "Grid",
            [("Reference Frame", "<Fixed Frame>".into())],
        ),
        display(
            "RobotModel",
            "RobotModel",
            [
                ("Description Source", "Topic".into()),
                (
                    "Description Topic",
                    map([
                        ("Value", "/robot_description".into()),
                        ("Durability Policy", "Transient Local".into()),
                    ]),
                ),
                ("Visual Enabled", true.into()),
                ("Collision Enabled", false.into()),
            ],
        ),
        display(
            "TF",
            "TF",
            [
                ("Show Names", true.into()),
                ("Show Axes", true.into()),
                ("Marker Scale", 0.3.into()),
            ],
        ),
    ]
    .into();
    let document = map([
        (
            "Panels",
            vec![map([
                ("Class", "rviz_common/Displays".into()),
                ("Name", "Displays".into()),
            ])]
            .into(),
        ),
        (
            "Visualization Manager",
            map([
                ("Class", "".into()),
                ("Displays", displays),
                (
                    "Global Options",
                    map([
                        ("Fixed Frame", root.as_str().into()),
                        ("Frame Rate", 30.into()),
                    ]),
                ),
                (
                    "Tools",
                    vec![
                        map([("Class", "rviz_default_plugins/MoveCamera".into())]),
                        map([("Class", "rviz_default_plugins/Interact".into())]),
                    ]
                    .into(),
                ),
                (
                    "Views",
                    map([(
                        "Current",
                        map([
                            ("Class", "rviz_default_plugins/Orbit".into()),
                            ("Distance", 2.5.into()),
                            ("Pitch", 0.4.into()),
                            ("Yaw", 0.8.into()),
                            ("Target Frame", "<Fixed Frame>".into()),
                        ]),
                    )]),
                ),
            ]),
        ),
    ]);
    let text = serde_yaml_ng::to_string(&document).map_err(|e| EmitError::Serialize {
        what: "RViz configuration",
        message: e.to_string(),
    })?;
    Ok(format!("# {}\n{text}", header_comment(robot)))
}
