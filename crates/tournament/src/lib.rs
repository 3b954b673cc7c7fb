//! Jiang's tournament core: scoring, standings and pairings for arena and Swiss tournaments.
//!
//! Everything here is a pure function of a tournament's settings and its list of games: no I/O,
//! no async, no clock (times come in as plain milliseconds). The server stores the games; the
//! standings and the next pairings are recomputed from them, so a restart loses nothing.
//!
//! - [`arena`]: lichess-style arenas (fixed duration, join and leave at will): points with
//!   streaks ("on fire") and berserk, standings, and pairing of the players waiting for a game.
//! - [`swiss`]: Swiss tournaments (fixed number of rounds): half-point scoring, byes, Buchholz and
//!   Sonneborn–Berger tie-breaks, and a Dutch-style pairing without repeats.
//!
//! The rules are written out for players in `docs/tournaments.md`.

#![warn(missing_docs)]

pub mod arena;
mod matching;
pub mod swiss;

use serde::{Deserialize, Serialize};
use std::fmt;

pub use arena::{
    ArenaGame, ArenaStanding, MIN_PLIES_FOR_BERSERK_BONUS, MIN_PLIES_FOR_DRAW_POINTS, SheetEntry,
    SheetOutcome, Waiting, arena_pairings, arena_standings,
};
pub use swiss::{
    RoundPairing, SwissGame, SwissPlayer, SwissRound, SwissStanding, swiss_pairings,
    swiss_standings,
};

/// An opaque player identity. The tournament core never looks inside: the server decides what
/// it holds (a player key's public id, a name).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct PlayerId(pub String);

impl PlayerId {
    /// A player id from anything string-like (convenient in tests and the server).
    pub fn new(id: impl Into<String>) -> Self {
        PlayerId(id.into())
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One of the two seats of a game. The first seat moves first (Red in xiangqi and Jieqi, Sente
/// in shogi); "colour" in the pairing rules means the seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Seat {
    /// The seat that moves first.
    First,
    /// The seat that moves second.
    Second,
}

impl Seat {
    /// The other seat.
    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }
}

/// How a tournament game ended, as far as the tournament cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GameResult {
    /// The player in the first seat won.
    FirstWins,
    /// The player in the second seat won.
    SecondWins,
    /// Neither won.
    Draw,
    /// The game did not really take place (aborted before it started, a technical failure):
    /// no points, and it does not count as a game played (see each module for the details).
    Aborted,
}

impl GameResult {
    /// The result from `seat`'s point of view: `Some(true)` won, `Some(false)` lost, `None` for
    /// a draw or an aborted game.
    fn won_by(self, seat: Seat) -> Option<bool> {
        match (self, seat) {
            (GameResult::FirstWins, Seat::First) | (GameResult::SecondWins, Seat::Second) => {
                Some(true)
            }
            (GameResult::FirstWins, Seat::Second) | (GameResult::SecondWins, Seat::First) => {
                Some(false)
            }
            _ => None,
        }
    }
}

/// Two players to start a game: `first` takes the first seat.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pair {
    /// The player in the first seat.
    pub first: PlayerId,
    /// The player in the second seat.
    pub second: PlayerId,
}

/// Why no pairing could be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    /// Fewer than two players are present, so nobody can be paired.
    #[error("fewer than two players are present")]
    NotEnoughPlayers,
    /// A player appears twice in the list of present players.
    #[error("player {0} is listed twice")]
    DuplicatePlayer(PlayerId),
    /// The stored games are inconsistent (a player twice in one round, a player against
    /// themself); the message says what.
    #[error("the tournament history is inconsistent: {0}")]
    InvalidHistory(String),
    /// Every way of pairing the present players repeats a game already played (or needs a second
    /// bye): the Swiss cannot go on and should end early, as lichess Swiss tournaments do.
    #[error("no pairing without a repeated game exists")]
    NoPairingWithoutRepeat,
}
