//! What a run's plot is drawn from: every joint's commanded and measured position over the run,
//! recorded by [`Recording`], a controller that wraps the one being run.
//!
//! The recording allocates nothing once made: its buffers hold a fixed number of samples, and
//! when they are full every other sample is dropped and the stride between samples doubles, so a
//! run of any length is covered end to end at a resolution that halves as it grows. The control
//! thread takes the buffers with `try_lock`, never waiting: a cycle that finds them taken (only
//! ever by the thread that reads them after the run) records nothing.

use std::sync::{Arc, Mutex};

use robot_core::control_loop::{Controller, ControllerError};
use robot_core::hardware::Clock;
use robot_core::typed::RobotTypes;
use robot_core::{InterfaceKind, Values};

/// The samples a trace keeps before it halves its resolution.
pub const DEFAULT_CAPACITY: usize = 4096;

/// One joint of a trace: its name and where its positions are.
#[derive(Debug, Clone)]
pub struct TracedJoint {
    /// The joint's name.
    pub name: String,
    /// Its position's unit (`rad`, or `m` for a prismatic joint), when known: a recording of an
    /// older version does not say.
    pub unit: Option<&'static str>,
    command: Option<usize>,
    state: Option<usize>,
}

impl TracedJoint {
    /// Joint `name`, its commanded position at `command` in the commands [`Trace::record`] is
    /// given, its measured one at `state` in the states (`None`: it has none).
    pub fn new(name: String, command: Option<usize>, state: Option<usize>) -> TracedJoint {
        TracedJoint {
            name,
            unit: None,
            command,
            state,
        }
    }
}

/// Commanded and measured positions of every joint that has either, over time.
#[derive(Debug, Clone)]
pub struct Trace {
    joints: Vec<TracedJoint>,
    capacity: usize,
    /// Seconds since the loop started, one per sample.
    times: Vec<f64>,
    /// Row-major, one row of `joints.len()` values per sample; NaN where a joint has no such
    /// interface or the controller left it unset.
    commanded: Vec<f64>,
    measured: Vec<f64>,
    stride: u64,
    seen: u64,
}

impl Trace {
    /// An empty trace of robot `R` that keeps up to `capacity` samples (at least 2, rounded up
    /// to even).
    pub fn of<R: RobotTypes>(capacity: usize) -> Trace {
        let joints: Vec<TracedJoint> = R::DESCRIPTION
            .joints
            .iter()
            .enumerate()
            .map(|(index, joint)| TracedJoint {
                name: joint.name.to_string(),
                unit: Some(match joint.kind {
                    robot_core::model::JointKind::Prismatic => "m",
                    _ => "rad",
                }),
                command: R::COMMAND_LAYOUT.joint_slot(index, InterfaceKind::Position),
                state: R::STATE_LAYOUT.joint_slot(index, InterfaceKind::Position),
            })
            .filter(|j| j.command.is_some() || j.state.is_some())
            .collect();
        Trace::of_joints(joints, capacity)
    }

    /// An empty trace of `joints` (those with a commanded or measured position) that keeps up
    /// to `capacity` samples: a recording's, read back.
    pub fn of_joints(joints: Vec<TracedJoint>, capacity: usize) -> Trace {
        // Even, so that the sample that fills it is due at the doubled stride too.
        let capacity = capacity.max(2).next_multiple_of(2);
        Trace {
            times: Vec::with_capacity(capacity),
            commanded: Vec::with_capacity(capacity * joints.len()),
            measured: Vec::with_capacity(capacity * joints.len()),
            joints,
            capacity,
            stride: 1,
            seen: 0,
        }
    }

    /// The traced joints, in definition order.
    pub fn joints(&self) -> &[TracedJoint] {
        &self.joints
    }

    /// The sample times, seconds.
    pub fn times(&self) -> &[f64] {
        &self.times
    }

    /// Joint `joint`'s commanded positions, one per sample.
    pub fn commanded(&self, joint: usize) -> impl Iterator<Item = f64> + '_ {
        self.column(&self.commanded, joint)
    }

    /// Joint `joint`'s measured positions, one per sample.
    pub fn measured(&self, joint: usize) -> impl Iterator<Item = f64> + '_ {
        self.column(&self.measured, joint)
    }

    /// Samples every how many cycles (doubles each time the buffers fill).
    pub fn stride(&self) -> u64 {
        self.stride
    }

    fn column<'a>(&'a self, rows: &'a [f64], joint: usize) -> impl Iterator<Item = f64> + 'a {
        let width = self.joints.len();
        rows.iter().skip(joint).step_by(width.max(1)).copied()
    }

    /// Offers one cycle's state and command; kept when the stride says so.
    pub fn record(&mut self, time: f64, state: &[f64], command: &[f64]) {
        let due = self.seen.is_multiple_of(self.stride);
        self.seen += 1;
        if !due {
            return;
        }
        if self.times.len() == self.capacity {
            self.halve();
        }
        self.times.push(time);
        let at = |values: &[f64], slot: Option<usize>| {
            slot.and_then(|s| values.get(s))
                .copied()
                .unwrap_or(f64::NAN)
        };
        for joint in &self.joints {
            self.commanded.push(at(command, joint.command));
            self.measured.push(at(state, joint.state));
        }
    }

    /// Keeps every other sample, in place, and samples half as often from now on.
    fn halve(&mut self) {
        let width = self.joints.len();
        let kept = self.times.len().div_ceil(2);
        for sample in 0..kept {
            self.times[sample] = self.times[2 * sample];
            for joint in 0..width {
                self.commanded[sample * width + joint] = self.commanded[2 * sample * width + joint];
                self.measured[sample * width + joint] = self.measured[2 * sample * width + joint];
            }
        }
        self.times.truncate(kept);
        self.commanded.truncate(kept * width);
        self.measured.truncate(kept * width);
        self.stride *= 2;
    }
}

/// A controller that runs `inner` and records every cycle's state and command into a shared
/// [`Trace`].
#[derive(Debug)]
pub struct Recording<C> {
    inner: C,
    trace: Arc<Mutex<Trace>>,
}

impl<C> Recording<C> {
    /// Wraps `inner`, recording into `trace`.
    pub fn new(inner: C, trace: Arc<Mutex<Trace>>) -> Recording<C> {
        Recording { inner, trace }
    }

    fn record(&self, clock: Clock, state: &[f64], command: &[f64]) {
        if let Ok(mut trace) = self.trace.try_lock() {
            trace.record(clock.time.as_secs_f64(), state, command);
        }
    }
}

impl<R: RobotTypes, C: Controller<R>> Controller<R> for Recording<C> {
    fn on_activate(
        &mut self,
        clock: Clock,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        self.inner.on_activate(clock, state, command)
    }

    fn update(
        &mut self,
        clock: Clock,
        state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        let result = self.inner.update(clock, state, command);
        self.record(clock, state.as_slice(), command.as_slice());
        result
    }

    fn on_deactivate(&mut self, clock: Clock, state: &R::State) {
        self.inner.on_deactivate(clock, state);
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    robot_macros::robot! {
        robot Pair { update_rate: 100 Hz }
        bus b {}
        link base {}
        link a {}
        link b {}
        joint first: revolute {
            parent: base, child: a, axis: [0, 0, 1],
            limits { lower: -1, upper: 1, velocity: 1, effort: 1 },
            actuator { bus: b, can_id: 1, model: RS02 },
            command: [position], state: [position],
        }
        joint second: revolute {
            parent: a, child: b, axis: [0, 0, 1],
            limits { lower: -1, upper: 1, velocity: 1, effort: 1 },
            actuator { bus: b, can_id: 2, model: RS02 },
            command: [velocity], state: [position, velocity],
        }
    }

    robot_macros::robot! {
        robot Lift { update_rate: 100 Hz }
        bus b {}
        link base {}
        link carriage {}
        joint lift: prismatic {
            parent: base, child: carriage, axis: [0, 0, 1],
            limits { lower: 0, upper: 0.3, velocity: 0.05, effort: 100 },
            actuator { bus: b, can_id: 1, model: RS02, lead: 10 mm },
            command: [position], state: [position],
        }
    }

    #[test]
    fn a_joints_position_unit_is_traced_with_it() {
        assert_eq!(Trace::of::<Lift>(4).joints()[0].unit, Some("m"));
        assert_eq!(Trace::of::<Pair>(4).joints()[0].unit, Some("rad"));
    }

    fn feed(trace: &mut Trace, cycles: u32) {
        for cycle in 0..cycles {
            let t = f64::from(cycle);
            // State slots: first/position, second/position, second/velocity.
            let state = [t, -t, 0.0];
            let command = [2.0 * t, 0.5];
            trace.record(t, &state, &command);
        }
    }

    #[test]
    fn each_joint_keeps_its_commanded_and_measured_position() {
        let mut trace = Trace::of::<Pair>(16);
        assert_eq!(
            trace
                .joints()
                .iter()
                .map(|j| j.name.as_str())
                .collect::<Vec<_>>(),
            ["first", "second"]
        );
        feed(&mut trace, 3);
        assert_eq!(trace.times(), [0.0, 1.0, 2.0]);
        assert_eq!(trace.commanded(0).collect::<Vec<_>>(), [0.0, 2.0, 4.0]);
        assert_eq!(trace.measured(0).collect::<Vec<_>>(), [0.0, 1.0, 2.0]);
        // `second` has no position command: NaN, never a made-up value.
        assert!(trace.commanded(1).all(f64::is_nan));
        assert_eq!(trace.measured(1).collect::<Vec<_>>(), [0.0, -1.0, -2.0]);
    }

    #[test]
    fn a_full_trace_halves_and_still_covers_the_whole_run_evenly() {
        let mut trace = Trace::of::<Pair>(8);
        feed(&mut trace, 100);
        let times = trace.times().to_vec();
        assert!(times.len() <= 8, "{times:?}");
        assert_eq!(times.first(), Some(&0.0));
        assert!(
            *times.last().unwrap() >= 100.0 - trace.stride() as f64,
            "{times:?}"
        );
        let gaps: Vec<f64> = times.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(
            gaps.iter().all(|g| *g == trace.stride() as f64),
            "even spacing: {gaps:?} (stride {})",
            trace.stride()
        );
        // The rows moved with their times.
        for (t, c) in times.iter().zip(trace.commanded(0)) {
            assert_eq!(c, 2.0 * t);
        }
    }

    #[test]
    fn recording_allocates_nothing_once_made() {
        let mut trace = Trace::of::<Pair>(8);
        let before = (trace.times.capacity(), trace.commanded.capacity());
        feed(&mut trace, 1000);
        assert_eq!((trace.times.capacity(), trace.commanded.capacity()), before);
    }
}
