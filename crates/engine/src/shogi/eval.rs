//! Shogi and Minishogi evaluation: material on the board and in hand, advancement, and king
//! safety (attacks around the king, defenders beside it).
//!
//! Terms are written from sente's side and signed for the side to move at the end.

use jiang_rules::Side;
use jiang_rules::shogi::{PieceKind, Position, Square};

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
    /// How many weights.
    pub const COUNT: usize = 28;
}

/// The default weights, set by hand (a brief Texel run on a few self-play games, see
/// `examples/tune.rs`, moved them little and was not adopted: too few games to trust).
pub static WEIGHTS: [i32; w::COUNT] = [
    // board: P L N S G B R K +P +L +N +S +B(horse) +R(dragon)
    90, 320, 400, 500, 550, 850, 1000, 0, 560, 550, 550, 560, 1050, 1300, //
    // hand: P L N S G B R
    110, 350, 430, 570, 620, 950, 1100, //
    // king attack, king guard, invader, tempo, advance
    28, 18, 12, 20, 4, //
    // mobility: rook-like, bishop-like
    6, 6,
];

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

/// The worth of a piece of `kind` on the board (for move ordering).
pub fn piece_worth(kind: PieceKind) -> i32 {
    if kind == PieceKind::King {
        return 10_000;
    }
    WEIGHTS[w::BOARD + kind.index()]
}

/// What capturing a piece of `kind` swings the balance by: its worth on the board, which its
/// owner loses, and its base kind's worth in hand, which the captor gains (for exchanges).
pub fn capture_worth(kind: PieceKind) -> i32 {
    if kind == PieceKind::King {
        return 10_000;
    }
    WEIGHTS[w::BOARD + kind.index()] + WEIGHTS[w::HAND + kind.unpromoted().index()]
}

/// Adds every term of `position`'s evaluation from sente's side.
pub fn terms<T: Terms>(position: &Position, terms: &mut T) {
    let size = position.size() as i32;
    for side in Side::BOTH {
        let sign = if side == Side::SENTE { 1 } else { -1 };
        let zone = position.promotion_zone(side);
        let mut bits = position.occupancy(side);
        let king = position.king_square(side);
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
                // Ranks forward from home: sente's home is the bottom rank.
                let rank = sq.rank() as i32;
                let forward = if side == Side::SENTE {
                    size - rank
                } else {
                    rank - 1
                };
                terms.add(w::ADVANCE, sign * forward * SCALE / 2);
            }
            if matches!(kind, PieceKind::Gold | PieceKind::Silver)
                && let Some(king) = king
            {
                let df = (sq.file() as i32 - king.file() as i32).abs();
                let dr = (sq.rank() as i32 - king.rank() as i32).abs();
                if df <= 1 && dr <= 1 {
                    terms.add(w::KING_GUARD, sign * SCALE);
                }
            }
        }
        for kind in PieceKind::HAND_ORDER {
            let count = position.hand_count(side, kind);
            if count > 0 {
                terms.add(w::HAND + kind.index(), sign * SCALE * count as i32);
            }
        }
        // Enemy attacks on the squares around the king (a tsume's attacker has none).
        let Some(king) = king else {
            continue;
        };
        let mut attacks = 0i32;
        let (kf, kr) = (king.file() as i32, king.rank() as i32);
        for df in -1..=1 {
            for dr in -1..=1 {
                let (f, r) = (kf + df, kr + dr);
                if f < 1 || r < 1 || f > size || r > size {
                    continue;
                }
                let sq = Square::new(f as u8, r as u8).expect("on board");
                attacks += position.attackers_count(sq.index(), !side) as i32;
            }
        }
        terms.add(w::KING_ATTACK, -sign * SCALE * attacks);
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
        weights: &WEIGHTS,
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
