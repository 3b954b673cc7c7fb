//! Puzzle rows: the puzzles with their ratings, players' puzzle ratings and attempts, the daily
//! puzzles, and the importer's progress ([`PuzzleWrite`], applied in the writer's transaction
//! like every other write), and their reads ([`PuzzleReads`]). An attempt's end rates the
//! player and the puzzle in the very transaction that records it, once per player and puzzle
//! ([`PuzzleWrite::Conclude`]).

use futures_util::future::BoxFuture;

use super::StoreError;

/// One puzzle's row.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct PuzzleRow {
    /// The puzzle's id.
    pub id: String,
    /// The variant's name.
    pub variant: String,
    /// The position (FEN or SFEN).
    pub position: String,
    /// The solution, a JSON array of moves.
    pub solution: String,
    /// The theme names, space-separated with a space at each end.
    pub themes: String,
    /// The proof, JSON as in the puzzle file.
    pub proof: String,
    /// Where it comes from.
    pub source: String,
    /// Glicko-2 rating.
    pub rating: f64,
    /// Rating deviation.
    pub deviation: f64,
    /// Volatility.
    pub volatility: f64,
    /// Rated attempts.
    pub plays: i64,
    /// When it was added, milliseconds since the Unix epoch.
    pub added_at: i64,
}

/// A player's puzzle rating in one variant.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct PuzzleRatingRow {
    /// The player.
    pub player_id: String,
    /// The variant's name.
    pub variant: String,
    /// Glicko-2 rating.
    pub rating: f64,
    /// Rating deviation.
    pub deviation: f64,
    /// Volatility.
    pub volatility: f64,
    /// Rated attempts.
    pub attempts: i64,
    /// Last change, milliseconds since the Unix epoch.
    pub updated_at: i64,
}

/// A player's attempt at a puzzle.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct AttemptRow {
    /// 1 once a hint was asked.
    pub hinted: i64,
    /// The score once the attempt ended (1, 0.5, 0).
    pub score: Option<f64>,
    /// The rating change the end made.
    pub change: Option<f64>,
}

/// Which puzzle to pick: a random one of `variant` (with `theme`, if given) rated within
/// `low..=high`, not yet attempted by `player` (if given), other than `skip`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzlePick<'a> {
    /// The variant's name.
    pub variant: &'a str,
    /// A theme name, or `None` for any.
    pub theme: Option<&'a str>,
    /// The lowest rating.
    pub low: f64,
    /// The highest rating.
    pub high: f64,
    /// A player whose attempted puzzles are left out.
    pub player: Option<&'a str>,
    /// A puzzle left out (the one just played).
    pub skip: Option<&'a str>,
}

/// A durable change of puzzles (a [`super::Write::Puzzle`]).
#[derive(Clone, Debug)]
pub enum PuzzleWrite {
    /// New puzzles; those whose id is already stored are left as they are (their ratings kept).
    Add(Vec<PuzzleRow>),
    /// `player` asked a hint in the attempt at `puzzle` (before the attempt ended).
    Hint {
        /// The player.
        player: String,
        /// The puzzle.
        puzzle: String,
        /// When, milliseconds since the Unix epoch.
        at: i64,
    },
    /// The attempt of `player` at `puzzle` ended with `score` (1 solved, 0 failed): unless an
    /// earlier attempt ended already, the player's puzzle rating and the puzzle's are rated
    /// against each other (a hinted solve counts half) and the attempt keeps the change.
    Conclude {
        /// The player.
        player: String,
        /// The puzzle.
        puzzle: String,
        /// The puzzle's variant.
        variant: String,
        /// 1 or 0.
        score: f64,
        /// When, milliseconds since the Unix epoch.
        at: i64,
    },
    /// The daily puzzle of `variant` on `day` (`YYYY-MM-DD`), unless one is already chosen.
    Daily {
        /// The variant's name.
        variant: String,
        /// The UTC day.
        day: String,
        /// The puzzle.
        puzzle: String,
    },
    /// The importer has searched finished games that ended up to `until`.
    Scanned {
        /// The scan's name.
        name: String,
        /// Milliseconds since the Unix epoch.
        until: i64,
    },
}

/// The reads of puzzles and puzzle ratings.
pub trait PuzzleReads {
    /// The puzzle `id`.
    fn puzzle<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Option<PuzzleRow>, StoreError>>;
    /// A random puzzle as `pick` asks.
    fn pick_puzzle<'a>(
        &'a self,
        pick: PuzzlePick<'a>,
    ) -> BoxFuture<'a, Result<Option<PuzzleRow>, StoreError>>;
    /// The daily puzzle's id of `variant` on `day`, once chosen.
    fn daily_puzzle<'a>(
        &'a self,
        variant: &'a str,
        day: &'a str,
    ) -> BoxFuture<'a, Result<Option<String>, StoreError>>;
    /// A player's puzzle rating in `variant`.
    fn puzzle_rating<'a>(
        &'a self,
        player: &'a str,
        variant: &'a str,
    ) -> BoxFuture<'a, Result<Option<PuzzleRatingRow>, StoreError>>;
    /// Every puzzle rating of a player.
    fn puzzle_ratings<'a>(
        &'a self,
        player: &'a str,
    ) -> BoxFuture<'a, Result<Vec<PuzzleRatingRow>, StoreError>>;
    /// A player's attempt at a puzzle.
    fn attempt<'a>(
        &'a self,
        player: &'a str,
        puzzle: &'a str,
    ) -> BoxFuture<'a, Result<Option<AttemptRow>, StoreError>>;
    /// How many puzzles each variant has, by variant name.
    fn puzzle_counts(&self) -> BoxFuture<'_, Result<Vec<(String, i64)>, StoreError>>;
    /// Finished games (status `ended`) last changed after `after` (ms), oldest change first,
    /// at most `limit`: (id, last change).
    fn finished_games(
        &self,
        after: i64,
        limit: i64,
    ) -> BoxFuture<'_, Result<Vec<(String, i64)>, StoreError>>;
    /// Where the importer's scan `name` stands (`None`: never run).
    fn scanned_until<'a>(&'a self, name: &'a str)
    -> BoxFuture<'a, Result<Option<i64>, StoreError>>;
}

pub(super) const INSERT_PUZZLE: &str = "INSERT INTO puzzles (id, variant, position, solution, \
     themes, proof, source, rating, deviation, volatility, plays, added_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT (id) DO NOTHING";
pub(super) const SELECT_PUZZLE: &str = "SELECT id, variant, position, solution, themes, proof, \
     source, rating, deviation, volatility, plays, added_at FROM puzzles";
/// `$1` variant, `$2` a `LIKE` pattern for the theme (`''`: any), `$3`..`$4` the rating range,
/// `$5` a player whose attempts are left out (`''`: none), `$6` a puzzle left out (`''`).
pub(super) const PICK_PUZZLE: &str = "SELECT id, variant, position, solution, themes, proof, \
     source, rating, deviation, volatility, plays, added_at FROM puzzles \
     WHERE variant = $1 AND ($2 = '' OR themes LIKE $2) AND rating >= $3 AND rating <= $4 \
     AND ($5 = '' OR NOT EXISTS (SELECT 1 FROM puzzle_attempts a \
     WHERE a.player_id = $5 AND a.puzzle_id = puzzles.id)) AND id <> $6 \
     ORDER BY random() LIMIT 1";
pub(super) const HINT: &str = "INSERT INTO puzzle_attempts (player_id, puzzle_id, hinted, \
     score, change, at_ms) VALUES ($1, $2, 1, NULL, NULL, $3) \
     ON CONFLICT (player_id, puzzle_id) DO UPDATE SET hinted = 1 \
     WHERE puzzle_attempts.score IS NULL";
pub(super) const ENSURE_ATTEMPT: &str = "INSERT INTO puzzle_attempts (player_id, puzzle_id, \
     hinted, score, change, at_ms) VALUES ($1, $2, 0, NULL, NULL, $3) \
     ON CONFLICT (player_id, puzzle_id) DO NOTHING";
pub(super) const SELECT_ATTEMPT: &str = "SELECT hinted, score, change FROM puzzle_attempts \
     WHERE player_id = $1 AND puzzle_id = $2";
pub(super) const END_ATTEMPT: &str = "UPDATE puzzle_attempts SET score = $3, change = $4, \
     at_ms = $5 WHERE player_id = $1 AND puzzle_id = $2 AND score IS NULL";
pub(super) const ENSURE_PUZZLE_RATING: &str = "INSERT INTO puzzle_ratings (player_id, variant, \
     rating, deviation, volatility, attempts, updated_at) VALUES ($1, $2, $3, $4, $5, 0, $6) \
     ON CONFLICT (player_id, variant) DO NOTHING";
/// Takes the puzzle's row lock (PostgreSQL) before its rating is read; the player's rating
/// row is locked after it, always in that order.
pub(super) const LOCK_PUZZLE: &str = "UPDATE puzzles SET plays = plays WHERE id = $1";
pub(super) const LOCK_PUZZLE_RATING: &str =
    "UPDATE puzzle_ratings SET attempts = attempts WHERE player_id = $1 AND variant = $2";
pub(super) const SELECT_PUZZLE_RATING: &str = "SELECT player_id, variant, rating, deviation, \
     volatility, attempts, updated_at FROM puzzle_ratings";
pub(super) const UPDATE_PUZZLE_RATING: &str = "UPDATE puzzle_ratings SET rating = $3, \
     deviation = $4, volatility = $5, attempts = attempts + 1, updated_at = $6 \
     WHERE player_id = $1 AND variant = $2";
pub(super) const RATE_PUZZLE: &str = "UPDATE puzzles SET rating = $2, deviation = $3, \
     volatility = $4, plays = plays + 1 WHERE id = $1";
pub(super) const INSERT_DAILY: &str = "INSERT INTO puzzle_daily (variant, day, puzzle_id) \
     VALUES ($1, $2, $3) ON CONFLICT (variant, day) DO NOTHING";
pub(super) const UPSERT_SCAN: &str = "INSERT INTO puzzle_scans (name, scanned_until) \
     VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET scanned_until = excluded.scanned_until";

/// Implements the puzzle writes and [`PuzzleReads`] for a back end of `sql.rs` (the same SQL
/// for both drivers).
macro_rules! puzzle_backend {
    ($name:ident, $db:ty) => {
        impl $name {
            /// Runs a puzzle write in the writer's transaction `tx`.
            pub(crate) async fn apply_puzzle(
                tx: &mut sqlx::Transaction<'_, $db>,
                write: &PuzzleWrite,
            ) -> Result<(), StoreError> {
                use $crate::rating::Rating;
                match write {
                    PuzzleWrite::Add(rows) => {
                        for p in rows {
                            execute!(
                                tx,
                                INSERT_PUZZLE,
                                &p.id,
                                &p.variant,
                                &p.position,
                                &p.solution,
                                &p.themes,
                                &p.proof,
                                &p.source,
                                p.rating,
                                p.deviation,
                                p.volatility,
                                p.plays,
                                p.added_at
                            );
                        }
                    }
                    PuzzleWrite::Hint { player, puzzle, at } => {
                        execute!(tx, HINT, player, puzzle, at);
                    }
                    PuzzleWrite::Conclude {
                        player,
                        puzzle,
                        variant,
                        score,
                        at,
                    } => {
                        execute!(tx, ENSURE_ATTEMPT, player, puzzle, at);
                        let attempt = sqlx::query_as::<_, AttemptRow>(SELECT_ATTEMPT)
                            .bind(player)
                            .bind(puzzle)
                            .fetch_one(&mut **tx)
                            .await?;
                        if attempt.score.is_some() {
                            // Only a player's first attempt at a puzzle is rated.
                            return Ok(());
                        }
                        let start = Rating::default();
                        execute!(
                            tx,
                            ENSURE_PUZZLE_RATING,
                            player,
                            variant,
                            start.rating,
                            start.deviation,
                            start.volatility,
                            at
                        );
                        execute!(tx, LOCK_PUZZLE, puzzle);
                        execute!(tx, LOCK_PUZZLE_RATING, player, variant);
                        let row = sqlx::query_as::<_, PuzzleRow>(&format!(
                            "{SELECT_PUZZLE} WHERE id = $1"
                        ))
                        .bind(puzzle)
                        .fetch_one(&mut **tx)
                        .await?;
                        let mine = sqlx::query_as::<_, PuzzleRatingRow>(&format!(
                            "{SELECT_PUZZLE_RATING} WHERE player_id = $1 AND variant = $2"
                        ))
                        .bind(player)
                        .bind(variant)
                        .fetch_one(&mut **tx)
                        .await?;
                        let before = Rating {
                            rating: mine.rating,
                            deviation: mine.deviation,
                            volatility: mine.volatility,
                        };
                        let theirs = Rating {
                            rating: row.rating,
                            deviation: row.deviation,
                            volatility: row.volatility,
                        };
                        let score = if attempt.hinted != 0 {
                            score.min(0.5)
                        } else {
                            *score
                        };
                        let (after, rated) = $crate::rating::rate_game(before, theirs, score);
                        let change = after.rating - before.rating;
                        execute!(
                            tx,
                            UPDATE_PUZZLE_RATING,
                            player,
                            variant,
                            after.rating,
                            after.deviation,
                            after.volatility,
                            at
                        );
                        execute!(
                            tx,
                            RATE_PUZZLE,
                            puzzle,
                            rated.rating,
                            rated.deviation,
                            rated.volatility
                        );
                        execute!(tx, END_ATTEMPT, player, puzzle, score, change, at);
                    }
                    PuzzleWrite::Daily {
                        variant,
                        day,
                        puzzle,
                    } => {
                        execute!(tx, INSERT_DAILY, variant, day, puzzle);
                    }
                    PuzzleWrite::Scanned { name, until } => {
                        execute!(tx, UPSERT_SCAN, name, until);
                    }
                }
                Ok(())
            }
        }

        impl PuzzleReads for $name {
            fn puzzle<'a>(
                &'a self,
                id: &'a str,
            ) -> BoxFuture<'a, Result<Option<PuzzleRow>, StoreError>> {
                fetch!(
                    &self.pool,
                    fetch_optional,
                    PuzzleRow,
                    &format!("{SELECT_PUZZLE} WHERE id = $1"),
                    id
                )
            }

            fn pick_puzzle<'a>(
                &'a self,
                pick: PuzzlePick<'a>,
            ) -> BoxFuture<'a, Result<Option<PuzzleRow>, StoreError>> {
                let theme = pick.theme.map_or(String::new(), |t| format!("% {t} %"));
                fetch!(
                    &self.pool,
                    fetch_optional,
                    PuzzleRow,
                    PICK_PUZZLE,
                    pick.variant,
                    theme,
                    pick.low,
                    pick.high,
                    pick.player.unwrap_or(""),
                    pick.skip.unwrap_or("")
                )
            }

            fn daily_puzzle<'a>(
                &'a self,
                variant: &'a str,
                day: &'a str,
            ) -> BoxFuture<'a, Result<Option<String>, StoreError>> {
                Box::pin(async move {
                    let row: Option<(String,)> = sqlx::query_as(
                        "SELECT puzzle_id FROM puzzle_daily WHERE variant = $1 AND day = $2",
                    )
                    .bind(variant)
                    .bind(day)
                    .fetch_optional(&self.pool)
                    .await?;
                    Ok(row.map(|(id,)| id))
                })
            }

            fn puzzle_rating<'a>(
                &'a self,
                player: &'a str,
                variant: &'a str,
            ) -> BoxFuture<'a, Result<Option<PuzzleRatingRow>, StoreError>> {
                fetch!(
                    &self.pool,
                    fetch_optional,
                    PuzzleRatingRow,
                    &format!("{SELECT_PUZZLE_RATING} WHERE player_id = $1 AND variant = $2"),
                    player,
                    variant
                )
            }

            fn puzzle_ratings<'a>(
                &'a self,
                player: &'a str,
            ) -> BoxFuture<'a, Result<Vec<PuzzleRatingRow>, StoreError>> {
                fetch!(
                    &self.pool,
                    fetch_all,
                    PuzzleRatingRow,
                    &format!("{SELECT_PUZZLE_RATING} WHERE player_id = $1 ORDER BY variant"),
                    player
                )
            }

            fn attempt<'a>(
                &'a self,
                player: &'a str,
                puzzle: &'a str,
            ) -> BoxFuture<'a, Result<Option<AttemptRow>, StoreError>> {
                fetch!(
                    &self.pool,
                    fetch_optional,
                    AttemptRow,
                    SELECT_ATTEMPT,
                    player,
                    puzzle
                )
            }

            fn puzzle_counts(&self) -> BoxFuture<'_, Result<Vec<(String, i64)>, StoreError>> {
                fetch!(
                    &self.pool,
                    fetch_all,
                    (String, i64),
                    "SELECT variant, COUNT(*) FROM puzzles GROUP BY variant ORDER BY variant"
                )
            }

            fn finished_games(
                &self,
                after: i64,
                limit: i64,
            ) -> BoxFuture<'_, Result<Vec<(String, i64)>, StoreError>> {
                fetch!(
                    &self.pool,
                    fetch_all,
                    (String, i64),
                    "SELECT id, updated_at FROM games WHERE status = 'ended' \
                     AND updated_at > $1 ORDER BY updated_at, id LIMIT $2",
                    after,
                    limit
                )
            }

            fn scanned_until<'a>(
                &'a self,
                name: &'a str,
            ) -> BoxFuture<'a, Result<Option<i64>, StoreError>> {
                Box::pin(async move {
                    let row: Option<(i64,)> =
                        sqlx::query_as("SELECT scanned_until FROM puzzle_scans WHERE name = $1")
                            .bind(name)
                            .fetch_optional(&self.pool)
                            .await?;
                    Ok(row.map(|(at,)| at))
                })
            }
        }
    };
}

pub(super) use puzzle_backend;
