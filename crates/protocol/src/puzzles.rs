//! Puzzles: `GET /api/puzzles/next`, `GET /api/puzzles/daily/{variant}`,
//! `GET /api/puzzles/{id}`, and `POST /api/puzzles/{id}/move`, `…/hint`, `…/solution`. A
//! puzzle's solution never reaches the browser before it is earned: the trainer sends each move
//! and gets the verdict and the reply, and the whole line only when it asks for it.

use serde::{Deserialize, Serialize};

/// A puzzle as the trainer gets it: the position and what to find, never the solution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleView {
    /// The puzzle's id (`x-5c0e3f9a21`: the variant's initial and a hash).
    pub id: String,
    /// The variant's name.
    pub variant: String,
    /// The position (FEN or SFEN; Jieqi in Jiang's FEN with face-down pieces and the pool).
    pub position: String,
    /// The side to move, who solves: `red`/`black` or `sente`/`gote`.
    pub to_move: String,
    /// The puzzle's rating (Glicko-2, rounded).
    pub rating: i64,
    /// Its themes (`mate`, `mate_in_2`, `fork`, `tsume`, …: `docs/puzzles.md`).
    pub themes: Vec<String>,
    /// How many moves the solver makes.
    pub moves: u32,
    /// Rated attempts so far.
    pub plays: u64,
    /// Asked with a player key: that player's puzzle rating in this variant (absent before
    /// the first rated attempt).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub you: Option<PuzzleRating>,
    /// Whether the asking player already made a rated attempt at this puzzle (then a new try
    /// changes no rating).
    #[serde(default)]
    pub attempted: bool,
}

/// A puzzle rating: Glicko-2's three numbers. A browser without a player key keeps its own and
/// sends it with each move; the server keeps a key holder's.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleRating {
    /// The rating.
    pub rating: f64,
    /// The rating deviation.
    pub deviation: f64,
    /// The volatility.
    pub volatility: f64,
}

/// `POST /api/puzzles/{id}/move`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleMoveRequest {
    /// The move, in machine notation (ICCS or USI; Jieqi without a reveal letter).
    #[serde(rename = "move")]
    pub mv: String,
    /// The moves of this puzzle played so far, the solver's and the replies, as the answers gave
    /// them.
    #[serde(default)]
    pub line: Vec<String>,
    /// Without a player key: the browser's own puzzle rating in this variant (absent: a new
    /// rating), to be moved by this attempt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<PuzzleRating>,
    /// Without a player key: the browser asked for a hint in this attempt (a solve then
    /// counts half).
    #[serde(default)]
    pub hinted: bool,
}

/// Whether a move was the one to find.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PuzzleResult {
    /// The solution's move; the opponent answers `reply`, and the puzzle goes on.
    Right,
    /// Not the move (legal, but it does not win): the attempt is lost; the trainer may try
    /// again or view the solution.
    Wrong,
    /// The last move found (or another move that mates at the end of a mate puzzle).
    Solved,
}

/// The answer to `POST /api/puzzles/{id}/move`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleMoveAnswer {
    /// The verdict.
    pub result: PuzzleResult,
    /// The move as recorded (a Jieqi reveal with its letter); `null` when wrong.
    pub played: Option<String>,
    /// The opponent's answer (`right` only; a Jieqi reveal with its letter).
    pub reply: Option<String>,
    /// When this move ended the attempt (wrong or solved) and the attempt was rated: the
    /// solver's rating after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<PuzzleRated>,
}

/// How an attempt moved the solver's puzzle rating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleRated {
    /// The rating after the attempt (a browser without a player key keeps it).
    pub rating: PuzzleRating,
    /// The change the attempt made.
    pub change: f64,
}

/// `POST /api/puzzles/{id}/hint` and `…/solution`: where in the puzzle the trainer is.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleStepRequest {
    /// The moves played so far, as for a move.
    #[serde(default)]
    pub line: Vec<String>,
    /// Without a player key, for `…/solution`: the browser's rating, which giving up moves
    /// like a wrong move (unless the attempt already ended).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<PuzzleRating>,
    /// Without a player key, for `…/solution`: the attempt already ended (a wrong move was
    /// rated): giving up then changes nothing.
    #[serde(default)]
    pub ended: bool,
}

/// The answer to `POST /api/puzzles/{id}/hint`: the piece to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleHint {
    /// The square of the piece the next move moves (`h2`, `7g`), or for a drop the dropped
    /// piece's letter and `*` (`G*`).
    pub from: String,
}

/// The answer to `POST /api/puzzles/{id}/solution`: the whole line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleSolution {
    /// The solution, solver first, as recorded (Jieqi reveals with their letters).
    pub solution: Vec<String>,
    /// Giving up ends an attempt not yet ended as a loss: the rating after it, when rated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rated: Option<PuzzleRated>,
}
