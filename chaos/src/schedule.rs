//! A schedule: the faults one run suffers and how it ends, drawn from a seed. Everything a run
//! does follows from its schedule, so a seed replays exactly, and a schedule with fewer faults
//! is another schedule (how a violation is shrunk).

use std::fmt;

use robot_runtime::{Backend, Robot};

use crate::rng::Rng;
use crate::topic::PeerFault;

/// What a schedule can strike: the robot's buses and their motors, its IMUs, or the one
/// component of a simulation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shape {
    /// The real path (buses and IMUs) or MuJoCo.
    pub backend: Backend,
    /// Each bus's name and its motors' joint names, in the order the components are made.
    pub buses: Vec<(String, Vec<String>)>,
    /// Each IMU's name.
    pub imus: Vec<String>,
}

impl Shape {
    /// The shape of `robot` on the real path.
    pub fn of(robot: &Robot) -> Shape {
        Shape {
            backend: Backend::Real,
            buses: robot
                .buses
                .iter()
                .map(|bus| {
                    let joints = robot
                        .joints
                        .iter()
                        .filter(|j| j.actuator.as_ref().is_some_and(|a| a.bus == bus.name))
                        .map(|j| j.name.to_string())
                        .collect();
                    (bus.name.to_string(), joints)
                })
                .collect(),
            imus: robot
                .sensors_of(robot_runtime::model::SensorKind::Imu)
                .map(|(_, s)| s.name.to_string())
                .collect(),
        }
    }

    /// The shape of `robot` on `backend`: the real path's, or the one component of MuJoCo or
    /// the topics.
    pub fn on(robot: &Robot, backend: Backend) -> Shape {
        match backend {
            Backend::Mujoco | Backend::Topic => Shape {
                backend,
                buses: Vec::new(),
                imus: Vec::new(),
            },
            _ => Shape::of(robot),
        }
    }

    /// The components, buses first, then IMUs; a simulation's one.
    pub fn components(&self) -> usize {
        match self.backend {
            Backend::Mujoco | Backend::Topic => 1,
            _ => self.buses.len() + self.imus.len(),
        }
    }
}

/// A component callback, by the lifecycle phase it serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Call {
    /// `on_init`, when the system is made.
    Init,
    /// `on_configure`.
    Configure,
    /// `on_activate`.
    Activate,
    /// `read`.
    Read,
    /// `write`.
    Write,
    /// `on_deactivate`: torque off.
    Deactivate,
    /// `on_error`.
    OnError,
    /// `on_cleanup`.
    Cleanup,
    /// `on_shutdown`.
    Shutdown,
}

impl Call {
    /// The callbacks a run calls, which a schedule strikes: not `on_shutdown`, which only
    /// `System::shutdown` calls and neither the loop nor a system's drop does.
    const DRAWN: [Call; 8] = [
        Call::Init,
        Call::Configure,
        Call::Activate,
        Call::Read,
        Call::Write,
        Call::Deactivate,
        Call::OnError,
        Call::Cleanup,
    ];

    /// Its name in the component trait.
    pub fn name(self) -> &'static str {
        match self {
            Call::Init => "on_init",
            Call::Configure => "on_configure",
            Call::Activate => "on_activate",
            Call::Read => "read",
            Call::Write => "write",
            Call::Deactivate => "on_deactivate",
            Call::OnError => "on_error",
            Call::Cleanup => "on_cleanup",
            Call::Shutdown => "on_shutdown",
        }
    }

    /// Whether it is called every cycle (its faults strike at a given call).
    pub fn cyclic(self) -> bool {
        matches!(self, Call::Read | Call::Write)
    }
}

/// How a callback goes wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum How {
    /// Returns an error without doing its work (upstream's FAILURE).
    Fail,
    /// Returns an escalated error without doing its work (upstream's ERROR).
    Error,
    /// Panics without doing its work.
    Panic,
    /// Hangs this long (ms, simulated) before doing its work.
    Hang(u32),
}

/// A fault of the bus itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BusFault {
    /// The next `n` replies are lost.
    DropReplies(u32),
    /// The next `n` replies arrive one read late.
    DelayReplies(u32),
    /// A frame of another protocol (11-bit id) on the wire.
    Foreign,
    /// A malformed frame with a RobStride-like id on the wire.
    Garbage(u32),
    /// The next `n` sends fail as the OS reports a bus error.
    FailSends(u32),
    /// The next `n` sends fail with a full transmit queue.
    QueueFull(u32),
    /// The host's cable cut: nothing reaches or leaves it from now on.
    Silent,
}

/// A fault of one motor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MotorFault {
    /// Fault bit: over-temperature; the motor drops to reset.
    Overtemperature,
    /// Fault bit: under-voltage.
    Undervoltage,
    /// Fault bit: encoder not calibrated.
    Uncalibrated,
    /// Fault bit: stall.
    Stall,
    /// The next `n` requests go unanswered.
    MissingReplies(u32),
    /// Every reply one request late.
    LateReplies,
    /// Every reply malformed.
    Garbage,
    /// Every reply another protocol's frame.
    Foreign,
    /// Every reply with another motor's id.
    WrongId,
    /// Nothing answered, though still hearing.
    Silent,
    /// Nothing heard, nothing answered (its cable pulled); its own watchdog still runs.
    Unplugged,
}

impl MotorFault {
    /// Whether the motor reports it in its fault bits.
    pub fn is_fault_bit(self) -> bool {
        matches!(
            self,
            MotorFault::Overtemperature
                | MotorFault::Undervoltage
                | MotorFault::Uncalibrated
                | MotorFault::Stall
        )
    }
}

/// A fault of the IMU's device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ImuFault {
    /// Stops sending.
    Silent,
    /// Random bytes.
    Garbage,
    /// One bit flipped in every `n`-th frame.
    FlipBit(u32),
    /// Frames cut short.
    Truncated,
    /// The USB adapter pulled out.
    Unplugged,
}

/// How the controller goes wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ControllerFault {
    /// Panics in `update`.
    Panic,
    /// Refuses in `update` (returns an error).
    Refuse,
    /// Commands NaN on every slot.
    NotANumber,
    /// Commands positions a thousand radians out.
    Wild,
    /// Refuses in `on_activate`.
    RefuseActivation,
}

/// One fault, and when it strikes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fault {
    /// Component `component`'s callback `call` goes wrong `times` times in a row, from its
    /// `nth` call (counted from 1).
    Callback {
        /// Buses first, then IMUs.
        component: usize,
        /// The callback.
        call: Call,
        /// From this call.
        nth: u32,
        /// This many calls in a row.
        times: u32,
        /// How.
        how: How,
    },
    /// After cycle `cycle`, bus `bus` misbehaves.
    Bus {
        /// Cycle, counted from 0.
        cycle: u32,
        /// Bus index.
        bus: usize,
        /// What.
        fault: BusFault,
    },
    /// After cycle `cycle`, motor `motor` of bus `bus` fails.
    Motor {
        /// Cycle.
        cycle: u32,
        /// Bus index.
        bus: usize,
        /// Motor index on the bus.
        motor: usize,
        /// What.
        fault: MotorFault,
    },
    /// After cycle `cycle`, IMU `imu`'s device fails.
    Imu {
        /// Cycle.
        cycle: u32,
        /// IMU index.
        imu: usize,
        /// What.
        fault: ImuFault,
    },
    /// After cycle `cycle` the hardware is switched off (the controller manager deactivating
    /// it), and on again `back_after` cycles later.
    Switch {
        /// Cycle.
        cycle: u32,
        /// Cycles until it is switched on again.
        back_after: u32,
    },
    /// After cycle `cycle`, the topics' peer goes wrong (the topic backend).
    Peer {
        /// Cycle.
        cycle: u32,
        /// What.
        fault: PeerFault,
    },
    /// In cycle `cycle`'s update (or at activation), the controller goes wrong.
    Controller {
        /// Cycle.
        cycle: u32,
        /// What.
        fault: ControllerFault,
    },
}

/// How a run ends when no fault ends it first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The run's time is up: the loop stops itself.
    Finish,
    /// A signal (Ctrl-C) after this cycle: the loop is asked to stop.
    Signal(u32),
    /// The loop is dropped after this cycle, as a panicking or returning caller drops it.
    Drop(u32),
}

/// Whether the run records (`--record`), and onto what.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Record {
    /// No recording.
    Off,
    /// A recording onto a disk with room.
    On,
    /// A recording onto a disk that is full after this many bytes.
    DiskFull(u32),
}

/// A run's faults and ending.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Schedule {
    /// The seed it was drawn from.
    pub seed: u64,
    /// What it runs on.
    pub backend: Backend,
    /// Cycles in the run, if nothing ends it first.
    pub cycles: u32,
    /// The faults, in the order drawn.
    pub faults: Vec<Fault>,
    /// How it ends.
    pub ending: Ending,
    /// Whether it records.
    pub record: Record,
}

/// At most this many faults a schedule.
pub const MAX_FAULTS: u64 = 4;

impl Schedule {
    /// The schedule seed `seed` draws for a robot of `shape`, `cycles` long.
    pub fn draw(seed: u64, shape: &Shape, cycles: u32) -> Schedule {
        let mut rng = Rng::new(seed);
        // One run in eight has no fault: the clean path is checked too.
        let count = if rng.one_in(8) {
            0
        } else {
            1 + rng.below(MAX_FAULTS)
        };
        let faults = (0..count)
            .map(|_| draw_fault(&mut rng, shape, cycles))
            .collect();
        let ending = match rng.below(4) {
            0 => Ending::Signal(rng.below_u32(cycles)),
            1 => Ending::Drop(rng.below_u32(cycles)),
            _ => Ending::Finish,
        };
        // One run in eight records: a recording costs a thread and compression, and the paths it
        // adds are few.
        let record = match rng.below(8) {
            0 => Record::On,
            // From nothing at all to about a second of lite_biped's recording.
            1 => Record::DiskFull(rng.below_u32(200_000)),
            _ => Record::Off,
        };
        Schedule {
            seed,
            backend: shape.backend,
            cycles,
            faults,
            ending,
            record,
        }
    }

    /// The last cycle the loop runs, if nothing ends it first.
    pub fn last_cycle(&self) -> u32 {
        match self.ending {
            Ending::Finish => self.cycles.saturating_sub(1),
            Ending::Signal(at) | Ending::Drop(at) => at,
        }
    }
}

fn draw_fault(rng: &mut Rng, shape: &Shape, cycles: u32) -> Fault {
    let cycle = rng.below_u32(cycles);
    let bus = rng.index(shape.buses.len().max(1));
    let kind = rng.below(10);
    // A simulation has no bus, motor or device of its own to fail: its component's callbacks,
    // the controller and the switches instead.
    let kind = match (shape.backend, kind) {
        (Backend::Topic, 3..=7) => 100,
        (Backend::Mujoco, 3..=4) => 0,
        (Backend::Mujoco, 5..=7) => 8,
        (_, kind) => kind,
    };
    match kind {
        100 => Fault::Peer {
            cycle,
            fault: match rng.below(5) {
                0 => PeerFault::Lost,
                1 => PeerFault::Stale(rng.below_u32(200)),
                2 => PeerFault::Refused,
                3 => PeerFault::NotANumber,
                _ => PeerFault::ImuLost,
            },
        },
        0..=2 => {
            let call = Call::DRAWN[rng.index(Call::DRAWN.len())];
            let how = match rng.below(4) {
                0 => How::Fail,
                1 => How::Error,
                2 => How::Panic,
                // Past the motors' 100 ms watchdog, or not.
                _ => How::Hang(20 + rng.below_u32(400)),
            };
            Fault::Callback {
                component: rng.index(shape.components().max(1)),
                call,
                nth: if call.cyclic() { 1 + cycle } else { 1 },
                times: if rng.one_in(3) {
                    1 + rng.below_u32(4)
                } else {
                    1
                },
                how,
            }
        }
        3..=4 => Fault::Bus {
            cycle,
            bus,
            fault: match rng.below(7) {
                0 => BusFault::DropReplies(1 + rng.below_u32(40)),
                1 => BusFault::DelayReplies(1 + rng.below_u32(20)),
                2 => BusFault::Foreign,
                3 => BusFault::Garbage(rng.next_u64() as u32),
                4 => BusFault::FailSends(1 + rng.below_u32(8)),
                5 => BusFault::QueueFull(1 + rng.below_u32(8)),
                _ => BusFault::Silent,
            },
        },
        5..=6 => Fault::Motor {
            cycle,
            bus,
            motor: rng.index(shape.buses.get(bus).map_or(1, |b| b.1.len().max(1))),
            fault: match rng.below(11) {
                0 => MotorFault::Overtemperature,
                1 => MotorFault::Undervoltage,
                2 => MotorFault::Uncalibrated,
                3 => MotorFault::Stall,
                4 => MotorFault::MissingReplies(1 + rng.below_u32(6)),
                5 => MotorFault::LateReplies,
                6 => MotorFault::Garbage,
                7 => MotorFault::Foreign,
                8 => MotorFault::WrongId,
                9 => MotorFault::Silent,
                _ => MotorFault::Unplugged,
            },
        },
        8 if rng.one_in(2) => Fault::Switch {
            cycle,
            back_after: 1 + rng.below_u32(20),
        },
        7 if !shape.imus.is_empty() => Fault::Imu {
            cycle,
            imu: rng.index(shape.imus.len()),
            fault: match rng.below(5) {
                0 => ImuFault::Silent,
                1 => ImuFault::Garbage,
                2 => ImuFault::FlipBit(1 + rng.below_u32(4)),
                3 => ImuFault::Truncated,
                _ => ImuFault::Unplugged,
            },
        },
        _ => Fault::Controller {
            cycle,
            fault: match rng.below(5) {
                0 => ControllerFault::Panic,
                1 => ControllerFault::Refuse,
                2 => ControllerFault::NotANumber,
                3 => ControllerFault::Wild,
                _ => ControllerFault::RefuseActivation,
            },
        },
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Callback {
                component,
                call,
                nth,
                times,
                how,
            } => write!(
                f,
                "component {component} {} call {nth} ({times}x): {how:?}",
                call.name()
            ),
            Fault::Bus { cycle, bus, fault } => write!(f, "cycle {cycle}: bus {bus} {fault:?}"),
            Fault::Motor {
                cycle,
                bus,
                motor,
                fault,
            } => write!(f, "cycle {cycle}: bus {bus} motor {motor} {fault:?}"),
            Fault::Imu { cycle, imu, fault } => write!(f, "cycle {cycle}: imu {imu} {fault:?}"),
            Fault::Switch { cycle, back_after } => write!(
                f,
                "cycle {cycle}: switched off, on again {back_after} cycles later"
            ),
            Fault::Peer { cycle, fault } => write!(f, "cycle {cycle}: the topics' peer {fault:?}"),
            Fault::Controller { cycle, fault } => write!(f, "cycle {cycle}: controller {fault:?}"),
        }
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seed {:#018x}, {} cycles", self.seed, self.cycles)?;
        match self.backend {
            Backend::Mujoco => write!(f, " on MuJoCo")?,
            Backend::Topic => write!(f, " on the topics")?,
            _ => {}
        }
        write!(f, ", ")?;
        match self.ending {
            Ending::Finish => write!(f, "runs to the end")?,
            Ending::Signal(at) => write!(f, "a signal after cycle {at}")?,
            Ending::Drop(at) => write!(f, "dropped after cycle {at}")?,
        }
        match self.record {
            Record::Off => {}
            Record::On => write!(f, ", recording")?,
            Record::DiskFull(bytes) => {
                write!(f, ", recording onto a disk full after {bytes} bytes")?
            }
        }
        if self.faults.is_empty() {
            return write!(f, "; no fault");
        }
        for (i, fault) in self.faults.iter().enumerate() {
            write!(f, "\n  fault #{i}: {fault}")?;
        }
        Ok(())
    }
}
