//! lite_biped on MuJoCo, hanging on the test stand (`ModelSource::Stand`, so the squat tracks and
//! the states stay comparable), 200 Hz, five 1 ms physics steps a cycle, side by side on the very
//! same states:
//! * **cycle**: one loop cycle through `ControlLoop`: read (the five steps, the MIT law before
//!   each) + the squat's update + write;
//! * **bare**: the same five steps as plain `mj_step` calls on a copy of the model the component
//!   compiled, each after copying in the `ctrl` vector the backend applied at that step.
//!
//! Set-up: the squat runs through the backend to the end of its ramp; there the component's
//! simulation is saved ([`MujocoSystem::snapshot`]) and one whole squat ([`WINDOW`] cycles) runs
//! through the loop, recording the `ctrl` vector of every physics step. Both sides then step that
//! window over and over from the snapshot (the cycle side through
//! [`MujocoSystem::restore`] with the loop's clock rewound, the bare side through `mj_setState`;
//! restoring is not timed), and the bench first checks that each ends bit for bit where the
//! recording did: the same states, the same controls.
//!
//! Criterion times each side per 5 ms cycle; then [`ROUNDS`] windows are stepped by both sides in
//! turn, [`CHUNK`] cycles at a time over the same cycles (so both see the same load on a shared
//! machine), and the median of the chunks' ratios is printed.
//! Target: cycle / bare ≤ 1.05.
//!
//! Also a 10 s squat on simulated time as fast as it runs, for the real-time factor.
#![allow(clippy::expect_used)] // bench set-up: a panic is the failure report

use std::hint::black_box;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use backend_mujoco::{DEFAULT_SUBSTEPS, ModelSource, MujocoOptions, MujocoSystem, Snapshot};
use criterion::{Criterion, criterion_group, criterion_main};
use mujoco_rs::prelude::{MjData, MjModel};
use robot_core::RobotTypes;
use robot_core::control_loop::{ControlLoop, LoopControl, LoopOptions, Pacing, StopAfter};
use robot_core::hardware::{Clock, Component, HardwareError, Identity, Lifecycle, System};
use robots::LiteBiped;
use robots::controllers::Squat;

/// Cycles before the window: the squat's ramp to standing (`Squat::ramp`, 1 s at 200 Hz).
const RAMP_CYCLES: u64 = 200;
/// Cycles in the window both sides step: one whole squat, down and up (`Squat::period`, 4 s).
const WINDOW: u64 = 800;
/// Windows for the printed ratio, and the cycles each side runs in turn within them.
const ROUNDS: usize = 10;
const CHUNK: u64 = 20;

fn options() -> MujocoOptions {
    MujocoOptions {
        model: ModelSource::Stand,
        ..MujocoOptions::default()
    }
}

/// The component the loop drives, also held by the bench to restore snapshots between windows.
/// Forwarding costs the cycle side one uncontended lock per read and per write (tens of ns, next
/// to tens of µs of physics), on the pessimistic side.
struct Inner {
    system: MujocoSystem<LiteBiped>,
    /// While recording, every physics step's `ctrl` vector, in order.
    recording: Option<Vec<f64>>,
}

#[derive(Clone)]
struct Shared {
    inner: Arc<Mutex<Inner>>,
    identity: Identity,
}

impl Shared {
    fn new() -> Shared {
        let system = MujocoSystem::<LiteBiped>::new(options());
        Shared {
            identity: Component::<LiteBiped>::identity(&system).clone(),
            inner: Arc::new(Mutex::new(Inner {
                system,
                recording: None,
            })),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().expect("not poisoned")
    }
}

impl Component<LiteBiped> for Shared {
    fn identity(&self) -> &Identity {
        &self.identity
    }
    fn on_init(&mut self) -> Result<(), HardwareError> {
        self.lock().system.on_init()
    }
    fn on_configure(&mut self) -> Result<(), HardwareError> {
        self.lock().system.on_configure()
    }
    fn on_cleanup(&mut self) -> Result<(), HardwareError> {
        self.lock().system.on_cleanup()
    }
    fn on_activate(
        &mut self,
        state: &<LiteBiped as RobotTypes>::State,
        command: &mut <LiteBiped as RobotTypes>::Command,
    ) -> Result<(), HardwareError> {
        self.lock().system.on_activate(state, command)
    }
    fn on_deactivate(&mut self) -> Result<(), HardwareError> {
        self.lock().system.on_deactivate()
    }
    fn on_shutdown(&mut self, previous: Lifecycle) -> Result<(), HardwareError> {
        self.lock().system.on_shutdown(previous)
    }
    /// Recording: the period's steps one read each (the component steps up to the clock, so
    /// each of these reads takes one step with the law from that step's state, as one read of
    /// the whole period does), each step's `ctrl` saved after it.
    fn read(
        &mut self,
        clock: Clock,
        state: &mut <LiteBiped as RobotTypes>::State,
    ) -> Result<(), HardwareError> {
        let mut guard = self.lock();
        let Inner { system, recording } = &mut *guard;
        let Some(ctrls) = recording else {
            return system.read(clock, state);
        };
        let step = clock.period / DEFAULT_SUBSTEPS;
        for k in (0..DEFAULT_SUBSTEPS).rev() {
            let at = Clock {
                time: clock.time - step * k,
                ..clock
            };
            system.read(at, state)?;
            ctrls.extend_from_slice(system.data().expect("configured").ctrl());
        }
        Ok(())
    }
    fn write(
        &mut self,
        clock: Clock,
        command: &<LiteBiped as RobotTypes>::Command,
    ) -> Result<(), HardwareError> {
        self.lock().system.write(clock, command)
    }
}

fn squat_loop(component: Box<dyn Component<LiteBiped>>) -> ControlLoop<LiteBiped, Squat> {
    let system = System::new(vec![component]).expect("system");
    ControlLoop::new(system, Squat::default(), None)
}

/// Both sides, at the start of the window.
struct Sides {
    /// The cycle side.
    control_loop: ControlLoop<LiteBiped, Squat>,
    shared: Shared,
    /// The loop's clock at the snapshot.
    start: Clock,
    clock: Clock,
    snapshot: Snapshot,
    /// The bare side.
    bare: MjData<Box<MjModel>>,
    /// Every physics step's `ctrl` over the window, `nu` a step.
    ctrls: Vec<f64>,
    nu: usize,
    /// Where the recording ended.
    end_qpos: Vec<f64>,
    end_qvel: Vec<f64>,
}

impl Sides {
    fn new() -> Sides {
        let shared = Shared::new();
        let mut control_loop = squat_loop(Box::new(shared.clone()));
        let period = control_loop.period();
        let mut clock = Clock {
            time: Duration::ZERO,
            period,
        };
        control_loop.configure().expect("configure");
        control_loop.activate(clock).expect("activate");
        for _ in 0..RAMP_CYCLES {
            clock.time += period;
            control_loop.cycle(clock).expect("cycle");
        }
        let start = clock;
        let snapshot = shared.lock().system.snapshot().expect("configured");
        shared.lock().recording = Some(Vec::new());
        for _ in 0..WINDOW {
            clock.time += period;
            control_loop.cycle(clock).expect("cycle");
        }
        let mut inner = shared.lock();
        let ctrls = inner.recording.take().expect("recording");
        let data = inner.system.data().expect("configured");
        let nu = data.ctrl().len();
        assert_eq!(
            ctrls.len() as u64,
            WINDOW * u64::from(DEFAULT_SUBSTEPS) * nu as u64,
            "one ctrl vector per physics step"
        );
        let (end_qpos, end_qvel) = (data.qpos().to_vec(), data.qvel().to_vec());
        // The very model the component compiled: welded base, 1 ms timestep, the joints'
        // friction and the weld as constraints on both sides.
        let bare = MjData::new(Box::new(data.model().clone()));
        drop(inner);
        Sides {
            control_loop,
            shared,
            start,
            clock: start,
            snapshot,
            bare,
            ctrls,
            nu,
            end_qpos,
            end_qvel,
        }
    }

    fn restore_cycle_side(&mut self) {
        self.shared
            .lock()
            .system
            .restore(&self.snapshot)
            .expect("restore");
        self.clock = self.start;
    }

    fn restore_bare_side(&mut self) {
        self.bare
            .set_state(self.snapshot.mujoco_state(), Snapshot::SPEC)
            .expect("same model");
        self.bare.forward();
    }

    /// The next cycle of the window on the cycle side.
    fn cycle(&mut self) {
        self.clock.time += self.clock.period;
        self.control_loop
            .cycle(black_box(self.clock))
            .expect("cycle");
    }

    /// Cycle `i` (0-based) of the window on the bare side: its five steps, each with the
    /// recorded control.
    fn bare_cycle(&mut self, i: u64) {
        let per_cycle = DEFAULT_SUBSTEPS as usize * self.nu;
        let start = i as usize * per_cycle;
        for ctrl in self.ctrls[start..start + per_cycle].chunks_exact(self.nu) {
            self.bare.ctrl_mut().copy_from_slice(ctrl);
            self.bare.step();
        }
        black_box(self.bare.qpos()[0]);
    }

    /// One whole window on the cycle side from the snapshot.
    fn cycle_window(&mut self) {
        self.restore_cycle_side();
        for _ in 0..WINDOW {
            self.cycle();
        }
    }

    /// One whole window on the bare side from the snapshot.
    fn bare_window(&mut self) {
        self.restore_bare_side();
        for i in 0..WINDOW {
            self.bare_cycle(i);
        }
    }

    /// Both sides end the window exactly where the recording did.
    fn check_like_for_like(&mut self) {
        self.cycle_window();
        let inner = self.shared.lock();
        let data = inner.system.data().expect("configured");
        assert_eq!(data.qpos(), &self.end_qpos[..], "cycle side: qpos");
        assert_eq!(data.qvel(), &self.end_qvel[..], "cycle side: qvel");
        drop(inner);
        self.bare_window();
        assert_eq!(self.bare.qpos(), &self.end_qpos[..], "bare side: qpos");
        assert_eq!(self.bare.qvel(), &self.end_qvel[..], "bare side: qvel");
    }
}

fn cycle_versus_bare_steps(c: &mut Criterion) {
    let mut sides = Sides::new();
    sides.check_like_for_like();
    println!(
        "both sides step the same {WINDOW} cycles ({} s of the squat from t = {} s) and end \
         bit for bit where the recording did",
        WINDOW as f64 * sides.start.period.as_secs_f64(),
        sides.start.time.as_secs_f64()
    );

    let mut group = c.benchmark_group("mujoco/lite_biped");
    // Where each side is in the window, across criterion's calls, so every sample goes on
    // through the whole squat rather than repeating its start.
    let mut at = WINDOW;
    group.bench_function(
        "loop cycle: read (5 steps + MIT law) + squat + write",
        |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                let mut left = iters;
                while left > 0 {
                    if at == WINDOW {
                        sides.restore_cycle_side();
                        at = 0;
                    }
                    let n = left.min(WINDOW - at);
                    let started = Instant::now();
                    for _ in 0..n {
                        sides.cycle();
                    }
                    total += started.elapsed();
                    at += n;
                    left -= n;
                }
                total
            })
        },
    );
    let mut at = WINDOW;
    group.bench_function("bare mj_step x5, the recorded ctrl", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            let mut left = iters;
            while left > 0 {
                if at == WINDOW {
                    sides.restore_bare_side();
                    at = 0;
                }
                let n = left.min(WINDOW - at);
                let started = Instant::now();
                for i in at..at + n {
                    sides.bare_cycle(i);
                }
                total += started.elapsed();
                at += n;
                left -= n;
            }
            total
        })
    });
    group.finish();

    // Side by side: the window in chunks, each chunk on one side then the other over the same
    // cycles, so both see the same load on this shared machine; the median of the chunks'
    // ratios.
    let mut ratios = Vec::new();
    let (mut cycle_total, mut bare_total) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..ROUNDS {
        sides.restore_cycle_side();
        sides.restore_bare_side();
        for chunk in (0..WINDOW).step_by(CHUNK as usize) {
            let started = Instant::now();
            for _ in chunk..chunk + CHUNK {
                sides.cycle();
            }
            let cycle = started.elapsed();
            let started = Instant::now();
            for i in chunk..chunk + CHUNK {
                sides.bare_cycle(i);
            }
            let bare = started.elapsed();
            ratios.push(cycle.as_secs_f64() / bare.as_secs_f64());
            cycle_total += cycle;
            bare_total += bare;
        }
    }
    ratios.sort_by(f64::total_cmp);
    let cycles = (ROUNDS as u64 * WINDOW) as f64;
    let per_cycle = |total: Duration| total.as_secs_f64() * 1e6 / cycles;
    println!(
        "cycle / bare, per 5 ms cycle: {:.3} (median of {} interleaved {CHUNK}-cycle chunks, \
         quartiles {:.3}..{:.3}; of the sums {:.3}); cycle {:.1} µs, bare {:.1} µs (means); \
         target ≤ 1.05",
        ratios[ratios.len() / 2],
        ratios.len(),
        ratios[ratios.len() / 4],
        ratios[3 * ratios.len() / 4],
        cycle_total.as_secs_f64() / bare_total.as_secs_f64(),
        per_cycle(cycle_total),
        per_cycle(bare_total),
    );
}

fn squat_real_time_factor(c: &mut Criterion) {
    let run_options = LoopOptions {
        stop_after: StopAfter {
            cycles: None,
            duration: Some(Duration::from_secs(10)),
        },
        pacing: Pacing::SimulatedFast,
        ..LoopOptions::default()
    };
    let mut group = c.benchmark_group("mujoco/lite_biped");
    group.sample_size(10);
    let mut factors = Vec::new();
    group.bench_function("squat 10 s simulated, as fast as it steps", |b| {
        b.iter(|| {
            let mut control_loop = squat_loop(Box::new(MujocoSystem::<LiteBiped>::new(options())));
            let report = control_loop
                .run(&run_options, &LoopControl::default())
                .expect("run");
            factors.extend(report.timing.real_time_factor());
        })
    });
    group.finish();
    factors.sort_by(f64::total_cmp);
    if let Some(median) = factors.get(factors.len() / 2) {
        println!(
            "squat 10 s: real-time factor {median:.1} (median of {} runs)",
            factors.len()
        );
    }
}

criterion_group!(benches, cycle_versus_bare_steps, squat_real_time_factor);
criterion_main!(benches);
