//! The table's typed refusals (set-up, play, records) and the one mapping of the rules'
//! refusals to the wire's `ErrorReason`.

use jiang_rules::jieqi::JieqiError;
use jiang_rules::shogi::notation::RecordError as ShogiRecordError;
use jiang_rules::{Reason, RefusedMove, Variant, shogi, xiangqi};

use jiang_protocol::ErrorReason;

use super::formats::{RecordFormat, formats_of};

/// Why a table could not be set up.
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

/// Why a move, a stored move or a declaration was refused. Nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The rules refused it: the family's own typed reason (the move does not parse or is not
    /// legal, the game is over, a declaration does not hold or the variant has none).
    #[error(transparent)]
    Rules(#[from] RefusedMove),
    /// The game was ended outside play (resignation, time, …).
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

impl From<xiangqi::PlayError> for PlayError {
    fn from(error: xiangqi::PlayError) -> Self {
        PlayError::Rules(error.into())
    }
}

impl From<JieqiError> for PlayError {
    fn from(error: JieqiError) -> Self {
        PlayError::Rules(error.into())
    }
}

impl From<shogi::PlayError> for PlayError {
    fn from(error: shogi::PlayError) -> Self {
        PlayError::Rules(error.into())
    }
}

impl PlayError {
    /// The stable name of the rules' typed reason, for clients that say it in their reader's
    /// language (docs/api.md, Errors); `None` where the rules give no finer reason than the code.
    pub fn reason(&self) -> Option<ErrorReason> {
        match self {
            PlayError::Rules(refused) => refused_reason(refused),
            PlayError::Ended(_) => Some(ErrorReason::GameOver),
            PlayError::DealMismatch { .. } => None,
        }
    }
}

/// See [`PlayError::reason`].
pub(super) fn refused_reason(refused: &RefusedMove) -> Option<ErrorReason> {
    match refused {
        RefusedMove::Xiangqi(xiangqi::PlayError::Illegal(e)) => Some(xiangqi_move_reason(e)),
        RefusedMove::Xiangqi(xiangqi::PlayError::GameOver(_)) => Some(ErrorReason::GameOver),
        RefusedMove::Jieqi(JieqiError::Malformed(_)) => Some(ErrorReason::Malformed),
        RefusedMove::Jieqi(JieqiError::Illegal(e)) => Some(xiangqi_move_reason(e)),
        RefusedMove::Jieqi(JieqiError::GameOver(_)) => Some(ErrorReason::GameOver),
        RefusedMove::Jieqi(JieqiError::DealMismatch { .. }) => None,
        RefusedMove::Shogi(shogi::PlayError::GameOver(_)) => Some(ErrorReason::GameOver),
        RefusedMove::Shogi(shogi::PlayError::NotLegal { reason, .. }) => {
            Some(shogi_move_reason(reason))
        }
        RefusedMove::Shogi(shogi::PlayError::Move(shogi::MoveError::Syntax(_))) => {
            Some(ErrorReason::Malformed)
        }
        RefusedMove::Shogi(shogi::PlayError::Move(shogi::MoveError::Illegal {
            reason, ..
        })) => Some(shogi_move_reason(reason)),
        RefusedMove::Shogi(shogi::PlayError::Impasse(e)) => match e {
            shogi::ImpasseError::KingNotInZone => Some(ErrorReason::KingNotInZone),
            shogi::ImpasseError::TooFewPieces { .. } => Some(ErrorReason::TooFewPieces),
            shogi::ImpasseError::InCheck => Some(ErrorReason::InCheck),
            shogi::ImpasseError::TooFewPoints { .. } => Some(ErrorReason::TooFewPoints),
            // The server refuses these before asking the rules (impasse_not_allowed,
            // game_over): the code says all there is.
            shogi::ImpasseError::NotAvailable(_) | shogi::ImpasseError::GameOver => None,
        },
        // The code says all there is: a declaration in a variant without one is refused
        // (impasse_not_allowed) before a table is asked, and `win` is only read as one.
        RefusedMove::NoImpasse(_) | RefusedMove::DeclarationAsMove => None,
    }
}

/// The reason for a refused Xiangqi or Jieqi move.
pub(super) fn xiangqi_move_reason(error: &xiangqi::MoveError) -> ErrorReason {
    use xiangqi::MoveError as E;
    match error {
        E::Malformed(_) => ErrorReason::Malformed,
        E::NoPiece(_) => ErrorReason::NoPiece,
        E::NotYourPiece(_) => ErrorReason::NotYourPiece,
        E::Unreachable { .. } => ErrorReason::Unreachable,
        E::LeavesGeneralAttacked { .. } => ErrorReason::LeavesGeneralInCheck,
        E::MissingReveal { .. }
        | E::UnexpectedReveal { .. }
        | E::BadRevealLetter { .. }
        | E::RevealNotInPool { .. } => ErrorReason::RevealLetter,
    }
}

/// The reason for a refused Shogi or Minishogi move.
pub(super) fn shogi_move_reason(error: &shogi::Illegal) -> ErrorReason {
    use shogi::Illegal as E;
    match error {
        E::OffBoard { .. } => ErrorReason::OffBoard,
        E::NotInHand(_) => ErrorReason::NotInHand,
        E::DropOnOccupied(_) => ErrorReason::DropOnOccupied,
        E::DeadDrop(_) => ErrorReason::DeadDrop,
        E::Nifu { .. } => ErrorReason::Nifu,
        E::Uchifuzume => ErrorReason::Uchifuzume,
        E::NoPiece(_) => ErrorReason::NoPiece,
        E::NotYourPiece(_) => ErrorReason::NotYourPiece,
        E::OwnPieceOnTarget(_) | E::Unreachable { .. } => ErrorReason::Unreachable,
        E::CannotPromote(_) | E::PromotionOutsideZone => ErrorReason::CannotPromote,
        E::MustPromote { .. } => ErrorReason::MustPromote,
        E::IgnoresCheck | E::LeavesKingInCheck => ErrorReason::LeavesKingInCheck,
        E::GameOver(_) => ErrorReason::GameOver,
    }
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
