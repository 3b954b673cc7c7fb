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
mod usi;

pub use game::{Game, ImpasseError, ImpassePoints, MOVE_CAP, PlayError};
pub use handicap::{HANDICAPS, Handicap, handicap};
pub use moves::Move;
pub use piece::{Piece, PieceKind};
pub use position::Position;
pub use sfen::{MINISHOGI_START, SHOGI_START, Setup, SetupProblem, SfenError};
pub use square::{ParseSquareError, Square};
pub use usi::MoveError;

use crate::{Outcome, Side, Variant};

impl crate::Position for Position {
    type Move = Move;
    type SetupError = SfenError;
    type MoveError = MoveError;

    fn start(variant: Variant) -> Self {
        Position::startpos(variant)
    }

    fn from_fen(variant: Variant, text: &str) -> Result<Self, SfenError> {
        Position::from_sfen(variant, text)
    }

    fn fen(&self) -> String {
        self.sfen()
    }

    fn variant(&self) -> Variant {
        self.variant
    }

    fn turn(&self) -> Side {
        self.turn
    }

    fn is_check(&self) -> bool {
        Position::is_check(self)
    }

    fn legal_moves(&self) -> Vec<Move> {
        Position::legal_moves(self)
    }

    fn move_text(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        Position::parse_move(self, text)
    }

    fn play(&mut self, mv: Move) {
        Position::play(self, mv)
    }

    fn perft(&self, depth: u32) -> u64 {
        self.perft_nodes(depth)
    }
}

impl Position {
    /// The number of leaf nodes `depth` plies deep (bulk-counted at the last ply).
    pub fn perft(&self, depth: u32) -> u64 {
        self.perft_nodes(depth)
    }
}

impl crate::Game for Game {
    type Position = Position;
    type PlayError = PlayError;

    fn new(start: Position) -> Self {
        Game::new(start)
    }

    fn start(&self) -> &Position {
        Game::start(self)
    }

    fn position(&self) -> &Position {
        Game::position(self)
    }

    fn play_move(&mut self, mv: Move) -> Result<(), PlayError> {
        Game::play(self, mv)
    }

    fn play_text(&mut self, text: &str) -> Result<(), PlayError> {
        self.play_token(text)
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }
}
