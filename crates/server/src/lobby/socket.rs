//! `GET /api/lobby/ws`: the lobby socket. It sends a `snapshot` first, then every `update` the
//! hub flushes (at most one per [`super::FLUSH_INTERVAL`]); a socket that falls behind the
//! bounded queue gets a fresh `snapshot` (resync), one that stops reading is dropped after the
//! idle timeout, like a game socket. Clients send `hold` (the seeks their page created) and
//! `ping`. Sockets count against the address's WebSocket cap like game sockets.

use std::net::IpAddr;
use std::pin::pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use axum::extract::ws::{Message, WebSocket};
use axum::response::Response;
use futures_util::StreamExt;
use jiang_protocol::{LobbyClientMessage, LobbyServerMessage, to_sorted_json};
use tokio::sync::broadcast::error::RecvError;

use crate::error::{ApiError, ErrorCode};
use crate::http::ratelimit::Bucket;
use crate::http::serve::{ConnectionSlot, stopped};
use crate::http::slots::Slot;
use crate::http::state::AppState;
use crate::http::ws::{self, Accepted, Conversation, End, finish, send_within};

/// Seats one `hold` may name.
pub const MAX_HELD: usize = 32;

/// Lobby socket ids (for the hub's holds).
static NEXT_SOCKET: AtomicU64 = AtomicU64::new(1);

pub(crate) async fn upgrade(accepted: Accepted) -> Response {
    let (state, client, slots) = (accepted.state, accepted.client, accepted.slots);
    ws::small_messages(accepted.upgrade).on_upgrade(move |ws| run(state, client, ws, slots))
}

async fn run(state: AppState, client: IpAddr, socket: WebSocket, _slots: (Slot, ConnectionSlot)) {
    let id = NEXT_SOCKET.fetch_add(1, Ordering::Relaxed);
    let (mut sink, mut stream) = socket.split();
    let mut hard_stop = state.hard_stop.clone();
    let mut shutdown = state.lobby.shutdown();
    // Subscribed before the snapshot is taken: an update in between is applied twice, which
    // is harmless (updates replace and remove by id), rather than lost.
    let updates = state.lobby.subscribe();
    let timeout = state.ws_idle_timeout;
    let serve = async {
        if !send_within(&mut sink, text(state.lobby.snapshot_text()), timeout).await {
            return End::Gone;
        }
        let state = &state;
        let outgoing = pin!(futures_util::stream::unfold(
            updates,
            |mut updates| async move {
                let message = match updates.recv().await {
                    Ok(update) => text(update),
                    // Fallen behind: start again from the whole lobby.
                    Err(RecvError::Lagged(_)) => {
                        updates = updates.resubscribe();
                        text(state.lobby.snapshot_text())
                    }
                    Err(RecvError::Closed) => return None,
                };
                Some((message, updates))
            }
        ));
        let mut talk = Conversation::new(&mut sink, &mut stream, timeout, outgoing);
        while let Some(message) = talk.next_message().await {
            let handled = handle(state, id, client, &message, &mut talk.bucket);
            talk.answer(handled).await;
        }
        talk.end()
    };
    let end = tokio::select! {
        end = serve => end,
        // Shutting down: as game sockets, closed with 1012 ("reconnect").
        _ = stopped(&mut shutdown) => End::Close(1012, "reconnect"),
        _ = stopped(&mut hard_stop) => End::Gone,
    };
    state.lobby.release(id);
    finish(end, &mut sink, &mut stream, &mut hard_stop).await;
}

fn text(text: Arc<str>) -> Message {
    Message::Text(text.as_ref().into())
}

/// One client message: `Ok(Some(reply))`, `Ok(None)` (nothing to answer) or a refusal.
fn handle(
    state: &AppState,
    socket: u64,
    client: IpAddr,
    text: &str,
    bucket: &mut Bucket,
) -> Result<Option<Message>, ApiError> {
    let message: LobbyClientMessage = ws::parse_message(text, bucket)?;
    match message {
        LobbyClientMessage::Ping {} => Ok(Some(Message::Text(
            to_sorted_json(&LobbyServerMessage::Pong {}).into(),
        ))),
        LobbyClientMessage::Hold { seats } => {
            if seats.len() > MAX_HELD {
                return Err(ApiError::new(
                    ErrorCode::InvalidMessage,
                    format!("A `hold` names at most {MAX_HELD} seats."),
                ));
            }
            // Checking tokens costs a hash each: holds share the address's API budget.
            if !state.limiter.check(client) {
                return Err(ApiError::rate_limited());
            }
            let seats: Vec<(String, String)> = seats.into_iter().map(|s| (s.id, s.token)).collect();
            state.lobby.hold(socket, &seats);
            Ok(None)
        }
    }
}
