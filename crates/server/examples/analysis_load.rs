//! Load for the engine pool: `n` analysis WebSockets that keep the engine busy, each starting a
//! new 3-line search as soon as the previous one is done (or stopping and restarting it every
//! `restart` seconds), against a running server. Run it beside `jiang loadtest` to measure
//! live games while the board is analysed:
//!
//! `cargo run --release -p jiang-server --example analysis_load -- http://127.0.0.1:8080 20 30`
//! (URL, sessions, seconds).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

const LINES: [&[&str]; 4] = [
    &[],
    &["h2e2", "h9g7"],
    &["b2e2", "b9c7", "h0g2"],
    &["c3c4", "c6c5", "b0c2", "h9g7"],
];

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let base = args
        .first()
        .cloned()
        .unwrap_or_else(|| "http://127.0.0.1:8080".into());
    let sessions: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let seconds: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(30);
    let url = format!("{}/api/analysis/ws", base.replacen("http", "ws", 1));
    let infos = Arc::new(AtomicU64::new(0));
    let searches = Arc::new(AtomicU64::new(0));
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut tasks = Vec::new();
    for i in 0..sessions {
        let (url, infos, searches) = (url.clone(), infos.clone(), searches.clone());
        tasks.push(tokio::spawn(async move {
            let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.expect("connect");
            let mut n = i;
            let start = |n: usize| {
                Message::Text(
                    json!({"type": "start", "variant": "xiangqi", "moves": LINES[n % LINES.len()], "style": "wxf", "lines": 3})
                        .to_string()
                        .into(),
                )
            };
            ws.send(start(n)).await.expect("send");
            while Instant::now() < deadline {
                let Ok(Some(Ok(Message::Text(text)))) =
                    tokio::time::timeout(Duration::from_secs(5), ws.next()).await
                else {
                    continue;
                };
                let v: Value = serde_json::from_str(&text).expect("json");
                match v["type"].as_str() {
                    Some("info") => {
                        infos.fetch_add(1, Ordering::Relaxed);
                    }
                    Some("done") => {
                        searches.fetch_add(1, Ordering::Relaxed);
                        n += 1;
                        ws.send(start(n)).await.expect("send");
                    }
                    Some("error") => panic!("{v}"),
                    _ => {}
                }
            }
            let _ = ws.close(None).await;
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    println!(
        "{sessions} analysis sessions for {seconds} s: {} searches done, {} info messages",
        searches.load(Ordering::Relaxed),
        infos.load(Ordering::Relaxed)
    );
}
