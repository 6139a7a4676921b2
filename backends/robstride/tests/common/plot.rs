//! Runs drawn as text, for a failing test's message: one panel per quantity, time across, each
//! column showing the lowest and highest value of every series in its stretch of time, so a
//! spike of one cycle still shows.

use std::fmt::Write;

/// One line of a panel.
#[derive(Debug, Clone, Copy)]
pub struct Series<'a> {
    /// What it is, for the key.
    pub name: &'a str,
    /// The character it is drawn with; a later series is drawn over an earlier one.
    pub mark: char,
    /// One value per sample, evenly spaced in time.
    pub values: &'a [f64],
}

/// Columns and rows of a panel's plotting area.
const WIDTH: usize = 100;
const HEIGHT: usize = 14;

/// A panel of `series` over `seconds`, titled `title` and labelled in `unit`.
pub fn panel(title: &str, unit: &str, seconds: f64, series: &[Series<'_>]) -> String {
    let finite = || {
        series
            .iter()
            .flat_map(|s| s.values.iter().copied())
            .filter(|v| v.is_finite())
    };
    let low = finite().fold(f64::INFINITY, f64::min);
    let high = finite().fold(f64::NEG_INFINITY, f64::max);
    let mut out = format!("{title} [{unit}]\n");
    if !(low.is_finite() && high.is_finite()) {
        out.push_str("  (no finite values)\n");
        return out;
    }
    let span = if high > low { high - low } else { 1.0 };
    let row_of = |v: f64| {
        let from_top = (high - v) / span * (HEIGHT - 1) as f64;
        (from_top.round() as usize).min(HEIGHT - 1)
    };
    let mut grid = vec![vec![' '; WIDTH]; HEIGHT];
    for s in series {
        let n = s.values.len();
        for column in 0..WIDTH {
            // The samples of this column's stretch of time: at least one where they are few.
            let start = column * n / WIDTH;
            let end = ((column + 1) * n / WIDTH).max(start + 1).min(n);
            let stretch = s.values.get(start..end).unwrap_or(&[]);
            let finite: Vec<f64> = stretch.iter().copied().filter(|v| v.is_finite()).collect();
            if finite.is_empty() {
                continue;
            }
            let lo = finite.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            for row in &mut grid[row_of(hi)..=row_of(lo)] {
                row[column] = s.mark;
            }
        }
    }
    for (row, cells) in grid.iter().enumerate() {
        let label = match row {
            0 => format!("{high:>10.4}"),
            r if r == HEIGHT - 1 => format!("{low:>10.4}"),
            _ => " ".repeat(10),
        };
        let _ = writeln!(out, "{label} |{}", cells.iter().collect::<String>());
    }
    let _ = writeln!(
        out,
        "{:>10} +{}\n{:>12}{:>width$}",
        "",
        "-".repeat(WIDTH),
        "0 s",
        format!("{seconds:.2} s"),
        width = WIDTH - 1
    );
    let key: Vec<String> = series
        .iter()
        .map(|s| format!("{} {}", s.mark, s.name))
        .collect();
    let _ = writeln!(out, "{:>12}{}", "", key.join("   "));
    out
}
