//! SocketCAN on a live virtual interface: needs `vcan0` up (`sudo modprobe vcan; sudo ip link
//! add dev vcan0 type vcan; sudo ip link set vcan0 up`, or another name in `ROBSTRIDE_VCAN`) and
//! `--features vcan-tests`.
#![cfg(all(target_os = "linux", feature = "vcan-tests"))]
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is the failure report

use std::time::{Duration, Instant};

use backend_robstride::transport::{SocketCan, Transport};
use robstride_protocol::Frame;

fn interface() -> String {
    std::env::var("ROBSTRIDE_VCAN").unwrap_or_else(|_| "vcan0".to_owned())
}

fn recv_within(socket: &mut SocketCan, timeout: Duration) -> Option<Frame> {
    let start = Instant::now();
    while start.elapsed() < timeout {
        if let Some(frame) = socket.try_recv().unwrap() {
            return Some(frame);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    None
}

#[test]
fn frames_cross_between_two_sockets_and_not_back_to_the_sender() {
    let open = || SocketCan::open(&interface()).unwrap_or_else(|e| panic!("{e}"));
    let (mut a, mut b) = (open(), open());
    assert_eq!(a.try_recv().unwrap(), None, "non-blocking, nothing yet");
    let frame = Frame::extended(0x0300_FD7F, [1, 2, 3, 4, 5, 6, 7, 8]);
    a.send(&frame).unwrap();
    assert_eq!(recv_within(&mut b, Duration::from_secs(1)), Some(frame));
    assert_eq!(recv_within(&mut a, Duration::from_millis(50)), None);
}
