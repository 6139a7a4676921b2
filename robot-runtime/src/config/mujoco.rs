//! The `mujoco:` section of a runtime configuration: what the MuJoCo backend simulates.
//!
//! ```yaml
//! mujoco:
//!   model: stand            # scene (the default) | stand | a path ending in .xml
//! ```

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Settings of the MuJoCo backend.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MujocoConfig {
    /// The model to simulate: `scene` (the default), the robot on the floor (its emitted
    /// `<robot>.scene.xml`, a floating base free, starting at key `home`); `stand`, hanging on a
    /// test stand (`<robot>.stand.scene.xml`: the root held 5 cm above where it would stand; the
    /// floor scene for a fixed-base robot); or the path of an MJCF file ending in `.xml` whose
    /// joint, actuator and sensor names are the definition's, relative to this file's folder.
    #[serde(default)]
    #[schemars(with = "String", extend("examples" = ["scene", "stand", "models/my_scene.xml"]))]
    pub model: MujocoModel,
    /// End the run when the robot falls: its floating base below half its home height or
    /// tilted more than 45° from its home attitude. A fall is reported in the statistics either
    /// way.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stop_on_fall: bool,
}

impl MujocoConfig {
    /// Whether every setting is the default (the section is then left out when written).
    pub fn is_default(&self) -> bool {
        *self == MujocoConfig::default()
    }
}

/// What the MuJoCo backend simulates: the value of `mujoco.model`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum MujocoModel {
    /// `scene`: the robot's emitted `<robot>.scene.xml`, on the floor.
    #[default]
    Scene,
    /// `stand`: the robot's emitted `<robot>.stand.scene.xml`, hanging on a test stand.
    Stand,
    /// An MJCF file (`.xml`).
    File(PathBuf),
}

/// The words `mujoco.model` takes besides a path.
pub const MUJOCO_MODEL_WORDS: [&str; 2] = ["scene", "stand"];

/// A `mujoco.model` value that is neither word nor an `.xml` path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "expected `scene`, `stand` or the path of an MJCF file ending in `.xml`, found {found}{hint}"
)]
pub struct MujocoModelError {
    found: String,
    hint: String,
}

impl FromStr for MujocoModel {
    type Err = MujocoModelError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "scene" => Ok(MujocoModel::Scene),
            "stand" => Ok(MujocoModel::Stand),
            path if path.len() > ".xml".len() && path.ends_with(".xml") => {
                Ok(MujocoModel::File(PathBuf::from(path)))
            }
            other => Err(MujocoModelError {
                found: serde_json::Value::String(other.to_string()).to_string(),
                hint: crate::validate::suggest::did_you_mean(
                    &crate::validate::suggest::closest(other, MUJOCO_MODEL_WORDS)
                        .map(str::to_string),
                ),
            }),
        }
    }
}

impl fmt::Display for MujocoModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MujocoModel::Scene => f.write_str("scene"),
            MujocoModel::Stand => f.write_str("stand"),
            MujocoModel::File(path) => write!(f, "{}", path.display()),
        }
    }
}

impl Serialize for MujocoModel {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for MujocoModel {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn words_and_xml_paths_parse_and_print_back() {
        for (text, model) in [
            ("scene", MujocoModel::Scene),
            ("stand", MujocoModel::Stand),
            ("a/b.xml", MujocoModel::File("a/b.xml".into())),
        ] {
            assert_eq!(text.parse::<MujocoModel>(), Ok(model.clone()));
            assert_eq!(model.to_string(), text);
        }
    }

    #[test]
    fn anything_else_is_refused_with_a_suggestion() {
        let error = "stnad".parse::<MujocoModel>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "expected `scene`, `stand` or the path of an MJCF file ending in `.xml`, found \
             \"stnad\"; did you mean `stand`?"
        );
        for bad in ["", ".xml", "model.urdf"] {
            assert!(bad.parse::<MujocoModel>().is_err(), "{bad:?}");
        }
    }
}
