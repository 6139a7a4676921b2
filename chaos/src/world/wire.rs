//! The wire: a component's transport onto one simulated bus, and every frame the host puts on a
//! bus traced and judged there, in the order sent (frames for the robot's motors only, well
//! formed, only stops once torque-off began, no position beyond its joint's limits).

use std::time::Duration;

use backend_robstride::transport::{Transport, TransportError};
use robot_runtime::Mit;
use robstride_protocol::{Command, Frame, MitCommand, Request};
use robstride_sim::SimHost;

use super::{Inner, World, ms};
use crate::violation::add;

/// A component's transport: the host end of one bus, on the world's clock.
pub(super) struct Wire {
    pub(super) host: SimHost,
    pub(super) bus: usize,
    pub(super) world: World,
}

impl Transport for Wire {
    fn send(&mut self, frame: &Frame) -> Result<(), TransportError> {
        let frame = self.world.bypassed(self.bus, frame).unwrap_or(*frame);
        self.host.send(&frame)?;
        self.world.lock().sent(self.bus, &frame);
        Ok(())
    }

    fn try_recv(&mut self) -> Result<Option<Frame>, TransportError> {
        self.host.try_recv()
    }

    fn now(&self) -> Duration {
        self.world.now()
    }

    fn pause(&mut self, pause: Duration) {
        self.world.advance(pause);
    }
}

impl World {
    /// The frame a planted defect sends in place of `frame`, if it does.
    pub(super) fn bypassed(&self, bus: usize, frame: &Frame) -> Option<Frame> {
        let inner = self.lock();
        let id = frame.extended_id()? as u8;
        let motor = inner.motors.get(bus)?.iter().find(|m| m.id == id)?;
        let position = motor.bypass?;
        match Request::decode(frame, motor.model).ok()?.command {
            Command::Mit(mit) => {
                let mit = Mit {
                    position,
                    ..mit.mit()
                };
                Some(MitCommand::new(mit).ok()?.encode(motor.model, id))
            }
            _ => None,
        }
    }

    /// The loop is asked to switch the hardware on again: enables and commands after stops are
    /// what was asked, not a violation.
    pub fn reactivating(&self) {
        self.lock().stopping = None;
    }
}

impl Inner {
    /// A frame the host put on bus `bus`: into the trace, and judged.
    pub(super) fn sent(&mut self, bus: usize, frame: &Frame) {
        self.frames += 1;
        let now = self.now;
        self.digest.add(&[bus as u8, frame.data().len() as u8]);
        self.digest
            .add(&frame.extended_id().unwrap_or(u32::MAX).to_le_bytes());
        self.digest.add(frame.data());
        let motor_id = frame.extended_id().map(|id| id as u8);
        let Some(motor) = self
            .motors
            .get_mut(bus)
            .and_then(|m| m.iter_mut().find(|m| Some(m.id) == motor_id))
        else {
            add(
                &mut self.violations,
                "frames for the robot's motors only",
                format!("bus {bus} carried {frame:?}, for no motor on it"),
            );
            return;
        };
        motor.heard = now;
        let (joint, id, model, range) = (motor.joint.clone(), motor.id, motor.model, motor.range);
        let Ok(request) = Request::decode(frame, model) else {
            add(
                &mut self.violations,
                "well-formed frames",
                format!("{joint} (id {id}) was sent {frame:?}, which is no request"),
            );
            return;
        };
        let stop = matches!(request.command, Command::Stop | Command::StopClearFault);
        match request.command {
            Command::Enable => self.enabled = true,
            _ if stop && self.enabled && self.stopping.is_none() => self.stopping = Some(now),
            _ => {}
        }
        if let Some(since) = self.stopping
            && !stop
        {
            add(
                &mut self.violations,
                "only stop frames after torque-off began",
                format!(
                    "at {:.1} ms, {:.1} ms after the first stop, {joint} (id {id}) was sent {:?}",
                    ms(now),
                    ms(now - since),
                    request.command
                ),
            );
        }
        if let Command::Mit(mit) = request.command
            && let Some((lower, upper)) = range
        {
            // One step of the frame's 16-bit position code, and a little more.
            let slack = 1e-3;
            let position = mit.mit().position;
            if position < lower - slack || position > upper + slack {
                add(
                    &mut self.violations,
                    "no command beyond a limit",
                    format!(
                        "at {:.1} ms {joint} (id {id}) was sent position {position:.4} rad \
                         (motor), outside its joint's limits [{lower:.4}, {upper:.4}]",
                        ms(now)
                    ),
                );
            }
        }
    }
}
