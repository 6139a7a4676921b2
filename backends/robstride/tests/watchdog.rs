//! The motors' CAN watchdog (`canTimeout`): what switches the robot off when this process cannot
//! (killed by SIGKILL, the host hung, the adapter unplugged). The component arms it at configure
//! and reads it back; a motor that then hears nothing for that long drops to reset.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use std::time::Duration;

use backend_robstride::component::BusOptions;
use common::pair::{Pair, PairCommand, PairState};
use common::{CLOCK, component_on, rig, rs02};
use robot_core::control_loop::{ControlLoop, Controller, ControllerError, Fault};
use robot_core::hardware::{Clock, Component, ErrorKind, System};
use robstride_protocol::{
    Command, Frame, Param, ParamOutcome, ParamReply, ParamValue, Reply, Request, RobstrideModel,
};
use robstride_sim::SimActuator;
use robstride_sim::SimBus;
use robstride_sim::bus::{Node, NodeId, Outbox};

/// Pushes both joints with 1 N·m and nothing else: that torque on both motors every cycle.
struct Push;

impl Controller<Pair> for Push {
    fn update(
        &mut self,
        _clock: Clock,
        state: &PairState,
        command: &mut PairCommand,
    ) -> Result<(), ControllerError> {
        command.shoulder.position = state.shoulder.position;
        command.shoulder.effort = 1.0;
        command.elbow.position = state.elbow.position;
        command.elbow.effort = 1.0;
        Ok(())
    }
}

fn clock(cycle: u32) -> Clock {
    Clock {
        time: CLOCK.period * cycle,
        ..CLOCK
    }
}

/// The pair on a simulated bus with `options`, configured, activated and run for 20 cycles.
fn running(options: BusOptions) -> (SimBus, Vec<NodeId>, ControlLoop<Pair, Push>) {
    let (sim, nodes, _) = rig::<Pair>("arm", None, [rs02(1, 0.5), rs02(2, 0.0)]);
    let components: Vec<Box<dyn Component<Pair>>> =
        vec![Box::new(component_on::<Pair>(&sim, None, options))];
    let mut control_loop = ControlLoop::new(System::new(components).unwrap(), Push, None);
    control_loop.configure().unwrap();
    control_loop.activate(clock(0)).unwrap();
    for cycle in 1..=20 {
        sim.advance(CLOCK.period);
        control_loop.cycle(clock(cycle)).unwrap();
    }
    (sim, nodes, control_loop)
}

/// Each motor: enabled, the torque it applies, and how often its watchdog switched it off.
fn motors(sim: &SimBus, nodes: &[NodeId]) -> Vec<(bool, f64, u64)> {
    nodes
        .iter()
        .map(|&n| {
            sim.with_node(n, |m: &mut SimActuator| {
                (m.enabled(), m.shaft().torque, m.log.watchdog_stops)
            })
            .unwrap()
        })
        .collect()
}

#[test]
fn configure_arms_every_motors_watchdog_and_a_live_loop_never_trips_it() {
    let (sim, nodes, mut control_loop) = running(BusOptions::default());
    for &node in &nodes {
        let armed = sim.with_node(node, |m: &mut SimActuator| m.param(Param::CanTimeout));
        assert_eq!(armed, Some(ParamValue::U32(2000)), "100 ms in 1/20000 s");
    }
    // 20 cycles of 5 ms, 100 ms in all: both motors on and pushing, the watchdog never tripped.
    for (enabled, torque, stops) in motors(&sim, &nodes) {
        assert!(
            enabled && (torque - 1.0).abs() < 0.01 && stops == 0,
            "{enabled} {torque} {stops}"
        );
    }
    control_loop.deactivate().unwrap();
}

#[test]
fn a_host_that_dies_mid_run_leaves_motors_that_switch_themselves_off() {
    let (sim, nodes, control_loop) = running(BusOptions::default());
    // SIGKILL: no deactivation, no drop, no stop frame; the motors keep their last command.
    std::mem::forget(control_loop);
    let sent = sim.take_sent().len();
    sim.advance(Duration::from_millis(90));
    for (enabled, torque, stops) in motors(&sim, &nodes) {
        assert!(
            enabled && (torque - 1.0).abs() < 0.01 && stops == 0,
            "still pushing 90 ms on"
        );
    }
    sim.advance(Duration::from_millis(20));
    for (enabled, torque, stops) in motors(&sim, &nodes) {
        assert!(
            !enabled && torque == 0.0 && stops == 1,
            "{enabled} {torque} {stops}"
        );
    }
    assert_eq!(
        sim.take_sent().len(),
        0,
        "nothing was sent: {sent} frames before"
    );
}

#[test]
fn the_watchdog_fits_the_loop_rate_and_a_period_too_long_for_it_is_refused() {
    let watchdog = |hz| BusOptions::at_rate(hz).watchdog.unwrap();
    assert_eq!(watchdog(200), Duration::from_millis(100));
    assert_eq!(watchdog(1000), Duration::from_millis(100));
    assert_eq!(watchdog(10), Duration::from_millis(500));
    assert_eq!(watchdog(1), Duration::from_secs(5));
    assert_eq!(
        BusOptions::default().watchdog,
        Some(Duration::from_millis(100))
    );

    // A loop at 10 Hz on the default 100 ms watchdog: refused before a command goes out.
    let (sim, nodes, mut control_loop) = running(BusOptions::default());
    sim.take_sent();
    let slow = Clock {
        time: Duration::from_secs(1),
        period: Duration::from_millis(100),
    };
    let Err(Fault::Hardware(error)) = control_loop.cycle(slow) else {
        panic!("the cycle is refused")
    };
    assert_eq!(error.kind(), ErrorKind::Unsupported);
    assert_eq!(
        error.message(),
        "the motors' CAN watchdog (100 ms) is shorter than two loop periods (100 ms each): they \
         would switch off between cycles; give BusOptions::at_rate the loop's rate"
    );
    let sent = sim.take_sent();
    assert!(
        sent.iter()
            .all(|f| (f.extended_id().unwrap() >> 24) as u8 == 4),
        "only the stops of switching off: {sent:?}"
    );
    assert!(motors(&sim, &nodes).iter().all(|(enabled, ..)| !enabled));
}

/// A motor whose firmware has no `canTimeout`: it refuses to read it (and ignores the write).
struct WithoutWatchdog(SimActuator);

impl Node for WithoutWatchdog {
    fn receive(&mut self, now: Duration, frame: &Frame, out: &mut Outbox<'_>) {
        if let Ok(request) = Request::decode(frame, RobstrideModel::RS02)
            && request.motor == self.0.motor_id()
        {
            match request.command {
                Command::ReadParam { index } if index == Param::CanTimeout.index() => {
                    let reply = Reply::Param(ParamReply {
                        motor: request.motor,
                        host: request.host,
                        index,
                        outcome: ParamOutcome::Failed,
                    });
                    out.send(reply.encode());
                    return;
                }
                Command::WriteParam(write) if write.param() == Param::CanTimeout => {
                    // Acknowledged with feedback, as any write, and kept nowhere.
                    let stop =
                        Command::Stop.encode(RobstrideModel::RS02, request.host, request.motor);
                    return self.0.receive(now, &stop, out);
                }
                _ => {}
            }
        }
        self.0.receive(now, frame, out);
    }

    fn tick(&mut self, now: Duration, out: &mut Outbox<'_>) {
        self.0.tick(now, out);
    }
}

#[test]
fn firmware_without_the_watchdog_fails_configure_naming_the_motor_and_the_way_out() {
    let sim = SimBus::new("arm");
    sim.attach(rs02(1, 0.5));
    sim.attach(WithoutWatchdog(rs02(2, 0.0)));
    let mut bus = component_on::<Pair>(&sim, None, BusOptions::default());
    bus.on_init().unwrap();
    let error = bus.on_configure().unwrap_err();
    assert_eq!(error.kind(), ErrorKind::DeviceFault);
    assert!(
        error.message().starts_with(
            "the CAN watchdog (canTimeout, 0x7028) was set to 2000 (100 ms) on bus arm, but elbow \
             (id 2) reads Failed: a motor without it keeps its last command if this process \
             dies; to run without one anyway, set BusOptions::watchdog to None"
        ),
        "{error}"
    );
    // Without a watchdog, by the user's choice, it configures.
    let options = BusOptions {
        watchdog: None,
        ..BusOptions::default()
    };
    let mut bus = component_on::<Pair>(&sim, None, options);
    bus.on_init().unwrap();
    bus.on_configure().unwrap();
}

#[test]
fn a_watchdog_lost_to_a_power_cycle_is_armed_again_at_activation() {
    let (sim, nodes, mut control_loop) = running(BusOptions::default());
    control_loop.deactivate().unwrap();
    // The elbow's power is cycled while the bus is inactive: its RAM, the watchdog with it, is
    // lost.
    sim.with_node(nodes[1], |m: &mut SimActuator| m.power_cycle(1));
    assert_eq!(
        sim.with_node(nodes[1], |m: &mut SimActuator| m.param(Param::CanTimeout)),
        Some(ParamValue::U32(0))
    );
    control_loop.activate(clock(30)).unwrap();
    for &node in &nodes {
        let armed = sim.with_node(node, |m: &mut SimActuator| m.param(Param::CanTimeout));
        assert_eq!(armed, Some(ParamValue::U32(2000)));
    }
    for cycle in 31..=35 {
        sim.advance(CLOCK.period);
        control_loop.cycle(clock(cycle)).unwrap();
    }
    std::mem::forget(control_loop); // the host dies
    sim.advance(Duration::from_millis(150));
    for (enabled, torque, stops) in motors(&sim, &nodes) {
        assert!(
            !enabled && torque == 0.0 && stops == 1,
            "{enabled} {torque} {stops}"
        );
    }
}

/// A motor whose cable can be pulled: unplugged, it hears and answers nothing, and runs on.
struct Pluggable {
    motor: SimActuator,
    unplugged: bool,
}

impl Node for Pluggable {
    fn receive(&mut self, now: Duration, frame: &Frame, out: &mut Outbox<'_>) {
        if !self.unplugged {
            self.motor.receive(now, frame, out);
        }
    }

    fn tick(&mut self, now: Duration, out: &mut Outbox<'_>) {
        self.motor.tick(now, out);
    }
}

#[test]
fn a_stop_is_confirmed_only_by_a_motor_out_of_run_mode_not_by_a_queued_reply() {
    let sim = SimBus::new("arm");
    let nodes = [
        sim.attach(rs02(1, 0.5)),
        sim.attach(Pluggable {
            motor: rs02(2, 0.0),
            unplugged: false,
        }),
    ];
    let components: Vec<Box<dyn Component<Pair>>> = vec![Box::new(component_on::<Pair>(
        &sim,
        None,
        BusOptions::default(),
    ))];
    let mut control_loop = ControlLoop::new(System::new(components).unwrap(), Push, None);
    control_loop.configure().unwrap();
    control_loop.activate(clock(0)).unwrap();
    for cycle in 1..=5 {
        sim.advance(CLOCK.period);
        control_loop.cycle(clock(cycle)).unwrap();
    }
    // The elbow's cable comes off right after it answered the last command: that reply, still
    // queued and saying "run", must not pass for the stop's.
    sim.with_node(nodes[1], |p: &mut Pluggable| p.unplugged = true);
    let failures = control_loop.deactivate().unwrap_err();
    assert!(
        failures
            .iter()
            .all(|f| f.message().contains("no reply to a stop") && f.message().contains("elbow")),
        "{failures:?}"
    );
    let elbow = |sim: &SimBus| {
        sim.with_node(nodes[1], |p: &mut Pluggable| {
            (p.motor.enabled(), p.motor.log.watchdog_stops)
        })
        .unwrap()
    };
    // Each of the three torque-off attempts waited its 50 ms on the bus's clock: the elbow's
    // watchdog (100 ms), which the cable does not cut, switched it off meanwhile, on its own.
    assert!(sim.now() >= Duration::from_millis(150), "{:?}", sim.now());
    assert_eq!(elbow(&sim), (false, 1));
}

#[test]
fn a_motor_that_drops_out_of_run_mode_mid_run_ends_the_run() {
    let (sim, nodes, mut control_loop) = running(BusOptions::default());
    // A brown-out: the elbow restarts disabled, and answers the next command in reset mode.
    sim.with_node(nodes[1], |m: &mut SimActuator| m.power_cycle(1));
    sim.advance(CLOCK.period);
    control_loop.cycle(clock(21)).unwrap(); // the command goes out; its reply is read next
    sim.advance(CLOCK.period);
    let Err(Fault::Hardware(error)) = control_loop.cycle(clock(22)) else {
        panic!("the run ends")
    };
    assert_eq!(error.kind(), ErrorKind::DeviceFault);
    assert!(
        error.message().contains(
            "joint elbow (bus arm, id 2) dropped out of run mode (Reset): it switched itself off"
        ),
        "{error}"
    );
    assert!(motors(&sim, &nodes).iter().all(|(enabled, ..)| !enabled));
}
