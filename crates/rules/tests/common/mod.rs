//! Helpers shared by the shogi notation tests.
#![allow(dead_code)] // each test crate uses a different subset

use jiang_rules::shogi::{Move, Position};

/// Plays a random game from `start`, `plies` long at most, seeded by `seed`: each position
/// and the move played in it.
pub fn random_game(start: &Position, seed: u64, plies: usize) -> Vec<(Position, Move)> {
    let mut state = seed | 1;
    let mut p = start.clone();
    let mut out = Vec::new();
    for _ in 0..plies {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let m = moves[(state % moves.len() as u64) as usize];
        out.push((p.clone(), m));
        p.play(m);
    }
    out
}
