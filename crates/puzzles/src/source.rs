//! Where puzzles come from: games, as a start position and the moves played.
//!
//! - [`self_play`]: a game of Jiang's engine against itself (Xiangqi, Shogi, Minishogi),
//!   seeded and deterministic: a few random opening plies, then two engines at levels drawn
//!   from 1–6, so that mistakes (and so puzzles) happen. Such games belong to the project and
//!   may be shipped under its licence.
//! - [`from_records`]: games from records in any format Jiang imports (`jiang_rules::import`).
//!
//! A game from the server's database is one more [`SourceGame`]: the generator takes a list of
//! them whatever their origin.

use jiang_engine::level::Rng;
use jiang_engine::{Decision, Engine, Go, Input};
use jiang_rules::import::{ImportError, import};
use jiang_rules::{AnyGame, Variant};

/// A game to look for puzzles in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceGame {
    /// The game.
    pub variant: Variant,
    /// The start position, FEN (xiangqi family) or SFEN (shogi family).
    pub start: String,
    /// The moves as recorded, in machine notation (ICCS or USI).
    pub moves: Vec<String>,
    /// Where the game comes from (free text, becomes the puzzle's `source`).
    pub name: String,
}

/// Plies after which a self-play game is stopped (puzzles come from the middle game and the
/// attack, not from long endgames).
pub const SELF_PLAY_MAX_PLIES: usize = 220;

/// The weakest and strongest levels drawn for self-play.
pub const SELF_PLAY_LEVELS: (u8, u8) = (1, 4);

/// Why a game cannot be played by self-play.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// Jieqi self-play lives elsewhere (hidden pieces need a deal).
    #[error("self-play for {0} is not available here")]
    Unsupported(Variant),
    /// A record could not be read.
    #[error("record {index}: {error}")]
    Record {
        /// 1-based index of the record in the text.
        index: usize,
        /// Why.
        error: ImportError,
    },
}

/// One self-play game of `variant` (Xiangqi, Shogi or Minishogi) for `seed`: 2–7 random
/// plies, then each side an engine at a level drawn from [`SELF_PLAY_LEVELS`] (the levels'
/// own search caps, at most 20,000 nodes a move), until the game ends or
/// [`SELF_PLAY_MAX_PLIES`]. The same seed always gives the same game.
pub fn self_play(variant: Variant, seed: u64) -> Result<SourceGame, SourceError> {
    if variant == Variant::Jieqi {
        return Err(SourceError::Unsupported(variant));
    }
    let mut rng = Rng::new(seed ^ 0x5eed_9a3e_0000_0000);
    let mut game =
        AnyGame::analysis(variant, None).map_err(|_| SourceError::Unsupported(variant))?;
    let start = game.initial_fen();
    let opening = 2 + (rng.next_u64() % 6) as usize;
    for _ in 0..opening {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let pick = &legal[(rng.next_u64() % legal.len() as u64) as usize];
        if game.play(pick).is_err() {
            break;
        }
    }
    let (low, high) = SELF_PLAY_LEVELS;
    let span = u64::from(high - low + 1);
    let levels = [
        low + (rng.next_u64() % span) as u8,
        low + (rng.next_u64() % span) as u8,
    ];
    let mut engines = [Engine::new(), Engine::new()];
    for (i, engine) in engines.iter_mut().enumerate() {
        engine.set_hash(4);
        engine.set_level(levels[i]);
        engine.set_seed(rng.next_u64());
    }
    let go = Go {
        nodes: Some(20_000),
        ..Go::default()
    };
    while game.outcome().is_none() && game.ply() < SELF_PLAY_MAX_PLIES {
        let mover = game.turn();
        let Ok(input) = Input::for_seat(&game, mover) else {
            break;
        };
        let thought = engines[mover.index()].think(&input, &go, &mut |_| {});
        let played = match thought.decision {
            Decision::Move(text) => game.play_engine_move(&text).is_ok(),
            Decision::DeclareImpasse => game.declare_impasse().is_ok(),
            Decision::Resign => false,
        };
        if !played {
            break;
        }
    }
    Ok(SourceGame {
        variant,
        start,
        moves: game.moves().to_vec(),
        name: format!(
            "self-play, seed {seed}, levels {} and {}",
            levels[0], levels[1]
        ),
    })
}

/// Games from `text`: one record in any format Jiang imports, or several PGN games one after
/// another (each starting with its `[Event` tag). `variant`, when given, is the records'
/// variant (it chooses how a bare FEN/SFEN reads). Records are named by their index.
pub fn from_records(text: &str, variant: Option<Variant>) -> Result<Vec<SourceGame>, SourceError> {
    let chunks = split_pgn(text);
    let mut games = Vec::new();
    for (i, chunk) in chunks.iter().enumerate() {
        let imported = import(chunk.as_bytes(), variant).map_err(|error| SourceError::Record {
            index: i + 1,
            error,
        })?;
        games.push(SourceGame {
            variant: imported.variant(),
            start: imported.start(),
            moves: imported.moves(),
            name: format!("record {}", i + 1),
        });
    }
    Ok(games)
}

/// Splits a text of several PGN games at each `[Event` tag that follows moves; any other text
/// is one record.
fn split_pgn(text: &str) -> Vec<String> {
    let mut chunks: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut has_moves = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("[Event ") && has_moves {
            chunks.push(std::mem::take(&mut current));
            has_moves = false;
        }
        if !trimmed.is_empty() && !trimmed.starts_with('[') {
            has_moves = true;
        }
        current.push_str(line);
        current.push('\n');
    }
    if !current.trim().is_empty() || chunks.is_empty() {
        chunks.push(current);
    }
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn self_play_is_deterministic_and_legal() {
        let a = self_play(Variant::Minishogi, 3).unwrap();
        let b = self_play(Variant::Minishogi, 3).unwrap();
        assert_eq!(a, b);
        assert!(a.moves.len() > 4, "{a:?}");
        let mut game = AnyGame::analysis(a.variant, Some(&a.start)).unwrap();
        for mv in &a.moves {
            game.play(mv).unwrap();
        }
        assert!(matches!(
            self_play(Variant::Jieqi, 1),
            Err(SourceError::Unsupported(_))
        ));
    }

    #[test]
    fn records_are_read_one_or_many() {
        let usi = "position startpos moves 7g7f 3c3d 8h2b+";
        let games = from_records(usi, Some(Variant::Shogi)).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].moves, ["7g7f", "3c3d", "8h2b+"]);
        let pgn = "[Event \"a\"]\n[Variant \"xiangqi\"]\n\n1. h2e2 h9g7 *\n\n[Event \"b\"]\n[Variant \"xiangqi\"]\n\n1. b2e2 *\n";
        let games = from_records(pgn, Some(Variant::Xiangqi)).unwrap();
        assert_eq!(games.len(), 2, "{games:?}");
        assert_eq!(games[1].moves, ["b2e2"]);
        assert!(from_records("nonsense here", None).is_err());
    }
}
