//! The lifecycle of one hardware component, after ros2_control's `HardwareComponent`
//! (`hardware_interface/src/hardware_component.cpp`, ros2_control `53b9999`).
//!
//! A component callback returns `Ok` (upstream's `SUCCESS`) or `Err`. An `Err` is upstream's
//! `FAILURE` unless it is [escalated](super::HardwareError::escalated), which makes it upstream's
//! `ERROR`: the component then goes through [`Component::on_error`](super::Component::on_error),
//! whose result decides between unconfigured (`Ok`) and finalized (`Err`).
//!
//! A panic in a callback is caught and counts as an escalated error. Upstream's resource manager
//! catches C++ exceptions too: from `read` and `write` they become `ERROR`, as here; from a
//! lifecycle transition it logs them and leaves the state as it was, without `on_error`. Ours
//! escalates there too: a component that panicked half-way through switching torque off is in
//! no state anyone can name, and `on_error` is where it is switched off. One that panicked
//! half-way through switching torque on counts as [possibly live](super::HardwareError::possibly_live):
//! held active and switched off with the others (`on_error` from inactive would not).
//!
//! | call | allowed from | `Ok` | `Err` (FAILURE) | escalated `Err` (ERROR) | upstream's difference |
//! |---|---|---|---|---|---|
//! | `init` (`System::new`) | (new) | unconfigured | no system: `System::new` returns the error | as FAILURE | upstream keeps the component, finalized |
//! | `configure` | unconfigured | inactive | unconfigured | unconfigured, `on_error` not called | none |
//! | `cleanup` | inactive | unconfigured | `on_error` | `on_error` | none |
//! | `activate` | inactive | active | inactive; **active** when [possibly live](super::HardwareError::possibly_live), and switched off with the others | `on_error`; a panic: possibly live, as FAILURE | upstream has no "possibly live": a component that could not undo its own enabling is called inactive |
//! | `deactivate` | active | inactive (finalized after a failed `on_error`) | **active**: still live, retried | `on_error` | none |
//! | `shutdown` | unconfigured, inactive, active | finalized | `on_error` (no-op from unconfigured) | as FAILURE | none: from active both deactivate first, and a failed deactivate skips `on_shutdown` |
//! | `on_error` | inactive, active | unconfigured | finalized; from active **held active** (it may be live) until `on_deactivate` succeeds, then finalized | as FAILURE | upstream finalizes at once and never calls it again, torque on or not; it also runs `on_error` from finalized (twice after a read/write `ERROR`), ours never does |
//! | `read` | inactive, active | unchanged | `on_error` | `on_error` | upstream goes on reading the other components and lists every failed one; ours stops at the failing one, since the loop switches every component off next and nothing else may reach them |
//! | `write` | active | unchanged | `on_error` | `on_error` | as `read`; and upstream's third result, `DEACTIVATE` (deactivate this component only), has no counterpart: a component that must stop returns an error, and the loop stops them all |
//!
//! Each row is a test in `tests/tests/lifecycle.rs` (the held-active rows in `safety.rs` and
//! `backends/robstride/tests/activation.rs`).
//!
//! What the failure of one component means for the others is not the component's business: a
//! [`System`](super::System) reports each component's state and the control loop decides (it
//! deactivates all of them; see [`crate::control_loop`] for why). Upstream's resource manager
//! leaves the others running and lets the controller manager stop the controllers that used the
//! failed component's interfaces.
//!
//! Ours differs in one default: upstream's `on_error` does nothing and succeeds; ours switches
//! torque off (`on_deactivate` when the component was active) and cleans up
//! ([`switch_off_and_clean_up`](super::switch_off_and_clean_up)), because a component that
//! failed while live must not be left enabled by a backend that forgot to override it.

/// Where a hardware component (or, summarised, a [`super::System`]) is in its lifecycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lifecycle {
    /// Built and initialised; nothing opened.
    Unconfigured,
    /// Configured: state is read, nothing is sent.
    Inactive,
    /// Enabled: state is read and commands are sent. Also what a component is held in while it
    /// may still be live after a failure, until switching it off succeeds.
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

    /// Several components' states summarised: the most live of them (active if any is: torque
    /// may be on somewhere); unconfigured when there are none.
    pub fn most_live(states: impl IntoIterator<Item = Lifecycle>) -> Lifecycle {
        let live = states.into_iter().map(Lifecycle::liveness).max();
        live.map_or(Lifecycle::Unconfigured, Lifecycle::from_liveness)
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
