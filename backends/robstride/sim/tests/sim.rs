//! The in-process bus: who sees which frame, the log of what the host sent, and every injected
//! fault.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::Duration;

use backend_robstride::transport::{Transport, TransportError};
use robstride_protocol::Frame;
use robstride_sim::SimBus;
use robstride_sim::bus::{Node, Outbox, SendFailure, SimCapacity, SimStats};

/// Answers every frame whose low byte is its address with `reply_id | address`, data echoed;
/// remembers everything it saw.
struct Responder {
    address: u8,
    seen: Vec<Frame>,
}

impl Responder {
    fn new(address: u8) -> Self {
        Responder {
            address,
            seen: Vec::new(),
        }
    }
}

const REPLY: u32 = 0x0200_0000;

impl Node for Responder {
    fn receive(&mut self, _now: Duration, frame: &Frame, out: &mut Outbox<'_>) {
        self.seen.push(*frame);
        let Some(id) = frame.extended_id() else {
            return;
        };
        if id & 0xFF == u32::from(self.address) && id & REPLY == 0 {
            let mut data = [0; 8];
            data[..frame.data().len()].copy_from_slice(frame.data());
            out.send(Frame::extended(REPLY | u32::from(self.address) << 8, data));
        }
    }
}

fn command(address: u8, n: u8) -> Frame {
    Frame::extended(0x0100_FD00 | u32::from(address), [n; 8])
}

fn reply(address: u8, n: u8) -> Frame {
    Frame::extended(REPLY | u32::from(address) << 8, [n; 8])
}

fn drain(host: &mut impl Transport) -> Vec<Frame> {
    let mut frames = Vec::new();
    while let Some(frame) = host.try_recv().unwrap() {
        frames.push(frame);
    }
    frames
}

fn seen(bus: &SimBus, id: robstride_sim::bus::NodeId) -> Vec<Frame> {
    bus.with_node(id, |n: &mut Responder| n.seen.clone())
        .unwrap()
}

#[test]
fn host_frames_reach_every_node_and_replies_reach_the_host_before_send_returns() {
    let bus = SimBus::new("sim");
    let (a, b) = (bus.attach(Responder::new(1)), bus.attach(Responder::new(2)));
    let mut host = bus.host();
    host.send(&command(1, 10)).unwrap();
    host.send(&command(2, 20)).unwrap();
    // The host never sees its own frames; it sees both replies, in order.
    assert_eq!(drain(&mut host), [reply(1, 10), reply(2, 20)]);
    // Each node sees both commands and the other node's reply, never its own.
    assert_eq!(
        seen(&bus, a),
        [command(1, 10), command(2, 20), reply(2, 20)]
    );
    assert_eq!(
        seen(&bus, b),
        [command(1, 10), reply(1, 10), command(2, 20)]
    );
    assert_eq!(drain(&mut host), []);
}

#[test]
fn the_log_holds_every_frame_the_host_sent_in_order() {
    let bus = SimBus::new("sim");
    bus.attach(Responder::new(1));
    let mut host = bus.host();
    for n in 0..5 {
        host.send(&command(1, n)).unwrap();
    }
    bus.inject(command(9, 9)); // not the host's
    let expected: Vec<Frame> = (0..5).map(|n| command(1, n)).collect();
    assert_eq!(bus.sent(), expected);
    assert_eq!(bus.take_sent(), expected);
    host.send(&command(1, 7)).unwrap();
    assert_eq!(bus.take_sent(), [command(1, 7)]);
    assert_eq!(bus.stats().sent, 6);
}

#[test]
fn a_full_log_forgets_the_oldest_and_counts_them() {
    let capacity = SimCapacity { queue: 8, log: 3 };
    let bus = SimBus::with_capacity("sim", capacity);
    let mut host = bus.host();
    for n in 0..5 {
        host.send(&command(1, n)).unwrap();
    }
    assert_eq!(bus.sent(), [command(1, 2), command(1, 3), command(1, 4)]);
    assert_eq!(bus.stats().log_lost, 2);
}

#[test]
fn dropped_replies_never_arrive() {
    let bus = SimBus::new("sim");
    bus.attach(Responder::new(1));
    let mut host = bus.host();
    bus.drop_replies(2);
    for n in 0..3 {
        host.send(&command(1, n)).unwrap();
    }
    assert_eq!(drain(&mut host), [reply(1, 2)]);
    assert_eq!(bus.stats().dropped, 2);
}

#[test]
fn delayed_replies_arrive_one_read_later() {
    let bus = SimBus::new("sim");
    bus.attach(Responder::new(1));
    let mut host = bus.host();
    bus.delay_replies(1);
    host.send(&command(1, 0)).unwrap(); // delayed
    host.send(&command(1, 1)).unwrap(); // on time
    assert_eq!(
        drain(&mut host),
        [reply(1, 1)],
        "first read: the delayed one is missing"
    );
    host.send(&command(1, 2)).unwrap();
    assert_eq!(
        drain(&mut host),
        [reply(1, 0), reply(1, 2)],
        "second read: the delayed one, then this cycle's"
    );
    assert_eq!(drain(&mut host), []);
    assert_eq!(bus.stats().delayed, 1);
}

#[test]
fn injected_frames_reach_the_host_and_every_node_and_get_answered() {
    let bus = SimBus::new("sim");
    let a = bus.attach(Responder::new(1));
    let mut host = bus.host();
    let garbage = <Frame as embedded_can::Frame>::new(
        embedded_can::StandardId::new(0x123).unwrap(),
        &[0xde, 0xad],
    )
    .unwrap();
    bus.inject(garbage);
    bus.inject(command(1, 5)); // a foreign host commanding our node
    assert_eq!(drain(&mut host), [garbage, command(1, 5), reply(1, 5)]);
    assert_eq!(seen(&bus, a), [garbage, command(1, 5)]);
    assert_eq!(bus.sent(), [], "injected frames are not the host's");
}

#[test]
fn a_silent_bus_delivers_nothing_until_reconnected() {
    let bus = SimBus::new("sim");
    let a = bus.attach(Responder::new(1));
    let mut host = bus.host();
    host.send(&command(1, 0)).unwrap();
    bus.set_silent(true); // the waiting reply is gone too
    host.send(&command(1, 1)).unwrap();
    bus.inject(command(1, 2));
    assert_eq!(drain(&mut host), []);
    assert_eq!(seen(&bus, a), [command(1, 0)]);
    assert_eq!(bus.sent(), [command(1, 0), command(1, 1)], "still logged");
    bus.set_silent(false);
    host.send(&command(1, 3)).unwrap();
    assert_eq!(drain(&mut host), [reply(1, 3)]);
}

#[test]
fn injected_send_failures_fail_then_clear() {
    let bus = SimBus::new("sim:left");
    let a = bus.attach(Responder::new(1));
    let mut host = bus.host();
    bus.fail_sends(1, SendFailure::Bus);
    let e = host.send(&command(1, 0)).unwrap_err();
    let TransportError::Bus { cause, .. } = &e else {
        panic!("{e:?}")
    };
    assert_eq!(e.to_string(), "CAN interface `sim:left` failed");
    assert_eq!(
        cause.to_string(),
        "bus error (injected)",
        "the OS's error, kept"
    );
    bus.fail_sends(1, SendFailure::QueueFull);
    let e = host.send(&command(1, 1)).unwrap_err();
    assert!(matches!(e, TransportError::QueueFull { .. }), "{e:?}");
    assert_eq!(e.interface(), "sim:left");
    host.send(&command(1, 2)).unwrap();
    assert_eq!(drain(&mut host), [reply(1, 2)]);
    assert_eq!(
        seen(&bus, a),
        [command(1, 2)],
        "failed frames reach no node"
    );
    assert_eq!(
        bus.sent().len(),
        3,
        "failed sends are logged: the host tried"
    );
    assert_eq!(bus.stats().failed_sends, 2);
}

/// Reports its clock on every tick, as an actuator with active reporting would.
struct Reporter;

impl Node for Reporter {
    fn receive(&mut self, _: Duration, _: &Frame, _: &mut Outbox<'_>) {}

    fn tick(&mut self, now: Duration, out: &mut Outbox<'_>) {
        let ms = u64::try_from(now.as_millis()).unwrap();
        out.send(Frame::extended(0x1800_0000, ms.to_le_bytes()));
    }
}

#[test]
fn advancing_the_clock_ticks_every_node() {
    let bus = SimBus::new("sim");
    let a = bus.attach(Responder::new(1));
    bus.attach(Reporter);
    let mut host = bus.host();
    assert_eq!(bus.now(), Duration::ZERO);
    bus.advance(Duration::from_millis(5));
    bus.advance(Duration::from_millis(5));
    assert_eq!(bus.now(), Duration::from_millis(10));
    let report = |ms: u64| Frame::extended(0x1800_0000, ms.to_le_bytes());
    assert_eq!(drain(&mut host), [report(5), report(10)]);
    assert_eq!(
        seen(&bus, a),
        [report(5), report(10)],
        "other nodes see reports"
    );
}

/// Answers every frame, so two of them would talk forever.
struct Chatterbox;

impl Node for Chatterbox {
    fn receive(&mut self, _: Duration, frame: &Frame, out: &mut Outbox<'_>) {
        out.send(*frame);
    }
}

#[test]
fn nodes_answering_each_other_forever_are_cut_off() {
    let capacity = SimCapacity { queue: 4, log: 4 };
    let bus = SimBus::with_capacity("sim", capacity);
    bus.attach(Chatterbox);
    bus.attach(Chatterbox);
    let mut host = bus.host();
    host.send(&command(1, 0)).unwrap(); // returns: that is the test
    assert_eq!(drain(&mut host).len(), 4, "the host queue filled");
    let stats = bus.stats();
    assert!(stats.overflowed > 0, "{stats:?}");
}

#[test]
fn a_full_host_queue_drops_and_counts() {
    let capacity = SimCapacity { queue: 2, log: 8 };
    let bus = SimBus::with_capacity("sim", capacity);
    bus.attach(Responder::new(1));
    let mut host = bus.host();
    for n in 0..3 {
        host.send(&command(1, n)).unwrap();
    }
    assert_eq!(drain(&mut host), [reply(1, 0), reply(1, 1)]);
    assert_eq!(
        bus.stats(),
        SimStats {
            sent: 3,
            received: 2,
            overflowed: 1,
            ..SimStats::default()
        }
    );
}

#[test]
fn with_node_needs_the_right_type() {
    let bus = SimBus::new("sim");
    let a = bus.attach(Responder::new(1));
    assert_eq!(bus.with_node(a, |n: &mut Responder| n.address), Some(1));
    assert_eq!(bus.with_node(a, |_: &mut Reporter| ()), None);
}

#[test]
fn the_host_end_runs_on_another_thread() {
    let bus = SimBus::new("sim");
    bus.attach(Responder::new(1));
    let mut host = bus.host();
    let replies = std::thread::spawn(move || {
        host.send(&command(1, 3)).unwrap();
        drain(&mut host)
    })
    .join()
    .unwrap();
    assert_eq!(replies, [reply(1, 3)]);
    assert_eq!(bus.sent(), [command(1, 3)]);
}
