//! Tournament rows: tournaments, entries, the link of each game to its tournament, Swiss byes
//! ([`TournamentWrite`], applied in the writer's transaction like every other write), and
//! their reads ([`TournamentReads`]). No score is stored: standings are derived from the games
//! (their results read from `games`), so a game's end is a tournament's change in the very
//! transaction that stores it.

use futures_util::future::BoxFuture;

use super::StoreError;

/// One tournament's row.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct TournamentRow {
    /// The tournament's id.
    pub id: String,
    /// `arena` or `swiss`.
    pub kind: String,
    /// The variant's name.
    pub variant: String,
    /// The time control, the API's JSON.
    pub clock: String,
    /// Arena: the duration in minutes.
    pub minutes: Option<i64>,
    /// Swiss: the number of rounds.
    pub rounds: Option<i64>,
    /// When it starts, milliseconds since the Unix epoch.
    pub starts_at: i64,
    /// 1 for rated games.
    pub rated: i64,
    /// The creator's player id.
    pub created_by: String,
    /// `upcoming`, `running` or `finished`.
    pub status: String,
    /// When it was created.
    pub created_at: i64,
    /// When it finished.
    pub finished_at: Option<i64>,
}

/// A player's entry in a tournament.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct EntryRow {
    /// The player.
    pub player_id: String,
    /// When they (last) joined.
    pub joined_at: i64,
    /// 1 once withdrawn.
    pub withdrawn: i64,
    /// The player's name (none if unset or deleted).
    pub name: Option<String>,
}

/// The link of a game to its tournament, as written when the game is created.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentGameLink {
    /// The game.
    pub game_id: String,
    /// The tournament.
    pub tournament_id: String,
    /// Swiss: the round.
    pub round: Option<i64>,
    /// The player in the first seat.
    pub first_player: String,
    /// The player in the second seat.
    pub second_player: String,
    /// The first seat's token (the players fetch it with their key).
    pub token_first: String,
    /// The second seat's token.
    pub token_second: String,
    /// When it was created.
    pub created_at: i64,
}

/// A tournament game with what its game row says now.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct TournamentGameRow {
    /// The game.
    pub game_id: String,
    /// Swiss: the round.
    pub round: Option<i64>,
    /// The player in the first seat.
    pub first_player: String,
    /// The player in the second seat.
    pub second_player: String,
    /// The first seat's token.
    pub token_first: String,
    /// The second seat's token.
    pub token_second: String,
    /// 1 if the first seat berserked.
    pub berserk_first: i64,
    /// 1 if the second seat berserked.
    pub berserk_second: i64,
    /// When it was created.
    pub created_at: i64,
    /// When the pairing loop saw it end.
    pub ended_at: Option<i64>,
    /// The game's status (`waiting`, `playing`, `ended`, `aborted`).
    pub status: String,
    /// The game's stored result (JSON), once over.
    pub result: Option<String>,
    /// The game's last change.
    pub updated_at: i64,
    /// Moves played.
    pub plies: i64,
}

/// A durable change of tournaments (a [`super::Write::Tournament`]).
#[derive(Clone, Debug)]
pub enum TournamentWrite {
    /// A new tournament.
    Create(TournamentRow),
    /// A scheduled occurrence: created unless its id is stored already (another node, or
    /// before a restart, created it).
    CreateScheduled(TournamentRow),
    /// `player` joins `tournament` (again: the withdrawal is undone).
    Join {
        /// The tournament.
        tournament: String,
        /// The player.
        player: String,
        /// When.
        at: i64,
    },
    /// `player` withdraws from `tournament`.
    Withdraw {
        /// The tournament.
        tournament: String,
        /// The player.
        player: String,
    },
    /// The tournament's status changes (`finished_at` set when finished).
    Status {
        /// The tournament.
        tournament: String,
        /// The new status.
        status: String,
        /// When it finished.
        finished_at: Option<i64>,
    },
    /// A game of the tournament (in the unit that creates the game).
    Game(TournamentGameLink),
    /// The pairing loop saw `game` end; `at` is the game's last change then.
    Ended {
        /// The game.
        game: String,
        /// When it ended.
        at: i64,
    },
    /// The player in seat `seat` (0 first, 1 second) of tournament game `game` berserked (in
    /// the unit that stores the game's clock). Nothing for a game of no tournament.
    Berserk {
        /// The game.
        game: String,
        /// The seat's index.
        seat: usize,
    },
    /// A Swiss bye (in the unit that creates the round's games).
    Bye {
        /// The tournament.
        tournament: String,
        /// The round.
        round: i64,
        /// The player.
        player: String,
    },
}

/// A tournament with its entries, games and byes, read together from one snapshot of the
/// database (a Swiss round's games and its bye are never seen apart).
pub type TournamentSnapshot = (
    TournamentRow,
    Vec<EntryRow>,
    Vec<TournamentGameRow>,
    Vec<(i64, String)>,
);

/// The reads of tournaments.
pub trait TournamentReads {
    /// Tournament `id` with its entries, its games (oldest first, with their game rows' status
    /// and result) and its byes, from one consistent snapshot.
    fn tournament_snapshot<'a>(
        &'a self,
        id: &'a str,
    ) -> BoxFuture<'a, Result<Option<TournamentSnapshot>, StoreError>>;
    /// At most `limit` tournaments of `status`, ordered by start (`newest_first` or oldest).
    fn tournaments_with<'a>(
        &'a self,
        status: &'a str,
        newest_first: bool,
        limit: i64,
    ) -> BoxFuture<'a, Result<Vec<TournamentRow>, StoreError>>;
    /// Everyone who joined `tournament`, in joining order.
    fn entries<'a>(
        &'a self,
        tournament: &'a str,
    ) -> BoxFuture<'a, Result<Vec<EntryRow>, StoreError>>;
    /// How many tournaments `player` created that are not finished.
    fn open_tournaments_by<'a>(&'a self, player: &'a str)
    -> BoxFuture<'a, Result<i64, StoreError>>;
}

pub(super) const SELECT_TOURNAMENT: &str = "SELECT id, kind, variant, clock, minutes, rounds, \
     starts_at, rated, created_by, status, created_at, finished_at FROM tournaments";
pub(super) const INSERT_TOURNAMENT: &str = "INSERT INTO tournaments (id, kind, variant, clock, \
     minutes, rounds, starts_at, rated, created_by, status, created_at, finished_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)";
pub(super) const INSERT_SCHEDULED: &str = "INSERT INTO tournaments (id, kind, variant, clock, \
     minutes, rounds, starts_at, rated, created_by, status, created_at, finished_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (id) DO NOTHING";
pub(super) const JOIN_TOURNAMENT: &str = "INSERT INTO tournament_entries (tournament_id, \
     player_id, joined_at, withdrawn) VALUES ($1, $2, $3, 0) \
     ON CONFLICT (tournament_id, player_id) DO UPDATE SET withdrawn = 0, \
     joined_at = excluded.joined_at";
pub(super) const WITHDRAW: &str = "UPDATE tournament_entries SET withdrawn = 1 \
     WHERE tournament_id = $1 AND player_id = $2";
pub(super) const SET_STATUS: &str =
    "UPDATE tournaments SET status = $2, finished_at = $3 WHERE id = $1";
pub(super) const INSERT_TOURNAMENT_GAME: &str = "INSERT INTO tournament_games (game_id, \
     tournament_id, round, first_player, second_player, token_first, token_second, \
     berserk_first, berserk_second, created_at, ended_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, 0, 0, $8, NULL)";
pub(super) const GAME_ENDED: &str =
    "UPDATE tournament_games SET ended_at = $2 WHERE game_id = $1 AND ended_at IS NULL";
pub(super) const BERSERK_FIRST: &str =
    "UPDATE tournament_games SET berserk_first = 1 WHERE game_id = $1";
pub(super) const BERSERK_SECOND: &str =
    "UPDATE tournament_games SET berserk_second = 1 WHERE game_id = $1";
pub(super) const INSERT_BYE: &str =
    "INSERT INTO tournament_byes (tournament_id, round, player_id) VALUES ($1, $2, $3)";
pub(super) const SELECT_ENTRIES: &str = "SELECT e.player_id, e.joined_at, e.withdrawn, \
     p.name FROM tournament_entries e LEFT JOIN players p ON p.id = e.player_id \
     AND p.deleted_at IS NULL WHERE e.tournament_id = $1 ORDER BY e.joined_at, e.player_id";
pub(super) const COUNT_OPEN_BY: &str = "SELECT COUNT(*) FROM tournaments \
     WHERE created_by = $1 AND status <> 'finished'";
pub(super) const SELECT_TOURNAMENT_GAMES: &str = "SELECT tg.game_id, tg.round, \
     tg.first_player, tg.second_player, tg.token_first, tg.token_second, tg.berserk_first, \
     tg.berserk_second, tg.created_at, tg.ended_at, g.status, g.result, g.updated_at, \
     (SELECT COUNT(*) FROM moves m WHERE m.game_id = tg.game_id) AS plies \
     FROM tournament_games tg JOIN games g ON g.id = tg.game_id \
     WHERE tg.tournament_id = $1 ORDER BY tg.created_at, tg.game_id";
pub(super) const SELECT_BYES: &str = "SELECT round, player_id FROM tournament_byes \
     WHERE tournament_id = $1 ORDER BY round";

/// Implements the tournament writes and [`TournamentReads`] for a back end of `sql.rs` (the
/// same SQL for both drivers).
macro_rules! tournament_backend {
    ($name:ident, $db:ty, $snapshot:expr) => {
        impl $name {
            /// Runs a tournament write in the writer's transaction `tx`.
            pub(crate) async fn apply_tournament(
                tx: &mut sqlx::Transaction<'_, $db>,
                write: &TournamentWrite,
            ) -> Result<(), StoreError> {
                match write {
                    TournamentWrite::Create(t) | TournamentWrite::CreateScheduled(t) => {
                        let sql = if matches!(write, TournamentWrite::Create(_)) {
                            INSERT_TOURNAMENT
                        } else {
                            INSERT_SCHEDULED
                        };
                        execute!(
                            tx,
                            sql,
                            &t.id,
                            &t.kind,
                            &t.variant,
                            &t.clock,
                            t.minutes,
                            t.rounds,
                            t.starts_at,
                            t.rated,
                            &t.created_by,
                            &t.status,
                            t.created_at,
                            t.finished_at
                        );
                    }
                    TournamentWrite::Join {
                        tournament,
                        player,
                        at,
                    } => {
                        execute!(tx, JOIN_TOURNAMENT, tournament, player, at);
                    }
                    TournamentWrite::Withdraw { tournament, player } => {
                        execute!(tx, WITHDRAW, tournament, player);
                    }
                    TournamentWrite::Status {
                        tournament,
                        status,
                        finished_at,
                    } => {
                        execute!(tx, SET_STATUS, tournament, status, finished_at);
                    }
                    TournamentWrite::Game(g) => {
                        execute!(
                            tx,
                            INSERT_TOURNAMENT_GAME,
                            &g.game_id,
                            &g.tournament_id,
                            g.round,
                            &g.first_player,
                            &g.second_player,
                            &g.token_first,
                            &g.token_second,
                            g.created_at
                        );
                    }
                    TournamentWrite::Ended { game, at } => {
                        execute!(tx, GAME_ENDED, game, at);
                    }
                    TournamentWrite::Berserk { game, seat } => {
                        let sql = if *seat == 0 {
                            BERSERK_FIRST
                        } else {
                            BERSERK_SECOND
                        };
                        execute!(tx, sql, game);
                    }
                    TournamentWrite::Bye {
                        tournament,
                        round,
                        player,
                    } => {
                        execute!(tx, INSERT_BYE, tournament, round, player);
                    }
                }
                Ok(())
            }
        }

        impl TournamentReads for $name {
            fn tournament_snapshot<'a>(
                &'a self,
                id: &'a str,
            ) -> BoxFuture<'a, Result<Option<TournamentSnapshot>, StoreError>> {
                Box::pin(async move {
                    let mut conn = self.pool.acquire().await?;
                    let mut tx = conn.begin_with($snapshot).await?;
                    let row = sqlx::query_as::<_, TournamentRow>(&format!(
                        "{SELECT_TOURNAMENT} WHERE id = $1"
                    ))
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await?;
                    let Some(row) = row else {
                        tx.commit().await?;
                        return Ok(None);
                    };
                    let entries = sqlx::query_as::<_, EntryRow>(SELECT_ENTRIES)
                        .bind(id)
                        .fetch_all(&mut *tx)
                        .await?;
                    let games = sqlx::query_as::<_, TournamentGameRow>(SELECT_TOURNAMENT_GAMES)
                        .bind(id)
                        .fetch_all(&mut *tx)
                        .await?;
                    let byes = sqlx::query_as::<_, (i64, String)>(SELECT_BYES)
                        .bind(id)
                        .fetch_all(&mut *tx)
                        .await?;
                    tx.commit().await?;
                    Ok(Some((row, entries, games, byes)))
                })
            }

            fn tournaments_with<'a>(
                &'a self,
                status: &'a str,
                newest_first: bool,
                limit: i64,
            ) -> BoxFuture<'a, Result<Vec<TournamentRow>, StoreError>> {
                let order = if newest_first { "DESC" } else { "ASC" };
                let sql = format!(
                    "{SELECT_TOURNAMENT} WHERE status = $1 ORDER BY starts_at {order}, id \
                     LIMIT $2"
                );
                Box::pin(async move {
                    Ok(sqlx::query_as::<_, TournamentRow>(&sql)
                        .bind(status)
                        .bind(limit)
                        .fetch_all(&self.pool)
                        .await?)
                })
            }

            fn entries<'a>(
                &'a self,
                tournament: &'a str,
            ) -> BoxFuture<'a, Result<Vec<EntryRow>, StoreError>> {
                fetch!(&self.pool, fetch_all, EntryRow, SELECT_ENTRIES, tournament)
            }

            fn open_tournaments_by<'a>(
                &'a self,
                player: &'a str,
            ) -> BoxFuture<'a, Result<i64, StoreError>> {
                Box::pin(async move {
                    let (n,): (i64,) = sqlx::query_as(COUNT_OPEN_BY)
                        .bind(player)
                        .fetch_one(&self.pool)
                        .await?;
                    Ok(n)
                })
            }
        }
    };
}

pub(super) use tournament_backend;
