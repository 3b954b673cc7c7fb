//! The two sides of a game.

use std::fmt;
use std::ops::Not;

/// One of the two players, named by seat rather than by who moves first.
///
/// `First` is the side whose win is written `1-0`: Red in the xiangqi family and sente (the
/// bottom player) in the shogi family, even in handicap games where gote moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// Red (xiangqi family) or sente (shogi family): the bottom of the board.
    First,
    /// Black (xiangqi family) or gote (shogi family): the top of the board.
    Second,
}

impl Side {
    /// Red, the xiangqi family's first side.
    pub const RED: Side = Side::First;
    /// Black, the xiangqi family's second side.
    pub const BLACK: Side = Side::Second;
    /// Sente (先手), the shogi family's bottom side.
    pub const SENTE: Side = Side::First;
    /// Gote (後手), the shogi family's top side.
    pub const GOTE: Side = Side::Second;
    /// Both sides, first one first.
    pub const BOTH: [Side; 2] = [Side::First, Side::Second];

    /// 0 for `First`, 1 for `Second`: an index into per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline]
    pub const fn other(self) -> Side {
        match self {
            Side::First => Side::Second,
            Side::Second => Side::First,
        }
    }
}

impl Not for Side {
    type Output = Side;
    #[inline]
    fn not(self) -> Side {
        self.other()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::First => "first",
            Side::Second => "second",
        })
    }
}
/// A piece of one side, of a family's piece kind `K`: [`xiangqi::Piece`](crate::xiangqi::Piece)
/// and [`shogi::Piece`](crate::shogi::Piece).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece<K> {
    /// Whose piece it is.
    pub side: Side,
    /// What it is.
    pub kind: K,
}

impl<K> Piece<K> {
    /// A piece of `side` and `kind`.
    pub const fn new(side: Side, kind: K) -> Piece<K> {
        Piece { side, kind }
    }
}
