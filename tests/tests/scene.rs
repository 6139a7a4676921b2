//! The scenes (`<robot>.scene.xml`, `<robot>.stand.scene.xml`) through MuJoCo itself (PyPI
//! `mujoco` 3.17 from the project's `.venv`, see `scripts/install-tools.sh`): each compiles, its
//! `home` key puts the lowest collision geometry on the floor by MuJoCo's own geometry, and a
//! second of passive simulation from `home` leaves the robot standing on (not in) the floor, or
//! hanging still on the stand.
//!
//! Floor distances are MuJoCo's `mj_geomDistance` between each collision geom and the floor
//! plane, so nothing here reuses our kinematics: the check is independent of what emitted it.
//! A missing MuJoCo is a loud `SKIPPED` (a failure on CI), as in `tools.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::path::{Path, PathBuf};

use integration_tests::tools::{Tool, require};
use robot_core::{Robot, emit, kinematics};
use serde_json::Value;

/// Loads a scene, resets it to key `home` and simulates it passively (no control) for `seconds`;
/// reports the model, the floor distance at home, and the root body's and the floor distance's
/// extremes over the run.
const SIMULATE: &str = r#"
import json, sys, mujoco, numpy as np
m = mujoco.MjModel.from_xml_path(sys.argv[1]); d = mujoco.MjData(m)
seconds = float(sys.argv[2])
name = lambda kind, i: mujoco.mj_id2name(m, kind, i)
floor = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_GEOM, "floor")
colliding = [g for g in range(m.ngeom)
             if g != floor and m.geom_bodyid[g] != 0 and (m.geom_contype[g] or m.geom_conaffinity[g])]
fromto = np.zeros(6)
def clearance():
    # The signed distance of the nearest collision geom to the floor (negative: in it).
    return min((mujoco.mj_geomDistance(m, d, g, floor, 10.0, fromto) for g in colliding), default=None)
key = mujoco.mj_name2id(m, mujoco.mjtObj.mjOBJ_KEY, "home")
mujoco.mj_resetDataKeyframe(m, d, key)
mujoco.mj_forward(m, d)
root = 1  # the first body after the world: the robot's root link
start = d.xpos[root].copy()
home_clearance = clearance()
heights, clearances, moved = [], [], 0.0
for _ in range(int(round(seconds / m.opt.timestep))):
    mujoco.mj_step(m, d)
    heights.append(float(d.xpos[root][2]))
    moved = max(moved, float(np.linalg.norm(d.xpos[root] - start)))
    if colliding:
        clearances.append(clearance())
print(json.dumps({
    "version": mujoco.__version__,
    "nq": int(m.nq), "nkey": int(m.nkey), "nlight": int(m.nlight), "floor": floor >= 0,
    "free": bool((m.jnt_type == 0).any()),
    "joints": [name(mujoco.mjtObj.mjOBJ_JOINT, i) for i in range(m.njnt)],
    "actuators": int(m.nu), "sensors": int(m.nsensor),
    "root": name(mujoco.mjtObj.mjOBJ_BODY, root), "start": [float(v) for v in start],
    "home_clearance": home_clearance, "geoms": len(colliding),
    "height_min": min(heights), "height_max": max(heights), "height_end": heights[-1],
    "root_moved": moved,
    "clearance_min": min(clearances) if clearances else None,
    # The norm of every accelerometer's reading at the end.
    "accelerometers": [float(np.linalg.norm(d.sensordata[m.sensor_adr[i]:m.sensor_adr[i] + 3]))
                       for i in range(m.nsensor)
                       if m.sensor_type[i] == mujoco.mjtSensor.mjSENS_ACCELEROMETER],
}))
"#;

/// Every file of `robot`, written into a fresh folder (a scene includes the model beside it).
fn emitted(robot: &Robot) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().to_path_buf();
    for artifact in emit::all(robot).expect("emit") {
        std::fs::write(path.join(&artifact.file_name), artifact.contents).expect("write");
    }
    (dir, path)
}

/// [`SIMULATE`] on `scene`; `None` when MuJoCo is not installed (and this is not CI).
fn simulate(scene: &Path, seconds: f64) -> Option<Value> {
    let mut python = require(Tool::Mujoco)?;
    python
        .arg("-c")
        .arg(SIMULATE)
        .arg(scene)
        .arg(seconds.to_string());
    let output = python.output().expect("run python");
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "MuJoCo on {}: {text}{}",
        scene.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    Some(serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{text}: {e}")))
}

fn number(report: &Value, field: &str) -> f64 {
    report[field]
        .as_f64()
        .unwrap_or_else(|| panic!("{field} in {report}"))
}

/// The root body's height at key `home`.
fn start_height(report: &Value) -> f64 {
    report["start"][2]
        .as_f64()
        .unwrap_or_else(|| panic!("start in {report}"))
}

/// The scenes of `robot`: `(file, on the stand)`.
fn scenes(robot: &Robot) -> Vec<(String, bool)> {
    let mut files = vec![(format!("{}.scene.xml", robot.name), false)];
    if robot.floating_base {
        files.push((format!("{}.stand.scene.xml", robot.name), true));
    }
    files
}

/// The standing height of a shipped robot, from our kinematics.
fn standing_height(robot: &Robot) -> f64 {
    kinematics::standing_height(robot)
        .expect("a tree")
        .expect("collision geometry")
}

#[test]
fn every_scene_compiles_with_the_model_s_joints_a_floor_a_light_and_key_home() {
    for robot in robots::all() {
        let (_keep, dir) = emitted(robot);
        let Some(model) = simulate(&dir.join(format!("{}.mjcf.xml", robot.name)), 0.01) else {
            return;
        };
        for (file, on_stand) in scenes(robot) {
            let Some(scene) = simulate(&dir.join(&file), 0.01) else {
                return;
            };
            assert_eq!(scene["version"], "3.17.0");
            assert_eq!(
                (scene["nkey"].as_u64(), scene["nlight"].as_u64()),
                (Some(1), Some(1)),
                "{file}"
            );
            assert_eq!(scene["floor"], true, "{file}");
            assert_eq!(
                scene["root"],
                robot.root_link().expect("root").name.as_ref(),
                "{file}"
            );
            // The robot is all there: its joints, actuators and sensors; the stand holds the free
            // joint with a weld rather than removing it.
            let joints = |report: &Value| -> Vec<String> {
                (report["joints"].as_array().expect("joints").iter())
                    .filter_map(|j| j.as_str())
                    .filter(|j| *j != "floating_base_joint")
                    .map(String::from)
                    .collect()
            };
            assert_eq!(joints(&scene), joints(&model), "{file}");
            assert_eq!(scene["actuators"], model["actuators"], "{file}");
            assert_eq!(scene["sensors"], model["sensors"], "{file}");
            assert_eq!(scene["free"], robot.floating_base, "{file}");
            assert_eq!(on_stand, file.ends_with(".stand.scene.xml"));
        }
    }
}

#[test]
fn at_home_the_lowest_collision_geometry_is_exactly_on_the_floor() {
    for robot in robots::all() {
        let (_keep, dir) = emitted(robot);
        let Some(scene) = simulate(&dir.join(format!("{}.scene.xml", robot.name)), 0.01) else {
            return;
        };
        // MuJoCo's own distance from the nearest collision geom to the floor, at key home.
        let clearance = number(&scene, "home_clearance");
        assert!(clearance.abs() < 1e-6, "{}: {clearance} m", robot.name);
        if robot.floating_base {
            // The home height is minus the lowest collision point with the root at the origin.
            let height = start_height(&scene);
            let root_at_origin = {
                let poses = kinematics::link_poses(robot, &kinematics::initial_positions(robot));
                kinematics::lowest_collision_point(robot, &poses.expect("poses"))
            };
            let lowest = root_at_origin.point.expect("collision geometry").z;
            assert!(
                (height + lowest).abs() < 1e-6,
                "{}: {height} vs {lowest}",
                robot.name
            );
        }
    }
}

#[test]
fn on_the_floor_lite_biped_stands_a_second_without_sinking_into_it() {
    let robot = robots::LiteBiped::DESCRIPTION;
    let (_keep, dir) = emitted(robot);
    let Some(run) = simulate(&dir.join("lite_biped.scene.xml"), 1.0) else {
        return;
    };
    let home = standing_height(robot);
    let (low, high) = (number(&run, "height_min"), number(&run, "height_max"));
    // Measured with MuJoCo 3.17: the pelvis goes from 0.7750 m down to 0.7215 m in the second,
    // the limp legs slumping as the robot starts to tip forward (0.24 m by the end); the feet
    // press at most 0.55 mm into the floor. Without a floor it is at −4.93 m by then.
    assert!(
        low > home - 0.1 && high < home + 0.002,
        "pelvis between {low} and {high} m; home {home} m"
    );
    let clearance = number(&run, "clearance_min");
    assert!(
        clearance > -0.01,
        "a collision geom {clearance} m into the floor"
    );
}

#[test]
fn every_floating_base_stays_above_the_floor_and_every_fixed_base_stays_put() {
    for robot in robots::all() {
        let (_keep, dir) = emitted(robot);
        let Some(run) = simulate(&dir.join(format!("{}.scene.xml", robot.name)), 1.0) else {
            return;
        };
        if robot.floating_base {
            let low = number(&run, "height_min");
            assert!(low > 0.0, "{}: root at {low} m", robot.name);
        } else {
            assert_eq!(number(&run, "root_moved"), 0.0, "{}", robot.name);
        }
        if let Some(clearance) = run["clearance_min"].as_f64() {
            assert!(
                clearance > -0.01,
                "{}: {clearance} m into the floor",
                robot.name
            );
        }
    }
}

#[test]
fn on_the_stand_the_root_stays_put_the_imu_reads_gravity_and_the_feet_hang_free() {
    for robot in robots::all().into_iter().filter(|r| r.floating_base) {
        let (_keep, dir) = emitted(robot);
        let file = format!("{}.stand.scene.xml", robot.name);
        let Some(run) = simulate(&dir.join(&file), 1.0) else {
            return;
        };
        let height = start_height(&run);
        let expected = standing_height(robot) + emit::STAND_CLEARANCE;
        assert!(
            (height - expected).abs() < 1e-9,
            "{file}: root at {height} m"
        );
        // Held by a weld, a stiff constraint that gives a little as the limp legs swing: measured
        // for lite_biped 2.4 mm at most (sideways; 0.24 mm down).
        let moved = number(&run, "root_moved");
        assert!(moved < 0.005, "{file}: the root moved {moved} m");
        // The root still has its free joint, so an IMU on it reads gravity (a root without one
        // is static and its accelerometer reads zero): 9.808 m/s² measured at the end.
        for a in run["accelerometers"].as_array().expect("accelerometers") {
            let a = a.as_f64().expect("a norm");
            assert!((a - 9.81).abs() < 0.5, "{file}: |a| = {a} m/s²");
        }
        // Measured for lite_biped: the feet start 5 cm up and, swinging limp, come down to 1.8 cm
        // above the floor, never touching it.
        let clearance = number(&run, "clearance_min");
        assert!(clearance > 0.0, "{file}: a foot reaches {clearance} m");
    }
}
