//! A sanity check of the shipped puzzles and their ratings (a measurement, not a test): Jiang's
//! engine at levels 1, 4 and 8 tries each puzzle of a file, and the solve rate per level and
//! the mean rating of the puzzles solved are printed. A sound set is failed by level 1 more
//! often than not and solved by level 8 almost always, and the puzzles the weak levels solve
//! are rated lower.
//!
//! `cargo run -p jiang-puzzles --example solve_rate -- puzzles/xiangqi.jsonl [--every K]
//! [--nodes N]`: every K-th puzzle only (default 1), level 8 searching N nodes a move (default
//! 100,000; the lower levels are capped by their own settings too).

use std::io::BufReader;
use std::process::ExitCode;

use jiang_engine::{Decision, Engine, Go, Input};
use jiang_puzzles::{Puzzle, Verdict, check, read_puzzles};

const LEVELS: [u8; 3] = [1, 4, 8];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let Some(path) = args.first() else {
        eprintln!("usage: solve_rate FILE [--every K] [--nodes N]");
        return ExitCode::FAILURE;
    };
    let every = value("--every").unwrap_or(1).max(1) as usize;
    let nodes = value("--nodes").unwrap_or(100_000);
    let puzzles = match std::fs::File::open(path)
        .map_err(|e| e.to_string())
        .and_then(|f| read_puzzles(BufReader::new(f)).map_err(|e| e.to_string()))
    {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let sample: Vec<&Puzzle> = puzzles.iter().step_by(every).collect();
    let mean = |v: &[f64]| {
        if v.is_empty() {
            0.0
        } else {
            v.iter().sum::<f64>() / v.len() as f64
        }
    };
    let all: Vec<f64> = sample.iter().map(|p| p.rating).collect();
    println!(
        "{path}: {} puzzles tried (every {every}), mean rating {:.0}",
        sample.len(),
        mean(&all)
    );
    for level in LEVELS {
        let mut solved = Vec::new();
        for (i, puzzle) in sample.iter().enumerate() {
            if solves(puzzle, level, nodes, i as u64) {
                solved.push(puzzle.rating);
            }
        }
        println!(
            "level {level}: solved {}/{} ({:.1}%), mean rating of the solved {:.0}, of the failed {:.0}",
            solved.len(),
            sample.len(),
            100.0 * solved.len() as f64 / sample.len().max(1) as f64,
            mean(&solved),
            (all.iter().sum::<f64>() - solved.iter().sum::<f64>())
                / (sample.len() - solved.len()).max(1) as f64
        );
    }
    ExitCode::SUCCESS
}

/// Whether an engine at `level` plays the whole solution (as the trainer judges it).
fn solves(puzzle: &Puzzle, level: u8, nodes: u64, seed: u64) -> bool {
    let mut engine = Engine::new();
    engine.set_level(level);
    engine.set_seed(seed);
    let go = Go {
        nodes: Some(nodes),
        ..Go::default()
    };
    let mut line: Vec<String> = Vec::new();
    loop {
        let moves: Vec<&str> = line.iter().map(String::as_str).collect();
        let Ok(input) = Input::from_text(puzzle.variant, &puzzle.position, &moves) else {
            return false;
        };
        let Decision::Move(mv) = engine.think(&input, &go, &mut |_| {}).decision else {
            return false;
        };
        match check(puzzle, &line, &mv) {
            Ok(Verdict::Solved { .. }) => return true,
            Ok(Verdict::Right { played, reply }) => {
                line.push(played);
                line.push(reply);
            }
            _ => return false,
        }
    }
}
