//! Xiangqi and Jieqi evaluation: material, piece-square tables, covered pieces valued as the
//! expectation of their side's unseen pool, and a cheap king-safety term.
//!
//! Terms are written from Red's side and signed for the side to move at the end.

use jiang_rules::xiangqi::PieceKind;
use jiang_rules::{Side, Variant};

use super::XiangqiNode;
use crate::eval::{SCALE, Sum, Terms};
use crate::score::EVAL_LIMIT;

/// Weight indices.
pub mod w {
    /// Xiangqi material, per kind (general first, its weight unused).
    pub const MATERIAL: usize = 0;
    /// Jieqi material of revealed pieces, per kind (advisors and elephants roam freely).
    pub const JIEQI_MATERIAL: usize = 7;
    /// Piece-square table scale per kind (16 = the table as written).
    pub const PST: usize = 14;
    /// Per covered piece, on top of its expected worth (it keeps its options).
    pub const COVERED: usize = 21;
    /// Per missing advisor or elephant times the enemy's attacking pieces across the river.
    pub const EXPOSED_KING: usize = 22;
    /// Per enemy chariot, horse or cannon across the river.
    pub const INVADER: usize = 23;
    /// The side to move's bonus.
    pub const TEMPO: usize = 24;
    /// Per point a face-up horse, chariot or cannon can move to, above that kind's usual
    /// count (`USUAL_REACH`).
    pub const MOBILITY: usize = 25;
    /// How many weights.
    pub const COUNT: usize = 28;
}

/// The default weights, set by hand (a brief Texel run on a few self-play games, see
/// `examples/tune.rs`, moved them little and was not adopted: too few games to trust).
pub static WEIGHTS: [i32; w::COUNT] = [
    // Xiangqi material: K A B N R C P
    0, 200, 200, 420, 920, 460, 100, //
    // Jieqi material: K A B N R C P
    0, 260, 270, 420, 920, 460, 110, //
    // PST scales
    16, 16, 16, 16, 16, 16, 16, //
    // covered, exposed king, invader, tempo
    10, 12, 8, 10, //
    // mobility: horse, chariot, cannon
    12, 7, 4,
];

/// The number of points a horse, chariot and cannon can usually move to in a middlegame:
/// mobility counts from there, so that material keeps its meaning.
const USUAL_REACH: [i32; 3] = [4, 9, 7];

/// Which mobility weight a kind has (horse, chariot, cannon), if any.
fn mobility_slot(kind: PieceKind) -> Option<usize> {
    match kind {
        PieceKind::Horse => Some(0),
        PieceKind::Chariot => Some(1),
        PieceKind::Cannon => Some(2),
        _ => None,
    }
}

/// Piece-square tables from Red's side, indexed by `rank * 9 + file` (rank 0 = own back
/// rank), in centipawns at scale 16.
const fn pst_for(kind: usize) -> [i32; 90] {
    let mut t = [0i32; 90];
    let mut i = 0;
    while i < 90 {
        let rank = (i / 9) as i32;
        let file = (i % 9) as i32;
        let centre = if file > 4 { file - 4 } else { 4 - file };
        t[i] = match kind {
            // General: stay on the back rank, centre file best.
            0 => -8 * rank - 4 * centre,
            // Advisor, elephant: near home.
            1 | 2 => {
                if rank <= 2 {
                    6 - 2 * centre
                } else {
                    -2 * rank
                }
            }
            // Horse: centre and forward, not stuck on the edge or back rank.
            3 => {
                let forward = if rank >= 3 && rank <= 7 {
                    4 * (rank - 2)
                } else {
                    0
                };
                forward + 16 - 6 * centre - if rank == 0 { 12 } else { 0 }
            }
            // Chariot: open central files, forward a little.
            4 => 10 - 3 * centre + if rank >= 3 { 8 } else { 0 } + if rank == 6 { 6 } else { 0 },
            // Cannon: the centre file at home, the palace files forward; not too deep.
            5 => {
                (if file == 4 { 14 } else { 0 }) + (if rank == 2 || rank == 7 { 6 } else { 0 })
                    - (if rank >= 8 { 10 } else { 0 })
                    - 2 * centre
            }
            // Soldier: worth little at home, a lot across the river near the palace.
            _ => {
                if rank <= 4 {
                    if rank == 4 { 10 } else { 0 }
                } else if rank == 9 {
                    40
                } else {
                    let palace = if file >= 3 && file <= 5 && rank >= 6 {
                        40
                    } else {
                        0
                    };
                    70 + 10 * (rank - 5) - 8 * centre + palace
                }
            }
        };
        i += 1;
    }
    t
}

static PST: [[i32; 90]; 7] = [
    pst_for(0),
    pst_for(1),
    pst_for(2),
    pst_for(3),
    pst_for(4),
    pst_for(5),
    pst_for(6),
];

fn material_index(variant: Variant) -> usize {
    if variant == Variant::Jieqi {
        w::JIEQI_MATERIAL
    } else {
        w::MATERIAL
    }
}

/// The worth of a face-up piece of `kind` in `variant` (for move ordering).
pub fn piece_worth(variant: Variant, kind: PieceKind) -> i32 {
    if kind == PieceKind::General {
        return 10_000;
    }
    WEIGHTS[material_index(variant) + kind.index()]
}

/// The expected worth of a covered piece of `side`: the unseen pool's average.
pub fn covered_worth(node: &XiangqiNode, side: Side) -> i32 {
    let counts = &node.unseen[side.index()];
    let total: i32 = counts.iter().map(|&c| c as i32).sum();
    if total == 0 {
        return 300;
    }
    let sum: i32 = (1..7)
        .map(|k| counts[k] as i32 * WEIGHTS[w::JIEQI_MATERIAL + k])
        .sum();
    sum / total
}

/// Adds every term of `node`'s evaluation from Red's side.
pub fn terms<T: Terms>(node: &XiangqiNode, terms: &mut T) {
    let p = &node.position;
    let material = material_index(p.variant());
    let covered_points = p.covered_points();
    let mut defenders = [0i32; 2];
    let mut invaders = [0i32; 2];
    for side in Side::BOTH {
        let sign = if side == Side::RED { 1 } else { -1 };
        let counts = &node.unseen[side.index()];
        let total: i32 = counts.iter().map(|&c| c as i32).sum();
        let mut bits = p.occupancy(side);
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let Some(cell) = p.cell(i) else { continue };
            // The table square seen from this side (rank 0 = its own back rank).
            let rel = if side == Side::RED { i } else { 89 - i };
            let rank = rel / 9;
            let k = cell.kind.index();
            if covered_points & (1u128 << i) != 0 {
                // Worth the pool's expectation, plus the option of choosing when to reveal.
                if total > 0 {
                    for (kind, &count) in counts.iter().enumerate().skip(1) {
                        if count > 0 {
                            terms.add(
                                w::JIEQI_MATERIAL + kind,
                                sign * SCALE * count as i32 / total,
                            );
                        }
                    }
                }
                terms.add(w::COVERED, sign * SCALE);
                if k == PieceKind::Advisor.index() || k == PieceKind::Elephant.index() {
                    defenders[side.index()] += 1;
                }
                continue;
            }
            terms.add(material + k, sign * SCALE);
            terms.add(w::PST + k, sign * PST[k][rel]);
            if k == PieceKind::Advisor.index() || k == PieceKind::Elephant.index() {
                if rank <= 2 {
                    defenders[side.index()] += 1;
                }
            } else if matches!(
                cell.kind,
                PieceKind::Chariot | PieceKind::Horse | PieceKind::Cannon
            ) && rank >= 5
            {
                invaders[side.index()] += 1;
            }
        }
    }
    for side in Side::BOTH {
        // Mobility of the face-up pieces that move far (a covered piece's future is chance's).
        let sign = if side == Side::RED { 1 } else { -1 };
        let mut reach = [0i32; 3];
        p.reach(side, |from, targets| {
            if covered_points & (1u128 << from) != 0 {
                return;
            }
            if let Some(slot) = p.cell(from).and_then(|c| mobility_slot(c.kind)) {
                reach[slot] += targets.count_ones() as i32 - USUAL_REACH[slot];
            }
        });
        for (slot, &count) in reach.iter().enumerate() {
            if count != 0 {
                terms.add(w::MOBILITY + slot, sign * SCALE * count);
            }
        }
    }
    for side in Side::BOTH {
        let sign = if side == Side::RED { 1 } else { -1 };
        let missing = (4 - defenders[side.index()]).max(0);
        let attackers = invaders[1 - side.index()];
        terms.add(w::EXPOSED_KING, -sign * SCALE * missing * attackers);
        terms.add(w::INVADER, -sign * SCALE * attackers);
    }
    let to_move = if p.turn() == Side::RED { 1 } else { -1 };
    terms.add(w::TEMPO, to_move * SCALE);
}

/// The evaluation from the side to move's view, in centipawns.
pub fn evaluate(node: &XiangqiNode) -> i32 {
    let mut sum = Sum {
        weights: &WEIGHTS,
        total: 0,
    };
    terms(node, &mut sum);
    let red = (sum.total / SCALE as i64) as i32;
    let score = if node.position.turn() == Side::RED {
        red
    } else {
        -red
    };
    score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}
