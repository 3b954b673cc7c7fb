//! Generates Jieqi puzzles from the engine's self-play:
//! `cargo run -p jiang-puzzles --example jieqi_generate -- <games> <seed> <out.jsonl>`.
//!
//! Plays games with seeds `seed`, `seed + 1`, … and writes the proven puzzles, without
//! duplicates and sorted by id, to `out` after every game (so a long run can be watched and
//! stopped); the final file is exactly `jiang_puzzles::jieqi::generate(games, seed)`.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

use jiang_puzzles::jieqi::{find, self_play};
use jiang_puzzles::{Puzzle, write_puzzles};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [games, seed, out] = args.as_slice() else {
        return Err("usage: jieqi_generate <games> <seed> <out.jsonl>".into());
    };
    let games: u64 = games.parse()?;
    let seed: u64 = seed.parse()?;
    let started = Instant::now();
    let mut by_id: BTreeMap<String, Puzzle> = BTreeMap::new();
    let mut positions = BTreeSet::new();
    for i in 0..games {
        let game = self_play(seed.wrapping_add(i));
        for p in find(&game) {
            if !by_id.contains_key(&p.id) && positions.insert(p.position.clone()) {
                by_id.insert(p.id.clone(), p);
            }
        }
        let puzzles: Vec<Puzzle> = by_id.values().cloned().collect();
        let tmp = format!("{out}.tmp");
        write_puzzles(std::fs::File::create(&tmp)?, &puzzles)?;
        std::fs::rename(&tmp, out)?;
        eprintln!(
            "game {} of {games} ({} plies): {} puzzles, {:.0} s",
            i + 1,
            game.moves.len(),
            puzzles.len(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
