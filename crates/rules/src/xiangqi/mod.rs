//! The xiangqi family: Xiangqi and Jieqi on 9×10 intersections.
//!
//! Rules: `../shared/rules/xiangqi.md` and `../shared/rules/jieqi.md`.

mod piece;
mod square;
pub mod notation;

pub use piece::{Piece, PieceKind};
pub use square::{ParseSquareError, Square};
