//! The SocketCAN path fails clearly where it cannot work: the error names the interface, says
//! which failure it is, and what to do. These run anywhere; the machines this project builds on
//! have no CAN in the kernel, so there the kind is `NoKernelSupport`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use backend_robstride::transport::{OpenErrorKind, SocketCan, TransportError};

fn open_error(interface: &str) -> (OpenErrorKind, String) {
    match SocketCan::open(interface) {
        Ok(_) => panic!("`{interface}` opened; this test needs an interface that does not exist"),
        Err(e @ TransportError::Open { kind, .. }) => {
            assert_eq!(e.interface(), interface);
            // What the operating system said is kept as the source, an `io::Error`.
            let os = std::error::Error::source(&e)
                .and_then(|s| s.downcast_ref::<std::io::Error>())
                .filter(|io| io.raw_os_error().is_some());
            assert!(os.is_some() || kind == OpenErrorKind::Unsupported, "{e:?}");
            (kind, e.to_string())
        }
        Err(e) => panic!("expected an open error, got {e}"),
    }
}

/// Whether this kernel has CAN at all (`/proc/net/protocols` lists `CAN_RAW` once `can_raw` is
/// loaded; it is loaded on demand by the first socket, which `open` makes).
#[cfg(target_os = "linux")]
fn kernel_has_can() -> bool {
    let _ = SocketCan::open("lo");
    std::fs::read_to_string("/proc/net/protocols").is_ok_and(|p| p.contains("CAN_RAW"))
}

#[cfg(target_os = "linux")]
#[test]
fn a_missing_interface_fails_naming_it_and_what_to_do() {
    let (kind, message) = open_error("rsnothere0");
    assert!(
        message.starts_with("cannot open CAN interface `rsnothere0`: "),
        "{message}"
    );
    assert!(
        message.contains("`sudo ip link set rsnothere0 up type can bitrate 1000000`"),
        "{message}"
    );
    assert!(
        message.contains(
            "`sudo modprobe vcan; sudo ip link add dev vcan0 type vcan; sudo ip link set vcan0 up`"
        ),
        "{message}"
    );
    if kernel_has_can() {
        assert_eq!(kind, OpenErrorKind::NoSuchInterface, "{message}");
        assert!(message.contains(": no such interface; "), "{message}");
    } else {
        assert_eq!(kind, OpenErrorKind::NoKernelSupport, "{message}");
        assert!(
            message.contains(": this kernel has no CAN support (socket(AF_CAN) is refused); "),
            "{message}"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_virtual_interface_gets_the_vcan_commands() {
    let (_, message) = open_error("vcan9");
    assert!(
        message.contains(
            "`sudo modprobe vcan; sudo ip link add dev vcan9 type vcan; sudo ip link set vcan9 up`"
        ),
        "{message}"
    );
    assert!(!message.contains("vcan9 up type can bitrate"), "{message}");
}

#[cfg(target_os = "linux")]
#[test]
fn an_interface_that_is_not_can_is_named_as_such() {
    let (kind, message) = open_error("lo");
    assert!(
        message.starts_with("cannot open CAN interface `lo`: "),
        "{message}"
    );
    if kernel_has_can() {
        assert_eq!(kind, OpenErrorKind::NotCanInterface, "{message}");
        assert!(message.contains("not a CAN interface"), "{message}");
    } else {
        assert_eq!(kind, OpenErrorKind::NoKernelSupport, "{message}");
    }
}

#[cfg(not(target_os = "linux"))]
#[test]
fn socketcan_is_linux_only() {
    let (kind, message) = open_error("can0");
    assert_eq!(kind, OpenErrorKind::Unsupported);
    assert!(message.contains("SocketCAN is Linux-only"), "{message}");
}
