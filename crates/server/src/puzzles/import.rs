//! Puzzles into the store: the shipped sets and the operator's files, loaded at start (a puzzle
//! already stored keeps its rating and plays), and the puzzles of the server's own finished
//! games, searched on a schedule ([`spawn`]). In a cluster every node may run the schedule: the
//! scan's progress is the store's, and a puzzle found twice is stored once (by its id).

use std::path::PathBuf;
use std::time::Duration;

use jiang_puzzles::{FormatError, Puzzle, SourceGame, read_puzzles};
use jiang_rules::{Setup, Variant};
use tokio::sync::watch;

use super::{PuzzleSettings, row_of};
use crate::store::{Backend, PuzzleWrite, Store, StoreError, Write, now_ms};

/// Why puzzles could not be loaded at start.
#[derive(Debug, thiserror::Error)]
pub enum PuzzleLoadError {
    /// A puzzle file could not be read or has a bad line.
    #[error("puzzle file {path}: {source}")]
    File {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        source: FormatError,
    },
    /// A puzzle does not replay: its position or solution is not legal.
    #[error("puzzle file {path}: puzzle {id}: {reason}")]
    Puzzle {
        /// The file.
        path: PathBuf,
        /// The puzzle.
        id: String,
        /// What was wrong.
        reason: String,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// How many puzzles one write adds.
const BATCH: usize = 1000;

/// Checks that a puzzle's position opens and its whole solution plays.
fn replays(puzzle: &Puzzle) -> Result<(), String> {
    let mut game = jiang_puzzles::check::start(puzzle).map_err(|e| e.to_string())?;
    if puzzle.solution.is_empty() {
        return Err("the solution is empty".into());
    }
    for (i, mv) in puzzle.solution.iter().enumerate() {
        game.play(mv)
            .map_err(|e| format!("move {} `{mv}`: {e}", i + 1))?;
    }
    Ok(())
}

/// Adds `puzzles` to the store (those already there are left alone).
pub async fn add(store: &Store, puzzles: &[Puzzle]) -> Result<(), StoreError> {
    let at = now_ms();
    for batch in puzzles.chunks(BATCH) {
        let rows = batch.iter().map(|p| row_of(p, at)).collect();
        store
            .write(vec![Write::Puzzle(PuzzleWrite::Add(rows))])
            .await?;
    }
    Ok(())
}

/// Loads the shipped sets (unless switched off) and the operator's files: how many puzzles
/// were offered to the store.
pub async fn load_at_start(
    store: &Store,
    settings: &PuzzleSettings,
) -> Result<usize, PuzzleLoadError> {
    let mut puzzles = Vec::new();
    if settings.shipped {
        puzzles.extend(
            jiang_puzzles::shipped::all().map_err(|source| PuzzleLoadError::File {
                path: "(shipped)".into(),
                source,
            })?,
        );
    }
    for path in &settings.files {
        let file = std::fs::File::open(path).map_err(|e| PuzzleLoadError::File {
            path: path.clone(),
            source: e.into(),
        })?;
        let read = read_puzzles(std::io::BufReader::new(file)).map_err(|source| {
            PuzzleLoadError::File {
                path: path.clone(),
                source,
            }
        })?;
        for puzzle in &read {
            replays(puzzle).map_err(|reason| PuzzleLoadError::Puzzle {
                path: path.clone(),
                id: puzzle.id.clone(),
                reason,
            })?;
        }
        puzzles.extend(read);
    }
    add(store, &puzzles).await?;
    Ok(puzzles.len())
}

/// The importer's scan in `puzzle_scans`: the finished games searched so far.
const SCAN: &str = "finished-games";
/// The most finished games one run searches (the next run goes on from there).
const GAMES_PER_RUN: i64 = 200;
/// Games shorter than this (plies) hold no puzzle worth the search.
const MIN_PLIES: usize = 12;

/// Finished games of the store changed after `after`, oldest first, as puzzle sources, with
/// the time the scan reached: at most `limit` games (a run that stops among games changed at
/// the same millisecond stops before them, so that the next run takes them all).
pub async fn finished_games(
    backend: &dyn Backend,
    after: i64,
    limit: i64,
) -> Result<(Vec<SourceGame>, Option<i64>), StoreError> {
    let mut rows = backend.finished_games(after, limit).await?;
    if rows.len() as i64 == limit {
        let last = rows.last().map(|r| r.1);
        if rows.first().map(|r| r.1) != last {
            rows.retain(|r| Some(r.1) != last);
        }
    }
    let reached = rows.last().map(|r| r.1);
    let mut games = Vec::new();
    for (id, _) in rows {
        let Some(stored) = backend.load(&id).await? else {
            continue;
        };
        if stored.moves.len() < MIN_PLIES {
            continue;
        }
        let Ok(variant) = stored.row.variant.parse::<Variant>() else {
            continue;
        };
        let Ok(setup) = serde_json::from_str::<Setup>(&stored.row.setup) else {
            continue;
        };
        games.push(SourceGame {
            variant,
            // Jieqi: the public start; the moves carry the reveals everyone saw.
            start: setup.initial_fen,
            moves: stored.moves.into_iter().map(|m| m.text).collect(),
            name: format!("game {id}"),
        });
    }
    Ok((games, reached))
}

/// What one run of the importer did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImportRun {
    /// Finished games searched.
    pub games: usize,
    /// Puzzles found (those already stored are left as they were).
    pub puzzles: usize,
}

/// Searches the finished games not yet searched (at most [`GAMES_PER_RUN`]) for puzzles on a
/// thread of its own at the lowest priority, stores them and moves the scan on.
pub async fn import_once(store: &Store) -> Result<ImportRun, StoreError> {
    let backend = store.backend();
    let after = backend.scanned_until(SCAN).await?.unwrap_or(0);
    let (games, reached) = finished_games(&*backend, after, GAMES_PER_RUN).await?;
    let Some(reached) = reached else {
        return Ok(ImportRun::default());
    };
    let (tx, rx) = tokio::sync::oneshot::channel();
    let searched = games.len();
    std::thread::Builder::new()
        .name("puzzle-import".into())
        .spawn(move || {
            crate::engine_pool::lower_priority();
            let found: Vec<Puzzle> = games.iter().flat_map(jiang_puzzles::find).collect();
            let _ = tx.send(jiang_puzzles::generate::finish(found));
        })
        .map_err(StoreError::Io)?;
    let puzzles = rx.await.map_err(|_| StoreError::Closed)?;
    add(store, &puzzles).await?;
    store
        .write(vec![Write::Puzzle(PuzzleWrite::Scanned {
            name: SCAN.to_owned(),
            until: reached,
        })])
        .await?;
    Ok(ImportRun {
        games: searched,
        puzzles: puzzles.len(),
    })
}

/// Runs [`import_once`] every `every` (the first time after a minute at most) until shutdown.
pub fn spawn(store: Store, every: Duration, mut shutdown: watch::Receiver<bool>) {
    tokio::spawn(async move {
        let mut wait = every.min(Duration::from_secs(60));
        loop {
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = shutdown.changed() => return,
            }
            if *shutdown.borrow() {
                return;
            }
            match import_once(&store).await {
                Ok(run) if run.games > 0 => {
                    tracing::info!(
                        games = run.games,
                        puzzles = run.puzzles,
                        "puzzles imported from finished games"
                    );
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "puzzle import failed"),
            }
            wait = every;
        }
    });
}
