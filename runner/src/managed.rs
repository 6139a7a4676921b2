//! `robot run --controllers a,b`: the controllers `controllers.yaml` names, loaded into a
//! controller manager as `bringup.launch.py` spawns them: the broadcasters and the trajectory
//! controllers active, the forward command controllers inactive; with the flag, the
//! broadcasters and the controllers it names active and the rest inactive.
//!
//! The robot crate's own controllers (`App::controller`, `App::typed_controller`) are loaded
//! after them, inactive unless the flag names them: a typed one claims its joint set, any other
//! the whole robot.
//!
//! The broadcasters are listed as ros2_control lists them (claiming nothing); what they
//! publish is the ROS 2 graph's, which publishes a broadcaster's topic while it is active.

use std::sync::Arc;

use robot_core::control_loop::{Controller, ControllerError};
use robot_core::controller_manager::{
    Claims, ControllerManager, Managed, ManagerHandle, controller_manager,
};
use robot_core::controller_plan::{self, ControllerKind};
use robot_core::hardware::Clock;
use robot_core::typed::RobotTypes;
use ros2_dds::Participant;
use ros2_trajectory::{
    ForwardCommandController, ForwardStats, TrajectoryController, TrajectoryOptions,
    TrajectoryStats,
};

use crate::run::RunError;

/// Makes one of the robot crate's own controllers for the manager (inactive; the run says
/// whether it starts active).
pub(crate) type UserController<R> = Box<dyn Fn() -> Result<Managed<R>, String>>;

/// What the loaded controllers count, printed when the run ends.
#[derive(Debug, Default)]
pub(crate) struct ManagedStats {
    pub(crate) trajectories: Vec<(String, Arc<TrajectoryStats>)>,
    pub(crate) forwards: Vec<(String, Arc<ForwardStats>)>,
    /// The trajectory controllers' parameters that may be set while they run
    /// (`allow_partial_joints_goal`, `constraints.*`).
    pub(crate) live: Vec<ros2_trajectory::LiveSetting>,
}

impl std::fmt::Display for ManagedStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (name, stats) in &self.trajectories {
            writeln!(f, "{name}: {stats}")?;
        }
        for (name, stats) in &self.forwards {
            let get =
                |c: &std::sync::atomic::AtomicU64| c.load(std::sync::atomic::Ordering::Relaxed);
            writeln!(
                f,
                "{name}: commands: {} taken, {} refused (wrong length or not finite)",
                get(&stats.accepted),
                get(&stats.refused)
            )?;
        }
        Ok(())
    }
}

/// A broadcaster as the manager lists it: nothing to update (the graph publishes).
struct Broadcaster;

impl<R: RobotTypes> Controller<R> for Broadcaster {
    fn update(
        &mut self,
        _clock: Clock,
        _state: &R::State,
        _command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        Ok(())
    }
}

/// The controllers of robot `R`'s `controllers.yaml`, loaded, on `participant` in `namespace`;
/// `active`: the names to start active (`None`: the broadcasters and trajectory controllers).
pub(crate) fn load<R: RobotTypes>(
    participant: &Participant,
    namespace: &str,
    use_sim_time: bool,
    active: Option<&[String]>,
    own: &[UserController<R>],
) -> Result<(ControllerManager<R>, ManagerHandle, ManagedStats), RunError> {
    let robot = R::DESCRIPTION;
    let refused = |reason: String| RunError::Controllers(reason);
    let mut loaded: Vec<Managed<R>> = Vec::new();
    let mut stats = ManagedStats::default();
    let starts =
        |name: &str, default: bool| active.map_or(default, |a| a.iter().any(|n| n == name));
    for broadcaster in controller_plan::broadcasters(robot) {
        let kind = match broadcaster.sensor.map(|s| s.kind) {
            None => "joint_state_broadcaster/JointStateBroadcaster",
            Some(robot_core::model::SensorKind::Imu) => {
                "imu_sensor_broadcaster/IMUSensorBroadcaster"
            }
            Some(_) => "force_torque_sensor_broadcaster/ForceTorqueSensorBroadcaster",
        };
        // Always active: --controllers names the controllers that command.
        loaded.push(Managed {
            active: true,
            name: broadcaster.name,
            kind: kind.to_string(),
            claims: Claims::default(),
            reads: Vec::new(),
            controller: Box::new(Broadcaster),
        });
    }
    let len = R::COMMAND_LAYOUT.len();
    for planned in controller_plan::controllers(robot) {
        let (kind, claims, reads, controller): (_, _, Vec<String>, Box<dyn Controller<R>>) =
            match planned.kind {
                ControllerKind::Trajectory { state, .. } => {
                    let options = TrajectoryOptions {
                        namespace: namespace.to_string(),
                        use_sim_time,
                        ..TrajectoryOptions::default()
                    };
                    let mut controller = TrajectoryController::<R>::of_group(
                        options,
                        participant.clone(),
                        &planned.name,
                    )
                    .ok_or_else(|| refused(format!("no trajectory group `{}`", planned.name)))?;
                    // Now, not on the control thread when a switch activates it.
                    controller.connect().map_err(|e| refused(e.to_string()))?;
                    stats
                        .trajectories
                        .push((planned.name.clone(), controller.stats()));
                    stats.live.extend(controller.live_parameters());
                    let reads = (planned.joints.iter())
                        .flat_map(|j| state.iter().map(move |k| format!("{j}/{k}")))
                        .collect();
                    let claims = Claims::of_slots(controller.slots(), len).unwrap_or_default();
                    (
                        "joint_trajectory_controller/JointTrajectoryController",
                        claims,
                        reads,
                        Box::new(controller),
                    )
                }
                ControllerKind::Forward { interface } => {
                    let controller = ForwardCommandController::<R>::new(
                        &planned.name,
                        &planned.joints,
                        interface,
                        namespace,
                        participant,
                    )
                    .map_err(|e| refused(e.to_string()))?;
                    stats
                        .forwards
                        .push((planned.name.clone(), controller.stats()));
                    let claims = Claims::of_slots(controller.slots(), len).unwrap_or_default();
                    (
                        "forward_command_controller/ForwardCommandController",
                        claims,
                        Vec::new(),
                        Box::new(controller),
                    )
                }
            };
        let default = matches!(planned.kind, ControllerKind::Trajectory { .. });
        loaded.push(Managed {
            active: starts(&planned.name, default),
            name: planned.name,
            kind: kind.to_string(),
            claims,
            reads,
            controller,
        });
    }
    for make in own {
        let mut managed = make().map_err(&refused)?;
        managed.active = active.is_some_and(|a| a.contains(&managed.name));
        loaded.push(managed);
    }
    if let Some(active) = active {
        for name in active {
            if !loaded.iter().any(|c| c.name == *name) {
                let known: Vec<&str> = loaded.iter().map(|c| c.name.as_str()).collect();
                return Err(refused(format!(
                    "--controllers names `{name}`, which {}'s controllers.yaml does not: it has {}",
                    robot.name,
                    known.join(", ")
                )));
            }
        }
    }
    let (manager, handle) = controller_manager(loaded).map_err(|e| refused(e.to_string()))?;
    Ok((manager, handle, stats))
}
