//! Texel tuning of the evaluation weights on self-play positions, in two steps so that new
//! terms can be fitted on positions already played:
//!
//! - `cargo run --release -p jiang-engine --example tune -- play <variant> <games> <depth>
//!   [first seed] > positions.txt` plays games of the engine against itself (fixed depth,
//!   random openings) and prints every quiet position (not in check, and left by a move that
//!   captures nothing: no exchange is pending) with the game's result for the first side:
//!   `1`, `0.5` or `0`, a tab, the FEN (SFEN for the shogi family).
//! - `cargo run --release -p jiang-engine --example tune -- fit <variant> <files…>` fits the
//!   variant's weights by gradient descent on the mean squared error between the result and
//!   `sigmoid(eval)`, and prints them to paste back.
//!
//! Jieqi is not tuned this way: a FEN does not carry what each side may know.

mod selfplay;

use std::io::{BufRead, Write};

use jiang_engine::eval::Features;
use jiang_engine::shogi::eval as shogi_eval;
use jiang_engine::xiangqi::eval as xiangqi_eval;
use jiang_engine::{Engine, Go, Input};
use jiang_rules::{Side, Variant};

/// One labelled position: its features (from the first side's view) and the result for the
/// first side (1, ½, 0).
struct Sample {
    features: Vec<f64>,
    result: f64,
}

/// The evaluation's features of `input`, from the first side's view.
fn features(input: &Input, count: usize) -> Vec<f64> {
    let mut f = Features(vec![0.0; count]);
    match input {
        Input::Xiangqi(k) => xiangqi_eval::terms(&k.node(), &mut f),
        Input::Shogi(g) => shogi_eval::terms(g.position(), &mut f),
    }
    f.0
}

/// What a tuned position needs: its text, whether its side to move is in check, and how
/// many pieces stand on the board.
fn summary(input: &Input) -> (String, bool, u32) {
    match input {
        Input::Xiangqi(k) => {
            let p = k.position();
            let pieces = (p.occupancy(Side::First) | p.occupancy(Side::Second)).count_ones();
            (p.to_fen(), p.in_check(), pieces)
        }
        Input::Shogi(g) => {
            let p = g.position();
            let pieces = (p.occupancy(Side::First) | p.occupancy(Side::Second)).count_ones();
            (p.sfen(), p.is_check(), pieces)
        }
    }
}

/// Gradient-descent rounds of a fit.
const ROUNDS: usize = 4_000;

/// The expected result of an evaluation `x` when an evaluation of `k` is a 10:1 expectation.
fn sigmoid(x: f64, k: f64) -> f64 {
    1.0 / (1.0 + (-x / k * std::f64::consts::LN_10).exp())
}

fn error(samples: &[Sample], weights: &[f64], k: f64) -> f64 {
    samples
        .iter()
        .map(|s| {
            let eval: f64 = s.features.iter().zip(weights).map(|(f, w)| f * w).sum();
            (s.result - sigmoid(eval, k)).powi(2)
        })
        .sum::<f64>()
        / samples.len() as f64
}

/// The sigmoid scale that fits the current weights best (a scan, then a finer one): fixing
/// it before the weights move keeps the evaluation in centipawns, which the search's
/// margins are written in.
fn fitted_scale(samples: &[Sample], weights: &[f64]) -> f64 {
    let mut best = (f64::MAX, 400.0);
    for step in [50.0, 10.0, 2.0] {
        let centre = best.1;
        for i in -10..=10 {
            let k = centre + i as f64 * step;
            if k > 0.0 {
                let e = error(samples, weights, k);
                if e < best.0 {
                    best = (e, k);
                }
            }
        }
    }
    best.1
}

/// The weights a fit starts from: the variant's current ones.
fn initial_weights(variant: Variant) -> Vec<i32> {
    match variant {
        Variant::Xiangqi => xiangqi_eval::WEIGHTS.to_vec(),
        _ => shogi_eval::weights(variant).to_vec(),
    }
}

/// Plays `games` self-play games and prints their quiet positions.
fn play(variant: Variant, games: u64, depth: u32, first_seed: u64) {
    let go = Go {
        depth: Some(depth),
        ..Go::default()
    };
    let out = std::io::stdout();
    let mut out = out.lock();
    for seed in first_seed..first_seed + games {
        let mut engines = [Engine::new(), Engine::new()];
        let mut seen = Vec::new();
        let outcome = selfplay::play_game(variant, &mut engines, &go, 8, seed, &mut |i| {
            seen.push(summary(i))
        });
        let result = match outcome.winner {
            Some(Side::First) => "1",
            Some(Side::Second) => "0",
            None => "0.5",
        };
        let mut kept = 0;
        // Position i is quiet when it is not check and the move the engine chose there took
        // no piece (the board's count is the same after it).
        for i in 0..seen.len().saturating_sub(1) {
            let (fen, check, pieces) = &seen[i];
            if !check && seen[i + 1].2 == *pieces {
                writeln!(out, "{result}\t{fen}").expect("stdout");
                kept += 1;
            }
        }
        eprintln!("game {seed}: {outcome}, {kept} of {} positions", seen.len());
    }
}

/// Reads labelled positions and fits the weights.
fn fit(variant: Variant, files: &[String]) {
    let initial = initial_weights(variant);
    let count = initial.len();
    let mut samples = Vec::new();
    for file in files {
        let reader = std::io::BufReader::new(std::fs::File::open(file).expect("a file"));
        for line in reader.lines() {
            let line = line.expect("a line");
            let Some((result, fen)) = line.split_once('\t') else {
                continue;
            };
            let input = Input::from_text(variant, fen, &[]).expect("a position the tuner wrote");
            samples.push(Sample {
                features: features(&input, count),
                result: result.parse().expect("a result"),
            });
        }
    }
    let mut weights: Vec<f64> = initial.iter().map(|&w| w as f64).collect();
    let k = fitted_scale(&samples, &weights);
    let start = error(&samples, &weights, k);
    eprintln!("{} samples; scale {k}; error {start:.5}", samples.len());
    // Gradient descent with momentum; each weight's step is scaled by its feature's mean
    // square, so that rare and common terms move at comparable speeds.
    let scale: Vec<f64> = (0..count)
        .map(|j| {
            let m =
                samples.iter().map(|s| s.features[j].powi(2)).sum::<f64>() / samples.len() as f64;
            if m > 0.0 { 1.0 / m } else { 0.0 }
        })
        .collect();
    let mut velocity = vec![0.0; count];
    let rate = 3_000.0 * (k / 400.0).powi(2);
    for round in 0..ROUNDS {
        let mut gradient = vec![0.0; count];
        for s in &samples {
            let eval: f64 = s.features.iter().zip(&weights).map(|(f, w)| f * w).sum();
            let p = sigmoid(eval, k);
            let common = -2.0 * (s.result - p) * p * (1.0 - p) * std::f64::consts::LN_10 / k;
            for (g, f) in gradient.iter_mut().zip(&s.features) {
                *g += common * f;
            }
        }
        for j in 0..count {
            velocity[j] = 0.9 * velocity[j] - rate * scale[j] * gradient[j] / samples.len() as f64;
            weights[j] += velocity[j];
        }
        if round % (ROUNDS / 6) == 0 {
            eprintln!("round {round}: error {:.5}", error(&samples, &weights, k));
        }
    }
    println!(
        "{} samples; scale {k}; error {:.5} -> {:.5}",
        samples.len(),
        start,
        error(&samples, &weights, k)
    );
    let rounded: Vec<String> = weights
        .iter()
        .map(|w| format!("{}", w.round() as i32))
        .collect();
    println!("[{}]", rounded.join(", "));
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage =
        "usage: tune play <variant> <games> <depth> [first seed] | tune fit <variant> <files…>";
    let variant: Variant = args.get(1).expect(usage).parse().expect("a variant");
    assert!(variant != Variant::Jieqi, "Jieqi is not tuned from FENs");
    match args.first().map(String::as_str) {
        Some("play") => play(
            variant,
            args.get(2).map_or(100, |a| a.parse().expect("games")),
            args.get(3).map_or(4, |a| a.parse().expect("depth")),
            args.get(4).map_or(0, |a| a.parse().expect("seed")),
        ),
        Some("fit") => fit(variant, &args[2..]),
        _ => panic!("{usage}"),
    }
}
