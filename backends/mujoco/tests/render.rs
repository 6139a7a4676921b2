//! Headless frames (feature `render`): lite_biped's scene rendered at home shows the whole robot
//! on the floor, two poses give two pictures, the component takes its frame when the simulated
//! clock reaches the requested time, and without an EGL driver the error says what to install.
#![cfg(feature = "render")]
#![allow(clippy::unwrap_used)] // test code: a panic is the failure report

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use backend_mujoco::render::{self, Frame, INSTALL_GL, RenderError, View};
use backend_mujoco::{FrameRequest, ModelSource, MujocoOptions, MujocoSystem};
use common::*;
use mujoco_rs::prelude::{MjData, MjModel};
use robot_core::hardware::{Component, ErrorKind, System};
use robots::{LiteBiped, LiteBipedState};

fn scene() -> PathBuf {
    robots::checked_in::workspace_root().join("robots/descriptions/lite_biped/lite_biped.scene.xml")
}

/// The scene at its `home` keyframe; with `red`, every geom of the robot (not the floor, which
/// belongs to the world body) is pure red, so its pixels can be told from floor and sky.
fn home(red: bool) -> MjData<Box<MjModel>> {
    let mut model = MjModel::from_xml(scene()).unwrap();
    if red {
        let bodies = model.geom_bodyid().to_vec();
        for (rgba, body) in model.geom_rgba_mut().iter_mut().zip(bodies) {
            if body != 0 {
                *rgba = [1.0, 0.0, 0.0, 1.0];
            }
        }
    }
    let mut data = MjData::try_new(Box::new(model)).unwrap();
    data.reset_keyframe(0).unwrap();
    data.forward();
    data
}

fn is_red(p: [u8; 3]) -> bool {
    p[0] > 80 && u16::from(p[1]) * 2 < u16::from(p[0]) && u16::from(p[2]) * 2 < u16::from(p[0])
}

/// Pixels of the frame whose colour `keep` accepts, as (x, y).
fn pixels(frame: &Frame, keep: impl Fn([u8; 3]) -> bool) -> Vec<(u32, u32)> {
    (0..frame.height())
        .flat_map(|y| (0..frame.width()).map(move |x| (x, y)))
        .filter(|&(x, y)| frame.pixel(x, y).is_some_and(&keep))
        .collect()
}

/// Standard deviation of the grey level over the frame.
fn grey_spread(frame: &Frame) -> f64 {
    let grey: Vec<f64> = frame
        .rgb()
        .chunks(3)
        .map(|p| p.iter().map(|&c| f64::from(c)).sum::<f64>() / 3.0)
        .collect();
    let mean = grey.iter().sum::<f64>() / grey.len() as f64;
    (grey.iter().map(|g| (g - mean).powi(2)).sum::<f64>() / grey.len() as f64).sqrt()
}

#[test]
fn the_scene_at_home_shows_the_whole_robot_on_the_floor() {
    let mut data = home(true);
    let started = Instant::now();
    let frame = render::frame(&mut data, &View::default()).unwrap();
    eprintln!("one 640x480 frame in {:?}", started.elapsed());
    assert_eq!((frame.width(), frame.height()), (640, 480));
    assert_eq!(frame.rgb().len(), 640 * 480 * 3);
    let spread = grey_spread(&frame);
    assert!(
        spread > 15.0,
        "a frame that is not blank: grey spread {spread:.1}"
    );

    let robot = pixels(&frame, is_red);
    let share = robot.len() as f64 / f64::from(640 * 480);
    assert!(
        share > 0.02,
        "the robot covers {:.2} % of the frame",
        share * 100.0
    );
    // The floor's checker is blue (0.2 0.3 0.4 and 0.1 0.2 0.3), lit: blue above red.
    let floor = pixels(&frame, |p| {
        u16::from(p[2]) > u16::from(p[0]) + 20 && p[2] > 40
    });
    assert!(floor.len() > 640 * 480 / 5, "floor pixels: {}", floor.len());

    // All of it in the frame: no robot pixel on the border, and head to feet it spans a good
    // part of the height.
    let (ys, xs): (Vec<u32>, Vec<u32>) = robot.iter().map(|&(x, y)| (y, x)).unzip();
    let (top, bottom) = (*ys.iter().min().unwrap(), *ys.iter().max().unwrap());
    let (left, right) = (*xs.iter().min().unwrap(), *xs.iter().max().unwrap());
    assert!(
        top > 0 && left > 0 && bottom < 479 && right < 639,
        "robot at x {left}..{right}, y {top}..{bottom}: cut off by the frame"
    );
    eprintln!(
        "robot: {:.1} % of the frame, x {left}..{right}, y {top}..{bottom}; floor {:.1} %; grey spread {spread:.1}",
        share * 100.0,
        floor.len() as f64 / f64::from(640 * 480) * 100.0
    );
    assert!(
        bottom - top > 480 / 3,
        "robot spans rows {top}..{bottom} only"
    );
}

#[test]
fn two_poses_give_two_frames_of_the_asked_size() {
    // Larger than MuJoCo's default offscreen buffer (640x480): the model's is enlarged.
    let view = View {
        width: 800,
        height: 600,
        ..View::default()
    };
    let mut data = home(false);
    let standing = render::frame(&mut data, &view).unwrap();
    assert_eq!((standing.width(), standing.height()), (800, 600));
    // Same frame again from the same state: rendering is deterministic here.
    assert_eq!(render::frame(&mut data, &view).unwrap(), standing);

    let model = data.model();
    let knees: Vec<usize> = ["left_knee_pitch", "right_knee_pitch"]
        .iter()
        .map(|name| {
            let joint = model
                .name_to_id(mujoco_rs::prelude::MjtObjBase::mjOBJ_JOINT, name)
                .unwrap();
            model.jnt_qposadr()[joint] as usize
        })
        .collect();
    for adr in knees {
        data.qpos_mut()[adr] = 1.2;
    }
    data.forward();
    let bent = render::frame(&mut data, &view).unwrap();
    let differing = standing
        .rgb()
        .chunks(3)
        .zip(bent.rgb().chunks(3))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(&x, &y)| x.abs_diff(y) > 30))
        .count();
    assert!(
        differing > 800 * 600 / 100,
        "bending the knees changed {differing} pixels"
    );
}

#[test]
fn a_frame_with_a_zero_side_is_refused() {
    let mut data = home(false);
    let view = View {
        width: 0,
        ..View::default()
    };
    let error = render::frame(&mut data, &view).unwrap_err();
    assert!(
        matches!(
            error,
            RenderError::Size {
                width: 0,
                height: 480
            }
        ),
        "{error:?}"
    );
    assert_eq!(
        error.to_string(),
        "a frame of 0x480 pixels: each side must be 1 to 4096"
    );
}

fn on_the_floor(frame: Option<FrameRequest>) -> System<LiteBiped> {
    let options = MujocoOptions {
        model: ModelSource::Scene,
        ..MujocoOptions::default()
    };
    let mut component = MujocoSystem::<LiteBiped>::new(options);
    if let Some(frame) = frame {
        component = component.with_frame(frame);
    }
    let component: Box<dyn Component<LiteBiped>> = Box::new(component);
    System::new(vec![component]).unwrap()
}

fn png_size(path: &Path) -> (u32, u32) {
    use mujoco_rs::renderer::png;
    let file = std::io::BufReader::new(std::fs::File::open(path).unwrap());
    let reader = png::Decoder::new(file).read_info().unwrap();
    (reader.info().width, reader.info().height)
}

#[test]
fn the_component_takes_its_frame_when_the_simulated_clock_reaches_the_time() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mid-run.png");
    let mut system = on_the_floor(Some(FrameRequest {
        at: Duration::from_millis(100),
        path: path.clone(),
        view: View {
            width: 320,
            height: 240,
            ..View::default()
        },
    }));
    system.configure().unwrap();
    assert!(
        !path.exists(),
        "checking the GL at configure writes nothing"
    );
    let mut state = LiteBipedState::default();
    let mut durations = Vec::new();
    // 100 ms is cycle 20 at 200 Hz.
    for k in 0..=40 {
        let started = Instant::now();
        system.read(clock(k), &mut state).unwrap();
        durations.push(started.elapsed());
        assert_eq!(path.exists(), k >= 20, "cycle {k}");
    }
    assert_eq!(png_size(&path), (320, 240));
    let counters = &system.report()[0].counters;
    assert_eq!(counters[0].name, "frames rendered");
    assert_eq!(counters[0].value, 1);
    assert_eq!(counters[1].name, "ms rendering the frame");
    assert!(counters[1].value > 0);
    // Only the frame's cycle runs long.
    let slowest = (0..durations.len()).max_by_key(|&k| durations[k]).unwrap();
    assert_eq!(slowest, 20, "{durations:?}");

    // Without a request: no counters, no frame.
    let mut plain = on_the_floor(None);
    plain.configure().unwrap();
    assert!(plain.report()[0].counters.is_empty());
}

/// In a child process of this test binary: EGL with no vendor library (what a machine without
/// `libegl-mesa0` has), so no driver can open a context.
const CHILD: &str = "BACKEND_MUJOCO_RENDER_TEST_CHILD";

#[test]
fn without_an_egl_driver_the_error_says_what_to_install() {
    if std::env::var_os(CHILD).is_some() {
        let error = render::frame(&mut home(false), &View::default()).unwrap_err();
        assert!(matches!(error, RenderError::NoGl { .. }), "{error:?}");
        assert!(error.to_string().contains(INSTALL_GL), "{error}");
        // The component refuses to configure, before any run.
        let mut system = on_the_floor(Some(FrameRequest {
            at: Duration::ZERO,
            path: PathBuf::from("never.png"),
            view: View::default(),
        }));
        let error = system.configure().unwrap_err();
        assert_eq!(error.kind(), ErrorKind::Unsupported, "{error}");
        assert!(error.message().contains(INSTALL_GL), "{error}");
        println!("child: {error}");
        return;
    }
    let output = Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "without_an_egl_driver_the_error_says_what_to_install",
            "--nocapture",
        ])
        .env(CHILD, "1")
        // glvnd's libEGL looks for vendor libraries (Mesa's 50_mesa.json) only here.
        .env("__EGL_VENDOR_LIBRARY_DIRS", "/nonexistent")
        .env_remove("__EGL_VENDOR_LIBRARY_FILENAMES")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout
            .contains("child: LiteBipedHardware: the frame at 0.000 s for `never.png`: no OpenGL"),
        "the child ran the checks: {stdout}"
    );
}
