//! `rcl_interfaces`' parameter types and services (Jazzy), in the field order of their `.msg`
//! and `.srv` files: what a node's parameter services take and answer (`ros2 param`).

use crate::msg::Time;
use crate::{BoundedVec, Byte, ros_message, ros_service};

/// `rcl_interfaces/msg/ParameterType`'s constants: which field of a [`ParameterValue`] holds it.
pub mod parameter_type {
    /// No such parameter.
    pub const NOT_SET: u8 = 0;
    /// `bool_value`.
    pub const BOOL: u8 = 1;
    /// `integer_value`.
    pub const INTEGER: u8 = 2;
    /// `double_value`.
    pub const DOUBLE: u8 = 3;
    /// `string_value`.
    pub const STRING: u8 = 4;
    /// `byte_array_value`.
    pub const BYTE_ARRAY: u8 = 5;
    /// `bool_array_value`.
    pub const BOOL_ARRAY: u8 = 6;
    /// `integer_array_value`.
    pub const INTEGER_ARRAY: u8 = 7;
    /// `double_array_value`.
    pub const DOUBLE_ARRAY: u8 = 8;
    /// `string_array_value`.
    pub const STRING_ARRAY: u8 = 9;
}

ros_message! {
    /// `rcl_interfaces/msg/ParameterValue`: a value of the type `type` says, in its field.
    pub struct ParameterValue in "rcl_interfaces" {
        /// One of [`parameter_type`].
        r#type: u8,
        /// A bool.
        bool_value: bool,
        /// An integer.
        integer_value: i64,
        /// A double.
        double_value: f64,
        /// A string.
        string_value: String,
        /// Bytes.
        byte_array_value: Vec<Byte>,
        /// Bools.
        bool_array_value: Vec<bool>,
        /// Integers.
        integer_array_value: Vec<i64>,
        /// Doubles.
        double_array_value: Vec<f64>,
        /// Strings.
        string_array_value: Vec<String>,
    }
}

ros_message! {
    /// `rcl_interfaces/msg/Parameter`: a name and its value.
    pub struct Parameter in "rcl_interfaces" {
        /// The parameter's name (`update_rate`, `joints`).
        name: String,
        /// Its value.
        value: ParameterValue,
    }
}

ros_message! {
    /// `rcl_interfaces/msg/FloatingPointRange`.
    pub struct FloatingPointRange in "rcl_interfaces" {
        /// Lowest.
        from_value: f64,
        /// Highest.
        to_value: f64,
        /// Step, 0 for any.
        step: f64,
    }
}

ros_message! {
    /// `rcl_interfaces/msg/IntegerRange`.
    pub struct IntegerRange in "rcl_interfaces" {
        /// Lowest.
        from_value: i64,
        /// Highest.
        to_value: i64,
        /// Step, 0 for any.
        step: u64,
    }
}

ros_message! {
    /// `rcl_interfaces/msg/ParameterDescriptor`: what a parameter is and whether it may change.
    pub struct ParameterDescriptor in "rcl_interfaces" {
        /// Its name.
        name: String,
        /// One of [`parameter_type`].
        r#type: u8,
        /// What it means.
        description: String,
        /// What else limits it, in words.
        additional_constraints: String,
        /// Whether setting it is refused.
        read_only: bool,
        /// Whether its type may change.
        dynamic_typing: bool,
        /// A double's range, if it has one.
        floating_point_range: BoundedVec<FloatingPointRange, 1>,
        /// An integer's range, if it has one.
        integer_range: BoundedVec<IntegerRange, 1>,
    }
}

ros_message! {
    /// `rcl_interfaces/msg/SetParametersResult`.
    pub struct SetParametersResult in "rcl_interfaces" {
        /// Whether it was set.
        successful: bool,
        /// Why not.
        reason: String,
    }
}

ros_message! {
    /// `rcl_interfaces/msg/ListParametersResult`.
    pub struct ListParametersResult in "rcl_interfaces" {
        /// The parameters' names.
        names: Vec<String>,
        /// The prefixes of those with a `.` in their names.
        prefixes: Vec<String>,
    }
}

ros_message! {
    /// `rcl_interfaces/msg/ParameterEvent`: what a node publishes on `/parameter_events` when
    /// its parameters change.
    pub struct ParameterEvent in "rcl_interfaces" {
        /// When.
        stamp: Time,
        /// The node's fully qualified name.
        node: String,
        /// Declared.
        new_parameters: Vec<Parameter>,
        /// Changed.
        changed_parameters: Vec<Parameter>,
        /// Undeclared.
        deleted_parameters: Vec<Parameter>,
    }
}

ros_service! {
    /// `rcl_interfaces/srv/GetParameters`: `ros2 param get`.
    pub service GetParameters in "rcl_interfaces" {
        request GetParametersRequest {
            /// The names asked for.
            names: Vec<String>,
        }
        response GetParametersResponse {
            /// Their values, in order (type NOT_SET where there is none).
            values: Vec<ParameterValue>,
        }
        event GetParametersEvent
    }
}

ros_service! {
    /// `rcl_interfaces/srv/GetParameterTypes`.
    pub service GetParameterTypes in "rcl_interfaces" {
        request GetParameterTypesRequest {
            /// The names asked for.
            names: Vec<String>,
        }
        response GetParameterTypesResponse {
            /// Their types, in order.
            types: Vec<u8>,
        }
        event GetParameterTypesEvent
    }
}

ros_service! {
    /// `rcl_interfaces/srv/ListParameters`: `ros2 param list`.
    pub service ListParameters in "rcl_interfaces" {
        request ListParametersRequest {
            /// Only names under these prefixes (all when empty).
            prefixes: Vec<String>,
            /// How many `.`-separated levels below a prefix (0: any).
            depth: u64,
        }
        response ListParametersResponse {
            /// The names and prefixes found.
            result: ListParametersResult,
        }
        event ListParametersEvent
    }
}

ros_service! {
    /// `rcl_interfaces/srv/DescribeParameters`: `ros2 param describe`.
    pub service DescribeParameters in "rcl_interfaces" {
        request DescribeParametersRequest {
            /// The names asked for.
            names: Vec<String>,
        }
        response DescribeParametersResponse {
            /// Their descriptors, in order.
            descriptors: Vec<ParameterDescriptor>,
        }
        event DescribeParametersEvent
    }
}

ros_service! {
    /// `rcl_interfaces/srv/SetParameters`: `ros2 param set`.
    pub service SetParameters in "rcl_interfaces" {
        request SetParametersRequest {
            /// The parameters to set, each on its own.
            parameters: Vec<Parameter>,
        }
        response SetParametersResponse {
            /// One result each, in order.
            results: Vec<SetParametersResult>,
        }
        event SetParametersEvent
    }
}

ros_service! {
    /// `rcl_interfaces/srv/SetParametersAtomically`.
    pub service SetParametersAtomically in "rcl_interfaces" {
        request SetParametersAtomicallyRequest {
            /// The parameters to set, all or none.
            parameters: Vec<Parameter>,
        }
        response SetParametersAtomicallyResponse {
            /// One result for them all.
            result: SetParametersResult,
        }
        event SetParametersAtomicallyEvent
    }
}
