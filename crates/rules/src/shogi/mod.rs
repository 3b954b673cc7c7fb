//! The shogi family: Shogi (9×9) and Minishogi (5×5), squares with pieces in hand, from one
//! generic implementation parameterised by the variant's geometry.
//!
//! Rules: `../shared/rules/shogi.md`. Entry points: [`Position`] (SFEN, legal moves, play,
//! perft), [`Move`] (USI text), [`Game`] (history, sennichite, impasse, outcomes) and
//! [`handicap`]. Bitboard layout: see `tables.rs` (a `u128` over the 81 square indices).

mod game;
mod geometry;
mod handicap;
mod movegen;
mod moves;
pub mod notation;
mod piece;
mod position;
mod raw;
#[cfg(test)]
mod reference;
mod sfen;
mod square;
mod tables;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tsume_tests;
mod usi;

pub use game::{Game, ImpasseError, ImpassePoints, MOVE_CAP, PlayError};
pub use handicap::{HANDICAPS, Handicap, handicap};
pub use moves::Move;
pub use piece::{Piece, PieceKind};
pub use position::Position;
pub use sfen::{MINISHOGI_START, SHOGI_START, Setup, SetupProblem, SfenError};
pub use square::{ParseSquareError, Square};
pub use usi::{Illegal, MoveError};

use crate::Variant;

impl crate::Position for Position {
    fn start(variant: Variant) -> Self {
        Position::startpos(variant)
    }

    fn from_fen(variant: Variant, text: &str) -> Result<Self, SfenError> {
        Position::from_sfen(variant, text)
    }

    fn fen(&self) -> String {
        self.sfen()
    }

    fn is_check(&self) -> bool {
        Position::is_check(self)
    }

    fn perft(&self, depth: u32) -> u64 {
        self.perft_nodes(depth)
    }

    type SetupError = SfenError;
    position_moves_from_inherent_methods!();
}

impl Position {
    /// The number of leaf nodes `depth` plies deep (bulk-counted at the last ply).
    pub fn perft(&self, depth: u32) -> u64 {
        self.perft_nodes(depth)
    }
}

game_from_inherent_methods!(Game, Position, PlayError, play_text: Game::play_token);
