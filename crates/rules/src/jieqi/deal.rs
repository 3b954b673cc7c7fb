//! The deal: which identity lies face down on each covered starting point.

use std::fmt;
use std::str::FromStr;

use rand_core::CryptoRng;

use crate::Side;
use crate::xiangqi::{Piece, PieceKind, Square};

/// Number of covered pieces per side.
pub const COVERED_PER_SIDE: usize = 15;

/// Red's covered starting points in deal order (jieqi.md): the back rank from file a to i
/// without the general, then the cannon points, then the soldier points. Black's are the same
/// points rotated, listed in the same a-to-i order on each of its ranks (see [`deal_points`]).
const RED_POINTS: [(u8, u8); COVERED_PER_SIDE] = [
    (0, 0),
    (1, 0),
    (2, 0),
    (3, 0),
    (5, 0),
    (6, 0),
    (7, 0),
    (8, 0),
    (1, 2),
    (7, 2),
    (0, 3),
    (2, 3),
    (4, 3),
    (6, 3),
    (8, 3),
];

/// The unshuffled identities in deal order: `RNBAABNRCCPPPPP`, the piece that normally
/// starts on each point.
pub const STANDARD_ORDER: [PieceKind; COVERED_PER_SIDE] = [
    PieceKind::Chariot,
    PieceKind::Horse,
    PieceKind::Elephant,
    PieceKind::Advisor,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Chariot,
    PieceKind::Cannon,
    PieceKind::Cannon,
    PieceKind::Soldier,
    PieceKind::Soldier,
    PieceKind::Soldier,
    PieceKind::Soldier,
    PieceKind::Soldier,
];

/// `side`'s 15 covered starting points in deal order: Red a0 b0 c0 d0 f0 g0 h0 i0 b2 h2 a3 c3
/// e3 g3 i3; Black a9 b9 c9 d9 f9 g9 h9 i9 b7 h7 a6 c6 e6 g6 i6 (jieqi.md, "Deal").
pub fn deal_points(side: Side) -> [Square; COVERED_PER_SIDE] {
    RED_POINTS.map(|(file, rank)| {
        let rank = match side {
            Side::First => rank,
            Side::Second => Square::RANKS - 1 - rank,
        };
        Square::new(file, rank).expect("deal points are on the board")
    })
}

/// Where `square` stands in `side`'s deal order, if it is one of its covered starting points.
pub fn deal_index(side: Side, square: Square) -> Option<usize> {
    deal_points(side).iter().position(|&p| p == square)
}

/// The kind a covered piece on `square` moves as: the piece that normally starts there
/// (jieqi.md, "Covered pieces"); `None` if `square` is not one of `side`'s covered points.
pub fn moves_as(side: Side, square: Square) -> Option<PieceKind> {
    deal_index(side, square).map(|i| STANDARD_ORDER[i])
}

/// The secret of a Jieqi game: the identity under each covered starting point of both sides.
///
/// Written as two 15-letter words in deal order, Red's uppercase and Black's lowercase,
/// joined by `/`: `RNBAABNRCCPPPPP/rnbaabnrccppppp` is the unshuffled deal.
///
/// `Debug` never prints the identities, so a deal cannot leak into a log line by accident;
/// use [`Deal::letters`] or `Display` where publishing it is intended (after the game).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Deal {
    kinds: [[PieceKind; COVERED_PER_SIDE]; 2],
}

/// Why a deal text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DealError {
    /// The text is not two words joined by `/`.
    #[error("a deal is two 15-letter words joined by `/` (Red's then Black's), got `{0}`")]
    Shape(String),
    /// A side's word does not have 15 letters.
    #[error("{side}'s part of the deal has {count} letters; it needs 15")]
    Length {
        /// `red` or `black`.
        side: &'static str,
        /// How many characters it had.
        count: usize,
    },
    /// A character is not a piece letter of that side.
    #[error(
        "{side}'s part of the deal has `{letter}` at position {position}: expected one of {expected}"
    )]
    Letter {
        /// `red` or `black`.
        side: &'static str,
        /// The offending character.
        letter: char,
        /// 1-based position in that side's word.
        position: usize,
        /// The letters allowed there.
        expected: &'static str,
    },
    /// A side's identities are not 2 chariots, 2 horses, 2 elephants, 2 advisors, 2 cannons
    /// and 5 soldiers.
    #[error("{side}'s part of the deal has {count} {kind}; it needs {needed}")]
    Count {
        /// `red` or `black`.
        side: &'static str,
        /// The piece letter counted.
        kind: char,
        /// How many there were.
        count: usize,
        /// How many there must be.
        needed: usize,
    },
}

impl Deal {
    /// The unshuffled deal: every covered piece is what normally starts on its point.
    pub const STANDARD: Deal = Deal {
        kinds: [STANDARD_ORDER, STANDARD_ORDER],
    };

    /// A fresh deal: each side's 15 identities shuffled (Fisher–Yates, unbiased) with `rng`,
    /// which must be a cryptographically secure generator (the server passes the operating
    /// system's; tests may pass a seeded ChaCha).
    pub fn shuffled<R: CryptoRng + ?Sized>(rng: &mut R) -> Deal {
        let mut kinds = [STANDARD_ORDER, STANDARD_ORDER];
        for side in &mut kinds {
            for i in (1..COVERED_PER_SIDE).rev() {
                let j = uniform_below(rng, i as u32 + 1) as usize;
                side.swap(i, j);
            }
        }
        Deal { kinds }
    }

    /// The identity dealt to `side`'s covered point `index` (deal order, `0..15`).
    pub fn identity(&self, side: Side, index: usize) -> PieceKind {
        self.kinds[side.index()][index]
    }

    /// The identity under `square` for `side`, if `square` is one of its covered points.
    pub fn identity_at(&self, side: Side, square: Square) -> Option<PieceKind> {
        deal_index(side, square).map(|i| self.identity(side, i))
    }

    /// `side`'s 15 identities in deal order.
    pub fn kinds(&self, side: Side) -> [PieceKind; COVERED_PER_SIDE] {
        self.kinds[side.index()]
    }

    /// `side`'s word: 15 FEN letters, uppercase for Red, lowercase for Black.
    pub fn letters(&self, side: Side) -> String {
        self.kinds[side.index()]
            .iter()
            .map(|&kind| Piece::new(side, kind).fen_letter())
            .collect()
    }
}

impl fmt::Debug for Deal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Deal(<hidden>)")
    }
}

impl fmt::Display for Deal {
    /// `RNBAABNRCCPPPPP/rnbaabnrccppppp`-style: Red's word, `/`, Black's word.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}",
            self.letters(Side::RED),
            self.letters(Side::BLACK)
        )
    }
}

impl FromStr for Deal {
    type Err = DealError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (red, black) = text
            .split_once('/')
            .ok_or_else(|| DealError::Shape(text.to_owned()))?;
        if black.contains('/') {
            return Err(DealError::Shape(text.to_owned()));
        }
        Ok(Deal {
            kinds: [parse_word(Side::RED, red)?, parse_word(Side::BLACK, black)?],
        })
    }
}

fn side_label(side: Side) -> &'static str {
    match side {
        Side::First => "red",
        Side::Second => "black",
    }
}

fn parse_word(side: Side, word: &str) -> Result<[PieceKind; COVERED_PER_SIDE], DealError> {
    let label = side_label(side);
    let count = word.chars().count();
    if count != COVERED_PER_SIDE {
        return Err(DealError::Length { side: label, count });
    }
    let mut kinds = STANDARD_ORDER;
    for (i, letter) in word.chars().enumerate() {
        let kind = Piece::from_fen_letter(letter)
            .filter(|p| p.side == side && p.kind != PieceKind::General)
            .map(|p| p.kind);
        kinds[i] = kind.ok_or(DealError::Letter {
            side: label,
            letter,
            position: i + 1,
            expected: match side {
                Side::First => "R N B A C P",
                Side::Second => "r n b a c p",
            },
        })?;
    }
    for kind in PieceKind::ALL.into_iter().skip(1) {
        let needed = STANDARD_ORDER.iter().filter(|&&k| k == kind).count();
        let count = kinds.iter().filter(|&&k| k == kind).count();
        if count != needed {
            return Err(DealError::Count {
                side: label,
                kind: Piece::new(side, kind).fen_letter(),
                count,
                needed,
            });
        }
    }
    Ok(kinds)
}

/// A uniform integer in `0..n` (`n > 0`) by rejection sampling, so no value is favoured.
pub(crate) fn uniform_below<R: CryptoRng + ?Sized>(rng: &mut R, n: u32) -> u32 {
    debug_assert!(n > 0);
    // The largest multiple of n that fits in 2^32; values at or above it are redrawn.
    let zone = u32::MAX - (u32::MAX - n + 1) % n;
    loop {
        let x = rng.next_u32();
        if x <= zone {
            return x % n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    #[test]
    fn standard_deal_spells_the_unshuffled_order() {
        assert_eq!(
            Deal::STANDARD.to_string(),
            "RNBAABNRCCPPPPP/rnbaabnrccppppp"
        );
        assert_eq!(
            "RNBAABNRCCPPPPP/rnbaabnrccppppp".parse(),
            Ok(Deal::STANDARD)
        );
    }

    #[test]
    fn deal_points_follow_jieqi_md() {
        let names = |side| {
            deal_points(side)
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(
            names(Side::RED),
            "a0 b0 c0 d0 f0 g0 h0 i0 b2 h2 a3 c3 e3 g3 i3"
        );
        assert_eq!(
            names(Side::BLACK),
            "a9 b9 c9 d9 f9 g9 h9 i9 b7 h7 a6 c6 e6 g6 i6"
        );
        assert_eq!(
            moves_as(Side::BLACK, "b7".parse().unwrap()),
            Some(PieceKind::Cannon)
        );
        assert_eq!(moves_as(Side::RED, "e0".parse().unwrap()), None);
    }

    #[test]
    fn shuffles_are_permutations_of_the_set() {
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        let mut sorted_standard = STANDARD_ORDER;
        sorted_standard.sort();
        let mut differs = 0;
        for _ in 0..200 {
            let deal = Deal::shuffled(&mut rng);
            for side in Side::BOTH {
                let mut kinds = deal.kinds(side);
                kinds.sort();
                assert_eq!(kinds, sorted_standard);
            }
            assert_eq!(deal.to_string().parse::<Deal>(), Ok(deal));
            differs += usize::from(deal != Deal::STANDARD);
        }
        assert!(
            differs > 190,
            "shuffling should almost never give the standard deal"
        );
    }

    #[test]
    fn every_identity_reaches_every_point() {
        // 15 points × 6 kinds: after enough shuffles every kind has appeared on every point.
        let mut rng = ChaCha20Rng::seed_from_u64(11);
        let mut seen = [[false; 7]; COVERED_PER_SIDE];
        for _ in 0..2000 {
            let deal = Deal::shuffled(&mut rng);
            for (i, kind) in deal.kinds(Side::BLACK).into_iter().enumerate() {
                seen[i][kind.index()] = true;
            }
        }
        for row in seen {
            assert_eq!(row.iter().filter(|&&s| s).count(), 6);
        }
    }

    #[test]
    fn bad_deals_say_what_is_wrong() {
        assert!(matches!(
            "RNBAABNRCCPPPPP".parse::<Deal>(),
            Err(DealError::Shape(_))
        ));
        assert!(matches!(
            "RNBAABNRCCPPPP/rnbaabnrccppppp".parse::<Deal>(),
            Err(DealError::Length {
                side: "red",
                count: 14
            })
        ));
        assert!(matches!(
            "RNBAABNRCCPPPPP/rnbaabnrccpppPp".parse::<Deal>(),
            Err(DealError::Letter {
                side: "black",
                letter: 'P',
                position: 14,
                ..
            })
        ));
        assert!(matches!(
            "RNBAABNRCCPPPPK/rnbaabnrccppppp".parse::<Deal>(),
            Err(DealError::Letter { letter: 'K', .. })
        ));
        assert!(matches!(
            "RRBAABNRCCPPPPP/rnbaabnrccppppp".parse::<Deal>(),
            Err(DealError::Count {
                kind: 'N',
                count: 1,
                needed: 2,
                ..
            })
        ));
        assert_eq!(format!("{:?}", Deal::STANDARD), "Deal(<hidden>)");
    }

    #[test]
    fn uniform_below_stays_in_range() {
        let mut rng = ChaCha20Rng::seed_from_u64(3);
        for n in 1..40 {
            for _ in 0..50 {
                assert!(uniform_below(&mut rng, n) < n);
            }
        }
    }
}
