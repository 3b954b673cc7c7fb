//! How a game ended, and why.

use std::fmt;
use std::str::FromStr;

use crate::Side;

/// Why a game ended. Every reason has a stable kebab-case name (`perpetual-check`) used by the
/// tools, the API and the records, and explained to players by the UI.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move has no legal move and is not in check (a loss in both families).
    Stalemate,
    /// A player resigned.
    Resignation,
    /// A player's clock ran out.
    Timeout,
    /// Xiangqi family: the clock ran out but the other side could never give check: a draw.
    TimeoutVsInsufficient,
    /// A position occurred for the third (xiangqi) or fourth (shogi) time with no offender.
    Repetition,
    /// The repeating side gave check with every move of the cycle: it loses.
    PerpetualCheck,
    /// The repeating side chased one piece with every move of the cycle (xiangqi): it loses.
    PerpetualChase,
    /// Too long without a capture (xiangqi: 120 plies) or too long a game (shogi: 700 plies).
    MoveLimit,
    /// Nobody can ever give mate (xiangqi), or bare kings with empty hands (shogi).
    InsufficientMaterial,
    /// The players agreed to a draw.
    Agreement,
    /// A shogi player declared impasse under the 27-point rule.
    Impasse,
    /// The game was abandoned before both sides moved: no result.
    Aborted,
    /// An untimed game nobody moved in for the server's abandonment period (30 days by
    /// default): over, with no winner and no result. An addition of Jiang's server to the
    /// rules reference's reasons: untimed games have no clock to end them.
    Abandoned,
    /// A player was away (no connection) past the server's grace period and the opponent
    /// claimed the win or a draw. An addition of Jiang's server, like `Abandoned`.
    Disconnection,
}

/// A reason name that Jiang does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown result reason `{0}`")]
pub struct UnknownReason(pub String);

impl Reason {
    /// Every reason.
    pub const ALL: [Reason; 15] = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::Resignation,
        Reason::Timeout,
        Reason::TimeoutVsInsufficient,
        Reason::Repetition,
        Reason::PerpetualCheck,
        Reason::PerpetualChase,
        Reason::MoveLimit,
        Reason::InsufficientMaterial,
        Reason::Agreement,
        Reason::Impasse,
        Reason::Aborted,
        Reason::Abandoned,
        Reason::Disconnection,
    ];

    /// The stable kebab-case name, as in `../shared/rules/clocks-and-games.md`.
    pub const fn name(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::Resignation => "resignation",
            Reason::Timeout => "timeout",
            Reason::TimeoutVsInsufficient => "timeout-vs-insufficient",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual-check",
            Reason::PerpetualChase => "perpetual-chase",
            Reason::MoveLimit => "move-limit",
            Reason::InsufficientMaterial => "insufficient-material",
            Reason::Agreement => "agreement",
            Reason::Impasse => "impasse",
            Reason::Aborted => "aborted",
            Reason::Abandoned => "abandoned",
            Reason::Disconnection => "disconnection",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Reason {
    type Err = UnknownReason;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Reason::ALL
            .into_iter()
            .find(|r| r.name() == s)
            .ok_or_else(|| UnknownReason(s.to_owned()))
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
