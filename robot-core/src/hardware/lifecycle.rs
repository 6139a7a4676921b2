//! The lifecycle of one hardware component, after ros2_control's `HardwareComponent`
//! (`hardware_interface/src/hardware_component.cpp`, ros2_control `53b9999`).
//!
//! A component callback returns `Ok` (upstream's `SUCCESS`) or `Err`. An `Err` is upstream's
//! `FAILURE` unless it is [escalated](super::HardwareError::escalated), which makes it upstream's
//! `ERROR`: the component then goes through [`Component::on_error`](super::Component::on_error),
//! whose result decides between unconfigured (`Ok`) and finalized (`Err`). A panic in a callback
//! is caught and counts as an escalated error (upstream catches C++ exceptions the same way).
//!
//! | call | allowed from | `Ok` | `Err` (FAILURE) | escalated `Err` (ERROR) | upstream's difference |
//! |---|---|---|---|---|---|
//! | `configure` | unconfigured | inactive | unconfigured | unconfigured, `on_error` not called | none |
//! | `cleanup` | inactive | unconfigured | `on_error` | `on_error` | none |
//! | `activate` | inactive | active | inactive | `on_error` | none |
//! | `deactivate` | active | inactive | **active**: still live, retried | `on_error` | none |
//! | `shutdown` | unconfigured, inactive, active | finalized | `on_error` (no-op from unconfigured) | as FAILURE | from active, ours deactivates first as upstream's resource manager does; a failed deactivate skips `on_shutdown` |
//! | `on_error` | inactive, active | unconfigured | finalized | finalized | upstream also runs it from finalized (and twice after a read/write `ERROR`); ours never does |
//! | `read` | inactive, active | unchanged | `on_error` | `on_error` | none (upstream returns OK without calling in other states; ours refuses when no component can read) |
//! | `write` | active | unchanged | `on_error` | `on_error` | none (inactive: not called, OK) |
//!
//! What the failure of one component means for the others is not the component's business: a
//! [`System`](super::System) reports each component's state and the control loop decides (it
//! deactivates all of them; see [`crate::control_loop`]). Upstream's resource manager leaves the
//! others running and lets the controller manager stop the controllers that used the failed
//! component's interfaces.
//!
//! Ours differs in one default: upstream's `on_error` does nothing and succeeds; ours switches
//! torque off (`on_deactivate` when the component was active) and cleans up, because a
//! component that failed while live must not be left enabled by a backend that forgot to override
//! it.

/// Where a hardware component (or, summarised, a [`super::System`]) is in its lifecycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lifecycle {
    /// Built and initialised; nothing opened.
    Unconfigured,
    /// Configured: state is read, nothing is sent.
    Inactive,
    /// Enabled: state is read and commands are sent.
    Active,
    /// Shut down, or failed beyond recovery (`on_error` failed): nothing is called again.
    Finalized,
}

impl Lifecycle {
    /// Whether `read` runs in this state.
    pub fn reads(self) -> bool {
        matches!(self, Lifecycle::Inactive | Lifecycle::Active)
    }

    /// How live the hardware may be, for summarising several components: active > inactive >
    /// unconfigured > finalized.
    pub(crate) fn liveness(self) -> u8 {
        match self {
            Lifecycle::Finalized => 0,
            Lifecycle::Unconfigured => 1,
            Lifecycle::Inactive => 2,
            Lifecycle::Active => 3,
        }
    }

    pub(crate) fn from_liveness(code: u8) -> Self {
        match code {
            3 => Lifecycle::Active,
            2 => Lifecycle::Inactive,
            1 => Lifecycle::Unconfigured,
            _ => Lifecycle::Finalized,
        }
    }
}

impl std::fmt::Display for Lifecycle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Lifecycle::Unconfigured => "unconfigured",
            Lifecycle::Inactive => "inactive",
            Lifecycle::Active => "active",
            Lifecycle::Finalized => "finalized",
        })
    }
}
