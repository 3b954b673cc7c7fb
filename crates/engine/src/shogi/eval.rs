//! Shogi and Minishogi evaluation: material on the board and in hand, advancement, and king
//! safety (attacks around the king, defenders beside it).
//!
//! Terms are written from sente's side and signed for the side to move at the end.

use jiang_rules::shogi::{PieceKind, Position, Square};
use jiang_rules::{Side, Variant};

use crate::eval::{SCALE, Sum, Terms};
use crate::score::EVAL_LIMIT;

/// Weight indices.
pub mod w {
    /// Material on the board, per kind (`PieceKind::index`, king's unused).
    pub const BOARD: usize = 0;
    /// Material in hand, per base kind.
    pub const HAND: usize = 14;
    /// Per enemy attack on a square next to the king.
    pub const KING_ATTACK: usize = 21;
    /// Per gold or silver next to its own king.
    pub const KING_GUARD: usize = 22;
    /// Per piece (not the king) in the enemy camp.
    pub const INVADER: usize = 23;
    /// The side to move's bonus.
    pub const TEMPO: usize = 24;
    /// Per rank a pawn, silver or gold stands forward of its home rank (small).
    pub const ADVANCE: usize = 25;
    /// Per square a rook (or dragon) and a bishop (or horse) attacks beyond its own pieces,
    /// above the usual count (`usual_reach`).
    pub const MOBILITY: usize = 26;
    /// Per enemy attack next to the king, times the enemy's pieces in hand other than pawns
    /// (at most four): drops turn attacks into mates.
    pub const HAND_DANGER: usize = 28;
    /// Per square next to the king that the enemy attacks and no piece but the king guards.
    pub const WEAK_SQUARE: usize = 29;
    /// Closeness to the enemy king (2 next to it, 1 a square further), per group: gold-like
    /// (gold and promoted minor pieces), silver, knight and lance, major pieces.
    pub const NEAR_KING: usize = 30;
    /// Per rank the king stands forward of its home rank.
    pub const KING_FORWARD: usize = 34;
    /// How many weights.
    pub const COUNT: usize = 35;
}

/// Shogi's weights, set by hand: fitting them needs self-play games deep enough for their
/// results to follow the evaluation, which depth-4 games were not (docs/benchmarks.md).
pub static SHOGI_WEIGHTS: [i32; w::COUNT] = [
    // board: P L N S G B R K +P +L +N +S +B(horse) +R(dragon)
    90, 320, 400, 500, 550, 850, 1000, 0, 560, 550, 550, 560, 1050, 1300, //
    // hand: P L N S G B R
    110, 350, 430, 570, 620, 950, 1100, //
    // king attack, king guard, invader, tempo, advance
    28, 18, 12, 20, 4, //
    // mobility: rook-like, bishop-like
    6, 6, //
    // hand danger, weak square
    8, 30, //
    // near the enemy king: gold-like, silver, knight and lance, major
    40, 30, 20, 10, //
    // king forward
    -10,
];

/// Minishogi's weights (the 5×5 board values its pieces differently from shogi's), fitted by
/// Texel tuning (`examples/tune.rs`) on 68,828 quiet positions of self-play games at depths 5
/// and 6.
pub static MINISHOGI_WEIGHTS: [i32; w::COUNT] = [
    // board: P L N S G B R K +P +L +N +S +B(horse) +R(dragon)
    121, 320, 400, 369, 393, 422, 486, 0, 383, 550, 550, 147, 619, 759, //
    // hand: P L N S G B R
    159, 350, 430, 320, 378, 323, 486, //
    // king attack, king guard, invader, tempo, advance
    9, -8, 38, 15, -26, //
    // mobility: rook-like, bishop-like
    -1, 8, //
    // hand danger, weak square
    26, 63, //
    // near the enemy king: gold-like, silver, knight and lance, major
    124, 99, 0, 43, //
    // king forward
    48,
];

/// The weights `variant` is evaluated with.
pub fn weights(variant: Variant) -> &'static [i32; w::COUNT] {
    if variant == Variant::Minishogi {
        &MINISHOGI_WEIGHTS
    } else {
        &SHOGI_WEIGHTS
    }
}

/// The squares a rook and a bishop usually reach in a middlegame, on the 9×9 and the 5×5
/// board: mobility counts from there, so that a piece on the board and one in hand keep
/// their relative worth.
const fn usual_reach(size: i32) -> [i32; 2] {
    if size >= 9 { [7, 6] } else { [4, 3] }
}

/// Which mobility weight a kind has (rook-like, bishop-like), if any.
fn mobility_slot(kind: PieceKind) -> Option<usize> {
    match kind {
        PieceKind::Rook | PieceKind::Dragon => Some(0),
        PieceKind::Bishop | PieceKind::Horse => Some(1),
        _ => None,
    }
}

/// Which closeness-to-the-enemy-king weight a kind has, if any (pawns have none).
fn near_king_slot(kind: PieceKind) -> Option<usize> {
    match kind {
        PieceKind::Gold
        | PieceKind::Tokin
        | PieceKind::PromotedLance
        | PieceKind::PromotedKnight
        | PieceKind::PromotedSilver => Some(0),
        PieceKind::Silver => Some(1),
        PieceKind::Knight | PieceKind::Lance => Some(2),
        PieceKind::Rook | PieceKind::Dragon | PieceKind::Bishop | PieceKind::Horse => Some(3),
        PieceKind::Pawn | PieceKind::King => None,
    }
}

/// The worth of a piece of `kind` on the board in `variant` (for move ordering).
pub fn piece_worth(variant: Variant, kind: PieceKind) -> i32 {
    if kind == PieceKind::King {
        return 10_000;
    }
    weights(variant)[w::BOARD + kind.index()]
}

/// What capturing a piece of `kind` swings the balance by in `variant`: its worth on the
/// board, which its owner loses, and its base kind's worth in hand, which the captor gains
/// (for exchanges).
pub fn capture_worth(variant: Variant, kind: PieceKind) -> i32 {
    if kind == PieceKind::King {
        return 10_000;
    }
    let weights = weights(variant);
    weights[w::BOARD + kind.index()] + weights[w::HAND + kind.unpromoted().index()]
}

/// The Chebyshev distance between two squares.
fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// How many ranks `sq` stands forward of `side`'s home rank (sente's is the bottom one).
fn ranks_forward(side: Side, sq: Square, size: i32) -> i32 {
    if side == Side::SENTE {
        size - sq.rank() as i32
    } else {
        sq.rank() as i32 - 1
    }
}

/// Adds every term of `position`'s evaluation from sente's side.
pub fn terms<T: Terms>(position: &Position, terms: &mut T) {
    let size = position.size() as i32;
    // Each side's pieces in hand other than pawns, at most four: what it can drop near the
    // enemy king.
    let droppable = Side::BOTH.map(|side| {
        PieceKind::HAND_ORDER
            .iter()
            .filter(|&&kind| kind != PieceKind::Pawn)
            .map(|&kind| position.hand_count(side, kind) as i32)
            .sum::<i32>()
            .min(4)
    });
    for side in Side::BOTH {
        let sign = if side == Side::SENTE { 1 } else { -1 };
        let zone = position.promotion_zone(side);
        let mut bits = position.occupancy(side);
        let king = position.king_square(side);
        let enemy_king = position.king_square(!side);
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let sq = Square::from_index(i).expect("on board");
            let Some(piece) = position.piece_at(sq) else {
                continue;
            };
            let kind = piece.kind;
            if kind == PieceKind::King {
                continue;
            }
            terms.add(w::BOARD + kind.index(), sign * SCALE);
            if let Some(slot) = mobility_slot(kind) {
                let reach = position.attacks_from(i) & !position.occupancy(side);
                terms.add(
                    w::MOBILITY + slot,
                    sign * SCALE * (reach.count_ones() as i32 - usual_reach(size)[slot]),
                );
            }
            if zone & (1u128 << i) != 0 {
                terms.add(w::INVADER, sign * SCALE);
            }
            if matches!(kind, PieceKind::Pawn | PieceKind::Silver) {
                terms.add(w::ADVANCE, sign * ranks_forward(side, sq, size) * SCALE / 2);
            }
            if matches!(kind, PieceKind::Gold | PieceKind::Silver)
                && let Some(king) = king
                && distance(sq, king) <= 1
            {
                terms.add(w::KING_GUARD, sign * SCALE);
            }
            if let (Some(slot), Some(target)) = (near_king_slot(kind), enemy_king) {
                let near = 3 - distance(sq, target);
                if near > 0 {
                    terms.add(w::NEAR_KING + slot, sign * SCALE * near);
                }
            }
        }
        for kind in PieceKind::HAND_ORDER {
            let count = position.hand_count(side, kind);
            if count > 0 {
                terms.add(w::HAND + kind.index(), sign * SCALE * count as i32);
            }
        }
        let Some(king) = king else {
            continue;
        };
        terms.add(
            w::KING_FORWARD,
            sign * SCALE * ranks_forward(side, king, size),
        );
        // Enemy attacks on the squares around the king (a tsume's attacker has none), and
        // those only the king guards.
        let mut attacks = 0i32;
        let mut weak = 0i32;
        let (kf, kr) = (king.file() as i32, king.rank() as i32);
        for df in -1..=1 {
            for dr in -1..=1 {
                let (f, r) = (kf + df, kr + dr);
                if f < 1 || r < 1 || f > size || r > size {
                    continue;
                }
                let sq = Square::new(f as u8, r as u8).expect("on board");
                let attackers = position.attackers_count(sq.index(), !side) as i32;
                attacks += attackers;
                // The king guards every square next to it, so a guard besides counts two.
                if attackers > 0
                    && (df, dr) != (0, 0)
                    && position.attackers_count(sq.index(), side) < 2
                {
                    weak += 1;
                }
            }
        }
        terms.add(w::KING_ATTACK, -sign * SCALE * attacks);
        terms.add(w::WEAK_SQUARE, -sign * SCALE * weak);
        terms.add(
            w::HAND_DANGER,
            -sign * SCALE * attacks * droppable[(!side).index()],
        );
    }
    let to_move = if position.turn() == Side::SENTE {
        1
    } else {
        -1
    };
    terms.add(w::TEMPO, to_move * SCALE);
}

/// The evaluation from the side to move's view, in centipawns.
pub fn evaluate(position: &Position) -> i32 {
    let mut sum = Sum {
        weights: weights(position.variant()),
        total: 0,
    };
    terms(position, &mut sum);
    let sente = (sum.total / SCALE as i64) as i32;
    let score = if position.turn() == Side::SENTE {
        sente
    } else {
        -sente
    };
    score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Features;

    fn features(sfen: &str) -> Vec<f64> {
        let position = Position::from_sfen(Variant::Minishogi, sfen).unwrap();
        let mut f = Features(vec![0.0; w::COUNT]);
        terms(&position, &mut f);
        f.0
    }

    /// Gote's gold on 3d attacks 4e and 4d beside sente's king on 5e, which nothing else
    /// guards; with a second gold in gote's hand the attacks weigh double.
    #[test]
    fn attacks_beside_the_king_and_pieces_in_hand() {
        let with_hand = features("4k/5/5/2g2/K4 b g 1");
        assert_eq!(with_hand[w::KING_ATTACK], -2.0);
        assert_eq!(with_hand[w::WEAK_SQUARE], -2.0);
        assert_eq!(with_hand[w::HAND_DANGER], -2.0);
        // The gold stands two files from the king: one point of closeness, gote's.
        assert_eq!(with_hand[w::NEAR_KING], -1.0);
        assert_eq!(with_hand[w::KING_FORWARD], 0.0);

        // A silver on 4e guards 4d: attacked still, weak no longer; the silver's own square
        // only the king guards.
        let guarded = features("4k/5/5/2g2/KS3 b g 1");
        assert_eq!(guarded[w::KING_ATTACK], -2.0);
        assert_eq!(guarded[w::WEAK_SQUARE], -1.0);

        // Without a piece in gote's hand the attacks bring no drop danger.
        assert_eq!(features("4k/5/5/2g2/K4 b p 1")[w::HAND_DANGER], 0.0);
    }

    /// A king two ranks up from its home counts two ranks forward; gote's counts the other
    /// way (the feature is sente's ranks less gote's).
    #[test]
    fn king_forward_counts_from_home() {
        // Both kings one rank up: sente's 1 less gote's 1.
        assert_eq!(features("5/4k/5/K4/5 b - 1")[w::KING_FORWARD], 1.0 - 1.0);
        assert_eq!(features("4k/5/K4/5/5 b - 1")[w::KING_FORWARD], 2.0);
        assert_eq!(features("5/5/4k/5/K4 b - 1")[w::KING_FORWARD], -2.0);
    }

    /// Minishogi has weights of its own; shogi's are the ones written by hand.
    #[test]
    fn each_variant_has_its_weights() {
        assert_eq!(weights(Variant::Shogi), &SHOGI_WEIGHTS);
        assert_eq!(weights(Variant::Minishogi), &MINISHOGI_WEIGHTS);
        assert!(
            piece_worth(Variant::Minishogi, PieceKind::Rook)
                > piece_worth(Variant::Minishogi, PieceKind::Pawn)
        );
    }
}
