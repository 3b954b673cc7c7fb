//! Points of the 9×10 board in ICCS coordinates.

use std::fmt;

use crate::Side;

/// One of the 90 intersections. Files `a`–`i` run from Red's left to right, ranks `0`–`9`
/// from Red's side; the index is `rank * 9 + file`, so `a0` is 0 and `i9` is 89.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of points on the board.
    pub const COUNT: usize = 90;
    /// Files on the board.
    pub const FILES: u8 = 9;
    /// Ranks on the board.
    pub const RANKS: u8 = 10;

    /// The point on `file` (0 = a) and `rank` (0 = Red's back rank), if on the board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file < Self::FILES && rank < Self::RANKS {
            Some(Square(rank * Self::FILES + file))
        } else {
            None
        }
    }

    square_index_methods!();

    /// The file, 0 (a) to 8 (i).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % Self::FILES
    }

    /// The rank, 0 (Red's back rank) to 9 (Black's back rank).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / Self::FILES
    }

    /// The same point seen from the other side of the board (rotated 180°).
    #[inline]
    pub const fn rotate(self) -> Square {
        Square(Self::COUNT as u8 - 1 - self.0)
    }

    /// The rank counted from `side`'s own back rank (0) towards the enemy (9).
    #[inline]
    pub const fn relative_rank(self, side: Side) -> u8 {
        match side {
            Side::First => self.rank(),
            Side::Second => Self::RANKS - 1 - self.rank(),
        }
    }

    /// Whether the point is on `side`'s half of the river (ranks 0–4 for Red, 5–9 for Black).
    #[inline]
    pub const fn on_own_half(self, side: Side) -> bool {
        self.relative_rank(side) < 5
    }

    /// Whether the point lies in `side`'s palace (files d–f, its three back ranks).
    #[inline]
    pub const fn in_palace(self, side: Side) -> bool {
        let file = self.file();
        file >= 3 && file <= 5 && self.relative_rank(side) <= 2
    }

    /// Every point, `a0` first.
    pub fn all() -> impl DoubleEndedIterator<Item = Square> + ExactSizeIterator {
        (0..Self::COUNT as u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

square_from_str!(
    /// A square name that is not `a0`…`i9`.
    message: "`{0}` is not a point: expected a file a-i and a rank 0-9, like `e0`",
    b'a'..=b'i', b'0'..=b'9', |f, r| (r - b'0') * 9 + (f - b'a')
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("e0".parse::<Square>().unwrap().index(), 4);
        assert_eq!("i9".parse::<Square>().unwrap().index(), 89);
        for bad in ["", "j0", "a10", "e", "E0", "a-1", "é0"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn palaces_and_river() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert!(sq("d0").in_palace(Side::RED) && sq("f2").in_palace(Side::RED));
        assert!(!sq("c0").in_palace(Side::RED) && !sq("e3").in_palace(Side::RED));
        assert!(sq("e9").in_palace(Side::BLACK) && sq("d7").in_palace(Side::BLACK));
        assert!(sq("a4").on_own_half(Side::RED) && !sq("a5").on_own_half(Side::RED));
        assert!(sq("a5").on_own_half(Side::BLACK));
        assert_eq!(sq("a0").rotate(), sq("i9"));
    }
}
