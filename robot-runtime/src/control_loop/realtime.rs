//! Optional real-time setup of the control thread: SCHED_FIFO priority, CPU affinity, locked
//! memory, and a 1 ns timer slack. Each step is tried on its own and its outcome reported, so a
//! refusal (no `CAP_SYS_NICE`, no `rtprio` limit) is visible instead of silently ignored.
//!
//! The calls are Linux's (`prctl`, `sched_setaffinity`, `mlockall`, `sched_setscheduler`). On any
//! other OS the API is the same and every step is reported refused with [`UNSUPPORTED`], so a
//! controller still runs there, without real-time guarantees, and says so.

/// What to ask the OS for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RealtimeOptions {
    /// SCHED_FIFO at this priority (1–99).
    pub fifo_priority: Option<i32>,
    /// Pin the control thread to this CPU.
    pub cpu: Option<usize>,
    /// `mlockall(MCL_CURRENT | MCL_FUTURE)`, so no page fault stalls a cycle.
    pub lock_memory: bool,
}

/// The outcome of one setup step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RealtimeStep {
    /// What was asked, e.g. `SCHED_FIFO priority 80`.
    pub what: String,
    /// `None` when granted, else why not.
    pub refused: Option<String>,
}

impl std::fmt::Display for RealtimeStep {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.refused {
            None => write!(f, "{}: granted", self.what),
            Some(why) => write!(f, "{}: refused ({why})", self.what),
        }
    }
}

/// Why every step is refused on an OS other than Linux.
pub(crate) const UNSUPPORTED: &str =
    "not supported on this OS: the real-time setup uses Linux calls";

/// Applies the options to the calling thread. Always sets a 1 ns timer slack (allowed for every
/// process; the default 50 µs slack shows up directly as wake-up lateness).
#[cfg(target_os = "linux")]
pub fn apply(options: &RealtimeOptions) -> Vec<RealtimeStep> {
    linux::apply(options)
}

/// Applies the options to the calling thread: on this OS, refuses every step (and the timer
/// slack Linux would always set) with [`UNSUPPORTED`].
#[cfg(not(target_os = "linux"))]
pub fn apply(options: &RealtimeOptions) -> Vec<RealtimeStep> {
    unsupported(options)
}

/// The steps [`apply`] reports for `options`, in its order, each refused with [`UNSUPPORTED`].
#[cfg_attr(target_os = "linux", allow(dead_code))] // used on other OSes and by the tests
fn unsupported(options: &RealtimeOptions) -> Vec<RealtimeStep> {
    let refused = |what: String| RealtimeStep {
        what,
        refused: Some(UNSUPPORTED.to_string()),
    };
    let mut steps = vec![refused(TIMER_SLACK.to_string())];
    steps.extend(options.cpu.map(|cpu| refused(cpu_affinity(cpu))));
    if options.lock_memory {
        steps.push(refused(LOCK_MEMORY.to_string()));
    }
    steps.extend(options.fifo_priority.map(|p| refused(fifo(p))));
    steps
}

const TIMER_SLACK: &str = "timer slack 1 ns";
const LOCK_MEMORY: &str = "locked memory (mlockall)";

fn cpu_affinity(cpu: usize) -> String {
    format!("CPU affinity {cpu}")
}

fn fifo(priority: i32) -> String {
    format!("SCHED_FIFO priority {priority}")
}

#[cfg(target_os = "linux")]
mod linux {
    use super::*;

    fn last_os_error(hint: &str) -> Option<String> {
        let error = std::io::Error::last_os_error();
        Some(if hint.is_empty() {
            error.to_string()
        } else {
            format!("{error}; {hint}")
        })
    }

    pub(super) fn apply(options: &RealtimeOptions) -> Vec<RealtimeStep> {
        let mut steps = Vec::new();
        // SAFETY: prctl with PR_SET_TIMERSLACK takes a plain integer and touches no memory of ours.
        let slack = unsafe { libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong, 0, 0, 0) };
        steps.push(RealtimeStep {
            what: TIMER_SLACK.into(),
            refused: if slack == 0 { None } else { last_os_error("") },
        });
        if let Some(cpu) = options.cpu {
            // SAFETY: cpu_set_t is plain data; CPU_ZERO/CPU_SET write only into it, and
            // sched_setaffinity reads `size_of` bytes of it.
            let result = unsafe {
                let mut set: libc::cpu_set_t = std::mem::zeroed();
                libc::CPU_ZERO(&mut set);
                if cpu >= libc::CPU_SETSIZE as usize {
                    -2
                } else {
                    libc::CPU_SET(cpu, &mut set);
                    libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set)
                }
            };
            steps.push(RealtimeStep {
                what: cpu_affinity(cpu),
                refused: match result {
                    0 => None,
                    -2 => Some(format!("CPU {cpu} is beyond CPU_SETSIZE")),
                    _ => last_os_error("is that CPU online and allowed for this process?"),
                },
            });
        }
        if options.lock_memory {
            // SAFETY: mlockall takes flags only.
            let result = unsafe { libc::mlockall(libc::MCL_CURRENT | libc::MCL_FUTURE) };
            steps.push(RealtimeStep {
                what: LOCK_MEMORY.into(),
                refused: if result == 0 {
                    None
                } else {
                    last_os_error("needs CAP_IPC_LOCK or a large enough `ulimit -l`")
                },
            });
        }
        if let Some(priority) = options.fifo_priority {
            let param = libc::sched_param {
                sched_priority: priority,
            };
            // SAFETY: `param` lives across the call; pid 0 is the calling thread.
            let result = unsafe { libc::sched_setscheduler(0, libc::SCHED_FIFO, &param) };
            steps.push(RealtimeStep {
            what: fifo(priority),
            refused: if result == 0 {
                None
            } else {
                last_os_error("needs CAP_SYS_NICE or an `rtprio` limit (ulimit -r); a PREEMPT_RT kernel for hard deadlines")
            },
        });
        }
        steps
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_requested_step_is_refused_where_unsupported_in_the_order_linux_reports_them() {
        let all = RealtimeOptions {
            fifo_priority: Some(80),
            cpu: Some(1),
            lock_memory: true,
        };
        let steps = unsupported(&all);
        let names: Vec<&str> = steps.iter().map(|s| s.what.as_str()).collect();
        assert_eq!(
            names,
            [
                "timer slack 1 ns",
                "CPU affinity 1",
                "locked memory (mlockall)",
                "SCHED_FIFO priority 80"
            ]
        );
        assert!(
            steps
                .iter()
                .all(|s| s.refused.as_deref() == Some(UNSUPPORTED))
        );
        assert_eq!(
            steps[3].to_string(),
            "SCHED_FIFO priority 80: refused (not supported on this OS: the real-time setup uses \
             Linux calls)"
        );
        #[cfg(not(target_os = "linux"))]
        assert_eq!(apply(&all), steps);
    }

    #[cfg(target_os = "linux")]
    #[test]
    #[cfg_attr(miri, ignore = "Miri cannot run these OS calls")]
    fn every_requested_step_is_reported_granted_or_refused() {
        let steps = std::thread::spawn(|| {
            apply(&RealtimeOptions {
                fifo_priority: Some(10),
                cpu: Some(0),
                lock_memory: false,
            })
        })
        .join()
        .unwrap();
        let names: Vec<&str> = steps.iter().map(|s| s.what.as_str()).collect();
        assert_eq!(
            names,
            [
                "timer slack 1 ns",
                "CPU affinity 0",
                "SCHED_FIFO priority 10"
            ]
        );
        assert_eq!(steps[0].refused, None);
        let beyond = std::thread::spawn(|| {
            apply(&RealtimeOptions {
                cpu: Some(100_000),
                ..Default::default()
            })
        })
        .join()
        .unwrap();
        assert!(beyond[1].refused.is_some(), "{:?}", beyond[1]);
    }
}
