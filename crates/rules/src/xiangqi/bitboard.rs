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

/// `[entry(0), entry(1), …, entry(len - 1)]`, built at compile time: `table![fill; len, |i|
/// entry]` (const code cannot call closures, hence a macro; `fill` only gives the array its
/// type, as every entry is overwritten).
macro_rules! table {
    ($fill:expr; $len:expr, |$i:ident| $entry:expr) => {{
        let mut t = [$fill; $len];
        let mut $i = 0;
        while $i < $len {
            t[$i] = $entry;
            $i += 1;
        }
        t
    }};
}

/// The file and rank of point `sq`.
const fn file_rank(sq: usize) -> (i32, i32) {
    ((sq % 9) as i32, (sq / 9) as i32)
}

/// The set of the points among `points` that are on the board (`sq_of` gives -1 for the
/// others).
const fn on_board(points: &[i32]) -> Bitboard {
    let mut set = 0;
    let mut i = 0;
    while i < points.len() {
        if points[i] >= 0 {
            set |= bit(points[i] as usize);
        }
        i += 1;
    }
    set
}

/// The points one step from `sq` in each of the directions `dirs`.
const fn steps(sq: usize, dirs: &[(i32, i32); 4]) -> Bitboard {
    let (f, r) = file_rank(sq);
    let mut set = 0;
    let mut d = 0;
    while d < 4 {
        set |= on_board(&[sq_of(f + dirs[d].0, r + dirs[d].1)]);
        d += 1;
    }
    set
}

/// The palace of side `side`.
const fn palace(side: usize) -> Bitboard {
    let mut set = 0;
    let mut sq = 0;
    while sq < 90 {
        if in_palace(side, sq) {
            set |= bit(sq);
        }
        sq += 1;
    }
    set
}

/// General steps: one point orthogonally inside its own palace, per side.
pub(crate) static GENERAL_STEPS: [[Bitboard; 90]; 2] =
    table![[0; 90]; 2, |side| table![0; 90, |sq| steps(sq, &ORTHO) & palace(side)]];

/// An advisor of `side` on `sq`: one diagonal step, inside its palace only.
const fn advisor_steps(side: usize, sq: usize) -> Bitboard {
    if in_palace(side, sq) {
        steps(sq, &DIAG) & palace(side)
    } else {
        0
    }
}

/// Advisor steps confined to side's palace (Xiangqi advisors, covered Jieqi advisors).
pub(crate) static ADVISOR_PALACE: [[Bitboard; 90]; 2] =
    table![[0; 90]; 2, |side| table![0; 90, |sq| advisor_steps(side, sq)]];

/// One diagonal step anywhere (revealed Jieqi advisors), also "which points an advisor
/// attacks this point from" since the step is symmetric.
pub(crate) static DIAGONAL_STEPS: [Bitboard; 90] = table![0; 90, |sq| steps(sq, &DIAG)];

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

/// The elephant leap from `sq` two points along the diagonal `(df, dr)`, with its eye.
const fn elephant_leap(sq: usize, (df, dr): (i32, i32)) -> Leap {
    let (f, r) = file_rank(sq);
    let to = sq_of(f + 2 * df, r + 2 * dr);
    if to < 0 {
        return NO_LEAP;
    }
    let eye = sq_of(f + df, r + dr);
    Leap {
        to: to as u8,
        block: eye as u8,
    }
}

/// Elephant leaps (two points diagonally) with their eyes, ignoring the river.
pub(crate) static ELEPHANT_LEAPS: [[Leap; 4]; 90] =
    table![[NO_LEAP; 4]; 90, |sq| table![NO_LEAP; 4, |d| elephant_leap(sq, DIAG[d])]];

/// No horse leg in this direction (off the board).
const NO_LEG: (u8, Bitboard) = (255, 0);

/// From `sq`, the orthogonal leg `(df, dr)` and the (up to two) horse targets through it:
/// straight on one more point, then one to either side.
const fn horse_leg(sq: usize, (df, dr): (i32, i32)) -> (u8, Bitboard) {
    let (f, r) = file_rank(sq);
    let leg = sq_of(f + df, r + dr);
    if leg < 0 {
        return NO_LEG;
    }
    let targets = if df != 0 {
        on_board(&[sq_of(f + 2 * df, r + 1), sq_of(f + 2 * df, r - 1)])
    } else {
        on_board(&[sq_of(f + 1, r + 2 * dr), sq_of(f - 1, r + 2 * dr)])
    };
    (leg as u8, targets)
}

/// For each point and each orthogonal leg direction: the leg point and the (up to two) horse
/// targets through it.
pub(crate) static HORSE_LEGS: [[(u8, Bitboard); 4]; 90] =
    table![[NO_LEG; 4]; 90, |sq| table![NO_LEG; 4, |d| horse_leg(sq, ORTHO[d])]];

/// The diagonal neighbour `(df, dr)` of `sq` and the (up to two) points a horse attacks `sq`
/// from with its leg there: horses at `(2df, dr)` and `(df, 2dr)` from `sq`.
const fn horse_attack_leg(sq: usize, (df, dr): (i32, i32)) -> (u8, Bitboard) {
    let (f, r) = file_rank(sq);
    let leg = sq_of(f + df, r + dr);
    if leg < 0 {
        return NO_LEG;
    }
    let from = on_board(&[sq_of(f + 2 * df, r + dr), sq_of(f + df, r + 2 * dr)]);
    (leg as u8, from)
}

/// For each point and each diagonal neighbour (which is the leg of a horse attacking the
/// point through it): the neighbour and the (up to two) points a horse attacks from that way.
pub(crate) static HORSE_ATTACKERS: [[(u8, Bitboard); 4]; 90] =
    table![[NO_LEG; 4]; 90, |sq| table![NO_LEG; 4, |d| horse_attack_leg(sq, DIAG[d])]];

/// A soldier of `side` on `sq`: forward, and sideways once across the river.
const fn soldier_steps(side: usize, sq: usize) -> Bitboard {
    let (f, r) = file_rank(sq);
    let forward: i32 = if side == 0 { 1 } else { -1 };
    let ahead = on_board(&[sq_of(f, r + forward)]);
    if on_own_half(side, sq) {
        ahead
    } else {
        ahead | on_board(&[sq_of(f - 1, r), sq_of(f + 1, r)])
    }
}

/// Soldier steps per side: forward, and sideways once across the river.
pub(crate) static SOLDIER_STEPS: [[Bitboard; 90]; 2] =
    table![[0; 90]; 2, |side| table![0; 90, |sq| soldier_steps(side, sq)]];

/// The points from which a soldier of `side` attacks `to`.
const fn soldier_attackers(side: usize, to: usize) -> Bitboard {
    let mut from_set = 0;
    let mut from = 0;
    while from < 90 {
        if soldier_steps(side, from) & bit(to) != 0 {
            from_set |= bit(from);
        }
        from += 1;
    }
    from_set
}

/// Points from which a soldier of `side` attacks the point: the inverse of [`SOLDIER_STEPS`].
pub(crate) static SOLDIER_ATTACKERS: [[Bitboard; 90]; 2] =
    table![[0; 90]; 2, |side| table![0; 90, |to| soldier_attackers(side, to)]];

/// The points from `sq` to the board's edge in the direction `(df, dr)` (excluding `sq`).
const fn ray(sq: usize, (df, dr): (i32, i32)) -> Bitboard {
    let (mut f, mut r) = file_rank(sq);
    let mut set = 0;
    loop {
        f += df;
        r += dr;
        let to = sq_of(f, r);
        if to < 0 {
            return set;
        }
        set |= bit(to as usize);
    }
}

/// The four orthogonal rays from each point to the board's edge (excluding the point).
pub(crate) static RAYS: [[Bitboard; 4]; 90] =
    table![[0; 4]; 90, |sq| table![0; 4, |d| ray(sq, ORTHO[d])]];

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
static RANK_ATTACKS: [[(u16, u16); 512]; 9] =
    table![[(0, 0); 512]; 9, |f| table![(0, 0); 512, |occ| line_attacks(9, f, occ)]];

/// `[rank][file occupancy]` → (slide, cannon) masks over the 10 ranks of a file.
static FILE_ATTACKS: [[(u16, u16); 1024]; 10] =
    table![[(0, 0); 1024]; 10, |r| table![(0, 0); 1024, |occ| line_attacks(10, r, occ)]];

/// The 10-bit rank mask `m` of file a spread onto the board (bit r → point r * 9).
const fn file_spread(m: usize) -> Bitboard {
    let mut set = 0;
    let mut r = 0;
    while r < 10 {
        if m & (1 << r) != 0 {
            set |= bit(r * 9);
        }
        r += 1;
    }
    set
}

/// A 10-bit rank mask of file a spread onto the board (bit r → point r * 9).
static FILE_SPREAD: [Bitboard; 1024] = table![0; 1024, |m| file_spread(m)];

/// The bit of a point in the file-major ("rotated") occupancy: `file * 10 + rank`.
pub(crate) static ROTATED: [Bitboard; 90] = table![0; 90, |sq| bit((sq % 9) * 10 + sq / 9)];

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
    pub(crate) static CELL: [[u64; 90]; 32] =
        table![[0; 90]; 32, |c| table![0; 90, |sq| splitmix((c * 90 + sq) as u64 * 7919 + 1)]];

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
