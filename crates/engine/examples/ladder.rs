//! The level ladder: each level against the one below, every variant, refereed by the rules
//! crate. `cargo run --release -p jiang-engine --example ladder -- [games] [movetime_ms]
//! [variants…]`. Prints each pairing's W-D-L and score of the higher level, then level 8
//! against a random mover.

mod selfplay;

use std::time::Duration;

use jiang_engine::{Clock, Engine, Go};
use jiang_rules::{Side, Variant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args.first().map_or(10, |a| a.parse().expect("games"));
    let movetime: u64 = args.get(1).map_or(100, |a| a.parse().expect("movetime"));
    let variants: Vec<Variant> = if args.len() > 2 {
        args[2..]
            .iter()
            .map(|v| v.parse().expect("variant"))
            .collect()
    } else {
        Variant::ALL.to_vec()
    };
    let go = Go {
        clock: Clock {
            movetime: Some(Duration::from_millis(movetime)),
            ..Clock::default()
        },
        ..Go::default()
    };
    // LADDER_RANDOM_ONLY=1: only level 8 against random; LADDER_FROM=<n>: pairings from n.
    let skip_ladder = std::env::var_os("LADDER_RANDOM_ONLY").is_some();
    let from: u8 = std::env::var("LADDER_FROM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    for variant in variants {
        for level in (from.max(2)..=8u8).filter(|_| !skip_ladder) {
            let (mut w, mut d, mut l) = (0, 0, 0);
            for game in 0..games {
                let mut engines = [Engine::new(), Engine::new()];
                // The higher level plays first in even games.
                let higher = if game % 2 == 0 {
                    Side::First
                } else {
                    Side::Second
                };
                engines[higher.index()].set_level(level);
                engines[1 - higher.index()].set_level(level - 1);
                for (i, e) in engines.iter_mut().enumerate() {
                    e.set_seed(game as u64 * 2 + i as u64 + 1);
                }
                let opening = if variant == Variant::Jieqi { 0 } else { 2 };
                let outcome = selfplay::play_game(
                    variant,
                    &mut engines,
                    &go,
                    opening,
                    game as u64,
                    &mut |_| {},
                );
                match outcome.winner {
                    Some(s) if s == higher => w += 1,
                    Some(_) => l += 1,
                    None => d += 1,
                }
            }
            let score = (w as f64 + d as f64 / 2.0) / games as f64;
            println!(
                "{variant:<9} level {level} vs {}: {w}-{d}-{l}  score {:.0}%",
                level - 1,
                score * 100.0
            );
        }
        let (mut w, mut d, mut l) = (0, 0, 0);
        for game in 0..games {
            let side = if game % 2 == 0 {
                Side::First
            } else {
                Side::Second
            };
            let mut engine = Engine::new();
            let outcome = selfplay::play_vs_random(variant, &mut engine, side, &go, game as u64);
            match outcome.winner {
                Some(s) if s == side => w += 1,
                Some(_) => l += 1,
                None => d += 1,
            }
        }
        println!(
            "{variant:<9} level 8 vs random: {w}-{d}-{l}  score {:.0}%",
            (w as f64 + d as f64 / 2.0) / games as f64 * 100.0
        );
    }
}
