//! One actor (a tokio task) per live game: it owns the table, the clock, the seats and the
//! subscribers, and is reached only through its command channel. Nothing is shared and no lock
//! is held across an await. The actor schedules its own timers (flag, first-move abort), so a
//! game ends on time even when nobody is connected.
//!
//! Order of every change: validate → apply to a copy of the state → store durably → only then
//! reply and broadcast. A failed write restores the previous state.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use jiang_rules::{Family, Outcome, Reason, RecordClock, Side, Variant};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use tokio::sync::{mpsc, oneshot, watch};

use crate::clock::{self, Clock, ClockSnapshot, TimeControl};
use crate::error::ApiError;
use crate::seat;
use crate::store::{GameRow, MoveRow, Store, StoreError, StoredGame, Write};
use crate::table::{self, NotationStyle, RecordFormat, RecordInfo, Setup, Table};

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

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// One seat is still free.
    Waiting,
    /// Both seats are taken and the game goes on.
    Playing,
    /// Over with a result.
    Ended,
    /// Abandoned before both sides moved: no result.
    Aborted,
}

impl Status {
    /// The API name.
    pub fn name(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::Playing => "playing",
            Status::Ended => "ended",
            Status::Aborted => "aborted",
        }
    }

    fn parse(name: &str) -> Option<Status> {
        [
            Status::Waiting,
            Status::Playing,
            Status::Ended,
            Status::Aborted,
        ]
        .into_iter()
        .find(|s| s.name() == name)
    }

    fn is_over(self) -> bool {
        matches!(self, Status::Ended | Status::Aborted)
    }
}

/// The rest of a game's state, persisted as JSON in `games.meta`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Meta {
    /// The time control (none: untimed).
    #[serde(default)]
    control: Option<TimeControl>,
    /// The side (index) that offered a draw.
    #[serde(default)]
    draw_offer: Option<usize>,
    /// Which sides (by index) asked for a rematch.
    #[serde(default)]
    rematch: [bool; 2],
    /// The rematch game, once created.
    #[serde(default)]
    next: Option<String>,
    /// For each side (by index) that asked for a rematch: the hash of its seat token in the
    /// rematch game, derived from its token here (see [`seat::rematch_token`]).
    #[serde(default)]
    rematch_seats: [Option<String>; 2],
    /// What was left of the first-move countdown when the row was written (its `updated_at`),
    /// in milliseconds, so that a restart resumes the countdown instead of restarting it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    first_move_ms: Option<u64>,
    /// When the second player joined (milliseconds since the epoch): where the first move's
    /// time in the records starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    started_at: Option<i64>,
}

/// A result as persisted.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct StoredResult {
    winner: Option<usize>,
    reason: String,
}

fn side_of_index(i: usize) -> Side {
    if i == 0 { Side::First } else { Side::Second }
}

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
}

/// The draw sub-actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DrawAction {
    /// Offer a draw.
    Offer,
    /// Accept the opponent's offer.
    Accept,
    /// Decline the opponent's offer.
    Decline,
}

/// The answer to a join.
#[derive(Clone, Debug, Serialize)]
pub struct Joined {
    /// The seat's side name.
    pub side: String,
    /// The seat's secret token.
    pub token: String,
}

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

/// A message to a game actor.
pub(crate) enum Command {
    View {
        token: Option<String>,
        reply: Reply<Value>,
    },
    Join {
        reply: Reply<Joined>,
    },
    Act {
        token: Option<String>,
        action: Action,
        reply: Reply<Value>,
    },
    Record {
        format: RecordFormat,
        reply: Reply<RecordFile>,
    },
    Notation {
        style: NotationStyle,
        reply: Reply<crate::hints::History>,
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
}

/// The registry of live actors, shared by the HTTP handlers.
pub(crate) struct Games {
    actors: Mutex<HashMap<String, mpsc::Sender<Command>>>,
    store: Store,
    settings: GameSettings,
    shutdown: watch::Receiver<bool>,
    alive: mpsc::Sender<()>,
    next_sub: AtomicU64,
    /// This node's previous runs (see [`clock::ran_since`]): resumed clocks are charged the
    /// time they ran in them after the game's last stored snapshot.
    runs: Vec<clock::Run>,
}

impl Games {
    pub(crate) fn new(
        store: Store,
        settings: GameSettings,
        shutdown: watch::Receiver<bool>,
        alive: mpsc::Sender<()>,
        runs: Vec<clock::Run>,
    ) -> Arc<Games> {
        Arc::new(Games {
            actors: Mutex::new(HashMap::new()),
            store,
            settings,
            shutdown,
            alive,
            next_sub: AtomicU64::new(1),
            runs,
        })
    }

    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    pub(crate) fn settings(&self) -> &GameSettings {
        &self.settings
    }

    /// Starts the actors of every game in progress that has a timer to run (timed games, and
    /// games in their first-move countdown), after a restart, and records this node's new run
    /// (returning its start, ms since the Unix epoch). Untimed games further on and games
    /// waiting for an opponent have nothing to run; they are loaded when first asked for.
    ///
    /// Restart fairness (clocks-and-games.md: the downtime is not charged): each resumed clock
    /// and first-move countdown is charged the time it ran in the node's previous runs after
    /// the game's row was written, and resumes at the new run's start; only the downtime
    /// between runs is refunded. The new run is stored before any actor starts; runs that
    /// ended before every resumed game's snapshot are no longer needed and deleted.
    pub(crate) async fn resume_all(
        self: &Arc<Self>,
        node: &str,
    ) -> Result<(usize, i64), crate::store::StoreError> {
        let stored = self.store.load_resumable().await?;
        let at = Instant::now();
        let started_at = now_ms();
        let prune_before = stored
            .iter()
            .map(|game| game.row.updated_at)
            .min()
            .unwrap_or(i64::MAX);
        self.store
            .write(vec![Write::StartRun {
                node: node.to_owned(),
                started_at,
                prune_before,
            }])
            .await?;
        let n = stored.len();
        for game in stored {
            let id = game.row.id.clone();
            self.spawn(id, Some(Preloaded { stored: game, at }));
        }
        Ok((n, started_at))
    }

    /// Ends untimed games in progress that nobody changed for `settings.abandon_after` as
    /// `abandoned` (no winner), durably; returns how many. Games whose actor is in memory are
    /// left to a later sweep (once it retires) or to their next load.
    pub(crate) async fn sweep_abandoned(&self) -> Result<usize, crate::store::StoreError> {
        const PAGE: i64 = 500;
        let cutoff = now_ms().saturating_sub(duration_ms(self.settings.abandon_after));
        let result = abandoned_result();
        let mut ended = 0;
        loop {
            let ids = self.store.abandoned(cutoff, PAGE).await?;
            let full_page = ids.len() as i64 == PAGE;
            let unit: Vec<Write> = {
                let actors = self.actors.lock().expect("actor map poisoned");
                ids.into_iter()
                    .filter(|id| actors.get(id).is_none_or(|tx| tx.is_closed()))
                    .map(|id| Write::Abandon {
                        id,
                        result: result.clone(),
                        cutoff,
                        at: now_ms(),
                    })
                    .collect()
            };
            if unit.is_empty() {
                break;
            }
            ended += unit.len();
            self.store.write(unit).await?;
            if !full_page {
                break;
            }
        }
        if ended > 0 {
            tracing::info!(ended, "untimed games ended as abandoned");
        }
        Ok(ended)
    }

    /// The actor of game `id`, started (and loaded from the store) if it is not running.
    fn spawn(self: &Arc<Self>, id: String, preloaded: Option<Preloaded>) -> mpsc::Sender<Command> {
        let mut actors = self.actors.lock().expect("actor map poisoned");
        if let Some(tx) = actors.get(&id)
            && !tx.is_closed()
        {
            return tx.clone();
        }
        let (tx, rx) = mpsc::channel(256);
        actors.insert(id.clone(), tx.clone());
        drop(actors);
        let games = self.clone();
        let me = tx.clone();
        tokio::spawn(async move {
            run_actor(games.clone(), id.clone(), preloaded, &me, rx).await;
            let mut actors = games.actors.lock().expect("actor map poisoned");
            if actors.get(&id).is_some_and(|tx| tx.same_channel(&me)) {
                actors.remove(&id);
            }
        });
        tx
    }

    /// Sends a command to game `id`'s actor and waits for the answer.
    pub(crate) async fn ask<T>(
        self: &Arc<Self>,
        id: &str,
        make: impl Fn(Reply<T>) -> Command,
    ) -> Result<T, ApiError> {
        if !seat::is_game_id(id) {
            return Err(ApiError::game_not_found(id));
        }
        if *self.shutdown.borrow() {
            return Err(ApiError::unavailable());
        }
        // An idle actor that retires drops what reached it too late without an answer, having
        // first unlisted itself (see `Games::retire`), so the second try meets a fresh actor.
        for _ in 0..3 {
            let tx = self.spawn(id.to_owned(), None);
            let (reply, answer) = oneshot::channel();
            if tx.send(make(reply)).await.is_err() {
                continue; // The actor just stopped; start a fresh one.
            }
            if let Ok(result) = answer.await {
                return result;
            }
        }
        Err(ApiError::unavailable())
    }

    /// Lets an idle actor stop unless a command is waiting for it. It is unlisted and its queue
    /// closed under the registry's lock, so no command can be lost to it afterwards: a sender
    /// either finds the queue closed or (asking again) starts a fresh actor. Commands that slipped
    /// in just before the close are dropped unanswered by the caller, which makes `ask` retry.
    fn retire(
        &self,
        id: &str,
        me: &mpsc::Sender<Command>,
        rx: &mut mpsc::Receiver<Command>,
    ) -> bool {
        let mut actors = self.actors.lock().expect("actor map poisoned");
        if !rx.is_empty() {
            return false;
        }
        if actors.get(id).is_some_and(|tx| tx.same_channel(me)) {
            actors.remove(id);
        }
        rx.close();
        true
    }

    /// Sends a command without waiting (unsubscribe, clock sync).
    pub(crate) fn tell(&self, id: &str, command: Command) {
        let tx = self
            .actors
            .lock()
            .expect("actor map poisoned")
            .get(id)
            .cloned();
        if let Some(tx) = tx {
            let _ = tx.try_send(command);
        }
    }

    pub(crate) fn new_subscriber_id(&self) -> u64 {
        self.next_sub.fetch_add(1, Ordering::Relaxed)
    }
}

/// A game handed to its actor at start: its stored row, and the instant its clocks resume (the
/// start of the node's run).
pub(crate) struct Preloaded {
    stored: StoredGame,
    at: Instant,
}

/// Milliseconds in `d`, saturating.
fn duration_ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// The stored result of an abandoned game: no winner, reason `abandoned`.
fn abandoned_result() -> String {
    serde_json::to_string(&StoredResult {
        winner: None,
        reason: Reason::Abandoned.name().to_owned(),
    })
    .expect("result serialises")
}

/// The fields of a new game, before it is stored.
pub(crate) struct NewGame {
    pub variant: Variant,
    pub setup: Setup,
    pub control: Option<TimeControl>,
    /// Token hashes per side; `None` for a free seat.
    pub tokens: [Option<String>; 2],
}

impl NewGame {
    /// The row to store.
    pub(crate) fn row(&self, id: &str) -> GameRow {
        let now = now_ms();
        let both = self.tokens.iter().all(Option::is_some);
        GameRow {
            id: id.to_owned(),
            variant: self.variant.name().to_owned(),
            setup: serde_json::to_string(&self.setup).expect("setup serialises"),
            status: if both { "playing" } else { "waiting" }.to_owned(),
            token_first: self.tokens[0].clone(),
            token_second: self.tokens[1].clone(),
            result: None,
            clock: None,
            meta: serde_json::to_string(&Meta {
                control: self.control,
                ..Meta::default()
            })
            .expect("meta serialises"),
            created_at: now,
            updated_at: now,
        }
    }
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
    table: Box<dyn Table>,
    status: Status,
    tokens: [Option<String>; 2],
    meta: Meta,
    clock: Option<Clock>,
    result: Option<Outcome>,
    created_at: i64,
    /// The row's `updated_at` when it was loaded (ms since the Unix epoch): the abandonment
    /// rule's "no change since".
    loaded_updated_at: i64,
    /// When each move was accepted (milliseconds since the epoch), one per move: the move
    /// times of the records.
    move_at_ms: Vec<i64>,
    /// When the side to move must have made its first move (while fewer than two plies).
    first_move_deadline: Option<Instant>,
    /// The seat tokens players have shown this actor, by side: in memory only, never stored,
    /// so that a player's view can carry its rematch token (derived from this one).
    shown_tokens: [Option<String>; 2],
    subscribers: Vec<Subscriber>,
    /// After a timer's change (flag, first-move abort) could not be stored: not before this
    /// instant is it tried again, so a failing store is not hammered in a loop.
    timer_retry_at: Option<Instant>,
    /// Spectator counts sent, debounced (a crowd joining must not cost its square).
    spectators: Debounce,
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

enum Load {
    Found(Box<Live>),
    Missing,
    Broken(String),
}

/// Builds a game's live state from its stored row as of `now`. The running clock and the
/// first-move countdown are charged the time they ran in the node's previous `runs` after the
/// row was written (its `updated_at`; see [`Games::resume_all`]).
fn load_live(
    stored: StoredGame,
    settings: &GameSettings,
    now: Instant,
    runs: &[clock::Run],
) -> Load {
    let row = stored.row;
    let ran = clock::ran_since(row.updated_at, runs);
    let Ok(variant) = row.variant.parse::<Variant>() else {
        return Load::Broken(format!("unknown variant {}", row.variant));
    };
    let setup: Setup = match serde_json::from_str(&row.setup) {
        Ok(s) => s,
        Err(e) => return Load::Broken(format!("setup: {e}")),
    };
    let meta: Meta = match serde_json::from_str(&row.meta) {
        Ok(m) => m,
        Err(e) => return Load::Broken(format!("meta: {e}")),
    };
    let move_at_ms: Vec<i64> = stored.moves.iter().map(|m| m.at_ms).collect();
    let moves: Vec<String> = stored.moves.into_iter().map(|m| m.text).collect();
    let mut table = match table::open(variant, &setup, &moves) {
        Ok(t) => t,
        Err(e) => return Load::Broken(e.to_string()),
    };
    let Some(status) = Status::parse(&row.status) else {
        return Load::Broken(format!("unknown status {}", row.status));
    };
    let result = match row
        .result
        .as_deref()
        .map(serde_json::from_str::<StoredResult>)
    {
        None => None,
        Some(Ok(r)) => r.reason.parse::<Reason>().ok().map(|reason| Outcome {
            winner: r.winner.map(side_of_index),
            reason,
        }),
        Some(Err(e)) => return Load::Broken(format!("result: {e}")),
    };
    if let Some(outcome) = result {
        table.end(outcome);
    }
    let clock = meta.control.map(|control| {
        match row
            .clock
            .as_deref()
            .and_then(|c| serde_json::from_str::<ClockSnapshot>(c).ok())
        {
            Some(snapshot) => Clock::resume(control, &snapshot, ran, now),
            None => Clock::new(control),
        }
    });
    // A row from before the countdown was stored gets the whole countdown, as it used to.
    let first_move_deadline = (status == Status::Playing && moves.len() < 2).then(|| {
        let left = meta
            .first_move_ms
            .map_or(settings.first_move_timeout, Duration::from_millis);
        clock::resume_countdown(left, ran, now)
    });
    Load::Found(Box::new(Live {
        id: row.id,
        variant,
        setup,
        table,
        status,
        tokens: [row.token_first, row.token_second],
        meta,
        clock,
        result,
        created_at: row.created_at,
        loaded_updated_at: row.updated_at,
        move_at_ms,
        first_move_deadline,
        shown_tokens: [None, None],
        subscribers: Vec::new(),
        timer_retry_at: None,
        spectators: Debounce::default(),
    }))
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
    let load = match preloaded {
        Some(p) => load_live(p.stored, &games.settings, p.at, &games.runs),
        None => match games.store.load(&id).await {
            Ok(Some(s)) => load_live(s, &games.settings, Instant::now(), &games.runs),
            Ok(None) => Load::Missing,
            Err(e) => Load::Broken(e.to_string()),
        },
    };
    let mut live = match load {
        Load::Found(live) => live,
        other => {
            let error = match other {
                Load::Broken(why) => {
                    tracing::error!(game = %id, %why, "cannot load game");
                    ApiError::internal("This game's stored data cannot be read.")
                }
                _ => ApiError::game_not_found(&id),
            };
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
    loop {
        let deadline = live.next_deadline();
        // Nothing to wait for and nobody watching: everything is stored, so the actor can stop
        // and be reloaded on the next request.
        let idle_deadline = (deadline.is_none() && live.subscribers.is_empty()).then(|| {
            let keep = if live.status.is_over() {
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
}

async fn sleep_until_opt(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at.into()).await,
        None => std::future::pending().await,
    }
}

fn fail(cmd: Command, error: ApiError) {
    match cmd {
        Command::View { reply, .. } | Command::Act { reply, .. } => {
            let _ = reply.send(Err(error));
        }
        Command::Join { reply } => {
            let _ = reply.send(Err(error));
        }
        Command::Record { reply, .. } => {
            let _ = reply.send(Err(error));
        }
        Command::Notation { reply, .. } => {
            let _ = reply.send(Err(error));
        }
        Command::Subscribe { reply, .. } => {
            let _ = reply.send(Err(error));
        }
        Command::Unsubscribe { .. } | Command::ClockSync { .. } => {}
    }
}

/// What the actor tells subscribers after a change.
enum Event {
    /// Everything changed (join): a full `state`.
    State,
    /// A move was played.
    Move(String),
    /// The game ended.
    End,
    /// The draw offer changed.
    DrawOffer,
    /// The spectator count changed.
    Spectators,
    /// A rematch was asked for or created.
    Rematch,
}

/// How long after a failed write a due timer (flag, first-move abort) is tried again.
const TIMER_RETRY: Duration = Duration::from_secs(1);

/// Everything an action may change, to restore it when the store write fails.
struct Saved {
    status: Status,
    tokens: [Option<String>; 2],
    meta: Meta,
    clock: Option<Clock>,
    result: Option<Outcome>,
    first_move_deadline: Option<Instant>,
    moves: usize,
    table_over: bool,
}

impl Live {
    fn name(&self, side: Side) -> &'static str {
        self.variant.side_name(side)
    }

    fn ply(&self) -> usize {
        self.table.moves().len()
    }

    fn next_deadline(&self) -> Option<Instant> {
        if self.status != Status::Playing {
            return None;
        }
        let flag = self.clock.as_ref().and_then(Clock::flag_at);
        let due = match (flag, self.first_move_deadline) {
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
            if let Some(hash) = &self.tokens[side.index()]
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

    fn save(&self) -> Saved {
        Saved {
            status: self.status,
            tokens: self.tokens.clone(),
            meta: self.meta.clone(),
            clock: self.clock.clone(),
            result: self.result,
            first_move_deadline: self.first_move_deadline,
            moves: self.ply(),
            table_over: self.table.outcome().is_some(),
        }
    }

    fn restore(&mut self, saved: Saved) {
        self.status = saved.status;
        self.tokens = saved.tokens;
        self.meta = saved.meta;
        self.clock = saved.clock;
        self.result = saved.result;
        self.first_move_deadline = saved.first_move_deadline;
        self.move_at_ms.truncate(saved.moves);
        if self.ply() != saved.moves || self.table.outcome().is_some() != saved.table_over {
            let moves = self.table.moves()[..saved.moves].to_vec();
            match table::open(self.variant, &self.setup, &moves) {
                Ok(t) => self.table = t,
                Err(e) => tracing::error!(game = %self.id, error = %e, "cannot rebuild table"),
            }
        }
    }

    fn row(&self, now: Instant) -> GameRow {
        let mut meta = self.meta.clone();
        meta.first_move_ms = self
            .first_move_deadline
            .filter(|_| self.status == Status::Playing)
            .map(|d| floor_ms_of(d.saturating_duration_since(now)));
        GameRow {
            id: self.id.clone(),
            variant: self.variant.name().to_owned(),
            setup: serde_json::to_string(&self.setup).expect("setup serialises"),
            status: self.status.name().to_owned(),
            token_first: self.tokens[0].clone(),
            token_second: self.tokens[1].clone(),
            result: self.result.map(|r| {
                serde_json::to_string(&StoredResult {
                    winner: r.winner.map(Side::index),
                    reason: r.reason.name().to_owned(),
                })
                .expect("result serialises")
            }),
            clock: self.clock_snapshot_json(now),
            meta: serde_json::to_string(&meta).expect("meta serialises"),
            created_at: self.created_at,
            updated_at: now_ms(),
        }
    }

    fn clock_snapshot_json(&self, now: Instant) -> Option<String> {
        self.clock
            .as_ref()
            .map(|c| serde_json::to_string(&c.snapshot(now)).expect("snapshot serialises"))
    }

    /// Stores `extra` writes plus the game row; on failure restores `saved`.
    async fn commit(
        &mut self,
        games: &Games,
        saved: Saved,
        mut unit: Vec<Write>,
        now: Instant,
    ) -> Result<(), ApiError> {
        unit.push(Write::UpdateGame(self.row(now)));
        match games.store.write(unit).await {
            Ok(()) => Ok(()),
            Err(e) => {
                tracing::error!(game = %self.id, error = %e, "store write failed; change undone");
                self.restore(saved);
                Err(match e {
                    StoreError::Closed => ApiError::unavailable(),
                    StoreError::Rejected(_) => {
                        ApiError::internal("The change could not be stored; nothing was changed.")
                    }
                    _ => ApiError::storage_unavailable(),
                })
            }
        }
    }

    // ----- views -----

    fn clock_json(&self, now: Instant) -> Value {
        let Some(clock) = &self.clock else {
            return Value::Null;
        };
        let snap = clock.snapshot(now);
        let mut map = Map::new();
        for side in Side::BOTH {
            let t = snap.side(side);
            map.insert(
                self.name(side).to_owned(),
                json!({"ms": t.ms, "periods": t.periods, "byoyomi": t.byoyomi}),
            );
        }
        let running = if self.status == Status::Playing {
            snap.running.map(|s| self.name(s))
        } else {
            None
        };
        map.insert("running".into(), json!(running));
        Value::Object(map)
    }

    fn result_json(&self) -> Value {
        match self.result {
            Some(r) => json!({
                "winner": r.winner.map(|s| self.name(s)),
                "reason": r.reason.name(),
                "result": r.result(),
            }),
            None => Value::Null,
        }
    }

    fn spectator_count(&self) -> usize {
        self.subscribers
            .iter()
            .filter(|s| s.viewer.is_none())
            .count()
    }

    fn view(&self, viewer: Option<Side>, now: Instant) -> Map<String, Value> {
        let to_move = self.table.to_move();
        let playing = self.status == Status::Playing;
        let legal_moves = if playing && viewer == Some(to_move) {
            self.table.legal_moves()
        } else {
            Vec::new()
        };
        let mut v = Map::new();
        v.insert("id".into(), json!(self.id));
        v.insert("variant".into(), json!(self.variant.name()));
        v.insert("status".into(), json!(self.status.name()));
        v.insert("initial_fen".into(), json!(self.table.initial_fen()));
        v.insert("fen".into(), json!(self.table.fen()));
        v.insert("moves".into(), json!(self.table.moves()));
        v.insert("ply".into(), json!(self.ply()));
        v.insert(
            "to_move".into(),
            json!((!self.status.is_over()).then(|| self.name(to_move))),
        );
        v.insert("you".into(), json!(viewer.map(|s| self.name(s))));
        v.insert("legal_moves".into(), json!(legal_moves));
        v.insert("hints".into(), json!(self.table.hints(&legal_moves)));
        v.insert("clock".into(), self.clock_json(now));
        v.insert(
            "time_control".into(),
            json!(TimeControl::display_optional(self.meta.control.as_ref())),
        );
        v.insert("result".into(), self.result_json());
        v.insert(
            "draw_offer".into(),
            json!(self.meta.draw_offer.map(|i| self.name(side_of_index(i)))),
        );
        v.insert("spectators".into(), json!(self.spectator_count()));
        v.insert(
            "seats".into(),
            json!(
                Side::BOTH
                    .iter()
                    .map(|&s| (self.name(s), self.tokens[s.index()].is_some()))
                    .collect::<HashMap<_, _>>()
            ),
        );
        v.insert(
            "first_move_ms".into(),
            json!(
                self.first_move_deadline
                    .filter(|_| playing)
                    .map(|d| d.saturating_duration_since(now).as_millis() as u64)
            ),
        );
        if let Some(handicap) = &self.setup.handicap {
            v.insert("handicap".into(), json!(handicap));
        }
        v.insert("rematch".into(), self.rematch_json(viewer));
        v.extend(self.table.extras(viewer));
        v
    }

    fn rematch_json(&self, viewer: Option<Side>) -> Value {
        let requested: Vec<&str> = Side::BOTH
            .into_iter()
            .filter(|s| self.meta.rematch[s.index()])
            .map(|s| self.name(s))
            .collect();
        let mut r = json!({"requested": requested, "id": self.meta.next});
        if let (Some(me), Some(_)) = (viewer, &self.meta.next)
            && let Some(token) = &self.shown_tokens[me.index()]
        {
            r["token"] = json!(seat::rematch_token(token, &self.id));
            r["side"] = json!(self.name(self.rematch_side(me)));
        }
        r
    }

    fn message(&self, kind: &str) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("type".into(), json!(kind));
        m.insert("ply".into(), json!(self.ply()));
        m
    }

    fn event_text(&self, event: &Event, viewer: Option<Side>, now: Instant) -> String {
        let msg = match event {
            Event::State => {
                let mut m = self.message("state");
                m.extend(self.view(viewer, now));
                m
            }
            Event::Move(_) | Event::End => {
                let kind = if let Event::Move(_) = event {
                    "move"
                } else {
                    "end"
                };
                let mut m = self.message(kind);
                let mut view = self.view(viewer, now);
                if let Event::Move(text) = event {
                    // The essentials: the full move list and the start are already known.
                    view.remove("moves");
                    view.remove("initial_fen");
                    m.insert("move".into(), json!(text));
                }
                m.extend(view);
                m
            }
            Event::DrawOffer => {
                let mut m = self.message("draw_offer");
                m.insert(
                    "draw_offer".into(),
                    json!(self.meta.draw_offer.map(|i| self.name(side_of_index(i)))),
                );
                m
            }
            Event::Spectators => {
                let mut m = self.message("spectators");
                m.insert("spectators".into(), json!(self.spectator_count()));
                m
            }
            Event::Rematch => {
                let mut m = self.message("rematch");
                if let Value::Object(r) = self.rematch_json(viewer) {
                    m.extend(r);
                }
                m
            }
        };
        Value::Object(msg).to_string()
    }

    /// Sends `event` to every subscriber, each with its own view; drops the ones that are gone
    /// or too slow to keep up (they reconnect and get a fresh state).
    fn broadcast(&mut self, event: Event, now: Instant) {
        let mut texts: [Option<Arc<str>>; 3] = [None, None, None];
        let mut dropped_spectator = false;
        let mut i = 0;
        while i < self.subscribers.len() {
            let viewer = self.subscribers[i].viewer;
            let slot = viewer.map_or(2, Side::index);
            if texts[slot].is_none() {
                texts[slot] = Some(self.event_text(&event, viewer, now).into());
            }
            let text = texts[slot].clone().expect("just built");
            if self.subscribers[i].tx.try_send(text).is_err() {
                let gone = self.subscribers.swap_remove(i);
                dropped_spectator |= gone.viewer.is_none();
            } else {
                i += 1;
            }
        }
        if dropped_spectator {
            self.spectators_changed(now);
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
                    .map(|viewer| Value::Object(self.view(viewer, now)));
                let _ = reply.send(answer);
            }
            Command::Join { reply } => {
                let answer = self.join(games, now).await;
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
                            Ok(()) => Ok(Value::Object(self.view(Some(side), Instant::now()))),
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
                let answer = self.table.history(style).map_err(|e| {
                    ApiError::bad_request(
                        "bad_notation_style",
                        format!("{}.", capitalised(&e.to_string())),
                    )
                });
                let _ = reply.send(answer);
            }
            Command::Subscribe { token, tx, reply } => match self.seat_of(token.as_deref()) {
                Ok(viewer) => {
                    let id = games.new_subscriber_id();
                    let text: Arc<str> = self.event_text(&Event::State, viewer, now).into();
                    if tx.try_send(text).is_ok() {
                        self.subscribers.push(Subscriber { id, viewer, tx });
                        if viewer.is_none() {
                            self.spectators_changed(now);
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
                    if gone.viewer.is_none() {
                        self.spectators_changed(now);
                    }
                }
            }
            Command::ClockSync { sub } => {
                if let Some(s) = self.subscribers.iter().find(|s| s.id == sub) {
                    let mut m = self.message("clock");
                    m.insert("clock".into(), self.clock_json(now));
                    let _ = s.tx.try_send(Value::Object(m).to_string().into());
                }
            }
        }
    }

    async fn join(&mut self, games: &Games, now: Instant) -> Result<Joined, ApiError> {
        if self.status.is_over() {
            return Err(ApiError::conflict("game_over", "This game is over."));
        }
        let Some(free) = Side::BOTH
            .into_iter()
            .find(|s| self.tokens[s.index()].is_none())
        else {
            return Err(ApiError::conflict(
                "seat_taken",
                "Both seats of this game are taken; you can watch it.",
            ));
        };
        let saved = self.save();
        let token = seat::new_token();
        self.tokens[free.index()] = Some(seat::hash_token(&token));
        self.status = Status::Playing;
        self.meta.started_at = Some(now_ms());
        self.first_move_deadline = Some(now + games.settings.first_move_timeout);
        self.commit(games, saved, Vec::new(), now).await?;
        tracing::info!(game = %self.id, side = self.name(free), "seat taken");
        self.broadcast(Event::State, now);
        Ok(Joined {
            side: self.name(free).to_owned(),
            token,
        })
    }

    fn record(&self, games: &Games, format: RecordFormat) -> Result<RecordFile, ApiError> {
        // Each move's time: from the previous move, the first from when the game started.
        let mut last = self.meta.started_at.unwrap_or(self.created_at);
        let move_ms = self
            .move_at_ms
            .iter()
            .map(|&at| {
                let spent = u64::try_from(at - last).unwrap_or(0);
                last = at;
                spent
            })
            .collect();
        let info = RecordInfo {
            id: self.id.clone(),
            url: format!("{}/g/{}", games.settings.public_url, self.id),
            clock: self.meta.control.as_ref().map(|c| RecordClock {
                main_ms: c.main.as_millis() as u64,
                increment_ms: c.increment.as_millis() as u64,
                byoyomi_ms: c.byoyomi.as_millis() as u64,
                periods: c.periods,
            }),
            move_ms,
            created_at: self.created_at,
            result: self.result,
        };
        let text = self
            .table
            .record(format, &info)
            .map_err(|m| ApiError::bad_request("unsupported_format", m))?;
        Ok(RecordFile {
            text,
            content_type: format.content_type(),
            file_name: format!("jiang-{}-{}.{}", self.variant, self.id, format.extension()),
        })
    }

    fn ensure_playing(&self) -> Result<(), ApiError> {
        match self.status {
            Status::Playing => Ok(()),
            Status::Waiting => Err(ApiError::conflict(
                "not_started",
                "The game has not started: the opponent's seat is still free.",
            )),
            Status::Ended | Status::Aborted => {
                Err(ApiError::conflict("game_over", "This game is over."))
            }
        }
    }

    /// If the side to move has run out of time by `now`, ends the game on time and says so.
    async fn settle_flag(&mut self, games: &Games, now: Instant) -> Result<(), ApiError> {
        let flagged = self.clock.as_ref().and_then(|c| c.flagged(now));
        if let (Some(side), Status::Playing) = (flagged, self.status) {
            self.end_on_time(games, side, now).await?;
            return Err(ApiError::conflict(
                "game_over",
                "Time ran out before this arrived: the game is over.",
            ));
        }
        Ok(())
    }

    async fn act(
        &mut self,
        games: &Games,
        side: Side,
        action: Action,
        now: Instant,
    ) -> Result<(), ApiError> {
        match action {
            Action::Move(text) => self.play(games, side, &text, now).await,
            Action::Resign => {
                self.ensure_playing()?;
                self.settle_flag(games, now).await?;
                self.finish(
                    games,
                    Outcome::win(!side, Reason::Resignation),
                    Vec::new(),
                    now,
                )
                .await
            }
            Action::Abort => {
                if self.status.is_over() {
                    return Err(ApiError::conflict("game_over", "This game is over."));
                }
                if self.ply() >= 2 {
                    return Err(ApiError::conflict(
                        "too_late_to_abort",
                        "Both sides have moved: the game can no longer be aborted (resign instead).",
                    ));
                }
                self.finish(games, Outcome::draw(Reason::Aborted), Vec::new(), now)
                    .await
            }
            Action::Draw(what) => self.draw(games, side, what, now).await,
            Action::Impasse => {
                self.ensure_playing()?;
                if self.variant != Variant::Shogi {
                    return Err(ApiError::bad_request(
                        "impasse_not_allowed",
                        format!("{} has no impasse declaration.", self.variant),
                    ));
                }
                if self.table.to_move() != side {
                    return Err(ApiError::conflict(
                        "not_your_turn",
                        "You may declare impasse only on your turn.",
                    ));
                }
                // Condition 5: the declarer still has time (rules/shogi.md, impasse).
                self.settle_flag(games, now).await?;
                match self.table.declare_impasse() {
                    Ok(outcome) => self.finish(games, outcome, Vec::new(), now).await,
                    Err(why) => Err(ApiError::bad_request(
                        "impasse_rejected",
                        format!("The impasse declaration does not hold: {why}"),
                    )),
                }
            }
            Action::Rematch => self.rematch(games, side, now).await,
        }
    }

    async fn play(
        &mut self,
        games: &Games,
        side: Side,
        text: &str,
        now: Instant,
    ) -> Result<(), ApiError> {
        self.ensure_playing()?;
        if self.table.to_move() != side {
            return Err(ApiError::conflict("not_your_turn", "It is not your turn."));
        }
        self.settle_flag(games, now).await?;
        let saved = self.save();
        let recorded = self.table.play(text).map_err(|e| {
            ApiError::bad_request("illegal_move", format!("Illegal move `{text}`: {e}"))
        })?;
        let ply = self.ply();
        if let Some(clock) = &mut self.clock {
            if ply > 2 {
                if let Err(flag) = clock.press(now) {
                    // Cannot happen after settle_flag; treat as a flag anyway.
                    self.restore(saved);
                    self.end_on_time(games, flag.side, now).await?;
                    return Err(ApiError::conflict("game_over", "Your time ran out."));
                }
            } else if ply == 2 {
                // Clocks start once each side has made its first move.
                clock.start(self.table.to_move(), now);
            }
        }
        self.first_move_deadline = (ply < 2).then(|| now + games.settings.first_move_timeout);
        if self.meta.draw_offer == Some((!side).index()) {
            // Moving instead of answering declines the opponent's offer.
            self.meta.draw_offer = None;
        }
        let at_ms = now_ms();
        self.move_at_ms.push(at_ms);
        let append = Write::AppendMove(MoveRow {
            game_id: self.id.clone(),
            ply: ply as i64,
            text: recorded.clone(),
            clock: self.clock_snapshot_json(now),
            at_ms,
        });
        if let Some(outcome) = self.table.outcome() {
            self.apply_end(outcome, now);
            self.commit(games, saved, vec![append], now).await?;
            self.broadcast(Event::Move(recorded), now);
            self.broadcast(Event::End, now);
            self.log_end();
        } else {
            self.commit(games, saved, vec![append], now).await?;
            self.broadcast(Event::Move(recorded), now);
        }
        Ok(())
    }

    async fn draw(
        &mut self,
        games: &Games,
        side: Side,
        what: DrawAction,
        now: Instant,
    ) -> Result<(), ApiError> {
        if self.variant.family() != Family::Xiangqi {
            return Err(ApiError::bad_request(
                "draw_not_allowed",
                "Shogi has no agreed draws.",
            ));
        }
        self.ensure_playing()?;
        self.settle_flag(games, now).await?;
        let offered_by_opponent = self.meta.draw_offer == Some((!side).index());
        let saved = self.save();
        match what {
            DrawAction::Offer | DrawAction::Accept if offered_by_opponent => {
                self.finish(games, Outcome::draw(Reason::Agreement), Vec::new(), now)
                    .await
            }
            DrawAction::Offer => {
                if self.meta.draw_offer == Some(side.index()) {
                    return Ok(());
                }
                self.meta.draw_offer = Some(side.index());
                self.commit(games, saved, Vec::new(), now).await?;
                self.broadcast(Event::DrawOffer, now);
                Ok(())
            }
            DrawAction::Accept | DrawAction::Decline if !offered_by_opponent => Err(
                ApiError::conflict("no_draw_offer", "Your opponent has not offered a draw."),
            ),
            DrawAction::Accept => unreachable!("handled above"),
            DrawAction::Decline => {
                self.meta.draw_offer = None;
                self.commit(games, saved, Vec::new(), now).await?;
                self.broadcast(Event::DrawOffer, now);
                Ok(())
            }
        }
    }

    async fn rematch(&mut self, games: &Games, side: Side, now: Instant) -> Result<(), ApiError> {
        if !self.status.is_over() {
            return Err(ApiError::conflict(
                "game_not_over",
                "A rematch can be asked for once the game is over.",
            ));
        }
        if self.meta.next.is_some() || self.meta.rematch[side.index()] {
            return Ok(());
        }
        // The caller's token was just checked (and so remembered) by `seat_of`.
        let Some(token) = &self.shown_tokens[side.index()] else {
            return Err(ApiError::internal("The seat token went missing."));
        };
        let new_seat = seat::hash_token(&seat::rematch_token(token, &self.id));
        let saved = self.save();
        self.meta.rematch[side.index()] = true;
        self.meta.rematch_seats[side.index()] = Some(new_seat);
        let mut unit = Vec::new();
        if self.meta.rematch.iter().all(|&r| r) {
            let setup = table::rematch(self.variant, &self.setup)
                .map_err(|e| ApiError::internal(e.to_string()))?;
            let mut hashes: [Option<String>; 2] = [None, None];
            for old in Side::BOTH {
                hashes[self.rematch_side(old).index()] =
                    self.meta.rematch_seats[old.index()].clone();
            }
            let next_id = seat::new_game_id();
            let new_game = NewGame {
                variant: self.variant,
                setup,
                control: self.meta.control,
                tokens: hashes,
            };
            unit.push(Write::SaveGame(new_game.row(&next_id)));
            self.meta.next = Some(next_id);
        }
        self.commit(games, saved, unit, now).await?;
        self.broadcast(Event::Rematch, now);
        Ok(())
    }

    /// Ends the game with `outcome`, stores it, tells everyone.
    async fn finish(
        &mut self,
        games: &Games,
        outcome: Outcome,
        unit: Vec<Write>,
        now: Instant,
    ) -> Result<(), ApiError> {
        let saved = self.save();
        self.apply_end(outcome, now);
        self.commit(games, saved, unit, now).await?;
        self.broadcast(Event::End, now);
        self.log_end();
        Ok(())
    }

    fn apply_end(&mut self, outcome: Outcome, now: Instant) {
        if let Some(clock) = &mut self.clock {
            clock.stop(now);
        }
        self.status = if outcome.reason == Reason::Aborted {
            Status::Aborted
        } else {
            Status::Ended
        };
        self.result = Some(outcome);
        self.table.end(outcome);
        self.meta.draw_offer = None;
        self.first_move_deadline = None;
    }

    fn log_end(&self) {
        if let Some(r) = self.result {
            tracing::info!(game = %self.id, result = r.result(), reason = r.reason.name(), "game over");
        }
    }

    async fn end_on_time(
        &mut self,
        games: &Games,
        flagged: Side,
        now: Instant,
    ) -> Result<(), ApiError> {
        let winner = !flagged;
        // clocks-and-games.md: in the xiangqi family, a flag against a side that could never
        // give check is a draw.
        let outcome =
            if self.variant.family() == Family::Xiangqi && !self.table.can_ever_check(winner) {
                Outcome::draw(Reason::TimeoutVsInsufficient)
            } else {
                Outcome::win(winner, Reason::Timeout)
            };
        self.finish(games, outcome, Vec::new(), now).await
    }

    /// The abandonment rule, checked when a game is loaded: an untimed game in progress past
    /// both first moves that nobody changed for `abandon_after` ends as `abandoned`, with no
    /// winner.
    async fn expire_if_abandoned(&mut self, games: &Games, now: Instant) {
        let cutoff = now_ms().saturating_sub(duration_ms(games.settings.abandon_after));
        // Before both first moves the first-move countdown applies (an abort) instead.
        if self.status == Status::Playing
            && self.meta.control.is_none()
            && self.ply() >= 2
            && self.loaded_updated_at < cutoff
        {
            let _ = self
                .finish(games, Outcome::draw(Reason::Abandoned), Vec::new(), now)
                .await;
        }
    }

    async fn on_timer(&mut self, games: &Games, now: Instant) {
        if self.status != Status::Playing {
            return;
        }
        let stored = if let Some(side) = self.clock.as_ref().and_then(|c| c.flagged(now)) {
            self.end_on_time(games, side, now).await
        } else if self.first_move_deadline.is_some_and(|d| d <= now) {
            // clocks-and-games.md: no first move within 30 s of the game being ready → abort.
            self.finish(games, Outcome::draw(Reason::Aborted), Vec::new(), now)
                .await
        } else {
            Ok(())
        };
        // The change was undone if it could not be stored: try again a little later.
        self.timer_retry_at = stored.is_err().then(|| Instant::now() + TIMER_RETRY);
    }
}
