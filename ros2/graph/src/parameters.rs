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

/// What the services share, on the participant's thread.
struct Table {
    node: String,
    declared: Vec<Declared>,
    events: Publisher<ParameterEvent>,
}

impl Table {
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

    /// Stores the new values and announces them on `/parameter_events`.
    fn changed(&mut self, parameters: &[Parameter]) {
        for parameter in parameters {
            if let Some(declared) = self.declared.iter_mut().find(|d| d.name == parameter.name) {
                declared.value = parameter.value.clone();
            }
        }
        let event = self.events.message_mut();
        event.stamp = Time::now();
        event.node.clone_from(&self.node);
        event.new_parameters.clear();
        event.deleted_parameters.clear();
        event.changed_parameters = parameters.to_vec();
        self.events.publish();
    }

    fn set_one(&mut self, parameter: &Parameter) -> SetParametersResult {
        let applied = self
            .check(parameter)
            .and_then(|apply| apply(&parameter.value));
        match applied {
            Ok(()) => {
                self.changed(std::slice::from_ref(parameter));
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

    fn set_all(&mut self, parameters: &[Parameter]) -> SetParametersResult {
        let checked: Result<Vec<Apply>, String> =
            parameters.iter().map(|p| self.check(p)).collect();
        let applied = checked.and_then(|applies| {
            // All or none: every value is checked before any is applied; an apply that
            // refuses after others succeeded is reported, the others stand.
            applies
                .iter()
                .zip(parameters)
                .try_for_each(|(apply, parameter)| apply(&parameter.value))
        });
        match applied {
            Ok(()) => {
                self.changed(parameters);
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

    fn list(&self, prefixes: &[String], depth: u64) -> ListParametersResult {
        let mut result = ListParametersResult::default();
        let levels = |name: &str| name.matches('.').count() as u64;
        for declared in &self.declared {
            let name = declared.name.as_str();
            let all = prefixes.is_empty() && (depth == 0 || levels(name) < depth);
            let under = prefixes.iter().any(|prefix| {
                name == prefix
                    || name.strip_prefix(prefix.as_str()).is_some_and(|rest| {
                        rest.strip_prefix('.')
                            .is_some_and(|rest| depth == 0 || levels(rest) < depth)
                    })
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
        declared,
        events,
    }));
    let services = vec![
        node.service::<ListParameters>(&node.private_name("list_parameters")?, {
            let table = table.clone();
            move |request| ListParametersResponse {
                result: locked(&table).list(&request.prefixes, request.depth),
            }
        })?,
        node.service::<GetParameters>(&node.private_name("get_parameters")?, {
            let table = table.clone();
            move |request| {
                let table = locked(&table);
                GetParametersResponse {
                    values: (request.names.iter())
                        .map(|n| table.find(n).map(|d| d.value.clone()).unwrap_or_default())
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
                            table
                                .find(n)
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
                    descriptors: request.names.iter().map(|n| table.describe(n)).collect(),
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
                        .map(|p| table.set_one(p))
                        .collect(),
                }
            }
        })?,
        node.service::<SetParametersAtomically>(
            &node.private_name("set_parameters_atomically")?,
            {
                let table = table.clone();
                move |request| SetParametersAtomicallyResponse {
                    result: locked(&table).set_all(&request.parameters),
                }
            },
        )?,
    ];
    Ok(ParameterServer {
        _services: services,
    })
}
