//! Iterating the set bits of a 128-bit board: both families keep their boards in a `u128`
//! (xiangqi 90 points, shogi 81 squares), indexed the same way, lowest bit first.

/// Iterates over the set bits of a `u128` board, lowest index first.
#[derive(Clone, Copy)]
pub(crate) struct Bits(pub(crate) u128);

impl Iterator for Bits {
    type Item = usize;
    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(i)
        }
    }
}

/// The index methods of a family's `Square(u8)`, whose index (`0..Square::COUNT`) is the bit
/// of the square in the family's `u128` boards: written once for both families, inside their
/// `impl Square`.
macro_rules! square_index_methods {
    () => {
        /// The square with this index, if below [`Square::COUNT`].
        #[inline]
        pub const fn from_index(index: usize) -> Option<Square> {
            if index < Self::COUNT {
                Some(Square(index as u8))
            } else {
                None
            }
        }

        /// The square's index, in `0..`[`Square::COUNT`]: its bit in the family's boards.
        #[inline]
        pub const fn index(self) -> usize {
            self.0 as usize
        }
    };
}

/// `ParseSquareError` (its message `$message`) and `FromStr` for a family's `Square(u8)` from
/// two ASCII bytes, the file then the rank: `$file` and `$rank` are their byte patterns,
/// `$index` the index they give (bound to `f`, `r`).
macro_rules! square_from_str {
    ($(#[$doc:meta])* message: $message:tt, $file:pat, $rank:pat, |$f:ident, $r:ident| $index:expr) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
        #[error($message)]
        pub struct ParseSquareError(pub String);

        impl std::str::FromStr for Square {
            type Err = ParseSquareError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s.as_bytes() {
                    &[$f @ $file, $r @ $rank] => Ok(Square($index)),
                    _ => Err(ParseSquareError(s.to_owned())),
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::Bits;

    #[test]
    fn yields_set_bits_lowest_first() {
        assert_eq!(Bits(0).count(), 0);
        let board = 1u128 | 1 << 9 | 1 << 89 | 1 << 127;
        assert_eq!(Bits(board).collect::<Vec<_>>(), vec![0, 9, 89, 127]);
    }
}
