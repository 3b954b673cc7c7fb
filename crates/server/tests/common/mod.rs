//! Test harness: a real server on a random port with a real database (a temporary SQLite file,
//! or a fresh PostgreSQL database when `JIANG_TEST_DATABASE_URL` is set), real HTTP (reqwest)
//! and real WebSockets (tokio-tungstenite).
#![allow(dead_code)]

pub mod pg;
pub mod tournaments;

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use jiang_protocol::{Created, ErrorBody, GameView, Joined, ServerMessage, to_sorted_value};
use jiang_server::{Config, PuzzleSettings, Rate, Server};
use reqwest::StatusCode;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// Runs `$body(server)` on SQLite and (when configured) PostgreSQL, as two tests `sqlite` and
/// `postgres` in a module `$name`; `$adjust` changes the server's config first. Test files take
/// it with `#[macro_use] mod common;`.
#[allow(unused_macros)]
macro_rules! on_both {
    ($name:ident, $body:expr) => {
        on_both!($name, |_| {}, $body);
    };
    ($name:ident, $adjust:expr, $body:expr) => {
        mod $name {
            use super::*;

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let server = TestServer::with(Backend::Sqlite, stringify!($name), $adjust).await;
                ($body)(server).await;
            }

            postgres_test! {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn postgres() {
                    let server =
                        TestServer::with(Backend::Postgres, stringify!($name), $adjust).await;
                    ($body)(server).await;
                }
            }
        }
    };
}

/// A PostgreSQL-only test: the test attribute it is given, ignored (and so reported as
/// skipped) unless `JIANG_TEST_DATABASE_URL` is set. Test files take it with `#[macro_use] mod
/// common;`.
#[allow(unused_macros)]
macro_rules! postgres_test {
    ($(#[$attr:meta])* async fn $name:ident() $body:block) => {
        $(#[$attr])*
        #[cfg_attr(
            not(pg_tests),
            ignore = "set JIANG_TEST_DATABASE_URL to run the PostgreSQL tests"
        )]
        async fn $name() $body
    };
}

/// Which database a test server uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A server under test and the database it keeps across restarts.
pub struct TestServer {
    server: Option<Server>,
    pub base: String,
    pub config: Config,
    _dir: Option<tempfile::TempDir>,
    pub http: reqwest::Client,
}

/// `value` parsed as the protocol type `T`, checked to be exactly what `T` writes back: a field
/// the protocol does not know, or one it spells differently, fails the test.
pub fn typed<T: DeserializeOwned + Serialize>(value: &Value) -> T {
    let parsed: T = serde_json::from_value(value.clone())
        .unwrap_or_else(|e| panic!("not a {}: {e}\n{value}", std::any::type_name::<T>()));
    assert_eq!(
        &to_sorted_value(&parsed),
        value,
        "the protocol's {} does not write back the same JSON",
        std::any::type_name::<T>()
    );
    parsed
}

/// A response's JSON body (`Null` when it is not JSON), checked to be written as the API has
/// always written it: compact, with every object's keys in sorted order.
async fn json_answer(response: reqwest::Response) -> Value {
    let text = response.text().await.expect("a readable body");
    let Ok(value) = serde_json::from_str::<Value>(&text) else {
        return Value::Null;
    };
    assert_eq!(text, value.to_string(), "the answer's bytes");
    value
}

/// Checks that an error answer has the protocol's error shape.
fn check_error_shape(status: StatusCode, value: &Value) {
    if (status.is_client_error() || status.is_server_error()) && !value.is_null() {
        let body: ErrorBody = typed(value);
        assert_eq!(
            body.error.code.status(),
            status.as_u16(),
            "the status of `{}`",
            body.error.code
        );
    }
}

/// Asserts that `answer` (status and body) is a refusal with `status`, the error `code` and a
/// message; returns the body for further checks.
#[track_caller]
pub fn assert_refused(answer: (StatusCode, Value), status: StatusCode, code: &str) -> Value {
    let (got, v) = answer;
    assert_eq!(got, status, "{v}");
    assert_eq!(v["error"]["code"], code, "{v}");
    assert!(
        !v["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .is_empty(),
        "a refusal says why: {v}"
    );
    v
}

/// The side that moves first in `variant`: `sente` in shogi and minishogi, `red` otherwise.
pub fn first_mover(variant: &str) -> &'static str {
    match variant {
        "shogi" | "minishogi" => "sente",
        _ => "red",
    }
}

/// Drops a test database created by [`postgres_url`] (cleanup: a failure is only left behind).
pub async fn drop_postgres(url: &str) {
    if let Ok(admin) = std::env::var("JIANG_TEST_DATABASE_URL") {
        let _ = pg::drop_database(&admin, url).await;
    }
}

/// A fresh PostgreSQL database on the server named by `JIANG_TEST_DATABASE_URL`.
///
/// Every test that calls this (directly or through [`Backend::Postgres`]) must carry
/// `#[cfg_attr(not(pg_tests), ignore = "set JIANG_TEST_DATABASE_URL to run the PostgreSQL tests")]`:
/// `build.rs` sets `cfg(pg_tests)` when the variable is set at build time (and rebuilds when it
/// changes), so without a database the summary counts these tests as *ignored*, not passed.
/// Run anyway (`--include-ignored`) without the variable, this panics saying so.
pub async fn postgres_url(test: &str) -> String {
    let suffix = jiang_server::seat::new_game_id().to_lowercase();
    pg::fresh_database(test, &suffix).await.1
}

impl TestServer {
    /// A server on SQLite with no rate limit and the usual 30 s first-move abort.
    pub async fn start() -> TestServer {
        Self::with(Backend::Sqlite, "test", |_| {}).await
    }

    /// A server on `backend` with `adjust` applied to its config. A test using
    /// [`Backend::Postgres`] carries the `pg_tests` attribute described at [`postgres_url`].
    pub async fn with(
        backend: Backend,
        test: &str,
        adjust: impl FnOnce(&mut Config),
    ) -> TestServer {
        let (database_url, dir) = match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                (
                    format!("sqlite://{}/jiang.db", dir.path().display()),
                    Some(dir),
                )
            }
            Backend::Postgres => (postgres_url(test).await, None),
        };
        let mut config = Config {
            listen: "127.0.0.1:0".into(),
            database_url,
            rate_limit: Rate::UNLIMITED,
            // The shipped puzzle sets and the importer are the puzzle tests' business.
            puzzles: PuzzleSettings {
                shipped: false,
                files: Vec::new(),
                import_every: None,
            },
            ..Config::default()
        };
        adjust(&mut config);
        let server = jiang_server::start(config.clone())
            .await
            .expect("server starts");
        TestServer {
            base: format!("http://{}", server.addr()),
            server: Some(server),
            config,
            _dir: dir,
            http: reqwest::Client::new(),
        }
    }

    /// Stops the server gracefully and starts a new one on the same database (a new port).
    pub async fn restart(self) -> TestServer {
        self.restart_after(Duration::ZERO).await
    }

    /// Stops the server gracefully, waits `downtime` and starts a new one on the same database.
    pub async fn restart_after(mut self, downtime: Duration) -> TestServer {
        self.server
            .take()
            .expect("running")
            .shutdown()
            .await
            .expect("clean shutdown");
        if !downtime.is_zero() {
            tokio::time::sleep(downtime).await;
        }
        self.start_again().await;
        self
    }

    /// Stops the server gracefully and keeps the database (for a direct look at it).
    pub async fn shut_down(&mut self) {
        if let Some(server) = self.server.take() {
            server.shutdown().await.expect("clean shutdown");
        }
    }

    /// Starts the server again after [`TestServer::shut_down`].
    pub async fn start_again(&mut self) {
        let server = jiang_server::start(self.config.clone())
            .await
            .expect("server restarts");
        self.base = format!("http://{}", server.addr());
        self.server = Some(server);
    }

    /// How many games the running server resumed at start.
    pub fn resumed(&self) -> usize {
        self.server.as_ref().expect("running").resumed_games()
    }

    /// A new player named `name` (`POST /api/players`): (id, key).
    pub async fn new_player(&self, name: &str) -> (String, String) {
        let body = json!({ "name": name });
        let (status, v) = self
            .as_player(reqwest::Method::POST, "/api/players", None, Some(body))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let created: jiang_protocol::PlayerCreated = typed(&v);
        (created.id, created.key)
    }

    /// How many game actors the running server holds in memory.
    pub fn live_games(&self) -> usize {
        self.server.as_ref().expect("running").live_games()
    }

    /// Stops the server gracefully (and drops its PostgreSQL database).
    pub async fn stop(mut self) {
        if let Some(server) = self.server.take() {
            server.shutdown().await.expect("clean shutdown");
        }
        if self.config.database_url.starts_with("postgres") {
            drop_postgres(&self.config.database_url).await;
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    pub fn ws_url(&self, id: &str, token: Option<&str>) -> String {
        let base = self.base.replacen("http://", "ws://", 1);
        match token {
            Some(t) => format!("{base}/api/games/{id}/ws?token={t}"),
            None => format!("{base}/api/games/{id}/ws"),
        }
    }

    /// Sends `request` with an optional bearer token; (status, JSON answer), the answer's
    /// bytes and error shape checked.
    async fn send_request(
        &self,
        mut request: reqwest::RequestBuilder,
        token: Option<&str>,
    ) -> (StatusCode, Value) {
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("request");
        let status = response.status();
        let value = json_answer(response).await;
        check_error_shape(status, &value);
        (status, value)
    }

    /// `method` `path` as the player of `key` (`Authorization: Player <key>`), with an optional
    /// JSON body.
    pub async fn as_player(
        &self,
        method: reqwest::Method,
        path: &str,
        key: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut request = self.http.request(method, self.url(path));
        if let Some(key) = key {
            request = request.header("authorization", format!("Player {key}"));
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        self.send_request(request, None).await
    }

    /// POST `path` with `body` (JSON) and an optional bearer token.
    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (StatusCode, Value) {
        self.send_request(self.http.post(self.url(path)).json(&body), token)
            .await
    }

    /// POST `body` to the game action `/api/games/{id}/{action}` (`move`, `draw`, `abort`, …).
    pub async fn action(
        &self,
        id: &str,
        action: &str,
        token: Option<&str>,
        body: Value,
    ) -> (StatusCode, Value) {
        self.post(&format!("/api/games/{id}/{action}"), token, body)
            .await
    }

    /// POST raw bytes as JSON.
    pub async fn post_raw(
        &self,
        path: &str,
        token: Option<&str>,
        body: Vec<u8>,
    ) -> (StatusCode, Value) {
        self.post_bytes(path, token, "application/json", body).await
    }

    /// POST raw bytes of `content_type` (an upload).
    pub async fn post_bytes(
        &self,
        path: &str,
        token: Option<&str>,
        content_type: &str,
        body: Vec<u8>,
    ) -> (StatusCode, Value) {
        let request = self
            .http
            .post(self.url(path))
            .header("content-type", content_type)
            .body(body);
        self.send_request(request, token).await
    }

    /// GET `path` without a token and return the body as text (records, pages).
    pub async fn get_text(&self, path: &str) -> String {
        self.http
            .get(self.url(path))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }

    /// GET `path` as JSON with an optional bearer token.
    pub async fn get(&self, path: &str, token: Option<&str>) -> (StatusCode, Value) {
        self.send_request(self.http.get(self.url(path)), token)
            .await
    }

    /// Creates a game; returns (id, creator's side, creator's token).
    pub async fn create(&self, body: Value) -> (String, String, String) {
        let (status, v) = self.post("/api/games", None, body.clone()).await;
        assert_eq!(status, StatusCode::CREATED, "create {body}: {v}");
        let created: Created = typed(&v);
        (created.id, created.side, created.token)
    }

    /// Joins game `id`; returns (side, token).
    pub async fn join(&self, id: &str) -> (String, String) {
        let (status, v) = self
            .post(&format!("/api/games/{id}/join"), None, json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "join: {v}");
        let joined: Joined = typed(&v);
        (joined.side, joined.token)
    }

    /// Joins game `id` as a browser does (`{}`, no token, no Origin); the raw answer, for its
    /// headers (the seat cookie).
    pub async fn join_response(&self, id: &str) -> reqwest::Response {
        self.http
            .post(self.url(&format!("/api/games/{id}/join")))
            .json(&json!({}))
            .send()
            .await
            .unwrap()
    }

    /// [`TestServer::game`], then `moves` played in turn, the creator's seat first: (id,
    /// creator token, joiner token).
    pub async fn game_played(
        &self,
        body: Value,
        side: &str,
        moves: &[&str],
    ) -> (String, String, String) {
        let (id, first, second) = self.game(body, side).await;
        for (i, mv) in moves.iter().enumerate() {
            let token = if i % 2 == 0 { &first } else { &second };
            self.play(&id, token, mv).await;
        }
        (id, first, second)
    }

    /// An untimed game of `variant` from its start position, created by the side that moves
    /// first, with `moves` played in turn: (id, first mover's token, second mover's token).
    pub async fn untimed_game(&self, variant: &str, moves: &[&str]) -> (String, String, String) {
        self.game_played(json!({ "variant": variant }), first_mover(variant), moves)
            .await
    }

    /// [`TestServer::untimed_game`] with the time control `clock`.
    pub async fn timed_game(
        &self,
        variant: &str,
        clock: Value,
        moves: &[&str],
    ) -> (String, String, String) {
        let body = json!({ "variant": variant, "clock": clock });
        self.game_played(body, first_mover(variant), moves).await
    }

    /// The record of game `id` in `query` (`format=…&…`): status, file name (the
    /// `content-disposition` header, empty when missing) and text.
    pub async fn record(&self, id: &str, query: &str) -> (StatusCode, String, String) {
        let response = self
            .http
            .get(self.url(&format!("/api/games/{id}/record?{query}")))
            .send()
            .await
            .unwrap();
        let status = response.status();
        let name = response
            .headers()
            .get("content-disposition")
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default();
        (status, name, response.text().await.unwrap())
    }

    /// Creates a game with the creator on `side` and joins it: (id, creator token, joiner token).
    pub async fn game(&self, mut body: Value, side: &str) -> (String, String, String) {
        body["side"] = json!(side);
        let (id, got, first) = self.create(body).await;
        assert_eq!(got, side);
        let (_, second) = self.join(&id).await;
        (id, first, second)
    }

    /// Plays `mv` with `token`, expecting success; returns the new view.
    pub async fn play(&self, id: &str, token: &str, mv: &str) -> Value {
        let (status, v) = self
            .post(
                &format!("/api/games/{id}/move"),
                Some(token),
                json!({"move": mv}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "move {mv}: {v}");
        typed::<GameView>(&v);
        v
    }

    /// Resigns game `id` for the seat of `token`, expecting success.
    pub async fn resign(&self, id: &str, token: &str) {
        let (status, v) = self.action(id, "resign", Some(token), json!({})).await;
        assert_eq!(status, StatusCode::OK, "resign: {v}");
    }

    pub async fn view(&self, id: &str, token: Option<&str>) -> Value {
        let (status, v) = self.get(&format!("/api/games/{id}"), token).await;
        assert_eq!(status, StatusCode::OK, "view: {v}");
        typed::<GameView>(&v);
        v
    }

    /// The view of game `id` for `token`, as the protocol type.
    pub async fn game_view(&self, id: &str, token: Option<&str>) -> GameView {
        typed(&self.view(id, token).await)
    }
}

pub type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens a WebSocket.
pub async fn connect(url: &str) -> Socket {
    let (socket, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("websocket connects");
    socket
}

/// The next game-socket message (within 5 s), as JSON; see [`next_typed_json`].
pub async fn next_json(socket: &mut Socket) -> Value {
    next_typed_json::<ServerMessage>(socket, Duration::from_secs(5)).await
}

/// The next text message of any socket (within `wait`), as JSON: written as the API writes
/// it (compact, keys sorted) and checked to be the protocol type `T`, the socket's messages.
pub async fn next_typed_json<T: DeserializeOwned + Serialize>(
    socket: &mut Socket,
    wait: Duration,
) -> Value {
    loop {
        let message = tokio::time::timeout(wait, socket.next())
            .await
            .unwrap_or_else(|_| panic!("a message within {wait:?}"))
            .expect("socket open")
            .expect("no socket error");
        match message {
            Message::Text(text) => {
                let value: Value = serde_json::from_str(&text).expect("JSON message");
                assert_eq!(text.as_str(), value.to_string(), "the message's bytes");
                typed::<T>(&value);
                return value;
            }
            Message::Close(_) => panic!("socket closed"),
            _ => continue,
        }
    }
}

/// Reads messages until one of type `kind` arrives (within 5 s each).
pub async fn next_of(socket: &mut Socket, kind: &str) -> Value {
    loop {
        let v = next_json(socket).await;
        if v["type"] == kind {
            return v;
        }
    }
}

/// Reads messages until one of type `kind` arrives, as the protocol type.
pub async fn next_message(socket: &mut Socket, kind: &str) -> ServerMessage {
    typed(&next_of(socket, kind).await)
}

/// Sends a JSON message.
pub async fn send(socket: &mut Socket, value: Value) {
    socket
        .send(Message::Text(value.to_string().into()))
        .await
        .expect("send");
}

/// Runs one statement on the test database directly (not through the server).
pub async fn execute(url: &str, sql: &str, id: &str, value: i64) {
    if url.starts_with("postgres") {
        execute_on::<sqlx::Postgres>(url, sql, id, value).await;
    } else {
        execute_on::<sqlx::Sqlite>(url, sql, id, value).await;
    }
}

/// [`execute`] on one kind of database: binds `value` then `id`.
async fn execute_on<DB: sqlx::Database>(url: &str, sql: &str, id: &str, value: i64)
where
    for<'q> i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> &'q str: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> DB::Arguments<'q>: sqlx::IntoArguments<'q, DB>,
    for<'c> &'c mut DB::Connection: sqlx::Executor<'c, Database = DB>,
{
    let pool = sqlx::Pool::<DB>::connect(url).await.unwrap();
    sqlx::query(sql)
        .bind(value)
        .bind(id)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
}

/// The one row `sql` selects from the test database, read directly (not through the server);
/// `binds` fill its parameters `$1`, `$2`, … in order.
pub async fn fetch_one<T>(url: &str, sql: &str, binds: &[&str]) -> T
where
    T: Send + Unpin,
    for<'r> T:
        sqlx::FromRow<'r, sqlx::postgres::PgRow> + sqlx::FromRow<'r, sqlx::sqlite::SqliteRow>,
{
    if url.starts_with("postgres") {
        fetch_one_on::<sqlx::Postgres, T>(url, sql, binds).await
    } else {
        fetch_one_on::<sqlx::Sqlite, T>(url, sql, binds).await
    }
}

/// [`fetch_one`] on one kind of database.
async fn fetch_one_on<DB: sqlx::Database, T>(url: &str, sql: &str, binds: &[&str]) -> T
where
    T: Send + Unpin + for<'r> sqlx::FromRow<'r, DB::Row>,
    for<'q> &'q str: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    for<'q> DB::Arguments<'q>: sqlx::IntoArguments<'q, DB>,
    for<'c> &'c mut DB::Connection: sqlx::Executor<'c, Database = DB>,
{
    let pool = sqlx::Pool::<DB>::connect(url).await.unwrap();
    let query = binds
        .iter()
        .fold(sqlx::query_as(sql), |query, value| query.bind(*value));
    let row = query.fetch_one(&pool).await.unwrap();
    pool.close().await;
    row
}
