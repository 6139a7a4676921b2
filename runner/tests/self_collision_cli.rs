//! The command-line tool of a robot whose forearm reaches 4 mm into its base at the home pose:
//! `run --backend mock` warns as the run starts, naming both links, the depth and the line that
//! allows the contact, and still runs; `emit` warns too; the same robot with the contact allowed
//! gets no warning. Each test runs this binary again as a child that is the tool
//! (`App::main_from`), with the command line it names.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::process::{Command, ExitCode, Output};

use robot_core::control_loop::{Controller, ControllerError};
use robot_core::hardware::Clock;
use robot_core::typed::RobotTypes;
use robot_runner::App;

#[macro_use]
#[path = "../../robot-collision/tests/support/folded_arm.rs"]
mod folded_arm;

folded!(Folded, false);
folded!(FoldedAllowed, false allow_contact base_fore { links: [base, fore] });

/// Does nothing: the run is only there to start.
struct Still;

impl<R: RobotTypes> Controller<R> for Still {
    fn update(
        &mut self,
        _clock: Clock,
        _state: &R::State,
        _command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        Ok(())
    }
}

/// The environment variable that makes this binary the tool, with its arguments (one a line).
const ARGS: &str = "ROBOT_RUNNER_SELF_COLLISION_TOOL";

/// In the child: the tool, on the command line the parent gave; the process ends with it.
fn be_the_tool() {
    let Ok(args) = std::env::var(ARGS) else {
        return;
    };
    let code = App::new("arm")
        .controller::<Folded, _>("still", "holds still", || Still)
        .controller::<FoldedAllowed, _>("still", "holds still", || Still)
        .main_from(std::iter::once("arm").chain(args.lines()));
    std::process::exit(if code == ExitCode::SUCCESS { 0 } else { 1 });
}

/// Runs `test` of this binary again as the tool, on `args`.
fn tool(test: &str, args: &[&str]) -> Output {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads=1"])
        .env(ARGS, args.join("\n"))
        .output()
        .unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const WARNING: &str = "at the home pose `base` and `fore` overlap by 4.0 mm: their collision \
     shapes interpenetrate, and a simulation pushes them apart as it starts; if the contact is \
     meant, allow it in the definition: `allow_contact base_fore { links: [base, fore] }`";

#[test]
fn run_on_the_mock_warns_of_the_overlap_as_it_starts() {
    be_the_tool();
    let test = "run_on_the_mock_warns_of_the_overlap_as_it_starts";
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let run = |robot: &str| {
        let args = [
            "run",
            "--robot",
            robot,
            "--backend",
            "mock",
            "--seconds",
            "0.1",
            "--out",
            out,
        ];
        let output = tool(test, &args);
        let stdout = text(&output.stdout);
        assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
        stdout
    };
    let stdout = run("folded");
    let lines: Vec<&str> = stdout.lines().collect();
    let header = (lines.iter())
        .position(|l| l.starts_with("running still (holds still) on folded on mock"))
        .unwrap_or_else(|| panic!("no header: {stdout}"));
    assert_eq!(
        lines.get(header + 1),
        Some(&&*format!("warning: {WARNING}"))
    );
    assert_eq!(stdout.matches("warning:").count(), 1, "{stdout}");
    assert!(stdout.contains("final lifecycle: inactive"), "{stdout}");
    let allowed = run("folded_allowed");
    assert!(!allowed.contains("warning:"), "{allowed}");
}

#[test]
fn emit_warns_of_the_overlap() {
    be_the_tool();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let output = tool("emit_warns_of_the_overlap", &["emit", "--out", out]);
    assert!(output.status.success(), "{}", text(&output.stderr));
    // Each robot's warnings, named: the one whose contact is allowed has none.
    assert_eq!(
        text(&output.stderr),
        format!("warning: folded: {WARNING}\n")
    );
}
