//! `jiang serve` as a process for the restart and crash tests: started on a given database,
//! stopped by SIGTERM or killed by SIGKILL, and its database read directly (not through the
//! server) as an independent witness. PostgreSQL databases are created fresh per test from
//! `JIANG_TEST_DATABASE_URL`.
#![allow(dead_code)] // each test crate uses a different subset

/// The server tests' fresh PostgreSQL database, the same code for both crates.
#[path = "../../../server/tests/common/pg.rs"]
mod pg;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use jiang_protocol::{Created, Joined};
use serde_json::Value;

/// A running `jiang serve` and the base URL it printed: the one way the process tests start,
/// stop and kill the server.
pub struct Jiang {
    child: Child,
    pub base: String,
}

impl Jiang {
    /// `jiang` on any loopback port, with the environment the tests do not set cleared (no
    /// database, public URL or SQLite sync from the caller's shell), logging at `rust_log`, its
    /// standard output piped for [`Jiang::spawn`]; callers add arguments and environment.
    pub fn command(rust_log: &str) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_jiang"));
        command
            .env("JIANG_LISTEN", "127.0.0.1:0")
            .env_remove("DATABASE_URL")
            .env_remove("JIANG_PUBLIC_URL")
            .env_remove("JIANG_SQLITE_SYNC")
            .env("RUST_LOG", rust_log)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        command
    }

    /// Starts `jiang serve` on `database` (any port, no rate limit) and waits for it to serve.
    pub fn start(database: &str) -> Jiang {
        Jiang::spawn(Jiang::command("error").args([
            "serve",
            "--database",
            database,
            "--rate-limit",
            "0",
        ]))
    }

    /// Starts `command` and waits for it to serve.
    pub fn spawn(command: &mut Command) -> Jiang {
        Jiang::adopt(command.spawn().expect("jiang starts"))
    }

    /// Takes over a started `jiang` whose standard output is piped: reads the first line it
    /// prints, the address it serves on.
    pub fn adopt(mut child: Child) -> Jiang {
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("piped"))
            .read_line(&mut line)
            .expect("a first line");
        let base = line
            .trim()
            .strip_prefix("Jiang is serving on ")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_owned();
        Jiang { child, base }
    }

    /// Sends `signal` (`TERM`, `KILL`) and waits (at most 20 s) for the exit.
    pub fn stop(self, signal: &str) -> ExitStatus {
        self.stop_within(signal, Duration::from_secs(20)).0
    }

    /// Sends `signal` (`TERM`, `INT`, `KILL`) and waits (at most `deadline`) for the exit;
    /// returns how it exited and how long that took.
    pub fn stop_within(mut self, signal: &str, deadline: Duration) -> (ExitStatus, Duration) {
        let started = Instant::now();
        let sent = Command::new("kill")
            .args([format!("-{signal}"), self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return (status, started.elapsed());
            }
            assert!(
                started.elapsed() < deadline,
                "jiang did not stop within {deadline:?} of SIG{signal}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Jiang {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A test database: a SQLite file in a temporary directory, or a fresh PostgreSQL database.
pub struct Database {
    pub url: String,
    _dir: Option<tempfile::TempDir>,
    admin: Option<String>,
}

impl Database {
    pub fn sqlite() -> Database {
        let dir = tempfile::tempdir().expect("temp dir");
        Database {
            url: format!("sqlite://{}/jiang.db", dir.path().display()),
            _dir: Some(dir),
            admin: None,
        }
    }

    /// A fresh PostgreSQL database on the server named by `JIANG_TEST_DATABASE_URL`. Tests
    /// that call this carry `#[cfg_attr(not(pg_tests), ignore = "…")]` (see `build.rs`), so
    /// without a database they are reported as ignored; run anyway, this panics saying so.
    pub async fn postgres(test: &str) -> Database {
        let suffix = rand::random::<u64>().to_string();
        let (admin, url) = pg::fresh_database(test, &suffix).await;
        Database {
            url,
            _dir: None,
            admin: Some(admin),
        }
    }

    /// Every stored move, read directly: (game id, ply, move), by game and ply.
    pub async fn moves(&self) -> Vec<(String, i64, String)> {
        let sql = "SELECT game_id, ply, mv FROM moves ORDER BY game_id, ply";
        if self.url.starts_with("postgres") {
            let pool = sqlx::PgPool::connect(&self.url).await.unwrap();
            let rows = sqlx::query_as(sql).fetch_all(&pool).await.unwrap();
            pool.close().await;
            rows
        } else {
            let pool = sqlx::SqlitePool::connect(&self.url).await.unwrap();
            let rows = sqlx::query_as(sql).fetch_all(&pool).await.unwrap();
            pool.close().await;
            rows
        }
    }

    /// Makes the PostgreSQL test database refuse writes (or take them again) from every
    /// session's next statement: PostgreSQL down for writes, as the nodes meet it.
    pub async fn set_read_only(&self, read_only: bool) {
        let admin = self.admin.as_deref().expect("a PostgreSQL test database");
        pg::set_read_only(admin, pg::database_name(&self.url), read_only).await;
    }

    /// Drops a PostgreSQL test database (the SQLite directory goes with the value); cleanup, so
    /// a failure is only left behind.
    pub async fn drop_database(&self) {
        if let Some(admin) = &self.admin {
            let _ = pg::drop_database(admin, &self.url).await;
        }
    }
}

/// POSTs `body` to `base` + `path` with an optional bearer token; (status, JSON).
pub async fn post(
    http: &reqwest::Client,
    base: &str,
    path: &str,
    token: Option<&str>,
    body: Value,
) -> Result<(u16, Value), reqwest::Error> {
    send(http.post(format!("{base}{path}")).json(&body), token).await
}

/// GETs `base` + `path` with an optional bearer token; (status, JSON).
pub async fn get(
    http: &reqwest::Client,
    base: &str,
    path: &str,
    token: Option<&str>,
) -> Result<(u16, Value), reqwest::Error> {
    send(http.get(format!("{base}{path}")), token).await
}

/// POSTs the game action `action` (`move`, `resign`, …) with `body` for seat `token` of game
/// `id` at `base`; (status, JSON).
pub async fn act(
    http: &reqwest::Client,
    base: &str,
    id: &str,
    token: &str,
    action: &str,
    body: Value,
) -> Result<(u16, Value), reqwest::Error> {
    post(
        http,
        base,
        &format!("/api/games/{id}/{action}"),
        Some(token),
        body,
    )
    .await
}

/// Plays `mv` (the text players send) for seat `token` of game `id` at `base`; (status, JSON).
pub async fn play_move(
    http: &reqwest::Client,
    base: &str,
    id: &str,
    token: &str,
    mv: &str,
) -> Result<(u16, Value), reqwest::Error> {
    act(
        http,
        base,
        id,
        token,
        "move",
        serde_json::json!({"move": mv}),
    )
    .await
}

/// Sends `request` with an optional bearer token; (status, JSON, `null` when the body is not
/// JSON).
async fn send(
    mut request: reqwest::RequestBuilder,
    token: Option<&str>,
) -> Result<(u16, Value), reqwest::Error> {
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await?;
    let status = response.status().as_u16();
    Ok((status, response.json().await.unwrap_or(Value::Null)))
}

/// Creates a game from `body` with the creator on `side` and joins it: (id, creator's token,
/// joiner's token).
pub async fn new_game(
    http: &reqwest::Client,
    base: &str,
    mut body: Value,
    side: &str,
) -> (String, String, String) {
    body["side"] = Value::from(side);
    let (status, created) = post(http, base, "/api/games", None, body)
        .await
        .expect("create");
    assert_eq!(status, 201, "{created}");
    let created: Created = serde_json::from_value(created).expect("a create answer");
    let (id, first) = (created.id, created.token);
    let (status, joined) = post(
        http,
        base,
        &format!("/api/games/{id}/join"),
        None,
        serde_json::json!({}),
    )
    .await
    .expect("join");
    assert_eq!(status, 200, "{joined}");
    let joined: Joined = serde_json::from_value(joined).expect("a join answer");
    let second = joined.token;
    (id, first, second)
}
