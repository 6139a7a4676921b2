//! An open device, as the component uses it: a serial port read by its reader thread, or a
//! [`Link`] read on the control thread. Either way the samples, counters and failures are in
//! one [`Shared`], and time is the device's own clock: the wall clock for a port, the link's
//! for a link.

use std::io::Write;
use std::time::{Duration, Instant};

use serialport::TTYPort;

use crate::link::Link;
use crate::reader::{Corruption, Pump, Reader, ReaderFailure, Shared};

/// The longest a link's pause runs before the bytes that arrived are taken: their stamps are
/// then within this of their arrival.
const LINK_STEP: Duration = Duration::from_millis(2);

/// An open device.
pub(crate) enum Port {
    /// A serial port: a reader thread reads it, commands go out through `writer`.
    Serial {
        reader: Reader,
        writer: TTYPort,
        epoch: Instant,
    },
    /// A link, read whenever the component looks.
    Link {
        link: Box<dyn Link>,
        shared: Box<Shared>,
        pump: Box<Pump>,
        /// The name messages give the device.
        name: String,
        corruption: Corruption,
    },
}

impl std::fmt::Debug for Port {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Port::Serial { .. } => "Port::Serial",
            Port::Link { .. } => "Port::Link",
        })
    }
}

impl Port {
    /// A link, named `name` in messages.
    pub(crate) fn link(link: Box<dyn Link>, name: String, corruption: Corruption) -> Port {
        Port::Link {
            link,
            shared: Box::default(),
            pump: Box::default(),
            name,
            corruption,
        }
    }

    /// Samples, counters, failure.
    pub(crate) fn shared(&self) -> &Shared {
        match self {
            Port::Serial { reader, .. } => reader.shared(),
            Port::Link { shared, .. } => shared,
        }
    }

    /// The device's clock.
    pub(crate) fn now(&self) -> Duration {
        match self {
            Port::Serial { epoch, .. } => epoch.elapsed(),
            Port::Link { link, .. } => link.now(),
        }
    }

    /// Takes what a link has delivered (a serial port's reader thread needs no help).
    /// Allocates nothing unless the link fails.
    pub(crate) fn poll(&mut self) {
        let Port::Link {
            link,
            shared,
            pump,
            name,
            corruption,
        } = self
        else {
            return;
        };
        let mut buffer = [0u8; 512];
        while !shared.has_failed() {
            let now = link.now().as_nanos() as u64;
            match link.read(&mut buffer) {
                Ok(0) => break,
                Ok(count) => {
                    if let Err(failure) =
                        pump.take(&buffer[..count], now, *corruption, name, shared)
                    {
                        shared.fail(failure);
                    }
                }
                Err(cause) => shared.fail(ReaderFailure::Read {
                    port: name.clone(),
                    cause,
                }),
            }
        }
    }

    /// Lets `pause` pass: a sleep on a serial port, the link's clock moving on otherwise (its
    /// bytes taken every [`LINK_STEP`]).
    pub(crate) fn pause(&mut self, pause: Duration) {
        if let Port::Serial { .. } = self {
            std::thread::sleep(pause);
            return;
        }
        let mut left = pause;
        while !left.is_zero() {
            let step = left.min(LINK_STEP);
            if let Port::Link { link, .. } = self {
                link.pause(step);
            }
            self.poll();
            left -= step;
        }
    }

    /// Sends `bytes` to the device.
    pub(crate) fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        match self {
            Port::Serial { writer, .. } => writer.write_all(bytes).and_then(|()| writer.flush()),
            Port::Link { link, .. } => link.write(bytes),
        }
    }

    /// Stops the reader thread, if there is one, and waits for it.
    pub(crate) fn stop(&mut self) {
        if let Port::Serial { reader, .. } = self {
            reader.stop();
        }
    }
}
