//! `ros2-peer`: what the DDS tests of `ros2-dds`, `ros2-graph`, `ros2-trajectory` and `backend-topic` share.
//!
//! * [`isolated`] runs a test body against each [`Implementation`] of ROS 2's wire format that
//!   is not ours, once per implementation, each run on a thread of its own inside a fresh
//!   network namespace (`unshare(CLONE_NEWNET)`, then `ip link set lo up` and a multicast route
//!   on `lo`), so discovery and traffic never leave it: the DDS threads the body starts, and the
//!   peer processes it spawns, inherit the namespace. Tests running side by side do not see each
//!   other, and neither do the two runs of one test. A failure says which peer it was against:
//!   the namespace's thread is named after the implementation (the panic message names it), and
//!   `isolated` prints `ros2-peer: failed against …` before failing the test.
//! * [`isolated_on`] runs a body against one implementation only, for what only that one can
//!   tell (Cyclone DDS sees DDS participants; rclpy sees nodes); [`isolated_in`] does so in a
//!   namespace whose network is a [`Network`] other than the usual one (`lo` up, no multicast
//!   route: a host offline, as discovery sees it); [`link::across_a_link_without_multicast`]
//!   runs a body on one of two namespaces joined by a link that carries no multicast, its
//!   peers on the other (static peers).
//! * [`PeerPython`] is the venv's Python (`scripts/install-tools.sh`) for one implementation,
//!   and [`PeerPython::start`] spawns that implementation's peer script (beside this crate's
//!   `Cargo.toml`) in a mode:
//!   * [`Implementation::Cyclone`]: `peer.py`, Eclipse Cyclone DDS through PyPI `cyclonedds`,
//!     the ROS 2 message types declared by hand (`ros_types.py`);
//!   * [`Implementation::Rclpy`]: `rclpy_peer.py`, ROS 2 Jazzy's own client library, rclpy,
//!     over its default RMW, rmw_fastrtps_cpp (eProsima Fast DDS), with ROS 2's own message
//!     packages (PyPI `ros-jazzy-rclpy[fastrtps]`, `ros-jazzy-sensor-msgs`, …).
//!
//!   Both take the same command line (`peer_common.py`) and print one JSON object per line on
//!   stdout, `{"event":"ready"}` first and `{"event":"summary",…}` last ([`Peer`] reads them).
//!   The modes `sim`, `echo`, `script`, `listen`, `trajectory` and `graph` are in both;
//!   `participants` and `ping` are Cyclone's only, `nodes` (rclpy's graph: node names, and a
//!   topic's endpoints with their node, type hash and QoS) rclpy's only. Where they differ in
//!   what they report, the scripts' docstrings say how: rclpy's `graph` has no `/tf` or
//!   `/tf_static` (there is no `tf2_msgs` wheel), and its `listen` reports endpoints as
//!   rclpy's graph API gives them (node, `topic_type`, `topic_type_hash`) where peer.py gives
//!   Cyclone's discovery data (DDS type name, USER_DATA). The rclpy peer speaks Fast DDS's
//!   UDP transport only: its shared-memory transport names segments in `/dev/shm` after the
//!   port, which network namespaces do not separate, so peers of tests running side by side
//!   would write into each other's.
//!
//! Where no namespace can be made, or a peer is not installed, a test prints `SKIPPED: …`
//! saying why, and fails when `CI` is `true` (as the tool tests of `tests/` do).
#![warn(missing_docs)]

pub mod link;

use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// An implementation of ROS 2's wire format that is not ours, and its peer script.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Implementation {
    /// Eclipse Cyclone DDS through its Python binding (PyPI `cyclonedds`), the ROS 2 types
    /// declared by hand: `peer.py`.
    Cyclone,
    /// ROS 2 Jazzy's own client library, rclpy, over rmw_fastrtps_cpp (eProsima Fast DDS),
    /// from PyPI `ros-jazzy-rclpy[fastrtps]`: `rclpy_peer.py`.
    Rclpy,
}

impl Implementation {
    /// Every implementation, in the order [`isolated`] runs them.
    pub const ALL: [Implementation; 2] = [Implementation::Cyclone, Implementation::Rclpy];

    /// The peer script, beside this crate's `Cargo.toml`.
    pub fn script(self) -> &'static str {
        match self {
            Implementation::Cyclone => "peer.py",
            Implementation::Rclpy => "rclpy_peer.py",
        }
    }

    /// The Python package the venv must have for it.
    fn package(self) -> &'static str {
        match self {
            Implementation::Cyclone => "cyclonedds",
            Implementation::Rclpy => "rclpy",
        }
    }

    /// What the venv's Python imports to show it is there.
    fn module(self) -> &'static str {
        match self {
            Implementation::Cyclone => "cyclonedds.domain",
            Implementation::Rclpy => "rclpy",
        }
    }
}

impl fmt::Display for Implementation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Implementation::Cyclone => "Cyclone DDS (peer.py)",
            Implementation::Rclpy => "rclpy over Fast DDS (rclpy_peer.py)",
        })
    }
}

/// Why a test cannot run here.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HarnessError {
    /// `unshare(CLONE_NEWNET)` failed (not root, or no namespaces in this kernel or container).
    #[error("cannot make a network namespace: unshare(CLONE_NEWNET) failed: {0}")]
    Namespace(std::io::Error),
    /// The thread that enters the namespace could not be started.
    #[error("cannot start the thread that enters a network namespace: {0}")]
    Thread(std::io::Error),
    /// `ip` failed inside the namespace.
    #[error("cannot set up the namespace's network: `ip {command}` failed: {message}")]
    Loopback {
        /// The `ip` arguments.
        command: String,
        /// What went wrong.
        message: String,
    },
    /// No Python in the venv that imports the implementation's package.
    #[error("{} not found; run scripts/install-tools.sh", .0.package())]
    PeerMissing(Implementation),
    /// The peer did not start or answer.
    #[error("the {implementation} peer failed: {message}")]
    Peer {
        /// Which peer.
        implementation: Implementation,
        /// What went wrong.
        message: String,
    },
}

/// Whether this is a CI run (`CI` is `true` or `1`), where a skipped test fails.
pub fn on_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v.eq_ignore_ascii_case("true") || v == "1")
}

/// Prints `SKIPPED: <why>`; under CI, fails the test instead.
pub fn skip(why: &HarnessError) {
    // Straight to the process's stderr: the test harness captures `println!` of a passing test.
    let _ = writeln!(std::io::stderr(), "SKIPPED: {why}");
    assert!(!on_ci(), "CI=true, so a skipped test fails: {why}");
}

/// Runs `body` on a new thread inside a new network namespace with only `lo`, up, and returns
/// what it returns. A panic in `body` is the caller's panic.
pub fn in_namespace<T: Send + 'static>(
    body: impl FnOnce() -> T + Send + 'static,
) -> Result<T, HarnessError> {
    in_a_namespace(None, Network::LoopbackMulticast, body)
}

/// As [`in_namespace`], but with nothing set up: `lo` down, no route anywhere (a machine with no
/// network at all, as DDS sees it).
pub fn in_namespace_without_network<T: Send + 'static>(
    body: impl FnOnce() -> T + Send + 'static,
) -> Result<T, HarnessError> {
    in_a_namespace(None, Network::Down, body)
}

/// What a test's network namespace has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Network {
    /// Nothing: `lo` down, no route anywhere.
    Down,
    /// `lo` up, without multicast: only unicast to 127.0.0.1 reaches anyone (a laptop offline,
    /// a container with its loopback alone).
    Loopback,
    /// `lo` up and multicast routed to it, so DDS discovery's multicast reaches the namespace's
    /// other processes: what [`isolated`] and [`isolated_on`] give.
    LoopbackMulticast,
}

/// The namespace's thread is named `name`, if given: a panic's message names it.
fn in_a_namespace<T: Send + 'static>(
    name: Option<String>,
    network: Network,
    body: impl FnOnce() -> T + Send + 'static,
) -> Result<T, HarnessError> {
    let mut thread = std::thread::Builder::new();
    if let Some(name) = name {
        thread = thread.name(name);
    }
    let thread = thread
        .spawn(move || -> Result<T, HarnessError> {
            enter_new_namespace(network)?;
            Ok(body())
        })
        .map_err(HarnessError::Thread)?;
    match thread.join() {
        Ok(result) => result,
        Err(panic) => resume_unwind(panic),
    }
}

/// Runs a DDS test body against every [`Implementation`] in turn, each run in a network
/// namespace of its own with that implementation's interpreter found (or printing why it
/// cannot, failing under CI). A body that fails against one still runs against the others;
/// then the test fails with the first failure, having printed which peers it failed against.
pub fn isolated(body: impl Fn(&PeerPython) + Send + Sync + 'static) {
    let body = Arc::new(body);
    let mut first_failure = None;
    for implementation in Implementation::ALL {
        let body = Arc::clone(&body);
        let run = catch_unwind(AssertUnwindSafe(|| {
            isolated_on(implementation, move |python| body(python));
        }));
        if let Err(panic) = run {
            eprintln!("ros2-peer: failed against {implementation}");
            first_failure.get_or_insert(panic);
        }
    }
    if let Some(panic) = first_failure {
        resume_unwind(panic);
    }
}

/// Runs a DDS test body against `implementation` only, in a network namespace of its own on a
/// thread named after the implementation, with its interpreter found (or printing why it
/// cannot, failing under CI): for what only that implementation can tell.
pub fn isolated_on(
    implementation: Implementation,
    body: impl FnOnce(&PeerPython) + Send + 'static,
) {
    isolated_in(implementation, Network::LoopbackMulticast, body);
}

/// As [`isolated_on`], in a namespace with `network`.
pub fn isolated_in(
    implementation: Implementation,
    network: Network,
    body: impl FnOnce(&PeerPython) + Send + 'static,
) {
    let python = match PeerPython::find(implementation) {
        Ok(python) => python,
        Err(why) => return skip(&why),
    };
    let name = format!("peer {}", implementation.script());
    if let Err(why) = in_a_namespace(Some(name), network, move || body(&python)) {
        skip(&why);
    }
}

fn enter_new_namespace(network: Network) -> Result<(), HarnessError> {
    // SAFETY: unshare takes flags only; CLONE_NEWNET moves this thread alone, and its children.
    if unsafe { libc::unshare(libc::CLONE_NEWNET) } != 0 {
        return Err(HarnessError::Namespace(std::io::Error::last_os_error()));
    }
    let commands: &[&[&str]] = match network {
        Network::Down => &[],
        Network::Loopback => &[&["link", "set", "lo", "up"]],
        Network::LoopbackMulticast => &[
            &["link", "set", "lo", "up"],
            &["link", "set", "lo", "multicast", "on"],
            // DDS discovery is multicast; in a namespace with only `lo` it must go there.
            &["route", "add", "224.0.0.0/4", "dev", "lo"],
        ],
    };
    for &args in commands {
        ip(args, None)?;
    }
    Ok(())
}

/// Runs `ip args` in this thread's network namespace, or in `netns`'s.
fn ip(args: &[&str], netns: Option<RawFd>) -> Result<(), HarnessError> {
    let mut command = Command::new("ip");
    command.args(args);
    if let Some(fd) = netns {
        enter_in_child(&mut command, fd);
    }
    let failure = match command.output() {
        Ok(o) if o.status.success() => return Ok(()),
        Ok(o) => String::from_utf8_lossy(&o.stderr).trim().to_string(),
        Err(e) => e.to_string(),
    };
    Err(HarnessError::Loopback {
        command: args.join(" "),
        message: failure,
    })
}

/// Makes `command`'s child enter the network namespace `fd` refers to before it runs.
fn enter_in_child(command: &mut Command, fd: RawFd) {
    // SAFETY: between fork and exec the closure makes one system call (async-signal-safe) and
    // reads errno; `fd` stays open in the parent for as long as the Command is used.
    unsafe {
        command.pre_exec(move || {
            if libc::setns(fd, libc::CLONE_NEWNET) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
}

/// The venv's Python, known to import one implementation's package.
#[derive(Debug, Clone)]
pub struct PeerPython {
    interpreter: PathBuf,
    implementation: Implementation,
    /// The network namespace its peers start in, when not the caller's ([`link`]).
    netns: Option<Arc<OwnedFd>>,
}

/// The workspace root (this crate is `ros2/peer`).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

impl PeerPython {
    /// `$ROBOT_TOOLS_VENV/bin/python` (relative to the workspace root), else `.venv/bin/python`,
    /// if it imports `implementation`'s package (`cyclonedds`, `rclpy`).
    pub fn find(implementation: Implementation) -> Result<PeerPython, HarnessError> {
        let venv = match std::env::var_os("ROBOT_TOOLS_VENV") {
            Some(dir) if !dir.is_empty() => workspace_root().join(dir),
            _ => workspace_root().join(".venv"),
        };
        let interpreter = venv.join("bin/python");
        let imports = Command::new(&interpreter)
            .args(["-c", &format!("import {}", implementation.module())])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if imports {
            Ok(PeerPython {
                interpreter,
                implementation,
                netns: None,
            })
        } else {
            Err(HarnessError::PeerMissing(implementation))
        }
    }

    /// Which implementation's peer [`start`](Self::start) runs.
    pub fn implementation(&self) -> Implementation {
        self.implementation
    }

    /// Starts the implementation's peer script (`peer.py <mode> <args>`, `rclpy_peer.py <mode>
    /// <args>`) in this thread's namespace (the far host's, for [`link`]'s) and waits for it to
    /// be ready.
    pub fn start(&self, mode: &str, args: &[&str]) -> Result<Peer, HarnessError> {
        self.start_with_input(mode, args, None)
    }

    /// As [`start`](Self::start), writing `input` to its stdin first (the `script` mode's list).
    pub fn start_with_input(
        &self,
        mode: &str,
        args: &[&str],
        input: Option<&str>,
    ) -> Result<Peer, HarnessError> {
        let implementation = self.implementation;
        let script = implementation.script();
        let failed = |message: String| HarnessError::Peer {
            implementation,
            message,
        };
        let mut command = Command::new(&self.interpreter);
        command
            .arg("-u")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(script))
            .arg(mode)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if let Some(netns) = &self.netns {
            enter_in_child(&mut command, netns.as_raw_fd());
        }
        let mut child = command
            .spawn()
            .map_err(|e| failed(format!("cannot start {script}: {e}")))?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin
                .write_all(input.unwrap_or("").as_bytes())
                .map_err(|e| failed(format!("cannot feed {script}: {e}")))?;
        }
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| failed("no stdout".into()))?;
        let (lines, events) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Ok(value) = serde_json::from_str::<serde_json::Value>(&line)
                    && lines.send(value).is_err()
                {
                    break;
                }
            }
        });
        let mut peer = Peer {
            child,
            implementation,
            events,
            seen: Vec::new(),
        };
        peer.wait_for("ready", Duration::from_secs(20))?;
        Ok(peer)
    }
}

/// A running peer script; killed when dropped.
#[derive(Debug)]
pub struct Peer {
    child: Child,
    implementation: Implementation,
    events: Receiver<serde_json::Value>,
    seen: Vec<serde_json::Value>,
}

impl Peer {
    /// Waits for the next line whose `event` is `event`, keeping the others ([`Peer::seen`]).
    pub fn wait_for(
        &mut self,
        event: &str,
        timeout: Duration,
    ) -> Result<serde_json::Value, HarnessError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(left) {
                Ok(value) if value["event"] == event => return Ok(value),
                Ok(value) => self.seen.push(value),
                Err(RecvTimeoutError::Timeout) => {
                    return Err(self.failed(format!("no `{event}` within {timeout:?}")));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.failed(format!("it ended before `{event}`")));
                }
            }
        }
    }

    fn failed(&self, message: String) -> HarnessError {
        HarnessError::Peer {
            implementation: self.implementation,
            message,
        }
    }

    /// Which implementation this peer is.
    pub fn implementation(&self) -> Implementation {
        self.implementation
    }

    /// The lines read so far that were not waited for.
    pub fn seen(&self) -> &[serde_json::Value] {
        &self.seen
    }

    /// Asks the peer to stop (SIGTERM) and returns its summary.
    pub fn finish(mut self, timeout: Duration) -> Result<serde_json::Value, HarnessError> {
        self.terminate();
        self.wait_for("summary", timeout)
    }

    /// As [`finish`](Self::finish), with every line it printed before the summary.
    pub fn finish_seen(
        mut self,
        timeout: Duration,
    ) -> Result<(serde_json::Value, Vec<serde_json::Value>), HarnessError> {
        self.terminate();
        let summary = self.wait_for("summary", timeout)?;
        Ok((summary, std::mem::take(&mut self.seen)))
    }

    /// Waits for the peer to end by itself (a `--seconds` run) and returns its summary.
    pub fn summary(mut self, timeout: Duration) -> Result<serde_json::Value, HarnessError> {
        self.wait_for("summary", timeout)
    }

    /// Sends SIGTERM.
    pub fn terminate(&mut self) {
        if let Ok(pid) = i32::try_from(self.child.id()) {
            // SAFETY: a signal to our own child, which we have not reaped yet.
            unsafe { libc::kill(pid, libc::SIGTERM) };
        }
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
