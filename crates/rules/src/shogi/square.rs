//! Squares in USI coordinates (`7g`), shared by the 9×9 and 5×5 boards.

use std::fmt;

/// A square of a board up to 9×9. Files count 1–9 from **right to left** as sente sees the
/// board, ranks 1–9 (USI letters `a`–`i`) from **top to bottom**; Minishogi uses files and
/// ranks 1–5. The index is `(rank - 1) * 9 + (file - 1)`, so `1a` is 0 and `9i` is 80.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Squares on the largest (9×9) board.
    pub const COUNT: usize = 81;

    /// The square on `file` and `rank` (both 1-based, up to 9), if they are on a 9×9 board.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square((rank - 1) * 9 + (file - 1)))
        } else {
            None
        }
    }

    square_index_methods!();

    /// The file, 1 (sente's right) to 9.
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 % 9 + 1
    }

    /// The rank, 1 (top, USI `a`) to 9.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 / 9 + 1
    }

    /// Whether the square is on a `size`×`size` board (9 for Shogi, 5 for Minishogi).
    #[inline]
    pub const fn on_board(self, size: u8) -> bool {
        self.file() <= size && self.rank() <= size
    }

    /// The same square seen from the other side of a `size`×`size` board (rotated 180°).
    #[inline]
    pub const fn rotate(self, size: u8) -> Square {
        Square((size - self.rank()) * 9 + (size - self.file()))
    }

    /// Every square of a `size`×`size` board, `1a` first.
    pub fn all(size: u8) -> impl Iterator<Item = Square> {
        (0..Self::COUNT as u8)
            .map(Square)
            .filter(move |sq| sq.on_board(size))
    }
}

impl fmt::Display for Square {
    /// USI: file digit then rank letter, `7g`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank() - 1) as char)
    }
}

square_from_str!(
    /// A square name that is not `1a`…`9i`.
    message: "`{0}` is not a square: expected a file 1-9 and a rank a-i, like `7g`",
    b'1'..=b'9', b'a'..=b'i', |f, r| (r - b'a') * 9 + (f - b'1')
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::all(9) {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!(Square::all(5).count(), 25);
        let sq: Square = "7g".parse().unwrap();
        assert_eq!((sq.file(), sq.rank()), (7, 7));
        assert_eq!(
            "5e".parse::<Square>().unwrap().rotate(5),
            "1a".parse().unwrap()
        );
        assert_eq!(
            "1a".parse::<Square>().unwrap().rotate(9),
            "9i".parse().unwrap()
        );
        for bad in ["", "0a", "1j", "a1", "10a", "7G"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }
}
