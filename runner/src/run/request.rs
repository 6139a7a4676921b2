//! What a run is asked to do: where its hardware comes from, and everything else about it.

use std::path::Path;

use robot_core::Backend;
use robot_core::config::RuntimeConfig;
use robot_core::control_loop::LoopOptions;
use robot_core::hardware::Component;
use robot_core::typed::RobotTypes;

use ros2_dds::Participant;

use super::error::RunError;
use crate::backends;
use crate::ros::RosRequest;

/// Where a run's hardware comes from.
pub enum Hardware<R: RobotTypes> {
    /// The components the request's backend selects ([`backends::components`]): the
    /// configuration's buses, calibration and disabled joints, on MuJoCo its model.
    Backend,
    /// Components of your own, standing for the request's backend (whose URDF the ROS 2 graph
    /// announces and a recording keeps).
    Components(Vec<Box<dyn Component<R>>>),
}

impl<R: RobotTypes> std::fmt::Debug for Hardware<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Hardware::Backend => f.write_str("Hardware::Backend"),
            Hardware::Components(components) => f
                .debug_tuple("Hardware::Components")
                .field(&components.len())
                .finish(),
        }
    }
}

/// What to run on: the backend, its configuration, the rate and the loop's options.
#[derive(Debug, Clone, Copy)]
pub struct RunRequest<'a> {
    /// The backend, already chosen from a flag or the configuration.
    pub backend: Backend,
    /// The runtime configuration (buses, calibration, disabled joints), if any.
    pub config: Option<&'a RuntimeConfig>,
    /// Loop rate, Hz; the robot's update rate when `None`. The only place a rate is given.
    pub rate_hz: Option<u32>,
    /// Activation, stop condition, real-time setup.
    pub options: LoopOptions,
    /// Where to draw commanded against measured position of every joint (`.svg` or `.png`),
    /// written however the run ends.
    pub plot: Option<&'a Path>,
    /// A rendered frame of the robot mid-run (MuJoCo with feature `render` only, see
    /// [`backends::check_frame`]).
    pub frame: Option<&'a backends::FrameRequest>,
    /// Publish the running robot into the ROS 2 graph ([`crate::ros`]).
    pub ros: Option<&'a RosRequest>,
    /// Record every cycle into this rosbag2 MCAP file ([`crate::record`]); a path that cannot
    /// be written is refused before the hardware is configured.
    pub record: Option<&'a Path>,
    /// The process's DDS participant, for a run that speaks ROS 2 (the graph, the topic
    /// backend) and a controller that does (the trajectory controller): one per process, made
    /// once and handed to each. A run that needs one and is given none joins one
    /// ([`RunRequest::participant()`]).
    pub participant: Option<&'a ros2_dds::Participant>,
    /// The controllers a controller manager starts active (`--controllers`), by their names in
    /// `controllers.yaml`; `None`: its defaults. Only the shipped `manager` controller reads it.
    pub controllers: Option<&'a [String]>,
}

impl RunRequest<'_> {
    /// A run on `backend` with everything else left out: no configuration, the robot's rate,
    /// the loop's default options, no plot, frame or ROS graph. Set what you need with struct
    /// update syntax (`RunRequest { options, ..RunRequest::on(Backend::Mock) }`), so code that
    /// builds requests keeps compiling when a field is added.
    pub fn on(backend: Backend) -> Self {
        RunRequest {
            backend,
            config: None,
            rate_hz: None,
            options: LoopOptions::default(),
            plot: None,
            frame: None,
            ros: None,
            record: None,
            participant: None,
            controllers: None,
        }
    }
}

impl RunRequest<'_> {
    /// Whether the run speaks ROS 2: into the graph, or over the topic backend.
    pub fn speaks_ros2(&self) -> bool {
        self.ros.is_some()
            || self.backend == Backend::Topic
            || (self.backend == Backend::Real && crate::backends::reads_sensor_topics(self.config))
    }

    /// The DDS domain of the run: the graph's (the `ros:` section's, else `ROS_DOMAIN_ID`'s),
    /// else the topic backend's `topic.domain_id`, else `ROS_DOMAIN_ID`, else 0. A run is one
    /// participant, in one domain: two that differ are refused.
    pub fn domain(&self) -> Result<u16, RunError> {
        let topic = self
            .config
            .and_then(|c| c.topic.domain_id)
            .filter(|_| self.backend == Backend::Topic);
        match (self.ros.map(|ros| ros.domain_id), topic) {
            (Some(graph), Some(topic)) if graph != topic => Err(RunError::Domain(format!(
                "the topic backend's domain is {topic} (topic.domain_id) and the ROS 2 graph's \
                 {graph}: a run is one DDS participant, in one domain"
            ))),
            (Some(domain), _) | (None, Some(domain)) => Ok(domain),
            (None, None) => crate::ros::domain_from_env().map_err(RunError::Domain),
        }
    }

    /// The process's participant for the run: the one it was given, else one joined in its
    /// [`domain`](Self::domain).
    pub fn participant(&self) -> Result<Participant, RunError> {
        match self.participant {
            Some(participant) => Ok(participant.clone()),
            None => Ok(Participant::join(self.domain()?)?),
        }
    }
}
