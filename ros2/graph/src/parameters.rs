//! A node's parameters, as rclcpp's `ParameterService` serves them: `~/list_parameters`,
//! `~/get_parameters`, `~/get_parameter_types`, `~/describe_parameters`, `~/set_parameters` and
//! `~/set_parameters_atomically` (`ros2 param list | get | describe | set`), answered on the
//! participant's thread, and a `rcl_interfaces/ParameterEvent` on `/parameter_events` for each
//! change, as rclcpp publishes it.
//!
//! Every parameter is declared with its value, and either read-only, with the reason a setter is
//! told, or live, with the function that applies a new value while the robot runs (and may
//! refuse it). A parameter is only live where changing it cannot disturb the running loop.

use std::sync::{Arc, Mutex, PoisonError};

use ros2_dds::{Node, Publisher, ServiceServer, WireError};
use ros2_msg::TopicName;
use ros2_msg::msg::Time;
use ros2_msg::parameters::{
    DescribeParameters, DescribeParametersResponse, GetParameterTypes, GetParameterTypesResponse,
    GetParameters, GetParametersResponse, ListParameters, ListParametersResponse,
    ListParametersResult, Parameter, ParameterDescriptor, ParameterEvent, ParameterValue,
    SetParameters, SetParametersAtomically, SetParametersAtomicallyResponse, SetParametersResponse,
    SetParametersResult, parameter_type,
};
use ros2_msg::{QosProfile, ReliabilityKind};

/// rclcpp's `ParameterEventsQoS`: reliable, keep-last 1000, volatile.
const PARAMETER_EVENTS_QOS: QosProfile = QosProfile {
    reliability: ReliabilityKind::Reliable,
    depth: 1000,
    transient_local: false,
};

/// What applies a new value of a live parameter; an `Err` refuses it, with the reason.
pub type Apply = Arc<dyn Fn(&ParameterValue) -> Result<(), String> + Send + Sync>;

/// Whether a parameter may be set while the robot runs.
#[derive(Clone)]
pub enum Setting {
    /// Never: why not, as a setter is told.
    ReadOnly(String),
    /// Yes, through this function.
    Live(Apply),
}

impl std::fmt::Debug for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Setting::ReadOnly(why) => f.debug_tuple("ReadOnly").field(why).finish(),
            Setting::Live(_) => f.write_str("Live"),
        }
    }
}

/// One declared parameter.
#[derive(Debug, Clone)]
pub struct Declared {
    /// Its name: `update_rate`, `joints`, `constraints.goal_time`.
    pub name: String,
    /// Its value.
    pub value: ParameterValue,
    /// What it means, as `ros2 param describe` shows it.
    pub description: String,
    /// Whether it may be set while running.
    pub setting: Setting,
}

impl Declared {
    /// A read-only parameter.
    pub fn read_only(name: &str, value: ParameterValue, why: &str) -> Declared {
        Declared {
            name: name.to_string(),
            value,
            description: String::new(),
            setting: Setting::ReadOnly(why.to_string()),
        }
    }
}

/// A bool parameter value.
pub fn bool_value(value: bool) -> ParameterValue {
    ParameterValue {
        r#type: parameter_type::BOOL,
        bool_value: value,
        ..ParameterValue::default()
    }
}

/// An integer parameter value.
pub fn integer_value(value: i64) -> ParameterValue {
    ParameterValue {
        r#type: parameter_type::INTEGER,
        integer_value: value,
        ..ParameterValue::default()
    }
}

/// A double parameter value.
pub fn double_value(value: f64) -> ParameterValue {
    ParameterValue {
        r#type: parameter_type::DOUBLE,
        double_value: value,
        ..ParameterValue::default()
    }
}

/// A string parameter value.
pub fn string_value(value: &str) -> ParameterValue {
    ParameterValue {
        r#type: parameter_type::STRING,
        string_value: value.to_string(),
        ..ParameterValue::default()
    }
}

/// The parameter services of one node; they serve while this lives.
#[derive(Debug)]
pub struct ParameterServer {
    _services: Vec<ServiceServer>,
}

/// A node's declared parameters: what the services answer from, and how they change.
struct Parameters {
    declared: Vec<Declared>,
}

impl Parameters {
    fn find(&self, name: &str) -> Option<&Declared> {
        self.declared.iter().find(|d| d.name == name)
    }

    /// Whether `parameter` may be set now; the reason when not.
    fn check(&self, parameter: &Parameter) -> Result<Apply, String> {
        let Some(declared) = self.find(&parameter.name) else {
            return Err(format!(
                "parameter '{}' cannot be set because it was not declared",
                parameter.name
            ));
        };
        if parameter.value.r#type != declared.value.r#type {
            return Err(format!(
                "parameter '{}' is of type {}, not {}",
                parameter.name,
                type_name(declared.value.r#type),
                type_name(parameter.value.r#type)
            ));
        }
        match &declared.setting {
            Setting::ReadOnly(why) => Err(format!(
                "parameter '{}' cannot be set because it is read-only: {why}",
                parameter.name
            )),
            Setting::Live(apply) => Ok(apply.clone()),
        }
    }

    fn store(&mut self, parameters: &[Parameter]) {
        for parameter in parameters {
            if let Some(declared) = self.declared.iter_mut().find(|d| d.name == parameter.name) {
                declared.value = parameter.value.clone();
            }
        }
    }

    /// Sets all of `parameters` or none (`set_parameters_atomically`; `set_parameters` sets
    /// one at a time): every one is checked before any is applied, and if an apply refuses
    /// after others took theirs, those get their old values back.
    fn set(&mut self, parameters: &[Parameter]) -> Result<(), String> {
        let applies = (parameters.iter())
            .map(|p| self.check(p))
            .collect::<Result<Vec<Apply>, String>>()?;
        for (done, (apply, parameter)) in applies.iter().zip(parameters).enumerate() {
            if let Err(reason) = apply(&parameter.value) {
                for (apply, parameter) in applies.iter().zip(parameters).take(done) {
                    if let Some(old) = self.find(&parameter.name) {
                        // The old value was accepted once: taking it back cannot be refused.
                        let _ = apply(&old.value);
                    }
                }
                return Err(reason);
            }
        }
        self.store(parameters);
        Ok(())
    }

    /// As rclcpp lists them: by name; with no prefix, those with fewer than `depth` dots
    /// (0: all); under a prefix, the prefix itself and those below it with fewer than `depth`
    /// dots after it; and the prefixes (all but the last part) of the names listed.
    fn list(&self, prefixes: &[String], depth: u64) -> ListParametersResult {
        let mut result = ListParametersResult::default();
        let shallow = |name: &str| depth == 0 || (name.matches('.').count() as u64) < depth;
        let mut names: Vec<&str> = self.declared.iter().map(|d| d.name.as_str()).collect();
        names.sort_unstable();
        for name in names {
            let all = prefixes.is_empty() && shallow(name);
            let under = prefixes.iter().any(|prefix| {
                name == prefix
                    || (name.strip_prefix(prefix.as_str()))
                        .and_then(|rest| rest.strip_prefix('.'))
                        .is_some_and(shallow)
            });
            if all || under {
                result.names.push(name.to_string());
                if let Some((prefix, _)) = name.rsplit_once('.')
                    && !result.prefixes.iter().any(|p| p == prefix)
                {
                    result.prefixes.push(prefix.to_string());
                }
            }
        }
        result
    }

    fn describe(&self, name: &str) -> ParameterDescriptor {
        match self.find(name) {
            Some(declared) => ParameterDescriptor {
                name: name.to_string(),
                r#type: declared.value.r#type,
                description: declared.description.clone(),
                additional_constraints: match &declared.setting {
                    Setting::ReadOnly(why) => format!("read-only while running: {why}"),
                    Setting::Live(_) => "may be set while running".to_string(),
                },
                read_only: matches!(declared.setting, Setting::ReadOnly(_)),
                ..ParameterDescriptor::default()
            },
            None => ParameterDescriptor {
                name: name.to_string(),
                ..ParameterDescriptor::default()
            },
        }
    }
}

/// What the services share, on the participant's thread: the parameters, and where their
/// changes are announced.
struct Table {
    node: String,
    parameters: Parameters,
    events: Publisher<ParameterEvent>,
}

impl Table {
    /// Sets `parameters` all or none, and announces them on `/parameter_events` if set.
    fn set(&mut self, parameters: &[Parameter]) -> SetParametersResult {
        match self.parameters.set(parameters) {
            Ok(()) => {
                let event = self.events.message_mut();
                event.stamp = Time::now();
                event.node.clone_from(&self.node);
                event.new_parameters.clear();
                event.deleted_parameters.clear();
                event.changed_parameters = parameters.to_vec();
                self.events.publish();
                SetParametersResult {
                    successful: true,
                    reason: String::new(),
                }
            }
            Err(reason) => SetParametersResult {
                successful: false,
                reason,
            },
        }
    }
}

/// The name of a parameter type, as `ros2 param` prints it.
fn type_name(kind: u8) -> &'static str {
    match kind {
        parameter_type::BOOL => "bool",
        parameter_type::INTEGER => "integer",
        parameter_type::DOUBLE => "double",
        parameter_type::STRING => "string",
        parameter_type::BYTE_ARRAY => "byte array",
        parameter_type::BOOL_ARRAY => "bool array",
        parameter_type::INTEGER_ARRAY => "integer array",
        parameter_type::DOUBLE_ARRAY => "double array",
        parameter_type::STRING_ARRAY => "string array",
        _ => "not set",
    }
}

/// The table, locked: only the participant's thread takes it, so never contended.
fn locked(table: &Mutex<Table>) -> std::sync::MutexGuard<'_, Table> {
    table.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Serves `declared` as `node`'s parameters (`use_sim_time` among them, as every ROS node has
/// it).
pub fn serve(node: &Node, declared: Vec<Declared>) -> Result<ParameterServer, WireError> {
    let events_topic = TopicName::new("/parameter_events").map_err(|e| WireError::Name {
        name: "/parameter_events".into(),
        source: e,
    })?;
    let events = node.publisher(
        &events_topic,
        PARAMETER_EVENTS_QOS,
        ParameterEvent::default(),
    )?;
    let table = Arc::new(Mutex::new(Table {
        node: node.name().fully_qualified(),
        parameters: Parameters { declared },
        events,
    }));
    let services = vec![
        node.service::<ListParameters>(&node.private_name("list_parameters")?, {
            let table = table.clone();
            move |request| ListParametersResponse {
                result: (locked(&table).parameters).list(&request.prefixes, request.depth),
            }
        })?,
        node.service::<GetParameters>(&node.private_name("get_parameters")?, {
            let table = table.clone();
            move |request| {
                let table = locked(&table);
                GetParametersResponse {
                    values: (request.names.iter())
                        .map(|n| {
                            (table.parameters.find(n))
                                .map(|d| d.value.clone())
                                .unwrap_or_default()
                        })
                        .collect(),
                }
            }
        })?,
        node.service::<GetParameterTypes>(&node.private_name("get_parameter_types")?, {
            let table = table.clone();
            move |request| {
                let table = locked(&table);
                GetParameterTypesResponse {
                    types: (request.names.iter())
                        .map(|n| {
                            (table.parameters.find(n))
                                .map_or(parameter_type::NOT_SET, |d| d.value.r#type)
                        })
                        .collect(),
                }
            }
        })?,
        node.service::<DescribeParameters>(&node.private_name("describe_parameters")?, {
            let table = table.clone();
            move |request| {
                let table = locked(&table);
                DescribeParametersResponse {
                    descriptors: (request.names.iter())
                        .map(|n| table.parameters.describe(n))
                        .collect(),
                }
            }
        })?,
        node.service::<SetParameters>(&node.private_name("set_parameters")?, {
            let table = table.clone();
            move |request| {
                let mut table = locked(&table);
                SetParametersResponse {
                    results: request
                        .parameters
                        .iter()
                        .map(|p| table.set(std::slice::from_ref(p)))
                        .collect(),
                }
            }
        })?,
        node.service::<SetParametersAtomically>(
            &node.private_name("set_parameters_atomically")?,
            {
                let table = table.clone();
                move |request| SetParametersAtomicallyResponse {
                    result: locked(&table).set(&request.parameters),
                }
            },
        )?,
    ];
    Ok(ParameterServer {
        _services: services,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicI64, Ordering};

    use super::*;

    /// A live integer that refuses negative values, and what it holds.
    fn live(name: &str, value: i64) -> (Declared, Arc<AtomicI64>) {
        let held = Arc::new(AtomicI64::new(value));
        let apply: Apply = Arc::new({
            let held = held.clone();
            move |v: &ParameterValue| {
                if v.integer_value < 0 {
                    return Err("no negative values".to_string());
                }
                held.store(v.integer_value, Ordering::Relaxed);
                Ok(())
            }
        });
        let declared = Declared {
            name: name.to_string(),
            value: integer_value(value),
            description: String::new(),
            setting: Setting::Live(apply),
        };
        (declared, held)
    }

    fn parameter(name: &str, value: ParameterValue) -> Parameter {
        Parameter {
            name: name.to_string(),
            value,
        }
    }

    fn names(parameters: &Parameters, prefixes: &[&str], depth: u64) -> (Vec<String>, Vec<String>) {
        let prefixes: Vec<String> = prefixes.iter().map(|p| p.to_string()).collect();
        let result = parameters.list(&prefixes, depth);
        (result.names, result.prefixes)
    }

    #[test]
    fn lists_by_prefix_and_depth_as_rclcpp_does() {
        let table = Parameters {
            declared: [
                "update_rate",
                "joints",
                "constraints.goal_time",
                "constraints.a.b",
            ]
            .iter()
            .map(|n| Declared::read_only(n, integer_value(0), "fixed"))
            .collect(),
        };
        let all = names(&table, &[], 0);
        assert_eq!(
            all.0,
            [
                "constraints.a.b",
                "constraints.goal_time",
                "joints",
                "update_rate"
            ]
        );
        assert_eq!(all.1, ["constraints.a", "constraints"]);
        assert_eq!(names(&table, &[], 1).0, ["joints", "update_rate"]);
        assert_eq!(
            names(&table, &[], 2).0,
            ["constraints.goal_time", "joints", "update_rate"]
        );
        assert_eq!(
            names(&table, &["constraints"], 0).0,
            ["constraints.a.b", "constraints.goal_time"]
        );
        assert_eq!(
            names(&table, &["constraints"], 1).0,
            ["constraints.goal_time"]
        );
        // A prefix is a whole part of the name: `constraint` is not `constraints`'s.
        assert!(names(&table, &["constraint"], 0).0.is_empty());
        assert_eq!(names(&table, &["joints"], 0).0, ["joints"]);
    }

    #[test]
    fn a_set_is_checked_then_applied_all_or_none() {
        let (a, held_a) = live("a", 1);
        let (b, held_b) = live("b", 2);
        let fixed = Declared::read_only("fixed", bool_value(true), "the loop's own");
        let mut table = Parameters {
            declared: vec![a, b, fixed],
        };
        table
            .set(&[
                parameter("a", integer_value(10)),
                parameter("b", integer_value(20)),
            ])
            .unwrap();
        assert_eq!(
            (
                held_a.load(Ordering::Relaxed),
                held_b.load(Ordering::Relaxed)
            ),
            (10, 20)
        );
        assert_eq!(table.find("a").unwrap().value.integer_value, 10);

        // Refused by a check: nothing is applied.
        let refused = table.set(&[
            parameter("a", integer_value(11)),
            parameter("fixed", bool_value(false)),
        ]);
        assert_eq!(
            refused.unwrap_err(),
            "parameter 'fixed' cannot be set because it is read-only: the loop's own"
        );
        assert_eq!(held_a.load(Ordering::Relaxed), 10);
        let wrong_type = table.set(&[parameter("a", double_value(1.0))]).unwrap_err();
        assert_eq!(wrong_type, "parameter 'a' is of type integer, not double");
        let unknown = table.set(&[parameter("c", integer_value(1))]).unwrap_err();
        assert!(unknown.contains("was not declared"), "{unknown}");

        // Refused by an apply after another took its value: that one is taken back.
        let refused = table.set(&[
            parameter("a", integer_value(12)),
            parameter("b", integer_value(-1)),
        ]);
        assert_eq!(refused.unwrap_err(), "no negative values");
        assert_eq!(
            (
                held_a.load(Ordering::Relaxed),
                held_b.load(Ordering::Relaxed)
            ),
            (10, 20)
        );
        assert_eq!(table.find("a").unwrap().value.integer_value, 10);
    }

    #[test]
    fn a_description_says_whether_and_why_a_parameter_is_fixed() {
        let (a, _) = live("a", 1);
        let table = Parameters {
            declared: vec![
                a,
                Declared::read_only("fixed", bool_value(true), "the loop's own"),
            ],
        };
        let fixed = table.describe("fixed");
        assert!(fixed.read_only);
        assert_eq!(fixed.r#type, parameter_type::BOOL);
        assert_eq!(
            fixed.additional_constraints,
            "read-only while running: the loop's own"
        );
        assert!(!table.describe("a").read_only);
        assert_eq!(table.describe("nothing").r#type, parameter_type::NOT_SET);
    }
}
