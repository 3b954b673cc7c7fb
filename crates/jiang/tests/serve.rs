//! `jiang` as an operator runs it: the real binary with no subcommand, configured through the
//! environment, its database under `./data/`, stopped by SIGTERM and SIGINT.
#![cfg(unix)]

mod process;

use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

use process::Jiang;

/// Starts `jiang <args>` in `dir` (its `./data/` is the database) and waits for it to serve.
fn start(dir: &Path, args: &[&str]) -> Jiang {
    Jiang::spawn(Jiang::command("warn").args(args).current_dir(dir))
}

/// Sends `signal` (`TERM`, `INT`) and waits (at most 10 s) for the exit.
fn stop(jiang: Jiang, signal: &str) -> ExitStatus {
    jiang.stop_within(signal, Duration::from_secs(10)).0
}

async fn post(base: &str, path: &str, token: Option<&str>, body: Value) -> Value {
    let mut request = reqwest::Client::new()
        .post(format!("{base}{path}"))
        .json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("request");
    assert!(
        response.status().is_success(),
        "{path}: {}",
        response.status()
    );
    response.json().await.expect("JSON")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serves_from_data_and_stops_cleanly_on_sigterm() {
    let dir = tempfile::tempdir().expect("temp dir");
    let jiang = start(dir.path(), &[]);
    let base = jiang.base.clone();
    assert!(base.starts_with("http://127.0.0.1:"), "{base}");
    let health = reqwest::get(format!("{base}/healthz"))
        .await
        .expect("healthz");
    assert_eq!(health.status(), 200);

    let created = post(
        &base,
        "/api/games",
        None,
        json!({"variant": "xiangqi", "side": "red"}),
    )
    .await;
    let id = created["id"].as_str().expect("id").to_owned();
    assert_eq!(created["url"], json!(format!("{base}/g/{id}")));
    let red = created["token"].as_str().expect("token").to_owned();
    let joined = post(&base, &format!("/api/games/{id}/join"), None, json!({})).await;
    let black = joined["token"].as_str().expect("token").to_owned();
    post(
        &base,
        &format!("/api/games/{id}/move"),
        Some(&red),
        json!({"move": "h2e2"}),
    )
    .await;
    let ws = format!(
        "{}/api/games/{id}/ws?token={black}",
        base.replacen("http", "ws", 1)
    );
    let (mut socket, _) = tokio_tungstenite::connect_async(&ws).await.expect("socket");
    let first = socket.next().await.expect("a message").expect("no error");
    assert!(first.to_text().expect("text").contains("\"state\""));

    let status = tokio::task::spawn_blocking(move || stop(jiang, "TERM"))
        .await
        .expect("joined");
    assert!(status.success(), "exit status {status}");
    // The socket was closed with 1012 (service restart: reconnect).
    let mut close = None;
    while let Some(Ok(message)) = socket.next().await {
        if let Message::Close(frame) = message {
            close = frame.map(|f| f.code);
            break;
        }
    }
    assert_eq!(close, Some(CloseCode::Restart));
    assert!(dir.path().join("data/jiang.db").is_file());

    // A new process on the same ./data resumes the game with its move.
    let jiang = start(dir.path(), &["serve"]);
    let view: Value = reqwest::Client::new()
        .get(format!("{}/api/games/{id}", jiang.base))
        .bearer_auth(&black)
        .send()
        .await
        .expect("view")
        .json()
        .await
        .expect("JSON");
    assert_eq!(view["moves"], json!(["h2e2"]));
    assert_eq!(view["you"], "black");
    assert_eq!(view["status"], "playing");
    let status = tokio::task::spawn_blocking(move || stop(jiang, "INT"))
        .await
        .expect("joined");
    assert!(status.success(), "exit status {status}");
}

#[test]
fn bad_configuration_is_refused_with_a_reason() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (args, expected) in [
        (&["--sqlite-sync", "sometimes"][..], "--sqlite-sync"),
        (&["--trusted-proxy", "proxy.example"][..], "--trusted-proxy"),
        (&["--database", "mysql://localhost/jiang"][..], "mysql://"),
        (&["--listen", "nowhere"][..], "nowhere"),
        (&["--header-timeout", "0"][..], "--header-timeout"),
        (&["--ws-idle-timeout", "soon"][..], "--ws-idle-timeout"),
        (&["--shutdown-timeout=-1"][..], "--shutdown-timeout"),
        (&["--max-connections", "0"][..], "--max-connections"),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_jiang"))
            .args(args)
            .current_dir(dir.path())
            .output()
            .expect("jiang runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    assert!(!dir.path().join("data").exists(), "nothing was created");
}

#[test]
fn sqlite_sync_names_its_choices_on_the_command_line_and_in_the_environment() {
    let dir = tempfile::tempdir().expect("temp dir");
    let from_flag = Command::new(env!("CARGO_BIN_EXE_jiang"))
        .args(["--sqlite-sync", "sometimes"])
        .current_dir(dir.path())
        .output()
        .expect("jiang runs");
    let from_env = Command::new(env!("CARGO_BIN_EXE_jiang"))
        .env("JIANG_SQLITE_SYNC", "sometimes")
        .current_dir(dir.path())
        .output()
        .expect("jiang runs");
    for output in [from_flag, from_env] {
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains("--sqlite-sync"), "{stderr}");
        assert!(stderr.contains("sometimes"), "{stderr}");
        assert!(
            stderr.contains("full") && stderr.contains("normal"),
            "{stderr}"
        );
    }
    assert!(!dir.path().join("data").exists(), "nothing was created");
}

/// Opens `n` spectator sockets on a new game; how many the server let open.
async fn sockets_allowed(base: &str, n: usize) -> usize {
    let created = post(base, "/api/games", None, json!({"variant": "xiangqi"})).await;
    let url = format!(
        "{}/api/games/{}/ws",
        base.replacen("http://", "ws://", 1),
        created["id"].as_str().expect("id")
    );
    let mut open = Vec::new();
    for _ in 0..n {
        if let Ok((socket, _)) = tokio_tungstenite::connect_async(url.as_str()).await {
            open.push(socket);
        }
    }
    open.len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_socket_cap_comes_from_the_environment_and_rate_limit_0_lifts_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let capped = Command::new(env!("CARGO_BIN_EXE_jiang"))
        .current_dir(dir.path())
        .env("JIANG_LISTEN", "127.0.0.1:0")
        .env("JIANG_MAX_SOCKETS_PER_ADDRESS", "2")
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .spawn()
        .expect("jiang starts");
    let jiang = Jiang::adopt(capped);
    assert_eq!(sockets_allowed(&jiang.base, 4).await, 2);
    assert!(stop(jiang, "TERM").success());
    // Load tests come from one address: `--rate-limit 0` turns every per-address limit off.
    let jiang = start(
        dir.path(),
        &["--rate-limit", "0", "--max-sockets-per-address", "2"],
    );
    assert_eq!(sockets_allowed(&jiang.base, 4).await, 4);
    assert!(stop(jiang, "TERM").success());
}
