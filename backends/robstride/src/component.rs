//! The hardware component of one CAN bus: every actuator on it, driven through the private
//! protocol over a [`Transport`], in the ros2_control lifecycle.
//!
//! * `on_init` checks the definition: revolute and continuous joints, prismatic ones with a
//!   `lead`, interfaces this backend serves;
//! * `on_configure` opens the transport and confirms every enabled motor answers (a stop, which
//!   every motor answers with its feedback), naming each one missing by joint, bus and id, then
//!   arms each motor's CAN watchdog ([`BusOptions::watchdog`]) and reads it back;
//! * `on_activate` enables the motors; the loop has seeded commands to hold the measured position
//!   with zero gains, so enabling never moves a joint; `on_deactivate` stops every motor and
//!   confirms;
//! * `write` sends one operation-control frame per enabled joint; `read` takes the replies that
//!   have arrived, without waiting (`docs/hardware-lifecycle.md`: the reply to cycle k's write is read at k + 1);
//! * a continuous or multi-turn joint's motor angle, which the firmware reports looping within
//!   ±4π, is unwrapped over any number of turns and its targets sent relative to the report; a
//!   multi-turn joint's count is seeded from the motor's own (`mechPos`) at configure and at
//!   every activation, and the motor is not switched on when it cannot be ([`crate::turns`]);
//! * the mimic joints that follow the bus's joints are in its block, so `read` fills their
//!   states too ([`robot_runtime::hardware::mimic`]).
//!
//! A fault bit, more replies missed in a row than [`BusOptions::tolerated_missed_in_a_row`], a frame
//! that is not the protocol's, or a bus error make `read` or `write` fail naming the joint, the
//! motor id and what happened; the loop then switches every component off.

mod motor;
mod round_trip;

use std::time::Duration;

use robot_runtime::config::RuntimeConfig;
use robot_runtime::hardware::mimic::{MimicError, Mimics};
use robot_runtime::hardware::{
    Claims, Clock, Component, Counters, ErrorKind, HardwareError, Identity, Recovery, ServoGains,
};
use robot_runtime::model::JointKind;
use robot_runtime::typed::RobotTypes;
use robot_runtime::{InterfaceKind, Mit, Values};
use robstride_protocol::{Command, Feedback, Mode, Reply, RobstrideModel};

use self::motor::{EdgeError, Motor, Unsendable};
use crate::guard::CommandGuard;
use crate::transport::{Transport, TransportError};

/// What the component may tolerate and how long it waits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BusOptions {
    /// The host id the frames carry.
    pub host_id: u8,
    /// Replies a motor may miss in a row before `read` fails. The default, 2, rides over
    /// one lost frame (a 1 Mbit/s bus loses frames only under error) and stops within three
    /// cycles of a motor gone silent: 15 ms at 200 Hz.
    pub tolerated_missed_in_a_row: u32,
    /// How long `on_configure`, `on_activate` and `on_deactivate` wait for every motor's reply.
    pub reply_timeout: Duration,
    /// `false` is calibration mode: four-bar joints read and command the raw actuator angle.
    pub use_linkage: bool,
    /// The gains of a joint commanded by position or velocity without `stiffness` or `damping`
    /// commands of its own (the same defaults the MuJoCo backend servoes with).
    pub servo: ServoGains,
    /// The motors' CAN watchdog (`canTimeout`, 0x7028), written at configure and read back: a
    /// motor that hears no frame for this long drops to reset, torque off. It is what switches
    /// the robot off when this process cannot: killed (SIGKILL), the host hung, the adapter
    /// unplugged. At least two loop periods (`write` refuses a shorter one); the default, 100 ms,
    /// is 20 periods at 200 Hz, and [`BusOptions::at_rate`] fits it to any rate. `None` leaves
    /// the motors' own setting (0, off, from the factory).
    pub watchdog: Option<Duration>,
}

impl BusOptions {
    /// The shortest watchdog [`BusOptions::at_rate`] gives: well over the scheduling stalls of a
    /// host that is not real-time (10 ms and more), so that a live loop never trips it.
    pub const MIN_WATCHDOG: Duration = Duration::from_millis(100);

    /// The defaults for a loop at `rate_hz`: the watchdog five periods, never under
    /// [`BusOptions::MIN_WATCHDOG`].
    pub fn at_rate(rate_hz: u32) -> BusOptions {
        let period = Duration::from_secs(1) / rate_hz.max(1);
        BusOptions {
            watchdog: Some((period * 5).max(Self::MIN_WATCHDOG)),
            ..BusOptions::default()
        }
    }
}

impl Default for BusOptions {
    fn default() -> Self {
        BusOptions {
            host_id: 0xFD,
            tolerated_missed_in_a_row: 2,
            reply_timeout: Duration::from_millis(50),
            use_linkage: true,
            servo: ServoGains::default(),
            watchdog: Some(Self::MIN_WATCHDOG),
        }
    }
}

/// One RobStride bus of robot `R`.
pub struct RobstrideBus<R: RobotTypes> {
    identity: Identity,
    bus: String,
    options: BusOptions,
    motors: Vec<Motor>,
    /// The mimic joints that follow this bus's joints, or why they cannot be followed (`on_init`
    /// says so).
    mimics: Result<Mimics, MimicError>,
    open: Box<dyn FnMut() -> Result<Box<dyn Transport>, TransportError> + Send>,
    transport: Option<Box<dyn Transport>>,
    _robot: std::marker::PhantomData<R>,
}

impl<R: RobotTypes> std::fmt::Debug for RobstrideBus<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.identity
            .debug(f, "RobstrideBus")
            .field("bus", &self.bus)
            .field("motors", &self.motors.len())
            .finish_non_exhaustive()
    }
}

impl<R: RobotTypes> RobstrideBus<R> {
    /// The component of bus `bus`, named as its `<ros2_control>` block (`LiteBipedLeftLeg`),
    /// opening its transport with `open` in `on_configure`. `config` gives the calibration and
    /// the disabled joints.
    pub fn new(
        bus: &str,
        config: Option<&RuntimeConfig>,
        options: BusOptions,
        open: impl FnMut() -> Result<Box<dyn Transport>, TransportError> + Send + 'static,
    ) -> RobstrideBus<R> {
        let robot = R::DESCRIPTION;
        let mut motors = Vec::new();
        for (index, joint) in robot.joints.iter().enumerate() {
            let Some(actuator) = &joint.actuator else {
                continue;
            };
            if actuator.bus != bus {
                continue;
            }
            motors.push(Motor::new(
                index,
                joint,
                actuator,
                &options,
                config,
                (&R::STATE_LAYOUT, &R::COMMAND_LAYOUT),
            ));
        }
        // The block's mimic joints: each follows a joint of this bus (`Robot::bus_of`).
        let mimic_joints: Vec<usize> = robot
            .joints
            .iter()
            .enumerate()
            .filter(|(_, j)| j.mimic.is_some() && robot.bus_of(j) == Some(bus))
            .map(|(index, _)| index)
            .collect();
        let mimics = Mimics::new(robot, mimic_joints.iter().copied(), &R::STATE_LAYOUT);
        let mut joints: Vec<usize> = motors.iter().map(|m| m.joint).collect();
        joints.extend(&mimic_joints);
        let claims = Claims {
            joints,
            sensors: Vec::new(),
        };
        RobstrideBus {
            identity: Identity::new(robot.bus_block_name(bus), claims),
            bus: bus.to_string(),
            options,
            motors,
            mimics,
            open: Box::new(open),
            transport: None,
            _robot: std::marker::PhantomData,
        }
    }

    fn transport(&mut self) -> Result<&mut Box<dyn Transport>, HardwareError> {
        // Disjoint fields: the name is cloned only on the error path, so a cycle allocates nothing.
        match &mut self.transport {
            Some(transport) => Ok(transport),
            None => Err(self.identity.error(
                ErrorKind::Lifecycle,
                "the bus is not open (configure first)",
            )),
        }
    }

    fn bus_error(&self, error: TransportError) -> HardwareError {
        self.identity
            .error(ErrorKind::Bus, format!("bus `{}`", self.bus))
            .caused_by(error)
    }

    /// The clamps applied to commands so far, over every motor.
    pub fn clamps(&self) -> u64 {
        self.motors.iter().map(|m| m.guard.clamps()).sum()
    }

    /// The whole 8π loops of its reported angle that joint `joint`'s motor has been counted
    /// through ([`crate::turns`]; 0 for a joint inside the ±4π window), if the joint is on this
    /// bus.
    pub fn turns(&self, joint: &str) -> Option<i64> {
        let motor = self.motors.iter().find(|m| m.name == joint)?;
        Some(motor.turns())
    }

    /// Takes a motor's reply to a cycle's command, in a loop of `period` s.
    fn take_reply(&mut self, feedback: &Feedback, period: f64) -> Result<(), HardwareError> {
        let Some(index) = self.motors.iter().position(|m| m.id == feedback.motor) else {
            return Ok(()); // another bus's id, or a motor this definition does not have
        };
        if !feedback.faults.is_empty() {
            let motor = &self.motors[index];
            let faults: Vec<String> = feedback.faults.iter().map(|f| format!("{f:?}")).collect();
            return Err(self.identity.error(
                ErrorKind::DeviceFault,
                format!(
                    "joint {} (bus {}, id {}) reports a fault: {}",
                    motor.name,
                    self.bus,
                    motor.id,
                    faults.join(", ")
                ),
            ));
        }
        let motor = &mut self.motors[index];
        if !motor.awaiting {
            // Nothing was asked since its last reply: this one answers an earlier cycle's
            // command, so the state it carries is older than the cycle says.
            let (name, id) = (motor.name.clone(), motor.id);
            return Err(self.identity.error(
                ErrorKind::Timeout,
                format!(
                    "joint {name} (bus {}, id {id}) answered late: a reply arrived after the cycle it belonged to",
                    self.bus
                ),
            ));
        }
        // Its last reply answered the cycle before the replies it missed.
        let since_last = period * f64::from(motor.missed_in_a_row.saturating_add(1));
        motor.awaiting = false;
        motor.missed_in_a_row = 0;
        // A motor the enable left running must stay so: its own reports are the record.
        let was_running = motor.running();
        if let Err(edge) = motor.record(feedback, since_last) {
            let (name, id) = (motor.name.clone(), motor.id);
            let joint = format!("joint {name} (bus {}, id {id})", self.bus);
            return Err(match edge {
                EdgeError::PushedPast { from, to } => self.identity.error(
                    ErrorKind::OutOfLimits,
                    format!(
                        "{joint} was pushed past the ±4π window's edge: its motor reported \
                         {from:.3} rad, then {to:.3}; the firmware's law now works 8π away from \
                         the joint"
                    ),
                ),
                EdgeError::Saturated(stuck) => self.identity.error(
                    ErrorKind::DeviceFault,
                    format!(
                        "{joint} reports its motor's angle held at the ±4π window's edge \
                         ({:.3} rad) while its velocity took it {:.3} rad further: firmware that \
                         saturates its angle report instead of looping it, which cannot drive a \
                         continuous or multi-turn joint past the edge (docs/robstride-protocol.md \
                         §6, \"Angle wrap\")",
                        stuck.edge, stuck.travel
                    ),
                ),
            });
        }
        if was_running && feedback.mode != Mode::Run {
            let motor = &self.motors[index];
            return Err(self.identity.error(
                ErrorKind::DeviceFault,
                format!(
                    "joint {} (bus {}, id {}) dropped out of run mode ({:?}): it switched itself \
                     off (its CAN watchdog, a power cut or a reset)",
                    motor.name, self.bus, motor.id, feedback.mode
                ),
            ));
        }
        Ok(())
    }
}

impl<R: RobotTypes> Component<R> for RobstrideBus<R> {
    fn identity(&self) -> &Identity {
        &self.identity
    }

    fn on_init(&mut self) -> Result<(), HardwareError> {
        let robot = R::DESCRIPTION;
        if self.motors.is_empty() {
            return Err(self.identity.error(
                ErrorKind::Unsupported,
                format!("bus `{}` has no actuator in {}", self.bus, robot.name),
            ));
        }
        if let Err(problem) = &self.mimics {
            return Err(self
                .identity
                .error(ErrorKind::Unsupported, "its mimic joints")
                .caused_by(problem.clone()));
        }
        for motor in &self.motors {
            let joint = &robot.joints[motor.joint];
            let drivable = match joint.kind {
                JointKind::Revolute | JointKind::Continuous => true,
                JointKind::Prismatic => motor.transmission.has_lead(),
                JointKind::Fixed => false,
            };
            if !drivable {
                return Err(self.identity.error(
                    ErrorKind::Unsupported,
                    format!(
                        "joint {} is {}: the RobStride backend drives revolute and continuous joints, and prismatic ones whose actuator has a `lead` (travel per motor revolution)",
                        motor.name,
                        joint.kind.urdf_name()
                    ),
                ));
            }
            for interface in joint
                .command_interfaces
                .iter()
                .chain(joint.state_interfaces.iter())
            {
                if !matches!(
                    interface.kind,
                    InterfaceKind::Position
                        | InterfaceKind::Velocity
                        | InterfaceKind::Effort
                        | InterfaceKind::Stiffness
                        | InterfaceKind::Damping
                ) {
                    return Err(self.identity.error(
                        ErrorKind::Unsupported,
                        format!(
                            "joint {}: interface `{}` is not served by the RobStride backend (it serves position, velocity, effort, stiffness, damping)",
                            motor.name,
                            interface.kind.name()
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    fn on_configure(&mut self) -> Result<(), HardwareError> {
        let transport = (self.open)().map_err(|e| self.bus_error(e))?;
        self.transport = Some(transport);
        // Every motor answers a stop with its feedback: present, and switched off.
        let answered = self.ask_all(Command::Stop, "a stop");
        let ready = answered
            .and_then(|()| self.arm_watchdog())
            .and_then(|()| self.seed_turns());
        if let Err(error) = ready {
            self.transport = None;
            return Err(error);
        }
        Ok(())
    }

    fn on_cleanup(&mut self) -> Result<(), HardwareError> {
        self.transport = None;
        Ok(())
    }

    fn on_activate(
        &mut self,
        _state: &R::State,
        _command: &mut R::Command,
    ) -> Result<(), HardwareError> {
        let robot = R::DESCRIPTION;
        // A round trip to every motor before anything is switched on (not the state read while
        // inactive: an inactive bus asks nothing): its reply is the angle now, not when the bus
        // was configured. A motor may have been power-cycled since, losing its watchdog with
        // its RAM, so the watchdog is armed again; without one, each motor is sent a stop,
        // which every motor answers with its feedback.
        if self.options.watchdog.is_some() {
            self.arm_watchdog()?;
        } else {
            self.ask_all(Command::Stop, "a stop")?;
        }
        // A multi-turn joint's count afresh too: the motor counted what the bus did not see.
        self.seed_turns()?;
        for motor in &mut self.motors {
            motor.missed_in_a_row = 0;
            motor.awaiting = false;
            // A command with no value yet (NaN) holds where the joint is, with zero gains.
            let joint = &robot.joints[motor.joint];
            if let Some(actuator) = &joint.actuator {
                motor.guard = CommandGuard::new(
                    joint,
                    actuator.model,
                    Mit {
                        position: motor.last.position,
                        ..Mit::default()
                    },
                );
            }
        }
        // Before anything is switched on: a joint found far beyond its limits is a motor whose
        // zero or turn is wrong, and would be driven hard towards where it believes them to be.
        let problems: Vec<String> = self
            .motors
            .iter()
            .filter(|m| m.enabled)
            .filter_map(|m| m.start_problem(&robot.joints[m.joint]))
            .collect();
        if !problems.is_empty() {
            return Err(self.identity.error(
                ErrorKind::OutOfLimits,
                format!(
                    "{}: nothing on bus {} was switched on. A motor a whole turn off reports its \
                     power-on angle in 0..2π (parameter zero_sta, 0x7029, at 0): write 1 for \
                     −π..π and save it (`robot can param write --interface IF --motor ID \
                     zero_sta 1`, then `robot can param save`); a motor whose zero is not the \
                     joint's needs `robot can set-zero` in the joint's zero pose, or the joint's \
                     `zero_offset`",
                    problems.join("; "),
                    self.bus
                ),
            ));
        }
        if let Err(error) = self.ask_all(Command::Enable, "enable") {
            // Switch off what did enable before reporting; if that fails too, say so: the
            // system then holds this bus active and keeps trying to switch it off.
            if let Err(stop) = self.ask_all(Command::Stop, "a stop") {
                return Err(error
                    .then(Recovery::SwitchingOffAgain, stop)
                    .possibly_live());
            }
            return Err(error);
        }
        Ok(())
    }

    fn on_deactivate(&mut self) -> Result<(), HardwareError> {
        self.ask_all(Command::Stop, "a stop")
    }

    fn read(&mut self, clock: Clock, state: &mut R::State) -> Result<(), HardwareError> {
        let values = state.as_mut_slice();
        loop {
            let received = self.transport()?.try_recv();
            let Some(frame) = received.map_err(|e| self.bus_error(e))? else {
                break;
            };
            match Reply::decode(&frame) {
                Ok(Reply::Feedback(raw)) => {
                    let model = self
                        .motors
                        .iter()
                        .find(|m| m.id == raw.motor)
                        .map_or(RobstrideModel::RS00, |m| m.model);
                    self.take_reply(&raw.to_physical(model), clock.period.as_secs_f64())?;
                }
                Ok(Reply::Fault(fault)) => {
                    let joint = self
                        .motors
                        .iter()
                        .find(|m| m.id == fault.motor)
                        .map_or("an unknown joint".to_string(), |m| m.name.clone());
                    return Err(self.identity.error(
                        ErrorKind::DeviceFault,
                        format!(
                            "joint {joint} (bus {}, id {}) sent a fault frame: {:?}",
                            self.bus, fault.motor, fault.faults
                        ),
                    ));
                }
                Ok(_) => {}
                Err(error) => {
                    return Err(self
                        .identity
                        .error(
                            ErrorKind::Bus,
                            format!(
                                "bus `{}`: a frame that is not the protocol's: {frame:?}",
                                self.bus
                            ),
                        )
                        .caused_by(error));
                }
            }
        }
        for motor in &self.motors {
            motor.report(values);
        }
        if let Ok(mimics) = &self.mimics {
            mimics.apply(values);
        }
        let tolerated = self.options.tolerated_missed_in_a_row;
        for motor in &mut self.motors {
            if motor.awaiting {
                motor.awaiting = false;
                motor.missed_in_a_row += 1;
                motor.missed_in_all += 1;
            }
        }
        if let Some(motor) = self.motors.iter().find(|m| m.missed_in_a_row > tolerated) {
            return Err(self.identity.error(
                ErrorKind::Timeout,
                format!(
                    "joint {} (bus {}, id {}) missed {} replies in a row (tolerated: {tolerated})",
                    motor.name, self.bus, motor.id, motor.missed_in_a_row
                ),
            ));
        }
        Ok(())
    }

    fn counters(&self) -> Counters {
        Counters::from([
            ("commands clamped", self.clamps()),
            (
                "replies missed",
                self.motors.iter().map(|m| m.missed_in_all).sum(),
            ),
        ])
    }

    fn write(&mut self, clock: Clock, command: &R::Command) -> Result<(), HardwareError> {
        if let Some(watchdog) = self.options.watchdog
            && clock.period * 2 > watchdog
        {
            return Err(self.identity.error(
                ErrorKind::Unsupported,
                format!(
                    "the motors' CAN watchdog ({} ms) is shorter than two loop periods ({} ms \
                     each): they would switch off between cycles; give BusOptions::at_rate the \
                     loop's rate",
                    watchdog.as_millis(),
                    clock.period.as_millis()
                ),
            ));
        }
        let values = command.as_slice();
        let host = self.options.host_id;
        for index in 0..self.motors.len() {
            let motor = &mut self.motors[index];
            if !motor.enabled {
                continue;
            }
            let mit = match motor.command(values, clock.period.as_secs_f64()) {
                Ok(mit) => mit,
                Err(why) => {
                    let message = match why {
                        Unsendable::Unreachable(q) => {
                            format!("joint {}: the four-bar cannot reach {q} rad", motor.name)
                        }
                        Unsendable::NotANumber => {
                            format!("joint {}: a command that is not a number", motor.name)
                        }
                    };
                    return Err(self.identity.error(ErrorKind::InvalidCommand, message));
                }
            };
            let frame = Command::Mit(mit).encode(motor.model, host, motor.id);
            motor.awaiting = true;
            let sent = self.transport()?.send(&frame);
            sent.map_err(|e| self.bus_error(e))?;
        }
        Ok(())
    }
}
