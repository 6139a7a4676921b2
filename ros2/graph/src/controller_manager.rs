//! `/controller_manager`'s services, the ones `ros2 control` calls, over a running controller
//! manager ([`ManagerHandle`]): `list_controllers`, `list_controller_types`,
//! `list_hardware_interfaces` and `switch_controller`, with `controller_manager_msgs`' types.
//!
//! They are answered on the participant's thread; a switch waits there (at most its timeout)
//! for the control thread to carry it out between two cycles, never the other way round.

use std::time::Duration;

use robot_runtime::controller_manager::{ManagerHandle, Strictness};
use robot_runtime::typed::{RobotTypes, Slot};
use ros2_dds::{Node, ServiceServer, WireError};
use ros2_msg::controller_manager::{
    ControllerState, HardwareInterface, ListControllerTypes, ListControllerTypesResponse,
    ListControllers, ListControllersResponse, ListHardwareInterfaces,
    ListHardwareInterfacesResponse, SwitchController, SwitchControllerResponse, strictness,
};

/// What ros2_control says of a controller's base class.
const BASE_CLASS: &str = "controller_interface::ControllerInterface";

/// Serves the controller manager's services on `node` (`/controller_manager`), for controllers
/// updated at `rate` Hz.
pub(crate) fn serve<R: RobotTypes>(
    node: &Node,
    handle: ManagerHandle,
    rate: u32,
) -> Result<Vec<ServiceServer>, WireError> {
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
            let handle = handle.clone();
            move |_| {
                let claimed = handle.claimed();
                let running = handle.running();
                let interface = |name: &String, available: bool, claimed: bool| HardwareInterface {
                    name: name.clone(),
                    data_type: "double".to_string(),
                    is_available: available,
                    is_claimed: claimed,
                };
                ListHardwareInterfacesResponse {
                    command_interfaces: (commands.iter())
                        .map(|n| interface(n, running, claimed.contains(n)))
                        .collect(),
                    state_interfaces: states.iter().map(|n| interface(n, true, false)).collect(),
                }
            }
        })?,
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
