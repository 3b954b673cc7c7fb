//! Puzzles into the store: the shipped sets and the operator's files, loaded at start (a puzzle
//! already stored keeps its rating and plays).

use std::path::PathBuf;

use jiang_puzzles::{FormatError, Puzzle, read_puzzles};

use super::{PuzzleSettings, row_of};
use crate::store::{PuzzleWrite, Store, StoreError, Write, now_ms};

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
