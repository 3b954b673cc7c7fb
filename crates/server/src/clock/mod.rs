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

use std::time::{Duration, Instant};

use jiang_rules::Side;
use serde::{Deserialize, Serialize};

mod time_control;

pub use time_control::{CORRESPONDENCE_DAYS, DAY, TimeControl, TimeControlError, TimeControlSpec};

impl TimeControl {
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
    /// Which sides berserked (arena tournaments): such a side plays [`TimeControl::berserked`].
    berserk: [bool; 2],
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
            berserk: [false; 2],
            sides: [fresh; 2],
            turn: None,
            flagged: None,
        }
    }

    /// The time control this clock runs.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    /// The time control `side` plays: the game's, or its berserked form.
    fn control_of(&self, side: Side) -> TimeControl {
        if self.berserk[side.index()] {
            self.control.berserked()
        } else {
            self.control
        }
    }

    /// Which sides berserked, by [`Side::index`].
    pub fn berserked(&self) -> [bool; 2] {
        self.berserk
    }

    /// `side` berserks (an arena's rule, docs/tournaments.md): from now on it plays half the
    /// main time, with no increment and no byo-yomi. Refused once `side`'s time has started
    /// to count (its clock ran or was charged), when it already berserked, when the control
    /// has no main time to halve, and after a flag. The game decides the rest (arena games
    /// only; before the side's first move).
    pub fn berserk(&mut self, side: Side) -> Result<(), BerserkRefused> {
        let i = side.index();
        if self.berserk[i] {
            return Err(BerserkRefused::Already);
        }
        if self.control.main.is_zero() {
            return Err(BerserkRefused::NoMainTime);
        }
        let fresh = SideState {
            main: self.control.main,
            periods: self.control.periods,
        };
        let charged = self.sides[i] != fresh || self.turn.is_some_and(|t| t.side == side);
        if self.flagged.is_some() || charged {
            return Err(BerserkRefused::Started);
        }
        self.berserk[i] = true;
        let control = self.control_of(side);
        self.sides[i] = SideState {
            main: control.main,
            periods: control.periods,
        };
        Ok(())
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
        if turn.spent
            >= self
                .control_of(turn.side)
                .deadline(self.sides[turn.side.index()])
        {
            self.flag(turn.side);
        }
    }

    /// When the running side will flag if it does not move (`None` if nobody is running).
    /// The game actor schedules its timer at this instant, then asks [`Clock::flagged`].
    pub fn flag_at(&self) -> Option<Instant> {
        let turn = self.turn?;
        let since = turn.since?;
        let budget = self
            .control_of(turn.side)
            .deadline(self.sides[turn.side.index()]);
        since.checked_add(budget.saturating_sub(turn.spent))
    }

    /// The side that has lost on time by `now`, if any: a side already recorded as flagged,
    /// or the running side once `now >= flag_at()`.
    pub fn flagged(&self, now: Instant) -> Option<Side> {
        if self.flagged.is_some() {
            return self.flagged;
        }
        let turn = self.turn?;
        (turn.elapsed(now)
            >= self
                .control_of(turn.side)
                .deadline(self.sides[turn.side.index()]))
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
            let control = self.control_of(side);
            sides[side.index()] = if elapsed >= control.deadline(state) {
                SideTime::default()
            } else {
                control.phase_time(state, elapsed)
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
            berserk: self.berserk,
        }
    }

    /// Resumes a clock from a snapshot as of `now` (after a restart): the move in progress
    /// continues from the snapshot's remaining time, so the time between the snapshot and
    /// `now` is not charged. A snapshot taken after a flag restores a flagged clock.
    pub fn restore(control: TimeControl, snapshot: &ClockSnapshot, now: Instant) -> Self {
        let mut clock = Clock::new(control);
        clock.berserk = snapshot.berserk;
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
                (true, true) => byoyomi_move_start(clock.control_of(side), shown, spent),
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
        let control = self.control_of(turn.side);
        if elapsed >= control.deadline(state) {
            self.flag(turn.side);
            return Err(Flag { side: turn.side });
        }
        self.sides[turn.side.index()] = control.charge(state, elapsed, completed);
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
    /// Which sides berserked (by [`Side::index`]); absent in JSON when neither did.
    #[serde(default, skip_serializing_if = "neither")]
    pub berserk: [bool; 2],
}

fn neither(berserk: &[bool; 2]) -> bool {
    berserk == &[false, false]
}

/// Why [`Clock::berserk`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BerserkRefused {
    /// The side berserked already.
    #[error("you have already berserked in this game")]
    Already,
    /// Byo-yomi only: there is no main time to halve.
    #[error("this clock has no main time to halve")]
    NoMainTime,
    /// The side's time has started to count, or the game is over on time.
    #[error("berserk is possible only before your clock starts")]
    Started,
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
