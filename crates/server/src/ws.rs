//! `GET /api/games/{id}/ws`: one WebSocket per browser tab. The socket subscribes to the game's
//! actor, which sends it `state` first and then events built for this viewer only; messages
//! from the client become actions. Bad messages get `{"type": "error", …}` and change nothing.

use std::time::Instant;

use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use tokio::sync::mpsc;

use crate::error::ApiError;
use crate::game::{Action, Command, DrawAction};
use crate::http::{AppState, bearer, cookie, seat_cookie_name};
use crate::ratelimit::{Bucket, Rate};

/// The largest client message handled (bytes); larger ones are refused with an error.
pub const MAX_MESSAGE: usize = 4 * 1024;

/// Client messages per socket: sustained rate and burst.
const SOCKET_RATE: Rate = Rate {
    per_second: 20.0,
    burst: 40.0,
};

/// After this many refused messages in a row the socket is closed.
const MAX_STRIKES: u32 = 50;

/// Events queued for a slow socket before it is dropped (it reconnects and gets a `state`).
const QUEUE: usize = 64;

/// What a client may send. The variants without fields are written `{}` so that serde refuses
/// unknown fields in them too (it ignores them for unit variants of a tagged enum).
#[derive(Debug, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ClientMessage {
    Move {
        #[serde(rename = "move")]
        mv: String,
    },
    Resign {},
    Draw {
        action: DrawAction,
    },
    Abort {},
    Impasse {},
    Rematch {},
    /// Asks for a `clock` event (to resynchronise a countdown).
    Clock {},
    /// Keep-alive; answered with `pong`.
    Ping {},
}

pub(crate) async fn upgrade(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let upgrade = match upgrade {
        Ok(u) => u,
        Err(e) => {
            return ApiError::bad_request("not_websocket", e.body_text()).into_response();
        }
    };
    let from_query = query
        .as_deref()
        .unwrap_or("")
        .split('&')
        .find_map(|kv| kv.strip_prefix("token=").map(str::to_owned));
    let explicit = bearer(&headers).or(from_query);
    let from_cookie = cookie(&headers, &seat_cookie_name(&id));
    // Browsers send the seat cookie on any page's handshake: without an explicit token the
    // upgrade must come from the server's own pages (see `crate::origin`).
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
    if matches!(&subscribed, Err(e) if e.code == "wrong_token") && explicit.is_none() {
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
    upgrade
        // Client messages are small: a small read buffer saves memory per socket and the
        // zeroing of a large buffer on every read.
        .read_buffer_size(4 * 1024)
        .max_message_size(64 * 1024)
        .on_upgrade(move |socket| run(socket, state, id, sub, token, rx))
}

async fn run(
    socket: WebSocket,
    state: AppState,
    id: String,
    sub: u64,
    token: Option<String>,
    mut events: mpsc::Receiver<std::sync::Arc<str>>,
) {
    let (mut sink, mut stream) = socket.split();
    let mut bucket = Bucket::new(SOCKET_RATE, Instant::now());
    let mut strikes = 0;
    loop {
        tokio::select! {
            event = events.recv() => match event {
                Some(text) => {
                    if sink.send(Message::Text(text.as_ref().into())).await.is_err() {
                        break;
                    }
                }
                None => {
                    // The actor stopped (server shutdown) or dropped us as too slow.
                    let _ = sink
                        .send(Message::Close(Some(CloseFrame {
                            code: 1012,
                            reason: "reconnect".into(),
                        })))
                        .await;
                    break;
                }
            },
            incoming = stream.next() => {
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text.to_string(),
                    Some(Ok(Message::Binary(bytes))) => match String::from_utf8(bytes.to_vec()) {
                        Ok(text) => text,
                        Err(_) => String::from("\u{0}"),
                    },
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                };
                let reply = handle_message(&state, &id, sub, token.as_deref(), &text, &mut bucket).await;
                match reply {
                    Ok(None) => strikes = 0,
                    Ok(Some(text)) => {
                        strikes = 0;
                        if sink.send(Message::Text(text.into())).await.is_err() {
                            break;
                        }
                    }
                    Err(e) => {
                        strikes += 1;
                        if sink.send(Message::Text(e.ws_message().into())).await.is_err()
                            || strikes >= MAX_STRIKES
                        {
                            break;
                        }
                    }
                }
            }
        }
    }
    state.games.tell(&id, Command::Unsubscribe { sub });
}

async fn handle_message(
    state: &AppState,
    id: &str,
    sub: u64,
    token: Option<&str>,
    text: &str,
    bucket: &mut Bucket,
) -> Result<Option<String>, ApiError> {
    if !bucket.take(SOCKET_RATE, Instant::now()) {
        return Err(ApiError::rate_limited());
    }
    if text.len() > MAX_MESSAGE {
        return Err(ApiError::too_large(MAX_MESSAGE));
    }
    let message: ClientMessage = serde_json::from_str(text)
        .map_err(|e| ApiError::bad_request("invalid_message", format!("Invalid message: {e}.")))?;
    let action = match message {
        ClientMessage::Ping {} => return Ok(Some(r#"{"type":"pong"}"#.to_owned())),
        ClientMessage::Clock {} => {
            state.games.tell(id, Command::ClockSync { sub });
            return Ok(None);
        }
        ClientMessage::Move { mv } => Action::Move(mv),
        ClientMessage::Resign {} => Action::Resign,
        ClientMessage::Draw { action } => Action::Draw(action),
        ClientMessage::Abort {} => Action::Abort,
        ClientMessage::Impasse {} => Action::Impasse,
        ClientMessage::Rematch {} => Action::Rematch,
    };
    let token = token.map(str::to_owned);
    state
        .games
        .ask(id, |reply| Command::Act {
            token: token.clone(),
            action: action.clone(),
            reply,
        })
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
