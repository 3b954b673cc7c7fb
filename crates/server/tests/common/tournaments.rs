//! Helpers of the tournament tests (`tournaments.rs`, `tournament_socket.rs`): players,
//! tournaments, their views and sockets.

use std::time::Duration;

use jiang_protocol::{
    PlayerCreated, TournamentEntry, TournamentServerMessage, TournamentSummary, TournamentView,
};
use jiang_server::{Config, Rate, TournamentSettings};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use super::{Socket, TestServer, next_typed_json, typed};

/// A quick pairing loop, and as many players as a test needs from one address.
pub fn quick(c: &mut Config) {
    c.player_rate = Rate::UNLIMITED;
    c.tournaments = TournamentSettings {
        tick: Duration::from_millis(100),
        arena_pair_wait: Duration::from_millis(800),
        ..TournamentSettings::default()
    };
}

/// [`quick`], with an hourly arena and a weekly Swiss on the server's schedule.
pub fn scheduled(c: &mut Config) {
    quick(c);
    c.tournaments.schedule = vec![
        "hourly@:00 xiangqi 3+2 57m rated".parse().unwrap(),
        "weekly@sat-18:00 shogi 10|30 7r".parse().unwrap(),
    ];
}

/// A new player named `name`: (id, key).
pub async fn new_player(s: &TestServer, name: &str) -> (String, String) {
    let (status, v) = s
        .as_player(
            Method::POST,
            "/api/players",
            None,
            Some(json!({ "name": name })),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let created: PlayerCreated = typed(&v);
    (created.id, created.key)
}

/// Creates a tournament as `key`, expecting `201`.
pub async fn create(s: &TestServer, key: &str, body: Value) -> TournamentSummary {
    let (status, v) = s
        .as_player(Method::POST, "/api/tournaments", Some(key), Some(body))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    typed(&v)
}

/// `GET /api/tournaments/{id}`, as the player of `key` if given.
pub async fn view(s: &TestServer, id: &str, key: Option<&str>) -> TournamentView {
    let (status, v) = s
        .as_player(Method::GET, &format!("/api/tournaments/{id}"), key, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let parsed: TournamentView = typed(&v);
    assert!(v.get("my_game").is_some(), "my_game is always there: {v}");
    parsed
}

/// `POST /api/tournaments/{id}/{action}` as `key`.
pub async fn act(s: &TestServer, id: &str, action: &str, key: Option<&str>) -> (StatusCode, Value) {
    s.as_player(
        Method::POST,
        &format!("/api/tournaments/{id}/{action}"),
        key,
        Some(json!({})),
    )
    .await
}

pub async fn join(s: &TestServer, id: &str, key: &str) {
    let (status, v) = act(s, id, "join", Some(key)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let entry: TournamentEntry = typed(&v);
    assert!(!entry.withdrawn);
}

/// Polls the tournament until `done` holds (within 15 s); the view that satisfied it.
pub async fn wait_for(
    s: &TestServer,
    id: &str,
    what: &str,
    done: impl Fn(&TournamentView) -> bool,
) -> TournamentView {
    for _ in 0..150 {
        let v = view(s, id, None).await;
        if done(&v) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{what}: not within 15 s: {:?}", view(s, id, None).await);
}

/// The games still being played.
pub fn playing(v: &TournamentView) -> Vec<(String, String, String)> {
    v.state
        .games
        .iter()
        .filter(|g| g.result == "playing")
        .map(|g| (g.id.clone(), g.first.clone(), g.second.clone()))
        .collect()
}

/// Resigns game `game` as the player of `key` (its seat found through `my_game`).
pub async fn resign_as(s: &TestServer, tournament: &str, game: &str, key: &str) {
    let mine = view(s, tournament, Some(key))
        .await
        .my_game
        .expect("the player has a game");
    assert_eq!(mine.id, game, "my_game is the game in progress");
    s.resign(game, &mine.token).await;
}

/// The score of player `id` in the standings.
pub fn score_of(v: &TournamentView, id: &str) -> f64 {
    v.state
        .standings
        .iter()
        .find(|s| s.id == id)
        .unwrap_or_else(|| panic!("{id} is in the standings"))
        .score
}

/// Opens the tournament socket, as the player of `key` if given (`Authorization: Player`).
pub async fn socket(s: &TestServer, id: &str, key: Option<&str>) -> Socket {
    let url = format!(
        "{}/api/tournaments/{id}/ws",
        s.base.replacen("http://", "ws://", 1)
    );
    let mut request = url.into_client_request().unwrap();
    if let Some(key) = key {
        request
            .headers_mut()
            .insert("authorization", format!("Player {key}").parse().unwrap());
    }
    let (socket, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("the socket opens");
    socket
}

/// The next tournament-socket message (within 10 s).
pub async fn next(socket: &mut Socket) -> Value {
    next_typed_json::<TournamentServerMessage>(socket, Duration::from_secs(10)).await
}

/// `secs` since the epoch as RFC 3339 UTC.
pub fn rfc3339(secs: u64) -> String {
    let (y, m, d, hh, mm, ss) = jiang_rules::utc_civil(i64::try_from(secs).unwrap() * 1000);
    format!("{y:04}-{m:02}-{d:02}T{hh:02}:{mm:02}:{ss:02}Z")
}

/// The ids of tournament `id`'s standings, best first (`GET /api/tournaments/{id}`).
pub async fn standings_ids(s: &TestServer, id: &str) -> Vec<String> {
    view(s, id, None)
        .await
        .state
        .standings
        .iter()
        .map(|l| l.id.clone())
        .collect()
}
