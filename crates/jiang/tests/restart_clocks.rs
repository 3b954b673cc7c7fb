//! Restart fairness with the real binary (clocks-and-games.md: "A server restart does not charge
//! the players for the time the server was down"): the side to move thinks, the server is
//! stopped (SIGTERM) or killed (SIGKILL), stays down, and comes back; its clock must have been
//! charged the think time and not the downtime. After a kill the stop is known from the
//! heartbeat, so up to one heartbeat interval (1 s) of thinking may be refunded. Tolerances are
//! generous; nothing here measures speed.
#![cfg(unix)]

mod process;

use std::time::{Duration, Instant};

use process::{Database, Jiang, get, new_game, play_move};
use serde_json::{Value, json};

/// The heartbeat interval: the most think time a crash may refund (plus a commit).
const HEARTBEAT_MS: i64 = 1_000;
/// How long the server stays down in each test.
const DOWNTIME: Duration = Duration::from_secs(2);

async fn view(http: &reqwest::Client, base: &str, id: &str, token: &str) -> Value {
    let (status, view) = get(http, base, &format!("/api/games/{id}"), Some(token))
        .await
        .expect("view");
    assert_eq!(status, 200, "{view}");
    view
}

async fn play(http: &reqwest::Client, base: &str, id: &str, token: &str, mv: &str) -> Value {
    let (status, view) = play_move(http, base, id, token, mv).await.expect("move");
    assert_eq!(status, 200, "{mv}: {view}");
    view
}

/// What a restart charged: (think time before the signal, time from the signal to the exit,
/// time charged to Red's clock), all in ms.
async fn think_then_restart(signal: &str) -> (i64, i64, i64) {
    let db = Database::sqlite();
    let http = reqwest::Client::new();
    let jiang = Jiang::start(&db.url);
    let (id, red, black) = new_game(
        &http,
        &jiang.base,
        json!({"variant": "xiangqi", "clock": {"main": 120}}),
        "red",
    )
    .await;
    play(&http, &jiang.base, &id, &red, "h2e2").await;
    let sent = Instant::now();
    play(&http, &jiang.base, &id, &black, "h7e7").await; // Red's clock starts.
    tokio::time::sleep(Duration::from_secs(2)).await; // Red thinks.
    let think = sent.elapsed().as_millis() as i64;
    let signalled = Instant::now();
    let signal = signal.to_owned();
    let status = tokio::task::spawn_blocking(move || jiang.stop(&signal))
        .await
        .expect("joined");
    let stopping = signalled.elapsed().as_millis() as i64;
    if signal_is_term(&status) {
        assert!(status.success(), "exit status {status}");
    }
    tokio::time::sleep(DOWNTIME).await;
    let jiang = Jiang::start(&db.url);
    let after = view(&http, &jiang.base, &id, &red).await;
    assert_eq!(after["status"], "playing", "{after}");
    assert_eq!(after["clock"]["running"], "red");
    assert_eq!(after["clock"]["black"]["ms"], 120_000);
    let charged = 120_000 - after["clock"]["red"]["ms"].as_i64().expect("ms");
    // The game goes on.
    play(&http, &jiang.base, &id, &red, "h0g2").await;
    let status = tokio::task::spawn_blocking(move || jiang.stop("TERM"))
        .await
        .expect("joined");
    assert!(status.success(), "exit status {status}");
    (think, stopping, charged)
}

/// Asserts that a restart charged at least `least` ms, and less than the think time, the stop
/// and 1 s to spare (the downtime is never charged).
#[track_caller]
fn assert_charged(least: i64, think: i64, stopping: i64, charged: i64) {
    assert!(
        charged >= least,
        "charged {charged} ms after {think} ms of thinking"
    );
    assert!(
        charged < think + stopping + 1_000,
        "charged {charged} ms; thought {think} ms, stopping took {stopping} ms"
    );
}

fn signal_is_term(status: &std::process::ExitStatus) -> bool {
    use std::os::unix::process::ExitStatusExt;
    status.signal().is_none()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_charges_the_think_time_and_not_the_downtime() {
    let (think, stopping, charged) = think_then_restart("TERM").await;
    println!("SIGTERM: thought {think} ms, stopping took {stopping} ms, charged {charged} ms");
    // The stop instant is exact: all the thinking is charged (it used to be refunded) ...
    // ... and the downtime (2 s, plus the start) is not: only the think time, the graceful
    // stop and the first request after the start may be, with 1 s to spare.
    assert_charged(2_000, think, stopping, charged);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_charges_the_think_time_up_to_the_last_heartbeat() {
    let (think, stopping, charged) = think_then_restart("KILL").await;
    println!("SIGKILL: thought {think} ms, killing took {stopping} ms, charged {charged} ms");
    // A crash is known to within one heartbeat (and a commit): at most that much is refunded.
    assert_charged(2_000 - HEARTBEAT_MS - 300, think, stopping, charged);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn first_move_countdown_survives_restarts() {
    let db = Database::sqlite();
    let http = reqwest::Client::new();
    let mut jiang = Jiang::start(&db.url);
    // The countdown starts while the game is being set up, so the wall time is measured from
    // before: it bounds what the countdown may have run (a later start let a loaded machine's
    // slow answer count as downtime).
    let ready = Instant::now();
    let (id, red, _black) =
        new_game(&http, &jiang.base, json!({"variant": "xiangqi"}), "red").await;
    // Red has 30 s for its first move; it thinks 2 s, the server is stopped (then killed), and
    // Red thinks 2 s more after each restart.
    for signal in ["TERM", "KILL"] {
        tokio::time::sleep(Duration::from_secs(2)).await;
        let signal = signal.to_owned();
        let status = tokio::task::spawn_blocking(move || jiang.stop(&signal))
            .await
            .expect("joined");
        if signal_is_term(&status) {
            assert!(status.success(), "exit status {status}");
        }
        tokio::time::sleep(DOWNTIME).await;
        jiang = Jiang::start(&db.url);
    }
    let left = view(&http, &jiang.base, &id, &red).await["first_move_ms"]
        .as_i64()
        .expect("the countdown runs");
    let wall = ready.elapsed().as_millis() as i64;
    println!("first move: {left} ms left after {wall} ms, two restarts of 2 s each");
    // At least 4 s of thinking were charged, minus what the kill may refund (one heartbeat).
    assert!(
        left <= 30_000 - 4_000 + HEARTBEAT_MS + 300,
        "{left} ms left"
    );
    // The two downtimes (4 s and more) were not.
    assert!(
        left > 30_000 - (wall - 4_000),
        "{left} ms left after {wall} ms"
    );
    let view = play(&http, &jiang.base, &id, &red, "h2e2").await;
    assert_eq!(view["ply"], 1);
    let status = tokio::task::spawn_blocking(move || jiang.stop("TERM"))
        .await
        .expect("joined");
    assert!(status.success(), "exit status {status}");
}
