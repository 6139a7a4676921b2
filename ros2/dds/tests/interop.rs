//! Against Eclipse Cyclone DDS (PyPI `cyclonedds`, `ros2/peer/peer.py`) and ROS 2 Jazzy's rclpy
//! over Fast DDS (`ros2/peer/rclpy_peer.py`), each inside a network namespace of its own: the
//! peer sees our writer and reader with ROS 2's type
//! name, QoS and REP-2011 type hash, and reads what we publish; what it publishes decodes here
//! bit for bit.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::{Duration, Instant};

use ros2_dds::Participant;
use ros2_msg::msg::{Header, JointState, Time};
use ros2_msg::{QosProfile, TopicName, TypeHash};
use ros2_peer::{Implementation, isolated};

const WAIT: Duration = Duration::from_secs(20);

#[test]
fn the_peer_sees_our_endpoints_with_the_ros_type_name_qos_and_type_hash_and_reads_what_we_publish()
{
    isolated(|python| {
        let peer = python.start("listen", &["--seconds", "3"]).unwrap();
        let participant = Participant::join(0).unwrap();
        let node = participant.node("/", "interop_talker").unwrap();
        let topic = TopicName::new("/robot_joint_commands").unwrap();
        let mut commands = node
            .publisher(&topic, QosProfile::reliable(1), JointState::default())
            .unwrap();
        let states = TopicName::new("/robot_joint_states").unwrap();
        let _states = node
            .subscription::<JointState>(&states, QosProfile::SENSOR_DATA)
            .unwrap();
        let sent = JointState {
            header: Header {
                stamp: Time { sec: 7, nanosec: 8 },
                frame_id: String::new(),
            },
            name: vec!["a".into(), "b".into()],
            position: vec![0.25, -1.5],
            velocity: vec![],
            effort: vec![3.0, 4.0],
        };
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(2) {
            *commands.message_mut() = sent.clone();
            commands.publish();
            std::thread::sleep(Duration::from_millis(10));
        }
        let summary = peer.summary(WAIT).unwrap();
        let (writers, readers) = (
            summary["writers"].as_array().unwrap(),
            summary["readers"].as_array().unwrap(),
        );
        assert_eq!(writers.len(), 1, "{summary}");
        assert_eq!(readers.len(), 1, "{summary}");
        let (writer, reader) = (&writers[0], &readers[0]);
        // REP-2011: the type hash in each endpoint's USER_DATA, as Jazzy's RMWs announce it,
        // computed here from the message descriptions (tested against rosidl's in type_hash).
        let hash = TypeHash::of::<JointState>();
        match python.implementation() {
            // What DDS discovery carries, as Cyclone's built-in topics give it.
            Implementation::Cyclone => {
                assert_eq!(writer["topic_name"], "rt/robot_joint_commands");
                assert_eq!(writer["type_name"], "sensor_msgs::msg::dds_::JointState_");
                assert_eq!(writer["history"], "KeepLast");
                assert_eq!(writer["depth"], 1);
                let announced = hash.user_data();
                assert!(announced.starts_with("typehash=RIHS01_"), "{announced}");
                assert_eq!(writer["user_data"], announced.as_str());
                assert_eq!(reader["type_name"], "sensor_msgs::msg::dds_::JointState_");
                assert_eq!(reader["user_data"], announced.as_str());
            }
            // What ROS 2 makes of it (`ros2 topic info -v`): the ROS type, the hash, the node
            // (announced on ros_discovery_info). History is not in DDS discovery: Unknown.
            Implementation::Rclpy => {
                for endpoint in [writer, reader] {
                    assert_eq!(endpoint["topic_type"], "sensor_msgs/msg/JointState");
                    assert_eq!(endpoint["topic_type_hash"], hash.to_string(), "{summary}");
                    assert_eq!(endpoint["node_name"], "interop_talker", "{summary}");
                    assert_eq!(endpoint["node_namespace"], "/", "{summary}");
                }
                assert_eq!(reader["reliability"], "BestEffort");
            }
        }
        assert_eq!(writer["reliability"], "Reliable");
        assert_eq!(writer["durability"], "Volatile");
        assert!(
            summary["commands_received"].as_u64().unwrap() > 10,
            "{summary}"
        );
    });
}

#[test]
fn a_joint_state_the_peer_publishes_decodes_bit_for_bit() {
    isolated(|python| {
        let values = [
            0.1,
            -0.0,
            std::f64::consts::PI,
            5e-324,
            f64::MAX,
            -1.0e-300,
            123456.789,
        ];
        let script = serde_json::json!([{
            "name": ["left_hip_pitch", "knee", "ü_joint", "a", "b", "c", "d"],
            "position": values,
            "velocity": [],
            "effort": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
        }])
        .to_string();
        let participant = Participant::join(0).unwrap();
        let topic = TopicName::new("/robot_joint_states").unwrap();
        let mut states = participant
            .subscription::<JointState>(&topic, QosProfile::SENSOR_DATA)
            .unwrap();
        let peer = python
            .start_with_input(
                "script",
                &["--repeat", "300", "--interval", "0.01"],
                Some(&script),
            )
            .unwrap();
        let start = Instant::now();
        let received = loop {
            if let Some(received) = states.take_latest() {
                break received.message.clone();
            }
            assert!(start.elapsed() < WAIT, "nothing arrived from the peer");
            std::thread::sleep(Duration::from_millis(5));
        };
        drop(peer);
        assert_eq!(received.name[2], "ü_joint");
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&received.position), bits(&values));
        assert!(received.velocity.is_empty());
        assert_eq!(received.effort, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    });
}
