//! Game clocks: a pure state machine fed with explicit instants (see
//! `../shared/rules/clocks-and-games.md`).
//!
//! Nothing here reads the system clock, sleeps or spawns: the game actor passes the `Instant`
//! of every event, and schedules its own flag timer from [`Clock::flag_at`]. That keeps every
//! rule testable with made-up instants.
//!
//! # The rules, as implemented
//! - **Main time** runs only while its side is to move.
//! - **Fischer increment** is added to the main time after a move *completed* while main time
//!   remains. A move that ran into byo-yomi gets no increment, and neither does any move made
//!   in byo-yomi.
//! - **Byo-yomi**: once the main time is gone, each move must be made within `byoyomi`; a move
//!   made in time resets the countdown. Each countdown that runs out uses up one period and
//!   starts the next; when the last one runs out the side has lost on time.
//! - **Move limit**: while a move is in main time, it may not reach `move_limit`. The limit
//!   governs only when it falls before the main time runs out (`move_limit < main` left at the
//!   start of the move); once a move is in byo-yomi the countdown governs it.
//! - **Crossing**: a move's time is taken from the main time first, then from the countdown(s),
//!   so a move completed within main + countdown(s) is in time — a mate made after the main
//!   time ran out but inside the countdown wins.
//! - **The instant of flagging**: a side whose remaining time reaches exactly zero has flagged.
//!   [`Clock::flag_at`] is that instant; [`Clock::flagged`] agrees with it
//!   (`flagged(t)` is the running side iff `t >= flag_at()`), and a move completed at that
//!   very instant is late.
//! - Rounding to milliseconds (snapshots) always favours the player, by less than 1 ms.
//!
//! May use: nothing else of the server (pure).

use std::fmt;
use std::time::{Duration, Instant};

use jiang_rules::Side;
use serde::{Deserialize, Serialize};

/// Upper bound on main time and on the move limit: one day.
const MAX_MAIN: Duration = Duration::from_secs(24 * 3600);
/// Upper bound on the increment and on one byo-yomi countdown: one hour.
const MAX_PER_MOVE: Duration = Duration::from_secs(3600);
/// Upper bound on the number of byo-yomi periods.
const MAX_PERIODS: u32 = 100;

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
        })
    }

    /// The short display string.
    ///
    /// `M+I` for main minutes + increment seconds (`10+5`, sudden death `10+0`), then
    /// `|B` for a byo-yomi of B seconds (`10|30`), `(Nx)` when it has N > 1 periods
    /// (`10|30(3x)`). Combined: increment and byo-yomi give `10+5|30(3x)`; pure byo-yomi is
    /// `0|30`; a move limit is appended as ` [60s/move]`. Minutes that are not whole are
    /// written as decimals when exact to 2 places (`0.5+2`), else as seconds (`100s+2`);
    /// seconds that are not whole as decimals (`10+0.5`). No clock at all is `∞`: see
    /// [`TimeControl::display_optional`].
    pub fn display(&self) -> String {
        self.to_string()
    }

    /// [`TimeControl::display`], or `∞` for a game without a clock.
    pub fn display_optional(control: Option<&TimeControl>) -> String {
        control.map_or_else(|| "∞".to_owned(), TimeControl::display)
    }

    /// The time budget of a side as seen from the start of its move: how long the move may
    /// take before the side flags.
    fn deadline(&self, state: SideState) -> Duration {
        if !state.main.is_zero()
            && let Some(limit) = self.move_limit
            && limit < state.main
        {
            return limit;
        }
        state
            .main
            .saturating_add(self.byoyomi.saturating_mul(state.periods))
    }

    /// The side's state after a move that took `elapsed` (strictly before its deadline) and
    /// whether the move is complete (`increment`: a completed move in main time earns it).
    fn charge(&self, state: SideState, elapsed: Duration, completed: bool) -> SideState {
        if elapsed < state.main {
            let mut main = state.main - elapsed;
            if completed {
                main = main.saturating_add(self.increment);
            }
            SideState {
                main,
                periods: state.periods,
            }
        } else {
            // Past the main time: each full countdown that ran out costs a period (rule:
            // "letting a countdown run out uses up one period"); the move itself is in time.
            let over = elapsed - state.main;
            let used = periods_used(over, self.byoyomi);
            SideState {
                main: Duration::ZERO,
                periods: state.periods.saturating_sub(used),
            }
        }
    }

    /// What a side's display shows after `elapsed` of its current move (before its deadline).
    fn phase_time(&self, state: SideState, elapsed: Duration) -> SideTime {
        if elapsed < state.main {
            SideTime {
                ms: ceil_ms(state.main - elapsed),
                periods: state.periods,
                byoyomi: false,
            }
        } else if state.periods == 0 || self.byoyomi.is_zero() {
            SideTime {
                ms: 0,
                periods: 0,
                byoyomi: false,
            }
        } else {
            let over = elapsed - state.main;
            let used = periods_used(over, self.byoyomi);
            let into_countdown = over - self.byoyomi.saturating_mul(used);
            SideTime {
                ms: ceil_ms(self.byoyomi.saturating_sub(into_countdown)),
                periods: state.periods.saturating_sub(used),
                byoyomi: true,
            }
        }
    }
}

/// The state at the start of a move that is `spent` old and now in byo-yomi, showing `shown`,
/// and the time to count as spent on it. Any start with the same remaining budget behaves the
/// same from here on, so this picks the one that used the most whole countdowns (main time
/// below one countdown) and keeps `spent`. If rounding makes `spent` too short for what `shown`
/// says, the move is taken as started in byo-yomi, `byoyomi - ms` ago.
fn byoyomi_move_start(
    control: TimeControl,
    shown: SideTime,
    spent: Duration,
) -> (SideState, Duration) {
    let byoyomi = control.byoyomi;
    let into_countdown = byoyomi.saturating_sub(Duration::from_millis(shown.ms));
    match spent.checked_sub(into_countdown) {
        Some(before_countdown) => {
            let used = periods_used(before_countdown, byoyomi);
            let state = SideState {
                main: before_countdown - byoyomi.saturating_mul(used),
                periods: shown.periods.saturating_add(used),
            };
            (state, spent)
        }
        None => {
            let state = SideState {
                main: Duration::ZERO,
                periods: shown.periods,
            };
            (state, into_countdown)
        }
    }
}

/// One run of a server node as its heartbeat recorded it, in milliseconds since the Unix epoch:
/// from its start to the last instant it knew it was alive (its graceful stop, or its last
/// heartbeat before a crash). Between runs the server was down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    /// When the run started (its clocks resumed).
    pub started_at: i64,
    /// Its graceful stop, or its last heartbeat.
    pub alive_at: i64,
}

/// How long the clocks ran after a snapshot taken at `snapshot_at_ms`, over a node's previous
/// `runs`: the think time a restart must still charge. It is the part of each run after the
/// snapshot; the gaps between runs (downtime) count for nothing. So a game not written for
/// several restarts is charged every run since its snapshot and none of the downtimes. A
/// snapshot after the last record of a crashed run, a database from before runs were recorded
/// (no runs), or a wall clock that stepped back charge nothing: doubt favours the player.
pub fn ran_since(snapshot_at_ms: i64, runs: &[Run]) -> Duration {
    let ms: i64 = runs
        .iter()
        .map(|run| (run.alive_at - run.started_at.max(snapshot_at_ms)).max(0))
        .sum();
    Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

/// When a countdown that had `left` at a snapshot ends after a restart at `now`, the server
/// having run `ran` past the snapshot before it stopped: the first-move countdown survives a
/// restart like the clocks (a player who had 10 s of the 30 s left has 10 s after it).
pub fn resume_countdown(left: Duration, ran: Duration, now: Instant) -> Instant {
    now + left.saturating_sub(ran)
}

/// How many whole countdowns of `byoyomi` fit in `over`.
fn periods_used(over: Duration, byoyomi: Duration) -> u32 {
    if byoyomi.is_zero() {
        return 0;
    }
    u32::try_from(over.as_nanos() / byoyomi.as_nanos()).unwrap_or(u32::MAX)
}

/// Milliseconds, rounded up (a remaining time: rounding favours the player).
fn ceil_ms(d: Duration) -> u64 {
    u64::try_from(d.as_nanos().div_ceil(1_000_000)).unwrap_or(u64::MAX)
}

/// Milliseconds, rounded down (a time spent: rounding favours the player).
fn floor_ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
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
        Self {
            main: control.main.as_secs_f64(),
            increment: control.increment.as_secs_f64(),
            byoyomi: control.byoyomi.as_secs_f64(),
            periods: Some(control.periods),
            move_limit: control.move_limit.map(|d| d.as_secs_f64()),
        }
    }
}

/// A side's running out of time: the side lost on time (or drew, per the
/// `timeout-vs-insufficient` rule, which the game decides, not the clock).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{side} side ran out of time")]
pub struct Flag {
    /// The side whose time ran out.
    pub side: Side,
}

/// One side's bank, as at the start of its current move (or now, when it is not moving).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SideState {
    /// Main time left; zero once in byo-yomi.
    main: Duration,
    /// Byo-yomi periods left.
    periods: u32,
}

/// The move in progress: whose, and the time spent on it so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Turn {
    side: Side,
    /// When the clock last started running for this move; `None` while paused by `stop`.
    since: Option<Instant>,
    /// Time spent on this move before `since` (after a pause or a restore).
    spent: Duration,
}

impl Turn {
    fn elapsed(&self, now: Instant) -> Duration {
        match self.since {
            Some(since) => self.spent + now.saturating_duration_since(since),
            None => self.spent,
        }
    }
}

/// The game clock of both sides.
///
/// Lifecycle as the game actor uses it: [`Clock::new`]; after each side's first move,
/// [`Clock::start`] for the side to move; [`Clock::press`] for each later move;
/// [`Clock::stop`] when the game ends. Between events, schedule a timer at
/// [`Clock::flag_at`] and check [`Clock::flagged`] when it fires. To survive a restart,
/// persist [`Clock::snapshot`] and resume with [`Clock::restore`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    sides: [SideState; 2],
    turn: Option<Turn>,
    flagged: Option<Side>,
}

impl Clock {
    /// A fresh clock: both sides with the full main time and all periods, nobody running.
    pub fn new(control: TimeControl) -> Self {
        let fresh = SideState {
            main: control.main,
            periods: control.periods,
        };
        Self {
            control,
            sides: [fresh; 2],
            turn: None,
            flagged: None,
        }
    }

    /// The time control this clock runs.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// The side whose time is running, if any (none before the start, while stopped and
    /// after a flag).
    pub fn running(&self) -> Option<Side> {
        self.turn.filter(|t| t.since.is_some()).map(|t| t.side)
    }

    /// Starts `side`'s move at `now`. The server calls it once each side has made its first
    /// move (clocks-and-games.md: "Clocks start after each side has made its first move").
    ///
    /// If `side`'s move was paused by [`Clock::stop`], it resumes, the time already spent
    /// still counting. If the other side's move is in progress, it is first charged up to
    /// `now` like [`Clock::stop`] (no increment; a countdown it was in restarts) and closed.
    /// Does nothing once a side has flagged.
    pub fn start(&mut self, side: Side, now: Instant) {
        if self.flagged.is_some() {
            return;
        }
        if let Some(turn) = &mut self.turn
            && turn.side == side
        {
            if turn.since.is_none() {
                turn.since = Some(now);
            }
            return;
        }
        if let Some(turn) = self.turn {
            if self.settle(turn, now, false).is_err() {
                return;
            }
        }
        self.turn = Some(Turn {
            side,
            since: Some(now),
            spent: Duration::ZERO,
        });
    }

    /// The running side completed a move at `now`: charge it (main time first, then the
    /// countdown), add the increment (main time) or reset the countdown (byo-yomi), and start
    /// the other side.
    ///
    /// `Err(Flag)` if the mover had run out of time by `now` (a move at the exact flag instant
    /// is late), or if a side had already flagged; the clock then stays flagged with nobody
    /// running. Does nothing when no side is running (before [`Clock::start`], or stopped).
    pub fn press(&mut self, now: Instant) -> Result<(), Flag> {
        if let Some(side) = self.flagged {
            return Err(Flag { side });
        }
        let Some(turn) = self.turn.filter(|t| t.since.is_some()) else {
            return Ok(());
        };
        self.settle(turn, now, true)?;
        self.turn = Some(Turn {
            side: turn.side.other(),
            since: Some(now),
            spent: Duration::ZERO,
        });
        Ok(())
    }

    /// Stops the clock at `now` (game over, or a pause): the running side's move is charged
    /// up to `now` and paused, so [`Clock::snapshot`] shows the time left at `now`, and
    /// [`Clock::start`] of the same side would resume it. If that side had run out by `now`,
    /// it is recorded as flagged (see [`Clock::flagged`]). For a server shutdown, persisting
    /// [`Clock::snapshot`] without stopping works as well.
    pub fn stop(&mut self, now: Instant) {
        let Some(turn) = &mut self.turn else {
            return;
        };
        let Some(since) = turn.since else {
            return;
        };
        turn.spent += now.saturating_duration_since(since);
        turn.since = None;
        let turn = *turn;
        if turn.spent >= self.control.deadline(self.sides[turn.side.index()]) {
            self.flag(turn.side);
        }
    }

    /// When the running side will flag if it does not move (`None` if nobody is running).
    /// The game actor schedules its timer at this instant, then asks [`Clock::flagged`].
    pub fn flag_at(&self) -> Option<Instant> {
        let turn = self.turn?;
        let since = turn.since?;
        let budget = self.control.deadline(self.sides[turn.side.index()]);
        since.checked_add(budget.saturating_sub(turn.spent))
    }

    /// The side that has lost on time by `now`, if any: a side already recorded as flagged,
    /// or the running side once `now >= flag_at()`.
    pub fn flagged(&self, now: Instant) -> Option<Side> {
        if self.flagged.is_some() {
            return self.flagged;
        }
        let turn = self.turn?;
        (turn.elapsed(now) >= self.control.deadline(self.sides[turn.side.index()]))
            .then_some(turn.side)
    }

    /// The clock as of `now`: for the API (per side `ms` and `periods`, `running`) and for
    /// persisting it (with [`Clock::restore`]).
    pub fn snapshot(&self, now: Instant) -> ClockSnapshot {
        let mut sides = [SideTime::default(); 2];
        for side in Side::BOTH {
            let state = self.sides[side.index()];
            let elapsed = match self.turn {
                Some(turn) if turn.side == side => turn.elapsed(now),
                _ => Duration::ZERO,
            };
            sides[side.index()] = if elapsed >= self.control.deadline(state) {
                SideTime::default()
            } else {
                self.control.phase_time(state, elapsed)
            };
        }
        // A side out of time by `now` shows as flagged even before the actor records it.
        let flagged = self.flagged(now);
        let turn = self.turn.filter(|_| flagged.is_none());
        ClockSnapshot {
            sides,
            running: turn.filter(|t| t.since.is_some()).map(|t| t.side),
            moving: turn.map(|t| t.side),
            move_ms: turn.map_or(0, |t| floor_ms(t.elapsed(now))),
            flagged,
        }
    }

    /// Resumes a clock from a snapshot as of `now` (after a restart): the move in progress
    /// continues from the snapshot's remaining time, so the time between the snapshot and
    /// `now` is not charged. A snapshot taken after a flag restores a flagged clock.
    pub fn restore(control: TimeControl, snapshot: &ClockSnapshot, now: Instant) -> Self {
        let mut clock = Clock::new(control);
        for side in Side::BOTH {
            let shown = snapshot.sides[side.index()];
            let ms = Duration::from_millis(shown.ms);
            let moving = snapshot.moving == Some(side);
            let spent = Duration::from_millis(snapshot.move_ms);
            let (state, spent) = match (shown.byoyomi, moving) {
                // In main time: the move started with `ms + move_ms` of main time.
                (false, true) => (
                    SideState {
                        main: ms.saturating_add(spent),
                        periods: shown.periods,
                    },
                    spent,
                ),
                (true, true) => byoyomi_move_start(control, shown, spent),
                (in_byoyomi, false) => (
                    SideState {
                        main: if in_byoyomi { Duration::ZERO } else { ms },
                        periods: shown.periods,
                    },
                    Duration::ZERO,
                ),
            };
            clock.sides[side.index()] = state;
            if moving {
                clock.turn = Some(Turn {
                    side,
                    since: (snapshot.running == Some(side)).then_some(now),
                    spent,
                });
            }
        }
        if let Some(side) = snapshot.flagged {
            clock.flag(side);
        }
        clock
    }

    /// Resumes a clock after a server restart (clocks-and-games.md: "A server restart does not
    /// charge the players for the time the server was down").
    ///
    /// `snapshot` was taken while the server ran; the server then kept running for `ran` more
    /// before it stopped (see [`ran_since`]), and is up again at `now`. The side to move
    /// is charged for `ran` (its think time before the stop), exactly as if it had thought that
    /// long without a restart: main time first, then the countdowns, with the move limit in
    /// force; the downtime (from the stop to `now`) is not charged. A side that ran out during
    /// `ran` is flagged as of `now` ([`Clock::flagged`] says so at once). A paused or unstarted
    /// clock is not charged.
    pub fn resume(
        control: TimeControl,
        snapshot: &ClockSnapshot,
        ran: Duration,
        now: Instant,
    ) -> Self {
        let mut clock = Clock::restore(control, snapshot, now);
        if let Some(turn) = &mut clock.turn
            && turn.since.is_some()
        {
            turn.spent = turn.spent.saturating_add(ran);
        }
        clock
    }

    /// Charges `turn` up to `now` and closes it; `completed` moves earn the increment.
    fn settle(&mut self, turn: Turn, now: Instant, completed: bool) -> Result<(), Flag> {
        let state = self.sides[turn.side.index()];
        let elapsed = turn.elapsed(now);
        if elapsed >= self.control.deadline(state) {
            self.flag(turn.side);
            return Err(Flag { side: turn.side });
        }
        self.sides[turn.side.index()] = self.control.charge(state, elapsed, completed);
        self.turn = None;
        Ok(())
    }

    /// Records `side` as flagged: its time is gone and nobody runs any more.
    fn flag(&mut self, side: Side) {
        self.flagged = Some(side);
        self.turn = None;
        self.sides[side.index()] = SideState {
            main: Duration::ZERO,
            periods: 0,
        };
    }
}

/// A side's clock as shown to players and persisted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideTime {
    /// Milliseconds left in the current phase: the main time, or once it is gone the current
    /// byo-yomi countdown (a full countdown when the side is not moving). Rounded up; 0 only
    /// when the side has flagged (and then `periods` is 0 too).
    pub ms: u64,
    /// Byo-yomi periods left, the current one included.
    pub periods: u32,
    /// Whether the side is in byo-yomi (its main time is gone; `false` once flagged).
    pub byoyomi: bool,
}

/// The clock at one instant: what the API shows, and enough to resume exactly
/// ([`Clock::restore`]).
///
/// JSON: `{"sides": [{"ms", "periods", "byoyomi"} (first), {...} (second)], "running":
/// "first"|"second"|null, "moving": …, "move_ms": n, "flagged": …}`. The API renders
/// `sides` under the family's side names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockSnapshot {
    /// Per side, indexed by [`Side::index`]; see [`ClockSnapshot::side`].
    pub sides: [SideTime; 2],
    /// The side whose time is running.
    #[serde(with = "side_name")]
    pub running: Option<Side>,
    /// The side whose move is in progress: the running side, or the side paused by
    /// [`Clock::stop`].
    #[serde(with = "side_name")]
    pub moving: Option<Side>,
    /// Time spent so far on the move in progress, in milliseconds (rounded down).
    pub move_ms: u64,
    /// The side that lost on time, if any.
    #[serde(with = "side_name")]
    pub flagged: Option<Side>,
}

impl ClockSnapshot {
    /// One side's time.
    pub fn side(&self, side: Side) -> &SideTime {
        &self.sides[side.index()]
    }
}

/// Serde for `Option<Side>` as `"first"`, `"second"` or `null`.
mod side_name {
    use jiang_rules::Side;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(side: &Option<Side>, s: S) -> Result<S::Ok, S::Error> {
        match side {
            Some(Side::First) => s.serialize_str("first"),
            Some(Side::Second) => s.serialize_str("second"),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Side>, D::Error> {
        match Option::<String>::deserialize(d)?.as_deref() {
            None => Ok(None),
            Some("first") => Ok(Some(Side::First)),
            Some("second") => Ok(Some(Side::Second)),
            Some(other) => Err(D::Error::custom(format!(
                "unknown side `{other}`, expected `first` or `second`"
            ))),
        }
    }
}

#[cfg(test)]
mod tests;
