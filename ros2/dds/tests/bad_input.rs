//! Bad input to `ros2-dds` is a clear error naming the cause: a domain id past ROS 2's range,
//! and the DDS discovery port already taken (in a network namespace of the test's own).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use ros2_dds::{Participant, WireError};

#[test]
fn a_domain_id_past_232_is_refused() {
    let error = Participant::join(233).unwrap_err();
    assert!(matches!(error, WireError::DomainId(233)));
    assert_eq!(
        error.to_string(),
        "domain id 233 is out of range: ROS 2 uses 0 to 232"
    );
}

#[test]
fn a_discovery_port_already_taken_is_an_error_naming_the_domain() {
    ros2_peer::in_namespace(|| {
        // Domain 0's discovery multicast port, 7400, held without SO_REUSEADDR: nobody can share it.
        let taken = std::net::UdpSocket::bind("0.0.0.0:7400").unwrap();
        let error = Participant::join(0).unwrap_err();
        assert!(
            matches!(error, WireError::PortTaken { port: 7400, .. }),
            "{error:?}"
        );
        assert!(
            error.to_string().starts_with(
                "cannot join DDS domain 0: UDP port 7400 (its discovery multicast port) is taken \
                 by a socket that does not share it: "
            ),
            "{error}"
        );
        // Another participant shares the port: two on one host join the domain.
        drop(taken);
        let first = Participant::join(0).unwrap();
        Participant::join(0).unwrap();
        drop(first);
    })
    .unwrap_or_else(|why| ros2_peer::skip(&why));
}

#[test]
fn with_no_network_joining_says_why_and_what_to_do() {
    let outcome =
        ros2_peer::in_namespace_without_network(|| Participant::join(0).unwrap_err().to_string());
    match outcome {
        Ok(error) => assert!(
            error.contains("discovery can reach no one, not even this host's other processes")
                && error.contains("ip link set lo up"),
            "{error}"
        ),
        Err(why) => ros2_peer::skip(&why),
    }
}
