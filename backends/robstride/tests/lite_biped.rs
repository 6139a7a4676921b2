//! The whole of lite_biped on the real path with no hardware: two in-process buses, 14 simulated
//! RobStride actuators (four-bar ankles included), one component per bus, the squat through the
//! same loop as on the mock.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::Duration;

use backend_robstride::component::{BusOptions, RobstrideBus};
use backend_robstride::transport::Transport;
use backend_robstride::transport::TransportError;
use robot_core::control_loop::{ControlLoop, Fault};
use robot_core::hardware::{Clock, Component, ErrorKind, Lifecycle, Recovery, System};
use robots::LiteBiped;
use robots::controllers::Squat;
use robstride_protocol::{CommType, Frame, Param, ParamValue};
use robstride_sim::SimBus;
use robstride_sim::bus::NodeId;
use robstride_sim::bus::SendFailure;
use robstride_sim::robot::attach_actuators;
use robstride_sim::{Failure, SimActuator};

const PERIOD: Duration = Duration::from_millis(5);

struct Rig {
    buses: Vec<(SimBus, Vec<(usize, NodeId)>)>,
    control_loop: ControlLoop<LiteBiped, Squat>,
}

fn rig() -> Rig {
    let robot = LiteBiped::DESCRIPTION;
    let mut buses = Vec::new();
    let mut components: Vec<Box<dyn Component<LiteBiped>>> = Vec::new();
    for bus in robot.buses.iter() {
        let sim = SimBus::new(&bus.name);
        let nodes = attach_actuators(robot, &bus.name, None, &sim);
        let host = sim.clone();
        components.push(Box::new(RobstrideBus::<LiteBiped>::new(
            &bus.name,
            None,
            BusOptions::default(),
            move || Ok(Box::new(host.host()) as Box<dyn Transport>),
        )));
        buses.push((sim, nodes));
    }
    let system = System::new(components).expect("one component per bus");
    Rig {
        buses,
        control_loop: ControlLoop::new(system, Squat::default(), None),
    }
}

fn comm_type(frame: &Frame) -> u8 {
    (frame.extended_id().unwrap() >> 24) as u8
}

impl Rig {
    fn clock(cycle: u32) -> Clock {
        Clock {
            time: PERIOD * cycle,
            period: PERIOD,
        }
    }

    fn advance(&self) {
        for (bus, _) in &self.buses {
            bus.advance(PERIOD);
        }
    }
}

#[test]
fn the_squat_runs_on_simulated_actuators_and_nothing_moves_while_inactive() {
    let mut rig = rig();
    rig.control_loop.configure().unwrap();
    for cycle in 0..20 {
        rig.advance();
        rig.control_loop.cycle(Rig::clock(cycle)).unwrap();
    }
    // Inactive: configure's stops and watchdog write and read-back, one each per motor, and
    // nothing else, went out on either bus.
    for (bus, nodes) in &rig.buses {
        let sent = bus.take_sent();
        let types: Vec<u8> = sent.iter().map(comm_type).collect();
        let expected = [CommType::Stop, CommType::WriteParam, CommType::ReadParam]
            .map(|t| vec![t as u8; nodes.len()])
            .concat();
        assert_eq!(types, expected, "{}", bus.name());
        // Every motor's watchdog armed: 100 ms, 20 cycles at 200 Hz.
        for (_, node) in nodes {
            let watchdog = bus.with_node(*node, |m: &mut SimActuator| m.param(Param::CanTimeout));
            assert_eq!(watchdog, Some(ParamValue::U32(2000)));
        }
    }
    rig.control_loop.activate(Rig::clock(20)).unwrap();
    // 2 s: the 1 s ramp to standing, then a quarter of the 4 s squat.
    for cycle in 21..420 {
        rig.advance();
        rig.control_loop.cycle(Rig::clock(cycle)).unwrap();
    }
    let state = *rig.control_loop.state();
    let command = *rig.control_loop.command();
    for (knee, target) in [
        (
            state.left_knee_pitch.position,
            command.left_knee_pitch.position,
        ),
        (
            state.right_knee_pitch.position,
            command.right_knee_pitch.position,
        ),
        (
            state.left_ankle_pitch.position,
            command.left_ankle_pitch.position,
        ),
    ] {
        assert!(target.abs() > 0.1, "the squat is under way: {target}");
        assert!((knee - target).abs() < 0.05, "follows: {knee} vs {target}");
    }
    // Each bus: enables, then one operation-control frame per motor per cycle.
    for (bus, nodes) in &rig.buses {
        let sent = bus.take_sent();
        let mit = sent
            .iter()
            .filter(|f| comm_type(f) == CommType::Control as u8)
            .count();
        assert_eq!(mit, nodes.len() * 399, "{}", bus.name());
    }
    rig.control_loop.deactivate().unwrap();
    for (bus, nodes) in &rig.buses {
        for (_, node) in nodes {
            assert!(
                !bus.with_node(*node, |m: &mut SimActuator| m.enabled())
                    .unwrap()
            );
        }
    }
}

/// A way one motor, or one bus, of an active robot fails.
type Inject = fn(&SimBus, NodeId);

/// Runs 50 good cycles, injects a failure on the left leg (at its knee, id 34), and returns the
/// error the loop ended with and the left bus's final state, after checking that both buses
/// were then switched off with nothing but stop frames.
fn fault_after_injecting(inject: Inject) -> (robot_core::hardware::HardwareError, Lifecycle) {
    let mut rig = rig();
    rig.control_loop.configure().unwrap();
    rig.control_loop.activate(Rig::clock(0)).unwrap();
    for cycle in 1..50 {
        rig.advance();
        rig.control_loop.cycle(Rig::clock(cycle)).unwrap();
    }
    let (left, left_nodes) = &rig.buses[0];
    inject(left, left_nodes[3].1);
    for (bus, _) in &rig.buses {
        bus.take_sent();
    }
    let mut fault = None;
    for cycle in 50..60 {
        rig.advance();
        if let Err(f) = rig.control_loop.cycle(Rig::clock(cycle)) {
            fault = Some(f);
            break;
        }
    }
    let Some(Fault::Hardware(error)) = fault else {
        panic!("no hardware fault: {fault:?}")
    };
    let states: Vec<Lifecycle> = rig.control_loop.system().states().map(|(_, s)| s).collect();
    assert_ne!(
        states[1],
        Lifecycle::Active,
        "the right leg confirmed its stops"
    );
    // The write of the failing cycle went out before its reply was read; after the fault, both
    // buses got nothing but stops.
    for (bus, nodes) in &rig.buses {
        let sent = bus.take_sent();
        let after = sent
            .iter()
            .rposition(|f| comm_type(f) == CommType::Control as u8)
            .map_or(0, |i| i + 1);
        let stops = &sent[after..];
        assert!(!stops.is_empty(), "{} was stopped", bus.name());
        assert!(
            stops.iter().all(|f| comm_type(f) == CommType::Stop as u8),
            "{}: {stops:?}",
            bus.name()
        );
        for (_, node) in nodes {
            assert!(
                !bus.with_node(*node, |m: &mut SimActuator| m.enabled())
                    .unwrap()
            );
        }
    }
    (error, states[0])
}

#[test]
fn every_kind_of_fault_on_one_bus_stops_both_buses_and_then_only_stops_are_sent() {
    // Each case: what fails, the error, and whether the left bus could confirm its stops after:
    // a motor gone silent cannot, so its bus is held active (it may be live) and said to be.
    let cases: [(&str, Inject, ErrorKind, &str, bool); 5] = [
        (
            "a fault bit",
            |bus, knee| {
                bus.with_node(knee, |m: &mut SimActuator| {
                    m.fail(Some(Failure::Overtemperature))
                });
            },
            ErrorKind::DeviceFault,
            "joint left_knee_pitch (bus left_leg, id 34) reports a fault: Overtemperature",
            true,
        ),
        (
            "a late reply",
            |bus, _| bus.delay_replies(1),
            ErrorKind::Timeout,
            "(bus left_leg, id 31) answered late: a reply arrived after the cycle it belonged to",
            true,
        ),
        (
            "a bus error",
            |bus, _| bus.fail_sends(1, SendFailure::Bus),
            ErrorKind::Bus,
            "bus error (injected)",
            true,
        ),
        (
            "a malformed frame",
            |bus, _| {
                let id = embedded_can::ExtendedId::new(0x0200_22FD).unwrap();
                bus.inject(embedded_can::Frame::new(id, &[0xDE, 0xAD]).unwrap());
            },
            ErrorKind::Bus,
            "bus `left_leg`: a frame that is not the protocol's",
            true,
        ),
        (
            "a motor gone silent",
            |bus, knee| {
                bus.with_node(knee, |m: &mut SimActuator| m.fail(Some(Failure::Silent)));
            },
            ErrorKind::Timeout,
            "joint left_knee_pitch (bus left_leg, id 34) missed 3 replies in a row",
            false,
        ),
    ];
    for (what, inject, kind, message, confirmed) in cases {
        let (error, left) = fault_after_injecting(inject);
        if kind == ErrorKind::Bus && message.contains("injected") {
            let cause = error
                .cause()
                .and_then(|c| c.downcast_ref::<TransportError>());
            assert!(
                matches!(cause, Some(TransportError::Bus { .. })),
                "the transport's error is the cause, typed: {error:?}"
            );
        }
        assert_eq!(error.kind(), kind, "{what}: {error}");
        // The message and its causes, as `{:#}` reports them: an injected bus error is the
        // transport's, kept as the cause.
        assert!(format!("{error:#}").contains(message), "{what}: {error:#}");
        if confirmed {
            assert_ne!(left, Lifecycle::Active, "{what}: {error}");
        } else {
            assert_eq!(left, Lifecycle::Active, "{what}: {error}");
            // The fault, then `on_error`'s torque-off that failed: its aftermath.
            let aftermath: Vec<(Recovery, &str)> = error
                .aftermath()
                .map(|a| (a.recovery(), a.failure().message()))
                .collect();
            assert!(
                matches!(
                    aftermath[..],
                    [(Recovery::OnErrorWhileActive, message)] if message.contains(
                        "no reply to a stop within 50 ms from left_knee_pitch (bus left_leg, id 34)"
                    )
                ),
                "{what}: {error:#}"
            );
        }
    }
}

#[test]
fn a_motor_that_goes_silent_is_a_timeout_after_the_tolerated_misses() {
    let mut rig = rig();
    rig.control_loop.configure().unwrap();
    rig.control_loop.activate(Rig::clock(0)).unwrap();
    let (right, right_nodes) = &rig.buses[1];
    let (_, hip) = right_nodes[0];
    right.with_node(hip, |m: &mut SimActuator| m.fail(Some(Failure::Silent)));
    let mut cycles = 0;
    let fault = loop {
        rig.advance();
        cycles += 1;
        if let Err(f) = rig.control_loop.cycle(Rig::clock(cycles)) {
            break f;
        }
        assert!(cycles < 10, "never noticed");
    };
    let Fault::Hardware(error) = fault else {
        panic!("{fault:?}")
    };
    assert_eq!(error.kind(), ErrorKind::Timeout);
    assert!(
        error
            .message()
            .contains("right_hip_pitch (bus right_leg, id 41) missed 3 replies"),
        "{error}"
    );
}

#[test]
fn a_missing_motor_is_named_at_configure() {
    let mut rig = rig();
    let (left, nodes) = &rig.buses[0];
    left.with_node(nodes[6].1, |m: &mut SimActuator| {
        m.fail(Some(Failure::Silent))
    });
    let error = rig.control_loop.configure().unwrap_err();
    let text = error.to_string();
    assert!(
        text.contains("no reply to a stop within 50 ms from left_ankle_roll (bus left_leg, id 37)"),
        "{text}"
    );
}
