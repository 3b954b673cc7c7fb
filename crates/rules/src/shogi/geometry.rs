//! What distinguishes Shogi from Minishogi to the move generator: the board size, the
//! promotion zones, the ranks where pieces must promote, and the piece set. One generator runs
//! both variants with these values.

use super::tables::{Bitboard, rank_mask};
use crate::Variant;

/// Board parameters of one shogi-family variant.
pub(crate) struct Geometry {
    /// Files and ranks: 9 or 5.
    pub(crate) size: u8,
    /// Every square of the board.
    pub(crate) board: Bitboard,
    /// The promotion zone of each side (sente: the top ranks).
    pub(crate) zone: [Bitboard; 2],
    /// Each side's last rank: pawns and lances must promote there and may not be dropped there.
    pub(crate) last_rank: [Bitboard; 2],
    /// Each side's last two ranks: the same for knights.
    pub(crate) last_two_ranks: [Bitboard; 2],
    /// How many pieces of each base kind (pawn … king, by [`super::PieceKind::index`]) the set
    /// holds for both sides together.
    pub(crate) set: [u8; 8],
}

const fn ranks(from: u8, to: u8, size: u8) -> Bitboard {
    let mut m = 0;
    let mut r = from;
    while r <= to {
        m |= rank_mask(r, size);
        r += 1;
    }
    m
}

impl Geometry {
    /// A `size`×`size` board whose promotion zones are `zone_depth` ranks deep, with the
    /// piece `set`; the last one and two ranks of each side follow from the size.
    const fn new(size: u8, zone_depth: u8, set: [u8; 8]) -> Geometry {
        Geometry {
            size,
            board: ranks(1, size, size),
            zone: [
                ranks(1, zone_depth, size),
                ranks(size + 1 - zone_depth, size, size),
            ],
            last_rank: [ranks(1, 1, size), ranks(size, size, size)],
            last_two_ranks: [ranks(1, 2, size), ranks(size - 1, size, size)],
            set,
        }
    }
}

static SHOGI: Geometry = Geometry::new(9, 3, [18, 4, 4, 4, 4, 2, 2, 2]);

/// Minishogi: the zone is the last rank only (shogi.md, Minishogi differences).
static MINISHOGI: Geometry = Geometry::new(5, 1, [2, 0, 0, 2, 2, 2, 2, 2]);

/// The geometry of a shogi-family variant (Minishogi for `Minishogi`, Shogi otherwise).
pub(crate) fn geometry(variant: Variant) -> &'static Geometry {
    match variant {
        Variant::Minishogi => &MINISHOGI,
        _ => &SHOGI,
    }
}
