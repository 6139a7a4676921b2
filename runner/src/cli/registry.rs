//! The controllers an [`App`](super::App) can run: the ones its crate registers, and the ones
//! shipped with the runner for every robot (`trajectory`: joint_trajectory_controller's topic
//! interface, crate `ros2-trajectory`). A robot's default is the first of its own.

use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

use robot_core::Robot;
use robot_core::control_loop::Controller;
use robot_core::typed::RobotTypes;

use ros2_graph::LiveParameter;
use ros2_trajectory::{TrajectoryController, TrajectoryOptions};

use super::outcome::{Position, positions, sensor_readings};
use crate::managed::UserController;
use crate::ros::RosRequest;
use crate::run::{Hardware, RunError, RunRequest, run};

/// Runs one registered controller: builds it, runs it, returns the report and the final joint
/// positions.
pub(super) type RunFn = dyn Fn(&RunRequest<'_>, &mut dyn Write) -> Result<Finished, RunError>;

/// A run that ended as asked, in the terms the command line prints.
pub(super) struct Finished {
    pub(super) report: robot_core::control_loop::LoopReport,
    pub(super) positions: Vec<Position>,
    /// The force/torque and contact sensors' last readings, a line each.
    pub(super) sensors: Vec<String>,
}

pub(super) struct Registered {
    pub(super) robot: &'static Robot,
    pub(super) name: &'static str,
    pub(super) about: &'static str,
    /// Shipped with the runner rather than registered by the crate: never the default.
    pub(super) shipped: bool,
    pub(super) run: Box<RunFn>,
}

/// `make`'s controller of robot `R`, as `run --controller name` runs it.
pub(super) fn registered<R: RobotTypes, C: Controller<R> + 'static>(
    name: &'static str,
    about: &'static str,
    make: impl Fn() -> C + 'static,
) -> Registered {
    Registered {
        robot: R::DESCRIPTION,
        name,
        about,
        shipped: false,
        run: Box::new(move |request, progress| finish::<R, C>(make(), request, progress)),
    }
}

fn finish<R: RobotTypes, C: Controller<R> + 'static>(
    controller: C,
    request: &RunRequest<'_>,
    progress: &mut dyn Write,
) -> Result<Finished, RunError> {
    let outcome = run::<R, C>(controller, Hardware::Backend, request, progress)?;
    let state = outcome.state.as_ref();
    Ok(Finished {
        positions: state.map(positions::<R>).unwrap_or_default(),
        sensors: state.map(sensor_readings::<R>).unwrap_or_default(),
        report: outcome.report,
    })
}

/// The trajectory controller of robot `R`, on the run's participant (made here when the run
/// was given none, and then handed on: one per process), in the namespace of the run's `ros`
/// request (else none); what it received and refused is printed at the end.
pub(super) fn trajectory<R: RobotTypes>() -> Registered {
    Registered {
        robot: R::DESCRIPTION,
        name: "trajectory",
        about: "follows trajectory_msgs/JointTrajectory on /<group>_trajectory_controller/joint_trajectory",
        shipped: true,
        run: Box::new(|request, progress| {
            let participant = request.participant()?;
            let options = TrajectoryOptions {
                namespace: request
                    .ros
                    .map(|ros| ros.namespace.clone())
                    .unwrap_or_default(),
                use_sim_time: request.options.pacing.is_simulated(),
                ..TrajectoryOptions::default()
            };
            let controller = TrajectoryController::<R>::new(options, participant.clone());
            let stats = controller.stats();
            // Each controller's allow_partial_joints_goal and constraints may be set while it
            // runs.
            let ros = request.ros.map(|ros| RosRequest {
                live: (controller.live_parameters().into_iter())
                    .map(live)
                    .chain(ros.live.iter().cloned())
                    .collect(),
                ..ros.clone()
            });
            let request = RunRequest {
                participant: Some(&participant),
                ros: ros.as_ref(),
                ..*request
            };
            let finished = finish::<R, _>(controller, &request, progress);
            let _ = writeln!(progress, "{stats}");
            finished
        }),
    }
}

/// The controllers of robot `R`'s `controllers.yaml` under a controller manager
/// ([`crate::managed`]), on the run's participant; with `--ros`, `/controller_manager` serves
/// their services (`ros2 control`).
pub(super) fn manager<R: RobotTypes>(own: Rc<RefCell<Vec<UserController<R>>>>) -> Registered {
    Registered {
        robot: R::DESCRIPTION,
        name: "manager",
        about: "the controllers of controllers.yaml under a controller manager, switched with ros2 control",
        shipped: true,
        run: Box::new(move |request, progress| {
            let participant = request.participant()?;
            let namespace = (request.ros)
                .map(|ros| ros.namespace.clone())
                .unwrap_or_default();
            let (manager, handle, stats) = crate::managed::load::<R>(
                &participant,
                &namespace,
                request.options.pacing.is_simulated(),
                request.controllers,
                &own.borrow(),
            )?;
            let starting: Vec<String> = (handle.controllers().into_iter())
                .filter(|c| c.active)
                .map(|c| c.info.name)
                .collect();
            let _ = writeln!(progress, "active at start: {}", starting.join(", "));
            let ros = request.ros.map(|ros| RosRequest {
                live: (stats.live.iter().cloned())
                    .map(live)
                    .chain(ros.live.iter().cloned())
                    .collect(),
                controllers: Some(handle.clone()),
                ..ros.clone()
            });
            let request = RunRequest {
                participant: Some(&participant),
                ros: ros.as_ref(),
                ..*request
            };
            let finished = finish::<R, _>(manager, &request, progress);
            let _ = write!(progress, "{stats}");
            finished
        }),
    }
}

/// `robot`'s controllers, its own first (in registration order), then the shipped ones.
pub(super) fn of<'a>(controllers: &'a [Registered], robot: &Robot) -> Vec<&'a Registered> {
    let mut own: Vec<&Registered> = controllers
        .iter()
        .filter(|c| c.robot.name == robot.name)
        .collect();
    own.sort_by_key(|c| c.shipped); // stable: registration order within each
    own
}

/// A trajectory controller's live parameter as the graph serves it.
fn live(setting: ros2_trajectory::LiveSetting) -> LiveParameter {
    LiveParameter {
        node: setting.node,
        name: setting.name,
        apply: setting.apply,
    }
}
