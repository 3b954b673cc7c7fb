//! The public position of the xiangqi family: pieces on points, side to move, clocks and, for
//! Jieqi, covered pieces and each side's pool.

use std::fmt;

use super::bitboard::{Bitboard, ROTATED, bit, zobrist};
use super::{Piece, PieceKind, Square};
use crate::{Side, Variant};

/// What stands on a point: a face-up piece, or (Jieqi only) a face-down piece of a side.
///
/// A covered piece always stands on one of its side's starting points and moves as the piece
/// that normally starts there ([`Occupant::moves_as`]); what it really is stays unknown until
/// it moves (jieqi.md, "Covered pieces").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Occupant {
    /// A piece whose identity everyone sees.
    Piece(Piece),
    /// A face-down Jieqi piece of this side.
    Covered(Side),
}

impl Occupant {
    /// Whose piece it is.
    pub const fn side(self) -> Side {
        match self {
            Occupant::Piece(p) => p.side,
            Occupant::Covered(s) => s,
        }
    }

    /// The face-up piece, if it is one.
    pub const fn piece(self) -> Option<Piece> {
        match self {
            Occupant::Piece(p) => Some(p),
            Occupant::Covered(_) => None,
        }
    }

    /// Whether the piece is face down.
    pub const fn is_covered(self) -> bool {
        matches!(self, Occupant::Covered(_))
    }

    /// The FEN letter: the piece's letter, or `X` (Red) / `x` (Black) for a covered piece.
    pub const fn fen_letter(self) -> char {
        match self {
            Occupant::Piece(p) => p.fen_letter(),
            Occupant::Covered(Side::First) => 'X',
            Occupant::Covered(Side::Second) => 'x',
        }
    }

    /// The kind this occupant moves as when standing on `square`: its own kind, or for a
    /// covered piece the kind that starts on that point (`None` if it is not a start point,
    /// which a valid position never has).
    pub fn moves_as(self, square: Square) -> Option<PieceKind> {
        match self {
            Occupant::Piece(p) => Some(p.kind),
            Occupant::Covered(side) => start_kind(side, square),
        }
    }
}

impl fmt::Display for Occupant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_letter())
    }
}

/// The kind that stands on `square` at the start for `side` (the general included), if any.
/// In Jieqi this is what a covered piece on that point moves as.
pub fn start_kind(side: Side, square: Square) -> Option<PieceKind> {
    let rank = square.relative_rank(side);
    let file = square.file();
    use PieceKind::*;
    match (rank, file) {
        (0, 0 | 8) => Some(Chariot),
        (0, 1 | 7) => Some(Horse),
        (0, 2 | 6) => Some(Elephant),
        (0, 3 | 5) => Some(Advisor),
        (0, 4) => Some(General),
        (2, 1 | 7) => Some(Cannon),
        (3, 0 | 2 | 4 | 6 | 8) => Some(Soldier),
        _ => None,
    }
}

/// How many of each kind one side has in a full set: K1 A2 B2 N2 R2 C2 P5.
pub const FULL_SET: [u8; 7] = [1, 2, 2, 2, 2, 2, 5];

/// Jieqi: the identities of one side that are not yet revealed, as seen publicly.
///
/// It starts as the fifteen non-general pieces. A reveal removes the revealed identity. A
/// captured covered piece stays in the pool: publicly nobody has seen what it was (only its
/// captor has, and that knowledge belongs to the hidden-information layer). So the pool always
/// holds at least as many identities as the side has covered pieces on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Pool {
    counts: [u8; 7],
}

impl Pool {
    /// The fifteen identities of a full set, the general excepted.
    pub const FULL: Pool = Pool {
        counts: [0, 2, 2, 2, 2, 2, 5],
    };
    /// No identities.
    pub const EMPTY: Pool = Pool { counts: [0; 7] };

    /// How many of `kind` the pool holds.
    pub const fn count(&self, kind: PieceKind) -> u8 {
        self.counts[kind.index()]
    }

    /// How many identities in all.
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&c| c as u32).sum()
    }

    /// Whether the pool holds nothing.
    pub fn is_empty(&self) -> bool {
        self.total() == 0
    }

    /// The distinct kinds present, in [`PieceKind::ALL`] order.
    pub fn kinds(&self) -> impl Iterator<Item = PieceKind> + '_ {
        PieceKind::ALL
            .into_iter()
            .filter(|k| self.counts[k.index()] > 0)
    }

    /// Sets the count of `kind` (used when reading a FEN pool field).
    pub(crate) fn set(&mut self, kind: PieceKind, count: u8) {
        self.counts[kind.index()] = count;
    }

    pub(crate) fn remove(&mut self, kind: PieceKind) {
        self.counts[kind.index()] = self.counts[kind.index()].saturating_sub(1);
    }

    /// The pool as written in a Jieqi FEN for `side`: `A2B2N2R2C2P5` order, letters cased by
    /// side, zero counts left out.
    pub fn fen_text(&self, side: Side) -> String {
        PieceKind::COVERED
            .into_iter()
            .filter(|&kind| self.count(kind) > 0)
            .map(|kind| {
                format!(
                    "{}{}",
                    Piece::new(side, kind).fen_letter(),
                    self.count(kind)
                )
            })
            .collect()
    }
}

// ---- cell codes: 0 empty; (kind index + 1) | side << 3 | covered << 4 ----

pub(crate) const SIDE_BIT: u8 = 8;
pub(crate) const COVERED_BIT: u8 = 16;

#[inline(always)]
pub(crate) const fn cell_code(side: Side, kind: PieceKind, covered: bool) -> u8 {
    (kind as u8 + 1) | ((side as u8) << 3) | if covered { COVERED_BIT } else { 0 }
}

/// The movement kind index stored in a non-empty cell code.
#[inline(always)]
pub(crate) const fn code_kind(code: u8) -> usize {
    ((code & 7) - 1) as usize
}

#[inline(always)]
pub(crate) const fn code_side(code: u8) -> usize {
    ((code & SIDE_BIT) >> 3) as usize
}

pub(crate) const fn side_of(index: usize) -> Side {
    if index == 0 {
        Side::First
    } else {
        Side::Second
    }
}

/// A validated xiangqi-family position: always legal to play from.
///
/// Built from a FEN ([`Position::parse_fen`] via [`super::Setup`]), from
/// [`Position::start`], or by playing legal moves. For Jieqi it is the **public** position:
/// covered points, revealed identities and the pools; the hidden deal lives in the
/// hidden-information layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: [u8; 90],
    pub(crate) occ: [Bitboard; 2],
    /// All occupied points in file-major order (`file * 10 + rank`) for file lookups.
    pub(crate) rotated: Bitboard,
    /// Per side and movement kind (a covered piece counts as its point's kind).
    pub(crate) pieces: [[Bitboard; 7]; 2],
    pub(crate) covered: Bitboard,
    pub(crate) generals: [u8; 2],
    pub(crate) pools: [Pool; 2],
    pub(crate) turn: Side,
    pub(crate) variant: Variant,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
}

impl Position {
    /// An empty board (no generals): only a building block for validation.
    pub(crate) fn empty(variant: Variant, turn: Side) -> Position {
        Position {
            board: [0; 90],
            occ: [0; 2],
            rotated: 0,
            pieces: [[0; 7]; 2],
            covered: 0,
            generals: [255; 2],
            pools: [Pool::EMPTY; 2],
            turn,
            variant,
            halfmove: 0,
            fullmove: 1,
            hash: if turn == Side::Second {
                zobrist::BLACK_TO_MOVE
            } else {
                0
            },
        }
    }

    /// Puts an occupant on an empty point (building positions).
    pub(crate) fn put(&mut self, sq: usize, occupant: Occupant, kind: PieceKind) {
        let side = occupant.side();
        let code = cell_code(side, kind, occupant.is_covered());
        self.board[sq] = code;
        self.occ[side.index()] |= bit(sq);
        self.rotated |= ROTATED[sq];
        self.pieces[side.index()][kind.index()] |= bit(sq);
        if occupant.is_covered() {
            self.covered |= bit(sq);
        }
        if kind == PieceKind::General && !occupant.is_covered() {
            self.generals[side.index()] = sq as u8;
        }
        self.hash ^= zobrist::CELL[code as usize][sq];
    }

    /// What stands on `square`, if anything.
    pub fn occupant(&self, square: Square) -> Option<Occupant> {
        let code = self.board[square.index()];
        if code == 0 {
            return None;
        }
        let side = side_of(code_side(code));
        Some(if code & COVERED_BIT != 0 {
            Occupant::Covered(side)
        } else {
            Occupant::Piece(Piece::new(side, PieceKind::ALL[code_kind(code)]))
        })
    }

    /// The face-up piece on `square`, if any (a covered piece gives `None`).
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        self.occupant(square).and_then(Occupant::piece)
    }

    /// The kind the piece on `square` moves as (a covered piece: its point's kind).
    pub fn moves_as(&self, square: Square) -> Option<PieceKind> {
        let code = self.board[square.index()];
        (code != 0).then(|| PieceKind::ALL[code_kind(code)])
    }

    /// Every occupied point with its occupant, `a0` first.
    pub fn occupants(&self) -> impl Iterator<Item = (Square, Occupant)> + '_ {
        Square::all().filter_map(|sq| self.occupant(sq).map(|o| (sq, o)))
    }

    /// Where `side`'s general stands.
    pub fn general(&self, side: Side) -> Square {
        Square::from_index(self.generals[side.index()] as usize)
            .expect("a valid position has both generals")
    }

    /// Jieqi: `side`'s public pool (identities not yet revealed). Empty in Xiangqi.
    pub fn pool(&self, side: Side) -> Pool {
        self.pools[side.index()]
    }

    /// How many covered pieces `side` has on the board (always 0 in Xiangqi).
    pub fn covered_count(&self, side: Side) -> u32 {
        (self.covered & self.occ[side.index()]).count_ones()
    }

    /// Plies since the last capture (reveals do not reset it): the move-limit counter.
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The move number, from 1, increased after each Black move.
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// A 64-bit hash of the placement and side to move (not the clocks). Equal positions have
    /// equal hashes; compare with [`Position::same_placement`] before trusting a match.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether both positions have the same pieces (covered or not) on the same points, the
    /// same side to move and the same pools: "the same position" for repetition.
    pub fn same_placement(&self, other: &Position) -> bool {
        self.hash == other.hash
            && self.turn == other.turn
            && self.board == other.board
            && self.pools == other.pools
    }

    /// Whether `side` has a piece that could ever give check: a chariot, horse, cannon or
    /// soldier; in Jieqi also a revealed advisor or elephant (they roam freely there) and a
    /// covered piece while the side's pool still holds one of those kinds. Used for
    /// insufficient material and `timeout-vs-insufficient`.
    pub fn can_ever_check(&self, side: Side) -> bool {
        use PieceKind::*;
        let s = side.index();
        let revealed = self.occ[s] & !self.covered;
        let p = &self.pieces[s];
        let attackers =
            p[Horse.index()] | p[Chariot.index()] | p[Cannon.index()] | p[Soldier.index()];
        if attackers & revealed != 0 {
            return true;
        }
        if self.variant == Variant::Jieqi {
            if (p[Advisor.index()] | p[Elephant.index()]) & revealed != 0 {
                return true;
            }
            if self.covered & self.occ[s] != 0 && !self.pools[s].is_empty() {
                // A covered piece could turn out to be anything left in the pool; advisors
                // and elephants roam freely once revealed, so any identity can check.
                return true;
            }
        }
        false
    }

    pub(crate) fn is_jieqi(&self) -> bool {
        self.variant == Variant::Jieqi
    }
}
