//! SIGINT in a program that runs controllers with `robot_runner`: during a run it stops that run
//! (the latest, not one that ended before), and between runs it ends the program as it would
//! without the handler the first run installed. Each test re-runs this binary as a child in the
//! role it names, and signals it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use robot_core::Backend;
use robot_core::control_loop::{Controller, ControllerError, LoopOptions, StopAfter};
use robot_core::hardware::Clock;
use robot_macros::robot;
use robot_runner::{Hardware, RunError, RunRequest, run};

robot! {
    robot Pendulum { update_rate: 100 Hz }
    bus main {}
    link base {}
    link arm {}
    joint swing: revolute {
        parent: base,
        child: arm,
        axis: [0, 1, 0],
        limits { lower: -1, upper: 1, velocity: 5, effort: 10 },
        actuator { bus: main, can_id: 1, model: RS02 },
        command: [position],
        state: [position],
    }
}

struct Still;

impl Controller<Pendulum> for Still {
    fn update(
        &mut self,
        _clock: Clock,
        _state: &PendulumState,
        _command: &mut PendulumCommand,
    ) -> Result<(), ControllerError> {
        Ok(())
    }
}

/// The environment variable that makes this binary a child, and in which role.
const ROLE: &str = "ROBOT_RUNNER_SIGNALS_CHILD";

fn run_for(seconds: f64) -> Result<(), RunError> {
    let request = RunRequest {
        options: LoopOptions {
            stop_after: StopAfter {
                cycles: None,
                duration: Some(Duration::from_secs_f64(seconds)),
            },
            ..LoopOptions::default()
        },
        ..RunRequest::on(Backend::Mock)
    };
    run::<Pendulum, _>(Still, Hardware::Backend, &request, &mut std::io::stdout()).map(|_| ())
}

/// Starts this test again as a child in `role`; returns it once it printed `ready`.
#[allow(clippy::zombie_processes)] // returned to the caller, which waits for it (`exit_code`)
fn child(test: &str, role: &str) -> (Child, BufReader<std::process::ChildStdout>) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(ROLE, role)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).unwrap() == 0 {
            let status = child.wait().unwrap();
            panic!("ended early ({status}): {seen}");
        }
        seen.push_str(&line);
        // libtest may have written `test <name> ... ` on the same line.
        if line.trim_end().ends_with("ready") {
            return (child, out);
        }
    }
}

fn interrupt(child: &Child) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// The child's exit code, waiting at most 20 s.
fn exit_code(child: &mut Child) -> Option<i32> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if start.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("the child did not end");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn between_runs_sigint_ends_the_program_as_without_a_handler() {
    if std::env::var(ROLE).as_deref() == Ok("between") {
        run_for(0.1).unwrap();
        println!("ready");
        std::io::stdout().flush().unwrap();
        std::thread::sleep(Duration::from_secs(30));
        panic!("no signal ended the process");
    }
    let (mut child, _) = child(
        "between_runs_sigint_ends_the_program_as_without_a_handler",
        "between",
    );
    interrupt(&child);
    assert_eq!(exit_code(&mut child), Some(130));
}

#[test]
fn sigint_during_a_second_run_stops_that_run() {
    if std::env::var(ROLE).as_deref() == Ok("second") {
        run_for(0.1).unwrap();
        println!("ready");
        std::io::stdout().flush().unwrap();
        match run_for(60.0) {
            Err(RunError::Interrupted { report }) => {
                println!("interrupted: {}", report.final_lifecycle());
            }
            other => panic!("{other:?}"),
        }
        return;
    }
    let (mut child, mut out) = child("sigint_during_a_second_run_stops_that_run", "second");
    // The second run's first progress row: it is active.
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        assert_ne!(out.read_line(&mut line).unwrap(), 0, "ended early: {seen}");
        seen.push_str(&line);
        if line.trim_end().ends_with(" active") {
            break;
        }
    }
    interrupt(&child);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    assert_eq!(exit_code(&mut child), Some(0), "{seen}{rest}");
    assert!(rest.contains("interrupted: inactive"), "{seen}{rest}");
}
