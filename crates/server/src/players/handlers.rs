//! The player endpoints: `POST /api/players`, `GET|PATCH|DELETE /api/players/me`,
//! `POST /api/players/me/key`, `GET /api/players/{id or name}` and
//! `GET /api/leaderboard/{variant}`. The key is read from `Authorization: Player <key>` or the
//! player cookie (only from this site's own pages for a change), and is written only in the
//! answers of create and rotate.

use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use jiang_protocol::{
    CreatePlayer, Leaderboard, LeaderboardEntry, PlayerCreated, QrRequest, RenamePlayer,
    to_sorted_value,
};
use serde_json::Value;

use super::{
    Auth, COOKIE, CORRESPONDENCE, REALTIME, authenticate, header_key, key_cookie, key_required,
    name_key, new_key, new_player_id, page, read_error, valid_name,
};
use crate::error::{ApiError, ErrorCode};
use crate::http::extract::{JsonBody, SameSiteJson, cookie};
use crate::http::state::{AppState, ClientAddress};
use crate::rating;
use crate::seat;
use crate::store::{BoardQuery, PlayerRow, PlayerWrite, StoreError, Write, now_ms};

/// The most rows of the leaderboard.
const BOARD_SIZE: i64 = 100;

/// Who the request is: the `Authorization: Player` key, else the player cookie (which a
/// change may use only from this site's own pages: `change`).
pub(crate) async fn who(
    state: &AppState,
    headers: &HeaderMap,
    change: bool,
) -> Result<Auth, ApiError> {
    let backend = state.games.store().backend();
    if let Some(key) = header_key(headers) {
        return authenticate(&*backend, Some(key), true).await;
    }
    match cookie(headers, COOKIE).filter(|k| !k.is_empty()) {
        Some(key) => {
            if change {
                state.origin.check_cookie_post(headers)?;
            }
            authenticate(&*backend, Some(key), false).await
        }
        None => Ok(Auth::default()),
    }
}

/// A name from a request, kept form and key, or `400 invalid_name`.
fn checked_name(name: &str) -> Result<(String, String), ApiError> {
    let kept = valid_name(name)
        .map_err(|e| ApiError::new(ErrorCode::InvalidName, format!("Invalid name: {e}.")))?;
    let key = name_key(&kept);
    Ok((kept, key))
}

/// `409 name_taken` if a live player other than `me` has the name key `key`.
async fn ensure_free(state: &AppState, key: &str, me: Option<&str>) -> Result<(), ApiError> {
    let holder = state
        .games
        .store()
        .backend()
        .find_player("", key)
        .await
        .map_err(read_error)?;
    match holder {
        Some(p) if Some(p.id.as_str()) != me => Err(name_taken()),
        _ => Ok(()),
    }
}

fn name_taken() -> ApiError {
    ApiError::new(ErrorCode::NameTaken, "Another player has that name.")
}

/// Stores a player write; a refused one (a unique name raced away, a key rotated meanwhile)
/// is `refused`.
async fn store(state: &AppState, write: PlayerWrite, refused: ApiError) -> Result<(), ApiError> {
    match state.games.store().write(vec![Write::Player(write)]).await {
        Ok(()) => Ok(()),
        Err(StoreError::Rejected(_)) => Err(refused),
        Err(StoreError::Closed) => Err(ApiError::unavailable()),
        Err(e) => {
            tracing::error!(error = %e, "player write failed");
            Err(ApiError::storage_unavailable())
        }
    }
}

/// The answer that hands out a key: the body and the cookie that keeps it.
fn key_answer(state: &AppState, status: StatusCode, created: &PlayerCreated) -> Response {
    let mut response = (status, Json(to_sorted_value(created))).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        key_cookie(Some(&created.key), state.origin.secure_cookies()),
    );
    response
}

/// `POST /api/players`: a new player (at a limited rate per address).
pub(crate) async fn create_player(
    State(state): State<AppState>,
    Extension(ClientAddress(client)): Extension<ClientAddress>,
    SameSiteJson(request): SameSiteJson<CreatePlayer>,
) -> Result<Response, ApiError> {
    let name = request.name.as_deref().map(checked_name).transpose()?;
    if let Some((_, key)) = &name {
        ensure_free(&state, key, None).await?;
    }
    if !state.player_limiter.check(client) {
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            "Players are created too fast from this address; wait a while.",
        ));
    }
    let key = new_key();
    let (name, name_key) = name.unzip();
    let row = PlayerRow {
        id: new_player_id(),
        key_hash: Some(seat::hash_token(&key)),
        name: name.clone(),
        name_key,
        created_at: now_ms(),
        deleted_at: None,
    };
    let id = row.id.clone();
    store(&state, PlayerWrite::Create(row), name_taken()).await?;
    tracing::info!(player = %id, "player created");
    Ok(key_answer(
        &state,
        StatusCode::CREATED,
        &PlayerCreated { id, key, name },
    ))
}

/// `POST /api/players/me/key`: a new key; the old one stops working at once.
pub(crate) async fn rotate_key(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(_): JsonBody<jiang_protocol::EmptyRequest>,
) -> Result<Response, ApiError> {
    let auth = who(&state, &headers, true).await?;
    let me = auth.require()?;
    let key = new_key();
    let write = PlayerWrite::RotateKey {
        id: me.id.clone(),
        old: me.key_hash.clone().unwrap_or_default(),
        new: seat::hash_token(&key),
    };
    let stale = ApiError::new(
        ErrorCode::WrongPlayerKey,
        "The player key was replaced or deleted meanwhile.",
    );
    store(&state, write, stale).await?;
    Ok(key_answer(
        &state,
        StatusCode::OK,
        &PlayerCreated {
            id: me.id.clone(),
            key,
            name: me.name.clone(),
        },
    ))
}

/// `DELETE /api/players/me`: the player is gone (its games stay, shown as a deleted player).
pub(crate) async fn delete_player(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let auth = who(&state, &headers, true).await?;
    let me = auth.require()?;
    let write = PlayerWrite::Delete {
        id: me.id.clone(),
        at: now_ms(),
    };
    store(
        &state,
        write,
        ApiError::internal("The player could not be deleted."),
    )
    .await?;
    tracing::info!(player = %me.id, "player deleted");
    let mut response = StatusCode::NO_CONTENT.into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        key_cookie(None, state.origin.secure_cookies()),
    );
    Ok(response)
}

/// `PATCH /api/players/me` `{"name": …}`: sets the name; the player page after it.
pub(crate) async fn rename_player(
    State(state): State<AppState>,
    headers: HeaderMap,
    JsonBody(request): JsonBody<RenamePlayer>,
) -> Result<Json<Value>, ApiError> {
    let auth = who(&state, &headers, true).await?;
    let me = auth.require()?;
    let (name, key) = checked_name(&request.name)?;
    ensure_free(&state, &key, Some(&me.id)).await?;
    let write = PlayerWrite::Rename {
        id: me.id.clone(),
        name: name.clone(),
        name_key: key,
    };
    store(&state, write, name_taken()).await?;
    let mut row = me.clone();
    row.name = Some(name);
    let view = page(&*state.games.store().backend(), row).await?;
    Ok(Json(to_sorted_value(&view)))
}

/// `GET /api/players/me`: the caller's own page.
pub(crate) async fn my_page(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let auth = who(&state, &headers, false).await?;
    let me = auth.require()?.clone();
    let view = page(&*state.games.store().backend(), me).await?;
    Ok(Json(to_sorted_value(&view)))
}

/// `GET /api/players/{id or name}`: a player's page.
pub(crate) async fn player_page(
    State(state): State<AppState>,
    Path(who): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let backend = state.games.store().backend();
    let found = if who.chars().count() > 64 {
        None
    } else {
        backend
            .find_player(&who, &name_key(&who))
            .await
            .map_err(read_error)?
    };
    let Some(row) = found.filter(|p| p.deleted_at.is_none()) else {
        return Err(ApiError::new(
            ErrorCode::PlayerNotFound,
            format!("No player `{who}`."),
        ));
    };
    let view = page(&*backend, row).await?;
    Ok(Json(to_sorted_value(&view)))
}

/// `GET /api/leaderboard/{variant}?speed=realtime|correspondence`: non-provisional players,
/// best first.
pub(crate) async fn leaderboard(
    State(state): State<AppState>,
    Path(variant): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let variant: jiang_rules::Variant = variant
        .parse()
        .map_err(|e| ApiError::new(ErrorCode::UnknownVariant, format!("{e}.")))?;
    let speed = match query
        .as_deref()
        .unwrap_or("")
        .split('&')
        .find_map(|kv| kv.strip_prefix("speed="))
    {
        None | Some("realtime") => REALTIME,
        Some("correspondence") => CORRESPONDENCE,
        Some(other) => {
            return Err(ApiError::invalid_request(format_args!(
                "unknown speed `{other}`: expected realtime or correspondence"
            )));
        }
    };
    let rows = state
        .games
        .store()
        .backend()
        .leaderboard(BoardQuery {
            variant: variant.name(),
            speed,
            max_deviation: rating::PROVISIONAL_DEVIATION,
            limit: BOARD_SIZE,
        })
        .await
        .map_err(read_error)?;
    let board = Leaderboard {
        variant: variant.name().to_owned(),
        speed: speed.to_owned(),
        players: rows
            .into_iter()
            .map(|r| LeaderboardEntry {
                id: r.id,
                name: r.name,
                rating: r.rating.round() as i64,
                deviation: r.deviation.round() as i64,
                games: u64::try_from(r.games).unwrap_or(0),
            })
            .collect(),
    };
    Ok(Json(to_sorted_value(&board)))
}

/// `POST /api/players/me/cookie` with `Authorization: Player <key>`: keeps the key in this
/// browser's player cookie (the carry link's landing: the page reads the key from the URL's
/// fragment, which the server never sees) and answers the player's page.
pub(crate) async fn keep_key(
    State(state): State<AppState>,
    headers: HeaderMap,
    // Only this site's own pages may set the cookie (no other site logs a visitor in).
    SameSiteJson(_): SameSiteJson<jiang_protocol::EmptyRequest>,
) -> Result<Response, ApiError> {
    let Some(key) = header_key(&headers) else {
        return Err(key_required());
    };
    let auth = authenticate(&*state.games.store().backend(), Some(key.clone()), true).await?;
    let me = auth.require()?.clone();
    let view = page(&*state.games.store().backend(), me).await?;
    let mut response = Json(to_sorted_value(&view)).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        key_cookie(Some(&key), state.origin.secure_cookies()),
    );
    Ok(response)
}

/// `DELETE /api/players/me/cookie`: this browser forgets the player (the key keeps working
/// wherever else it is kept).
pub(crate) async fn forget_key(State(state): State<AppState>) -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        key_cookie(None, state.origin.secure_cookies()),
    );
    response
}

/// The longest text `POST /api/qr` encodes.
const MAX_QR_TEXT: usize = 512;

/// `POST /api/qr` `{"text": …}`: the text as a QR code (SVG, error correction M). A POST so
/// that a key in the text never stands in a URL.
pub(crate) async fn qr(JsonBody(request): JsonBody<QrRequest>) -> Result<Response, ApiError> {
    if request.text.is_empty() || request.text.len() > MAX_QR_TEXT {
        return Err(ApiError::invalid_request(format_args!(
            "`text` has 1 to {MAX_QR_TEXT} bytes"
        )));
    }
    let code = qrcode::QrCode::with_error_correction_level(&request.text, qrcode::EcLevel::M)
        .map_err(ApiError::invalid_request)?;
    let svg = code
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(200, 200)
        .build();
    let mut response = svg.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("image/svg+xml"),
    );
    headers.insert(
        header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    Ok(response)
}
