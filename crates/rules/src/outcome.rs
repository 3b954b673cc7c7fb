//! How a game ended, and why.

use std::fmt;

use crate::Side;

/// A reason name that Jiang does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown result reason `{0}`")]
pub struct UnknownReason(pub String);

named_enum! {
    /// Why a game ended. Every reason has a stable kebab-case name (`perpetual-check`, as in
    /// `../shared/rules/clocks-and-games.md`) used by the tools, the API and the records, and
    /// explained to players by the UI.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum Reason (unknown: UnknownReason) {
        /// The side to move is in check and has no legal move.
        Checkmate = "checkmate",
        /// The side to move has no legal move and is not in check (a loss in both families).
        Stalemate = "stalemate",
        /// A player resigned.
        Resignation = "resignation",
        /// A player's clock ran out.
        Timeout = "timeout",
        /// Xiangqi family: the clock ran out but the other side could never give check: a draw.
        TimeoutVsInsufficient = "timeout-vs-insufficient",
        /// A position occurred for the third (xiangqi) or fourth (shogi) time with no offender.
        Repetition = "repetition",
        /// The repeating side gave check with every move of the cycle: it loses.
        PerpetualCheck = "perpetual-check",
        /// The repeating side chased one piece with every move of the cycle (xiangqi): it loses.
        PerpetualChase = "perpetual-chase",
        /// Too long without a capture (xiangqi: 120 plies) or too long a game (shogi: 700 plies).
        MoveLimit = "move-limit",
        /// Nobody can ever give mate (xiangqi), or bare kings with empty hands (shogi).
        InsufficientMaterial = "insufficient-material",
        /// The players agreed to a draw.
        Agreement = "agreement",
        /// A shogi player declared impasse under the 27-point rule.
        Impasse = "impasse",
        /// The game was abandoned before both sides moved: no result.
        Aborted = "aborted",
        /// An untimed game nobody moved in for the server's abandonment period (30 days by
        /// default): over, with no winner and no result. An addition of Jiang's server to the
        /// rules reference's reasons: untimed games have no clock to end them.
        Abandoned = "abandoned",
        /// A player was away (no connection) past the server's grace period and the opponent
        /// claimed the win or a draw. An addition of Jiang's server, like `Abandoned`.
        Disconnection = "disconnection",
    }
}

/// The end of a game: who won (`None` for a draw or an abort) and the named reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, or `None` for a draw or an aborted game.
    pub winner: Option<Side>,
    /// Why the game ended.
    pub reason: Reason,
}

impl Outcome {
    /// `winner` wins for `reason`.
    pub const fn win(winner: Side, reason: Reason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// The end when `mover` has no legal move: it loses, by checkmate when in check and by
    /// stalemate otherwise (both families: neither has a stalemate draw).
    pub fn no_legal_move(mover: Side, in_check: bool) -> Outcome {
        Outcome::win(
            !mover,
            if in_check {
                Reason::Checkmate
            } else {
                Reason::Stalemate
            },
        )
    }

    /// A draw for `reason`.
    pub const fn draw(reason: Reason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// The result as written in records and by `jiang outcome`: `1-0` (the first side, Red or
    /// sente, wins), `0-1`, `1/2-1/2`, or `*` for an aborted or abandoned game, which has no result.
    pub const fn result(&self) -> &'static str {
        match (self.winner, self.reason) {
            (Some(Side::First), _) => "1-0",
            (Some(Side::Second), _) => "0-1",
            (None, Reason::Aborted | Reason::Abandoned) => "*",
            (None, _) => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    /// `<result> <reason>`, the line `jiang outcome` prints.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.result(), self.reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reason_names_round_trip() {
        for r in Reason::ALL {
            assert_eq!(r.name().parse::<Reason>(), Ok(r));
        }
    }

    #[test]
    fn results_are_written_from_the_first_side() {
        assert_eq!(
            Outcome::win(Side::SENTE, Reason::Impasse).to_string(),
            "1-0 impasse"
        );
        assert_eq!(
            Outcome::win(Side::BLACK, Reason::PerpetualChase).to_string(),
            "0-1 perpetual-chase"
        );
        assert_eq!(
            Outcome::draw(Reason::MoveLimit).to_string(),
            "1/2-1/2 move-limit"
        );
    }
}
