//! The JSON API (`/api/…`), `/healthz`, and the router that ties in pages and WebSockets.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequest, Path, RawQuery, Request, State};
use axum::http::{Extensions, HeaderMap, HeaderValue, StatusCode, Version, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, get, post};
use axum::{Extension, Json, Router};
use jiang_protocol::{
    ChatMuteRequest, ClaimRequest, CreateGame, Created, DrawRequest, EmptyRequest, GameView,
    Health, MoveRequest, PremoveRequest, TakebackRequest, to_sorted_value,
};
use jiang_rules::{Side, Variant};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::sync::watch;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{Predicate, SizeAbove};

use crate::clock::TimeControl;
use crate::error::{ApiError, ErrorCode};
use crate::game::{Action, Command, Games, NewGame};
use crate::origin::OriginPolicy;
use crate::ratelimit::{self, Limiter};
use crate::seat;
use crate::slots::Slots;
use crate::store::Write;
use crate::table::{self, NotationStyle, RecordFormat, SetupError};
use crate::{lobby, pages, ws};

/// The largest request body accepted (bytes).
pub const MAX_BODY: usize = 16 * 1024;

/// What every handler can reach.
#[derive(Clone)]
pub(crate) struct AppState {
    pub games: Arc<Games>,
    pub limiter: Arc<Limiter>,
    /// Reverse proxies whose `X-Forwarded-For` is believed (see [`ratelimit::client_address`]).
    pub trusted_proxies: Arc<[IpAddr]>,
    /// Which browser requests may use the seat cookie (see [`crate::origin`]).
    pub origin: Arc<OriginPolicy>,
    /// Open WebSockets per client address.
    pub sockets: Arc<Slots>,
    /// The lobby hub.
    pub lobby: Arc<crate::lobby::Lobby>,
    /// A WebSocket silent for this long is closed.
    pub ws_idle_timeout: Duration,
    /// The longest one analysis search may run.
    pub analysis_seconds: Duration,
    /// The engine's nodes per position of a computer review.
    pub review_nodes: u64,
    /// Becomes `true` when the shutdown deadline has passed: WebSockets end at once.
    pub hard_stop: watch::Receiver<bool>,
}

/// The address an API request is counted against ([`ratelimit::client_address`]), as a
/// request extension set by the rate limiter.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClientAddress(pub IpAddr);

/// The whole application.
pub(crate) fn router(state: AppState) -> Router {
    // The game actions: `POST /api/games/{id}/<name>` with the body each reads.
    let actions = [
        ("move", action(|r: MoveRequest| Action::Move(r.mv))),
        ("resign", action(|_: EmptyRequest| Action::Resign)),
        ("draw", action(|r: DrawRequest| Action::Draw(r.action))),
        ("abort", action(|_: EmptyRequest| Action::Abort)),
        ("impasse", action(|_: EmptyRequest| Action::Impasse)),
        ("rematch", action(|_: EmptyRequest| Action::Rematch)),
        (
            "takeback",
            action(|r: TakebackRequest| Action::Takeback(r.action)),
        ),
        ("premove", action(|r: PremoveRequest| Action::Premove(r.mv))),
        ("claim", action(|r: ClaimRequest| Action::Claim(r.result))),
        (
            "chat_mute",
            action(|r: ChatMuteRequest| Action::ChatMute(r.channel, r.muted)),
        ),
    ];
    let api = actions
        .into_iter()
        .fold(Router::new(), |api, (name, route)| {
            api.route(&format!("/api/games/{{id}}/{name}"), route)
        })
        .route("/api/games", post(create_game))
        .route("/api/games/{id}", get(view_game))
        .route("/api/games/{id}/join", post(join_game))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/notation", get(notation))
        .route("/api/games/{id}/ws", get(ws::upgrade))
        .route("/api/lobby", get(lobby::lobby_view))
        .route("/api/lobby/ws", get(lobby::upgrade))
        .route("/api/lobby/pair", post(lobby::pair))
        .route("/api/summaries", post(lobby::summaries))
        .route("/api/analysis", post(crate::analysis::analyse))
        .route("/api/analysis/export", post(crate::analysis::export))
        .route("/api/analysis/ws", get(crate::analysis_engine::upgrade))
        .route("/api/analysis/review", post(crate::analysis_engine::review))
        .route("/api/positions/validate", post(crate::positions::validate))
        .route(
            "/api/import",
            post(crate::import::handler).layer(DefaultBodyLimit::max(crate::import::MAX_IMPORT)),
        )
        .fallback(api_not_found)
        .layer(middleware::from_fn_with_state(state.clone(), rate_limit))
        .layer(DefaultBodyLimit::max(MAX_BODY));
    Router::new()
        .merge(api)
        .route("/healthz", get(healthz))
        .merge(pages::router())
        // Added last, so that it reaches every route above.
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(state)
        .layer(compression())
}

/// Responses smaller than this are sent as they are: compressing them saves next to nothing.
pub(crate) const COMPRESS_MIN_BYTES: u16 = 256;

/// gzip or brotli, as the client's `Accept-Encoding` prefers, for text responses
/// ([`compressible`]) of at least [`COMPRESS_MIN_BYTES`]; everything else, and every client
/// that accepts neither, gets the identity bytes. Brotli runs at quality 4 (tower-http's
/// default: fast enough to do on every response).
fn compression() -> CompressionLayer<impl Predicate> {
    CompressionLayer::new()
        .gzip(true)
        .br(true)
        .compress_when(SizeAbove::new(COMPRESS_MIN_BYTES).and(compressible))
}

/// Whether a response is text worth compressing: HTML, JavaScript, CSS, JSON, SVG or plain
/// text with a body. Never a WebSocket upgrade (`101`; the socket's frames are not HTTP
/// bodies), a `304`, or an already compressed format (PNG, fonts, audio).
fn compressible(status: StatusCode, _: Version, headers: &HeaderMap, _: &Extensions) -> bool {
    if status == StatusCode::SWITCHING_PROTOCOLS || status == StatusCode::NOT_MODIFIED {
        return false;
    }
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(is_compressible_type)
}

/// Whether a `Content-Type` is text that compresses well (see [`compressible`]).
pub(crate) fn is_compressible_type(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    (essence.starts_with("text/") && essence != "text/event-stream")
        || matches!(
            essence.as_str(),
            "application/json" | "application/javascript" | "image/svg+xml"
        )
}

/// 200 `{"status": "ok"}` when a write can be committed now (the last commit, or a tiny probe
/// write, under a second old, succeeded); otherwise 503 with the `storage_unavailable` error
/// and the database's own words in `detail`.
async fn healthz(State(state): State<AppState>) -> Response {
    match state.games.store().health().await {
        Ok(()) => Json(to_sorted_value(&Health {
            status: "ok".to_owned(),
        }))
        .into_response(),
        Err(problem) => {
            let error = ApiError::new(
                ErrorCode::StorageUnavailable,
                "The database cannot store anything right now; moves and other changes are \
                 refused until it can.",
            );
            let body = error.body_with_detail(Some(problem));
            (error.status(), Json(jiang_protocol::to_sorted_value(&body))).into_response()
        }
    }
}

/// 405 with the JSON error body (axum's default has an empty body; the `Allow` header stays).
async fn method_not_allowed(method: axum::http::Method) -> ApiError {
    ApiError::new(
        ErrorCode::MethodNotAllowed,
        format!("This path does not answer {method}; the Allow header lists what it does."),
    )
}

async fn api_not_found() -> ApiError {
    ApiError::new(ErrorCode::NotFound, "There is no such API endpoint.")
}

async fn rate_limit(
    State(state): State<AppState>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    mut request: Request,
    next: Next,
) -> Response {
    let client = ratelimit::client_address(
        addr.ip(),
        request
            .headers()
            .get_all("x-forwarded-for")
            .iter()
            .map(HeaderValue::as_bytes),
        &state.trusted_proxies,
    );
    if !state.limiter.check(client) {
        return ApiError::rate_limited().into_response();
    }
    request.extensions_mut().insert(ClientAddress(client));
    next.run(request).await
}

/// A POST's JSON object body, read by [`parse_body`]: the last extractor of the endpoints that
/// take one.
pub(crate) struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        parse_body(Bytes::from_request(request, state).await).map(JsonBody)
    }
}

/// The [`JsonBody`] of a POST that a visitor's browser may only send from this site's own
/// pages (it takes a seat): the origin check (see `crate::origin`), then [`parse_body`].
pub(crate) struct SameSiteJson<T>(pub T);

impl<T: DeserializeOwned> FromRequest<AppState> for SameSiteJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, ApiError> {
        state.origin.check_post(request.headers())?;
        parse_body(Bytes::from_request(request, state).await).map(SameSiteJson)
    }
}

/// Parses a JSON body, naming what is wrong (unknown field, missing field, bad value).
pub(crate) fn parse_body<T: DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::too_large(MAX_BODY)
        } else {
            ApiError::new(ErrorCode::BadBody, rejection.body_text())
        }
    })?;
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        &bytes
    };
    let value: Value = serde_json::from_slice(bytes).map_err(|e| {
        ApiError::new(
            ErrorCode::MalformedJson,
            format!("The body is not valid JSON: {e}."),
        )
    })?;
    if !value.is_object() {
        return Err(ApiError::new(
            ErrorCode::MalformedJson,
            "The body must be a JSON object.",
        ));
    }
    serde_json::from_value(value).map_err(|e| {
        let text = e.to_string();
        let code = if text.starts_with("unknown field") {
            ErrorCode::UnknownField
        } else {
            ErrorCode::InvalidRequest
        };
        ApiError::new(code, format!("Invalid request: {text}."))
    })
}

/// The bearer token of a request, if any.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let token = value
        .strip_prefix("Bearer ")
        .or_else(|| value.strip_prefix("bearer "))?;
    Some(token.trim().to_owned())
}

/// The name of the cookie that keeps a seat's token for game `id`.
pub(crate) fn seat_cookie_name(id: &str) -> String {
    format!("jiang_seat_{id}")
}

/// A cookie's value by name.
pub(crate) fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_owned())
}

/// The seat token of an action on game `id`: the bearer header, else the game's seat cookie,
/// which only a JSON request from the server's own pages may use (cross-site request forgery;
/// see [`crate::origin`]). Without either, a browser request from another origin is refused too.
fn action_token(
    state: &AppState,
    headers: &HeaderMap,
    id: &str,
) -> Result<Option<String>, ApiError> {
    if let Some(token) = bearer(headers) {
        return Ok(Some(token));
    }
    match cookie(headers, &seat_cookie_name(id)) {
        Some(token) => {
            state.origin.check_cookie_post(headers)?;
            Ok(Some(token))
        }
        None => {
            state.origin.check_post(headers)?;
            Ok(None)
        }
    }
}

/// `body` as the JSON answer with `status`, setting the cookie that keeps the seat `(game id,
/// token)` (see [`seat_cookie`]).
pub(crate) fn seated_answer(
    state: &AppState,
    status: StatusCode,
    (id, token): (&str, &str),
    body: &impl Serialize,
) -> Response {
    let cookie = seat_cookie(id, token, state.origin.secure_cookies());
    let mut response = (status, Json(to_sorted_value(body))).into_response();
    response.headers_mut().insert(header::SET_COOKIE, cookie);
    response
}

/// The `Set-Cookie` value that keeps `token` for game `id`: HttpOnly (no script reads it),
/// `SameSite=Lax`, and `Secure` when the public URL is https.
pub(crate) fn seat_cookie(id: &str, token: &str, secure: bool) -> HeaderValue {
    HeaderValue::from_str(&format!(
        "{}={token}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax{}",
        seat_cookie_name(id),
        if secure { "; Secure" } else { "" }
    ))
    .expect("base62 cookie is a valid header")
}

async fn create_game(
    State(state): State<AppState>,
    Extension(ClientAddress(client)): Extension<ClientAddress>,
    // No other site may make a visitor's browser create a game (and get its seat cookie).
    SameSiteJson(request): SameSiteJson<CreateGame>,
) -> Result<Response, ApiError> {
    let created = create(&state, request, client).await?;
    Ok(seated_answer(
        &state,
        StatusCode::CREATED,
        (&created.id, &created.token),
        &created,
    ))
}

/// Validates and stores the game `request` asks for, with the creator's seat; an open one is
/// listed in the lobby (within `client`'s seek limits).
pub(crate) async fn create(
    state: &AppState,
    request: CreateGame,
    client: IpAddr,
) -> Result<Created, ApiError> {
    let computer = crate::game::requested_level(request.opponent)?;
    if computer.is_some() && request.open {
        // The computer holds the other seat at once: there is nothing to seek.
        return Err(ApiError::invalid_request(
            "a game against the computer cannot be an open seek",
        ));
    }
    let control = request
        .clock
        .map(TimeControl::try_from)
        .transpose()
        .map_err(ApiError::invalid_request)?;
    let variant = parse_variant(&request.variant)?;
    let side = match request.side.as_deref() {
        None | Some("random") => {
            if rand::random::<bool>() {
                Side::First
            } else {
                Side::Second
            }
        }
        Some(name) => variant.side_from_name(name).ok_or_else(|| {
            ApiError::new(
                ErrorCode::InvalidSide,
                format!(
                    "Unknown side `{name}` for {variant}: expected {}, {} or random.",
                    variant.side_name(Side::First),
                    variant.side_name(Side::Second)
                ),
            )
        })?,
    };
    let setup = table::create(variant, request.fen.as_deref(), request.handicap.as_deref())
        .map_err(setup_error)?;
    // Validate by building the table once: the start must be playable.
    let table = table::open(variant, &setup, &[]).map_err(setup_error)?;
    if let Some(outcome) = table.outcome() {
        return Err(ApiError::new(
            ErrorCode::InvalidFen,
            format!(
                "The game would be over before it starts ({}).",
                outcome.reason
            ),
        ));
    }
    drop(table);
    if request.open {
        state.lobby.reserve(client)?;
    }
    let id = seat::new_game_id();
    let token = seat::new_token();
    let mut tokens = [None, None];
    tokens[side.index()] = Some(seat::hash_token(&token));
    let handicap = setup.handicap.clone();
    let new_game = NewGame {
        variant,
        setup,
        control,
        tokens,
        open: request.open,
        unlisted: request.unlisted,
        computer,
    };
    let stored = state
        .games
        .store()
        .write(vec![Write::SaveGame(new_game.row(&id))])
        .await;
    if let Err(e) = stored {
        if request.open {
            state.lobby.unreserve(client);
        }
        tracing::error!(error = %e, "cannot store a new game");
        return Err(ApiError::internal("The game could not be stored."));
    }
    if request.open {
        let [first, second] = new_game.tokens;
        let info = crate::lobby::SeekInfo {
            variant,
            control,
            side: !side,
            handicap,
        };
        let hash = first.or(second).expect("the creator's seat is taken");
        state.lobby.add_seek(&id, info, client, hash);
    }
    tracing::info!(game = %id, %variant, open = request.open, computer = ?computer, "game created");
    if computer.is_some() {
        // The computer may have the first move: its actor starts now.
        state.games.wake(&id);
    }
    let url = format!("{}/g/{id}", state.games.settings().public_url);
    Ok(Created {
        id,
        side: variant.side_name(side).to_owned(),
        token,
        url,
    })
}

/// A request's `variant`, or `400 unknown_variant`.
pub(crate) fn parse_variant(name: &str) -> Result<Variant, ApiError> {
    name.parse().map_err(|e: jiang_rules::UnknownVariant| {
        ApiError::new(ErrorCode::UnknownVariant, format!("{e}."))
    })
}

pub(crate) fn setup_error(e: SetupError) -> ApiError {
    let code = match e {
        SetupError::BadFen(_) => ErrorCode::InvalidFen,
        SetupError::BadHandicap(_) => ErrorCode::InvalidHandicap,
        SetupError::Unsupported(_) => ErrorCode::Unsupported,
        SetupError::Corrupt(_) => return ApiError::internal(e.to_string()),
    };
    ApiError::new(code, format!("{e}."))
}

async fn view_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let explicit = bearer(&headers);
    let from_cookie = cookie(&headers, &seat_cookie_name(&id));
    let view = state
        .games
        .ask(&id, |reply| Command::View {
            token: explicit.clone().or_else(|| from_cookie.clone()),
            reply,
        })
        .await;
    match view {
        // A stale cookie (not a bearer header) just means watching.
        Err(e) if e.code == ErrorCode::WrongToken && explicit.is_none() => state
            .games
            .ask(&id, |reply| Command::View { token: None, reply })
            .await
            .map(view_json),
        other => other.map(view_json),
    }
}

async fn join_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
    // No other site may make a visitor's browser take a seat.
    _: SameSiteJson<EmptyRequest>,
) -> Result<Response, ApiError> {
    let joined = state
        .games
        .ask(&id, |reply| Command::Join { reply })
        .await?;
    Ok(seated_answer(
        &state,
        StatusCode::OK,
        (&id, &joined.token),
        &joined,
    ))
}

/// A view as the JSON an answer carries.
fn view_json(view: GameView) -> Json<Value> {
    Json(to_sorted_value(&view))
}

/// Applies `action` for the seat of `token` (from [`action_token`], or the WebSocket's seat);
/// the view the seat sees after it.
pub(crate) async fn act(
    state: &AppState,
    id: &str,
    token: Option<String>,
    action: Action,
) -> Result<GameView, ApiError> {
    state
        .games
        .ask(id, |reply| Command::Act {
            token: token.clone(),
            action: action.clone(),
            reply,
        })
        .await
}

/// The `POST` route of a game action whose body `R` is made into the [`Action`] by `to_action`.
fn action<R: DeserializeOwned + 'static>(to_action: fn(R) -> Action) -> MethodRouter<AppState> {
    post(move |s, p, h, b| body_action(s, p, h, b, to_action))
}

/// `POST /api/games/{id}/<action>`: the body, read strictly as `R` (`MoveRequest`,
/// `DrawRequest`, or `EmptyRequest` for resign, abort, impasse and rematch, whose body must be
/// empty or `{}`), made into the [`Action`] by `to_action`.
async fn body_action<R: DeserializeOwned>(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
    to_action: impl FnOnce(R) -> Action,
) -> Result<Json<Value>, ApiError> {
    let token = action_token(&state, &headers, &id)?;
    let request: R = parse_body(body)?;
    act(&state, &id, token, to_action(request))
        .await
        .map(view_json)
}

/// `GET /api/games/{id}/notation?style=…`: every move of the game in a human notation,
/// computed by the rules crate, with the positions the game went through (the web client's
/// move list and its steps back). The same for every viewer: only public information goes
/// into it.
async fn notation(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let requested = query
        .as_deref()
        .unwrap_or("")
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == "style")
        .map(|(_, v)| v.to_owned());
    let Some(name) = requested else {
        return Err(ApiError::new(
            ErrorCode::BadNotationStyle,
            "Give a notation style: ?style=wxf, chinese, chinese-traditional, iccs, japanese, western, western-letters or usi.",
        ));
    };
    let style = NotationStyle::parse(&name).ok_or_else(|| {
        ApiError::new(
            ErrorCode::BadNotationStyle,
            format!(
                "Unknown notation style `{name}`: expected wxf, chinese, chinese-traditional, iccs, japanese, western, western-letters or usi."
            ),
        )
    })?;
    let history = state
        .games
        .ask(&id, |reply| Command::Notation { style, reply })
        .await?;
    Ok(Json(to_sorted_value(&history)))
}

/// `GET /api/games/{id}/record?format=…` (default: pgn for the xiangqi family, kif for shogi).
async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let param = |name: &str| {
        query
            .as_deref()
            .unwrap_or("")
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_owned())
    };
    let format = match param("format") {
        None => None,
        Some(name) => Some(
            serde_json::from_value::<RecordFormat>(json!(name)).map_err(|_| {
                ApiError::new(
                    ErrorCode::UnsupportedFormat,
                    format!(
                        "Unknown record format `{name}`: expected pgn, kif, ki2, csa, fen or sfen."
                    ),
                )
            })?,
        ),
    };
    // `moves=iccs|wxf|chinese` picks the PGN movetext.
    let format = match (format, param("moves")) {
        (_, None) => format,
        (None | Some(RecordFormat::Pgn), Some(moves)) => {
            Some(RecordFormat::pgn_with_moves(&moves).ok_or_else(|| {
                ApiError::new(
                    ErrorCode::BadMoves,
                    format!("Unknown PGN move notation `{moves}`: expected iccs, wxf or chinese."),
                )
            })?)
        }
        (Some(_), Some(_)) => {
            return Err(ApiError::new(
                ErrorCode::BadMoves,
                "`moves` applies to the pgn format only.",
            ));
        }
    };
    let file = state
        .games
        .ask(&id, |reply| Command::Record {
            format: format.unwrap_or(RecordFormat::Pgn),
            reply,
        })
        .await;
    // Without a format, the family's own record: retry with KIF for the shogi family.
    let file = match (format, file) {
        (None, Err(e)) if e.code == ErrorCode::UnsupportedFormat => {
            state
                .games
                .ask(&id, |reply| Command::Record {
                    format: RecordFormat::Kif,
                    reply,
                })
                .await?
        }
        (_, file) => file?,
    };
    let mut response = file.text.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(file.content_type),
    );
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&format!("attachment; filename=\"{}\"", file.file_name))
            .expect("ascii file name"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}
