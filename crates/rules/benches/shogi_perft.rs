//! Perft speed of the shogi family (single thread): `cargo bench -p jiang-rules --bench
//! shogi_perft`. Prints nodes, time and nodes per second for each case; the targets of
//! issue 3 are shogi start depth 5 in at most 0.5 s and minishogi start depth 7 in at most
//! 3.3 s. Pass `quick` to run only the shallower cases.

use std::time::Instant;

use jiang_rules::Variant;
use jiang_rules::shogi::Position;

const MIDGAME: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let cases: &[(&str, Variant, &str, u32)] = if quick {
        &[
            ("shogi start", Variant::Shogi, "startpos", 4),
            ("minishogi start", Variant::Minishogi, "startpos", 6),
        ]
    } else {
        &[
            ("shogi start", Variant::Shogi, "startpos", 5),
            ("shogi midgame", Variant::Shogi, MIDGAME, 4),
            ("minishogi start", Variant::Minishogi, "startpos", 7),
        ]
    };
    for &(name, variant, sfen, depth) in cases {
        let pos = Position::from_sfen(variant, sfen).expect("valid SFEN");
        let started = Instant::now();
        let nodes = pos.perft(depth);
        let secs = started.elapsed().as_secs_f64();
        println!(
            "{name} depth {depth}: {nodes} nodes in {:.3} s, {:.1} M nodes/s",
            secs,
            nodes as f64 / secs / 1e6
        );
    }
}
