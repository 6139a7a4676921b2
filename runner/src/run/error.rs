//! Why a run could not start or ended badly.

use robot_core::Backend;
use robot_core::bus_load::BusOverloadError;
use robot_core::control_loop::{LoopError, LoopReport};
use robot_core::hardware::HardwareError;

use super::report::summary;
use crate::plot::PlotError;

/// Why a run could not start or ended badly.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The selected backend cannot be built.
    #[error("backend `{backend}`: {reason}")]
    Backend {
        /// The backend.
        backend: Backend,
        /// Why not.
        reason: String,
    },
    /// The real robot's buses cannot carry the loop at the requested rate.
    #[error("at {rate} Hz the buses would be overloaded:\n{source}")]
    BusLoad {
        /// The requested rate, Hz.
        rate: u32,
        /// Which bus, by how much.
        source: BusOverloadError,
    },
    /// The components refused the robot (shown with its aftermath).
    #[error("{0:#}")]
    Hardware(#[from] HardwareError),
    /// The loop ended with an error.
    #[error(transparent)]
    Loop(#[from] LoopError),
    /// SIGINT or SIGTERM stopped the run; the loop switched the hardware off first.
    #[error("interrupted by a signal: the loop stopped and the hardware is {}\n{}", .report.final_lifecycle(), summary(.report))]
    Interrupted {
        /// The run up to the signal.
        report: Box<LoopReport>,
    },
    /// The signal handler could not be installed (the program has one of its own).
    #[error(
        "cannot handle Ctrl-C and SIGTERM: {0}; a run must be stoppable by them, so a program \
         with its own handler cannot use `run`: drive a `ControlLoop` and stop it from that handler"
    )]
    Signals(String),
    /// The run went as asked, but its plot could not be written.
    #[error(transparent)]
    Plot(#[from] PlotError),
    /// `--ros`, but the robot cannot publish into the ROS 2 graph.
    #[error(transparent)]
    Ros(#[from] ros2_graph::GraphError),
    /// The run speaks ROS 2, but no DDS participant can be made (no network, a port taken, a
    /// domain out of range).
    #[error(transparent)]
    Participant(#[from] ros2_dds::WireError),
    /// The run's DDS domain cannot be told (a `ROS_DOMAIN_ID` that is no number, two that
    /// differ).
    #[error("{0}")]
    Domain(String),
    /// The controllers cannot be loaded into a controller manager (a name `controllers.yaml`
    /// does not have, two active ones claiming one interface).
    #[error("controller manager: {0}")]
    Controllers(String),
    /// `--record` to a path that cannot be written (refused before the hardware is
    /// configured), or the recording thread could not start.
    #[error(transparent)]
    Record(#[from] ros2_record::RecordError),
}

impl RunError {
    /// The statistics of a run that got as far as running and then failed or was stopped.
    pub fn report(&self) -> Option<&LoopReport> {
        match self {
            RunError::Loop(error) => error.report(),
            RunError::Interrupted { report } => Some(report),
            _ => None,
        }
    }
}
