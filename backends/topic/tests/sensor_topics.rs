//! A force/torque and a contact sensor read from the topics their drivers publish
//! (`SensorTopic`, the real path's way for sensors it has no device driver for), against each
//! peer of `ros2-peer` (Cyclone DDS, rclpy over Fast DDS) in a network namespace of each run's
//! own: the readings land in the sensors' typed state, the components are named as the sensors'
//! own `<ros2_control>` blocks, and when the driver stops the next reads go stale and fail, as
//! the topic backend's states do.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

mod common;

use std::time::{Duration, Instant};

use backend_topic::{SensorTopic, SensorTopicOptions};
use common::robots::{Foot, FootCommand, FootState};
use robot_core::hardware::{Clock, Component, ErrorKind};
use ros2_dds::Participant;
use ros2_msg::TopicName;

const PERIOD: Duration = Duration::from_millis(5);

fn sensor(name: &str, topic: &str, participant: &Participant) -> SensorTopic<Foot> {
    let options = SensorTopicOptions {
        sensor: name.to_string(),
        topic: TopicName::new(topic).unwrap(),
        stale_after: None,
        first_reading_timeout: Duration::from_secs(15),
    };
    SensorTopic::<Foot>::new(options, participant.clone()).unwrap()
}

#[test]
fn a_wrench_and_a_switch_from_their_drivers_topics_reach_the_typed_state_until_they_stop() {
    ros2_peer::isolated(|python| {
        let _driver = python
            .start_with_input(
                "sensors",
                &[
                    "--wrench",
                    "/ankle_ft/wrench",
                    "--imu",
                    "/sole/contact",
                    "--rate",
                    "200",
                    "--seconds",
                    "3",
                ],
                Some(r#"{"force_z": -19.62, "torque_y": 0.25, "contact": true}"#),
            )
            .unwrap();
        let participant = Participant::join(0).unwrap();
        let mut ft = sensor("ankle_ft", "/ankle_ft/wrench", &participant);
        let mut sole = sensor("sole", "/sole/contact", &participant);
        assert_eq!(Component::<Foot>::identity(&ft).name(), "FootAnkleFt");
        assert_eq!(Component::<Foot>::identity(&sole).name(), "FootSole");
        let mut state = FootState::default();
        let mut command = FootCommand::default();
        for component in [&mut ft, &mut sole] {
            component.on_init().unwrap();
            component.on_configure().unwrap();
            component.on_activate(&state, &mut command).unwrap();
        }
        let started = Instant::now();
        let clock = || Clock {
            time: started.elapsed(),
            period: PERIOD,
        };
        ft.read(clock(), &mut state).unwrap();
        sole.read(clock(), &mut state).unwrap();
        assert_eq!(state.ankle_ft.force.z, -19.62);
        assert_eq!(state.ankle_ft.torque.y, 0.25);
        assert_eq!(state.ankle_ft.force.x, 0.0);
        assert!(state.sole.in_contact());
        assert!(
            state.sole.normal_force.is_nan(),
            "a switch measures no force"
        );
        // The driver stops after 3 s: the next reads go stale, naming the topic.
        let error = loop {
            std::thread::sleep(PERIOD);
            if let Err(error) = ft.read(clock(), &mut state) {
                break error;
            }
            assert!(started.elapsed() < Duration::from_secs(20), "never stale");
        };
        assert_eq!(error.kind(), ErrorKind::Timeout, "{error}");
        assert!(
            error
                .message()
                .contains("stale reading: nothing valid on `/ankle_ft/wrench` for"),
            "{error}"
        );
        let counters = Component::<Foot>::counters(&ft);
        let received = (counters.as_slice().iter())
            .find(|c| c.name == "readings received")
            .map(|c| c.value);
        assert!(received.unwrap() > 100, "{counters:?}");
    });
}

#[test]
fn a_sensor_whose_driver_publishes_nothing_is_refused_at_configure_naming_its_topic() {
    ros2_peer::in_namespace(|| {
        let participant = Participant::join(0).unwrap();
        let mut ft = SensorTopic::<Foot>::new(
            SensorTopicOptions {
                sensor: "ankle_ft".into(),
                topic: TopicName::new("/nobody/wrench").unwrap(),
                stale_after: None,
                first_reading_timeout: Duration::from_millis(300),
            },
            participant,
        )
        .unwrap();
        let error = ft.on_configure().unwrap_err();
        assert_eq!(error.kind(), ErrorKind::Timeout);
        assert!(
            error.message().contains(
                "no reading of `ankle_ft` on `/nobody/wrench` within 0.3 s: is its driver \
                 publishing it?"
            ),
            "{error}"
        );
    })
    .unwrap_or_else(|why| ros2_peer::skip(&why));
}

#[test]
fn an_imu_or_an_unknown_sensor_is_not_read_from_a_topic() {
    let options = |sensor: &str| SensorTopicOptions {
        sensor: sensor.into(),
        topic: TopicName::new("/x").unwrap(),
        stale_after: None,
        first_reading_timeout: Duration::from_millis(1),
    };
    let outcome = ros2_peer::in_namespace(move || {
        let participant = Participant::join(0).unwrap();
        let unknown = SensorTopic::<Foot>::new(options("heel"), participant.clone());
        assert_eq!(
            unknown.unwrap_err().to_string(),
            "`heel` is no sensor of the robot"
        );
    });
    outcome.unwrap_or_else(|why| ros2_peer::skip(&why));
}
