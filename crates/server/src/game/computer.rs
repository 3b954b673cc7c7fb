//! Games against the computer: Jiang's engine holds one seat (the one without a token) and
//! plays through the same actions as a person, on the engine pool's threads.
//!
//! When the computer is to move, the actor submits one job to the pool: the game as its seat
//! may know it ([`jiang_engine::Input::for_seat`]: in Jieqi its view, never the deal), its clock as it
//! stands (the engine's time management shares it out; the time the job waits for a thread
//! is charged to it), its level, and a seed from the game and ply. The answer is played like
//! a person's move; the clock runs for the computer as for anyone. A job whose position went
//! away (the game ended, the server stops) is cancelled by dropping it. After a restart the
//! actor of a game against the computer is started at once ([`Games::resume_all`]), so a
//! computer to move moves.
//!
//! The computer declines every draw offer at once (the offer is not recorded), agrees to
//! every rematch (sides swap, the level is kept), and never offers a draw or aborts.

use super::*;
use crate::engine_pool::{ClientKey, Job, JobHandle, PoolError};
use jiang_engine::{Decision, Go, Thought};
use jiang_protocol::{ComputerSeat, Opponent};

/// The weakest and strongest levels.
pub(crate) const LEVELS: std::ops::RangeInclusive<u32> = 1..=8;

/// How long the computer thinks at most in an untimed game (level 8; weaker levels stop
/// sooner on their own depth and node caps).
const UNTIMED_THINK: Duration = Duration::from_secs(3);

/// The longest the computer thinks about its first move (the clock does not run yet).
const FIRST_MOVE_THINK: Duration = Duration::from_secs(3);

/// The longest the computer thinks about one move, per level (index 0: level 1), whatever
/// its clock allows: a person playing it waits at most this long. Level 8 at 10 min + 30 s
/// byo-yomi would otherwise plan some 30 s a move (and up to 100 s); a few seconds keep the
/// game lively and leave the computer's clock well inside its limits. The weaker levels stop
/// sooner on their own depth and node caps; their share of this time (the level table's
/// `time_percent`) applies on top.
const PACE: [Duration; 8] = [
    Duration::from_millis(1000),
    Duration::from_millis(1000),
    Duration::from_millis(1200),
    Duration::from_millis(1500),
    Duration::from_millis(2000),
    Duration::from_millis(2000),
    Duration::from_millis(2500),
    Duration::from_millis(3000),
];

/// The shortest time before the answer of a level below 8: their searches take a few
/// hundredths of a second, and a reply that lands before the person has seen their own move
/// made feels abrupt (and the "thinking" mark could not be seen). Never more than a quarter of
/// what the clock's usual share would give (a fast clock stays fast).
const MIN_ANSWER: Duration = Duration::from_millis(600);

/// The pace of `level` (see [`PACE`]).
pub(crate) fn pace(level: u8) -> Duration {
    PACE[usize::from(level.clamp(1, 8) - 1)]
}

/// After a move the computer chose could not be stored, how long before it thinks again.
const RETRY: Duration = Duration::from_secs(1);

/// The computer's seat in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Computer {
    /// The side it plays.
    pub side: Side,
    /// Its level, 1–8.
    pub level: u8,
}

/// Validates a create request's `opponent`: the computer's level, or `None` for a person.
pub(crate) fn requested_level(opponent: Option<Opponent>) -> Result<Option<u8>, ApiError> {
    match opponent {
        None => Ok(None),
        Some(Opponent::Computer(level)) if LEVELS.contains(&level) => Ok(Some(level as u8)),
        Some(Opponent::Computer(level)) => Err(ApiError::new(
            ErrorCode::InvalidLevel,
            format!("There is no computer level {level}: the levels are 1 to 8."),
        )),
    }
}

/// The stored `opponent` column of a game against the computer at `level`.
pub(crate) fn opponent_column(level: u8) -> String {
    serde_json::to_string(&Opponent::Computer(u32::from(level))).expect("opponent serialises")
}

/// The computer of a stored game: its level from the `opponent` column, its side the one
/// without a token.
pub(super) fn from_row(
    opponent: Option<&str>,
    tokens: &[Option<String>; 2],
) -> Result<Option<Computer>, String> {
    let Some(text) = opponent else {
        return Ok(None);
    };
    let Opponent::Computer(level) =
        serde_json::from_str::<Opponent>(text).map_err(|e| format!("opponent: {e}"))?;
    let level = u8::try_from(level)
        .ok()
        .filter(|l| LEVELS.contains(&u32::from(*l)))
        .ok_or_else(|| format!("opponent: no level {level}"))?;
    let side = Side::BOTH
        .into_iter()
        .find(|s| tokens[s.index()].is_none())
        .ok_or("opponent: both seats hold tokens")?;
    Ok(Some(Computer { side, level }))
}

/// A search under way for the computer's move at one ply.
pub(super) struct Thinking {
    ply: usize,
    handle: JobHandle,
    /// Not answered before this instant (see [`MIN_ANSWER`]).
    not_before: Instant,
    /// The engine's answer once it came, held until `not_before`.
    answer: Option<Result<Thought, PoolError>>,
}

/// Waits for the computer's answer, not before its `not_before` (never resolves without a
/// search under way). Cancel-safe: an answer that came is kept while the wait is dropped.
pub(super) async fn answer(thinking: &mut Option<Thinking>) -> Result<Thought, PoolError> {
    let Some(t) = thinking else {
        return std::future::pending().await;
    };
    if t.answer.is_none() {
        t.answer = Some(t.handle.wait().await);
    }
    tokio::time::sleep_until(t.not_before.into()).await;
    t.answer.take().unwrap_or(Err(PoolError::Closed))
}

/// A seed for the level's choices from the game and the ply: the same game replays the same.
fn seed(id: &str, ply: usize) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h ^ (ply as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl Live {
    /// The computer when it is to move in a game in progress.
    fn computer_to_move(&self) -> Option<Computer> {
        self.computer
            .filter(|c| self.state.status == Status::Playing && self.state.table.turn() == c.side)
    }

    /// The first-move countdown (clocks-and-games.md: the side to move has 30 s for its
    /// first move, or the game is aborted). It exists to free a person from a no-show, so
    /// against the computer it never runs while the person is at the board: the computer
    /// never walks away (it may wait for an engine thread), and the person is the only one
    /// who can be slow, studying the position as long as they like. A person who left the
    /// game's page before their first move is a no-show all the same: the game is aborted
    /// once they have been away for the claim grace (and not before the usual countdown).
    pub(super) fn first_move_countdown(&self) -> Option<Instant> {
        let deadline = self.state.first_move_deadline?;
        let Some(computer) = self.computer else {
            return Some(deadline);
        };
        if self.computer_to_move().is_some() {
            return None;
        }
        let away_since = self.comforts.away_since[(!computer.side).index()]?;
        Some(deadline.max(away_since + self.grace))
    }

    /// A game against the computer that its person left (no page of theirs open on it): the
    /// Watch list leaves it out, nobody is playing it.
    pub(super) fn abandoned_by_person(&self) -> bool {
        self.computer
            .is_some_and(|c| self.comforts.away_since[(!c.side).index()].is_some())
    }

    /// Whether the actor has work for the computer now or soon (it must stay in memory).
    pub(super) fn computer_busy(&self) -> bool {
        self.computer_to_move().is_some()
    }

    /// When a computer that could not move (its move was not stored) tries again.
    pub(super) fn computer_wake(&self) -> Option<Instant> {
        self.computer_to_move().and(self.computer_retry_at)
    }

    /// Keeps `thinking` in step with the game: drops (cancels) a search for a position that
    /// is gone, and starts one when the computer is to move.
    pub(super) fn think(&self, games: &Games, thinking: &mut Option<Thinking>, now: Instant) {
        let to_move = self.computer_to_move();
        if thinking
            .as_ref()
            .is_some_and(|t| to_move.is_none() || t.ply != self.ply())
        {
            *thinking = None;
        }
        let Some(computer) = to_move else { return };
        if thinking.is_some() || self.computer_retry_at.is_some_and(|at| now < at) {
            return;
        }
        let input = match jiang_engine::Input::for_seat(&self.state.table, computer.side) {
            Ok(input) => input,
            Err(e) => {
                tracing::error!(game = %self.id, error = %e, "the engine cannot read this game");
                return;
            }
        };
        let (clock, min_answer) = self.engine_clock(computer.side, computer.level, now);
        let job = Job {
            client: ClientKey::game(&self.id),
            input,
            go: Go {
                clock,
                ..Go::default()
            },
            multi_pv: 1,
            level: computer.level,
            seed: seed(&self.id, self.ply()),
            on_info: None,
        };
        *thinking = Some(Thinking {
            ply: self.ply(),
            handle: games.engines().submit(job),
            not_before: now + min_answer,
            answer: None,
        });
    }

    /// The computer's clock as the engine's time management reads it, and the shortest time
    /// before its answer (see [`MIN_ANSWER`]).
    fn engine_clock(&self, side: Side, level: u8, now: Instant) -> (jiang_engine::Clock, Duration) {
        let min_answer = |clock: &jiang_engine::Clock| {
            if level >= 8 {
                return Duration::ZERO;
            }
            clock
                .budget()
                .map_or(MIN_ANSWER, |b| MIN_ANSWER.min(b.soft / 4))
        };
        let fixed = |d: Duration| jiang_engine::Clock {
            movetime: Some(d),
            ..jiang_engine::Clock::default()
        };
        let Some(clock) = self.state.clock.as_ref() else {
            let untimed = fixed(UNTIMED_THINK.min(pace(level)));
            return (
                untimed,
                if level >= 8 {
                    Duration::ZERO
                } else {
                    MIN_ANSWER
                },
            );
        };
        let control = *clock.control();
        let snap = clock.snapshot(now);
        let mine = snap.side(side);
        let left = Duration::from_millis(mine.ms);
        let mut engine = if mine.byoyomi {
            // In byo-yomi: the current countdown is all there is.
            jiang_engine::Clock {
                remaining: Some(Duration::ZERO),
                byoyomi: left,
                ..jiang_engine::Clock::default()
            }
        } else {
            jiang_engine::Clock {
                remaining: Some(left),
                increment: control.increment,
                byoyomi: if control.periods > 0 {
                    control.byoyomi
                } else {
                    Duration::ZERO
                },
                ..jiang_engine::Clock::default()
            }
        };
        if let (Some(limit), false) = (control.move_limit, mine.byoyomi) {
            // A per-move limit in main time: never plan past what is left of it.
            let spent = Duration::from_millis(if snap.moving == Some(side) {
                snap.move_ms
            } else {
                0
            });
            let limit_left = limit.saturating_sub(spent);
            let planned = engine.budget().map_or(limit_left, |b| b.hard);
            engine = fixed(planned.min(limit_left));
        }
        if snap.running.is_none() {
            // The clocks start after each side's first move: think briefly anyway.
            let planned = engine.budget().map_or(FIRST_MOVE_THINK, |b| b.hard);
            engine = fixed(planned.min(FIRST_MOVE_THINK));
        }
        let min_answer = min_answer(&engine);
        // A pace a person enjoys: the usual share of the clock (the budget's soft limit, what
        // the time management means to spend), never more than the level's pace.
        if let Some(budget) = engine.budget() {
            let pace = pace(level);
            if budget.hard > pace {
                engine = fixed(budget.soft.clamp(Duration::from_millis(1), pace));
            }
        }
        (engine, min_answer)
    }

    /// Plays the computer's answer for the search `thinking` ran.
    pub(super) async fn computer_answer(
        &mut self,
        games: &Games,
        thinking: Thinking,
        answer: Result<Thought, PoolError>,
    ) {
        let Some(computer) = self.computer_to_move() else {
            return;
        };
        if thinking.ply != self.ply() {
            return;
        }
        let thought = match answer {
            Ok(thought) => thought,
            // Cancelled or shutting down: nothing to play.
            Err(_) => return,
        };
        let now = Instant::now();
        let action = match &thought.decision {
            Decision::Move(text) => Action::Move(text.clone()),
            Decision::DeclareImpasse => Action::Impasse,
            Decision::Resign => Action::Resign,
        };
        tracing::debug!(game = %self.id, level = computer.level, depth = thought.depth, nodes = thought.nodes, ?action, "computer moves");
        match self.act(games, computer.side, action.clone(), now).await {
            Ok(()) => self.computer_retry_at = None,
            Err(e) if e.code == ErrorCode::GameOver => {}
            Err(e)
                if matches!(
                    e.code,
                    ErrorCode::StorageUnavailable | ErrorCode::Unavailable
                ) =>
            {
                self.computer_retry_at = Some(Instant::now() + RETRY);
            }
            Err(e) => {
                // The engine chose something the rules refuse: a bug. Resign rather than hang
                // the game.
                tracing::error!(game = %self.id, ?action, error = %e.message, "the computer's move was refused; it resigns");
                if self
                    .act(games, computer.side, Action::Resign, now)
                    .await
                    .is_err()
                {
                    self.computer_retry_at = Some(Instant::now() + RETRY);
                }
            }
        }
    }

    /// The view's `computer` field.
    pub(super) fn computer_view(&self) -> Option<ComputerSeat> {
        self.computer.map(|c| ComputerSeat {
            side: self.name(c.side).to_owned(),
            level: c.level,
        })
    }
}
