//! The runtime configuration's interface name picks the transport: `sim` and `sim:<name>` the
//! in-process bus, anything else SocketCAN.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use backend_robstride::transport::{self, OpenErrorKind, Opened, TransportError, TransportKind};

#[test]
fn sim_and_sim_colon_name_are_the_in_process_bus() {
    for name in ["sim", "sim:left", "sim:leg-1", "sim:a"] {
        assert_eq!(TransportKind::of(name), TransportKind::Sim(name));
    }
}

#[test]
fn every_other_name_is_socketcan() {
    for name in ["can0", "vcan0", "simcan0", "sim0", "SIM", "si", "xsim"] {
        assert_eq!(TransportKind::of(name), TransportKind::SocketCan(name));
    }
}

#[test]
fn sim_colon_without_a_name_is_refused() {
    for name in ["sim:", "sim: left", "sim:le ft"] {
        assert_eq!(TransportKind::of(name), TransportKind::InvalidSim(name));
        match transport::open(name) {
            Err(e @ TransportError::Open { kind, .. }) => {
                assert_eq!(kind, OpenErrorKind::InvalidName);
                assert_eq!(
                    e.to_string(),
                    format!(
                        "cannot open CAN interface `{name}`: `sim:` is reserved for the in-process bus, and needs a name after it; write `sim` or `sim:<name>` (`sim:left`, no whitespace)"
                    )
                );
            }
            other => panic!("{name:?}: {other:?}"),
        }
    }
}

#[test]
fn open_sim_names_the_in_process_bus_for_the_caller_to_make() {
    let Opened::Simulated(name) = transport::open("sim:left").unwrap() else {
        panic!("not the in-process bus")
    };
    assert_eq!(name, "sim:left");
}

#[test]
fn open_anything_else_tries_socketcan() {
    let e = transport::open("rsnothere0").unwrap_err();
    assert_eq!(e.interface(), "rsnothere0");
    assert!(
        e.to_string()
            .contains("`sudo ip link set rsnothere0 up type can bitrate 1000000`"),
        "{e}"
    );
}
