//! Backend selection: the components that drive a robot on the backend a runtime configuration
//! (or a flag) names. Each backend crate plugs in here, so robot crates never match on backends.

use std::path::PathBuf;
use std::time::Duration;

use backend_mock::MockSystem;
use backend_robstride::component::{BusOptions, RobstrideBus};
use backend_robstride::transport::{self, Opened, Transport};
use backend_topic::{SensorTopic, SensorTopicOptions, TopicOptions, TopicSettings, TopicSystem};
use backend_witmotion::{Device, ImuOptions, WitmotionImu};
use robot_core::config::{RuntimeConfig, SIMULATED_IMU};
use robot_core::control_loop::Pacing;
use robot_core::hardware::Component;
use robot_core::model::{Sensor, SensorKind};
use robot_core::typed::RobotTypes;
use robot_core::{Backend, Robot};
use robstride_sim::SimBus;
use robstride_sim::robot::attach_actuators;
use robstride_sim::wall_clock::WallClock;
use ros2_dds::Participant;
use witmotion_protocol::BaudRate;
use witmotion_sim::{Settings, SimImu, SimOptions};

use crate::run::error::RunError;

/// Whether this build can drive `backend`: an error that says why not, before anything runs.
pub fn available(backend: Backend) -> Result<(), RunError> {
    match backend {
        Backend::Mock | Backend::Real | Backend::Topic => Ok(()),
        Backend::Mujoco if cfg!(feature = "mujoco") => Ok(()),
        Backend::Mujoco => Err(not_built(backend)),
    }
}

/// Whether `config` gives `backend` every device it needs for `robot`: on the real backend, a
/// topic (or `undriven: true`) for every force/torque and contact sensor, which it has no device
/// driver for, an interface for every bus and a serial port for every IMU. Checked before
/// anything is emitted or run.
pub fn interfaces_given(
    robot: &Robot,
    backend: Backend,
    config: Option<&RuntimeConfig>,
) -> Result<(), RunError> {
    if backend != Backend::Real {
        return Ok(());
    }
    if let Some(sensor) = (robot.sensors.iter())
        .filter(|s| s.kind != SensorKind::Imu)
        .find(|s| config.and_then(|c| c.sensor(&s.name)).is_none())
    {
        return Err(no_sensor_driver(sensor));
    }
    if let Some(bus) = robot
        .buses
        .iter()
        .find(|bus| config.and_then(|c| c.interface_of(&bus.name)).is_none())
    {
        return Err(RunError::Backend {
            backend,
            reason: format!(
                "bus `{}` has no interface: give one in the runtime configuration (`buses: {{ {}: can0 }}`, or `sim` for simulated actuators)",
                bus.name, bus.name
            ),
        });
    }
    match imu_sensors(robot).find(|sensor| config.and_then(|c| c.imu(&sensor.name)).is_none()) {
        None => Ok(()),
        Some(sensor) => Err(no_imu_port(&sensor.name)),
    }
}

fn imu_sensors(robot: &Robot) -> impl Iterator<Item = &Sensor> {
    robot.sensors_of(SensorKind::Imu).map(|(_, s)| s)
}

/// The real backend drives RobStride buses and WitMotion IMUs; a force/torque or contact sensor
/// has no device driver here: it is read from the topic its own driver publishes, or left
/// undriven on purpose, and a controller must not take its NaN for a reading unawares.
fn no_sensor_driver(sensor: &Sensor) -> RunError {
    let message = match sensor.kind {
        SensorKind::ForceTorque => "geometry_msgs/WrenchStamped",
        _ => "std_msgs/Bool",
    };
    RunError::Backend {
        backend: Backend::Real,
        reason: format!(
            "{kind} `{name}` (plugin `{plugin}`) has no device driver on the real backend, which \
             drives RobStride buses and WitMotion IMUs: read it from the topic its driver \
             publishes ({message}; `sensors: {{ {name}: {{ topic: /{name} }} }}` in the runtime \
             configuration), or run without it on purpose (`sensors: {{ {name}: {{ undriven: \
             true }} }}`: it reads NaN)",
            kind = sensor.kind.keyword(),
            name = sensor.name,
            plugin = sensor.plugin
        ),
    }
}

/// The force/torque and contact sensors the configuration leaves undriven on purpose.
pub fn undriven_sensors<'a>(robot: &'a Robot, config: Option<&RuntimeConfig>) -> Vec<&'a str> {
    (robot.sensors.iter())
        .filter(|s| s.kind != SensorKind::Imu)
        .filter(|s| {
            config
                .and_then(|c| c.sensor(&s.name))
                .is_some_and(|c| c.undriven)
        })
        .map(|s| s.name.as_ref())
        .collect()
}

/// Whether the real path reads any sensor from a topic: then it needs the run's participant.
pub fn reads_sensor_topics(config: Option<&RuntimeConfig>) -> bool {
    config.is_some_and(|c| c.sensors.values().any(|s| s.topic().is_some()))
}

/// A balance controller must never run blind: the real backend refuses an IMU it cannot read.
fn no_imu_port(sensor: &str) -> RunError {
    RunError::Backend {
        backend: Backend::Real,
        reason: format!(
            "IMU `{sensor}` has no serial port: give one in the runtime configuration (`imus: {{ {sensor}: {{ port: /dev/ttyUSB0, baud: 460800 }} }}`, or `imus: {{ {sensor}: {{ port: sim }} }}` for a simulated device)"
        ),
    }
}

/// What a run drives, for people (the run header, a plot's title): the backend's name, or on the
/// real backend what is simulated: `real path, simulated buses and IMU` when every bus and IMU
/// is on `sim`, `real path, simulated bus left_leg` when some are.
pub fn label(robot: &Robot, backend: Backend, config: Option<&RuntimeConfig>) -> String {
    if backend != Backend::Real {
        return backend.to_string();
    }
    let simulated: Vec<&str> = robot
        .buses
        .iter()
        .filter(|bus| {
            config
                .and_then(|c| c.interface_of(&bus.name))
                .is_some_and(|interface| {
                    matches!(
                        transport::TransportKind::of(interface),
                        transport::TransportKind::Sim(_)
                    )
                })
        })
        .map(|bus| bus.name.as_ref())
        .collect();
    let imu_count = imu_sensors(robot).count();
    let simulated_imus: Vec<&str> = imu_sensors(robot)
        .filter(|s| {
            config
                .and_then(|c| c.imu(&s.name))
                .is_some_and(|i| i.is_simulated())
        })
        .map(|s| s.name.as_ref())
        .collect();
    let mut parts = Vec::new();
    match simulated.len() {
        0 => {}
        n if n == robot.buses.len() => parts.push("simulated buses".to_string()),
        1 => parts.push(format!("simulated bus {}", simulated[0])),
        _ => parts.push(format!("simulated buses {}", simulated.join(", "))),
    }
    match simulated_imus.len() {
        0 => {}
        1 if imu_count == 1 => parts.push("IMU".to_string()),
        n if n == imu_count => parts.push("IMUs".to_string()),
        _ => parts.push(format!("IMU {}", simulated_imus.join(", "))),
    }
    match parts.len() {
        0 => backend.to_string(),
        // The IMU alone: say it is simulated.
        1 if simulated.is_empty() => format!("real path, simulated {}", parts[0]),
        _ => format!("real path, {}", parts.join(" and ")),
    }
}

/// A rendered frame of a run (`robot run --frame`): the PNG to write and the simulated time to
/// take it at. The component takes it itself, in the `read` of the first cycle at or after `at`;
/// that one cycle runs long (a 640x480 frame on a software rasterizer: 0.16 s in a release build),
/// no other pays for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameRequest {
    /// The PNG.
    pub path: PathBuf,
    /// Simulated time since the start of the run.
    pub at: Duration,
}

/// The counter `backend_mujoco::MujocoSystem` reports a taken frame by (0 or 1): plain text, not
/// a link, since that crate is only there with feature `mujoco`.
pub const FRAMES_RENDERED: &str = "frames rendered";
/// The counter of how long the frame took to render and write, ms.
pub const FRAME_MILLISECONDS: &str = "ms rendering the frame";

/// Whether this build can render a frame on `backend`: only MuJoCo renders, and only with
/// robot-runner's feature `render`.
pub fn check_frame(backend: Backend) -> Result<(), RunError> {
    let reason = match backend {
        Backend::Mujoco if cfg!(feature = "render") => return Ok(()),
        Backend::Mujoco => {
            "rendering a frame is not in this build: it is robot-runner's cargo feature `render` \
             (for the shipped `robot` tool: `cargo run -p robots --features mujoco-render -- run \
             --backend mujoco --frame frame.png`)"
        }
        _ => "only the MuJoCo simulation can be rendered: `--frame` needs `--backend mujoco`",
    };
    Err(RunError::Backend {
        backend,
        reason: reason.to_string(),
    })
}

/// How the loop is paced on `backend`: a simulation runs on its own clock, paced to wall-clock
/// time or, with `fast`, as fast as it steps; the real robot only on wall time (`fast` is refused
/// there). The mock runs on wall time unless `fast`.
pub fn pacing(backend: Backend, fast: bool) -> Result<Pacing, RunError> {
    match (backend, fast) {
        (Backend::Real, true) => Err(RunError::Backend {
            backend,
            reason: "real hardware runs on wall-clock time only: drop `--fast`".to_string(),
        }),
        (Backend::Topic, true) => Err(RunError::Backend {
            backend,
            reason: "what is on the other end of the topics runs on wall-clock time: drop `--fast`"
                .to_string(),
        }),
        (_, true) => Ok(Pacing::SimulatedFast),
        (Backend::Mujoco, false) => Ok(Pacing::Simulated),
        _ => Ok(Pacing::RealTime),
    }
}

/// The components that drive robot `R` on `backend` in a loop at `rate_hz`, honouring the
/// configuration's disabled joints and, on MuJoCo, its `mujoco.model`, taking `frame` when one
/// is asked for ([`check_frame`]); the topic backend's endpoints on `participant`, the run's.
pub fn components<R: RobotTypes>(
    backend: Backend,
    config: Option<&RuntimeConfig>,
    rate_hz: u32,
    frame: Option<&FrameRequest>,
    participant: Option<&Participant>,
) -> Result<Vec<Box<dyn Component<R>>>, RunError> {
    if frame.is_some() {
        check_frame(backend)?;
    }
    match backend {
        Backend::Mock => Ok(vec![Box::new(
            MockSystem::<R>::new().with_disabled_joints(&disabled_joints::<R>(config)),
        )]),
        Backend::Real => {
            let mut components = robstride::<R>(config, rate_hz)?;
            components.extend(imus::<R>(config)?);
            components.extend(sensor_topics::<R>(config, participant)?);
            Ok(components)
        }
        Backend::Topic => Ok(vec![topic::<R>(config, participant)?]),
        #[cfg(feature = "mujoco")]
        Backend::Mujoco => Ok(vec![mujoco::<R>(config, rate_hz, frame)]),
        #[cfg(not(feature = "mujoco"))]
        Backend::Mujoco => {
            let _ = rate_hz;
            Err(not_built(backend))
        }
    }
}

/// The whole robot in MuJoCo, the physics stepping five times a loop period at `rate_hz`: the
/// model the configuration's `mujoco.model` names, by default the emitted floor scene.
#[cfg(feature = "mujoco")]
fn mujoco<R: RobotTypes>(
    config: Option<&RuntimeConfig>,
    rate_hz: u32,
    frame: Option<&FrameRequest>,
) -> Box<dyn Component<R>> {
    use backend_mujoco::{ModelSource, MujocoOptions, MujocoSystem};
    use robot_core::config::MujocoModel;
    let model = config.map(RuntimeConfig::mujoco_model).unwrap_or_default();
    let options = MujocoOptions {
        model: match model {
            MujocoModel::Scene => ModelSource::Scene,
            MujocoModel::Stand => ModelSource::Stand,
            MujocoModel::File(path) => ModelSource::File(path),
        },
        period: Some(std::time::Duration::from_secs_f64(
            1.0 / f64::from(rate_hz.max(1)),
        )),
        disabled_joints: disabled_joints::<R>(config),
        stop_on_fall: config.is_some_and(|c| c.mujoco.stop_on_fall),
        ..MujocoOptions::default()
    };
    let system = MujocoSystem::<R>::new(options);
    #[cfg(feature = "render")]
    let system = match frame {
        Some(frame) => system.with_frame(backend_mujoco::FrameRequest {
            at: frame.at,
            path: frame.path.clone(),
            view: backend_mujoco::render::View::default(),
        }),
        None => system,
    };
    #[cfg(not(feature = "render"))]
    let _ = frame; // refused by `check_frame`
    Box::new(system)
}

/// One component per force/torque or contact sensor the configuration reads from a topic, on
/// the run's participant.
fn sensor_topics<R: RobotTypes>(
    config: Option<&RuntimeConfig>,
    participant: Option<&Participant>,
) -> Result<Vec<Box<dyn Component<R>>>, RunError> {
    let refused = |reason: String| RunError::Backend {
        backend: Backend::Real,
        reason,
    };
    let mut components: Vec<Box<dyn Component<R>>> = Vec::new();
    let Some(config) = config else {
        return Ok(components);
    };
    for (name, settings) in &config.sensors {
        let Some(topic) = settings.topic() else {
            continue;
        };
        let Some(participant) = participant else {
            return Err(refused(
                "reading sensors from topics needs the run's DDS participant".into(),
            ));
        };
        let topic = ros2_msg::TopicName::new(topic)
            .map_err(|e| refused(format!("sensors.{name}.topic: {e}")))?;
        let options = SensorTopicOptions {
            sensor: name.clone(),
            topic,
            stale_after: settings
                .stale_after_ms
                .map(|ms| Duration::from_secs_f64(ms / 1e3)),
            first_reading_timeout: backend_topic::FIRST_READING_TIMEOUT,
        };
        let component = SensorTopic::<R>::new(options, participant.clone())
            .map_err(|e| refused(format!("sensors.{name}: {e}")))?;
        components.push(Box::new(component));
    }
    Ok(components)
}

/// The simulated IMU's pseudo-terminal could not be made.
#[derive(Debug, thiserror::Error)]
#[error("cannot open a pseudo-terminal for the simulated IMU")]
struct SimulatedImuError {
    #[source]
    cause: std::io::Error,
}

/// The whole robot over two topics (and the IMU's), with the configuration's `topic:` settings
/// (upstream's defaults without a file).
fn topic<R: RobotTypes>(
    config: Option<&RuntimeConfig>,
    participant: Option<&Participant>,
) -> Result<Box<dyn Component<R>>, RunError> {
    let Some(participant) = participant else {
        return Err(RunError::Backend {
            backend: Backend::Topic,
            reason: "it needs the run's DDS participant".to_string(),
        });
    };
    let settings = config.map(|c| c.topic.clone()).unwrap_or_default();
    let options = TopicOptions::from_settings(&TopicSettings {
        commands_topic: &settings.joint_commands_topic,
        states_topic: &settings.joint_states_topic,
        threshold: settings.trigger_joint_command_threshold,
        sum_wrapped: settings.sum_wrapped_joint_states,
        stale_after_ms: settings.stale_after_ms,
        imu_topic: settings.imu_topic.as_deref(),
    })
    .map_err(|e| RunError::Backend {
        backend: Backend::Topic,
        reason: format!("topic.{e}"),
    })?;
    let options = TopicOptions {
        disabled_joints: disabled_joints::<R>(config),
        ..options
    };
    Ok(Box::new(TopicSystem::<R>::new(
        options,
        participant.clone(),
    )))
}

/// One RobStride component per bus, on the OS interface the configuration gives the bus: a
/// SocketCAN interface, or `sim` for an in-process bus with simulated actuators (on wall-clock
/// time). The interface is opened in each component's `on_configure`.
fn robstride<R: RobotTypes>(
    config: Option<&RuntimeConfig>,
    rate_hz: u32,
) -> Result<Vec<Box<dyn Component<R>>>, RunError> {
    let robot = R::DESCRIPTION;
    let mut components: Vec<Box<dyn Component<R>>> = Vec::new();
    interfaces_given(robot, Backend::Real, config)?;
    for bus in robot.buses.iter() {
        let Some(interface) = config.and_then(|c| c.interface_of(&bus.name)) else {
            continue; // refused above
        };
        let (interface, bus_name) = (interface.to_string(), bus.name.to_string());
        let owned_config = config.cloned();
        components.push(Box::new(RobstrideBus::<R>::new(
            &bus.name,
            config,
            BusOptions::at_rate(rate_hz),
            move || -> Result<Box<dyn Transport>, transport::TransportError> {
                match transport::open(&interface)? {
                    Opened::SocketCan(socket) => Ok(Box::new(socket)),
                    Opened::Simulated(name) => {
                        let sim = SimBus::new(&name);
                        attach_actuators(robot, &bus_name, owned_config.as_ref(), &sim);
                        Ok(Box::new(WallClock::new(sim)))
                    }
                }
            },
        )));
    }
    Ok(components)
}

/// One WitMotion component per IMU, on the serial port the configuration gives it, or on a
/// simulated device (`port: sim`) on a pseudo-terminal, made when the component is configured:
/// the component opens its slave path as it would `/dev/ttyUSB0`. An IMU without a port refuses
/// the run: a balance controller must never run blind.
fn imus<R: RobotTypes>(
    config: Option<&RuntimeConfig>,
) -> Result<Vec<Box<dyn Component<R>>>, RunError> {
    let robot = R::DESCRIPTION;
    let mut components: Vec<Box<dyn Component<R>>> = Vec::new();
    for sensor in imu_sensors(robot) {
        let Some(imu) = config.and_then(|c| c.imu(&sensor.name)) else {
            return Err(no_imu_port(&sensor.name));
        };
        let component = if imu.is_simulated() {
            let options =
                ImuOptions::from_config(imu, format!("{SIMULATED_IMU} (a pseudo-terminal)"));
            let (rate, baud) = (
                options.output_rate(),
                imu.baud().and_then(BaudRate::from_bits_per_second),
            );
            WitmotionImu::<R>::with_device(&sensor.name, options, move || {
                let (Some(rate), Some(baud)) = (rate, baud) else {
                    return Err("the simulated IMU has no such rate or baud".into());
                };
                let sim = SimImu::spawn(SimOptions::new(Settings::streaming(rate, baud)))
                    .map_err(|cause| SimulatedImuError { cause })?;
                Ok(Device {
                    path: sim.path().to_string(),
                    keep_alive: Some(Box::new(sim)),
                })
            })
        } else {
            WitmotionImu::<R>::new(&sensor.name, ImuOptions::from_config(imu, imu.port.clone()))
        };
        components.push(Box::new(component));
    }
    Ok(components)
}

fn not_built(backend: Backend) -> RunError {
    RunError::Backend {
        backend,
        reason: "not in this build: it is robot-runner's cargo feature `mujoco` (for the shipped \
                 `robot` tool: `cargo run -p robots --features mujoco -- run --backend mujoco`), \
                 which links MuJoCo: run `scripts/install-mujoco.sh` first"
            .to_string(),
    }
}

/// Indices (into [`robot_core::Robot::joints`]) of the joints the configuration disables.
pub fn disabled_joints<R: RobotTypes>(config: Option<&RuntimeConfig>) -> Vec<usize> {
    let robot = R::DESCRIPTION;
    match config {
        Some(config) => (0..robot.joints.len())
            .filter(|&i| !config.joint_enabled(&robot.joints[i].name))
            .collect(),
        None => Vec::new(),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn the_real_backend_refuses_a_sensor_it_has_no_driver_for() {
        let robot = robot_model::fixture::robot_with_foot_sensors();
        let error = interfaces_given(&robot, Backend::Real, None)
            .unwrap_err()
            .to_string();
        assert!(
            error.contains(
                "force_torque `ankle_ft` (plugin `test_devices/FootSensor`) has no device driver \
                 on the real backend, which drives RobStride buses and WitMotion IMUs: read it \
                 from the topic its driver publishes (geometry_msgs/WrenchStamped; `sensors: { \
                 ankle_ft: { topic: /ankle_ft } }` in the runtime configuration), or run without \
                 it on purpose (`sensors: { ankle_ft: { undriven: true } }`: it reads NaN)"
            ),
            "{error}"
        );
        for backend in [Backend::Mock, Backend::Mujoco, Backend::Topic] {
            assert!(interfaces_given(&robot, backend, None).is_ok(), "{backend}");
        }
    }

    #[test]
    fn a_sensor_read_from_a_topic_or_undriven_is_the_real_backends_no_more() {
        use robot_core::config::SensorConfig;
        let robot = robot_model::fixture::robot_with_foot_sensors();
        let sensor = |topic: Option<&str>, undriven| SensorConfig {
            topic: topic.map(str::to_string),
            undriven,
            stale_after_ms: None,
        };
        let mut config = RuntimeConfig {
            robot: "test_bot".into(),
            backend: Backend::Real,
            buses: [("front", "sim"), ("rear", "sim")]
                .map(|(b, i)| (b.to_string(), i.to_string()))
                .into(),
            joints: Default::default(),
            imus: [(
                "base_imu".to_string(),
                robot_core::config::ImuConfig {
                    port: "sim".into(),
                    baud: None,
                    rate_hz: None,
                    configure_device: false,
                    max_age_ms: None,
                },
            )]
            .into(),
            sensors: [(
                "ankle_ft".to_string(),
                sensor(Some("/ankle_ft/wrench"), false),
            )]
            .into(),
            mujoco: Default::default(),
            topic: Default::default(),
            ros: None,
        };
        // The contact sensor is still neither.
        let error = interfaces_given(&robot, Backend::Real, Some(&config)).unwrap_err();
        assert!(
            error.to_string().contains("contact `toe_contact`"),
            "{error}"
        );
        assert!(error.to_string().contains("std_msgs/Bool"), "{error}");
        config
            .sensors
            .insert("toe_contact".into(), sensor(None, true));
        interfaces_given(&robot, Backend::Real, Some(&config)).unwrap();
        assert_eq!(undriven_sensors(&robot, Some(&config)), ["toe_contact"]);
        assert!(reads_sensor_topics(Some(&config)));
        config.sensors.remove("ankle_ft");
        assert!(!reads_sensor_topics(Some(&config)));
    }

    #[test]
    fn only_mujoco_with_the_render_feature_takes_frames() {
        assert_eq!(
            check_frame(Backend::Mujoco).is_ok(),
            cfg!(feature = "render")
        );
        for backend in [Backend::Mock, Backend::Real] {
            let error = check_frame(backend).unwrap_err().to_string();
            assert!(
                error.contains("`--frame` needs `--backend mujoco`"),
                "{error}"
            );
        }
    }
}
