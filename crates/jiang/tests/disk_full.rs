//! A full disk under the SQLite database loses no acknowledged move: the real `jiang` binary
//! with its database on a tiny tmpfs (mounted by the test; it needs root, and says SKIPPED
//! otherwise), games played through the real API until the disk is full, then freed.
//!
//! Each scenario checks: a move the database cannot store gets 503 `storage_unavailable` (HTTP
//! and WebSocket), `/healthz` is not 200 while the disk is full and is 200 again once it is
//! not, the refused move is not in the game, writes resume by themselves, the process stops
//! within its deadline (SIGTERM) even with the disk still full, and an independent connection
//! to the database afterwards finds exactly the acknowledged moves (none lost, none refused).
//! It also checks that the database files are private (0600), tightening an existing file.
#![cfg(unix)]

mod process;

use std::collections::HashMap;
use std::io::Write as _;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use rand::seq::IndexedRandom;
use serde_json::{Value, json};
use sqlx::Connection;
use tokio_tungstenite::tungstenite::Message;

use process::Jiang;

/// The size of the tmpfs the database lives on.
const TMPFS_SIZE: &str = "16m";
/// Games played side by side (each replaced by a new one when it ends).
const GAMES: usize = 6;
/// Moves tried while the disk is full, after the first one refused.
const FULL_ATTEMPTS: usize = 30;
/// How long a stop may take, however sick the database (the server gives its store 10 s).
const STOP_DEADLINE: Duration = Duration::from_secs(40);

/// A tmpfs mounted for the test, unmounted (lazily, so a failed test cannot leave it busy)
/// when dropped.
struct Tmpfs {
    dir: tempfile::TempDir,
}

impl Tmpfs {
    /// Mounts a tmpfs, or says why the test is skipped and returns `None`.
    fn mount(test: &str) -> Option<Tmpfs> {
        let skip = |why: &str| {
            // Past the harness's capture so that the skip is always visible.
            let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
            None
        };
        let uid = Command::new("id").arg("-u").output().ok()?;
        if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
            return skip("mounting a tmpfs needs root (CI runs as root)");
        }
        let dir = tempfile::tempdir().expect("temp dir");
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={TMPFS_SIZE}"), "tmpfs"])
            .arg(dir.path())
            .status()
            .expect("mount runs");
        if !mounted.success() {
            return skip("`mount -t tmpfs` failed (no CAP_SYS_ADMIN in this container?)");
        }
        Some(Tmpfs { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount")
            .arg("-l")
            .arg(self.dir.path())
            .status();
    }
}

/// Starts `jiang` serving the database at `db` (no rate limit, its log discarded).
fn start(db: &Path) -> Jiang {
    Jiang::spawn(
        Jiang::command("error")
            .env("DATABASE_URL", format!("sqlite://{}", db.display()))
            .env("JIANG_RATE_LIMIT", "0")
            .stderr(Stdio::null()),
    )
}

/// One game being played and the moves the server acknowledged in it.
struct Game {
    id: String,
    /// Seat tokens: red, black.
    tokens: [String; 2],
    acknowledged: Vec<String>,
    over: bool,
}

/// What a move attempt came to.
enum Played {
    Acknowledged,
    /// 503 `storage_unavailable`: the move (its text) was refused.
    Refused(String),
}

struct Client {
    base: String,
    http: reqwest::Client,
}

impl Client {
    async fn send(&self, request: reqwest::RequestBuilder) -> (u16, Value) {
        let response = request.send().await.expect("the server answers");
        let status = response.status().as_u16();
        let body = response.json().await.unwrap_or(Value::Null);
        (status, body)
    }

    async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
        let mut request = self.http.post(format!("{}{path}", self.base)).json(&body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        self.send(request).await
    }

    async fn view(&self, game: &Game, token: &str) -> Value {
        let (status, view) = self
            .send(
                self.http
                    .get(format!("{}/api/games/{}", self.base, game.id))
                    .bearer_auth(token),
            )
            .await;
        assert_eq!(status, 200, "view of {}: {view}", game.id);
        view
    }

    async fn healthz(&self) -> (u16, Value) {
        self.send(self.http.get(format!("{}/healthz", self.base)))
            .await
    }

    async fn new_game(&self) -> Game {
        let (status, created) = self
            .post(
                "/api/games",
                None,
                json!({"variant": "xiangqi", "side": "red"}),
            )
            .await;
        assert_eq!(status, 201, "create: {created}");
        let id = created["id"].as_str().expect("id").to_owned();
        let (status, joined) = self
            .post(&format!("/api/games/{id}/join"), None, json!({}))
            .await;
        assert_eq!(status, 200, "join: {joined}");
        Game {
            id,
            tokens: [
                created["token"].as_str().expect("token").to_owned(),
                joined["token"].as_str().expect("token").to_owned(),
            ],
            acknowledged: Vec::new(),
            over: false,
        }
    }

    /// The token of the side to move (red moves first, then turns alternate).
    fn mover(game: &Game) -> &str {
        &game.tokens[game.acknowledged.len() % 2]
    }

    /// Plays `mv` (or a random legal move) in `game`.
    async fn play(&self, game: &mut Game, mv: Option<String>) -> Played {
        let token = Self::mover(game).to_owned();
        let mv = match mv {
            Some(mv) => mv,
            None => {
                let view = self.view(game, &token).await;
                let legal: Vec<String> =
                    serde_json::from_value(view["legal_moves"].clone()).expect("legal moves");
                legal
                    .choose(&mut rand::rng())
                    .expect("a legal move")
                    .clone()
            }
        };
        let (status, body) = self
            .post(
                &format!("/api/games/{}/move", game.id),
                Some(&token),
                json!({"move": mv}),
            )
            .await;
        match status {
            200 => {
                game.acknowledged.push(mv);
                assert_eq!(body["moves"], json!(game.acknowledged), "{}", game.id);
                game.over = body["status"] != "playing";
                Played::Acknowledged
            }
            503 => {
                assert_eq!(body["error"]["code"], "storage_unavailable", "{body}");
                let message = body["error"]["message"].as_str().expect("message");
                assert!(message.contains("nothing was changed"), "{message}");
                Played::Refused(mv)
            }
            _ => panic!("move {mv} in {}: {status} {body}", game.id),
        }
    }
}

/// How a scenario stops the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// SIGTERM while the disk is still full.
    TermWhileFull,
    /// SIGTERM after the disk was freed and play went on.
    TermAfterFree,
    /// SIGKILL after the disk was freed and play went on.
    KillAfterFree,
}

/// The mode bits of `path`.
/// Plays `moves` moves round the games from `turn` on, every one acknowledged (else panics
/// saying `refused`); a game that ends is set aside in `finished` and replaced by a new one.
async fn play_round(
    client: &Client,
    games: &mut [Game],
    finished: &mut Vec<Game>,
    turn: &mut usize,
    moves: usize,
    refused: &str,
) {
    for _ in 0..moves {
        let i = *turn % GAMES;
        *turn += 1;
        let Played::Acknowledged = client.play(&mut games[i], None).await else {
            panic!("{refused}");
        };
        if games[i].over {
            let done = std::mem::replace(&mut games[i], client.new_game().await);
            finished.push(done);
        }
    }
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path)
        .expect("metadata")
        .permissions()
        .mode()
        & 0o777
}

/// Writes zeros to `path` until the file system is full.
fn fill(path: &Path) -> u64 {
    let mut file = std::fs::File::create(path).expect("filler");
    let chunk = vec![0u8; 16 * 1024];
    let mut written = 0u64;
    while file.write_all(&chunk).is_ok() {
        written += chunk.len() as u64;
    }
    // Whatever is left is smaller than a chunk: take it a page at a time.
    while file.write_all(&chunk[..512]).is_ok() {
        written += 512;
    }
    written
}

/// Every stored move by game, read with a connection of our own after the server is gone.
async fn stored_moves(db: &Path) -> HashMap<String, Vec<String>> {
    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{}", db.display()))
        .await
        .expect("the database opens");
    let rows: Vec<(String, i64, String)> =
        sqlx::query_as("SELECT game_id, ply, mv FROM moves ORDER BY game_id, ply")
            .fetch_all(&mut conn)
            .await
            .expect("moves");
    conn.close().await.expect("close");
    let mut by_game: HashMap<String, Vec<String>> = HashMap::new();
    for (game, ply, mv) in rows {
        let moves = by_game.entry(game).or_default();
        assert_eq!(ply as usize, moves.len() + 1, "plies are dense");
        moves.push(mv);
    }
    by_game
}

/// Answers the WebSocket `error` message for a move sent on a socket, or panics.
async fn ws_move_error(base: &str, game: &Game, mv: &str) -> Value {
    let url = format!(
        "{}/api/games/{}/ws?token={}",
        base.replacen("http", "ws", 1),
        game.id,
        Client::mover(game)
    );
    let (mut socket, _) = tokio_tungstenite::connect_async(&url)
        .await
        .expect("socket");
    socket
        .send(Message::text(
            json!({"type": "move", "move": mv}).to_string(),
        ))
        .await
        .expect("sent");
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let message = tokio::time::timeout(left, socket.next())
            .await
            .expect("an answer in time")
            .expect("socket open")
            .expect("no socket error");
        if let Message::Text(text) = message {
            let value: Value = serde_json::from_str(&text).expect("JSON");
            assert_ne!(value["type"], "move", "the move was not stored: {value}");
            if value["type"] == "error" {
                return value;
            }
        }
    }
}

async fn scenario(stop: Stop) {
    let test = format!("disk_full::{stop:?}");
    let Some(tmpfs) = Tmpfs::mount(&test) else {
        return;
    };
    let db: PathBuf = tmpfs.path().join("jiang.db");
    if stop == Stop::TermWhileFull {
        // An existing world-readable file is tightened.
        std::fs::write(&db, b"").expect("empty database file");
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    }
    let jiang = start(&db);
    let client = Client {
        base: jiang.base.clone(),
        http: reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .expect("client"),
    };
    let mut games = Vec::new();
    for _ in 0..GAMES {
        games.push(client.new_game().await);
    }
    for suffix in ["", "-wal", "-shm"] {
        let file = PathBuf::from(format!("{}{suffix}", db.display()));
        assert_eq!(mode(&file), 0o600, "{} is private", file.display());
    }
    assert_eq!(client.healthz().await.0, 200);

    // Play a while on an empty disk.
    let mut finished: Vec<Game> = Vec::new();
    let mut turn = 0usize;
    let while_empty = "the disk is not full yet";
    play_round(
        &client,
        &mut games,
        &mut finished,
        &mut turn,
        60,
        while_empty,
    )
    .await;

    // Fill the disk, then play until a move is refused.
    let filler = tmpfs.path().join("filler");
    let filled = fill(&filler);
    let mut refused_moves = 0usize;
    let (refused_game, refused_move) = 'full: {
        for _ in 0..5_000 {
            let i = turn % GAMES;
            turn += 1;
            if games[i].over {
                continue; // Replaced once the disk has room again (a new game needs it).
            }
            match client.play(&mut games[i], None).await {
                Played::Acknowledged => {}
                Played::Refused(mv) => break 'full (i, mv),
            }
        }
        panic!("no move was refused after filling the disk with {filled} bytes");
    };
    refused_moves += 1;
    // While the disk is full: health says so, the move is not in the game, a retry and the
    // same move over a WebSocket are refused too.
    let (status, health) = client.healthz().await;
    assert_eq!(status, 503, "{health}");
    assert_eq!(health["error"]["code"], "storage_unavailable", "{health}");
    let game = &mut games[refused_game];
    let view = client.view(game, &game.tokens[0].clone()).await;
    assert_eq!(
        view["moves"],
        json!(game.acknowledged),
        "refused move absent"
    );
    let Played::Refused(_) = client.play(game, Some(refused_move.clone())).await else {
        panic!("a move was acknowledged on a full disk");
    };
    refused_moves += 1;
    let error = ws_move_error(&client.base, game, &refused_move).await;
    assert_eq!(error["code"], "storage_unavailable", "{error}");
    refused_moves += 1;
    let view = client.view(game, &game.tokens[0].clone()).await;
    assert_eq!(
        view["moves"],
        json!(game.acknowledged),
        "refused move absent"
    );
    // Go on playing on the full disk, as players would: each move is refused, or (if SQLite
    // found room in its log) truly stored; the database is compared with the acks at the end.
    let mut refused_moves_in = vec![(refused_game, refused_move)];
    for _ in 0..FULL_ATTEMPTS {
        let i = turn % GAMES;
        turn += 1;
        if games[i].over || refused_moves_in.iter().any(|(g, _)| *g == i) {
            continue;
        }
        if let Played::Refused(mv) = client.play(&mut games[i], None).await {
            refused_moves += 1;
            refused_moves_in.push((i, mv));
        }
    }

    let (signal, freed_before_stop) = match stop {
        Stop::TermWhileFull => ("TERM", false),
        Stop::TermAfterFree => ("TERM", true),
        Stop::KillAfterFree => ("KILL", true),
    };
    if freed_before_stop {
        std::fs::remove_file(&filler).expect("free the disk");
        // Writes resume by themselves: the refused moves go through now.
        for (i, mv) in refused_moves_in {
            let Played::Acknowledged = client.play(&mut games[i], Some(mv)).await else {
                panic!("a refused move was refused again after the disk was freed");
            };
        }
        let (status, health) = client.healthz().await;
        assert_eq!(status, 200, "{health}");
        for game in games.iter_mut().filter(|g| g.over) {
            let done = std::mem::replace(game, client.new_game().await);
            finished.push(done);
        }
        let freed = "a move was refused after the disk was freed";
        play_round(&client, &mut games, &mut finished, &mut turn, 120, freed).await;
    }
    let (status, took) =
        tokio::task::spawn_blocking(move || jiang.stop_within(signal, STOP_DEADLINE))
            .await
            .expect("joined");
    if signal == "TERM" {
        assert!(status.success(), "exit status {status}");
    }
    if !freed_before_stop {
        std::fs::remove_file(&filler).expect("free the disk");
    }

    let stored = stored_moves(&db).await;
    let mut acknowledged = 0usize;
    let mut kept = 0usize;
    for game in games.iter().chain(&finished) {
        let moves = stored.get(&game.id).cloned().unwrap_or_default();
        acknowledged += game.acknowledged.len();
        kept += moves.len();
        assert_eq!(
            moves, game.acknowledged,
            "game {}: the stored moves are exactly the acknowledged ones",
            game.id
        );
    }
    assert_eq!(mode(&db), 0o600);
    println!(
        "{test}: {acknowledged} moves acknowledged, {kept} stored, {refused_moves} refused \
         (503), stopped by SIG{signal} in {took:?}"
    );
    drop(tmpfs);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_while_the_disk_is_full_loses_nothing_and_stops_in_time() {
    scenario(Stop::TermWhileFull).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn writes_resume_when_the_disk_is_freed_and_sigterm_keeps_every_ack() {
    scenario(Stop::TermAfterFree).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_after_a_full_disk_keeps_every_ack() {
    scenario(Stop::KillAfterFree).await;
}
