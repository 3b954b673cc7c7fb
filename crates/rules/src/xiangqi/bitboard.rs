//! Bitboards over the 90 points and the precomputed geometry the move generator reads.
//!
//! A [`Bitboard`] is a `u128` whose bit `rank * 9 + file` stands for that point (the
//! [`Square`](super::Square) index). Sliding pieces (chariot, cannon) look their targets up in
//! rank and file occupancy tables; the leapers (general, advisor, elephant, horse, soldier)
//! read per-point tables that already encode the palace, the river, horse legs and elephant
//! eyes. Everything is built at compile time: no allocation and no lazy initialisation.

/// A set of points: bit `rank * 9 + file`.
pub(crate) type Bitboard = u128;

/// The one-point set of `sq` (an index in `0..90`).
#[inline(always)]
pub(crate) const fn bit(sq: usize) -> Bitboard {
    1u128 << sq
}

pub(crate) use crate::bits::Bits;

const fn sq_of(file: i32, rank: i32) -> i32 {
    if file < 0 || file > 8 || rank < 0 || rank > 9 {
        -1
    } else {
        rank * 9 + file
    }
}

/// Whether `sq` is in the palace of side `side` (0 = Red, 1 = Black).
pub(crate) const fn in_palace(side: usize, sq: usize) -> bool {
    let file = sq % 9;
    let rank = sq / 9;
    let rel = if side == 0 { rank } else { 9 - rank };
    file >= 3 && file <= 5 && rel <= 2
}

/// Whether `sq` is on side `side`'s half of the river.
pub(crate) const fn on_own_half(side: usize, sq: usize) -> bool {
    let rank = sq / 9;
    if side == 0 { rank <= 4 } else { rank >= 5 }
}

const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// General steps: one point orthogonally inside its own palace, per side.
pub(crate) static GENERAL_STEPS: [[Bitboard; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut side = 0;
    while side < 2 {
        let mut sq = 0;
        while sq < 90 {
            let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
            let mut d = 0;
            while d < 4 {
                let to = sq_of(f + ORTHO[d].0, r + ORTHO[d].1);
                if to >= 0 && in_palace(side, to as usize) {
                    t[side][sq] |= bit(to as usize);
                }
                d += 1;
            }
            sq += 1;
        }
        side += 1;
    }
    t
};

/// Advisor steps confined to side's palace (Xiangqi advisors, covered Jieqi advisors).
pub(crate) static ADVISOR_PALACE: [[Bitboard; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut side = 0;
    while side < 2 {
        let mut sq = 0;
        while sq < 90 {
            let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
            let mut d = 0;
            while d < 4 {
                let to = sq_of(f + DIAG[d].0, r + DIAG[d].1);
                if to >= 0 && in_palace(side, to as usize) && in_palace(side, sq) {
                    t[side][sq] |= bit(to as usize);
                }
                d += 1;
            }
            sq += 1;
        }
        side += 1;
    }
    t
};

/// One diagonal step anywhere (revealed Jieqi advisors), also "which points an advisor
/// attacks this point from" since the step is symmetric.
pub(crate) static DIAGONAL_STEPS: [Bitboard; 90] = {
    let mut t = [0u128; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let to = sq_of(f + DIAG[d].0, r + DIAG[d].1);
            if to >= 0 {
                t[sq] |= bit(to as usize);
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// A leap with the point that must be empty for it: `(target, block)`, or `NONE`.
#[derive(Clone, Copy)]
pub(crate) struct Leap {
    pub(crate) to: u8,
    pub(crate) block: u8,
}

/// No leap in this direction (off the board).
pub(crate) const NO_LEAP: Leap = Leap {
    to: 255,
    block: 255,
};

/// Elephant leaps (two points diagonally) with their eyes, ignoring the river.
pub(crate) static ELEPHANT_LEAPS: [[Leap; 4]; 90] = {
    let mut t = [[NO_LEAP; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let to = sq_of(f + 2 * DIAG[d].0, r + 2 * DIAG[d].1);
            if to >= 0 {
                let eye = sq_of(f + DIAG[d].0, r + DIAG[d].1);
                t[sq][d] = Leap {
                    to: to as u8,
                    block: eye as u8,
                };
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// For each point and each orthogonal leg direction: the leg point and the (up to two) horse
/// targets through it.
pub(crate) static HORSE_LEGS: [[(u8, Bitboard); 4]; 90] = {
    let mut t = [[(255u8, 0u128); 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ORTHO[d];
            let leg = sq_of(f + df, r + dr);
            if leg >= 0 {
                let mut targets = 0u128;
                // Straight on one more point, then one to either side.
                let (a, b) = if df != 0 {
                    (sq_of(f + 2 * df, r + 1), sq_of(f + 2 * df, r - 1))
                } else {
                    (sq_of(f + 1, r + 2 * dr), sq_of(f - 1, r + 2 * dr))
                };
                if a >= 0 {
                    targets |= bit(a as usize);
                }
                if b >= 0 {
                    targets |= bit(b as usize);
                }
                t[sq][d] = (leg as u8, targets);
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// For each point and each diagonal neighbour (which is the leg of a horse attacking the
/// point through it): the neighbour and the (up to two) points a horse attacks from that way.
pub(crate) static HORSE_ATTACKERS: [[(u8, Bitboard); 4]; 90] = {
    let mut t = [[(255u8, 0u128); 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAG[d];
            let leg = sq_of(f + df, r + dr);
            if leg >= 0 {
                let mut from = 0u128;
                // Horses at (2df, dr) and (df, 2dr) have their leg at (df, dr) from here.
                let a = sq_of(f + 2 * df, r + dr);
                let b = sq_of(f + df, r + 2 * dr);
                if a >= 0 {
                    from |= bit(a as usize);
                }
                if b >= 0 {
                    from |= bit(b as usize);
                }
                t[sq][d] = (leg as u8, from);
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// Soldier steps per side: forward, and sideways once across the river.
pub(crate) static SOLDIER_STEPS: [[Bitboard; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut side = 0;
    while side < 2 {
        let forward: i32 = if side == 0 { 1 } else { -1 };
        let mut sq = 0;
        while sq < 90 {
            let (f, r) = ((sq % 9) as i32, (sq / 9) as i32);
            let ahead = sq_of(f, r + forward);
            if ahead >= 0 {
                t[side][sq] |= bit(ahead as usize);
            }
            if !on_own_half(side, sq) {
                let left = sq_of(f - 1, r);
                let right = sq_of(f + 1, r);
                if left >= 0 {
                    t[side][sq] |= bit(left as usize);
                }
                if right >= 0 {
                    t[side][sq] |= bit(right as usize);
                }
            }
            sq += 1;
        }
        side += 1;
    }
    t
};

/// Points from which a soldier of `side` attacks the point: the inverse of [`SOLDIER_STEPS`].
pub(crate) static SOLDIER_ATTACKERS: [[Bitboard; 90]; 2] = {
    let mut t = [[0u128; 90]; 2];
    let mut side = 0;
    while side < 2 {
        let mut from = 0;
        while from < 90 {
            let mut targets = SOLDIER_STEPS[side][from];
            while targets != 0 {
                let to = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                t[side][to] |= bit(from);
            }
            from += 1;
        }
        side += 1;
    }
    t
};

/// The four orthogonal rays from each point to the board's edge (excluding the point).
pub(crate) static RAYS: [[Bitboard; 4]; 90] = {
    let mut t = [[0u128; 4]; 90];
    let mut sq = 0;
    while sq < 90 {
        let mut d = 0;
        while d < 4 {
            let (mut f, mut r) = ((sq % 9) as i32, (sq / 9) as i32);
            loop {
                f += ORTHO[d].0;
                r += ORTHO[d].1;
                let to = sq_of(f, r);
                if to < 0 {
                    break;
                }
                t[sq][d] |= bit(to as usize);
            }
            d += 1;
        }
        sq += 1;
    }
    t
};

/// Slider targets along a line of `len` points from position `pos`, given the line's
/// occupancy: `(slide, cannon)` where `slide` holds the empty points plus the first blocker in
/// each direction and `cannon` the second blocker (the cannon's capture) in each direction.
const fn line_attacks(len: usize, pos: usize, occ: usize) -> (u16, u16) {
    let mut slide = 0u16;
    let mut cannon = 0u16;
    let mut dir = 0;
    while dir < 2 {
        let mut i = pos as i32;
        let mut screens = 0;
        loop {
            i += if dir == 0 { 1 } else { -1 };
            if i < 0 || i >= len as i32 {
                break;
            }
            let occupied = occ & (1 << i) != 0;
            if screens == 0 {
                slide |= 1 << i;
                if occupied {
                    screens = 1;
                }
            } else if occupied {
                cannon |= 1 << i;
                break;
            }
        }
        dir += 1;
    }
    (slide, cannon)
}

/// `[file][rank occupancy]` → (slide, cannon) masks over the 9 files of a rank.
static RANK_ATTACKS: [[(u16, u16); 512]; 9] = {
    let mut t = [[(0u16, 0u16); 512]; 9];
    let mut f = 0;
    while f < 9 {
        let mut occ = 0;
        while occ < 512 {
            t[f][occ] = line_attacks(9, f, occ);
            occ += 1;
        }
        f += 1;
    }
    t
};

/// `[rank][file occupancy]` → (slide, cannon) masks over the 10 ranks of a file.
static FILE_ATTACKS: [[(u16, u16); 1024]; 10] = {
    let mut t = [[(0u16, 0u16); 1024]; 10];
    let mut r = 0;
    while r < 10 {
        let mut occ = 0;
        while occ < 1024 {
            t[r][occ] = line_attacks(10, r, occ);
            occ += 1;
        }
        r += 1;
    }
    t
};

/// A 10-bit rank mask of file a spread onto the board (bit r → point r * 9).
static FILE_SPREAD: [Bitboard; 1024] = {
    let mut t = [0u128; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut r = 0;
        while r < 10 {
            if m & (1 << r) != 0 {
                t[m] |= bit(r * 9);
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// The bit of a point in the file-major ("rotated") occupancy: `file * 10 + rank`.
pub(crate) static ROTATED: [Bitboard; 90] = {
    let mut t = [0u128; 90];
    let mut sq = 0;
    while sq < 90 {
        t[sq] = bit((sq % 9) * 10 + sq / 9);
        sq += 1;
    }
    t
};

/// Chariot targets (`slide`) and cannon capture targets (`cannon`) from `sq`, given the
/// occupancy in both layouts. Both include occupied points of either side; the caller masks.
#[inline(always)]
pub(crate) fn slider_attacks(sq: usize, occ: Bitboard, rotated: Bitboard) -> (Bitboard, Bitboard) {
    let file = sq % 9;
    let rank = sq / 9;
    let rank_occ = ((occ >> (rank * 9)) & 0x1FF) as usize;
    let (rs, rc) = RANK_ATTACKS[file][rank_occ];
    let file_occ = ((rotated >> (file * 10)) & 0x3FF) as usize;
    let (fs, fc) = FILE_ATTACKS[rank][file_occ];
    let slide = ((rs as u128) << (rank * 9)) | (FILE_SPREAD[fs as usize] << file);
    let cannon = ((rc as u128) << (rank * 9)) | (FILE_SPREAD[fc as usize] << file);
    (slide, cannon)
}

/// 64-bit keys for position hashing, built by SplitMix64 from fixed seeds.
pub(crate) mod zobrist {
    const fn splitmix(mut x: u64) -> u64 {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// `[cell code][point]`: cell codes are below 32.
    pub(crate) static CELL: [[u64; 90]; 32] = {
        let mut t = [[0u64; 90]; 32];
        let mut c = 0;
        while c < 32 {
            let mut sq = 0;
            while sq < 90 {
                t[c][sq] = splitmix((c * 90 + sq) as u64 * 7919 + 1);
                sq += 1;
            }
            c += 1;
        }
        t
    };

    /// XORed in when Black is to move.
    pub(crate) const BLACK_TO_MOVE: u64 = splitmix(0xB1AC_0000_0000_0001);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> usize {
        name.parse::<super::super::Square>().unwrap().index()
    }

    #[test]
    fn slider_tables_match_a_walk() {
        // Chariot on e4 with pieces on e7, e8, b4 and the empty rest.
        let occ = bit(sq("e7")) | bit(sq("e8")) | bit(sq("b4"));
        let rot = ROTATED[sq("e7")] | ROTATED[sq("e8")] | ROTATED[sq("b4")];
        let (slide, cannon) = slider_attacks(sq("e4"), occ, rot);
        let expect_slide = ["e5", "e6", "e7", "e3", "e2", "e1", "e0", "d4", "c4", "b4"]
            .iter()
            .chain(["f4", "g4", "h4", "i4"].iter())
            .fold(0u128, |b, s| b | bit(sq(s)));
        assert_eq!(slide, expect_slide);
        assert_eq!(cannon, bit(sq("e8")));
    }

    #[test]
    fn horse_legs_and_attackers_are_inverse() {
        for (from, legs) in HORSE_LEGS.iter().enumerate() {
            for &(leg, targets) in legs {
                for to in Bits(targets) {
                    let found = HORSE_ATTACKERS[to]
                        .iter()
                        .any(|&(l, froms)| l == leg && froms & bit(from) != 0);
                    assert!(found, "horse {from}->{to} via {leg}");
                }
            }
        }
    }
}
