//! [`TopicSystem`]: the component.

use std::time::Duration;

use robot_runtime::hardware::{
    Claims, Clock, Component, Counters, ErrorKind, HardwareError, Identity,
};
use robot_runtime::{RobotTypes, Values};
use ros2_dds::Participant;
use ros2_msg::msg::{Imu, JointState, Time};

use crate::intake::{Intake, Refusal};
use crate::link::{Endpoints, Link, command_template, wait_for};
use crate::options::TopicOptions;
use crate::plan::Plan;

/// The whole robot driven over two topics, as `joint_state_topic_hardware_interface/
/// JointStateTopicSystem` drives it, with its defects fixed: see the [crate docs](crate).
pub struct TopicSystem<R: RobotTypes> {
    identity: Identity,
    options: TopicOptions,
    /// Where the topics' endpoints are made.
    open: Open,
    plan: Plan,
    intake: Intake,
    link: Option<Box<dyn Endpoints>>,
    /// The component's own copy of the state: a joint a message does not name keeps its value.
    own: R::State,
    /// Loop time of the last valid state (and IMU) message; `None` right after connecting,
    /// when the first read counts as fresh (the message connecting waited for).
    states_at: Option<Duration>,
    imu_at: Option<Duration>,
    last_refusal: Option<Refusal>,
    counts: Counts,
}

/// Where a [`TopicSystem`]'s endpoints are made.
enum Open {
    /// On the process's DDS participant.
    Dds(Participant),
    /// By a function, given the command template: an in-process peer.
    With(Box<OpenEndpoints>),
}

/// What makes a [`TopicSystem`]'s endpoints in process, given the command message's template.
pub type OpenEndpoints = dyn FnMut(JointState) -> Result<Box<dyn Endpoints>, HardwareError> + Send;

#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    states: u64,
    refused_length: u64,
    refused_duplicate: u64,
    unknown_names: u64,
    mimic_names: u64,
    non_finite: u64,
    imu: u64,
    published: u64,
    below_threshold: u64,
    clamped: u64,
}

impl<R: RobotTypes> std::fmt::Debug for TopicSystem<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.identity
            .debug(f, "TopicSystem")
            .field("options", &self.options)
            .field("connected", &self.link.is_some())
            .finish_non_exhaustive()
    }
}

impl<R: RobotTypes> TopicSystem<R> {
    /// The component `<Robot>Hardware` (the emitted topic block's name) with these options, its
    /// topics on `participant` (the process's, in its domain). It claims every controlled joint
    /// and, when the robot has an IMU and `imu_topic` is set, the first IMU.
    pub fn new(options: TopicOptions, participant: Participant) -> Self {
        Self::opened(options, Open::Dds(participant))
    }

    /// The same component on endpoints `open` makes at each configure and activation, given the
    /// command message's template: an in-process peer, on its own clock (`robot chaos`).
    pub fn with_endpoints(
        options: TopicOptions,
        open: impl FnMut(JointState) -> Result<Box<dyn Endpoints>, HardwareError> + Send + 'static,
    ) -> Self {
        Self::opened(options, Open::With(Box::new(open)))
    }

    fn opened(options: TopicOptions, open: Open) -> Self {
        let robot = R::DESCRIPTION;
        let imu = (robot
            .sensors_of(robot_runtime::model::SensorKind::Imu)
            .next())
        .map(|(index, _)| index)
        .filter(|_| options.imu_topic.is_some());
        TopicSystem {
            identity: Identity::new(
                format!("{}Hardware", robot.type_name),
                Claims::whole_robot(robot, imu),
            ),
            options,
            open,
            plan: Plan::default(),
            intake: Intake::new(Vec::new(), Vec::new(), false),
            link: None,
            own: R::State::default(),
            states_at: None,
            imu_at: None,
            last_refusal: None,
            counts: Counts::default(),
        }
    }

    /// The options in force.
    pub fn options(&self) -> &TopicOptions {
        &self.options
    }

    /// Why the last refused state message was refused.
    pub fn last_refusal(&self) -> Option<Refusal> {
        self.last_refusal
    }

    /// Connects and waits for the first state (and IMU) message, which the next read delivers.
    fn connect(&mut self) -> Result<(), HardwareError> {
        let mut link: Box<dyn Endpoints> = match &mut self.open {
            Open::Dds(participant) => Box::new(Link::open(
                participant,
                &self.options,
                &self.plan,
                self.identity.name(),
            )?),
            Open::With(open) => open(command_template(&self.plan))?,
        };
        self.intake.reset();
        let timeout = self.options.first_state_timeout;
        let own = self.own.as_mut_slice();
        let intake = &mut self.intake;
        let mut refused = None;
        let first = wait_for(link.as_mut(), timeout, |link| {
            let message = link.latest_state()?;
            match intake.apply(message, own) {
                Ok(_) => Some(()),
                Err(refusal) => {
                    refused = Some(refusal);
                    None
                }
            }
        });
        if first.is_none() {
            let why = refused.map_or(String::new(), |r| format!(" (refused: {r})"));
            return Err(self.identity.error(
                ErrorKind::Timeout,
                format!(
                    "no valid state on `{}` within {} s{why}: is the simulator or robot publishing it?",
                    self.options.states_topic,
                    timeout.as_secs_f64()
                ),
            ));
        }
        if let (Some(topic), Some(slot)) = (&self.options.imu_topic, self.plan.imu) {
            let own = self.own.as_mut_slice();
            let imu = wait_for(link.as_mut(), timeout, |link| {
                link.latest_imu().map(|imu| fill_imu(imu, own, slot))
            });
            if imu.is_none() {
                return Err(self.identity.error(
                    ErrorKind::Timeout,
                    format!(
                        "no IMU message on `{topic}` within {} s",
                        timeout.as_secs_f64()
                    ),
                ));
            }
        }
        self.states_at = None;
        self.imu_at = None;
        self.link = Some(link);
        Ok(())
    }

    /// The stale-state error, or nothing.
    fn check_fresh(
        &self,
        clock: Clock,
        at: Option<Duration>,
        topic: &str,
    ) -> Result<(), HardwareError> {
        let limit = self.options.stale_age(clock.period);
        let age = at.map_or(Duration::ZERO, |at| clock.time.saturating_sub(at));
        if age <= limit {
            return Ok(());
        }
        let refused = match self.last_refusal {
            Some(refusal) => format!("; the last message was refused: {refusal}"),
            None => String::new(),
        };
        Err(self.identity.error(
            ErrorKind::Timeout,
            format!(
                "stale state: nothing valid on `{topic}` for {:.1} ms (stale after {:.1} ms){refused}",
                age.as_secs_f64() * 1e3,
                limit.as_secs_f64() * 1e3,
            ),
        ))
    }
}

/// The ten IMU slots from a `sensor_msgs/Imu`.
fn fill_imu(imu: &Imu, state: &mut [f64], first: usize) {
    let values = [
        imu.orientation.x,
        imu.orientation.y,
        imu.orientation.z,
        imu.orientation.w,
        imu.angular_velocity.x,
        imu.angular_velocity.y,
        imu.angular_velocity.z,
        imu.linear_acceleration.x,
        imu.linear_acceleration.y,
        imu.linear_acceleration.z,
    ];
    if let Some(slots) = state.get_mut(first..first + values.len()) {
        slots.copy_from_slice(&values);
    }
}

impl<R: RobotTypes> Component<R> for TopicSystem<R> {
    fn identity(&self) -> &Identity {
        &self.identity
    }

    fn on_init(&mut self) -> Result<(), HardwareError> {
        self.plan = Plan::resolve(
            R::DESCRIPTION,
            &R::STATE_LAYOUT,
            &R::COMMAND_LAYOUT,
            &self.options.disabled_joints,
            self.identity.claims().sensors.first().copied(),
            self.identity.name(),
        )?;
        self.intake = Intake::new(
            self.plan.states.clone(),
            self.plan.mimic_names.clone(),
            self.options.sum_wrapped,
        );
        Ok(())
    }

    /// Puts every state at its initial value, joins the DDS domain and waits (up to
    /// `first_state_timeout`) for the first valid state, so the first read is the robot's.
    fn on_configure(&mut self) -> Result<(), HardwareError> {
        self.own = R::State::default();
        let own = self.own.as_mut_slice();
        for &(slot, value) in &self.plan.initial_state {
            own[slot] = value;
        }
        self.last_refusal = None;
        self.connect()
    }

    /// Stops and joins the DDS thread.
    fn on_cleanup(&mut self) -> Result<(), HardwareError> {
        self.link = None;
        Ok(())
    }

    /// Connects again if deactivation disconnected; upstream does nothing here. The System has
    /// seeded the commands to hold the measured state, so the first write asks for no motion.
    fn on_activate(
        &mut self,
        _state: &R::State,
        _command: &mut R::Command,
    ) -> Result<(), HardwareError> {
        if self.link.is_none() {
            self.connect()?;
        }
        Ok(())
    }

    /// Stops and joins the DDS thread: nothing is published any more. A `JointState` has no
    /// "torque off"; the other side holds (or stops) on its own when commands cease.
    fn on_deactivate(&mut self) -> Result<(), HardwareError> {
        self.link = None;
        Ok(())
    }

    fn read(&mut self, clock: Clock, state: &mut R::State) -> Result<(), HardwareError> {
        let Some(link) = &mut self.link else {
            return Err(self.identity.error(
                ErrorKind::Lifecycle,
                "not connected: deactivation stopped the DDS thread; configure again",
            ));
        };
        let own = self.own.as_mut_slice();
        if let Some(message) = link.latest_state() {
            match self.intake.apply(message, own) {
                Ok(applied) => {
                    self.counts.states += 1;
                    self.counts.unknown_names += applied.unknown_names;
                    self.counts.mimic_names += applied.mimic_names;
                    self.counts.non_finite += applied.non_finite;
                    self.states_at = Some(clock.time);
                }
                Err(refusal) => {
                    match refusal {
                        Refusal::ArrayLength { .. } => self.counts.refused_length += 1,
                        Refusal::DuplicateName { .. } => self.counts.refused_duplicate += 1,
                    }
                    self.last_refusal = Some(refusal);
                }
            }
        }
        if self.states_at.is_none() {
            self.states_at = Some(clock.time);
        }
        if let (Some(_), Some(slot)) = (&self.options.imu_topic, self.plan.imu) {
            if let Some(imu) = link.latest_imu() {
                fill_imu(imu, own, slot);
                self.counts.imu += 1;
                self.imu_at = Some(clock.time);
            }
            if self.imu_at.is_none() {
                self.imu_at = Some(clock.time);
            }
        }
        self.check_fresh(clock, self.states_at, self.options.states_topic.as_str())?;
        if let Some(topic) = &self.options.imu_topic
            && self.plan.imu.is_some()
        {
            self.check_fresh(clock, self.imu_at, topic.as_str())?;
        }
        let own = self.own.as_mut_slice();
        self.plan.mimics.apply(own);
        let out = state.as_mut_slice();
        for &slot in &self.plan.state_slots {
            out[slot] = own[slot];
        }
        Ok(())
    }

    /// Publishes the position, velocity and effort commands when they differ from the state
    /// by more than the threshold; a NaN command is sent as the held state, never as NaN, and
    /// each value held within the joint's limits.
    fn write(&mut self, _clock: Clock, command: &R::Command) -> Result<(), HardwareError> {
        let commands = command.as_slice();
        let own = self.own.as_slice();
        let mut difference = 0.0;
        for joint in &self.plan.commands {
            for (k, slot) in joint.command.iter().enumerate() {
                let Some(slot) = *slot else { continue };
                let value = commands[slot];
                if value.is_infinite() {
                    let array = crate::plan::ARRAYS[k];
                    return Err(self.identity.error(
                        ErrorKind::InvalidCommand,
                        format!("command `{}/{array}` is {value}", joint.name),
                    ));
                }
                if let Some(state) = joint.state[k]
                    && value.is_finite()
                {
                    difference += (own[state] - value).abs();
                }
            }
        }
        let threshold = self.options.threshold;
        if threshold >= 0.0 && difference <= threshold {
            self.counts.below_threshold += 1;
            return Ok(());
        }
        let Some(link) = &mut self.link else {
            return Err(self.identity.error(ErrorKind::Lifecycle, "not connected"));
        };
        let message: &mut JointState = link.command();
        message.header.stamp = Time::now();
        let arrays = [
            &mut message.position,
            &mut message.velocity,
            &mut message.effort,
        ];
        for (k, array) in arrays.into_iter().enumerate() {
            if !self.plan.command_arrays[k] {
                continue;
            }
            for (value, joint) in array.iter_mut().zip(&self.plan.commands) {
                let commanded = joint.command[k]
                    .map(|s| commands[s])
                    .filter(|v| v.is_finite());
                let held = joint.state[k].map(|s| own[s]);
                let wanted = commanded.or(held).unwrap_or(0.0);
                // Never beyond the joint's limits, as the RobStride backend's guard holds its
                // commands (upstream passes them through): the other side may be a real robot.
                let (lower, upper) = joint.bounds[k];
                *value = wanted.clamp(lower, upper);
                if *value != wanted {
                    self.counts.clamped += 1;
                }
            }
        }
        link.publish();
        self.counts.published += 1;
        Ok(())
    }

    fn counters(&self) -> Counters {
        let c = self.counts;
        let dropped = self.link.as_ref().map_or(0, |l| l.dropped());
        Counters::from([
            ("states received", c.states),
            ("states refused (array length)", c.refused_length),
            ("states refused (joint named twice)", c.refused_duplicate),
            ("unknown names skipped", c.unknown_names),
            (
                "mimic joints skipped (they follow their joint)",
                c.mimic_names,
            ),
            ("non-finite values skipped", c.non_finite),
            ("imu messages received", c.imu),
            ("commands published", c.published),
            ("commands clamped to the joint's limits", c.clamped),
            ("commands not sent (below threshold)", c.below_threshold),
            ("commands dropped (network behind the loop)", dropped),
        ])
    }
}
