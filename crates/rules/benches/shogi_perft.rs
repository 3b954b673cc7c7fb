//! Perft speed of the shogi family (single thread): `cargo bench -p jiang-rules --bench
//! shogi_perft`. Prints nodes, time and nodes per second for each case; the targets of
//! issue 3 are shogi start depth 5 in at most 0.5 s and minishogi start depth 7 in at most
//! 3.3 s. Pass `quick` to run only the shallower cases.
//!
//! Besides wall time it prints the process CPU time (from `/proc/self/stat` on Linux), which
//! is what a shared machine's load does not inflate.

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
        let cpu_before = cpu_seconds();
        let started = Instant::now();
        let nodes = pos.perft(depth);
        let secs = started.elapsed().as_secs_f64();
        let cpu = cpu_seconds()
            .zip(cpu_before)
            .map(|(after, before)| after - before);
        print!(
            "{name} depth {depth}: {nodes} nodes in {secs:.3} s wall, {:.1} M nodes/s",
            nodes as f64 / secs / 1e6
        );
        match cpu {
            Some(cpu) if cpu > 0.0 => println!(
                "; {cpu:.2} s CPU, {:.1} M nodes/s",
                nodes as f64 / cpu / 1e6
            ),
            _ => println!(),
        }
    }
}

/// User plus system CPU time of this process, in seconds (Linux; 100 ticks per second).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}
