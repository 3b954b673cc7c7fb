//! `cargo bench -p jiang-engine`: nodes per second of the search on fixed positions of each
//! variant (single thread, fixed depth so that runs compare).

use std::time::Instant;

use jiang_engine::{Engine, Go, Input};
use jiang_rules::Variant;

/// Fixed positions: each variant's start and a middlegame.
const POSITIONS: &[(Variant, &str, u32)] = &[
    (Variant::Xiangqi, "startpos", 9),
    (
        Variant::Xiangqi,
        "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3",
        9,
    ),
    (Variant::Jieqi, "startpos", 5),
    (Variant::Shogi, "startpos", 9),
    (
        Variant::Shogi,
        "ln1g3nl/1r1sgk1b1/p1pppp1pp/6p2/1p5P1/2P6/PPBPPPP1P/2G4R1/LNS1KGSNL b - 17",
        8,
    ),
    (Variant::Minishogi, "startpos", 9),
];

fn main() {
    let mut total_nodes = 0u64;
    let mut total_secs = 0f64;
    for &(variant, fen, depth) in POSITIONS {
        let input = Input::from_text(variant, fen, &[]).expect("bench positions are valid");
        let mut engine = Engine::new();
        engine.set_hash(64);
        let go = Go {
            depth: Some(depth),
            ..Go::default()
        };
        let start = Instant::now();
        let thought = engine.think(&input, &go, &mut |_| {});
        let secs = start.elapsed().as_secs_f64();
        total_nodes += thought.nodes;
        total_secs += secs;
        println!(
            "{variant:<9} depth {depth:>2}  {:>10} nodes  {:>7.3} s  {:>9.0} nodes/s  best {:?}  ({fen})",
            thought.nodes,
            secs,
            thought.nodes as f64 / secs,
            thought.decision
        );
    }
    println!(
        "total     {total_nodes} nodes in {total_secs:.3} s: {:.0} nodes/s",
        total_nodes as f64 / total_secs
    );
}
