//! `run --frame FILE.png [--frame-at SECONDS]`: the request checked before the run, and what the
//! run says about the frame afterwards.

use std::time::Duration;

use robot_core::Backend;

use super::args::RunArgs;
use crate::backends::{FRAME_MILLISECONDS, FRAMES_RENDERED, FrameRequest};

/// `--frame` and `--frame-at` as a request, refused before the run on a backend that cannot
/// render, at a time after the run's end, or into a folder that does not exist.
pub(super) fn request(args: &RunArgs, backend: Backend) -> Result<Option<FrameRequest>, String> {
    let Some(path) = &args.frame else {
        return Ok(None);
    };
    crate::backends::check_frame(backend).map_err(|e| format!("--frame: {e}"))?;
    let at = args.frame_at.unwrap_or(args.seconds / 2.0);
    if at > args.seconds {
        return Err(format!(
            "--frame-at {at} is after the run's end (--seconds {})",
            args.seconds
        ));
    }
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty())
        && !folder.is_dir()
    {
        return Err(format!(
            "--frame {}: there is no folder `{}`",
            path.display(),
            folder.display()
        ));
    }
    Ok(Some(FrameRequest {
        path: path.clone(),
        at: Duration::from_secs_f64(at),
    }))
}

/// Says where the frame went and what it cost; an error when the run never reached its time.
pub(super) fn written(
    frame: &FrameRequest,
    report: &robot_core::control_loop::LoopReport,
) -> Result<(), String> {
    let count = |name: &str| {
        report
            .components
            .iter()
            .flat_map(|c| &c.counters)
            .find(|c| c.name == name)
            .map_or(0, |c| c.value)
    };
    if count(FRAMES_RENDERED) == 0 {
        return Err(format!(
            "the run ended before {:.3} s: no frame was written into {}",
            frame.at.as_secs_f64(),
            frame.path.display()
        ));
    }
    outln!(
        "rendered the robot at {:.3} s of simulated time into {} ({} ms, in that one cycle)",
        frame.at.as_secs_f64(),
        frame.path.display(),
        count(FRAME_MILLISECONDS)
    );
    Ok(())
}
