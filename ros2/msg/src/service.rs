//! What a ROS service type is here: a request and a response message, and the service's own
//! description, from which the type hash its endpoints announce is computed.
//!
//! rosidl describes a service `pkg/srv/Name` as a type of three fields, `request_message`
//! (`pkg/srv/Name_Request`), `response_message` (`pkg/srv/Name_Response`) and `event_message`
//! (`pkg/srv/Name_Event`: a `service_msgs/ServiceEventInfo` and at most one of each, what service
//! introspection publishes); its REP-2011 hash is that type's, and Jazzy's RMWs announce it on
//! both the request reader and the reply writer. [`ros_service!`](crate::ros_service) declares
//! all four from one invocation.

use crate::message::{Message, TypeDescription};
use crate::msg::Time;
use crate::ros_message;

/// A ROS 2 service type.
pub trait Service: 'static {
    /// What a client sends.
    type Request: Message;
    /// What the server answers.
    type Response: Message;
    /// The service type's description (`rcl_interfaces/srv/GetParameters`): its three fields.
    const DESCRIPTION: &'static TypeDescription;
}

ros_message! {
    /// `service_msgs/msg/ServiceEventInfo`: what service introspection says of one call.
    pub struct ServiceEventInfo in "service_msgs" {
        /// REQUEST_SENT 0, REQUEST_RECEIVED 1, RESPONSE_SENT 2, RESPONSE_RECEIVED 3.
        event_type: u8,
        /// When.
        stamp: Time,
        /// The client's GID (`char[16]`).
        client_gid: [u8; 16],
        /// The call's sequence number.
        sequence_number: i64,
    }
}

/// Declares a ROS service: its request and response messages (`<Name>_Request`,
/// `<Name>_Response` under `srv`), its event message, and a unit struct implementing
/// [`Service`]:
///
/// ```
/// use ros2_msg::{Service, ros_service};
///
/// ros_service! {
///     /// `example_interfaces/srv/AddTwoInts`.
///     pub service AddTwoInts in "example_interfaces" {
///         request AddTwoIntsRequest { a: i64, b: i64 }
///         response AddTwoIntsResponse { sum: i64 }
///         event AddTwoIntsEvent
///     }
/// }
///
/// assert_eq!(
///     AddTwoInts::DESCRIPTION.type_name(),
///     "example_interfaces/srv/AddTwoInts"
/// );
/// ```
#[macro_export]
macro_rules! ros_service {
    // A service under any interface with its ROS name given: an action's
    // (`control_msgs/action/FollowJointTrajectory_SendGoal`), and every `srv` one through the
    // arm below.
    ($(#[$meta:meta])* pub service $name:ident as ($ros_name:expr) in $package:literal :: $interface:ident {
        request $request:ident { $($(#[$rq_meta:meta])* $rq_field:ident : $rq_type:ty),* $(,)? }
        response $response:ident { $($(#[$rs_meta:meta])* $rs_field:ident : $rs_type:ty),* $(,)? }
        event $event:ident
    }) => {
        $crate::ros_message! {
            #[doc = ::core::concat!("The request of `", $package, "/", ::core::stringify!($interface), "/", $ros_name, "`.")]
            pub struct $request as (::core::concat!($ros_name, "_Request")) in $package :: $interface {
                $($(#[$rq_meta])* $rq_field : $rq_type),*
            }
        }
        $crate::ros_message! {
            #[doc = ::core::concat!("The response of `", $package, "/", ::core::stringify!($interface), "/", $ros_name, "`.")]
            pub struct $response as (::core::concat!($ros_name, "_Response")) in $package :: $interface {
                $($(#[$rs_meta])* $rs_field : $rs_type),*
            }
        }
        $crate::ros_message! {
            #[doc = ::core::concat!("The introspection event of `", $package, "/", ::core::stringify!($interface), "/", $ros_name, "`.")]
            pub struct $event as (::core::concat!($ros_name, "_Event")) in $package :: $interface {
                /// What happened, when, to whose call.
                info: $crate::service::ServiceEventInfo,
                /// The request, when the event carries it.
                request: $crate::BoundedVec<$request, 1>,
                /// The response, when the event carries it.
                response: $crate::BoundedVec<$response, 1>,
            }
        }

        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        pub struct $name;

        #[automatically_derived]
        impl $crate::Service for $name {
            type Request = $request;
            type Response = $response;
            const DESCRIPTION: &'static $crate::TypeDescription = &$crate::TypeDescription {
                package: $package,
                interface: ::core::stringify!($interface),
                name: $ros_name,
                fields: &[
                    $crate::Field {
                        name: "request_message",
                        field_type: <$request as $crate::RosType>::FIELD_TYPE,
                    },
                    $crate::Field {
                        name: "response_message",
                        field_type: <$response as $crate::RosType>::FIELD_TYPE,
                    },
                    $crate::Field {
                        name: "event_message",
                        field_type: <$event as $crate::RosType>::FIELD_TYPE,
                    },
                ],
            };
        }
    };
    ($(#[$meta:meta])* pub service $name:ident in $package:literal {
        request $request:ident { $($(#[$rq_meta:meta])* $rq_field:ident : $rq_type:ty),* $(,)? }
        response $response:ident { $($(#[$rs_meta:meta])* $rs_field:ident : $rs_type:ty),* $(,)? }
        event $event:ident
    }) => {
        $crate::ros_service! {
            $(#[$meta])* pub service $name as (::core::stringify!($name)) in $package :: srv {
                request $request { $($(#[$rq_meta])* $rq_field : $rq_type),* }
                response $response { $($(#[$rs_meta])* $rs_field : $rs_type),* }
                event $event
            }
        }
    };
}
