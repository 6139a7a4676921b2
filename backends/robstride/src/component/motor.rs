//! One actuator of a bus: where its joint's interfaces are in the state and command structs,
//! how its quantities become the motor's (transmission, turn count, servo gains, the guard), and
//! what it last reported.

use robot_runtime::actuator::MitSlots;
use robot_runtime::actuator::{MotorTravel, POSITION_SPAN};
use robot_runtime::config::RuntimeConfig;
use robot_runtime::model::{Actuator, Joint, JointKind};
use robot_runtime::transmission::{Transmission, motor_gain};
use robot_runtime::typed::Layout;
use robot_runtime::{Mit, RobstrideModel};
use robstride_protocol::{Feedback, MitCommand, Mode};

use super::BusOptions;
use crate::guard::CommandGuard;
use crate::turns::{Report, Saturated, SeedError, Turns};

/// What a report says went wrong at the ±4π window's edge.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum EdgeError {
    /// A motor whose turns are not counted reported an angle more than 4π from its last: it was
    /// pushed past the window's edge, and its firmware's law now works 8π away.
    PushedPast {
        /// The last angle reported, rad.
        from: f64,
        /// This one, rad.
        to: f64,
    },
    /// A counted motor's report stays on the edge while it turns on ([`Saturated`]).
    Saturated(Saturated),
}

/// Why a command could not be sent: a cycle's error, so no text is made until it is reported.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Unsendable {
    /// The four-bar cannot reach this joint position, rad.
    Unreachable(f64),
    /// A field was not a number after the guard (a transmission fault).
    NotANumber,
}

#[derive(Debug, Clone)]
pub(super) struct Motor {
    pub joint: usize,
    pub name: String,
    pub id: u8,
    pub model: RobstrideModel,
    pub transmission: Transmission,
    /// The turns a continuous or multi-turn joint's motor has looped through the ±4π window.
    turns: Turns,
    pub guard: CommandGuard,
    pub state: MitSlots,
    command: MitSlots,
    /// Motor-space stiffness and damping sent where the joint declares no such command.
    servo: Mit,
    pub enabled: bool,
    /// Whether the last frame sent awaits its reply.
    pub awaiting: bool,
    /// Replies missed in a row.
    pub missed_in_a_row: u32,
    /// Replies missed over the run.
    pub missed_in_all: u64,
    /// The last joint state the motor reported (configure's stop draws the first), which `read`
    /// reports until a newer one arrives: an inactive bus sends nothing, so it reads this.
    pub last: Mit,
    /// The motor-space state of the last report, its angle unwrapped (a counted joint's).
    reported: Option<Mit>,
    /// Whether the linkage could not take the last report's angle.
    unmapped: bool,
    /// The mode of the last report: whether the motor said it was running.
    mode: Option<Mode>,
}

/// How far beyond the span its joint's limits take it through a motor may be found when it is
/// switched on, as a share of that span: a joint resting a little past a limit (on its hard
/// stop, or by the feedback's 16-bit resolution) is driven back in; one much further out is a
/// motor whose zero or turn is wrong, and enabling it would drive it towards where it believes
/// the range is.
pub(super) const START_MARGIN: f64 = 0.1;

/// The most a multi-turn joint's motor may be found beyond its span, rad: a quarter turn. Its
/// span is many turns, and a tenth of it could hide a count a whole turn off near an end; a
/// joint resting on its end stop is a fraction of a turn past its limit.
pub(super) const MULTI_TURN_MARGIN: f64 = std::f64::consts::FRAC_PI_2;

impl Motor {
    /// The motor of joint `index`, driven by `actuator`, its slots in `state` and `command`.
    pub fn new(
        index: usize,
        joint: &Joint,
        actuator: &Actuator,
        options: &BusOptions,
        config: Option<&RuntimeConfig>,
        (state, command): (&Layout, &Layout),
    ) -> Motor {
        let zero = config.map_or(actuator.zero_offset, |c| c.zero_offset(joint));
        let mut transmission = Transmission::of(actuator).with_zero_offset(zero);
        if !options.use_linkage {
            transmission = transmission.without_linkage();
        }
        // Referred to the motor at mid-range, within what the model can encode.
        let gains = options.servo.for_joint(joint);
        let middle = joint
            .limits
            .and_then(|l| l.lower.zip(l.upper))
            .map_or(0.0, |(lower, upper)| (lower + upper) / 2.0);
        let j = transmission.ratio(middle).unwrap_or(1.0);
        let spec = actuator.model.spec();
        Motor {
            joint: index,
            name: joint.name.to_string(),
            id: u16::from(actuator.can_id) as u8,
            model: actuator.model,
            transmission,
            turns: Turns::new(MotorTravel::of(joint, &transmission), &spec),
            guard: CommandGuard::new(joint, actuator.model, Mit::default()),
            // A motor reports position, velocity and torque; nothing else is its to fill.
            state: MitSlots {
                stiffness: None,
                damping: None,
                ..state.mit_slots(index)
            },
            command: command.mit_slots(index),
            servo: Mit {
                stiffness: motor_gain(gains.stiffness, j).min(spec.stiffness),
                damping: motor_gain(gains.damping, j).min(spec.damping),
                ..Mit::default()
            },
            enabled: config.is_none_or(|c| c.joint_enabled(&joint.name)),
            awaiting: false,
            missed_in_a_row: 0,
            missed_in_all: 0,
            last: Mit::default(),
            reported: None,
            unmapped: false,
            mode: None,
        }
    }

    /// Records a feedback as the joint's last state: the angle unwrapped (a counted joint's),
    /// then through the transmission. A pose the linkage cannot take (a four-bar past its
    /// toggle) keeps the last state and is remembered: the motor is then not switched on.
    /// `since_last` is the time since the report before, s (0 where unknown).
    ///
    /// Fails when the angle jumped by more than half the ±4π window on a motor whose turns are
    /// not counted: no joint with limits moves that far in a cycle, so the firmware looped its
    /// report at the window's edge, and its MIT law now works a whole 8π away from where the
    /// joint is. Fails too when a counted motor's report stays on the edge while it turns on
    /// (firmware that saturates). The state is recorded either way.
    pub fn record(&mut self, feedback: &Feedback, since_last: f64) -> Result<(), EdgeError> {
        let reported = f64::from(feedback.position);
        let velocity = f64::from(feedback.velocity);
        let looped = self
            .reported
            .map(|last| last.position)
            .filter(|last| !self.turns.counting() && (reported - last).abs() > POSITION_SPAN)
            .map(|from| EdgeError::PushedPast { from, to: reported });
        let unwrapped = self.turns.unwrap(Report {
            angle: reported,
            velocity,
            since_last,
        });
        let (position, saturated) = match unwrapped {
            Ok(position) => (position, None),
            Err(saturated) => (saturated.angle, Some(saturated)),
        };
        self.mode = Some(feedback.mode);
        self.map(Mit {
            position,
            velocity,
            effort: f64::from(feedback.torque),
            ..Mit::default()
        });
        match (looped, saturated) {
            (Some(error), _) => Err(error),
            (None, Some(saturated)) => Err(EdgeError::Saturated(saturated)),
            (None, None) => Ok(()),
        }
    }

    /// Seeds a multi-turn joint's count from its motor's own multi-turn angle `count` (`mechPos`,
    /// rad), and takes the last report again on the loop it gives ([`Turns::seed`]). Nothing to
    /// do for a motor whose turns need no seed.
    pub fn seed(&mut self, count: f64) -> Result<(), SeedError> {
        if !self.turns.needs_seed() {
            return Ok(());
        }
        let position = self.turns.seed(count)?;
        if let Some(last) = self.reported {
            self.map(Mit { position, ..last });
        }
        Ok(())
    }

    /// Whether this motor's count must be seeded from its own before it is switched on.
    pub fn needs_seed(&self) -> bool {
        self.turns.needs_seed()
    }

    /// Whole loops of 8π its turn counter has counted (0 for a joint inside the window).
    pub fn turns(&self) -> i64 {
        self.turns.turns()
    }

    /// Takes a motor-space state, its angle unwrapped, as the joint's.
    fn map(&mut self, motor: Mit) {
        self.reported = Some(motor);
        match self.transmission.state_to_joint(&motor) {
            Ok(joint) => {
                self.last = joint;
                self.unmapped = false;
            }
            Err(_) => self.unmapped = true,
        }
    }

    /// Whether the motor's last report said it was running (enabled, in run mode).
    pub fn running(&self) -> bool {
        self.mode == Some(Mode::Run)
    }

    /// Why this motor must not be switched on where it last reported, if it must not: its angle
    /// (a counted joint's unwrapped) more than [`START_MARGIN`] of the span its joint's limits
    /// take it through beyond that span, or at most [`MULTI_TURN_MARGIN`] for a multi-turn joint;
    /// or a multi-turn joint whose count was not seeded. Checked at the motor, not the joint:
    /// through a four-bar, a motor a whole turn off gives the joint the same angle. Continuous
    /// joints have no limits to be beyond.
    pub fn start_problem(&self, joint: &Joint) -> Option<String> {
        if self.turns.needs_seed() && !self.turns.seeded() {
            return Some(format!(
                "joint {} (id {}) turns its motor past the ±4π window and its turn count was \
                 not read from the motor",
                self.name, self.id
            ));
        }
        let angle = self.reported?.position;
        let (lower, upper) = joint.limits.and_then(|l| l.lower.zip(l.upper))?;
        let ends = (
            self.transmission.motor_position(lower),
            self.transmission.motor_position(upper),
        );
        let (Ok(a), Ok(b)) = ends else {
            return None; // `robot!` checked that the linkage assembles over the whole range
        };
        let (low, high) = (a.min(b), a.max(b));
        let beyond = (low - angle).max(angle - high);
        let mut margin = START_MARGIN * (high - low);
        if self.turns.needs_seed() {
            margin = margin.min(MULTI_TURN_MARGIN);
        }
        if !angle.is_finite() || beyond <= margin {
            return None;
        }
        let unit = if joint.kind == JointKind::Prismatic {
            "m"
        } else {
            "rad"
        };
        let reads = if self.unmapped {
            "a pose its four-bar cannot take".to_string()
        } else {
            format!("{:.3} {unit} for the joint", self.last.position)
        };
        let counted = if self.turns.needs_seed() {
            " as the motor counts its turns (mechPos, 0x7019, which starts within a turn of the \
             motor's zero at power-on: power it on with the joint in the turn of its zero)"
        } else {
            ""
        };
        Some(format!(
            "joint {} (id {}) reports motor angle {angle:.3} rad ({reads}){counted}, \
             {beyond:.3} rad beyond the {low:.3}..{high:.3} rad its limits [{lower}, {upper}] \
             {unit} span",
            self.name, self.id
        ))
    }

    /// Writes the last state into its slots of the robot's state.
    pub fn report(&self, state: &mut [f64]) {
        self.state.write(&self.last, state);
    }

    /// The operation-control command for the robot's `command`, in a loop of `period` s:
    /// guarded in joint space, through the transmission, the servo's gains where the joint
    /// commands none, a counted joint's target relative to the motor's report (its spring the
    /// host's near the window's edge: [`Turns::command`]), guarded again in motor space.
    /// Allocates nothing.
    pub fn command(&mut self, command: &[f64], period: f64) -> Result<MitCommand, Unsendable> {
        let joint = self.guard.joint_command(&self.command.read(command));
        let mut at_motor = self
            .transmission
            .command_to_motor(&joint, self.last.position)
            .map_err(|_| Unsendable::Unreachable(joint.position))?;
        if self.command.stiffness.is_none() {
            at_motor.stiffness = self.servo.stiffness;
        }
        if self.command.damping.is_none() {
            at_motor.damping = self.servo.damping;
        }
        let velocity = self.reported.map_or(0.0, |r| r.velocity);
        let sent = self.turns.command(&at_motor, velocity, period);
        MitCommand::new(self.guard.motor_command(&sent)).map_err(|_| Unsendable::NotANumber)
    }
}
