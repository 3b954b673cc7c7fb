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
//!
//! Rooms: `sql` (the SQL both back ends share and their [`Backend`] implementations),
//! `connect` (opening and migrating a database), `writer` (the group-commit [`Store`]),
//! `players` (players, ratings and seats: their rows, writes and reads), `puzzles` (puzzles,
//! puzzle ratings and attempts), `tournaments` (tournaments, entries, their games' links, byes).
//!
//! May use: nothing of the server but its own rows and `rating` (the pure Glicko-2 with which
//! a rated game's end, or a puzzle attempt's, is rated inside its transaction): every other
//! room writes through it.

mod connect;
mod players;
mod puzzles;
mod sql;
mod tournaments;
mod writer;

pub use connect::{Durability, connect};
pub use players::{
    BoardQuery, BoardRow, HistoryRow, PlayerGameRow, PlayerReads, PlayerRow, PlayerWrite, RatingRow,
};
pub use puzzles::{AttemptRow, PuzzlePick, PuzzleRatingRow, PuzzleReads, PuzzleRow, PuzzleWrite};
pub(crate) use sql::RESUMABLE;
pub use sql::{PgBackend, SqliteBackend};
pub use tournaments::{
    EntryRow, TournamentGameLink, TournamentGameRow, TournamentReads, TournamentRow,
    TournamentSnapshot, TournamentWrite,
};
pub use writer::{AbortWrites, Store};

/// Milliseconds since the Unix epoch: the stored timestamps' unit.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

use std::sync::Arc;

use futures_util::future::BoxFuture;

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
    /// A correspondence game in progress: when its side to move loses on time (or, before
    /// both first moves, when it is aborted), ms since the Unix epoch; `None` otherwise.
    pub deadline_at: Option<i64>,
    /// A game in progress: the side (index) to move; `None` otherwise.
    pub to_move: Option<i64>,
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
    /// A change of players, ratings or seats (see [`PlayerWrite`]).
    Player(PlayerWrite),
    /// A change of puzzles, puzzle ratings or attempts (see [`PuzzleWrite`]).
    Puzzle(PuzzleWrite),
    /// A change of tournaments, entries, tournament games or byes (see [`TournamentWrite`]).
    Tournament(TournamentWrite),
    /// Cluster mode: the unit commits only if `owner` still holds the tournaments' pairing
    /// lease with `epoch` (else the whole unit fails with [`StoreError::Fenced`]).
    PairingFence {
        /// This node's id.
        owner: String,
        /// The epoch the loop took the lease with.
        epoch: i64,
    },
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
pub trait Backend: PlayerReads + PuzzleReads + TournamentReads + Send + Sync + 'static {
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
    /// The ids of correspondence games `playing` whose deadline (`deadline_at`) is at or
    /// before `now` (ms since the Unix epoch), at most `limit` of them, earliest first.
    fn due<'a>(&'a self, now: i64, limit: i64) -> BoxFuture<'a, Result<Vec<String>, StoreError>>;
    /// The earliest deadline of a correspondence game `playing`, if any.
    fn next_deadline(&self) -> BoxFuture<'_, Result<Option<i64>, StoreError>>;
    /// Closes the connections.
    fn close(&self) -> BoxFuture<'_, ()>;
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
