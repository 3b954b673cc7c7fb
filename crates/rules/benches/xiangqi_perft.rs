//! `cargo bench -p jiang-rules --bench xiangqi_perft`: perft speed of the xiangqi-family move
//! generator (the hot path), printed as nodes per second. Not a timed test: it only reports.

use std::time::Instant;

use jiang_rules::Variant;
use jiang_rules::xiangqi::Position;

/// This process's CPU time in seconds (Linux: utime + stime from /proc/self/stat), so the
/// figure stays meaningful on a shared, loaded machine. `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after_name = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after_name.split(' ').collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0) // USER_HZ is 100 on Linux
}

fn run(label: &str, variant: Variant, fen: &str, depth: u32) {
    let position = Position::parse_fen(variant, fen).expect("valid FEN");
    let cpu_start = cpu_seconds();
    let started = Instant::now();
    let nodes = position.perft(depth);
    let seconds = started.elapsed().as_secs_f64();
    let mnps = |s: f64| nodes as f64 / s / 1e6;
    print!(
        "{label:<16} depth {depth}: {nodes:>11} nodes, wall {seconds:>6.3} s = {:>6.1} M nodes/s",
        mnps(seconds)
    );
    match (cpu_start, cpu_seconds()) {
        (Some(a), Some(b)) if b > a => {
            println!(", cpu {:>6.2} s = {:>6.1} M nodes/s", b - a, mnps(b - a))
        }
        _ => println!(),
    }
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument is ignored.
    run("xiangqi start", Variant::Xiangqi, "startpos", 5);
    run(
        "xiangqi midgame",
        Variant::Xiangqi,
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        4,
    );
    run("jieqi start", Variant::Jieqi, "startpos", 3);
}
