// put these into a submodule to avoid repeating the word "policy" or
// "qospolicy"
/// Contains all available QoSPolicies
pub mod policy {
  use std::cmp::Ordering;

  use speedy::{Readable, Writable};
  use serde::{Deserialize, Serialize};
  #[allow(unused_imports)]
  use log::{debug, error, info, trace, warn};
  #[cfg(feature = "security")]
  use speedy::{Context, IsEof, Reader, Writer};

  use crate::structure::duration::Duration;
  #[cfg(feature = "security")]
  use crate::serialization::speedy_pl_cdr_helpers::*;

  /// DDS USER_DATA (DDS v1.4 §2.2.3.1): bytes the application attaches to a writer or reader,
  /// announced to remote participants in discovery (patched in: vendor/rustdds/PATCHED.md).
  #[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
  pub struct UserData {
    pub value: Vec<u8>,
  }

  /*
  pub struct UserData {
    pub value: Vec<u8>,
  }

  pub struct TopicData {
    pub value: Vec<u8>,
  }

  pub struct GroupData {
    pub value: Vec<u8>,
  }

  pub struct TransportPriority {
    pub value: i32,
  }
  */

  /// DDS 2.2.3.16 LIFESPAN
  #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Readable, Writable, Serialize, Deserialize)]
  pub struct Lifespan {
    pub duration: Duration,
  }

  /// DDS 2.2.3.4 DURABILITY
  ///
  /// DDS Spec 1.4:
  ///
  /// "This QoS policy controls whether the Service will actually make data
  /// available to late-joining readers. Note that although related, this does
  /// not strictly control what data the Service will maintain internally. That
  /// is, the Service may choose to maintain some data for its own purposes
  /// (e.g., flow control) and yet not make it available to late-joining readers
  /// if the DURABILITY QoS policy is set to VOLATILE."
  #[derive(
    Copy,
    Clone,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Readable,
    Writable,
    Serialize,
    Deserialize,
  )]
  pub enum Durability {
    Volatile,
    TransientLocal,
    Transient,
    Persistent,
  }

  /// DDS 2.2.3.6 PRESENTATION
  #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Readable, Writable, Serialize, Deserialize)]
  pub struct Presentation {
    pub access_scope: PresentationAccessScope,
    pub coherent_access: bool,
    pub ordered_access: bool,
  }

  /// Access scope that is part of DDS 2.2.3.6 PRESENTATION
  #[derive(
    Copy,
    Clone,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Readable,
    Writable,
    Serialize,
    Deserialize,
  )]
  pub enum PresentationAccessScope {
    Instance,
    Topic,
    Group,
  }

  /// DDS 2.2.3.7 DEADLINE
  #[derive(
    Copy,
    Clone,
    Debug,
    PartialEq,
    Eq,
    Ord,
    PartialOrd,
    Hash,
    Readable,
    Writable,
    Serialize,
    Deserialize,
  )]
  pub struct Deadline(pub Duration);

  /// DDS 2.2.3.8 LATENCY_BUDGET
  #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Readable, Writable, Serialize, Deserialize)]
  pub struct LatencyBudget {
    pub duration: Duration,
  }

  /// DDS 2.2.3.9 OWNERSHIP
  ///
  /// # Support status / known limitation
  ///
  /// RustDDS uses OWNERSHIP only for **matching**: a `Shared` endpoint and an
  /// `Exclusive` endpoint are incompatible (`INCOMPATIBLE_QOS`), while the
  /// `strength` value does *not* affect matching (it is a writer-only policy,
  /// DDS spec v1.4 §2.2.3.10).
  ///
  /// RustDDS does **not** implement EXCLUSIVE-ownership *delivery filtering*.
  /// When several EXCLUSIVE writers publish to the **same instance**, a correct
  /// implementation would deliver only the samples of the highest-strength
  /// live writer (with owner hand-off on liveliness loss / unregister). RustDDS
  /// instead delivers samples from all matched writers. Consequently a reader
  /// sees data from every EXCLUSIVE writer regardless of `strength`.
  ///
  /// This surfaces in the dds-rtps interoperability suite as the single failing
  /// ownership case `Test_Ownership_3` (two same-instance EXCLUSIVE writers,
  /// expected `RECEIVING_FROM_ONE`, RustDDS yields `RECEIVING_FROM_BOTH`). All
  /// other ownership cases pass. Implementing per-instance owner tracking would
  /// remove this limitation.
  #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
  pub enum Ownership {
    Shared,
    Exclusive { strength: i32 }, // This also implements OwnershipStrength
  }

  /// Identifier of a data representation, per DDS-XTypes v1.3 Section 7.6.3.1.
  pub type DataRepresentationId = i16;

  /// Extensible CDR encoding version 1 (the DDS default).
  pub const XCDR_DATA_REPRESENTATION: DataRepresentationId = 0;
  /// XML data representation (not supported by RustDDS).
  pub const XML_DATA_REPRESENTATION: DataRepresentationId = 1;
  /// Extensible CDR encoding version 2 (not supported by RustDDS).
  pub const XCDR2_DATA_REPRESENTATION: DataRepresentationId = 2;

  /// DDS-XTypes v1.3 Section 7.6.3.1 DATA_REPRESENTATION QoS policy.
  ///
  /// A DataWriter offers a single data representation (the first element of the
  /// list, or XCDR1 if the list is empty). A DataReader requests one or more
  /// accepted representations. The policies are compatible when the writer's
  /// offered representation is contained in the reader's requested list.
  ///
  /// On the wire this is `PID_DATA_REPRESENTATION` (0x0073), a CDR
  /// `sequence<int16>`.
  #[derive(Clone, Debug, PartialEq, Eq, Hash, Readable, Writable, Serialize, Deserialize)]
  pub struct DataRepresentation {
    pub value: Vec<DataRepresentationId>,
  }

  impl DataRepresentation {
    /// The single representation a DataWriter with this (optional) policy uses:
    /// the first list element, or XCDR1 when absent/empty (DDS-XTypes
    /// 7.6.3.1.1).
    pub fn offered_representation(maybe: Option<&DataRepresentation>) -> DataRepresentationId {
      maybe
        .and_then(|dr| dr.value.first().copied())
        .unwrap_or(XCDR_DATA_REPRESENTATION)
    }

    /// The representations a DataReader with this (optional) policy accepts:
    /// the list, or `[XCDR1]` when absent/empty (DDS-XTypes 7.6.3.1.1).
    pub fn accepted_representations(
      maybe: Option<&DataRepresentation>,
    ) -> Vec<DataRepresentationId> {
      match maybe {
        Some(dr) if !dr.value.is_empty() => dr.value.clone(),
        _ => vec![XCDR_DATA_REPRESENTATION],
      }
    }
  }

  /// DDS 2.2.3.11 LIVELINESS
  #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Readable, Writable, Serialize, Deserialize)]
  pub enum Liveliness {
    Automatic { lease_duration: Duration },
    ManualByParticipant { lease_duration: Duration },
    ManualByTopic { lease_duration: Duration },
  }

  impl Liveliness {
    fn kind_num(&self) -> i32 {
      match self {
        Self::Automatic { .. } => 0,
        Self::ManualByParticipant { .. } => 1,
        Self::ManualByTopic { .. } => 2,
      }
    }

    pub fn duration(&self) -> Duration {
      match self {
        Self::Automatic { lease_duration }
        | Self::ManualByParticipant { lease_duration }
        | Self::ManualByTopic { lease_duration } => *lease_duration,
      }
    }
  }

  impl Ord for Liveliness {
    fn cmp(&self, other: &Self) -> Ordering {
      // Manual liveliness is greater than automatic, but
      // duration compares in reverse
      other
        .kind_num()
        .cmp(&other.kind_num())
        .then_with(|| self.duration().cmp(&other.duration()).reverse())
    }
  }

  impl PartialOrd for Liveliness {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
      Some(self.cmp(other))
    }
  }

  /// DDS 2.2.3.12 TIME_BASED_FILTER
  #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Readable, Writable, Serialize, Deserialize)]
  pub struct TimeBasedFilter {
    pub minimum_separation: Duration,
  }

  /*
  pub struct Partition {
    pub name: Vec<Vec<u8>>,
  }
  */

  /// DDS 2.2.3.14 RELIABILITY
  #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
  pub enum Reliability {
    BestEffort,
    Reliable { max_blocking_time: Duration },
  }

  impl Ord for Reliability {
    // max_blocking_time is not compared.
    // TODO: This is kind of bad, because now Eq and Ord are inconsistent:
    // If we have A and B both Reliability::Reliable, but with different
    // max_blocking_time, then Ord will say they are Ordering::Equal,
    // but Eq will say they are not equal.
    fn cmp(&self, other: &Self) -> Ordering {
      match (self, other) {
        (Self::BestEffort, Self::BestEffort) | (Self::Reliable { .. }, Self::Reliable { .. }) => {
          Ordering::Equal
        }
        (Self::BestEffort, Self::Reliable { .. }) => Ordering::Less,
        (Self::Reliable { .. }, Self::BestEffort) => Ordering::Greater,
      }
    }
  }

  impl PartialOrd for Reliability {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
      Some(self.cmp(other))
    }
  }

  /// DDS 2.2.3.17 DESTINATION_ORDER
  #[derive(
    Copy,
    Clone,
    Debug,
    PartialEq,
    Eq,
    Ord,
    PartialOrd,
    Hash,
    Readable,
    Writable,
    Serialize,
    Deserialize,
  )]
  pub enum DestinationOrder {
    ByReceptionTimestamp,
    BySourceTimeStamp,
  }

  /// DDS 2.2.3.18 HISTORY
  #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
  pub enum History {
    // Variants must be in this order ot derive Ord correctly.
    KeepLast { depth: i32 },
    KeepAll,
  }

  /// DDS Spec v1.4 Section 2.2.3.19 RESOURCE_LIMITS
  ///
  /// DDS Spec v1.4 p.147 "struct ResourceLimitsQosPolicy" defines the
  /// fields as "long". The "long" type of OMG IDL is defined to have
  /// 32-bit (signed, 2's complement) range in the OMG IDL spec v4.2, Table
  /// 7-13: Integer Types.
  ///
  /// But it does not make sense to have negative limits, so these should be
  /// unsigned.
  ///
  /// Negative values are needed, because DDS spec defines the special value
  /// const long LENGTH_UNLIMITED = -1;
  #[derive(Copy, Clone, Debug, PartialEq, Eq, Writable, Readable, Serialize, Deserialize)]
  pub struct ResourceLimits {
    pub max_samples: i32,
    pub max_instances: i32,
    pub max_samples_per_instance: i32,
  }

  #[cfg(feature = "security")]
  use crate::security;
  // DDS Security spec v1.1
  // Section 7.2.5 PropertyQosPolicy, DomainParticipantQos, DataWriterQos, and
  // DataReaderQos
  #[cfg(feature = "security")]
  #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
  pub struct Property {
    pub value: Vec<security::types::Property>,
    pub binary_value: Vec<security::types::BinaryProperty>,
  }

  #[cfg(feature = "security")]
  impl<'a, C: Context> Readable<'a, C> for Property {
    fn minimum_bytes_needed() -> usize {
      4
    }

    fn read_from<R: Reader<'a, C>>(reader: &mut R) -> Result<Self, C::Error> {
      let count = reader.read_u32()?;
      let mut value = Vec::new();

      let mut prev_len = 0;
      for _ in 0..count {
        read_pad(reader, prev_len, 4)?;
        let s: security::types::Property = reader.read_value()?;
        prev_len = s.serialized_len();
        value.push(s);
      }

      // Depending on the RTPS version used by writer, PropertyQoSPolicy may end here,
      // i.e. there is no "binary_value". Pad should still always exist.
      read_pad(reader, prev_len, 4)?;
      let mut binary_value = Vec::new();

      match reader.read_u32() {
        Ok(count) => {
          prev_len = 0;
          for _ in 0..count {
            read_pad(reader, prev_len, 4)?;
            let s: security::types::BinaryProperty = reader.read_value()?;
            prev_len = s.serialized_len();
            binary_value.push(s);
          }
        }
        Err(e) => {
          if e.is_eof() {
            // This is ok. Only String properties, no binary.
            debug!("Non-security PropertyQosPolicy");
          } else {
            return Err(e);
          }
        }
      }

      Ok(Property {
        value,
        binary_value,
      })
    }
  }

  // Writing several strings is a bit complicated, because
  // we have to keep track of alignment.
  // Again, alignment comes BEFORE string length, or vector item count, not after
  // string.
  #[cfg(feature = "security")]
  impl<C: Context> Writable<C> for Property {
    fn write_to<T: ?Sized + Writer<C>>(&self, writer: &mut T) -> Result<(), C::Error> {
      // First self.value
      // Only those properties with propagate=true are written
      let propagate_value: Vec<&security::Property> =
        self.value.iter().filter(|p| p.propagate).collect();

      // propagate_value vector length
      writer.write_u32(propagate_value.len() as u32)?;

      let mut prev_len = 0;
      for prop in propagate_value {
        write_pad(writer, prev_len, 4)?;
        writer.write_value(prop)?;
        prev_len = prop.serialized_len();
      }

      // Then self.bin_value
      // Only those binary properties with propagate=true are written
      let propagate_bin_value: Vec<&security::BinaryProperty> =
        self.binary_value.iter().filter(|p| p.propagate).collect();

      // propagate_bin_value vector length
      write_pad(writer, prev_len, 4)?;
      writer.write_u32(propagate_bin_value.len() as u32)?;
      // and the elements
      let mut prev_len = 0;
      for prop in propagate_bin_value {
        write_pad(writer, prev_len, 4)?;
        writer.write_value(prop)?;
        prev_len = prop.serialized_len();
      }

      Ok(())
    }
  }

  // DDS Security spec v1.1
  // Section 7.2.5 PropertyQosPolicy, DomainParticipantQos, DataWriterQos, and
  // DataReaderQos
  //
  // so this is DataTagQosPolicy, which is an alias for "DataTags"
  // We call it qos::policy::DataTag
  #[derive(Clone, Debug, PartialEq, Eq, Default)]
  #[cfg(feature = "security")]
  pub struct DataTag {
    pub tags: Vec<security::types::Tag>,
  }

  #[cfg(feature = "security")]
  impl<'a, C: Context> Readable<'a, C> for DataTag {
    fn minimum_bytes_needed() -> usize {
      4
    }

    fn read_from<R: Reader<'a, C>>(reader: &mut R) -> Result<Self, C::Error> {
      let count = reader.read_u32()?;
      let mut tags = Vec::new();

      let mut prev_len = 0;
      for _ in 0..count {
        read_pad(reader, prev_len, 4)?;
        let s: security::types::Tag = reader.read_value()?;
        prev_len = s.serialized_len();
        tags.push(s);
      }
      Ok(DataTag { tags })
    }
  }

  // Writing several strings is a bit complicated, because
  // we have to keep track of alignment.
  // Again, alignment comes BEFORE string length, or vector item count, not after
  // string.
  #[cfg(feature = "security")]
  impl<C: Context> Writable<C> for DataTag {
    fn write_to<T: ?Sized + Writer<C>>(&self, writer: &mut T) -> Result<(), C::Error> {
      writer.write_u32(self.tags.len() as u32)?;

      let mut prev_len = 0;
      for tag in &self.tags {
        write_pad(writer, prev_len, 4)?;
        writer.write_value(tag)?;
        prev_len = tag.serialized_len();
      }
      Ok(())
    }
  }
} // mod policy
