//! A `--record` file read by readers that are not ours (PyPI `mcap` with `mcap-ros2-support`,
//! and `rosbags`, run by `mcap_readers.py` beside this file): a 1000-cycle lite_biped run on the
//! mock, recorded through `run_controller` as `robot run --record` records it; every message
//! decodes, each per-cycle topic has one message per cycle, and the joint positions and every
//! command value equal what the controller saw and commanded. A copy cut in half (what a killed
//! run leaves, less the summary) is read by `mcap`'s streaming reader up to the cut.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::path::Path;
use std::sync::{Arc, Mutex};

use integration_tests::tools::{Tool, require};
use robot_core::control_loop::{Controller, ControllerError, LoopOptions, Pacing, StopAfter};
use robot_core::hardware::Clock;
use robot_core::typed::RobotTypes;
use robot_core::{Backend, InterfaceKind, Values};
use robot_runner::{Hardware, RunRequest, run};
use robots::LiteBiped;
use robots::controllers::Squat;

// Several chunks of 768 KiB (about 4.7 kB a cycle before compression), so the cut copy has
// complete ones.
const CYCLES: u64 = 1000;

/// Per cycle: the state's joint positions in `/joint_states` order, and every command value in
/// `/joint_commands` order (joints in definition order, interfaces in `InterfaceKind::ALL`
/// order); NaN as `None` (JSON `null`).
#[derive(Default)]
struct Seen {
    positions: Vec<Vec<Option<f64>>>,
    commands: Vec<Vec<Option<f64>>>,
}

/// Squat, keeping what it saw and commanded.
struct Keeping {
    inner: Squat,
    seen: Arc<Mutex<Seen>>,
}

fn value(values: &[f64], slot: Option<usize>) -> Option<f64> {
    slot.and_then(|s| values.get(s))
        .copied()
        .filter(|v| !v.is_nan())
}

impl Controller<LiteBiped> for Keeping {
    fn update(
        &mut self,
        clock: Clock,
        state: &<LiteBiped as RobotTypes>::State,
        command: &mut <LiteBiped as RobotTypes>::Command,
    ) -> Result<(), ControllerError> {
        let result = self.inner.update(clock, state, command);
        let robot = LiteBiped::DESCRIPTION;
        let (state, command) = (state.as_slice(), command.as_slice());
        let positions = (0..robot.joints.len())
            .filter(|&i| robot.joints[i].kind.is_movable())
            .map(|i| {
                let slot = LiteBiped::STATE_LAYOUT.joint_slot(i, InterfaceKind::Position);
                value(state, slot)
            })
            .collect();
        let commands = (0..robot.joints.len())
            .flat_map(|i| InterfaceKind::ALL.map(|k| LiteBiped::COMMAND_LAYOUT.joint_slot(i, k)))
            .flatten()
            .map(|slot| value(command, Some(slot)))
            .collect();
        let mut seen = self.seen.lock().unwrap();
        seen.positions.push(positions);
        seen.commands.push(commands);
        result
    }
}

#[test]
fn readers_not_ours_decode_every_message_with_the_runs_values() {
    let Some(mut python) = require(Tool::McapReaders) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.mcap");
    let seen = Arc::new(Mutex::new(Seen::default()));
    let request = RunRequest {
        options: LoopOptions {
            activate: true,
            stop_after: StopAfter {
                cycles: Some(CYCLES),
                duration: None,
            },
            pacing: Pacing::SimulatedFast,
            ..LoopOptions::default()
        },
        record: Some(&path),
        ..RunRequest::on(Backend::Mock)
    };
    let controller = Keeping {
        inner: Squat::default(),
        seen: Arc::clone(&seen),
    };
    let mut progress = Vec::new();
    run::<LiteBiped, _>(controller, Hardware::Backend, &request, &mut progress).unwrap();
    let progress = String::from_utf8_lossy(&progress);
    assert!(
        progress.contains(&format!("recorded {CYCLES} cycles into")),
        "{progress}"
    );

    let seen = seen.lock().unwrap();
    assert_eq!(
        seen.positions.len() as u64,
        CYCLES,
        "every cycle was active"
    );
    // /diagnostics once a second of loop time from the first cycle: 1000 cycles at 200 Hz.
    let (diagnostics, every) = (5, 200);
    let expected = serde_json::json!({
        "cycles": CYCLES,
        "diagnostics": diagnostics,
        "diagnostics_every": every,
        "positions": seen.positions,
        "commands": seen.commands,
    });
    let expected_path = dir.path().join("expected.json");
    std::fs::write(&expected_path, expected.to_string()).unwrap();
    let whole = std::fs::read(&path).unwrap();
    let cut = dir.path().join("cut.mcap");
    std::fs::write(&cut, &whole[..whole.len() / 2]).unwrap();

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/mcap_readers.py");
    let output = python
        .arg(script)
        .args([&path, &expected_path, &cut])
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(output.status.success(), "{stdout}{stderr}");
    println!("{stdout}");
    assert!(
        stdout.contains("mcap: 4007 messages decoded, 1000 cycles, values equal"),
        "{stdout}"
    );
    assert!(
        stdout.contains("rosbags: 4007 messages decoded"),
        "{stdout}"
    );
}
