//! A time control: main time, increment, byo-yomi periods and a move limit, or a
//! correspondence clock of N days per move, validated from the API's seconds (or days) and
//! written as the short label (`10+5|30(3x)`, `3d`) records and logs use.

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

/// Upper bound on main time and on the move limit: one day.
const MAX_MAIN: Duration = Duration::from_secs(24 * 3600);
/// Upper bound on the increment and on one byo-yomi countdown: one hour.
const MAX_PER_MOVE: Duration = Duration::from_secs(3600);
/// Upper bound on the number of byo-yomi periods.
const MAX_PERIODS: u32 = 100;
/// The days per move a correspondence clock may have.
pub const CORRESPONDENCE_DAYS: [u32; 7] = [1, 2, 3, 5, 7, 10, 14];
/// One day of a correspondence clock.
pub const DAY: Duration = Duration::from_secs(24 * 3600);

/// A validated time control. Build it from seconds with [`TimeControlSpec`] (serde does so
/// for you: this type (de)serialises as the spec), or directly with [`TimeControl::new`].
///
/// Invariants (checked by [`TimeControl::new`]): `byoyomi > 0` exactly when `periods > 0`;
/// some time exists (`main > 0` or byo-yomi); an increment or a move limit only with main
/// time; everything within sane bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "TimeControlSpec", into = "TimeControlSpec")]
pub struct TimeControl {
    /// Each side's bank at the start.
    pub main: Duration,
    /// Fischer increment, added after each move completed in main time.
    pub increment: Duration,
    /// One byo-yomi countdown (zero: none).
    pub byoyomi: Duration,
    /// Number of byo-yomi countdowns (zero exactly when `byoyomi` is zero).
    pub periods: u32,
    /// Longest a single move may take while in main time.
    pub move_limit: Option<Duration>,
    /// A correspondence clock: days per move (see [`TimeControl::correspondence`]).
    pub days: Option<u32>,
}

/// Why a time control was refused. `field` names the offending JSON field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// A value below zero.
    #[error("clock.{field} must not be negative")]
    Negative {
        /// The JSON field.
        field: &'static str,
    },
    /// NaN or infinity.
    #[error("clock.{field} must be a finite number of seconds")]
    NotFinite {
        /// The JSON field.
        field: &'static str,
    },
    /// More than the field allows.
    #[error("clock.{field} is too large (at most {max} {unit})")]
    TooLarge {
        /// The JSON field.
        field: &'static str,
        /// The largest value allowed.
        max: u64,
        /// `seconds` or `periods`.
        unit: &'static str,
    },
    /// `periods` without a byo-yomi countdown.
    #[error("clock.periods needs clock.byoyomi: there is no countdown to repeat")]
    PeriodsWithoutByoyomi,
    /// A byo-yomi countdown with `periods: 0`.
    #[error("clock.periods must be at least 1 when clock.byoyomi is set")]
    ByoyomiWithoutPeriods,
    /// Neither main time nor byo-yomi: the first move would lose on time.
    #[error(
        "the clock has no time at all: set clock.main or clock.byoyomi (omit clock for no clock)"
    )]
    NoTime,
    /// An increment or a move limit but no main time, where neither could ever apply.
    #[error("clock.{field} applies only in main time, but clock.main is 0")]
    NeedsMainTime {
        /// The JSON field.
        field: &'static str,
    },
    /// A move limit of zero.
    #[error("clock.move_limit must be more than 0 seconds (omit it for no limit)")]
    ZeroMoveLimit,
    /// A correspondence clock of a number of days not offered.
    #[error("clock.days must be one of 1, 2, 3, 5, 7, 10 or 14 (got {days})")]
    BadDays {
        /// The days asked for.
        days: u32,
    },
    /// `days` with a field of the live clocks.
    #[error("clock.days stands alone: it cannot be combined with clock.{field}")]
    DaysWithOther {
        /// The other JSON field given.
        field: &'static str,
    },
}

impl TimeControl {
    /// Checks the invariants and builds the control.
    pub fn new(
        main: Duration,
        increment: Duration,
        byoyomi: Duration,
        periods: u32,
        move_limit: Option<Duration>,
    ) -> Result<Self, TimeControlError> {
        let too_large = |field, max: Duration| TimeControlError::TooLarge {
            field,
            max: max.as_secs(),
            unit: "seconds",
        };
        if main > MAX_MAIN {
            return Err(too_large("main", MAX_MAIN));
        }
        if increment > MAX_PER_MOVE {
            return Err(too_large("increment", MAX_PER_MOVE));
        }
        if byoyomi > MAX_PER_MOVE {
            return Err(too_large("byoyomi", MAX_PER_MOVE));
        }
        if periods > MAX_PERIODS {
            return Err(TimeControlError::TooLarge {
                field: "periods",
                max: MAX_PERIODS.into(),
                unit: "periods",
            });
        }
        if let Some(limit) = move_limit {
            if limit.is_zero() {
                return Err(TimeControlError::ZeroMoveLimit);
            }
            if limit > MAX_MAIN {
                return Err(too_large("move_limit", MAX_MAIN));
            }
        }
        if periods > 0 && byoyomi.is_zero() {
            return Err(TimeControlError::PeriodsWithoutByoyomi);
        }
        if periods == 0 && !byoyomi.is_zero() {
            return Err(TimeControlError::ByoyomiWithoutPeriods);
        }
        if main.is_zero() {
            if byoyomi.is_zero() {
                return Err(TimeControlError::NoTime);
            }
            if !increment.is_zero() {
                return Err(TimeControlError::NeedsMainTime { field: "increment" });
            }
            if move_limit.is_some() {
                return Err(TimeControlError::NeedsMainTime {
                    field: "move_limit",
                });
            }
        }
        Ok(Self {
            main,
            increment,
            byoyomi,
            periods,
            move_limit,
            days: None,
        })
    }

    /// A correspondence clock: each move must be made within `days` days (one of
    /// [`CORRESPONDENCE_DAYS`]); the countdown starts again after every move, nothing is
    /// banked. The clock runs it as a single byo-yomi period of `days` days with no main time;
    /// the game treats its time as wall-clock time (a restart does not refund the downtime).
    pub fn correspondence(days: u32) -> Result<Self, TimeControlError> {
        if !CORRESPONDENCE_DAYS.contains(&days) {
            return Err(TimeControlError::BadDays { days });
        }
        Ok(Self {
            main: Duration::ZERO,
            increment: Duration::ZERO,
            byoyomi: DAY * days,
            periods: 1,
            move_limit: None,
            days: Some(days),
        })
    }

    /// Whether this is a correspondence clock (days per move).
    pub fn is_correspondence(&self) -> bool {
        self.days.is_some()
    }

    /// What a player who berserks plays (arena tournaments, docs/tournaments.md): half the
    /// main time, no increment, no byo-yomi; a move limit stays. Meaningful only with main
    /// time (see [`super::Clock::berserk`]).
    pub fn berserked(&self) -> TimeControl {
        TimeControl {
            main: self.main / 2,
            increment: Duration::ZERO,
            byoyomi: Duration::ZERO,
            periods: 0,
            move_limit: self.move_limit,
            days: None,
        }
    }

    /// The short display string.
    ///
    /// `M+I` for main minutes + increment seconds (`10+5`, sudden death `10+0`), then
    /// `|B` for a byo-yomi of B seconds (`10|30`), `(Nx)` when it has N > 1 periods
    /// (`10|30(3x)`). Combined: increment and byo-yomi give `10+5|30(3x)`; pure byo-yomi is
    /// `0|30`; a move limit is appended as ` [60s/move]`. Minutes that are not whole are
    /// written as decimals when exact to 2 places (`0.5+2`), else as seconds (`100s+2`);
    /// seconds that are not whole as decimals (`10+0.5`). A correspondence clock is its days
    /// per move, `3d`. No clock at all is `∞`: see [`TimeControl::display_optional`].
    pub fn display(&self) -> String {
        self.to_string()
    }

    /// [`TimeControl::display`], or `∞` for a game without a clock.
    pub fn display_optional(control: Option<&TimeControl>) -> String {
        control.map_or_else(|| "∞".to_owned(), TimeControl::display)
    }
}

/// Writes a duration in seconds: whole (`30`) or as a short decimal (`0.5`).
fn write_seconds(f: &mut fmt::Formatter<'_>, d: Duration) -> fmt::Result {
    let ms = d.as_millis();
    if ms % 1000 == 0 {
        write!(f, "{}", ms / 1000)
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        f.write_str(text.trim_end_matches('0'))
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(days) = self.days {
            return write!(f, "{days}d");
        }
        let ms = self.main.as_millis();
        if ms % 60_000 == 0 {
            write!(f, "{}", ms / 60_000)?;
        } else if ms % 600 == 0 {
            // Exact to two decimals of a minute (multiples of 0.6 s).
            let hundredths = ms / 600;
            let text = format!("{}.{:02}", hundredths / 100, hundredths % 100);
            f.write_str(text.trim_end_matches('0'))?;
        } else {
            write_seconds(f, self.main)?;
            f.write_str("s")?;
        }
        let has_byoyomi = self.periods > 0;
        if !self.increment.is_zero() || !has_byoyomi {
            f.write_str("+")?;
            write_seconds(f, self.increment)?;
        }
        if has_byoyomi {
            f.write_str("|")?;
            write_seconds(f, self.byoyomi)?;
            if self.periods > 1 {
                write!(f, "({}x)", self.periods)?;
            }
        }
        if let Some(limit) = self.move_limit {
            f.write_str(" [")?;
            write_seconds(f, limit)?;
            f.write_str("s/move]")?;
        }
        Ok(())
    }
}

/// The API's JSON form of a time control (see the protocol crate); validate it with
/// `TimeControl::try_from(spec)`.
pub use jiang_protocol::TimeControlSpec;

/// Seconds to a duration with millisecond resolution, checking sign and finiteness.
fn seconds(field: &'static str, secs: f64) -> Result<Duration, TimeControlError> {
    if !secs.is_finite() {
        return Err(TimeControlError::NotFinite { field });
    }
    if secs < 0.0 {
        return Err(TimeControlError::Negative { field });
    }
    // Bounded before conversion so the cast cannot saturate silently.
    if secs > 1e9 {
        return Err(TimeControlError::TooLarge {
            field,
            max: if field == "main" || field == "move_limit" {
                MAX_MAIN.as_secs()
            } else {
                MAX_PER_MOVE.as_secs()
            },
            unit: "seconds",
        });
    }
    Ok(Duration::from_millis((secs * 1000.0).round() as u64))
}

impl TryFrom<TimeControlSpec> for TimeControl {
    type Error = TimeControlError;

    fn try_from(spec: TimeControlSpec) -> Result<Self, TimeControlError> {
        if let Some(days) = spec.days {
            let other = [
                ("main", spec.main != 0.0),
                ("increment", spec.increment != 0.0),
                ("byoyomi", spec.byoyomi != 0.0),
                ("periods", spec.periods.is_some()),
                ("move_limit", spec.move_limit.is_some()),
            ];
            if let Some((field, _)) = other.into_iter().find(|(_, given)| *given) {
                return Err(TimeControlError::DaysWithOther { field });
            }
            return TimeControl::correspondence(days);
        }
        let main = seconds("main", spec.main)?;
        let increment = seconds("increment", spec.increment)?;
        let byoyomi = seconds("byoyomi", spec.byoyomi)?;
        let periods = spec
            .periods
            .unwrap_or(if byoyomi.is_zero() { 0 } else { 1 });
        let move_limit = spec
            .move_limit
            .map(|secs| seconds("move_limit", secs))
            .transpose()?;
        TimeControl::new(main, increment, byoyomi, periods, move_limit)
    }
}

impl From<TimeControl> for TimeControlSpec {
    fn from(control: TimeControl) -> Self {
        if let Some(days) = control.days {
            return Self {
                days: Some(days),
                ..Self::default()
            };
        }
        Self {
            main: control.main.as_secs_f64(),
            increment: control.increment.as_secs_f64(),
            byoyomi: control.byoyomi.as_secs_f64(),
            periods: Some(control.periods),
            move_limit: control.move_limit.map(|d| d.as_secs_f64()),
            days: None,
        }
    }
}
