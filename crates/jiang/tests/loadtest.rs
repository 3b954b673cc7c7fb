//! `jiang loadtest` end to end: a real server (in this process, on a random port, with a
//! temporary SQLite database) and the real `jiang` binary playing 3 games for 3 seconds; and
//! `--verify` riding out a server process killed and restarted on the same database.

mod process;

use std::process::Command;
use std::time::{Duration, Instant};

use process::{Database, Jiang};

use jiang_server::{Config, LobbySettings, Rate};

/// The value of the report line starting with `key ` (see `loadtest.rs` for the format).
fn field<'a>(report: &'a str, key: &str) -> &'a str {
    report
        .lines()
        .find_map(|line| line.strip_prefix(key)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no `{key}` line in the report:\n{report}"))
}

/// Runs `jiang loadtest` with `args` against a real server (one engine thread) and returns its
/// output once the server has shut down cleanly.
async fn loadtest(args: &[&str]) -> std::process::Output {
    loadtest_with(args, LobbySettings::default()).await
}

/// [`loadtest`] against a server with these lobby settings.
async fn loadtest_with(args: &[&str], lobby: LobbySettings) -> std::process::Output {
    loadtest_on(|url| vec![url.to_owned()], args, |c| c.lobby = lobby).await
}

/// [`loadtest`] given `--url` once for each URL `urls` makes of the server's, against a
/// server whose settings `adjust` changes.
async fn loadtest_on(
    urls: impl FnOnce(&str) -> Vec<String>,
    args: &[&str],
    adjust: impl FnOnce(&mut Config),
) -> std::process::Output {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = Config {
        listen: "127.0.0.1:0".into(),
        database_url: format!("sqlite://{}/jiang.db", dir.path().display()),
        // The load generator comes from one address: no per-client limit.
        rate_limit: Rate::UNLIMITED,
        engine_threads: 1,
        ..Config::default()
    };
    adjust(&mut config);
    let server = jiang_server::start(config).await.expect("server starts");
    let urls = urls(&format!("http://{}", server.addr()));
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    let output = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_jiang"))
            .arg("loadtest")
            .args(urls.iter().flat_map(|url| ["--url", url]))
            .args(&args)
            .output()
            .expect("jiang runs")
    })
    .await
    .expect("joined");
    server.shutdown().await.expect("clean shutdown");
    output
}

/// The report and the details (standard output and error) of a run, checked to have succeeded.
fn succeeded(output: std::process::Output) -> (String, String) {
    let report = String::from_utf8(output.stdout).expect("UTF-8 report");
    let details = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success(),
        "exit {:?}\n{report}\n{details}",
        output.status
    );
    (report, details)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loadtest_plays_games_against_a_real_server() {
    let output = loadtest(&["--games", "3", "--seconds", "3"]).await;

    let (report, details) = succeeded(output);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 7, "exactly seven lines:\n{report}");
    assert_eq!(field(&report, "games"), "3");
    assert_eq!(field(&report, "sockets"), "6");
    assert_eq!(field(&report, "errors"), "0", "{details}");
    let moves: u64 = field(&report, "moves").parse().expect("a count");
    assert!(moves > 0, "no move measured:\n{report}\n{details}");
    let rate: f64 = field(&report, "moves/s").parse().expect("a rate");
    assert!(rate > 0.0);
    for key in ["latency p50", "latency p99"] {
        let value = field(&report, key);
        let ms: f64 = value
            .strip_suffix(" ms")
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("`{key} {value}` is not `<number> ms`"));
        assert!(ms > 0.0);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loadtest_plays_beside_games_against_the_computer() {
    let output = loadtest(&[
        "--games",
        "2",
        "--seconds",
        "3",
        "--computer",
        "2",
        "--computer-level",
        "1",
    ])
    .await;
    let (report, details) = succeeded(output);
    assert_eq!(
        report.lines().count(),
        7,
        "the report is unchanged:\n{report}"
    );
    assert_eq!(field(&report, "games"), "2", "human games only");
    assert_eq!(field(&report, "errors"), "0", "{details}");
    let line = details
        .lines()
        .find_map(|l| l.strip_prefix("computer games: 2 kept at once, "))
        .unwrap_or_else(|| panic!("no computer line:\n{details}"));
    let computer_moves: u64 = line
        .split(", ")
        .find_map(|part| part.strip_suffix(" computer moves"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no move count in `{line}`"));
    assert!(computer_moves > 0, "the computers moved: {line}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loadtest_lobby_mode_creates_and_takes_seeks_that_every_client_sees() {
    let output = loadtest_with(
        &[
            "--lobby-clients",
            "4",
            "--seeks-per-second",
            "5",
            "--seconds",
            "2",
        ],
        // As `jiang serve --rate-limit 0`: no per-address seek limits either.
        LobbySettings {
            max_seeks_per_address: 0,
            seek_rate: Rate::UNLIMITED,
            ..LobbySettings::default()
        },
    )
    .await;
    let (report, details) = succeeded(output);
    assert_eq!(report.lines().count(), 9, "exactly nine lines:\n{report}");
    assert_eq!(field(&report, "lobby clients"), "4");
    assert_eq!(field(&report, "seeks"), "10");
    assert_eq!(field(&report, "taken"), "10");
    assert_eq!(field(&report, "errors"), "0", "{details}");
    // Sightings: at most every client saw every seek once (a seek taken before a flush on a
    // very slow machine is seen by none, so fewer is possible).
    let seen: u64 = field(&report, "seen").parse().expect("a count");
    assert!((1..=40).contains(&seen), "{report}");
    assert!(field(&report, "seen p99").ends_with(" ms"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loadtest_arena_mode_plays_games_and_measures_the_pairing_delay() {
    let output = loadtest_on(
        |url| vec![url.to_owned()],
        &["--arena-players", "6", "--seconds", "12", "--rate", "150"],
        // As `jiang serve --rate-limit 0`: no limit on new players either.
        |c| c.player_rate = Rate::UNLIMITED,
    )
    .await;
    let (report, details) = succeeded(output);
    assert_eq!(report.lines().count(), 7, "exactly seven lines:\n{report}");
    assert_eq!(field(&report, "arena players"), "6");
    assert_eq!(field(&report, "errors"), "0", "{details}");
    let games: u64 = field(&report, "games").parse().expect("a count");
    assert!(
        games >= 3,
        "games end and are paired again:\n{report}\n{details}"
    );
    for key in ["pairing p50", "pairing p99"] {
        let value = field(&report, key);
        let seconds: f64 = value
            .strip_suffix(" s")
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("`{key} {value}` is not `<number> s`"));
        assert!(seconds > 0.0 && seconds < 10.0, "{report}");
    }
}

/// The `acknowledged N, lost M` line of a `--verify` report: (N, M).
fn acknowledged_and_lost(report: &str) -> (u64, u64) {
    let line = report
        .lines()
        .find_map(|l| l.strip_prefix("acknowledged "))
        .unwrap_or_else(|| panic!("no `acknowledged` line:\n{report}"));
    let (acked, lost) = line
        .split_once(", lost ")
        .unwrap_or_else(|| panic!("`acknowledged {line}` is not `acknowledged N, lost M`"));
    (
        acked.parse().expect("a count"),
        lost.parse().expect("a count"),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loadtest_spreads_games_over_several_urls_and_verifies_every_acknowledged_move() {
    // One server under two names: two URLs, as two nodes of a cluster would be.
    let output = loadtest_on(
        |url| {
            let other = url.replace("127.0.0.1", "localhost");
            vec![url.to_owned(), other]
        },
        &["--games", "4", "--seconds", "2", "--rate", "20", "--verify"],
        |_| {},
    )
    .await;
    let (report, details) = succeeded(output);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 7 + 2 + 5, "{report}");
    assert_eq!(field(&report, "errors"), "0", "{details}");
    let moves: u64 = field(&report, "moves").parse().expect("a count");
    let mut per_url = 0;
    for (line, host) in lines[7..9].iter().zip(["127.0.0.1", "localhost"]) {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words[0], "url", "{report}");
        assert!(words[1].contains(host), "{report}");
        assert_eq!(
            [words[2], words[4], words[6], words[8]],
            ["requests", "sockets", "moves", "failures"]
        );
        let count = |i: usize| -> u64 { words[i].parse().expect("a count") };
        // Each game is created on one URL and joined on the other: both serve requests and
        // sockets.
        assert!(count(3) >= 4, "{line}");
        assert!(count(5) >= 4, "{line}");
        assert_eq!(count(9), 0, "{line}");
        per_url += count(7);
    }
    assert_eq!(per_url, moves, "the URLs' moves add up:\n{report}");
    assert_eq!(field(&report, "reconnects"), "0", "{details}");
    let (acked, lost) = acknowledged_and_lost(&report);
    assert!(acked >= moves && moves > 0, "{report}");
    assert_eq!(lost, 0, "{report}\n{details}");
}

/// `jiang loadtest --verify` (4 games, 7 s) against a `jiang serve` process that is killed with
/// SIGKILL twice during the run and restarted each time on the same port and database;
/// `while_down(k)` runs while it is down after the k-th kill. Returns the load test's output
/// once the server has stopped.
fn loadtest_across_restarts(
    db: &Database,
    mut while_down: impl FnMut(usize),
) -> std::process::Output {
    let first = Jiang::start(&db.url);
    let listen = first
        .base
        .strip_prefix("http://")
        .expect("an http base")
        .to_owned();
    let restart = || {
        Jiang::spawn(Jiang::command("error").args([
            "serve",
            "--database",
            &db.url,
            "--rate-limit",
            "0",
            "--listen",
            &listen,
        ]))
    };
    let started = Instant::now();
    let loadtest = Command::new(env!("CARGO_BIN_EXE_jiang"))
        .args(["loadtest", "--url", &first.base, "--verify"])
        .args(["--games", "4", "--seconds", "7", "--rate", "20"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("jiang loadtest runs");
    let mut server = first;
    for (k, at) in [2_500, 5_000].into_iter().enumerate() {
        std::thread::sleep(Duration::from_millis(at).saturating_sub(started.elapsed()));
        let status = server.stop("KILL");
        assert!(!status.success(), "killed: {status}");
        while_down(k);
        std::thread::sleep(Duration::from_millis(300));
        server = restart();
    }
    let output = loadtest.wait_with_output().expect("loadtest ends");
    let status = server.stop("TERM");
    assert!(status.success(), "{status}");
    output
}

/// [`loadtest_across_restarts`] loses nothing, and the database, read on its own, holds at
/// least every acknowledged move.
fn verify_rides_out_restarts(db: &Database) {
    let output = loadtest_across_restarts(db, |_| {});
    let (report, details) = succeeded(output);
    println!("{report}{details}");
    assert_eq!(field(&report, "errors"), "0", "{details}");
    let reconnects: u64 = field(&report, "reconnects").parse().expect("a count");
    assert!(reconnects > 0, "the kills dropped sockets:\n{report}");
    let (acked, lost) = acknowledged_and_lost(&report);
    assert!(acked > 0, "{report}");
    assert_eq!(lost, 0, "{report}\n{details}");
    let stored = tokio::runtime::Runtime::new()
        .expect("runtime")
        .block_on(db.moves());
    assert!(stored.len() as u64 >= acked, "{} stored", stored.len());
}

#[test]
fn loadtest_verify_reports_the_moves_a_server_forgot() {
    // The server forgets: while it is down after the first kill its SQLite files are copied,
    // and while it is down after the second they are put back, so that every move
    // acknowledged between the two kills is gone when it restarts.
    let db = Database::sqlite();
    let path = db
        .url
        .strip_prefix("sqlite://")
        .expect("a SQLite URL")
        .to_owned();
    let files = ["", "-wal", "-shm"].map(|suffix| format!("{path}{suffix}"));
    let output = loadtest_across_restarts(&db, |k| {
        for file in &files {
            let saved = format!("{file}.saved");
            let (from, to) = if k == 0 {
                (file, &saved)
            } else {
                (&saved, file)
            };
            match std::fs::copy(from, to) {
                Ok(_) => {}
                // A companion file that did not exist at the copy must not exist after it.
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    let _ = std::fs::remove_file(to);
                }
                Err(e) => panic!("copy {from} → {to}: {e}"),
            }
        }
    });
    let report = String::from_utf8(output.stdout).expect("UTF-8 report");
    let details = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{report}\n{details}");
    let (acked, lost) = acknowledged_and_lost(&report);
    assert!(lost > 0 && lost <= acked, "{report}\n{details}");
    assert!(
        details.lines().any(|l| l.starts_with("lost: game ")),
        "the lost moves are listed:\n{details}"
    );
}

#[test]
fn loadtest_verify_rides_out_a_server_killed_and_restarted_on_sqlite() {
    verify_rides_out_restarts(&Database::sqlite());
}

#[test]
#[cfg_attr(
    not(pg_tests),
    ignore = "set JIANG_TEST_DATABASE_URL to run the PostgreSQL tests"
)]
fn loadtest_verify_rides_out_a_server_killed_and_restarted_on_postgres() {
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let db = runtime.block_on(Database::postgres("loadtest_verify"));
    verify_rides_out_restarts(&db);
    runtime.block_on(db.drop_database());
}

/// Runs `jiang loadtest` with `args`, expecting a usage or connection failure: exit code 2,
/// nothing on standard output; its standard error.
fn loadtest_failure(args: &[&str]) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_jiang"))
        .arg("loadtest")
        .args(args)
        .output()
        .expect("jiang runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn loadtest_says_clearly_when_the_server_is_unreachable() {
    // Port 1 on loopback: nothing listens there.
    let stderr = loadtest_failure(&["--url", "http://127.0.0.1:1", "--games", "1"]);
    assert!(stderr.contains("cannot reach the server"), "{stderr}");
}

#[test]
fn loadtest_refuses_https_because_it_has_no_tls_client() {
    let stderr = loadtest_failure(&["--url", "https://127.0.0.1:1", "--games", "1"]);
    assert!(stderr.contains("https is not supported"), "{stderr}");
}

#[test]
fn loadtest_refuses_an_unknown_variant_naming_the_flag_and_the_choices() {
    let stderr = loadtest_failure(&["--url", "http://127.0.0.1:1", "--variant", "chess"]);
    assert!(stderr.contains("--variant"), "{stderr}");
    assert!(stderr.contains("chess"), "{stderr}");
    assert!(
        stderr.contains("xiangqi, jieqi, shogi, minishogi"),
        "{stderr}"
    );
}

/// `tools/cluster/killtest` in its single-node mode: one `jiang serve` on a fresh PostgreSQL
/// database, killed twice under `jiang loadtest --verify` and restarted. (The cluster mode
/// needs NATS and is run by hand; see docs/deploy.md.)
#[test]
#[cfg_attr(
    not(pg_tests),
    ignore = "set JIANG_TEST_DATABASE_URL to run the PostgreSQL tests"
)]
fn killtest_script_restarts_a_single_node_on_postgres_and_loses_nothing() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
        .to_string();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tools/cluster/killtest");
    let output = Command::new(script)
        .args(["--jiang", env!("CARGO_BIN_EXE_jiang"), "--nodes", "1"])
        .args(["--no-cluster", "--kills", "2", "--games", "4"])
        .args(["--seconds", "6", "--down", "0.3", "--base-port", &port])
        // Its database is made on the server `JIANG_TEST_DATABASE_URL` names (inherited).
        .output()
        .expect("the script runs");
    let out = String::from_utf8_lossy(&output.stdout);
    let err = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{:?}\n{out}\n{err}", output.status);
    assert!(out.contains("kill 2/2: node1 "), "{out}");
    assert!(out.lines().any(|l| l == "lost moves: 0"), "{out}");
    let (acked, lost) = acknowledged_and_lost(&out);
    assert!(acked > 0 && lost == 0, "{out}");
}
