//! A loop dropped while a component will not switch off (a motor gone silent) tries again, as
//! does the system it owns, and says so once: how many attempts failed, each distinct failure
//! once, and what is still active; never the same failure line after line. The test re-runs this
//! binary as a child that drops such a loop, and reads the child's stderr.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report
mod support;

use std::process::Command;

use robot_core::control_loop::ControlLoop;
use robot_core::hardware::Clock;
use support::{Log, Outcome, Probe, Scripted, system};

/// The environment variable that makes this binary the child.
const CHILD: &str = "ROBOT_DROP_REPORT_CHILD";

/// In the child: a loop whose one component never switches off, dropped while active.
fn drop_a_loop_that_cannot_switch_off() {
    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.deactivate = (usize::MAX, Outcome::Fail);
    let mut control_loop = ControlLoop::new(system(vec![component]), Probe::default(), None);
    control_loop.configure().unwrap();
    control_loop.activate(Clock::default()).unwrap();
    control_loop.cycle(Clock::default()).unwrap();
    drop(control_loop);
}

#[test]
fn dropping_a_loop_that_cannot_switch_off_reports_it_once_with_the_count() {
    if std::env::var_os(CHILD).is_some() {
        drop_a_loop_that_cannot_switch_off();
        return;
    }
    let output = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "dropping_a_loop_that_cannot_switch_off_reports_it_once_with_the_count",
            "--nocapture",
        ])
        .env(CHILD, "1")
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let reports: Vec<&str> = stderr
        .lines()
        .filter(|line| line.contains("deactivate failed"))
        .collect();
    // The loop's three attempts and the system's three, in one line.
    assert_eq!(
        reports,
        [
            "dropping the hardware: switching it off failed 6 times: LiteBipedHardware: \
             deactivate failed (6 times); STILL ACTIVE: `LiteBipedHardware`"
        ],
        "{stderr}"
    );
}
