//! The analysis board's move round trip: a move played on the board is one `POST /api/analysis`
//! with the line so far plus the move (`from` = its ply), answered with the new position, its
//! legal moves in the chosen notation and the verdict. Measured over real HTTP on loopback
//! against a real server, one client at a time, per variant; also the load of a whole game
//! (`from` 0: every position of a 100-ply line), and the computer review of that line at the
//! default budget (`--review-nodes`).
//!
//! `cargo bench -p jiang-server --bench analysis` (optional argument: requests per variant).

use std::time::{Duration, Instant};

use jiang_server::{Config, Rate};
use serde_json::{Value, json};

/// A line of random legal moves of `variant`, `plies` long (shorter if the game ends), played
/// through the API itself.
async fn random_line(
    http: &reqwest::Client,
    base: &str,
    variant: &str,
    plies: usize,
) -> Vec<String> {
    let mut line: Vec<String> = Vec::new();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..plies {
        let answer: Value = http
            .post(format!("{base}/api/analysis"))
            .json(&json!({
                "variant": variant,
                "moves": line,
                "style": if variant.contains("shogi") { "usi" } else { "iccs" },
                "from": line.len(),
            }))
            .send()
            .await
            .expect("answer")
            .json()
            .await
            .expect("json");
        let legal = answer["positions"][0]["legal_moves"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if legal.is_empty() {
            break;
        }
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mv = legal[(seed % legal.len() as u64) as usize]
            .as_str()
            .unwrap()
            .to_owned();
        line.push(mv);
    }
    line
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i].as_secs_f64() * 1000.0
}

/// The time `POST {base}{path}` with `body` takes, its whole answer read; the answer must be a
/// success.
async fn timed_post(http: &reqwest::Client, base: &str, path: &str, body: &Value) -> Duration {
    let started = Instant::now();
    let response = http
        .post(format!("{base}{path}"))
        .json(body)
        .send()
        .await
        .expect("answer");
    assert!(
        response.status().is_success(),
        "{path}: {}",
        response.text().await.unwrap_or_default()
    );
    let _ = response.bytes().await.expect("body");
    started.elapsed()
}

#[tokio::main]
async fn main() {
    let requests: usize = std::env::args()
        .filter_map(|a| a.parse().ok())
        .next()
        .unwrap_or(300);
    let dir = tempfile::tempdir().expect("temp dir");
    let server = jiang_server::start(Config {
        listen: "127.0.0.1:0".into(),
        database_url: format!("sqlite://{}/bench.db", dir.path().display()),
        rate_limit: Rate::UNLIMITED,
        ..Config::default()
    })
    .await
    .expect("server");
    let base = format!("http://{}", server.addr());
    let http = reqwest::Client::new();
    for (variant, style) in [
        ("xiangqi", "wxf"),
        ("shogi", "japanese"),
        ("minishogi", "western"),
    ] {
        let line = random_line(&http, &base, variant, 100).await;
        // The board is at a random ply of the line and plays the line's next move.
        let mut times = Vec::with_capacity(requests);
        for i in 0..requests {
            let at = 1 + (i * 37) % line.len().max(1);
            let moves = &line[..at.min(line.len())];
            let body =
                json!({"variant": variant, "moves": moves, "style": style, "from": moves.len()});
            times.push(timed_post(&http, &base, "/api/analysis", &body).await);
        }
        times.sort();
        // A whole game at once: every position of the line (what opening a game asks).
        let whole = json!({"variant": variant, "moves": line, "style": style});
        let whole_ms = timed_post(&http, &base, "/api/analysis", &whole)
            .await
            .as_secs_f64()
            * 1000.0;
        // A computer review of the line: every position at the review budget.
        let review_s = timed_post(&http, &base, "/api/analysis/review", &whole)
            .await
            .as_secs_f64();
        println!(
            "{variant:<10} move round trip over {requests} requests (lines up to {} plies): p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; whole {}-ply line from ply 0: {whole_ms:.1} ms; review of it: {review_s:.2} s",
            line.len(),
            percentile(&times, 0.5),
            percentile(&times, 0.99),
            percentile(&times, 1.0),
            line.len(),
        );
    }
    server.shutdown().await.expect("shutdown");
}
