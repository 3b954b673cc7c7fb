//! HTTP request bodies and the small HTTP answers (create, join, notation, health).

use serde::{Deserialize, Serialize};

/// `POST /api/games`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// `xiangqi`, `jieqi`, `shogi` or `minishogi`.
    pub variant: String,
    /// The time control; absent: no clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<TimeControlSpec>,
    /// The creator's seat by side name, or `random` (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// A shogi-family handicap name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handicap: Option<String>,
    /// A custom start (FEN or SFEN; not for Jieqi).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fen: Option<String>,
    /// Open to anyone: listed in the lobby's seeks until someone joins, it is cancelled
    /// (abort) or the creator's page has been gone for the seek timeout.
    #[serde(default, skip_serializing_if = "is_false")]
    pub open: bool,
    /// Kept out of the lobby's "Watch" list (and its rematches too).
    #[serde(default, skip_serializing_if = "is_false")]
    pub unlisted: bool,
    /// Who holds the other seat; absent: a person (who joins through the invite link).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opponent: Option<Opponent>,
    /// A rated game: needs a player key (`Authorization: Player <key>` or the player cookie)
    /// here and from whoever joins, never against the computer, never from a custom start or
    /// a handicap.
    #[serde(default, skip_serializing_if = "is_false")]
    pub rated: bool,
    /// The ratings (in this variant and speed) an opponent may have to join, `[min, max]`
    /// inclusive: whoever joins needs a player key and a rating within it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_range: Option<[i64; 2]>,
}

/// Whether a flag is unset (to leave it out of the JSON).
pub(crate) fn is_false(b: &bool) -> bool {
    !*b
}

/// The opponent of a new game: `{"computer": <level>}` for Jiang's engine at a level from 1
/// (a beginner can beat it) to 8 (full strength for the clock); the server refuses other
/// levels with `invalid_level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Opponent {
    /// Jiang's engine at this level.
    Computer(u32),
}

/// The JSON form of a time control, in seconds:
/// `{"main": s, "increment": s, "byoyomi": s, "periods": n, "move_limit": s}`, or a
/// correspondence clock `{"days": n}` (n days per move, n one of 1, 2, 3, 5, 7, 10, 14; alone).
///
/// Every field may be omitted (0, or no move limit; `periods` defaults to 1 when `byoyomi` is
/// set, else 0); fractional seconds are accepted to the millisecond; unknown fields are refused
/// by name. The server validates it into its own time control.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControlSpec {
    /// Main time in seconds.
    #[serde(default, serialize_with = "ser_seconds")]
    pub main: f64,
    /// Fischer increment in seconds.
    #[serde(default, serialize_with = "ser_seconds")]
    pub increment: f64,
    /// One byo-yomi countdown in seconds.
    #[serde(default, serialize_with = "ser_seconds")]
    pub byoyomi: f64,
    /// Number of byo-yomi periods; absent means 1 with a byo-yomi, else 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub periods: Option<u32>,
    /// Per-move limit in main time, in seconds; absent or null means none.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        serialize_with = "ser_opt_seconds"
    )]
    pub move_limit: Option<f64>,
    /// Correspondence: days per move (1, 2, 3, 5, 7, 10 or 14), without any other field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
}

/// Seconds as a JSON integer when whole, else as a decimal.
fn ser_seconds<S: serde::Serializer>(secs: &f64, s: S) -> Result<S::Ok, S::Error> {
    if secs.fract() == 0.0 && *secs >= 0.0 && *secs < 1e15 {
        s.serialize_u64(*secs as u64)
    } else {
        s.serialize_f64(*secs)
    }
}

fn ser_opt_seconds<S: serde::Serializer>(secs: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match secs {
        Some(secs) => ser_seconds(secs, s),
        None => s.serialize_none(),
    }
}

/// `201` answer to a create: the new game and the creator's seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Created {
    /// The game id.
    pub id: String,
    /// The creator's side name.
    pub side: String,
    /// The creator's secret seat token.
    pub token: String,
    /// The game's page.
    pub url: String,
}

/// The answer to a join.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Joined {
    /// The seat's side name.
    pub side: String,
    /// The seat's secret token.
    pub token: String,
}

/// A body with no fields (join, resign, abort, impasse, rematch): `{}` or empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmptyRequest {}

/// `POST /api/games/{id}/move`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move in machine notation (Jieqi: without the reveal letter).
    #[serde(rename = "move")]
    pub mv: String,
}

/// `POST /api/games/{id}/draw`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawRequest {
    /// What to do.
    pub action: DrawAction,
}

/// The draw sub-actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DrawAction {
    /// Offer a draw (accepts the opponent's standing offer).
    Offer,
    /// Accept the opponent's offer.
    Accept,
    /// Decline the opponent's offer.
    Decline,
}

/// `GET /api/games/{id}/notation` answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotationList {
    /// The style's name.
    pub style: String,
    /// Every move so far in that style.
    pub moves: Vec<String>,
    /// Jieqi only: for each move, the note the move list shows after it for a reveal
    /// (` (R)`, `（车）`; `""` for a move that revealed nothing and in ICCS).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<Vec<String>>,
    /// The start and the position after each move: one more than `moves`.
    pub positions: Vec<crate::ShownPosition>,
}

/// `GET /healthz` answer when the store can commit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Health {
    /// Always `ok`.
    pub status: String,
}

/// `POST /api/import` answer: a record as Jiang read it (nothing is stored).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportedGame {
    /// The record's format: `pgn`, `kif`, `ki2`, `csa`, `position` or `usi`.
    pub format: String,
    /// The variant's name.
    pub variant: String,
    /// The start position (FEN or SFEN).
    pub start: String,
    /// The moves in machine notation (ICCS, Jieqi with reveals; USI).
    pub moves: Vec<String>,
    /// The outcome in Jiang's reasons, `null` when unfinished or an end Jiang has no reason for.
    pub result: Option<ImportedResult>,
    /// The side the record names as the winner.
    pub winner: Option<String>,
    /// The record's own words for an end Jiang has no reason for (`反則負け`, `%ILLEGAL_MOVE`).
    pub other_end: Option<String>,
    /// Per side name, the player's name the record gives (sides it names only).
    pub players: std::collections::BTreeMap<String, String>,
    /// The PGN tags in order, or the KIF/CSA fields, as `[name, value]` pairs.
    pub headers: Vec<(String, String)>,
    /// Per-move times in seconds, when the record has them (empty otherwise).
    pub move_seconds: Vec<u64>,
}

/// The outcome of an [`ImportedGame`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportedResult {
    /// The winning side's name, `null` for a draw.
    pub winner: Option<String>,
    /// Jiang's reason name.
    pub reason: String,
}
