//! The shogi family: Shogi (9×9) and Minishogi (5×5), squares with pieces in hand.
//!
//! Rules: `../shared/rules/shogi.md`.

mod piece;
mod square;

pub use piece::{Piece, PieceKind};
pub use square::{ParseSquareError, Square};
