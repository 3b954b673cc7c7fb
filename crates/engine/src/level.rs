//! Playing levels 1–8: less search and realistic mistakes below full strength.
//!
//! A level below 8 searches less (depth and node caps, and a share of the clock's budget);
//! the weak ones rank their best few root moves (MultiPV) and pick among them at random, a
//! move losing `d` centipawns against the best being chosen with weight
//! `exp(-d / temperature)`: they often take the second or third best move and now and then
//! miss a capture or leave a piece, as beginners do, but never play a move that the search did
//! not consider. The settings differ by variant so that each level is clearly stronger than the
//! one below in every variant (the measured ladder is in docs/benchmarks.md).

use jiang_rules::Variant;

/// The weakest level.
pub const MIN: u8 = 1;
/// Full strength.
pub const MAX: u8 = 8;

/// What a level changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The deepest iteration (`None`: as deep as time allows).
    pub depth: Option<u32>,
    /// A node cap (`None`: none).
    pub nodes: Option<u64>,
    /// How many root moves are ranked to choose from.
    pub candidates: usize,
    /// The temperature of the choice in centipawns (0: always the best).
    pub temperature: i32,
    /// The share of the clock's budget used, in percent (levels below 8 think less than the
    /// time allows, so that the ladder holds whatever the time control).
    pub time_percent: u32,
}

/// The settings of `level` (clamped to 1–8) in `variant`.
pub fn settings(level: u8, variant: Variant) -> Settings {
    let table = match variant {
        Variant::Xiangqi => &XIANGQI,
        Variant::Jieqi => &JIEQI,
        Variant::Shogi => &SHOGI,
        Variant::Minishogi => &MINISHOGI,
    };
    let (depth, nodes, candidates, temperature, time_percent) =
        table[usize::from(level.clamp(MIN, MAX) - MIN)];
    Settings {
        depth,
        nodes,
        candidates,
        temperature,
        time_percent,
    }
}

/// Depth cap, node cap, candidates, temperature, time share.
type Row = (Option<u32>, Option<u64>, usize, i32, u32);

/// Level 8 everywhere: the whole budget, the best move.
const LEVEL_8: Row = (None, None, 1, 0, 100);

// Each step is meant to be a large one (measured at 100 ms per move: 60–95% for the higher
// level, see docs/benchmarks.md): the noise falls steeply at the bottom, then every level searches about
// a ply more (node caps about three times larger), and level 7 searches a fraction of what
// level 8 does in 100 ms.

/// Xiangqi: 100 ms give level 8 some 50,000–100,000 nodes (depth 5–7).
const XIANGQI: [Row; 8] = [
    // One ply, ten candidates, temperature 150: a free minor piece is taken about half the
    // time, a chariot almost always.
    (Some(1), None, 10, 150, 25),
    (Some(1), None, 4, 50, 30),
    (Some(2), None, 5, 80, 35),
    (Some(2), None, 3, 25, 40),
    (None, Some(1_500), 1, 0, 50),
    (None, Some(4_000), 1, 0, 60),
    (None, Some(10_000), 1, 0, 70),
    LEVEL_8,
];

/// Shogi: whole plies from one to five above three noisy one-ply levels (noise at the same
/// depth made thin steps: a noisy three-ply level scored 46% against plain three plies over 40
/// games). 100 ms give level 8 six plies and part of the seventh, so level 7 stops at five
/// (six against five scored 55%; level 8 against five, 85%). Node caps made poor steps (in the
/// middlegame a ply costs far more nodes than at the start: a 10,000-node search lost 18 of 20
/// games to a 4-ply one).
const SHOGI: [Row; 8] = [
    (Some(1), None, 10, 500, 25),
    (Some(1), None, 10, 150, 30),
    (Some(1), None, 4, 50, 35),
    (Some(2), None, 1, 0, 40),
    (Some(3), None, 1, 0, 50),
    (Some(4), None, 1, 0, 60),
    (Some(5), None, 1, 0, 70),
    LEVEL_8,
];

/// Minishogi: noise barely separates levels on the small board once it searches two plies or
/// more, and beyond five plies a ply adds little in 100 ms (level 8 scored 56% against seven
/// plies in 100 games), so the levels are whole plies from one to five and level 1 is noisier
/// than elsewhere (temperature 150 scored 75% against 500 in 40 games).
const MINISHOGI: [Row; 8] = [
    (Some(1), None, 10, 500, 25),
    (Some(1), None, 10, 150, 30),
    (Some(1), None, 1, 0, 35),
    (Some(2), None, 1, 0, 40),
    (Some(3), None, 1, 0, 50),
    (Some(4), None, 1, 0, 60),
    (Some(5), None, 1, 0, 70),
    LEVEL_8,
];

/// Jieqi: the reveals' luck is large and depth dear (a chance node at every covered move; with
/// chance reductions 100 ms reach three plies and part of the fourth). Each ply up to three is
/// a clear step (measured at 100 ms per move, 40 games: level 8 scored 80% against three
/// plies, three plies 72.5% against two, two 67.5% against one). Below, the one-ply search
/// picks among all its moves with temperatures that double per level, so level 1 errs often.
const JIEQI: [Row; 8] = [
    (Some(1), None, 64, 1000, 25),
    (Some(1), None, 64, 400, 30),
    (Some(1), None, 64, 200, 35),
    (Some(1), None, 64, 100, 40),
    (Some(1), None, 1, 0, 50),
    (Some(2), None, 1, 0, 60),
    (Some(3), None, 1, 0, 70),
    LEVEL_8,
];

/// A small deterministic generator (SplitMix64) for the levels' choices.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform number in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Picks an index among `scores` (best first, in centipawns) with weights
/// `exp(-(best - score) / temperature)`; the first for temperature 0.
pub fn choose(scores: &[i32], temperature: i32, rng: &mut Rng) -> usize {
    if scores.len() <= 1 || temperature <= 0 {
        return 0;
    }
    let best = scores[0];
    let weights: Vec<f64> = scores
        .iter()
        .map(|&s| (-((best - s).max(0) as f64) / temperature as f64).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = rng.unit() * total;
    for (i, w) in weights.iter().enumerate() {
        if x < *w {
            return i;
        }
        x -= w;
    }
    scores.len() - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_strength_takes_the_best() {
        let mut rng = Rng::new(1);
        assert_eq!(choose(&[50, 40, -300], 0, &mut rng), 0);
        for variant in Variant::ALL {
            let top = settings(MAX, variant);
            assert_eq!((top.candidates, top.temperature), (1, 0));
            assert_eq!((top.depth, top.nodes, top.time_percent), (None, None, 100));
        }
    }

    #[test]
    fn level_one_blunders_sometimes_but_mostly_plays_sound_moves() {
        // Two sound moves, one losing a minor piece, one losing a chariot or rook: level 1
        // prefers the sound moves, yet gives material away now and then.
        for variant in Variant::ALL {
            let mut rng = Rng::new(7);
            let mut picks = [0; 4];
            let temperature = settings(1, variant).temperature;
            for _ in 0..2000 {
                picks[choose(&[0, -30, -350, -900], temperature, &mut rng)] += 1;
            }
            assert!(picks[0] > picks[1], "{variant}: {picks:?}");
            assert!(
                picks[1] > picks[2] && picks[2] > picks[3],
                "{variant}: {picks:?}"
            );
            let blunders = picks[2] + picks[3];
            assert!(
                (40..900).contains(&blunders),
                "{variant}: {picks:?} (a blunder in 2% to 45% of such choices)"
            );
        }
    }

    #[test]
    fn levels_grow_stronger() {
        // From each level to the next: no shallower cap nor smaller node cap, a larger share of
        // the clock, and a clear step: a deeper cap, a node cap at least 2.5 times larger, or
        // at the same search a temperature cut by a third or more. Noise grows only with a
        // deeper search.
        for variant in Variant::ALL {
            for level in MIN..MAX {
                let (a, b) = (settings(level, variant), settings(level + 1, variant));
                let context = format!("{variant}: level {level} vs {}", level + 1);
                let depth = |s: &Settings| s.depth.unwrap_or(u32::MAX);
                let nodes = |s: &Settings| s.nodes.unwrap_or(u64::MAX);
                assert!(depth(&a) <= depth(&b), "{context}");
                if a.nodes.is_some() && b.nodes.is_some() {
                    assert!(nodes(&a) <= nodes(&b), "{context}");
                }
                assert!(a.time_percent < b.time_percent, "{context}");
                let deeper = depth(&a) < depth(&b);
                let more_nodes = match (a.nodes, b.nodes) {
                    (Some(x), Some(y)) => y * 2 >= x * 5,
                    (Some(_), None) => true,
                    (None, _) => false,
                };
                let calmer = b.temperature * 3 <= a.temperature * 2;
                assert!(deeper || a.temperature >= b.temperature, "{context}");
                assert!(deeper || more_nodes || calmer, "{context}");
            }
        }
    }

    #[test]
    fn only_levels_that_search_one_move_have_no_noise() {
        for variant in Variant::ALL {
            for level in MIN..=MAX {
                let s = settings(level, variant);
                assert!(s.candidates >= 1, "{variant} {level}");
                assert_eq!(s.temperature == 0, s.candidates == 1, "{variant} {level}");
            }
        }
    }
}
