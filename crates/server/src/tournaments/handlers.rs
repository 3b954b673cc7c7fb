//! The tournament endpoints: `POST /api/tournaments`, `GET /api/tournaments`,
//! `GET /api/tournaments/{id}`, `POST /api/tournaments/{id}/join`, `…/withdraw`, `…/berserk`.
//! Thin: each checks the request, writes through the store, pokes the pairing loop and tells
//! the tournament's sockets.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use jiang_protocol::{
    CreateTournament, EmptyRequest, TournamentBerserk, TournamentEntry, TournamentKind,
    TournamentList, TournamentStatus, TournamentView, to_sorted_value,
};
use serde_json::Value;

use super::{Loaded, kind_name, load, my_game, names, publish_standings, state_of, summary};
use crate::clock::TimeControl;
use crate::error::{ApiError, ErrorCode};
use crate::game::Action;
use crate::http::extract::JsonBody;
use crate::http::games::parse_variant;
use crate::http::state::AppState;
use crate::players::handlers::who;
use crate::players::read_error;
use crate::store::{StoreError, TournamentRow, TournamentWrite, Write, now_ms};

/// The longest arena, in minutes (a day).
pub const MAX_MINUTES: u32 = 24 * 60;
/// The most rounds of a Swiss.
pub const MAX_ROUNDS: u32 = 50;
/// How far ahead a tournament may be scheduled (30 days), in milliseconds.
pub const MAX_AHEAD_MS: i64 = 30 * 24 * 3600 * 1000;
/// How far in the past `starts_at` may lie (a client's clock a little behind), in milliseconds.
const PAST_SLACK_MS: i64 = 5 * 60 * 1000;
/// Tournaments a player may have created that are not finished yet.
pub const MAX_OPEN_PER_PLAYER: i64 = 5;
/// Tournaments of each status `GET /api/tournaments` lists.
const LIST_SIZE: i64 = 50;

fn not_found() -> ApiError {
    ApiError::new(
        ErrorCode::TournamentNotFound,
        "There is no tournament with that id.",
    )
}

/// Tournament `id` with its entries and games, or `404 tournament_not_found`.
async fn tournament(state: &AppState, id: &str) -> Result<Loaded, ApiError> {
    if id.is_empty() || id.len() > 32 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(not_found());
    }
    load(&*state.games.store().backend(), id)
        .await
        .map_err(read_error)?
        .ok_or_else(not_found)
}

/// Stores `write`; the database's failures are `503`.
async fn store(state: &AppState, write: TournamentWrite) -> Result<(), ApiError> {
    match state
        .games
        .store()
        .write(vec![Write::Tournament(write)])
        .await
    {
        Ok(()) => Ok(()),
        Err(StoreError::Closed) => Err(ApiError::unavailable()),
        Err(e) => {
            tracing::error!(error = %e, "tournament write failed");
            Err(ApiError::storage_unavailable())
        }
    }
}

/// `POST /api/tournaments` (player key required): `201` with the new tournament's summary.
pub(crate) async fn create(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<CreateTournament>,
) -> Result<Response, ApiError> {
    let auth = who(&state, &headers, true).await?;
    let me = auth.require()?.id.clone();
    let variant = parse_variant(&request.variant)?;
    let open = state
        .games
        .store()
        .backend()
        .open_tournaments_by(&me)
        .await
        .map_err(read_error)?;
    if open >= MAX_OPEN_PER_PLAYER {
        return Err(ApiError::new(
            ErrorCode::TooManyTournaments,
            format!(
                "You already have {MAX_OPEN_PER_PLAYER} tournaments that are not finished; \
                 wait for one to end."
            ),
        ));
    }
    let control = TimeControl::try_from(request.clock)
        .map_err(|e| ApiError::invalid_request(format_args!("`clock`: {e}")))?;
    if control.is_correspondence() {
        return Err(ApiError::invalid_request(
            "`clock`: clock.days: tournaments are played on live clocks",
        ));
    }
    let (minutes, rounds) = match request.kind {
        TournamentKind::Arena => {
            if request.rounds.is_some() {
                return Err(ApiError::invalid_request(
                    "an arena lasts `minutes`; `rounds` is for a Swiss",
                ));
            }
            match request.minutes {
                Some(m) if (1..=MAX_MINUTES).contains(&m) => (Some(i64::from(m)), None),
                _ => {
                    return Err(ApiError::invalid_request(format_args!(
                        "an arena needs `minutes`, 1 to {MAX_MINUTES}"
                    )));
                }
            }
        }
        TournamentKind::Swiss => {
            if request.minutes.is_some() {
                return Err(ApiError::invalid_request(
                    "a Swiss has `rounds`; `minutes` is for an arena",
                ));
            }
            match request.rounds {
                Some(r) if (1..=MAX_ROUNDS).contains(&r) => (None, Some(i64::from(r))),
                _ => {
                    return Err(ApiError::invalid_request(format_args!(
                        "a Swiss needs `rounds`, 1 to {MAX_ROUNDS}"
                    )));
                }
            }
        }
    };
    let now = now_ms();
    let starts_at = match request.starts_at.as_deref() {
        None => now,
        Some(text) => {
            let at = super::parse_rfc3339(text).ok_or_else(|| {
                ApiError::invalid_request(format_args!(
                    "`starts_at` is not an RFC 3339 date-time (like 2026-12-24T18:00:00Z): \
                     `{text}`"
                ))
            })?;
            if at < now - PAST_SLACK_MS {
                return Err(ApiError::invalid_request("`starts_at` is in the past"));
            }
            if at > now + MAX_AHEAD_MS {
                return Err(ApiError::invalid_request(
                    "`starts_at` is more than 30 days ahead",
                ));
            }
            at.max(now)
        }
    };
    let row = TournamentRow {
        id: crate::seat::random_base62(8),
        kind: kind_name(request.kind).to_owned(),
        variant: variant.name().to_owned(),
        clock: serde_json::to_string(&request.clock).expect("a clock serialises"),
        minutes,
        rounds,
        starts_at,
        rated: i64::from(request.rated),
        created_by: me,
        status: "upcoming".to_owned(),
        created_at: now,
        finished_at: None,
    };
    store(&state, TournamentWrite::Create(row.clone())).await?;
    tracing::info!(tournament = %row.id, kind = %row.kind, variant = %row.variant, "tournament created");
    state.tournaments.poke(&row.id);
    let loaded = super::loaded(row, Vec::new(), Vec::new(), Vec::new())
        .ok_or_else(|| ApiError::internal("The new tournament does not read back."))?;
    Ok((
        StatusCode::CREATED,
        Json(to_sorted_value(&summary(&loaded))),
    )
        .into_response())
}

/// `GET /api/tournaments`: upcoming (soonest first), running, finished (latest first).
pub(crate) async fn list(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    let backend = state.games.store().backend();
    let mut lists = Vec::new();
    for (status, newest_first) in [("upcoming", false), ("running", false), ("finished", true)] {
        let rows = backend
            .tournaments_with(status, newest_first, LIST_SIZE)
            .await
            .map_err(read_error)?;
        let mut summaries = Vec::with_capacity(rows.len());
        for row in rows {
            let entries = backend.entries(&row.id).await.map_err(read_error)?;
            if let Some(loaded) = super::loaded(row, entries, Vec::new(), Vec::new()) {
                summaries.push(summary(&loaded));
            }
        }
        lists.push(summaries);
    }
    let finished = lists.pop().unwrap_or_default();
    let running = lists.pop().unwrap_or_default();
    let upcoming = lists.pop().unwrap_or_default();
    Ok(Json(to_sorted_value(&TournamentList {
        upcoming,
        running,
        finished,
    })))
}

/// `GET /api/tournaments/{id}`: the state and, with a player key, the player's game.
pub(crate) async fn view(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let auth = who(&state, &headers, false).await?;
    let me = auth.optional()?.map(|p| p.id.clone());
    let loaded = tournament(&state, &id).await?;
    let names = names(&loaded);
    let view = TournamentView {
        state: state_of(&loaded, &names),
        my_game: me.and_then(|me| my_game(&loaded, &me)),
    };
    Ok(Json(to_sorted_value(&view)))
}

/// `POST /api/tournaments/{id}/join`: joins (or rejoins after a withdrawal) while the
/// tournament is upcoming or running.
pub(crate) async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(_): JsonBody<EmptyRequest>,
) -> Result<Json<Value>, ApiError> {
    let auth = who(&state, &headers, true).await?;
    let me = auth.require()?.id.clone();
    let loaded = tournament(&state, &id).await?;
    if loaded.status == TournamentStatus::Finished {
        return Err(finished());
    }
    store(
        &state,
        TournamentWrite::Join {
            tournament: id.clone(),
            player: me.clone(),
            at: now_ms(),
        },
    )
    .await?;
    changed(&state, &id).await;
    Ok(Json(to_sorted_value(&TournamentEntry {
        tournament: id,
        player: me,
        withdrawn: false,
    })))
}

fn finished() -> ApiError {
    ApiError::new(
        ErrorCode::TournamentFinished,
        "This tournament is over; its standings are final.",
    )
}

/// The asking player's id, when they have joined tournament `id` and it is not finished, with
/// the tournament as read.
async fn entrant(
    state: &AppState,
    id: &str,
    headers: &HeaderMap,
) -> Result<(String, Loaded), ApiError> {
    let auth = who(state, headers, true).await?;
    let me = auth.require()?.id.clone();
    let loaded = tournament(state, id).await?;
    if loaded.status == TournamentStatus::Finished {
        return Err(finished());
    }
    if !loaded.entries.iter().any(|e| e.player_id == me) {
        return Err(not_joined());
    }
    Ok((me, loaded))
}

fn not_joined() -> ApiError {
    ApiError::new(
        ErrorCode::NotInTournament,
        "You have not joined this tournament.",
    )
}

/// `POST /api/tournaments/{id}/withdraw`: no more pairings (a game in progress is played
/// out; the points stay). Joining again undoes it.
pub(crate) async fn withdraw(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(_): JsonBody<EmptyRequest>,
) -> Result<Json<Value>, ApiError> {
    let (me, _) = entrant(&state, &id, &headers).await?;
    store(
        &state,
        TournamentWrite::Withdraw {
            tournament: id.clone(),
            player: me.clone(),
        },
    )
    .await?;
    changed(&state, &id).await;
    Ok(Json(to_sorted_value(&TournamentEntry {
        tournament: id,
        player: me,
        withdrawn: true,
    })))
}

/// `POST /api/tournaments/{id}/berserk`: the asking player berserks in their current game of
/// the arena (the game's own `berserk` action, which checks the rest: before one's first
/// move, once, with main time).
pub(crate) async fn berserk(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    JsonBody(_): JsonBody<EmptyRequest>,
) -> Result<Json<Value>, ApiError> {
    let (me, loaded) = entrant(&state, &id, &headers).await?;
    let Some(game) = my_game(&loaded, &me) else {
        return Err(ApiError::new(
            ErrorCode::BerserkNotAllowed,
            "You have no game in progress in this tournament.",
        ));
    };
    crate::http::games::act(&state, &game.id, Some(game.token), Action::Berserk).await?;
    Ok(Json(to_sorted_value(&TournamentBerserk {
        game: game.id,
        side: game.side,
    })))
}

/// After a join or a withdrawal: the sockets get the new standings, the loop looks at once.
async fn changed(state: &AppState, id: &str) {
    publish_standings(&state.tournaments, &*state.games.store().backend(), id).await;
    state.tournaments.poke(id);
}
