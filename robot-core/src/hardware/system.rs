//! Several components driving one robot, through one lifecycle.

use super::component::{Clock, Component};
use super::error::{ErrorKind, HardwareError};
use super::seed::seed_safe_commands;
use crate::typed::RobotTypes;

/// Where a [`System`] is in its lifecycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lifecycle {
    /// Built and initialised; nothing opened.
    Unconfigured,
    /// Configured: state is read, nothing is sent.
    Inactive,
    /// Enabled: state is read and commands are sent.
    Active,
}

impl std::fmt::Display for Lifecycle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Lifecycle::Unconfigured => "unconfigured",
            Lifecycle::Inactive => "inactive",
            Lifecycle::Active => "active",
        })
    }
}

/// The components of one robot, run in turn over its one state and command struct.
pub struct System<R: RobotTypes> {
    components: Vec<Box<dyn Component<R>>>,
    lifecycle: Lifecycle,
}

impl<R: RobotTypes> std::fmt::Debug for System<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.components.iter().map(|c| c.name()).collect();
        f.debug_struct("System")
            .field("components", &names)
            .field("lifecycle", &self.lifecycle)
            .finish()
    }
}

const SYSTEM: &str = "system";

impl<R: RobotTypes> System<R> {
    /// Takes the components and runs their `on_init`. Fails when two components claim the same
    /// joint or sensor, when a claim is not part of the robot, or when any `on_init` fails.
    pub fn new(components: Vec<Box<dyn Component<R>>>) -> Result<Self, HardwareError> {
        let robot = R::DESCRIPTION;
        let mut joint_owner: Vec<Option<usize>> = vec![None; robot.joints.len()];
        let mut sensor_owner: Vec<Option<usize>> = vec![None; robot.sensors.len()];
        for (index, component) in components.iter().enumerate() {
            let claims = component.claims();
            for (what, items, owners, names) in [
                (
                    "joint",
                    &claims.joints,
                    &mut joint_owner,
                    robot
                        .joints
                        .iter()
                        .map(|j| j.name.to_string())
                        .collect::<Vec<_>>(),
                ),
                (
                    "sensor",
                    &claims.sensors,
                    &mut sensor_owner,
                    robot.sensors.iter().map(|s| s.name.to_string()).collect(),
                ),
            ] {
                for &item in items {
                    let Some(owner) = owners.get_mut(item) else {
                        return Err(HardwareError::new(
                            component.name(),
                            ErrorKind::Unsupported,
                            format!(
                                "claims {what} #{item}, but `{}` has only {}",
                                robot.name,
                                names.len()
                            ),
                        ));
                    };
                    if let Some(other) = owner.replace(index) {
                        return Err(HardwareError::new(
                            component.name(),
                            ErrorKind::Unsupported,
                            format!(
                                "{what} `{}` is already driven by `{}`",
                                names[item],
                                components[other].name()
                            ),
                        ));
                    }
                }
            }
        }
        let mut system = System {
            components,
            lifecycle: Lifecycle::Unconfigured,
        };
        for component in &mut system.components {
            component.on_init()?;
        }
        Ok(system)
    }

    /// The lifecycle state.
    pub fn lifecycle(&self) -> Lifecycle {
        self.lifecycle
    }

    /// The components' names, in order.
    pub fn component_names(&self) -> impl Iterator<Item = &str> {
        self.components.iter().map(|c| c.name())
    }

    fn expect(&self, wanted: Lifecycle, action: &str) -> Result<(), HardwareError> {
        if self.lifecycle == wanted {
            Ok(())
        } else {
            Err(HardwareError::new(
                SYSTEM,
                ErrorKind::Lifecycle,
                format!(
                    "cannot {action}: the system is {}, not {wanted}",
                    self.lifecycle
                ),
            ))
        }
    }

    /// Unconfigured → inactive: every component's `on_configure`. On a failure, the failing
    /// component and those already configured are cleaned up again.
    pub fn configure(&mut self) -> Result<(), HardwareError> {
        self.expect(Lifecycle::Unconfigured, "configure")?;
        for index in 0..self.components.len() {
            if let Err(error) = self.components[index].on_configure() {
                // The failing component too: it may have opened part of what it needs.
                for done in self.components[..=index].iter_mut().rev() {
                    let _ = done.on_cleanup();
                }
                return Err(error);
            }
        }
        self.lifecycle = Lifecycle::Inactive;
        Ok(())
    }

    /// Inactive → unconfigured: every component's `on_cleanup`.
    pub fn cleanup(&mut self) -> Result<(), HardwareError> {
        self.expect(Lifecycle::Inactive, "clean up")?;
        let mut first_error = None;
        for component in self.components.iter_mut().rev() {
            if let Err(error) = component.on_cleanup() {
                first_error.get_or_insert(error);
            }
        }
        self.lifecycle = Lifecycle::Unconfigured;
        first_error.map_or(Ok(()), Err)
    }

    /// Inactive → active. Reads the state, seeds every command to a safe value
    /// ([`seed_safe_commands`]), then runs every component's `on_activate`. On a failure the
    /// components already activated are deactivated again and the system stays inactive.
    pub fn activate(
        &mut self,
        clock: Clock,
        state: &mut R::State,
        command: &mut R::Command,
    ) -> Result<(), HardwareError> {
        self.expect(Lifecycle::Inactive, "activate")?;
        self.read(clock, state)?;
        seed_safe_commands::<R>(state, command);
        for index in 0..self.components.len() {
            if let Err(error) = self.components[index].on_activate(state, command) {
                // The failing component too: it may have enabled some of its motors already.
                for done in self.components[..=index].iter_mut().rev() {
                    let _ = done.on_deactivate();
                }
                return Err(error);
            }
        }
        self.lifecycle = Lifecycle::Active;
        Ok(())
    }

    /// Active → inactive: every component's `on_deactivate`, all of them even when one fails
    /// (torque off everywhere matters more than the first error).
    pub fn deactivate(&mut self) -> Result<(), HardwareError> {
        self.expect(Lifecycle::Active, "deactivate")?;
        let mut first_error = None;
        for component in self.components.iter_mut() {
            if let Err(error) = component.on_deactivate() {
                first_error.get_or_insert(error);
            }
        }
        self.lifecycle = Lifecycle::Inactive;
        first_error.map_or(Ok(()), Err)
    }

    /// Every component's `read`, while inactive or active.
    pub fn read(&mut self, clock: Clock, state: &mut R::State) -> Result<(), HardwareError> {
        if self.lifecycle == Lifecycle::Unconfigured {
            return Err(HardwareError::new(
                SYSTEM,
                ErrorKind::Lifecycle,
                "cannot read: the system is unconfigured",
            ));
        }
        for component in &mut self.components {
            component.read(clock, state)?;
        }
        Ok(())
    }

    /// Every component's `write` while active; nothing at all while inactive (seed `003`: see the
    /// real state before enabling anything).
    pub fn write(&mut self, clock: Clock, command: &R::Command) -> Result<(), HardwareError> {
        match self.lifecycle {
            Lifecycle::Active => {
                for component in &mut self.components {
                    component.write(clock, command)?;
                }
                Ok(())
            }
            Lifecycle::Inactive => Ok(()),
            Lifecycle::Unconfigured => Err(HardwareError::new(
                SYSTEM,
                ErrorKind::Lifecycle,
                "cannot write: the system is unconfigured",
            )),
        }
    }
}
