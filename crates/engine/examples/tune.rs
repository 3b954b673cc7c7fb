//! Texel tuning of the evaluation weights on self-play positions.
//!
//! `cargo run --release -p jiang-engine --example tune -- <variant> [games] [depth]`:
//! plays `games` games of the engine against itself (fixed depth, random openings), labels
//! every position searched with the game's result, then fits the weights of
//! `<family>::eval::WEIGHTS` by gradient descent on the mean squared error between the
//! result and `sigmoid(eval / 400)`, printing the tuned weights to paste back.

mod selfplay;

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

fn features(input: &Input, count: usize) -> Vec<f64> {
    let mut f = Features(vec![0.0; count]);
    match input {
        Input::Xiangqi(k) => {
            let node = k.node();
            xiangqi_eval::terms(&node, &mut f);
        }
        Input::Shogi(g) => shogi_eval::terms(g.position(), &mut f),
    }
    f.0
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x / 400.0 * std::f64::consts::LN_10).exp())
}

fn error(samples: &[Sample], weights: &[f64]) -> f64 {
    samples
        .iter()
        .map(|s| {
            let eval: f64 = s.features.iter().zip(weights).map(|(f, w)| f * w).sum();
            (s.result - sigmoid(eval)).powi(2)
        })
        .sum::<f64>()
        / samples.len() as f64
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant: Variant = args
        .first()
        .map_or("xiangqi", String::as_str)
        .parse()
        .expect("variant");
    let games: usize = args.get(1).map_or(20, |a| a.parse().expect("games"));
    let depth: u32 = args.get(2).map_or(3, |a| a.parse().expect("depth"));
    let initial: Vec<i32> = match variant {
        Variant::Xiangqi | Variant::Jieqi => xiangqi_eval::WEIGHTS.to_vec(),
        _ => shogi_eval::WEIGHTS.to_vec(),
    };
    let count = initial.len();
    let go = Go {
        depth: Some(depth),
        ..Go::default()
    };
    let mut samples = Vec::new();
    for game in 0..games {
        let mut engines = [Engine::new(), Engine::new()];
        let mut inputs = Vec::new();
        let opening = if variant == Variant::Jieqi { 2 } else { 6 };
        let outcome =
            selfplay::play_game(variant, &mut engines, &go, opening, game as u64, &mut |i| {
                inputs.push(features(i, count))
            });
        let result = match outcome.winner {
            Some(Side::First) => 1.0,
            Some(Side::Second) => 0.0,
            None => 0.5,
        };
        eprintln!("game {game}: {outcome} after {} positions", inputs.len());
        samples.extend(
            inputs
                .into_iter()
                .map(|features| Sample { features, result }),
        );
    }
    let mut weights: Vec<f64> = initial.iter().map(|&w| w as f64).collect();
    let start = error(&samples, &weights);
    // Gradient descent with a per-weight step scaled by the feature's spread.
    let rate = 2_000.0;
    for round in 0..200 {
        let mut gradient = vec![0.0; count];
        for s in &samples {
            let eval: f64 = s.features.iter().zip(&weights).map(|(f, w)| f * w).sum();
            let p = sigmoid(eval);
            let common = -2.0 * (s.result - p) * p * (1.0 - p) * std::f64::consts::LN_10 / 400.0;
            for (g, f) in gradient.iter_mut().zip(&s.features) {
                *g += common * f;
            }
        }
        for (w, g) in weights.iter_mut().zip(&gradient) {
            *w -= rate * g / samples.len() as f64;
        }
        if round % 50 == 0 {
            eprintln!("round {round}: error {:.5}", error(&samples, &weights));
        }
    }
    println!(
        "{} samples; error {:.5} -> {:.5}",
        samples.len(),
        start,
        error(&samples, &weights)
    );
    let rounded: Vec<String> = weights
        .iter()
        .map(|w| format!("{}", w.round() as i32))
        .collect();
    println!("[{}]", rounded.join(", "));
}
