//! `robot run --backend topic` against the Cyclone DDS peer simulating lite_biped, in a network
//! namespace of the test's own: with the defaults it runs the squat and ends switched off; when
//! the peer stops publishing, the run ends with the stale-state error, everything off, the
//! statistics printed, exit status 1.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::process::Command;

fn joints() -> String {
    robots::LiteBiped::DESCRIPTION
        .joints
        .iter()
        .filter(|j| j.is_controlled() && j.mimic.is_none())
        .map(|j| j.name.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

fn robot_run(args: &[&str]) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_robot"))
        .current_dir(dir.path())
        .arg("run")
        .args(args)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.success(), text)
}

#[test]
fn robot_run_backend_topic_squats_on_the_peer_with_the_defaults() {
    topic_peer::isolated(|python| {
        let _peer = python
            .start("sim", &["--joints", &joints(), "--imu", "/imu/data"])
            .unwrap();
        let (ok, text) = robot_run(&["--backend", "topic", "--seconds", "2"]);
        assert!(ok, "{text}");
        assert!(text.contains("final lifecycle: inactive"), "{text}");
        assert!(
            text.contains("LiteBipedHardware: states received"),
            "{text}"
        );
    });
}

#[test]
fn the_peer_stopping_ends_robot_run_with_the_stale_state_error_and_the_statistics() {
    topic_peer::isolated(|python| {
        let _peer = python
            .start(
                "sim",
                &[
                    "--joints",
                    &joints(),
                    "--imu",
                    "/imu/data",
                    "--stop-after",
                    "1.5",
                ],
            )
            .unwrap();
        let (ok, text) = robot_run(&["--backend", "topic", "--seconds", "30"]);
        assert!(!ok, "{text}");
        assert!(
            text.contains("stale state: nothing valid on `/robot_joint_states`"),
            "{text}"
        );
        assert!(text.contains("final lifecycle: "), "{text}");
        assert!(!text.contains("STILL ACTIVE"), "{text}");
        // The statistics: the timing table is printed however the run ends.
        assert!(text.contains("overruns"), "{text}");
    });
}

#[test]
fn a_bad_topic_name_in_the_configuration_names_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.yaml");
    std::fs::write(
        &file,
        "robot: lite_biped\nbackend: topic\ntopic:\n  joint_commands_topic: \"/robot joint commands\"\n",
    )
    .unwrap();
    let (ok, text) = robot_run(&["--config", file.to_str().unwrap(), "--seconds", "1"]);
    assert!(!ok, "{text}");
    assert!(text.contains("topic.joint_commands_topic: "), "{text}");
}
