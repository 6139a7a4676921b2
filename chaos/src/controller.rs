//! The controller every schedule runs: each joint swept by position through its whole range and
//! a tenth beyond it at each end (the limit checks must clamp), with gains where the joint takes
//! them, and the schedule's controller
//! faults: a panic, a refusal, NaN on every slot, positions a thousand radians out.

use std::f64::consts::TAU;

use robot_runtime::control_loop::{Controller, ControllerError};
use robot_runtime::hardware::Clock;
use robot_runtime::typed::RobotTypes;
use robot_runtime::{InterfaceKind, Values};

use crate::faulty::{Log, tag};
use crate::schedule::{ControllerFault, Fault};
use crate::world::World;

/// The sweep's frequency, Hz.
const SWEEP_HZ: f64 = 0.7;
/// The sweep's amplitude for a joint without limits, rad.
const UNLIMITED_AMPLITUDE: f64 = 0.5;
/// The gains the sweep commands where a joint takes them (the loop seeds zero gains, which hold
/// nothing): stiff enough to follow, N·m/rad and N·m·s/rad.
const GAINS: (f64, f64) = (20.0, 1.0);

/// A sweeping controller with faults.
#[derive(Debug)]
pub struct Sweep {
    /// `(command slot, centre, amplitude)` per position-commanded joint.
    joints: Vec<(usize, f64, f64)>,
    /// The stiffness and damping command slots, and the gains for each.
    gains: Vec<(usize, f64)>,
    /// `(index in the schedule, cycle, what)`.
    faults: Vec<(usize, u32, ControllerFault)>,
    updates: u32,
    world: World,
    log: Log,
}

impl Sweep {
    /// The sweep of robot `R`, with `faults`' controller faults.
    pub fn new<R: RobotTypes>(faults: &[Fault], world: &World, log: &Log) -> Sweep {
        let robot = R::DESCRIPTION;
        let joints = (0..robot.joints.len())
            .filter_map(|j| {
                let slot = R::COMMAND_LAYOUT.joint_slot(j, InterfaceKind::Position)?;
                let limits = robot.joints[j].limits.as_ref();
                let (lower, upper) = (limits?.lower, limits?.upper);
                Some(match (lower, upper) {
                    (Some(lower), Some(upper)) => {
                        (slot, (lower + upper) / 2.0, 0.6 * (upper - lower))
                    }
                    _ => (slot, 0.0, UNLIMITED_AMPLITUDE),
                })
            })
            .collect();
        let gains = (0..robot.joints.len())
            .flat_map(|j| {
                [
                    (InterfaceKind::Stiffness, GAINS.0),
                    (InterfaceKind::Damping, GAINS.1),
                ]
                .into_iter()
                .filter_map(move |(kind, gain)| {
                    R::COMMAND_LAYOUT
                        .joint_slot(j, kind)
                        .map(|slot| (slot, gain))
                })
            })
            .collect();
        let faults = faults
            .iter()
            .enumerate()
            .filter_map(|(i, fault)| match *fault {
                Fault::Controller { cycle, fault } => Some((i, cycle, fault)),
                _ => None,
            })
            .collect();
        Sweep {
            joints,
            gains,
            faults,
            updates: 0,
            world: world.clone(),
            log: log.clone(),
        }
    }

    fn struck(&self, fault: usize) {
        self.log.strike(fault, self.world.now());
        self.world.trace(&[0xFC, fault as u8]);
    }
}

impl<R: RobotTypes> Controller<R> for Sweep {
    fn on_activate(
        &mut self,
        _clock: Clock,
        _state: &R::State,
        _command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        let refusal = self
            .faults
            .iter()
            .find(|(_, _, f)| *f == ControllerFault::RefuseActivation);
        if let Some(&(fault, _, _)) = refusal {
            self.struck(fault);
            return Err(ControllerError::new(format!(
                "{}: refused to start",
                tag(fault)
            )));
        }
        Ok(())
    }

    fn update(
        &mut self,
        clock: Clock,
        _state: &R::State,
        command: &mut R::Command,
    ) -> Result<(), ControllerError> {
        let cycle = self.updates;
        self.updates += 1;
        let phase = (TAU * SWEEP_HZ * clock.time.as_secs_f64()).sin();
        let values = command.as_mut_slice();
        for &(slot, centre, amplitude) in &self.joints {
            if let Some(value) = values.get_mut(slot) {
                *value = centre + amplitude * phase;
            }
        }
        for &(slot, gain) in &self.gains {
            if let Some(value) = values.get_mut(slot) {
                *value = gain;
            }
        }
        let Some(&(fault, _, what)) = self
            .faults
            .iter()
            .find(|(_, at, f)| *at == cycle && *f != ControllerFault::RefuseActivation)
        else {
            return Ok(());
        };
        self.struck(fault);
        match what {
            ControllerFault::Panic => panic!("{}: the controller panicked", tag(fault)),
            ControllerFault::Refuse => {
                return Err(ControllerError::new(format!("{}: refused", tag(fault))));
            }
            ControllerFault::NotANumber => values.iter_mut().for_each(|v| *v = f64::NAN),
            ControllerFault::Wild => {
                for &(slot, _, _) in &self.joints {
                    if let Some(value) = values.get_mut(slot) {
                        *value = if cycle.is_multiple_of(2) { 1e3 } else { -1e3 };
                    }
                }
            }
            ControllerFault::RefuseActivation => {}
        }
        Ok(())
    }
}
