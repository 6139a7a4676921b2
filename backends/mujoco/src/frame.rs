//! A frame of the robot taken mid-run by [`crate::MujocoSystem`] itself (feature `render`): once,
//! in the `read` of the first cycle whose simulated time has reached the requested time.
//!
//! That `read` runs long: rendering opens an EGL and a MuJoCo rendering context, draws, reads the
//! pixels back and encodes the PNG (640x480 on Mesa's llvmpipe, 2 shared cores: about 0.16 s in
//! a release build, 0.3 s in a debug one; `on_configure` pays about as much once more, checking
//! that the contexts open). Everything else of that cycle is done first, so the state it returns
//! is that of any other cycle. Under `Pacing::Simulated` the statistics show it (at 200 Hz:
//! 1 overrun and about 30 skipped deadlines); under `Pacing::SimulatedFast` no deadline is
//! missed. No other cycle does anything for the frame.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use mujoco_rs::prelude::{MjData, MjModel};
use robot_runtime::hardware::Counters;

use crate::render::{self, RenderError, View};

/// Which frame to take, when, and where to write it.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameRequest {
    /// Simulated time of the frame, since the first read after configuring: the frame shows
    /// the state of the first cycle at or after it.
    pub at: Duration,
    /// The PNG to write.
    pub path: PathBuf,
    /// Camera and size.
    pub view: View,
}

/// A requested frame, before and after it is taken.
#[derive(Debug)]
pub(crate) struct Pending {
    request: FrameRequest,
    /// The first physics step count at or past `request.at`.
    due_step: u64,
    /// How long rendering and writing took, once taken.
    took: Option<Duration>,
}

impl Pending {
    /// The request, at physics steps of `timestep` seconds.
    pub(crate) fn new(request: FrameRequest, timestep: f64) -> Self {
        // A time a rounding error short of a whole step is that step.
        let steps = request.at.as_secs_f64() / timestep;
        let due_step = (steps - 1e-6).ceil().max(0.0) as u64;
        Pending {
            request,
            due_step,
            took: None,
        }
    }

    /// Forgets a frame taken in an earlier configuration: the simulation starts again.
    pub(crate) fn reset(&mut self) {
        self.took = None;
    }

    /// Whether a frame of this request's size can be rendered for `data`'s model (opens and
    /// closes the contexts; for `on_configure`, before the run).
    pub(crate) fn check(&self, data: &mut MjData<Box<MjModel>>) -> Result<(), String> {
        render::check(data, &self.request.view).map_err(|e| self.describe(&e))
    }

    /// Takes the frame when `steps` physics steps have reached its time and it was not taken
    /// yet; otherwise does nothing (and allocates nothing).
    pub(crate) fn take_if_due(
        &mut self,
        steps: u64,
        data: &mut MjData<Box<MjModel>>,
    ) -> Result<(), String> {
        if self.took.is_some() || steps < self.due_step {
            return Ok(());
        }
        let started = Instant::now();
        render::write_png(data, &self.request.view, &self.request.path)
            .map_err(|e| self.describe(&e))?;
        self.took = Some(started.elapsed());
        Ok(())
    }

    /// `frames rendered` (0 or 1) and `ms rendering the frame`.
    pub(crate) fn counters(&self) -> Counters {
        Counters::from([
            ("frames rendered", u64::from(self.took.is_some())),
            (
                "ms rendering the frame",
                self.took
                    .map_or(0, |t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
            ),
        ])
    }

    fn describe(&self, error: &RenderError) -> String {
        format!(
            "the frame at {:.3} s for `{}`: {error}",
            self.request.at.as_secs_f64(),
            self.request.path.display()
        )
    }
}
