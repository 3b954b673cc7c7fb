//! Bitboards and precomputed attack tables for the shogi family.
//!
//! Layout: a bitboard is a `u128` whose bit `i` is the square with index `i` =
//! `(rank - 1) * 9 + (file - 1)` (see [`super::Square`]), so `1a` is bit 0 and `9i` bit 80.
//! Minishogi uses the same index space restricted to files and ranks 1–5: every table here is
//! built for 9×9 and masked with the variant's board. That is exact for sliders too, because a
//! ray that leaves the 5×5 board never comes back onto it and off-board squares are always
//! empty.
//!
//! Sliding attacks use ray tables: along a ray of increasing index the first blocker is the
//! lowest set bit, along a ray of decreasing index the highest one; both are branch-free.
//! Every table is computed at compile time.

/// A set of squares, bit `i` = square index `i`.
pub(crate) type Bitboard = u128;

/// Side index of sente / gote in per-side tables.
const SENTE: usize = 0;

/// The eight directions as (file delta, rank delta). Sente's forward is rank delta −1.
const DIRECTIONS: [(i32, i32); 8] = [
    (0, -1),  // 0 north (towards rank a): index −9
    (0, 1),   // 1 south: +9
    (-1, 0),  // 2 towards file 1: −1
    (1, 0),   // 3 towards file 9: +1
    (-1, -1), // 4: −10
    (1, 1),   // 5: +10
    (1, -1),  // 6: −8
    (-1, 1),  // 7: +8
];

const NORTH: usize = 0;
const SOUTH: usize = 1;
const WEST: usize = 2; // towards file 1 (decreasing index)
const EAST: usize = 3; // towards file 9 (increasing index)
const NW: usize = 4; // towards rank a and file 1
const SE: usize = 5;
const NE: usize = 6;
const SW: usize = 7;

const fn offset(sq: usize, df: i32, dr: i32) -> Option<usize> {
    let f = (sq % 9) as i32 + df;
    let r = (sq / 9) as i32 + dr;
    if f < 0 || f > 8 || r < 0 || r > 8 {
        None
    } else {
        Some((r * 9 + f) as usize)
    }
}

/// Step patterns for sente; gote's are the same with the rank delta negated.
const PAWN_STEPS: &[(i32, i32)] = &[(0, -1)];
const KNIGHT_STEPS: &[(i32, i32)] = &[(-1, -2), (1, -2)];
const SILVER_STEPS: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 1), (1, 1)];
const GOLD_STEPS: &[(i32, i32)] = &[(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (0, 1)];
const KING_STEPS: &[(i32, i32)] = &[
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

const fn step_table(steps: &[(i32, i32)]) -> [[Bitboard; 81]; 2] {
    let mut t = [[0; 81]; 2];
    let mut side = 0;
    while side < 2 {
        let mut sq = 0;
        while sq < 81 {
            let mut i = 0;
            while i < steps.len() {
                let (df, dr) = steps[i];
                let dr = if side == SENTE { dr } else { -dr };
                if let Some(to) = offset(sq, df, dr) {
                    t[side][sq] |= 1 << to;
                }
                i += 1;
            }
            sq += 1;
        }
        side += 1;
    }
    t
}

const fn ray_table() -> [[Bitboard; 81]; 8] {
    let mut t = [[0; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRECTIONS[d];
        let mut sq = 0;
        while sq < 81 {
            let mut cur = sq;
            while let Some(next) = offset(cur, df, dr) {
                t[d][sq] |= 1 << next;
                cur = next;
            }
            sq += 1;
        }
        d += 1;
    }
    t
}

/// Squares strictly between two aligned squares, and the whole line through them.
const fn line_tables() -> ([[Bitboard; 81]; 81], [[Bitboard; 81]; 81]) {
    let rays = ray_table();
    let mut between = [[0; 81]; 81];
    let mut line = [[0; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = DIRECTIONS[d];
            let opposite = d ^ 1; // directions come in opposite pairs
            let full = rays[d][a] | rays[opposite][a] | (1 << a);
            let mut acc: Bitboard = 0;
            let mut cur = a;
            while let Some(next) = offset(cur, df, dr) {
                between[a][next] = acc;
                line[a][next] = full;
                acc |= 1 << next;
                cur = next;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

pub(crate) static PAWN: [[Bitboard; 81]; 2] = step_table(PAWN_STEPS);
pub(crate) static KNIGHT: [[Bitboard; 81]; 2] = step_table(KNIGHT_STEPS);
pub(crate) static SILVER: [[Bitboard; 81]; 2] = step_table(SILVER_STEPS);
pub(crate) static GOLD: [[Bitboard; 81]; 2] = step_table(GOLD_STEPS);
static KING_BOTH: [[Bitboard; 81]; 2] = step_table(KING_STEPS);
pub(crate) static KING: [Bitboard; 81] = KING_BOTH[0];
static RAYS: [[Bitboard; 81]; 8] = ray_table();
static LINES: ([[Bitboard; 81]; 81], [[Bitboard; 81]; 81]) = line_tables();

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal, else empty.
#[inline]
pub(crate) fn between(a: usize, b: usize) -> Bitboard {
    LINES.0[a][b]
}

/// The whole line (edge to edge) through aligned `a` and `b`, else empty.
#[inline]
pub(crate) fn line(a: usize, b: usize) -> Bitboard {
    LINES.1[a][b]
}

/// Ray towards increasing indices: stops at (and includes) the first blocker.
#[inline(always)]
fn ray_up(dir: usize, sq: usize, occ: Bitboard) -> Bitboard {
    let ray = RAYS[dir][sq];
    let blockers = occ & ray;
    ray & (blockers ^ blockers.wrapping_sub(1))
}

/// Ray towards decreasing indices: stops at (and includes) the first blocker.
#[inline(always)]
fn ray_down(dir: usize, sq: usize, occ: Bitboard) -> Bitboard {
    let ray = RAYS[dir][sq];
    // Bit 0 as a sentinel: with no blocker the whole ray is kept.
    let blockers = (occ & ray) | 1;
    let highest = 127 - blockers.leading_zeros();
    ray & (u128::MAX << highest)
}

/// Rook attacks from `sq` with occupancy `occ`.
#[inline]
pub(crate) fn rook_attacks(sq: usize, occ: Bitboard) -> Bitboard {
    ray_down(NORTH, sq, occ)
        | ray_up(SOUTH, sq, occ)
        | ray_down(WEST, sq, occ)
        | ray_up(EAST, sq, occ)
}

/// Bishop attacks from `sq` with occupancy `occ`.
#[inline]
pub(crate) fn bishop_attacks(sq: usize, occ: Bitboard) -> Bitboard {
    ray_down(NW, sq, occ) | ray_down(NE, sq, occ) | ray_up(SW, sq, occ) | ray_up(SE, sq, occ)
}

/// Attacks of a lance of `side` (0 sente, 1 gote) from `sq`.
#[inline]
pub(crate) fn lance_attacks(side: usize, sq: usize, occ: Bitboard) -> Bitboard {
    if side == SENTE {
        ray_down(NORTH, sq, occ)
    } else {
        ray_up(SOUTH, sq, occ)
    }
}

const fn pseudo_table(dirs: [usize; 4]) -> [Bitboard; 81] {
    let rays = ray_table();
    let mut t = [0; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut i = 0;
        while i < 4 {
            t[sq] |= rays[dirs[i]][sq];
            i += 1;
        }
        sq += 1;
    }
    t
}

static ROOK_PSEUDO: [Bitboard; 81] = pseudo_table([NORTH, SOUTH, WEST, EAST]);
static BISHOP_PSEUDO: [Bitboard; 81] = pseudo_table([NW, NE, SW, SE]);

/// Rook moves on an empty board.
#[inline(always)]
pub(crate) fn rook_pseudo(sq: usize) -> Bitboard {
    ROOK_PSEUDO[sq]
}

/// Bishop moves on an empty board.
#[inline(always)]
pub(crate) fn bishop_pseudo(sq: usize) -> Bitboard {
    BISHOP_PSEUDO[sq]
}

/// Lance moves of `side` on an empty board.
#[inline]
pub(crate) fn lance_pseudo(side: usize, sq: usize) -> Bitboard {
    if side == SENTE {
        RAYS[NORTH][sq]
    } else {
        RAYS[SOUTH][sq]
    }
}

/// The squares of file `file` (1–9).
pub(crate) const fn file_mask(file: u8) -> Bitboard {
    let mut m = 0;
    let mut r = 0;
    while r < 9 {
        m |= 1 << (r * 9 + (file as usize - 1));
        r += 1;
    }
    m
}

const fn file_masks() -> [Bitboard; 9] {
    let mut t = [0; 9];
    let mut f = 0;
    while f < 9 {
        t[f] = file_mask(f as u8 + 1);
        f += 1;
    }
    t
}

/// The squares of each file, by `file - 1`.
pub(crate) static FILES: [Bitboard; 9] = file_masks();

/// The squares of rank `rank` (1–9) on files 1..=size.
pub(crate) const fn rank_mask(rank: u8, size: u8) -> Bitboard {
    let mut m = 0;
    let mut f = 0;
    while f < size as usize {
        m |= 1 << ((rank as usize - 1) * 9 + f);
        f += 1;
    }
    m
}

pub(crate) use crate::bits::Bits;

/// SplitMix64, for compile-time Zobrist keys.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Zobrist keys: `[side][kind][square]` for pieces, `[side][hand kind]` per piece in hand
/// (added once per held piece), and the key of gote to move.
pub(crate) struct Zobrist {
    pub(crate) piece: [[[u64; 81]; 14]; 2],
    pub(crate) hand: [[u64; 7]; 2],
    pub(crate) gote: u64,
}

const fn zobrist() -> Zobrist {
    let mut z = Zobrist {
        piece: [[[0; 81]; 14]; 2],
        hand: [[0; 7]; 2],
        gote: 0,
    };
    let mut state = 0x6A69_616E_6773_686F; // "jiangsho"
    let mut s = 0;
    while s < 2 {
        let mut k = 0;
        while k < 14 {
            let mut sq = 0;
            while sq < 81 {
                let (ns, v) = splitmix(state);
                state = ns;
                z.piece[s][k][sq] = v;
                sq += 1;
            }
            k += 1;
        }
        let mut h = 0;
        while h < 7 {
            let (ns, v) = splitmix(state);
            state = ns;
            z.hand[s][h] = v;
            h += 1;
        }
        s += 1;
    }
    let (_, v) = splitmix(state);
    z.gote = v;
    z
}

pub(crate) static ZOBRIST: Zobrist = zobrist();

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> usize {
        name.parse::<crate::shogi::Square>().unwrap().index()
    }

    #[test]
    fn sliders_stop_at_blockers() {
        let occ = (1u128 << sq("7e")) | (1u128 << sq("5g"));
        let att = rook_attacks(sq("7g"), occ);
        assert!(att & (1 << sq("7e")) != 0);
        assert!(att & (1 << sq("7d")) == 0);
        assert!(att & (1 << sq("5g")) != 0 && att & (1 << sq("4g")) == 0);
        assert!(att & (1 << sq("9g")) != 0 && att & (1 << sq("7i")) != 0);
        assert_eq!(att.count_ones(), 2 + 2 + 2 + 2);
        let b = bishop_attacks(sq("5e"), 0);
        assert_eq!(b.count_ones(), 16);
        assert_eq!(lance_attacks(0, sq("1i"), 0).count_ones(), 8);
        assert_eq!(lance_attacks(1, sq("1i"), 0), 0);
        assert_eq!(between(sq("1a"), sq("9i")).count_ones(), 7);
        assert_eq!(between(sq("1a"), sq("2c")), 0);
        assert_eq!(line(sq("5e"), sq("5a")), file_mask(5));
    }
}
