//! What one observer of a Jieqi game may know.

use std::fmt;

use super::{Commitment, Deal, Salt};
use crate::xiangqi::{Piece, PieceKind, Pool, Square};
use crate::{Outcome, Side};

/// Who is looking at a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Observer {
    /// The Red player.
    Red,
    /// The Black player.
    Black,
    /// Anyone else.
    Spectator,
}

impl Observer {
    /// The player of `side`.
    pub const fn player(side: Side) -> Observer {
        match side {
            Side::First => Observer::Red,
            Side::Second => Observer::Black,
        }
    }

    /// The side this observer plays, if a player.
    pub const fn side(self) -> Option<Side> {
        match self {
            Observer::Red => Some(Side::RED),
            Observer::Black => Some(Side::BLACK),
            Observer::Spectator => None,
        }
    }
}

impl From<Option<Side>> for Observer {
    /// A player's seat, or a spectator for `None`.
    fn from(side: Option<Side>) -> Observer {
        side.map_or(Observer::Spectator, Observer::player)
    }
}

/// A captured piece as one observer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CapturedPiece {
    /// 1-based ply of the capturing move.
    pub ply: usize,
    /// Where it was captured.
    pub square: Square,
    /// Whose piece it was.
    pub side: Side,
    /// Whether it was face down when captured.
    pub was_covered: bool,
    /// What it was, if this observer may know: `None` for a covered piece captured by
    /// someone else before the game ended.
    pub piece: Option<Piece>,
}

/// Counts of identities of one side that an observer has not seen yet ("still hidden: 2
/// chariots, 1 horse, …").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnseenPool(Pool);

impl UnseenPool {
    pub(super) const fn full() -> UnseenPool {
        UnseenPool(Pool::FULL)
    }

    pub(super) const fn empty() -> UnseenPool {
        UnseenPool(Pool::EMPTY)
    }

    pub(super) fn remove(&mut self, kind: PieceKind) {
        self.0.remove(kind);
    }

    /// How many of `kind` are unseen.
    pub const fn count(&self, kind: PieceKind) -> u8 {
        self.0.count(kind)
    }

    /// How many identities in all.
    pub fn total(&self) -> u32 {
        self.0.total()
    }

    /// `A2B2N2R2C2P5`-style text for `side` (zero counts left out; `-` when empty), as in
    /// the Jieqi FEN pool.
    pub fn text(&self, side: Side) -> String {
        if self.0.is_empty() {
            "-".to_owned()
        } else {
            self.0.fen_text(side)
        }
    }
}

/// Everything that was secret, published when the game ends.
#[derive(Clone, PartialEq, Eq)]
pub struct Revelation {
    /// The deal (check it against the commitment with [`super::verify`]).
    pub deal: Deal,
    /// The salt.
    pub salt: Salt,
    /// The identity of every piece still face down at the end.
    pub covered: Vec<(Square, Piece)>,
}

impl fmt::Debug for Revelation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Revelation")
            .field("deal", &self.deal.to_string())
            .field("salt", &self.salt.to_string())
            .field("covered", &self.covered)
            .finish()
    }
}

/// What one observer may know of a Jieqi game (jieqi.md): public information, the
/// identities of covered pieces this observer captured, and after the end everything.
/// Built only by [`super::JieqiGame::view`]; nothing in it is derived from an identity the
/// observer may not know, so it (and its `Debug` text) can be sent as is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JieqiView {
    /// Whose view this is.
    pub observer: Observer,
    /// The public start (`xxxxkxxxx/…`).
    pub initial_fen: String,
    /// The public position now: covered points as `X`/`x`, the public pools.
    pub fen: String,
    /// The moves played, ICCS with reveal suffixes (`b0c2R`).
    pub moves: Vec<String>,
    /// Plies played.
    pub ply: usize,
    /// The side to move.
    pub to_move: Side,
    /// Pieces captured **by** Red (index 0) and by Black (index 1), in order.
    pub captured: [Vec<CapturedPiece>; 2],
    /// Red's (index 0) and Black's (index 1) identities this observer has not seen yet;
    /// empty for both after the end.
    pub pools: [UnseenPool; 2],
    /// How many face-down pieces Red (0) and Black (1) have on the board.
    pub covered: [u32; 2],
    /// The commitment published at the start.
    pub commitment: Commitment,
    /// The outcome, once the game has ended.
    pub outcome: Option<Outcome>,
    /// After the end: the deal, the salt and the identities still face down.
    pub revelation: Option<Revelation>,
}
