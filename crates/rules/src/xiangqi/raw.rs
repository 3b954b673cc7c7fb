//! Allocation-free access for programs that walk many positions (engines, analysers): legal
//! moves into a reused buffer, a move played with a chosen reveal, a passed turn, raw cells
//! and occupancy, and the repetition verdict of a cycle of positions.
//!
//! Nothing here adds rules: it exposes, cheaply, what the generator and the game already
//! decide.

use super::bitboard::{bit, zobrist};
use super::chase::cycle_outcome;
use super::position::{COVERED_BIT, code_kind, code_side, side_of};
use super::{Move, PieceKind, Position, Square};
use crate::{Outcome, Side};

/// One occupied point as the engine sees it: whose piece, what it moves as, whether covered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Whose piece.
    pub side: Side,
    /// What it is, or for a covered Jieqi piece what it moves as (its point's kind).
    pub kind: PieceKind,
    /// Whether it is a face-down Jieqi piece.
    pub covered: bool,
}

impl Position {
    /// Clears `out` and pushes every legal move of the side to move, once per from-to pair:
    /// a move of a covered Jieqi piece comes without its reveal (see
    /// [`Position::play_revealing`]).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        for &(from, to) in self.legal_pairs().as_slice() {
            out.push(Move::from_indices(from as usize, to as usize));
        }
    }

    /// Plays the legal from-to move `mv` (from [`Position::legal_moves_into`] or
    /// [`Position::legal_moves`]); a covered piece is revealed as `reveal`, which must be in
    /// the mover's public pool (`None` keeps `mv`'s own reveal, if any).
    pub fn play_revealing(&mut self, mv: Move, reveal: Option<PieceKind>) {
        debug_assert!(self.is_legal_pair(mv.from().index(), mv.to().index()));
        let reveal = reveal.or(mv.reveal().map(|p| p.kind));
        debug_assert!(
            self.covered & bit(mv.from().index()) == 0
                || reveal.is_some_and(|k| self.pools[self.turn.index()].count(k) > 0)
        );
        self.make(mv.from().index(), mv.to().index(), reveal);
    }

    /// The same position with the other side to move (a "null move"), for the side to move
    /// when it is not in check. The clocks do not change.
    pub fn passed(&self) -> Position {
        let mut p = self.clone();
        p.turn = !p.turn;
        p.hash ^= zobrist::BLACK_TO_MOVE;
        p
    }

    /// What stands on the point with index `index` (`0..90`), if anything.
    #[inline]
    pub fn cell(&self, index: usize) -> Option<Cell> {
        let code = self.board[index];
        (code != 0).then(|| Cell {
            side: side_of(code_side(code)),
            kind: PieceKind::ALL[code_kind(code)],
            covered: code & COVERED_BIT != 0,
        })
    }

    /// The points of `side`'s pieces as bits `1 << index`.
    #[inline]
    pub fn occupancy(&self, side: Side) -> u128 {
        self.occ[side.index()]
    }

    /// The points of covered pieces (both sides) as bits.
    #[inline]
    pub fn covered_points(&self) -> u128 {
        self.covered
    }

    /// Whether `mv` captures, and what: the occupant of its destination.
    #[inline]
    pub fn captured(&self, mv: Move) -> Option<Cell> {
        self.cell(mv.to().index())
    }

    /// Whether the piece on `square` belongs to the side to move and is covered.
    pub fn is_covered_at(&self, square: Square) -> bool {
        self.covered & bit(square.index()) != 0
    }
}

/// The verdict of a repetition cycle (xiangqi.md "Repetition"): `positions[0]` and the last
/// position are the same, `moves[i]` leads from `positions[i]` to `positions[i + 1]`. The side
/// that checked (or else chased) throughout while the other did not loses; otherwise a draw.
pub fn cycle_verdict(positions: &[Position], moves: &[Move]) -> Outcome {
    assert_eq!(
        positions.len(),
        moves.len() + 1,
        "one more position than moves"
    );
    cycle_outcome(positions, moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Reason, Variant};

    #[test]
    fn buffered_moves_are_the_unrevealed_legal_moves() {
        for variant in [Variant::Xiangqi, Variant::Jieqi] {
            let p = Position::start(variant);
            let mut out = Vec::new();
            p.legal_moves_into(&mut out);
            assert_eq!(out, p.legal_moves_unrevealed());
        }
    }

    #[test]
    fn a_reveal_chosen_by_the_caller_is_played() {
        let p = Position::start(Variant::Jieqi);
        let mv = p.parse_move("h2e2R").unwrap();
        let mut a = p.clone();
        a.play_revealing(
            Move::new(mv.from(), mv.to(), None),
            Some(PieceKind::Chariot),
        );
        assert_eq!(a, p.after(mv));
        assert_eq!(
            a.cell(mv.to().index()).map(|c| c.kind),
            Some(PieceKind::Chariot)
        );
    }

    #[test]
    fn a_pass_only_changes_the_side_to_move() {
        let p = Position::start(Variant::Xiangqi);
        let q = p.passed();
        assert_eq!(q.turn(), Side::BLACK);
        assert_ne!(q.hash(), p.hash());
        assert_eq!(q.passed().hash(), p.hash());
    }

    #[test]
    fn the_cycle_verdict_matches_the_game() {
        // As game.rs's test: Red checks on ranks 9 and 8 while Black's general shuffles.
        let start =
            Position::parse_fen(Variant::Xiangqi, "4k4/9/9/R8/9/9/9/9/9/3K5 w - - 0 1").unwrap();
        let mut positions = vec![start.clone()];
        let mut moves = Vec::new();
        for text in ["a6a9", "e9e8", "a9a8", "e8e9", "a8a9"] {
            let p = positions.last().unwrap();
            let mv = p.parse_move(text).unwrap();
            moves.push(mv);
            positions.push(p.after(mv));
        }
        // positions[1] (after a6a9) recurs as positions[5].
        assert!(positions[1].same_placement(&positions[5]));
        assert_eq!(
            cycle_verdict(&positions[1..], &moves[1..]),
            Outcome::win(Side::BLACK, Reason::PerpetualCheck)
        );
    }
}
