//! `robot chaos`: deterministic simulation of the whole runtime under injected faults.
//!
//! Each schedule runs the real control loop ([`robot_runtime::control_loop::ControlLoop`]),
//! the real components (a RobStride bus component per bus, a WitMotion component per IMU) and a
//! controller that sweeps every joint past its limits, on simulated time, against simulated
//! hardware: the RobStride actuators of `robstride-sim` on in-process buses, with their own CAN
//! watchdog, and the WitMotion device of `witmotion-sim` in process. A schedule, drawn from a
//! seed ([`schedule::Schedule::draw`]), says when and where faults strike: a component callback
//! failing, failing escalated, panicking or hanging in every lifecycle phase; lost, late,
//! foreign and garbage CAN frames, failed sends, a cut bus; fault bits, a motor that answers
//! nothing or hears nothing; a silent, corrupt or unplugged IMU; a controller that panics,
//! refuses or commands NaN or wild positions; torque-off failing k times; a signal or a drop of
//! the loop at any cycle; a recording (`--record`'s recorder) onto a disk that fills up.
//!
//! After each schedule the invariants are judged from the simulated hardware's own state (not
//! from what the runtime believes): every actuator disabled at the end, or the run names its
//! component as still active; after torque-off began, only stop frames on any bus; no
//! operation-control frame beyond its joint's limits; a motor the host went silent to stops by
//! its own watchdog within its period; every fault that struck while the loop ran reported, the
//! report naming it; a recording readable, up to its last chunk, as the cycles the loop ran. A
//! violation comes with its schedule and a shrunk one ([`shrink`]).
//!
//! Deterministic: no wall clock, no thread timing and no hash-map order reach a run; its trace
//! (every frame, every fault struck, every component state each cycle, the report, the
//! hardware's end state) hashes to a digest that two runs of one seed share.
//!
//! Not simulated: real CAN timing and arbitration, a real kernel's scheduling and serial
//! driver, a real DDS network; the topic and MuJoCo backends are not yet in the schedules.

pub mod controller;
pub mod digest;
pub mod faulty;
pub mod recording;
pub mod rng;
pub mod run;
pub mod schedule;
#[cfg(feature = "mujoco")]
pub mod simulation;
pub mod topic;
pub mod violation;
pub mod world;

use std::sync::atomic::{AtomicU64, Ordering};

use robot_runtime::Backend;
use robot_runtime::typed::RobotTypes;

pub use faulty::Defect;
pub use run::{Verdict, run};
pub use schedule::{Schedule, Shape};

use crate::digest::Digest;

/// What to explore.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// What the schedules run on: [`Backend::Real`] (simulated buses and IMUs) or
    /// [`Backend::Mujoco`] (feature `mujoco`).
    pub backend: Backend,
    /// Schedules to run.
    pub schedules: u64,
    /// The run's seed: schedule `i` is drawn from [`rng::schedule_seed`]`(seed, i)`.
    pub seed: u64,
    /// Cycles a schedule runs if nothing ends it first (a second at 200 Hz: 200).
    pub cycles: u32,
    /// Threads to run schedules on.
    pub threads: usize,
    /// A defect to plant, to show it is found.
    pub defect: Option<Defect>,
    /// Keep every schedule's digest ([`Summary::digests`]), not only the whole run's.
    pub keep_digests: bool,
}

/// What exploring came to.
#[derive(Debug, Clone)]
pub struct Summary {
    /// Schedules run.
    pub schedules: u64,
    /// The schedules that broke an invariant, in seed order.
    pub failed: Vec<Verdict>,
    /// The digest of every schedule's digest, in order.
    pub digest: u64,
    /// Frames sent over all schedules.
    pub frames: u64,
    /// Each schedule's index, seed and digest, when [`Options::keep_digests`] asks for them.
    pub digests: Vec<(u64, u64, u64)>,
}

/// Runs `options.schedules` schedules of robot `R`, on `options.threads` threads; the result
/// does not depend on the number of threads.
pub fn explore<R: RobotTypes>(options: &Options) -> Summary {
    let shape = Shape::on(R::DESCRIPTION, options.backend);
    let next = AtomicU64::new(0);
    let threads = options.threads.max(1);
    let mut verdicts: Vec<(u64, u64, u64, Option<Verdict>, u64)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let index = next.fetch_add(1, Ordering::Relaxed);
                        if index >= options.schedules {
                            return mine;
                        }
                        let seed = rng::schedule_seed(options.seed, index);
                        let schedule = Schedule::draw(seed, &shape, options.cycles);
                        let verdict = run::<R>(&schedule, options.defect);
                        let failed = (!verdict.violations.is_empty()).then(|| verdict.clone());
                        mine.push((index, verdict.digest, verdict.frames, failed, seed));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    });
    verdicts.sort_by_key(|v| v.0);
    let mut digest = Digest::default();
    for (_, each, _, _, _) in &verdicts {
        digest.add(&each.to_le_bytes());
    }
    let digests = match options.keep_digests {
        true => verdicts.iter().map(|v| (v.0, v.4, v.1)).collect(),
        false => Vec::new(),
    };
    Summary {
        digests,
        schedules: verdicts.len() as u64,
        frames: verdicts.iter().map(|v| v.2).sum(),
        failed: verdicts.into_iter().filter_map(|v| v.3).collect(),
        digest: digest.value(),
    }
}

/// The schedule `verdict` ran, with as few faults as still break an invariant, and its
/// verdict: each fault is left out in turn, and stays out when the run still fails; then the
/// recording.
pub fn shrink<R: RobotTypes>(verdict: &Verdict, defect: Option<Defect>) -> Verdict {
    let mut best = verdict.clone();
    loop {
        let mut smaller = None;
        for i in 0..best.schedule.faults.len() {
            let mut schedule = best.schedule.clone();
            schedule.faults.remove(i);
            let tried = run::<R>(&schedule, defect);
            if !tried.violations.is_empty() {
                smaller = Some(tried);
                break;
            }
        }
        if smaller.is_none() && best.schedule.record != schedule::Record::Off {
            let mut schedule = best.schedule.clone();
            schedule.record = schedule::Record::Off;
            let tried = run::<R>(&schedule, defect);
            if !tried.violations.is_empty() {
                smaller = Some(tried);
            }
        }
        match smaller {
            Some(verdict) => best = verdict,
            None => return best,
        }
    }
}

/// The panics the schedules inject are expected: their messages are left out of stderr; any
/// other panic is printed as before.
pub(crate) fn quiet_injected_panics() {
    static QUIET: std::sync::Once = std::sync::Once::new();
    QUIET.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let message = robot_runtime::hardware::Panic::of(info.payload()).to_string();
            if !message.contains("chaos fault #") {
                previous(info);
            }
        }));
    });
}
