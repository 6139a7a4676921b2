//! An in-process CAN bus: the host's [`Transport`] end ([`SimHost`]) and simulated devices
//! ([`Node`]s) on one wire, for tests and simulation.
//!
//! As on a real bus, every frame reaches every device except its sender: the nodes see what the
//! host sends and what the other nodes send; the host sees what the nodes send, never its own
//! frames.
//!
//! **Threading.** The bus owns its nodes and runs them synchronously, inside [`SimHost::send`]
//! (and [`SimBus::advance`], [`SimBus::inject`]): a node's replies are queued for the host before
//! `send` returns, so a read after a write sees them, as it would on a 1 Mbit/s bus where a
//! reply takes a fraction of a millisecond. Nothing runs in the background, so a run is
//! deterministic. The state sits behind one mutex, shared by the host end (moved to the control
//! thread) and any number of [`SimBus`] handles (tests, the simulation driver): a handle may be
//! used from another thread, at the cost of the control thread waiting for the lock meanwhile.
//! A node must not call its own bus's handle (it runs under the lock: that would deadlock).
//!
//! **Allocation.** Every queue is sized when the bus is made ([`SimCapacity`]); sending and
//! receiving, faults included, allocate nothing (only an injected send failure's error does, as
//! every [`TransportError`] holds the interface name). A full queue drops the frame and counts it
//! in [`SimStats::overflowed`], as a CAN controller's full receive buffer would.
//!
//! **Time.** The bus has a clock of its own, starting at zero, moved only by
//! [`SimBus::advance`]; nodes get it with every frame and tick.

use std::any::Any;
use std::collections::VecDeque;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use robstride_protocol::Frame;

use robstride_transport::{Transport, TransportError};

/// A simulated device on a [`SimBus`]: a RobStride actuator, a foreign device, a test probe.
pub trait Node: Any + Send {
    /// `frame` is on the bus, put there by the host, another node or a fault injection (never
    /// by this node). `now` is the bus clock. Replies go to `out`.
    fn receive(&mut self, now: Duration, frame: &Frame, out: &mut Outbox<'_>);

    /// The bus clock moved to `now` ([`SimBus::advance`]): for what a device does on its own,
    /// such as active reports. Does nothing unless overridden.
    fn tick(&mut self, now: Duration, out: &mut Outbox<'_>) {
        let _ = (now, out);
    }
}

/// Where a node puts frames on the bus.
#[derive(Debug)]
pub struct Outbox<'a> {
    origin: Origin,
    pending: &'a mut Queue<(Origin, Frame)>,
    stats: &'a mut SimStats,
}

impl Outbox<'_> {
    /// Puts `frame` on the bus, for the host and every other node. `false` when the bus's queue
    /// is full and the frame was lost (counted in [`SimStats::overflowed`]).
    pub fn send(&mut self, frame: Frame) -> bool {
        let queued = self.pending.push((self.origin, frame));
        if !queued {
            self.stats.overflowed += 1;
        }
        queued
    }
}

/// How many frames a [`SimBus`] holds; fixed when it is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimCapacity {
    /// Frames on the wire not yet seen by every node, and, separately, frames waiting for the
    /// host to read them (and those held back by [`SimBus::delay_replies`]).
    pub queue: usize,
    /// Frames the host sent, kept for [`SimBus::sent`]; past it the oldest are forgotten
    /// (counted in [`SimStats::log_lost`]).
    pub log: usize,
}

impl Default for SimCapacity {
    /// 256 frames in each queue (a cycle of a 14-joint robot is 28), 4096 in the log.
    fn default() -> Self {
        SimCapacity {
            queue: 256,
            log: 4096,
        }
    }
}

/// What a [`SimBus`] counted.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct SimStats {
    /// Frames the host handed to `send`, failed ones included.
    pub sent: u64,
    /// Frames the host read.
    pub received: u64,
    /// Node frames lost to [`SimBus::drop_replies`].
    pub dropped: u64,
    /// Node frames held back by [`SimBus::delay_replies`].
    pub delayed: u64,
    /// Frames lost to a full queue, or cut off by the per-call delivery bound (nodes answering
    /// each other without end).
    pub overflowed: u64,
    /// Sends failed by [`SimBus::fail_sends`].
    pub failed_sends: u64,
    /// Host frames the log forgot because it was full.
    pub log_lost: u64,
}

/// How an injected send failure fails ([`SimBus::fail_sends`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SendFailure {
    /// [`TransportError::Bus`], as the OS reporting a bus error.
    Bus,
    /// [`TransportError::QueueFull`], as a transmit queue nobody drains.
    QueueFull,
}

/// A node on a [`SimBus`], for [`SimBus::with_node`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NodeId(usize);

/// The in-process bus: a cheap, cloneable handle to attach nodes, move the clock, inject faults
/// and inspect what the host sent. [`SimBus::host`] gives the host's [`Transport`].
#[derive(Clone)]
pub struct SimBus {
    state: Arc<Mutex<State>>,
}

/// The host's end of a [`SimBus`]: the component's [`Transport`].
pub struct SimHost {
    state: Arc<Mutex<State>>,
}

impl SimBus {
    /// An empty bus named `name` (the interface name errors carry: `sim`, `sim:left`), with the
    /// default capacities.
    pub fn new(name: &str) -> SimBus {
        SimBus::with_capacity(name, SimCapacity::default())
    }

    /// An empty bus with the given capacities.
    pub fn with_capacity(name: &str, capacity: SimCapacity) -> SimBus {
        SimBus {
            state: Arc::new(Mutex::new(State {
                name: name.to_owned(),
                now: Duration::ZERO,
                nodes: Vec::new(),
                pending: Queue::new(capacity.queue),
                host_rx: Queue::new(capacity.queue),
                delayed: Queue::new(capacity.queue),
                log: Queue::new(capacity.log),
                faults: Faults::default(),
                stats: SimStats::default(),
            })),
        }
    }

    /// The host's end, to hand to the component. There is one host: every endpoint taken reads
    /// from the same queue.
    pub fn host(&self) -> SimHost {
        SimHost {
            state: Arc::clone(&self.state),
        }
    }

    /// The bus's name.
    pub fn name(&self) -> String {
        self.lock().name.clone()
    }

    /// Attaches `node` to the bus (setup: this allocates). It sees every frame from now on.
    pub fn attach(&self, node: impl Node) -> NodeId {
        let mut state = self.lock();
        state.nodes.push(Box::new(node));
        NodeId(state.nodes.len() - 1)
    }

    /// Calls `f` with node `id`, if it is an `N`: to set up or inspect a simulated device.
    /// `f` runs under the bus's lock, outside delivery: it must not use this bus, and what it
    /// would have the node send waits for the next frame or tick.
    pub fn with_node<N: Node, R>(&self, id: NodeId, f: impl FnOnce(&mut N) -> R) -> Option<R> {
        let mut state = self.lock();
        let node: &mut dyn Node = state.nodes.get_mut(id.0)?.as_mut();
        let node: &mut dyn Any = node;
        node.downcast_mut::<N>().map(f)
    }

    /// The bus clock.
    pub fn now(&self) -> Duration {
        self.lock().now
    }

    /// Moves the bus clock on by `dt` and ticks every node, delivering what they send.
    pub fn advance(&self, dt: Duration) {
        let mut state = self.lock();
        state.now = state.now.saturating_add(dt);
        let State {
            now,
            nodes,
            pending,
            stats,
            ..
        } = &mut *state;
        for (i, node) in nodes.iter_mut().enumerate() {
            let mut out = Outbox {
                origin: Origin::Node(i),
                pending,
                stats,
            };
            node.tick(*now, &mut out);
        }
        state.deliver();
    }

    /// Every frame the host handed to `send` since the last [`SimBus::take_sent`], in order
    /// (failed sends included: what the host tried to put on the bus).
    pub fn sent(&self) -> Vec<Frame> {
        self.lock().log.items.iter().copied().collect()
    }

    /// As [`SimBus::sent`], and forgets them: the next call starts from here.
    pub fn take_sent(&self) -> Vec<Frame> {
        self.lock().log.items.drain(..).collect()
    }

    /// What the bus counted so far.
    pub fn stats(&self) -> SimStats {
        self.lock().stats
    }

    /// Loses the next `n` frames the nodes send, on their way to the host (other nodes still
    /// see them). Replaces any count still pending.
    pub fn drop_replies(&self, n: u32) {
        self.lock().faults.drop_replies = n;
    }

    /// Holds the next `n` frames the nodes send back from the host for one read: the host gets
    /// them only after a `try_recv` has returned `None` once more.
    pub fn delay_replies(&self, n: u32) {
        self.lock().faults.delay_replies = n;
    }

    /// Puts `frame` on the bus as a foreign device would: the host and every node see it, and
    /// what the nodes answer is delivered. Garbage too: any id, length or remote flag.
    pub fn inject(&self, frame: Frame) {
        let mut state = self.lock();
        let State { pending, stats, .. } = &mut *state;
        Outbox {
            origin: Origin::Foreign,
            pending,
            stats,
        }
        .send(frame);
        state.deliver();
    }

    /// Cuts the host off (`true`) or reconnects it: while silent, the host's frames reach no
    /// node and nothing reaches the host; what was waiting for it is gone. Sends still succeed
    /// and are logged.
    pub fn set_silent(&self, silent: bool) {
        let mut state = self.lock();
        state.faults.silent = silent;
        if silent {
            state.host_rx.items.clear();
            state.delayed.items.clear();
        }
    }

    /// Fails the next `n` sends with `failure`; the frames reach no node. Replaces any count
    /// still pending.
    pub fn fail_sends(&self, n: u32, failure: SendFailure) {
        let mut state = self.lock();
        state.faults.fail_sends = n;
        state.faults.send_failure = failure;
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }
}

impl Transport for SimHost {
    fn send(&mut self, frame: &Frame) -> Result<(), TransportError> {
        let mut state = lock(&self.state);
        state.stats.sent += 1;
        if !state.log.push(*frame) {
            state.log.items.pop_front();
            state.log.push(*frame);
            state.stats.log_lost += 1;
        }
        if state.faults.fail_sends > 0 {
            state.faults.fail_sends -= 1;
            state.stats.failed_sends += 1;
            let interface = state.name.clone();
            return Err(match state.faults.send_failure {
                SendFailure::Bus => TransportError::Bus {
                    interface,
                    cause: std::io::Error::other("bus error (injected)"),
                },
                SendFailure::QueueFull => TransportError::QueueFull { interface },
            });
        }
        if !state.pending.push((Origin::Host, *frame)) {
            // Only with a zero-sized queue: delivery empties it before every send returns.
            return Err(TransportError::QueueFull {
                interface: state.name.clone(),
            });
        }
        state.deliver();
        Ok(())
    }

    fn try_recv(&mut self) -> Result<Option<Frame>, TransportError> {
        let mut state = lock(&self.state);
        if let Some(frame) = state.host_rx.items.pop_front() {
            state.stats.received += 1;
            return Ok(Some(frame));
        }
        // This read is over: what was held back becomes visible to the next one.
        let State {
            host_rx,
            delayed,
            stats,
            ..
        } = &mut *state;
        while let Some(frame) = delayed.items.pop_front() {
            if !host_rx.push(frame) {
                stats.overflowed += 1;
            }
        }
        Ok(None)
    }

    /// The bus clock.
    fn now(&self) -> Duration {
        lock(&self.state).now
    }

    /// Moves the bus clock on by `pause` ([`SimBus::advance`]): a wait for replies takes
    /// simulated time, not wall time.
    fn pause(&mut self, pause: Duration) {
        SimBus {
            state: Arc::clone(&self.state),
        }
        .advance(pause);
    }
}

/// Who put a frame on the bus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    Host,
    Node(usize),
    Foreign,
}

#[derive(Debug, Clone, Copy)]
struct Faults {
    drop_replies: u32,
    delay_replies: u32,
    silent: bool,
    fail_sends: u32,
    send_failure: SendFailure,
}

impl Default for Faults {
    fn default() -> Self {
        Faults {
            drop_replies: 0,
            delay_replies: 0,
            silent: false,
            fail_sends: 0,
            send_failure: SendFailure::Bus,
        }
    }
}

struct State {
    name: String,
    now: Duration,
    nodes: Vec<Box<dyn Node>>,
    /// On the wire, not yet seen by every node.
    pending: Queue<(Origin, Frame)>,
    /// For the host's next `try_recv`.
    host_rx: Queue<Frame>,
    /// For the host's read after next.
    delayed: Queue<Frame>,
    log: Queue<Frame>,
    faults: Faults,
    stats: SimStats,
}

impl State {
    /// Delivers every pending frame to everyone but its sender, and what the nodes answer,
    /// until the wire is quiet. Bounded, so nodes answering each other cannot loop forever.
    fn deliver(&mut self) {
        let State {
            now,
            nodes,
            pending,
            host_rx,
            delayed,
            faults,
            stats,
            ..
        } = self;
        let mut budget = pending.capacity.saturating_mul(4);
        while let Some((origin, frame)) = pending.items.pop_front() {
            if budget == 0 {
                stats.overflowed += 1 + pending.items.len() as u64;
                pending.items.clear();
                break;
            }
            budget -= 1;
            if faults.silent {
                continue;
            }
            match origin {
                Origin::Host => {}
                Origin::Foreign => {
                    if !host_rx.push(frame) {
                        stats.overflowed += 1;
                    }
                }
                Origin::Node(_) if faults.drop_replies > 0 => {
                    faults.drop_replies -= 1;
                    stats.dropped += 1;
                }
                Origin::Node(_) if faults.delay_replies > 0 => {
                    faults.delay_replies -= 1;
                    if delayed.push(frame) {
                        stats.delayed += 1;
                    } else {
                        stats.overflowed += 1;
                    }
                }
                Origin::Node(_) => {
                    if !host_rx.push(frame) {
                        stats.overflowed += 1;
                    }
                }
            }
            for (i, node) in nodes.iter_mut().enumerate() {
                if origin == Origin::Node(i) {
                    continue;
                }
                let mut out = Outbox {
                    origin: Origin::Node(i),
                    pending,
                    stats,
                };
                node.receive(*now, &frame, &mut out);
            }
        }
    }
}

/// A FIFO that never grows past the capacity it was made with, so never reallocates.
#[derive(Debug)]
struct Queue<T> {
    items: VecDeque<T>,
    capacity: usize,
}

impl<T> Queue<T> {
    fn new(capacity: usize) -> Queue<T> {
        Queue {
            items: VecDeque::with_capacity(capacity),
            capacity,
        }
    }

    /// `false` (and `item` dropped) when full.
    fn push(&mut self, item: T) -> bool {
        if self.items.len() >= self.capacity {
            return false;
        }
        self.items.push_back(item);
        true
    }
}

/// A node that panicked left the state as consistent as between two frames: carry on.
fn lock(state: &Mutex<State>) -> MutexGuard<'_, State> {
    state.lock().unwrap_or_else(PoisonError::into_inner)
}

impl fmt::Debug for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("State")
            .field("name", &self.name)
            .field("now", &self.now)
            .field("nodes", &self.nodes.len())
            .field("waiting_for_host", &self.host_rx.items.len())
            .field("faults", &self.faults)
            .field("stats", &self.stats)
            .finish()
    }
}

impl fmt::Debug for SimBus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("SimBus").field(&*self.lock()).finish()
    }
}

impl fmt::Debug for SimHost {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("SimHost").field(&*lock(&self.state)).finish()
    }
}
