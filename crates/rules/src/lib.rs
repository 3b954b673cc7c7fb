//! Jiang's rules: the pure core under the server and the tools.
//!
//! Two families share this crate's vocabulary ([`Side`], [`Variant`], [`Outcome`], the
//! [`Position`] and [`Game`] traits):
//! - the xiangqi family (9×10 intersections): Xiangqi and Jieqi;
//! - the shogi family (N×N squares with pieces in hand): Shogi and Minishogi.
//!
//! Nothing here does I/O or async work; move generation allocates nothing per node.

mod any_game;
#[macro_use]
mod bits;
mod civil;
#[macro_use]
mod game;
pub mod import;
pub mod jieqi;
#[macro_use]
mod names;
mod outcome;
mod record_clock;
pub mod shogi;
mod side;
#[cfg(test)]
mod test_support;
mod variant;
pub mod variation;
pub mod xiangqi;

pub use any_game::{
    AnyGame, FamilyRecord, NotationStyle, PublicPosition, RecordError, RecordFormat, RecordInfo,
    RefusedMove, Setup, SetupError, TreeExportError, WrongFamily, per_side, unseen,
};
pub use civil::utc_civil;
pub use game::{Game, Position};
pub use outcome::{Outcome, Reason, UnknownReason};
pub use record_clock::RecordClock;
pub use side::{Piece, Side};
pub use variant::{Family, UnknownVariant, Variant};
