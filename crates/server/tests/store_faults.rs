//! The store when the database fails: nothing is acknowledged that was not committed, the
//! client gets `503 storage_unavailable`, `/healthz` says so, writes resume by themselves, and
//! shutdown finishes within its deadline even when the database hangs. Also: the SQLite files
//! are private (0600). The disk-full case on SQLite runs the real binary on a tmpfs
//! (crates/jiang/tests/disk_full.rs); these cover PostgreSQL and what needs no root.

#[macro_use]
mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::{Backend, TestServer, fetch_one, postgres_url};
use jiang_server::store::{self, Durability, GameRow, Store, Write};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The admin URL, `JIANG_TEST_DATABASE_URL`.
fn admin_url() -> String {
    std::env::var("JIANG_TEST_DATABASE_URL").expect("set")
}

/// The admin connection.
async fn admin() -> sqlx::PgPool {
    sqlx::PgPool::connect(&admin_url())
        .await
        .expect("admin connection")
}

/// The moves stored for `game`, in order, read with a connection of our own.
async fn stored_moves(database_url: &str, game: &str) -> Vec<String> {
    let sql = "SELECT string_agg(mv, ' ' ORDER BY ply) FROM moves WHERE game_id = $1";
    let (moves,): (Option<String>,) = fetch_one(database_url, sql, &[game]).await;
    moves.map_or_else(Vec::new, |m| m.split(' ').map(str::to_owned).collect())
}

/// The name of the test server's PostgreSQL database.
fn database_name(s: &TestServer) -> String {
    common::pg::database_name(&s.config.database_url).to_owned()
}

/// Makes database `name` refuse writes (or take them again) from its next statement.
async fn set_read_only(name: &str, read_only: bool) {
    common::pg::set_read_only(&admin_url(), name, read_only).await;
}

postgres_test! {
    #[tokio::test]
    async fn postgres_refusing_writes_gets_503_and_writes_resume() {
        let s = TestServer::with(Backend::Postgres, "postgres_refusing_writes", |_| {}).await;
        let name = database_name(&s);
        let (id, red, black) = s.game(json!({"variant": "xiangqi"}), "red").await;
        s.play(&id, &red, "h2e2").await;
        let (status, health) = s.get("/healthz", None).await;
        assert_eq!(status, StatusCode::OK, "{health}");
        assert_eq!(health, json!({"status": "ok"}));

        set_read_only(&name, true).await;
        let (status, refused) = s
            .action(&id, "move", Some(&black), json!({"move": "h9g7"}))
            .await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{refused}");
        assert_eq!(refused["error"]["code"], "storage_unavailable");
        let (status, health) = s.get("/healthz", None).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{health}");
        assert_eq!(health["error"]["code"], "storage_unavailable", "{health}");
        // Nothing changed: the move is not in the game and it is still black's turn.
        let view = s.view(&id, Some(&black)).await;
        assert_eq!(view["moves"], json!(["h2e2"]));
        assert_eq!(view["to_move"], "black");
        // The same refusal over a WebSocket.
        let mut socket = common::connect(&s.ws_url(&id, Some(&black))).await;
        common::next_of(&mut socket, "state").await;
        common::send(&mut socket, json!({"type": "move", "move": "h9g7"})).await;
        let error = common::next_of(&mut socket, "error").await;
        assert_eq!(error["code"], "storage_unavailable", "{error}");
        drop(socket);
        // Every other change is refused and undone as well: a draw offer, a resignation.
        for (action, body) in [("draw", json!({"action": "offer"})), ("resign", json!({}))] {
            let (status, refused) = s.action(&id, action, Some(&black), body).await;
            assert_eq!(
                status,
                StatusCode::SERVICE_UNAVAILABLE,
                "{action}: {refused}"
            );
            assert_eq!(refused["error"]["code"], "storage_unavailable");
        }
        let view = s.view(&id, Some(&black)).await;
        assert_eq!(view["status"], "playing");
        assert_eq!(view["draw_offer"], Value::Null);
        assert_eq!(view["result"], Value::Null);
        assert_eq!(view["moves"], json!(["h2e2"]));

        // Writable again: the next attempt goes through, health comes back by itself.
        set_read_only(&name, false).await;
        s.play(&id, &black, "h9g7").await;
        s.play(&id, &red, "h0g2").await;
        let (status, health) = s.get("/healthz", None).await;
        assert_eq!(status, StatusCode::OK, "{health}");
        assert_eq!(
            stored_moves(&s.config.database_url, &id).await,
            ["h2e2", "h9g7", "h0g2"]
        );
        s.stop().await;
    }
}

postgres_test! {
    #[tokio::test]
    async fn postgres_lock_held_elsewhere_fails_the_write_in_seconds() {
        let s = TestServer::with(Backend::Postgres, "postgres_lock_held_elsewhere", |_| {}).await;
        let (id, red, black) = s.game(json!({"variant": "xiangqi"}), "red").await;
        s.play(&id, &red, "h2e2").await;
        let other = sqlx::PgPool::connect(&s.config.database_url)
            .await
            .expect("connects");
        let mut locker = other.begin().await.expect("begin");
        sqlx::query("LOCK TABLE moves IN EXCLUSIVE MODE")
            .execute(&mut *locker)
            .await
            .expect("lock");
        let started = Instant::now();
        let (status, refused) = s
            .action(&id, "move", Some(&black), json!({"move": "h9g7"}))
            .await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{refused}");
        assert_eq!(refused["error"]["code"], "storage_unavailable");
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the writer did not stall"
        );
        locker.rollback().await.expect("unlock");
        other.close().await;
        s.play(&id, &black, "h9g7").await;
        assert_eq!(
            stored_moves(&s.config.database_url, &id).await,
            ["h2e2", "h9g7"]
        );
        s.stop().await;
    }
}

/// A TCP relay to PostgreSQL that can be frozen: while frozen it forwards nothing, as a
/// database host that stopped answering would.
struct Relay {
    addr: std::net::SocketAddr,
    frozen: Arc<AtomicBool>,
}

impl Relay {
    async fn start(upstream: String) -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("address");
        let frozen = Arc::new(AtomicBool::new(false));
        let flag = frozen.clone();
        tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let Ok(server) = TcpStream::connect(&upstream).await else {
                    continue;
                };
                let (client_read, client_write) = client.into_split();
                let (server_read, server_write) = server.into_split();
                tokio::spawn(pump(client_read, server_write, flag.clone()));
                tokio::spawn(pump(server_read, client_write, flag.clone()));
            }
        });
        Relay { addr, frozen }
    }
}

/// Copies `from` to `to`, holding the bytes while `frozen`.
async fn pump(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    frozen: Arc<AtomicBool>,
) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        while frozen.load(Ordering::SeqCst) {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        if to.write_all(&buf[..n]).await.is_err() {
            break;
        }
    }
    let _ = to.shutdown().await;
}

postgres_test! {
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn shutdown_finishes_in_time_when_the_database_hangs() {
        let direct_url = postgres_url("shutdown_with_a_hung_database").await;
        let (prefix, name) = direct_url.rsplit_once('/').expect("a database name");
        let host = prefix.rsplit_once('@').map_or(prefix, |(_, h)| h);
        let host = host.trim_start_matches("postgres://");
        let relay = Relay::start(host.to_owned()).await;
        let relayed_url = direct_url.replacen(host, &relay.addr.to_string(), 1);
        assert_ne!(relayed_url, direct_url);
        let server = jiang_server::start(jiang_server::Config {
            listen: "127.0.0.1:0".into(),
            database_url: relayed_url,
            rate_limit: jiang_server::Rate::UNLIMITED,
            ..jiang_server::Config::default()
        })
        .await
        .expect("server starts");
        let base = format!("http://{}", server.addr());
        let http = reqwest::Client::new();
        let post = |path: String, token: Option<String>, body: Value| {
            let mut request = http.post(format!("{base}{path}")).json(&body);
            if let Some(token) = token {
                request = request.bearer_auth(token);
            }
            async move {
                let response = request.send().await.expect("answered");
                let status = response.status();
                (
                    status,
                    response.json::<Value>().await.unwrap_or(Value::Null),
                )
            }
        };
        let (_, created) = post(
            "/api/games".into(),
            None,
            json!({"variant": "xiangqi", "side": "red"}),
        )
        .await;
        let id = created["id"].as_str().expect("id").to_owned();
        let red = created["token"].as_str().expect("token").to_owned();
        let (_, joined) = post(format!("/api/games/{id}/join"), None, json!({})).await;
        let black = joined["token"].as_str().expect("token").to_owned();
        let (status, _) = post(
            format!("/api/games/{id}/move"),
            Some(red),
            json!({"move": "h2e2"}),
        )
        .await;
        assert_eq!(status, StatusCode::OK);

        // The database host stops answering; a move waits for its commit.
        relay.frozen.store(true, Ordering::SeqCst);
        let hung = tokio::spawn(post(
            format!("/api/games/{id}/move"),
            Some(black),
            json!({"move": "h9g7"}),
        ));
        tokio::time::sleep(Duration::from_millis(500)).await;
        let started = Instant::now();
        tokio::time::timeout(Duration::from_secs(60), server.shutdown())
            .await
            .expect("shutdown finishes within its deadline")
            .expect("clean shutdown");
        let took = started.elapsed();
        let (status, refused) = hung.await.expect("joined");
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{refused}");
        assert_eq!(refused["error"]["code"], "unavailable", "{refused}");
        println!("shutdown with a hung database took {took:?}");

        relay.frozen.store(false, Ordering::SeqCst);
        // The refused move was never committed.
        let stored = tokio::time::timeout(Duration::from_secs(30), async {
            loop {
                // The abandoned session may hold its transaction until the relay delivers its
                // last bytes; wait until no session of the test's database is left but ours.
                let moves = stored_moves(&direct_url, &id).await;
                let admin = admin().await;
                let (sessions,): (i64,) = sqlx::query_as(
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
                )
                .bind(name)
                .fetch_one(&admin)
                .await
                .expect("sessions");
                admin.close().await;
                if sessions == 0 {
                    return moves;
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        })
        .await
        .expect("the abandoned sessions end");
        assert_eq!(stored, ["h2e2"]);
        common::drop_postgres(&direct_url).await;
    }
}

fn game_row(id: &str) -> GameRow {
    GameRow {
        id: id.into(),
        variant: "xiangqi".into(),
        setup: "{}".into(),
        status: "waiting".into(),
        token_first: None,
        token_second: None,
        result: None,
        clock: None,
        meta: "{}".into(),
        created_at: 1,
        updated_at: 1,
        opponent: None,
        deadline_at: None,
        to_move: None,
    }
}

#[cfg(unix)]
#[tokio::test]
async fn sqlite_files_are_private_new_or_existing() {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &std::path::Path| {
        std::fs::metadata(path)
            .expect("metadata")
            .permissions()
            .mode()
            & 0o777
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let existing = dir.path().join("old.db");
    std::fs::write(&existing, b"").expect("an empty database file");
    std::fs::set_permissions(&existing, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    for path in [dir.path().join("sub/new.db"), existing] {
        let backend = store::connect(&format!("sqlite://{}", path.display()), Durability::Full)
            .await
            .expect("opens");
        let (store, writer) = Store::new(backend.clone());
        store
            .write(vec![Write::SaveGame(game_row("gameAAAA01"))])
            .await
            .expect("stored");
        for suffix in ["", "-wal", "-shm"] {
            let file = std::path::PathBuf::from(format!("{}{suffix}", path.display()));
            assert_eq!(mode(&file), 0o600, "{}", file.display());
        }
        assert_eq!(store.health().await, Ok(()));
        drop(store);
        writer.await.expect("writer ends");
        backend.close().await;
    }
}

#[tokio::test]
async fn healthz_is_ok_on_a_working_store() {
    let s = TestServer::start().await;
    // Before any write, and again once the last known state is stale: a probe write answers.
    let (status, health) = s.get("/healthz", None).await;
    assert_eq!(status, StatusCode::OK, "{health}");
    assert_eq!(health, json!({"status": "ok"}));
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let (status, health) = s.get("/healthz", None).await;
    assert_eq!(status, StatusCode::OK, "{health}");
    s.stop().await;
}

postgres_test! {
    #[tokio::test]
    async fn a_timer_change_that_cannot_be_stored_is_retried() {
        let s = TestServer::with(Backend::Postgres, "timer_retried", |c| {
            c.first_move_timeout = Duration::from_secs(1);
        })
        .await;
        let name = database_name(&s);
        let (id, red, _black) = s.game(json!({"variant": "xiangqi"}), "red").await;
        // Keep the game's actor in memory (a subscriber), then let its first-move timer fall due
        // while nothing can be stored: the abort is undone and the game stays as stored.
        let mut socket = common::connect(&s.ws_url(&id, Some(&red))).await;
        common::next_of(&mut socket, "state").await;
        set_read_only(&name, true).await;
        tokio::time::sleep(Duration::from_millis(2500)).await;
        assert_eq!(s.view(&id, None).await["status"], "playing");
        // Once the database takes writes again, the timer's retry aborts the game.
        set_read_only(&name, false).await;
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if s.view(&id, None).await["status"] == "aborted" {
                break;
            }
            assert!(Instant::now() < deadline, "the abort was never retried");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let end = common::next_of(&mut socket, "end").await;
        assert_eq!(end["result"]["reason"], "aborted", "{end}");
        drop(socket);
        s.stop().await;
    }
}
