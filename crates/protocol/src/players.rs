//! Players without accounts: the player key's requests and answers, player pages, ratings and
//! the leaderboard.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::request::is_false;

/// `POST /api/players`: `{}` or `{"name": "…"}`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreatePlayer {
    /// The name to take (2–20 letters, digits, `_` or `-` of any script); absent: none yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// `PATCH /api/players/me`: `{"name": "…"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RenamePlayer {
    /// The new name.
    pub name: String,
}

/// The answer to `POST /api/players` and `POST /api/players/me/key`: the only answers that
/// carry the key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerCreated {
    /// The player's public id.
    pub id: String,
    /// The secret key (`Authorization: Player <key>`): whoever holds it is this player.
    pub key: String,
    /// The player's name, if one is set.
    pub name: Option<String>,
}

/// One rating of a player (one variant, one speed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingView {
    /// The Glicko-2 rating, rounded to a whole number.
    pub rating: i64,
    /// The rating deviation, rounded to a whole number.
    pub deviation: i64,
    /// Rated games played.
    pub games: u64,
    /// Whether the rating is provisional (deviation above 110).
    pub provisional: bool,
}

/// A player as others may see him: `GET /api/players/{id or name}` and `GET /api/players/me`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerView {
    /// The public id.
    pub id: String,
    /// The name, if set.
    pub name: Option<String>,
    /// When the player was created (milliseconds since the Unix epoch).
    pub created_at: i64,
    /// Real-time ratings by variant (only variants with at least one rated game).
    pub ratings: BTreeMap<String, RatingView>,
    /// Correspondence (untimed) ratings by variant.
    #[serde(default)]
    pub correspondence: BTreeMap<String, RatingView>,
    /// Each real-time rating after each rated game, oldest first, by variant: the graph.
    #[serde(default)]
    pub history: BTreeMap<String, Vec<RatingPoint>>,
    /// The player's latest games (at most 50), newest first.
    pub games: Vec<PlayerGame>,
    /// Puzzle ratings by variant (`games`: rated puzzle attempts), once the player tried one.
    #[serde(default)]
    pub puzzles: BTreeMap<String, RatingView>,
}

/// One point of a rating graph.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RatingPoint {
    /// The rated game that moved the rating.
    pub game: String,
    /// When (milliseconds since the Unix epoch).
    pub at: i64,
    /// The rating after it, rounded.
    pub rating: i64,
}

/// One game of a player's list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerGame {
    /// The game id.
    pub id: String,
    /// The variant.
    pub variant: String,
    /// Whether it was rated.
    pub rated: bool,
    /// `waiting`, `playing`, `ended` or `aborted`.
    pub status: String,
    /// The player's result once over: `win`, `loss` or `draw`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// The opponent, if it was a player (`null`: anonymous, the computer or a deleted player).
    pub opponent: Option<PlayerRef>,
    /// The rating change of a rated game, rounded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_change: Option<i64>,
    /// When it was created (milliseconds since the Unix epoch).
    pub created_at: i64,
    /// In progress and the player is to move (such games come first in the list).
    #[serde(default, skip_serializing_if = "is_false")]
    pub your_turn: bool,
    /// A correspondence game in progress: when the side to move loses on time (ms since the
    /// Unix epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<i64>,
}

/// A player named in another answer (a game's seats, a seek, a game list).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerRef {
    /// The public id.
    pub id: String,
    /// The name, if set.
    pub name: Option<String>,
    /// The player's rating in the game's variant and speed, if rated before (rounded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i64>,
    /// Whether that rating is provisional.
    #[serde(default, skip_serializing_if = "is_false")]
    pub provisional: bool,
}

/// `GET /api/leaderboard/{variant}`: non-provisional players, best first (at most 100).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Leaderboard {
    /// The variant.
    pub variant: String,
    /// `realtime` or `correspondence`.
    pub speed: String,
    /// Best first.
    pub players: Vec<LeaderboardEntry>,
}

/// One row of the leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderboardEntry {
    /// The public id.
    pub id: String,
    /// The name, if set.
    pub name: Option<String>,
    /// The rating, rounded.
    pub rating: i64,
    /// The deviation, rounded.
    pub deviation: i64,
    /// Rated games played.
    pub games: u64,
}

/// `POST /api/qr`: a QR code of a short text (the player page's carry link), as SVG.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QrRequest {
    /// The text to encode (at most 512 bytes).
    pub text: String,
}
