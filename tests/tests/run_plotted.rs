//! `robot_runner::run` with a plot, on components of the test's own: the plot of a run that
//! failed is still written, up to the failure, and the run's own error is what the caller gets.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod support;

use robot_core::Backend;
use robot_core::control_loop::{LoopOptions, StopAfter};
use robot_runner::{Hardware, RunError, RunRequest, run};
use support::{Log, Outcome, Probe, Scripted};

#[test]
fn a_run_that_fails_is_plotted_up_to_the_failure() {
    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.read_at = Some((40, Outcome::Fail));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("failed.svg");
    let mut progress = Vec::new();
    let options = LoopOptions {
        activate: true,
        stop_after: StopAfter {
            cycles: Some(1000),
            duration: None,
        },
        ..LoopOptions::default()
    };
    let request = RunRequest {
        rate_hz: Some(1000),
        options,
        plot: Some(&path),
        ..RunRequest::on(Backend::Mock)
    };
    let result = run(
        Probe::default(),
        Hardware::Components(vec![Box::new(component)]),
        &request,
        &mut progress,
    );
    let Err(RunError::Loop(error)) = result else {
        panic!("the read failure, not {result:?}")
    };
    assert!(error.to_string().contains("read failed"), "{error}");
    let progress = String::from_utf8(progress).unwrap();
    assert!(
        progress.contains(&format!(
            "plotted the run up to its end into {}",
            path.display()
        )),
        "{progress}"
    );
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(
        svg.contains("lite_biped on mock: commanded (dashed)"),
        "{svg}"
    );
    // The probe commands the left knee to 1.0: its panel shows it.
    assert!(
        svg.contains("\nleft_knee_pitch [rad] (max |error| "),
        "{svg}"
    );
}

#[test]
fn a_run_that_never_became_active_says_there_is_nothing_to_plot() {
    let log = Log::default();
    let mut component = Scripted::whole(&log);
    component.configure = Outcome::Fail;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("never.png");
    let mut progress = Vec::new();
    let request = RunRequest {
        options: LoopOptions {
            activate: true,
            ..LoopOptions::default()
        },
        plot: Some(&path),
        ..RunRequest::on(Backend::Mock)
    };
    let result = run(
        Probe::default(),
        Hardware::Components(vec![Box::new(component)]),
        &request,
        &mut progress,
    );
    assert!(matches!(result, Err(RunError::Loop(_))), "{result:?}");
    let progress = String::from_utf8(progress).unwrap();
    assert!(
        progress.contains("nothing to plot: the loop recorded no active cycle"),
        "{progress}"
    );
    assert!(!path.exists());
}
