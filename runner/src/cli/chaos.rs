//! `robot chaos`: fault schedules of a registered robot on simulated hardware ([`robot_chaos`]),
//! the invariants judged after each; a violation's schedule printed, shrunk, and the exit 1.

use std::time::Instant;

use robot_chaos::{Defect, Options, Schedule, Shape, Summary, Verdict};
use robot_core::typed::RobotTypes;
use robot_core::{Backend, Robot};

use super::args::{ChaosArgs, ChaosBackend, Plant};

/// How many failing schedules are printed in full (each is shrunk, which runs it again).
const SHOWN: usize = 3;

/// A robot's typed entry points, kept by the [`super::App`] for `chaos`.
#[derive(Clone, Copy)]
pub(super) struct Chaos {
    pub(super) robot: &'static Robot,
    explore: fn(&Options) -> Summary,
    run: fn(&Schedule, Option<Defect>) -> Verdict,
    shrink: fn(&Verdict, Option<Defect>) -> Verdict,
}

impl Chaos {
    /// Robot `R`'s.
    pub(super) fn of<R: RobotTypes>() -> Chaos {
        Chaos {
            robot: R::DESCRIPTION,
            explore: robot_chaos::explore::<R>,
            run: robot_chaos::run::<R>,
            shrink: robot_chaos::shrink::<R>,
        }
    }

    /// Runs `chaos` as `args` say; `Err` on a violation (after printing it) or a robot the
    /// simulation cannot drive.
    pub(super) fn main(&self, args: &ChaosArgs) -> Result<(), String> {
        let robot = self.robot;
        let backend = match args.backend {
            ChaosBackend::Real => Backend::Real,
            ChaosBackend::Mujoco => Backend::Mujoco,
            ChaosBackend::Topic => Backend::Topic,
        };
        match backend {
            Backend::Mujoco if !cfg!(feature = "mujoco") => {
                return Err(
                    "`chaos --backend mujoco` is not in this build: it is robot-runner's \
                            cargo feature `mujoco` (for the shipped `robot` tool: `cargo run -p \
                            robots --features mujoco -- chaos --backend mujoco`)"
                        .to_string(),
                );
            }
            Backend::Mujoco if args.plant.is_some() => {
                return Err(
                    "`--plant` plants its defects in bus components: the real path's \
                            (drop `--backend mujoco`)"
                        .to_string(),
                );
            }
            Backend::Real if robot.buses.is_empty() => {
                return Err(format!(
                    "{} has no CAN bus: `chaos` simulates the real path (RobStride buses and \
                     WitMotion IMUs), or MuJoCo with `--backend mujoco`",
                    robot.name
                ));
            }
            _ => {}
        }
        let shape = Shape::on(robot, backend);
        let rate = robot.update_rate.max(1);
        let cycles = ((args.seconds * f64::from(rate)).round() as u32).max(1);
        let defect = args.plant.map(defect);
        if let Some(seed) = args.replay {
            return self.replay(&Schedule::draw(seed, &shape, cycles), defect);
        }
        let threads = args.threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
        });
        let what = match backend {
            Backend::Mujoco => "on MuJoCo".to_string(),
            Backend::Topic => "on the topic backend, against a peer in process".to_string(),
            _ => format!(
                "on the real path ({} buses, {} motors, {} IMUs), simulated",
                shape.buses.len(),
                shape.buses.iter().map(|b| b.1.len()).sum::<usize>(),
                shape.imus.len()
            ),
        };
        outln!(
            "chaos: {} {what}; {} schedules from seed {}, {} cycles ({} s) each, {} threads{}",
            robot.name,
            args.schedules,
            args.seed,
            cycles,
            args.seconds,
            threads,
            defect.map_or(String::new(), |d| format!(", planted defect {d:?}"))
        );
        let options = Options {
            backend,
            schedules: args.schedules,
            seed: args.seed,
            cycles,
            threads,
            defect,
            keep_digests: args.each || args.schedules <= 10,
        };
        let started = Instant::now();
        let summary = (self.explore)(&options);
        let elapsed = started.elapsed().as_secs_f64();
        for (index, seed, digest) in &summary.digests {
            outln!("schedule {index}: seed {seed:#018x} digest {digest:016x}");
        }
        for verdict in summary.failed.iter().take(SHOWN) {
            outln!("\nVIOLATION in schedule {}", verdict.schedule);
            outln!("  it ended: {}", verdict.ended);
            for violation in &verdict.violations {
                outln!("  broke {violation}");
            }
            let shrunk = (self.shrink)(verdict, defect);
            outln!("  shrunk to {}", shrunk.schedule);
            for violation in &shrunk.violations {
                outln!("  which breaks {violation}");
            }
            outln!(
                "  replay: chaos --robot {}{} --replay {:#018x}{}",
                robot.name,
                match backend {
                    Backend::Mujoco => " --backend mujoco",
                    Backend::Topic => " --backend topic",
                    _ => "",
                },
                shrunk.schedule.seed,
                if shrunk.schedule.faults.len() < verdict.schedule.faults.len() {
                    " (the whole schedule: shrinking left faults out)"
                } else {
                    ""
                }
            );
        }
        if summary.failed.len() > SHOWN {
            outln!(
                "\n({} more failing schedules)",
                summary.failed.len() - SHOWN
            );
        }
        outln!(
            "{} schedules, {} violations, {} frames in {elapsed:.1} s ({:.0} schedules/s)",
            summary.schedules,
            summary.failed.len(),
            summary.frames,
            summary.schedules as f64 / elapsed.max(1e-9)
        );
        outln!("digest {:016x}", summary.digest);
        if summary.failed.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{} of {} schedules broke an invariant",
                summary.failed.len(),
                summary.schedules
            ))
        }
    }

    fn replay(&self, schedule: &Schedule, defect: Option<Defect>) -> Result<(), String> {
        let verdict = (self.run)(schedule, defect);
        outln!("schedule {schedule}");
        outln!("it ended: {}", verdict.ended);
        outln!("{} frames", verdict.frames);
        for violation in &verdict.violations {
            outln!("broke {violation}");
        }
        outln!("digest {:016x}", verdict.digest);
        if verdict.violations.is_empty() {
            Ok(())
        } else {
            Err(format!("{} invariants broken", verdict.violations.len()))
        }
    }
}

fn defect(plant: Plant) -> Defect {
    match plant {
        Plant::TorqueLeftOn => Defect::DeactivateLeavesTorqueOn,
        Plant::WriteAfterStop => Defect::WritesAfterTorqueOff,
        Plant::NoRetry => Defect::SkipsTorqueOffRetry,
        Plant::NoLimitCheck => Defect::NoLimitCheck,
    }
}
