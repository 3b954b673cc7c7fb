//! The generator without the `jiang` binary (same arguments, same output as
//! `jiang puzzles generate`): `cargo run -p jiang-puzzles --example generate -- --variant
//! minishogi --games 3000 --seed 1 --jobs 2 --out puzzles/minishogi.jsonl`. Writes the set
//! after every batch of 100 games, so an interrupted run leaves the set of the games done.

use std::process::ExitCode;

use jiang_puzzles::generate::{self, Settings};
use jiang_rules::Variant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let Some(variant) = value("--variant").and_then(|v| v.parse::<Variant>().ok()) else {
        eprintln!("--variant xiangqi|shogi|minishogi is needed");
        return ExitCode::FAILURE;
    };
    let games: usize = value("--games").and_then(|v| v.parse().ok()).unwrap_or(100);
    let seed: u64 = value("--seed").and_then(|v| v.parse().ok()).unwrap_or(1);
    let jobs: usize = value("--jobs").and_then(|v| v.parse().ok()).unwrap_or(1);
    let mates_in_one_percent: Option<u8> =
        value("--mates-in-one-percent").and_then(|v| v.parse().ok());
    let Some(out) = value("--out") else {
        eprintln!("--out FILE is needed");
        return ExitCode::FAILURE;
    };
    match generate::run_self_play(
        variant,
        games,
        seed,
        jobs,
        &Settings::for_variant(variant),
        mates_in_one_percent,
        &out,
    ) {
        Ok(summary) => {
            eprintln!("{}", summary.line());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}
