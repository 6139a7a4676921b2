//! `ros2-peer`: what the DDS tests of `ros2-dds`, `ros2-graph`, `ros2-trajectory` and `backend-topic` share.
//!
//! * [`isolated`] runs a test body on a thread of its own inside a fresh network namespace
//!   (`unshare(CLONE_NEWNET)`, then `ip link set lo up` and a multicast route on `lo`), so
//!   discovery and traffic never leave it: the DDS threads the body starts, and the peer
//!   processes it spawns, inherit the namespace. Tests running side by side do not see each
//!   other.
//! * [`Peer`] is `peer.py` (beside this crate's `Cargo.toml`): Eclipse Cyclone DDS through PyPI
//!   `cyclonedds`, from the project's venv (`scripts/install-tools.sh`), an implementation of
//!   ROS 2's wire format that is not ours.
//!
//! Where no namespace can be made, or the peer is not installed, a test prints `SKIPPED: …`
//! saying why, and fails when `CI` is `true` (as the tool tests of `tests/` do).
#![warn(missing_docs)]

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// Why a test cannot run here.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HarnessError {
    /// `unshare(CLONE_NEWNET)` failed (not root, or no namespaces in this kernel or container).
    #[error("cannot make a network namespace: unshare(CLONE_NEWNET) failed: {0}")]
    Namespace(std::io::Error),
    /// `ip` failed inside the namespace.
    #[error("cannot set up the namespace's loopback: `ip {command}` failed: {message}")]
    Loopback {
        /// The `ip` arguments.
        command: String,
        /// What went wrong.
        message: String,
    },
    /// No Python with `cyclonedds` in the venv.
    #[error("cyclonedds not found; run scripts/install-tools.sh")]
    PeerMissing,
    /// The peer did not start or answer.
    #[error("the cyclonedds peer failed: {0}")]
    Peer(String),
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
    in_a_namespace(true, body)
}

/// As [`in_namespace`], but with nothing set up: `lo` down, no route anywhere (a machine with no
/// network at all, as DDS sees it).
pub fn in_namespace_without_network<T: Send + 'static>(
    body: impl FnOnce() -> T + Send + 'static,
) -> Result<T, HarnessError> {
    in_a_namespace(false, body)
}

fn in_a_namespace<T: Send + 'static>(
    loopback: bool,
    body: impl FnOnce() -> T + Send + 'static,
) -> Result<T, HarnessError> {
    let thread = std::thread::spawn(move || -> Result<T, HarnessError> {
        enter_new_namespace(loopback)?;
        Ok(body())
    });
    match thread.join() {
        Ok(result) => result,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// Runs a DDS test body in its own network namespace with the peer's interpreter found, or
/// prints why it cannot (failing under CI).
pub fn isolated(body: impl FnOnce(&PeerPython) + Send + 'static) {
    let python = match PeerPython::find() {
        Ok(python) => python,
        Err(why) => return skip(&why),
    };
    if let Err(why) = in_namespace(move || body(&python)) {
        skip(&why);
    }
}

fn enter_new_namespace(loopback: bool) -> Result<(), HarnessError> {
    // SAFETY: unshare takes flags only; CLONE_NEWNET moves this thread alone, and its children.
    if unsafe { libc::unshare(libc::CLONE_NEWNET) } != 0 {
        return Err(HarnessError::Namespace(std::io::Error::last_os_error()));
    }
    if !loopback {
        return Ok(());
    }
    for args in [
        &["link", "set", "lo", "up"][..],
        &["link", "set", "lo", "multicast", "on"],
        // DDS discovery is multicast; in a namespace with only `lo` it must go there.
        &["route", "add", "224.0.0.0/4", "dev", "lo"],
    ] {
        let output = Command::new("ip").args(args).output();
        let failure = match output {
            Ok(o) if o.status.success() => continue,
            Ok(o) => String::from_utf8_lossy(&o.stderr).trim().to_string(),
            Err(e) => e.to_string(),
        };
        return Err(HarnessError::Loopback {
            command: args.join(" "),
            message: failure,
        });
    }
    Ok(())
}

/// The venv's Python, known to import `cyclonedds`.
#[derive(Debug, Clone)]
pub struct PeerPython {
    interpreter: PathBuf,
}

/// The workspace root (this crate is `ros2/peer`).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

impl PeerPython {
    /// `$ROBOT_TOOLS_VENV/bin/python` (relative to the workspace root), else `.venv/bin/python`,
    /// if it imports `cyclonedds`.
    pub fn find() -> Result<PeerPython, HarnessError> {
        let venv = match std::env::var_os("ROBOT_TOOLS_VENV") {
            Some(dir) if !dir.is_empty() => workspace_root().join(dir),
            _ => workspace_root().join(".venv"),
        };
        let interpreter = venv.join("bin/python");
        let imports = Command::new(&interpreter)
            .args(["-c", "import cyclonedds.domain"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if imports {
            Ok(PeerPython { interpreter })
        } else {
            Err(HarnessError::PeerMissing)
        }
    }

    /// Starts `peer.py <mode> <args>` in this thread's namespace and waits for it to be ready.
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
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("peer.py");
        let mut child = Command::new(&self.interpreter)
            .arg("-u")
            .arg(script)
            .arg(mode)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| HarnessError::Peer(format!("cannot start peer.py: {e}")))?;
        if let Some(mut stdin) = child.stdin.take() {
            stdin
                .write_all(input.unwrap_or("").as_bytes())
                .map_err(|e| HarnessError::Peer(format!("cannot feed peer.py: {e}")))?;
        }
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| HarnessError::Peer("no stdout".into()))?;
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
            events,
            seen: Vec::new(),
        };
        peer.wait_for("ready", Duration::from_secs(20))?;
        Ok(peer)
    }
}

/// A running `peer.py`; killed when dropped.
#[derive(Debug)]
pub struct Peer {
    child: Child,
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
                    return Err(HarnessError::Peer(format!(
                        "no `{event}` from peer.py within {timeout:?}"
                    )));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(HarnessError::Peer(format!(
                        "peer.py ended before `{event}`"
                    )));
                }
            }
        }
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
