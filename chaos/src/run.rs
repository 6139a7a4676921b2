//! One schedule, run: the real components (a RobStride bus component per bus, a WitMotion
//! component per IMU) wrapped with the schedule's callback faults, in a real [`System`] and
//! [`ControlLoop`] with the sweeping controller, on simulated time in a simulated [`World`];
//! then the invariants, judged from the world's own state.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use backend_robstride::component::{BusOptions, RobstrideBus};
use backend_robstride::transport::{OpenErrorKind, TransportError};
use backend_topic::{TopicOptions, TopicSystem};
use backend_witmotion::{ImuOptions, WitmotionImu};
use robot_runtime::Backend;
use robot_runtime::control_loop::{
    ControlLoop, CycleObserver, LoopControl, LoopError, LoopOptions, LoopReport, Pacing, StopAfter,
};
use robot_runtime::hardware::{Clock, Component, Panic, System};
use robot_runtime::typed::RobotTypes;

use crate::controller::Sweep;
use crate::faulty::{Defect, Faulty, Log, tag};
use crate::recording;
use crate::schedule::{Call, ControllerFault, Ending, Fault, How, ImuFault, Schedule, Shape};
use crate::topic::PeerFault;
use crate::violation::{Violation, add};
use crate::world::World;

/// What one schedule came to.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// The schedule.
    pub schedule: Schedule,
    /// The digest of its trace.
    pub digest: u64,
    /// Frames the host sent.
    pub frames: u64,
    /// How the run ended, in the runtime's own words.
    pub ended: String,
    /// Every invariant it broke.
    pub violations: Vec<Violation>,
}

/// The IMU options every schedule's IMU runs with: the real path's defaults at 200 Hz.
fn imu_options() -> ImuOptions {
    ImuOptions::new("sim (in process)", 460_800, 200)
}

/// Runs `schedule` on robot `R`, with `defect` planted in every bus component if given.
pub fn run<R: RobotTypes>(schedule: &Schedule, defect: Option<Defect>) -> Verdict {
    crate::quiet_injected_panics();
    let robot = R::DESCRIPTION;
    let shape = Shape::on(robot, schedule.backend);
    let rate = robot.update_rate.max(1);
    let period = Duration::from_secs(1) / rate;
    let log = Log::default();
    let (world, components) = match schedule.backend {
        Backend::Topic => {
            let has_imu = robot
                .sensors_of(robot_runtime::model::SensorKind::Imu)
                .next()
                .is_some();
            let world = World::with_peer_of(crate::topic::Peer::new::<R>(period, has_imu));
            let components = topics::<R>(schedule, &world, &log, defect);
            (world, components)
        }
        Backend::Mujoco => {
            let world = World::empty();
            let components = simulated::<R>(schedule, &world, &log, defect, period);
            (world, components)
        }
        _ => {
            let options = BusOptions::at_rate(rate);
            let world = World::new(robot, shape.imus.len(), options.watchdog);
            let components = real::<R>(&shape, schedule, &world, &log, defect, options);
            (world, components)
        }
    };
    let dropped = Arc::new(Mutex::new(Vec::<String>::new()));
    let mut record = None;
    let ended = match System::new(components) {
        Err(error) => Ended::Failed(format!("the system could not be made: {error:#}")),
        Ok(mut system) => {
            let sink = Arc::clone(&dropped);
            system.report_drops_to(move |report| {
                sink.lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(report.to_string());
            });
            let control = Arc::new(LoopControl::default());
            let strikes = Strikes {
                faults: schedule.faults.clone(),
                ending: schedule.ending,
                period,
                world: world.clone(),
                log: log.clone(),
                control: Arc::clone(&control),
            };
            let controller = Sweep::new::<R>(&schedule.faults, &world, &log);
            let (recording, recorder) =
                match recording::start::<R>(schedule.record, schedule.cycles) {
                    Some((recording, observer)) => (Some(recording), Some(observer)),
                    None => (None, None),
                };
            let mut control_loop =
                ControlLoop::new(system, controller, Some(rate)).with_observer((strikes, recorder));
            let ended = drive(&mut control_loop, schedule, period, &control);
            log.end();
            record = recording;
            // Dropping the loop drops the system, which switches off what is still on and
            // reports it.
            let drop = catch_unwind(AssertUnwindSafe(|| std::mem::drop(control_loop)));
            match drop {
                Ok(()) => ended,
                Err(panic) => Ended::Failed(format!(
                    "{}; dropping the loop panicked: {}",
                    ended.text(),
                    Panic::of(panic.as_ref())
                )),
            }
        }
    };
    let mut text = ended.text().to_string();
    for report in dropped
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
    {
        text.push_str("; ");
        text.push_str(report);
    }
    world.trace(text.as_bytes());
    let mut violations = world.violations();
    violations.extend(judge(schedule, &shape, &world, &log, &ended, &text, period));
    if let Some(recording) = record {
        violations.extend(recording.finish(log.cycles(), period));
    }
    let (digest, frames) = world.finish();
    Verdict {
        schedule: schedule.clone(),
        digest,
        frames,
        ended: text,
        violations,
    }
}

/// The real path's components: a RobStride bus component per bus on the world's buses, a
/// WitMotion component per IMU on the world's devices, each with the schedule's callback faults.
fn real<R: RobotTypes>(
    shape: &Shape,
    schedule: &Schedule,
    world: &World,
    log: &Log,
    defect: Option<Defect>,
    options: BusOptions,
) -> Vec<Box<dyn Component<R>>> {
    let mut components: Vec<Box<dyn Component<R>>> = Vec::new();
    for (b, (bus, _)) in shape.buses.iter().enumerate() {
        let wire = world.clone();
        let name = bus.clone();
        let inner = RobstrideBus::<R>::new(bus, None, options, move || {
            wire.transport(b).ok_or_else(|| TransportError::Open {
                interface: name.clone(),
                kind: OpenErrorKind::NoSuchInterface,
                reason: "no such simulated bus".to_string(),
                hint: String::new(),
                cause: None,
            })
        });
        components.push(Box::new(Faulty::new(
            Box::new(inner),
            b,
            &schedule.faults,
            world,
            log,
            defect.map(|d| (d, b)),
        )));
    }
    for (i, imu) in shape.imus.iter().enumerate() {
        let link = world.clone();
        let inner = WitmotionImu::<R>::with_link(imu, imu_options(), move || Ok(link.link(i)));
        components.push(Box::new(Faulty::new(
            Box::new(inner),
            shape.buses.len() + i,
            &schedule.faults,
            world,
            log,
            None,
        )));
    }
    components
}

/// A backend's one component, with the schedule's callback faults (and `defect`, if planted).
fn alone<R: RobotTypes>(
    inner: impl Component<R> + 'static,
    schedule: &Schedule,
    world: &World,
    log: &Log,
    defect: Option<Defect>,
) -> Vec<Box<dyn Component<R>>> {
    vec![Box::new(Faulty::new(
        Box::new(inner),
        0,
        &schedule.faults,
        world,
        log,
        defect.map(|d| (d, 0)),
    ))]
}

/// The topic backend's component, its endpoints on the world's peer, with the schedule's
/// callback faults.
fn topics<R: RobotTypes>(
    schedule: &Schedule,
    world: &World,
    log: &Log,
    defect: Option<Defect>,
) -> Vec<Box<dyn Component<R>>> {
    let peer = world.clone();
    let inner = TopicSystem::<R>::with_endpoints(TopicOptions::default(), move |template| {
        Ok(Box::new(crate::topic::Topics::new(&peer, template)))
    });
    alone(inner, schedule, world, log, defect)
}

/// The MuJoCo backend's one component, watched, with the schedule's callback faults.
#[cfg(feature = "mujoco")]
fn simulated<R: RobotTypes>(
    schedule: &Schedule,
    world: &World,
    log: &Log,
    defect: Option<Defect>,
    period: Duration,
) -> Vec<Box<dyn Component<R>>> {
    let inner = crate::simulation::Watched::<R>::new(world, period);
    alone(inner, schedule, world, log, defect)
}

/// Without the `mujoco` feature there is nothing to simulate: no component (`robot chaos`
/// refuses `--backend mujoco` in such a build before anything runs).
#[cfg(not(feature = "mujoco"))]
fn simulated<R: RobotTypes>(
    _schedule: &Schedule,
    _world: &World,
    _log: &Log,
    _defect: Option<Defect>,
    _period: Duration,
) -> Vec<Box<dyn Component<R>>> {
    Vec::new()
}

/// How a run ended: as its schedule asked, or on a failure.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Ended {
    /// Time was up, a signal or a drop: what was asked.
    AsAsked(String),
    /// A failure ended it.
    Failed(String),
}

impl Ended {
    fn text(&self) -> &str {
        match self {
            Ended::AsAsked(text) | Ended::Failed(text) => text,
        }
    }
}

/// Runs the loop as the schedule ends: through [`ControlLoop::run`] to its end or a signal, or
/// by hand, cycle by cycle, to a drop.
fn drive<R: RobotTypes>(
    control_loop: &mut ControlLoop<R, Sweep>,
    schedule: &Schedule,
    period: Duration,
    control: &LoopControl,
) -> Ended {
    match schedule.ending {
        Ending::Finish | Ending::Signal(_) => {
            let options = LoopOptions {
                stop_after: StopAfter {
                    cycles: Some(u64::from(schedule.cycles)),
                    duration: None,
                },
                pacing: Pacing::SimulatedFast,
                stats_capacity: schedule.cycles as usize + 16,
                ..LoopOptions::default()
            };
            match control_loop.run(&options, control) {
                Ok(report) => match torque_off_failures(&report) {
                    None => Ended::AsAsked("stopped as asked".to_string()),
                    Some(failures) => Ended::Failed(format!("stopped as asked{failures}")),
                },
                Err(error) => Ended::Failed(describe(&error)),
            }
        }
        Ending::Drop(at) => {
            if let Err(error) = control_loop.configure() {
                return Ended::Failed(describe(&error));
            }
            let clock = |cycle: u32| Clock {
                time: period * cycle,
                period,
            };
            if let Err(fault) = control_loop.activate(clock(0)) {
                return Ended::Failed(format!("activation: {fault}{}", failures_of(control_loop)));
            }
            for cycle in 0..=at {
                if let Err(fault) = control_loop.cycle(clock(cycle)) {
                    return Ended::Failed(format!(
                        "cycle {cycle}: {fault}{}",
                        failures_of(control_loop)
                    ));
                }
            }
            Ended::AsAsked(format!("dropped after cycle {at}"))
        }
    }
}

/// A loop's error with its report's torque-off failures, each in full.
fn describe(error: &LoopError) -> String {
    let mut text = format!("{error:#}");
    if let Some(report) = error.report()
        && let Some(failures) = torque_off_failures(report)
    {
        text.push_str(&failures);
    }
    text
}

fn torque_off_failures(report: &LoopReport) -> Option<String> {
    if report.torque_off_failures.is_empty() {
        return None;
    }
    Some(
        report
            .torque_off_failures
            .iter()
            .map(|f| format!("; torque-off failed: {f:#}"))
            .collect(),
    )
}

fn failures_of<R: RobotTypes>(control_loop: &ControlLoop<R, Sweep>) -> String {
    control_loop
        .torque_off_failures()
        .iter()
        .map(|f| format!("; torque-off failed: {f:#}"))
        .collect()
}

/// Strikes the faults due after each cycle, sends the signal, and moves the world on a period.
struct Strikes {
    faults: Vec<Fault>,
    ending: Ending,
    period: Duration,
    world: World,
    log: Log,
    control: Arc<LoopControl>,
}

impl<R: RobotTypes> CycleObserver<R> for Strikes {
    fn observe(&mut self, clock: Clock, _state: &R::State, _command: &R::Command) {
        let cycle = (clock.time.as_nanos() / self.period.as_nanos().max(1)) as u32;
        for (i, fault) in self.faults.iter().enumerate() {
            let struck = match *fault {
                Fault::Bus {
                    cycle: at,
                    bus,
                    fault,
                } if at == cycle => {
                    self.world.strike_bus(bus, fault);
                    true
                }
                Fault::Motor {
                    cycle: at,
                    bus,
                    motor,
                    fault,
                } if at == cycle => {
                    self.world.strike_motor(bus, motor, fault);
                    true
                }
                Fault::Imu {
                    cycle: at,
                    imu,
                    fault,
                } if at == cycle => {
                    self.world.strike_imu(imu, fault);
                    true
                }
                Fault::Peer { cycle: at, fault } if at == cycle => {
                    self.world.with_peer(|peer, now| peer.strike(fault, now));
                    true
                }
                Fault::Switch { cycle: at, .. } if at == cycle => {
                    self.control.request_deactivate();
                    true
                }
                Fault::Switch {
                    cycle: at,
                    back_after,
                } if at.saturating_add(back_after) == cycle => {
                    // Torque on again is what was asked: enables and commands may follow stops.
                    self.world.reactivating();
                    self.control.request_activate();
                    true
                }
                _ => false,
            };
            if struck {
                self.log.strike(i, self.world.now());
                self.world.trace(&[0xFB, i as u8]);
            }
        }
        if self.ending == Ending::Signal(cycle) {
            self.control.request_stop();
        }
        self.log.cycle_done();
        self.world.advance(self.period);
    }

    fn observe_system(&mut self, _clock: Clock, system: &System<R>) {
        let states: Vec<u8> = system.states().map(|(_, s)| s as u8).collect();
        self.world.trace(&states);
        self.log.set_active(system.any_active());
    }
}

/// The invariants judged at the end, from the world's state and what the run reported.
fn judge(
    schedule: &Schedule,
    shape: &Shape,
    world: &World,
    log: &Log,
    ended: &Ended,
    text: &str,
    period: Duration,
) -> Vec<Violation> {
    let mut violations = Vec::new();
    // Every actuator off, or the run names its component as still active.
    for (block, what) in world.enabled_motors() {
        let named = text.contains(&format!("`{block}` is STILL ACTIVE"))
            || text.contains(&format!("STILL ACTIVE: `{block}`"));
        if !named {
            add(
                &mut violations,
                "every actuator off at the end, or named",
                format!(
                    "{what}: on after the run, and the run does not say `{block}` is still \
                     active"
                ),
            );
        }
    }
    // Every fault that must be noticed while the loop runs is reported, naming what failed: one
    // noticed at once (a callback's, the controller's) when it struck while the loop ran; one
    // noticed a few cycles later (a fault bit, an IMU gone) when the loop ran that long after.
    // A run that ends on a fault reports that one; the others need not be named.
    let ran = log.cycles();
    let latency = |cycles: u32, at: u32| at.saturating_add(cycles) < ran;
    let max_age_cycles = (imu_options().max_age.as_nanos() / period.as_nanos().max(1)) as u32;
    let stale_age = TopicOptions::default().stale_age(period);
    let stale_cycles = (stale_age.as_nanos() / period.as_nanos().max(1)) as u32;
    let mut expected: Vec<(usize, Vec<String>)> = Vec::new();
    for struck in log.struck().iter().filter(|s| s.running) {
        let Some(fault) = schedule.faults.get(struck.fault) else {
            continue;
        };
        let names = match *fault {
            Fault::Callback {
                how: How::Hang(_), ..
            } => continue,
            Fault::Callback {
                call: Call::Shutdown,
                ..
            } => continue,
            Fault::Callback { .. } => vec![tag(struck.fault)],
            Fault::Controller {
                fault: ControllerFault::Panic | ControllerFault::Refuse,
                ..
            }
            | Fault::Controller {
                fault: ControllerFault::RefuseActivation,
                ..
            } => vec![tag(struck.fault)],
            // Seen in the replies to the next writes: only while the hardware stays active
            // (torque-off answers a faulted motor's stop like any other).
            Fault::Motor {
                cycle,
                bus,
                motor,
                fault,
            } if fault.is_fault_bit() && struck.active && log.active_through(cycle, cycle + 3) => {
                shape
                    .buses
                    .get(bus)
                    .and_then(|(_, joints)| joints.get(motor))
                    .map(|joint| vec![format!("joint {joint} ")])
                    .unwrap_or_default()
            }
            Fault::Peer { cycle, fault }
                if struck.active
                    && match fault {
                        PeerFault::Lost | PeerFault::ImuLost => latency(stale_cycles + 3, cycle),
                        PeerFault::Stale(ms) => {
                            Duration::from_millis(u64::from(ms)) > stale_age + period * 2
                                && latency(stale_cycles + 3, cycle)
                        }
                        PeerFault::Refused | PeerFault::NotANumber => false,
                    } =>
            {
                vec!["stale state".to_string()]
            }
            Fault::Imu { cycle, imu, fault }
                if struck.active
                    && ((fault == ImuFault::Unplugged && latency(3, cycle))
                        || (fault == ImuFault::Silent && latency(max_age_cycles + 3, cycle))) =>
            {
                shape
                    .imus
                    .get(imu)
                    .map(|name| vec![format!("`{name}`")])
                    .unwrap_or_default()
            }
            _ => continue,
        };
        expected.push((struck.fault, names));
    }
    let _ = schedule.last_cycle();
    if let Some((fault, _)) = expected.first()
        && matches!(ended, Ended::AsAsked(_))
    {
        add(
            &mut violations,
            "every fault reported",
            format!("fault #{fault} struck while the loop ran, yet the run ended as asked: {text}"),
        );
    } else if !expected.is_empty()
        && !expected
            .iter()
            .any(|(_, names)| names.iter().any(|n| text.contains(n.as_str())))
    {
        let faults: Vec<String> = expected.iter().map(|(f, _)| format!("#{f}")).collect();
        add(
            &mut violations,
            "every fault reported, naming its component",
            format!(
                "faults {} struck while the loop ran; the run's report names none of them: {text}",
                faults.join(", ")
            ),
        );
    }
    violations
}
