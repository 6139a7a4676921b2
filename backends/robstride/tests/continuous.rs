//! A continuous joint turns past the MIT frame's ±4π window: the simulated motor reports its
//! angle looping within the window, as newer firmware does, and runs its law against that looped
//! angle; the component counts the turns, so the joint's `position` is its whole angle, and sends
//! position targets relative to the report, so a target several turns on is reached with the
//! torque of its error alone (`backend_robstride::turns`).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use backend_robstride::component::RobstrideBus;
use common::{CLOCK, last_mit, rig, rs02};
use robot_core::actuator::POSITION_SPAN;
use robot_core::control_loop::{ControlLoop, Controller, ControllerError, Fault};
use robot_core::hardware::{Clock, Component, ErrorKind, System};
use robot_macros::robot;
use robstride_sim::SimBus;
use robstride_sim::bus::NodeId;
use robstride_sim::{AngleReport, SimActuator};

robot! {
    robot Spindle { update_rate: 200 Hz }
    bus base {}
    link base {}
    link plate {}
    /// Turns without end, through a reversed motor with its zero half a radian off.
    joint spin: continuous {
        parent: base,
        child: plate,
        axis: [0, 0, 1],
        limits { velocity: 20, effort: 10 },
        actuator { bus: base, can_id: 5, model: RS02, direction: -1, zero_offset: 0.5 },
        command: [position, velocity, effort, stiffness, damping],
        state: [position, velocity, effort],
    }
}

struct Rig {
    sim: SimBus,
    motor: NodeId,
    bus: RobstrideBus<Spindle>,
    state: SpindleState,
    command: SpindleCommand,
}

impl Rig {
    /// Active, the joint at 0 (the motor at its zero offset, 0.5 rad).
    fn new(report: AngleReport) -> Rig {
        let (sim, nodes, mut bus) =
            rig::<Spindle>("base", None, [rs02(5, 0.5).with_angle_report(report)]);
        let (mut state, mut command) = (SpindleState::default(), SpindleCommand::default());
        bus.on_init().unwrap();
        bus.on_configure().unwrap();
        bus.read(CLOCK, &mut state).unwrap();
        bus.on_activate(&state, &mut command).unwrap();
        Rig {
            sim,
            motor: nodes[0],
            bus,
            state,
            command,
        }
    }

    fn cycle(&mut self) {
        self.bus.write(CLOCK, &self.command).unwrap();
        self.sim.advance(CLOCK.period);
        self.bus.read(CLOCK, &mut self.state).unwrap();
    }

    /// The joint angle the simulated motor is at, over any number of turns.
    fn joint_angle(&self) -> f64 {
        let motor = self
            .sim
            .with_node(self.motor, |m: &mut SimActuator| m.position())
            .unwrap();
        -(motor - 0.5)
    }

    /// Cycle `k` of a ramp to 30 rad over 3 s (600 cycles), then a hold, with Kp 20 and Kd 1:
    /// its command, then the cycle.
    fn ramp_cycle(&mut self, k: u32) {
        self.command.spin.position = (f64::from(k) / 600.0).min(1.0) * 30.0;
        self.command.spin.velocity = if k < 600 { 10.0 } else { 0.0 };
        self.command.spin.effort = 0.0;
        self.command.spin.stiffness = 20.0;
        self.command.spin.damping = 1.0;
        self.cycle();
    }

    fn clamps(&self) -> u64 {
        let counters = self.bus.counters();
        counters
            .iter()
            .find(|c| c.name == "commands clamped")
            .map(|c| c.value)
            .unwrap()
    }
}

#[test]
fn driven_by_velocity_the_position_counts_every_turn_without_a_jump() {
    let mut rig = Rig::new(AngleReport::Looping);
    rig.command.spin.position = 0.0;
    rig.command.spin.velocity = -15.0;
    rig.command.spin.effort = 0.0;
    rig.command.spin.stiffness = 0.0;
    rig.command.spin.damping = 2.0;
    let mut last = rig.state.spin.position;
    // 4 s at 15 rad/s: 60 rad, past −4π and two whole loops of the motor's report.
    for _ in 0..800 {
        rig.cycle();
        let step = rig.state.spin.position - last;
        assert!((-0.1..=0.001).contains(&step), "a jump of {step} rad");
        last = rig.state.spin.position;
    }
    assert!(last < -55.0, "{last}");
    // The state is one cycle old: within a cycle's motion of the motor, not 8π off.
    assert!((last - rig.joint_angle()).abs() < 0.1, "{last}");
    assert_eq!(rig.clamps(), 0);
}

#[test]
fn a_position_target_turns_on_is_reached_with_the_torque_of_its_error() {
    let mut rig = Rig::new(AngleReport::Looping);
    // The ramp to 30 rad, then the hold: the motor's report loops at its −4π.
    for k in 0..=800 {
        rig.ramp_cycle(k);
        let sent = last_mit(&rig.sim).position;
        assert!(sent.abs() <= POSITION_SPAN + 1e-3, "{sent}");
        // Kp·error is the torque the firmware applies: never a loop's worth of error.
        let error = rig.command.spin.position - rig.state.spin.position;
        assert!(error.abs() < 0.5, "cycle {k}: error {error} rad");
        // Nor for a cycle while the motor loops: no more than the joint's effort limit.
        let torque = rig
            .sim
            .with_node(rig.motor, |m: &mut SimActuator| m.shaft().torque)
            .unwrap();
        assert!(torque.abs() <= 10.0, "cycle {k}: {torque} N·m");
    }
    assert!(
        (rig.state.spin.position - 30.0).abs() < 0.01,
        "{}",
        rig.state.spin.position
    );
    assert!(
        (rig.joint_angle() - 30.0).abs() < 0.01,
        "{}",
        rig.joint_angle()
    );
    assert_eq!(
        rig.clamps(),
        0,
        "a target past the window's edge is not a clamp"
    );
}

#[test]
fn firmware_that_saturates_ends_the_run_at_the_windows_edge_switched_off() {
    // The same ramp on firmware that holds its report at −4π while the motor turns on: the
    // host cannot see it move, so the first cycles that show it are the run's last.
    let (sim, nodes, bus) = rig::<Spindle>(
        "base",
        None,
        [rs02(5, 0.5).with_angle_report(AngleReport::Saturating)],
    );
    let components: Vec<Box<dyn Component<Spindle>>> = vec![Box::new(bus)];
    let mut control_loop = ControlLoop::new(System::new(components).unwrap(), Ramp, None);
    control_loop.configure().unwrap();
    control_loop.activate(CLOCK).unwrap();
    let motor = || {
        sim.with_node(nodes[0], |m: &mut SimActuator| m.position())
            .unwrap()
    };
    let mut ended = None;
    for cycle in 1..=800 {
        sim.advance(CLOCK.period);
        if let Err(fault) = control_loop.cycle(Clock {
            time: CLOCK.period * cycle,
            ..CLOCK
        }) {
            ended = Some((cycle, fault));
            break;
        }
    }
    let Some((cycle, Fault::Hardware(error))) = ended else {
        panic!("the run goes on, the motor at {:.3} rad", motor())
    };
    assert_eq!(error.kind(), ErrorKind::DeviceFault);
    assert!(
        error.message().starts_with(
            "joint spin (bus base, id 5) reports its motor's angle held at the ±4π window's edge \
             (-12.566 rad) while its velocity took it"
        ) && error
            .message()
            .contains("firmware that saturates its angle report"),
        "{error}"
    );
    // Ended as the motor passed the edge at 10 rad/s, in a cycle or two: 0.05 rad a cycle.
    let past = -POSITION_SPAN - motor();
    assert!(
        (0.0..0.15).contains(&past),
        "{past} rad past the edge at cycle {cycle}"
    );
    assert!(
        !sim.with_node(nodes[0], |m: &mut SimActuator| m.enabled())
            .unwrap(),
        "switched off"
    );
}

/// The ramp of [`Rig::ramp_cycle`] as a controller.
struct Ramp;

impl Controller<Spindle> for Ramp {
    fn update(
        &mut self,
        clock: Clock,
        _state: &SpindleState,
        command: &mut SpindleCommand,
    ) -> Result<(), ControllerError> {
        let k = (clock.time.as_secs_f64() / CLOCK.period.as_secs_f64()).round();
        command.spin.position = (k / 600.0).min(1.0) * 30.0;
        command.spin.velocity = if k < 600.0 { 10.0 } else { 0.0 };
        command.spin.effort = 0.0;
        command.spin.stiffness = 20.0;
        command.spin.damping = 1.0;
        Ok(())
    }
}
