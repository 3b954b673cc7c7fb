//! Scores: centipawns from the side to move's view, with mate scores near the ends.

/// The score of delivering mate now (the mated side scores `-MATE`).
pub const MATE: i32 = 30_000;
/// Scores beyond this (in absolute value) are mates, the distance in plies being
/// `MATE - |score|`.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// Above every score.
pub const INFINITY: i32 = 31_000;
/// Static evaluations are clamped inside this, below repetition results.
pub const EVAL_LIMIT: i32 = 15_000;

/// Whether `score` announces a mate.
pub fn is_mate(score: i32) -> bool {
    score.abs() > MATE_BOUND
}

/// Mate scores in the table are stored relative to the node, not the root.
pub(crate) fn to_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_table`].
pub(crate) fn from_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A score as the protocols print it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reported {
    /// Centipawns.
    Centipawns(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Reported {
    /// The protocol form of `score`.
    pub fn of(score: i32) -> Reported {
        if score > MATE_BOUND {
            Reported::Mate((MATE - score + 1) / 2)
        } else if score < -MATE_BOUND {
            Reported::Mate(-(MATE + score) / 2)
        } else {
            Reported::Centipawns(score)
        }
    }
}

impl std::fmt::Display for Reported {
    /// `cp 35` or `mate 3` / `mate -2`, as in UCI and USI `info`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reported::Centipawns(cp) => write!(f, "cp {cp}"),
            Reported::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_report_moves_not_plies() {
        assert_eq!(Reported::of(MATE - 1).to_string(), "mate 1");
        assert_eq!(Reported::of(MATE - 3).to_string(), "mate 2");
        assert_eq!(Reported::of(-(MATE - 2)).to_string(), "mate -1");
        assert_eq!(Reported::of(-37).to_string(), "cp -37");
    }
}
