//! Errors of hardware components: a backend-specific message plus a shared [`ErrorKind`], so
//! generic code (the control loop) can act on a timeout or a bus-off without knowing the backend
//! (embedded-hal's pattern), and what caused it as an error of its own (the `io::Error`, the
//! codec's error, the panic), never flattened into the message.

use std::error::Error;
use std::sync::Arc;

/// What caused a [`HardwareError`]: an error of its own, shared so the error stays `Clone`.
pub type Cause = Arc<dyn Error + Send + Sync + 'static>;

/// What kind of failure, for generic code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The definition asks for something this backend cannot do (found by `on_init`).
    Unsupported,
    /// A device did not answer in time.
    Timeout,
    /// The bus is off, missing or refused a frame.
    Bus,
    /// A device reported a fault.
    DeviceFault,
    /// A command was not a number the hardware can take (infinite, out of range).
    InvalidCommand,
    /// A measured state is not one the definition allows: a joint found beyond its limits when
    /// it is to be switched on (its motor's zero or turn is wrong).
    OutOfLimits,
    /// A lifecycle call in a state that does not allow it.
    Lifecycle,
    /// An operating-system or file error.
    Io,
    /// The component panicked; the [`super::System`] caught it.
    Panicked,
    /// Anything else.
    Other,
}

/// A failure of one component.
///
/// What caused it (an `io::Error`, a codec's error, a caught [`Panic`](super::Panic)) is kept
/// as an error of its own ([`HardwareError::caused_by`], [`HardwareError::cause`]), never as
/// text. What failed while it was being handled (switching the hardware off again, `on_error`,
/// a clean-up) is not text appended to its message either but a chain of [`Aftermath`]s, first
/// to last ([`HardwareError::aftermath`]): a caller can tell a torque-off that failed after a
/// fault from the fault itself. [`std::error::Error::source`] is the cause when there is one,
/// else the first aftermath.
///
/// `{}` shows the error alone, `component: message`; `{:#}` the whole report for people: the
/// message, then each cause after a `: `, then each aftermath after a `; `.
#[derive(Debug, Clone)]
pub struct HardwareError {
    component: String,
    kind: ErrorKind,
    message: String,
    cause: Option<Cause>,
    /// Upstream's `ERROR` rather than `FAILURE`: the component goes through `on_error`.
    escalated: bool,
    /// The hardware may still be enabled (a failed `on_activate` that could not switch off
    /// again).
    possibly_live: bool,
    /// The first failure while this one was handled; each links to the next.
    aftermath: Option<Box<Aftermath>>,
}

/// What was being done when a failure followed another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Recovery {
    /// Switching off again what had been switched on (a roll-back of an activation).
    SwitchingOffAgain,
    /// `on_error` of a component that was active: it may still be live, so the
    /// [`super::System`] holds it active until switching it off succeeds, then finalizes it.
    OnErrorWhileActive,
    /// `on_error` of a component that was not active: it is finalized.
    OnError,
    /// Cleaning up again what had been configured (a roll-back of a configuration).
    CleaningUpAgain,
}

impl std::fmt::Display for Recovery {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Recovery::SwitchingOffAgain => "switching off again failed",
            Recovery::OnErrorWhileActive => {
                "on_error failed too: it may still be live, so it stays active until switching \
                 it off succeeds, then it is finalized"
            }
            Recovery::OnError => "on_error failed too, so it is finalized",
            Recovery::CleaningUpAgain => "cleaning up again failed",
        })
    }
}

/// A failure while a [`HardwareError`] was being handled: what was being done, and how it
/// failed. Its [`source`](std::error::Error::source) is that failure, whose own source is the
/// next aftermath, if any.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{recovery}")]
pub struct Aftermath {
    recovery: Recovery,
    #[source]
    failure: HardwareError,
}

impl Aftermath {
    /// What was being done.
    pub fn recovery(&self) -> Recovery {
        self.recovery
    }

    /// How it failed.
    pub fn failure(&self) -> &HardwareError {
        &self.failure
    }
}

impl HardwareError {
    /// A new error. Building one allocates; that is fine, an error ends the cycle.
    pub fn new(component: impl Into<String>, kind: ErrorKind, message: impl Into<String>) -> Self {
        HardwareError {
            component: component.into(),
            kind,
            message: message.into(),
            cause: None,
            escalated: false,
            possibly_live: false,
            aftermath: None,
        }
    }

    /// The component that failed (its block name, e.g. `LiteBipedLeftLeg`).
    pub fn component(&self) -> &str {
        &self.component
    }

    /// What kind of failure.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// What happened, for people (without its cause and aftermath).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// This error, caused by `cause` (kept as an error: reached through [`Self::cause`] and
    /// `source()`, shown by `{:#}`): any error, or one already boxed.
    pub fn caused_by(mut self, cause: impl Into<Box<dyn Error + Send + Sync>>) -> Self {
        self.cause = Some(Arc::from(cause.into()));
        self
    }

    /// What caused it, if known.
    pub fn cause(&self) -> Option<&(dyn Error + Send + Sync + 'static)> {
        self.cause.as_deref()
    }

    /// The panic it was, for an [`ErrorKind::Panicked`] error.
    pub fn panic(&self) -> Option<&super::Panic> {
        self.cause()?.downcast_ref()
    }

    /// Marks the error as upstream's `ERROR` rather than `FAILURE`: returned from a lifecycle
    /// callback, it sends the component through [`super::Component::on_error`] instead of leaving
    /// it where it was (see [`super::lifecycle`]).
    pub fn escalated(mut self) -> Self {
        self.escalated = true;
        self
    }

    /// Whether the error is upstream's `ERROR`.
    pub fn is_escalated(&self) -> bool {
        self.escalated
    }

    /// Marks a failed `on_activate` as one that may have left the hardware enabled (it enabled
    /// part of it and could not switch that off again): the [`super::System`] then holds the
    /// component active, so switching off is tried again, with retries, and reported, instead of
    /// calling it inactive while torque may be on.
    pub fn possibly_live(mut self) -> Self {
        self.possibly_live = true;
        self
    }

    /// Whether the hardware may still be enabled after this error.
    pub fn is_possibly_live(&self) -> bool {
        self.possibly_live
    }

    /// This error, followed by `failure` while doing `recovery`: added at the end of the chain.
    pub fn then(mut self, recovery: Recovery, failure: HardwareError) -> Self {
        let mut last = &mut self.aftermath;
        while let Some(aftermath) = last {
            last = &mut aftermath.failure.aftermath;
        }
        *last = Some(Box::new(Aftermath { recovery, failure }));
        self
    }

    /// Every failure that followed this one while it was handled, first to last.
    pub fn aftermath(&self) -> impl Iterator<Item = &Aftermath> {
        std::iter::successors(self.aftermath.as_deref(), |a| {
            a.failure.aftermath.as_deref()
        })
    }
}

impl PartialEq for HardwareError {
    /// Equal fields; causes equal when they read the same (an error need not be comparable).
    fn eq(&self, other: &Self) -> bool {
        let cause = |e: &Self| e.cause.as_ref().map(|c| causes(c.as_ref()));
        self.component == other.component
            && self.kind == other.kind
            && self.message == other.message
            && cause(self) == cause(other)
            && self.escalated == other.escalated
            && self.possibly_live == other.possibly_live
            && self.aftermath == other.aftermath
    }
}

/// `cause`, then each of its own sources, `: ` between them.
fn causes(cause: &(dyn Error + 'static)) -> String {
    let mut text = cause.to_string();
    let mut next = cause.source();
    while let Some(source) = next {
        text.push_str(": ");
        text.push_str(&source.to_string());
        next = source.source();
    }
    text
}

impl std::fmt::Display for HardwareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.component, self.message)?;
        if f.alternate() {
            if let Some(cause) = &self.cause {
                write!(f, ": {}", causes(cause.as_ref()))?;
            }
            for aftermath in self.aftermath() {
                let failure = &aftermath.failure;
                write!(
                    f,
                    "; {}: {}: {}",
                    aftermath.recovery, failure.component, failure.message
                )?;
                if let Some(cause) = &failure.cause {
                    write!(f, ": {}", causes(cause.as_ref()))?;
                }
            }
        }
        Ok(())
    }
}

impl Error for HardwareError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        match &self.cause {
            Some(cause) => Some(cause.as_ref()),
            None => self
                .aftermath
                .as_deref()
                .map(|a| a as &(dyn Error + 'static)),
        }
    }
}

/// Failed torque-off attempts in words, each distinct failure once with how many times it
/// happened (`X (3 times); Y`): a silent motor fails every retry the same way, and a report
/// that repeats it hides what else went wrong.
pub fn summarize(failures: &[HardwareError]) -> String {
    let mut distinct: Vec<(String, usize)> = Vec::new();
    for failure in failures {
        let text = format!("{failure:#}");
        match distinct.iter_mut().find(|(seen, _)| *seen == text) {
            Some((_, count)) => *count += 1,
            None => distinct.push((text, 1)),
        }
    }
    distinct
        .iter()
        .map(|(text, count)| match count {
            1 => text.clone(),
            n => format!("{text} ({n} times)"),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_repeated_by_every_retry_is_summarized_once_with_its_count() {
        let silent = error("Leg", "no reply to a stop from knee");
        let other = error("Arm", "bus off");
        assert_eq!(
            summarize(&[silent.clone(), other, silent.clone(), silent]),
            "Leg: no reply to a stop from knee (3 times); Arm: bus off"
        );
        assert_eq!(summarize(&[]), "");
    }

    fn error(component: &str, message: &str) -> HardwareError {
        HardwareError::new(component, ErrorKind::Other, message)
    }

    #[test]
    fn the_aftermath_is_a_chain_of_sources_not_text_in_the_message() {
        let fault = HardwareError::new("Left", ErrorKind::DeviceFault, "overtemperature")
            .then(
                Recovery::SwitchingOffAgain,
                error("Left", "no reply to a stop"),
            )
            .then(Recovery::OnError, error("Left", "on_error failed"));
        assert_eq!(fault.message(), "overtemperature");
        assert_eq!(fault.kind(), ErrorKind::DeviceFault);
        assert_eq!(fault.to_string(), "Left: overtemperature");
        assert_eq!(
            format!("{fault:#}"),
            "Left: overtemperature; switching off again failed: Left: no reply to a stop; \
             on_error failed too, so it is finalized: Left: on_error failed"
        );
        let steps: Vec<(Recovery, &str)> = fault
            .aftermath()
            .map(|a| (a.recovery(), a.failure().message()))
            .collect();
        assert_eq!(
            steps,
            [
                (Recovery::SwitchingOffAgain, "no reply to a stop"),
                (Recovery::OnError, "on_error failed")
            ]
        );
        // source(): the aftermath, then its failure, then the next aftermath.
        let aftermath = fault.source().expect("an aftermath");
        assert_eq!(aftermath.to_string(), "switching off again failed");
        let failure = aftermath.source().expect("its failure");
        assert_eq!(failure.to_string(), "Left: no reply to a stop");
        let next = failure.source().expect("the next aftermath");
        assert_eq!(next.to_string(), "on_error failed too, so it is finalized");
    }

    #[test]
    fn a_cause_is_kept_as_an_error_and_reported_after_the_message() {
        let io = std::io::Error::other("No such device");
        let fault = HardwareError::new("Left", ErrorKind::Bus, "bus `left_leg`")
            .caused_by(io)
            .then(
                Recovery::SwitchingOffAgain,
                error("Left", "no reply to a stop"),
            );
        assert_eq!(fault.message(), "bus `left_leg`", "no cause in the message");
        assert_eq!(fault.to_string(), "Left: bus `left_leg`");
        assert_eq!(
            format!("{fault:#}"),
            "Left: bus `left_leg`: No such device; switching off again failed: Left: no reply \
             to a stop"
        );
        // source(): the cause, typed; the aftermath stays reachable by itself.
        let source = fault.source().expect("the cause");
        assert!(source.downcast_ref::<std::io::Error>().is_some());
        assert_eq!(fault.aftermath().count(), 1);
        // A panic is a typed cause too.
        let panicked = HardwareError::new("Arm", ErrorKind::Panicked, "panicked in `read`")
            .caused_by(super::super::Panic::new("index out of bounds"));
        assert_eq!(
            panicked.panic().map(super::super::Panic::message),
            Some("index out of bounds")
        );
    }
}
