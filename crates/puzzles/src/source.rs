//! Games puzzles are found in.
use jiang_rules::Variant;
/// A game to look for puzzles in: its start and its moves as recorded.
#[derive(Clone, Debug)]
pub struct SourceGame {
    /// The game.
    pub variant: Variant,
    /// The start position (FEN or SFEN).
    pub start: String,
    /// The moves as recorded (Jieqi: reveals with their letters).
    pub moves: Vec<String>,
    /// Where the game comes from, for people.
    pub name: String,
}
