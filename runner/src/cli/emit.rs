//! `emit`: a robot's descriptions into a folder, or its ROS 2 description package
//! (`--ros-package`), with the launch args' defaults from a runtime configuration and a prefix.

use robot_core::Robot;
use robot_core::config;
use robot_core::emit::ros_package::{self, PackageInfo};
use robot_core::emit::{LaunchDefaults, write_all_with};

use super::args::EmitArgs;
use super::output::config_failed;
use super::{App, descriptions};

impl App {
    pub(super) fn emit(&self, args: EmitArgs) -> Result<(), String> {
        if args.checked_in {
            let regenerate = self
                .checked_in
                .ok_or_else(|| format!("`{}` has no checked-in descriptions", self.name))?;
            for path in regenerate().map_err(|e| e.to_string())? {
                outln!("wrote {}", path.display());
            }
            warn_self_collision(&self.robots);
            return Ok(());
        }
        // A configuration is for one robot: `--robot`, or the one its `robot:` names.
        let (selected, defaults) = match (args.robot.as_deref(), args.config.as_deref()) {
            (robot, Some(path)) => {
                let robot = match robot {
                    Some(name) => self.find(name)?,
                    None => self.robot_of(path).map_err(config_failed)?,
                };
                let loaded = config::load(path, robot).map_err(config_failed)?;
                (vec![robot], descriptions::launch_defaults(&loaded))
            }
            (Some(name), None) => (vec![self.find(name)?], LaunchDefaults::default()),
            (None, None) => (self.robots.clone(), LaunchDefaults::default()),
        };
        let defaults = match args.prefix.as_deref() {
            Some(prefix) => defaults.with_prefix(prefix).map_err(|e| e.to_string())?,
            None => defaults,
        };
        if let Some(parent) = &args.ros_package {
            // Checked before anything is written, so a bad flag leaves no half-written package.
            let info = self.package_info(&args)?;
            for robot in &selected {
                let written = ros_package::write(robot, parent, &defaults, &info)
                    .map_err(|e| e.to_string())?;
                for path in written.paths {
                    outln!("wrote {}", path.display());
                }
            }
            warn_self_collision(&selected);
            return Ok(());
        }
        let out = args
            .out
            .or_else(|| descriptions::default_dir(self.descriptions_dir.as_deref()))
            .ok_or_else(|| "give the folder to write into with `--out`".to_string())?;
        for robot in &selected {
            let dir = out.join(robot.name.as_ref());
            let written = write_all_with(robot, &dir, &defaults).map_err(|e| e.to_string())?;
            for path in written.paths {
                outln!("wrote {}", path.display());
            }
        }
        warn_self_collision(&selected);
        Ok(())
    }

    /// `package.xml`'s facts: each flag, else the crate's Cargo metadata ([`App::cargo_package`]).
    fn package_info(&self, args: &EmitArgs) -> Result<PackageInfo, String> {
        let cargo = self.cargo_package;
        let version = args
            .package_version
            .as_deref()
            .or(cargo.map(|c| c.version))
            .unwrap_or_default();
        let authors = args
            .maintainer
            .as_deref()
            .or(cargo.map(|c| c.authors))
            .unwrap_or_default();
        let license = args
            .license
            .as_deref()
            .or(cargo.map(|c| c.license))
            .unwrap_or_default();
        let info = PackageInfo::from_cargo(version, authors, license);
        let info = match &args.description {
            Some(description) => info.and_then(|i| i.with_description(description)),
            None => info,
        };
        info.map_err(|e| e.to_string())
    }
}

/// On stderr, each robot's overlaps at the home pose and the shapes that check leaves out: the
/// descriptions hold the same collision shapes, whatever runs them.
fn warn_self_collision(robots: &[&Robot]) {
    for robot in robots {
        for warning in crate::self_collision::warnings(robot, None) {
            eprintln!("warning: {}: {warning}", robot.name);
        }
    }
}
