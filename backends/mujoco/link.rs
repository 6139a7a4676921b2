//! For build scripts: where MuJoCo's library is, and the run-time path to it.
//!
//! In this workspace `.cargo/config.toml` sets `ROBOT_MUJOCO_LIB_DIR` to `.tools/mujoco/lib`,
//! which `scripts/install-mujoco.sh` fills, and points mujoco-rs's own build script at a linker
//! script standing in for the library (`backends/mujoco/link/libmujoco.so`), so that mujoco-rs
//! never fails first and the error a user sees is [`link`]'s, naming the script. Outside the
//! workspace, `MUJOCO_DYNAMIC_LINK_DIR` alone (a folder with the real library) works too.
//!
//! mujoco-rs sets no run-time path, so without one every binary and test executable fails to
//! start with `libmujoco.so.3.17.0: cannot open shared object file`. `cargo::rustc-link-arg`
//! reaches only the targets of the package whose build script prints it, so each package with
//! binaries or tests that link MuJoCo includes this file in its build script (`#[path]`) and
//! calls [`link`].

use std::path::PathBuf;

/// Where the library is: this workspace's variable, else the one mujoco-rs reads.
const DIR_VARS: [&str; 2] = ["ROBOT_MUJOCO_LIB_DIR", "MUJOCO_DYNAMIC_LINK_DIR"];
/// The version mujoco-rs 7.0.0 wraps; it refuses any other at load.
const LIBRARY: &str = "libmujoco.so.3.17.0";
/// What installs it.
const SCRIPT: &str = "scripts/install-mujoco.sh";

/// Adds the library's folder to the link search path and this package's rpath, or prints a
/// build error that names the script to run when the library is not there.
pub fn link() {
    for var in DIR_VARS {
        println!("cargo::rerun-if-env-changed={var}");
    }
    match library_dir() {
        Ok(dir) => {
            println!("cargo::rerun-if-changed={}", dir.join(LIBRARY).display());
            println!("cargo::rustc-link-search=native={}", dir.display());
            println!("cargo::rustc-link-arg=-Wl,-rpath,{}", dir.display());
        }
        Err(why) => println!("cargo::error={why}"),
    }
}

fn library_dir() -> Result<PathBuf, String> {
    let hint = format!(
        "run `{SCRIPT}` in the robot-rs checkout (it puts {LIBRARY} into .tools/mujoco/lib), \
         or build without the MuJoCo backend (the `mujoco` cargo feature)"
    );
    let dir = DIR_VARS
        .iter()
        .find_map(std::env::var_os)
        .map(PathBuf::from)
        .ok_or_else(|| format!("MuJoCo: neither of {} is set; {hint}", DIR_VARS.join(", ")))?;
    if !dir.join(LIBRARY).is_file() {
        return Err(format!(
            "MuJoCo is not installed: {} has no {LIBRARY}; {hint}",
            dir.display()
        ));
    }
    Ok(dir)
}
