//! The simulated world a schedule runs in: the robot's buses with their simulated actuators, its
//! IMUs' devices, and the one clock they all keep. The components reach it only through the
//! transports and links made here, which are the wire: every frame the host puts on a bus is
//! seen here, in the order sent, and judged against what the hardware allows. Time moves when
//! the loop finishes a cycle and when a component waits (a reply timeout, a hang), in steps of
//! at most [`STEP`], after each of which every motor's own watchdog is checked.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use backend_robstride::transport::Transport;
use backend_witmotion::Link;
use embedded_can::{ExtendedId, Frame as _, StandardId};
use robot_runtime::Robot;
use robot_runtime::actuator::{MotorTravel, limit_angles};
use robot_runtime::transmission::Transmission;
use robstride_protocol::{Frame, RobstrideModel};
use robstride_sim::bus::{SendFailure, SimCapacity};
use robstride_sim::robot::attach_actuators;
use robstride_sim::{Failure, NodeId, SimActuator, SimBus};
use witmotion_protocol::{BaudRate, OutputRate};
use witmotion_sim::{InProcessImu, Settings, SimOptions};

use crate::digest::Digest;
use crate::schedule::{BusFault, ImuFault, MotorFault};
use crate::violation::{Violation, add};

mod serial;
mod wire;

use serial::Serial;
use wire::Wire;

/// The longest step the world's clock takes at once.
pub const STEP: Duration = Duration::from_millis(1);

/// One simulated motor, as the checks need it.
#[derive(Debug, Clone)]
pub struct Motor {
    /// Its joint's name.
    pub joint: String,
    /// Its CAN id.
    pub id: u8,
    /// Its model.
    pub model: RobstrideModel,
    /// The motor angles of its joint's limits, when the joint's range lies in the ±4π window.
    pub range: Option<(f64, f64)>,
    node: NodeId,
    /// When the host last sent it a frame.
    heard: Duration,
    /// A planted defect's position for its next operation-control frame, unchecked.
    bypass: Option<f64>,
}

struct Inner {
    now: Duration,
    buses: Vec<SimBus>,
    /// Each bus's component (`LiteBipedLeftLeg`).
    blocks: Vec<String>,
    /// A simulation's component and whether its motors apply torque, as it last stepped.
    simulated: Option<(String, bool)>,
    /// The topic backend's peer.
    peer: Option<crate::topic::Peer>,
    /// Each bus's name (`sim:left_leg`) and motors.
    motors: Vec<Vec<Motor>>,
    imus: Vec<InProcessImu>,
    /// The motors' watchdog as the components arm it.
    watchdog: Option<Duration>,
    /// Any motor was sent an enable.
    enabled: bool,
    /// When torque-off began: the first stop sent after an enable.
    stopping: Option<Duration>,
    digest: Digest,
    violations: Vec<Violation>,
    frames: u64,
}

/// The world, shared by the transports, the links and the schedule's driver.
#[derive(Clone)]
pub struct World {
    inner: Arc<Mutex<Inner>>,
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World").field("now", &self.now()).finish()
    }
}

impl World {
    /// `robot`'s buses, each with a simulated actuator per joint at the joint's zero, and a
    /// simulated device per IMU, streaming at 200 Hz; `watchdog` is what the components arm.
    pub fn new(robot: &Robot, imus: usize, watchdog: Option<Duration>) -> World {
        let mut buses = Vec::new();
        let mut motors = Vec::new();
        let blocks = robot
            .buses
            .iter()
            .map(|bus| robot.bus_block_name(&bus.name))
            .collect();
        for bus in robot.buses.iter() {
            let sim = SimBus::with_capacity(
                &format!("sim:{}", bus.name),
                SimCapacity { queue: 256, log: 1 },
            );
            let nodes = attach_actuators(robot, &bus.name, None, &sim);
            let on_bus = nodes
                .into_iter()
                .filter_map(|(index, node)| {
                    let joint = robot.joints.get(index)?;
                    let actuator = joint.actuator.as_ref()?;
                    let transmission = Transmission::of(actuator);
                    let range = match MotorTravel::of(joint, &transmission) {
                        MotorTravel::Window => {
                            let ends: Vec<f64> = limit_angles(joint, &transmission)
                                .map(|e| e.motor)
                                .collect();
                            let lower = ends.iter().copied().fold(f64::INFINITY, f64::min);
                            let upper = ends.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                            (ends.len() == 2).then_some((lower, upper))
                        }
                        MotorTravel::MultiTurn | MotorTravel::Continuous => None,
                    };
                    Some(Motor {
                        joint: joint.name.to_string(),
                        id: u16::from(actuator.can_id) as u8,
                        model: actuator.model,
                        range,
                        node,
                        heard: Duration::ZERO,
                        bypass: None,
                    })
                })
                .collect();
            buses.push(sim);
            motors.push(on_bus);
        }
        let device = SimOptions::new(Settings::streaming(OutputRate::Hz200, BaudRate::B460800));
        World {
            inner: Arc::new(Mutex::new(Inner {
                now: Duration::ZERO,
                buses,
                blocks,
                simulated: None,
                peer: None,
                motors,
                imus: (0..imus).map(|_| InProcessImu::new(device)).collect(),
                watchdog,
                enabled: false,
                stopping: None,
                digest: Digest::default(),
                violations: Vec::new(),
                frames: 0,
            })),
        }
    }

    /// A world with no bus and no device: what a simulation (MuJoCo) runs beside.
    pub fn empty() -> World {
        World {
            inner: Arc::new(Mutex::new(Inner {
                now: Duration::ZERO,
                buses: Vec::new(),
                blocks: Vec::new(),
                simulated: None,
                peer: None,
                motors: Vec::new(),
                imus: Vec::new(),
                watchdog: None,
                enabled: false,
                stopping: None,
                digest: Digest::default(),
                violations: Vec::new(),
                frames: 0,
            })),
        }
    }

    /// A world with the topic backend's `peer` on the other end of the topics.
    pub fn with_peer_of(peer: crate::topic::Peer) -> World {
        let world = World::empty();
        world.lock().peer = Some(peer);
        world
    }

    /// Calls `f` with the peer and the world's time, if there is a peer.
    pub fn with_peer<T>(
        &self,
        f: impl FnOnce(&mut crate::topic::Peer, Duration) -> T,
    ) -> Option<T> {
        let mut inner = self.lock();
        let now = inner.now;
        inner.peer.as_mut().map(|peer| f(peer, now))
    }

    /// A simulation's component `block` was switched on.
    pub fn activated(&self) {
        self.lock().enabled = true;
    }

    /// A simulation's component was asked to switch torque off.
    pub fn torque_off_began(&self) {
        let mut inner = self.lock();
        if inner.enabled && inner.stopping.is_none() {
            inner.stopping = Some(inner.now);
        }
    }

    /// A simulation's component `block` stepped, its motors applying torque (`on`) or not.
    pub fn torque(&self, block: &str, on: bool) {
        let mut inner = self.lock();
        let now = inner.now;
        if on && let Some(since) = inner.stopping {
            add(
                &mut inner.violations,
                "only stop frames after torque-off began",
                format!(
                    "at {:.1} ms, {:.1} ms after torque-off began, `{block}`'s motors apply \
                     torque in the simulation",
                    ms(now),
                    ms(now - since)
                ),
            );
        }
        inner.digest.add(&[0xD0, u8::from(on)]);
        inner.simulated = Some((block.to_string(), on));
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The world's clock.
    pub fn now(&self) -> Duration {
        self.lock().now
    }

    /// The host's end of bus `bus`, as a component's transport.
    pub fn transport(&self, bus: usize) -> Option<Box<dyn Transport>> {
        let host = self.lock().buses.get(bus)?.host();
        Some(Box::new(Wire {
            host,
            bus,
            world: self.clone(),
        }))
    }

    /// A planted defect ([`crate::Defect::NoLimitCheck`]): motor `id` of bus `bus` gets
    /// `position` (motor angle) in its operation-control frames instead of what the component
    /// sends.
    pub fn bypass(&self, bus: usize, id: u8, position: Option<f64>) {
        if let Some(motor) = self
            .lock()
            .motors
            .get_mut(bus)
            .and_then(|m| m.iter_mut().find(|m| m.id == id))
        {
            motor.bypass = position;
        }
    }

    /// IMU `imu`'s device, as its component's link.
    pub fn link(&self, imu: usize) -> Box<dyn Link> {
        Box::new(Serial {
            imu,
            world: self.clone(),
        })
    }

    /// Lets `time` pass: every bus, motor and device moves on, in steps of at most [`STEP`],
    /// each motor's watchdog checked after each.
    pub fn advance(&self, time: Duration) {
        let mut inner = self.lock();
        let mut left = time;
        while !left.is_zero() {
            let step = left.min(STEP);
            left -= step;
            inner.now += step;
            let now = inner.now;
            for bus in &inner.buses {
                bus.advance(step);
            }
            for imu in &mut inner.imus {
                imu.advance(now);
            }
            inner.check_watchdogs();
        }
    }

    /// Bus `bus` misbehaves as `fault` says.
    pub fn strike_bus(&self, bus: usize, fault: BusFault) {
        let inner = self.lock();
        let Some(sim) = inner.buses.get(bus) else {
            return;
        };
        match fault {
            BusFault::DropReplies(n) => sim.drop_replies(n),
            BusFault::DelayReplies(n) => sim.delay_replies(n),
            BusFault::Foreign => {
                if let Some(frame) =
                    StandardId::new(0x123).and_then(|id| Frame::new(id, &[1, 2, 3]))
                {
                    sim.inject(frame);
                }
            }
            BusFault::Garbage(bits) => {
                let id = ExtendedId::new(bits & 0x1FFF_FFFF);
                if let Some(frame) = id.and_then(|id| Frame::new(id, &bits.to_le_bytes())) {
                    sim.inject(frame);
                }
            }
            BusFault::FailSends(n) => sim.fail_sends(n, SendFailure::Bus),
            BusFault::QueueFull(n) => sim.fail_sends(n, SendFailure::QueueFull),
            BusFault::Silent => sim.set_silent(true),
        }
    }

    /// Motor `motor` of bus `bus` fails as `fault` says.
    pub fn strike_motor(&self, bus: usize, motor: usize, fault: MotorFault) {
        let inner = self.lock();
        let (Some(sim), Some(motor)) = (
            inner.buses.get(bus),
            inner.motors.get(bus).and_then(|m| m.get(motor)),
        ) else {
            return;
        };
        let failure = match fault {
            MotorFault::Overtemperature => Failure::Overtemperature,
            MotorFault::Undervoltage => Failure::Undervoltage,
            MotorFault::Uncalibrated => Failure::Uncalibrated,
            MotorFault::Stall => Failure::Stall,
            MotorFault::MissingReplies(n) => Failure::MissingReplies(n),
            MotorFault::LateReplies => Failure::LateReplies,
            MotorFault::Garbage => Failure::Garbage,
            MotorFault::Foreign => Failure::Foreign,
            MotorFault::WrongId => Failure::WrongMotorId,
            MotorFault::Silent => Failure::Silent,
            MotorFault::Unplugged => Failure::Unplugged,
        };
        sim.with_node(motor.node, |m: &mut SimActuator| m.fail(Some(failure)));
    }

    /// IMU `imu`'s device fails as `fault` says, unless it failed already: a device that
    /// failed stays failed as it did (a later fault does not mend a silent one).
    pub fn strike_imu(&self, imu: usize, fault: ImuFault) {
        let mut inner = self.lock();
        let Some(device) = inner.imus.get_mut(imu) else {
            return;
        };
        if device.failure().is_some() {
            return;
        }
        device.set_failure(Some(match fault {
            ImuFault::Silent => witmotion_sim::Failure::Silent,
            ImuFault::Garbage => witmotion_sim::Failure::Garbage,
            ImuFault::FlipBit(every) => witmotion_sim::Failure::FlipBit { every },
            ImuFault::Truncated => witmotion_sim::Failure::Truncated,
            ImuFault::Unplugged => witmotion_sim::Failure::Unplugged,
        }));
    }

    /// Each motor still enabled, by the simulated hardware's own state: its component's name
    /// and what it is (`left_knee_pitch (id 34, sim:left_leg)`).
    pub fn enabled_motors(&self) -> Vec<(String, String)> {
        let inner = self.lock();
        let mut enabled = Vec::new();
        for ((sim, motors), block) in inner.buses.iter().zip(&inner.motors).zip(&inner.blocks) {
            for motor in motors {
                if sim.with_node(motor.node, |m: &mut SimActuator| m.enabled()) == Some(true) {
                    let what = format!("{} (id {}, {})", motor.joint, motor.id, sim.name());
                    enabled.push((block.clone(), what));
                }
            }
        }
        if let Some((block, true)) = &inner.simulated {
            enabled.push((block.clone(), format!("`{block}`'s simulated motors")));
        }
        enabled
    }

    /// Adds `bytes` to the trace.
    pub fn trace(&self, bytes: &[u8]) {
        self.lock().digest.add(bytes);
    }

    /// Adds the end state of every motor to the trace, and returns the digest of the whole.
    pub fn finish(&self) -> (u64, u64) {
        let inner = self.lock();
        let mut digest = inner.digest;
        for (sim, motors) in inner.buses.iter().zip(&inner.motors) {
            for motor in motors {
                let end = sim.with_node(motor.node, |m: &mut SimActuator| {
                    (m.enabled(), m.position().to_bits(), m.log.watchdog_stops)
                });
                if let Some((enabled, position, stops)) = end {
                    digest.add(&[motor.id, u8::from(enabled)]);
                    digest.add(&position.to_le_bytes());
                    digest.add(&stops.to_le_bytes());
                }
            }
        }
        digest.add(&inner.now.as_nanos().to_le_bytes());
        (digest.value(), inner.frames)
    }

    /// The violations seen on the wire, by the watchdog checks and by the topics' peer.
    pub fn violations(&self) -> Vec<Violation> {
        let inner = self.lock();
        let mut violations = inner.violations.clone();
        if let Some(peer) = &inner.peer {
            violations.extend(peer.violations());
        }
        violations
    }

    /// The motors' names on bus `bus`.
    pub fn motors(&self, bus: usize) -> Vec<Motor> {
        self.lock().motors.get(bus).cloned().unwrap_or_default()
    }
}

impl Inner {
    /// Every enabled motor must have been switched off by its own watchdog once the host was
    /// silent to it for longer than the watchdog.
    fn check_watchdogs(&mut self) {
        let Some(watchdog) = self.watchdog else {
            return;
        };
        let now = self.now;
        for (sim, motors) in self.buses.iter().zip(&self.motors) {
            for motor in motors {
                if now.saturating_sub(motor.heard) <= watchdog + STEP {
                    continue;
                }
                if sim.with_node(motor.node, |m: &mut SimActuator| m.enabled()) == Some(true) {
                    add(
                        &mut self.violations,
                        "a silent host's motors stop by their own watchdog",
                        format!(
                            "at {:.1} ms {} (id {}) is still enabled {:.1} ms after the host's \
                             last frame to it (watchdog {:.0} ms)",
                            ms(now),
                            motor.joint,
                            motor.id,
                            ms(now - motor.heard),
                            ms(watchdog)
                        ),
                    );
                }
            }
        }
    }
}

/// `time` in milliseconds, for messages.
fn ms(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}
