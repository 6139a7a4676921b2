//! `plot RECORDING --out FILE`: a recording drawn as `run --plot` draws a run.

use std::path::Path;

/// Draws `recording` into `out`, saying what was read.
pub(super) fn plot_recording(recording: &Path, out: &Path) -> Result<(), String> {
    let summary = crate::record::plot(recording, out).map_err(|e| e.to_string())?;
    if let Some(reason) = &summary.truncated {
        outln!(
            "note: `{}` ends early (a run killed mid-way?): plotted up to its last complete chunk ({reason})",
            recording.display()
        );
    }
    outln!(
        "plotted {} cycles of {} into {}",
        summary.cycles,
        recording.display(),
        out.display()
    );
    Ok(())
}
