//! Durable storage: one [`Backend`] trait with two implementations (embedded SQLite, the
//! default, and PostgreSQL), the same schema (`migrations/`, shared by both) and a group-commit
//! [`Store`] in front of them.
//!
//! Every write goes through one writer task. It takes every write unit waiting in its queue,
//! commits them in **one** transaction, and only then acknowledges each unit. A game actor
//! tells nobody about a move before its acknowledgement arrives, so "stored before anyone is
//! told" holds while thousands of games share one fsync.
//!
//! A unit is acknowledged only after its own `COMMIT` returned success on a connection that was
//! outside any transaction when the unit began. A connection on which any statement or the
//! commit failed is closed, never returned to the pool: after a failed `COMMIT` (say
//! `SQLITE_FULL`) SQLite has already rolled the transaction back, sqlx's own rollback then
//! fails and its transaction counter stays at 1, so the connection's next `begin()` would issue
//! a `SAVEPOINT` instead of `BEGIN`; one more failed commit leaves a real transaction open, and
//! from then on every "commit" only releases a nested savepoint: acknowledged, never committed,
//! and holding the write lock (tests/disk_full.rs in crates/jiang reproduces it).

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use sqlx::pool::PoolConnection;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};
use sqlx::{Connection, Database};
use tokio::sync::{mpsc, oneshot, watch};

/// Why the store failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database URL is neither `sqlite://…` nor `postgres://…`.
    #[error("unsupported database URL `{0}`: expected sqlite://<path> or postgres://…")]
    BadUrl(String),
    /// The database said no.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// The schema could not be brought up to date.
    #[error("migration failed: {0}")]
    Migration(#[from] sqlx::migrate::MigrateError),
    /// The directory for the SQLite file could not be created.
    #[error("cannot create the database directory: {0}")]
    Io(#[from] std::io::Error),
    /// The writer task is gone (the server is shutting down), or it gave up on the units still
    /// queued at the shutdown deadline: nothing of the unit was stored.
    #[error("the store is closed")]
    Closed,
    /// The database could not commit the unit (disk full, I/O error, lost connection, lock
    /// held elsewhere): nothing of it was stored; the same unit may succeed later.
    /// The cause is shared by every unit of the failed commit.
    #[error("the database cannot store anything right now: {0}")]
    Unavailable(#[source] Arc<StoreError>),
    /// The database refused the unit itself (a constraint, a missing row): retrying it will
    /// not help. Nothing of it was stored. The cause is shared as for `Unavailable`.
    #[error("the database refused the write: {0}")]
    Rejected(#[source] Arc<StoreError>),
    /// Every pooled connection offered was still inside a transaction (and was closed).
    #[error("no database connection outside a transaction")]
    NoCleanConnection,
    /// Cluster mode: the unit's [`Write::Fence`] failed: another node took the game's lease
    /// since this node's actor started (nothing of the unit was stored).
    #[error("the game's lease is held by another node")]
    Fenced,
}

impl StoreError {
    /// Whether the failure is the unit's own fault (a constraint or a missing row) rather than
    /// the database's inability to store anything right now.
    fn is_rejection(&self) -> bool {
        match self {
            StoreError::Rejected(_) | StoreError::Fenced => true,
            StoreError::Database(sqlx::Error::RowNotFound) => true,
            StoreError::Database(sqlx::Error::Database(e)) => {
                !matches!(e.kind(), sqlx::error::ErrorKind::Other)
            }
            _ => false,
        }
    }

    /// The failure as the writer reports it to the unit's sender.
    fn into_failure(self) -> StoreError {
        if matches!(self, StoreError::Unavailable(_) | StoreError::Rejected(_)) {
            self
        } else if self.is_rejection() {
            StoreError::Rejected(Arc::new(self))
        } else {
            StoreError::Unavailable(Arc::new(self))
        }
    }
}

/// One game's row. Mutable columns are rewritten whole by [`Write::SaveGame`].
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct GameRow {
    /// The game id (base62).
    pub id: String,
    /// The variant name.
    pub variant: String,
    /// The set-up as JSON (start position, clock control, Jieqi deal and salt): never sent to
    /// a client as is.
    pub setup: String,
    /// `waiting`, `playing`, `ended` or `aborted`.
    pub status: String,
    /// SHA-256 (hex) of the first side's seat token, once the seat is taken.
    pub token_first: Option<String>,
    /// SHA-256 (hex) of the second side's seat token, once the seat is taken.
    pub token_second: Option<String>,
    /// The result as JSON, once the game is over.
    pub result: Option<String>,
    /// The clock snapshot as JSON (none for untimed games).
    pub clock: Option<String>,
    /// The rest of the live state as JSON (draw offer, rematch requests, …).
    pub meta: String,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_at: i64,
    /// Last change, milliseconds since the Unix epoch.
    pub updated_at: i64,
    /// Who holds the seat without a token in a game against the computer (the API's
    /// `opponent` JSON, `{"computer":3}`); `None` between people. Set at creation only.
    pub opponent: Option<String>,
}

/// One accepted move.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct MoveRow {
    /// The game it belongs to.
    pub game_id: String,
    /// 1 for the first move of the game.
    pub ply: i64,
    /// The move in machine notation, as it stands in the record (Jieqi: with the reveal).
    #[sqlx(rename = "mv")]
    pub text: String,
    /// The clock snapshot right after the move, as JSON.
    pub clock: Option<String>,
    /// When it was accepted, milliseconds since the Unix epoch.
    pub at_ms: i64,
}

/// One entry of a game's log (`game_log`): a chat line or a takeback.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct LogRow {
    /// The game it belongs to.
    pub game_id: String,
    /// 1 for the game's first entry.
    pub seq: i64,
    /// `chat` or `takeback`.
    pub kind: String,
    /// A chat line's channel (`players`, `spectators`).
    pub channel: Option<String>,
    /// The speaker's or requester's side index; `None` for a spectator.
    pub side: Option<i64>,
    /// The text (chat) or a JSON description (takeback).
    pub body: String,
    /// When, milliseconds since the Unix epoch.
    pub at_ms: i64,
}

/// One durable change.
#[derive(Clone, Debug)]
pub enum Write {
    /// Insert or replace a game's row.
    SaveGame(GameRow),
    /// Rewrite the mutable columns of an existing game (status, tokens, result, clock, meta,
    /// updated_at): cheaper than [`Write::SaveGame`] on every move. Fails if the game is not
    /// stored.
    UpdateGame(GameRow),
    /// Append a move (fails if that ply is already stored).
    AppendMove(MoveRow),
    /// Delete a game's moves after ply `keep` (a takeback).
    TruncateMoves {
        /// The game.
        game_id: String,
        /// How many moves stay.
        keep: i64,
    },
    /// Append an entry to a game's log (fails if that `seq` is already stored).
    AppendLog(LogRow),
    /// Record a new run of server node `node` starting at `started_at` (ms since the Unix
    /// epoch), and delete its earlier runs that ended before `prune_before` (no resumed game
    /// needs them). See [`RunRow`].
    StartRun {
        /// The node's key.
        node: String,
        /// The run's start.
        started_at: i64,
        /// Earlier runs last alive before this instant are deleted.
        prune_before: i64,
    },
    /// Record that the run of `node` started at `started_at` was alive at `alive_at` (ms since
    /// the Unix epoch), and, when `stopped`, that it stopped then (a graceful shutdown).
    Heartbeat {
        /// The node's key.
        node: String,
        /// The run's start (its key with `node`).
        started_at: i64,
        /// The instant, milliseconds since the Unix epoch.
        alive_at: i64,
        /// Whether this is the run's last beat before a graceful stop.
        stopped: bool,
    },
    /// End game `id` as abandoned (status `ended`, `result` as given, `updated_at = at`) if it
    /// is still an untimed game in progress past both first moves that has not changed since
    /// before `cutoff` (ms since the Unix epoch); otherwise (moved meanwhile, already over)
    /// change nothing.
    Abandon {
        /// The game.
        id: String,
        /// The stored result (JSON).
        result: String,
        /// Only games last changed before this instant are ended.
        cutoff: i64,
        /// The new `updated_at`.
        at: i64,
    },
    /// Rewrite the one row of `store_probe` with this time (ms since the epoch): the health
    /// probe's tiny write.
    Probe(i64),
    /// Cluster mode: the unit commits only if `owner` still holds game `game_id`'s lease with
    /// the `epoch` it took (else the whole unit fails with [`StoreError::Fenced`]); the lease is
    /// extended to at least `expires_at` (ms since the Unix epoch). The row lock it takes also
    /// makes a concurrent take wait for the commit, and then see the extended lease.
    Fence {
        /// The game.
        game_id: String,
        /// This node's id.
        owner: String,
        /// The epoch the actor took the lease with.
        epoch: i64,
        /// The lease's new expiry, at least.
        expires_at: i64,
    },
}

/// One run of a server node: when it started, when it was last known alive, and whether it
/// stopped gracefully then.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct RunRow {
    /// The node's key.
    pub node: String,
    /// When the run started, milliseconds since the Unix epoch.
    pub started_at: i64,
    /// Its last heartbeat (or its stop), milliseconds since the Unix epoch.
    pub alive_at: i64,
    /// When it stopped gracefully; `None` while it runs or after a crash.
    pub stopped_at: Option<i64>,
}

/// A stored game with its moves, in order.
#[derive(Clone, Debug)]
pub struct StoredGame {
    /// The row.
    pub row: GameRow,
    /// Its moves by ply.
    pub moves: Vec<MoveRow>,
    /// Its log (chat, takebacks) by `seq`.
    pub log: Vec<LogRow>,
}

/// What a database back end does. Both implementations run the same SQL.
pub trait Backend: Send + Sync + 'static {
    /// Commits all units in one transaction (all or nothing).
    fn commit<'a>(&'a self, units: &'a [Vec<Write>]) -> BoxFuture<'a, Result<(), StoreError>>;
    /// One game and its moves.
    fn load<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<StoredGame>, StoreError>>;
    /// Every game still `playing`, with its moves (for resuming after a restart).
    fn load_live(&self) -> BoxFuture<'_, Result<Vec<StoredGame>, StoreError>>;
    /// The games `playing` that have a timer to run after a restart, with their moves: timed
    /// games, and games whose side to move has not yet made its first move (the first-move
    /// countdown). Untimed games further on are loaded when first asked for.
    fn load_resumable(&self) -> BoxFuture<'_, Result<Vec<StoredGame>, StoreError>>;
    /// Server node `node`'s recorded runs, oldest first.
    fn runs<'a>(&'a self, node: &'a str) -> BoxFuture<'a, Result<Vec<RunRow>, StoreError>>;
    /// The ids of untimed games `playing` past both first moves and unchanged since before
    /// `cutoff` (ms since the Unix epoch), at most `limit` of them, oldest first.
    fn abandoned<'a>(
        &'a self,
        cutoff: i64,
        limit: i64,
    ) -> BoxFuture<'a, Result<Vec<String>, StoreError>>;
    /// Closes the connections.
    fn close(&self) -> BoxFuture<'_, ()>;
}

/// `$1` to `$8` are the columns of [`UPDATE_GAME`], in its order (one binder serves both).
const UPSERT_GAME: &str = "INSERT INTO games (id, status, token_first, token_second, result, \
     clock, meta, updated_at, variant, setup, created_at, opponent) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
     ON CONFLICT (id) DO UPDATE SET status = excluded.status, \
     token_first = excluded.token_first, token_second = excluded.token_second, \
     result = excluded.result, clock = excluded.clock, meta = excluded.meta, \
     updated_at = excluded.updated_at";
const UPDATE_GAME: &str = "UPDATE games SET status = $2, token_first = $3, token_second = $4, \
     result = $5, clock = $6, meta = $7, updated_at = $8 WHERE id = $1";
const INSERT_MOVE: &str =
    "INSERT INTO moves (game_id, ply, mv, clock, at_ms) VALUES ($1, $2, $3, $4, $5)";
const UPSERT_PROBE: &str = "INSERT INTO store_probe (id, at_ms) VALUES (1, $1) \
     ON CONFLICT (id) DO UPDATE SET at_ms = excluded.at_ms";
const SELECT_GAME: &str = "SELECT id, variant, setup, status, token_first, token_second, \
     result, clock, meta, created_at, updated_at, opponent FROM games";
const INSERT_RUN: &str = "INSERT INTO node_runs (node, started_at, alive_at) \
     VALUES ($1, $2, $2) ON CONFLICT (node, started_at) DO UPDATE SET \
     alive_at = excluded.alive_at, stopped_at = NULL";
const PRUNE_RUNS: &str =
    "DELETE FROM node_runs WHERE node = $1 AND started_at <> $2 AND alive_at < $3";
const UPDATE_RUN: &str = "UPDATE node_runs SET alive_at = $3, stopped_at = $4 \
     WHERE node = $1 AND started_at = $2";
const SELECT_RUNS: &str = "SELECT node, started_at, alive_at, stopped_at FROM node_runs \
     WHERE node = $1 ORDER BY started_at";
/// Past both first moves, untimed games are those without a clock snapshot (`clock IS NULL`);
/// games before that are the first-move countdown's (they are aborted, not abandoned).
const ABANDONABLE: &str = "status = 'playing' AND clock IS NULL AND EXISTS \
     (SELECT 1 FROM moves WHERE moves.game_id = games.id AND moves.ply = 2)";
/// The statement a [`Write::Fence`] runs.
const FENCE: &str = "UPDATE game_leases SET expires_at = CASE WHEN expires_at > $4 \
     THEN expires_at ELSE $4 END WHERE game_id = $1 AND owner = $2 AND epoch = $3";
const DELETE_MOVES: &str = "DELETE FROM moves WHERE game_id = $1 AND ply > $2";
const INSERT_LOG: &str = "INSERT INTO game_log (game_id, seq, kind, channel, side, body, at_ms) \
     VALUES ($1, $2, $3, $4, $5, $6, $7)";
const SELECT_LOG: &str = "SELECT game_id, seq, kind, channel, side, body, at_ms FROM game_log \
     WHERE game_id = $1 ORDER BY seq";
/// Timed games have a clock snapshot; a game without a second move is in its first-move
/// countdown; a game against the computer may be waiting for its move.
pub(crate) const RESUMABLE: &str = "status = 'playing' AND (clock IS NOT NULL OR opponent IS NOT NULL \
     OR NOT EXISTS (SELECT 1 FROM moves WHERE moves.game_id = games.id AND moves.ply = 2))";
const SELECT_MOVES: &str =
    "SELECT game_id, ply, mv, clock, at_ms FROM moves WHERE game_id = $1 ORDER BY ply";

/// A pooled connection that is closed, not returned to the pool, unless [`Self::keep`] is
/// called: whatever happened to it (a failed statement or commit, a cancelled future), a
/// connection whose transaction did not end in a successful commit is never reused.
struct DiscardUnlessKept<DB: Database> {
    conn: PoolConnection<DB>,
    keep: bool,
}

impl<DB: Database> DiscardUnlessKept<DB> {
    fn keep(mut self) {
        self.keep = true;
    }
}

impl<DB: Database> Drop for DiscardUnlessKept<DB> {
    fn drop(&mut self) {
        if !self.keep {
            self.conn.close_on_drop();
        }
    }
}

/// How many pooled connections `commit` sets aside (closes) before giving up on finding one
/// outside any transaction.
const MAX_UNCLEAN: usize = 4;

/// Implements [`Backend`] for a sqlx pool type: the SQL is shared, only the driver and the
/// statement that opens a write transaction differ.
macro_rules! sql_backend {
    ($name:ident, $db:ty, $begin:expr) => {
        impl $name {
            /// A pooled connection outside any transaction (by sqlx's count), wrapped so that
            /// it is closed unless its commit succeeds.
            async fn clean_connection(&self) -> Result<DiscardUnlessKept<$db>, StoreError> {
                for _ in 0..MAX_UNCLEAN {
                    let conn = self.pool.acquire().await?;
                    if !conn.is_in_transaction() {
                        return Ok(DiscardUnlessKept { conn, keep: false });
                    }
                    tracing::warn!("pooled connection still inside a transaction; closing it");
                    drop(DiscardUnlessKept::<$db> { conn, keep: false });
                }
                Err(StoreError::Unavailable(Arc::new(
                    StoreError::NoCleanConnection,
                )))
            }

            /// Runs `write` in `tx`: the writer runs a unit's writes in order in one transaction.
            pub(crate) async fn apply(
                tx: &mut sqlx::Transaction<'_, $db>,
                write: &Write,
            ) -> Result<(), StoreError> {
                match write {
                    Write::SaveGame(g) => {
                        Self::bind_game(sqlx::query(UPSERT_GAME), g)
                            .bind(&g.variant)
                            .bind(&g.setup)
                            .bind(g.created_at)
                            .bind(&g.opponent)
                            .execute(&mut **tx)
                            .await?;
                    }
                    Write::UpdateGame(g) => {
                        let done = Self::bind_game(sqlx::query(UPDATE_GAME), g)
                            .execute(&mut **tx)
                            .await?;
                        if done.rows_affected() != 1 {
                            return Err(StoreError::Database(sqlx::Error::RowNotFound));
                        }
                    }
                    Write::AppendMove(m) => {
                        sqlx::query(INSERT_MOVE)
                            .bind(&m.game_id)
                            .bind(m.ply)
                            .bind(&m.text)
                            .bind(&m.clock)
                            .bind(m.at_ms)
                            .execute(&mut **tx)
                            .await?;
                    }
                    Write::TruncateMoves { game_id, keep } => {
                        sqlx::query(DELETE_MOVES)
                            .bind(game_id)
                            .bind(keep)
                            .execute(&mut **tx)
                            .await?;
                    }
                    Write::AppendLog(l) => {
                        sqlx::query(INSERT_LOG)
                            .bind(&l.game_id)
                            .bind(l.seq)
                            .bind(&l.kind)
                            .bind(&l.channel)
                            .bind(l.side)
                            .bind(&l.body)
                            .bind(l.at_ms)
                            .execute(&mut **tx)
                            .await?;
                    }
                    Write::StartRun {
                        node,
                        started_at,
                        prune_before,
                    } => {
                        sqlx::query(INSERT_RUN)
                            .bind(node)
                            .bind(started_at)
                            .execute(&mut **tx)
                            .await?;
                        sqlx::query(PRUNE_RUNS)
                            .bind(node)
                            .bind(started_at)
                            .bind(prune_before)
                            .execute(&mut **tx)
                            .await?;
                    }
                    Write::Heartbeat {
                        node,
                        started_at,
                        alive_at,
                        stopped,
                    } => {
                        sqlx::query(UPDATE_RUN)
                            .bind(node)
                            .bind(started_at)
                            .bind(alive_at)
                            .bind(stopped.then_some(*alive_at))
                            .execute(&mut **tx)
                            .await?;
                    }
                    Write::Abandon {
                        id,
                        result,
                        cutoff,
                        at,
                    } => {
                        let sql = format!(
                            "UPDATE games SET status = 'ended', result = $2, \
                             updated_at = $4 WHERE id = $1 AND {ABANDONABLE} \
                             AND updated_at < $3 AND NOT EXISTS (SELECT 1 FROM \
                             game_leases WHERE game_leases.game_id = games.id \
                             AND game_leases.expires_at > $4)"
                        );
                        sqlx::query(&sql)
                            .bind(id)
                            .bind(result)
                            .bind(cutoff)
                            .bind(at)
                            .execute(&mut **tx)
                            .await?;
                    }
                    Write::Probe(at_ms) => {
                        sqlx::query(UPSERT_PROBE)
                            .bind(at_ms)
                            .execute(&mut **tx)
                            .await?;
                    }
                    Write::Fence {
                        game_id,
                        owner,
                        epoch,
                        expires_at,
                    } => {
                        let done = sqlx::query(FENCE)
                            .bind(game_id)
                            .bind(owner)
                            .bind(epoch)
                            .bind(expires_at)
                            .execute(&mut **tx)
                            .await?;
                        if done.rows_affected() != 1 {
                            return Err(StoreError::Fenced);
                        }
                    }
                }
                Ok(())
            }

            /// `query` with `g`'s id and the columns a save changes bound as `$1` to `$8`
            /// ([`UPDATE_GAME`]'s order, which [`UPSERT_GAME`] starts with).
            fn bind_game<'q>(
                query: sqlx::query::Query<'q, $db, <$db as sqlx::Database>::Arguments<'q>>,
                g: &'q GameRow,
            ) -> sqlx::query::Query<'q, $db, <$db as sqlx::Database>::Arguments<'q>> {
                query
                    .bind(&g.id)
                    .bind(&g.status)
                    .bind(&g.token_first)
                    .bind(&g.token_second)
                    .bind(&g.result)
                    .bind(&g.clock)
                    .bind(&g.meta)
                    .bind(g.updated_at)
            }

            async fn with_moves(&self, row: GameRow) -> Result<StoredGame, StoreError> {
                let moves = sqlx::query_as::<_, MoveRow>(SELECT_MOVES)
                    .bind(&row.id)
                    .fetch_all(&self.pool)
                    .await?;
                let log = sqlx::query_as::<_, LogRow>(SELECT_LOG)
                    .bind(&row.id)
                    .fetch_all(&self.pool)
                    .await?;
                Ok(StoredGame { row, moves, log })
            }

            /// Every game matching the SQL `condition`, by id, with its moves.
            async fn load_where(&self, condition: &str) -> Result<Vec<StoredGame>, StoreError> {
                let sql = format!("{SELECT_GAME} WHERE {condition} ORDER BY id");
                let rows = sqlx::query_as::<_, GameRow>(&sql)
                    .fetch_all(&self.pool)
                    .await?;
                let mut games = Vec::with_capacity(rows.len());
                for row in rows {
                    games.push(self.with_moves(row).await?);
                }
                Ok(games)
            }
        }

        impl Backend for $name {
            fn commit<'a>(
                &'a self,
                units: &'a [Vec<Write>],
            ) -> BoxFuture<'a, Result<(), StoreError>> {
                Box::pin(async move {
                    let mut conn = self.clean_connection().await?;
                    // A custom BEGIN is refused by sqlx inside a transaction (no silent
                    // SAVEPOINT), and SQLite's `BEGIN IMMEDIATE` takes the write lock up front.
                    let mut tx = conn.conn.begin_with($begin).await?;
                    for write in units.iter().flatten() {
                        Self::apply(&mut tx, write).await?;
                    }
                    tx.commit().await?;
                    conn.keep();
                    Ok(())
                })
            }

            fn load<'a>(
                &'a self,
                id: &'a str,
            ) -> BoxFuture<'a, Result<Option<StoredGame>, StoreError>> {
                Box::pin(async move {
                    let sql = format!("{SELECT_GAME} WHERE id = $1");
                    let Some(row) = sqlx::query_as::<_, GameRow>(&sql)
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await?
                    else {
                        return Ok(None);
                    };
                    Ok(Some(self.with_moves(row).await?))
                })
            }

            fn load_live(&self) -> BoxFuture<'_, Result<Vec<StoredGame>, StoreError>> {
                Box::pin(self.load_where("status = 'playing'"))
            }

            fn load_resumable(&self) -> BoxFuture<'_, Result<Vec<StoredGame>, StoreError>> {
                Box::pin(self.load_where(RESUMABLE))
            }

            fn runs<'a>(&'a self, node: &'a str) -> BoxFuture<'a, Result<Vec<RunRow>, StoreError>> {
                Box::pin(async move {
                    Ok(sqlx::query_as::<_, RunRow>(SELECT_RUNS)
                        .bind(node)
                        .fetch_all(&self.pool)
                        .await?)
                })
            }

            fn abandoned<'a>(
                &'a self,
                cutoff: i64,
                limit: i64,
            ) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
                Box::pin(async move {
                    let sql = format!(
                        "SELECT id FROM games WHERE {ABANDONABLE} AND updated_at < $1 \
                         ORDER BY updated_at LIMIT $2"
                    );
                    let ids: Vec<(String,)> = sqlx::query_as(&sql)
                        .bind(cutoff)
                        .bind(limit)
                        .fetch_all(&self.pool)
                        .await?;
                    Ok(ids.into_iter().map(|(id,)| id).collect())
                })
            }

            fn close(&self) -> BoxFuture<'_, ()> {
                Box::pin(async move { self.pool.close().await })
            }
        }
    };
}

/// The embedded back end: a SQLite file in WAL mode.
pub struct SqliteBackend {
    pool: SqlitePool,
}
sql_backend!(SqliteBackend, sqlx::Sqlite, "BEGIN IMMEDIATE");

/// The PostgreSQL back end, for operators who run several server processes.
pub struct PgBackend {
    pool: PgPool,
}
// `lock_timeout`: a row or table lock held elsewhere fails the unit (503, retry) within seconds
// instead of stalling the writer and every unit queued behind it.
sql_backend!(
    PgBackend,
    sqlx::Postgres,
    "BEGIN; SET LOCAL lock_timeout = '3s'"
);

/// How hard SQLite works to survive a power cut (`PRAGMA synchronous`).
///
/// In WAL mode `Normal` survives a crash of the server process but may lose the last commits on
/// a power cut; `Full` fsyncs the WAL on every commit. Group commit makes `Full` affordable, so
/// it is the default; `JIANG_SQLITE_SYNC=normal` trades power-cut durability for speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// fsync on every commit.
    Full,
    /// fsync at checkpoints only.
    Normal,
}

/// How long a SQLite statement waits for a lock held by another process before failing.
const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(3);

/// Makes the SQLite file at `path` (created empty if missing, so that SQLite never creates it
/// with the umask's mode) and its `-wal` and `-shm` companions readable and writable by the
/// owner only (0600): the file holds Jieqi deals, salts and seat-token hashes. SQLite gives the
/// companions it creates the main file's mode. `:memory:` and the like are left alone.
fn restrict_to_owner(path: &std::path::Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        if path.as_os_str().is_empty() || path.as_os_str().to_string_lossy().starts_with(':') {
            return Ok(());
        }
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(path)?;
        for suffix in ["", "-wal", "-shm"] {
            let mut name = path.as_os_str().to_owned();
            name.push(suffix);
            let file = std::path::Path::new(&name);
            if file.exists() {
                std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600))?;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Opens (creating and migrating) the database named by `url`.
pub async fn connect(url: &str, durability: Durability) -> Result<Arc<dyn Backend>, StoreError> {
    if let Some(path) = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
    {
        let path = path.split('?').next().unwrap_or(path);
        match std::path::Path::new(path).parent() {
            Some(dir) if !dir.as_os_str().is_empty() => std::fs::create_dir_all(dir)?,
            _ => {}
        }
        restrict_to_owner(std::path::Path::new(path))?;
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(match durability {
                Durability::Full => SqliteSynchronous::Full,
                Durability::Normal => SqliteSynchronous::Normal,
            })
            // Only the writer writes, so waiting for the lock means someone else holds it: fail
            // the unit (503, retry) rather than stall every queued write for long.
            .busy_timeout(SQLITE_BUSY_TIMEOUT)
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        restrict_to_owner(std::path::Path::new(path))?;
        Ok(Arc::new(SqliteBackend { pool }))
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        let options = PgConnectOptions::from_str(url)?;
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        Ok(Arc::new(PgBackend { pool }))
    } else {
        Err(StoreError::BadUrl(url.to_owned()))
    }
}

/// A write unit waiting for its commit.
struct Pending {
    unit: Vec<Write>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// How long a known store state (from the last commit or probe) stands before
/// [`Store::health`] probes again.
const HEALTH_MAX_AGE: Duration = Duration::from_secs(1);

/// What the writer last learnt about the database.
#[derive(Default)]
struct HealthState {
    /// When it learnt it (`None`: nothing written yet).
    at: Option<std::time::Instant>,
    /// Why the last commit failed, if it did.
    problem: Option<String>,
}

/// The store's health, shared by the writer (which records every commit's outcome) and
/// [`Store::health`].
#[derive(Default)]
struct Health {
    state: std::sync::Mutex<HealthState>,
    /// Held while a probe runs, so concurrent health checks share one probe.
    probing: tokio::sync::Mutex<()>,
}

impl Health {
    fn record(&self, problem: Option<String>) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.at = Some(std::time::Instant::now());
        state.problem = problem;
    }

    /// The last state if it is recent enough to stand.
    fn fresh(&self) -> Option<Result<(), String>> {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let at = state.at?;
        (at.elapsed() < HEALTH_MAX_AGE).then(|| match &state.problem {
            Some(problem) => Err(problem.clone()),
            None => Ok(()),
        })
    }
}

/// Makes the writer give up: the commit in flight is abandoned (its units answered
/// [`StoreError::Closed`]; whether it landed is unknown, but it is never acknowledged) and every
/// unit queued then or later is refused. The server's shutdown uses it at its deadline.
#[derive(Clone)]
pub struct AbortWrites(Arc<watch::Sender<bool>>);

impl AbortWrites {
    /// Gives up on every unit not yet committed.
    pub fn abort(&self) {
        self.0.send_replace(true);
    }
}

/// Resolves once `abort` is set; never if every [`AbortWrites`] is gone without setting it.
async fn aborted(abort: &mut watch::Receiver<bool>) {
    if abort.wait_for(|a| *a).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// The store the server uses: reads go straight to the back end; writes are group-committed by
/// one writer task.
#[derive(Clone)]
pub struct Store {
    backend: Arc<dyn Backend>,
    queue: mpsc::UnboundedSender<Pending>,
    health: Arc<Health>,
    abort: AbortWrites,
}

/// The most write units committed in one transaction.
const MAX_BATCH: usize = 512;

/// Commits `batch` and answers each unit: all together if that works, otherwise each alone
/// (one unit's constraint failure must not spoil the others), recording every outcome in
/// `health`.
async fn commit_batch(backend: &dyn Backend, health: &Health, batch: &mut Vec<Pending>) {
    let units: Vec<Vec<Write>> = batch
        .iter_mut()
        .map(|p| std::mem::take(&mut p.unit))
        .collect();
    let outcome = backend.commit(&units).await;
    note(health, &outcome);
    match outcome {
        Ok(()) => {
            for p in batch.drain(..) {
                let _ = p.done.send(Ok(()));
            }
        }
        Err(e) if units.len() > 1 && e.is_rejection() => {
            // One unit spoiled the batch: commit each alone so the others land.
            for (p, unit) in batch.drain(..).zip(units) {
                let outcome = backend.commit(std::slice::from_ref(&unit)).await;
                note(health, &outcome);
                let _ = p.done.send(outcome.map_err(StoreError::into_failure));
            }
        }
        Err(e) => {
            tracing::error!(error = %e, units = units.len(), "store write failed");
            // Every unit gets the same cause, shared.
            let (cause, rejected) = match e.into_failure() {
                StoreError::Rejected(cause) => (cause, true),
                StoreError::Unavailable(cause) => (cause, false),
                other => (Arc::new(other), false),
            };
            for p in batch.drain(..) {
                let cause = cause.clone();
                let _ = p.done.send(Err(if rejected {
                    StoreError::Rejected(cause)
                } else {
                    StoreError::Unavailable(cause)
                }));
            }
        }
    }
}

/// Records a commit's outcome: a success or a storage failure says something about the
/// database; a rejected unit does not.
fn note(health: &Health, outcome: &Result<(), StoreError>) {
    match outcome {
        Ok(()) => health.record(None),
        Err(e) if e.is_rejection() => {}
        Err(e) => health.record(Some(e.to_string())),
    }
}

impl Store {
    /// Starts the writer task over `backend`. The task ends when every `Store` clone is dropped
    /// and its queue is drained, or promptly after [`AbortWrites::abort`].
    pub fn new(backend: Arc<dyn Backend>) -> (Store, tokio::task::JoinHandle<()>) {
        let (queue, mut rx) = mpsc::unbounded_channel::<Pending>();
        let (abort_tx, mut abort) = watch::channel(false);
        let health = Arc::new(Health::default());
        let writer_backend = backend.clone();
        let writer_health = health.clone();
        let writer = tokio::spawn(async move {
            let mut batch: Vec<Pending> = Vec::new();
            loop {
                let received = tokio::select! {
                    biased;
                    _ = aborted(&mut abort) => break,
                    n = rx.recv_many(&mut batch, MAX_BATCH) => n,
                };
                if received == 0 {
                    return;
                }
                tokio::select! {
                    biased;
                    _ = aborted(&mut abort) => break,
                    _ = commit_batch(&*writer_backend, &writer_health, &mut batch) => {}
                }
            }
            // Aborted: the units in flight or queued are answered "closed", never acknowledged.
            tracing::error!(
                "store writes abandoned at the shutdown deadline; queued units refused"
            );
            for p in batch.drain(..) {
                let _ = p.done.send(Err(StoreError::Closed));
            }
            while let Some(p) = rx.recv().await {
                let _ = p.done.send(Err(StoreError::Closed));
            }
        });
        let store = Store {
            backend,
            queue,
            health,
            abort: AbortWrites(Arc::new(abort_tx)),
        };
        (store, writer)
    }

    /// Durably applies `unit` (all of it or none), returning once it is committed. An error
    /// means nothing of the unit was stored.
    pub async fn write(&self, unit: Vec<Write>) -> Result<(), StoreError> {
        let (done, wait) = oneshot::channel();
        self.queue
            .send(Pending { unit, done })
            .map_err(|_| StoreError::Closed)?;
        wait.await.unwrap_or(Err(StoreError::Closed))
    }

    /// Whether a write can be committed now: the outcome of the last commit if it is under a
    /// second old, otherwise of a tiny probe write through the same queue. `Err` says why not.
    pub async fn health(&self) -> Result<(), String> {
        if let Some(known) = self.health.fresh() {
            return known;
        }
        let _probing = self.health.probing.lock().await;
        if let Some(known) = self.health.fresh() {
            return known; // Another check probed meanwhile.
        }
        let now_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        self.write(vec![Write::Probe(now_ms)])
            .await
            .map_err(|e| e.to_string())
    }

    /// A handle that makes the writer give up on uncommitted units (for a shutdown deadline);
    /// holding it does not keep the writer alive.
    pub fn abort_handle(&self) -> AbortWrites {
        self.abort.clone()
    }

    /// One game and its moves.
    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.backend.load(id).await
    }

    /// Every game in progress.
    pub async fn load_live(&self) -> Result<Vec<StoredGame>, StoreError> {
        self.backend.load_live().await
    }

    /// The games with a timer to run after a restart (see [`Backend::load_resumable`]).
    pub async fn load_resumable(&self) -> Result<Vec<StoredGame>, StoreError> {
        self.backend.load_resumable().await
    }

    /// Server node `node`'s recorded runs, oldest first (see [`RunRow`]).
    pub async fn runs(&self, node: &str) -> Result<Vec<RunRow>, StoreError> {
        self.backend.runs(node).await
    }

    /// Ids of untimed games in progress unchanged since before `cutoff` (see
    /// [`Backend::abandoned`]).
    pub async fn abandoned(&self, cutoff: i64, limit: i64) -> Result<Vec<String>, StoreError> {
        self.backend.abandoned(cutoff, limit).await
    }

    /// The back end (to close it after the writer has drained).
    pub fn backend(&self) -> Arc<dyn Backend> {
        self.backend.clone()
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;

    #[test]
    fn writer_failures_keep_their_typed_cause() {
        let rejected = StoreError::Database(sqlx::Error::RowNotFound).into_failure();
        let StoreError::Rejected(cause) = &rejected else {
            panic!("a missing row is the unit's fault: {rejected:?}");
        };
        assert!(matches!(
            **cause,
            StoreError::Database(sqlx::Error::RowNotFound)
        ));
        assert!(rejected.source().is_some());

        let io = std::io::Error::other("disk full");
        let unavailable = StoreError::Io(io).into_failure();
        let StoreError::Unavailable(cause) = &unavailable else {
            panic!("an I/O error is the database's: {unavailable:?}");
        };
        assert!(matches!(**cause, StoreError::Io(_)));
        assert_eq!(
            unavailable.to_string(),
            "the database cannot store anything right now: cannot create the database \
             directory: disk full"
        );
        // Already a failure: kept as it is, not wrapped twice.
        let again = StoreError::Unavailable(Arc::new(StoreError::NoCleanConnection)).into_failure();
        assert_eq!(
            again.to_string(),
            "the database cannot store anything right now: no database connection outside a \
             transaction"
        );
    }
}
