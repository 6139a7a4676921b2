//! What the tests of the `robot` tool as a user runs it share (cli.rs, check.rs,
//! real_backend.rs): running it from the workspace's root or a scratch folder of its own, its
//! output as text, a file in the scratch folder, a final position as `run` prints it.
#![allow(dead_code)] // each test binary uses part of it
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use robots::checked_in::workspace_root;

pub fn robot(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(args)
        .current_dir(workspace_root())
        .output()
        .expect("run robot")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A file in this test binary's scratch folder.
pub fn scratch(name: &str, contents: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

/// Runs `robot` in a fresh, empty scratch folder of its own.
pub fn robot_in(dir: &str, args: &[&str]) -> (Output, PathBuf) {
    let cwd = Path::new(env!("CARGO_TARGET_TMPDIR")).join(dir);
    let _ = std::fs::remove_dir_all(&cwd);
    std::fs::create_dir_all(&cwd).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_robot"))
        .args(args)
        .current_dir(&cwd)
        .output()
        .expect("run robot");
    (output, cwd)
}

/// The final position of `joint` as `run` prints it.
pub fn final_position(stdout: &str, joint: &str) -> f64 {
    let block = stdout
        .split_once("final positions:")
        .expect("final positions")
        .1;
    let mut words = block.split_whitespace();
    words.find(|w| *w == joint).expect("joint in the block");
    words.next().expect("its value").parse().expect("a number")
}
