/// Describes a set of RTPS/DDS QoS policies
///
/// QosPolicies are constructed using a [`QosPolicyBuilder`]
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct QosPolicies {
  // pub(crate) because as we want to have some builtin QoS Policies as constant.
  pub(crate) durability: Option<policy::Durability>,
  pub(crate) presentation: Option<policy::Presentation>,
  pub(crate) deadline: Option<policy::Deadline>,
  pub(crate) latency_budget: Option<policy::LatencyBudget>,
  pub(crate) ownership: Option<policy::Ownership>,
  pub(crate) liveliness: Option<policy::Liveliness>,
  pub(crate) time_based_filter: Option<policy::TimeBasedFilter>,
  pub(crate) reliability: Option<policy::Reliability>,
  pub(crate) destination_order: Option<policy::DestinationOrder>,
  pub(crate) history: Option<policy::History>,
  pub(crate) resource_limits: Option<policy::ResourceLimits>,
  pub(crate) lifespan: Option<policy::Lifespan>,
  pub(crate) data_representation: Option<policy::DataRepresentation>,
  // Patched in (vendor/rustdds/PATCHED.md): announced in SEDP, not part of the parameter list
  // that `to_parameter_list` writes.
  pub(crate) user_data: Option<policy::UserData>,
  #[cfg(feature = "security")]
  pub(crate) property: Option<policy::Property>,
}

impl QosPolicies {
  // TODO: rename this to "none", as this is already member of QosPolicies, so
  // context in implied
  pub fn qos_none() -> Self {
    Self::default()
  }

  pub fn builder() -> QosPolicyBuilder {
    QosPolicyBuilder::new()
  }

  /// These policies with USER_DATA `value` (patched in: vendor/rustdds/PATCHED.md). A writer
  /// or reader created with them announces the bytes in its discovery data (SEDP), as ROS 2
  /// Jazzy's RMWs announce `typehash=RIHS01_…;` (REP-2011). Not in [`QosPolicyBuilder`], whose
  /// policies must be `const`.
  #[must_use]
  pub fn with_user_data(mut self, value: Vec<u8>) -> Self {
    self.user_data = Some(policy::UserData { value });
    self
  }

  /// The USER_DATA policy, if set (patched in).
  pub fn user_data(&self) -> Option<&policy::UserData> {
    self.user_data.as_ref()
  }

  pub const fn durability(&self) -> Option<policy::Durability> {
    self.durability
  }

  pub fn is_volatile(&self) -> bool {
    matches!(self.durability, Some(policy::Durability::Volatile))
  }

  pub const fn presentation(&self) -> Option<policy::Presentation> {
    self.presentation
  }

  pub const fn deadline(&self) -> Option<policy::Deadline> {
    self.deadline
  }

  pub const fn latency_budget(&self) -> Option<policy::LatencyBudget> {
    self.latency_budget
  }

  pub const fn ownership(&self) -> Option<policy::Ownership> {
    self.ownership
  }

  pub const fn liveliness(&self) -> Option<policy::Liveliness> {
    self.liveliness
  }

  pub const fn time_based_filter(&self) -> Option<policy::TimeBasedFilter> {
    self.time_based_filter
  }

  pub const fn reliability(&self) -> Option<policy::Reliability> {
    self.reliability
  }

  pub fn is_reliable(&self) -> bool {
    matches!(self.reliability, Some(policy::Reliability::Reliable { .. }))
  }

  pub const fn reliable_max_blocking_time(&self) -> Option<Duration> {
    if let Some(policy::Reliability::Reliable { max_blocking_time }) = self.reliability {
      Some(max_blocking_time)
    } else {
      None
    }
  }

  pub const fn destination_order(&self) -> Option<policy::DestinationOrder> {
    self.destination_order
  }

  pub const fn history(&self) -> Option<policy::History> {
    self.history
  }

  pub const fn resource_limits(&self) -> Option<policy::ResourceLimits> {
    self.resource_limits
  }

  pub const fn lifespan(&self) -> Option<policy::Lifespan> {
    self.lifespan
  }

  pub fn data_representation(&self) -> Option<policy::DataRepresentation> {
    self.data_representation.clone()
  }

  /// Set the DATA_REPRESENTATION QoS policy (DDS-XTypes v1.3 Section 7.6.3.1).
  ///
  /// For a DataWriter the first list element is the representation it uses; for
  /// a DataReader the list is the set of representations it accepts. This is
  /// not part of [`QosPolicyBuilder`] because it holds a `Vec` (incompatible
  /// with the `const` builder used for built-in QoS).
  #[must_use]
  pub fn with_data_representation(
    mut self,
    data_representation: policy::DataRepresentation,
  ) -> Self {
    self.data_representation = Some(data_representation);
    self
  }

  #[cfg(feature = "security")]
  pub fn property(&self) -> Option<policy::Property> {
    self.property.clone()
  }

  /// Merge two QosPolicies
  ///
  /// Constructs a QosPolicy, where each policy is taken from `self`,
  /// and overwritten with those policies from `other` that are defined.
  #[must_use]
  // TODO: Make this "const" when support for const .or() arrives in stable Rust.
  pub fn modify_by(&self, other: &Self) -> Self {
    Self {
      durability: other.durability.or(self.durability),
      presentation: other.presentation.or(self.presentation),
      deadline: other.deadline.or(self.deadline),
      latency_budget: other.latency_budget.or(self.latency_budget),
      ownership: other.ownership.or(self.ownership),
      liveliness: other.liveliness.or(self.liveliness),
      time_based_filter: other.time_based_filter.or(self.time_based_filter),
      reliability: other.reliability.or(self.reliability),
      destination_order: other.destination_order.or(self.destination_order),
      history: other.history.or(self.history),
      resource_limits: other.resource_limits.or(self.resource_limits),
      lifespan: other.lifespan.or(self.lifespan),
      data_representation: other
        .data_representation
        .clone()
        .or(self.data_representation.clone()),
      user_data: other.user_data.clone().or(self.user_data.clone()),
      #[cfg(feature = "security")]
      property: other.property.clone().or(self.property.clone()),
    }
  }

  /// Check if policy complies to another policy.
  ///
  /// `self` is the "offered" (publisher) QoS
  /// `other` is the "requested" (subscriber) QoS
  ///
  /// * None => Policies are compatible
  /// * Some(policyId) => Failure, where policyId is (any) one of the policies
  ///   causing incompliance
  ///
  /// Compliance (compatibility) is defined in the table in DDS spec v1.4
  /// Section "2.2.3 Supported QoS"
  ///
  /// This is not symmetric.
  pub fn compliance_failure_wrt(&self, other: &Self) -> Option<QosPolicyId> {
    trace!("QoS compatibility check - offered: {self:?} - requested {other:?}");
    let result = self.compliance_failure_wrt_impl(other);
    trace!("Result: {result:?}");
    result
  }

  fn compliance_failure_wrt_impl(&self, other: &Self) -> Option<QosPolicyId> {
    // A QoS policy that is absent from an endpoint's discovery data must be
    // treated as that policy's DDS default value (DDS spec v1.4 §2.2.3): the
    // remote endpoint is in fact using the default, it just omitted the
    // (default-valued) policy from the wire. Comparing only when *both* sides
    // are `Some` would miss incompatibilities where one side omitted a
    // default-valued policy (e.g. a writer that does not announce the default
    // VOLATILE durability), causing incompatible endpoints to match.

    // check Durability: Offered must be better than or equal to Requested.
    // Default: VOLATILE (the lowest).
    {
      let off = self.durability.unwrap_or(policy::Durability::Volatile);
      let req = other.durability.unwrap_or(policy::Durability::Volatile);
      if off < req {
        return Some(QosPolicyId::Durability);
      }
    }

    // check Presentation:
    // * If coherent_access is requested, it must be offered also. AND
    // * Same for ordered_access. AND
    // * Offered access scope is broader than requested.
    // Default: INSTANCE scope, no coherent access, no ordered access.
    {
      let default = policy::Presentation {
        access_scope: policy::PresentationAccessScope::Instance,
        coherent_access: false,
        ordered_access: false,
      };
      let off = self.presentation.unwrap_or(default);
      let req = other.presentation.unwrap_or(default);
      if (req.coherent_access && !off.coherent_access)
        || (req.ordered_access && !off.ordered_access)
        || (req.access_scope > off.access_scope)
      {
        return Some(QosPolicyId::Presentation);
      }
    }

    // check Deadline: offered period <= requested period. Default: INFINITE.
    {
      let off = self
        .deadline
        .unwrap_or(policy::Deadline(Duration::INFINITE));
      let req = other
        .deadline
        .unwrap_or(policy::Deadline(Duration::INFINITE));
      if off.0 > req.0 {
        return Some(QosPolicyId::Deadline);
      }
    }

    // check Latency Budget: offered duration <= requested duration.
    // Default: zero.
    {
      let off = self.latency_budget.unwrap_or(policy::LatencyBudget {
        duration: Duration::ZERO,
      });
      let req = other.latency_budget.unwrap_or(policy::LatencyBudget {
        duration: Duration::ZERO,
      });
      if off.duration > req.duration {
        return Some(QosPolicyId::LatencyBudget);
      }
    }

    // check Ownership: offered kind == requested kind. Default: SHARED.
    // Only the KIND (SHARED vs EXCLUSIVE) affects compatibility. OWNERSHIP_STRENGTH
    // is a writer-only policy (DDS spec v1.4 §2.2.3.10) that selects which writer's
    // sample is delivered for EXCLUSIVE ownership; it must NOT be compared for
    // matching, otherwise two EXCLUSIVE endpoints with differing strengths would
    // be wrongly reported INCOMPATIBLE_QOS.
    {
      let off = self.ownership.unwrap_or(policy::Ownership::Shared);
      let req = other.ownership.unwrap_or(policy::Ownership::Shared);
      let same_kind = matches!(
        (off, req),
        (policy::Ownership::Shared, policy::Ownership::Shared)
          | (
            policy::Ownership::Exclusive { .. },
            policy::Ownership::Exclusive { .. }
          )
      );
      if !same_kind {
        return Some(QosPolicyId::Ownership);
      }
    }

    // check Liveliness
    // offered kind >= requested kind
    // Definition: AUTOMATIC < MANUAL_BY_PARTICIPANT < MANUAL_BY_TOPIC
    // AND offered lease_duration <= requested lease_duration
    // Default: AUTOMATIC with INFINITE lease duration.
    //
    // See Ord implementation on Liveliness.
    {
      let default = policy::Liveliness::Automatic {
        lease_duration: Duration::INFINITE,
      };
      let off = self.liveliness.unwrap_or(default);
      let req = other.liveliness.unwrap_or(default);
      if off < req {
        return Some(QosPolicyId::Liveliness);
      }
    }

    // check Reliability
    // offered kind >= requested kind
    // kind ranking: BEST_EFFORT < RELIABLE
    // Default differs by entity: a DataWriter (offered) defaults to RELIABLE,
    // a DataReader (requested) defaults to BEST_EFFORT.
    {
      let off = self.reliability.unwrap_or(policy::Reliability::Reliable {
        max_blocking_time: Duration::ZERO,
      });
      let req = other.reliability.unwrap_or(policy::Reliability::BestEffort);
      if off < req {
        return Some(QosPolicyId::Reliability);
      }
    }

    // check Destination Order
    // offered kind >= requested kind
    // kind ranking: BY_RECEPTION_TIMESTAMP < BY_SOURCE_TIMESTAMP
    // Default: BY_RECEPTION_TIMESTAMP (the lowest).
    {
      let off = self
        .destination_order
        .unwrap_or(policy::DestinationOrder::ByReceptionTimestamp);
      let req = other
        .destination_order
        .unwrap_or(policy::DestinationOrder::ByReceptionTimestamp);
      if off < req {
        return Some(QosPolicyId::DestinationOrder);
      }
    }

    // check Data Representation (DDS-XTypes v1.3 Section 7.6.3.1.1):
    // the writer (offered = self) uses a single representation (first element of
    // its list, or XCDR1 if absent/empty); it is compatible with the reader
    // (requested = other) only if that representation is contained in the
    // reader's accepted list (or [XCDR1] if the reader's is absent/empty).
    {
      let offered =
        policy::DataRepresentation::offered_representation(self.data_representation.as_ref());
      let requested =
        policy::DataRepresentation::accepted_representations(other.data_representation.as_ref());
      if !requested.contains(&offered) {
        return Some(QosPolicyId::Representation);
      }
    }

    // default value. no incompatibility detected.
    None
  }

  // serialization
  pub fn to_parameter_list(
    &self,
    ctx: speedy::Endianness,
  ) -> Result<Vec<Parameter>, PlCdrSerializeError> {
    let mut pl = Vec::with_capacity(8);

    let QosPolicies {
      // bind self to (a) destructure, and (b) ensure all fields are handled
      durability,
      presentation,
      deadline,
      latency_budget,
      ownership,
      liveliness,
      time_based_filter,
      reliability,
      destination_order,
      history,
      resource_limits,
      lifespan,
      data_representation,
      user_data: _, // written by the SEDP messages, from their own `user_data`
      #[cfg(feature = "security")]
        property: _, // TODO: properties to parameter list?
    } = self;

    macro_rules! emit {
      ($pid:ident, $member:expr, $type:ty) => {
        pl.push(Parameter::new(ParameterId::$pid, {
          let m: &$type = $member;
          m.write_to_vec_with_ctx(ctx)?
        }))
      };
    }
    macro_rules! emit_option {
      ($pid:ident, $member:expr, $type:ty) => {
        if let Some(m) = $member {
          emit!($pid, m, $type)
        }
      };
    }

    use policy::*;

    emit_option!(PID_DURABILITY, durability, Durability);
    emit_option!(PID_PRESENTATION, presentation, Presentation);
    emit_option!(PID_DEADLINE, deadline, Deadline);
    emit_option!(PID_LATENCY_BUDGET, latency_budget, LatencyBudget);

    // Ownership serializes to (maybe) two separate Parameters
    match ownership {
      Some(Ownership::Exclusive { strength }) => {
        emit!(PID_OWNERSHIP, &OwnershipKind::Exclusive, OwnershipKind);
        emit!(PID_OWNERSHIP_STRENGTH, strength, i32);
      }
      Some(Ownership::Shared) => {
        emit!(PID_OWNERSHIP, &OwnershipKind::Shared, OwnershipKind);
      }
      None => (),
    }
    // This should serialize as is
    emit_option!(PID_LIVELINESS, liveliness, policy::Liveliness);
    emit_option!(
      PID_TIME_BASED_FILTER,
      time_based_filter,
      policy::TimeBasedFilter
    );

    if let Some(rel) = reliability.as_ref() {
      let reliability_ser = match rel {
        Reliability::BestEffort => ReliabilitySerialization {
          reliability_kind: ReliabilityKind::BestEffort,
          max_blocking_time: Duration::ZERO, // dummy value for serialization
        },
        Reliability::Reliable { max_blocking_time } => ReliabilitySerialization {
          reliability_kind: ReliabilityKind::Reliable,
          max_blocking_time: *max_blocking_time,
        },
      };
      emit!(PID_RELIABILITY, &reliability_ser, ReliabilitySerialization);
    }

    emit_option!(
      PID_DESTINATION_ORDER,
      destination_order,
      policy::DestinationOrder
    );

    if let Some(history) = history.as_ref() {
      let history_ser = match history {
        History::KeepLast { depth } => HistorySerialization {
          kind: HistoryKind::KeepLast,
          depth: *depth,
        },
        History::KeepAll => HistorySerialization {
          kind: HistoryKind::KeepAll,
          depth: 0,
        },
      };
      emit!(PID_HISTORY, &history_ser, HistorySerialization);
    }
    emit_option!(PID_RESOURCE_LIMITS, resource_limits, policy::ResourceLimits);
    emit_option!(PID_LIFESPAN, lifespan, policy::Lifespan);
    emit_option!(
      PID_DATA_REPRESENTATION,
      data_representation,
      policy::DataRepresentation
    );

    Ok(pl)
  }

  pub fn from_parameter_list(
    ctx: speedy::Endianness,
    pl_map: &BTreeMap<ParameterId, Vec<&Parameter>>,
  ) -> Result<QosPolicies, PlCdrDeserializeError> {
    macro_rules! get_option {
      ($pid:ident) => {
        get_option_from_pl_map(pl_map, ctx, ParameterId::$pid, "<not_used>")?
      };
    }

    let durability: Option<policy::Durability> = get_option!(PID_DURABILITY);
    let presentation: Option<policy::Presentation> = get_option!(PID_PRESENTATION);
    let deadline: Option<policy::Deadline> = get_option!(PID_DEADLINE);
    let latency_budget: Option<policy::LatencyBudget> = get_option!(PID_LATENCY_BUDGET);

    // Ownership is in 2 parts
    let ownership_kind: Option<OwnershipKind> = get_option!(PID_OWNERSHIP);
    let ownership_strength: Option<i32> = get_option!(PID_OWNERSHIP_STRENGTH);
    let ownership = match (ownership_kind, ownership_strength) {
      (Some(OwnershipKind::Shared), None) => Some(policy::Ownership::Shared),
      (Some(OwnershipKind::Shared), Some(_strength)) => {
        warn!("QosPolicies deserializer: Received OwnershipKind::Shared and a strength value.");
        None
      }
      (Some(OwnershipKind::Exclusive), Some(strength)) => {
        Some(policy::Ownership::Exclusive { strength })
      }
      (Some(OwnershipKind::Exclusive), None) => {
        warn!("QosPolicies deserializer: Received OwnershipKind::Exclusive but no strength value.");
        None
      }
      (None, Some(_strength)) => {
        warn!(
          "QosPolicies deserializer: Received ownership strength value, but no kind parameter."
        );
        None
      }
      (None, None) => None,
    };

    let reliability_ser: Option<ReliabilitySerialization> = get_option!(PID_RELIABILITY);
    let reliability = reliability_ser.map(|rs| match rs.reliability_kind {
      ReliabilityKind::BestEffort => policy::Reliability::BestEffort,
      ReliabilityKind::Reliable => policy::Reliability::Reliable {
        max_blocking_time: rs.max_blocking_time,
      },
    });
    let destination_order: Option<policy::DestinationOrder> = get_option!(PID_DESTINATION_ORDER);

    let history_ser: Option<HistorySerialization> = get_option!(PID_HISTORY);
    let history = history_ser.map(|h| match h.kind {
      HistoryKind::KeepAll => policy::History::KeepAll,
      HistoryKind::KeepLast => policy::History::KeepLast { depth: h.depth },
    });

    let liveliness: Option<policy::Liveliness> = get_option!(PID_LIVELINESS);
    let time_based_filter: Option<policy::TimeBasedFilter> = get_option!(PID_TIME_BASED_FILTER);

    let resource_limits: Option<policy::ResourceLimits> = get_option!(PID_RESOURCE_LIMITS);
    let lifespan: Option<policy::Lifespan> = get_option!(PID_LIFESPAN);
    let data_representation: Option<policy::DataRepresentation> =
      get_option!(PID_DATA_REPRESENTATION);

    #[cfg(feature = "security")]
    let property: Option<policy::Property> = None; // TODO: Should also properties be read?

    // We construct using the struct syntax directly rather than the builder,
    // so we cannot forget any field.
    Ok(QosPolicies {
      durability,
      presentation,
      deadline,
      latency_budget,
      ownership,
      liveliness,
      time_based_filter,
      reliability,
      destination_order,
      history,
      resource_limits,
      lifespan,
      data_representation,
      user_data: None, // read by the SEDP messages into their own `user_data`
      #[cfg(feature = "security")]
      property,
    })
  }
}

#[derive(Writable, Readable, Clone)]
//#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum HistoryKind {
  KeepLast,
  KeepAll,
}

#[derive(Writable, Readable, Clone)]
struct HistorySerialization {
  pub kind: HistoryKind,
  pub depth: i32,
}

#[derive(Writable, Readable)]
//#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
enum OwnershipKind {
  Shared,
  Exclusive,
}

#[derive(Writable, Readable, Clone)]
struct ReliabilitySerialization {
  pub reliability_kind: ReliabilityKind,
  pub max_blocking_time: Duration,
}

// DDS spec v1.4 p.139
// TODO: Replace this with Option construct so that
// None means no limit and Some(limit) gives the limit when defined.
// Use is in resource_limits.
pub const LENGTH_UNLIMITED: i32 = -1;
