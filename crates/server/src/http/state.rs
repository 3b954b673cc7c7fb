//! What every handler can reach ([`AppState`]) and the request facts the middleware leaves
//! for handlers ([`ClientAddress`]). Handlers import these from here, never from the router.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;

use crate::game::Games;
use crate::http::origin::OriginPolicy;
use crate::http::ratelimit::Limiter;
use crate::http::slots::Slots;

/// What every handler can reach.
#[derive(Clone)]
pub(crate) struct AppState {
    pub games: Arc<Games>,
    pub limiter: Arc<Limiter>,
    /// New players per client address (`POST /api/players`).
    pub player_limiter: Arc<Limiter>,
    /// Reverse proxies whose `X-Forwarded-For` is believed (see [`ratelimit::client_address`]).
    pub trusted_proxies: Arc<[IpAddr]>,
    /// Which browser requests may use the seat cookie (see [`crate::http::origin`]).
    pub origin: Arc<OriginPolicy>,
    /// Open WebSockets per client address.
    pub sockets: Arc<Slots>,
    /// The lobby hub.
    pub lobby: Arc<crate::lobby::Lobby>,
    /// The tournament sockets' channels and the pairing loop's wake-up.
    pub tournaments: Arc<crate::tournaments::Hub>,
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
