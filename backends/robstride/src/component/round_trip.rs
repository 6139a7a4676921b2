//! Requests every motor of the bus answers before the component goes on: the stops and enables
//! of the lifecycle, the CAN watchdog armed at configure, and the turn count a multi-turn joint's
//! motor keeps, read to seed the joint's ([`crate::turns`]).

use std::time::Duration;

use robot_runtime::hardware::{ErrorKind, HardwareError};
use robot_runtime::typed::RobotTypes;
use robstride_protocol::{
    CAN_TIMEOUT_TICKS_PER_SECOND, Command, Mode, Param, ParamOutcome, ParamValue, ParamWrite, Reply,
};

use super::RobstrideBus;
use super::motor::Motor;
use crate::turns::SeedError;

/// How long a wait for replies pauses between two reads that found nothing.
const REPLY_POLL: Duration = Duration::from_micros(200);

impl<R: RobotTypes> RobstrideBus<R> {
    /// Sends `command` to every enabled motor, then waits up to the reply timeout for each one's
    /// reply, taking the feedback of each, or fails naming the motors that did not answer.
    pub(super) fn ask_all(&mut self, command: Command, what: &str) -> Result<(), HardwareError> {
        self.ask_all_for(command, what).map(drop)
    }

    /// [`Self::ask_all`], returning each motor's reply.
    fn ask_all_for(
        &mut self,
        command: Command,
        what: &str,
    ) -> Result<Vec<(u8, Reply)>, HardwareError> {
        self.ask_for(command, what, |m| m.enabled)
    }

    /// [`Self::ask_all_for`], of the motors `which` picks.
    fn ask_for(
        &mut self,
        command: Command,
        what: &str,
        which: impl Fn(&Motor) -> bool,
    ) -> Result<Vec<(u8, Reply)>, HardwareError> {
        // What is queued answers what was sent before (the last cycle's commands): none of it
        // may pass for an answer to this request.
        while self
            .transport()?
            .try_recv()
            .map_err(|e| self.bus_error(e))?
            .is_some()
        {}
        let host = self.options.host_id;
        let frames: Vec<_> = self
            .motors
            .iter()
            .filter(|m| which(m))
            .map(|m| (m.id, command.encode(m.model, host, m.id)))
            .collect();
        for (_, frame) in &frames {
            let sent = self.transport()?.send(frame);
            sent.map_err(|e| self.bus_error(e))?;
        }
        let mut waiting: Vec<u8> = frames.iter().map(|(id, _)| *id).collect();
        let mut replies = Vec::with_capacity(waiting.len());
        let deadline = self.transport()?.now() + self.options.reply_timeout;
        while !waiting.is_empty() {
            let received = self.transport()?.try_recv();
            match received.map_err(|e| self.bus_error(e))? {
                Some(frame) => {
                    if let Ok(reply) = Reply::decode(&frame)
                        && confirms(&reply, &command)
                        && let Some(pos) =
                            waiting.iter().position(|&id| reply.answers(&command, id))
                    {
                        let id = waiting.swap_remove(pos);
                        if let Reply::Feedback(raw) = reply
                            && let Some(motor) = self.motors.iter_mut().find(|m| m.id == id)
                        {
                            // A loop past the window's edge is the start check's to judge; a
                            // round trip's time since the last report is not known.
                            let _ = motor.record(&raw.to_physical(motor.model), 0.0);
                        }
                        replies.push((id, reply));
                    }
                }
                None if self.transport()?.now() >= deadline => break,
                None => self.transport()?.pause(REPLY_POLL),
            }
        }
        if waiting.is_empty() {
            return Ok(replies);
        }
        let missing: Vec<String> = waiting
            .iter()
            .filter_map(|id| self.motors.iter().find(|m| m.id == *id))
            .map(|m| format!("{} (bus {}, id {})", m.name, self.bus, m.id))
            .collect();
        Err(self.identity.error(
            ErrorKind::Timeout,
            format!(
                "no reply to {what} within {} ms from {}",
                self.options.reply_timeout.as_millis(),
                missing.join(", ")
            ),
        ))
    }

    /// Writes [`super::BusOptions::watchdog`] into every motor's `canTimeout` and reads it back.
    pub(super) fn arm_watchdog(&mut self) -> Result<(), HardwareError> {
        let Some(watchdog) = self.options.watchdog else {
            return Ok(());
        };
        let ticks = (watchdog.as_secs_f64() * f64::from(CAN_TIMEOUT_TICKS_PER_SECOND))
            .round()
            .clamp(1.0, f64::from(u32::MAX)) as u32;
        let value = ParamValue::U32(ticks);
        let write = ParamWrite::new(Param::CanTimeout, value).map_err(|e| {
            self.identity
                .error(ErrorKind::Other, "the CAN watchdog's value")
                .caused_by(e)
        })?;
        self.ask_all(Command::WriteParam(write), "the CAN watchdog's write")?;
        let index = Param::CanTimeout.index();
        let read =
            self.ask_all_for(Command::ReadParam { index }, "the CAN watchdog's read-back")?;
        let unarmed: Vec<String> = read
            .iter()
            .filter_map(|(id, reply)| match reply {
                Reply::Param(p) if p.outcome != ParamOutcome::Value(value) => {
                    let name = self.motors.iter().find(|m| m.id == *id).map(|m| &m.name);
                    Some(format!(
                        "{} (id {id}) reads {:?}",
                        name.map_or("?", |n| n.as_str()),
                        p.outcome
                    ))
                }
                _ => None,
            })
            .collect();
        if unarmed.is_empty() {
            return Ok(());
        }
        Err(self.identity.error(
            ErrorKind::DeviceFault,
            format!(
                "the CAN watchdog (canTimeout, 0x7028) was set to {ticks} ({} ms) on bus {}, but \
                 {}: a motor without it keeps its last command if this process dies; to run \
                 without one anyway, set BusOptions::watchdog to None",
                watchdog.as_millis(),
                self.bus,
                unarmed.join(", ")
            ),
        ))
    }
}

impl<R: RobotTypes> RobstrideBus<R> {
    /// Seeds each enabled multi-turn joint's turn count from its motor's own, `mechPos` (0x7019),
    /// read now: the last report taken on the loop nearest it ([`crate::turns`]). Fails naming
    /// every motor whose count could not be read or is not its report looped into the window;
    /// the joint's count is then never guessed.
    pub(super) fn seed_turns(&mut self) -> Result<(), HardwareError> {
        let counted = |m: &Motor| m.enabled && m.needs_seed();
        if !self.motors.iter().any(counted) {
            return Ok(());
        }
        let index = Param::MechPos.index();
        let what = "the read of the motor's turn count (mechPos, 0x7019)";
        let replies = self.ask_for(Command::ReadParam { index }, what, counted)?;
        let mut problems = Vec::new();
        for (id, reply) in replies {
            let Some(motor) = self.motors.iter_mut().find(|m| m.id == id) else {
                continue;
            };
            let seeded = match reply {
                Reply::Param(p) if p.index != index => {
                    Err(format!("answered for parameter 0x{:04X} instead", p.index))
                }
                Reply::Param(p) => match p.outcome {
                    ParamOutcome::Value(ParamValue::F32(count)) => {
                        motor.seed(f64::from(count)).map_err(seed_problem)
                    }
                    other => Err(format!("reads {other:?}")),
                },
                other => Err(format!("answered {other:?}")),
            };
            if let Err(why) = seeded {
                problems.push(format!("joint {} (id {id}): {why}", motor.name));
            }
        }
        if problems.is_empty() {
            return Ok(());
        }
        Err(self.identity.error(
            ErrorKind::DeviceFault,
            format!(
                "{}: the turn count of a joint whose motor turns past the ±4π window is the \
                 motor's own (mechPos, 0x7019), and is never guessed; nothing on bus {} was \
                 switched on",
                problems.join("; "),
                self.bus
            ),
        ))
    }
}

/// What a failed seed means, for the operator.
fn seed_problem(why: SeedError) -> String {
    match why {
        SeedError::NoReport => "no feedback to count from".to_string(),
        SeedError::NotANumber(count) => format!("its turn count reads {count}"),
        SeedError::Disagrees { reported, count } => format!(
            "it reports {reported:.3} rad but counts {count:.3} rad, which is not that angle \
             looped by whole 8π: firmware that saturates its report at ±4π instead of looping \
             cannot drive a joint past the window (update it)"
        ),
    }
}

/// Whether `reply` can confirm `command`: a stop only by a motor no longer in run mode (a reply
/// in run mode answers a command sent before the stop, arriving late).
fn confirms(reply: &Reply, command: &Command) -> bool {
    match (command, reply) {
        (Command::Stop | Command::StopClearFault, Reply::Feedback(raw)) => raw.mode != Mode::Run,
        _ => true,
    }
}
