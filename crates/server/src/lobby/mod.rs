//! The lobby: open seeks, the live games list ("Watch") and the counts, pushed to every home
//! page over one WebSocket (`/api/lobby/ws`, see `socket`).
//!
//! The [`Lobby`] hub is fed by the create and pair handlers (a new open seek), by the lobby
//! sockets (which seeks a page holds) and by the game actors (each tells it where its game
//! stands after every command; see `game::listing`). It never waits on a client: changes mark
//! it dirty, and one flusher task writes at most one `update` message per
//! [`FLUSH_INTERVAL`] (the first change after a quiet spell goes out at once), serialised once
//! and handed to every socket through a bounded broadcast queue. A socket that falls behind
//! that queue gets a fresh `snapshot` instead (resync); one that stops reading is dropped by
//! its send timeout. The lists are bounded: the oldest [`MAX_SEEKS`] seeks, the
//! [`MAX_GAMES`] most watched (then newest) listed games.
//!
//! Seeks live in memory only: a restart drops them from the lobby (their games stay joinable
//! by link). A seek disappears when its game starts, is aborted (the creator's cancel), or when
//! its creator's page has been gone for the seek timeout: no lobby socket holding it and no
//! game socket on the creator's seat.
//!
//! In a cluster every node's hub also lists what the other nodes share on NATS once a second
//! (`jiang_protocol::LobbyShare`: their seeks, listed games and counts; see [`Lobby::share`]
//! and [`Lobby::merge`]). A seek lives on the node where it was created: that node alone
//! expires it, and learns from the others' shares whether its creator's page is open there
//! (`held`) and whether its game started elsewhere (`taken`). A node silent for
//! [`crate::cluster::DEAD_AFTER`] leaves the lists.
//!
//! May use: `clock`, `error`, `seat`, `cluster` (when a node counts as gone), the `http`
//! guards (`ratelimit`, `slots`); `handlers` and `socket` add `game`, `players` (who pairs,
//! and their rating) and `http::{state, extract}`. The game actors tell it where their games stand; it never calls them.

mod handlers;
mod lists;
mod socket;

use lists::{
    no_longer_listed, note_taken, playing_game, release_address, remove_seek, seek_info,
    update_remote_holds, watch_order,
};

pub(crate) use handlers::{lobby_view, pair, summaries};
pub(crate) use socket::upgrade;

use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use jiang_protocol::{
    LobbyCounts, LobbyServerMessage, LobbyShare, LobbySnapshot, LobbyUpdate, to_sorted_json,
};
use jiang_rules::{Side, Variant};
use tokio::sync::{Notify, broadcast, watch};

use crate::clock::TimeControl;
use crate::error::{ApiError, ErrorCode};
use crate::http::ratelimit::{Bucket, Rate, address_group};
use crate::http::slots::Slots;
use crate::seat;

/// The most often a lobby socket gets an `update`.
pub const FLUSH_INTERVAL: Duration = Duration::from_millis(250);

/// Seeks listed at most (the oldest first).
pub const MAX_SEEKS: usize = 100;

/// Listed games at most (the most watched, then the newest).
pub const MAX_GAMES: usize = 50;

/// Messages queued per lobby socket before it falls behind and is resynced with a snapshot.
const QUEUE: usize = 64;

/// How often the flusher looks at the counts (and expired seeks) when nothing else changes.
const IDLE_CHECK: Duration = Duration::from_secs(1);

/// The lobby's limits.
#[derive(Clone, Debug)]
pub struct LobbySettings {
    /// A seek whose creator's page has been gone this long is removed (30 s).
    pub seek_timeout: Duration,
    /// Open seeks per client address at once (3; 0: no cap).
    pub max_seeks_per_address: usize,
    /// Open seeks created per client address: sustained rate and burst (seek churn; 10 a
    /// minute, burst 5). [`Rate::UNLIMITED`] turns it off.
    pub seek_rate: Rate,
}

impl Default for LobbySettings {
    fn default() -> Self {
        LobbySettings {
            seek_timeout: Duration::from_secs(30),
            max_seeks_per_address: 3,
            seek_rate: Rate {
                per_second: 10.0 / 60.0,
                burst: 5.0,
            },
        }
    }
}

/// What a seek offers (its game's settings), as the create handler knows them.
#[derive(Clone, Debug)]
pub(crate) struct SeekInfo {
    pub variant: Variant,
    pub control: Option<TimeControl>,
    /// The free seat: the side whoever joins plays.
    pub side: Side,
    pub handicap: Option<String>,
    /// A rated seek.
    pub rated: bool,
    /// The creator, if a player (with its rating when the seek was opened).
    pub player: Option<jiang_protocol::PlayerRef>,
    /// The ratings an opponent may have to join.
    pub rating_range: Option<[i64; 2]>,
}

/// Where a game stands, as its actor tells the lobby.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Listing {
    /// Waiting for an opponent; whether a socket is open on the creator's seat.
    Waiting { creator_present: bool },
    /// In play.
    Playing(PlayingGame),
    /// Over (or aborted): off every list.
    Over,
}

/// A game in play, as the lobby counts and lists it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct PlayingGame {
    pub variant: Variant,
    pub control: Option<TimeControl>,
    pub handicap: Option<String>,
    pub moves: u64,
    pub spectators: u64,
    /// Shown in "Watch" (not unlisted, and not a computer game its person left).
    pub listed: bool,
    /// Against the computer: its level.
    pub computer: Option<u8>,
    /// Per side name, the player holding the seat.
    pub players: std::collections::BTreeMap<String, jiang_protocol::PlayerRef>,
}

struct SeekEntry {
    info: SeekInfo,
    created: Instant,
    /// The address group it counts against (none when limits are off).
    address: Option<IpAddr>,
    /// The hash of the creator's seat token (what a `hold` must show).
    token_hash: String,
    /// Lobby sockets holding it.
    holders: u32,
    /// A socket is open on the creator's seat of its game.
    in_game: bool,
    /// Since when nothing holds it (`None` while held).
    gone_since: Option<Instant>,
    /// Cluster mode: the node it was created on, when another (that node expires it).
    origin: Option<String>,
    /// Cluster mode: another node says its creator's page is open there.
    remote_held: bool,
}

struct GameEntry {
    game: PlayingGame,
    /// Bumped on every change: what the flusher compares.
    rev: u64,
    /// When it entered the lobby (a sequence number: larger is newer).
    started: u64,
    /// Cluster mode: the node whose actor runs it, when another.
    origin: Option<String>,
}

#[derive(Default)]
struct Inner {
    seeks: HashMap<String, SeekEntry>,
    games: HashMap<String, GameEntry>,
    next_rev: u64,
    /// What the sockets were last told: listed seek ids, listed game ids with their rev, counts.
    sent_seeks: HashSet<String>,
    sent_games: HashMap<String, u64>,
    sent_counts: LobbyCounts,
    /// Open seeks and the churn bucket per address group.
    addresses: HashMap<IpAddr, AddressSeeks>,
    /// Per lobby socket: the seek ids it holds.
    holds: HashMap<u64, Vec<String>>,
    /// A snapshot of the last flush, reused for every socket that connects or resyncs soon.
    snapshot: Option<(Instant, Arc<str>)>,
    /// Cluster mode: each other node's last share (when it came, its counts, the seeks held
    /// there).
    shares: HashMap<String, RemoteShare>,
    /// Cluster mode: other nodes' seeks whose game started or ended here, and when.
    taken: HashMap<String, Instant>,
}

/// What the lobby keeps of another node's last [`LobbyShare`] besides its entries.
struct RemoteShare {
    at: Instant,
    playing: u64,
    players: u64,
    held: HashSet<String>,
}

/// How long a seek taken here is reported in `taken` (its node drops it within a second).
const TAKEN_FOR: Duration = Duration::from_secs(10);

struct AddressSeeks {
    open: usize,
    bucket: Bucket,
}

/// The lobby hub (see the module's documentation).
pub(crate) struct Lobby {
    inner: Mutex<Inner>,
    changed: Notify,
    updates: broadcast::Sender<Arc<str>>,
    settings: LobbySettings,
    /// Every open WebSocket (the `players` count).
    sockets: Arc<Slots>,
    /// Becomes `true` at shutdown: the flusher stops and lobby sockets close (1012).
    shutdown: watch::Receiver<bool>,
}

impl Lobby {
    pub(crate) fn new(
        settings: LobbySettings,
        sockets: Arc<Slots>,
        shutdown: watch::Receiver<bool>,
    ) -> Arc<Lobby> {
        let (updates, _) = broadcast::channel(QUEUE);
        Arc::new(Lobby {
            inner: Mutex::new(Inner::default()),
            changed: Notify::new(),
            updates,
            settings,
            sockets,
            shutdown,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().expect("lobby poisoned")
    }

    /// Counts a new open seek against `client`'s caps, or refuses it (`too_many_seeks`,
    /// `seek_rate_limited`). Give the place back with [`Lobby::unreserve`] if the seek is not
    /// stored after all.
    pub(crate) fn reserve(&self, client: IpAddr) -> Result<(), ApiError> {
        let settings = &self.settings;
        if settings.max_seeks_per_address == 0 && settings.seek_rate.is_unlimited() {
            return Ok(());
        }
        let now = Instant::now();
        let mut inner = self.lock();
        let entry = inner
            .addresses
            .entry(address_group(client))
            .or_insert_with(|| AddressSeeks {
                open: 0,
                bucket: Bucket::new(settings.seek_rate, now),
            });
        if settings.max_seeks_per_address > 0 && entry.open >= settings.max_seeks_per_address {
            return Err(ApiError::new(
                ErrorCode::TooManySeeks,
                format!(
                    "This address already has {} open seeks, the most allowed; cancel one first.",
                    settings.max_seeks_per_address
                ),
            ));
        }
        if !entry.bucket.take(settings.seek_rate, now) {
            return Err(ApiError::new(
                ErrorCode::SeekRateLimited,
                "Open seeks are created too fast from this address; wait a minute.",
            ));
        }
        entry.open += 1;
        Ok(())
    }

    /// Gives back a place taken by [`Lobby::reserve`] for a seek that was not stored.
    pub(crate) fn unreserve(&self, client: IpAddr) {
        if self.limits_on() {
            release_address(&mut self.lock(), Some(address_group(client)));
        }
    }

    fn limits_on(&self) -> bool {
        self.settings.max_seeks_per_address > 0 || !self.settings.seek_rate.is_unlimited()
    }

    /// Lists a stored open seek (reserved with [`Lobby::reserve`]). Its creator has the seek
    /// timeout to show up (on the game page or holding it in the lobby).
    pub(crate) fn add_seek(&self, id: &str, info: SeekInfo, client: IpAddr, token_hash: String) {
        let now = Instant::now();
        let address = self.limits_on().then(|| address_group(client));
        let mut inner = self.lock();
        inner.seeks.insert(
            id.to_owned(),
            SeekEntry {
                info,
                created: now,
                address,
                token_hash,
                holders: 0,
                in_game: false,
                gone_since: Some(now),
                origin: None,
                remote_held: false,
            },
        );
        drop(inner);
        self.changed.notify_one();
    }

    /// The open seeks of `variant` with exactly `control`, no handicap and the same `rated`,
    /// but those in `skip` and those of player `me`: oldest first, or with `me`'s `rating`
    /// given, the nearest rating first (then the oldest).
    pub(crate) fn matching(
        &self,
        variant: Variant,
        control: Option<TimeControl>,
        skip: &[String],
        rated: bool,
        me: Option<(&str, i64)>,
    ) -> Vec<String> {
        // A seek of the caller's own player is never its match.
        let not_mine = |seek: &SeekEntry| {
            let owner = seek.info.player.as_ref().map(|p| p.id.as_str());
            me.is_none_or(|(me, _)| owner != Some(me))
        };
        // A seek with a rating range takes only a player rated within it.
        let in_range = |seek: &SeekEntry| match (seek.info.rating_range, me) {
            (None, _) => true,
            (Some([min, max]), Some((_, mine))) => (min..=max).contains(&mine),
            (Some(_), None) => false,
        };
        let inner = self.lock();
        let mut found: Vec<(&String, i64, Instant)> = inner
            .seeks
            .iter()
            .filter(|(id, s)| {
                s.info.variant == variant
                    && s.info.control == control
                    && s.info.handicap.is_none()
                    && s.info.rated == rated
                    && !skip.contains(id)
                    && not_mine(s)
                    && in_range(s)
            })
            .map(|(id, s)| {
                let distance = match (me, s.info.player.as_ref().and_then(|p| p.rating)) {
                    (Some((_, mine)), Some(theirs)) => (mine - theirs).abs(),
                    (Some(_), None) => i64::MAX,
                    (None, _) => 0,
                };
                (id, distance, s.created)
            })
            .collect();
        found.sort_by_key(|&(_, distance, created)| (distance, created));
        found.into_iter().map(|(id, _, _)| id.clone()).collect()
    }

    /// Lobby socket `socket` now holds the seeks of `seats` whose tokens match (the others are
    /// ignored), instead of what it held before.
    pub(crate) fn hold(&self, socket: u64, seats: &[(String, String)]) {
        let now = Instant::now();
        let mut inner = self.lock();
        let valid: Vec<String> = seats
            .iter()
            .filter(|(id, token)| {
                inner
                    .seeks
                    .get(id)
                    .is_some_and(|s| seat::token_matches(token, &s.token_hash))
            })
            .map(|(id, _)| id.clone())
            .collect();
        let before = inner
            .holds
            .insert(socket, valid.clone())
            .unwrap_or_default();
        for id in &before {
            if let Some(seek) = inner.seeks.get_mut(id) {
                seek.holders = seek.holders.saturating_sub(1);
                seek.update_presence(now);
            }
        }
        for id in &valid {
            if let Some(seek) = inner.seeks.get_mut(id) {
                seek.holders += 1;
                seek.update_presence(now);
            }
        }
    }

    /// Lobby socket `socket` closed: what it held is no longer held.
    pub(crate) fn release(&self, socket: u64) {
        let now = Instant::now();
        let mut inner = self.lock();
        for id in inner.holds.remove(&socket).unwrap_or_default() {
            if let Some(seek) = inner.seeks.get_mut(&id) {
                seek.holders = seek.holders.saturating_sub(1);
                seek.update_presence(now);
            }
        }
    }

    /// Game `id`'s actor says where the game stands (only when it changed).
    pub(crate) fn game_listing(&self, id: &str, listing: Listing) {
        let now = Instant::now();
        let mut inner = self.lock();
        match listing {
            Listing::Waiting { creator_present } => {
                if let Some(seek) = inner.seeks.get_mut(id) {
                    seek.in_game = creator_present;
                    seek.update_presence(now);
                }
                return; // Presence alone changes nothing shown.
            }
            Listing::Playing(game) => {
                note_taken(&mut inner, id, now);
                remove_seek(&mut inner, id);
                inner.next_rev += 1;
                let rev = inner.next_rev;
                match inner.games.get_mut(id) {
                    Some(entry) if entry.game == game && entry.origin.is_none() => return,
                    Some(entry) => {
                        entry.game = game;
                        entry.rev = rev;
                        entry.origin = None;
                    }
                    None => {
                        inner.games.insert(
                            id.to_owned(),
                            GameEntry {
                                game,
                                rev,
                                started: rev,
                                origin: None,
                            },
                        );
                    }
                }
            }
            Listing::Over => {
                note_taken(&mut inner, id, now);
                let had_seek = remove_seek(&mut inner, id);
                if inner.games.remove(id).is_none() && !had_seek {
                    return;
                }
            }
        }
        drop(inner);
        self.changed.notify_one();
    }

    /// Game `id`'s actor stopped (nothing to run, nobody connected): it leaves "Watch" until
    /// it is loaded again. A seek stays (its creator may hold it from the lobby).
    pub(crate) fn unloaded(&self, id: &str) {
        let removed = self.lock().games.remove(id).is_some();
        if removed {
            self.changed.notify_one();
        }
    }

    /// Becomes `true` when the server shuts down.
    pub(crate) fn shutdown(&self) -> watch::Receiver<bool> {
        self.shutdown.clone()
    }

    /// A queue of the `update` messages to come.
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Arc<str>> {
        self.updates.subscribe()
    }

    /// The whole lobby as the sockets were last told it (with fresh waiting times and counts).
    pub(crate) fn snapshot(&self) -> LobbySnapshot {
        let now = Instant::now();
        let inner = self.lock();
        let mut seeks: Vec<(&String, &SeekEntry)> = inner
            .sent_seeks
            .iter()
            .filter_map(|id| inner.seeks.get_key_value(id))
            .collect();
        seeks.sort_by_key(|(_, s)| s.created);
        let mut games: Vec<(&String, &GameEntry)> = inner
            .sent_games
            .keys()
            .filter_map(|id| inner.games.get_key_value(id))
            .collect();
        games.sort_by(|a, b| watch_order(a.1, b.1));
        LobbySnapshot {
            seeks: seeks.into_iter().map(|(id, s)| s.view(id, now)).collect(),
            games: games.into_iter().map(|(id, g)| g.view(id)).collect(),
            counts: self.counts(&inner),
        }
    }

    /// [`Lobby::snapshot`] as a `snapshot` message's text, shared by the sockets that ask
    /// within a second of each other (and until the next flush).
    pub(crate) fn snapshot_text(&self) -> Arc<str> {
        let now = Instant::now();
        if let Some((at, text)) = &self.lock().snapshot
            && now < *at + IDLE_CHECK
        {
            return text.clone();
        }
        let text: Arc<str> = to_sorted_json(&LobbyServerMessage::Snapshot(self.snapshot())).into();
        self.lock().snapshot = Some((now, text.clone()));
        text
    }

    fn counts(&self, inner: &Inner) -> LobbyCounts {
        let local = inner.games.values().filter(|g| g.origin.is_none()).count() as u64;
        LobbyCounts {
            players: self.sockets.open() as u64
                + inner.shares.values().map(|s| s.players).sum::<u64>(),
            games: local + inner.shares.values().map(|s| s.playing).sum::<u64>(),
        }
    }

    /// Cluster mode: what this node (`node`) tells the others (see the module's documentation).
    pub(crate) fn share(&self, node: &str) -> LobbyShare {
        let now = Instant::now();
        let mut inner = self.lock();
        inner.taken.retain(|_, at| now < *at + TAKEN_FOR);
        let own = inner.seeks.iter().filter(|(_, s)| s.origin.is_none());
        LobbyShare {
            node: node.to_owned(),
            seeks: own.clone().map(|(id, s)| s.view(id, now)).collect(),
            seats: own
                .map(|(id, s)| (id.clone(), s.token_hash.clone()))
                .collect(),
            held: inner
                .seeks
                .iter()
                .filter(|(_, s)| s.holders > 0 || s.in_game)
                .map(|(id, _)| id.clone())
                .collect(),
            taken: inner.taken.keys().cloned().collect(),
            games: inner
                .games
                .iter()
                .filter(|(_, g)| g.origin.is_none() && g.game.listed)
                .map(|(id, g)| g.view(id))
                .collect(),
            playing: inner.games.values().filter(|g| g.origin.is_none()).count() as u64,
            players: self.sockets.open() as u64,
        }
    }

    /// Cluster mode: takes in another node's share (this node is `me`).
    pub(crate) fn merge(&self, share: LobbyShare, me: &str) {
        if share.node == me {
            return;
        }
        let now = Instant::now();
        let node = share.node.clone();
        let mut inner = self.lock();
        // Seeks: theirs as they say; ours taken there leave; ours held there are held.
        let theirs: HashSet<&str> = share.seeks.iter().map(|s| s.id.as_str()).collect();
        inner.seeks.retain(|id, s| {
            s.origin.as_deref() != Some(node.as_str()) || theirs.contains(id.as_str())
        });
        for id in &share.taken {
            if inner.seeks.get(id).is_some_and(|s| s.origin.is_none()) {
                remove_seek(&mut inner, id);
            }
        }
        for seek in &share.seeks {
            if inner.taken.contains_key(&seek.id)
                || inner
                    .seeks
                    .get(&seek.id)
                    .is_some_and(|s| s.origin.is_none())
            {
                continue;
            }
            let Some(info) = seek_info(seek) else {
                continue;
            };
            let created = now
                .checked_sub(Duration::from_millis(seek.waiting_ms))
                .unwrap_or(now);
            let token_hash = share.seats.get(&seek.id).cloned().unwrap_or_default();
            let entry = inner.seeks.entry(seek.id.clone()).or_insert(SeekEntry {
                info: info.clone(),
                created,
                address: None,
                token_hash: token_hash.clone(),
                holders: 0,
                in_game: false,
                gone_since: None,
                origin: Some(node.clone()),
                remote_held: false,
            });
            entry.info = info;
            entry.token_hash = token_hash;
        }
        inner.shares.insert(
            node.clone(),
            RemoteShare {
                at: now,
                playing: share.playing,
                players: share.players,
                held: share.held.into_iter().collect(),
            },
        );
        update_remote_holds(&mut inner, now);
        // Games: theirs as they say, unless the game runs here now.
        let listed: HashSet<&str> = share.games.iter().map(|g| g.id.as_str()).collect();
        inner.games.retain(|id, g| {
            g.origin.as_deref() != Some(node.as_str()) || listed.contains(id.as_str())
        });
        for view in &share.games {
            let Some(game) = playing_game(view) else {
                continue;
            };
            inner.next_rev += 1;
            let rev = inner.next_rev;
            match inner.games.get_mut(&view.id) {
                Some(entry) if entry.origin.is_none() => {}
                Some(entry) => {
                    if entry.game != game {
                        entry.game = game;
                        entry.rev = rev;
                    }
                    entry.origin = Some(node.clone());
                }
                None => {
                    inner.games.insert(
                        view.id.clone(),
                        GameEntry {
                            game,
                            rev,
                            started: rev,
                            origin: Some(node.clone()),
                        },
                    );
                }
            }
        }
        drop(inner);
        self.changed.notify_one();
    }

    /// Removes the seeks whose creator has been gone for the seek timeout; then the update
    /// since the last flush, if anything changed.
    fn flush(&self, now: Instant) -> Option<LobbyUpdate> {
        let mut inner = self.lock();
        // Cluster mode: a node silent too long leaves the lists.
        let silent: Vec<String> = inner
            .shares
            .iter()
            .filter(|(_, s)| now >= s.at + crate::cluster::DEAD_AFTER)
            .map(|(node, _)| node.clone())
            .collect();
        if !silent.is_empty() {
            for node in &silent {
                inner.shares.remove(node);
            }
            let gone =
                |origin: &Option<String>| origin.as_ref().is_some_and(|n| silent.contains(n));
            inner.seeks.retain(|_, s| !gone(&s.origin));
            inner.games.retain(|_, g| !gone(&g.origin));
            update_remote_holds(&mut inner, now);
        }
        let timeout = self.settings.seek_timeout;
        let expired: Vec<String> = inner
            .seeks
            .iter()
            .filter(|(_, s)| s.origin.is_none())
            .filter(|(_, s)| s.gone_since.is_some_and(|at| now >= at + timeout))
            .map(|(id, _)| id.clone())
            .collect();
        for id in &expired {
            tracing::info!(game = %id, "open seek expired: its creator's page is gone");
            remove_seek(&mut inner, id);
        }
        let mut seeks: Vec<(&String, Instant)> =
            inner.seeks.iter().map(|(id, s)| (id, s.created)).collect();
        seeks.sort_by_key(|&(_, created)| created);
        seeks.truncate(MAX_SEEKS);
        let listed_seeks: HashSet<String> = seeks.iter().map(|(id, _)| (*id).clone()).collect();
        let mut games: Vec<(&String, &GameEntry)> =
            inner.games.iter().filter(|(_, g)| g.game.listed).collect();
        games.sort_by(|a, b| watch_order(a.1, b.1));
        games.truncate(MAX_GAMES);
        let listed_games: HashMap<String, u64> =
            games.iter().map(|(id, g)| ((*id).clone(), g.rev)).collect();
        let mut update = LobbyUpdate::default();
        for (id, _) in &seeks {
            if !inner.sent_seeks.contains(*id) {
                update.seeks.push(inner.seeks[*id].view(id, now));
            }
        }
        update.seeks_gone =
            no_longer_listed(inner.sent_seeks.iter(), |id| listed_seeks.contains(id));
        for (id, g) in &games {
            if inner.sent_games.get(*id) != Some(&g.rev) {
                update.games.push(g.view(id));
            }
        }
        update.games_gone =
            no_longer_listed(inner.sent_games.keys(), |id| listed_games.contains_key(id));
        let counts = self.counts(&inner);
        if counts != inner.sent_counts {
            update.counts = Some(counts);
        }
        inner.sent_seeks = listed_seeks;
        inner.sent_games = listed_games;
        inner.sent_counts = counts;
        let empty = update == LobbyUpdate::default();
        if !empty {
            inner.snapshot = None;
        }
        (!empty).then_some(update)
    }

    /// The flusher: until shutdown, sends an `update` for the changes at most every
    /// [`FLUSH_INTERVAL`], and checks the counts and expired seeks every second.
    pub(crate) fn spawn_flusher(self: &Arc<Self>) {
        let lobby = self.clone();
        let mut shutdown = self.shutdown();
        tokio::spawn(async move {
            let mut last_sent: Option<Instant> = None;
            loop {
                tokio::select! {
                    _ = lobby.changed.notified() => {}
                    _ = tokio::time::sleep(IDLE_CHECK) => {}
                    _ = shutdown.wait_for(|s| *s) => return,
                }
                if let Some(at) = last_sent {
                    tokio::time::sleep_until((at + FLUSH_INTERVAL).into()).await;
                }
                let now = Instant::now();
                if let Some(update) = lobby.flush(now) {
                    let text: Arc<str> = to_sorted_json(&LobbyServerMessage::Update(update)).into();
                    // No receiver is not an error: nobody is on the home page.
                    let _ = lobby.updates.send(text);
                    last_sent = Some(now);
                }
            }
        });
    }
}

#[cfg(test)]
mod tests;
