//! Enabling that fails half-way: one motor does not answer the enable. The component stops every
//! motor again before it reports; when that stop goes unanswered too, some motors may still be
//! enabled, so the error says so (`possibly_live`), the system holds the bus active, and the loop
//! switches it off with its retries: the motors end disabled and every failure is reported.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use backend_robstride::sim::{Failure, SimActuator};
use backend_robstride::transport::SimBus;
use backend_robstride::transport::sim::NodeId;
use common::pair::{Pair, PairCommand, PairState};
use common::{CLOCK, rig, rs02};
use robot_core::control_loop::{ControlLoop, Controller, ControllerError, Fault};
use robot_core::hardware::{Clock, Component, ErrorKind, Lifecycle, System};

struct Hold;

impl Controller<Pair> for Hold {
    fn update(
        &mut self,
        _clock: Clock,
        _state: &PairState,
        _command: &mut PairCommand,
    ) -> Result<(), ControllerError> {
        Ok(())
    }
}

/// The loop over the pair, configured, with the elbow's next `missing` replies lost.
fn configured(missing: u32) -> (SimBus, Vec<NodeId>, ControlLoop<Pair, Hold>) {
    let (sim, nodes, bus) = rig::<Pair>("arm", None, [rs02(1, 0.0), rs02(2, 0.0)]);
    let components: Vec<Box<dyn Component<Pair>>> = vec![Box::new(bus)];
    let mut control_loop = ControlLoop::new(System::new(components).unwrap(), Hold, None);
    control_loop.configure().unwrap();
    sim.with_node(nodes[1], |m: &mut SimActuator| {
        m.fail(Some(Failure::MissingReplies(missing)))
    });
    (sim, nodes, control_loop)
}

fn enabled(sim: &SimBus, nodes: &[NodeId]) -> Vec<bool> {
    nodes
        .iter()
        .map(|&n| sim.with_node(n, |m: &mut SimActuator| m.enabled()).unwrap())
        .collect()
}

#[test]
fn an_unanswered_enable_is_undone_before_it_is_reported() {
    // The elbow misses the enable's reply only: the stop that follows is answered.
    let (sim, nodes, mut control_loop) = configured(1);
    let Err(Fault::Hardware(error)) = control_loop.activate(CLOCK) else {
        panic!("enabling fails")
    };
    assert_eq!(error.kind, ErrorKind::Timeout);
    assert!(!error.is_possibly_live(), "{error}");
    assert_eq!(enabled(&sim, &nodes), [false, false]);
    assert_eq!(control_loop.lifecycle(), Lifecycle::Inactive);
    assert!(control_loop.torque_off_failures().is_empty());
}

#[test]
fn an_enable_that_cannot_be_undone_keeps_the_bus_active_until_it_is_switched_off() {
    // The elbow misses the enable's reply, the component's stop after it, the system's roll-back
    // and the loop's first retry: the loop's second retry gets through.
    let (sim, nodes, mut control_loop) = configured(4);
    let Err(Fault::Hardware(error)) = control_loop.activate(CLOCK) else {
        panic!("enabling fails")
    };
    assert!(error.is_possibly_live(), "{error}");
    assert!(
        error.message.contains("no reply to enable")
            && error
                .message
                .contains("switching off again failed: no reply to a stop"),
        "{error}"
    );
    // The system's roll-back failed too, and says so; so did the loop's first retry.
    assert_eq!(
        error.message.matches("switching off again failed").count(),
        2,
        "{error}"
    );
    let retries = control_loop.torque_off_failures();
    assert_eq!(retries.len(), 1, "{retries:?}");
    assert!(
        retries[0].message.contains("no reply to a stop"),
        "{retries:?}"
    );
    assert_eq!(control_loop.lifecycle(), Lifecycle::Inactive);
    assert_eq!(enabled(&sim, &nodes), [false, false]);
    // Nothing but enables and stops went out: no command reached a motor.
    let sent = sim.take_sent();
    assert!(
        sent.iter()
            .all(|f| matches!((f.extended_id().unwrap() >> 24) as u8, 3 | 4)),
        "{sent:?}"
    );
}
