//! Allocation-free access for programs that walk many positions (engines, analysers): legal
//! moves into a reused buffer, a passed turn, attack queries and the promotion zone.
//!
//! Nothing here adds rules: it exposes, cheaply, what the generator already decides.

use super::movegen::Sink;
use super::position::KING_K;
use super::tables::{Bitboard, Bits, ZOBRIST};
use super::{Move, Position};
use crate::Side;

/// Pushes generated moves straight into a `Vec`.
struct VecSink<'a>(&'a mut Vec<Move>);

impl Sink for VecSink<'_> {
    #[inline]
    fn board(&mut self, from: usize, plain: Bitboard, promoting: Bitboard) {
        for to in Bits(promoting) {
            self.0.push(Move::normal(from, to, true));
        }
        for to in Bits(plain) {
            self.0.push(Move::normal(from, to, false));
        }
    }
    #[inline]
    fn drops(&mut self, kind: usize, targets: Bitboard) {
        for to in Bits(targets) {
            self.0.push(Move::drop(kind, to));
        }
    }
}

impl Position {
    /// Clears `out` and pushes every legal move, in generation order (as
    /// [`Position::legal_moves`]).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        self.generate(&mut VecSink(out));
    }

    /// The same position with the other side to move (a "null move"), for the side to move
    /// when it is not in check. The move number does not change.
    pub fn passed(&self) -> Position {
        let mut p = self.clone();
        p.turn = !p.turn;
        p.key = if p.turn == Side::GOTE {
            p.key.wrapping_add(ZOBRIST.gote)
        } else {
            p.key.wrapping_sub(ZOBRIST.gote)
        };
        p
    }

    /// The squares of `side`'s pieces as bits `1 << index`.
    #[inline]
    pub fn occupancy(&self, side: Side) -> u128 {
        self.by_side[side.index()]
    }

    /// How many pieces of `side` attack the square with index `index`.
    #[inline]
    pub fn attackers_count(&self, index: usize, side: Side) -> u32 {
        self.attackers(index, side.index(), self.occupied())
            .count_ones()
    }

    /// Whether `side` attacks the square with index `index`.
    #[inline]
    pub fn is_attacked_by(&self, index: usize, side: Side) -> bool {
        self.is_attacked(index, side.index(), self.occupied())
    }

    /// `side`'s promotion zone as bits.
    #[inline]
    pub fn promotion_zone(&self, side: Side) -> u128 {
        self.geo().zone[side.index()]
    }

    /// Whether `side` has only its king on the board.
    pub fn bare_king(&self, side: Side) -> bool {
        self.by_side[side.index()] == self.by_kind[KING_K] & self.by_side[side.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn buffered_moves_are_the_legal_moves() {
        for variant in [Variant::Shogi, Variant::Minishogi] {
            let p = Position::startpos(variant);
            let mut out = vec![];
            p.legal_moves_into(&mut out);
            assert_eq!(out, p.legal_moves());
        }
    }

    #[test]
    fn a_pass_only_changes_the_side_to_move() {
        let p = Position::startpos(Variant::Shogi);
        let q = p.passed();
        assert_eq!(q.turn(), Side::GOTE);
        assert_ne!(q.key(), p.key());
        assert_eq!(q.passed().key(), p.key());
        assert!(q.is_consistent());
    }
}
