//! SocketCAN (Linux): a raw `CAN_RAW` socket on one interface, non-blocking, through the
//! `socketcan` crate. Frames cross between its `CanFrame` and our [`Frame`](robstride_protocol::Frame) through the
//! `embedded-can` trait both implement.
//!
//! Opening tells the three common failures apart, each with what to do: a kernel without CAN
//! (`EAFNOSUPPORT` from `socket(AF_CAN)`, probed first, because the interface lookup would
//! otherwise say "No such device" for both), a missing interface (`ENODEV`), and an interface
//! that exists but is not CAN. On other operating systems [`SocketCan::open`] says SocketCAN is
//! Linux-only.

/// A SocketCAN interface (`can0`), opened non-blocking.
#[derive(Debug)]
pub struct SocketCan {
    interface: String,
    #[cfg(target_os = "linux")]
    socket: ::socketcan::CanSocket,
    #[cfg(not(target_os = "linux"))]
    never: core::convert::Infallible,
}

#[cfg(not(target_os = "linux"))]
mod elsewhere {
    use robstride_protocol::Frame;

    use super::SocketCan;
    use crate::{OpenErrorKind, Transport, TransportError};

    impl SocketCan {
        /// SocketCAN is Linux-only: always an [`OpenErrorKind::Unsupported`] error here.
        pub fn open(interface: &str) -> Result<Self, TransportError> {
            Err(TransportError::Open {
                interface: interface.to_owned(),
                kind: OpenErrorKind::Unsupported,
                reason: "SocketCAN is Linux-only".to_owned(),
                hint: "run on Linux for real hardware, or use the in-process bus (`sim`)"
                    .to_owned(),
                cause: None,
            })
        }

        /// The interface name.
        pub fn interface(&self) -> &str {
            &self.interface
        }
    }

    impl Transport for SocketCan {
        fn send(&mut self, _: &Frame) -> Result<(), TransportError> {
            match self.never {}
        }

        fn try_recv(&mut self) -> Result<Option<Frame>, TransportError> {
            match self.never {}
        }
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use std::io;

    use ::socketcan::{CanAddr, CanFrame, CanSocket, EmbeddedFrame, Socket};
    use robstride_protocol::Frame;

    use super::SocketCan;
    use crate::{OpenErrorKind, Transport, TransportError};

    /// The command that brings up a real CAN interface at the RobStride rate.
    /// (A virtual interface has no bitrate: it is created, then set up.)
    fn up_hint(interface: &str) -> String {
        if interface.starts_with("vcan") {
            format!(
                "`sudo modprobe vcan; sudo ip link add dev {interface} type vcan; sudo ip link set {interface} up`"
            )
        } else {
            format!("`sudo ip link set {interface} up type can bitrate 1000000`")
        }
    }

    /// How to get a virtual bus for testing without hardware.
    const VCAN_HINT: &str =
        "`sudo modprobe vcan; sudo ip link add dev vcan0 type vcan; sudo ip link set vcan0 up`";

    impl SocketCan {
        /// Opens `interface` (`can0`) for raw CAN frames, non-blocking.
        ///
        /// The error names the interface, says which of "no CAN in this kernel", "no such
        /// interface", "not a CAN interface" or "permission denied" it is, and what to do.
        pub fn open(interface: &str) -> Result<Self, TransportError> {
            let fail = |kind, reason: String, hint: String, cause| TransportError::Open {
                interface: interface.to_owned(),
                kind,
                reason,
                hint,
                cause: Some(cause),
            };
            // `if_nametoindex` says ENODEV whether or not the kernel has CAN: ask the kernel
            // first. Binding to index 0 (every CAN interface) needs no interface to exist; the
            // socket is closed at once.
            if let Err(e) = CanSocket::open_addr(&CanAddr::new(0))
                && let Some((kind, reason, hint)) = classify(&e, interface)
            {
                return Err(fail(kind, reason, hint, e));
            }
            let addr = CanAddr::from_iface(interface).map_err(|e| {
                let (kind, reason, hint) = match e.raw_os_error() {
                    Some(libc::ENODEV) => (
                        OpenErrorKind::NoSuchInterface,
                        "no such interface".to_owned(),
                        format!(
                            "is the adapter plugged in (`ip link show` lists the interfaces)? bring it up with {}, or for testing without hardware: {VCAN_HINT}",
                            up_hint(interface)
                        ),
                    ),
                    _ => other(interface),
                };
                fail(kind, reason, hint, e)
            })?;
            let socket = CanSocket::open_addr(&addr).map_err(|e| {
                let (kind, reason, hint) = match e.raw_os_error() {
                    // The interface exists (its index was found) but `bind` refused it.
                    Some(libc::ENODEV) => (
                        OpenErrorKind::NotCanInterface,
                        "not a CAN interface".to_owned(),
                        format!(
                            "`ip -details link show {interface}` shows its type; name the CAN adapter's interface (`can0`), or for testing without hardware: {VCAN_HINT}"
                        ),
                    ),
                    _ => classify(&e, interface).unwrap_or_else(|| other(interface)),
                };
                fail(kind, reason, hint, e)
            })?;
            socket.set_nonblocking(true).map_err(|e| {
                let (kind, reason, hint) = other(interface);
                fail(kind, reason, hint, e)
            })?;
            Ok(SocketCan {
                interface: interface.to_owned(),
                socket,
            })
        }

        /// The interface name.
        pub fn interface(&self) -> &str {
            &self.interface
        }

        fn bus_error(&self, cause: io::Error) -> TransportError {
            let interface = self.interface.clone();
            match cause.raw_os_error() {
                Some(libc::ENETDOWN) => TransportError::Down {
                    hint: up_hint(&interface),
                    interface,
                    cause,
                },
                _ => TransportError::Bus { interface, cause },
            }
        }
    }

    /// The failures the kernel-support probe and `bind` share.
    fn classify(e: &io::Error, interface: &str) -> Option<(OpenErrorKind, String, String)> {
        match e.raw_os_error()? {
            libc::EAFNOSUPPORT => Some((
                OpenErrorKind::NoKernelSupport,
                "this kernel has no CAN support (socket(AF_CAN) is refused)".to_owned(),
                format!(
                    "load the CAN modules (`sudo modprobe can_raw`; a container needs them on the host) and bring the interface up with {}; for testing without hardware: {VCAN_HINT}; or use the in-process bus (`sim`)",
                    up_hint(interface)
                ),
            )),
            libc::EPERM | libc::EACCES => Some((
                OpenErrorKind::PermissionDenied,
                "permission denied".to_owned(),
                "run as a user (or in a container) allowed to open raw CAN sockets".to_owned(),
            )),
            _ => None,
        }
    }

    fn other(interface: &str) -> (OpenErrorKind, String, String) {
        (
            OpenErrorKind::Other,
            "the operating system refused".to_owned(),
            format!(
                "check the interface with `ip -details link show {interface}`; bring it up with {}",
                up_hint(interface)
            ),
        )
    }

    impl Transport for SocketCan {
        fn send(&mut self, frame: &Frame) -> Result<(), TransportError> {
            let Some(can) = convert::<_, CanFrame>(frame) else {
                return Err(TransportError::NotClassic {
                    interface: self.interface.clone(),
                    frame: *frame,
                });
            };
            match self.socket.write_frame(&can) {
                Ok(()) => Ok(()),
                Err(e)
                    if e.kind() == io::ErrorKind::WouldBlock
                        || e.raw_os_error() == Some(libc::ENOBUFS) =>
                {
                    Err(TransportError::QueueFull {
                        interface: self.interface.clone(),
                    })
                }
                Err(e) => Err(self.bus_error(e)),
            }
        }

        fn try_recv(&mut self) -> Result<Option<Frame>, TransportError> {
            loop {
                return match self.socket.read_frame() {
                    Ok(CanFrame::Error(error)) => Err(TransportError::ErrorFrame {
                        interface: self.interface.clone(),
                        error: Box::new(::socketcan::CanError::from(error)),
                    }),
                    Ok(frame) => match convert::<_, Frame>(&frame) {
                        Some(frame) => Ok(Some(frame)),
                        None => continue, // unreachable for classic frames; skip rather than fail
                    },
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => Ok(None),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => Err(self.bus_error(e)),
                };
            }
        }
    }

    /// One `embedded-can` frame as another: same id, remote flag, and data or DLC.
    pub(super) fn convert<A: EmbeddedFrame, B: EmbeddedFrame>(frame: &A) -> Option<B> {
        if frame.is_remote_frame() {
            B::new_remote(frame.id(), frame.dlc())
        } else {
            B::new(frame.id(), frame.data())
        }
    }

    #[cfg(test)]
    mod tests {
        #![allow(clippy::unwrap_used, clippy::expect_used)]

        use ::socketcan::{CanFrame, EmbeddedFrame, ExtendedId, Id, StandardId};
        use robstride_protocol::Frame;

        use super::convert;

        #[test]
        fn frames_convert_both_ways_unchanged() {
            let id = |raw| Id::Extended(ExtendedId::new(raw).unwrap());
            let frames = [
                Frame::extended(0x0300_FD7F, [1, 2, 3, 4, 5, 6, 7, 8]),
                <Frame as EmbeddedFrame>::new(id(0x1FFF_FFFF), &[9]).unwrap(),
                <Frame as EmbeddedFrame>::new(Id::Standard(StandardId::MAX), &[]).unwrap(),
                <Frame as EmbeddedFrame>::new_remote(id(0x12), 8).unwrap(),
            ];
            for frame in frames {
                let can: CanFrame = convert(&frame).unwrap();
                assert_eq!(can.id(), frame.id());
                assert_eq!(can.is_remote_frame(), frame.is_remote());
                assert_eq!(EmbeddedFrame::dlc(&can), EmbeddedFrame::dlc(&frame));
                let back: Frame = convert(&can).unwrap();
                assert_eq!(back, frame);
            }
        }
    }
}
