//! Jiang's puzzles: positions from real games where exactly one move wins, found and proved by
//! Jiang's own engine.
//!
//! - [`format`]: a puzzle as stored and shipped (one JSON object a line), its themes and proof.
//! - [`check`]: the trainer's verdict on a move played in a puzzle (right, wrong, solved, and the
//!   reply), from the rules alone.
//! - [`source`]: the games puzzles are found in (self-play, records, the server's games).
//! - [`standard`]: finding and proving puzzles in Xiangqi, Shogi and Minishogi.
//! - [`jieqi`]: Jieqi puzzles, proven whatever the covered pieces are.
//! - [`tsume`]: shogi mate problems (no attacker's king), composed and proved by the engine's
//!   tsume search.
//! - [`themes`]: what a puzzle teaches, detected from the rules.
//! - [`generate`]: the pipeline from games to a sorted set without repeats.
//! - [`shipped`]: the sets in the repository's `puzzles/` folder, embedded.

#![warn(missing_docs)]

pub mod check;
pub mod format;
pub mod generate;
pub mod jieqi;
pub mod shipped;
pub mod source;
pub mod standard;
pub mod themes;
pub mod tsume;

pub use check::{CheckError, Verdict, check, hint};
pub use format::{FormatError, Proof, ProofKind, Puzzle, Theme, read_puzzles, write_puzzles};
pub use generate::{Settings, Summary, generate};
pub use source::{SourceGame, from_records, self_play};

/// The puzzles of one game, whatever its variant, found and proved with the settings of the
/// shipped sets (Jieqi: proven whatever the covered pieces are). The server's importer and
/// the generator's record sources use it.
pub fn find(game: &SourceGame) -> Vec<Puzzle> {
    match game.variant {
        jiang_rules::Variant::Jieqi => jieqi::find(game),
        variant => standard::find(game, &Settings::for_variant(variant)),
    }
}
