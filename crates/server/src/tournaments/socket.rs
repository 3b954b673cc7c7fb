//! `GET /api/tournaments/{id}/ws`: the tournament socket. It sends the page of the `standings`
//! it follows on connect and after every change: the page where its player stands (the first
//! for a watcher) until the client asks for another with `page`. Opened with a player key
//! (`Authorization: Player`, or the player cookie from this site's own pages), it also sends
//! that player `game` on connect when a game is in progress, and whenever they are paired.
//! Clients send `ping` and `page`. Sockets count against the address's WebSocket cap like game
//! sockets.

use std::pin::pin;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

use axum::body::Bytes;
use axum::extract::Path;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use jiang_protocol::{TournamentClientMessage, TournamentServerMessage, to_sorted_json};
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;

use super::{Event, Standings, my_game, standings_of};
use crate::error::{ApiError, ErrorCode};
use crate::http::ratelimit::Bucket;
use crate::http::serve::{ConnectionSlot, stopped};
use crate::http::slots::Slot;
use crate::http::state::AppState;
use crate::http::ws::{self, Accepted, Conversation, End, finish, send_within};
use crate::players::handlers::who;
use crate::players::read_error;

pub(crate) async fn upgrade(
    Path(id): Path<String>,
    headers: HeaderMap,
    accepted: Accepted,
) -> Response {
    let state = accepted.state;
    // The player cookie alone names a player only on this site's own pages: another site's
    // page must not learn a player's seat token through it.
    let cookie_only = crate::players::header_key(&headers).is_none();
    let player = if cookie_only && state.origin.check_upgrade(&headers, true).is_err() {
        None
    } else {
        match who(&state, &headers, false).await {
            Ok(auth) => match auth.optional() {
                Ok(p) => p.map(|p| p.id.clone()),
                Err(e) => return e.into_response(),
            },
            Err(e) => return e.into_response(),
        }
    };
    if id.is_empty() || id.len() > 32 || !id.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return not_found().into_response();
    }
    // Subscribed before the first snapshot is read: a change in between is sent twice rather
    // than lost.
    let events = state.tournaments.subscribe(&id);
    let personal = player
        .as_deref()
        .map(|p| state.tournaments.subscribe_personal(&id, p));
    let first = match standings_of(&*state.games.store().backend(), &id).await {
        Ok(Some((standings, loaded))) => {
            let mine = player.as_deref().and_then(|p| my_game(&loaded, p));
            let mine = mine.map(|g| to_sorted_json(&TournamentServerMessage::Game(g)));
            (standings, mine)
        }
        Ok(None) => {
            drop(events);
            state.tournaments.prune(&id);
            return not_found().into_response();
        }
        Err(e) => {
            drop(events);
            state.tournaments.prune(&id);
            return read_error(e).into_response();
        }
    };
    let slots = accepted.slots;
    ws::small_messages(accepted.upgrade).on_upgrade(move |socket| {
        run(
            state,
            (id, player),
            first,
            (events, personal),
            socket,
            slots,
        )
    })
}

fn not_found() -> ApiError {
    ApiError::new(
        ErrorCode::TournamentNotFound,
        "There is no tournament with that id.",
    )
}

/// The standings every socket hears, and the asking player's own messages.
type Receivers = (
    broadcast::Receiver<Event>,
    Option<broadcast::Receiver<Arc<str>>>,
);

/// The page a socket follows: a page number from 1, or [`MY_PAGE`].
struct Follow {
    page: AtomicU32,
    /// The socket's player, whose page [`MY_PAGE`] is.
    player: Option<String>,
    /// The latest standings the socket has seen, to answer `page` from.
    latest: Mutex<Arc<Standings>>,
}

/// "The page where the socket's player stands" (the first for a watcher).
const MY_PAGE: u32 = 0;

impl Follow {
    /// The followed page of `standings`, as its message (remembered as the latest).
    fn page_of(&self, standings: Arc<Standings>) -> Arc<str> {
        let page = match self.page.load(Ordering::Relaxed) {
            MY_PAGE => self
                .player
                .as_deref()
                .and_then(|p| standings.page_of(p))
                .unwrap_or(1),
            page => page,
        };
        let text = standings.page(page);
        *self.latest.lock().expect("follow lock") = standings;
        text
    }
}

async fn run(
    state: AppState,
    (id, player): (String, Option<String>),
    first: (Arc<Standings>, Option<String>),
    (events, personal): Receivers,
    socket: WebSocket,
    _slots: (Slot, ConnectionSlot),
) {
    let (mut sink, mut stream) = socket.split();
    let mut hard_stop = state.hard_stop.clone();
    let mut shutdown = state.lobby.shutdown();
    let timeout = state.ws_idle_timeout;
    let follow = Follow {
        page: AtomicU32::new(MY_PAGE),
        player,
        latest: Mutex::new(first.0.clone()),
    };
    let follow = &follow;
    let serve = async {
        let page = follow.page_of(first.0);
        if !send_within(&mut sink, Message::Text(shared_text(page)), timeout).await {
            return End::Gone;
        }
        if let Some(mine) = first.1
            && !send_within(&mut sink, Message::Text(mine.into()), timeout).await
        {
            return End::Gone;
        }
        let hub = &state.tournaments;
        let id = &id;
        let standings = futures_util::stream::unfold(events, move |mut events| async move {
            loop {
                match events.recv().await {
                    Ok(Event::Standings(standings)) => {
                        return Some((follow.page_of(standings), events));
                    }
                    Ok(Event::Paired { .. }) => continue, // never on this channel
                    // Fallen behind: the latest standings (they are whole).
                    Err(RecvError::Lagged(_)) => {
                        events = events.resubscribe();
                        if let Some(standings) = hub.latest_standings(id) {
                            return Some((follow.page_of(standings), events));
                        }
                    }
                    Err(RecvError::Closed) => return None,
                }
            }
        });
        let mine = futures_util::stream::unfold(personal, |personal| async move {
            let mut personal = personal?;
            loop {
                match personal.recv().await {
                    Ok(text) => return Some((text, Some(personal))),
                    Err(RecvError::Lagged(_)) => continue,
                    Err(RecvError::Closed) => return None,
                }
            }
        });
        let outgoing = pin!(
            futures_util::stream::select(standings, mine)
                .map(|text| Message::Text(shared_text(text)))
        );
        let mut talk = Conversation::new(&mut sink, &mut stream, timeout, outgoing);
        while let Some(message) = talk.next_message().await {
            let handled = handle(&message, &mut talk.bucket, follow);
            talk.answer(handled).await;
        }
        talk.end()
    };
    let end = tokio::select! {
        end = serve => end,
        _ = stopped(&mut shutdown) => End::Close(1012, "reconnect"),
        _ = stopped(&mut hard_stop) => End::Gone,
    };
    finish(end, &mut sink, &mut stream, &mut hard_stop).await;
    state.tournaments.prune(&id);
}

/// `text` as a frame's payload without copying it: a large arena's standings (hundreds of
/// kilobytes) are the same bytes for every socket, not one copy each.
fn shared_text(text: Arc<str>) -> Utf8Bytes {
    struct Shared(Arc<str>);
    impl AsRef<[u8]> for Shared {
        fn as_ref(&self) -> &[u8] {
            self.0.as_bytes()
        }
    }
    Utf8Bytes::try_from(Bytes::from_owner(Shared(text))).expect("a str is UTF-8")
}

/// One client message: `ping` is answered with `pong`, `page` with the page now followed.
fn handle(text: &str, bucket: &mut Bucket, follow: &Follow) -> Result<Option<Message>, ApiError> {
    let message: TournamentClientMessage = ws::parse_message(text, bucket)?;
    match message {
        TournamentClientMessage::Ping {} => Ok(Some(Message::Text(
            to_sorted_json(&TournamentServerMessage::Pong {}).into(),
        ))),
        TournamentClientMessage::Page { page: Some(0) } => Err(ApiError::new(
            ErrorCode::InvalidMessage,
            "Pages are numbered from 1 (`page` absent: the page where you stand).",
        )),
        TournamentClientMessage::Page { page } => {
            follow
                .page
                .store(page.unwrap_or(MY_PAGE), Ordering::Relaxed);
            let latest = follow.latest.lock().expect("follow lock").clone();
            Ok(Some(Message::Text(shared_text(follow.page_of(latest)))))
        }
    }
}
