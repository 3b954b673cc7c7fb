//! One actor (a tokio task) per live game: it owns the table, the clock, the seats and the
//! subscribers, and is reached only through its command channel. Nothing is shared and no lock
//! is held across an await. The actor schedules its own timers (flag, first-move abort), so a
//! game ends on time even when nobody is connected.
//!
//! Order of every change: validate → compute the new [`State`] on a copy → store it durably →
//! only then swap it in, reply and broadcast. A failed write leaves the state as it was (the
//! copy is dropped): nothing is rolled back or replayed.
//!
//! This module is the actor: its command loop; `actions` the actions. Beside it: `registry` (the
//! live actors), `state` (the table state: rules + clock + seats), `view` (what one observer
//! sees, and the events) and `rows` (stored rows ↔ state).
//!
//! May use: `table`, `clock`, `store`, `seat`, `engine_pool` (the computer's seat), `lobby`
//! (to list its game), `cluster` (leases, forwarding), `http::ratelimit` (chat rates) and
//! `players` (a joining player's name and rating, read from the store); never the router or
//! the handlers.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jiang_rules::{Outcome, Reason, Side, Variant};
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot, watch};

use crate::clock::{self, Clock, ClockSnapshot, TimeControl};
use crate::error::{ApiError, ErrorCode};
use crate::seat;
use crate::store::{GameRow, PlayerWrite, Store, StoreError, StoredGame, Write};
use crate::table::{self, AnyGame, NotationStyle, RecordFormat, Setup, WireGame};
mod actions;
mod comforts;
mod computer;
mod listing;
mod registry;
mod remote;
mod rows;
mod state;
mod view;

use comforts::Comforts;
pub use comforts::claim_grace;
pub(crate) use listing::summary;
pub(crate) use registry::{Games, NodeParts, Preloaded};
pub(crate) use remote::{message_action, spawn_tasks};

pub(crate) use computer::requested_level;
use rows::{Load, Meta, abandoned_result, duration_ms, load_live, side_of_index};
pub(crate) use rows::{NewGame, TournamentOfGame};
use state::State;
use view::Event;

use jiang_protocol::{ChatChannel, ClaimResult, TakebackAction};
use jiang_protocol::{
    ClockMessage, ClockView, CountMessage, DrawOfferMessage, GameResult, GameState, GameView,
    MoveEvent, RematchMessage, RematchView, ServerMessage, SideClock, to_sorted_json,
};

/// `text` with its first letter in upper case: error messages are sentences.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Whole milliseconds in `d`, rounded down.
fn floor_ms_of(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

pub(crate) use crate::store::now_ms;

/// Where a game stands (the protocol's status).
pub use jiang_protocol::GameStatus as Status;

/// What a player can do to a game.
#[derive(Clone, Debug)]
pub enum Action {
    /// Play a move (machine notation, Jieqi without suffix).
    Move(String),
    /// Resign.
    Resign,
    /// Offer, accept or decline a draw.
    Draw(DrawAction),
    /// Abort before both sides moved.
    Abort,
    /// Declare impasse (shogi).
    Impasse,
    /// Ask for a rematch.
    Rematch,
    /// Berserk: arena tournament games, before one's first move (docs/tournaments.md).
    Berserk,
    /// Request, cancel, accept or decline a takeback.
    Takeback(TakebackAction),
    /// Queue a move for the next turn (`None` cancels it).
    Premove(Option<String>),
    /// Claim the win or a draw against an absent opponent.
    Claim(ClaimResult),
    /// Turn a chat channel off (`true`) or on for oneself.
    ChatMute(ChatChannel, bool),
}

pub use jiang_protocol::{DrawAction, Joined};

/// A record download.
pub struct RecordFile {
    /// The text.
    pub text: String,
    /// Its content type.
    pub content_type: &'static str,
    /// The download's file name.
    pub file_name: String,
}

type Reply<T> = oneshot::Sender<Result<T, ApiError>>;

/// A finished game as the analysis board opens it: its table (Jieqi: with the deal, public
/// once the game is over) and its result (`None` when aborted without one).
pub(crate) struct Finished {
    /// The table at the end of the game.
    pub table: AnyGame,
    /// How the game ended.
    pub result: Option<Outcome>,
}

/// A message to a game actor.
pub(crate) enum Command {
    View {
        token: Option<String>,
        reply: Reply<GameView>,
    },
    Join {
        /// The joining player's public id, if it gave a player key.
        player: Option<String>,
        reply: Reply<Joined>,
    },
    Act {
        token: Option<String>,
        action: Action,
        reply: Reply<GameView>,
    },
    Record {
        format: RecordFormat,
        reply: Reply<RecordFile>,
    },
    Notation {
        style: NotationStyle,
        reply: Reply<jiang_protocol::NotationList>,
    },
    /// A finished game for the analysis board; refused while the game is not over.
    Finished {
        reply: Reply<Finished>,
    },
    Subscribe {
        token: Option<String>,
        tx: mpsc::Sender<Arc<str>>,
        reply: Reply<u64>,
    },
    Unsubscribe {
        sub: u64,
    },
    ClockSync {
        sub: u64,
    },
    Chat {
        chat: ChatRequest,
        reply: Reply<()>,
    },
    /// Cluster mode: the lease this actor took with `epoch` was taken over; it stops.
    LeaseLost {
        epoch: i64,
    },
}

/// A chat line as a subscriber sent it, before the game's actor checks it.
#[derive(Clone, Debug)]
pub(crate) struct ChatRequest {
    /// The subscription it came through (whose viewer speaks).
    pub sub: u64,
    /// The sender's address, for the spectators' rate limit.
    pub client: std::net::IpAddr,
    /// The channel it is said in.
    pub channel: ChatChannel,
    /// The line as sent.
    pub text: String,
}

/// Server-wide settings the actors need.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// How long the side to move has for its first move before the game is aborted.
    pub first_move_timeout: Duration,
    /// Base of the links handed out (`http://127.0.0.1:8080`).
    pub public_url: String,
    /// How long an actor with no subscribers and no timer stays in memory.
    pub idle_timeout: Duration,
    /// An untimed game in progress unchanged for this long ends as `abandoned`.
    pub abandon_after: Duration,
    /// The shortest grace period before a claim against an absent player (see
    /// [`claim_grace`]).
    pub claim_grace_min: Duration,
    /// The longest the correspondence deadline sweep sleeps between two looks at the store
    /// (it sleeps until the earliest deadline when that is sooner).
    pub deadline_sweep_max: Duration,
}

struct Subscriber {
    id: u64,
    viewer: Option<Side>,
    tx: mpsc::Sender<Arc<str>>,
}

/// A live game, owned by its actor.
struct Live {
    id: String,
    variant: Variant,
    setup: Setup,
    /// What the store holds: every change is computed on a copy and swapped in once stored.
    state: State,
    created_at: i64,
    /// The row's `updated_at` when it was loaded (ms since the Unix epoch): the abandonment
    /// rule's "no change since".
    loaded_updated_at: i64,
    /// The seat tokens players have shown this actor, by side: in memory only, never stored,
    /// so that a player's view can carry its rematch token (derived from this one).
    shown_tokens: [Option<String>; 2],
    subscribers: Vec<Subscriber>,
    /// After a timer's change (flag, first-move abort) could not be stored: not before this
    /// instant is it tried again, so a failing store is not hammered in a loop.
    timer_retry_at: Option<Instant>,
    /// Spectator counts sent, debounced (a crowd joining must not cost its square).
    spectators: Debounce,
    /// Chat, takeback log, premoves and presence.
    comforts: Comforts,
    /// How long a player must be away before the opponent may claim.
    grace: Duration,
    /// What the lobby was last told of this game (see `listing`).
    lobby_told: Option<crate::lobby::Listing>,
    /// In a game against the computer: its seat and level.
    computer: Option<computer::Computer>,
    /// After the computer's move could not be stored: not before this instant does it think
    /// again.
    computer_retry_at: Option<Instant>,
    /// Cluster mode: the epoch of this node's lease on the game (every write is fenced by it).
    lease: Option<i64>,
    /// Cluster mode: the lease is another node's now (a fenced write failed, or a renewal
    /// found it taken): the actor stops without writing or releasing anything.
    lost: bool,
}

/// The most often a game sends `spectators` messages: joins and leaves within this interval
/// are told in one message, sent at its end with the count then.
const SPECTATORS_INTERVAL: Duration = Duration::from_millis(250);

/// When the spectator count was last sent and whether a change waits to be.
#[derive(Default)]
struct Debounce {
    sent_at: Option<Instant>,
    due: Option<Instant>,
}

/// How long the actor of a finished game with nobody watching stays in memory: only a rematch
/// can still change it, so it makes room for live games sooner.
const OVER_IDLE_TIMEOUT: Duration = Duration::from_secs(10);

async fn run_actor(
    games: Arc<Games>,
    id: String,
    preloaded: Option<Preloaded>,
    me: &mpsc::Sender<Command>,
    mut rx: mpsc::Receiver<Command>,
) {
    let _alive = games.alive.clone();
    let mut shutdown = games.shutdown.clone();
    // Cluster mode: run the game only with its lease (see `crate::cluster`).
    let (lease, runs) = match games.take_lease(&id, me).await {
        Ok(taken) => taken,
        Err(error) => {
            rx.close();
            while let Some(cmd) = rx.recv().await {
                match &error {
                    // Another node runs it: the callers' `ask` forwards (their replies dropped).
                    None => drop(cmd),
                    Some(error) => fail(cmd, error.clone()),
                }
            }
            return;
        }
    };
    let runs = runs.as_deref().unwrap_or(&games.runs);
    let load = match preloaded {
        Some(p) => load_live(p.stored, &games.settings, p.at, runs),
        None => match games.store.load(&id).await {
            Ok(Some(s)) => load_live(s, &games.settings, Instant::now(), runs),
            Ok(None) => Load::Missing,
            Err(e) => Load::Broken(e.to_string()),
        },
    };
    let mut live = match load {
        Load::Found(mut live) => {
            live.lease = lease;
            live
        }
        other => {
            let error = match other {
                Load::Broken(why) => {
                    tracing::error!(game = %id, %why, "cannot load game");
                    ApiError::internal("This game's stored data cannot be read.")
                }
                _ => ApiError::game_not_found(&id),
            };
            if let (Some(cluster), Some(epoch)) = (&games.cluster, lease) {
                cluster.release(&id, epoch).await;
            }
            rx.close();
            while let Some(cmd) = rx.recv().await {
                fail(cmd, error.clone());
            }
            return;
        }
    };
    // A game that was playing when the server stopped may have run out of time meanwhile by its
    // own snapshot (never by the downtime): settle that first.
    live.on_timer(&games, Instant::now()).await;
    live.expire_if_abandoned(&games, Instant::now()).await;
    let mut idle_since = Instant::now();
    // The computer's search under way, if any (see `computer`).
    let mut thinking = None;
    loop {
        if live.lost {
            break;
        }
        live.sync_lobby(&games);
        live.think(&games, &mut thinking, Instant::now());
        let deadline = live.next_deadline();
        // Nothing to wait for and nobody watching: everything is stored, so the actor can stop
        // and be reloaded on the next request. A computer to move keeps it. A correspondence
        // game's deadline (days away) does not: the store keeps it, and the deadline sweep
        // wakes the game when it passes (see `Games::sweep_deadlines`).
        let idle = (deadline.is_none() || live.is_correspondence())
            && live.subscribers.is_empty()
            && !live.computer_busy();
        let idle_deadline = idle.then(|| {
            let keep = if live.state.status.is_over() {
                games.settings.idle_timeout.min(OVER_IDLE_TIMEOUT)
            } else {
                games.settings.idle_timeout
            };
            idle_since + keep
        });
        tokio::select! {
            cmd = rx.recv() => {
                let Some(cmd) = cmd else { break };
                idle_since = Instant::now();
                live.handle(&games, cmd).await;
            }
            _ = sleep_until_opt(deadline) => {
                live.on_timer(&games, Instant::now()).await;
            }
            _ = sleep_until_opt(live.spectators.due) => {
                live.send_spectators(Instant::now());
            }
            answer = computer::answer(&mut thinking) => {
                if let Some(search) = thinking.take() {
                    live.computer_answer(&games, search, answer).await;
                }
            }
            _ = sleep_until_opt(live.computer_wake()) => {
                live.computer_retry_at = None;
            }
            _ = sleep_until_opt(idle_deadline) => {
                if games.retire(&id, me, &mut rx) {
                    break;
                }
                idle_since = Instant::now(); // A command is waiting: handle it first.
            }
            _ = shutdown.changed() => break,
        }
    }
    // Dropping the subscribers' senders closes their sockets.
    live.subscribers.clear();
    games.lobby.unloaded(&id);
    live.hand_over(&games).await;
}

async fn sleep_until_opt(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

/// Answers `cmd` with `error`, if it waits for an answer.
fn fail(cmd: Command, error: ApiError) {
    /// Sends `error` to a caller that may have stopped waiting.
    fn refuse<T>(reply: Reply<T>, error: ApiError) {
        let _ = reply.send(Err(error));
    }
    match cmd {
        Command::View { reply, .. } | Command::Act { reply, .. } => refuse(reply, error),
        Command::Join { reply, .. } => refuse(reply, error),
        Command::Record { reply, .. } => refuse(reply, error),
        Command::Notation { reply, .. } => refuse(reply, error),
        Command::Finished { reply } => refuse(reply, error),
        Command::Subscribe { reply, .. } => refuse(reply, error),
        Command::Chat { reply, .. } => refuse(reply, error),
        Command::Unsubscribe { .. } | Command::ClockSync { .. } | Command::LeaseLost { .. } => {}
    }
}

/// The API error for a failed store write (logged): nothing was changed.
fn store_error(game: &str, e: StoreError) -> ApiError {
    tracing::error!(game = %game, error = %e, "store write failed; change dropped");
    match e {
        StoreError::Closed => ApiError::unavailable(),
        StoreError::Rejected(_) => {
            ApiError::internal("The change could not be stored; nothing was changed.")
        }
        _ => ApiError::storage_unavailable(),
    }
}

/// Whether a failed write was refused by its lease fence (cluster mode).
fn is_fenced(e: &StoreError) -> bool {
    match e {
        StoreError::Fenced => true,
        StoreError::Rejected(cause) => matches!(**cause, StoreError::Fenced),
        _ => false,
    }
}

/// How long after a failed write a due timer (flag, first-move abort) is tried again.
const TIMER_RETRY: Duration = Duration::from_secs(1);

impl Live {
    fn name(&self, side: Side) -> &'static str {
        self.variant.side_name(side)
    }

    fn ply(&self) -> usize {
        self.state.table.moves().len()
    }

    /// Whether the game has a correspondence clock (days per move).
    fn is_correspondence(&self) -> bool {
        self.state
            .meta
            .control
            .is_some_and(|c| c.is_correspondence())
    }

    /// How long the side to move has for its first move before the game is aborted: the
    /// server's countdown (30 s), or a correspondence clock's days per move.
    fn first_move_timeout(&self, games: &Games) -> Duration {
        match self.state.meta.control {
            Some(control) if control.is_correspondence() => control.byoyomi,
            _ => games.settings.first_move_timeout,
        }
    }

    fn next_deadline(&self) -> Option<Instant> {
        if self.state.status != Status::Playing {
            return None;
        }
        let flag = self.state.clock.as_ref().and_then(Clock::flag_at);
        let due = match (flag, self.first_move_countdown()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        due.map(|due| self.timer_retry_at.map_or(due, |retry| due.max(retry)))
    }

    /// The seat `token` holds (`None`: a spectator), remembering the token for the rematch.
    fn seat_of(&mut self, token: Option<&str>) -> Result<Option<Side>, ApiError> {
        let Some(token) = token else { return Ok(None) };
        let mut found = None;
        for side in Side::BOTH {
            if let Some(hash) = &self.state.tokens[side.index()]
                && seat::token_matches(token, hash)
            {
                found = Some(side);
            }
        }
        let side = found.ok_or_else(ApiError::wrong_token)?;
        if self.shown_tokens[side.index()].as_deref() != Some(token) {
            self.shown_tokens[side.index()] = Some(token.to_owned());
        }
        Ok(Some(side))
    }

    /// The side `old` plays in the rematch: sides swap, except that in a handicap game each
    /// player keeps its role.
    fn rematch_side(&self, old: Side) -> Side {
        if self.setup.handicap.is_some() {
            old
        } else {
            !old
        }
    }

    /// Stores `unit` plus the row of `next`, and only then makes `next` the game's state. If
    /// the write fails nothing changes: the state in memory is still what the store holds.
    async fn commit(
        &mut self,
        games: &Games,
        next: State,
        mut unit: Vec<Write>,
        now: Instant,
    ) -> Result<(), ApiError> {
        if self.state.status == Status::Playing
            && next.status == Status::Ended
            && let Some(rate) = self.rating_write(&next)
        {
            unit.push(rate);
        }
        unit.push(Write::UpdateGame(self.row(&next, now)));
        if let (Some(cluster), Some(epoch)) = (&games.cluster, self.lease) {
            unit.push(cluster.fence(&self.id, epoch));
        }
        if let Err(e) = games.store.write(unit).await {
            if is_fenced(&e) {
                // Another node runs the game now: this actor stops, the caller asks again.
                tracing::warn!(game = %self.id, "write fenced: the lease is another node's");
                self.lost = true;
                return Err(ApiError::cluster_unavailable());
            }
            return Err(store_error(&self.id, e));
        }
        self.state = next;
        Ok(())
    }

    // ----- views -----

    /// Sends `event` to every subscriber, each with its own view; drops the ones that are gone
    /// or too slow to keep up (they reconnect and get a fresh state).
    fn broadcast(&mut self, event: Event, now: Instant) {
        let mut texts: [Option<Option<Arc<str>>>; 3] = [None, None, None];
        let mut dropped_spectator = false;
        let mut dropped_players = Vec::new();
        let mut i = 0;
        while i < self.subscribers.len() {
            let viewer = self.subscribers[i].viewer;
            let slot = viewer.map_or(2, Side::index);
            if texts[slot].is_none() {
                texts[slot] = Some(self.event_text(&event, viewer, now).map(Into::into));
            }
            let Some(text) = texts[slot].clone().expect("just built") else {
                i += 1;
                continue;
            };
            if self.subscribers[i].tx.try_send(text).is_err() {
                let gone = self.subscribers.swap_remove(i);
                match gone.viewer {
                    None => dropped_spectator = true,
                    Some(side) => dropped_players.push(side),
                }
            } else {
                i += 1;
            }
        }
        if dropped_spectator {
            self.spectators_changed(now);
        }
        for side in dropped_players {
            self.presence_changed(side, now);
        }
    }

    /// The spectator count changed: sent now if none was sent in the last
    /// [`SPECTATORS_INTERVAL`], else once that interval is over (one message for every change
    /// meanwhile, with the count at that time, so the last count always arrives).
    fn spectators_changed(&mut self, now: Instant) {
        if self.spectators.due.is_some() {
            return;
        }
        match self.spectators.sent_at {
            Some(at) if now < at + SPECTATORS_INTERVAL => {
                self.spectators.due = Some(at + SPECTATORS_INTERVAL);
            }
            _ => self.send_spectators(now),
        }
    }

    /// Sends the spectator count to every subscriber.
    fn send_spectators(&mut self, now: Instant) {
        self.spectators = Debounce {
            sent_at: Some(now),
            due: None,
        };
        self.broadcast(Event::Spectators, now);
    }

    // ----- commands -----

    async fn handle(&mut self, games: &Games, cmd: Command) {
        let now = Instant::now();
        match cmd {
            Command::View { token, reply } => {
                let answer = self
                    .seat_of(token.as_deref())
                    .map(|viewer| self.view(viewer, now));
                let _ = reply.send(answer);
            }
            Command::Join { player, reply } => {
                let answer = self.join(games, player, now).await;
                let _ = reply.send(answer);
            }
            Command::Act {
                token,
                action,
                reply,
            } => {
                let answer = match token {
                    None => Err(ApiError::missing_token()),
                    Some(token) => match self.seat_of(Some(&token)) {
                        Ok(Some(side)) => match self.act(games, side, action, now).await {
                            Ok(()) => Ok(self.view(Some(side), Instant::now())),
                            Err(e) => Err(e),
                        },
                        Ok(None) | Err(_) => Err(ApiError::wrong_token()),
                    },
                };
                let _ = reply.send(answer);
            }
            Command::Record { format, reply } => {
                let _ = reply.send(self.record(games, format));
            }
            Command::Notation { style, reply } => {
                let answer = self.state.table.history(style).map_err(|e| {
                    ApiError::new(
                        ErrorCode::BadNotationStyle,
                        format!("{}.", capitalised(&e.to_string())),
                    )
                });
                let _ = reply.send(answer);
            }
            Command::Finished { reply } => {
                let answer = if self.state.status.is_over() {
                    Ok(Finished {
                        table: self.state.table.clone(),
                        result: self.state.result,
                    })
                } else {
                    Err(ApiError::new(
                        ErrorCode::GameInProgress,
                        "This game is still being played: it can be analysed once it is over.",
                    ))
                };
                let _ = reply.send(answer);
            }
            Command::Subscribe { token, tx, reply } => match self.seat_of(token.as_deref()) {
                Ok(viewer) => {
                    let id = games.new_subscriber_id();
                    // The newcomer's first state already counts it present (against the
                    // computer the first-move countdown depends on that): its presence is
                    // recorded, and told to the others, just below.
                    let away = self.comforts.away_since;
                    if let Some(side) = viewer {
                        self.comforts.away_since[side.index()] = None;
                    }
                    let text: Arc<str> = self.view_text(viewer, now).into();
                    self.comforts.away_since = away;
                    let history =
                        to_sorted_json(&ServerMessage::ChatHistory(self.chat_history(viewer)));
                    if tx.try_send(text).is_ok() && tx.try_send(history.into()).is_ok() {
                        self.subscribers.push(Subscriber { id, viewer, tx });
                        match viewer {
                            None => self.spectators_changed(now),
                            Some(side) => self.presence_changed(side, now),
                        }
                    }
                    let _ = reply.send(Ok(id));
                }
                Err(e) => {
                    let _ = reply.send(Err(e));
                }
            },
            Command::Unsubscribe { sub } => {
                if let Some(pos) = self.subscribers.iter().position(|s| s.id == sub) {
                    let gone = self.subscribers.swap_remove(pos);
                    match gone.viewer {
                        None => self.spectators_changed(now),
                        Some(side) => self.presence_changed(side, now),
                    }
                }
            }
            Command::ClockSync { sub } => {
                if let Some(s) = self.subscribers.iter().find(|s| s.id == sub) {
                    let message = ServerMessage::Clock(ClockMessage {
                        ply: self.ply() as u64,
                        clock: self.clock_view(now),
                    });
                    let _ = s.tx.try_send(to_sorted_json(&message).into());
                }
            }
            Command::Chat { chat, reply } => {
                let answer = self.chat(games, chat, now).await;
                let _ = reply.send(answer);
            }
            Command::LeaseLost { epoch } => {
                if self.lease == Some(epoch) {
                    self.lost = true;
                }
            }
        }
    }
}
