//! A simulated WitMotion IMU on a pseudo-terminal, so the real serial path runs with no
//! hardware: tests, the `sim` port of a runtime configuration and `robot imu --port sim` use it;
//! the component (`backend-witmotion`) never does, it opens the pty's slave path as it would
//! `/dev/ttyUSB0`.
//!
//! * [`SimImu::spawn`] opens a pty pair and starts the device's thread: it streams the frames of
//!   its [`Settings`] at their rate from a [`Motion`] (still, tilted, rotating; the device
//!   mounted in the moving body as [`SimOptions::mounting`] says), and answers the
//!   configuration commands as the device does: unlock, content, rate, baud (at once: the host
//!   must follow), save, restart, factory reset, calibrations, register reads;
//! * [`Failure`]s on request: silent, garbage, a flipped bit, truncated frames, the wrong frame
//!   kinds, unplugged; and the wrong baud, by itself, whenever the host listens at another rate
//!   than the device's (the kernel does not enforce a pty's baud, so the device garbles what it
//!   sends, as a UART at the wrong rate reads).
#![warn(missing_docs)]

mod device;
pub mod in_process;
pub mod motion;
mod pty;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use witmotion_protocol::{Command, OutputContent, Quaternion};

pub use device::{Settings, VERSION};
pub use in_process::InProcessImu;
pub use motion::{Measured, Motion};

/// A way the device misbehaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// Sends nothing (and still takes commands).
    Silent,
    /// Sends random bytes instead of frames.
    Garbage,
    /// Flips one bit in every `every`-th frame (1: every frame).
    FlipBit {
        /// Frames per flipped one.
        every: u32,
    },
    /// Cuts every frame short, its last byte and checksum never sent.
    Truncated,
    /// Streams these kinds whatever its content setting says.
    WrongKinds(OutputContent),
    /// The USB adapter pulled out: the pty's master is closed, the host's reads fail.
    Unplugged,
}

/// How a simulated device starts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SimOptions {
    /// The settings saved in the device, in force at power-on.
    pub saved: Settings,
    /// What the body does.
    pub motion: Motion,
    /// The device's frame in the body's: how it is mounted.
    pub mounting: Quaternion,
}

impl SimOptions {
    /// A device saved with `settings`, still and level, mounted square.
    pub fn new(settings: Settings) -> SimOptions {
        SimOptions {
            saved: settings,
            motion: Motion::Still,
            mounting: Quaternion::IDENTITY,
        }
    }
}

struct State {
    firmware: device::Firmware,
    motion: Motion,
    mounting: Quaternion,
    failure: Option<Failure>,
    /// Every command the device was sent and understood, taken or not.
    commands: Vec<Command>,
    frames_sent: u64,
}

/// A simulated IMU on a pseudo-terminal; its thread stops and is joined when dropped.
pub struct SimImu {
    path: String,
    state: Arc<Mutex<State>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl std::fmt::Debug for SimImu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SimImu")
            .field("path", &self.path)
            .finish_non_exhaustive()
    }
}

fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

impl SimImu {
    /// Opens a pty pair and starts the device on its master side.
    pub fn spawn(options: SimOptions) -> std::io::Result<SimImu> {
        let pty = pty::Pty::open()?;
        let path = pty.path().to_string();
        let state = Arc::new(Mutex::new(State {
            firmware: device::Firmware::new(options.saved),
            motion: options.motion,
            mounting: options.mounting,
            failure: None,
            commands: Vec::new(),
            frames_sent: 0,
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (state, stop) = (Arc::clone(&state), Arc::clone(&stop));
            std::thread::Builder::new()
                .name("sim-imu".to_string())
                .spawn(move || run(pty, &state, &stop))?
        };
        Ok(SimImu {
            path,
            state,
            stop,
            thread: Some(thread),
        })
    }

    /// The slave's path (`/dev/pts/N`): the port to open.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Changes the motion from now on (its clock keeps running).
    pub fn set_motion(&self, motion: Motion) {
        lock(&self.state).motion = motion;
    }

    /// Starts misbehaving (`Some`) or stops (`None`). [`Failure::Unplugged`] cannot be undone.
    pub fn set_failure(&self, failure: Option<Failure>) {
        lock(&self.state).failure = failure;
    }

    /// The settings in force.
    pub fn settings(&self) -> Settings {
        lock(&self.state).firmware.settings
    }

    /// The settings saved.
    pub fn saved(&self) -> Settings {
        lock(&self.state).firmware.saved
    }

    /// The calibrations started so far.
    pub fn calibrations(&self) -> Vec<witmotion_protocol::Calibration> {
        lock(&self.state).firmware.calibrations.clone()
    }

    /// The commands received so far (understood ones, taken or ignored).
    pub fn commands(&self) -> Vec<Command> {
        lock(&self.state).commands.clone()
    }

    /// Frames sent so far.
    pub fn frames_sent(&self) -> u64 {
        lock(&self.state).frames_sent
    }
}

impl Drop for SimImu {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The device's thread: a frame set every period, commands in between.
fn run(mut pty: pty::Pty, state: &Mutex<State>, stop: &AtomicBool) {
    let started = Instant::now();
    let mut next = started;
    let mut pending: Vec<u8> = Vec::new();
    let mut buffer = [0u8; 256];
    let mut noise = Noise(0x2545_F491);
    while !stop.load(Ordering::Acquire) {
        let wait = next.saturating_duration_since(Instant::now());
        let wait_ms = wait.as_millis().min(20) as i32;
        let received = match pty.receive(&mut buffer, wait_ms) {
            Ok(count) => count,
            Err(_) => {
                // Unplugged: nothing to hear; wait rather than spin.
                std::thread::sleep(Duration::from_millis(wait_ms.max(1) as u64));
                0
            }
        };
        let mut state = lock(state);
        let device_baud = state.firmware.settings.baud.bits_per_second();
        // At another baud than the host's, neither side understands the other.
        let matched = pty.host_baud().is_none_or(|host| host == device_baud);
        if received > 0 && matched {
            pending.extend_from_slice(&buffer[..received]);
            let now = started.elapsed();
            let measured = state.motion.measured(now.as_secs_f32(), state.mounting);
            for command in take_commands(&mut pending) {
                state.firmware.take(command, now, &measured);
                state.commands.push(command);
            }
        }
        if state.failure == Some(Failure::Unplugged) {
            pty.unplug();
        }
        let now = Instant::now();
        if now < next {
            continue;
        }
        let period = state
            .firmware
            .settings
            .period()
            .unwrap_or(Duration::from_millis(20));
        next += period;
        if next + Duration::from_secs(1) < now {
            next = now; // far behind (a stalled host): start afresh rather than burst
        }
        let mut bytes = Vec::new();
        if let Some(answer) = state.firmware.register_answer() {
            bytes.extend_from_slice(&answer);
        }
        if state.firmware.streams() {
            let t = now.duration_since(started).as_secs_f32();
            let measured = state.motion.measured(t, state.mounting);
            let content = match state.failure {
                Some(Failure::WrongKinds(kinds)) => kinds,
                _ => state.firmware.settings.content,
            };
            let set = state.firmware.frame_set(&measured, content);
            state.frames_sent += (set.len() / 11) as u64;
            bytes.extend(misbehave(set, state.failure, state.frames_sent, &mut noise));
        }
        drop(state);
        if !matched {
            bytes.iter_mut().for_each(|b| *b = garble(*b));
        }
        if !bytes.is_empty() && pty.send(&bytes).is_err() {
            // Unplugged, or the master failed: keep taking the handle's calls until dropped.
            continue;
        }
    }
}

/// The commands in `pending`, which keeps an unfinished one; bytes before a command's header
/// are dropped (garbage, or a command the device does not know).
pub(crate) fn take_commands(pending: &mut Vec<u8>) -> Vec<Command> {
    let mut commands = Vec::new();
    loop {
        let Some(start) = pending.windows(2).position(|w| w == [0xFF, 0xAA]) else {
            let keep = usize::from(pending.last() == Some(&0xFF));
            pending.drain(..pending.len() - keep);
            return commands;
        };
        pending.drain(..start);
        let Some(bytes) = pending.first_chunk::<5>().copied() else {
            return commands;
        };
        match Command::decode(&bytes) {
            Ok(command) => {
                commands.push(command);
                pending.drain(..5);
            }
            Err(_) => {
                pending.drain(..2);
            }
        }
    }
}

pub(crate) fn misbehave(
    set: Vec<u8>,
    failure: Option<Failure>,
    sent: u64,
    noise: &mut Noise,
) -> Vec<u8> {
    match failure {
        None | Some(Failure::WrongKinds(_)) | Some(Failure::Unplugged) => set,
        Some(Failure::Silent) => Vec::new(),
        Some(Failure::Garbage) => set.iter().map(|_| noise.next()).collect(),
        Some(Failure::Truncated) => set
            .chunks(11)
            .flat_map(|frame| &frame[..frame.len().saturating_sub(1)])
            .copied()
            .collect(),
        Some(Failure::FlipBit { every }) => {
            let mut set = set;
            let frames = set.len() / 11;
            for i in 0..frames {
                let number = sent - (frames - i) as u64 + 1;
                if number.is_multiple_of(u64::from(every.max(1))) {
                    // A data bit: the checksum no longer holds.
                    set[i * 11 + 4] ^= 0x10;
                }
            }
            set
        }
    }
}

/// What a UART at another baud rate makes of a byte: its bits sampled at the wrong times. A
/// fixed scramble, so no byte pattern survives and no `0x55` header stays one.
fn garble(byte: u8) -> u8 {
    byte.rotate_left(3) ^ 0xA5
}

/// A small xorshift generator for garbage bytes: deterministic, no dependency.
pub(crate) struct Noise(pub(crate) u32);

impl Noise {
    pub(crate) fn next(&mut self) -> u8 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        (x >> 24) as u8
    }
}
