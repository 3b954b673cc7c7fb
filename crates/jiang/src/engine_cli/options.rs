//! The options a GUI sets with `setoption`, and `UCI_Elo`'s scale of the levels.

use jiang_engine::Engine;

/// The options a GUI sets, applied to the engine at each `go` (so that `setoption` never
/// waits for a running search).
#[derive(Clone, Debug)]
pub(super) struct Options {
    pub(super) hash_mb: usize,
    pub(super) multi_pv: usize,
    pub(super) level: u8,
    pub(super) limit_strength: bool,
    pub(super) elo: u32,
    pub(super) threads: usize,
    pub(super) move_overhead: u64,
    pub(super) random_mover: bool,
    /// `Clear Hash` or a new game: the table is cleared before the next search.
    pub(super) clear: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: Engine::DEFAULT_HASH_MB,
            multi_pv: 1,
            level: 8,
            limit_strength: false,
            elo: elo::MAX,
            threads: 1,
            move_overhead: 0,
            random_mover: false,
            clear: false,
        }
    }
}

impl Options {
    /// The level searched: `UCI_Elo`'s when `UCI_LimitStrength` is on, else `Level`.
    pub(super) fn effective_level(&self) -> u8 {
        if self.limit_strength {
            elo::level_for(self.elo)
        } else {
            self.level
        }
    }
}

/// `UCI_Elo`: the levels on an Elo scale.
///
/// A rough mapping, not a rating: level 1 is pinned at 800 by convention and each level above
/// adds the Elo difference of the mean score of that step of the measured ladder (README,
/// "Level ladder": 100 ms a move, the four variants' scores averaged), e.g. 2 vs 1 scored
/// 84.1% on average (+289), 8 vs 7 75.5% (+195). Nothing here is calibrated against rated
/// human players or rated engine lists.
pub mod elo {
    /// The Elo of each level, 1 to 8.
    pub const LEVELS: [u32; 8] = [800, 1090, 1310, 1500, 1690, 1850, 2000, 2190];
    /// The lowest `UCI_Elo`.
    pub const MIN: u32 = LEVELS[0];
    /// The highest `UCI_Elo` (level 8, full strength).
    pub const MAX: u32 = LEVELS[7];

    /// The level nearest to `elo` (ties go to the weaker level).
    pub fn level_for(elo: u32) -> u8 {
        let mut best = 0;
        for (i, &e) in LEVELS.iter().enumerate() {
            if e.abs_diff(elo) < LEVELS[best].abs_diff(elo) {
                best = i;
            }
        }
        best as u8 + 1
    }
}
