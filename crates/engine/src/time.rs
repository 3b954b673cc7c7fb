//! Time management: how long to think on one move for each clock kind (Fischer with or
//! without moves-to-go, byo-yomi with periods, a fixed time per move).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What the clock says when the engine must move (all fields as the protocols give them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// The mover's remaining main time.
    pub remaining: Option<Duration>,
    /// Fischer increment per move.
    pub increment: Duration,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
    /// Byo-yomi period length (the period is kept when the move is made within it).
    pub byoyomi: Duration,
    /// A fixed time for this move (`go movetime`).
    pub movetime: Option<Duration>,
}

/// How long to think: stop starting iterations after `soft`, abort at `hard`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start another iteration after this.
    pub soft: Duration,
    /// Stop at once at this.
    pub hard: Duration,
}

/// The safety margin kept on every move for reading, writing and the GUI's own delay.
fn overhead(available: Duration) -> Duration {
    // A third of short budgets: on a loaded machine the search thread can be descheduled
    // for tens of milliseconds.
    (available / 3).clamp(Duration::from_millis(5), Duration::from_millis(60))
}

/// The margin kept from a fixed time per move (`go movetime`) or a byo-yomi period: the
/// engine answers at the end of its own search and the protocols mean "think this long", so
/// only the time to stop the search and write the answer is kept, with a share for a
/// descheduled thread (8 ms of 100 ms per move; 16 ms of a 100 ms period).
fn fixed_overhead(available: Duration, share: u32) -> Duration {
    (available / share).clamp(Duration::from_millis(3), Duration::from_millis(60))
}

impl Clock {
    /// The budget for this move, or `None` when the clock sets no limit.
    pub fn budget(&self) -> Option<Budget> {
        if let Some(fixed) = self.movetime {
            let hard = fixed
                .saturating_sub(fixed_overhead(fixed, 12))
                .max(Duration::from_millis(1));
            return Some(Budget { soft: hard, hard });
        }
        // Byo-yomi alone (`go byoyomi N`, no main time given): the main time is spent.
        let remaining = match self.remaining {
            Some(remaining) => remaining,
            None if !self.byoyomi.is_zero() => Duration::ZERO,
            None => return None,
        };
        // Byo-yomi: the period is spent freely, the main time shared out.
        if !self.byoyomi.is_zero() {
            let total = remaining + self.byoyomi;
            let limit = total.saturating_sub(fixed_overhead(self.byoyomi, 6));
            let share = remaining / 30 + self.byoyomi;
            let hard = (share * 2).min(limit).max(Duration::from_millis(1));
            // With the main time gone, what the period leaves is lost: iterations are started
            // until its end, as with a fixed time per move.
            let soft = if remaining.is_zero() {
                hard
            } else {
                (share * 3 / 5).min(hard)
            };
            return Some(Budget { soft, hard });
        }
        // Fischer: the increment arrives only after the move, so never plan past what is
        // on the clock now.
        let moves = self.moves_to_go.unwrap_or(30).clamp(1, 50);
        let limit = remaining
            .saturating_sub(overhead(remaining))
            .max(Duration::from_millis(1));
        let share = remaining / moves + self.increment * 3 / 4;
        let hard = (share * 3)
            .min(remaining / 2 + self.increment / 2)
            .min(limit)
            .max(Duration::from_millis(1));
        let soft = (share * 3 / 5).min(hard);
        Some(Budget { soft, hard })
    }
}

/// A search started by `go ponder`: it thinks on the opponent's time with no time limit
/// until the ponder hit, from which its time limits count (as Stockfish and YaneuraOu do: the
/// budget computed from the `go` parameters starts at `ponderhit`).
#[derive(Debug)]
pub struct Ponder {
    active: AtomicBool,
    hit: Mutex<Option<Instant>>,
}

impl Default for Ponder {
    fn default() -> Ponder {
        Ponder::new()
    }
}

impl Ponder {
    /// A search that is pondering.
    pub fn new() -> Ponder {
        Ponder {
            active: AtomicBool::new(true),
            hit: Mutex::new(None),
        }
    }

    /// Whether the search is still pondering (no `ponderhit` yet).
    pub fn is_active(&self) -> bool {
        self.active.load(Ordering::Acquire)
    }

    /// The opponent played the expected move: the clock starts now.
    pub fn hit(&self) {
        *self.hit.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        self.active.store(false, Ordering::Release);
    }

    /// The time since the ponder hit; `None` while pondering.
    pub fn since_hit(&self) -> Option<Duration> {
        if self.is_active() {
            return None;
        }
        self.hit
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .map(|at| at.elapsed())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// The budget with `remaining` ms on the clock and `increment` ms added after each move.
    fn fischer(remaining: u64, increment: u64) -> Budget {
        let clock = Clock {
            remaining: Some(ms(remaining)),
            increment: ms(increment),
            ..Clock::default()
        };
        clock.budget().unwrap()
    }

    /// The budget in byo-yomi periods of `period` ms, the main time spent.
    fn byoyomi(period: u64) -> Budget {
        let clock = Clock {
            remaining: Some(ms(0)),
            byoyomi: ms(period),
            ..Clock::default()
        };
        clock.budget().unwrap()
    }

    #[test]
    fn a_fixed_time_keeps_a_margin() {
        let b = Clock {
            movetime: Some(ms(100)),
            ..Clock::default()
        }
        .budget()
        .unwrap();
        assert!(b.hard <= ms(95) && b.hard >= ms(85), "{b:?}");
    }

    #[test]
    fn fischer_never_spends_the_whole_clock() {
        for remaining in [100, 1_000, 60_000] {
            let b = fischer(remaining, 0);
            assert!(b.hard < ms(remaining) / 2, "{remaining}: {b:?}");
            assert!(b.soft <= b.hard);
        }
        // 100 ms on the clock plus 100 ms per move: the increment comes after the move.
        let with_increment = fischer(100, 100);
        assert!(with_increment.hard <= ms(70), "{with_increment:?}");
        assert!(with_increment.hard >= ms(50), "{with_increment:?}");
    }

    #[test]
    fn byoyomi_uses_the_period_but_not_all_of_it() {
        let b = byoyomi(1_000);
        assert!(b.hard < ms(1_000) && b.hard >= ms(900), "{b:?}");
        // Nothing is saved for later: a new iteration may start until the end.
        assert_eq!(b.soft, b.hard);
        // A short period keeps a sixth of it in reserve.
        let short = byoyomi(100);
        assert!(short.hard <= ms(85) && short.hard >= ms(80), "{short:?}");
        // With main time in the bank, iterations stop early to save it.
        let banked = Clock {
            remaining: Some(ms(30_000)),
            byoyomi: ms(1_000),
            ..Clock::default()
        }
        .budget()
        .unwrap();
        assert!(banked.soft < banked.hard, "{banked:?}");
    }

    #[test]
    fn byoyomi_alone_is_a_limit() {
        let b = Clock {
            byoyomi: ms(200),
            ..Clock::default()
        }
        .budget()
        .expect("a byo-yomi period limits the move");
        assert!(b.hard < ms(200) && b.hard >= ms(150), "{b:?}");
        assert_eq!(b, byoyomi(200));
    }

    #[test]
    fn moves_to_go_shares_the_clock_among_the_moves_left() {
        let clock = |moves| Clock {
            remaining: Some(ms(10_000)),
            moves_to_go: Some(moves),
            ..Clock::default()
        };
        let one = clock(1).budget().unwrap();
        let ten = clock(10).budget().unwrap();
        assert!(one.hard > ten.hard, "{one:?} {ten:?}");
        // Even the last move before the control keeps a margin.
        assert!(one.hard <= ms(5_000), "{one:?}");
    }

    #[test]
    fn ponder_time_counts_from_the_hit() {
        let p = Ponder::new();
        assert!(p.is_active());
        assert_eq!(p.since_hit(), None);
        p.hit();
        assert!(!p.is_active());
        assert!(p.since_hit().unwrap() < Duration::from_secs(5));
    }

    #[test]
    fn no_clock_no_limit() {
        assert_eq!(Clock::default().budget(), None);
    }
}
