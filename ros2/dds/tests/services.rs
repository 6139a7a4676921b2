//! Service clients both ways with ROS 2's own client library: ours calls the parameter services
//! of an rclpy node (rmw_fastrtps' pairing: the request names our reply reader, the reply
//! comes back with the request's sequence number), and ours calls our own server in another
//! process. (rclpy calling our servers: robots/tests/ros_graph.rs, ros_control.rs.) In a
//! network namespace of the test's own.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::Duration;

use ros2_dds::{CallError, Participant};
use ros2_msg::TopicName;
use ros2_msg::parameters::{
    GetParameters, GetParametersRequest, ListParameters, ListParametersRequest,
    ListParametersResponse, ListParametersResult, parameter_type,
};
use ros2_peer::{Implementation, isolated_on};
use serde_json::json;

#[test]
fn our_client_calls_an_rclpy_nodes_parameter_services() {
    isolated_on(Implementation::Rclpy, |python| {
        let requests = json!([{ "op": "wait", "seconds": 20.0 }]);
        let _peer = python
            .start_with_input(
                "control",
                &["--node", "param_node"],
                Some(&requests.to_string()),
            )
            .unwrap();
        let participant = Participant::join(0).unwrap();
        let node = participant.node("", "caller").unwrap();
        let list = node
            .client::<ListParameters>(&TopicName::new("/param_node/list_parameters").unwrap())
            .unwrap();
        assert!(list.wait_for_service(Duration::from_secs(10)), "no server");
        let listed = list
            .call(ListParametersRequest::default(), Duration::from_secs(5))
            .unwrap();
        assert!(
            listed.result.names.contains(&"use_sim_time".to_string()),
            "{listed:?}"
        );
        let get = node
            .client::<GetParameters>(&TopicName::new("/param_node/get_parameters").unwrap())
            .unwrap();
        assert!(get.wait_for_service(Duration::from_secs(10)));
        // Several calls in a row, each paired with its own reply.
        for _ in 0..5 {
            let got = get
                .call(
                    // (rclpy answers nothing at all when one name is not declared)
                    GetParametersRequest {
                        names: vec!["use_sim_time".into()],
                    },
                    Duration::from_secs(5),
                )
                .unwrap();
            let types: Vec<u8> = got.values.iter().map(|v| v.r#type).collect();
            assert_eq!(types, [parameter_type::BOOL]);
            assert!(!got.values[0].bool_value);
        }
        // A service nobody serves: no server, and a call times out.
        let nobody = node
            .client::<ListParameters>(&TopicName::new("/nobody/list_parameters").unwrap())
            .unwrap();
        assert!(!nobody.wait_for_service(Duration::from_millis(500)));
        assert!(matches!(
            nobody.call(ListParametersRequest::default(), Duration::from_millis(300)),
            Err(CallError::Timeout { .. })
        ));
    });
}

#[test]
fn our_client_calls_our_server_in_another_process() {
    ros2_peer::in_namespace(|| {
        let server = Participant::join(0).unwrap();
        let name = TopicName::new("/server/list_parameters").unwrap();
        let served = server.node("", "server").unwrap();
        let _server = served
            .service::<ListParameters>(&name, |request| ListParametersResponse {
                result: ListParametersResult {
                    names: request.prefixes.iter().map(|p| format!("{p}.x")).collect(),
                    prefixes: request.prefixes.clone(),
                },
            })
            .unwrap();
        let caller = Participant::join(0).unwrap();
        let client = caller
            .node("", "caller")
            .unwrap()
            .client::<ListParameters>(&name)
            .unwrap();
        assert!(client.wait_for_service(Duration::from_secs(10)));
        // Concurrent calls from several threads, each answered with its own.
        std::thread::scope(|scope| {
            for i in 0..4 {
                let client = &client;
                scope.spawn(move || {
                    for k in 0..5 {
                        let prefix = format!("p{i}_{k}");
                        let response = client
                            .call(
                                ListParametersRequest {
                                    prefixes: vec![prefix.clone()],
                                    depth: 0,
                                },
                                Duration::from_secs(5),
                            )
                            .unwrap();
                        assert_eq!(response.result.names, [format!("{prefix}.x")]);
                    }
                });
            }
        });
    })
    .unwrap_or_else(|why| ros2_peer::skip(&why));
}

#[test]
fn a_reply_sent_later_from_another_thread_answers_its_own_call() {
    ros2_peer::in_namespace(|| {
        use std::sync::{Arc, Mutex};
        let server = Participant::join(0).unwrap();
        let name = TopicName::new("/server/list_parameters").unwrap();
        // Each request is held, and answered by another thread once three have come, in the
        // reverse order: as an action's get_result is answered when its goal ends.
        type Held = Vec<(String, ros2_dds::Reply<ListParameters>)>;
        let held: Arc<Mutex<Held>> = Arc::default();
        let holder = held.clone();
        let _server = server
            .node("", "server")
            .unwrap()
            .deferred_service::<ListParameters>(&name, move |request, reply| {
                let prefix = request.prefixes.first().cloned().unwrap_or_default();
                holder.lock().unwrap().push((prefix, reply));
            })
            .unwrap();
        let answerer = std::thread::spawn(move || {
            loop {
                let mut held = held.lock().unwrap();
                if held.len() == 3 {
                    while let Some((prefix, reply)) = held.pop() {
                        reply.send(ListParametersResponse {
                            result: ListParametersResult {
                                names: vec![format!("{prefix}.late")],
                                prefixes: Vec::new(),
                            },
                        });
                    }
                    return;
                }
                drop(held);
                std::thread::sleep(Duration::from_millis(10));
            }
        });
        let caller = Participant::join(0).unwrap();
        let client = caller
            .node("", "caller")
            .unwrap()
            .client::<ListParameters>(&name)
            .unwrap();
        assert!(client.wait_for_service(Duration::from_secs(10)));
        std::thread::scope(|scope| {
            for i in 0..3 {
                let client = &client;
                scope.spawn(move || {
                    let prefix = format!("call{i}");
                    let response = client
                        .call(
                            ListParametersRequest {
                                prefixes: vec![prefix.clone()],
                                depth: 0,
                            },
                            Duration::from_secs(10),
                        )
                        .unwrap();
                    assert_eq!(response.result.names, [format!("{prefix}.late")]);
                });
            }
        });
        answerer.join().unwrap();
    })
    .unwrap_or_else(|why| ros2_peer::skip(&why));
}
