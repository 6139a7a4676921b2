//! `robot run --plot FILE`: one panel per joint of commanded against measured position, as SVG
//! or PNG, from the mock and from the simulated RobStride buses; a bad file name is a usage
//! error before anything runs.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use robot_core::InterfaceKind;
use robots::LiteBiped;

fn run(dir: &str, args: &[&str]) -> (Output, PathBuf) {
    let cwd = Path::new(env!("CARGO_TARGET_TMPDIR")).join(dir);
    let _ = std::fs::remove_dir_all(&cwd);
    std::fs::create_dir_all(&cwd).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_robot"))
        .arg("run")
        .args(args)
        .current_dir(&cwd)
        .output()
        .expect("run robot");
    (output, cwd)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn an_svg_has_a_panel_per_joint_and_says_what_it_shows() {
    let (output, cwd) = run("plot-svg", &["--seconds", "0.5", "--plot", "run.svg"]);
    let stdout = text(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", text(&output.stderr));
    assert!(
        stdout.contains("plotted every joint's position into run.svg"),
        "{stdout}"
    );
    let svg = std::fs::read_to_string(cwd.join("run.svg")).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..80.min(svg.len())]);
    assert!(svg.contains(
        "lite_biped on mock: commanded (dashed) vs measured (solid) position over time [s]"
    ));
    let moving = LiteBiped::DESCRIPTION.joints.iter().filter(|j| {
        j.state_interfaces
            .iter()
            .any(|i| i.kind == InterfaceKind::Position)
    });
    assert_eq!(moving.clone().count(), 14);
    for joint in moving {
        // Each panel says how far apart the lines ever were, which it cannot show where they
        // coincide (the mock mirrors every command).
        // Each panel gives its unit: lite_biped's joints are all revolute.
        assert!(
            svg.contains(&format!("\n{} [rad] (max |error| ", joint.name)),
            "no panel for {}",
            joint.name
        );
    }
    // A key to the lines, under the title.
    assert!(svg.contains("\nmeasured (solid)\n</text>"), "no legend");
    assert!(svg.contains("\ncommanded (dashed)\n</text>"), "no legend");
    // 4 columns by 4 rows of 360 × 200 px panels under a 56 px title and legend.
    assert!(
        svg.contains(r#"width="1440" height="856""#),
        "{}",
        &svg[..200]
    );
}

#[test]
fn a_png_of_the_simulated_robstride_buses() {
    let config = robots::checked_in::workspace_root().join("robots/configs/lite_biped.sim.yaml");
    let (output, cwd) = run(
        "plot-png",
        &[
            "--config",
            config.to_str().unwrap(),
            "--seconds",
            "0.5",
            "--plot",
            "out.PNG",
        ],
    );
    assert!(output.status.success(), "{}", text(&output.stderr));
    let png = std::fs::read(cwd.join("out.PNG")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((width, height), (1440, 856));
}

#[test]
fn a_file_that_is_neither_svg_nor_png_is_a_usage_error_before_the_run() {
    let (output, cwd) = run("plot-pdf", &["--seconds", "0.5", "--plot", "run.pdf"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        text(&output.stderr)
            .contains("cannot plot to `run.pdf`: give a file ending in .svg or .png"),
        "{}",
        text(&output.stderr)
    );
    assert!(!text(&output.stdout).contains("running"));
    assert!(!cwd.join("run.pdf").exists());
}
