//! The puzzle sets shipped in the repository (`puzzles/*.jsonl`), embedded in the binary: the
//! server loads them at start, and the tests prove every one of them again.

use crate::format::{FormatError, Puzzle, read_puzzles};

/// Each shipped file: its name under `puzzles/` and its text.
pub const FILES: &[(&str, &str)] = &[
    (
        "xiangqi.jsonl",
        include_str!("../../../puzzles/xiangqi.jsonl"),
    ),
    ("jieqi.jsonl", include_str!("../../../puzzles/jieqi.jsonl")),
    (
        "minishogi.jsonl",
        include_str!("../../../puzzles/minishogi.jsonl"),
    ),
    ("shogi.jsonl", include_str!("../../../puzzles/shogi.jsonl")),
    (
        "shogi-tsume.jsonl",
        include_str!("../../../puzzles/shogi-tsume.jsonl"),
    ),
];

/// Every shipped puzzle, file after file.
pub fn all() -> Result<Vec<Puzzle>, FormatError> {
    let mut puzzles = Vec::new();
    for (_, text) in FILES {
        puzzles.extend(read_puzzles(text.as_bytes())?);
    }
    Ok(puzzles)
}
