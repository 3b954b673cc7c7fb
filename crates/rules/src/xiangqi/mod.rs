//! The xiangqi family: Xiangqi and Jieqi on 9×10 intersections.
//!
//! Rules: `../shared/rules/xiangqi.md` and `../shared/rules/jieqi.md`. One generator serves
//! both variants; the [`crate::Variant`] stored in a [`Position`] picks the few
//! behaviours that differ (covered pieces, reveals, free revealed advisors and elephants).
//!
//! - [`Position`]: a validated public position (pieces, covered points, pools, clocks), legal
//!   moves, check, `play`, perft, FEN.
//! - [`Move`]: from, to and the Jieqi reveal identity; ICCS text.
//! - [`Setup`] / [`FenError`]: FEN parsing with precise errors, then validation.
//! - [`Game`]: the history layer deciding outcomes (mate, repetition with perpetual check and
//!   chase, move limit, insufficient material).

mod bitboard;
mod chase;
mod fen;
mod game;
mod movegen;
mod moves;
pub mod notation;
mod piece;
mod position;
mod raw;
mod square;

pub use fen::{FenError, JIEQI_START, Setup, SideName, XIANGQI_START};
pub use game::{Game, MOVE_LIMIT_PLIES, PlayError};
pub use moves::{Move, MoveError};
pub use piece::{Piece, PieceKind};
pub use position::{FULL_SET, Occupant, Pool, Position, start_kind};
pub use raw::{Cell, cycle_verdict};
pub use square::{ParseSquareError, Square};

use crate::Variant;

impl crate::Position for Position {
    fn start(variant: Variant) -> Self {
        Position::parse_fen(variant, "startpos").expect("the start position is valid")
    }

    fn from_fen(variant: Variant, text: &str) -> Result<Self, FenError> {
        Position::parse_fen(variant, text)
    }

    fn fen(&self) -> String {
        self.to_fen()
    }

    fn is_check(&self) -> bool {
        self.in_check()
    }

    fn perft(&self, depth: u32) -> u64 {
        Position::perft(self, depth)
    }

    /// ICCS without reveal suffixes (a Jieqi player does not know what a covered piece is),
    /// sorted and deduplicated.
    fn legal_move_texts(&self) -> Vec<String> {
        let mut texts: Vec<String> = self
            .legal_moves_unrevealed()
            .into_iter()
            .map(Move::iccs)
            .collect();
        texts.sort();
        texts.dedup();
        texts
    }

    type SetupError = FenError;
    position_moves_from_inherent_methods!();
}

impl Position {
    /// The variant's start position (Jieqi: the public start, every piece but the generals
    /// covered).
    pub fn start(variant: Variant) -> Position {
        <Position as crate::Position>::start(variant)
    }

    /// The variant this position belongs to.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The side to move.
    pub fn turn(&self) -> crate::Side {
        self.turn
    }
}
