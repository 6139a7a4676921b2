//! MuJoCo under the schedules: the backend's one component, watched. There is no wire to
//! watch, so the simulation's own state stands in for it: after every step, whether its motors
//! apply torque (any actuator's control not zero), which must stop once torque-off began and be
//! off at the end, or the run must name the component as still active.

use std::time::Duration;

use backend_mujoco::{ModelSource, MujocoOptions, MujocoSystem};
use robot_runtime::hardware::{Clock, Component, Counters, HardwareError, Identity, Lifecycle};
use robot_runtime::typed::RobotTypes;

use crate::world::World;

/// The MuJoCo component, reporting its motors' torque to the world.
pub struct Watched<R: RobotTypes> {
    inner: MujocoSystem<R>,
    world: World,
}

impl<R: RobotTypes> std::fmt::Debug for Watched<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watched").finish_non_exhaustive()
    }
}

impl<R: RobotTypes> Watched<R> {
    /// The robot on the floor scene, stepping five times a `period`.
    pub fn new(world: &World, period: Duration) -> Watched<R> {
        let options = MujocoOptions {
            model: ModelSource::Scene,
            period: Some(period),
            ..MujocoOptions::default()
        };
        Watched {
            inner: MujocoSystem::new(options),
            world: world.clone(),
        }
    }

    /// Whether any motor applies torque, by the simulation's controls.
    fn torque_on(&self) -> bool {
        self.inner
            .data()
            .is_some_and(|data| data.ctrl().iter().any(|&c| c != 0.0))
    }

    fn report(&self) {
        let on = self.torque_on();
        self.world.torque(self.inner.name(), on);
    }
}

impl<R: RobotTypes> Drop for Watched<R> {
    fn drop(&mut self) {
        self.report();
    }
}

impl<R: RobotTypes> Component<R> for Watched<R> {
    fn identity(&self) -> &Identity {
        self.inner.identity()
    }

    fn on_init(&mut self) -> Result<(), HardwareError> {
        self.inner.on_init()
    }

    fn on_configure(&mut self) -> Result<(), HardwareError> {
        self.inner.on_configure()
    }

    fn on_cleanup(&mut self) -> Result<(), HardwareError> {
        self.inner.on_cleanup()
    }

    fn on_activate(
        &mut self,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), HardwareError> {
        let result = self.inner.on_activate(state, command);
        if result.is_ok() {
            self.world.activated();
        }
        result
    }

    fn on_deactivate(&mut self) -> Result<(), HardwareError> {
        self.world.torque_off_began();
        let result = self.inner.on_deactivate();
        self.report();
        result
    }

    fn on_shutdown(&mut self, previous: Lifecycle) -> Result<(), HardwareError> {
        self.inner.on_shutdown(previous)
    }

    fn on_error(&mut self, previous: Lifecycle) -> Result<(), HardwareError> {
        if previous == Lifecycle::Active {
            self.world.torque_off_began();
        }
        let result = self.inner.on_error(previous);
        self.report();
        result
    }

    fn read(&mut self, clock: Clock, state: &mut R::State) -> Result<(), HardwareError> {
        let result = self.inner.read(clock, state);
        self.report();
        result
    }

    fn write(&mut self, clock: Clock, command: &R::Command) -> Result<(), HardwareError> {
        self.inner.write(clock, command)
    }

    fn counters(&self) -> Counters {
        self.inner.counters()
    }

    fn events(&self) -> Vec<String> {
        self.inner.events()
    }
}
