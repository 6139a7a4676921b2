//! Endpoints on a running participant: a process joins its domain once, and whatever speaks ROS
//! 2 in it makes its publishers and subscriptions when it needs them; one dropped leaves the
//! graph. Two participants stand for two processes, in a network namespace of the test's own.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use ros2_dds::Participant;
use ros2_msg::msg::StringMessage;
use ros2_msg::{QosProfile, TopicName};

/// Waits up to ten seconds for `done`, polling.
fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < Duration::from_secs(10), "{what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn an_endpoint_is_made_while_the_participant_runs_and_leaves_the_graph_when_dropped() {
    ros2_peer::in_namespace(|| {
        let topic = TopicName::new("/chatter").unwrap();
        let talker = Participant::join(0).unwrap();
        let mut says = talker
            .publisher(&topic, QosProfile::reliable(10), StringMessage::default())
            .unwrap();
        // Another process, joined later; its subscription made after that.
        let listener = Participant::join(0).unwrap();
        let mut hears = listener
            .subscription::<StringMessage>(&topic, QosProfile::reliable(10))
            .unwrap();
        wait_for("the subscription matches", || {
            says.counters().matched.load(Ordering::Relaxed) == 1
        });
        wait_for("a message arrives", || {
            says.message_mut().data = "hello".into();
            says.publish();
            hears
                .take_latest()
                .is_some_and(|r| r.message.data == "hello")
        });
        // Its handle dropped, the reader is deleted on the DDS thread: the talker sees it go.
        drop(hears);
        wait_for("the reader leaves the graph", || {
            says.counters().matched.load(Ordering::Relaxed) == 0
        });
        // The participant goes on: a new endpoint on it still works.
        let mut again = listener
            .subscription::<StringMessage>(&topic, QosProfile::reliable(10))
            .unwrap();
        wait_for("a second subscription hears it", || {
            says.message_mut().data = "again".into();
            says.publish();
            again
                .take_latest()
                .is_some_and(|r| r.message.data == "again")
        });
        assert_eq!(listener.domain_id(), 0);
        assert!(listener.is_running());
    })
    .unwrap_or_else(|why| ros2_peer::skip(&why));
}

#[test]
fn a_clone_keeps_the_participant_running() {
    ros2_peer::in_namespace(|| {
        let participant = Participant::join(0).unwrap();
        let clone = participant.clone();
        drop(participant);
        // A clone keeps the thread: one process, one participant, however many hold it.
        assert!(clone.is_running());
        let topic = TopicName::new("/still_here").unwrap();
        clone
            .publisher(&topic, QosProfile::reliable(1), StringMessage::default())
            .unwrap();
    })
    .unwrap_or_else(|why| ros2_peer::skip(&why));
}
