//! The in-process bus allocates nothing once made: the host's `send` and `try_recv`, the nodes'
//! replies, clock ticks and the faults that lose, delay or inject frames. Counted by a global
//! allocator, on this thread only (its own test binary, so nothing else shares the allocator).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::Duration;

use alloc_counter::allocations;
use backend_robstride::transport::Transport;
use robstride_protocol::Frame;
use robstride_sim::SimBus;
use robstride_sim::bus::{Node, Outbox};

#[global_allocator]
static ALLOCATOR: alloc_counter::Counting = alloc_counter::Counting;

/// Answers every frame addressed to it (low id byte), as an actuator answers its commands, and
/// reports on every tick.
struct Actuator(u8);

impl Node for Actuator {
    fn receive(&mut self, _: Duration, frame: &Frame, out: &mut Outbox<'_>) {
        if frame
            .extended_id()
            .is_some_and(|id| id & 0xFF == u32::from(self.0))
        {
            out.send(Frame::extended(
                0x0200_0000 | u32::from(self.0) << 8,
                [self.0; 8],
            ));
        }
    }

    fn tick(&mut self, _: Duration, out: &mut Outbox<'_>) {
        out.send(Frame::extended(
            0x1800_0000 | u32::from(self.0) << 8,
            [0; 8],
        ));
    }
}

const JOINTS: u8 = 14;

#[test]
fn send_and_receive_never_allocate() {
    let bus = SimBus::new("sim");
    for address in 1..=JOINTS {
        bus.attach(Actuator(address));
    }
    let mut host = bus.host();
    let before = allocations();
    let mut received = 0;
    for cycle in 0..1000u32 {
        match cycle % 100 {
            10 => bus.drop_replies(3),
            20 => bus.delay_replies(5),
            30 => bus.inject(Frame::extended(0x1234, [0xff; 8])),
            40 => bus.set_silent(true),
            45 => bus.set_silent(false),
            _ => {}
        }
        while let Some(_frame) = host.try_recv().unwrap() {
            received += 1;
        }
        for address in 1..=JOINTS {
            host.send(&Frame::extended(0x0100_FD00 | u32::from(address), [0; 8]))
                .unwrap();
        }
        if cycle % 10 == 0 {
            bus.advance(Duration::from_millis(5));
            // The log is read between cycles, as a test would; only the copy allocates.
            let during = allocations();
            let sent = bus.take_sent();
            assert!(!sent.is_empty());
            drop(sent);
            assert!(allocations() > during);
        }
    }
    let copies = 100; // one `take_sent` Vec per tenth cycle
    assert_eq!(allocations() - before, copies);
    assert!(received > 10_000, "{received}");
    let stats = bus.stats();
    assert_eq!(stats.overflowed, 0, "{stats:?}");
    assert_eq!((stats.dropped, stats.delayed), (30, 50), "{stats:?}");
}

#[test]
fn the_counter_counts() {
    let before = allocations();
    let v: Vec<u8> = Vec::with_capacity(16);
    assert_eq!(allocations() - before, 1);
    drop(v);
}
