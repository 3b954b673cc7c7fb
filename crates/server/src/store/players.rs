//! Players' rows: the players, their ratings, rating history and seats ([`PlayerWrite`], applied
//! in the writer's transaction like every other write), and the reads of the player pages and
//! the leaderboard ([`PlayerReads`]). A rated game's ratings change in the very transaction
//! that stores its end ([`PlayerWrite::RateGame`]): read, computed with [`crate::rating`] and
//! written there, never cached on a node.

use futures_util::future::BoxFuture;

use super::StoreError;

/// One player's row.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct PlayerRow {
    /// The public id (base62).
    pub id: String,
    /// SHA-256 (hex) of the key; `None` once deleted.
    pub key_hash: Option<String>,
    /// The name as the player wrote it.
    pub name: Option<String>,
    /// The name after NFKC and case folding (unique).
    pub name_key: Option<String>,
    /// Creation time, milliseconds since the Unix epoch.
    pub created_at: i64,
    /// When the player was deleted.
    pub deleted_at: Option<i64>,
}

/// One rating (player, variant, speed).
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct RatingRow {
    /// The player.
    pub player_id: String,
    /// The variant's name.
    pub variant: String,
    /// `realtime` or `correspondence`.
    pub speed: String,
    /// Glicko-2 rating.
    pub rating: f64,
    /// Rating deviation.
    pub deviation: f64,
    /// Volatility.
    pub volatility: f64,
    /// Rated games played.
    pub games: i64,
    /// Last change, milliseconds since the Unix epoch.
    pub updated_at: i64,
}

/// A rating after one rated game.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct HistoryRow {
    /// The game.
    pub game_id: String,
    /// The variant's name.
    pub variant: String,
    /// `realtime` or `correspondence`.
    pub speed: String,
    /// The rating after the game.
    pub rating: f64,
    /// The change the game made.
    pub change: f64,
    /// When, milliseconds since the Unix epoch.
    pub at_ms: i64,
}

/// One game of a player, with the game's facts and the opponent.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct PlayerGameRow {
    /// The game.
    pub game_id: String,
    /// The player's side index.
    pub side: i64,
    /// 1 if rated.
    pub rated: i64,
    /// The variant's name.
    pub variant: String,
    /// The game's status.
    pub status: String,
    /// The game's stored result (JSON), once over.
    pub result: Option<String>,
    /// The game's creation time.
    pub created_at: i64,
    /// The opponent's id, if a player not deleted.
    pub opponent_id: Option<String>,
    /// The opponent's name.
    pub opponent_name: Option<String>,
    /// The rating change of a rated game.
    pub rating_change: Option<f64>,
    /// A game in progress: the side (index) to move.
    pub to_move: Option<i64>,
    /// A correspondence game in progress: its deadline (ms since the Unix epoch).
    pub deadline_at: Option<i64>,
}

/// Which leaderboard to read: a variant at a speed, players whose deviation is at most
/// `max_deviation` (the non-provisional ones), the best `limit`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardQuery<'a> {
    /// The variant's name.
    pub variant: &'a str,
    /// `realtime` or `correspondence`.
    pub speed: &'a str,
    /// The largest deviation listed.
    pub max_deviation: f64,
    /// The most rows.
    pub limit: i64,
}

/// One row of the leaderboard.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct BoardRow {
    /// The player.
    pub id: String,
    /// The name.
    pub name: Option<String>,
    /// The rating.
    pub rating: f64,
    /// The deviation.
    pub deviation: f64,
    /// Rated games played.
    pub games: i64,
}

/// A durable change of players (a [`super::Write::Player`]).
#[derive(Clone, Debug)]
pub enum PlayerWrite {
    /// A new player (fails if the key hash or name is taken).
    Create(PlayerRow),
    /// Sets a player's name (fails if taken, or if the player is deleted or missing).
    Rename {
        /// The player.
        id: String,
        /// The name as written.
        name: String,
        /// Its uniqueness key.
        name_key: String,
    },
    /// Replaces the key hash `old` by `new` (fails unless `old` is the current one).
    RotateKey {
        /// The player.
        id: String,
        /// The current key's hash.
        old: String,
        /// The new key's hash.
        new: String,
    },
    /// Deletes a player: key and name cleared, ratings dropped, games and history kept.
    Delete {
        /// The player.
        id: String,
        /// When, milliseconds since the Unix epoch.
        at: i64,
    },
    /// Player `player_id` holds seat `side` of game `game_id`.
    Seat {
        /// The game.
        game_id: String,
        /// The side index.
        side: i64,
        /// The player.
        player_id: String,
        /// Whether the game is rated.
        rated: bool,
        /// When, milliseconds since the Unix epoch.
        at: i64,
    },
    /// Rates the end of game `game_id` between `players` (by side index): both ratings read,
    /// updated by one Glicko-2 period each and written back, with a history row each (which
    /// also makes a second rating of the same game fail).
    RateGame {
        /// The game.
        game_id: String,
        /// The variant's name.
        variant: String,
        /// `realtime` or `correspondence`.
        speed: String,
        /// The players by side index.
        players: [String; 2],
        /// The first side's score: 1, 0.5 or 0.
        first_score: f64,
        /// When, milliseconds since the Unix epoch.
        at: i64,
    },
}

/// The reads of players, ratings and their games.
pub trait PlayerReads {
    /// The live (not deleted) player whose key hashes to `key_hash`.
    fn player_by_key<'a>(
        &'a self,
        key_hash: &'a str,
    ) -> BoxFuture<'a, Result<Option<PlayerRow>, StoreError>>;
    /// The player with id `id`, or else the live player whose name key is `name_key`.
    fn find_player<'a>(
        &'a self,
        id: &'a str,
        name_key: &'a str,
    ) -> BoxFuture<'a, Result<Option<PlayerRow>, StoreError>>;
    /// The ratings of these players in `variant` and `speed` (players without one are left out).
    fn ratings_of<'a>(
        &'a self,
        players: &'a [String],
        variant: &'a str,
        speed: &'a str,
    ) -> BoxFuture<'a, Result<Vec<RatingRow>, StoreError>>;
    /// Every rating of a player.
    fn player_ratings<'a>(
        &'a self,
        player: &'a str,
    ) -> BoxFuture<'a, Result<Vec<RatingRow>, StoreError>>;
    /// A player's rating history, oldest first (at most `limit` rows, the latest ones).
    fn rating_history<'a>(
        &'a self,
        player: &'a str,
        limit: i64,
    ) -> BoxFuture<'a, Result<Vec<HistoryRow>, StoreError>>;
    /// A player's latest games, newest first.
    fn player_games<'a>(
        &'a self,
        player: &'a str,
        limit: i64,
    ) -> BoxFuture<'a, Result<Vec<PlayerGameRow>, StoreError>>;
    /// The players (id by side index) seated in game `game_id`.
    fn game_players<'a>(
        &'a self,
        game_id: &'a str,
    ) -> BoxFuture<'a, Result<Vec<(i64, String)>, StoreError>>;
    /// The leaderboard `query` asks for: live players, best first.
    fn leaderboard<'a>(
        &'a self,
        query: BoardQuery<'a>,
    ) -> BoxFuture<'a, Result<Vec<BoardRow>, StoreError>>;
}

pub(super) const INSERT_PLAYER: &str = "INSERT INTO players (id, key_hash, name, name_key, \
     created_at, deleted_at) VALUES ($1, $2, $3, $4, $5, $6)";
pub(super) const RENAME_PLAYER: &str = "UPDATE players SET name = $2, name_key = $3 \
     WHERE id = $1 AND deleted_at IS NULL";
pub(super) const ROTATE_KEY: &str =
    "UPDATE players SET key_hash = $3 WHERE id = $1 AND key_hash = $2 AND deleted_at IS NULL";
pub(super) const DELETE_PLAYER: &str = "UPDATE players SET key_hash = NULL, name = NULL, \
     name_key = NULL, deleted_at = $2 WHERE id = $1 AND deleted_at IS NULL";
pub(super) const DELETE_RATINGS: &str = "DELETE FROM ratings WHERE player_id = $1";
/// A deleted player's ratings, written by a rated game that ended after the deletion: gone
/// again, as the deletion promised (the opponent is rated as usual).
pub(super) const DELETE_RATINGS_OF_DELETED: &str = "DELETE FROM ratings WHERE player_id = $1 \
     AND EXISTS (SELECT 1 FROM players WHERE id = $1 AND deleted_at IS NOT NULL)";
pub(super) const INSERT_SEAT: &str = "INSERT INTO player_games (game_id, side, player_id, \
     rated, created_at) VALUES ($1, $2, $3, $4, $5)";
/// A new rating row, if the player has none yet in that variant and speed.
pub(super) const ENSURE_RATING: &str = "INSERT INTO ratings (player_id, variant, speed, rating, \
     deviation, volatility, games, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 0, $7) \
     ON CONFLICT (player_id, variant, speed) DO NOTHING";
/// Takes the rating row's lock (PostgreSQL) before it is read: two games ending at once on
/// two nodes cannot both read the same rating. Rows are locked in id order (no deadlock).
pub(super) const LOCK_RATING: &str = "UPDATE ratings SET games = games \
     WHERE player_id = $1 AND variant = $2 AND speed = $3";
/// The columns of a [`RatingRow`], read from `ratings`.
macro_rules! select_rating {
    () => {
        "SELECT player_id, variant, speed, rating, deviation, volatility, games, updated_at \
         FROM ratings"
    };
}
pub(super) const SELECT_RATING: &str = select_rating!();
/// One rating: `$1` the player, `$2` the variant, `$3` the speed.
pub(super) const RATING_OF: &str = concat!(
    select_rating!(),
    " WHERE player_id = $1 AND variant = $2 AND speed = $3"
);
pub(super) const UPDATE_RATING: &str = "UPDATE ratings SET rating = $4, deviation = $5, \
     volatility = $6, games = games + 1, updated_at = $7 \
     WHERE player_id = $1 AND variant = $2 AND speed = $3";
pub(super) const INSERT_HISTORY: &str = "INSERT INTO rating_history (player_id, game_id, \
     variant, speed, rating, deviation, change, at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
pub(super) const SELECT_PLAYER: &str =
    "SELECT id, key_hash, name, name_key, created_at, deleted_at FROM players";
pub(super) const SELECT_HISTORY: &str = "SELECT game_id, variant, speed, rating, change, at_ms \
     FROM (SELECT * FROM rating_history WHERE player_id = $1 ORDER BY at_ms DESC LIMIT $2) h \
     ORDER BY at_ms";
/// The player's games in progress where it is their turn first, then newest first.
pub(super) const SELECT_PLAYER_GAMES: &str = "SELECT pg.game_id, pg.side, pg.rated, g.variant, \
     g.status, g.result, g.created_at, p.id AS opponent_id, p.name AS opponent_name, \
     h.change AS rating_change, g.to_move, g.deadline_at \
     FROM player_games pg JOIN games g ON g.id = pg.game_id \
     LEFT JOIN player_games o ON o.game_id = pg.game_id AND o.side <> pg.side \
     LEFT JOIN players p ON p.id = o.player_id AND p.deleted_at IS NULL \
     LEFT JOIN rating_history h ON h.game_id = pg.game_id AND h.player_id = pg.player_id \
     WHERE pg.player_id = $1 ORDER BY CASE WHEN g.status = 'playing' AND g.to_move = pg.side \
     THEN 0 ELSE 1 END, g.created_at DESC, pg.game_id LIMIT $2";
pub(super) const SELECT_GAME_PLAYERS: &str =
    "SELECT side, player_id FROM player_games WHERE game_id = $1 ORDER BY side";
pub(super) const SELECT_BOARD: &str = "SELECT p.id, p.name, r.rating, r.deviation, r.games \
     FROM ratings r JOIN players p ON p.id = r.player_id WHERE r.variant = $1 \
     AND r.speed = $2 AND r.deviation <= $3 AND p.deleted_at IS NULL \
     ORDER BY r.rating DESC, p.id LIMIT $4";

/// A boxed read: `sql` with `binds`, its rows as `row`, fetched with `how` (`fetch_all`,
/// `fetch_optional`) from `pool`.
macro_rules! fetch {
    ($pool:expr, $how:ident, $row:ty, $sql:expr $(, $bind:expr)* $(,)?) => {
        Box::pin(async move {
            Ok(sqlx::query_as::<_, $row>($sql)$(.bind($bind))*.$how($pool).await?)
        })
    };
}

/// Runs `sql` with `binds` in transaction `tx`: the number of rows it changed.
macro_rules! execute {
    ($tx:expr, $sql:expr $(, $bind:expr)* $(,)?) => {
        sqlx::query($sql)
            $(.bind($bind))*
            .execute(&mut **$tx)
            .await?
            .rows_affected()
    };
}

/// Implements the player writes and [`PlayerReads`] for a back end of `sql.rs` (the same SQL
/// for both drivers).
macro_rules! player_backend {
    ($name:ident, $db:ty) => {
        impl $name {
            /// `query` with a rating's key (player, variant, speed) as `$1` to `$3`, the rating
            /// as `$4` to `$6` and the time `at` as `$7` ([`ENSURE_RATING`], [`UPDATE_RATING`]).
            fn bind_rating<'q>(
                query: sqlx::query::Query<'q, $db, <$db as sqlx::Database>::Arguments<'q>>,
                (player, variant, speed): (&'q String, &'q String, &'q String),
                rating: $crate::rating::Rating,
                at: i64,
            ) -> sqlx::query::Query<'q, $db, <$db as sqlx::Database>::Arguments<'q>> {
                query
                    .bind(player)
                    .bind(variant)
                    .bind(speed)
                    .bind(rating.rating)
                    .bind(rating.deviation)
                    .bind(rating.volatility)
                    .bind(at)
            }

            /// Runs a player write in the writer's transaction `tx`.
            pub(crate) async fn apply_player(
                tx: &mut sqlx::Transaction<'_, $db>,
                write: &PlayerWrite,
            ) -> Result<(), StoreError> {
                let must_change = |done: u64| {
                    if done == 1 {
                        Ok(())
                    } else {
                        Err(StoreError::Database(sqlx::Error::RowNotFound))
                    }
                };
                match write {
                    PlayerWrite::Create(p) => {
                        execute!(
                            tx,
                            INSERT_PLAYER,
                            &p.id,
                            &p.key_hash,
                            &p.name,
                            &p.name_key,
                            p.created_at,
                            p.deleted_at
                        );
                    }
                    PlayerWrite::Rename { id, name, name_key } => {
                        must_change(execute!(tx, RENAME_PLAYER, id, name, name_key))?;
                    }
                    PlayerWrite::RotateKey { id, old, new } => {
                        must_change(execute!(tx, ROTATE_KEY, id, old, new))?;
                    }
                    PlayerWrite::Delete { id, at } => {
                        must_change(execute!(tx, DELETE_PLAYER, id, at))?;
                        execute!(tx, DELETE_RATINGS, id);
                    }
                    PlayerWrite::Seat {
                        game_id,
                        side,
                        player_id,
                        rated,
                        at,
                    } => {
                        let rated = i64::from(*rated);
                        execute!(tx, INSERT_SEAT, game_id, side, player_id, rated, at);
                    }
                    PlayerWrite::RateGame {
                        game_id,
                        variant,
                        speed,
                        players,
                        first_score,
                        at,
                    } => {
                        let start = $crate::rating::Rating::default();
                        let mut order = [0, 1];
                        order.sort_by_key(|&i| &players[i]);
                        for &i in &order {
                            let key = (&players[i], variant, speed);
                            Self::bind_rating(sqlx::query(ENSURE_RATING), key, start, *at)
                                .execute(&mut **tx)
                                .await?;
                            execute!(tx, LOCK_RATING, &players[i], variant, speed);
                        }
                        let mut before = [start; 2];
                        for i in 0..2 {
                            let row = sqlx::query_as::<_, RatingRow>(RATING_OF)
                                .bind(&players[i])
                                .bind(variant)
                                .bind(speed)
                                .fetch_one(&mut **tx)
                                .await?;
                            before[i] = $crate::rating::Rating {
                                rating: row.rating,
                                deviation: row.deviation,
                                volatility: row.volatility,
                            };
                        }
                        let (a, b) = $crate::rating::rate_game(before[0], before[1], *first_score);
                        for (i, after) in [a, b].into_iter().enumerate() {
                            let key = (&players[i], variant, speed);
                            Self::bind_rating(sqlx::query(UPDATE_RATING), key, after, *at)
                                .execute(&mut **tx)
                                .await?;
                            let change = after.rating - before[i].rating;
                            let (rating, deviation) = (after.rating, after.deviation);
                            let player = &players[i];
                            execute!(
                                tx,
                                INSERT_HISTORY,
                                player,
                                game_id,
                                variant,
                                speed,
                                rating,
                                deviation,
                                change,
                                at
                            );
                            execute!(tx, DELETE_RATINGS_OF_DELETED, player);
                        }
                    }
                }
                Ok(())
            }
        }

        impl PlayerReads for $name {
            fn player_by_key<'a>(
                &'a self,
                key_hash: &'a str,
            ) -> BoxFuture<'a, Result<Option<PlayerRow>, StoreError>> {
                fetch!(
                    &self.pool,
                    fetch_optional,
                    PlayerRow,
                    &format!("{SELECT_PLAYER} WHERE key_hash = $1 AND deleted_at IS NULL"),
                    key_hash
                )
            }

            fn find_player<'a>(
                &'a self,
                id: &'a str,
                name_key: &'a str,
            ) -> BoxFuture<'a, Result<Option<PlayerRow>, StoreError>> {
                fetch!(
                    &self.pool,
                    fetch_optional,
                    PlayerRow,
                    &format!(
                        "{SELECT_PLAYER} WHERE id = $1 OR (name_key = $2 AND deleted_at IS NULL) \
                     ORDER BY CASE WHEN id = $1 THEN 0 ELSE 1 END LIMIT 1"
                    ),
                    id,
                    name_key
                )
            }

            fn ratings_of<'a>(
                &'a self,
                players: &'a [String],
                variant: &'a str,
                speed: &'a str,
            ) -> BoxFuture<'a, Result<Vec<RatingRow>, StoreError>> {
                Box::pin(async move {
                    let mut rows = Vec::new();
                    for player in players {
                        let found: Result<Option<RatingRow>, StoreError> = fetch!(
                            &self.pool,
                            fetch_optional,
                            RatingRow,
                            RATING_OF,
                            player,
                            variant,
                            speed
                        )
                        .await;
                        rows.extend(found?);
                    }
                    Ok(rows)
                })
            }

            fn player_ratings<'a>(
                &'a self,
                player: &'a str,
            ) -> BoxFuture<'a, Result<Vec<RatingRow>, StoreError>> {
                fetch!(
                    &self.pool,
                    fetch_all,
                    RatingRow,
                    &format!("{SELECT_RATING} WHERE player_id = $1 ORDER BY variant, speed"),
                    player
                )
            }

            fn rating_history<'a>(
                &'a self,
                player: &'a str,
                limit: i64,
            ) -> BoxFuture<'a, Result<Vec<HistoryRow>, StoreError>> {
                fetch!(
                    &self.pool,
                    fetch_all,
                    HistoryRow,
                    SELECT_HISTORY,
                    player,
                    limit
                )
            }

            fn player_games<'a>(
                &'a self,
                player: &'a str,
                limit: i64,
            ) -> BoxFuture<'a, Result<Vec<PlayerGameRow>, StoreError>> {
                fetch!(
                    &self.pool,
                    fetch_all,
                    PlayerGameRow,
                    SELECT_PLAYER_GAMES,
                    player,
                    limit
                )
            }

            fn game_players<'a>(
                &'a self,
                game_id: &'a str,
            ) -> BoxFuture<'a, Result<Vec<(i64, String)>, StoreError>> {
                fetch!(
                    &self.pool,
                    fetch_all,
                    (i64, String),
                    SELECT_GAME_PLAYERS,
                    game_id
                )
            }

            fn leaderboard<'a>(
                &'a self,
                query: BoardQuery<'a>,
            ) -> BoxFuture<'a, Result<Vec<BoardRow>, StoreError>> {
                fetch!(
                    &self.pool,
                    fetch_all,
                    BoardRow,
                    SELECT_BOARD,
                    query.variant,
                    query.speed,
                    query.max_deviation,
                    query.limit
                )
            }
        }
    };
}

pub(super) use {execute, fetch, player_backend};
