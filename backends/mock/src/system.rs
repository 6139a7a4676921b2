//! [`MockSystem`]: the component.

use robot_runtime::hardware::{Claims, Clock, Component, ErrorKind, HardwareError, Identity};
use robot_runtime::model::MockParams;
use robot_runtime::typed::Slot;
use robot_runtime::{InterfaceKind, RobotTypes, Values};

use crate::dynamics;
use crate::options::{CommandMode, MockOptions};
use crate::plan::Plan;
use crate::sensor_input::{SensorInput, SensorReader};

/// A mock of the whole robot with `mock_components/GenericSystem` semantics: commands come back
/// as states on the next read. See the [crate docs](crate) for what exactly it does.
///
/// It claims every controlled joint (the `<Robot>Hardware` block of the mock description) and,
/// only with `mock_sensor_commands`, every sensor.
pub struct MockSystem<R: RobotTypes> {
    identity: Identity,
    options: MockOptions,
    plan: Plan,
    sensors: Option<SensorReader>,
    /// The mock's own state: every read updates it and copies its claimed slots out, so the
    /// loop's state struct (which the mock does not own) always gets the whole truth.
    state: R::State,
    /// The command stored by the last `write`, mirrored by every read until the next.
    command: R::Command,
}

impl<R: RobotTypes> std::fmt::Debug for MockSystem<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.identity
            .debug(f, "MockSystem")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl<R: RobotTypes> Default for MockSystem<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<R: RobotTypes> MockSystem<R> {
    /// A mock with the definition's own parameters (`robot X { mock { .. } }`).
    pub fn new() -> Self {
        Self::with_params(R::DESCRIPTION.mock)
    }

    /// A mock with these GenericSystem parameters instead of the definition's.
    pub fn with_params(params: MockParams) -> Self {
        Self::with_options(MockOptions::new(params))
    }

    /// A mock with every option given.
    pub fn with_options(options: MockOptions) -> Self {
        let robot = R::DESCRIPTION;
        let sensors = options.params.mock_sensor_commands;
        let claims = Claims::whole_robot(robot, (0..robot.sensors.len()).filter(|_| sensors));
        let input = sensors
            .then(|| SensorInput::new(robot.sensors.iter().map(|s| (s.name.to_string(), s.kind))));
        MockSystem {
            identity: Identity::new(format!("{}Hardware", robot.type_name), claims),
            options,
            plan: Plan::default(),
            sensors: input.map(SensorReader::new),
            state: R::State::default(),
            command: R::Command::default(),
        }
    }

    /// Disables these joints (indices into the robot's `joints`), as the runtime configuration's
    /// `enabled: false` does: they keep their initial state and their commands are never read.
    pub fn with_disabled_joints(mut self, joints: &[usize]) -> Self {
        self.options.disabled_joints.extend_from_slice(joints);
        self
    }

    /// Runs `joint` in `mode` under `calculate_dynamics` (GenericSystem's command-mode switch).
    /// `on_init` fails if the joint has no command of that kind.
    pub fn with_command_mode(mut self, joint: usize, mode: CommandMode) -> Self {
        self.options.command_modes.push((joint, mode));
        self
    }

    /// Sends mirrored positions plus the following offset to this state interface instead of
    /// `position` (GenericSystem's `custom_interface_with_following_offset`).
    pub fn with_custom_interface_with_following_offset(mut self, kind: InterfaceKind) -> Self {
        self.options.custom_interface_with_following_offset = Some(kind);
        self
    }

    /// The options in force.
    pub fn options(&self) -> &MockOptions {
        &self.options
    }

    /// Where to set the values of the mocked sensors; `None` unless `mock_sensor_commands` is on
    /// (without it the mock backs no sensor at all).
    pub fn sensor_input(&self) -> Option<SensorInput> {
        self.sensors.as_ref().map(SensorReader::input)
    }

    /// The error for an infinite command in slot `slot`, naming joint and interface.
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

impl<R: RobotTypes> Component<R> for MockSystem<R> {
    fn identity(&self) -> &Identity {
        &self.identity
    }

    fn on_init(&mut self) -> Result<(), HardwareError> {
        self.plan = Plan::resolve(
            R::DESCRIPTION,
            &R::STATE_LAYOUT,
            &R::COMMAND_LAYOUT,
            &self.options,
            self.identity.name(),
        )?;
        Ok(())
    }

    /// Puts every state at its `initial_value` (else 0), plus the following offset on positions,
    /// and every command at its `initial_value` (else NaN, no command yet), as GenericSystem's
    /// handles start and its `on_configure` sets them. The next read delivers them.
    fn on_configure(&mut self) -> Result<(), HardwareError> {
        self.state = R::State::default();
        let state = self.state.as_mut_slice();
        for &(slot, value) in &self.plan.initial_state {
            state[slot] = value;
        }
        self.command = R::Command::default();
        let command = self.command.as_mut_slice();
        for &(slot, value) in &self.plan.initial_command {
            command[slot] = value;
        }
        if let Some(sensors) = &mut self.sensors {
            sensors.reset();
        }
        Ok(())
    }

    /// GenericSystem does nothing here; the System has already seeded safe commands, which the
    /// first `write` stores.
    fn on_activate(
        &mut self,
        _state: &R::State,
        _command: &mut R::Command,
    ) -> Result<(), HardwareError> {
        Ok(())
    }

    /// Nothing to switch off. The last stored command stays, as GenericSystem's command handles
    /// keep their values: an inactive mock goes on mirroring it (and integrating it, with
    /// `calculate_dynamics`), but takes no new one, since an inactive System never writes.
    fn on_deactivate(&mut self) -> Result<(), HardwareError> {
        Ok(())
    }

    fn read(&mut self, clock: Clock, state: &mut R::State) -> Result<(), HardwareError> {
        let plan = &self.plan;
        let own = self.state.as_mut_slice();
        if !self.options.params.disable_commands {
            let command = self.command.as_slice();
            let offset = plan.position_offset;
            if self.options.params.calculate_dynamics {
                let dt = clock.period.as_secs_f64();
                for joint in &plan.dynamics {
                    dynamics::step(joint, own, command, dt, offset);
                }
            } else {
                for pair in &plan.positions {
                    let value = command[pair.command];
                    if value.is_finite() {
                        own[pair.state] = value + offset;
                    }
                }
            }
            for pair in &plan.loopback {
                let value = command[pair.command];
                if value.is_finite() {
                    own[pair.state] = value;
                }
            }
            let custom_offset = self.options.params.position_state_following_offset;
            for pair in &plan.custom {
                let value = command[pair.command] + custom_offset;
                if value.is_finite() {
                    own[pair.state] = value;
                }
            }
            plan.mimics.apply(own);
            if let Some(sensors) = &mut self.sensors {
                sensors.apply(&plan.sensors, own);
            }
        }
        let out = state.as_mut_slice();
        for run in &plan.state_ranges {
            out[run.clone()].copy_from_slice(&own[run.clone()]);
        }
        Ok(())
    }

    /// Stores the commands of every enabled joint for the next reads. An infinite value anywhere
    /// in them is an [`ErrorKind::InvalidCommand`] and nothing is stored.
    fn write(&mut self, _clock: Clock, command: &R::Command) -> Result<(), HardwareError> {
        if self.options.params.disable_commands {
            // A disconnected driver: nothing arrives.
            return Ok(());
        }
        let source = command.as_slice();
        // One branch-free pass (vectorises); the slot is searched for only on the error path.
        let any_infinite = self.plan.command_ranges.iter().fold(false, |acc, run| {
            source[run.clone()]
                .iter()
                .fold(acc, |acc, v| acc | v.is_infinite())
        });
        if any_infinite {
            for run in &self.plan.command_ranges {
                if let Some(i) = source[run.clone()].iter().position(|v| v.is_infinite()) {
                    return Err(self.infinite_command(run.start + i, source[run.start + i]));
                }
            }
        }
        let stored = self.command.as_mut_slice();
        for run in &self.plan.command_ranges {
            stored[run.clone()].copy_from_slice(&source[run.clone()]);
        }
        Ok(())
    }
}
