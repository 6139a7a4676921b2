//! What a ROS message type is here: a struct in ROS field order (so CDR, which encodes fields
//! in declaration order with no names, is exactly what a ROS node sends) plus a static
//! description of its fields, from which the DDS type name and the REP-2011 type hash are
//! computed. [`ros_message!`](crate::ros_message) writes both from one declaration, so they
//! cannot disagree.

use crate::cdr::{CdrError, CdrField, CdrReader, CdrWriter};

/// A ROS 2 message type.
pub trait Message:
    CdrField + Clone + Default + PartialEq + std::fmt::Debug + Send + Sync + 'static
{
    /// The type as ROS describes it: package, name and fields.
    const DESCRIPTION: &'static TypeDescription;
}

/// One message type's description: `package/msg/Name` and its fields in order (rosidl's
/// `IndividualTypeDescription`). A service's request, response and event are messages of the
/// service's package under `srv` (`rcl_interfaces/srv/GetParameters_Request`), and so is the
/// service itself, whose fields are those three ([`crate::Service`]).
#[derive(Debug, PartialEq, Eq)]
pub struct TypeDescription {
    /// The package: `sensor_msgs`.
    pub package: &'static str,
    /// The kind of interface it is defined in: `msg`, or `srv` for a service's types.
    pub interface: &'static str,
    /// The message name: `JointState`.
    pub name: &'static str,
    /// The fields, in definition order.
    pub fields: &'static [Field],
}

impl TypeDescription {
    /// `sensor_msgs/msg/JointState`, as REP-2011 and `ros2 topic` name it.
    pub fn type_name(&self) -> String {
        format!("{}/{}/{}", self.package, self.interface, self.name)
    }

    /// `sensor_msgs::msg::dds_::JointState_`, the DDS type name ROS 2's RMWs use.
    pub fn dds_type_name(&self) -> String {
        format!("{}::{}::dds_::{}_", self.package, self.interface, self.name)
    }
}

/// One field of a message.
#[derive(Debug, PartialEq, Eq)]
pub struct Field {
    /// The field name, as in the `.msg` file.
    pub name: &'static str,
    /// Its type.
    pub field_type: FieldType,
}

/// A field's type, in the terms of `type_description_interfaces/msg/FieldType`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldType {
    /// `FieldType`'s id: the element type, plus 48 for a fixed array, 144 for an unbounded
    /// sequence.
    pub type_id: u8,
    /// A fixed array's length; 0 otherwise.
    pub capacity: u64,
    /// A bounded string's bound (`string<=256`); 0 otherwise.
    pub string_capacity: u64,
    /// The nested message type, for nested fields and arrays of them.
    pub nested: Option<&'static TypeDescription>,
}

/// `FieldType` ids of the element types this crate maps from Rust types.
pub mod type_id {
    /// A nested message.
    pub const NESTED_TYPE: u8 = 1;
    /// `int8`.
    pub const INT8: u8 = 2;
    /// `uint8`.
    pub const UINT8: u8 = 3;
    /// `int16`.
    pub const INT16: u8 = 4;
    /// `uint16`.
    pub const UINT16: u8 = 5;
    /// `int32`.
    pub const INT32: u8 = 6;
    /// `uint32`.
    pub const UINT32: u8 = 7;
    /// `int64`.
    pub const INT64: u8 = 8;
    /// `uint64`.
    pub const UINT64: u8 = 9;
    /// `float32`.
    pub const FLOAT: u8 = 10;
    /// `float64`.
    pub const DOUBLE: u8 = 11;
    /// `bool`.
    pub const BOOLEAN: u8 = 15;
    /// `byte`: an octet that is not a number (`DiagnosticStatus.level`).
    pub const BYTE: u8 = 16;
    /// `string`.
    pub const STRING: u8 = 17;
    /// `string<=N`.
    pub const BOUNDED_STRING: u8 = 21;
    /// Added to an element id for a fixed-size array (`float64[9]`).
    pub const ARRAY_OFFSET: u8 = 48;
    /// Added to an element id for a bounded sequence (`Request[<=1]`).
    pub const BOUNDED_SEQUENCE_OFFSET: u8 = 96;
    /// Added to an element id for an unbounded sequence (`float64[]`).
    pub const UNBOUNDED_SEQUENCE_OFFSET: u8 = 144;
}

/// A field's ROS name from its Rust one: a raw identifier (`r#type`, for ROS's `type`)
/// without its `r#`.
pub const fn field_name(rust: &'static str) -> &'static str {
    match rust.as_bytes() {
        [b'r', b'#', rest @ ..] => match std::str::from_utf8(rest) {
            Ok(name) => name,
            Err(_) => rust,
        },
        _ => rust,
    }
}

/// A Rust type that stands for a ROS field type.
pub trait RosType {
    /// Its `FieldType`.
    const FIELD_TYPE: FieldType;
}

macro_rules! basic_types {
    ($($rust:ty => $id:ident),* $(,)?) => {
        $(impl RosType for $rust {
            const FIELD_TYPE: FieldType = FieldType {
                type_id: type_id::$id,
                capacity: 0,
                string_capacity: 0,
                nested: None,
            };
        })*
    };
}

basic_types! {
    i8 => INT8, u8 => UINT8, i16 => INT16, u16 => UINT16, i32 => INT32, u32 => UINT32,
    i64 => INT64, u64 => UINT64, f32 => FLOAT, f64 => DOUBLE, bool => BOOLEAN, String => STRING,
}

/// ROS's `byte`: one octet, encoded as a `uint8` is, but a type of its own in the type
/// description, so the type hash of a message with one (`diagnostic_msgs/DiagnosticStatus`)
/// is the one ROS computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Byte(pub u8);

basic_types! { Byte => BYTE }

impl CdrField for Byte {
    fn encode(&self, w: &mut CdrWriter<'_>) {
        self.0.encode(w);
    }
    fn decode(r: &mut CdrReader<'_>) -> Result<Self, CdrError> {
        u8::decode(r).map(Byte)
    }
    const MIN_SIZE: usize = 1;
}

/// ROS's `string<=N`: a string of at most `N` bytes, encoded as any string is; a longer one
/// is refused when decoded (as the RMWs refuse it), and truncated by nobody.
#[derive(Debug, Clone, PartialEq, Eq, Default, Hash)]
pub struct BoundedString<const N: usize>(pub String);

impl<const N: usize> RosType for BoundedString<N> {
    const FIELD_TYPE: FieldType = FieldType {
        type_id: type_id::BOUNDED_STRING,
        capacity: 0,
        string_capacity: N as u64,
        nested: None,
    };
}

impl<const N: usize> CdrField for BoundedString<N> {
    fn encode(&self, w: &mut CdrWriter<'_>) {
        self.0.encode(w);
    }
    fn decode(r: &mut CdrReader<'_>) -> Result<Self, CdrError> {
        let mut text = BoundedString(String::new());
        text.decode_into(r)?;
        Ok(text)
    }
    fn decode_into(&mut self, r: &mut CdrReader<'_>) -> Result<(), CdrError> {
        let at = r.position();
        let text = crate::cdr::read_str(r)?;
        if text.len() > N {
            return Err(CdrError::OverBound {
                at,
                length: text.len(),
                bound: N,
            });
        }
        self.0.clear();
        self.0.push_str(text);
        Ok(())
    }
    const MIN_SIZE: usize = String::MIN_SIZE;
}

impl<T: RosType> RosType for Vec<T> {
    const FIELD_TYPE: FieldType = FieldType {
        type_id: T::FIELD_TYPE.type_id + type_id::UNBOUNDED_SEQUENCE_OFFSET,
        capacity: 0,
        string_capacity: T::FIELD_TYPE.string_capacity,
        nested: T::FIELD_TYPE.nested,
    };
}

/// ROS's `T[<=N]`: a sequence of at most `N` elements, encoded as any sequence is; a longer
/// one is refused when decoded.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct BoundedVec<T, const N: usize>(pub Vec<T>);

impl<T, const N: usize> Default for BoundedVec<T, N> {
    fn default() -> Self {
        BoundedVec(Vec::new())
    }
}

impl<T: RosType, const N: usize> RosType for BoundedVec<T, N> {
    const FIELD_TYPE: FieldType = FieldType {
        type_id: T::FIELD_TYPE.type_id + type_id::BOUNDED_SEQUENCE_OFFSET,
        capacity: N as u64,
        string_capacity: T::FIELD_TYPE.string_capacity,
        nested: T::FIELD_TYPE.nested,
    };
}

impl<T: CdrField, const N: usize> CdrField for BoundedVec<T, N> {
    fn encode(&self, w: &mut CdrWriter<'_>) {
        self.0.encode(w);
    }
    fn decode(r: &mut CdrReader<'_>) -> Result<Self, CdrError> {
        let at = r.position();
        let items = Vec::<T>::decode(r)?;
        if items.len() > N {
            return Err(CdrError::OverBound {
                at,
                length: items.len(),
                bound: N,
            });
        }
        Ok(BoundedVec(items))
    }
    const MIN_SIZE: usize = 4;
}

impl<T: RosType, const N: usize> RosType for [T; N] {
    const FIELD_TYPE: FieldType = FieldType {
        type_id: T::FIELD_TYPE.type_id + type_id::ARRAY_OFFSET,
        capacity: N as u64,
        string_capacity: T::FIELD_TYPE.string_capacity,
        nested: T::FIELD_TYPE.nested,
    };
}

/// Declares a ROS message: the struct (fields in ROS order), its CDR codec
/// ([`CdrField`](crate::cdr::CdrField)) and its [`Message`] impl with the description the type
/// hash is computed from. Adding a message type is one invocation:
///
/// ```
/// use ros2_msg::{Message, ros_message};
/// use ros2_msg::msg::Header;
///
/// ros_message! {
///     /// `std_msgs/Float64`-like, with a header.
///     pub struct Reading in "my_msgs" {
///         /// When and where.
///         header: Header,
///         /// The value.
///         data: f64,
///     }
/// }
///
/// assert_eq!(Reading::DESCRIPTION.dds_type_name(), "my_msgs::msg::dds_::Reading_");
/// ```
///
/// A message whose ROS name would shadow a Rust type (`std_msgs/String`) takes its ROS name
/// after `as`: `pub struct StringMessage as "String" in "std_msgs" { data: String }`.
#[macro_export]
macro_rules! ros_message {
    ($(#[$meta:meta])* pub struct $name:ident in $package:literal {
        $($(#[$field_meta:meta])* $field:ident : $type:ty),* $(,)?
    }) => {
        $crate::ros_message! {
            $(#[$meta])* pub struct $name as (::core::stringify!($name)) in $package :: msg {
                $($(#[$field_meta])* $field : $type),*
            }
        }
    };
    ($(#[$meta:meta])* pub struct $name:ident as $ros_name:literal in $package:literal {
        $($(#[$field_meta:meta])* $field:ident : $type:ty),* $(,)?
    }) => {
        $crate::ros_message! {
            $(#[$meta])* pub struct $name as ($ros_name) in $package :: msg {
                $($(#[$field_meta])* $field : $type),*
            }
        }
    };
    ($(#[$meta:meta])* pub struct $name:ident as ($ros_name:expr) in $package:literal :: $interface:ident {
        $($(#[$field_meta:meta])* $field:ident : $type:ty),* $(,)?
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Default)]
        pub struct $name {
            $($(#[$field_meta])* pub $field: $type,)*
        }

        #[automatically_derived]
        impl $crate::Message for $name {
            const DESCRIPTION: &'static $crate::TypeDescription = &$crate::TypeDescription {
                package: $package,
                interface: ::core::stringify!($interface),
                name: $ros_name,
                fields: &[$($crate::Field {
                    name: $crate::message::field_name(::core::stringify!($field)),
                    field_type: <$type as $crate::RosType>::FIELD_TYPE,
                },)*],
            };
        }

        #[automatically_derived]
        impl $crate::cdr::CdrField for $name {
            fn encode(&self, __w: &mut $crate::cdr::CdrWriter<'_>) {
                $($crate::cdr::CdrField::encode(&self.$field, __w);)*
            }
            fn decode(__r: &mut $crate::cdr::CdrReader<'_>) -> ::core::result::Result<Self, $crate::cdr::CdrError> {
                ::core::result::Result::Ok($name {
                    $($field: <$type as $crate::cdr::CdrField>::decode(__r)?,)*
                })
            }
            fn decode_into(&mut self, __r: &mut $crate::cdr::CdrReader<'_>) -> ::core::result::Result<(), $crate::cdr::CdrError> {
                $($crate::cdr::CdrField::decode_into(&mut self.$field, __r)?;)*
                ::core::result::Result::Ok(())
            }
            const MIN_SIZE: usize = 0 $(+ <$type as $crate::cdr::CdrField>::MIN_SIZE)*;
        }

        #[automatically_derived]
        impl $crate::RosType for $name {
            const FIELD_TYPE: $crate::FieldType = $crate::FieldType {
                type_id: $crate::message::type_id::NESTED_TYPE,
                capacity: 0,
                string_capacity: 0,
                nested: ::core::option::Option::Some(<$name as $crate::Message>::DESCRIPTION),
            };
        }
    };
}
