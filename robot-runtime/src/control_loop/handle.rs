//! A loop on its own thread, and the handle that owns it: dropping the handle stops the loop and
//! waits for it, so no thread can go on writing to hardware that nothing controls.

use std::sync::Arc;
use std::thread::JoinHandle;

use super::ControlLoop;
use super::control::LoopControl;
use super::controller::Controller;
use super::error::LoopError;
use super::options::LoopOptions;
use super::report::LoopReport;
use crate::hardware::Panic;
use crate::typed::RobotTypes;

type Outcome<R, C> = (ControlLoop<R, C>, Result<LoopReport, LoopError>);

impl<R: RobotTypes, C: Controller<R> + 'static> ControlLoop<R, C> {
    /// Runs the loop on a dedicated thread named `control`.
    pub fn spawn(mut self, options: LoopOptions) -> Result<LoopHandle<R, C>, LoopError> {
        let control = Arc::new(LoopControl::default());
        let shared = Arc::clone(&control);
        let thread = std::thread::Builder::new()
            .name("control".into())
            .spawn(move || {
                let result = self.run(&options, &shared);
                (self, result)
            })
            .map_err(LoopError::Spawn)?;
        Ok(LoopHandle {
            control,
            thread: Some(thread),
        })
    }
}

/// A loop running on its own thread. Dropping it stops the loop and waits for it to switch the
/// hardware off.
#[derive(Debug)]
pub struct LoopHandle<R: RobotTypes, C: Controller<R>> {
    control: Arc<LoopControl>,
    /// `None` only once joined.
    thread: Option<JoinHandle<Outcome<R, C>>>,
}

impl<R: RobotTypes, C: Controller<R>> LoopHandle<R, C> {
    /// Requests and progress.
    pub fn control(&self) -> &LoopControl {
        &self.control
    }

    /// The shared control, for another thread (a signal handler) to request a stop through.
    pub fn shared_control(&self) -> Arc<LoopControl> {
        Arc::clone(&self.control)
    }

    /// Whether the loop has ended (by itself, by request or by an error).
    pub fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(JoinHandle::is_finished)
    }

    /// Asks the loop to stop and waits for it; returns the loop (for its final state) and how
    /// the run ended.
    pub fn stop(self) -> (Option<ControlLoop<R, C>>, Result<LoopReport, LoopError>) {
        self.control.request_stop();
        self.join()
    }

    /// Waits for the loop to end by itself.
    pub fn join(mut self) -> (Option<ControlLoop<R, C>>, Result<LoopReport, LoopError>) {
        let Some(thread) = self.thread.take() else {
            return (None, Err(LoopError::Joined));
        };
        match thread.join() {
            Ok((control_loop, result)) => (Some(control_loop), result),
            // Only a panic outside the calls that catch panics gets here; unwinding dropped the loop, and
            // its drop switched the hardware off.
            Err(payload) => (
                None,
                Err(LoopError::ThreadPanicked(Panic::of(payload.as_ref()))),
            ),
        }
    }
}

impl<R: RobotTypes, C: Controller<R>> Drop for LoopHandle<R, C> {
    fn drop(&mut self) {
        if let Some(thread) = self.thread.take() {
            self.control.request_stop();
            // The loop switches the hardware off before its thread ends. Its outcome has no
            // caller to go to, so an error goes to stderr rather than nowhere.
            match thread.join() {
                Ok((_, Err(error))) => eprintln!("control loop stopped by drop: {error}"),
                Err(payload) => eprintln!(
                    "control loop stopped by drop: the control thread panicked: {}",
                    Panic::of(payload.as_ref())
                ),
                Ok((_, Ok(_))) => {}
            }
        }
    }
}
