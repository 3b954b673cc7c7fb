//! A xiangqi-family game: the start, the moves, every position, and the outcome decided after
//! each move in the order of xiangqi.md "End of the game".

use super::chase::cycle_outcome;
use super::{Move, MoveError, Position};
use crate::{Outcome, Reason, Side};

/// The move limit: 60 moves by each side (120 plies) without a capture is a draw.
pub const MOVE_LIMIT_PLIES: u32 = 120;

/// Why a move could not be played in a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game has already ended.
    #[error("the game is already over ({0})")]
    GameOver(Outcome),
    /// The move is not legal in the current position.
    #[error(transparent)]
    Illegal(#[from] MoveError),
}

/// A game of Xiangqi or Jieqi (the public side of it): the start, the moves, the positions the
/// rules may still look back at, and the outcome once it has ended.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    /// The positions since the last capture, the current one last: `recent[i]` is the position
    /// after `base + i` moves. A position before a capture has more pieces than any after it,
    /// so it can never recur: the repetition rules never look further back, and a server
    /// holding many long games keeps at most 120 plies of positions for each.
    recent: Vec<Position>,
    /// How many moves had been played at `recent[0]`.
    base: usize,
    moves: Vec<Move>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game from `start`. A start with no legal move (or otherwise already decided by
    /// material) already has its outcome.
    pub fn new(start: Position) -> Game {
        let mut game = Game {
            start: start.clone(),
            recent: vec![start],
            base: 0,
            moves: Vec::new(),
            outcome: None,
        };
        game.outcome = game.decide();
        game
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.recent.last().expect("a game has a start")
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// Every position from the start to the current one, in order (one more than the moves).
    /// Only the positions since the last capture are kept, so the others are replayed from
    /// the start: this walks the whole game.
    pub fn positions(&self) -> impl Iterator<Item = Position> + '_ {
        // Positions 0..=base replayed, then the kept ones after `recent[0]` (position `base`).
        let replayed = self.moves[..self.base]
            .iter()
            .scan(self.start.clone(), |position, &mv| {
                *position = position.after(mv);
                Some(position.clone())
            });
        std::iter::once(self.start.clone())
            .chain(replayed)
            .chain(self.recent[1..].iter().cloned())
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.moves.last().copied()
    }

    /// Plies played since the start.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The outcome if the game has ended by the rules (not by resignation, agreement, time or
    /// abort, which the caller decides).
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.position().in_check()
    }

    /// Whether `side` could ever give check with what it has (for timeout against
    /// insufficient material).
    pub fn can_ever_check(&self, side: Side) -> bool {
        self.position().can_ever_check(side)
    }

    /// Plays `mv` if it is legal now and the game is not over, then decides the outcome.
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        if let Some(outcome) = self.outcome {
            return Err(PlayError::GameOver(outcome));
        }
        let position = self.position();
        let checked = position.find_move(mv.from(), mv.to(), mv.reveal().map(|p| p.kind))?;
        if checked != mv {
            // A reveal letter of the wrong side.
            return Err(PlayError::Illegal(MoveError::BadRevealLetter {
                letter: mv.reveal().map_or('?', |p| p.fen_letter()),
            }));
        }
        let next = position.after(mv);
        self.moves.push(mv);
        if next.halfmove_clock() == 0 {
            // A capture: nothing before it can recur (see `recent`).
            self.recent.clear();
            self.base = self.moves.len();
        }
        self.recent.push(next);
        self.outcome = self.decide();
        Ok(())
    }

    /// Parses an ICCS move (with the Jieqi reveal suffix where needed) and plays it.
    pub fn play_iccs(&mut self, text: &str) -> Result<Move, PlayError> {
        if let Some(outcome) = self.outcome {
            return Err(PlayError::GameOver(outcome));
        }
        let mv = self.position().parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// The outcome of the current position given the history, in xiangqi.md's order.
    fn decide(&self) -> Option<Outcome> {
        let position = self.position();
        let mover = position.turn();
        // 1. No legal moves: the side to move loses.
        if !position.has_legal_move() {
            return Some(Outcome::no_legal_move(mover, position.in_check()));
        }
        // 2. Third occurrence of the same position.
        if let Some(first) = self.third_occurrence_start() {
            return Some(self.repetition_verdict(first));
        }
        // 3. Move limit: 120 plies without a capture (reveals do not reset it).
        if position.halfmove_clock() >= MOVE_LIMIT_PLIES {
            return Some(Outcome::draw(Reason::MoveLimit));
        }
        // 4. Nobody can ever give mate.
        if !position.can_ever_check(Side::RED) && !position.can_ever_check(Side::BLACK) {
            return Some(Outcome::draw(Reason::InsufficientMaterial));
        }
        None
    }

    /// If the current position occurs for the third time, the index of its first occurrence.
    /// Full positions are compared (hash first, then the board, side and pools).
    fn third_occurrence_start(&self) -> Option<usize> {
        let n = self.moves.len();
        let current = self.position();
        // Positions before the last capture have more pieces: no need to look further back.
        let horizon = n
            .saturating_sub(current.halfmove_clock() as usize)
            .max(self.base);
        let mut earlier = Vec::new();
        let mut i = n;
        while i >= horizon + 2 {
            i -= 2;
            if self.recent[i - self.base].same_placement(current) {
                earlier.push(i);
            }
        }
        (earlier.len() >= 2).then(|| *earlier.last().expect("two occurrences"))
    }

    /// Judges the cycle from `first` to now (xiangqi.md "Repetition").
    fn repetition_verdict(&self, first: usize) -> Outcome {
        cycle_outcome(&self.recent[first - self.base..], &self.moves[first..])
    }
}

game_from_inherent_methods!(Game, Position, PlayError, play_text: |game: &mut Game, text| {
    game.play_iccs(text).map(|_| ())
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Position as _, Variant};

    #[test]
    fn a_capture_lets_the_game_forget_the_positions_before_it() {
        let mut game = Game::new(Position::start(Variant::Xiangqi));
        for text in ["h2e2", "h9g7", "e2e6"] {
            game.play_iccs(text).unwrap();
        }
        // The central cannon took the pawn on e6: only the position after it is kept.
        assert_eq!(game.position().halfmove_clock(), 0);
        assert_eq!((game.base, game.recent.len()), (3, 1));
        game.play_iccs("i9i8").unwrap();
        assert_eq!((game.base, game.recent.len()), (3, 2));
        let all: Vec<Position> = game.positions().collect();
        assert_eq!(all.len(), 5);
        assert_eq!(&all[0], game.start());
        assert_eq!(all[2].to_fen(), {
            let mut p = Position::start(Variant::Xiangqi);
            for text in ["h2e2", "h9g7"] {
                p = p.after(p.parse_move(text).unwrap());
            }
            p.to_fen()
        });
        assert_eq!(all.last(), Some(game.position()));
    }

    #[test]
    fn repetition_after_a_capture_is_judged_on_the_kept_positions() {
        // Red takes the pawn, then checks on ranks 9 and 8 while Black's general steps between
        // e9 and e8: the third occurrence (ply 11) is Red's perpetual check.
        let start =
            Position::from_fen(Variant::Xiangqi, "9/4k4/9/R8/p8/9/9/9/9/3K5 w - - 0 1").unwrap();
        let mut game = Game::new(start);
        let line = "a6a5 e8e9 a5a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9";
        let plies: Vec<&str> = line.split(' ').collect();
        for text in &plies[..10] {
            game.play_iccs(text).unwrap();
        }
        assert_eq!(game.outcome(), None);
        assert_eq!(game.base, 1, "the positions before the capture are gone");
        game.play_iccs(plies[10]).unwrap();
        assert_eq!(
            game.outcome(),
            Some(Outcome::win(Side::BLACK, Reason::PerpetualCheck))
        );
    }
}
