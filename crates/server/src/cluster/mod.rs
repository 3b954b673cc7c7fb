//! Cluster mode (`jiang serve --database postgres://… --cluster nats://…`): several nodes serve
//! one site. Every node accepts every request and WebSocket; each live game's actor runs on
//! exactly one node, the holder of the game's **lease** in PostgreSQL; the other nodes forward
//! commands to it over NATS request/reply and relay its events to their sockets (the wire
//! types and subjects are in `jiang_protocol::cluster`; the Command ↔ message mapping is in
//! `game::remote`).
//!
//! ## Why a lease row, not an advisory lock
//!
//! A session-level advisory lock lives as long as one PostgreSQL connection: holding a
//! thousand games would pin a connection (or a thousand locks on one connection that must then
//! never be returned to a pool or dropped by a proxy), a node whose connection breaks loses
//! every game at once while its actors still run, and a lock does not say *who* holds it, which
//! the other nodes need in order to forward. A row `game_leases(game_id, owner, epoch,
//! expires_at)` says who owns the game, survives connection churn, is renewed for all of a
//! node's games in one statement per second ([`RENEW_EVERY`]), expires by itself when a node
//! dies ([`LEASE_TTL`]), and carries a **fencing token** (`epoch`, bumped at every take).
//!
//! ## Fencing
//!
//! Safety never depends on clocks or on timely renewals: every write unit of a game carries a
//! [`Write::Fence`] (an `UPDATE game_leases … WHERE owner = me AND epoch = e` that must hit one
//! row) in the same transaction as the change, so a node that lost its lease (paused past the
//! expiry, or taken over) cannot commit over its successor; its actor stops. A take locks the
//! row (`SELECT … FOR UPDATE`), so it waits for a fenced commit in flight and then sees its
//! extended lease. The new owner loads the game after its take, so it sees every committed
//! (hence acknowledged) change of the previous owner.
//!
//! ## Takeover
//!
//! A lease is taken when free (released at a graceful stop: `expires_at = 0`), expired, or
//! already this node's — and also at once, expiry or not, when its owner has no NATS
//! subscription any more (a forwarded command met "no responders", or its answer was late and
//! a ping met it: the process is gone; if it was only cut off from NATS, fencing stops it). The clocks are charged the previous owner's
//! run time after the game's last snapshot (its heartbeat in `node_runs`, as a restart does),
//! never the takeover gap; a graceful release writes a fresh snapshot first, so nothing more
//! is charged. An orphan sweep ([`SWEEP_EVERY`]) also takes over games with a timer to run,
//! so that a game nobody touches still flags.
//!
//! May use: `store` (leases are rows, fenced in its transactions). The game actors use it;
//! it never calls them (`game::remote` maps commands to messages).

use std::collections::HashMap;
use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use jiang_protocol::{NodeAlive, NodeReply, NodeRequest};
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};

use crate::store::{StoreError, now_ms};

/// How long a lease lasts without renewal: a dead node's games wait at most this long for a
/// new owner when nobody asks for them (a command to a dead owner takes over at once).
pub const LEASE_TTL: Duration = Duration::from_secs(5);

/// How often a node renews all its leases (one statement).
pub const RENEW_EVERY: Duration = Duration::from_secs(1);

/// How often a node says it is alive on `jiang.alive`.
pub const ALIVE_EVERY: Duration = Duration::from_secs(1);

/// A node not heard from for this long is taken for gone: the sockets relayed from it close
/// (and reconnect), its subscribers here are dropped.
pub const DEAD_AFTER: Duration = Duration::from_secs(3);

/// How often the orphan sweep looks for games with a timer whose lease has lapsed.
pub const SWEEP_EVERY: Duration = Duration::from_secs(2);

/// How long a forwarded command waits for the owner's answer.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(3);

/// A command sent in the instant its owner died can reach the dead subscription before the
/// NATS server has noticed the closed connection, and would wait out [`REQUEST_TIMEOUT`]: once
/// an answer is this late, a ping tells a dead owner ("no responders") from a slow one.
pub const EARLY_PROBE: Duration = Duration::from_millis(250);

/// How long that ping waits.
pub const PROBE_TIMEOUT: Duration = Duration::from_millis(500);

/// Why cluster mode could not start.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// Cluster mode keeps its leases in PostgreSQL: SQLite cannot be shared by nodes.
    #[error("--cluster needs a PostgreSQL database (--database postgres://…); got `{0}`")]
    NeedsPostgres(String),
    /// The node id cannot be part of a NATS subject.
    #[error("invalid node id or cluster name `{0}`: use 1 to 64 letters, digits, `-` or `_`")]
    BadNodeId(String),
    /// NATS could not be reached at start.
    #[error("cannot connect to NATS at {url}: {source}")]
    Nats {
        /// The URL.
        url: String,
        /// Why.
        source: async_nats::ConnectError,
    },
    /// NATS refused a subscription.
    #[error("NATS subscription failed: {0}")]
    Subscribe(#[from] async_nats::SubscribeError),
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Whether `id` can be a node id (a NATS subject token and a `node_runs` key).
pub fn valid_node_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// What a take of a game's lease found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Lease {
    /// This node holds it now, with this epoch (the fencing token).
    Taken {
        /// The epoch.
        epoch: i64,
        /// Who had it before.
        previous: Previous,
    },
    /// Another node holds it, live.
    Held(String),
    /// There is no such game.
    Missing,
}

/// Who held a lease before a take, which decides the think time a resumed clock is charged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Previous {
    /// Nobody in cluster mode (a new lease row).
    Nobody,
    /// Released gracefully: the release wrote the clocks as they stood, nothing more to charge.
    Released,
    /// Expired or taken over: the node's runs say how long the clocks still ran.
    Node(String),
}

/// Why a forwarded command got no answer from its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ForwardError {
    /// The owner has no subscription (its process is gone, or it is cut off from NATS).
    Gone,
    /// NATS is down here, or the owner did not answer in time.
    Unavailable,
}

/// This node's part in the cluster.
pub(crate) struct Cluster {
    /// The first token of every subject (`--cluster-name`, `jiang`): sites sharing one NATS
    /// server keep apart by it.
    name: String,
    node: String,
    nats: async_nats::Client,
    pool: PgPool,
    /// Games another node held at this node's last try: game → owner. A cache: a wrong entry
    /// costs one `not_owner` answer.
    elsewhere: Mutex<HashMap<String, String>>,
    /// Games whose owner met "no responders": game → that owner, whose lease may be taken
    /// before it expires.
    steal: Mutex<HashMap<String, String>>,
    /// The leases held here: game → epoch.
    held: Mutex<HashMap<String, i64>>,
    /// When each other node was last heard on `jiang.alive`.
    alive: Mutex<HashMap<String, Instant>>,
    /// Subscriptions of sockets here to games owned elsewhere: (game, owner's sub id) → owner.
    relays: Mutex<HashMap<(String, u64), String>>,
    next_key: AtomicU64,
}

impl Cluster {
    /// Connects to NATS at `url` and opens the lease pool on `database_url` (PostgreSQL).
    pub(crate) async fn connect(
        url: &str,
        name: &str,
        node: &str,
        database_url: &str,
    ) -> Result<Cluster, ClusterError> {
        if !(database_url.starts_with("postgres://") || database_url.starts_with("postgresql://")) {
            return Err(ClusterError::NeedsPostgres(database_url.to_owned()));
        }
        for id in [node, name] {
            if !valid_node_id(id) {
                return Err(ClusterError::BadNodeId(id.to_owned()));
            }
        }
        let options = PgConnectOptions::from_str(database_url).map_err(StoreError::from)?;
        let pool = PgPoolOptions::new()
            .max_connections(4)
            .acquire_timeout(Duration::from_secs(3))
            .connect_with(options)
            .await
            .map_err(StoreError::from)?;
        let nats = async_nats::ConnectOptions::new()
            .name(format!("jiang-{node}"))
            .request_timeout(Some(REQUEST_TIMEOUT))
            .connection_timeout(Duration::from_secs(3))
            .connect(url)
            .await
            .map_err(|source| ClusterError::Nats {
                url: url.to_owned(),
                source,
            })?;
        Ok(Cluster {
            name: name.to_owned(),
            node: node.to_owned(),
            nats,
            pool,
            elsewhere: Mutex::default(),
            steal: Mutex::default(),
            held: Mutex::default(),
            alive: Mutex::default(),
            relays: Mutex::default(),
            next_key: AtomicU64::new(rand::random::<u32>() as u64 * 1_000_000),
        })
    }

    /// This node's id.
    pub(crate) fn node(&self) -> &str {
        &self.node
    }

    /// The NATS client.
    pub(crate) fn nats(&self) -> &async_nats::Client {
        &self.nats
    }

    /// The subject of node `node`'s commands.
    pub(crate) fn command_subject(&self, node: &str) -> String {
        format!("{}.node.{node}.cmd", self.name)
    }

    /// The subject of socket `key` held by node `node`.
    pub(crate) fn socket_subject(&self, node: &str, key: u64) -> String {
        format!("{}.sub.{node}.{key}", self.name)
    }

    /// The subject of a topic every node hears (`alive`, `lobby`).
    pub(crate) fn topic(&self, topic: &str) -> String {
        format!("{}.{topic}", self.name)
    }

    /// A fresh key for a socket relayed to this node.
    pub(crate) fn new_key(&self) -> u64 {
        self.next_key.fetch_add(1, Ordering::Relaxed)
    }

    // ----- leases -----

    /// Takes game `id`'s lease if it is free, expired, this node's, or its owner is known gone.
    pub(crate) async fn take(&self, id: &str) -> Result<Lease, StoreError> {
        let steal_from = self.steal.lock().expect("poisoned").remove(id);
        let now = now_ms();
        let mut tx = self.pool.begin().await?;
        sqlx::query(
            "INSERT INTO game_leases (game_id, owner, epoch, expires_at) \
             SELECT $1, '', 0, 0 WHERE EXISTS (SELECT 1 FROM games WHERE id = $1) \
             ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?;
        let row: Option<(String, i64, i64)> = sqlx::query_as(
            "SELECT owner, epoch, expires_at FROM game_leases WHERE game_id = $1 FOR UPDATE",
        )
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
        let Some((owner, epoch, expires_at)) = row else {
            tx.commit().await?;
            return Ok(Lease::Missing);
        };
        let live_elsewhere = owner != self.node && !owner.is_empty() && expires_at > now;
        if live_elsewhere && steal_from.as_deref() != Some(owner.as_str()) {
            tx.commit().await?;
            self.elsewhere
                .lock()
                .expect("poisoned")
                .insert(id.to_owned(), owner.clone());
            return Ok(Lease::Held(owner));
        }
        let epoch = epoch + 1;
        sqlx::query(
            "UPDATE game_leases SET owner = $2, epoch = $3, expires_at = $4 WHERE game_id = $1",
        )
        .bind(id)
        .bind(&self.node)
        .bind(epoch)
        .bind(now + LEASE_TTL.as_millis() as i64)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        self.elsewhere.lock().expect("poisoned").remove(id);
        self.held
            .lock()
            .expect("poisoned")
            .insert(id.to_owned(), epoch);
        let previous = if owner.is_empty() {
            Previous::Nobody
        } else if expires_at == 0 {
            Previous::Released
        } else {
            Previous::Node(owner)
        };
        if steal_from.is_some() {
            tracing::info!(game = %id, epoch, ?previous, "lease taken over from a node that is gone");
        }
        Ok(Lease::Taken { epoch, previous })
    }

    /// Takes or renews the tournaments' pairing lease: `Some(epoch)` while this node holds it
    /// (renewed for [`LEASE_TTL`]; a fresh take bumps the epoch), `None` while another node's
    /// is live. One statement: the row is inserted, or updated only when it is this node's,
    /// released or expired.
    pub(crate) async fn take_pairing(&self) -> Result<Option<i64>, StoreError> {
        let now = now_ms();
        let row: Option<(i64,)> = sqlx::query_as(
            "INSERT INTO tournament_leases (name, owner, epoch, expires_at) \
             VALUES ('pairing', $1, 1, $2) \
             ON CONFLICT (name) DO UPDATE SET owner = $1, expires_at = $2, \
               epoch = CASE WHEN tournament_leases.owner = $1 AND tournament_leases.expires_at > 0 \
                 THEN tournament_leases.epoch ELSE tournament_leases.epoch + 1 END \
             WHERE tournament_leases.owner = $1 OR tournament_leases.expires_at < $3 \
             RETURNING epoch",
        )
        .bind(&self.node)
        .bind(now + LEASE_TTL.as_millis() as i64)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|(epoch,)| epoch))
    }

    /// The fence every write of the pairing loop carries (see [`Cluster::take_pairing`]).
    pub(crate) fn pairing_fence(&self, epoch: i64) -> crate::store::Write {
        crate::store::Write::PairingFence {
            owner: self.node.clone(),
            epoch,
        }
    }

    /// Releases the pairing lease (a graceful stop): another node takes it at its next tick.
    pub(crate) async fn release_pairing(&self, epoch: i64) {
        let done = sqlx::query(
            "UPDATE tournament_leases SET expires_at = 0 WHERE name = 'pairing' \
             AND owner = $1 AND epoch = $2",
        )
        .bind(&self.node)
        .bind(epoch)
        .execute(&self.pool)
        .await;
        if let Err(e) = done {
            tracing::warn!(error = %e, "pairing lease not released; it will expire");
        }
    }

    /// Releases game `id`'s lease taken with `epoch` (a graceful stop of its actor): another
    /// node may take it at once.
    pub(crate) async fn release(&self, id: &str, epoch: i64) {
        {
            let mut held = self.held.lock().expect("poisoned");
            if held.get(id) == Some(&epoch) {
                held.remove(id);
            }
        }
        let done = sqlx::query(
            "UPDATE game_leases SET expires_at = 0 WHERE game_id = $1 AND owner = $2 \
             AND epoch = $3",
        )
        .bind(id)
        .bind(&self.node)
        .bind(epoch)
        .execute(&self.pool)
        .await;
        if let Err(e) = done {
            tracing::warn!(game = %id, error = %e, "lease not released; it will expire");
        }
    }

    /// The fence a write unit of game `id` taken with `epoch` carries.
    pub(crate) fn fence(&self, id: &str, epoch: i64) -> crate::store::Write {
        crate::store::Write::Fence {
            game_id: id.to_owned(),
            owner: self.node.clone(),
            epoch,
            expires_at: now_ms() + LEASE_TTL.as_millis() as i64,
        }
    }

    /// Renews every lease held here in one statement; returns the games whose lease was lost
    /// (taken over meanwhile) with the epoch they had.
    pub(crate) async fn renew(&self) -> Result<Vec<(String, i64)>, StoreError> {
        let held: Vec<(String, i64)> = self
            .held
            .lock()
            .expect("poisoned")
            .iter()
            .map(|(id, epoch)| (id.clone(), *epoch))
            .collect();
        if held.is_empty() {
            return Ok(Vec::new());
        }
        let (ids, epochs): (Vec<String>, Vec<i64>) = held.iter().cloned().unzip();
        // A lease row locked by a write of this node in flight is skipped, not waited for:
        // that write's fence extends the lease itself, and waiting would let this statement
        // (which locks many rows) and a group commit (which locks several) deadlock on each
        // other's rows. Whether a lease is still held is read from the statement's snapshot,
        // which never waits; a lease taken over while locked is seen lost a second later.
        let kept: Vec<(String,)> = sqlx::query_as(
            "WITH mine AS (SELECT l.game_id FROM game_leases AS l \
               JOIN UNNEST($1::text[], $2::int8[]) AS h(id, epoch) \
               ON l.game_id = h.id AND l.epoch = h.epoch WHERE l.owner = $4), \
             free AS (SELECT game_id FROM game_leases \
               WHERE game_id IN (SELECT game_id FROM mine) FOR UPDATE SKIP LOCKED), \
             renewed AS (UPDATE game_leases SET expires_at = $3 \
               WHERE game_id IN (SELECT game_id FROM free) AND owner = $4) \
             SELECT game_id FROM mine",
        )
        .bind(&ids)
        .bind(&epochs)
        .bind(now_ms() + LEASE_TTL.as_millis() as i64)
        .bind(&self.node)
        .fetch_all(&self.pool)
        .await?;
        let kept: std::collections::HashSet<String> = kept.into_iter().map(|(id,)| id).collect();
        let lost: Vec<(String, i64)> = held
            .into_iter()
            .filter(|(id, _)| !kept.contains(id))
            .collect();
        if !lost.is_empty() {
            let mut held = self.held.lock().expect("poisoned");
            for (id, epoch) in &lost {
                if held.get(id) == Some(epoch) {
                    held.remove(id);
                }
            }
        }
        Ok(lost)
    }

    /// Games with a timer to run (timed, first-move countdown, computer to move) whose lease
    /// is free or has lapsed: the orphan sweep starts their actors (the take decides who runs
    /// each).
    pub(crate) async fn orphans(&self, limit: i64) -> Result<Vec<String>, StoreError> {
        let sql = format!(
            "SELECT games.id FROM games LEFT JOIN game_leases \
             ON game_leases.game_id = games.id WHERE {} \
             AND (game_leases.game_id IS NULL OR game_leases.expires_at < $1) \
             ORDER BY games.id LIMIT $2",
            crate::store::RESUMABLE
        );
        let ids: Vec<(String,)> = sqlx::query_as(&sql)
            .bind(now_ms())
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        Ok(ids.into_iter().map(|(id,)| id).collect())
    }

    /// The node that held game `id` at this node's last try, if another.
    pub(crate) fn owner_elsewhere(&self, id: &str) -> Option<String> {
        self.elsewhere.lock().expect("poisoned").get(id).cloned()
    }

    /// Forgets where game `id` runs (its owner said no, or is gone).
    pub(crate) fn forget(&self, id: &str) {
        self.elsewhere.lock().expect("poisoned").remove(id);
    }

    /// Owner `owner` of game `id` is gone: the next take may take its lease before it expires.
    pub(crate) fn owner_gone(&self, id: &str, owner: &str) {
        self.forget(id);
        self.steal
            .lock()
            .expect("poisoned")
            .insert(id.to_owned(), owner.to_owned());
    }

    // ----- liveness -----

    /// Whether node `node` was heard from lately (this node always is).
    pub(crate) fn is_alive(&self, node: &str) -> bool {
        node == self.node
            || self
                .alive
                .lock()
                .expect("poisoned")
                .get(node)
                .is_some_and(|at| at.elapsed() < DEAD_AFTER)
    }

    /// Notes a `jiang.alive` message.
    pub(crate) fn heard(&self, alive: NodeAlive) {
        let mut map = self.alive.lock().expect("poisoned");
        if alive.stopping {
            map.remove(&alive.node);
        } else {
            map.insert(alive.node, Instant::now());
        }
    }

    /// Says on `jiang.alive` that this node is alive (or stopping).
    pub(crate) async fn say_alive(&self, stopping: bool) {
        let message = NodeAlive {
            node: self.node.clone(),
            stopping,
        };
        let payload = serde_json::to_vec(&message).expect("serialises");
        let _ = self.nats.publish(self.topic("alive"), payload.into()).await;
    }

    // ----- forwarding -----

    /// Sends `request` to node `owner` and waits for its answer.
    pub(crate) async fn request(
        &self,
        owner: &str,
        request: &NodeRequest,
    ) -> Result<NodeReply, ForwardError> {
        if self.nats.connection_state() != async_nats::connection::State::Connected {
            return Err(ForwardError::Unavailable);
        }
        let payload = serde_json::to_vec(request).expect("serialises");
        let answer = self
            .nats
            .request(self.command_subject(owner), payload.into());
        tokio::pin!(answer);
        // An answer slower than EARLY_PROBE: a ping tells a dead owner ("no responders": the
        // command went to its subscription just before the NATS server saw it die) from a
        // slow one, which is waited for up to the timeout.
        let answer = tokio::select! {
            answer = &mut answer => answer,
            _ = tokio::time::sleep(EARLY_PROBE) => {
                if !self.responds(owner).await {
                    return Err(ForwardError::Gone);
                }
                answer.await
            }
        };
        match answer {
            Ok(message) => {
                // It answered: it is alive (whether or not its heartbeat reached us yet).
                self.heard(NodeAlive {
                    node: owner.to_owned(),
                    stopping: false,
                });
                serde_json::from_slice(&message.payload).map_err(|e| {
                    tracing::error!(error = %e, %owner, "unreadable answer from a node");
                    ForwardError::Unavailable
                })
            }
            Err(e) if e.kind() == async_nats::RequestErrorKind::NoResponders => {
                Err(ForwardError::Gone)
            }
            Err(e) if e.kind() == async_nats::RequestErrorKind::TimedOut => {
                if self.responds(owner).await {
                    tracing::warn!(%owner, "forwarded command timed out");
                    Err(ForwardError::Unavailable)
                } else {
                    Err(ForwardError::Gone)
                }
            }
            Err(e) => {
                tracing::warn!(error = %e, %owner, "forwarded command failed");
                Err(ForwardError::Unavailable)
            }
        }
    }

    /// Whether node `owner` still has its command subscription: `false` only on "no
    /// responders" to a ping (a ping without an answer in time says nothing: `true`).
    async fn responds(&self, owner: &str) -> bool {
        let ping = serde_json::to_vec(&NodeRequest::Ping {}).expect("serialises");
        let probe = async_nats::Request::new()
            .payload(ping.into())
            .timeout(Some(PROBE_TIMEOUT));
        !matches!(
            self.nats.send_request(self.command_subject(owner), probe).await,
            Err(e) if e.kind() == async_nats::RequestErrorKind::NoResponders
        )
    }

    /// Sends `request` to node `owner` without waiting (unsubscribe, clock sync).
    pub(crate) async fn tell(&self, owner: &str, request: &NodeRequest) {
        let payload = serde_json::to_vec(request).expect("serialises");
        let _ = self
            .nats
            .publish(self.command_subject(owner), payload.into())
            .await;
    }

    /// Notes that the socket subscription `sub` of game `id` here is relayed from `owner`.
    pub(crate) fn relay_opened(&self, id: &str, sub: u64, owner: &str) {
        self.relays
            .lock()
            .expect("poisoned")
            .insert((id.to_owned(), sub), owner.to_owned());
    }

    /// The relay of subscription `sub` of game `id` ended; its owner, if it was one.
    pub(crate) fn relay_closed(&self, id: &str, sub: u64) -> Option<String> {
        self.relays
            .lock()
            .expect("poisoned")
            .remove(&(id.to_owned(), sub))
    }

    /// The owner of relayed subscription `sub` of game `id`, if it is one.
    pub(crate) fn relay_owner(&self, id: &str, sub: u64) -> Option<String> {
        self.relays
            .lock()
            .expect("poisoned")
            .get(&(id.to_owned(), sub))
            .cloned()
    }

    /// Closes the lease pool and flushes NATS (the end of a graceful stop).
    pub(crate) async fn close(&self) {
        self.say_alive(true).await;
        let _ = tokio::time::timeout(Duration::from_secs(2), self.nats.flush()).await;
        self.pool.close().await;
    }
}

/// The server tests' fresh PostgreSQL database, for the lease tests below.
#[cfg(test)]
#[path = "../../tests/common/pg.rs"]
mod pg;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{self, Durability, Write};

    /// A new game's row, made as `POST /api/games` makes it (a lease needs the game stored).
    fn new_game(id: &str) -> Write {
        let variant = jiang_rules::Variant::Xiangqi;
        let setup = crate::table::create(variant, None, None).expect("the start position");
        let game = crate::game::NewGame {
            variant,
            setup,
            control: None,
            tokens: [None, None],
            open: false,
            unlisted: true,
            computer: None,
            players: [None, None],
            rated: false,
            rating_range: None,
            tournament: None,
        };
        Write::SaveGame(game.row(id))
    }

    /// Runs `cluster`'s fence of game `id` (epoch `epoch`) in `tx` with the store writer's own
    /// code, as a group commit does: the lease row stays locked until `tx` ends.
    async fn fence(
        tx: &mut sqlx::Transaction<'_, sqlx::Postgres>,
        cluster: &Cluster,
        id: &str,
        epoch: i64,
    ) {
        store::PgBackend::apply(tx, &cluster.fence(id, epoch))
            .await
            .unwrap_or_else(|e| panic!("the fence of {id} holds: {e}"));
    }

    /// `cluster.renew()`, which must not wait for any lease row lock: the timeout is a
    /// deadlock detector, not a timing assertion.
    async fn renew(cluster: &Cluster) -> Vec<(String, i64)> {
        tokio::time::timeout(Duration::from_secs(10), cluster.renew())
            .await
            .expect("renew waited on a lease row locked by a write in flight")
            .expect("renew succeeds")
    }

    /// Regression test for a deadlock under load: a renewal (locking every lease row of the
    /// node) and a group commit (whose fences lock several) waited on each other's rows. Renewal
    /// now skips the rows a write in flight has locked (`FOR UPDATE SKIP LOCKED`; that write's
    /// fence extends the lease itself) and still reports those leases held, so here it returns
    /// at once while a transaction holds fenced rows, and a group commit that goes on to fence
    /// another game meets no lock of the renewal. A lease really taken over is still reported
    /// lost.
    #[tokio::test]
    #[cfg_attr(
        not(cluster_tests),
        ignore = "set JIANG_TEST_DATABASE_URL and JIANG_TEST_NATS_URL to run the cluster tests"
    )]
    async fn renew_skips_lease_rows_locked_by_a_write_in_flight() {
        let test = "renew_skips_lease_rows_locked_by_a_write_in_flight";
        let suffix = crate::seat::new_game_id().to_lowercase();
        let (admin, url) = pg::fresh_database(test, &suffix).await;
        let nats = std::env::var("JIANG_TEST_NATS_URL")
            .expect("set JIANG_TEST_NATS_URL (e.g. nats://127.0.0.1:4222)");
        let backend = store::connect(&url, Durability::Full)
            .await
            .expect("the store opens and migrates");
        let ids: Vec<String> = (0..3).map(|_| crate::seat::new_game_id()).collect();
        backend
            .commit(&[ids.iter().map(|id| new_game(id)).collect()])
            .await
            .expect("the games are stored");
        let cluster = Cluster::connect(&nats, &format!("test_{suffix}"), "node-a", &url)
            .await
            .expect("the cluster connects");
        let mut epochs = Vec::new();
        for id in &ids {
            match cluster.take(id).await.expect("take") {
                Lease::Taken { epoch, .. } => epochs.push(epoch),
                other => panic!("a fresh game's lease is free: {other:?}"),
            }
        }
        let writes = PgPool::connect(&url).await.expect("a second pool");

        // A group commit in flight has fenced the first game: renewal does not wait for it, and
        // the first game's lease is still held.
        let mut tx = writes.begin().await.expect("begin");
        fence(&mut tx, &cluster, &ids[0], epochs[0]).await;
        assert_eq!(renew(&cluster).await, []);
        // The same commit fences the second game too: no lock of the renewal is in its way
        // (before the fix, a renewal waiting on the first row held this one: a deadlock).
        fence(&mut tx, &cluster, &ids[1], epochs[1]).await;
        assert_eq!(renew(&cluster).await, []);
        tx.commit().await.expect("the group commit commits");
        assert_eq!(renew(&cluster).await, []);

        // Another node takes the third game over: renewal reports that lease lost, once.
        sqlx::query(
            "UPDATE game_leases SET owner = 'node-b', epoch = epoch + 1 WHERE game_id = $1",
        )
        .bind(&ids[2])
        .execute(&writes)
        .await
        .expect("the takeover");
        assert_eq!(renew(&cluster).await, [(ids[2].clone(), epochs[2])]);
        assert_eq!(renew(&cluster).await, []);

        writes.close().await;
        cluster.close().await;
        backend.close().await;
        pg::drop_database(&admin, &url)
            .await
            .expect("the test database is dropped");
    }
}
