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

    /// The squares of `side`'s pieces that could capture on the square with index `target`
    /// if the squares in `removed` were empty and their pieces gone: for exchange
    /// evaluation, where `removed` holds the pieces that have already captured there.
    /// Geometry only (a pinned piece still counts).
    #[inline]
    pub fn attackers_of(&self, target: usize, side: Side, removed: u128) -> u128 {
        self.attackers(target, side.index(), self.occupied() & !removed) & !removed
    }

    /// The squares the piece on the square with index `from` attacks (on the board, own
    /// pieces' squares included), or none when the square is empty: for evaluation
    /// (mobility).
    #[inline]
    pub fn attacks_from(&self, from: usize) -> u128 {
        let bit = 1u128 << from;
        let Some(kind) = (0..self.by_kind.len()).find(|&k| self.by_kind[k] & bit != 0) else {
            return 0;
        };
        let side = if self.by_side[0] & bit != 0 { 0 } else { 1 };
        Position::piece_attacks(kind, side, from, self.occupied()) & self.geo().board
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
    use crate::shogi::Square;

    #[test]
    fn buffered_moves_are_the_legal_moves() {
        for variant in [Variant::Shogi, Variant::Minishogi] {
            let p = Position::startpos(variant);
            let mut out = vec![];
            p.legal_moves_into(&mut out);
            assert_eq!(out, p.legal_moves());
        }
    }

    /// Every legal capture comes from an attacker of its target, sliders included, in
    /// seeded random games of both variants.
    #[test]
    fn every_capture_comes_from_an_attacker() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut captures = 0;
        for variant in [Variant::Shogi, Variant::Minishogi] {
            for _game in 0..6 {
                let mut p = Position::startpos(variant);
                for _ply in 0..150 {
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let us = p.turn();
                    for mv in &moves {
                        let (Some(from), to) = (mv.from(), mv.to()) else {
                            continue;
                        };
                        if p.piece_at(to).is_some() {
                            captures += 1;
                            let attackers = p.attackers_of(to.index(), us, 0);
                            assert_ne!(attackers & 1 << from.index(), 0, "{mv:?}");
                        }
                    }
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    p.play(moves[(seed >> 33) as usize % moves.len()]);
                }
            }
        }
        assert!(captures > 100, "only {captures} captures seen");
    }

    #[test]
    fn removed_pieces_open_lines() {
        let p = Position::startpos(Variant::Shogi);
        let index = |file, rank| Square::new(file, rank).unwrap().index();
        // Gote's pawn on 2c: no sente piece reaches it until sente's pawn on 2g has gone,
        // then the rook on 2h does; a removed piece is never listed.
        let target = index(2, 3);
        assert_eq!(p.attackers_of(target, Side::SENTE, 0), 0);
        assert_eq!(
            p.attackers_of(target, Side::SENTE, 1 << index(2, 7)),
            1 << index(2, 8)
        );
        assert_eq!(
            p.attackers_of(index(2, 7), Side::SENTE, 1 << index(2, 8)),
            0
        );
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
