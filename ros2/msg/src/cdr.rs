//! CDR as ROS 2 puts it on the wire: a 4-byte encapsulation header (`00 01 00 00`, plain CDR
//! little-endian; `00 00` big-endian) and the fields in declaration order, each primitive
//! aligned to its size from the start of the body; strings and sequences as a `u32` count first
//! (a string's counting its NUL), fixed arrays without one.
//!
//! Written by hand for the types [`ros_message!`](crate::ros_message) declares ([`CdrField`]):
//! no serde in between, so a 14-joint `JointState` encodes and decodes in well under a
//! microsecond. A decoder never trusts a count: one larger than the bytes left is an error
//! before anything is allocated. The DDS stack takes the codec through `ros2-dds`'s adapters.

/// Plain CDR, little-endian: the representation identifier ROS 2's RMWs send.
pub const CDR_LE: [u8; 4] = [0x00, 0x01, 0x00, 0x00];

/// A payload that is not a valid encoding of the message type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CdrError {
    /// Not plain CDR (XCDR2, or not CDR at all).
    #[error("unsupported encapsulation {0:02x?}: only plain CDR (00 00 or 00 01) is decoded")]
    Encapsulation([u8; 2]),
    /// Ends before the message does.
    #[error("payload ends at byte {at}, {wanted} more were needed")]
    Truncated {
        /// Where, from the start of the body.
        at: usize,
        /// How many bytes were missing.
        wanted: usize,
    },
    /// A string without its NUL, or not UTF-8.
    #[error("string at byte {at} is not NUL-terminated UTF-8")]
    BadString {
        /// Where, from the start of the body.
        at: usize,
    },
    /// A bounded string (`string<=256`) or sequence (`T[<=1]`) longer than its bound.
    #[error("string or sequence at byte {at} is {length} long, over its bound of {bound}")]
    OverBound {
        /// Where, from the start of the body.
        at: usize,
        /// Its length: bytes of a string, elements of a sequence.
        length: usize,
        /// The most the type allows.
        bound: usize,
    },
    /// A `bool` that is neither 0 nor 1.
    #[error("bool at byte {at} is {value}")]
    BadBool {
        /// Where.
        at: usize,
        /// The byte.
        value: u8,
    },
}

/// Appends CDR to a buffer, aligning from where the body starts.
#[derive(Debug)]
pub struct CdrWriter<'a> {
    out: &'a mut Vec<u8>,
    origin: usize,
}

impl<'a> CdrWriter<'a> {
    /// A writer whose body starts at the end of `out` now.
    pub fn new(out: &'a mut Vec<u8>) -> Self {
        let origin = out.len();
        CdrWriter { out, origin }
    }

    fn align(&mut self, to: usize) {
        let misaligned = (self.out.len() - self.origin) % to;
        if misaligned != 0 {
            self.out.resize(self.out.len() + to - misaligned, 0);
        }
    }

    fn put<const N: usize>(&mut self, bytes: [u8; N]) {
        self.align(N);
        self.out.extend_from_slice(&bytes);
    }

    /// A count: `u32`.
    pub fn count(&mut self, n: usize) {
        // A count past u32 cannot be sent; the peer would refuse the sample anyway.
        self.put(u32::try_from(n).unwrap_or(u32::MAX).to_le_bytes());
    }
}

/// Reads CDR from a body, in either byte order.
#[derive(Debug)]
pub struct CdrReader<'a> {
    body: &'a [u8],
    at: usize,
    big_endian: bool,
}

impl<'a> CdrReader<'a> {
    /// A reader of `body` (after the encapsulation header).
    pub fn new(body: &'a [u8], big_endian: bool) -> Self {
        CdrReader {
            body,
            at: 0,
            big_endian,
        }
    }

    /// Where it is, in bytes from the start of the body.
    pub fn position(&self) -> usize {
        self.at
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], CdrError> {
        let end = self.at.checked_add(n).filter(|&end| end <= self.body.len());
        let Some(end) = end else {
            return Err(CdrError::Truncated {
                at: self.at,
                wanted: n.saturating_sub(self.body.len().saturating_sub(self.at)),
            });
        };
        let bytes = &self.body[self.at..end];
        self.at = end;
        Ok(bytes)
    }

    fn align(&mut self, to: usize) -> Result<(), CdrError> {
        let misaligned = self.at % to;
        if misaligned != 0 {
            self.take(to - misaligned)?;
        }
        Ok(())
    }

    fn get<const N: usize>(&mut self) -> Result<[u8; N], CdrError> {
        self.align(N)?;
        let mut bytes = [0; N];
        bytes.copy_from_slice(self.take(N)?);
        if self.big_endian {
            bytes.reverse();
        }
        Ok(bytes)
    }

    /// A count, checked against the bytes left at `min_size` bytes an element, so a corrupt
    /// count never makes a large allocation.
    pub fn count(&mut self, min_size: usize) -> Result<usize, CdrError> {
        let n = u32::from_le_bytes(self.get()?) as usize;
        let left = self.body.len() - self.at;
        if n.saturating_mul(min_size) > left {
            return Err(CdrError::Truncated {
                at: self.at,
                wanted: n * min_size - left,
            });
        }
        Ok(n)
    }
}

/// A type CDR encodes: the field types of ROS messages.
pub trait CdrField: Sized {
    /// Appends `self`.
    fn encode(&self, w: &mut CdrWriter<'_>);
    /// Reads one.
    fn decode(r: &mut CdrReader<'_>) -> Result<Self, CdrError>;
    /// The fewest bytes one takes, for checking counts.
    const MIN_SIZE: usize;

    /// Appends a sequence's elements (after its count). Primitives align once and copy.
    fn encode_all(items: &[Self], w: &mut CdrWriter<'_>) {
        for item in items {
            item.encode(w);
        }
    }

    /// Reads `n` elements into `into`.
    fn decode_all(n: usize, r: &mut CdrReader<'_>, into: &mut Vec<Self>) -> Result<(), CdrError> {
        for _ in 0..n {
            into.push(Self::decode(r)?);
        }
        Ok(())
    }

    /// Reads one into `self`, reusing what it owns (a string's or a sequence's buffer), so a
    /// message decoded again and again into the same value stops allocating. After an error
    /// `self` holds part of the message.
    fn decode_into(&mut self, r: &mut CdrReader<'_>) -> Result<(), CdrError> {
        *self = Self::decode(r)?;
        Ok(())
    }

    /// Reads `n` elements into `into`, reusing the elements it has.
    fn decode_all_into(
        n: usize,
        r: &mut CdrReader<'_>,
        into: &mut Vec<Self>,
    ) -> Result<(), CdrError> {
        into.truncate(n);
        for item in into.iter_mut() {
            item.decode_into(r)?;
        }
        while into.len() < n {
            into.push(Self::decode(r)?);
        }
        Ok(())
    }
}

macro_rules! primitives {
    ($($t:ty),*) => {$(
        impl CdrField for $t {
            fn encode(&self, w: &mut CdrWriter<'_>) {
                w.put(self.to_le_bytes());
            }
            fn decode(r: &mut CdrReader<'_>) -> Result<Self, CdrError> {
                Ok(<$t>::from_le_bytes(r.get()?))
            }
            const MIN_SIZE: usize = std::mem::size_of::<$t>();

            fn encode_all(items: &[Self], w: &mut CdrWriter<'_>) {
                const SIZE: usize = std::mem::size_of::<$t>();
                if items.is_empty() {
                    return;
                }
                w.align(SIZE);
                w.out.reserve(items.len() * SIZE);
                for item in items {
                    w.out.extend_from_slice(&item.to_le_bytes());
                }
            }

            fn decode_all_into(n: usize, r: &mut CdrReader<'_>, into: &mut Vec<Self>) -> Result<(), CdrError> {
                into.clear();
                Self::decode_all(n, r, into)
            }

            fn decode_all(n: usize, r: &mut CdrReader<'_>, into: &mut Vec<Self>) -> Result<(), CdrError> {
                const SIZE: usize = std::mem::size_of::<$t>();
                if n == 0 {
                    return Ok(());
                }
                r.align(SIZE)?;
                let bytes = r.take(n * SIZE)?;
                into.extend(bytes.chunks_exact(SIZE).map(|chunk| {
                    let mut b = [0; SIZE];
                    b.copy_from_slice(chunk);
                    if r.big_endian {
                        b.reverse();
                    }
                    <$t>::from_le_bytes(b)
                }));
                Ok(())
            }
        }
    )*};
}

primitives!(i8, u8, i16, u16, i32, u32, i64, u64, f32, f64);

impl CdrField for bool {
    fn encode(&self, w: &mut CdrWriter<'_>) {
        w.put([u8::from(*self)]);
    }
    fn decode(r: &mut CdrReader<'_>) -> Result<Self, CdrError> {
        let at = r.at;
        match r.get::<1>()? {
            [0] => Ok(false),
            [1] => Ok(true),
            [value] => Err(CdrError::BadBool { at, value }),
        }
    }
    const MIN_SIZE: usize = 1;
}

impl CdrField for String {
    fn encode(&self, w: &mut CdrWriter<'_>) {
        w.count(self.len() + 1);
        w.out.extend_from_slice(self.as_bytes());
        w.out.push(0);
    }
    fn decode(r: &mut CdrReader<'_>) -> Result<Self, CdrError> {
        read_str(r).map(str::to_owned)
    }
    fn decode_into(&mut self, r: &mut CdrReader<'_>) -> Result<(), CdrError> {
        let text = read_str(r)?;
        self.clear();
        self.push_str(text);
        Ok(())
    }
    const MIN_SIZE: usize = 5;
}

/// A string's text, without its NUL.
pub(crate) fn read_str<'a>(r: &mut CdrReader<'a>) -> Result<&'a str, CdrError> {
    let n = r.count(1)?;
    let at = r.at;
    match r.take(n)?.split_last() {
        Some((0, text)) => std::str::from_utf8(text).map_err(|_| CdrError::BadString { at }),
        _ => Err(CdrError::BadString { at }),
    }
}

impl<T: CdrField> CdrField for Vec<T> {
    fn encode(&self, w: &mut CdrWriter<'_>) {
        w.count(self.len());
        T::encode_all(self, w);
    }
    fn decode(r: &mut CdrReader<'_>) -> Result<Self, CdrError> {
        let n = r.count(T::MIN_SIZE)?;
        let mut items = Vec::with_capacity(n);
        T::decode_all(n, r, &mut items)?;
        Ok(items)
    }
    fn decode_into(&mut self, r: &mut CdrReader<'_>) -> Result<(), CdrError> {
        let n = r.count(T::MIN_SIZE)?;
        T::decode_all_into(n, r, self)
    }
    const MIN_SIZE: usize = 4;
}

impl<T: CdrField + Copy + Default, const N: usize> CdrField for [T; N] {
    fn encode(&self, w: &mut CdrWriter<'_>) {
        for item in self {
            item.encode(w);
        }
    }
    fn decode(r: &mut CdrReader<'_>) -> Result<Self, CdrError> {
        let mut items = [T::default(); N];
        items.decode_into(r)?;
        Ok(items)
    }
    fn decode_into(&mut self, r: &mut CdrReader<'_>) -> Result<(), CdrError> {
        for item in self {
            item.decode_into(r)?;
        }
        Ok(())
    }
    const MIN_SIZE: usize = T::MIN_SIZE * N;
}

/// Encodes `message` with its encapsulation header, as a ROS 2 publisher sends it, into `out`
/// (cleared first; its capacity is reused).
pub fn encode<M: CdrField>(message: &M, out: &mut Vec<u8>) {
    out.clear();
    out.extend_from_slice(&CDR_LE);
    message.encode(&mut CdrWriter::new(out));
}

/// Decodes a payload with its encapsulation header.
pub fn decode<M: CdrField>(payload: &[u8]) -> Result<M, CdrError> {
    M::decode(&mut reader_of(payload)?)
}

/// Decodes a payload into `message`, reusing its strings' and sequences' buffers: with the same
/// shape of message each time, no allocation. After an error `message` holds part of it.
pub fn decode_into<M: CdrField>(payload: &[u8], message: &mut M) -> Result<(), CdrError> {
    message.decode_into(&mut reader_of(payload)?)
}

fn reader_of(payload: &[u8]) -> Result<CdrReader<'_>, CdrError> {
    let Some((header, body)) = payload.split_first_chunk::<4>() else {
        return Err(CdrError::Truncated {
            at: 0,
            wanted: 4 - payload.len(),
        });
    };
    let big_endian = match [header[0], header[1]] {
        [0x00, 0x01] => false,
        [0x00, 0x00] => true,
        other => return Err(CdrError::Encapsulation(other)),
    };
    Ok(CdrReader::new(body, big_endian))
}

/// A sample's body as it arrived, for decoding in place ([`Payload::decode_into`]): the DDS
/// thread keeps its messages and decodes each new sample into one, so only this copy allocates.
#[derive(Debug, Clone, Default)]
pub struct Payload {
    body: Vec<u8>,
    big_endian: bool,
}

impl Payload {
    /// The body of a sample as it arrived, big- or little-endian as its encapsulation said.
    pub fn new(body: Vec<u8>, big_endian: bool) -> Payload {
        Payload { body, big_endian }
    }

    /// Decodes into `message`, reusing its buffers.
    pub fn decode_into<M: CdrField>(&self, message: &mut M) -> Result<(), CdrError> {
        message.decode_into(&mut CdrReader::new(&self.body, self.big_endian))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::msg::{Header, Imu, JointState, Time};

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
        encode(&message, &mut bytes);
        #[rustfmt::skip]
        let expected: Vec<u8> = [
            &CDR_LE[..],
            &[1, 0, 0, 0], &[2, 0, 0, 0],                  // stamp
            &[2, 0, 0, 0], b"b\0", &[0, 0],                // frame_id "b" + NUL, padded to 4
            &[1, 0, 0, 0], &[2, 0, 0, 0], b"j\0", &[0, 0], // name: 1 string
            &[1, 0, 0, 0],                                 // position: 1 double, at offset 32
            &0.5f64.to_le_bytes(),
            &[0, 0, 0, 0], &[0, 0, 0, 0],                  // velocity, effort: empty
        ].concat();
        assert_eq!(bytes, expected);
        assert_eq!(decode::<JointState>(&bytes).unwrap(), message);
    }

    #[test]
    fn decoding_into_a_message_reuses_it_and_gives_the_same() {
        let message = |names: &[&str], x: f64| JointState {
            name: names.iter().map(|n| n.to_string()).collect(),
            position: vec![x; names.len()],
            effort: vec![-x; names.len()],
            ..JointState::default()
        };
        let mut into = message(&["a", "b", "c"], 9.0);
        for sent in [
            message(&["left", "right"], 1.5),
            message(&["x", "y", "z", "w"], -2.0),
        ] {
            let mut bytes = Vec::new();
            encode(&sent, &mut bytes);
            decode_into(&bytes, &mut into).unwrap();
            assert_eq!(into, sent);
        }
    }

    #[test]
    fn big_endian_payloads_decode_too() {
        let message = Imu {
            orientation_covariance: [0.5; 9],
            ..Imu::default()
        };
        let mut little = Vec::new();
        encode(&message, &mut little);
        // Byte-swap every 8-byte double (an Imu is doubles and two u32 and an empty string).
        let mut big = vec![0u8, 0, 0, 0];
        let body = &little[4..];
        big.extend(body[0..4].iter().rev());
        big.extend(body[4..8].iter().rev());
        big.extend(body[8..12].iter().rev()); // frame_id length 1
        big.extend_from_slice(&body[12..16]); // NUL + padding
        for chunk in body[16..].chunks(8) {
            big.extend(chunk.iter().rev());
        }
        assert_eq!(decode::<Imu>(&big).unwrap(), message);
    }

    #[test]
    fn a_bounded_string_over_its_bound_is_refused_at_its_place() {
        use crate::BoundedString;
        use crate::msg::StringMessage;
        let mut out = Vec::new();
        let fits = StringMessage {
            data: "n".repeat(256),
        };
        encode(&fits, &mut out);
        let decoded: BoundedString<256> = decode(&out).unwrap();
        assert_eq!(decoded.0, fits.data);
        encode(
            &StringMessage {
                data: "n".repeat(257),
            },
            &mut out,
        );
        assert_eq!(
            decode::<BoundedString<256>>(&out),
            Err(CdrError::OverBound {
                at: 0,
                length: 257,
                bound: 256
            })
        );
    }

    #[test]
    fn bad_payloads_are_errors_not_allocations() {
        assert_eq!(
            decode::<JointState>(&[0, 1]),
            Err(CdrError::Truncated { at: 0, wanted: 2 })
        );
        assert_eq!(
            decode::<JointState>(&[0, 7, 0, 0]),
            Err(CdrError::Encapsulation([0, 7]))
        );
        // A name count of 2³²−1 with nothing after it (after a stamp and an empty frame_id).
        let mut bytes = CDR_LE.to_vec();
        bytes.extend_from_slice(&[0; 8]);
        bytes.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0]);
        bytes.extend_from_slice(&u32::MAX.to_le_bytes());
        assert!(matches!(
            decode::<JointState>(&bytes),
            Err(CdrError::Truncated { .. })
        ));
        // A string without its NUL.
        let mut bytes = CDR_LE.to_vec();
        bytes.extend_from_slice(&[0; 8]);
        bytes.extend_from_slice(&[1, 0, 0, 0, b'x']);
        assert_eq!(
            decode::<JointState>(&bytes),
            Err(CdrError::BadString { at: 12 })
        );
    }
}
