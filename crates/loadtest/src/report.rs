//! The report: the seven lines other programs parse, and the percentiles behind them.

use std::fmt;
use std::time::Duration;

use crate::nodes::{self};

use crate::{NodeCounts, Verification};

/// The load test's results.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Report {
    /// Games live when the measurement started.
    pub games: usize,
    /// Player sockets open when the measurement started.
    pub sockets: usize,
    /// Moves measured.
    pub moves: u64,
    /// Length of the measurement window.
    pub window: Duration,
    /// Move latencies, sorted.
    pub latencies: Vec<Duration>,
    /// Errors of all kinds (with `--verify`, those not ridden out).
    pub errors: u64,
    /// What each URL was sent (printed when there are several).
    pub nodes: Vec<NodeCounts>,
    /// `--verify`: the failures ridden out and the lost-moves check.
    pub verification: Option<Verification>,
}

impl Report {
    /// Moves per second over the window.
    pub fn rate(&self) -> f64 {
        self.moves as f64 / self.window.as_secs_f64().max(1e-9)
    }

    /// Nearest-rank percentile (`p` in 0..=100) of the latencies.
    pub fn percentile(&self, p: f64) -> Option<Duration> {
        percentile(&self.latencies, p)
    }

    /// Whether the run passed its own measure (exit status 0).
    pub fn passed(&self) -> bool {
        self.moves > 0 && self.errors == 0 && self.verification.as_ref().is_none_or(|v| v.lost == 0)
    }
}

/// Nearest-rank percentile of sorted values.
pub(crate) fn percentile(sorted: &[Duration], p: f64) -> Option<Duration> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// Milliseconds with two decimals, `-` for none: the report's one way to write a time.
pub(crate) fn ms(d: Option<Duration>) -> String {
    match d {
        Some(d) => format!("{:.2}", d.as_secs_f64() * 1000.0),
        None => "-".to_owned(),
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "games {}", self.games)?;
        writeln!(f, "sockets {}", self.sockets)?;
        writeln!(f, "moves {}", self.moves)?;
        writeln!(f, "moves/s {:.1}", self.rate())?;
        writeln!(f, "latency p50 {} ms", ms(self.percentile(50.0)))?;
        writeln!(f, "latency p99 {} ms", ms(self.percentile(99.0)))?;
        writeln!(f, "errors {}", self.errors)?;
        nodes::write_lines(f, &self.nodes)?;
        if let Some(verification) = &self.verification {
            writeln!(f, "latency max {} ms", ms(self.latencies.last().copied()))?;
            write!(f, "{verification}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let values: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        assert_eq!(percentile(&values, 50.0), Some(Duration::from_millis(50)));
        assert_eq!(percentile(&values, 99.0), Some(Duration::from_millis(99)));
        assert_eq!(percentile(&values, 100.0), Some(Duration::from_millis(100)));
        assert_eq!(percentile(&values, 0.0), Some(Duration::from_millis(1)));
        assert_eq!(percentile(&[], 50.0), None);
        let one = [Duration::from_millis(7)];
        assert_eq!(percentile(&one, 99.0), Some(Duration::from_millis(7)));
    }

    #[test]
    fn report_format() {
        let report = Report {
            games: 3,
            sockets: 6,
            moves: 20,
            window: Duration::from_secs(4),
            latencies: vec![Duration::from_micros(1500), Duration::from_micros(21_704)],
            errors: 0,
            ..Report::default()
        };
        assert_eq!(
            report.to_string(),
            "games 3\nsockets 6\nmoves 20\nmoves/s 5.0\nlatency p50 1.50 ms\n\
             latency p99 21.70 ms\nerrors 0\n"
        );
        let empty = Report {
            window: Duration::from_secs(1),
            ..Report::default()
        };
        assert!(empty.to_string().contains("latency p50 - ms\n"));
    }

    #[test]
    fn several_urls_and_verify_add_lines_after_the_seven() {
        let node = |url: &str, moves| NodeCounts {
            url: url.into(),
            requests: 2,
            sockets: 2,
            moves,
            failures: 0,
        };
        let mut report = Report {
            games: 1,
            sockets: 2,
            moves: 3,
            window: Duration::from_secs(1),
            latencies: vec![Duration::from_millis(2), Duration::from_millis(40)],
            nodes: vec![node("http://a:1", 2), node("http://b:2", 1)],
            verification: Some(Verification {
                acknowledged: 3,
                ..Verification::default()
            }),
            ..Report::default()
        };
        let text = report.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 7 + 2 + 5, "{text}");
        assert_eq!(lines[6], "errors 0");
        assert_eq!(
            &lines[7..],
            [
                "url http://a:1 requests 2 sockets 2 moves 2 failures 0",
                "url http://b:2 requests 2 sockets 2 moves 1 failures 0",
                "latency max 40.00 ms",
                "reconnects 0",
                "retries 0",
                "recovery 0 p50 - ms max - ms",
                "acknowledged 3, lost 0",
            ]
        );
        assert!(report.passed());
        report.verification.as_mut().expect("set").lost = 1;
        assert!(!report.passed(), "a lost move fails the run");
    }
}
