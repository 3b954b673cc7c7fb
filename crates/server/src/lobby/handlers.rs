//! The lobby's HTTP endpoints: `GET /api/lobby` (the snapshot), `POST /api/lobby/pair` (quick
//! pairing) and `POST /api/summaries` (a browser's "My games").

use axum::Extension;
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use jiang_protocol::{
    CreateGame, PairRequest, Paired, Summaries, SummariesRequest, to_sorted_value,
};
use jiang_rules::Variant;
use serde_json::Value;

use crate::clock::TimeControl;
use crate::error::{ApiError, ErrorCode};
use crate::game::{Command, summary};
use crate::http::extract::seated_answer;
use crate::http::extract::{JsonBody, SameSiteJson};
use crate::http::games::{create, seat_player};
use crate::http::state::{AppState, ClientAddress};
use crate::seat;

/// Game ids one `POST /api/summaries` may ask for.
pub const MAX_SUMMARIES: usize = 100;

/// Own seeks a pair request may name.
pub const MAX_OWN: usize = 32;

/// Seeks a pair request tries to join before it opens its own (each may be taken meanwhile).
const PAIR_TRIES: usize = 8;

/// `GET /api/lobby`: what the lobby socket's `snapshot` says.
pub(crate) async fn lobby_view(State(state): State<AppState>) -> Json<Value> {
    Json(to_sorted_value(&state.lobby.snapshot()))
}

/// `POST /api/lobby/pair`: takes the free seat of the oldest open seek of that variant and
/// clock (no handicap, none of the caller's `own`), or opens such a seek (random side) if none
/// can be taken. Two callers racing for one seek: the game's actor seats one, the other moves
/// on to the next seek or opens its own.
pub(crate) async fn pair(
    State(state): State<AppState>,
    Extension(ClientAddress(client)): Extension<ClientAddress>,
    headers: HeaderMap,
    SameSiteJson(request): SameSiteJson<PairRequest>,
) -> Result<Response, ApiError> {
    let player = seat_player(&state, &headers, request.rated).await?;
    if request.own.len() > MAX_OWN {
        return Err(ApiError::invalid_request(format_args!(
            "`own` names at most {MAX_OWN} games"
        )));
    }
    let variant: Variant = request
        .variant
        .parse()
        .map_err(|e: jiang_rules::UnknownVariant| {
            ApiError::new(ErrorCode::UnknownVariant, format!("{e}."))
        })?;
    let control = TimeControl::try_from(request.clock).map_err(ApiError::invalid_request)?;
    if control.is_correspondence() {
        // Quick pairing seats two people who are here now: a live clock only.
        return Err(ApiError::invalid_request(
            "clock.days: quick pairing is for live clocks; create a correspondence seek instead",
        ));
    }
    // The caller's rating, read now from the store: the nearest seek is tried first.
    let mine = match &player {
        Some(id) => crate::players::player_ref(
            &*state.games.store().backend(),
            id,
            variant.name(),
            crate::players::REALTIME,
        )
        .await
        .map_err(crate::players::read_error)?
        .and_then(|p| p.rating),
        None => None,
    };
    let me = player.as_deref().zip(mine);
    let candidates = state
        .lobby
        .matching(variant, Some(control), &request.own, request.rated, me);
    let mut paired = None;
    for id in candidates.into_iter().take(PAIR_TRIES) {
        let join = |reply| Command::Join {
            player: player.clone(),
            reply,
        };
        match state.games.ask(&id, join).await {
            Ok(joined) => {
                paired = Some(Paired {
                    url: format!("{}/g/{id}", state.games.settings().public_url),
                    id,
                    side: joined.side,
                    token: joined.token,
                    created: false,
                });
                break;
            }
            // Taken (or ended) meanwhile: try the next one.
            Err(e)
                if matches!(
                    e.code,
                    ErrorCode::SeatTaken | ErrorCode::GameOver | ErrorCode::SamePlayer
                ) => {}
            Err(e) => return Err(e),
        }
    }
    let (status, paired) = match paired {
        Some(paired) => (StatusCode::OK, paired),
        None => {
            let create_request = CreateGame {
                variant: request.variant,
                clock: Some(request.clock),
                open: true,
                rated: request.rated,
                ..CreateGame::default()
            };
            let created = create(&state, create_request, client, player).await?;
            let paired = Paired {
                id: created.id,
                side: created.side,
                token: created.token,
                url: created.url,
                created: true,
            };
            (StatusCode::CREATED, paired)
        }
    };
    Ok(seated_answer(
        &state,
        status,
        (&paired.id, &paired.token),
        &paired,
    ))
}

/// `POST /api/summaries`: what anyone may see of each game asked for, read from the store (the
/// store holds every change before it is answered, so it is as fresh as the game's actor).
pub(crate) async fn summaries(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<SummariesRequest>,
) -> Result<Json<Value>, ApiError> {
    if request.ids.len() > MAX_SUMMARIES {
        return Err(ApiError::invalid_request(format_args!(
            "at most {MAX_SUMMARIES} ids"
        )));
    }
    let mut games = Vec::new();
    for id in request.ids.iter().filter(|id| seat::is_game_id(id)) {
        let stored = state.games.store().load(id).await.map_err(|e| {
            tracing::error!(game = %id, error = %e, "cannot read a game");
            ApiError::storage_unavailable()
        })?;
        if let Some(found) = stored.as_ref().and_then(summary) {
            games.push(found);
        }
    }
    Ok(Json(to_sorted_value(&Summaries { games })))
}
