//! A run as a picture: one small panel per joint, its commanded position (dashed) against its
//! measured position (solid) over the run, written as SVG or PNG by `plotters`.
//!
//! The text is drawn with DejaVu Sans compiled in (the `dejavu` crate), so a machine without
//! fonts (a fresh Debian, a container) draws the same picture.

use std::path::{Path, PathBuf};
use std::sync::Once;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::trace::Trace;

/// Why a plot was not written.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The path asks for a format there is no backend for.
    #[error(
        "cannot plot to `{path}`: give a file ending in .svg or .png",
        path = .0.display()
    )]
    Format(PathBuf),
    /// Nothing was recorded (the loop never became active).
    #[error("nothing to plot: the loop recorded no active cycle")]
    Empty,
    /// Drawing or writing failed.
    #[error("cannot write the plot `{path}`: {reason}", path = .path.display())]
    Draw {
        /// The file.
        path: PathBuf,
        /// What the backend said.
        reason: String,
    },
}

/// The picture's format, from the file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Scalable: text stays text.
    Svg,
    /// A bitmap.
    Png,
}

impl Format {
    /// `.svg` or `.png` (any case); anything else is an error naming the path.
    pub fn of(path: &Path) -> Result<Format, PlotError> {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("svg") => Ok(Format::Svg),
            Some("png") => Ok(Format::Png),
            _ => Err(PlotError::Format(path.to_path_buf())),
        }
    }
}

const PANEL: (u32, u32) = (360, 200);
const COLUMNS: usize = 4;
const TITLE_HEIGHT: u32 = 56;
const FONT: &str = "sans-serif";
const COMMANDED: RGBColor = RGBColor(214, 39, 40);
const MEASURED: RGBColor = RGBColor(31, 119, 180);

/// Writes `trace` to `path` (its extension says the format), titled `title`.
pub fn write(trace: &Trace, title: &str, path: &Path) -> Result<(), PlotError> {
    let format = Format::of(path)?;
    if trace.times().is_empty() || trace.joints().is_empty() {
        return Err(PlotError::Empty);
    }
    register_font();
    let columns = COLUMNS.min(trace.joints().len());
    let rows = trace.joints().len().div_ceil(columns);
    let size = (
        PANEL.0 * columns as u32,
        PANEL.1 * rows as u32 + TITLE_HEIGHT,
    );
    let failed = |reason: String| PlotError::Draw {
        path: path.to_path_buf(),
        reason,
    };
    match format {
        Format::Svg => {
            let root = SVGBackend::new(path, size).into_drawing_area();
            draw(&root, trace, title, (rows, columns)).map_err(failed)?;
            root.present().map_err(|e| failed(e.to_string()))
        }
        Format::Png => {
            let root = BitMapBackend::new(path, size).into_drawing_area();
            draw(&root, trace, title, (rows, columns)).map_err(failed)?;
            root.present().map_err(|e| failed(e.to_string()))
        }
    }
}

fn register_font() {
    static REGISTERED: Once = Once::new();
    REGISTERED.call_once(|| {
        // The bytes are a valid TrueType font, compiled in; registration cannot meet a file.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
    });
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    trace: &Trace,
    title: &str,
    grid: (usize, usize),
) -> Result<(), String> {
    let text = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(text)?;
    let (header, body) = root.split_vertically(TITLE_HEIGHT);
    let (title_area, legend_area) = header.split_vertically(TITLE_HEIGHT / 2);
    title_area
        .titled(
            &format!("{title}: commanded (dashed) vs measured (solid) position over time [s]"),
            (FONT, 18),
        )
        .map_err(text)?;
    legend(&legend_area).map_err(text)?;
    let times = trace.times();
    let (start, end) = (times[0], times[times.len() - 1]);
    let span = if end > start { end } else { start + 1.0 };
    for (joint, panel) in trace
        .joints()
        .iter()
        .enumerate()
        .zip(body.split_evenly(grid))
    {
        let (index, joint) = joint;
        let commanded: Vec<(f64, f64)> = points(times, trace.commanded(index));
        let measured: Vec<(f64, f64)> = points(times, trace.measured(index));
        let (low, high) = range(commanded.iter().chain(&measured).map(|p| p.1));
        // Where the two lines lie on top of each other, the caption still says how far apart
        // they ever were.
        let unit = joint.unit.map(|u| format!(" [{u}]")).unwrap_or_default();
        let caption = match largest_error(trace, index) {
            Some(error) => format!("{}{unit} (max |error| {error:.3})", joint.name),
            None => format!("{}{unit}", joint.name),
        };
        let mut chart = ChartBuilder::on(&panel)
            .caption(caption, (FONT, 14))
            .margin(6)
            .x_label_area_size(22)
            .y_label_area_size(44)
            .build_cartesian_2d(start..span, low..high)
            .map_err(text)?;
        chart
            .configure_mesh()
            .x_labels(4)
            .y_labels(4)
            .label_style((FONT, 11))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(text)?;
        // Measured first and wide, commanded dashed on top: where they coincide, both show.
        chart
            .draw_series(LineSeries::new(measured, MEASURED.stroke_width(4)))
            .map_err(text)?;
        chart
            .draw_series(DashedLineSeries::new(
                commanded,
                6,
                4,
                COMMANDED.stroke_width(2),
            ))
            .map_err(text)?;
    }
    Ok(())
}

/// The key under the title: a sample of each line and what it is.
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let y = (TITLE_HEIGHT / 4) as i32;
    let x = (area.dim_in_pixel().0 / 2) as i32 - 200;
    area.draw(&PathElement::new(
        vec![(x, y), (x + 40, y)],
        MEASURED.stroke_width(4),
    ))?;
    area.draw(&Text::new(
        "measured (solid)",
        (x + 48, y - 7),
        (FONT, 13).into_font(),
    ))?;
    let x = x + 200;
    for dash in 0..4 {
        let from = x + dash * 10;
        area.draw(&PathElement::new(
            vec![(from, y), (from + 6, y)],
            COMMANDED.stroke_width(2),
        ))?;
    }
    area.draw(&Text::new(
        "commanded (dashed)",
        (x + 48, y - 7),
        (FONT, 13).into_font(),
    ))
}

/// The largest |commanded − measured| of joint `index` over the samples that have both.
fn largest_error(trace: &Trace, index: usize) -> Option<f64> {
    trace
        .commanded(index)
        .zip(trace.measured(index))
        .map(|(c, m)| (c - m).abs())
        .filter(|e| e.is_finite())
        .reduce(f64::max)
}

/// The finite points of one series.
fn points(times: &[f64], values: impl Iterator<Item = f64>) -> Vec<(f64, f64)> {
    times
        .iter()
        .copied()
        .zip(values)
        .filter(|(_, v)| v.is_finite())
        .collect()
}

/// A y range that shows `values` with a margin, and a small one around a constant.
fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (low, high) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if !low.is_finite() {
        return (-1.0, 1.0);
    }
    let margin = ((high - low) * 0.1).max(0.05);
    (low - margin, high + margin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extension_picks_the_format() {
        assert_eq!(Format::of(Path::new("run.svg")).ok(), Some(Format::Svg));
        assert_eq!(Format::of(Path::new("out/RUN.PNG")).ok(), Some(Format::Png));
        let error = Format::of(Path::new("run.pdf")).unwrap_err().to_string();
        assert_eq!(
            error,
            "cannot plot to `run.pdf`: give a file ending in .svg or .png"
        );
    }

    #[test]
    fn a_range_has_room_around_its_values() {
        assert_eq!(range([0.0, 1.0].into_iter()), (-0.1, 1.1));
        assert_eq!(range([0.3, 0.3].into_iter()), (0.25, 0.35));
        assert_eq!(
            range([f64::NAN].into_iter().filter(|v| v.is_finite())),
            (-1.0, 1.0)
        );
    }
}
