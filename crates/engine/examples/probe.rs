//! Searches one position and prints the `info` lines: `cargo run --release -p jiang-engine
//! --example probe -- <variant> <depth> [fen]`.

use jiang_engine::{Engine, Go, Input};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant = args
        .first()
        .map_or("xiangqi", String::as_str)
        .parse()
        .expect("variant");
    let depth: u32 = args.get(1).map_or(6, |d| d.parse().expect("depth"));
    let fen = args.get(2).map_or("startpos", String::as_str);
    let input = Input::from_text(variant, fen, &[]).expect("position");
    let mut engine = Engine::new();
    let go = Go {
        depth: Some(depth),
        ..Go::default()
    };
    let start = std::time::Instant::now();
    let thought = engine.think(&input, &go, &mut |info| {
        println!(
            "depth {} seldepth {} score {} nodes {} time {:?} pv {}",
            info.depth,
            info.seldepth,
            info.score,
            info.nodes,
            info.elapsed,
            info.pv.join(" ")
        )
    });
    println!("{:?} in {:?}", thought, start.elapsed());
}
