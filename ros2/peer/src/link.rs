//! Two hosts whose network carries no multicast (a Wi-Fi that drops it, a VPN, a cloud subnet),
//! as DDS sees them: two network namespaces joined by a veth pair with multicast off at both
//! ends. The test body runs on the near host ([`NEAR`]) and starts its peers on the far one
//! ([`FAR`]); discovery between them works only by unicast, as `ROS_STATIC_PEERS` asks for.

use std::fs::File;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::Arc;
use std::sync::mpsc::channel;

use crate::{
    HarnessError, Implementation, Network, PeerPython, enter_new_namespace, in_a_namespace, ip,
    skip,
};

/// The near host's address, where the test body runs.
pub const NEAR: &str = "10.77.0.1";
/// The far host's address, where its peers run.
pub const FAR: &str = "10.77.0.2";

/// Runs `body` on the near host, with `implementation`'s Python starting its peers on the far
/// host (or prints why it cannot, failing under CI).
pub fn across_a_link_without_multicast(
    implementation: Implementation,
    body: impl FnOnce(&PeerPython) + Send + 'static,
) {
    let python = match PeerPython::find(implementation) {
        Ok(python) => python,
        Err(why) => return skip(&why),
    };
    let name = format!("peer {} across a link", implementation.script());
    let run = in_a_namespace(Some(name), Network::Loopback, move || {
        let far = link_to_a_far_host()?;
        body(&PeerPython {
            netns: Some(Arc::new(far)),
            ..python
        });
        Ok(())
    });
    if let Err(why) = run.and_then(|inner| inner) {
        skip(&why);
    }
}

/// Makes the far host's namespace (its `lo` up) and the link from this thread's namespace to
/// it; returns the far namespace, which lives while the descriptor is open.
fn link_to_a_far_host() -> Result<OwnedFd, HarnessError> {
    let (sent, far) = channel();
    let (release, released) = channel::<()>();
    // The far namespace is a thread's until the link is made: `ip` finds it by that thread's id.
    let thread = std::thread::Builder::new()
        .name("far host".into())
        .spawn(move || {
            let entered = enter_new_namespace(Network::Loopback).and_then(|()| {
                let namespace =
                    File::open("/proc/thread-self/ns/net").map_err(HarnessError::Namespace)?;
                // SAFETY: gettid takes nothing and cannot fail.
                let tid = unsafe { libc::gettid() };
                Ok((tid, OwnedFd::from(namespace)))
            });
            let _ = sent.send(entered);
            let _ = released.recv();
        })
        .map_err(HarnessError::Thread)?;
    let made = far
        .recv()
        .map_err(|_| HarnessError::Namespace(std::io::Error::other("the far host's thread died")))
        .and_then(|entered| entered)
        .and_then(|(tid, namespace)| {
            let tid = tid.to_string();
            ip(
                &[
                    "link", "add", "near", "type", "veth", "peer", "name", "far", "netns", &tid,
                ],
                None,
            )?;
            Ok(namespace)
        });
    drop(release);
    let _ = thread.join();
    let namespace = made?;
    for (device, address, netns) in [
        ("near", NEAR, None),
        ("far", FAR, Some(namespace.as_raw_fd())),
    ] {
        ip(
            &["addr", "add", &format!("{address}/24"), "dev", device],
            netns,
        )?;
        ip(&["link", "set", device, "multicast", "off", "up"], netns)?;
    }
    Ok(namespace)
}
