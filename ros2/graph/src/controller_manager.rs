//! `/controller_manager`'s services, the ones `ros2 control` calls, over a running controller
//! manager ([`ManagerHandle`]) and its loop ([`LoopWatch`]): `list_controllers`,
//! `list_controller_types`, `list_hardware_interfaces`, `switch_controller`,
//! `list_hardware_components` and `set_hardware_component_state`, with
//! `controller_manager_msgs`' types.
//!
//! A component set inactive is switched off through its lifecycle (`on_deactivate`: torque off)
//! between two cycles, the others going on; the controllers that claim any of its command
//! interfaces are deactivated first, so its joints are held by nobody's commands but its own
//! seed when it is activated again (through `on_activate`, its commands seeded where its joints
//! are, at zero torque), and a controller is activated again only by a switch.
//!
//! They are answered on the participant's thread; a switch waits there (at most its timeout)
//! for the control thread to carry it out between two cycles, never the other way round.

use std::time::Duration;

use robot_runtime::controller_manager::{ManagerHandle, Strictness};
use robot_runtime::hardware::Lifecycle;
use robot_runtime::typed::{RobotTypes, Slot};
use ros2_dds::{Node, ServiceServer, WireError};
use ros2_msg::controller_manager::{
    ControllerState, HardwareComponentState, HardwareInterface, LifecycleState,
    ListControllerTypes, ListControllerTypesResponse, ListControllers, ListControllersResponse,
    ListHardwareComponents, ListHardwareComponentsResponse, ListHardwareInterfaces,
    ListHardwareInterfacesResponse, SetHardwareComponentState, SetHardwareComponentStateResponse,
    SwitchController, SwitchControllerResponse, lifecycle_state, strictness,
};

use crate::diagnostics::LoopWatch;
use crate::observer::{ComponentView, HardwareView};

/// How long `set_hardware_component_state` waits for the loop.
const COMPONENT_TIMEOUT: Duration = Duration::from_secs(2);

/// What the services answer from.
pub(crate) struct Served {
    pub(crate) handle: ManagerHandle,
    /// The controllers' update rate, Hz.
    pub(crate) rate: u32,
    pub(crate) hardware: HardwareView,
    pub(crate) watch: LoopWatch,
    /// The joint components' plugin.
    pub(crate) plugin: String,
}

/// What ros2_control says of a controller's base class.
const BASE_CLASS: &str = "controller_interface::ControllerInterface";

/// Serves the controller manager's services on `node` (`/controller_manager`), for controllers
/// updated at `rate` Hz.
pub(crate) fn serve<R: RobotTypes>(
    node: &Node,
    served: Served,
) -> Result<Vec<ServiceServer>, WireError> {
    let Served {
        handle,
        rate,
        hardware,
        watch,
        plugin,
    } = served;
    let rate = u16::try_from(rate).unwrap_or(u16::MAX);
    let commands = interface_names::<R>(R::COMMAND_LAYOUT.slots);
    let states = interface_names::<R>(R::STATE_LAYOUT.slots);
    Ok(vec![
        node.service::<ListControllers>(&node.private_name("list_controllers")?, {
            let handle = handle.clone();
            move |_| list_controllers(&handle, rate)
        })?,
        node.service::<ListControllerTypes>(&node.private_name("list_controller_types")?, {
            let handle = handle.clone();
            move |_| {
                let mut types: Vec<String> = handle
                    .controllers()
                    .into_iter()
                    .map(|c| c.info.kind)
                    .collect();
                types.sort();
                types.dedup();
                ListControllerTypesResponse {
                    base_classes: vec![BASE_CLASS.to_string(); types.len()],
                    types,
                }
            }
        })?,
        node.service::<ListHardwareInterfaces>(&node.private_name("list_hardware_interfaces")?, {
            let (handle, hardware, watch) = (handle.clone(), hardware.clone(), watch.clone());
            let (commands, states) = (commands.clone(), states.clone());
            move |_| {
                let claimed = handle.claimed();
                // A command interface is available while its component is active.
                let control = watch.control();
                let active = |slot: usize| {
                    (hardware
                        .components()
                        .iter()
                        .position(|c| c.commands.contains(&slot)))
                    .and_then(|i| control?.component(i))
                        == Some(Lifecycle::Active)
                };
                let interface = |name: &String, available: bool, claimed: bool| HardwareInterface {
                    name: name.clone(),
                    data_type: "double".to_string(),
                    is_available: available,
                    is_claimed: claimed,
                };
                ListHardwareInterfacesResponse {
                    command_interfaces: (commands.iter().enumerate())
                        .map(|(slot, n)| interface(n, active(slot), claimed.contains(n)))
                        .collect(),
                    state_interfaces: states.iter().map(|n| interface(n, true, false)).collect(),
                }
            }
        })?,
        node.service::<ListHardwareComponents>(&node.private_name("list_hardware_components")?, {
            let (handle, hardware, watch) = (handle.clone(), hardware.clone(), watch.clone());
            let (commands, states) = (commands.clone(), states.clone());
            move |_| {
                let claimed = handle.claimed();
                ListHardwareComponentsResponse {
                    component: (hardware.components().iter().enumerate())
                        .map(|(index, component)| {
                            let state = watch.control().and_then(|c| c.component(index));
                            let view = ComponentNames::of::<R>(component, &commands, &states);
                            component_state::<R>(component, &view, state, &claimed, rate, &plugin)
                        })
                        .collect(),
                }
            }
        })?,
        node.service::<SetHardwareComponentState>(
            &node.private_name("set_hardware_component_state")?,
            {
                let (handle, hardware, watch) = (handle.clone(), hardware.clone(), watch.clone());
                let commands = commands.clone();
                move |request| {
                    let answer = set_component(&handle, &hardware, &watch, &commands, request);
                    if !answer.ok {
                        eprintln!(
                            "/controller_manager: set_hardware_component_state `{}` to {}: \
                             refused; it is {}",
                            request.name, request.target_state.label, answer.state.label
                        );
                    }
                    answer
                }
            },
        )?,
        node.service::<SwitchController>(&node.private_name("switch_controller")?, {
            let handle = handle.clone();
            move |request| {
                let strictness = match request.strictness {
                    strictness::STRICT => Strictness::Strict,
                    // 0 is ros2_control's `defaults.switch_controller.strictness`, best_effort in
                    // Jazzy; AUTO and FORCE_AUTO are not implemented there and fall back to
                    // BEST_EFFORT.
                    _ => Strictness::BestEffort,
                };
                let timeout = Duration::new(
                    u64::try_from(request.timeout.sec).unwrap_or(0),
                    request.timeout.nanosec,
                );
                let answer = handle.switch(
                    &request.activate_controllers,
                    &request.deactivate_controllers,
                    strictness,
                    timeout,
                );
                if !answer.ok || !answer.message.is_empty() {
                    eprintln!("/controller_manager: switch_controller: {}", answer.message);
                }
                SwitchControllerResponse {
                    ok: answer.ok,
                    message: answer.message,
                }
            }
        })?,
    ])
}

/// Every controller, as `list_controllers` answers.
fn list_controllers(handle: &ManagerHandle, rate: u16) -> ListControllersResponse {
    ListControllersResponse {
        controller: (handle.controllers().into_iter())
            .map(|c| ControllerState {
                state: if c.active { "active" } else { "inactive" }.to_string(),
                claimed_interfaces: if c.active {
                    c.info.claims.clone()
                } else {
                    Vec::new()
                },
                required_command_interfaces: c.info.claims,
                required_state_interfaces: c.info.reads,
                name: c.info.name,
                r#type: c.info.kind,
                update_rate: rate,
                ..ControllerState::default()
            })
            .collect(),
    }
}

/// A component's interfaces by name.
struct ComponentNames {
    commands: Vec<String>,
    states: Vec<String>,
}

impl ComponentNames {
    fn of<R: RobotTypes>(
        component: &ComponentView,
        commands: &[String],
        states: &[String],
    ) -> Self {
        let state_slots =
            (R::STATE_LAYOUT.slots.iter().enumerate()).filter(|(_, slot)| match **slot {
                Slot::Joint { joint, .. } => component.joints.contains(&usize::from(joint)),
                Slot::Sensor { sensor, .. } => component.sensors.contains(&usize::from(sensor)),
            });
        ComponentNames {
            commands: (component.commands.iter())
                .filter_map(|s| commands.get(*s).cloned())
                .collect(),
            states: state_slots
                .filter_map(|(s, _)| states.get(s).cloned())
                .collect(),
        }
    }
}

/// `lifecycle_msgs/State` of `state` (unknown when `None`).
fn lifecycle(state: Option<Lifecycle>) -> LifecycleState {
    let (id, label) = match state {
        None => (lifecycle_state::UNKNOWN, "unknown"),
        Some(Lifecycle::Unconfigured) => (lifecycle_state::UNCONFIGURED, "unconfigured"),
        Some(Lifecycle::Inactive) => (lifecycle_state::INACTIVE, "inactive"),
        Some(Lifecycle::Active) => (lifecycle_state::ACTIVE, "active"),
        Some(Lifecycle::Finalized) => (lifecycle_state::FINALIZED, "finalized"),
    };
    LifecycleState {
        id,
        label: label.to_string(),
    }
}

/// One component as `list_hardware_components` answers.
fn component_state<R: RobotTypes>(
    component: &ComponentView,
    names: &ComponentNames,
    state: Option<Lifecycle>,
    claimed: &[String],
    rate: u16,
    plugin: &str,
) -> HardwareComponentState {
    let robot = R::DESCRIPTION;
    // A component of sensors alone is a sensor block driven by its sensor's plugin.
    let (kind, plugin) = match (component.joints.is_empty(), component.sensors.first()) {
        (true, Some(&sensor)) => ("sensor", robot.sensors[sensor].plugin.to_string()),
        _ => ("system", plugin.to_string()),
    };
    let active = state == Some(Lifecycle::Active);
    let configured = matches!(state, Some(Lifecycle::Active | Lifecycle::Inactive));
    let interface = |name: &String, available: bool| HardwareInterface {
        name: name.clone(),
        data_type: "double".to_string(),
        is_available: available,
        is_claimed: claimed.contains(name),
    };
    HardwareComponentState {
        name: component.name.clone(),
        r#type: kind.to_string(),
        is_async: false,
        rw_rate: rate,
        class_type: plugin.clone(),
        plugin_name: plugin,
        state: lifecycle(state),
        command_interfaces: names
            .commands
            .iter()
            .map(|n| interface(n, active))
            .collect(),
        state_interfaces: names
            .states
            .iter()
            .map(|n| interface(n, configured))
            .collect(),
    }
}

/// `set_hardware_component_state`: active or inactive, between two cycles.
fn set_component(
    handle: &ManagerHandle,
    hardware: &HardwareView,
    watch: &LoopWatch,
    commands: &[String],
    request: &ros2_msg::controller_manager::SetHardwareComponentStateRequest,
) -> SetHardwareComponentStateResponse {
    let found = (hardware.components().iter()).position(|c| c.name == request.name);
    let control = watch.control();
    let now = |index: Option<usize>| lifecycle(index.and_then(|i| control?.component(i)));
    let refused = |index| SetHardwareComponentStateResponse {
        ok: false,
        state: now(index),
    };
    let (Some(index), Some(control)) = (found, control) else {
        return refused(found);
    };
    let target = match (request.target_state.id, request.target_state.label.as_str()) {
        (lifecycle_state::ACTIVE, _) | (0, "active") => true,
        (lifecycle_state::INACTIVE, _) | (0, "inactive") => false,
        // Unconfigured and finalized (cleanup, shutdown) are not offered while the robot runs.
        _ => return refused(Some(index)),
    };
    if !target {
        // Its controllers first: nothing may command a component that is going off.
        let component = &hardware.components()[index];
        let mine: Vec<&String> = (component.commands.iter())
            .filter_map(|s| commands.get(*s))
            .collect();
        let claiming: Vec<String> = (handle.controllers().into_iter())
            .filter(|c| c.active && c.info.claims.iter().any(|n| mine.contains(&n)))
            .map(|c| c.info.name)
            .collect();
        if !claiming.is_empty() {
            let answer = handle.switch(&[], &claiming, Strictness::Strict, COMPONENT_TIMEOUT);
            if !answer.ok {
                eprintln!(
                    "/controller_manager: cannot deactivate {} before `{}` goes inactive: {}",
                    claiming.join(", "),
                    request.name,
                    answer.message
                );
                return refused(Some(index));
            }
            eprintln!(
                "/controller_manager: `{}` goes inactive: deactivated {}, which claimed its \
                 interfaces",
                request.name,
                claiming.join(", ")
            );
        }
    }
    match control.set_component(index, target, COMPONENT_TIMEOUT) {
        Ok(state) => SetHardwareComponentStateResponse {
            ok: true,
            state: lifecycle(Some(state)),
        },
        Err(error) => {
            eprintln!(
                "/controller_manager: set_hardware_component_state `{}`: {error}",
                request.name
            );
            refused(Some(index))
        }
    }
}

/// ros2_control's names of the slots of a layout of `R`: `<joint>/<interface>`,
/// `<sensor>/<component>`.
fn interface_names<R: RobotTypes>(slots: &[Slot]) -> Vec<String> {
    let robot = R::DESCRIPTION;
    (slots.iter())
        .map(|slot| match *slot {
            Slot::Joint { joint, kind } => {
                format!("{}/{kind}", robot.joints[usize::from(joint)].name)
            }
            Slot::Sensor { sensor, component } => {
                let sensor = &robot.sensors[usize::from(sensor)];
                let interfaces = sensor.state_interfaces();
                match interfaces.get(usize::from(component)) {
                    Some(interface) => format!("{}/{interface}", sensor.name),
                    None => format!("{}/{component}", sensor.name),
                }
            }
        })
        .collect()
}
