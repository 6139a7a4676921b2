//! The controllers' own parameter definitions, as generate_parameter_library reads them, and the
//! check of a `ros__parameters` mapping against one: every name declared, every value of the
//! declared type, every validation passed, every parameter without a default given.
//!
//! The definitions are vendored under `tests/fixtures/ros2_controllers/` (see its README).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_yaml_ng::{Mapping, Value};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/ros2_controllers")
}

fn read(file: &str) -> String {
    let path = fixtures().join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// One declared parameter.
#[derive(Debug)]
pub struct Param {
    /// `bool`, `int`, `double`, `string`, `string_array`, `double_array`, ...
    pub ty: String,
    pub default: Option<Value>,
    /// `(validator, arguments)`, as written: `("size_gt<>", [0])`.
    pub validations: Vec<(String, Value)>,
}

/// A parameter file: dotted parameter paths (`speed_scaling.initial_scaling_factor`; a
/// `__map_joints` segment stands for each name in the `joints` parameter) to their declaration.
#[derive(Debug)]
pub struct Definition {
    pub file: &'static str,
    pub params: BTreeMap<String, Param>,
}

impl Definition {
    /// Reads a generate_parameter_library YAML file: one top-level key (the namespace), then
    /// nested mappings down to leaves, which are the mappings with a `type`.
    pub fn load(file: &'static str) -> Definition {
        let doc: Value = serde_yaml_ng::from_str(&read(file)).expect("parameter YAML");
        let root = doc.as_mapping().expect("a mapping");
        assert_eq!(root.len(), 1, "{file}: one namespace");
        let (_, body) = root.iter().next().expect("one key");
        let mut params = BTreeMap::new();
        collect(body, "", &mut params);
        assert!(!params.is_empty(), "{file}: no parameters read");
        Definition { file, params }
    }

    /// Gives a parameter the default its node declares in code before reading the file.
    pub fn default_in_code(mut self, path: &str, value: Value) -> Definition {
        let param = self
            .params
            .get_mut(path)
            .unwrap_or_else(|| panic!("{}: no parameter `{path}`", self.file));
        assert!(param.default.is_none(), "`{path}` has a default already");
        param.default = Some(value);
        self
    }

    /// The declaration a concrete path matches, if any.
    fn find(&self, path: &str, given: &BTreeMap<String, Value>) -> Option<&Param> {
        let segments: Vec<&str> = path.split('.').collect();
        self.params.iter().find_map(|(pattern, param)| {
            let parts: Vec<&str> = pattern.split('.').collect();
            let matches = parts.len() == segments.len()
                && parts.iter().zip(&segments).all(|(part, segment)| {
                    match part.strip_prefix("__map_") {
                        Some(key) => strings(given.get(key)).contains(&segment.to_string()),
                        None => part == segment,
                    }
                });
            matches.then_some(param)
        })
    }

    /// Every problem of `params` (a controller's `ros__parameters`, or the controller_manager's
    /// minus its controller declarations) against this definition.
    pub fn check(&self, params: &Mapping) -> Vec<String> {
        let mut given = BTreeMap::new();
        flatten(&Value::Mapping(params.clone()), "", &mut given);
        let mut problems = Vec::new();
        for (path, value) in &given {
            let Some(param) = self.find(path, &given) else {
                problems.push(format!("`{path}` is not a parameter of {}", self.file));
                continue;
            };
            if let Err(e) = check_type(&param.ty, value) {
                problems.push(format!("`{path}`: {e}"));
                continue;
            }
            for (validator, args) in &param.validations {
                if let Err(e) = validate(validator, args, value) {
                    problems.push(format!("`{path}` = {}: {e}", show(value)));
                }
            }
        }
        // Parameters not given take their default, which must pass too; without one, the
        // parameter is required. (Per-joint `__map_` parameters exist only for listed joints.)
        // A `type: none` entry is documentation only: generate_parameter_library declares no
        // parameter for it (force_torque_sensor_broadcaster's optional `sensor_filter_chain`).
        let declared = self
            .params
            .iter()
            .filter(|(p, param)| !p.contains("__map_") && param.ty != "none");
        for (path, param) in declared {
            if given.contains_key(path) {
                continue;
            }
            let Some(default) = &param.default else {
                problems.push(format!(
                    "`{path}` is required by {} (no default)",
                    self.file
                ));
                continue;
            };
            for (validator, args) in &param.validations {
                if let Err(e) = validate(validator, args, default) {
                    problems.push(format!(
                        "`{path}` is not given and its default {} fails: {e}",
                        show(default)
                    ));
                }
            }
        }
        problems
    }
}

fn collect(node: &Value, prefix: &str, out: &mut BTreeMap<String, Param>) {
    let Some(map) = node.as_mapping() else {
        return;
    };
    if let Some(ty) = map.get("type").and_then(Value::as_str) {
        let validations = map
            .get("validation")
            .and_then(Value::as_mapping)
            .map(|v| {
                v.iter()
                    .map(|(k, a)| (k.as_str().expect("validator name").to_string(), a.clone()))
                    .collect()
            })
            .unwrap_or_default();
        out.insert(
            prefix.to_string(),
            Param {
                ty: ty.to_string(),
                default: map.get("default_value").cloned(),
                validations,
            },
        );
        return;
    }
    for (key, child) in map {
        let key = key.as_str().expect("string key");
        let path = if prefix.is_empty() {
            key.to_string()
        } else {
            format!("{prefix}.{key}")
        };
        collect(child, &path, out);
    }
}

/// A parameter file's nesting as dotted paths, the way ROS 2 names nested parameters.
fn flatten(node: &Value, prefix: &str, out: &mut BTreeMap<String, Value>) {
    match node.as_mapping() {
        Some(map) => {
            for (key, child) in map {
                let key = key.as_str().expect("string key");
                let path = if prefix.is_empty() {
                    key.to_string()
                } else {
                    format!("{prefix}.{key}")
                };
                flatten(child, &path, out);
            }
        }
        None => {
            out.insert(prefix.to_string(), node.clone());
        }
    }
}

fn strings(value: Option<&Value>) -> Vec<String> {
    value
        .and_then(Value::as_sequence)
        .map(|s| {
            s.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// A value in flow style, as in the definitions: `[a, b]`.
fn show(value: &Value) -> String {
    match value {
        Value::Sequence(items) => {
            let items: Vec<String> = items.iter().map(show).collect();
            format!("[{}]", items.join(", "))
        }
        other => serde_yaml_ng::to_string(other)
            .unwrap_or_default()
            .trim()
            .to_string(),
    }
}

/// rclcpp's types are strict: `1` is not a double, `[]` has no type at all.
fn check_type(ty: &str, value: &Value) -> Result<(), String> {
    let scalar = |ty: &str, v: &Value| match ty {
        "bool" => v.is_bool(),
        "int" => v.is_i64() || v.is_u64(),
        "double" => v.is_f64(),
        "string" => v.is_string(),
        other => panic!("unknown parameter type `{other}`"),
    };
    let ok = match ty.strip_suffix("_array") {
        Some(element) => value
            .as_sequence()
            .is_some_and(|s| !s.is_empty() && s.iter().all(|v| scalar(element, v))),
        None => scalar(ty, value),
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "expected a non-empty `{ty}`, found {}",
            show(value)
        ))
    }
}

/// A validator's single argument: `gt<>: 0` and `gt_eq: [0.1]` alike.
fn argument(args: &Value) -> &Value {
    match args.as_sequence() {
        Some(list) if list.len() == 1 => &list[0],
        _ => args,
    }
}

fn number(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v:?}"))
}

/// The validators generate_parameter_library offers that these files use, and JTC's own two
/// (`validate_jtc_parameters.hpp`, transcribed below). An unknown one fails the test: a new
/// validator upstream must be implemented here, not skipped.
fn validate(validator: &str, args: &Value, value: &Value) -> Result<(), String> {
    let list = strings(Some(value));
    let arg = argument(args);
    let name = validator.trim_end_matches("<>");
    let ok = match name {
        "not_empty" => match value.as_str() {
            Some(s) => !s.is_empty(),
            None => !list.is_empty(),
        },
        "unique" => {
            let mut seen = list.clone();
            seen.sort();
            seen.dedup();
            seen.len() == list.len()
        }
        "size_gt" => list.len() as f64 > number(arg),
        "fixed_size" => value.as_sequence().map_or(0, Vec::len) as f64 == number(arg),
        "gt" => number(value) > number(arg),
        "gt_eq" => number(value) >= number(arg),
        "one_of" => strings(Some(arg)).contains(&value.as_str().unwrap_or_default().to_string()),
        "subset_of" => {
            let allowed = strings(Some(arg));
            list.iter().all(|s| allowed.contains(s))
        }
        "joint_trajectory_controller::command_interface_type_combinations" => {
            return jtc_command_combinations(&list);
        }
        "joint_trajectory_controller::state_interface_type_combinations" => {
            return jtc_state_combinations(&list);
        }
        other => panic!("validator `{other}` is not implemented by this test"),
    };
    if ok {
        Ok(())
    } else {
        match args {
            Value::Null => Err(format!("fails `{validator}`")),
            args => Err(format!("fails `{validator}` {}", show(args))),
        }
    }
}

/// `command_interface_type_combinations`, line for line: effort; velocity; position [velocity
/// [acceleration]]; position and effort.
fn jtc_command_combinations(types: &[String]) -> Result<(), String> {
    let has = |name: &str| types.iter().any(|t| t == name);
    if has("velocity") && types.len() > 1 && !has("position") {
        return Err(
            "'velocity' command interface can be used either alone or 'position' \
                    command interface has to be present"
                .into(),
        );
    }
    if has("acceleration") && !has("velocity") && !has("position") {
        return Err(
            "'acceleration' command interface can only be used if 'velocity' and \
                    'position' command interfaces are present"
                .into(),
        );
    }
    if has("effort") && !(types.len() == 1 || (types.len() == 2 && has("position"))) {
        return Err(
            "'effort' command interface has to be used alone or with a 'position' interface".into(),
        );
    }
    Ok(())
}

/// `state_interface_type_combinations`, line for line: position [velocity [acceleration]].
fn jtc_state_combinations(types: &[String]) -> Result<(), String> {
    let has = |name: &str| types.iter().any(|t| t == name);
    if has("velocity") && !has("position") {
        return Err(
            "'velocity' state interface cannot be used if 'position' interface \
                    is missing."
                .into(),
        );
    }
    if has("acceleration") && (!has("position") || !has("velocity")) {
        return Err(
            "'acceleration' state interface cannot be used if 'position' and \
                    'velocity' interfaces are not present."
                .into(),
        );
    }
    Ok(())
}

/// The plugin class names a `pluginlib` description file declares (`<class name="pkg/Class">`).
pub fn plugin_classes(file: &str) -> Vec<String> {
    let text = read(file);
    let doc = roxmltree::Document::parse(&text).expect("plugin XML");
    doc.descendants()
        .filter(|n| n.has_tag_name("class"))
        .filter_map(|n| n.attribute("name"))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_validators_reject_what_ros2_controllers_rejects() {
    let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    for ok in [
        &["position"][..],
        &["velocity"],
        &["effort"],
        &["position", "velocity"],
        &["position", "velocity", "acceleration"],
        &["position", "effort"],
    ] {
        assert_eq!(jtc_command_combinations(&s(ok)), Ok(()), "{ok:?}");
    }
    for bad in [
        &["velocity", "effort"][..],
        &["position", "velocity", "effort"],
        &["acceleration"],
    ] {
        assert!(jtc_command_combinations(&s(bad)).is_err(), "{bad:?}");
    }
    assert!(jtc_state_combinations(&s(&["velocity"])).is_err());
    assert!(jtc_state_combinations(&s(&["position", "acceleration"])).is_err());
    assert_eq!(
        jtc_state_combinations(&s(&["position", "velocity"])),
        Ok(())
    );

    let jtc = Definition::load("joint_trajectory_controller_parameters.yaml");
    let params: Mapping = serde_yaml_ng::from_str(
        "joints: [a, a]\ncommand_interfaces: [velocity, effort]\nstate_interfaces: [position]\n\
         allow_partial_joints_goal: 1\nno_such_parameter: true\ngains: {a: {p: 1}}",
    )
    .expect("yaml");
    let problems = jtc.check(&params).join("\n");
    for expected in [
        "`joints` = [a, a]: fails `unique<>`",
        "`command_interfaces` = [velocity, effort]: 'velocity' command interface",
        "`allow_partial_joints_goal`: expected a non-empty `bool`, found 1",
        "`no_such_parameter` is not a parameter",
        "`gains.a.p`: expected a non-empty `double`, found 1",
    ] {
        assert!(problems.contains(expected), "{expected}\nin:\n{problems}");
    }
    let forward = Definition::load("forward_command_controller_parameters.yaml");
    let problems = forward.check(&Mapping::new()).join("\n");
    assert!(problems.contains("`joints` is required"), "{problems}");
}
