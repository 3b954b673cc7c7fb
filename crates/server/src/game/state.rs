//! A game's table state: the rules, the clock and the seats, as pure data. A change is computed
//! on a copy and swapped in once the store has it.

use super::*;

/// A game's table state: the rules, the clock, the seats and what is stored beside them. Pure
/// data: a change is computed on a clone and swapped in once stored (see [`Live::commit`]).
pub(super) struct State {
    pub(super) table: AnyGame,
    pub(super) status: Status,
    /// Token hashes per side; `None` for a free seat.
    pub(super) tokens: [Option<String>; 2],
    pub(super) meta: Meta,
    pub(super) clock: Option<Clock>,
    pub(super) result: Option<Outcome>,
    /// When the side to move must have made its first move (while fewer than two plies).
    pub(super) first_move_deadline: Option<Instant>,
    /// When each move was accepted (milliseconds since the epoch), one per move: the move
    /// times of the records.
    pub(super) move_at_ms: Vec<i64>,
}

impl Clone for State {
    fn clone(&self) -> Self {
        State {
            table: self.table.clone(),
            status: self.status,
            tokens: self.tokens.clone(),
            meta: self.meta.clone(),
            clock: self.clock.clone(),
            result: self.result,
            first_move_deadline: self.first_move_deadline,
            move_at_ms: self.move_at_ms.clone(),
        }
    }
}

impl State {
    pub(super) fn ply(&self) -> usize {
        self.table.moves().len()
    }

    /// Ends the game with `outcome`: the clock stops, the result is set, offers and the
    /// first-move countdown lapse.
    pub(super) fn apply_end(&mut self, outcome: Outcome, now: Instant) {
        if let Some(clock) = &mut self.clock {
            clock.stop(now);
        }
        self.status = if outcome.reason == Reason::Aborted {
            Status::Aborted
        } else {
            Status::Ended
        };
        self.result = Some(outcome);
        self.table.end(outcome);
        self.meta.draw_offer = None;
        self.meta.takeback = None;
        self.first_move_deadline = None;
    }

    /// A correspondence game in progress: when the side to move loses on time (once both
    /// sides have made their first move), or else when the game is aborted for want of a first
    /// move. `None` for every other game.
    pub(super) fn deadline(&self) -> Option<Instant> {
        if self.status != Status::Playing {
            return None;
        }
        let clock = self
            .clock
            .as_ref()
            .filter(|c| c.control().is_correspondence())?;
        if self.ply() < 2 {
            self.first_move_deadline
        } else {
            clock.flag_at()
        }
    }

    pub(super) fn clock_snapshot_json(&self, now: Instant) -> Option<String> {
        self.clock
            .as_ref()
            .map(|c| serde_json::to_string(&c.snapshot(now)).expect("snapshot serialises"))
    }
}
