//! The lobby against a real server: open seeks (create, list, join, cancel, the creator's
//! absence), quick pairing and its races, the "Watch" list and unlisted games, the counts, the
//! abuse limits, the lobby socket's messages, and the summaries behind "My games".

#[macro_use]
mod common;

use std::collections::BTreeMap;
use std::time::Duration;

use common::*;
use jiang_protocol::{
    ErrorCode, LiveGame, LobbyCounts, LobbyServerMessage, LobbySnapshot, Paired, Seek, Summaries,
};
use jiang_server::{LobbySettings, Rate};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// What a lobby socket has been told so far.
#[derive(Debug, Default)]
struct Seen {
    seeks: BTreeMap<String, Seek>,
    games: BTreeMap<String, LiveGame>,
    counts: LobbyCounts,
}

impl Seen {
    fn apply(&mut self, message: LobbyServerMessage) {
        match message {
            LobbyServerMessage::Snapshot(s) => {
                self.seeks = s.seeks.into_iter().map(|s| (s.id.clone(), s)).collect();
                self.games = s.games.into_iter().map(|g| (g.id.clone(), g)).collect();
                self.counts = s.counts;
            }
            LobbyServerMessage::Update(u) => {
                for seek in u.seeks {
                    self.seeks.insert(seek.id.clone(), seek);
                }
                for id in u.seeks_gone {
                    self.seeks.remove(&id);
                }
                for game in u.games {
                    self.games.insert(game.id.clone(), game);
                }
                for id in u.games_gone {
                    self.games.remove(&id);
                }
                if let Some(counts) = u.counts {
                    self.counts = counts;
                }
            }
            other => panic!("unexpected lobby message {other:?}"),
        }
    }
}

/// A lobby socket and what it has been told.
struct Lobby {
    socket: Socket,
    seen: Seen,
}

impl Lobby {
    async fn open(server: &TestServer) -> Lobby {
        let url = format!(
            "{}/api/lobby/ws",
            server.base.replacen("http://", "ws://", 1)
        );
        let mut lobby = Lobby {
            socket: connect(&url).await,
            seen: Seen::default(),
        };
        let first = lobby.next().await;
        assert!(
            matches!(first, LobbyServerMessage::Snapshot(_)),
            "{first:?}"
        );
        lobby.seen.apply(first);
        lobby
    }

    /// The next message (within 5 s), parsed strictly.
    async fn next(&mut self) -> LobbyServerMessage {
        let value =
            next_typed_json::<LobbyServerMessage>(&mut self.socket, Duration::from_secs(5)).await;
        typed(&value)
    }

    /// Reads messages until `done` holds for what was told (within 5 s each).
    async fn until(&mut self, what: &str, done: impl Fn(&Seen) -> bool) {
        for _ in 0..100 {
            if done(&self.seen) {
                return;
            }
            let message = self.next().await;
            self.seen.apply(message);
        }
        panic!("the lobby never showed {what}: {:?}", self.seen);
    }

    async fn send(&mut self, value: Value) {
        send(&mut self.socket, value).await;
    }
}

fn open_seek(variant: &str, clock: Value) -> Value {
    json!({"variant": variant, "clock": clock, "open": true})
}

on_both!(
    a_seek_is_listed_joined_and_becomes_a_watched_game,
    |server: TestServer| async move {
        let mut lobby = Lobby::open(&server).await;
        assert!(lobby.seen.seeks.is_empty() && lobby.seen.games.is_empty());
        // A private game is not a seek; an open one is, with what it offers.
        let (private, _, _) = server.create(json!({"variant": "xiangqi"})).await;
        let (id, side, token) = server
            .create(
                json!({"variant": "shogi", "clock": {"main": 600, "byoyomi": 30},
                           "side": "sente", "handicap": "bishop", "open": true}),
            )
            .await;
        assert_eq!(side, "sente");
        lobby.until("the seek", |s| s.seeks.contains_key(&id)).await;
        let seek = &lobby.seen.seeks[&id];
        assert_eq!(seek.variant, "shogi");
        assert_eq!(seek.side, "gote", "the seat whoever joins plays");
        assert_eq!(seek.handicap.as_deref(), Some("bishop"));
        let clock = seek.clock.expect("a clock");
        assert_eq!((clock.main, clock.byoyomi), (600.0, 30.0));
        assert!(!lobby.seen.seeks.contains_key(&private));
        let (status, snapshot) = server.get("/api/lobby", None).await;
        assert_eq!(status, StatusCode::OK);
        let snapshot: LobbySnapshot = typed(&snapshot);
        assert_eq!(snapshot.seeks.len(), 1);
        // The creator's page is on the game: one click of a stranger starts it.
        let mut creator = connect(&server.ws_url(&id, Some(&token))).await;
        next_of(&mut creator, "state").await;
        let (joined_side, _) = server.join(&id).await;
        assert_eq!(joined_side, "gote");
        assert_eq!(next_of(&mut creator, "state").await["status"], "playing");
        lobby
            .until("the seek gone and the game listed", |s| {
                !s.seeks.contains_key(&id) && s.games.contains_key(&id) && s.counts.games == 1
            })
            .await;
        let game = &lobby.seen.games[&id];
        assert_eq!((game.variant.as_str(), game.moves), ("shogi", 0));
        // Moves and spectators show up; the end takes it off the list.
        let mut watcher = connect(&server.ws_url(&id, None)).await;
        next_of(&mut watcher, "state").await;
        lobby
            .until("a spectator", |s| {
                s.games.get(&id).is_some_and(|g| g.spectators == 1)
            })
            .await;
        // Handicap: gote (the giver) moves first.
        let (_, v) = server.get(&format!("/api/games/{id}"), None).await;
        assert_eq!(v["to_move"], "gote");
        server.resign(&id, &token).await;
        lobby
            .until("the game off the list", |s| {
                !s.games.contains_key(&id) && s.counts.games == 0
            })
            .await;
        server.stop().await;
    }
);

on_both!(
    cancelling_a_seek_takes_it_off_the_lobby,
    |server: TestServer| async move {
        let mut lobby = Lobby::open(&server).await;
        let (id, _, token) = server
            .create(open_seek("jieqi", json!({"main": 300, "increment": 3})))
            .await;
        lobby.until("the seek", |s| s.seeks.contains_key(&id)).await;
        let (status, v) = server.action(&id, "abort", Some(&token), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["status"], "aborted");
        lobby
            .until("the seek gone", |s| !s.seeks.contains_key(&id))
            .await;
        // Joining it now is refused.
        assert_refused(
            server
                .post(&format!("/api/games/{id}/join"), None, json!({}))
                .await,
            StatusCode::CONFLICT,
            "game_over",
        );
        server.stop().await;
    }
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clicks_on_one_seek_seat_exactly_one() {
    let server = TestServer::start().await;
    for round in 0..5 {
        let (id, _, _) = server
            .create(open_seek("xiangqi", json!({"main": 600, "increment": 5})))
            .await;
        let path = format!("/api/games/{id}/join");
        let (a, b) = tokio::join!(
            server.post(&path, None, json!({})),
            server.post(&path, None, json!({}))
        );
        let mut statuses = [a.0, b.0];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::OK, StatusCode::CONFLICT],
            "round {round}"
        );
        let loser = if a.0 == StatusCode::CONFLICT {
            a.1
        } else {
            b.1
        };
        assert_eq!(loser["error"]["code"], "seat_taken");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_pairing_joins_a_matching_seek_or_opens_one() {
    let server = TestServer::start().await;
    let pair = |body: Value| {
        let server = &server;
        async move {
            let (status, v) = server.post("/api/lobby/pair", None, body).await;
            assert!(status.is_success(), "{v}");
            (status, typed::<Paired>(&v))
        }
    };
    let clock = json!({"main": 180, "increment": 2});
    // Nothing to join: a seek is opened.
    let (status, first) = pair(json!({"variant": "minishogi", "clock": clock})).await;
    assert_eq!((status, first.created), (StatusCode::CREATED, true));
    // The same browser does not join its own seek.
    let (_, again) = pair(json!({"variant": "minishogi", "clock": clock, "own": [first.id]})).await;
    assert!(again.created);
    assert_ne!(again.id, first.id);
    // Another clock or variant does not match.
    let (_, other) =
        pair(json!({"variant": "minishogi", "clock": {"main": 300, "increment": 3}})).await;
    assert!(other.created);
    // A stranger joins the oldest matching seek.
    let (status, joined) = pair(json!({"variant": "minishogi", "clock": clock})).await;
    assert_eq!((status, joined.created), (StatusCode::OK, false));
    assert_eq!(joined.id, first.id);
    assert_ne!(joined.side, first.side);
    assert_eq!(
        server.view(&first.id, Some(&first.token)).await["status"],
        "playing"
    );
    // Two strangers racing for the last matching seek: one takes it, the other opens its own.
    let body = json!({"variant": "minishogi", "clock": clock});
    let ((_, a), (_, b)) = tokio::join!(pair(body.clone()), pair(body));
    assert!(a.created != b.created, "{a:?} {b:?}");
    let taken = if a.created { &b } else { &a };
    assert_eq!(taken.id, again.id);
    // Bad requests are typed and change nothing.
    for (body, code) in [
        (
            json!({"variant": "chess", "clock": clock}),
            "unknown_variant",
        ),
        (
            json!({"variant": "xiangqi", "clock": {"main": -1}}),
            "invalid_request",
        ),
        (
            json!({"variant": "xiangqi", "clock": clock, "colour": "red"}),
            "unknown_field",
        ),
        (json!({"variant": "xiangqi"}), "invalid_request"),
    ] {
        assert_refused(
            server.post("/api/lobby/pair", None, body).await,
            StatusCode::BAD_REQUEST,
            code,
        );
    }
    server.stop().await;
}

/// A seek whose creator's page is gone (no game socket on its seat, no lobby socket holding
/// it) for the seek timeout leaves the lobby; a page that is there keeps it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seek_leaves_once_its_creator_is_gone_for_the_timeout() {
    let server = TestServer::with(Backend::Sqlite, "gone", |c| {
        c.lobby.seek_timeout = Duration::from_millis(600);
    })
    .await;
    let mut lobby = Lobby::open(&server).await;
    let clock = json!({"main": 300, "increment": 3});
    // Nobody ever shows up for this one.
    let (never, _, _) = server.create(open_seek("xiangqi", clock.clone())).await;
    // This creator waits on the game page; this one in the lobby (hold).
    let (on_page, _, page_token) = server.create(open_seek("xiangqi", clock.clone())).await;
    let mut page = connect(&server.ws_url(&on_page, Some(&page_token))).await;
    next_of(&mut page, "state").await;
    let (held, _, held_token) = server.create(open_seek("jieqi", clock.clone())).await;
    let mut holder = Lobby::open(&server).await;
    holder
        .send(
            json!({"type": "hold", "seats": [{"id": held, "token": held_token},
                                               {"id": never, "token": "not-the-token"}]}),
        )
        .await;
    lobby
        .until("the absent creator's seek gone", |s| {
            !s.seeks.contains_key(&never)
        })
        .await;
    // Well past the timeout the present creators' seeks are still there.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (_, v) = server.get("/api/lobby", None).await;
    let snapshot: LobbySnapshot = typed(&v);
    let ids: Vec<&str> = snapshot.seeks.iter().map(|s| s.id.as_str()).collect();
    assert!(
        ids.contains(&on_page.as_str()) && ids.contains(&held.as_str()),
        "{ids:?}"
    );
    // Both pages go away: both seeks follow.
    drop(page);
    drop(holder);
    lobby
        .until("both seeks gone", |s| {
            !s.seeks.contains_key(&on_page) && !s.seeks.contains_key(&held)
        })
        .await;
    // The game itself still waits: its private link works.
    assert_eq!(server.view(&on_page, None).await["status"], "waiting");
    server.stop().await;
}

on_both!(
    unlisted_games_are_counted_but_not_listed,
    |server: TestServer| async move {
        let mut lobby = Lobby::open(&server).await;
        let (listed, _, _) = server.game(json!({"variant": "xiangqi"}), "red").await;
        let (unlisted, _, _) = server
            .game(
                json!({"variant": "xiangqi", "clock": {"main": 60}, "unlisted": true}),
                "red",
            )
            .await;
        lobby
            .until("two games in play", |s| {
                s.counts.games == 2 && s.games.contains_key(&listed)
            })
            .await;
        assert!(!lobby.seen.games.contains_key(&unlisted));
        let (_, v) = server.get("/api/lobby", None).await;
        let snapshot: LobbySnapshot = typed(&v);
        assert_eq!(snapshot.games.len(), 1);
        assert_eq!(snapshot.games[0].id, listed);
        assert_eq!(snapshot.counts.games, 2);
        server.stop().await;
    }
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_online_counts_every_open_page() {
    let server = TestServer::start().await;
    let mut lobby = Lobby::open(&server).await;
    lobby.until("one player", |s| s.counts.players == 1).await;
    let (id, _, token) = server.create(json!({"variant": "minishogi"})).await;
    let _game_page = connect(&server.ws_url(&id, Some(&token))).await;
    let other = Lobby::open(&server).await;
    lobby
        .until("three players", |s| s.counts.players == 3)
        .await;
    drop(other);
    lobby.until("two players", |s| s.counts.players == 2).await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seek_caps_and_churn_are_limited_per_address() {
    let server = TestServer::with(Backend::Sqlite, "limits", |c| {
        c.lobby = LobbySettings {
            max_seeks_per_address: 2,
            seek_rate: Rate {
                per_second: 0.001,
                burst: 3.0,
            },
            ..LobbySettings::default()
        };
    })
    .await;
    let clock = json!({"main": 300, "increment": 3});
    let (a, _, a_token) = server.create(open_seek("xiangqi", clock.clone())).await;
    server.create(open_seek("xiangqi", clock.clone())).await;
    assert_refused(
        server
            .post("/api/games", None, open_seek("xiangqi", clock.clone()))
            .await,
        StatusCode::TOO_MANY_REQUESTS,
        ErrorCode::TooManySeeks.as_str(),
    );
    // So is a quick pairing that would open one.
    assert_refused(
        server
            .post(
                "/api/lobby/pair",
                None,
                json!({"variant": "jieqi", "clock": clock}),
            )
            .await,
        StatusCode::TOO_MANY_REQUESTS,
        "too_many_seeks",
    );
    // Private games are not seeks.
    server.create(json!({"variant": "xiangqi"})).await;
    // A cancel frees a place; the churn bucket (burst 3) is then empty.
    server.action(&a, "abort", Some(&a_token), json!({})).await;
    let (c, _, _) = server.create(open_seek("xiangqi", clock.clone())).await;
    // Taken: its place is free again, but not the churn budget.
    server.join(&c).await;
    assert_refused(
        server
            .post("/api/games", None, open_seek("xiangqi", clock))
            .await,
        StatusCode::TOO_MANY_REQUESTS,
        ErrorCode::SeekRateLimited.as_str(),
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_socket_refuses_bad_messages_and_answers_pings() {
    let server = TestServer::start().await;
    let mut lobby = Lobby::open(&server).await;
    lobby.send(json!({"type": "ping"})).await;
    assert_eq!(lobby.next().await, LobbyServerMessage::Pong {});
    for bad in [
        json!({"type": "join", "id": "x"}),
        json!({"type": "ping", "x": 1}),
        json!({"type": "hold", "seats": [{"id": "x"}]}),
    ] {
        lobby.send(bad.clone()).await;
        match lobby.next().await {
            LobbyServerMessage::Error { code, .. } => {
                assert_eq!(code, ErrorCode::InvalidMessage, "{bad}")
            }
            other => panic!("{bad}: {other:?}"),
        }
    }
    let seats: Vec<Value> = (0..33)
        .map(|i| json!({"id": format!("g{i}"), "token": "t"}))
        .collect();
    lobby.send(json!({"type": "hold", "seats": seats})).await;
    assert!(matches!(
        lobby.next().await,
        LobbyServerMessage::Error {
            code: ErrorCode::InvalidMessage,
            ..
        }
    ));
    // Still open.
    lobby.send(json!({"type": "ping"})).await;
    assert_eq!(lobby.next().await, LobbyServerMessage::Pong {});
    server.stop().await;
}

on_both!(
    summaries_tell_what_a_spectator_sees,
    |server: TestServer| async move {
        let (over, red, _) = server
            .game(json!({"variant": "xiangqi", "clock": {"main": 60}}), "red")
            .await;
        server.resign(&over, &red).await;
        let (playing, first, _) = server.game(json!({"variant": "shogi"}), "sente").await;
        server.play(&playing, &first, "7g7f").await;
        let (waiting, _, _) = server.create(json!({"variant": "jieqi"})).await;
        let body = json!({"ids": [over, "nosuchgame1", playing, waiting, "../bad"]});
        let (status, v) = server.post("/api/summaries", None, body).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let summaries: Summaries = typed(&v);
        let ids: Vec<&str> = summaries.games.iter().map(|g| g.id.as_str()).collect();
        assert_eq!(ids, [over.as_str(), playing.as_str(), waiting.as_str()]);
        let [a, b, c] = &summaries.games[..] else {
            unreachable!()
        };
        assert_eq!(a.status.name(), "ended");
        let result = a.result.as_ref().expect("a result");
        assert_eq!(
            (result.winner.as_deref(), result.reason.as_str()),
            (Some("black"), "resignation")
        );
        assert_eq!(a.clock.map(|c| c.main), Some(60.0));
        assert_eq!(
            (b.status.name(), b.moves, b.result.is_none()),
            ("playing", 1, true)
        );
        assert_eq!(c.status.name(), "waiting");
        // Nothing secret: no token, no deal.
        let text = v.to_string();
        assert!(!text.contains("token") && !text.contains("deal") && !text.contains("salt"));
        let many: Vec<String> = (0..101).map(|i| format!("id{i}")).collect();
        assert_refused(
            server
                .post("/api/summaries", None, json!({"ids": many}))
                .await,
            StatusCode::BAD_REQUEST,
            "invalid_request",
        );
        server.stop().await;
    }
);

// Issue 22: a seek's creator who went elsewhere on the site (any page keeps a lobby socket
// holding the seeks the browser created) learns within 2 s that a stranger took it: the seek
// leaves (`seeks_gone`) and the summaries say the game is being played; the creator then
// reaches the game and plays in it, and the game is not aborted for their absence.
on_both!(
    a_seek_creator_elsewhere_learns_within_two_seconds_that_it_was_taken,
    |server: TestServer| async move {
        let (id, side, token) = server
            .create(
                json!({"variant": "xiangqi", "clock": {"main": 300, "increment": 3},
                           "side": "red", "open": true}),
            )
            .await;
        assert_eq!(side, "red");
        // The creator is on another page (a rules page, say): a lobby socket holds the seek.
        let mut elsewhere = Lobby::open(&server).await;
        elsewhere
            .send(json!({"type": "hold", "seats": [{"id": id, "token": token}]}))
            .await;
        elsewhere
            .until("the seek", |s| s.seeks.contains_key(&id))
            .await;
        let taken_at = std::time::Instant::now();
        let (joined_side, _) = server.join(&id).await;
        assert_eq!(joined_side, "black");
        elsewhere
            .until("the seek gone", |s| !s.seeks.contains_key(&id))
            .await;
        let (status, v) = server
            .post("/api/summaries", None, json!({"ids": [id]}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let summaries: Summaries = typed(&v);
        assert_eq!(
            summaries.games[0].status,
            jiang_protocol::GameStatus::Playing
        );
        assert!(
            taken_at.elapsed() < Duration::from_secs(2),
            "told in {:?}",
            taken_at.elapsed()
        );
        // Taken to the game, the creator moves first: the game goes on.
        let mut page = connect(&server.ws_url(&id, Some(&token))).await;
        next_of(&mut page, "state").await;
        server.play(&id, &token, "h2e2").await;
        assert_eq!(server.view(&id, None).await["status"], "playing");
        server.stop().await;
    }
);
