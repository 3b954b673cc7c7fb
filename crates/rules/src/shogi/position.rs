//! A shogi-family position: the board as bitboards plus a mailbox, both hands, the side to
//! move and the SFEN move number, with an incrementally updated Zobrist key.

use super::geometry::{Geometry, geometry};
use super::tables::{
    self, Bitboard, Bits, GOLD, KING, KNIGHT, PAWN, SILVER, ZOBRIST, bishop_attacks, bishop_pseudo,
    lance_attacks, lance_pseudo, rook_attacks, rook_pseudo,
};
use super::{Move, Piece, PieceKind, Square};
use crate::{Side, Variant};

/// Kind indices, for brevity in the hot paths.
pub(crate) const PAWN_K: usize = 0;
pub(crate) const LANCE_K: usize = 1;
pub(crate) const KNIGHT_K: usize = 2;
pub(crate) const SILVER_K: usize = 3;
pub(crate) const GOLD_K: usize = 4;
pub(crate) const BISHOP_K: usize = 5;
pub(crate) const ROOK_K: usize = 6;
pub(crate) const KING_K: usize = 7;
pub(crate) const TOKIN_K: usize = 8;
pub(crate) const PLANCE_K: usize = 9;
pub(crate) const PKNIGHT_K: usize = 10;
pub(crate) const PSILVER_K: usize = 11;
pub(crate) const HORSE_K: usize = 12;
pub(crate) const DRAGON_K: usize = 13;

/// The king square of a side without a king (a tsume's attacker): off the board.
pub(crate) const NO_KING: u8 = 81;

/// A mailbox cell: 0 for empty, else `1 + side * 14 + kind`.
type Cell = u8;

const fn cell(side: usize, kind: usize) -> Cell {
    (1 + side * 14 + kind) as Cell
}

/// A legal shogi or minishogi position: [`Position::from_sfen`] parses and validates in one
/// step (one king each, or a tsume's single king, see below; no stuck pieces, no nifu, the
/// side not to move not in check, counts within the set), so every `Position` is one that can
/// be played from.
///
/// A **tsume** position (shogi.md: a mate problem is published without the attacker's king)
/// has one side without a king: that side can never be in check, so all its pseudo-legal
/// moves are legal, it is never pinned and it cannot declare impasse. Such a position is valid
/// for analysis, import and puzzles; games refuse it (`any_game::Setup::create`).
///
/// Holds the board (bitboards by side and by kind plus a mailbox), both hands, the side to
/// move, the SFEN move number and a Zobrist key of board, hands and side to move.
#[derive(Clone)]
pub struct Position {
    pub(crate) cells: [Cell; 81],
    pub(crate) by_side: [Bitboard; 2],
    pub(crate) by_kind: [Bitboard; 14],
    pub(crate) hands: [[u8; 7]; 2],
    pub(crate) kings: [u8; 2],
    pub(crate) turn: Side,
    pub(crate) ply: u32,
    pub(crate) variant: Variant,
    pub(crate) key: u64,
}

impl PartialEq for Position {
    /// Same board, hands, side to move and variant; the move number is ignored, as for
    /// repetition (shogi.md: board, both hands, side to move).
    fn eq(&self, other: &Self) -> bool {
        self.variant == other.variant
            && self.turn == other.turn
            && self.cells == other.cells
            && self.hands == other.hands
    }
}

impl Eq for Position {}

impl std::fmt::Display for Position {
    /// The canonical SFEN.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.sfen())
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.sfen())
    }
}

impl Position {
    /// An empty board of `variant` (no kings: only for building setups).
    pub(crate) fn empty(variant: Variant, turn: Side, ply: u32) -> Position {
        Position {
            cells: [0; 81],
            by_side: [0; 2],
            by_kind: [0; 14],
            hands: [[0; 7]; 2],
            kings: [NO_KING; 2],
            turn,
            ply,
            variant,
            key: if turn == Side::GOTE { ZOBRIST.gote } else { 0 },
        }
    }

    #[inline(always)]
    pub(crate) fn geo(&self) -> &'static Geometry {
        geometry(self.variant)
    }

    /// Puts a piece on an empty square (setup only).
    pub(crate) fn put(&mut self, sq: usize, side: usize, kind: usize) {
        debug_assert_eq!(self.cells[sq], 0);
        self.cells[sq] = cell(side, kind);
        self.by_side[side] |= 1 << sq;
        self.by_kind[kind] |= 1 << sq;
        self.key = self.key.wrapping_add(ZOBRIST.piece[side][kind][sq]);
        if kind == KING_K {
            self.kings[side] = sq as u8;
        }
    }

    /// Removes the piece on an occupied square (setup and play).
    #[inline(always)]
    fn take(&mut self, sq: usize) -> (usize, usize) {
        let c = self.cells[sq] as usize - 1;
        let (side, kind) = (c / 14, c % 14);
        self.cells[sq] = 0;
        self.by_side[side] ^= 1 << sq;
        self.by_kind[kind] ^= 1 << sq;
        self.key = self.key.wrapping_sub(ZOBRIST.piece[side][kind][sq]);
        (side, kind)
    }

    /// Sets the count of a hand kind (setup only).
    pub(crate) fn set_hand(&mut self, side: usize, kind: usize, count: u8) {
        let old = self.hands[side][kind];
        self.key = self
            .key
            .wrapping_sub(ZOBRIST.hand[side][kind].wrapping_mul(old as u64))
            .wrapping_add(ZOBRIST.hand[side][kind].wrapping_mul(count as u64));
        self.hands[side][kind] = count;
    }

    /// The variant (Shogi or Minishogi).
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        self.turn
    }

    /// The SFEN move number (1 for the start position, plus one per move played).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The board size: 9 for Shogi, 5 for Minishogi.
    pub fn size(&self) -> u8 {
        self.geo().size
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        match self.cells[sq.index()] {
            0 => None,
            c => {
                let c = c as usize - 1;
                let side = if c < 14 { Side::SENTE } else { Side::GOTE };
                Some(Piece::new(side, PieceKind::ALL[c % 14]))
            }
        }
    }

    /// How many pieces of base kind `kind` `side` holds in hand (0 for a promoted kind or
    /// the king).
    pub fn hand_count(&self, side: Side, kind: PieceKind) -> u8 {
        if kind.index() < 7 {
            self.hands[side.index()][kind.index()]
        } else {
            0
        }
    }

    /// `side`'s hand as `(kind, count)` in the canonical order R B G S N L P, without the
    /// kinds it does not hold.
    pub fn hand(&self, side: Side) -> Vec<(PieceKind, u8)> {
        PieceKind::HAND_ORDER
            .into_iter()
            .map(|k| (k, self.hand_count(side, k)))
            .filter(|&(_, n)| n > 0)
            .collect()
    }

    /// The square of `side`'s king, `None` for the attacker of a tsume (no king).
    pub fn king_square(&self, side: Side) -> Option<Square> {
        match self.kings[side.index()] {
            NO_KING => None,
            sq => Square::from_index(sq as usize),
        }
    }

    /// The side without a king, in a tsume position (shogi.md); `None` when both have one.
    pub fn kingless_side(&self) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|&side| self.kings[side.index()] == NO_KING)
    }

    /// Every occupied square with its piece, `1a` first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Bits(self.by_side[0] | self.by_side[1]).map(|i| {
            let sq = Square::from_index(i).expect("on board");
            (sq, self.piece_at(sq).expect("occupied"))
        })
    }

    /// A 64-bit key of board, hands and side to move (Zobrist), equal for positions that
    /// repetition treats as equal.
    pub fn key(&self) -> u64 {
        self.key
    }

    #[inline(always)]
    pub(crate) fn occupied(&self) -> Bitboard {
        self.by_side[0] | self.by_side[1]
    }

    /// Gold-movers: gold and the four promoted minor pieces.
    #[inline(always)]
    pub(crate) fn golds(&self) -> Bitboard {
        self.by_kind[GOLD_K]
            | self.by_kind[TOKIN_K]
            | self.by_kind[PLANCE_K]
            | self.by_kind[PKNIGHT_K]
            | self.by_kind[PSILVER_K]
    }

    /// The pieces of `side` that attack `sq` with occupancy `occ`.
    #[inline]
    pub(crate) fn attackers(&self, sq: usize, side: usize, occ: Bitboard) -> Bitboard {
        let them = side ^ 1; // step patterns seen from the target
        let k = &self.by_kind;
        let mine = self.by_side[side];
        let mut found = ((PAWN[them][sq] & k[PAWN_K])
            | (KNIGHT[them][sq] & k[KNIGHT_K])
            | (SILVER[them][sq] & k[SILVER_K])
            | (GOLD[them][sq] & self.golds())
            | (KING[sq] & (k[KING_K] | k[HORSE_K] | k[DRAGON_K])))
            & mine;
        // Sliders: only trace rays when one stands on an empty-board line to `sq`.
        let rooks = (k[ROOK_K] | k[DRAGON_K]) & mine;
        if rook_pseudo(sq) & rooks != 0 {
            found |= rook_attacks(sq, occ) & rooks;
        }
        let bishops = (k[BISHOP_K] | k[HORSE_K]) & mine;
        if bishop_pseudo(sq) & bishops != 0 {
            found |= bishop_attacks(sq, occ) & bishops;
        }
        let lances = k[LANCE_K] & mine;
        if lance_pseudo(them, sq) & lances != 0 {
            found |= lance_attacks(them, sq, occ) & lances;
        }
        found
    }

    /// Whether any piece of `side` attacks `sq` with occupancy `occ` (stops at the first).
    #[inline]
    pub(crate) fn is_attacked(&self, sq: usize, side: usize, occ: Bitboard) -> bool {
        let them = side ^ 1;
        let k = &self.by_kind;
        let mine = self.by_side[side];
        let steps = (PAWN[them][sq] & k[PAWN_K])
            | (KNIGHT[them][sq] & k[KNIGHT_K])
            | (SILVER[them][sq] & k[SILVER_K])
            | (GOLD[them][sq] & self.golds())
            | (KING[sq] & (k[KING_K] | k[HORSE_K] | k[DRAGON_K]));
        if steps & mine != 0 {
            return true;
        }
        let rooks = (k[ROOK_K] | k[DRAGON_K]) & mine;
        if rook_pseudo(sq) & rooks != 0 && rook_attacks(sq, occ) & rooks != 0 {
            return true;
        }
        let bishops = (k[BISHOP_K] | k[HORSE_K]) & mine;
        if bishop_pseudo(sq) & bishops != 0 && bishop_attacks(sq, occ) & bishops != 0 {
            return true;
        }
        let lances = k[LANCE_K] & mine;
        lance_pseudo(them, sq) & lances != 0 && lance_attacks(them, sq, occ) & lances != 0
    }

    /// The enemy pieces giving check to the side to move.
    #[inline]
    pub(crate) fn checkers(&self) -> Bitboard {
        let us = self.turn.index();
        match self.kings[us] {
            NO_KING => 0, // a tsume's attacker is never in check
            ksq => self.attackers(ksq as usize, us ^ 1, self.occupied()),
        }
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.checkers() != 0
    }

    /// Whether `side`'s king is attacked (used by validation for the side not to move).
    pub(crate) fn king_attacked(&self, side: usize) -> bool {
        match self.kings[side] {
            NO_KING => false,
            ksq => self.is_attacked(ksq as usize, side ^ 1, self.occupied()),
        }
    }

    /// Squares attacked by the piece `kind` of `side` on `sq` with occupancy `occ`.
    #[inline(always)]
    pub(crate) fn piece_attacks(kind: usize, side: usize, sq: usize, occ: Bitboard) -> Bitboard {
        match kind {
            PAWN_K => PAWN[side][sq],
            LANCE_K => lance_attacks(side, sq, occ),
            KNIGHT_K => KNIGHT[side][sq],
            SILVER_K => SILVER[side][sq],
            BISHOP_K => bishop_attacks(sq, occ),
            ROOK_K => rook_attacks(sq, occ),
            KING_K => KING[sq],
            HORSE_K => bishop_attacks(sq, occ) | KING[sq],
            DRAGON_K => rook_attacks(sq, occ) | KING[sq],
            _ => GOLD[side][sq],
        }
    }

    /// Plays `mv`, which must be legal here (debug builds check that it is at least
    /// well-formed).
    #[inline]
    pub fn play(&mut self, mv: Move) {
        let us = self.turn.index();
        let to = mv.to_index();
        let from = mv.origin_field();
        if from >= 81 {
            let kind = from - 81;
            debug_assert!(self.hands[us][kind] > 0 && self.cells[to] == 0);
            self.hands[us][kind] -= 1;
            self.key = self.key.wrapping_sub(ZOBRIST.hand[us][kind]);
            self.put(to, us, kind);
        } else {
            if self.cells[to] != 0 {
                let (side, kind) = self.take(to);
                debug_assert_eq!(side, us ^ 1);
                let base = PieceKind::ALL[kind].unpromoted().index();
                self.hands[us][base] += 1;
                self.key = self.key.wrapping_add(ZOBRIST.hand[us][base]);
            }
            let (side, kind) = self.take(from);
            debug_assert_eq!(side, us);
            let kind = if mv.promotes() {
                PieceKind::ALL[kind].promoted().expect("promotable").index()
            } else {
                kind
            };
            self.put(to, us, kind);
        }
        self.turn = !self.turn;
        self.key = if self.turn == Side::GOTE {
            self.key.wrapping_add(ZOBRIST.gote)
        } else {
            self.key.wrapping_sub(ZOBRIST.gote)
        };
        self.ply += 1;
    }

    /// The same key recomputed from scratch (to check the incremental one).
    #[cfg(test)]
    pub(crate) fn key_from_scratch(&self) -> u64 {
        let mut key = if self.turn == Side::GOTE {
            ZOBRIST.gote
        } else {
            0
        };
        for sq in Bits(self.occupied()) {
            let c = self.cells[sq] as usize - 1;
            key = key.wrapping_add(ZOBRIST.piece[c / 14][c % 14][sq]);
        }
        for side in 0..2 {
            for kind in 0..7 {
                key = key.wrapping_add(
                    ZOBRIST.hand[side][kind].wrapping_mul(self.hands[side][kind] as u64),
                );
            }
        }
        key
    }

    /// Checks that bitboards, mailbox, king squares and key agree (tests).
    #[cfg(test)]
    pub(crate) fn is_consistent(&self) -> bool {
        let mut by_side = [0; 2];
        let mut by_kind = [0; 14];
        for sq in 0..81 {
            if self.cells[sq] != 0 {
                let c = self.cells[sq] as usize - 1;
                by_side[c / 14] |= 1u128 << sq;
                by_kind[c % 14] |= 1u128 << sq;
            }
        }
        by_side == self.by_side
            && by_kind == self.by_kind
            && self.by_side[0] & self.by_side[1] == 0
            && (0..2).all(|s| {
                let kings = self.by_kind[KING_K] & self.by_side[s];
                match self.kings[s] {
                    NO_KING => kings == 0,
                    k => kings == 1u128 << k,
                }
            })
            && self.occupied() & !self.geo().board == 0
            && self.key == self.key_from_scratch()
    }

    /// The files (as a bitboard of whole files) holding an unpromoted pawn of `side`: nifu.
    #[inline]
    pub(crate) fn pawn_files(&self, side: usize) -> Bitboard {
        let mut files = 0;
        for sq in Bits(self.by_kind[PAWN_K] & self.by_side[side]) {
            files |= tables::FILES[sq % 9];
        }
        files
    }
}
