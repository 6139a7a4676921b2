//! A launch file's facts (`tests/python/launch_facts.py`, reading its syntax tree) and the rules
//! they must keep against the package they are in.

use std::collections::BTreeMap;
use std::path::Path;

use integration_tests::tools::{Tool, require};
use robot_core::backend::XacroArgs;
use robot_core::emit::ros_package;
use robot_core::{Backend, Robot};
use serde::Deserialize;

const READER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/python/launch_facts.py");

#[derive(Debug, Deserialize)]
pub struct Facts {
    pub declared: Vec<String>,
    pub used: Vec<String>,
    pub unreadable: Vec<String>,
    #[serde(default, deserialize_with = "null_is_empty")]
    pub controller_types: BTreeMap<String, String>,
    pub nodes: Vec<LaunchNode>,
    pub paths: Vec<PackagePath>,
}

fn null_is_empty<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<String, String>, D::Error> {
    Ok(Option::deserialize(d)?.unwrap_or_default())
}

#[derive(Debug, Deserialize)]
pub struct LaunchNode {
    pub line: u32,
    pub package: String,
    pub executable: String,
    pub arguments: Vec<Option<String>>,
    /// By [`scenario`] name: whether its condition lets it start.
    pub starts: BTreeMap<String, bool>,
}

#[derive(Debug, Deserialize)]
pub struct PackagePath {
    pub package: Option<String>,
    pub path: String,
}

impl Facts {
    /// The spawner of `controller`.
    pub fn spawner(&self, controller: &str) -> Option<&LaunchNode> {
        self.spawners()
            .into_iter()
            .find(|(name, _)| name == controller)
            .map(|(_, n)| n)
    }

    /// Every spawner, with the controller it spawns (its first argument).
    pub fn spawners(&self) -> Vec<(String, &LaunchNode)> {
        self.nodes
            .iter()
            .filter(|n| n.executable == "spawner")
            .map(|n| {
                (
                    n.arguments.first().cloned().flatten().unwrap_or_default(),
                    n,
                )
            })
            .collect()
    }
}

/// The scenario name of a combination of the three switches, e.g. `sim_mujoco:=false
/// use_topic_hardware:=true use_mock_hardware:=false`.
pub fn scenario(args: XacroArgs) -> String {
    args.pairs()
        .iter()
        .map(|(n, v)| format!("{n}:={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The facts of the launch file at `path`, its conditions evaluated for all eight switch
/// combinations; `None` when Python is missing (and this is not CI).
pub fn facts(path: &Path) -> Option<Facts> {
    let scenarios: serde_json::Map<String, serde_json::Value> = XacroArgs::ALL
        .into_iter()
        .map(|args| {
            let values: serde_json::Map<String, serde_json::Value> = args
                .pairs()
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string().into()))
                .collect();
            (scenario(args), values.into())
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let scenarios_file = dir.path().join("scenarios.json");
    std::fs::write(&scenarios_file, serde_json::to_string(&scenarios).unwrap()).unwrap();
    let mut python = require(Tool::CatkinPkg)?;
    let output = python
        .arg(READER)
        .arg(path)
        .arg(&scenarios_file)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "reading {}: {}",
        path.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    Some(serde_json::from_slice(&output.stdout).unwrap())
}

/// Every `LaunchConfiguration` is declared, and the reader followed everything.
pub fn declared_problems(facts: &Facts) -> Vec<String> {
    let mut problems: Vec<String> = facts
        .used
        .iter()
        .filter(|u| !facts.declared.contains(u))
        .map(|u| format!("LaunchConfiguration `{u}` is used but never declared"))
        .collect();
    problems.extend(facts.unreadable.iter().map(|u| format!("cannot read: {u}")));
    problems
}

/// The folders `CMakeLists.txt` installs: the words after `DIRECTORY` up to `DESTINATION`.
fn installed_folders(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join("CMakeLists.txt")).unwrap();
    let words: Vec<&str> = text.split_whitespace().collect();
    let start = words.iter().position(|w| *w == "DIRECTORY").unwrap() + 1;
    words[start..]
        .iter()
        .take_while(|w| **w != "DESTINATION")
        .map(|w| w.to_string())
        .collect()
}

/// Every file named under the package's share folder is this package's, in a folder
/// `CMakeLists.txt` installs, and there.
pub fn path_problems(robot: &Robot, dir: &Path, facts: &Facts) -> Vec<String> {
    let folders = installed_folders(dir);
    let package = ros_package::package_name(robot);
    let mut problems = Vec::new();
    for path in &facts.paths {
        if path.package.as_deref() != Some(package.as_str()) {
            problems.push(format!("names {} in package {:?}", path.path, path.package));
        }
        let folder = path.path.split('/').next().unwrap_or("");
        if !folders.iter().any(|f| f == folder) {
            problems.push(format!(
                "names {}, which CMakeLists.txt does not install ({folders:?})",
                path.path
            ));
        }
        if !dir.join(&path.path).is_file() {
            problems.push(format!(
                "names {}, which the package does not have",
                path.path
            ));
        }
    }
    problems
}

/// Whether the URDF `backend` selects has sensors in its `<ros2_control>` blocks.
fn urdf_has_sensors(robot: &Robot, backend: Backend) -> bool {
    let path = robots::checked_in::robot_dir(robot).join(format!("{}.{backend}.urdf", robot.name));
    let text = std::fs::read_to_string(path).unwrap();
    let document = roxmltree::Document::parse(&text).unwrap();
    document
        .descendants()
        .filter(|n| n.has_tag_name("ros2_control"))
        .any(|block| block.children().any(|c| c.has_tag_name("sensor")))
}

/// The broadcasters that need their sensor in the URDF.
const SENSOR_BROADCASTERS: [&str; 2] = [
    "imu_sensor_broadcaster/IMUSensorBroadcaster",
    "force_torque_sensor_broadcaster/ForceTorqueSensorBroadcaster",
];

/// All the rules for `bringup.launch.py`.
pub fn problems(robot: &Robot, dir: &Path, facts: &Facts) -> Vec<String> {
    let mut problems = declared_problems(facts);
    problems.extend(path_problems(robot, dir, facts));

    let yaml_path = dir.join(format!("config/{}.controllers.yaml", robot.name));
    let yaml: serde_yaml_ng::Value =
        serde_yaml_ng::from_str(&std::fs::read_to_string(yaml_path).unwrap()).unwrap();
    let manager = &yaml["controller_manager"]["ros__parameters"];
    let declared: BTreeMap<String, String> = manager
        .as_mapping()
        .unwrap()
        .iter()
        .filter_map(|(k, v)| {
            Some((
                k.as_str()?.to_string(),
                v.get("type")?.as_str()?.to_string(),
            ))
        })
        .collect();

    let spawned = facts.spawners();
    for (name, node) in &spawned {
        let ours = declared.get(name);
        let expected = facts.controller_types.get(name);
        match (expected, ours) {
            (_, None) => problems.push(format!(
                "line {}: spawns `{name}`, which controllers.yaml does not declare",
                node.line
            )),
            (None, Some(_)) => problems.push(format!(
                "line {}: spawns `{name}`, whose type CONTROLLER_TYPES does not give",
                node.line
            )),
            (Some(expected), Some(ours)) if expected != ours => problems.push(format!(
                "{name}: the launch expects type {expected}, controllers.yaml gives {ours}"
            )),
            _ => {}
        }
    }
    for name in declared.keys() {
        if !spawned.iter().any(|(s, _)| s == name) {
            problems.push(format!(
                "controllers.yaml declares `{name}`, which is never spawned"
            ));
        }
    }

    for args in XacroArgs::ALL {
        let scenario = scenario(args);
        let backend = Backend::from_xacro_args(args);
        let sensors = urdf_has_sensors(robot, backend);
        for (name, node) in &spawned {
            let starts = node.starts.get(&scenario).copied().unwrap_or(false);
            let needs_sensor = declared
                .get(name)
                .is_some_and(|t| SENSOR_BROADCASTERS.contains(&t.as_str()));
            let should = !needs_sensor || sensors;
            if starts != should {
                let verb = if starts { "spawns" } else { "does not spawn" };
                problems.push(format!(
                    "{verb} {name} with {scenario} (the {backend} backend, whose URDF {} the sensors)",
                    if sensors { "has" } else { "lacks" }
                ));
            }
        }
        // One controller manager: MuJoCo's node on MuJoCo, ros2_control_node elsewhere.
        let managers: Vec<&str> = facts
            .nodes
            .iter()
            .filter(|n| {
                ["ros2_control_node", "mujoco_ros2_control"].contains(&n.executable.as_str())
            })
            .filter(|n| n.starts.get(&scenario).copied().unwrap_or(false))
            .map(|n| n.executable.as_str())
            .collect();
        let expected = if backend == Backend::Mujoco {
            "mujoco_ros2_control"
        } else {
            "ros2_control_node"
        };
        if managers != [expected] {
            problems.push(format!(
                "with {scenario} starts {managers:?}, not [{expected}]"
            ));
        }
    }
    problems
}
