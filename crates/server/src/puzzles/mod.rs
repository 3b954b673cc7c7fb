//! Puzzles: the shipped sets and the operator's files loaded at start, the puzzles found in the
//! server's own finished games on a schedule, and the trainer's endpoints. A puzzle's solution
//! stays here: the trainer gets verdicts and replies one move at a time (`jiang_puzzles::check`)
//! and the whole line only when it gives up.
//!
//! Ratings: a player with a key has a puzzle rating per variant, kept by the store and rated
//! with the puzzle's own rating in the transaction that records the attempt's end (only the
//! first attempt at a puzzle counts); a browser without a key keeps its own rating and sends it
//! with its moves, and the server answers the new one without storing anything (such attempts
//! leave the puzzle's rating alone, so nobody can push a puzzle's rating around anonymously).
//!
//! Rooms: `handlers` (the `/api/puzzles` endpoints), `import` (loading puzzle files and
//! searching finished games).
//!
//! May use: `store`, `rating`, `players` (who a request is), `error`, `http::state` and
//! `http::extract` (handlers), `engine_pool`'s threads are not used: the importer searches on a
//! blocking thread of its own at a low priority.

pub(crate) mod handlers;
pub mod import;

use std::path::PathBuf;
use std::time::Duration;

use jiang_protocol::{PuzzleRating, PuzzleView};
use jiang_puzzles::{Proof, Puzzle, Theme};
use jiang_rules::Variant;

use crate::error::ApiError;
use crate::rating::Rating;
use crate::store::{PuzzleRatingRow, PuzzleRow};

/// The rating deviation a new puzzle starts with: its generator's estimate is a guess.
pub const NEW_PUZZLE_DEVIATION: f64 = 250.0;

/// What the server does with puzzles.
#[derive(Clone, Debug)]
pub struct PuzzleSettings {
    /// Load the sets shipped in the binary (`puzzles/*.jsonl` of the repository) at start.
    pub shipped: bool,
    /// More puzzle files (one puzzle a line, `docs/puzzles.md`) loaded at start
    /// (`--puzzles FILE`).
    pub files: Vec<PathBuf>,
    /// How often finished games are searched for new puzzles (`--puzzle-import-hours`, 6 h);
    /// `None`: never.
    pub import_every: Option<Duration>,
}

impl Default for PuzzleSettings {
    fn default() -> Self {
        PuzzleSettings {
            shipped: true,
            files: Vec::new(),
            import_every: Some(Duration::from_secs(6 * 3600)),
        }
    }
}

/// A puzzle as the store keeps it.
pub fn row_of(puzzle: &Puzzle, added_at: i64) -> PuzzleRow {
    let themes: Vec<&str> = puzzle.themes.iter().map(|t| t.name()).collect();
    PuzzleRow {
        id: puzzle.id.clone(),
        variant: puzzle.variant.name().to_owned(),
        position: puzzle.position.clone(),
        solution: serde_json::to_string(&puzzle.solution).unwrap_or_else(|_| "[]".into()),
        themes: format!(" {} ", themes.join(" ")),
        proof: serde_json::to_string(&puzzle.proof).unwrap_or_else(|_| "{}".into()),
        source: puzzle.source.clone(),
        rating: puzzle.rating,
        deviation: NEW_PUZZLE_DEVIATION,
        volatility: crate::rating::INITIAL_VOLATILITY,
        plays: 0,
        added_at,
    }
}

/// A stored puzzle read back (its current rating included); a row that does not read is the
/// server's fault (`500`).
pub fn puzzle_of(row: &PuzzleRow) -> Result<Puzzle, ApiError> {
    let corrupt = |what: &str| {
        tracing::error!(puzzle = %row.id, what, "stored puzzle does not read");
        ApiError::internal(format!("Puzzle {} is stored corrupt.", row.id))
    };
    let variant: Variant = row.variant.parse().map_err(|_| corrupt("variant"))?;
    let solution: Vec<String> =
        serde_json::from_str(&row.solution).map_err(|_| corrupt("solution"))?;
    let proof: Proof = serde_json::from_str(&row.proof).map_err(|_| corrupt("proof"))?;
    let themes = row
        .themes
        .split_whitespace()
        .map(str::parse::<Theme>)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|_| corrupt("themes"))?;
    Ok(Puzzle {
        id: row.id.clone(),
        variant,
        position: row.position.clone(),
        solution,
        themes,
        rating: row.rating,
        proof,
        source: row.source.clone(),
    })
}

/// `x` rounded to `places` decimals: the wire carries short numbers (that read back exactly).
pub fn rounded(x: f64, places: i32) -> f64 {
    let scale = 10f64.powi(places);
    (x * scale).round() / scale
}

/// A rating as the wire carries it (rating and deviation to 0.01, volatility to 10⁻⁶).
pub fn wire_rating(rating: Rating) -> PuzzleRating {
    PuzzleRating {
        rating: rounded(rating.rating, 2),
        deviation: rounded(rating.deviation, 2),
        volatility: rounded(rating.volatility, 6),
    }
}

/// A rating the browser sent, checked: finite, within the scale's sane bounds.
pub fn rating_from_wire(rating: PuzzleRating) -> Result<Rating, ApiError> {
    let sane = rating.rating.is_finite()
        && (0.0..=4000.0).contains(&rating.rating)
        && rating.deviation.is_finite()
        && (crate::rating::MIN_DEVIATION..=crate::rating::INITIAL_DEVIATION)
            .contains(&rating.deviation)
        && rating.volatility.is_finite()
        && (0.0..=1.0).contains(&rating.volatility)
        && rating.volatility > 0.0;
    if !sane {
        return Err(ApiError::invalid_request(format_args!(
            "the rating must have a rating within 0–4000, a deviation within {}–{} and a \
             volatility within 0–1",
            crate::rating::MIN_DEVIATION,
            crate::rating::INITIAL_DEVIATION
        )));
    }
    Ok(Rating {
        rating: rating.rating,
        deviation: rating.deviation,
        volatility: rating.volatility,
    })
}

/// A stored puzzle rating as the wire carries it.
pub fn rating_of_row(row: &PuzzleRatingRow) -> PuzzleRating {
    wire_rating(Rating {
        rating: row.rating,
        deviation: row.deviation,
        volatility: row.volatility,
    })
}

/// The trainer's view of a puzzle: everything but the solution.
pub fn view(
    puzzle: &Puzzle,
    row: &PuzzleRow,
    you: Option<PuzzleRating>,
    attempted: bool,
) -> Result<PuzzleView, ApiError> {
    let game = jiang_puzzles::check::start(puzzle).map_err(|e| {
        tracing::error!(puzzle = %puzzle.id, error = %e, "stored puzzle does not open");
        ApiError::internal(format!("Puzzle {} is stored corrupt.", puzzle.id))
    })?;
    Ok(PuzzleView {
        id: puzzle.id.clone(),
        variant: puzzle.variant.name().to_owned(),
        position: puzzle.position.clone(),
        to_move: puzzle.variant.side_name(game.turn()).to_owned(),
        rating: row.rating.round() as i64,
        themes: puzzle.themes.iter().map(|t| t.name().to_owned()).collect(),
        moves: puzzle.solver_moves() as u32,
        plays: row.plays.max(0) as u64,
        you,
        attempted,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiang_puzzles::ProofKind;

    #[test]
    fn a_puzzle_survives_the_store_row() {
        let solution = vec!["b0b9".to_owned()];
        let position = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1";
        let puzzle = Puzzle {
            id: Puzzle::derive_id(Variant::Xiangqi, position, &solution),
            variant: Variant::Xiangqi,
            position: position.into(),
            solution,
            themes: vec![Theme::Mate, Theme::MateIn1, Theme::OneMove],
            rating: 1234.0,
            proof: Proof {
                kind: ProofKind::Mate,
                plies: 1,
                depth: 3,
            },
            source: "test".into(),
        };
        let row = row_of(&puzzle, 7);
        assert_eq!(row.themes, " mate mate_in_1 one_move ");
        assert_eq!(puzzle_of(&row).unwrap(), puzzle);
        let view = view(&puzzle, &row, None, false).unwrap();
        assert_eq!(view.to_move, "red");
        assert_eq!(view.moves, 1);
        assert_eq!(view.rating, 1234);
    }

    #[test]
    fn a_browser_rating_out_of_bounds_is_refused() {
        let good = PuzzleRating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
        };
        assert!(rating_from_wire(good).is_ok());
        for bad in [
            PuzzleRating {
                rating: f64::NAN,
                ..good
            },
            PuzzleRating {
                rating: 9000.0,
                ..good
            },
            PuzzleRating {
                deviation: 1.0,
                ..good
            },
            PuzzleRating {
                volatility: 0.0,
                ..good
            },
        ] {
            assert!(rating_from_wire(bad).is_err(), "{bad:?}");
        }
    }
}
