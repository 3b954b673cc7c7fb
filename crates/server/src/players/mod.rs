//! Players without accounts: a public id and a secret key the browser (or an API client)
//! holds, a unique name, and ratings. This room owns the rules of names and keys, who a request
//! is ([`Auth`]), and what a player page, a game list and the leaderboard show. Everything is
//! read from and written through the store, never cached on a node (so it holds across cluster
//! nodes); ratings change only in the transaction that stores a rated game's end (see
//! `store::players` and `game`).
//!
//! Rooms: `names` (name rules and the uniqueness key), `handlers` (the `/api/players` and
//! `/api/leaderboard` endpoints).
//!
//! May use: `store`, `rating`, `seat`, `error`, `http::state` and `http::extract` (handlers).
//! The game and lobby handlers ask it who a request is (`handlers::who`) to seat a player;
//! the game actors read a joining player's name and rating through it (`player_ref`).

pub(crate) mod handlers;
mod names;

use std::collections::BTreeMap;

use axum::http::{HeaderMap, HeaderValue, header};
use jiang_protocol::{PlayerGame, PlayerRef, PlayerView, RatingPoint, RatingView};
use subtle::ConstantTimeEq;

use crate::error::{ApiError, ErrorCode};
use crate::rating::{self, Rating};
use crate::seat;
use crate::store::{Backend, PlayerRow, RatingRow, StoreError};
pub use names::{NameError, name_key, valid_name};

/// The cookie that keeps the browser's player key (HttpOnly: no script reads it).
pub const COOKIE: &str = "jiang_player";

/// The speed of real-time (timed) games' ratings.
pub const REALTIME: &str = "realtime";
/// The speed of correspondence games' ratings (days per move, or untimed).
pub const CORRESPONDENCE: &str = "correspondence";

/// The most games a player page lists.
const PAGE_GAMES: i64 = 50;
/// The most points of rating history a player page carries.
const PAGE_HISTORY: i64 = 500;

/// A new player id: 12 base62 characters.
pub fn new_player_id() -> String {
    seat::random_base62(12)
}

/// A new player key: 43 base62 characters (about 256 bits).
pub fn new_key() -> String {
    seat::random_base62(43)
}

/// The key from a request's `Authorization: Player <key>` header, if any.
pub(crate) fn header_key(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let key = value
        .strip_prefix("Player ")
        .or_else(|| value.strip_prefix("player "))?;
    Some(key.trim().to_owned())
}

/// The `Set-Cookie` value that keeps `key` (a year; HttpOnly, `SameSite=Lax`, `Secure` when
/// the public URL is https), or that clears it when `key` is `None`.
pub(crate) fn key_cookie(key: Option<&str>, secure: bool) -> HeaderValue {
    let (value, age) = match key {
        Some(key) => (key, 31_536_000),
        None => ("", 0),
    };
    HeaderValue::from_str(&format!(
        "{COOKIE}={value}; Path=/; Max-Age={age}; HttpOnly; SameSite=Lax{}",
        if secure { "; Secure" } else { "" }
    ))
    .expect("base62 cookie is a valid header")
}

/// Who a request is, as far as players go.
#[derive(Clone, Debug, Default)]
pub(crate) struct Auth {
    /// The player the key belongs to.
    pub player: Option<PlayerRow>,
    /// A key was given and is wrong (rotated away, deleted, mistyped).
    pub wrong: bool,
    /// The key came from the `Authorization` header (not the cookie).
    pub explicit: bool,
}

impl Auth {
    /// The player, or `401` (`wrong_player_key` or `player_key_required`).
    pub(crate) fn require(&self) -> Result<&PlayerRow, ApiError> {
        match &self.player {
            Some(p) => Ok(p),
            None if self.wrong => Err(wrong_key()),
            None => Err(key_required()),
        }
    }

    /// The player if any; a wrong key in the header is `401`, a stale cookie just means
    /// nobody (the browser plays on as before).
    pub(crate) fn optional(&self) -> Result<Option<&PlayerRow>, ApiError> {
        if self.wrong && self.explicit {
            return Err(wrong_key());
        }
        Ok(self.player.as_ref())
    }
}

/// `401 player_key_required`.
pub(crate) fn key_required() -> ApiError {
    ApiError::new(
        ErrorCode::PlayerKeyRequired,
        "This needs a player key: Authorization: Player <key>, or become a player first.",
    )
}

/// `401 wrong_player_key`.
pub(crate) fn wrong_key() -> ApiError {
    ApiError::new(
        ErrorCode::WrongPlayerKey,
        "The player key is wrong, replaced by a newer one or of a deleted player.",
    )
}

/// The player whose key is `key` (looked up by its hash, then compared in constant time).
pub(crate) async fn by_key(
    backend: &dyn Backend,
    key: &str,
) -> Result<Option<PlayerRow>, ApiError> {
    let hash = seat::hash_token(key);
    let row = backend.player_by_key(&hash).await.map_err(read_error)?;
    Ok(row.filter(|p| {
        p.key_hash
            .as_deref()
            .is_some_and(|stored| bool::from(stored.as_bytes().ct_eq(hash.as_bytes())))
    }))
}

/// Who `key` (from the header when `explicit`, else the cookie) is.
pub(crate) async fn authenticate(
    backend: &dyn Backend,
    key: Option<String>,
    explicit: bool,
) -> Result<Auth, ApiError> {
    let Some(key) = key else {
        return Ok(Auth::default());
    };
    let player = by_key(backend, &key).await?;
    Ok(Auth {
        wrong: player.is_none(),
        player,
        explicit,
    })
}

/// A failed read as the API's error.
pub(crate) fn read_error(e: StoreError) -> ApiError {
    tracing::error!(error = %e, "player read failed");
    ApiError::storage_unavailable()
}

/// A stored rating as the wire shows it.
pub fn rating_view(row: &RatingRow) -> RatingView {
    RatingView {
        rating: row.rating.round() as i64,
        deviation: row.deviation.round() as i64,
        games: u64::try_from(row.games).unwrap_or(0),
        provisional: row.deviation > rating::PROVISIONAL_DEVIATION,
    }
}

/// The speed of a game's rating: real-time with a live clock, correspondence with a
/// correspondence clock (days per move) or none.
pub fn speed_of(control: Option<&crate::clock::TimeControl>) -> &'static str {
    match control {
        Some(control) if !control.is_correspondence() => REALTIME,
        _ => CORRESPONDENCE,
    }
}

/// The score of side `side` (index) in a stored result (`{"winner": 0|1|null, …}`).
fn result_of(side: i64, result: Option<&str>) -> Option<String> {
    let value: serde_json::Value = serde_json::from_str(result?).ok()?;
    let text = match value.get("winner").and_then(serde_json::Value::as_i64) {
        None => "draw",
        Some(w) if w == side => "win",
        Some(_) => "loss",
    };
    Some(text.to_owned())
}

/// Player `row`'s page: ratings, rating history and latest games.
pub(crate) async fn page(backend: &dyn Backend, row: PlayerRow) -> Result<PlayerView, ApiError> {
    let ratings = backend.player_ratings(&row.id).await.map_err(read_error)?;
    let mut realtime = BTreeMap::new();
    let mut correspondence = BTreeMap::new();
    for r in &ratings {
        let map = if r.speed == REALTIME {
            &mut realtime
        } else {
            &mut correspondence
        };
        map.insert(r.variant.clone(), rating_view(r));
    }
    let mut history: BTreeMap<String, Vec<RatingPoint>> = BTreeMap::new();
    for h in backend
        .rating_history(&row.id, PAGE_HISTORY)
        .await
        .map_err(read_error)?
        .into_iter()
        .filter(|h| h.speed == REALTIME)
    {
        history.entry(h.variant).or_default().push(RatingPoint {
            game: h.game_id,
            at: h.at_ms,
            rating: h.rating.round() as i64,
        });
    }
    let games = backend
        .player_games(&row.id, PAGE_GAMES)
        .await
        .map_err(read_error)?
        .into_iter()
        .map(|g| {
            let playing = g.status == "playing";
            PlayerGame {
                result: if g.status == "ended" {
                    result_of(g.side, g.result.as_deref())
                } else {
                    None
                },
                id: g.game_id,
                variant: g.variant,
                rated: g.rated != 0,
                status: g.status,
                opponent: g.opponent_id.map(|id| PlayerRef {
                    id,
                    name: g.opponent_name,
                    rating: None,
                    provisional: false,
                }),
                rating_change: g.rating_change.map(|c| c.round() as i64),
                created_at: g.created_at,
                your_turn: playing && g.to_move == Some(g.side),
                deadline: g.deadline_at.filter(|_| playing),
            }
        })
        .collect();
    let puzzles = backend
        .puzzle_ratings(&row.id)
        .await
        .map_err(read_error)?
        .into_iter()
        .map(|r| {
            let view = RatingView {
                rating: r.rating.round() as i64,
                deviation: r.deviation.round() as i64,
                games: r.attempts.max(0) as u64,
                provisional: r.deviation > rating::PROVISIONAL_DEVIATION,
            };
            (r.variant, view)
        })
        .collect();
    Ok(PlayerView {
        id: row.id,
        name: row.name,
        created_at: row.created_at,
        ratings: realtime,
        correspondence,
        history,
        games,
        puzzles,
    })
}

/// Player `id` as another answer names it (a seek, a game's seats), with its rating in
/// `variant` and `speed`; `None` if it is deleted or unknown.
pub(crate) async fn player_ref(
    backend: &dyn Backend,
    id: &str,
    variant: &str,
    speed: &str,
) -> Result<Option<PlayerRef>, StoreError> {
    let Some(player) = backend.find_player(id, "").await? else {
        return Ok(None);
    };
    if player.deleted_at.is_some() {
        return Ok(None);
    }
    let rating = backend
        .ratings_of(std::slice::from_ref(&player.id), variant, speed)
        .await?
        .into_iter()
        .next()
        .map_or_else(Rating::default, |r| Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        });
    Ok(Some(PlayerRef {
        id: player.id,
        name: player.name,
        rating: Some(rating.rating.round() as i64),
        provisional: rating.provisional(),
    }))
}
