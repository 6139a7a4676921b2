//! Timing statistics of the control loop, recorded without allocating: samples go into ring
//! buffers sized when the loop is built; percentiles are computed when a report is asked for.

use std::time::Duration;

/// One distribution of durations, as reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Percentiles {
    /// Median.
    pub p50: Duration,
    /// 99th percentile.
    pub p99: Duration,
    /// Largest seen over the whole run (not only the samples kept).
    pub max: Duration,
    /// Mean over the whole run.
    pub mean: Duration,
}

/// What the loop measured.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TimingReport {
    /// The nominal period.
    pub period: Duration,
    /// Cycles run.
    pub cycles: u64,
    /// Cycles that ended after the next cycle's deadline (started late plus worked longer than a
    /// period): ros2_control_node's "overrun detected".
    pub overruns: u64,
    /// Deadlines skipped because the loop was more than a whole period behind.
    pub skipped: u64,
    /// Work per cycle: read + update + write.
    pub work: Percentiles,
    /// Start-to-start time between cycles (the actual period).
    pub interval: Percentiles,
    /// How late each cycle started after its deadline.
    pub lateness: Percentiles,
    /// How many of the latest cycles the percentiles are over.
    pub samples: usize,
    /// Wall-clock time from the first cycle's start to the last one's end.
    pub wall: Duration,
    /// Under a simulated clock, the simulated time the run covered (the last cycle's clock).
    pub simulated: Option<Duration>,
    /// Whether cycles waited for wall-clock deadlines. When they did not
    /// ([`super::Pacing::SimulatedFast`]), there are no deadlines to overrun or skip and no
    /// period between starts to measure: only the work per cycle and the real-time factor mean
    /// something, and only they are shown.
    pub paced: bool,
}

impl TimingReport {
    /// Simulated seconds per wall-clock second, under a simulated clock: above 1 is faster than
    /// real time.
    pub fn real_time_factor(&self) -> Option<f64> {
        let wall = self.wall.as_secs_f64();
        self.simulated
            .filter(|_| wall > 0.0)
            .map(|s| s.as_secs_f64() / wall)
    }
}

impl std::fmt::Display for TimingReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let plural =
            |n: u64, one: &'static str, many: &'static str| if n == 1 { one } else { many };
        let cycles = format!(
            "{} {} at {:.0} Hz",
            self.cycles,
            plural(self.cycles, "cycle", "cycles"),
            1.0 / self.period.as_secs_f64()
        );
        // Without deadlines there is nothing to overrun, skip, be late for or space out.
        let deadlines = if self.paced {
            format!(
                "{} {}, {} skipped {}",
                self.overruns,
                plural(self.overruns, "overrun", "overruns"),
                self.skipped,
                plural(self.skipped, "deadline", "deadlines")
            )
        } else {
            "not paced".to_string()
        };
        writeln!(
            f,
            "{cycles}, {deadlines} (percentiles over the last {} {})",
            self.samples,
            plural(self.samples as u64, "cycle", "cycles"),
        )?;
        if let (Some(simulated), Some(factor)) = (self.simulated, self.real_time_factor()) {
            writeln!(
                f,
                "  simulated {:.3} s in {:.3} s of wall time: real-time factor {factor:.2}",
                simulated.as_secs_f64(),
                self.wall.as_secs_f64()
            )?;
        }
        let series: &[(&str, &Percentiles)] = if self.paced {
            &[
                ("work", &self.work),
                ("interval", &self.interval),
                ("lateness", &self.lateness),
            ]
        } else {
            &[("work", &self.work)]
        };
        let us = |d: Duration| d.as_secs_f64() * 1e6;
        for (name, p) in series {
            writeln!(
                f,
                "  {name:<9} p50 {:>9.1} µs   p99 {:>9.1} µs   max {:>9.1} µs   mean {:>9.1} µs",
                us(p.p50),
                us(p.p99),
                us(p.max),
                us(p.mean)
            )?;
        }
        Ok(())
    }
}

/// A ring of nanosecond samples with running max and sum.
#[derive(Debug, Clone)]
struct Series {
    ring: Vec<u64>,
    next: usize,
    filled: bool,
    max: u64,
    sum: u128,
    count: u64,
}

impl Series {
    fn new(capacity: usize) -> Self {
        Series {
            ring: vec![0; capacity.max(1)],
            next: 0,
            filled: false,
            max: 0,
            sum: 0,
            count: 0,
        }
    }

    fn record(&mut self, nanos: u64) {
        self.ring[self.next] = nanos;
        self.next += 1;
        if self.next == self.ring.len() {
            self.next = 0;
            self.filled = true;
        }
        self.max = self.max.max(nanos);
        self.sum += u128::from(nanos);
        self.count += 1;
    }

    fn samples(&self) -> &[u64] {
        if self.filled {
            &self.ring
        } else {
            &self.ring[..self.next]
        }
    }

    fn percentiles(&self) -> Percentiles {
        let mut sorted = self.samples().to_vec();
        sorted.sort_unstable();
        let at = |q: f64| -> Duration {
            if sorted.is_empty() {
                return Duration::ZERO;
            }
            let index = ((sorted.len() - 1) as f64 * q).round() as usize;
            Duration::from_nanos(sorted[index.min(sorted.len() - 1)])
        };
        let mean = if self.count == 0 {
            0
        } else {
            (self.sum / u128::from(self.count)) as u64
        };
        Percentiles {
            p50: at(0.5),
            p99: at(0.99),
            max: Duration::from_nanos(self.max),
            mean: Duration::from_nanos(mean),
        }
    }
}

/// The recorder the loop writes into every cycle.
#[derive(Debug, Clone)]
pub struct CycleStats {
    period: Duration,
    /// Whether cycles wait for deadlines: without, none is overrun.
    paced: bool,
    work: Series,
    interval: Series,
    lateness: Series,
    overruns: u64,
    skipped: u64,
}

fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

impl CycleStats {
    /// A recorder keeping the last `capacity` samples of each series.
    pub fn new(period: Duration, capacity: usize) -> Self {
        CycleStats {
            period,
            paced: true,
            work: Series::new(capacity),
            interval: Series::new(capacity),
            lateness: Series::new(capacity),
            overruns: 0,
            skipped: 0,
        }
    }

    /// The same for cycles that wait for no deadline (run as fast as they step): none of them
    /// overruns.
    pub fn unpaced(period: Duration, capacity: usize) -> Self {
        CycleStats {
            paced: false,
            ..CycleStats::new(period, capacity)
        }
    }

    /// Records one cycle; `interval` is `None` on the first. Allocation-free.
    pub fn record(&mut self, work: Duration, interval: Option<Duration>, lateness: Duration) {
        self.work.record(nanos(work));
        if let Some(interval) = interval {
            self.interval.record(nanos(interval));
        }
        self.lateness.record(nanos(lateness));
        // As ros2_control_node counts them: the cycle ended after the next deadline.
        if self.paced && lateness.saturating_add(work) > self.period {
            self.overruns += 1;
        }
    }

    /// Records deadlines skipped to catch up.
    pub fn record_skipped(&mut self, count: u64) {
        self.skipped += count;
    }

    /// Cycles recorded so far.
    pub fn cycles(&self) -> u64 {
        self.work.count
    }

    /// Overruns so far.
    pub fn overruns(&self) -> u64 {
        self.overruns
    }

    /// The report (sorts copies of the samples: call it outside the control path).
    pub fn report(&self) -> TimingReport {
        TimingReport {
            period: self.period,
            cycles: self.work.count,
            overruns: self.overruns,
            skipped: self.skipped,
            work: self.work.percentiles(),
            interval: self.interval.percentiles(),
            lateness: self.lateness.percentiles(),
            samples: self.work.samples().len(),
            wall: Duration::ZERO,
            simulated: None,
            paced: self.paced,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_over_known_samples() {
        let mut stats = CycleStats::new(Duration::from_micros(1000), 1000);
        for i in 1..=100u64 {
            stats.record(
                Duration::from_micros(i),
                Some(Duration::from_micros(1000)),
                Duration::from_micros(i / 10),
            );
        }
        stats.record(Duration::from_micros(1500), None, Duration::ZERO);
        let report = stats.report();
        assert_eq!(report.cycles, 101);
        assert_eq!(report.overruns, 1);
        assert_eq!(report.work.max, Duration::from_micros(1500));
        assert_eq!(report.work.p50, Duration::from_micros(51));
        assert_eq!(report.work.p99, Duration::from_micros(100));
        assert_eq!(report.interval.p50, Duration::from_micros(1000));
    }

    #[test]
    fn an_overrun_is_a_cycle_that_ends_after_the_next_deadline() {
        let mut stats = CycleStats::new(Duration::from_micros(1000), 16);
        // Late and slow, neither alone a period: it ends 200 µs after the next deadline.
        stats.record(Duration::from_micros(600), None, Duration::from_micros(600));
        // Late and quick: ends before the next deadline.
        stats.record(Duration::from_micros(100), None, Duration::from_micros(800));
        assert_eq!(stats.report().overruns, 1);
        assert!(
            stats
                .report()
                .to_string()
                .starts_with("2 cycles at 1000 Hz, 1 overrun, 0 skipped deadlines (percentiles over the last 2 cycles)"),
            "{}",
            stats.report()
        );
    }

    #[test]
    fn cycles_that_wait_for_no_deadline_overrun_none_and_show_the_work_and_the_factor() {
        let mut stats = CycleStats::unpaced(Duration::from_millis(5), 4);
        // A cycle that worked longer than a period: as fast as it steps, no deadline missed.
        stats.record(Duration::from_millis(7), None, Duration::ZERO);
        stats.record(
            Duration::from_millis(1),
            Some(Duration::from_millis(7)),
            Duration::ZERO,
        );
        let mut report = stats.report();
        assert_eq!(report.overruns, 0);
        report.wall = Duration::from_millis(8);
        report.simulated = Some(Duration::from_millis(10));
        let text = report.to_string();
        assert!(
            text.starts_with(
                "2 cycles at 200 Hz, not paced (percentiles over the last 2 cycles)\n  \
                 simulated 0.010 s in 0.008 s of wall time: real-time factor 1.25\n  work "
            ),
            "{text}"
        );
        for meaningless in ["overrun", "skipped", "interval", "lateness"] {
            assert!(!text.contains(meaningless), "{meaningless}: {text}");
        }
    }

    #[test]
    fn the_real_time_factor_is_simulated_over_wall_time() {
        let mut report = CycleStats::new(Duration::from_millis(5), 4).report();
        report.wall = Duration::from_millis(500);
        assert_eq!(report.real_time_factor(), None, "a wall clock has none");
        report.simulated = Some(Duration::from_secs(2));
        assert_eq!(report.real_time_factor(), Some(4.0));
        assert!(
            report
                .to_string()
                .contains("\n  simulated 2.000 s in 0.500 s of wall time: real-time factor 4.00\n"),
            "{report}"
        );
    }

    #[test]
    fn the_ring_keeps_the_latest_samples_and_the_max_of_all() {
        let mut stats = CycleStats::new(Duration::from_millis(1), 4);
        for i in [900, 1, 2, 3, 4] {
            stats.record(Duration::from_micros(i), None, Duration::ZERO);
        }
        let report = stats.report();
        assert_eq!(report.samples, 4);
        assert_eq!(report.work.p99, Duration::from_micros(4));
        assert_eq!(report.work.max, Duration::from_micros(900));
    }
}
