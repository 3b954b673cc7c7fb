//! The durability property "no acknowledged move is lost", under load and crashes: the real
//! binary serves several concurrent games playing random legal moves over the HTTP API, and is
//! killed with SIGKILL at random moments a few times, restarting each time on the same
//! database. At the end every acknowledged move (a 200 answer) must be in the server's record of
//! its game at its ply, and in the database read directly; the server and the database must
//! agree. Runs on SQLite, and on PostgreSQL when `JIANG_TEST_DATABASE_URL` is set. CI-sized:
//! about 15 s per database. `JIANG_KILL_SEED` replays a run.
#![cfg(unix)]

mod process;

use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use process::{Database, Jiang, get, play_move, post};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;

/// Concurrent games (each played by one task for both sides).
const GAMES: usize = 8;
/// SIGKILLs per run.
const KILLS: usize = 4;

/// What the players were told: per game, the acknowledged moves by ply.
type Acknowledged = Arc<Mutex<HashMap<String, BTreeMap<i64, String>>>>;

/// One player task: plays random legal moves in a game (a new one when it ends) until `stop`,
/// riding out the crashes (requests fail while the server is down; it asks again).
async fn play(
    base: Arc<RwLock<String>>,
    acked: Acknowledged,
    stop: Arc<AtomicBool>,
    seed: u64,
    index: usize,
) {
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    let mut rng = StdRng::seed_from_u64(seed);
    let variant = ["xiangqi", "shogi", "minishogi"][index % 3];
    let clock = (index % 2 == 0).then(|| json!({"main": 3600, "increment": 1}));
    let current = || base.read().unwrap().clone();
    let mut game: Option<(String, [String; 2])> = None;
    while !stop.load(Ordering::Relaxed) {
        let (id, tokens) = match &game {
            Some(g) => g.clone(),
            None => {
                // Create and join between crashes only (retried until the server is up).
                let body = json!({"variant": variant, "clock": clock});
                let base = current();
                let Ok((201, created)) = post(&http, &base, "/api/games", None, body).await else {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                };
                let id = created["id"].as_str().unwrap().to_owned();
                let first = created["token"].as_str().unwrap().to_owned();
                let joined = loop {
                    let path = format!("/api/games/{id}/join");
                    match post(&http, &current(), &path, None, json!({})).await {
                        Ok((200, joined)) => break Some(joined),
                        Ok(_) => break None, // Joined before a crash, answer lost.
                        Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
                    }
                };
                let Some(joined) = joined else { continue };
                let second = joined["token"].as_str().unwrap().to_owned();
                acked.lock().unwrap().entry(id.clone()).or_default();
                game = Some((id, [first, second]));
                continue;
            }
        };
        let base = current();
        let path = format!("/api/games/{id}");
        let Ok((200, view)) = get(&http, &base, &path, Some(&tokens[0])).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        if view["status"] != "playing" {
            game = None;
            continue;
        }
        let token = if view["to_move"] == view["you"] {
            &tokens[0]
        } else {
            &tokens[1]
        };
        let Ok((200, view)) = get(&http, &base, &path, Some(token)).await else {
            continue;
        };
        let Some(moves) = view["legal_moves"].as_array().filter(|m| !m.is_empty()) else {
            continue;
        };
        let mv = moves[rng.random_range(0..moves.len())]
            .as_str()
            .unwrap()
            .to_owned();
        if let Ok((200, after)) = play_move(&http, &base, &id, token, &mv).await {
            let ply = after["ply"].as_i64().expect("ply");
            let recorded = after["moves"][(ply - 1) as usize]
                .as_str()
                .expect("the move in the record")
                .to_owned();
            acked
                .lock()
                .unwrap()
                .entry(id.clone())
                .or_default()
                .insert(ply, recorded);
        }
    }
}

async fn kill_under_load(db: &Database) {
    let seed = std::env::var("JIANG_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(rand::random::<u64>);
    println!("JIANG_KILL_SEED={seed}");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut jiang = Jiang::start(&db.url);
    let base = Arc::new(RwLock::new(jiang.base.clone()));
    let acked: Acknowledged = Arc::default();
    let stop = Arc::new(AtomicBool::new(false));
    let players: Vec<_> = (0..GAMES)
        .map(|i| {
            tokio::spawn(play(
                base.clone(),
                acked.clone(),
                stop.clone(),
                seed.wrapping_add(i as u64 + 1),
                i,
            ))
        })
        .collect();
    for _ in 0..KILLS {
        tokio::time::sleep(Duration::from_millis(rng.random_range(1_000..3_500))).await;
        let status = tokio::task::spawn_blocking(move || jiang.stop("KILL"))
            .await
            .expect("joined");
        assert!(!status.success(), "killed: {status}");
        tokio::time::sleep(Duration::from_millis(rng.random_range(50..500))).await;
        jiang = Jiang::start(&db.url);
        *base.write().unwrap() = jiang.base.clone();
    }
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    stop.store(true, Ordering::Relaxed);
    for p in players {
        p.await.expect("player task");
    }
    // One last crash with nobody playing, then the database is read on its own.
    let status = tokio::task::spawn_blocking(move || jiang.stop("KILL"))
        .await
        .expect("joined");
    assert!(!status.success());
    let stored = db.moves().await;
    let mut in_db: HashMap<String, BTreeMap<i64, String>> = HashMap::new();
    for (game, ply, mv) in &stored {
        in_db
            .entry(game.clone())
            .or_default()
            .insert(*ply, mv.clone());
    }
    let acked = acked.lock().unwrap().clone();
    let acked_count: usize = acked.values().map(BTreeMap::len).sum();
    let mut lost = Vec::new();
    for (game, moves) in &acked {
        for (ply, mv) in moves {
            if in_db.get(game).and_then(|m| m.get(ply)) != Some(mv) {
                lost.push(format!("{game} ply {ply} {mv}"));
            }
        }
    }
    // The server, started again, shows exactly what the database holds.
    let jiang = Jiang::start(&db.url);
    let http = reqwest::Client::new();
    for game in acked.keys() {
        let (status, view) = get(&http, &jiang.base, &format!("/api/games/{game}"), None)
            .await
            .expect("view");
        assert_eq!(status, 200, "{view}");
        let shown: Vec<String> = view["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_owned())
            .collect();
        let from_db: Vec<String> = in_db
            .get(game)
            .map(|m| m.values().cloned().collect())
            .unwrap_or_default();
        assert_eq!(
            shown, from_db,
            "game {game}: the server and the database disagree"
        );
        for (ply, mv) in &acked[game] {
            assert_eq!(
                shown.get(*ply as usize - 1),
                Some(mv),
                "game {game} ply {ply}"
            );
        }
    }
    let status = tokio::task::spawn_blocking(move || jiang.stop("TERM"))
        .await
        .expect("joined");
    assert!(status.success(), "exit status {status}");
    println!(
        "{} games, {KILLS} kills + 1: {acked_count} moves acknowledged, {} stored, {} lost",
        acked.len(),
        stored.len(),
        lost.len()
    );
    assert!(
        acked_count > 0,
        "no move was acknowledged: the test proved nothing"
    );
    assert!(lost.is_empty(), "acknowledged moves lost: {lost:?}");
    assert!(stored.len() >= acked_count);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn no_acknowledged_move_is_lost_to_kill_9_on_sqlite() {
    kill_under_load(&Database::sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(
    not(pg_tests),
    ignore = "set JIANG_TEST_DATABASE_URL to run the PostgreSQL tests"
)]
async fn no_acknowledged_move_is_lost_to_kill_9_on_postgres() {
    let db = Database::postgres("kill_under_load").await;
    kill_under_load(&db).await;
    db.drop_database().await;
}
