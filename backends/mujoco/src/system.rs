//! [`MujocoSystem`]: the component.

use std::marker::PhantomData;
use std::time::Duration;

use mujoco_rs::error::MjDataError;
use mujoco_rs::prelude::{MjData, MjModel, MjtObjBase, MjtState};
use robot_runtime::hardware::{
    Claims, Clock, Component, Counters, ErrorKind, HardwareError, Identity,
};
use robot_runtime::kinematics::{self, Transform};
use robot_runtime::typed::Slot;
use robot_runtime::{InterfaceKind, Mit, RobotTypes, Values};

use crate::fall::FallWatch;
use crate::law;
use crate::model;
use crate::options::{ModelSource, MujocoOptions};
use crate::plan::{self, Plan};

/// The keyframe the initial state is taken from when the model has one.
pub const HOME_KEYFRAME: &str = "home";

/// Most physics steps one `read` takes, in loop periods: a clock that jumps further (a stalled
/// wall clock) leaves the simulation behind rather than blocking the control thread.
const MAX_CATCH_UP_PERIODS: u64 = 10;

/// The whole robot in MuJoCo, as `mujoco_ros2_control/MujocoSystem` drives it: every controlled
/// joint and every IMU, in one `<Robot>Hardware` block. See the [crate docs](crate).
pub struct MujocoSystem<R: RobotTypes> {
    identity: Identity,
    options: MujocoOptions,
    period: Duration,
    timestep: f64,
    sim: Option<Sim>,
    plan: Plan,
    /// Per planned joint, what `write` last stored: [`Mit::NONE`], zero torque, while inactive
    /// (before the first activation, and from `on_deactivate` on), so whether the law acts needs
    /// no flag of its own.
    targets: Vec<Mit>,
    /// Per planned joint, the torque of the current physics step (a buffer, so no step allocates).
    torques: Vec<f64>,
    /// The floating base's home pose and the first fall seen ([`crate::fall`]).
    fall: Option<FallWatch>,
    /// Where the floating base's pose is in `qpos`, when there is one.
    base_qpos: Option<usize>,
    /// The robot's bodies that interpenetrate at the home pose ([`crate::overlap`]).
    overlaps: Vec<crate::overlap::Overlap>,
    /// The frame to take mid-run, if one was asked for ([`MujocoSystem::with_frame`]).
    #[cfg(feature = "render")]
    frame: Option<crate::frame::Pending>,
    _robot: PhantomData<fn() -> R>,
}

/// What [`MujocoSystem::snapshot`] saves and [`MujocoSystem::restore`] puts back: the simulation
/// at a cycle boundary, to run the same cycles again from (benchmarks, tests).
///
/// It holds MuJoCo's integration state ([`Snapshot::SPEC`]: time, `qpos`, `qvel`, `act`, the
/// solver's warm start, `ctrl`, applied forces, mocap and equality flags: everything the next
/// `mj_step` depends on), the physics steps taken, and what `write` last stored. The loop's own
/// state (its clock, the controller) is the caller's to rewind.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    state: Box<[f64]>,
    steps: u64,
    targets: Vec<Mit>,
}

impl Snapshot {
    /// The `mjtState` components saved: `mjSTATE_INTEGRATION`.
    pub const SPEC: u32 = MjtState::mjSTATE_INTEGRATION as u32;

    /// MuJoCo's state as `mj_getState` wrote it with [`Snapshot::SPEC`], for `mj_setState` on
    /// another `MjData` of the same model (the bench's bare `mj_step` side).
    pub fn mujoco_state(&self) -> &[f64] {
        &self.state
    }

    /// The physics steps taken since the first read when it was saved.
    pub fn steps(&self) -> u64 {
        self.steps
    }
}

/// The loaded simulation.
struct Sim {
    data: MjData<Box<MjModel>>,
    /// The loop clock's time at the first read after configuring: simulated time zero.
    epoch: Option<Duration>,
    /// Physics steps taken since then.
    steps: u64,
}

impl<R: RobotTypes> std::fmt::Debug for MujocoSystem<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.identity
            .debug(f, "MujocoSystem")
            .field("options", &self.options)
            .field("timestep", &self.timestep)
            .finish_non_exhaustive()
    }
}

impl<R: RobotTypes> Default for MujocoSystem<R> {
    fn default() -> Self {
        Self::new(MujocoOptions::default())
    }
}

impl<R: RobotTypes> MujocoSystem<R> {
    /// A component with these options; nothing is loaded before `on_configure`.
    pub fn new(options: MujocoOptions) -> Self {
        let robot = R::DESCRIPTION;
        let period = options
            .period
            .unwrap_or_else(|| Duration::from_secs_f64(1.0 / f64::from(robot.update_rate.max(1))));
        let timestep = period.as_secs_f64() / f64::from(options.substeps.max(1));
        MujocoSystem {
            identity: Identity::new(
                format!("{}Hardware", robot.type_name),
                Claims::whole_robot(robot, 0..robot.sensors.len()),
            ),
            options,
            period,
            timestep,
            sim: None,
            plan: Plan::default(),
            targets: Vec::new(),
            torques: Vec::new(),
            fall: None,
            base_qpos: None,
            overlaps: Vec::new(),
            #[cfg(feature = "render")]
            frame: None,
            _robot: PhantomData,
        }
    }

    /// This component, taking one frame of the robot (a PNG) when the simulated clock reaches
    /// `request.at` (feature `render`; see [`crate::frame`] for what that cycle costs).
    /// `on_configure` then also checks that headless OpenGL works, failing before the run with
    /// what to install when it does not.
    #[cfg(feature = "render")]
    pub fn with_frame(mut self, request: crate::frame::FrameRequest) -> Self {
        self.frame = Some(crate::frame::Pending::new(request, self.timestep));
        self
    }

    /// The physics timestep, s: the loop period divided by the substeps.
    pub fn timestep(&self) -> f64 {
        self.timestep
    }

    /// The options in force.
    pub fn options(&self) -> &MujocoOptions {
        &self.options
    }

    /// Simulated time since the first read after configuring (zero before).
    pub fn simulated_time(&self) -> Duration {
        self.sim.as_ref().map_or(Duration::ZERO, |s| {
            Duration::from_secs_f64(s.steps as f64 * self.timestep)
        })
    }

    /// The MuJoCo data, for inspection (tests, pictures): `None` before `on_configure`.
    pub fn data(&self) -> Option<&MjData<Box<MjModel>>> {
        self.sim.as_ref().map(|s| &s.data)
    }

    /// The simulation as it is now, to come back to with [`MujocoSystem::restore`]; `None`
    /// before `on_configure`. Take it between cycles (after a `write`). A hook for benchmarks
    /// and tests: a loop never needs it.
    pub fn snapshot(&self) -> Option<Snapshot> {
        self.sim.as_ref().map(|sim| Snapshot {
            state: sim.data.state(Snapshot::SPEC),
            steps: sim.steps,
            targets: self.targets.clone(),
        })
    }

    /// Puts the simulation back where `snapshot` was taken: MuJoCo's state (then `mj_forward`,
    /// so sensors and forces match it), the steps taken, the stored targets and whether the law
    /// is applied. The next `read` with the clock the snapshot was taken at steps nothing; one
    /// period later, one period's steps, exactly as the first time. The lifecycle the loop sees
    /// does not change. A hook for benchmarks and tests.
    ///
    /// Fails when not configured or when the snapshot is of another model.
    pub fn restore(&mut self, snapshot: &Snapshot) -> Result<(), HardwareError> {
        let Some(sim) = self.sim.as_mut() else {
            return Err(self.identity.error(ErrorKind::Lifecycle, "not configured"));
        };
        if snapshot.targets.len() != self.targets.len()
            || snapshot.state.len() != sim.data.model().state_size(Snapshot::SPEC)
        {
            return Err(self
                .identity
                .error(ErrorKind::Other, "the snapshot is of another model"));
        }
        sim.data
            .set_state(&snapshot.state, Snapshot::SPEC)
            .map_err(|e| {
                self.identity
                    .error(ErrorKind::Other, "restoring a snapshot")
                    .caused_by(e)
            })?;
        sim.data.forward();
        sim.steps = snapshot.steps;
        self.targets.clone_from(&snapshot.targets);
        Ok(())
    }

    /// One physics step: the law from the state as it is now, then `mj_step`.
    fn step(sim: &mut Sim, plan: &Plan, targets: &[Mit], torques: &mut [f64]) {
        let (qpos, qvel) = (sim.data.qpos(), sim.data.qvel());
        for ((joint, target), torque) in plan.joints.iter().zip(targets).zip(torques.iter_mut()) {
            *torque = match joint.drive {
                Some(drive) => law::torque(target, qpos[joint.qpos], qvel[joint.dof], drive.limit),
                None => 0.0,
            };
        }
        let ctrl = sim.data.ctrl_mut();
        for (joint, &torque) in plan.joints.iter().zip(torques.iter()) {
            if let Some(motor) = joint.motor {
                ctrl[motor.ctrl] = torque / motor.gear;
            }
        }
        sim.data.step();
        sim.steps += 1;
    }

    /// Zero in every motor's `ctrl`: nothing applied from here on.
    fn release(&mut self) {
        if let Some(sim) = &mut self.sim {
            let ctrl = sim.data.ctrl_mut();
            for motor in self.plan.joints.iter().filter_map(|j| j.motor) {
                ctrl[motor.ctrl] = 0.0;
            }
        }
    }

    /// The initial state: the `home` keyframe when the model has one, else each joint's declared
    /// initial position (the model's reference pose where none is declared).
    fn initial_state(&self, data: &mut MjData<Box<MjModel>>) -> Result<(), MjDataError> {
        let home = data
            .model()
            .name_to_id(MjtObjBase::mjOBJ_KEY, HOME_KEYFRAME);
        match home {
            Some(key) => data.reset_keyframe(key)?,
            None => {
                data.reset();
                let robot = R::DESCRIPTION;
                let qpos = data.qpos_mut();
                for joint in &self.plan.joints {
                    let initial = robot.joints[joint.joint]
                        .state_interface(InterfaceKind::Position)
                        .and_then(|i| i.initial_value);
                    if let Some(value) = initial {
                        qpos[joint.qpos] = value;
                    }
                }
            }
        }
        // Positions, sensors and forces of the initial state, for the first read.
        data.forward();
        Ok(())
    }
}

impl<R: RobotTypes> Component<R> for MujocoSystem<R> {
    fn identity(&self) -> &Identity {
        &self.identity
    }

    /// Refuses interfaces MuJoCo has nothing for (`current`, `temperature`, commanded
    /// `acceleration`), naming each, and a period the substeps cannot divide.
    fn on_init(&mut self) -> Result<(), HardwareError> {
        if self.options.substeps == 0 {
            return Err(self
                .identity
                .error(ErrorKind::Unsupported, "`substeps` must be at least 1"));
        }
        if self.period.is_zero() {
            return Err(self
                .identity
                .error(ErrorKind::Unsupported, "the loop period must be positive"));
        }
        let unsupported = plan::unsupported(R::DESCRIPTION, &self.identity.claims().joints);
        if !unsupported.is_empty() {
            return Err(self.identity.error(
                ErrorKind::Unsupported,
                format!(
                    "MuJoCo backs the interfaces position, velocity, effort (and acceleration as \
                     a state), not {}",
                    unsupported.join(", ")
                ),
            ));
        }
        Ok(())
    }

    /// Loads and compiles the model, maps every claimed joint, its motor and every IMU sensor by
    /// name (one error naming everything missing), and puts the robot in its initial state.
    fn on_configure(&mut self) -> Result<(), HardwareError> {
        self.sim = None;
        let robot = R::DESCRIPTION;
        let step = Duration::from_secs_f64(self.timestep);
        let loaded = model::load(robot, &self.options.model, step).map_err(|e| {
            self.identity
                .error(ErrorKind::Io, "loading its model")
                .caused_by(e)
        })?;
        self.plan = plan::resolve(
            robot,
            &loaded.model,
            &R::STATE_LAYOUT,
            &R::COMMAND_LAYOUT,
            &self.identity.claims().joints,
            &self.options.disabled_joints,
            &self.options.servo,
        )
        .map_err(|missing| {
            let hint = match self.options.model {
                ModelSource::Scene | ModelSource::Stand => "",
                ModelSource::File(_) => {
                    " (names must be the definition's, as the emitted MJCF has them)"
                }
            };
            self.identity.error(
                ErrorKind::Unsupported,
                format!(
                    "{} lacks what {} needs{hint}: {}",
                    loaded.origin,
                    robot.name,
                    missing.join(", ")
                ),
            )
        })?;
        let origin = loaded.origin;
        let mut data = MjData::try_new(Box::new(loaded.model)).map_err(|e| {
            self.identity
                .error(ErrorKind::Other, origin.clone())
                .caused_by(e)
        })?;
        self.initial_state(&mut data).map_err(|e| {
            self.identity
                .error(
                    ErrorKind::Other,
                    format!("{origin}: keyframe `{HOME_KEYFRAME}`"),
                )
                .caused_by(e)
        })?;
        #[cfg(feature = "render")]
        if let Some(frame) = &mut self.frame {
            frame.reset();
            if let Err(e) = frame.check(&mut data) {
                return Err(self.identity.error(ErrorKind::Unsupported, e));
            }
        }
        self.targets = vec![Mit::NONE; self.plan.joints.len()];
        self.torques = vec![0.0; self.plan.joints.len()];
        self.fall = FallWatch::new(&data);
        self.base_qpos = crate::fall::free_joint_qpos(&data);
        self.overlaps = crate::overlap::overlaps(&data);
        self.sim = Some(Sim {
            data,
            epoch: None,
            steps: 0,
        });
        Ok(())
    }

    fn on_cleanup(&mut self) -> Result<(), HardwareError> {
        self.sim = None;
        Ok(())
    }

    /// Takes the seeded (safe) commands as the first targets, then applies the law from the
    /// next physics step on.
    fn on_activate(
        &mut self,
        _state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), HardwareError> {
        if self.sim.is_none() {
            return Err(self.identity.error(ErrorKind::Lifecycle, "not configured"));
        }
        // Stores every target or none (`write` checks them all first).
        self.write(Clock::default(), command)
    }

    /// No torque from here on: the targets are forgotten and every motor's control is zero.
    fn on_deactivate(&mut self) -> Result<(), HardwareError> {
        self.targets.fill(Mit::NONE);
        self.release();
        Ok(())
    }

    /// Steps the physics up to the clock's time (`period / timestep` steps a cycle in lock-step),
    /// the MIT law applied before each step while active and zero torque while inactive, then
    /// fills positions, velocities, applied efforts and the IMUs.
    fn read(&mut self, clock: Clock, state: &mut R::State) -> Result<(), HardwareError> {
        let Some(sim) = self.sim.as_mut() else {
            return Err(self.identity.error(ErrorKind::Lifecycle, "not configured"));
        };
        let epoch = *sim.epoch.get_or_insert(clock.time);
        let elapsed = clock.time.saturating_sub(epoch).as_secs_f64();
        let due = (elapsed / self.timestep).round() as u64;
        let per_period = (self.period.as_secs_f64() / self.timestep).round() as u64;
        let steps = due
            .saturating_sub(sim.steps)
            .min(MAX_CATCH_UP_PERIODS * per_period.max(1));
        for _ in 0..steps {
            Self::step(sim, &self.plan, &self.targets, &mut self.torques);
        }
        let out = state.as_mut_slice();
        if let Some(watch) = &mut self.fall
            && let Some(fall) = watch.check(
                &sim.data,
                Duration::from_secs_f64(sim.steps as f64 * self.timestep),
            )
            && self.options.stop_on_fall
        {
            return Err(self.identity.error(ErrorKind::Other, fall.describe()));
        }
        let data = &sim.data;
        let (qpos, qvel, qacc) = (data.qpos(), data.qvel(), data.qacc());
        let force = data.actuator_force();
        for joint in &self.plan.joints {
            let pairs = [
                (joint.position_state, qpos[joint.qpos]),
                (joint.velocity_state, qvel[joint.dof]),
                (joint.acceleration_state, qacc[joint.dof]),
                (
                    joint.effort_state,
                    joint.motor.map_or(0.0, |m| force[m.force] * m.gear),
                ),
            ];
            for (slot, value) in pairs {
                if let Some(slot) = slot {
                    out[slot] = value;
                }
            }
        }
        let sensors = data.sensordata();
        for imu in &self.plan.imus {
            let accel = match imu.static_site {
                Some(site) => specific_force_at_rest(data, site),
                None => [
                    sensors[imu.accel],
                    sensors[imu.accel + 1],
                    sensors[imu.accel + 2],
                ],
            };
            let q = &sensors[imu.quat..imu.quat + 4];
            // MuJoCo orders w, x, y, z; ros2_control x, y, z, w.
            let values = [
                q[1],
                q[2],
                q[3],
                q[0],
                sensors[imu.gyro],
                sensors[imu.gyro + 1],
                sensors[imu.gyro + 2],
                accel[0],
                accel[1],
                accel[2],
            ];
            out[imu.slot..imu.slot + 10].copy_from_slice(&values);
        }
        for wrench in &self.plan.wrenches {
            out[wrench.slot..wrench.slot + 3]
                .copy_from_slice(&sensors[wrench.force..wrench.force + 3]);
            out[wrench.slot + 3..wrench.slot + 6]
                .copy_from_slice(&sensors[wrench.torque..wrench.torque + 3]);
        }
        for contact in &self.plan.contacts {
            let force: f64 = contact.touches.iter().map(|&t| sensors[t]).sum();
            out[contact.slot] = if force >= contact.threshold { 1.0 } else { 0.0 };
            out[contact.slot + 1] = force;
        }
        // Last, once: the state above is already filled (see `crate::frame`).
        #[cfg(feature = "render")]
        if let Some(frame) = &mut self.frame
            && let Err(e) = frame.take_if_due(sim.steps, &mut sim.data)
        {
            return Err(self.identity.error(ErrorKind::Io, e));
        }
        Ok(())
    }

    /// Stores each driven joint's targets for the physics steps of the next reads. An infinite
    /// command is an [`ErrorKind::InvalidCommand`] naming joint and interface, and nothing is
    /// stored; NaN means "no command" and contributes nothing.
    fn write(&mut self, _clock: Clock, command: &R::Command) -> Result<(), HardwareError> {
        let values = command.as_slice();
        for joint in &self.plan.joints {
            let Some(drive) = joint.drive else {
                continue;
            };
            let slots = drive.slots;
            for slot in [
                slots.position,
                slots.velocity,
                slots.effort,
                slots.stiffness,
                slots.damping,
            ]
            .into_iter()
            .flatten()
            {
                if values[slot].is_infinite() {
                    return Err(self.infinite_command(slot, values[slot]));
                }
            }
        }
        for (joint, target) in self.plan.joints.iter().zip(self.targets.iter_mut()) {
            *target = match joint.drive {
                Some(drive) => law::targets(values, &drive),
                None => Mit::NONE,
            };
        }
        Ok(())
    }

    /// The robot's bodies that overlapped at the home pose, each with its depth; then a fall,
    /// with its time and why, if the robot fell.
    fn events(&self) -> Vec<String> {
        let overlaps = self.overlaps.iter().map(|o| o.describe());
        let fall = self
            .fall
            .and_then(|watch| watch.fell())
            .map(|f| f.describe());
        overlaps.chain(fall).collect()
    }

    /// The free joint's pose: the root link in MuJoCo's world, as the MJCF places it.
    fn base_pose(&self) -> Option<Transform> {
        let at = self.base_qpos?;
        // Seven numbers, `get` made sure: x y z, then w x y z.
        let q = self.sim.as_ref()?.data.qpos().get(at..at + 7)?;
        Some(Transform {
            rotation: kinematics::quaternion_to_matrix([q[3], q[4], q[5], q[6]]),
            translation: [q[0], q[1], q[2]],
        })
    }

    /// With a frame asked for (feature `render`): `frames rendered` (0 or 1) and
    /// `ms rendering the frame`. Nothing otherwise.
    fn counters(&self) -> Counters {
        #[cfg(feature = "render")]
        if let Some(frame) = &self.frame {
            return frame.counters();
        }
        Counters::new()
    }
}

impl<R: RobotTypes> MujocoSystem<R> {
    fn infinite_command(&self, slot: usize, value: f64) -> HardwareError {
        let what = match R::COMMAND_LAYOUT.slots.get(slot) {
            Some(&Slot::Joint { joint, kind }) => {
                let joint = R::DESCRIPTION
                    .joints
                    .get(usize::from(joint))
                    .map_or("?", |j| &j.name);
                format!("`{joint}/{kind}`")
            }
            _ => format!("slot #{slot}"),
        };
        self.identity.error(
            ErrorKind::InvalidCommand,
            format!("command {what} is {value}"),
        )
    }
}

/// The specific force a body at rest in the world feels at `site`, in the site's axes: the
/// reaction to gravity, R^T (-g), what an accelerometer on a fixed base reads.
fn specific_force_at_rest(data: &MjData<Box<MjModel>>, site: usize) -> [f64; 3] {
    let g = data.model().opt().gravity;
    let f = [-g[0], -g[1], -g[2]];
    let Some(r) = data.site_xmat().get(site) else {
        return [f64::NAN; 3];
    };
    // `site_xmat` is row-major, site axes to world: its transpose takes f into the site's axes.
    [
        r[0] * f[0] + r[3] * f[1] + r[6] * f[2],
        r[1] * f[0] + r[4] * f[1] + r[7] * f[2],
        r[2] * f[0] + r[5] * f[1] + r[8] * f[2],
    ]
}
