//! The JSON API (`/api/…`), `/healthz`, and the router that ties in pages and WebSockets.
//!
//! Rooms: `state` (what every handler can reach), `extract` (reading requests), `games` (the
//! game endpoints), `ws` (the game's WebSocket and the socket plumbing the lobby and analysis
//! sockets share), `pages` (the front end), and the connection-level guards: `serve` (the
//! accept loop, timeouts, connection caps), `origin` (cross-site rules), `ratelimit`,
//! `slots`. Other rooms (`lobby`, `analysis`) add their own handlers to the router and import
//! what they need from `state` and `extract`; nothing imports back from this router.
//!
//! May use: every room below it (it routes to them). Nothing imports the router; handlers elsewhere
//! take `state` and `extract` only.

pub(crate) mod extract;
pub(crate) mod games;
pub mod origin;
pub mod pages;
pub mod ratelimit;
pub(crate) mod serve;
pub mod slots;
pub(crate) mod state;
pub(crate) mod ws;

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::http::{Extensions, HeaderMap, HeaderValue, StatusCode, Version, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use jiang_protocol::{
    ChatMuteRequest, ClaimRequest, DrawRequest, EmptyRequest, Health, MoveRequest, PremoveRequest,
    TakebackRequest, to_sorted_value,
};
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{Predicate, SizeAbove};

use crate::error::{ApiError, ErrorCode};
use crate::game::Action;
use crate::http::games::{action, create_game, join_game, notation, record, view_game};
use crate::http::state::{AppState, ClientAddress};
use crate::lobby;
use crate::players::handlers as players;
use crate::puzzles::handlers as puzzles;
use crate::tournaments::handlers as tournaments;

pub use extract::MAX_BODY;

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
        ("berserk", action(|_: EmptyRequest| Action::Berserk)),
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
        .route("/api/players", post(players::create_player))
        .route(
            "/api/players/me",
            get(players::my_page)
                .patch(players::rename_player)
                .delete(players::delete_player),
        )
        .route("/api/players/me/key", post(players::rotate_key))
        .route(
            "/api/players/me/cookie",
            post(players::keep_key).delete(players::forget_key),
        )
        .route("/api/qr", post(players::qr))
        .route("/api/players/{who}", get(players::player_page))
        .route("/api/leaderboard/{variant}", get(players::leaderboard))
        .route("/api/puzzles/next", get(puzzles::next))
        .route("/api/puzzles/daily/{variant}", get(puzzles::daily))
        .route("/api/puzzles/{id}", get(puzzles::show))
        .route("/api/puzzles/{id}/move", post(puzzles::play))
        .route("/api/puzzles/{id}/hint", post(puzzles::hint))
        .route("/api/puzzles/{id}/solution", post(puzzles::solution))
        .route(
            "/api/tournaments",
            get(tournaments::list).post(tournaments::create),
        )
        .route("/api/tournaments/{id}", get(tournaments::view))
        .route("/api/tournaments/{id}/join", post(tournaments::join))
        .route(
            "/api/tournaments/{id}/withdraw",
            post(tournaments::withdraw),
        )
        .route("/api/tournaments/{id}/berserk", post(tournaments::berserk))
        .route(
            "/api/tournaments/{id}/ws",
            get(crate::tournaments::socket::upgrade),
        )
        .route("/api/analysis", post(crate::analysis::analyse))
        .route("/api/analysis/export", post(crate::analysis::export))
        .route("/api/analysis/ws", get(crate::analysis::engine::upgrade))
        .route(
            "/api/analysis/review",
            post(crate::analysis::engine::review),
        )
        .route(
            "/api/positions/validate",
            post(crate::analysis::positions::validate),
        )
        .route(
            "/api/import",
            post(crate::analysis::import::handler)
                .layer(DefaultBodyLimit::max(crate::analysis::import::MAX_IMPORT)),
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
