//! The in-process bus on wall-clock time, for running a controller in real time on simulated
//! actuators (`robot run` with a bus on `sim`): every send and receive first moves the bus clock
//! to the time elapsed since the transport was made, so the motors move as fast as the loop runs.
//! Tests that want determinism advance the bus themselves and use [`SimBus::host`] directly.

use std::time::{Duration, Instant};

use robstride_protocol::Frame;

use robstride_transport::{Transport, TransportError};

use crate::bus::{SimBus, SimHost};

/// A host end of a [`SimBus`] whose clock follows the wall clock.
#[derive(Debug)]
pub struct WallClock {
    bus: SimBus,
    host: SimHost,
    started: Instant,
}

impl WallClock {
    /// The host end of `bus`, its clock starting now.
    pub fn new(bus: SimBus) -> WallClock {
        WallClock {
            host: bus.host(),
            started: Instant::now(),
            bus,
        }
    }

    fn catch_up(&self) {
        let behind = self.started.elapsed().saturating_sub(self.bus.now());
        if behind > Duration::ZERO {
            self.bus.advance(behind);
        }
    }
}

impl Transport for WallClock {
    fn send(&mut self, frame: &Frame) -> Result<(), TransportError> {
        self.catch_up();
        self.host.send(frame)
    }

    fn try_recv(&mut self) -> Result<Option<Frame>, TransportError> {
        self.catch_up();
        self.host.try_recv()
    }
}
