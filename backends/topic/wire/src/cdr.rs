//! CDR as ROS 2 puts it on the wire: a 4-byte encapsulation header (`00 01 00 00`, plain CDR
//! little-endian) and the fields in declaration order, each aligned to its size from the start
//! of the data; sequences and strings as a `u32` length first (strings with their NUL counted).

use rustdds::cdr_encoding;

use crate::message::Message;

/// Plain CDR, little-endian: the representation identifier ROS 2's RMWs send.
pub const CDR_LE: [u8; 4] = [0x00, 0x01, 0x00, 0x00];

/// A payload that is not a valid encoding of the message type.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CdrError {
    /// Not plain CDR (XCDR2, or not CDR at all).
    #[error("unsupported encapsulation {0:02x?}: only plain CDR (00 00 or 00 01) is decoded")]
    Encapsulation([u8; 2]),
    /// Shorter than the 4-byte header.
    #[error("payload of {0} bytes is shorter than the encapsulation header")]
    Truncated(usize),
    /// The body does not decode as the type.
    #[error("payload does not decode as `{type_name}`: {message}")]
    Body {
        /// The message type.
        type_name: String,
        /// What the decoder said.
        message: String,
    },
}

/// Encodes `message` with its encapsulation header, as a ROS 2 publisher sends it.
pub fn encode<M: Message>(message: &M, out: &mut Vec<u8>) -> Result<(), CdrError> {
    out.clear();
    out.extend_from_slice(&CDR_LE);
    cdr_encoding::to_writer::<M, byteorder::LittleEndian, _>(&mut *out, message).map_err(|e| {
        CdrError::Body {
            type_name: M::DESCRIPTION.type_name(),
            message: e.to_string(),
        }
    })
}

/// Decodes a payload with its encapsulation header.
pub fn decode<M: Message>(payload: &[u8]) -> Result<M, CdrError> {
    let Some((header, body)) = payload.split_first_chunk::<4>() else {
        return Err(CdrError::Truncated(payload.len()));
    };
    let body_error = |e: cdr_encoding::Error| CdrError::Body {
        type_name: M::DESCRIPTION.type_name(),
        message: e.to_string(),
    };
    match [header[0], header[1]] {
        [0x00, 0x01] => cdr_encoding::from_bytes::<M, byteorder::LittleEndian>(body)
            .map(|(m, _)| m)
            .map_err(body_error),
        [0x00, 0x00] => cdr_encoding::from_bytes::<M, byteorder::BigEndian>(body)
            .map(|(m, _)| m)
            .map_err(body_error),
        other => Err(CdrError::Encapsulation(other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::{Header, JointState, Time};

    #[test]
    fn joint_state_bytes_are_cdr_in_ros_field_order() {
        let message = JointState {
            header: Header {
                stamp: Time { sec: 1, nanosec: 2 },
                frame_id: "b".into(),
            },
            name: vec!["j".into()],
            position: vec![0.5],
            velocity: vec![],
            effort: vec![],
        };
        let mut bytes = Vec::new();
        encode(&message, &mut bytes).unwrap();
        #[rustfmt::skip]
        let expected: Vec<u8> = [
            &CDR_LE[..],
            &[1, 0, 0, 0], &[2, 0, 0, 0],              // stamp
            &[2, 0, 0, 0], b"b\0", &[0, 0],            // frame_id "b" + NUL, padded to 4
            &[1, 0, 0, 0], &[2, 0, 0, 0], b"j\0", &[0, 0], // name: 1 string
            &[1, 0, 0, 0],                             // position: 1 double, at offset 32
            &0.5f64.to_le_bytes(),
            &[0, 0, 0, 0], &[0, 0, 0, 0],              // velocity, effort: empty
        ].concat();
        assert_eq!(bytes, expected);
        assert_eq!(decode::<JointState>(&bytes).unwrap(), message);
    }

    #[test]
    fn bad_payloads_are_errors() {
        assert!(matches!(
            decode::<JointState>(&[0, 1]),
            Err(CdrError::Truncated(2))
        ));
        assert!(matches!(
            decode::<JointState>(&[0, 7, 0, 0]),
            Err(CdrError::Encapsulation([0, 7]))
        ));
        let error = decode::<JointState>(&[0, 1, 0, 0, 1]).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("payload does not decode as `sensor_msgs/msg/JointState`"),
            "{error}"
        );
    }
}
