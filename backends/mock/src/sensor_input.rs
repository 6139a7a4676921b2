//! Values for mocked sensors, set from outside the control thread: our stand-in for the command
//! interfaces GenericSystem creates for sensors with `mock_sensor_commands` (there a forward
//! controller writes `imu/orientation.x` and the next read copies it to the state).
//!
//! One writer at a time (a mutex, never taken by the control thread) publishes a whole sensor's
//! values (an IMU, a force/torque sensor, a contact sensor) under a sequence lock; `read` takes the latest complete set without waiting: when a
//! write is in progress it keeps the previous values for that cycle.

use std::sync::atomic::{AtomicU64, Ordering, fence};
use std::sync::{Arc, Mutex, PoisonError};

use robot_runtime::model::SensorKind;
use robot_runtime::{ContactState, ForceTorqueState, ImuState};

/// A wrong value for a mocked sensor.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SensorInputError {
    /// The robot has no sensor with that index.
    #[error("no sensor #{index}: the robot has {count}")]
    UnknownSensor {
        /// The index asked for.
        index: usize,
        /// How many sensors the robot has.
        count: usize,
    },
    /// Values of one kind of sensor for a sensor of another.
    #[error("sensor `{sensor}` is {}, not {}", article(*.kind), article(*.given))]
    WrongKind {
        /// The sensor's name.
        sensor: String,
        /// What it is.
        kind: SensorKind,
        /// What the values were for.
        given: SensorKind,
    },
    /// An infinite value, which GenericSystem's mirroring refuses too.
    #[error("`{sensor}/{interface}` cannot be infinite")]
    Infinite {
        /// The sensor's name.
        sensor: String,
        /// The state interface, `orientation.w` and so on.
        interface: &'static str,
    },
}

#[derive(Debug)]
struct Cells {
    /// Even: stable; odd: a write is in progress. Bumped by two per published set.
    sequence: AtomicU64,
    /// `f64` bits, each sensor's state interfaces in order, sensors in order.
    values: Box<[AtomicU64]>,
    /// Each sensor's name, kind and first value.
    sensors: Box<[(String, SensorKind, usize)]>,
    writer: Mutex<()>,
}

/// Where tests and tools put the values of the sensors a [`crate::MockSystem`] backs; cheap to clone,
/// usable from any thread. Get one from [`crate::MockSystem::sensor_input`].
#[derive(Debug, Clone)]
pub struct SensorInput {
    cells: Arc<Cells>,
}

impl SensorInput {
    /// Values for `sensors` (name and kind, in the robot's order), each starting at its kind's
    /// default: an IMU at the identity orientation, at rest; no force; no contact.
    pub(crate) fn new(sensors: impl IntoIterator<Item = (String, SensorKind)>) -> Self {
        let mut values = Vec::new();
        let sensors: Box<[(String, SensorKind, usize)]> = (sensors.into_iter())
            .map(|(name, kind)| {
                let first = values.len();
                values.extend(
                    default_values(kind)
                        .iter()
                        .map(|v| AtomicU64::new(v.to_bits())),
                );
                (name, kind, first)
            })
            .collect();
        SensorInput {
            cells: Arc::new(Cells {
                sequence: AtomicU64::new(0),
                values: values.into(),
                sensors,
                writer: Mutex::new(()),
            }),
        }
    }

    /// Sets every value of IMU `sensor` (an index into the robot's `sensors`); the next read of
    /// the mock copies them to the state. A NaN component leaves that state as it is, as a NaN
    /// command does in GenericSystem; an infinite one is refused.
    pub fn set_imu(&self, sensor: usize, value: ImuState) -> Result<(), SensorInputError> {
        let (q, w, a) = (
            value.orientation,
            value.angular_velocity,
            value.linear_acceleration,
        );
        let values = [q.x, q.y, q.z, q.w, w.x, w.y, w.z, a.x, a.y, a.z];
        self.set(sensor, SensorKind::Imu, &values)
    }

    /// Sets the wrench of force/torque sensor `sensor`, as [`SensorInput::set_imu`] an IMU's values.
    pub fn set_force_torque(
        &self,
        sensor: usize,
        value: ForceTorqueState,
    ) -> Result<(), SensorInputError> {
        let (f, t) = (value.force, value.torque);
        let values = [f.x, f.y, f.z, t.x, t.y, t.z];
        self.set(sensor, SensorKind::ForceTorque, &values)
    }

    /// Sets the state of contact sensor `sensor`, as [`SensorInput::set_imu`] an IMU's values.
    pub fn set_contact(&self, sensor: usize, value: ContactState) -> Result<(), SensorInputError> {
        let values = [value.contact, value.normal_force];
        self.set(sensor, SensorKind::Contact, &values)
    }

    /// Publishes `values`, a whole sensor of kind `kind` in its state interfaces' order.
    fn set(&self, sensor: usize, kind: SensorKind, values: &[f64]) -> Result<(), SensorInputError> {
        let count = self.cells.sensors.len();
        let Some((name, actual, first)) = self.cells.sensors.get(sensor) else {
            return Err(SensorInputError::UnknownSensor {
                index: sensor,
                count,
            });
        };
        if *actual != kind {
            return Err(SensorInputError::WrongKind {
                sensor: name.clone(),
                kind: *actual,
                given: kind,
            });
        }
        if let Some(i) = values.iter().position(|v| v.is_infinite()) {
            return Err(SensorInputError::Infinite {
                sensor: name.clone(),
                interface: kind.state_interfaces()[i],
            });
        }
        let _writer = self
            .cells
            .writer
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let sequence = self.cells.sequence.load(Ordering::Relaxed);
        self.cells
            .sequence
            .store(sequence.wrapping_add(1), Ordering::Relaxed);
        fence(Ordering::Release);
        for (cell, v) in self.cells.values[*first..].iter().zip(values) {
            cell.store(v.to_bits(), Ordering::Relaxed);
        }
        self.cells
            .sequence
            .store(sequence.wrapping_add(2), Ordering::Release);
        Ok(())
    }

    /// How many sensors values can be set for.
    pub fn len(&self) -> usize {
        self.cells.sensors.len()
    }

    /// Whether the robot has no sensors.
    pub fn is_empty(&self) -> bool {
        self.cells.sensors.is_empty()
    }
}

/// The control thread's side: copies a complete, new set of values, never waiting.
#[derive(Debug)]
pub(crate) struct SensorReader {
    input: SensorInput,
    /// The sequence number of the set last applied.
    seen: u64,
    staging: Vec<f64>,
}

impl SensorReader {
    pub fn new(input: SensorInput) -> Self {
        let len = input.cells.values.len();
        SensorReader {
            input,
            seen: 0,
            staging: vec![0.0; len],
        }
    }

    /// Another handle on the same values.
    pub fn input(&self) -> SensorInput {
        self.input.clone()
    }

    /// Forget what was applied: the next [`SensorReader::apply`] copies the current set (if any
    /// was ever published), as after `on_configure` reset the state.
    pub fn reset(&mut self) {
        self.seen = 0;
    }

    /// Copies the latest complete set into `state`, the sensors' first slots given by `firsts`
    /// (in sensor order), when there is one not applied yet; NaN components are skipped.
    /// Allocation- and wait-free.
    pub fn apply(&mut self, firsts: &[usize], state: &mut [f64]) {
        let cells = &self.input.cells;
        let before = cells.sequence.load(Ordering::Acquire);
        if before == self.seen || before & 1 == 1 {
            return;
        }
        for (staged, cell) in self.staging.iter_mut().zip(cells.values.iter()) {
            *staged = f64::from_bits(cell.load(Ordering::Relaxed));
        }
        fence(Ordering::Acquire);
        if cells.sequence.load(Ordering::Relaxed) != before {
            // A writer got in between: keep the previous values this cycle.
            return;
        }
        self.seen = before;
        for (&first, (_, kind, from)) in firsts.iter().zip(cells.sensors.iter()) {
            let len = kind.state_interfaces().len();
            let values = &self.staging[*from..*from + len];
            for (slot, &v) in state[first..first + len].iter_mut().zip(values) {
                if !v.is_nan() {
                    *slot = v;
                }
            }
        }
    }
}

/// A sensor's values before any are set.
fn default_values(kind: SensorKind) -> &'static [f64] {
    match kind {
        // ImuState::default(): the identity orientation, at rest.
        SensorKind::Imu => &[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        SensorKind::ForceTorque => &[0.0; 6],
        SensorKind::Contact => &[0.0; 2],
    }
}

/// "an IMU", "a force/torque sensor", "a contact sensor".
fn article(kind: SensorKind) -> String {
    let a = if kind == SensorKind::Imu { "an" } else { "a" };
    format!("{a} {}", kind.noun())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use robot_runtime::{Quaternion, Vector3};

    fn tilted() -> ImuState {
        ImuState {
            orientation: Quaternion {
                x: 0.0,
                y: 0.6,
                z: 0.0,
                w: 0.8,
            },
            angular_velocity: Vector3 {
                x: 0.1,
                y: 0.2,
                z: 0.3,
            },
            linear_acceleration: Vector3 {
                x: 0.0,
                y: 0.0,
                z: 9.81,
            },
        }
    }

    #[test]
    fn a_published_set_is_applied_once() {
        let input = SensorInput::new([("base_imu".to_string(), SensorKind::Imu)]);
        let mut reader = SensorReader::new(input.clone());
        let mut state = [0.0; 12];
        reader.apply(&[2], &mut state);
        assert_eq!(state, [0.0; 12], "nothing published yet");
        input.set_imu(0, tilted()).unwrap();
        reader.apply(&[2], &mut state);
        assert_eq!(
            &state[2..],
            &[0.0, 0.6, 0.0, 0.8, 0.1, 0.2, 0.3, 0.0, 0.0, 9.81]
        );
        state[2] = 7.0;
        reader.apply(&[2], &mut state);
        assert_eq!(state[2], 7.0, "an applied set is not applied again");
        reader.reset();
        reader.apply(&[2], &mut state);
        assert_eq!(
            state[2], 0.0,
            "after a reset the current set is applied again"
        );
    }

    #[test]
    fn nan_components_leave_the_state_and_infinite_ones_are_refused() {
        let input = SensorInput::new([("base_imu".to_string(), SensorKind::Imu)]);
        let mut reader = SensorReader::new(input.clone());
        let mut state = [5.0; 10];
        let mut only_gyro = tilted();
        only_gyro.orientation = Quaternion {
            x: f64::NAN,
            y: f64::NAN,
            z: f64::NAN,
            w: f64::NAN,
        };
        input.set_imu(0, only_gyro).unwrap();
        reader.apply(&[0], &mut state);
        assert_eq!(&state[..4], &[5.0; 4]);
        assert_eq!(&state[4..7], &[0.1, 0.2, 0.3]);
        let mut bad = tilted();
        bad.linear_acceleration.z = f64::INFINITY;
        let error = input.set_imu(0, bad).unwrap_err();
        assert_eq!(
            error.to_string(),
            "`base_imu/linear_acceleration.z` cannot be infinite"
        );
        assert_eq!(
            input.set_imu(1, tilted()).unwrap_err().to_string(),
            "no sensor #1: the robot has 1"
        );
    }

    #[test]
    fn a_reader_never_sees_half_a_set() {
        use std::sync::atomic::AtomicBool;
        use std::time::{Duration, Instant};

        // Enough sets to catch a torn one natively; few enough for Miri, which runs every access
        // of both threads under its data-race checker.
        let sets_to_see: u32 = if cfg!(miri) { 20 } else { 500 };
        let input = SensorInput::new([("imu".to_string(), SensorKind::Imu)]);
        let mut reader = SensorReader::new(input.clone());
        let stop = Arc::new(AtomicBool::new(false));
        // The writer publishes 1, 2, 3, ... (every value of a set the same) until told to stop, so
        // the reader always has new sets to take, however the threads are scheduled.
        let writer = {
            let (input, stop) = (input.clone(), Arc::clone(&stop));
            std::thread::spawn(move || {
                let mut written = 0u32;
                while !stop.load(Ordering::Relaxed) {
                    written += 1;
                    let v = f64::from(written);
                    let imu = ImuState {
                        orientation: Quaternion {
                            x: v,
                            y: v,
                            z: v,
                            w: v,
                        },
                        angular_velocity: Vector3 { x: v, y: v, z: v },
                        linear_acceleration: Vector3 { x: v, y: v, z: v },
                    };
                    input.set_imu(0, imu).unwrap();
                }
                written
            })
        };
        let mut state = [0.0; 10];
        let (mut reads, mut seen, mut last) = (0u64, 0u32, 0.0);
        let started = Instant::now();
        while seen < sets_to_see {
            reader.apply(&[0], &mut state);
            reads += 1;
            assert!(state.iter().all(|&v| v == state[0]), "torn set: {state:?}");
            if state[0] != last {
                assert!(state[0] > last, "an older set after a newer one: {state:?}");
                (last, seen) = (state[0], seen + 1);
            }
            assert!(
                cfg!(miri) || started.elapsed() < Duration::from_secs(60),
                "only {seen} new sets in {reads} reads in 60 s"
            );
        }
        stop.store(true, Ordering::Relaxed);
        let written = writer.join().unwrap();
        // The loop ran, and each set it counted was a new, complete one the writer published.
        assert_eq!(seen, sets_to_see);
        assert!(reads >= u64::from(seen), "{reads} reads, {seen} sets");
        assert!(
            written >= seen && last <= f64::from(written),
            "{written} written, {seen} seen"
        );
    }
}
