//! Where discovery reaches, as ROS 2 Jazzy's `ROS_AUTOMATIC_DISCOVERY_RANGE` says, against both
//! peers in network namespaces of their own: the processes of one host find each other with no
//! multicast route at all (unicast SPDP to 127.0.0.1, as Fast DDS does by default), `LOCALHOST`
//! still finds them, and `OFF` finds no one.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::{Duration, Instant};

use ros2_dds::{Discovery, DiscoveryRange, Participant};
use ros2_msg::msg::JointState;
use ros2_msg::{QosProfile, TopicName};
use ros2_peer::{Implementation, Network, PeerPython, isolated_in};

/// Publishes on /robot_joint_commands for 3 s through a participant discovering over `range`
/// while the peer listens, and returns how many commands the peer received and how many of our
/// writers it saw.
fn heard(python: &PeerPython, range: DiscoveryRange) -> (u64, usize) {
    let peer = python.start("listen", &["--seconds", "4"]).unwrap();
    let discovery = Discovery {
        range,
        static_peers: Vec::new(),
    };
    let participant = Participant::join_with(0, &discovery).unwrap();
    let node = participant.node("/", "discovery_talker").unwrap();
    let topic = TopicName::new("/robot_joint_commands").unwrap();
    let mut commands = node
        .publisher(&topic, QosProfile::reliable(1), JointState::default())
        .unwrap();
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(3) {
        commands.message_mut().position = vec![start.elapsed().as_secs_f64()];
        commands.publish();
        std::thread::sleep(Duration::from_millis(10));
    }
    let summary = peer.summary(Duration::from_secs(20)).unwrap();
    (
        summary["commands_received"].as_u64().unwrap(),
        summary["writers"].as_array().unwrap().len(),
    )
}

fn each_peer(network: Network, body: fn(&PeerPython)) {
    for implementation in Implementation::ALL {
        isolated_in(implementation, network, body);
    }
}

#[test]
fn with_no_multicast_route_the_processes_of_one_host_still_find_each_other() {
    // rclpy only: Fast DDS's default initial peers are the loopback's well-known ports, so it
    // finds us as we find it. Cyclone DDS's default is multicast discovery alone.
    isolated_in(Implementation::Rclpy, Network::Loopback, |python| {
        let (received, writers) = heard(python, DiscoveryRange::Subnet);
        assert!(received > 100, "{received} commands received");
        assert_eq!(writers, 1);
    });
}

#[test]
fn the_localhost_range_finds_this_hosts_processes() {
    each_peer(Network::LoopbackMulticast, |python| {
        let (received, writers) = heard(python, DiscoveryRange::Localhost);
        assert!(received > 100, "{received} commands received");
        assert_eq!(writers, 1);
    });
}

#[test]
fn the_off_range_finds_no_one() {
    each_peer(Network::LoopbackMulticast, |python| {
        assert_eq!(heard(python, DiscoveryRange::Off), (0, 0));
    });
}
