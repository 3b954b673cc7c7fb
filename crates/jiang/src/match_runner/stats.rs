//! The match score: wins, draws and losses of the first engine, and the Elo difference they
//! imply with its 95% error margin.
//!
//! The Elo difference of a score `s` (points per game, 0..1) is `-400 · log10(1/s − 1)`. Its
//! margin comes from the usual normal approximation over the per-game results (a trinomial:
//! each game scores 1, ½ or 0): the standard deviation of one game's score is
//! `σ = sqrt((W(1−s)² + D(½−s)² + L(0−s)²) / N)`, the score's 95% interval is
//! `s ± 1.96 σ / sqrt(N)`, and the margin is half the Elo width of that interval. A score of
//! 0 or 1, or an interval reaching past 0 or 1, has no finite Elo: it is written `inf`.

use std::fmt;

/// The two-sided 95% quantile of the normal distribution.
const Z_95: f64 = 1.959_963_984_540_054;

/// Results from the first engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

/// How one game went for the first engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameScore {
    /// The first engine won.
    Win,
    /// A draw.
    Draw,
    /// The first engine lost.
    Loss,
}

/// An Elo figure that may be unbounded.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Elo {
    /// A finite number of Elo points.
    Finite(f64),
    /// Plus infinity (or minus, for a negative difference).
    Infinite {
        /// Whether it is minus infinity.
        negative: bool,
    },
}

impl fmt::Display for Elo {
    /// A signed whole number (`+127`, `-35`, `+0`), or `+inf` / `-inf`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Elo::Finite(x) => {
                let rounded = x.round();
                // `-0` would read as a loss: a rounded zero is `+0`.
                if rounded >= 0.0 {
                    write!(f, "+{}", rounded.abs() as i64)
                } else {
                    write!(f, "{}", rounded as i64)
                }
            }
            Elo::Infinite { negative: false } => f.write_str("+inf"),
            Elo::Infinite { negative: true } => f.write_str("-inf"),
        }
    }
}

impl Tally {
    /// Counts one game.
    pub fn add(&mut self, score: GameScore) {
        match score {
            GameScore::Win => self.wins += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Loss => self.losses += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game (a win 1, a draw ½), or `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n))
    }

    /// The Elo difference the score implies (`None` before any game).
    pub fn elo(&self) -> Option<Elo> {
        self.score().map(elo_of_score)
    }

    /// Half the Elo width of the score's 95% interval (`None` before any game).
    pub fn margin(&self) -> Option<Elo> {
        let s = self.score()?;
        let n = f64::from(self.games());
        let variance = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        let deviation = Z_95 * (variance / n).sqrt();
        let (low, high) = (s - deviation, s + deviation);
        if low <= 0.0 || high >= 1.0 {
            return Some(Elo::Infinite { negative: false });
        }
        match (elo_of_score(low), elo_of_score(high)) {
            (Elo::Finite(low), Elo::Finite(high)) => Some(Elo::Finite((high - low) / 2.0)),
            _ => Some(Elo::Infinite { negative: false }),
        }
    }

    /// The last line of `jiang match` (docs/engine.md, "jiang match"):
    /// `Score of <e1> vs <e2>: <W>-<D>-<L> (<score>) Elo <diff> ± <margin>`.
    pub fn summary(&self, first: &str, second: &str) -> String {
        let score = self.score().unwrap_or(0.5);
        let elo = self.elo().unwrap_or(Elo::Finite(0.0));
        let margin = match self.margin() {
            Some(Elo::Finite(m)) => format!("{}", m.round() as i64),
            Some(Elo::Infinite { .. }) => "inf".to_owned(),
            None => "inf".to_owned(),
        };
        format!(
            "Score of {first} vs {second}: {}-{}-{} ({score:.3}) Elo {elo} ± {margin}",
            self.wins, self.draws, self.losses
        )
    }
}

/// `-400 · log10(1/s − 1)`, unbounded at 0 and 1.
fn elo_of_score(s: f64) -> Elo {
    if s <= 0.0 {
        Elo::Infinite { negative: true }
    } else if s >= 1.0 {
        Elo::Infinite { negative: false }
    } else {
        Elo::Finite(-400.0 * (1.0 / s - 1.0).log10())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn an_even_score_is_zero_elo() {
        let t = tally(5, 10, 5);
        assert_eq!(t.score(), Some(0.5));
        assert_eq!(t.elo().unwrap().to_string(), "+0");
    }

    #[test]
    fn the_example_of_the_readme() {
        // 12 wins, 3 draws, 5 losses: 13.5 / 20 = 0.675 → +127 Elo.
        let t = tally(12, 3, 5);
        assert_eq!(t.score(), Some(0.675));
        let Some(Elo::Finite(elo)) = t.elo() else {
            panic!("finite")
        };
        assert!((elo - 127.0).abs() < 0.5, "{elo}");
        // σ² = (12·0.325² + 3·0.175² + 5·0.675²)/20 = 0.1825; σ/√20 = 0.0955; ±1.96 of it
        // gives 0.4878..0.8622, i.e. −8.5..+318.4 Elo: half the width is 163.
        let Some(Elo::Finite(margin)) = t.margin() else {
            panic!("finite")
        };
        assert!((margin - 163.4).abs() < 1.0, "{margin}");
        assert_eq!(
            t.summary("A", "B"),
            "Score of A vs B: 12-3-5 (0.675) Elo +127 ± 163"
        );
    }

    #[test]
    fn a_losing_score_is_negative() {
        let t = tally(2, 2, 6);
        assert_eq!(t.elo().unwrap().to_string(), "-147");
    }

    #[test]
    fn all_wins_or_all_losses_are_infinite() {
        assert_eq!(
            tally(4, 0, 0).summary("A", "B"),
            "Score of A vs B: 4-0-0 (1.000) Elo +inf ± inf"
        );
        assert_eq!(
            tally(0, 0, 3).summary("A", "B"),
            "Score of A vs B: 0-0-3 (0.000) Elo -inf ± inf"
        );
    }

    #[test]
    fn an_interval_reaching_a_bound_has_an_infinite_margin() {
        // 3 wins, 1 loss: 0.75 ± 1.96·0.2165 reaches past 1.
        assert_eq!(
            tally(3, 0, 1).summary("A", "B"),
            "Score of A vs B: 3-0-1 (0.750) Elo +191 ± inf"
        );
    }

    #[test]
    fn only_draws_have_no_spread() {
        assert_eq!(
            tally(0, 6, 0).summary("A", "B"),
            "Score of A vs B: 0-6-0 (0.500) Elo +0 ± 0"
        );
    }
}
