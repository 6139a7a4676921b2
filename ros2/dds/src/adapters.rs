//! The CDR codec of `ros2-msg` plugged into the DDS stack: as the serializer and deserializer
//! of a writer or reader of a message type ([`RosCdr`]), and as the deserializer of a reader that
//! keeps each sample's body to decode it in place ([`RawCdr`], [`Payload`]).

use ros2_msg::Message;
use ros2_msg::cdr::{CdrError, CdrReader, CdrWriter, Payload};

/// The codec as the DDS stack's serializer and deserializer adapter.
#[derive(Debug, Clone, Copy, Default)]
pub struct RosCdr;

/// rustdds's decoder for [`RosCdr`].
#[derive(Debug, Clone, Copy, Default)]
pub struct RosCdrDecoder;

impl<M: Message> rustdds::no_key::SerializerAdapter<M> for RosCdr {
    type Error = CdrError;

    fn output_encoding() -> rustdds::RepresentationIdentifier {
        rustdds::RepresentationIdentifier::CDR_LE
    }

    fn to_bytes(value: &M) -> Result<rustdds::bytes::Bytes, CdrError> {
        let mut body = Vec::with_capacity(256);
        value.encode(&mut CdrWriter::new(&mut body));
        Ok(body.into())
    }
}

impl<M: Message> rustdds::no_key::DeserializerAdapter<M> for RosCdr {
    type Error = CdrError;
    type Decoded = M;

    fn supported_encodings() -> &'static [rustdds::RepresentationIdentifier] {
        &[
            rustdds::RepresentationIdentifier::CDR_LE,
            rustdds::RepresentationIdentifier::CDR_BE,
        ]
    }

    fn transform_decoded(decoded: M) -> M {
        decoded
    }
}

impl<M: Message> rustdds::no_key::DefaultDecoder<M> for RosCdr {
    type Decoder = RosCdrDecoder;
    const DECODER: RosCdrDecoder = RosCdrDecoder;
}

impl<M: Message> rustdds::no_key::Decode<'_, M> for RosCdrDecoder {
    type Error = CdrError;

    fn decode_bytes(
        self,
        body: &[u8],
        encoding: rustdds::RepresentationIdentifier,
    ) -> Result<M, CdrError> {
        let big_endian = encoding == rustdds::RepresentationIdentifier::CDR_BE;
        M::decode(&mut CdrReader::new(body, big_endian))
    }
}

/// Samples taken as [`Payload`]s: the body copied, nothing decoded yet.
#[derive(Debug, Clone, Copy, Default)]
pub struct RawCdr;

/// rustdds's decoder for [`RawCdr`].
#[derive(Debug, Clone, Copy, Default)]
pub struct RawCdrDecoder;

impl rustdds::no_key::DeserializerAdapter<Payload> for RawCdr {
    type Error = CdrError;
    type Decoded = Payload;

    fn supported_encodings() -> &'static [rustdds::RepresentationIdentifier] {
        &[
            rustdds::RepresentationIdentifier::CDR_LE,
            rustdds::RepresentationIdentifier::CDR_BE,
        ]
    }

    fn transform_decoded(decoded: Payload) -> Payload {
        decoded
    }
}

impl rustdds::no_key::DefaultDecoder<Payload> for RawCdr {
    type Decoder = RawCdrDecoder;
    const DECODER: RawCdrDecoder = RawCdrDecoder;
}

impl rustdds::no_key::Decode<'_, Payload> for RawCdrDecoder {
    type Error = CdrError;

    fn decode_bytes(
        self,
        body: &[u8],
        encoding: rustdds::RepresentationIdentifier,
    ) -> Result<Payload, CdrError> {
        Ok(Payload::new(
            body.to_vec(),
            encoding == rustdds::RepresentationIdentifier::CDR_BE,
        ))
    }
}
