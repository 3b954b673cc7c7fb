//! The lobby: open seeks, quick pairing, the live games list, the counts, and the lobby
//! WebSocket's messages; and the summaries behind a browser's "My games".

use serde::{Deserialize, Serialize};

use crate::request::is_false;

use crate::error::ErrorCode;
use crate::request::TimeControlSpec;
use crate::view::{GameResult, GameStatus};

/// `POST /api/lobby/pair`: join the oldest open seek of this variant and clock (no handicap),
/// or open one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairRequest {
    /// `xiangqi`, `jieqi`, `shogi` or `minishogi`.
    pub variant: String,
    /// The time control the seek must have exactly.
    pub clock: TimeControlSpec,
    /// Seeks this browser opened itself (game ids), never joined (at most 32).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub own: Vec<String>,
    /// Rated pairing (needs a player key): only rated seeks match, and the seek opened when
    /// none is free is rated.
    #[serde(default, skip_serializing_if = "is_false")]
    pub rated: bool,
}

/// The answer to a quick pairing: the seat taken (`created: false`, the game has started) or
/// the seek opened (`created: true`, waiting for an opponent).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Paired {
    /// The game id.
    pub id: String,
    /// The side of the seat.
    pub side: String,
    /// The seat's secret token.
    pub token: String,
    /// The game's page.
    pub url: String,
    /// Whether a new seek was opened (no matching seek was free).
    pub created: bool,
}

/// An open seek as the lobby shows it: a game waiting for anyone to take its free seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seek {
    /// The game id (joining is `POST /api/games/{id}/join`).
    pub id: String,
    /// The variant's name.
    pub variant: String,
    /// The time control; `null` for an untimed game.
    pub clock: Option<TimeControlSpec>,
    /// The side whoever joins plays (the free seat).
    pub side: String,
    /// The shogi-family handicap, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handicap: Option<String>,
    /// How long the seek has waited, in milliseconds, when the message was written.
    pub waiting_ms: u64,
    /// A rated seek (joining needs a player key).
    #[serde(default, skip_serializing_if = "is_false")]
    pub rated: bool,
    /// The creator, if it is a player, with its rating in this variant and speed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<crate::PlayerRef>,
    /// The ratings an opponent may have to join, `[min, max]`, if the creator set them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_range: Option<[i64; 2]>,
}

/// A game in play as the "Watch" list shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LiveGame {
    /// The game id.
    pub id: String,
    /// The variant's name.
    pub variant: String,
    /// The time control; `null` for an untimed game.
    pub clock: Option<TimeControlSpec>,
    /// The shogi-family handicap, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handicap: Option<String>,
    /// Plies played.
    pub moves: u64,
    /// Spectators connected.
    pub spectators: u64,
    /// In a game against the computer: its level (1–8); absent between two people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<u8>,
    /// Per side name, the player holding the seat (its rating as it was when seated).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub players: std::collections::BTreeMap<String, crate::PlayerRef>,
}

/// The counts at the top of the home page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LobbyCounts {
    /// Pages connected: open WebSockets, lobby and game ones (one per browser tab).
    pub players: u64,
    /// Games in play (both seats taken, not over), listed or not.
    pub games: u64,
}

/// The whole lobby: `GET /api/lobby`, and the lobby socket's `snapshot` message.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LobbySnapshot {
    /// Open seeks, oldest first (at most 100).
    pub seeks: Vec<Seek>,
    /// Games in play that are listed, most watched first, then the newest (at most 50).
    pub games: Vec<LiveGame>,
    /// The counts.
    pub counts: LobbyCounts,
}

/// The lobby socket's `update` message: what changed since the last message (apply in order;
/// entries replace those with the same id).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LobbyUpdate {
    /// Seeks new or changed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seeks: Vec<Seek>,
    /// Ids of seeks gone (taken, cancelled, expired, or no longer among the listed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seeks_gone: Vec<String>,
    /// Listed games new or changed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub games: Vec<LiveGame>,
    /// Ids of games gone from the list (over, or no longer among the listed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub games_gone: Vec<String>,
    /// The counts, when they changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counts: Option<LobbyCounts>,
}

/// A seat a page holds, shown to the lobby socket so that the seek stays open while the
/// creator's page is there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeldSeat {
    /// The game id.
    pub id: String,
    /// The seat token.
    pub token: String,
}

/// Lobby socket, client → server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum LobbyClientMessage {
    /// The seeks this page created (at most 32): each counts as present while the socket is
    /// open. Replaces the previous `hold`.
    Hold {
        /// The seats.
        seats: Vec<HeldSeat>,
    },
    /// Keep-alive; answered by `pong`.
    Ping {},
}

/// Lobby socket, server → client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum LobbyServerMessage {
    /// On connect, and again when the socket fell behind: the whole lobby.
    Snapshot(LobbySnapshot),
    /// At most every 250 ms: what changed.
    Update(LobbyUpdate),
    /// The answer to `ping`.
    Pong {},
    /// A client message was refused.
    Error {
        /// The code, as in HTTP errors.
        code: ErrorCode,
        /// A sentence for a person.
        message: String,
    },
}

/// `POST /api/summaries`: the games of these ids (at most 100).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SummariesRequest {
    /// Game ids.
    pub ids: Vec<String>,
}

/// The answer to `POST /api/summaries`: one summary per id that names a game, in the order
/// asked (unknown ids are left out).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summaries {
    /// The summaries.
    pub games: Vec<GameSummary>,
}

/// What anyone may see of a game at a glance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameSummary {
    /// The game id.
    pub id: String,
    /// The variant's name.
    pub variant: String,
    /// Where it stands.
    pub status: GameStatus,
    /// The time control; `null` for an untimed game.
    pub clock: Option<TimeControlSpec>,
    /// The shogi-family handicap, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handicap: Option<String>,
    /// Plies played.
    pub moves: u64,
    /// `null` until the end.
    pub result: Option<GameResult>,
    /// When it was created (ms since the Unix epoch).
    pub created_at: i64,
    /// When it last changed (ms since the Unix epoch).
    pub updated_at: i64,
    /// In progress: the side name to move (a browser compares it with its seat: "your turn").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_move: Option<String>,
    /// A correspondence game in progress: when the side to move loses on time (ms since the
    /// Unix epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<i64>,
}
