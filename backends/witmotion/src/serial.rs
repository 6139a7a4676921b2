//! The serial port, through the `serialport` crate (4.x, the serial crate of the Rust embedded
//! ecosystem, maintained under the `serialport` organisation): opened raw, 8N1, exclusive, at
//! the configured baud, its stale input discarded. Every error names the port and says what to
//! do.

use std::io;
use std::time::Duration;

use serialport::{ClearBuffer, SerialPort, TTYPort};

/// How long one read of the reader thread waits for bytes before it checks whether it is asked
/// to stop: the bound on how long stopping it takes.
pub(crate) const READ_WAIT: Duration = Duration::from_millis(10);

/// Why a serial port could not be used.
#[derive(Debug, Clone, thiserror::Error)]
pub enum SerialError {
    /// No such device file.
    #[error(
        "no serial port `{port}`: is the IMU plugged in? `ls /dev/serial/by-id` lists the USB \
         serial devices (a by-id path stays the same across reboots)"
    )]
    Missing {
        /// The port.
        port: String,
    },
    /// The file exists but this user may not open it.
    #[error(
        "no permission to open `{port}`: serial ports belong to group `dialout`; add yourself \
         (`sudo usermod -aG dialout $USER`, then log in again)"
    )]
    Permission {
        /// The port.
        port: String,
    },
    /// Another program has the port open.
    #[error("`{port}` is busy: another program has it open (`fuser {port}` shows which)")]
    Busy {
        /// The port.
        port: String,
    },
    /// The port refused the baud rate.
    #[error(
        "`{port}` refuses {baud} baud: give the configured baud (`imus.<imu>.baud`) one the \
         adapter offers"
    )]
    Baud {
        /// The port.
        port: String,
        /// The rate asked for.
        baud: u32,
        /// What the system said.
        #[source]
        cause: serialport::Error,
    },
    /// Anything else the system refused.
    #[error("cannot open `{port}` at {baud} baud")]
    Other {
        /// The port.
        port: String,
        /// The rate asked for.
        baud: u32,
        /// What the system said.
        #[source]
        cause: serialport::Error,
    },
}

/// Opens `port` at `baud` for the reader thread: reads wait at most 10 ms.
pub fn open(port: &str, baud: u32) -> Result<TTYPort, SerialError> {
    open_with_wait(port, baud, READ_WAIT)
}

/// Opens `port` at `baud`, raw 8N1 without flow control, exclusively; reads wait at most
/// `wait`. Input that arrived before the open (a pseudo-terminal keeps it) is discarded, so the
/// first bytes read are fresh.
pub fn open_with_wait(port: &str, baud: u32, wait: Duration) -> Result<TTYPort, SerialError> {
    if !std::path::Path::new(port).exists() {
        return Err(SerialError::Missing {
            port: port.to_string(),
        });
    }
    let opened = serialport::new(port, baud)
        .timeout(wait)
        .data_bits(serialport::DataBits::Eight)
        .parity(serialport::Parity::None)
        .stop_bits(serialport::StopBits::One)
        .flow_control(serialport::FlowControl::None)
        .open_native();
    let serial = opened.map_err(|error| classify(port, baud, error))?;
    serial
        .clear(ClearBuffer::Input)
        .map_err(|error| classify(port, baud, error))?;
    Ok(serial)
}

fn classify(port: &str, baud: u32, cause: serialport::Error) -> SerialError {
    let port = port.to_string();
    match cause.kind {
        serialport::ErrorKind::Io(io::ErrorKind::NotFound) => SerialError::Missing { port },
        serialport::ErrorKind::Io(io::ErrorKind::PermissionDenied) => {
            SerialError::Permission { port }
        }
        serialport::ErrorKind::NoDevice => SerialError::Busy { port },
        serialport::ErrorKind::InvalidInput => SerialError::Baud { port, baud, cause },
        _ => SerialError::Other { port, baud, cause },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_port_says_where_to_look() {
        let error = open("/dev/ttyUSB_not_here", 460_800).unwrap_err();
        assert!(
            matches!(&error, SerialError::Missing { port } if port == "/dev/ttyUSB_not_here"),
            "{error:?}"
        );
        assert!(error.to_string().contains("ls /dev/serial/by-id"));
    }

    #[test]
    fn permission_and_busy_say_what_to_do() {
        let permission = classify(
            "/dev/ttyUSB0",
            9600,
            serialport::Error::new(
                serialport::ErrorKind::Io(io::ErrorKind::PermissionDenied),
                "Permission denied",
            ),
        );
        assert!(permission.to_string().contains("`dialout`"), "{permission}");
        let busy = classify(
            "/dev/ttyUSB0",
            9600,
            serialport::Error::new(serialport::ErrorKind::NoDevice, "busy"),
        );
        assert!(busy.to_string().contains("is busy"), "{busy}");
    }
}
