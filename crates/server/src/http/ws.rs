//! `GET /api/games/{id}/ws`: one WebSocket per browser tab. The socket subscribes to the game's
//! actor, which sends it `state` first and then events built for this viewer only; messages
//! from the client become actions. Bad messages get `{"type": "error", …}` and change nothing.
//!
//! Limits: each address may hold [`crate::Limits::max_sockets_per_address`] sockets; every
//! action (a message that may write to the database) counts against the address's API budget,
//! shared by all its sockets and its HTTP requests; each socket also has its own message rate.
//! The server pings; a socket that sends nothing for the idle timeout is closed.

use std::net::IpAddr;
use std::pin::pin;
use std::time::{Duration, Instant};

use axum::Extension;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{FromRequestParts, Path, RawQuery};
use axum::http::HeaderMap;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, Stream, StreamExt};
use jiang_protocol::{ClientMessage, ServerMessage, to_sorted_json};
use serde::de::DeserializeOwned;
use tokio::sync::mpsc;

use crate::error::{ApiError, ErrorCode};
use crate::game::{ChatRequest, Command, message_action};
use crate::http::extract::{bearer, cookie, seat_cookie_name};
use crate::http::ratelimit::{Bucket, Rate};
use crate::http::serve::{ConnectionSlot, stopped};
use crate::http::slots::{Full, Slot};
use crate::http::state::{AppState, ClientAddress};

/// The largest client message handled (bytes); larger ones are refused with a `too_large`
/// error and the socket stays open.
pub const MAX_MESSAGE: usize = 4 * 1024;

/// The largest message (and frame) read at all: one larger closes the socket with 1009
/// ("message too big") as soon as its length is known, before it is buffered. Between
/// [`MAX_MESSAGE`] and this, a message is read, dropped and answered with `too_large`.
pub const MAX_READ: usize = 256 * 1024;

/// Client messages per socket: sustained rate and burst.
const SOCKET_RATE: Rate = Rate {
    per_second: 20.0,
    burst: 40.0,
};

/// After this many refused messages in a row the socket is closed.
const MAX_STRIKES: u32 = 50;

/// Events queued for a slow socket before it is dropped (it reconnects and gets a `state`).
const QUEUE: usize = 64;

/// How long a socket the server closes waits for the client's close frame.
const CLOSE_WAIT: Duration = Duration::from_secs(1);

/// The close code for a socket closed because it sent nothing for the idle timeout.
const CLOSE_IDLE: u16 = 1000;

/// The close code for a message larger than [`MAX_READ`] (RFC 6455: message too big).
const CLOSE_TOO_BIG: u16 = 1009;

pub(crate) async fn upgrade(
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    accepted: Accepted,
) -> Response {
    let (state, client, upgrade, slots) = (
        accepted.state,
        accepted.client,
        accepted.upgrade,
        accepted.slots,
    );
    let from_query = query
        .as_deref()
        .unwrap_or("")
        .split('&')
        .find_map(|kv| kv.strip_prefix("token=").map(str::to_owned));
    let explicit = bearer(&headers).or(from_query);
    let from_cookie = cookie(&headers, &seat_cookie_name(&id));
    // Browsers send the seat cookie on any page's handshake: without an explicit token the
    // upgrade must come from the server's own pages (see `crate::http::origin`).
    let allowed = match explicit {
        Some(_) => Ok(()),
        None => state.origin.check_upgrade(&headers, from_cookie.is_some()),
    };
    if let Err(e) = allowed {
        return e.into_response();
    }
    let token = explicit.clone().or(from_cookie);
    let (tx, rx) = mpsc::channel(QUEUE);
    let mut subscribed = state
        .games
        .ask(&id, |reply| Command::Subscribe {
            token: token.clone(),
            tx: tx.clone(),
            reply,
        })
        .await;
    let mut token = token;
    if matches!(&subscribed, Err(e) if e.code == ErrorCode::WrongToken) && explicit.is_none() {
        // A stale cookie: watch instead.
        token = None;
        subscribed = state
            .games
            .ask(&id, |reply| Command::Subscribe {
                token: None,
                tx: tx.clone(),
                reply,
            })
            .await;
    }
    drop(tx);
    let sub = match subscribed {
        Ok(sub) => sub,
        Err(e) => return e.into_response(),
    };
    let socket = Socket {
        state,
        id,
        sub,
        token,
        client,
        _slots: slots,
    };
    small_messages(upgrade).on_upgrade(move |ws| socket.run(ws, rx))
}

/// The read limits of the game and lobby sockets, whose client messages are small: at most
/// [`MAX_READ`] bytes a message or frame, and a small read buffer, which saves memory per
/// socket and the zeroing of a large buffer on every read.
pub(crate) fn small_messages(upgrade: WebSocketUpgrade) -> WebSocketUpgrade {
    upgrade
        .read_buffer_size(4 * 1024)
        .max_message_size(MAX_READ)
        .max_frame_size(MAX_READ)
}

/// A WebSocket handshake past the first checks of every socket: a real upgrade (else
/// `not_websocket`), then a place among the client's open WebSockets (else
/// `too_many_sockets`). Extracted last by each socket's handler.
pub(crate) struct Accepted {
    /// The server's state.
    pub state: AppState,
    /// The client's address.
    pub client: IpAddr,
    /// The handshake, to answer with the socket's limits.
    pub upgrade: WebSocketUpgrade,
    /// The socket's place among the address's sockets and its connection's place among
    /// connections: both freed when the socket ends.
    pub slots: (Slot, ConnectionSlot),
}

impl FromRequestParts<AppState> for Accepted {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Response> {
        let Extension(ClientAddress(client)) =
            Extension::<ClientAddress>::from_request_parts(parts, state)
                .await
                .map_err(IntoResponse::into_response)?;
        let Extension(connection) = Extension::<ConnectionSlot>::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let upgrade = WebSocketUpgrade::from_request_parts(parts, state)
            .await
            .map_err(|e| ApiError::new(ErrorCode::NotWebsocket, e.body_text()).into_response())?;
        let slot = socket_slot(state, client).map_err(IntoResponse::into_response)?;
        Ok(Accepted {
            state: state.clone(),
            client,
            upgrade,
            slots: (slot, connection),
        })
    }
}

/// One client message of a game or lobby socket, after the socket's rate (`rate_limited`) and
/// the size (`too_large`) are checked; `invalid_message` if it does not parse.
pub(crate) fn parse_message<T: DeserializeOwned>(
    text: &str,
    bucket: &mut Bucket,
) -> Result<T, ApiError> {
    if !bucket.take(SOCKET_RATE, Instant::now()) {
        return Err(ApiError::rate_limited());
    }
    if text.len() > MAX_MESSAGE {
        return Err(ApiError::new(
            ErrorCode::TooLarge,
            format!("The message is larger than {MAX_MESSAGE} bytes."),
        ));
    }
    serde_json::from_str(text)
        .map_err(|e| ApiError::new(ErrorCode::InvalidMessage, format!("Invalid message: {e}.")))
}

/// A place among `client`'s open WebSockets, or `too_many_sockets`.
pub(crate) fn socket_slot(state: &AppState, client: IpAddr) -> Result<Slot, ApiError> {
    state.sockets.try_acquire(Some(client)).map_err(|full| {
        let (Full::Address(cap) | Full::Total(cap)) = full;
        ApiError::new(
            ErrorCode::TooManySockets,
            format!(
                "This address already has {cap} WebSockets open, the most allowed; close one first."
            ),
        )
    })
}

/// One open socket and what it holds.
struct Socket {
    state: AppState,
    id: String,
    sub: u64,
    token: Option<String>,
    /// The address its actions are counted against.
    client: IpAddr,
    /// Its place among the address's sockets and its connection's place among connections:
    /// both freed when the socket ends.
    _slots: (Slot, ConnectionSlot),
}

/// Why a socket's loop ended.
pub(crate) enum End {
    /// The client went away, closed, or failed.
    Gone,
    /// Closed by the server with this code and reason.
    Close(u16, &'static str),
}

impl Socket {
    async fn run(self, ws: WebSocket, events: mpsc::Receiver<std::sync::Arc<str>>) {
        let (mut sink, mut stream) = ws.split();
        let mut hard_stop = self.state.hard_stop.clone();
        let end = tokio::select! {
            end = self.serve(&mut sink, &mut stream, events) => end,
            // The shutdown deadline has passed: drop the socket without a word.
            _ = stopped(&mut hard_stop) => End::Gone,
        };
        finish(end, &mut sink, &mut stream, &mut hard_stop).await;
        self.state
            .games
            .tell(&self.id, Command::Unsubscribe { sub: self.sub });
    }

    /// How long one send may wait for a client that does not read: as long as the idle
    /// timeout, so that a stalled reader is dropped like a silent one.
    fn send_timeout(&self) -> Duration {
        self.state.ws_idle_timeout
    }

    async fn serve(
        &self,
        sink: &mut SplitSink<WebSocket, Message>,
        stream: &mut SplitStream<WebSocket>,
        events: mpsc::Receiver<std::sync::Arc<str>>,
    ) -> End {
        let outgoing = pin!(futures_util::stream::unfold(
            events,
            |mut events| async move {
                let text = events.recv().await?;
                Some((Message::Text(text.as_ref().into()), events))
            }
        ));
        let mut talk = Conversation::new(sink, stream, self.send_timeout(), outgoing);
        while let Some(text) = talk.next_message().await {
            let handled = self.handle_message(&text, &mut talk.bucket).await;
            talk.answer(handled.map(|reply| reply.map(|reply| Message::Text(reply.into()))))
                .await;
        }
        talk.end()
    }

    async fn handle_message(
        &self,
        text: &str,
        bucket: &mut Bucket,
    ) -> Result<Option<String>, ApiError> {
        handle_message(
            &self.state,
            &self.id,
            self.sub,
            self.token.as_deref(),
            self.client,
            text,
            bucket,
        )
        .await
    }
}

/// Ends a socket as its loop ended: a socket closed by the server sends its close frame and
/// waits briefly for the client's (dropping the connection at once would reset it if the client
/// is still sending, and its kernel could then discard the close frame before the client reads
/// it); past the shutdown deadline it is dropped without a word.
pub(crate) async fn finish(
    end: End,
    sink: &mut SplitSink<WebSocket, Message>,
    stream: &mut SplitStream<WebSocket>,
    hard_stop: &mut tokio::sync::watch::Receiver<bool>,
) {
    if let End::Close(code, reason) = end {
        let frame = CloseFrame {
            code,
            reason: reason.into(),
        };
        let close = async {
            if sink.send(Message::Close(Some(frame))).await.is_ok() {
                while let Some(Ok(message)) = stream.next().await {
                    if let Message::Close(_) = message {
                        break;
                    }
                }
            }
        };
        tokio::select! {
            _ = tokio::time::timeout(CLOSE_WAIT, close) => {}
            _ = stopped(hard_stop) => {}
        }
    }
}

/// The part of a game or lobby socket's loop that both share: it sends the server's own
/// messages (`outgoing`; when they stop, the socket is closed with 1012 "reconnect"), pings the
/// client every quarter of the idle timeout and closes it once it has been silent that long,
/// reads the client's text messages for the socket to handle, and sends the answers: a refusal
/// as an `error` message, the socket dropped after [`MAX_STRIKES`] refusals in a row. A send
/// that waits longer than the idle timeout for a client that does not read drops the socket.
pub(crate) struct Conversation<'s, O> {
    sink: &'s mut SplitSink<WebSocket, Message>,
    stream: &'s mut SplitStream<WebSocket>,
    outgoing: O,
    idle: Duration,
    pings: tokio::time::Interval,
    heard: Instant,
    strikes: u32,
    end: Option<End>,
    /// The client's message rate, for [`parse_message`].
    pub bucket: Bucket,
}

impl<'s, O: Stream<Item = Message> + Unpin> Conversation<'s, O> {
    /// A conversation on a socket whose client is dropped after `idle` without a word.
    pub(crate) fn new(
        sink: &'s mut SplitSink<WebSocket, Message>,
        stream: &'s mut SplitStream<WebSocket>,
        idle: Duration,
        outgoing: O,
    ) -> Self {
        Conversation {
            sink,
            stream,
            outgoing,
            idle,
            pings: pings(idle),
            heard: Instant::now(),
            strikes: 0,
            end: None,
            bucket: Bucket::new(SOCKET_RATE, Instant::now()),
        }
    }

    /// The client's next text message, the server's messages and pings sent meanwhile; `None`
    /// once the socket has ended (see [`Conversation::end`]).
    pub(crate) async fn next_message(&mut self) -> Option<String> {
        while self.end.is_none() {
            let out = tokio::select! {
                out = self.outgoing.next() => match out {
                    Some(message) => message,
                    // The source stopped (server shutdown) or dropped the socket as too slow.
                    None => {
                        self.end = Some(End::Close(1012, "reconnect"));
                        break;
                    }
                },
                _ = self.pings.tick() => {
                    if self.heard.elapsed() >= self.idle {
                        self.end = Some(End::Close(CLOSE_IDLE, "idle"));
                        break;
                    }
                    Message::Ping(Default::default())
                }
                incoming = self.stream.next() => {
                    self.heard = Instant::now();
                    match read_text(incoming) {
                        Ok(Some(text)) => return Some(text),
                        Ok(None) => continue,
                        Err(end) => {
                            self.end = Some(end);
                            break;
                        }
                    }
                }
            };
            self.send(out).await;
        }
        None
    }

    /// Sends what handling the last message gave: its reply if any, or the refusal.
    pub(crate) async fn answer(&mut self, handled: Result<Option<Message>, ApiError>) {
        let reply = match handled {
            Ok(reply) => {
                self.strikes = 0;
                reply
            }
            Err(e) => {
                self.strikes += 1;
                Some(Message::Text(e.ws_message().into()))
            }
        };
        if let Some(reply) = reply {
            self.send(reply).await;
        }
        if self.strikes >= MAX_STRIKES {
            self.end = Some(End::Gone);
        }
    }

    /// Why the socket ended.
    pub(crate) fn end(self) -> End {
        self.end.unwrap_or(End::Gone)
    }

    async fn send(&mut self, message: Message) {
        if !send_within(self.sink, message, self.idle).await {
            self.end = Some(End::Gone);
        }
    }
}

/// What a socket read: a client message's text, or why the socket ends (`Err`), or nothing to
/// handle (`Ok(None)`: a ping or pong).
fn read_text(incoming: Option<Result<Message, axum::Error>>) -> Result<Option<String>, End> {
    match incoming {
        Some(Ok(Message::Text(text))) => Ok(Some(text.to_string())),
        Some(Ok(Message::Binary(bytes))) => Ok(Some(
            String::from_utf8(bytes.to_vec()).unwrap_or_else(|_| String::from("\u{0}")),
        )),
        Some(Ok(Message::Ping(_) | Message::Pong(_))) => Ok(None),
        Some(Err(e)) => Err(if is_too_big(e) {
            End::Close(CLOSE_TOO_BIG, "message too big")
        } else {
            End::Gone
        }),
        Some(Ok(Message::Close(_))) | None => Err(End::Gone),
    }
}

/// The server's pings for a socket closed after `idle` without a word: every quarter of it.
fn pings(idle: Duration) -> tokio::time::Interval {
    let every = (idle / 4).max(Duration::from_millis(10));
    let mut pings = tokio::time::interval_at((Instant::now() + every).into(), every);
    pings.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    pings
}

/// Sends `message` within `timeout`; `false` if the client is gone or has not read for that
/// long.
pub(crate) async fn send_within(
    sink: &mut SplitSink<WebSocket, Message>,
    message: Message,
    timeout: Duration,
) -> bool {
    matches!(
        tokio::time::timeout(timeout, sink.send(message)).await,
        Ok(Ok(()))
    )
}

/// Whether a read error is a message over [`MAX_READ`].
fn is_too_big(error: axum::Error) -> bool {
    matches!(
        error.into_inner().downcast_ref::<tungstenite::Error>(),
        Some(tungstenite::Error::Capacity(_))
    )
}

async fn handle_message(
    state: &AppState,
    id: &str,
    sub: u64,
    token: Option<&str>,
    client: IpAddr,
    text: &str,
    bucket: &mut Bucket,
) -> Result<Option<String>, ApiError> {
    let message: ClientMessage = parse_message(text, bucket)?;
    let action = match message {
        ClientMessage::Ping {} => return Ok(Some(to_sorted_json(&ServerMessage::Pong {}))),
        ClientMessage::Clock {} => {
            state.games.tell(id, Command::ClockSync { sub });
            return Ok(None);
        }
        ClientMessage::Chat { channel, text } => {
            // Spectators chat too: the line is the subscriber's, not a seat's action.
            if !state.limiter.check(client) {
                return Err(ApiError::rate_limited());
            }
            let chat = ChatRequest {
                sub,
                client,
                channel,
                text,
            };
            return state
                .games
                .ask(id, |reply| Command::Chat {
                    chat: chat.clone(),
                    reply,
                })
                .await
                .map(|()| None);
        }
        other => match message_action(other) {
            Some(action) => action,
            None => return Ok(None),
        },
    };
    // Actions may write to the database: they share the address's budget with its other
    // sockets and its HTTP requests.
    if !state.limiter.check(client) {
        return Err(ApiError::rate_limited());
    }
    crate::http::games::act(state, id, token.map(str::to_owned), action)
        .await
        .map(|_| None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<ClientMessage, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    #[test]
    fn messages_parse_and_unknown_fields_are_named() {
        assert_eq!(parse(r#"{"type":"resign"}"#), Ok(ClientMessage::Resign {}));
        assert_eq!(parse(r#"{"type":"ping"}"#), Ok(ClientMessage::Ping {}));
        assert_eq!(
            parse(r#"{"move":"h2e2","type":"move"}"#),
            Ok(ClientMessage::Move { mv: "h2e2".into() })
        );
        for text in [
            r#"{"type":"resign","x":1}"#,
            r#"{"type":"clock","évite":"gote"}"#,
            r#"{"type":"move","move":"h2e2","x":1}"#,
        ] {
            let error = parse(text).unwrap_err();
            assert!(error.contains("unknown field"), "{text}: {error}");
        }
        assert!(parse(r#"{"type":"castle"}"#).is_err());
        assert!(parse(r#"{"type":"draw","action":"maybe"}"#).is_err());
    }
}
