//! The simulated device in process, on a clock it is given: no pseudo-terminal and no thread,
//! so that a run is the same every time (`robot chaos` drives it). The same firmware as
//! [`crate::SimImu`]'s answers the same commands and streams the same frames at the same rate;
//! time moves only when [`InProcessImu::advance`] says so.
//!
//! What the device sent waits in a bounded buffer for the host's [`InProcessImu::read`], as in
//! a serial driver's: past [`InProcessImu::BUFFERED`] bytes the oldest are lost, as a UART
//! overrun loses them.

use std::collections::VecDeque;
use std::time::Duration;

use witmotion_protocol::Quaternion;

use crate::device::Firmware;
use crate::{Failure, Motion, Noise, SimOptions, misbehave, take_commands};

/// A simulated WitMotion IMU whose clock the caller moves.
#[derive(Debug)]
pub struct InProcessImu {
    firmware: Firmware,
    motion: Motion,
    mounting: Quaternion,
    failure: Option<Failure>,
    /// The device's clock: time since it was powered.
    now: Duration,
    /// When the next frame set is due.
    next: Duration,
    /// Command bytes received, not yet a whole command.
    pending: Vec<u8>,
    /// Bytes sent, waiting for the host.
    out: VecDeque<u8>,
    frames_sent: u64,
    commands: u64,
    noise: Noise,
}

impl std::fmt::Debug for Noise {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Noise")
    }
}

impl InProcessImu {
    /// The bytes the host's receive buffer holds (a serial driver's is 4 KiB).
    pub const BUFFERED: usize = 4096;

    /// A device powered at time zero, as `options` say; its first frame set is due at once.
    pub fn new(options: SimOptions) -> InProcessImu {
        InProcessImu {
            firmware: Firmware::new(options.saved),
            motion: options.motion,
            mounting: options.mounting,
            failure: None,
            now: Duration::ZERO,
            next: Duration::ZERO,
            pending: Vec::new(),
            out: VecDeque::with_capacity(Self::BUFFERED),
            frames_sent: 0,
            commands: 0,
            noise: Noise(0x2545_F491),
        }
    }

    /// The device's clock.
    pub fn now(&self) -> Duration {
        self.now
    }

    /// Moves the clock to `now` (never back), sending a frame set at every period that passed.
    pub fn advance(&mut self, now: Duration) {
        self.now = self.now.max(now);
        while self.next <= self.now {
            let at = self.next;
            let period = self
                .firmware
                .settings
                .period()
                .unwrap_or(Duration::from_millis(20));
            self.next += period;
            self.emit(at);
        }
    }

    fn emit(&mut self, at: Duration) {
        if let Some(answer) = self.firmware.register_answer() {
            self.queue(&answer);
        }
        if !self.firmware.streams() || self.failure == Some(Failure::Unplugged) {
            return;
        }
        let measured = self.motion.measured(at.as_secs_f32(), self.mounting);
        let content = match self.failure {
            Some(Failure::WrongKinds(kinds)) => kinds,
            _ => self.firmware.settings.content,
        };
        let set = self.firmware.frame_set(&measured, content);
        self.frames_sent += (set.len() / 11) as u64;
        let bytes = misbehave(set, self.failure, self.frames_sent, &mut self.noise);
        self.queue(&bytes);
    }

    fn queue(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if self.out.len() == Self::BUFFERED {
                self.out.pop_front();
            }
            self.out.push_back(byte);
        }
    }

    /// Takes what the device sent into `buffer`; the count (0: nothing waiting). An unplugged
    /// device fails as the port does then (`EIO`).
    pub fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        if self.failure == Some(Failure::Unplugged) {
            return Err(std::io::Error::from_raw_os_error(libc::EIO));
        }
        let count = buffer.len().min(self.out.len());
        for (slot, byte) in buffer.iter_mut().zip(self.out.drain(..count)) {
            *slot = byte;
        }
        Ok(count)
    }

    /// Bytes from the host: the commands among them are taken at the device's present time.
    pub fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        if self.failure == Some(Failure::Unplugged) {
            return Err(std::io::Error::from_raw_os_error(libc::EIO));
        }
        self.pending.extend_from_slice(bytes);
        let measured = self.motion.measured(self.now.as_secs_f32(), self.mounting);
        for command in take_commands(&mut self.pending) {
            self.firmware.take(command, self.now, &measured);
            self.commands += 1;
        }
        Ok(())
    }

    /// Starts misbehaving (`Some`) or stops (`None`). [`Failure::Unplugged`] cannot be undone.
    pub fn set_failure(&mut self, failure: Option<Failure>) {
        if self.failure != Some(Failure::Unplugged) {
            self.failure = failure;
        }
    }

    /// How it misbehaves, if it does.
    pub fn failure(&self) -> Option<Failure> {
        self.failure
    }

    /// Changes the motion from now on.
    pub fn set_motion(&mut self, motion: Motion) {
        self.motion = motion;
    }

    /// Frames sent so far.
    pub fn frames_sent(&self) -> u64 {
        self.frames_sent
    }

    /// Commands taken so far.
    pub fn commands(&self) -> u64 {
        self.commands
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use witmotion_protocol::{BaudRate, OutputRate, Parser};

    use super::*;
    use crate::Settings;

    #[test]
    fn streams_a_frame_set_each_period_and_loses_the_oldest_bytes_past_the_buffer() {
        let mut imu = InProcessImu::new(SimOptions::new(Settings::streaming(
            OutputRate::Hz200,
            BaudRate::B460800,
        )));
        imu.advance(Duration::from_millis(100));
        let mut buffer = [0u8; 8192];
        let count = imu.read(&mut buffer).unwrap();
        let frames = Parser::new().push(&buffer[..count]).count() as u64;
        // At 0, 5, ..., 100 ms: 21 sets.
        assert_eq!(frames, imu.frames_sent());
        assert_eq!(frames % 21, 0, "{frames}");
        assert_eq!(imu.read(&mut buffer).unwrap(), 0);
        imu.advance(Duration::from_secs(10));
        assert_eq!(imu.read(&mut buffer).unwrap(), InProcessImu::BUFFERED);
        imu.set_failure(Some(Failure::Unplugged));
        assert!(imu.read(&mut buffer).is_err());
        imu.set_failure(None);
        assert!(imu.write(&[0xFF]).is_err(), "unplugged for good");
    }
}
