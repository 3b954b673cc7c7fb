//! Composes shogi tsume and writes them as a puzzle file (one JSON object a line).
//!
//! Usage: `cargo run -p jiang-puzzles --example tsume_generate -- <count> <seed> <out>`
//! (the shipped file: `… -- 450 1 puzzles/shogi-tsume.jsonl`). The same count and seed give
//! the same file on any machine: the composer and the prover count nodes, not time.

use std::time::Instant;

use jiang_puzzles::{tsume, write_puzzles};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [count, seed, out] = args.as_slice() else {
        eprintln!("usage: tsume_generate <count> <seed> <out.jsonl>");
        std::process::exit(2);
    };
    let (Ok(count), Ok(seed)) = (count.parse::<usize>(), seed.parse::<u64>()) else {
        eprintln!("count and seed must be non-negative integers");
        std::process::exit(2);
    };
    let started = Instant::now();
    let puzzles = tsume::generate(count, seed);
    let seconds = started.elapsed().as_secs_f64();
    let file = match std::fs::File::create(out) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{out}: {e}");
            std::process::exit(1);
        }
    };
    if let Err(e) = write_puzzles(std::io::BufWriter::new(file), &puzzles) {
        eprintln!("{out}: {e}");
        std::process::exit(1);
    }
    let mut by_plies = std::collections::BTreeMap::new();
    for p in &puzzles {
        *by_plies.entry(p.solution.len()).or_insert(0) += 1;
    }
    eprintln!(
        "{} tsume in {seconds:.1} s ({:.2} s each); by plies: {by_plies:?}",
        puzzles.len(),
        seconds / puzzles.len().max(1) as f64
    );
}
