//! Cluster mode end to end (issue 15): three `jiang serve --cluster` processes on one fresh
//! PostgreSQL database and one NATS server. Players on different nodes play a game of every
//! variant while a spectator watches from the third node; every socket gets, at every ply,
//! exactly its own observer's view (Jieqi privacy across nodes); then the node that runs a timed
//! game is killed with SIGKILL mid-game and the game goes on through the others with every
//! acknowledged move present, the spectator's socket reconnects and resynchronises, and a
//! graceful stop hands the game over.
//!
//! Runs when `JIANG_TEST_DATABASE_URL` (PostgreSQL) and `JIANG_TEST_NATS_URL` (a NATS server,
//! e.g. `nats://127.0.0.1:4222`) are both set; otherwise it is reported as ignored
//! (`cfg(cluster_tests)`, see `build.rs`). Each run uses its own `--cluster-name`, so runs can
//! share the NATS server.
#![cfg(unix)]

mod process;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use process::{Database, Jiang, act, get, play_move, post};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// A node: its process (until stopped) and its base URL.
struct Node {
    id: String,
    base: String,
    jiang: Option<Jiang>,
}

/// Starts node `id` of cluster `name`.
fn start_node(db: &str, nats: &str, name: &str, id: &str) -> Node {
    let jiang = Jiang::spawn(Jiang::command("warn").args([
        "serve",
        "--database",
        db,
        "--rate-limit",
        "0",
        "--cluster",
        nats,
        "--cluster-name",
        name,
        "--node-id",
        id,
    ]));
    Node {
        id: id.to_owned(),
        base: jiang.base.clone(),
        jiang: Some(jiang),
    }
}

/// A WebSocket's messages as they arrive, and whether it has closed.
#[derive(Clone, Default)]
struct Socket {
    messages: Arc<Mutex<Vec<Value>>>,
    closed: Arc<Mutex<bool>>,
}

impl Socket {
    async fn open(base: &str, game: &str, token: Option<&str>) -> Socket {
        let mut url = format!("{}/api/games/{game}/ws", base.replacen("http", "ws", 1));
        if let Some(token) = token {
            url.push_str(&format!("?token={token}"));
        }
        let (mut stream, _) = tokio_tungstenite::connect_async(&url)
            .await
            .expect("socket");
        let socket = Socket::default();
        let (messages, closed) = (socket.messages.clone(), socket.closed.clone());
        tokio::spawn(async move {
            while let Some(Ok(message)) = stream.next().await {
                match message {
                    Message::Text(text) => messages
                        .lock()
                        .unwrap()
                        .push(serde_json::from_str(&text).expect("JSON")),
                    Message::Close(_) => break,
                    _ => {}
                }
            }
            *closed.lock().unwrap() = true;
        });
        socket
    }

    fn messages(&self) -> Vec<Value> {
        self.messages.lock().unwrap().clone()
    }

    fn of_type(&self, kind: &str) -> Vec<Value> {
        self.messages()
            .into_iter()
            .filter(|m| m["type"] == kind)
            .collect()
    }

    fn is_closed(&self) -> bool {
        *self.closed.lock().unwrap()
    }
}

/// Waits (at most 20 s) until `done` holds; panics saying `what` otherwise.
async fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Polls `GET base + path` (at most 20 s) until `done` holds for the JSON answer; returns it.
async fn poll(
    http: &reqwest::Client,
    base: &str,
    path: &str,
    what: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok((200, answer)) = get(http, base, path, None).await
            && done(&answer)
        {
            return answer;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The fields of a view that say what its observer may know: everything but the clocks and
/// the presence timers, which move with time.
fn knowledge(view: &Value) -> Value {
    json!({
        "fen": view["fen"],
        "ply": view["ply"],
        "you": view["you"],
        "legal_moves": view["legal_moves"],
        "variant_fields": view["variant_fields"],
    })
}

/// The lease row of `game`: (owner, epoch).
async fn lease(db: &str, game: &str) -> (String, i64) {
    let pool = sqlx::PgPool::connect(db).await.unwrap();
    let row = sqlx::query_as("SELECT owner, epoch FROM game_leases WHERE game_id = $1")
        .bind(game)
        .fetch_one(&pool)
        .await
        .unwrap();
    pool.close().await;
    row
}

/// Nodes `<prefix>-a` and `<prefix>-b` of cluster `name`, and a xiangqi game created on a and
/// joined on b (so b runs it and a forwards to it): (nodes, id, red's token, black's token).
async fn two_nodes_one_game(
    http: &reqwest::Client,
    db: &Database,
    nats: &str,
    name: &str,
    prefix: &str,
) -> (Vec<Node>, String, String, String) {
    let nodes: Vec<Node> = ["a", "b"]
        .iter()
        .map(|n| start_node(&db.url, nats, name, &format!("{prefix}-{n}")))
        .collect();
    let (id, red, black) = create_and_join(
        http,
        &nodes[0].base,
        &nodes[1].base,
        json!({"variant": "xiangqi", "side": "red"}),
    )
    .await;
    (nodes, id, red, black)
}

/// Plays `mv` with seat `token` in game `id` through `node`: (status, answer).
async fn play_via(
    http: &reqwest::Client,
    node: &Node,
    id: &str,
    token: &str,
    mv: &str,
) -> (u16, Value) {
    play_move(http, &node.base, id, token, mv).await.unwrap()
}

/// Creates a game from `body` on `creator` and joins it on `joiner` (which then runs it):
/// (id, creator's token, joiner's token).
async fn create_and_join(
    http: &reqwest::Client,
    creator: &str,
    joiner: &str,
    body: Value,
) -> (String, String, String) {
    let (status, created) = post(http, creator, "/api/games", None, body).await.unwrap();
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let first = created["token"].as_str().unwrap().to_owned();
    let join = format!("/api/games/{id}/join");
    let (status, joined) = post(http, joiner, &join, None, json!({})).await.unwrap();
    assert_eq!(status, 200, "{joined}");
    let second = joined["token"].as_str().unwrap().to_owned();
    (id, first, second)
}

/// Plays a game of `variant` between a player on `nodes[0]` and one on `nodes[1]`, watched
/// from `nodes[2]`: random legal moves, then a resignation. Checks that every socket got, at
/// every ply, its own observer's view (as that observer's HTTP view says it), and the spectator
/// every move and the end.
async fn play_across(http: &reqwest::Client, nodes: &[Node], variant: &str, plies: usize) {
    let (id, creator, joiner) = create_and_join(
        http,
        &nodes[0].base,
        &nodes[1].base,
        json!({"variant": variant, "clock": {"main": 600, "increment": 0}}),
    )
    .await;
    // Seat i plays on node i; the spectator watches from node 2.
    let seats = [(creator, 0usize), (joiner, 1usize)];
    let sockets = [
        Socket::open(&nodes[0].base, &id, Some(&seats[0].0)).await,
        Socket::open(&nodes[1].base, &id, Some(&seats[1].0)).await,
        Socket::open(&nodes[2].base, &id, None).await,
    ];
    let path = format!("/api/games/{id}");
    // The spectator on the third node counts on the owner's node, and so on every node.
    for node in nodes {
        poll(http, &node.base, &path, "one spectator", |v| {
            v["spectators"] == 1
        })
        .await;
    }
    // Per ply: each observer's knowledge as its own node's HTTP view shows it.
    let mut expected: Vec<[Value; 3]> = Vec::new();
    let mut moves = Vec::new();
    for ply in 0..plies {
        let mut views = Vec::new();
        for (token, node) in &seats {
            let (status, view) = get(http, &nodes[*node].base, &path, Some(token))
                .await
                .unwrap();
            assert_eq!(status, 200, "{view}");
            views.push(view);
        }
        let (_, spectator) = get(http, &nodes[2].base, &path, None).await.unwrap();
        if ply > 0 {
            expected.push([
                knowledge(&views[0]),
                knowledge(&views[1]),
                knowledge(&spectator),
            ]);
        }
        let mover = if views[0]["to_move"] == views[0]["you"] {
            0
        } else {
            1
        };
        let legal = views[mover]["legal_moves"].as_array().unwrap().clone();
        if views[mover]["status"] != "playing" || legal.is_empty() {
            break;
        }
        let mv = legal[rand::random_range(0..legal.len())].as_str().unwrap();
        let (token, node) = &seats[mover];
        let (status, after) = play_via(http, &nodes[*node], &id, token, mv).await;
        assert_eq!(status, 200, "{variant} ply {ply}: {after}");
        moves = after["moves"].as_array().unwrap().clone();
        if after["status"] != "playing" {
            break;
        }
    }
    // The side to move resigns (if the game did not end by itself).
    let (_, view) = get(http, &nodes[0].base, &path, Some(&seats[0].0))
        .await
        .unwrap();
    if view["status"] == "playing" {
        let mover = usize::from(view["to_move"] != view["you"]);
        let (token, node) = &seats[mover];
        let (status, end) = act(http, &nodes[*node].base, &id, token, "resign", json!({}))
            .await
            .unwrap();
        assert_eq!(status, 200, "{end}");
    }
    for (i, socket) in sockets.iter().enumerate() {
        wait_for(&format!("{variant}: the end on socket {i}"), || {
            !socket.of_type("end").is_empty()
        })
        .await;
    }
    // The spectator on the third node saw every move, in order, then the end.
    let seen: Vec<Value> = sockets[2]
        .of_type("move")
        .iter()
        .map(|m| m["move"].clone())
        .collect();
    assert_eq!(seen, moves, "{variant}: the spectator's moves");
    assert!(!moves.is_empty());
    // Every socket got, at every ply, exactly what its own observer may know (for Jieqi: its
    // own hidden identities, never the other seat's).
    for (i, socket) in sockets.iter().enumerate() {
        let events = socket.of_type("move");
        for (ply, wanted) in expected.iter().enumerate() {
            let got = events
                .iter()
                .find(|m| m["ply"] == json!(ply + 1))
                .unwrap_or_else(|| panic!("{variant}: socket {i} missed ply {}", ply + 1));
            assert_eq!(
                knowledge(got),
                wanted[i],
                "{variant}: socket {i} at ply {}",
                ply + 1
            );
        }
        for message in socket.messages() {
            if message.get("ply").is_some() && message.get("fen").is_some() {
                let you = &message["you"];
                match i {
                    2 => assert!(you.is_null(), "{variant}: the spectator got a seat's view"),
                    _ => assert_eq!(you, &expected[0][i]["you"], "{variant}: socket {i}"),
                }
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
#[cfg_attr(
    not(cluster_tests),
    ignore = "set JIANG_TEST_DATABASE_URL and JIANG_TEST_NATS_URL to run the cluster tests"
)]
async fn three_nodes_play_survive_a_kill_and_hand_over() {
    let nats = std::env::var("JIANG_TEST_NATS_URL").expect("JIANG_TEST_NATS_URL");
    let db = Database::postgres("cluster").await;
    let name = format!("jiangtest{}", rand::random::<u32>());
    let mut nodes: Vec<Node> = ["a", "b", "c"]
        .iter()
        .map(|n| start_node(&db.url, &nats, &name, &format!("{name}-{n}")))
        .collect();
    let http = reqwest::Client::builder()
        .timeout(Duration::from_secs(10))
        .build()
        .unwrap();

    // Every variant, the players on two nodes, the spectator on the third (the owner is
    // whichever node first ran the game: the joiner's).
    for (variant, plies) in [
        ("xiangqi", 24),
        ("jieqi", 40),
        ("shogi", 24),
        ("minishogi", 16),
    ] {
        play_across(&http, &nodes, variant, plies).await;
    }

    // The lobby across nodes: a seek opened on one node is listed on every node, and a quick
    // pairing on another node joins it; the game is then counted everywhere.
    let clock = json!({"main": 300, "increment": 2});
    let (status, seek) = post(
        &http,
        &nodes[0].base,
        "/api/games",
        None,
        json!({"variant": "minishogi", "clock": clock, "open": true}),
    )
    .await
    .unwrap();
    assert_eq!(status, 201, "{seek}");
    let seek_id = seek["id"].clone();
    for node in &nodes {
        poll(&http, &node.base, "/api/lobby", "the seek listed", |l| {
            l["seeks"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["id"] == seek_id)
        })
        .await;
    }
    let (status, paired) = post(
        &http,
        &nodes[2].base,
        "/api/lobby/pair",
        None,
        json!({"variant": "minishogi", "clock": clock}),
    )
    .await
    .unwrap();
    assert_eq!(status, 200, "{paired}");
    assert_eq!(
        paired["id"], seek_id,
        "the pairing joined the seek of another node"
    );
    for node in &nodes {
        poll(
            &http,
            &node.base,
            "/api/lobby",
            "the seek gone, its game listed",
            |l| {
                !l["seeks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|s| s["id"] == seek_id)
                    && l["games"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|g| g["id"] == seek_id)
            },
        )
        .await;
    }

    // A timed game; its owner is killed mid-game.
    let (id, red, black) = create_and_join(
        &http,
        &nodes[0].base,
        &nodes[1].base,
        json!({"variant": "xiangqi", "side": "red", "clock": {"main": 600, "increment": 0}}),
    )
    .await;
    let tokens = [red, black];
    let mut acked: Vec<String> = Vec::new();
    // Plays `n` plies, each through the next node of `via` in turn; a refused move (503 while
    // a node takes over) is sent again, and only a 200 counts as acknowledged.
    async fn play(
        http: &reqwest::Client,
        id: &str,
        tokens: &[String; 2],
        via: &[String],
        acked: &mut Vec<String>,
        n: usize,
    ) {
        for i in 0..n {
            let base = &via[i % via.len()];
            let token = &tokens[acked.len() % 2];
            let path = format!("/api/games/{id}");
            let mut tries = 0;
            loop {
                tries += 1;
                assert!(tries < 50, "no move accepted through {base}");
                let Ok((200, view)) = get(http, base, &path, Some(token)).await else {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                };
                let mv = view["legal_moves"][0].as_str().unwrap();
                match play_move(http, base, id, token, mv).await {
                    Ok((200, after)) => {
                        *acked = after["moves"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|m| m.as_str().unwrap().to_owned())
                            .collect();
                        break;
                    }
                    Ok((503, _)) | Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
                    Ok((status, answer)) => panic!("move refused: {status} {answer}"),
                }
            }
        }
    }
    let all: Vec<String> = nodes.iter().map(|n| n.base.clone()).collect();
    play(&http, &id, &tokens, &all, &mut acked, 6).await;
    let (owner, epoch) = lease(&db.url, &id).await;
    let owner_index = nodes.iter().position(|n| n.id == owner).expect("a node");
    let survivors: Vec<usize> = (0..3).filter(|&i| i != owner_index).collect();
    let watcher = Socket::open(&nodes[survivors[0]].base, &id, None).await;
    wait_for("the spectator's state", || {
        !watcher.of_type("state").is_empty()
    })
    .await;
    let status = nodes[owner_index].jiang.take().unwrap().stop("KILL");
    assert!(!status.success());
    let via: Vec<String> = survivors.iter().map(|&i| nodes[i].base.clone()).collect();
    play(&http, &id, &tokens, &via, &mut acked, 6).await;
    assert_eq!(acked.len(), 12);
    let (new_owner, new_epoch) = lease(&db.url, &id).await;
    assert_ne!(new_owner, owner, "another node runs the game");
    assert!(new_epoch > epoch);
    // The spectator's socket on a surviving node closes (its events came from the dead
    // owner); reconnecting to any node resynchronises it.
    wait_for("the relayed socket to close", || watcher.is_closed()).await;
    let again = Socket::open(&nodes[survivors[1]].base, &id, None).await;
    wait_for("a fresh state", || !again.of_type("state").is_empty()).await;
    let state = &again.of_type("state")[0];
    assert_eq!(state["moves"], json!(acked), "the resynchronised socket");
    // Every acknowledged move is in the database, in order.
    let stored: Vec<String> = db
        .moves()
        .await
        .into_iter()
        .filter(|(game, _, _)| *game == id)
        .map(|(_, _, mv)| mv)
        .collect();
    assert_eq!(stored, acked, "acknowledged moves lost");

    // A graceful stop hands the game over without waiting for the lease to expire.
    let holder = nodes.iter().position(|n| n.id == new_owner).unwrap();
    let last = survivors.into_iter().find(|&i| i != holder).unwrap();
    let status = nodes[holder].jiang.take().unwrap().stop("TERM");
    assert!(status.success(), "graceful stop: {status}");
    play(
        &http,
        &id,
        &tokens,
        &[nodes[last].base.clone()],
        &mut acked,
        2,
    )
    .await;
    assert_eq!(lease(&db.url, &id).await.0, nodes[last].id);
    assert_eq!(acked.len(), 14);
    drop(nodes);
    db.drop_database().await;
}

/// A `nats-server` of the test's own on `port` (Debian's, or `JIANG_TEST_NATS_SERVER`).
fn nats_server(port: u16) -> std::process::Child {
    let binary = std::env::var("JIANG_TEST_NATS_SERVER")
        .unwrap_or_else(|_| "/usr/sbin/nats-server".to_owned());
    std::process::Command::new(&binary)
        .args(["-a", "127.0.0.1", "-p", &port.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {binary} (install nats-server): {e}"))
}

/// Waits until something listens on `port`.
async fn listening(port: u16) {
    wait_for("nats-server to listen", || {
        std::net::TcpStream::connect(("127.0.0.1", port)).is_ok()
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(cluster_tests),
    ignore = "set JIANG_TEST_DATABASE_URL and JIANG_TEST_NATS_URL to run the cluster tests"
)]
async fn nats_down_the_owner_serves_forwarding_fails_then_recovers() {
    // A NATS server of this test's own, stopped and started again on the same port.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut nats = nats_server(port);
    listening(port).await;
    let url = format!("nats://127.0.0.1:{port}");
    let db = Database::postgres("cluster_nats").await;
    let http = reqwest::Client::new();
    let (nodes, id, red, black) = two_nodes_one_game(&http, &db, &url, "jiang", "down").await;
    assert_eq!(lease(&db.url, &id).await.0, "down-b");
    // Forwarded from a to b while NATS is up.
    assert_eq!(play_via(&http, &nodes[0], &id, &red, "h2e2").await.0, 200);
    nats.kill().unwrap();
    nats.wait().unwrap();
    // The owner goes on serving its game; the other node answers 503 cluster_unavailable.
    let (status, answer) = play_via(&http, &nodes[1], &id, &black, "h9g7").await;
    assert_eq!(status, 200, "{answer}");
    let (status, refused) = play_via(&http, &nodes[0], &id, &red, "b0c2").await;
    assert_eq!(status, 503, "{refused}");
    assert_eq!(refused["error"]["code"], "cluster_unavailable");
    assert_eq!(lease(&db.url, &id).await.0, "down-b", "nothing moved");
    // NATS is back: the nodes reconnect by themselves and forwarding works again.
    let mut nats = nats_server(port);
    listening(port).await;
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (status, answer) = play_via(&http, &nodes[0], &id, &red, "b0c2").await;
        if status == 200 {
            break;
        }
        assert_eq!(answer["error"]["code"], "cluster_unavailable", "{answer}");
        assert!(Instant::now() < deadline, "forwarding did not recover");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (_, view) = get(&http, &nodes[0].base, &format!("/api/games/{id}"), None)
        .await
        .unwrap();
    assert_eq!(view["moves"], json!(["h2e2", "h9g7", "b0c2"]));
    drop(nodes);
    let _ = nats.kill();
    let _ = nats.wait();
    db.drop_database().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(cluster_tests),
    ignore = "set JIANG_TEST_DATABASE_URL and JIANG_TEST_NATS_URL to run the cluster tests"
)]
async fn postgres_refusing_writes_refuses_moves_on_every_node_and_loses_nothing() {
    let nats = std::env::var("JIANG_TEST_NATS_URL").unwrap();
    let name = format!("pgdown-{}", std::process::id());
    let db = Database::postgres("cluster_pg_down").await;
    let http = reqwest::Client::new();
    let (nodes, id, red, black) = two_nodes_one_game(&http, &db, &nats, &name, "pgdown").await;
    assert_eq!(play_via(&http, &nodes[0], &id, &red, "h2e2").await.0, 200);
    db.set_read_only(true).await;
    // Through the owner and through a forwarding node alike: 503, and nothing is acknowledged.
    for node in [1, 0] {
        let (status, refused) = play_via(&http, &nodes[node], &id, &black, "h9g7").await;
        assert_eq!(status, 503, "via node {node}: {refused}");
        let code = refused["error"]["code"].as_str().unwrap().to_owned();
        assert!(
            code == "storage_unavailable" || code == "cluster_unavailable",
            "via node {node}: {refused}"
        );
    }
    db.set_read_only(false).await;
    let moves: Vec<String> = db.moves().await.into_iter().map(|m| m.2).collect();
    assert_eq!(moves, ["h2e2"], "only the acknowledged move is stored");
    // Writes are back: the refused move is played now, on whichever node owns the game.
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (status, answer) = play_via(&http, &nodes[0], &id, &black, "h9g7").await;
        if status == 200 {
            break;
        }
        assert_eq!(status, 503, "{answer}");
        assert!(Instant::now() < deadline, "writes did not resume: {answer}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(play_via(&http, &nodes[1], &id, &red, "b0c2").await.0, 200);
    let (_, view) = get(&http, &nodes[1].base, &format!("/api/games/{id}"), None)
        .await
        .unwrap();
    assert_eq!(view["moves"], json!(["h2e2", "h9g7", "b0c2"]));
    drop(nodes);
    db.drop_database().await;
}

/// Cluster mode refuses to start on SQLite (nodes cannot share it), with a clear message and
/// nothing created; this needs neither PostgreSQL nor NATS.
#[test]
fn cluster_mode_needs_postgres() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("jiang.db");
    let output = Jiang::command("error")
        .args([
            "serve",
            "--database",
            &format!("sqlite://{}", db.display()),
            "--cluster",
            "nats://127.0.0.1:4222",
        ])
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("jiang runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--cluster needs a PostgreSQL database"),
        "{stderr}"
    );
    assert!(!db.exists(), "no database file was created");
}

/// `method` `base` + `path` as the player of `key` (`Authorization: Player <key>`): (status,
/// JSON).
async fn as_player(
    http: &reqwest::Client,
    method: reqwest::Method,
    url: String,
    key: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut request = http.request(method, url);
    if let Some(key) = key {
        request = request.header("authorization", format!("Player {key}"));
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// Players across nodes (issue 24): players created on different nodes meet in rated games run
/// by either node; every node reads the same ratings, straight after each game, from the store.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(cluster_tests),
    ignore = "set JIANG_TEST_DATABASE_URL and JIANG_TEST_NATS_URL to run the cluster tests"
)]
async fn ratings_are_the_stores_on_every_node() {
    use reqwest::Method;
    let nats = std::env::var("JIANG_TEST_NATS_URL").unwrap();
    let name = format!("players-{}", std::process::id());
    let db = Database::postgres("cluster_players").await;
    let http = reqwest::Client::new();
    let nodes: Vec<Node> = ["a", "b"]
        .iter()
        .map(|n| start_node(&db.url, &nats, &name, &format!("players-{n}")))
        .collect();
    let mut keys = Vec::new();
    for (node, player) in [(0, "ana"), (1, "ben")] {
        let url = format!("{}/api/players", nodes[node].base);
        let body = json!({ "name": player });
        let (status, created) = as_player(&http, Method::POST, url, None, Some(body)).await;
        assert_eq!(status, 201, "{created}");
        keys.push(created["key"].as_str().unwrap().to_owned());
    }
    // Game 1: created on a by ana, joined on b by ben (b runs it), resigned by ben through a.
    // Game 2: created on b by ben, joined on a by ana, resigned by ana through b.
    for (game, (creator, joiner)) in [(0, 1), (1, 0)].into_iter().enumerate() {
        let body = json!({"variant": "xiangqi", "side": "red", "rated": true,
                          "clock": {"main": 300, "increment": 3}});
        let url = format!("{}/api/games", nodes[creator].base);
        let (status, created) =
            as_player(&http, Method::POST, url, Some(&keys[creator]), Some(body)).await;
        assert_eq!(status, 201, "{created}");
        let id = created["id"].as_str().unwrap().to_owned();
        let url = format!("{}/api/games/{id}/join", nodes[joiner].base);
        let body = Some(json!({}));
        let (status, joined) = as_player(&http, Method::POST, url, Some(&keys[joiner]), body).await;
        assert_eq!(status, 200, "{joined}");
        let black = joined["token"].as_str().unwrap();
        let (status, answer) = act(&http, &nodes[creator].base, &id, black, "resign", json!({}))
            .await
            .unwrap();
        assert_eq!(status, 200, "{answer}");
        for node in &nodes {
            for (player, wins) in [("ana", 1), ("ben", game)] {
                let url = format!("{}/api/players/{player}", node.base);
                let (status, page) = as_player(&http, Method::GET, url, None, None).await;
                assert_eq!(status, 200, "{page}");
                let rating = &page["ratings"]["xiangqi"];
                assert_eq!(
                    rating["games"],
                    game + 1,
                    "{} on {}: {page}",
                    player,
                    node.id
                );
                let won = page["games"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|g| g["result"] == "win")
                    .count();
                assert_eq!(won, wins, "{player} on {}: {page}", node.id);
            }
        }
    }
    drop(nodes);
    db.drop_database().await;
}

/// A tournament socket opened as the player of `key`: its messages as they arrive.
async fn tournament_socket(base: &str, tournament: &str, key: &str) -> Socket {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let url = format!(
        "{}/api/tournaments/{tournament}/ws",
        base.replacen("http", "ws", 1)
    );
    let mut request = url.into_client_request().unwrap();
    request
        .headers_mut()
        .insert("authorization", format!("Player {key}").parse().unwrap());
    let (mut stream, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("tournament socket");
    let socket = Socket::default();
    let (messages, closed) = (socket.messages.clone(), socket.closed.clone());
    tokio::spawn(async move {
        while let Some(Ok(message)) = stream.next().await {
            if let Message::Text(text) = message {
                messages
                    .lock()
                    .unwrap()
                    .push(serde_json::from_str(&text).expect("JSON"));
            }
        }
        *closed.lock().unwrap() = true;
    });
    socket
}

/// The node that holds the tournaments' pairing lease, and its epoch.
async fn pairing_lease(db: &str) -> Option<(String, i64)> {
    let pool = sqlx::PgPool::connect(db).await.unwrap();
    let row = sqlx::query_as(
        "SELECT owner, epoch FROM tournament_leases WHERE name = 'pairing' AND expires_at > 0",
    )
    .fetch_optional(&pool)
    .await
    .unwrap();
    pool.close().await;
    row
}

/// Tournaments across nodes (issue 25): one node pairs (the lease holder), every node's sockets
/// hear the standings and "your next game"; when the pairing node is killed another takes the
/// lease over and pairs again, and nobody is ever in two games at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(cluster_tests),
    ignore = "set JIANG_TEST_DATABASE_URL and JIANG_TEST_NATS_URL to run the cluster tests"
)]
async fn an_arena_is_paired_by_one_node_and_survives_its_death() {
    use reqwest::Method;
    let nats = std::env::var("JIANG_TEST_NATS_URL").unwrap();
    let name = format!("tournaments-{}", std::process::id());
    let db = Database::postgres("cluster_tournaments").await;
    let http = reqwest::Client::new();
    let mut nodes: Vec<Node> = ["a", "b", "c"]
        .iter()
        .map(|n| start_node(&db.url, &nats, &name, &format!("tour-{n}")))
        .collect();
    let mut keys = Vec::new();
    let mut ids = Vec::new();
    for (i, player) in ["ana", "ben", "cid", "dan"].iter().enumerate() {
        let url = format!("{}/api/players", nodes[i % 3].base);
        let (status, created) = as_player(
            &http,
            Method::POST,
            url,
            None,
            Some(json!({ "name": player })),
        )
        .await;
        assert_eq!(status, 201, "{created}");
        keys.push(created["key"].as_str().unwrap().to_owned());
        ids.push(created["id"].as_str().unwrap().to_owned());
    }
    let url = format!("{}/api/tournaments", nodes[0].base);
    let body =
        json!({"kind": "arena", "variant": "xiangqi", "clock": {"main": 300}, "minutes": 60});
    let (status, created) = as_player(&http, Method::POST, url, Some(&keys[0]), Some(body)).await;
    assert_eq!(status, 201, "{created}");
    let tournament = created["id"].as_str().unwrap().to_owned();
    // Each player watches from another node than the one they join through.
    let mut sockets = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        sockets.push(tournament_socket(&nodes[(i + 1) % 3].base, &tournament, key).await);
        let url = format!("{}/api/tournaments/{tournament}/join", nodes[i % 3].base);
        let (status, joined) =
            as_player(&http, Method::POST, url, Some(key), Some(json!({}))).await;
        assert_eq!(status, 200, "{joined}");
    }
    for (i, socket) in sockets.iter().enumerate() {
        wait_for(&format!("player {i}'s next game on its socket"), || {
            !socket.of_type("game").is_empty()
        })
        .await;
    }
    let path = format!("/api/tournaments/{tournament}");
    let playing = |view: &Value| -> Vec<(String, String, String)> {
        view["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["result"] == "playing")
            .map(|g| {
                let s = |k: &str| g[k].as_str().unwrap().to_owned();
                (s("id"), s("first"), s("second"))
            })
            .collect()
    };
    let view = poll(&http, &nodes[2].base, &path, "two games", |v| {
        playing(v).len() == 2
    })
    .await;
    let first_games = playing(&view);
    let (leader, epoch) = pairing_lease(&db.url).await.expect("a node pairs");
    // Every socket heard the same standings (shared across nodes) and its own game only.
    for (i, socket) in sockets.iter().enumerate() {
        let game = &socket.of_type("game")[0];
        let mine = first_games
            .iter()
            .find(|(id, ..)| game["id"] == id.as_str())
            .expect("the socket's game is one of the two");
        assert!(
            mine.1 == ids[i] || mine.2 == ids[i],
            "player {i} plays in {mine:?}"
        );
        wait_for("standings with the two games", || {
            socket
                .of_type("standings")
                .iter()
                .any(|s| playing(s).len() == 2)
        })
        .await;
    }
    // The pairing node dies; both games end (the second seat resigns) through the others.
    let dead = nodes.iter().position(|n| n.id == leader).unwrap();
    nodes[dead].jiang.take().unwrap().stop("KILL");
    let alive: Vec<&Node> = nodes.iter().filter(|n| n.jiang.is_some()).collect();
    for (game, _, second) in &first_games {
        let i = ids.iter().position(|id| id == second).unwrap();
        let url = format!("{}/api/tournaments/{tournament}", alive[0].base);
        let (_, view) = as_player(&http, Method::GET, url, Some(&keys[i]), None).await;
        let token = view["my_game"]["token"].as_str().unwrap();
        assert_eq!(view["my_game"]["id"], game.as_str());
        let (status, answer) = act(&http, &alive[1].base, game, token, "resign", json!({}))
            .await
            .unwrap();
        assert_eq!(status, 200, "{answer}");
    }
    // Another node takes the lease over and pairs everyone again, once.
    let view = poll(
        &http,
        &alive[0].base,
        &path,
        "a second wave of games",
        |v| playing(v).len() == 2,
    )
    .await;
    let (successor, new_epoch) = pairing_lease(&db.url).await.expect("a node pairs");
    assert_ne!(successor, leader);
    assert!(new_epoch > epoch, "a take-over bumps the epoch");
    let second_games = playing(&view);
    let mut in_games: Vec<&String> = second_games.iter().flat_map(|(_, a, b)| [a, b]).collect();
    in_games.sort();
    in_games.dedup();
    assert_eq!(in_games.len(), 4, "everyone plays, once: {second_games:?}");
    let all = view["games"].as_array().unwrap();
    assert_eq!(
        all.len(),
        4,
        "two waves of two games, nothing paired twice: {view}"
    );
    let standings = view["standings"].as_array().unwrap();
    for (_, first, _) in &first_games {
        let line = standings
            .iter()
            .find(|l| l["id"] == first.as_str())
            .unwrap();
        assert_eq!(
            line["score"], 2.0,
            "the first wave's winners keep their points"
        );
    }
    // Sockets on the surviving nodes hear their second game.
    for (i, socket) in sockets.iter().enumerate() {
        if (i + 1) % 3 == dead {
            continue;
        }
        wait_for(&format!("player {i}'s second game"), || {
            socket.of_type("game").len() >= 2
        })
        .await;
    }
    drop(nodes);
    db.drop_database().await;
}

/// Correspondence across nodes (issue 25): a rated correspondence game whose deadline passes
/// while the whole cluster is down ends once, on time, when the nodes come back: both nodes'
/// deadline sweeps find it at start, and the game's lease lets exactly one of them settle it
/// (one rating change per player, not two).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(cluster_tests),
    ignore = "set JIANG_TEST_DATABASE_URL and JIANG_TEST_NATS_URL to run the cluster tests"
)]
async fn a_correspondence_deadline_is_settled_once_by_the_cluster() {
    use reqwest::Method;
    let nats = std::env::var("JIANG_TEST_NATS_URL").unwrap();
    let name = format!("corr-{}", std::process::id());
    let db = Database::postgres("cluster_correspondence").await;
    let http = reqwest::Client::new();
    let ids = ["corr-a", "corr-b"];
    let mut nodes: Vec<Node> = ids
        .iter()
        .map(|n| start_node(&db.url, &nats, &name, n))
        .collect();
    let mut keys = Vec::new();
    for (node, player) in [(0, "cora"), (1, "dan")] {
        let url = format!("{}/api/players", nodes[node].base);
        let body = json!({ "name": player });
        let (status, created) = as_player(&http, Method::POST, url, None, Some(body)).await;
        assert_eq!(status, 201, "{created}");
        keys.push(created["key"].as_str().unwrap().to_owned());
    }
    let body = json!({"variant": "xiangqi", "side": "red", "rated": true, "clock": {"days": 1}});
    let url = format!("{}/api/games", nodes[0].base);
    let (status, created) = as_player(&http, Method::POST, url, Some(&keys[0]), Some(body)).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_owned();
    let red = created["token"].as_str().unwrap().to_owned();
    let url = format!("{}/api/games/{id}/join", nodes[1].base);
    let (status, joined) =
        as_player(&http, Method::POST, url, Some(&keys[1]), Some(json!({}))).await;
    assert_eq!(status, 200, "{joined}");
    let black = joined["token"].as_str().unwrap().to_owned();
    for (node, token, mv) in [(0, &red, "h2e2"), (1, &black, "h7e7"), (0, &red, "h0g2")] {
        let (status, answer) = play_via(&http, &nodes[node], &id, token, mv).await;
        assert_eq!(status, 200, "{answer}");
    }
    // The whole cluster stops; black's day runs out meanwhile.
    for node in &mut nodes {
        node.jiang.take().unwrap().stop("TERM");
    }
    let pool = sqlx::PgPool::connect(&db.url).await.unwrap();
    sqlx::query("UPDATE games SET deadline_at = $1 WHERE id = $2")
        .bind(0_i64)
        .bind(&id)
        .execute(&pool)
        .await
        .unwrap();
    let nodes: Vec<Node> = ids
        .iter()
        .map(|n| start_node(&db.url, &nats, &name, n))
        .collect();
    let view = poll(
        &http,
        &nodes[1].base,
        &format!("/api/games/{id}"),
        "the flag",
        |v| v["status"] == "ended",
    )
    .await;
    assert_eq!(view["result"]["winner"], "red", "{view}");
    assert_eq!(view["result"]["reason"], "timeout");
    // Once: one rating change per player, in the correspondence ratings.
    let (rows,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM rating_history WHERE game_id = $1")
        .bind(&id)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(rows, 2);
    for node in &nodes {
        for player in ["cora", "dan"] {
            let url = format!("{}/api/players/{player}", node.base);
            let (status, page) = as_player(&http, Method::GET, url, None, None).await;
            assert_eq!(status, 200, "{page}");
            assert_eq!(page["correspondence"]["xiangqi"]["games"], 1, "{page}");
            assert!(page["ratings"].as_object().unwrap().is_empty(), "{page}");
        }
    }
    pool.close().await;
    drop(nodes);
    db.drop_database().await;
}
