//! Re-proves every puzzle of a file with `standard::verify` and prints the time taken:
//! `cargo run -p jiang-puzzles --example verify_file -- puzzles/shogi.jsonl`.
use std::io::BufReader;
use std::time::Instant;

use jiang_puzzles::{read_puzzles, standard};

fn main() {
    for path in std::env::args().skip(1) {
        let file = std::fs::File::open(&path).expect("a readable file");
        let puzzles = read_puzzles(BufReader::new(file)).expect("a puzzle file");
        let started = Instant::now();
        let mut slowest = (0.0, String::new());
        let mut failed = 0;
        for p in &puzzles {
            let t = Instant::now();
            if let Err(e) = standard::verify(p) {
                failed += 1;
                eprintln!("{}: {e}", p.id);
            }
            let s = t.elapsed().as_secs_f64();
            if s > slowest.0 {
                slowest = (s, p.id.clone());
            }
        }
        println!(
            "{path}: {} puzzles, {failed} failed, {:.1} s, slowest {} {:.2} s",
            puzzles.len(),
            started.elapsed().as_secs_f64(),
            slowest.1,
            slowest.0
        );
    }
}
