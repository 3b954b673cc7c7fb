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
