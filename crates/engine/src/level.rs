//! Playing levels 1–8: less search and realistic mistakes below full strength.
//!
//! A level below 8 searches shallower (depth and node caps, and a share of the clock's
//! budget), ranks its best few root moves
//! (MultiPV) and picks among them at random, a move losing `d` centipawns against the best
//! being chosen with weight `exp(-d / temperature)`: weak levels often take the second or
//! third best move and now and then miss a capture or leave a piece, as beginners do, but
//! never play a move that the search did not consider.

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

/// The settings of `level` (clamped to 1–8).
pub fn settings(level: u8) -> Settings {
    let (depth, nodes, candidates, temperature, time_percent) = match level.clamp(MIN, MAX) {
        1 => (Some(1), Some(1_000), 8, 260, 2),
        2 => (Some(2), Some(3_000), 6, 170, 3),
        3 => (Some(3), Some(8_000), 5, 110, 4),
        4 => (Some(4), Some(20_000), 4, 65, 6),
        5 => (Some(5), Some(50_000), 3, 35, 11),
        6 => (Some(7), Some(150_000), 3, 18, 22),
        7 => (Some(10), Some(500_000), 2, 8, 45),
        _ => (None, None, 1, 0, 100),
    };
    Settings {
        depth,
        nodes,
        candidates,
        temperature,
        time_percent,
    }
}

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
        assert_eq!(settings(8).candidates, 1);
    }

    #[test]
    fn a_weak_level_sometimes_takes_another_move_but_rarely_a_blunder() {
        let mut rng = Rng::new(7);
        let mut picks = [0; 3];
        for _ in 0..1000 {
            picks[choose(&[0, -30, -900], settings(1).temperature, &mut rng)] += 1;
        }
        assert!(picks[0] > picks[1] && picks[1] > picks[2], "{picks:?}");
        assert!(picks[1] > 100, "{picks:?}");
        assert!(picks[2] < 100, "{picks:?}");
    }

    #[test]
    fn levels_grow_stronger() {
        for level in MIN..MAX {
            let (a, b) = (settings(level), settings(level + 1));
            assert!(a.temperature > b.temperature);
            assert!(a.time_percent < b.time_percent);
            assert!(a.nodes.unwrap() < b.nodes.unwrap_or(u64::MAX));
            assert!(a.depth.unwrap() < b.depth.unwrap_or(u32::MAX));
        }
    }
}
