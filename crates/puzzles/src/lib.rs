//! Jiang's puzzles: positions from real games where exactly one move wins, found and proved by
//! Jiang's own engine.
//!
//! - [`format`]: a puzzle as stored and shipped (one JSON object a line), its themes and proof.
//! - [`check`]: the trainer's verdict on a move played in a puzzle (right, wrong, solved, and the
//!   reply), from the rules alone.
//! - [`jieqi`]: Jieqi puzzles from self-play, proven whatever the covered pieces are.
//! - [`source`]: the games puzzles are found in.
//! - [`shipped`]: the sets in the repository's `puzzles/` folder, embedded.
//! - [`tsume`]: shogi mate problems (no attacker's king), composed and proved by the engine's
//!   tsume search.

#![warn(missing_docs)]

pub mod check;
pub mod format;
pub mod jieqi;
pub mod shipped;
pub mod source;
pub mod tsume;

pub use check::{CheckError, Verdict, check, hint};
pub use format::{FormatError, Proof, ProofKind, Puzzle, Theme, read_puzzles, write_puzzles};
