//! Why a game of any variant refused something: a move or a declaration, a set-up, a record.
//! Each is typed down to the family's own reason, so that a caller (the server's error codes,
//! a referee's forfeit line) can say exactly what was wrong. Nothing changes on a refusal.

use crate::jieqi::JieqiError;
use crate::shogi::notation::RecordError as ShogiRecordError;
use crate::variation::TreeError;
use crate::{Family, Reason, Variant, shogi, xiangqi};

use super::formats::{RecordFormat, formats_of};

/// Why the rules refused a move or a declaration, in whichever family: the family's own typed
/// reason. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RefusedMove {
    /// A xiangqi move that is not legal (or the game is over).
    #[error(transparent)]
    Xiangqi(#[from] xiangqi::PlayError),
    /// A Jieqi move that is not legal (or the game is over).
    #[error(transparent)]
    Jieqi(#[from] JieqiError),
    /// A shogi-family move that is not legal, or a declaration that does not hold.
    #[error(transparent)]
    Shogi(#[from] shogi::PlayError),
    /// USI `win` sent where a move was expected.
    #[error("`win` is a declaration, not a move")]
    DeclarationAsMove,
    /// An impasse declaration in a variant without one (the xiangqi family).
    #[error("{} has no impasse declaration", .0.name())]
    NoImpasse(Variant),
    /// The game was ended outside play (resignation, time, agreement, abort).
    #[error("the game is over ({0})")]
    Ended(Reason),
    /// Jieqi: a stored move's reveal is not the one the deal gives (corrupt data).
    #[error("stored move `{recorded}` does not match the deal (`{played}`)")]
    DealMismatch {
        /// The move as stored.
        recorded: String,
        /// The move as the deal plays it.
        played: String,
    },
}

/// Why a game could not be set up or rebuilt.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The custom start position is not valid.
    #[error("invalid fen: {0}")]
    BadFen(String),
    /// The handicap is unknown for this variant.
    #[error("{0}")]
    BadHandicap(String),
    /// The request combines things that do not go together (a FEN for Jieqi, …).
    #[error("{0}")]
    Unsupported(String),
    /// Stored data could not be replayed (corrupt database).
    #[error("stored game cannot be replayed: {0}")]
    Corrupt(String),
}

/// Why a record could not be written.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The format belongs to the other family.
    #[error("A {variant} record cannot be written as {}: use {}.", .format.extension(), formats_of(.variant.family()))]
    WrongFormat {
        /// The game's variant.
        variant: Variant,
        /// The format asked for.
        format: RecordFormat,
    },
    /// The shogi record writer refused the game.
    #[error("The record cannot be written: {0}.")]
    Unwritable(#[from] ShogiRecordError),
}

/// Why a move tree could not be written as a record.
#[derive(Debug, thiserror::Error)]
pub enum TreeExportError {
    /// The format does not fit the variant (or has no variations: CSA, KI2, FEN).
    #[error("A {variant} analysis cannot be exported as {}: use {}.", .format.extension(), if .variant.family() == Family::Xiangqi { "pgn" } else { "kif" })]
    WrongFormat {
        /// The variant.
        variant: Variant,
        /// The format asked for.
        format: RecordFormat,
    },
    /// A move of the tree is not legal where it stands.
    #[error("The tree has an illegal move at {0}.")]
    Tree(#[from] TreeError),
    /// The record writer refused the tree.
    #[error("The record cannot be written: {0}.")]
    Unwritable(#[from] ShogiRecordError),
}
