//! What a robot crate registers with its [`App`]: its robots, and its controllers, each runnable
//! alone (`run --controller name`) and under the controller manager (`run --controllers ...`).

use std::cell::RefCell;
use std::rc::Rc;

use robot_core::control_loop::Controller;
use robot_core::controller_manager::{Claims, Managed, Typed, TypedController};
use robot_core::typed::RobotTypes;

use super::App;
use super::registry;
use crate::managed::UserController;

impl App {
    /// Adds robot `R` (for `emit`, `describe` and `check`); [`App::controller`] adds it too.
    /// Its controllers include `trajectory`, shipped with the runner
    /// ([`ros2_trajectory::TrajectoryController`]), never the default.
    pub fn robot<R: RobotTypes>(mut self) -> App {
        if !self.robots.iter().any(|r| r.name == R::DESCRIPTION.name) {
            self.robots.push(R::DESCRIPTION);
            self.chaos.push(super::chaos::Chaos::of::<R>());
            self.controllers.push(registry::trajectory::<R>());
            let own: Rc<RefCell<Vec<UserController<R>>>> = Rc::default();
            self.controllers.push(registry::manager::<R>(own.clone()));
            self.managed
                .push((R::DESCRIPTION.name.as_ref(), Box::new(own)));
        }
        self
    }

    /// Adds a controller of robot `R` that `run --controller name` runs, built fresh by `make`
    /// for each run. A robot's first controller is its default. Under the controller manager
    /// (`run --controllers name,...`) it claims the whole robot.
    pub fn controller<R: RobotTypes, C: Controller<R> + 'static>(
        self,
        name: &'static str,
        about: &'static str,
        make: impl Fn() -> C + 'static,
    ) -> App {
        let make = Rc::new(make);
        let for_run = make.clone();
        let mut app = self.register::<R, C>(name, about, move || for_run());
        let kind = format!("{}/{name}", app.name);
        app.manage::<R>(Box::new(move || {
            Ok(Managed {
                name: name.to_string(),
                kind: kind.clone(),
                claims: Claims::all::<R>(),
                reads: Vec::new(),
                active: false,
                controller: Box::new(make()),
            })
        }));
        app
    }

    /// Adds a controller of robot `R` whose claims are in its type ([`TypedController`]: the
    /// joints of one bus, `lite_biped::LeftLegBus`), as [`App::controller`] adds one: `run
    /// --controller name` runs it alone, and under the controller manager (`run --controllers
    /// name,...`) it claims only its joints, beside the controllers of the others.
    pub fn typed_controller<R: RobotTypes, C: TypedController<R>>(
        self,
        name: &'static str,
        about: &'static str,
        make: impl Fn() -> C + 'static,
    ) -> App {
        let make = Rc::new(make);
        let for_run = make.clone();
        let mut app = self.register::<R, Typed<R, C>>(name, about, move || Typed::new(for_run()));
        let kind = format!("{}/{name}", app.name);
        app.manage::<R>(Box::new(move || Managed::typed(name, &kind, make(), false)));
        app
    }

    /// `run --controller name`'s entry for `make`'s controller of robot `R`.
    fn register<R: RobotTypes, C: Controller<R> + 'static>(
        self,
        name: &'static str,
        about: &'static str,
        make: impl Fn() -> C + 'static,
    ) -> App {
        let mut app = self.robot::<R>();
        // A crate's own `trajectory` takes the shipped one's place.
        app.controllers
            .retain(|c| !(c.shipped && c.robot.name == R::DESCRIPTION.name && c.name == name));
        if app
            .controllers
            .iter()
            .any(|c| c.robot.name == R::DESCRIPTION.name && c.name == name)
        {
            app.problems.push(format!(
                "controller `{name}` of {} is registered twice: give each controller its own name",
                R::DESCRIPTION.name
            ));
        }
        app.controllers
            .push(registry::registered::<R, C>(name, about, make));
        app
    }

    /// Adds `make` to robot `R`'s controllers under the manager.
    fn manage<R: RobotTypes>(&mut self, make: UserController<R>) {
        let own = (self.managed.iter())
            .find(|(robot, _)| *robot == R::DESCRIPTION.name.as_ref())
            .and_then(|(_, own)| own.downcast_ref::<Rc<RefCell<Vec<UserController<R>>>>>());
        if let Some(own) = own {
            own.borrow_mut().push(make);
        }
    }
}
