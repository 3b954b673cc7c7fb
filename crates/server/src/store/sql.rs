//! The SQL both back ends share, and their [`Backend`] implementations: one text of every
//! statement, two drivers (SQLite, PostgreSQL).

use std::sync::Arc;

use futures_util::future::BoxFuture;
use sqlx::pool::PoolConnection;
use sqlx::postgres::PgPool;
use sqlx::sqlite::SqlitePool;
use sqlx::{Connection, Database};

// The player rows' SQL, their reads and `player_backend!`, which writes them for both drivers.
use super::players::*;
// The puzzle rows' SQL, their reads and `puzzle_backend!`.
use super::puzzles::*;
// The tournament rows' SQL, their reads and `tournament_backend!`.
use super::tournaments::*;
use super::{Backend, GameRow, LogRow, MoveRow, RunRow, StoreError, StoredGame, Write};

/// `$1` to `$10` are the columns of [`UPDATE_GAME`], in its order (one binder serves both).
const UPSERT_GAME: &str = "INSERT INTO games (id, status, token_first, token_second, result, \
     clock, meta, updated_at, deadline_at, to_move, variant, setup, created_at, opponent) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) \
     ON CONFLICT (id) DO UPDATE SET status = excluded.status, \
     token_first = excluded.token_first, token_second = excluded.token_second, \
     result = excluded.result, clock = excluded.clock, meta = excluded.meta, \
     updated_at = excluded.updated_at, deadline_at = excluded.deadline_at, \
     to_move = excluded.to_move";
const UPDATE_GAME: &str = "UPDATE games SET status = $2, token_first = $3, token_second = $4, \
     result = $5, clock = $6, meta = $7, updated_at = $8, deadline_at = $9, to_move = $10 \
     WHERE id = $1";
const INSERT_MOVE: &str =
    "INSERT INTO moves (game_id, ply, mv, clock, at_ms) VALUES ($1, $2, $3, $4, $5)";
const UPSERT_PROBE: &str = "INSERT INTO store_probe (id, at_ms) VALUES (1, $1) \
     ON CONFLICT (id) DO UPDATE SET at_ms = excluded.at_ms";
const SELECT_GAME: &str = "SELECT id, variant, setup, status, token_first, token_second, \
     result, clock, meta, created_at, updated_at, opponent, deadline_at, to_move FROM games";
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
/// The statement a [`Write::PairingFence`] runs (it must find its row).
const PAIRING_FENCE: &str = "UPDATE tournament_leases SET owner = owner WHERE name = 'pairing' \
     AND owner = $1 AND epoch = $2";
const DELETE_MOVES: &str = "DELETE FROM moves WHERE game_id = $1 AND ply > $2";
const INSERT_LOG: &str = "INSERT INTO game_log (game_id, seq, kind, channel, side, body, at_ms) \
     VALUES ($1, $2, $3, $4, $5, $6, $7)";
const SELECT_LOG: &str = "SELECT game_id, seq, kind, channel, side, body, at_ms FROM game_log \
     WHERE game_id = $1 ORDER BY seq";
/// Timed games have a clock snapshot; a game without a second move is in its first-move
/// countdown; a game against the computer may be waiting for its move. Correspondence games
/// (a stored deadline) are not: the deadline sweep wakes them when their time is up (except
/// against the computer, which may be to move).
pub(crate) const RESUMABLE: &str = "status = 'playing' AND (clock IS NOT NULL OR opponent IS NOT NULL \
     OR NOT EXISTS (SELECT 1 FROM moves WHERE moves.game_id = games.id AND moves.ply = 2)) \
     AND (deadline_at IS NULL OR opponent IS NOT NULL)";
/// Correspondence games in progress whose deadline has passed by `$1`, earliest first.
const DUE: &str = "SELECT id FROM games WHERE deadline_at IS NOT NULL AND deadline_at <= $1 \
     AND status = 'playing' ORDER BY deadline_at LIMIT $2";
/// The earliest deadline of a correspondence game in progress.
const NEXT_DEADLINE: &str =
    "SELECT MIN(deadline_at) FROM games WHERE deadline_at IS NOT NULL AND status = 'playing'";
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
                    Write::Player(write) => Self::apply_player(tx, write).await?,
                    Write::Puzzle(write) => Self::apply_puzzle(tx, write).await?,
                    Write::Tournament(write) => Self::apply_tournament(tx, write).await?,
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
                    Write::PairingFence { owner, epoch } => {
                        let done = sqlx::query(PAIRING_FENCE)
                            .bind(owner)
                            .bind(epoch)
                            .execute(&mut **tx)
                            .await?;
                        if done.rows_affected() != 1 {
                            return Err(StoreError::Fenced);
                        }
                    }
                }
                Ok(())
            }

            /// `query` with `g`'s id and the columns a save changes bound as `$1` to `$10`
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
                    .bind(g.deadline_at)
                    .bind(g.to_move)
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

            fn due<'a>(
                &'a self,
                now: i64,
                limit: i64,
            ) -> BoxFuture<'a, Result<Vec<String>, StoreError>> {
                Box::pin(async move {
                    let ids: Vec<(String,)> = sqlx::query_as(DUE)
                        .bind(now)
                        .bind(limit)
                        .fetch_all(&self.pool)
                        .await?;
                    Ok(ids.into_iter().map(|(id,)| id).collect())
                })
            }

            fn next_deadline(&self) -> BoxFuture<'_, Result<Option<i64>, StoreError>> {
                Box::pin(async move {
                    let (at,): (Option<i64>,) =
                        sqlx::query_as(NEXT_DEADLINE).fetch_one(&self.pool).await?;
                    Ok(at)
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
    pub(super) pool: SqlitePool,
}
sql_backend!(SqliteBackend, sqlx::Sqlite, "BEGIN IMMEDIATE");
player_backend!(SqliteBackend, sqlx::Sqlite);
puzzle_backend!(SqliteBackend, sqlx::Sqlite);
// A deferred transaction reads one snapshot (WAL).
tournament_backend!(SqliteBackend, sqlx::Sqlite, "BEGIN");

/// The PostgreSQL back end, for operators who run several server processes.
pub struct PgBackend {
    pub(super) pool: PgPool,
}
// `lock_timeout`: a row or table lock held elsewhere fails the unit (503, retry) within seconds
// instead of stalling the writer and every unit queued behind it.
sql_backend!(
    PgBackend,
    sqlx::Postgres,
    "BEGIN; SET LOCAL lock_timeout = '3s'"
);
player_backend!(PgBackend, sqlx::Postgres);
puzzle_backend!(PgBackend, sqlx::Postgres);
tournament_backend!(
    PgBackend,
    sqlx::Postgres,
    "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"
);
