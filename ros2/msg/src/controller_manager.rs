//! `controller_manager_msgs` (ros2_control, Jazzy) and the `lifecycle_msgs/State` it carries:
//! what `/controller_manager`'s services take and answer, the ones `ros2 control` calls, in the
//! field order of their `.msg` and `.srv` files (`ros2/interfaces/controller_manager_msgs/`).
//!
//! A request with no fields is, as rosidl generates it, one `uint8
//! structure_needs_at_least_one_member`: it is in the type hash and on the wire.

use crate::msg::Duration;
use crate::{ros_message, ros_service};

/// `lifecycle_msgs/msg/State`'s ids: the primary states of a managed node, which a hardware
/// component's lifecycle is.
pub mod lifecycle_state {
    /// No state known.
    pub const UNKNOWN: u8 = 0;
    /// Made, nothing opened.
    pub const UNCONFIGURED: u8 = 1;
    /// Configured: read, no write.
    pub const INACTIVE: u8 = 2;
    /// Driving.
    pub const ACTIVE: u8 = 3;
    /// Shut down for good.
    pub const FINALIZED: u8 = 4;
}

ros_message! {
    /// `lifecycle_msgs/msg/State`: a lifecycle state's id and label.
    pub struct LifecycleState as "State" in "lifecycle_msgs" {
        /// One of [`lifecycle_state`].
        id: u8,
        /// `unconfigured`, `inactive`, `active`, `finalized`.
        label: String,
    }
}

ros_message! {
    /// `controller_manager_msgs/msg/ChainConnection`.
    pub struct ChainConnection in "controller_manager_msgs" {
        /// The controller exporting the references.
        name: String,
        /// Those references.
        reference_interfaces: Vec<String>,
    }
}

ros_message! {
    /// `controller_manager_msgs/msg/ControllerState`: one controller as `list_controllers`
    /// answers.
    pub struct ControllerState in "controller_manager_msgs" {
        /// Its name.
        name: String,
        /// `unconfigured`, `inactive`, `active` or `finalized`.
        state: String,
        /// Its class (`joint_trajectory_controller/JointTrajectoryController`).
        r#type: String,
        /// Whether it runs on a thread of its own.
        is_async: bool,
        /// Its update rate (Hz).
        update_rate: u16,
        /// The command interfaces it holds now (while active).
        claimed_interfaces: Vec<String>,
        /// The command interfaces it needs.
        required_command_interfaces: Vec<String>,
        /// The state interfaces it reads.
        required_state_interfaces: Vec<String>,
        /// Whether it exports references for a chain.
        is_chainable: bool,
        /// Whether its references are claimed by another controller.
        is_chained: bool,
        /// Its exported state interfaces (chainable only).
        exported_state_interfaces: Vec<String>,
        /// Its exported references (chainable only).
        reference_interfaces: Vec<String>,
        /// The controllers it is chained to.
        chain_connections: Vec<ChainConnection>,
    }
}

ros_message! {
    /// `controller_manager_msgs/msg/HardwareInterface`: one interface, and who has it.
    pub struct HardwareInterface in "controller_manager_msgs" {
        /// `left_knee_pitch/position`.
        name: String,
        /// `double`.
        data_type: String,
        /// Whether its component offers it now (configured for a state interface, active for a
        /// command interface).
        is_available: bool,
        /// Whether an active controller holds it.
        is_claimed: bool,
    }
}

ros_message! {
    /// `controller_manager_msgs/msg/HardwareComponentState`: one hardware component.
    pub struct HardwareComponentState in "controller_manager_msgs" {
        /// Its name (the `<ros2_control>` block's).
        name: String,
        /// `system`, `sensor` or `actuator`.
        r#type: String,
        /// Whether it runs on a thread of its own.
        is_async: bool,
        /// Its read/write rate (Hz).
        rw_rate: u16,
        /// Deprecated upstream; the plugin's name.
        class_type: String,
        /// The plugin that drives it.
        plugin_name: String,
        /// Its lifecycle state.
        state: LifecycleState,
        /// Its command interfaces.
        command_interfaces: Vec<HardwareInterface>,
        /// Its state interfaces.
        state_interfaces: Vec<HardwareInterface>,
    }
}

/// `SwitchController`'s strictness values.
pub mod strictness {
    /// Do what can be done, skip what cannot.
    pub const BEST_EFFORT: i32 = 1;
    /// All or nothing.
    pub const STRICT: i32 = 2;
    /// Deactivate what collides (not offered here: refused as unknown).
    pub const AUTO: i32 = 3;
    /// As AUTO, forced (not offered here).
    pub const FORCE_AUTO: i32 = 4;
}

ros_service! {
    /// `controller_manager_msgs/srv/ListControllers`: `ros2 control list_controllers`.
    pub service ListControllers in "controller_manager_msgs" {
        request ListControllersRequest {
            /// rosidl's member of an empty request.
            structure_needs_at_least_one_member: u8,
        }
        response ListControllersResponse {
            /// Every loaded controller.
            controller: Vec<ControllerState>,
        }
        event ListControllersEvent
    }
}

ros_service! {
    /// `controller_manager_msgs/srv/ListControllerTypes`: `ros2 control list_controller_types`.
    pub service ListControllerTypes in "controller_manager_msgs" {
        request ListControllerTypesRequest {
            /// rosidl's member of an empty request.
            structure_needs_at_least_one_member: u8,
        }
        response ListControllerTypesResponse {
            /// Each type a controller may be loaded as.
            types: Vec<String>,
            /// Each one's base class, in order.
            base_classes: Vec<String>,
        }
        event ListControllerTypesEvent
    }
}

ros_service! {
    /// `controller_manager_msgs/srv/ListHardwareComponents`:
    /// `ros2 control list_hardware_components`.
    pub service ListHardwareComponents in "controller_manager_msgs" {
        request ListHardwareComponentsRequest {
            /// rosidl's member of an empty request.
            structure_needs_at_least_one_member: u8,
        }
        response ListHardwareComponentsResponse {
            /// Every hardware component.
            component: Vec<HardwareComponentState>,
        }
        event ListHardwareComponentsEvent
    }
}

ros_service! {
    /// `controller_manager_msgs/srv/ListHardwareInterfaces`:
    /// `ros2 control list_hardware_interfaces`.
    pub service ListHardwareInterfaces in "controller_manager_msgs" {
        request ListHardwareInterfacesRequest {
            /// rosidl's member of an empty request.
            structure_needs_at_least_one_member: u8,
        }
        response ListHardwareInterfacesResponse {
            /// Every command interface.
            command_interfaces: Vec<HardwareInterface>,
            /// Every state interface.
            state_interfaces: Vec<HardwareInterface>,
        }
        event ListHardwareInterfacesEvent
    }
}

ros_service! {
    /// `controller_manager_msgs/srv/SwitchController`: `ros2 control switch_controllers`.
    pub service SwitchController in "controller_manager_msgs" {
        request SwitchControllerRequest {
            /// To activate.
            activate_controllers: Vec<String>,
            /// To deactivate.
            deactivate_controllers: Vec<String>,
            /// One of [`strictness`].
            strictness: i32,
            /// Activate as soon as possible (every switch here happens at the next cycle).
            activate_asap: bool,
            /// How long to wait for the switch; zero for no limit.
            timeout: Duration,
        }
        response SwitchControllerResponse {
            /// Whether it was done.
            ok: bool,
            /// Why not, or what was skipped.
            message: String,
        }
        event SwitchControllerEvent
    }
}

ros_service! {
    /// `controller_manager_msgs/srv/SetHardwareComponentState`:
    /// `ros2 control set_hardware_component_state`.
    pub service SetHardwareComponentState in "controller_manager_msgs" {
        request SetHardwareComponentStateRequest {
            /// The component.
            name: String,
            /// Where to take it (by id, or by label when the id is 0).
            target_state: LifecycleState,
        }
        response SetHardwareComponentStateResponse {
            /// Whether it got there.
            ok: bool,
            /// The state it is in now.
            state: LifecycleState,
        }
        event SetHardwareComponentStateEvent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::Float64MultiArray;
    use crate::{Message, Service, TypeHash};

    /// From the type description files rosidl writes when it builds these packages from
    /// `ros2/interfaces/` (`share/<package>/{msg,srv}/<Name>.json`, `type_hashes[0]`), and
    /// std_msgs' and lifecycle_msgs' as their ros-jazzy wheels ship them.
    #[test]
    fn the_controller_manager_types_hash_as_rosidl_builds_them() {
        let services = [
            (
                ListControllers::DESCRIPTION,
                "RIHS01_4f8e36bb1fa5afdeba45c2d56ae6a2097b1493a253f961dd6290c085033bd189",
            ),
            (
                ListControllerTypes::DESCRIPTION,
                "RIHS01_873e8d2bb81b8b5903ca736d299ba959f929efec4b4a18d17354b8b322822e05",
            ),
            (
                ListHardwareComponents::DESCRIPTION,
                "RIHS01_2ff105e609928671af16413362c0fdd089e1dd50c5a49d830db603ba8e4439c8",
            ),
            (
                ListHardwareInterfaces::DESCRIPTION,
                "RIHS01_c3e561a6e8cc7b9d577d8065c783038e51f6950cbe9bed67fb117a3e2e04d8f1",
            ),
            (
                SwitchController::DESCRIPTION,
                "RIHS01_d4ad10aa5da7808bc522d55d4123d8ef79de73d049d165639d7663ac37cc9895",
            ),
            (
                SetHardwareComponentState::DESCRIPTION,
                "RIHS01_940b15846ed3e1fb561ab45edf77a992b811fd59c574f45d5205a84a0deb2f65",
            ),
            (
                ControllerState::DESCRIPTION,
                "RIHS01_9a8780ab9814b6032978a07c6c7033cf1a7894ac8d948a6fb72afea07b04cc83",
            ),
            (
                HardwareComponentState::DESCRIPTION,
                "RIHS01_8723f76b60e3ea54920065e3e777d93c68b76fc12839ad6a6ca4e0a6439b384c",
            ),
            (
                LifecycleState::DESCRIPTION,
                "RIHS01_dd2d02b82f3ebc858e53c431b1e6e91f3ffc71436fc81d0715214ac6ee2107a0",
            ),
            (
                Float64MultiArray::DESCRIPTION,
                "RIHS01_1025ddc6b9552d191f89ef1a8d2f60f3d373e28b283d8891ddcc974e8c55397f",
            ),
        ];
        for (description, published) in services {
            let hash = TypeHash::of_description(description);
            assert_eq!(hash.to_string(), published, "{}", description.type_name());
        }
    }

    #[test]
    fn an_empty_request_is_one_octet_on_the_wire() {
        let mut buffer = Vec::new();
        crate::cdr::encode(&ListControllersRequest::default(), &mut buffer);
        // The 4-octet encapsulation header, then the one member.
        assert_eq!(buffer.len(), 5, "{buffer:?}");
    }
}
