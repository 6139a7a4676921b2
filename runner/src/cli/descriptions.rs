//! Where `run` and `emit` write a robot's descriptions when no `--out` is given: one stable
//! folder per robot, `<target>/descriptions/<robot>/`, that a launch file or a colleague can
//! point at.
//!
//! The build script's copy lives in `OUT_DIR` (`<target>/debug/build/<crate>-<hash>/out/`),
//! where cargo wants it, but that hash changes with the features, the profile and `--target`.
//! The stable folder is beside the build's folders in cargo's target directory, found from the
//! running executable by what cargo keeps at its root (`CACHEDIR.TAG`, written when cargo makes
//! the folder, or `.rustc_info.json`, its cache of the compiler's version, there when another
//! tool made the folder first): the same folder whatever the features, the profile or
//! `--target`. An executable outside any target directory (installed with `cargo install`)
//! falls back on the build script's folder.

use std::path::{Path, PathBuf};

use robot_core::config::RuntimeConfig;
use robot_core::emit::LaunchDefaults;

/// Files cargo writes at the root of a target directory, and nowhere below it.
const TARGET_DIR_MARKERS: [&str; 2] = ["CACHEDIR.TAG", ".rustc_info.json"];

/// `<target>/descriptions`, for the target directory that holds `executable`, if it is in one.
pub(super) fn stable_dir(executable: &Path) -> Option<PathBuf> {
    executable
        .ancestors()
        .skip(1)
        .find(|dir| TARGET_DIR_MARKERS.iter().any(|m| dir.join(m).is_file()))
        .map(|target| target.join("descriptions"))
}

/// The folder `run` and `emit` write into without `--out`: the stable one when this program
/// runs from a target directory, else `built` (the build script's, if the app was told it).
pub(super) fn default_dir(built: Option<&Path>) -> Option<PathBuf> {
    std::env::current_exe()
        .ok()
        .and_then(|exe| stable_dir(&exe))
        .or_else(|| built.map(Path::to_path_buf))
}

/// What a runtime configuration gives the launch args of the emitted `.urdf.xacro` (`robot emit
/// --config`): each bus's interface, each IMU's port, the topic backend's topics, so one file
/// serves both the Rust runner and the ROS launch.
pub(super) fn launch_defaults(config: &RuntimeConfig) -> LaunchDefaults {
    LaunchDefaults {
        bus_interfaces: config.buses.clone(),
        imu_ports: config
            .imus
            .iter()
            .map(|(name, imu)| (name.clone(), imu.port.clone()))
            .collect(),
        topics: Some((
            config.topic.joint_commands_topic.clone(),
            config.topic.joint_states_topic.clone(),
        )),
        prefix: None,
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_stable_folder_is_beside_the_builds_whatever_the_profile_or_target() {
        let root = tempfile::tempdir().unwrap();
        let target = root.path().join("target");
        std::fs::create_dir_all(target.join("x86_64-apple-darwin/release")).unwrap();
        std::fs::create_dir_all(target.join("debug")).unwrap();
        // Either file marks the root: `CACHEDIR.TAG` is missing when another tool (Miri, which
        // builds in `target/miri`) made the folder before cargo did.
        for marker in TARGET_DIR_MARKERS {
            std::fs::write(target.join(marker), "").unwrap();
            for exe in ["debug/robot", "x86_64-apple-darwin/release/robot"] {
                assert_eq!(
                    stable_dir(&target.join(exe)),
                    Some(target.join("descriptions")),
                    "{exe}"
                );
            }
            std::fs::remove_file(target.join(marker)).unwrap();
        }
        assert_eq!(stable_dir(&root.path().join("bin/robot")), None);
    }
}
