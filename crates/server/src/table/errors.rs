//! The one mapping of the rules' typed refusals to the wire's `ErrorReason`.

use jiang_rules::jieqi::JieqiError;
use jiang_rules::{RefusedMove, shogi, xiangqi};

use jiang_protocol::ErrorReason;

/// The wire's name for a typed refusal of the rules.
pub trait Refusal {
    /// The stable name of the rules' typed reason, for clients that say it in their reader's
    /// language (docs/api.md, Errors); `None` where the rules give no finer reason than the
    /// code.
    fn reason(&self) -> Option<ErrorReason>;
}

impl Refusal for RefusedMove {
    fn reason(&self) -> Option<ErrorReason> {
        refused_reason(self)
    }
}

fn refused_reason(refused: &RefusedMove) -> Option<ErrorReason> {
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
        RefusedMove::Ended(_) => Some(ErrorReason::GameOver),
        // The code says all there is: a declaration in a variant without one is refused
        // (impasse_not_allowed) before a game is asked, `win` is only read as one, and a
        // stored move the deal contradicts is corrupt data, not a player's mistake.
        RefusedMove::NoImpasse(_)
        | RefusedMove::DeclarationAsMove
        | RefusedMove::DealMismatch { .. } => None,
    }
}

/// The reason for a refused Xiangqi or Jieqi move.
fn xiangqi_move_reason(error: &xiangqi::MoveError) -> ErrorReason {
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
fn shogi_move_reason(error: &shogi::Illegal) -> ErrorReason {
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
