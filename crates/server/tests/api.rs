//! The game server end to end: real server, real database, real HTTP and WebSockets.
//! Tests marked `on_both!` also run against PostgreSQL when `JIANG_TEST_DATABASE_URL` is set
//! (without it, their `postgres` halves are reported as ignored; see `common::postgres_url`).

#[macro_use]
mod common;

use std::time::Duration;

use common::{Backend, TestServer, assert_refused, connect, next_json, next_of, send};
use reqwest::StatusCode;
use serde_json::{Value, json};

const MATE_IN_ONE: &str = "4k4/8R/9/9/9/9/9/9/R8/3K5 w - - 0 1";

on_both!(checkmate_from_a_custom_fen, |s: TestServer| async move {
    let (id, red, black) = s
        .game(json!({"variant": "xiangqi", "fen": MATE_IN_ONE}), "red")
        .await;
    let view = s.view(&id, Some(&red)).await;
    assert_eq!(view["status"], "playing");
    assert_eq!(view["you"], "red");
    assert_eq!(view["to_move"], "red");
    assert!(
        view["legal_moves"]
            .as_array()
            .unwrap()
            .contains(&json!("a1a9"))
    );
    assert_eq!(view["initial_fen"], view["fen"]);
    // Black's view has no legal moves (not its turn).
    let black_view = s.view(&id, Some(&black)).await;
    assert_eq!(black_view["you"], "black");
    assert_eq!(black_view["legal_moves"], json!([]));
    let end = s.play(&id, &red, "a1a9").await;
    assert_eq!(end["status"], "ended");
    assert_eq!(end["result"]["winner"], "red");
    assert_eq!(end["result"]["reason"], "checkmate");
    assert_eq!(end["moves"], json!(["a1a9"]));
    // The end is stored: a fresh read from another viewer agrees.
    let spectator = s.view(&id, None).await;
    assert_eq!(spectator["result"]["reason"], "checkmate");
    assert_eq!(spectator["you"], Value::Null);
    s.stop().await;
});

on_both!(resignation, |s: TestServer| async move {
    let (id, red, black) = s.game(json!({"variant": "xiangqi"}), "red").await;
    let mut black_socket = connect(&s.ws_url(&id, Some(&black))).await;
    let state = next_of(&mut black_socket, "state").await;
    assert_eq!(state["you"], "black");
    s.play(&id, &red, "h2e2").await;
    let moved = next_of(&mut black_socket, "move").await;
    assert_eq!(moved["move"], "h2e2");
    assert_eq!(moved["ply"], 1);
    assert_eq!(moved["to_move"], "black");
    assert!(!moved["legal_moves"].as_array().unwrap().is_empty());
    send(&mut black_socket, json!({"type": "resign"})).await;
    let end = next_of(&mut black_socket, "end").await;
    assert_eq!(
        end["result"],
        json!({"winner": "red", "reason": "resignation", "result": "1-0"})
    );
    let view = s.view(&id, None).await;
    assert_eq!(view["status"], "ended");
    s.stop().await;
});

#[tokio::test]
async fn draw_by_agreement_and_declines() {
    let s = TestServer::start().await;
    let (id, red, black) = s.game(json!({"variant": "xiangqi"}), "red").await;
    s.play(&id, &red, "h2e2").await;
    let draw = |token: String, action: &'static str| {
        let s = &s;
        let id = id.clone();
        async move {
            s.action(&id, "draw", Some(&token), json!({"action": action}))
                .await
        }
    };
    // Nothing to accept yet.
    assert_refused(
        draw(red.clone(), "accept").await,
        StatusCode::CONFLICT,
        "no_draw_offer",
    );
    let (status, v) = draw(black.clone(), "offer").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["draw_offer"], "black");
    let (status, v) = draw(red.clone(), "decline").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["draw_offer"], Value::Null);
    let (_, v) = draw(black.clone(), "offer").await;
    assert_eq!(v["draw_offer"], "black");
    let (status, v) = draw(red.clone(), "accept").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["result"]["reason"], "agreement");
    assert_eq!(v["result"]["winner"], Value::Null);
    // Shogi has no agreed draws.
    let (sid, sente, _) = s.game(json!({"variant": "shogi"}), "sente").await;
    assert_refused(
        s.action(&sid, "draw", Some(&sente), json!({"action": "offer"}))
            .await,
        StatusCode::BAD_REQUEST,
        "draw_not_allowed",
    );
    s.stop().await;
}

#[tokio::test]
async fn abort_before_both_sides_moved_and_not_after() {
    let s = TestServer::start().await;
    let (id, red, black) = s.game(json!({"variant": "xiangqi"}), "red").await;
    s.play(&id, &red, "h2e2").await;
    let (status, v) = s.action(&id, "abort", Some(&black), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["status"], "aborted");
    assert_eq!(v["result"]["reason"], "aborted");
    assert_eq!(v["result"]["result"], "*");
    let (id, red, black) = s.game(json!({"variant": "xiangqi"}), "red").await;
    s.play(&id, &red, "h2e2").await;
    s.play(&id, &black, "h7e7").await;
    assert_refused(
        s.action(&id, "abort", Some(&red), json!({})).await,
        StatusCode::CONFLICT,
        "too_late_to_abort",
    );
    s.stop().await;
}

on_both!(
    first_move_timeout_aborts,
    |c: &mut jiang_server::Config| c.first_move_timeout = Duration::from_millis(300),
    |s: TestServer| async move {
        let (id, red, black) = s.game(json!({"variant": "minishogi"}), "sente").await;
        let mut socket = connect(&s.ws_url(&id, None)).await;
        next_of(&mut socket, "state").await;
        // Sente moves in time; gote does not: the server's own timer aborts the game.
        s.play(&id, &red, "5d5c").await;
        let end = next_of(&mut socket, "end").await;
        assert_eq!(end["status"], "aborted");
        assert_eq!(end["result"]["reason"], "aborted");
        let (status, _) = s
            .action(&id, "move", Some(&black), json!({"move": "1b1c"}))
            .await;
        assert_eq!(status, StatusCode::CONFLICT);
        s.stop().await;
    }
);

on_both!(timeout_with_a_short_clock, |s: TestServer| async move {
    let (id, red, black) = s
        .game(json!({"variant": "xiangqi", "clock": {"main": 0.4}}), "red")
        .await;
    let view = s.view(&id, None).await;
    assert_eq!(view["clock"]["red"]["ms"], 400);
    assert_eq!(view["clock"]["running"], Value::Null);
    assert!(view["time_control"].is_string());
    let mut socket = connect(&s.ws_url(&id, Some(&red))).await;
    next_of(&mut socket, "state").await;
    s.play(&id, &red, "h2e2").await;
    s.play(&id, &black, "h7e7").await;
    // The clock runs for red only now; nobody moves: red flags by the server's timer.
    let moved = next_of(&mut socket, "move").await;
    let moved = if moved["ply"] == 1 {
        next_of(&mut socket, "move").await
    } else {
        moved
    };
    assert_eq!(moved["clock"]["running"], "red");
    let end = next_of(&mut socket, "end").await;
    assert_eq!(end["result"]["winner"], "black");
    assert_eq!(end["result"]["reason"], "timeout");
    assert_eq!(end["clock"]["red"]["ms"], 0);
    // A late move changes nothing.
    assert_refused(
        s.action(&id, "move", Some(&red), json!({"move": "b2e2"}))
            .await,
        StatusCode::CONFLICT,
        "game_over",
    );
    s.stop().await;
});

#[tokio::test]
async fn timeout_against_insufficient_material_is_a_draw() {
    let s = TestServer::start().await;
    // Black has only its general and an advisor: it could never give check.
    let (id, red, black) = s
        .game(
            json!({"variant": "xiangqi", "fen": "4k4/4a4/9/9/9/9/9/9/8R/3K5 w - - 0 1",
                   "clock": {"main": 0.3}}),
            "red",
        )
        .await;
    let mut socket = connect(&s.ws_url(&id, None)).await;
    s.play(&id, &red, "i1i2").await;
    s.play(&id, &black, "e8f9").await;
    let end = next_of(&mut socket, "end").await;
    assert_eq!(end["result"]["winner"], Value::Null);
    assert_eq!(end["result"]["reason"], "timeout-vs-insufficient");
    s.stop().await;
}

#[tokio::test]
async fn move_limit_and_repetition_from_fen_positions() {
    let s = TestServer::start().await;
    let (id, red, _) = s
        .game(
            json!({"variant": "xiangqi", "fen": "r3k4/9/9/9/9/9/9/9/9/3K1R3 w - - 119 80"}),
            "red",
        )
        .await;
    let end = s.play(&id, &red, "f0f1").await;
    assert_eq!(end["result"]["reason"], "move-limit");
    let (id, red, black) = s
        .game(
            json!({"variant": "xiangqi", "fen": "r3k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"}),
            "red",
        )
        .await;
    let mut last = Value::Null;
    for (i, mv) in [
        "a0a1", "a9a8", "a1a0", "a8a9", "a0a1", "a9a8", "a1a0", "a8a9",
    ]
    .into_iter()
    .enumerate()
    {
        last = s
            .play(&id, if i % 2 == 0 { &red } else { &black }, mv)
            .await;
    }
    assert_eq!(last["result"]["reason"], "repetition");
    assert_eq!(last["result"]["result"], "1/2-1/2");
    s.stop().await;
}

/// Sente to move with its king and ten pieces in the zone and 28 points (26 on the board,
/// two pawns in hand).
const IMPASSE: &str = "RBGG1SSBR/3S1S3/4K4/9/9/9/9/9/4k4 b 2P 1";

on_both!(impasse_declaration, |s: TestServer| async move {
    // From the start the declaration fails and says why; the game goes on.
    let (id, sente, gote) = s.game(json!({"variant": "shogi"}), "sente").await;
    let v = assert_refused(
        s.action(&id, "impasse", Some(&sente), json!({})).await,
        StatusCode::BAD_REQUEST,
        "impasse_rejected",
    );
    assert!(
        v["error"]["message"].as_str().unwrap().contains("zone"),
        "{v}"
    );
    assert_eq!(v["error"]["reason"], "king_not_in_zone", "{v}");
    let (status, _) = s.action(&id, "impasse", Some(&gote), json!({})).await;
    assert_eq!(status, StatusCode::CONFLICT, "not gote's turn");
    assert_eq!(s.view(&id, None).await["status"], "playing");
    // Minishogi has no impasse rule.
    let (mid, msente, _) = s.game(json!({"variant": "minishogi"}), "sente").await;
    assert_refused(
        s.action(&mid, "impasse", Some(&msente), json!({})).await,
        StatusCode::BAD_REQUEST,
        "impasse_not_allowed",
    );
    // A position where it holds.
    let (id, sente, _) = s
        .game(
            json!({"variant": "shogi", "fen": IMPASSE, "clock": {"main": 60}}),
            "sente",
        )
        .await;
    let view = s.view(&id, None).await;
    assert_eq!(view["impasse"]["sente"]["declaration"], 28);
    let (status, v) = s.action(&id, "impasse", Some(&sente), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v["result"],
        json!({"winner": "sente", "reason": "impasse", "result": "1-0"})
    );
    let kif = s
        .get_text(&format!("/api/games/{id}/record?format=kif"))
        .await;
    assert!(kif.contains("入玉勝ち"), "{kif}");
    s.stop().await;
});

#[tokio::test]
async fn bad_input_is_refused_and_changes_nothing() {
    let s = TestServer::start().await;
    assert_refused(
        s.post_raw("/api/games", None, b"{\"variant\": ".to_vec())
            .await,
        StatusCode::BAD_REQUEST,
        "malformed_json",
    );
    // (body, error code, a word the message must name)
    let refused_creations = [
        (json!({"variant": "chess"}), "unknown_variant", "chess"),
        (
            json!({"variant": "xiangqi", "colour": "red"}),
            "unknown_field",
            "colour",
        ),
        (
            json!({"variant": "xiangqi", "clock": {"main": 60, "bonus": 1}}),
            "unknown_field",
            "bonus",
        ),
        (
            json!({"variant": "xiangqi", "clock": {"main": -5}}),
            "invalid_request",
            "",
        ),
        (
            json!({"variant": "xiangqi", "fen": "9/9/9 w"}),
            "invalid_fen",
            "",
        ),
        (
            json!({"variant": "jieqi", "fen": MATE_IN_ONE}),
            "unsupported",
            "",
        ),
        (
            json!({"variant": "shogi", "handicap": "queen"}),
            "invalid_handicap",
            "queen",
        ),
        (
            json!({"variant": "shogi", "side": "red"}),
            "invalid_side",
            "",
        ),
    ];
    for (body, code, named) in refused_creations {
        let v = assert_refused(
            s.post("/api/games", None, body).await,
            StatusCode::BAD_REQUEST,
            code,
        );
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains(named), "{code} should name `{named}`: {v}");
    }
    assert_refused(
        s.post_raw("/api/games", None, vec![b' '; 17 * 1024]).await,
        StatusCode::PAYLOAD_TOO_LARGE,
        "too_large",
    );

    let (id, red, black) = s.game(json!({"variant": "xiangqi"}), "red").await;
    let before = s.view(&id, None).await;
    let path = format!("/api/games/{id}/move");
    assert_refused(
        s.post(&path, None, json!({"move": "h2e2"})).await,
        StatusCode::UNAUTHORIZED,
        "missing_token",
    );
    assert_refused(
        s.post(&path, Some("not-a-token"), json!({"move": "h2e2"}))
            .await,
        StatusCode::FORBIDDEN,
        "wrong_token",
    );
    assert_refused(
        s.post(&path, Some(&black), json!({"move": "h7e7"})).await,
        StatusCode::CONFLICT,
        "not_your_turn",
    );
    let v = assert_refused(
        s.post(&path, Some(&red), json!({"move": "a0a5"})).await,
        StatusCode::BAD_REQUEST,
        "illegal_move",
    );
    assert_eq!(v["error"]["reason"], "unreachable", "{v}");
    let v = assert_refused(
        s.post(&path, Some(&red), json!({"move": "zz"})).await,
        StatusCode::BAD_REQUEST,
        "illegal_move",
    );
    assert_eq!(v["error"]["reason"], "malformed", "{v}");
    let v = assert_refused(
        s.post(&path, Some(&black), json!({"move": "h7e7"})).await,
        StatusCode::CONFLICT,
        "not_your_turn",
    );
    assert!(
        v["error"].get("reason").is_none(),
        "only rules refusals: {v}"
    );
    assert_refused(
        s.post(&path, Some(&red), json!({"mv": "h2e2"})).await,
        StatusCode::BAD_REQUEST,
        "unknown_field",
    );
    assert_refused(
        s.action(&id, "join", None, json!({})).await,
        StatusCode::CONFLICT,
        "seat_taken",
    );
    assert_refused(
        s.get(&format!("/api/games/{id}"), Some("wrong")).await,
        StatusCode::FORBIDDEN,
        "wrong_token",
    );
    assert_refused(
        s.get("/api/games/doesNotExist1", None).await,
        StatusCode::NOT_FOUND,
        "game_not_found",
    );
    assert_refused(
        s.get("/api/games/..%2Fetc", None).await,
        StatusCode::NOT_FOUND,
        "game_not_found",
    );
    let mut after = s.view(&id, None).await;
    after["first_move_ms"] = before["first_move_ms"].clone();
    after["away"] = before["away"].clone();
    assert_eq!(after, before, "nothing changed");

    // After the end, moves are refused.
    s.resign(&id, &red).await;
    assert_refused(
        s.post(&path, Some(&red), json!({"move": "h2e2"})).await,
        StatusCode::CONFLICT,
        "game_over",
    );

    // WebSocket: bad messages get errors, the socket stays usable.
    let (id, red, _) = s.game(json!({"variant": "xiangqi"}), "red").await;
    let mut socket = connect(&s.ws_url(&id, Some(&red))).await;
    next_of(&mut socket, "state").await;
    socket.send_text("{not json").await;
    let e = next_of(&mut socket, "error").await;
    assert_eq!(e["code"], "invalid_message");
    let big = json!({"type": "move", "move": "x".repeat(5000)}).to_string();
    socket.send_text(&big).await;
    let e = next_of(&mut socket, "error").await;
    assert_eq!(e["code"], "too_large");
    send(&mut socket, json!({"type": "move", "move": "a0a5"})).await;
    let e = next_of(&mut socket, "error").await;
    assert_eq!(e["code"], "illegal_move");
    assert_eq!(e["reason"], "unreachable", "{e}");
    send(&mut socket, json!({"type": "move", "move": "h2e2"})).await;
    let m = next_of(&mut socket, "move").await;
    assert_eq!(m["move"], "h2e2");
    s.stop().await;
}

trait SendText {
    async fn send_text(&mut self, text: &str);
}

impl SendText for common::Socket {
    async fn send_text(&mut self, text: &str) {
        use futures_util::SinkExt;
        self.send(tokio_tungstenite::tungstenite::Message::Text(
            text.to_owned().into(),
        ))
        .await
        .expect("send");
    }
}

#[tokio::test]
async fn floods_are_rate_limited() {
    let s = TestServer::with(Backend::Sqlite, "flood", |c| {
        c.rate_limit = jiang_server::Rate {
            per_second: 2.0,
            burst: 5.0,
        }
    })
    .await;
    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(s.get("/api/games/abcdefgh12", None).await);
    }
    let limited: Vec<_> = statuses
        .iter()
        .filter(|(st, _)| *st == StatusCode::TOO_MANY_REQUESTS)
        .collect();
    assert!(!limited.is_empty(), "{statuses:?}");
    assert_eq!(limited[0].1["error"]["code"], "rate_limited");
    // Pages are not limited.
    let page = s.http.get(s.url("/healthz")).send().await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    s.stop().await;
}

#[tokio::test]
async fn two_spectators_follow_a_game() {
    let s = TestServer::start().await;
    let (id, red, black) = s.game(json!({"variant": "xiangqi"}), "red").await;
    let mut a = connect(&s.ws_url(&id, None)).await;
    let state = next_of(&mut a, "state").await;
    assert_eq!(state["you"], Value::Null);
    let mut b = connect(&s.ws_url(&id, None)).await;
    next_of(&mut b, "state").await;
    let mut count = next_of(&mut a, "spectators").await;
    while count["spectators"] != 2 {
        count = next_of(&mut a, "spectators").await;
    }
    s.play(&id, &red, "h2e2").await;
    s.play(&id, &black, "h7e7").await;
    for socket in [&mut a, &mut b] {
        let m1 = next_of(socket, "move").await;
        let m2 = next_of(socket, "move").await;
        assert_eq!(
            (m1["move"].clone(), m2["move"].clone()),
            (json!("h2e2"), json!("h7e7"))
        );
        assert_eq!(
            m2["legal_moves"],
            json!([]),
            "spectators get no legal moves"
        );
    }
    assert_eq!(s.view(&id, None).await["spectators"], 2);
    drop(b);
    let count = next_of(&mut a, "spectators").await;
    assert_eq!(count["spectators"], 1);
    s.stop().await;
}

#[tokio::test]
async fn rematch_swaps_sides_and_tells_each_player_its_token() {
    let s = TestServer::start().await;
    let (id, red, black) = s
        .game(json!({"variant": "xiangqi", "clock": {"main": 300}}), "red")
        .await;
    let mut red_socket = connect(&s.ws_url(&id, Some(&red))).await;
    let mut black_socket = connect(&s.ws_url(&id, Some(&black))).await;
    let mut spectator = connect(&s.ws_url(&id, None)).await;
    s.resign(&id, &red).await;
    let (st, v) = s.action(&id, "rematch", Some(&red), json!({})).await;
    assert_eq!(st, StatusCode::OK);
    assert_eq!(v["rematch"]["requested"], json!(["red"]));
    send(&mut black_socket, json!({"type": "rematch"})).await;
    let mut seen = Vec::new();
    for socket in [&mut red_socket, &mut black_socket, &mut spectator] {
        let mut event = next_of(socket, "rematch").await;
        while event["id"].is_null() {
            event = next_of(socket, "rematch").await;
        }
        seen.push(event);
    }
    let next_id = seen[0]["id"].as_str().unwrap().to_owned();
    assert_eq!(seen[1]["id"], seen[0]["id"]);
    assert_eq!(seen[0]["side"], "black", "sides swap");
    assert_eq!(seen[1]["side"], "red");
    assert!(seen[2].get("token").is_none(), "spectators get no token");
    let new_red = seen[1]["token"].as_str().unwrap();
    let new_black = seen[0]["token"].as_str().unwrap();
    let view = s.view(&next_id, Some(new_red)).await;
    assert_eq!(view["you"], "red");
    assert_eq!(view["status"], "playing");
    assert_eq!(view["time_control"], "5+0");
    assert_eq!(s.view(&next_id, Some(new_black)).await["you"], "black");
    // The old tokens hold no seat in the new game.
    let (st, _) = s.get(&format!("/api/games/{next_id}"), Some(&red)).await;
    assert_eq!(st, StatusCode::FORBIDDEN);
    s.play(&next_id, new_red, "h2e2").await;
    s.stop().await;
}

on_both!(
    rematch_tokens_survive_restarts,
    |s: TestServer| async move {
        let (id, red, black) = s.game(json!({"variant": "shogi"}), "sente").await;
        s.resign(&id, &red).await;
        let (st, _) = s.action(&id, "rematch", Some(&red), json!({})).await;
        assert_eq!(st, StatusCode::OK);
        // The first request survives a restart; the second creates the game.
        let s = s.restart().await;
        let (st, v) = s.action(&id, "rematch", Some(&black), json!({})).await;
        assert_eq!(st, StatusCode::OK, "{v}");
        let next_id = v["rematch"]["id"].as_str().unwrap().to_owned();
        assert_eq!(v["rematch"]["side"], "sente", "sides swap");
        let black_new = v["rematch"]["token"].as_str().unwrap().to_owned();
        // Nobody was told the first asker's token before this restart: it is derived again from
        // the token that player shows.
        let s = s.restart().await;
        let red_view = s.view(&id, Some(&red)).await;
        assert_eq!(red_view["rematch"]["id"], json!(next_id));
        assert_eq!(red_view["rematch"]["side"], "gote");
        let red_new = red_view["rematch"]["token"].as_str().unwrap().to_owned();
        assert_ne!(red_new, black_new);
        // Every tab gets the same token: over a socket too.
        let mut socket = connect(&s.ws_url(&id, Some(&red))).await;
        let state = next_of(&mut socket, "state").await;
        assert_eq!(state["rematch"]["token"], json!(red_new));
        assert_eq!(
            s.view(&id, Some(&black)).await["rematch"]["token"],
            json!(black_new)
        );
        // Spectators get no token.
        assert!(s.view(&id, None).await["rematch"].get("token").is_none());
        // The tokens hold the new seats.
        let next = s.view(&next_id, Some(&black_new)).await;
        assert_eq!(
            (next["you"].clone(), next["status"].clone()),
            (json!("sente"), json!("playing"))
        );
        assert_eq!(s.view(&next_id, Some(&red_new)).await["you"], "gote");
        s.play(&next_id, &black_new, "7g7f").await;
        s.play(&next_id, &red_new, "3c3d").await;
        s.stop().await;
    }
);

#[tokio::test]
async fn a_retiring_actor_loses_no_request() {
    // Actors retire as soon as they have nothing to do, so requests keep meeting actors that
    // are stopping: every one of them must still be answered.
    let s = TestServer::with(Backend::Sqlite, "retire", |c| {
        c.idle_timeout = Duration::from_millis(1);
    })
    .await;
    let (id, red, black) = s.game(json!({"variant": "xiangqi"}), "red").await;
    let moves = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7"];
    for (i, mv) in moves.iter().enumerate() {
        let token = if i % 2 == 0 { &red } else { &black };
        let path = format!("/api/games/{id}");
        let views = (0..25).map(|_| s.get(&path, None));
        let (moved, views) = tokio::join!(
            s.action(&id, "move", Some(token), json!({"move": mv})),
            futures_util::future::join_all(views)
        );
        assert_eq!(moved.0, StatusCode::OK, "{mv}: {}", moved.1);
        for (st, v) in views {
            assert_eq!(st, StatusCode::OK, "{v}");
        }
        tokio::time::sleep(Duration::from_millis(3)).await;
    }
    assert_eq!(s.view(&id, None).await["moves"], json!(moves));
    s.stop().await;
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_limit() {
    let limited = |trusted: bool| {
        move |c: &mut jiang_server::Config| {
            c.rate_limit = jiang_server::Rate {
                per_second: 0.1,
                burst: 3.0,
            };
            if trusted {
                c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
            }
        }
    };
    async fn status(s: &TestServer, forwarded_for: &str) -> StatusCode {
        s.http
            .get(s.url("/api/games/abcdefgh12"))
            .header("x-forwarded-for", forwarded_for)
            .send()
            .await
            .unwrap()
            .status()
    }
    let s = TestServer::with(Backend::Sqlite, "proxy", limited(true)).await;
    for _ in 0..3 {
        assert_eq!(status(&s, "10.0.0.1").await, StatusCode::NOT_FOUND);
    }
    assert_eq!(status(&s, "10.0.0.1").await, StatusCode::TOO_MANY_REQUESTS);
    // Another client behind the same proxy has its own bucket…
    assert_eq!(status(&s, "10.0.0.2").await, StatusCode::NOT_FOUND);
    // …and a client cannot pose as another: the proxy appends the address it saw.
    assert_eq!(
        status(&s, "10.0.0.2, 10.0.0.1").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    s.stop().await;
    // Without a trusted proxy the header is ignored: one bucket for the peer address.
    let s = TestServer::with(Backend::Sqlite, "no-proxy", limited(false)).await;
    for _ in 0..3 {
        assert_eq!(status(&s, "10.0.0.1").await, StatusCode::NOT_FOUND);
    }
    assert_eq!(status(&s, "10.0.0.2").await, StatusCode::TOO_MANY_REQUESTS);
    s.stop().await;
}

/// The endings the rules decide, each reached through the API from a custom start and seen
/// the same way by both players' sockets and a later view. (The positions are those of the
/// rules tests; here what matters is that the server ends the game, stores it and tells
/// everyone.)
#[tokio::test]
async fn every_rules_ending_reaches_the_players() {
    let s = TestServer::start().await;
    let chase = "a5a7 h7g5 a7a5 g5h7";
    let cases: &[(&str, &str, &str, String, &str, &str)] = &[
        // (variant, first side, start, moves, winner, reason)
        (
            "xiangqi",
            "red",
            "4k4/9/8R/9/9/9/9/9/5R3/3K5 w - - 0 1",
            "i7i8".into(),
            "red",
            "stalemate",
        ),
        (
            "xiangqi",
            "red",
            "4k4/9/9/9/9/9/9/9/4p4/3AK4 w - - 0 1",
            "d0e1".into(),
            "",
            "insufficient-material",
        ),
        (
            "xiangqi",
            "red",
            "9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1",
            "a7a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8".into(),
            "black",
            "perpetual-check",
        ),
        (
            "xiangqi",
            "red",
            "4k4/9/7n1/9/R8/9/9/9/9/3K5 w - - 0 1",
            format!("{chase} {chase}"),
            "black",
            "perpetual-chase",
        ),
        (
            "shogi",
            "sente",
            "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
            "G*5b".into(),
            "sente",
            "checkmate",
        ),
        (
            "shogi",
            "sente",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "2h3h 8b7b 3h2h 7b8b ".repeat(3).trim().into(),
            "",
            "repetition",
        ),
        (
            "shogi",
            "sente",
            "8k/R8/9/9/9/9/9/9/4K4 b - 1",
            "9b9a 1a1b 9a9b 1b1a ".repeat(3).trim().into(),
            "gote",
            "perpetual-check",
        ),
        (
            "minishogi",
            "sente",
            "rbsgk/4p/5/P4/KGSBR b - 1",
            "5e4d 1a2b 4d5e 2b1a ".repeat(3).trim().into(),
            "gote",
            "repetition",
        ),
    ];
    for (variant, first, start, moves, winner, reason) in cases {
        let label = format!("{variant} {start} {moves}");
        let (id, first_token, second_token) = s
            .game(json!({"variant": variant, "fen": start}), first)
            .await;
        let mut sockets = [
            connect(&s.ws_url(&id, Some(&first_token))).await,
            connect(&s.ws_url(&id, Some(&second_token))).await,
        ];
        for socket in &mut sockets {
            next_of(socket, "state").await;
        }
        let list: Vec<&str> = moves.split(' ').collect();
        let mut last = Value::Null;
        for (i, mv) in list.iter().enumerate() {
            let token = if i % 2 == 0 {
                &first_token
            } else {
                &second_token
            };
            last = s.play(&id, token, mv).await;
            if i + 1 < list.len() {
                assert_eq!(last["status"], "playing", "{label}: ended early at {mv}");
            }
        }
        let winner = if winner.is_empty() {
            Value::Null
        } else {
            json!(winner)
        };
        let expected = json!({"winner": winner, "reason": reason});
        let got =
            |v: &Value| json!({"winner": v["result"]["winner"], "reason": v["result"]["reason"]});
        assert_eq!(last["status"], "ended", "{label}");
        assert_eq!(got(&last), expected, "{label}");
        for socket in &mut sockets {
            let end = next_of(socket, "end").await;
            assert_eq!(got(&end), expected, "{label}: end event");
        }
        assert_eq!(got(&s.view(&id, None).await), expected, "{label}: stored");
        let (status, v) = s.action(&id, "resign", Some(&first_token), json!({})).await;
        assert_eq!(
            (status, v["error"]["code"].clone()),
            (StatusCode::CONFLICT, json!("game_over"))
        );
    }
    s.stop().await;
}

#[tokio::test]
async fn records_and_pages() {
    let s = TestServer::start().await;
    let (id, ..) = s.untimed_game("xiangqi", &["h2e2", "h9g7"]).await;
    let (status, disposition, pgn) = s.record(&id, "format=pgn").await;
    assert_eq!(status, StatusCode::OK, "{pgn}");
    assert!(
        disposition.contains(&format!("jiang-xiangqi-{id}.pgn")),
        "{disposition}"
    );
    assert!(
        pgn.contains("[Variant \"xiangqi\"]") && pgn.contains("h2e2"),
        "{pgn}"
    );
    let fen = s
        .get_text(&format!("/api/games/{id}/record?format=fen"))
        .await;
    assert_eq!(fen.trim(), s.view(&id, None).await["fen"]);
    assert_refused(
        s.get(&format!("/api/games/{id}/record?format=kif"), None)
            .await,
        StatusCode::BAD_REQUEST,
        "unsupported_format",
    );
    let (sid, sente, _) = s
        .game(json!({"variant": "shogi", "handicap": "bishop"}), "sente")
        .await;
    let view = s.view(&sid, None).await;
    assert_eq!(view["to_move"], "gote", "the handicap giver moves first");
    assert_eq!(view["handicap"], "bishop");
    let (st, v) = s
        .action(&sid, "move", Some(&sente), json!({"move": "7g7f"}))
        .await;
    assert_eq!(st, StatusCode::CONFLICT, "{v}");
    let csa = s
        .get_text(&format!("/api/games/{sid}/record?format=csa"))
        .await;
    assert!(csa.contains("PI"), "{csa}");

    let page = s
        .http
        .get(s.url(&format!("/g/{id}")))
        .header("accept-language", "zh-TW,en;q=0.5")
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    let html = page.text().await.unwrap();
    assert!(html.contains("zh-Hant") && !html.contains("{{"), "{html}");
    let page = s
        .http
        .get(s.url("/rules/jieqi"))
        .header("cookie", "lang=hu")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(page.contains("\"hu\""), "{page}");
    let health = s.http.get(s.url("/healthz")).send().await.unwrap();
    assert_eq!(health.status(), StatusCode::OK);
    // Nothing outside web/, and not the content authors' notes.
    for path in ["/static/../Cargo.toml", "/static/content/README.md"] {
        let missing = s.http.get(s.url(path)).send().await.unwrap();
        assert_eq!(missing.status(), StatusCode::NOT_FOUND, "{path}");
    }
    let served = s
        .http
        .get(s.url("/static/content/home.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(served.status(), StatusCode::OK);
    s.stop().await;
}

#[tokio::test]
async fn seat_cookie_keeps_the_seat_and_get_never_takes_one() {
    let s = TestServer::start().await;
    let (id, _, _) = s.create(json!({"variant": "xiangqi", "side": "red"})).await;
    // Link previews (GETs) do not take the free seat.
    for _ in 0..3 {
        let v = s.view(&id, None).await;
        assert_eq!(v["status"], "waiting");
        assert_eq!(v["seats"]["black"], false);
    }
    let response = s.join_response(&id).await;
    let cookie = response.headers()["set-cookie"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(cookie.contains("HttpOnly"), "{cookie}");
    let pair = cookie.split(';').next().unwrap().to_owned();
    let v: Value = s
        .http
        .get(s.url(&format!("/api/games/{id}")))
        .header("cookie", pair)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(v["you"], "black");
    s.stop().await;
}

/// Jieqi: before the end, what a spectator and the player who did not capture see is a
/// function of public information only; the captor sees what it captured.
#[tokio::test]
async fn jieqi_views_hide_what_only_the_captor_may_know() {
    let s = TestServer::start().await;
    // Red's covered cannon-point piece on h2 captures Black's covered piece on h9 (screen h7).
    let mut games = Vec::new();
    let mut events = Vec::new();
    for _ in 0..8 {
        let (id, red, black) = s.game(json!({"variant": "jieqi"}), "red").await;
        let start = s.view(&id, None).await;
        assert!(start.get("deal").is_none() && start.get("salt").is_none());
        let commitment = start["commitment"].as_str().unwrap().to_owned();
        assert_eq!(commitment.len(), 64);
        let mut black_socket = connect(&s.ws_url(&id, Some(&black))).await;
        let mut spectator_socket = connect(&s.ws_url(&id, None)).await;
        next_of(&mut black_socket, "state").await;
        next_of(&mut spectator_socket, "state").await;
        let played = s.play(&id, &red, "h2h9").await;
        let recorded = played["moves"][0].as_str().unwrap().to_owned();
        let red_view = s.view(&id, Some(&red)).await;
        let black_view = s.view(&id, Some(&black)).await;
        let spectator = s.view(&id, None).await;
        // What the sockets were told about the move is public too.
        let black_event = next_of(&mut black_socket, "move").await;
        let spectator_event = next_of(&mut spectator_socket, "move").await;
        events.push((black_event, spectator_event));
        games.push((
            id, red, black, recorded, commitment, red_view, black_view, spectator,
        ));
    }
    // Strip what differs per game for reasons other than the deal.
    let public = |v: &Value| {
        let mut v = v.clone();
        // `away` counts milliseconds, like `first_move_ms`: it differs by the instant asked.
        for key in [
            "id",
            "commitment",
            "you",
            "legal_moves",
            "first_move_ms",
            "away",
        ] {
            v.as_object_mut().unwrap().remove(key);
        }
        // The names of the legal moves go, like the moves, to the seat to move only.
        if let Some(hints) = v.get_mut("hints").and_then(Value::as_object_mut) {
            hints.remove("legal_names");
        }
        v
    };
    for ((_, _, _, _, _, red_view, black_view, spectator), (black_event, spectator_event)) in
        games.iter().zip(&events)
    {
        // The move event tells the non-capturing player what it tells a spectator.
        assert_eq!(public(black_event), public(spectator_event));
        assert_eq!(black_event["captured"]["red"][0]["was_covered"], true);
        assert_eq!(black_event["captured"]["red"][0]["piece"], Value::Null);
        assert!(!black_event.to_string().contains("deal"));
        // The captor knows the captured identity; the others do not.
        let captured = &red_view["captured"]["red"][0];
        assert_eq!(captured["was_covered"], true);
        assert!(captured["piece"].is_string(), "{red_view}");
        assert_eq!(black_view["captured"]["red"][0]["piece"], Value::Null);
        assert_eq!(spectator["captured"]["red"][0]["piece"], Value::Null);
        // The non-capturing player sees exactly what a spectator sees.
        assert_eq!(public(black_view), public(spectator));
        let text = spectator.to_string();
        assert!(!text.contains("deal") && !text.contains("salt"));
    }
    // Games with the same public moves (by pigeonhole, some share the revealed letter) give
    // identical views to spectators and to the non-capturing player, whatever was captured.
    let mut compared = 0;
    for i in 0..games.len() {
        for j in i + 1..games.len() {
            if games[i].3 == games[j].3 {
                assert_eq!(public(&games[i].7), public(&games[j].7));
                assert_eq!(public(&games[i].6), public(&games[j].6));
                assert_eq!(public(&events[i].0), public(&events[j].0));
                assert_eq!(public(&events[i].1), public(&events[j].1));
                // Black, to move, is told the same names whatever the deal.
                assert_eq!(games[i].6["hints"], games[j].6["hints"]);
                assert_eq!(events[i].0["hints"], events[j].0["hints"]);
                compared += 1;
            }
        }
    }
    assert!(compared > 0);
    // The record before the end holds public information only.
    let (id, red, _, _, commitment, red_view, _, _) = &games[0];
    let record = s.get_text(&format!("/api/games/{id}/record")).await;
    assert!(
        record.contains(commitment.as_str()) && !record.contains("Deal"),
        "{record}"
    );
    // At the end everything is published and the commitment checks out.
    s.resign(id, red).await;
    let end = s.view(id, None).await;
    let deal = end["deal"].as_str().unwrap();
    let salt = end["salt"].as_str().unwrap();
    let (red_word, black_word) = deal.split_once('/').unwrap();
    use sha2::Digest;
    let digest = sha2::Sha256::digest(format!("jiang-jieqi-v1:{red_word}:{black_word}:{salt}"));
    assert_eq!(hex::encode(digest), *commitment);
    assert_eq!(
        end["captured"]["red"][0]["piece"],
        red_view["captured"]["red"][0]["piece"]
    );
    s.stop().await;
}

#[tokio::test]
async fn websocket_clock_sync_and_ping() {
    let s = TestServer::start().await;
    let (id, red, _) = s
        .game(
            json!({"variant": "xiangqi", "clock": {"main": 10, "byoyomi": 5, "periods": 2}}),
            "red",
        )
        .await;
    let mut socket = connect(&s.ws_url(&id, Some(&red))).await;
    next_of(&mut socket, "state").await;
    send(&mut socket, json!({"type": "clock"})).await;
    let clock = next_of(&mut socket, "clock").await;
    assert_eq!(clock["clock"]["red"]["ms"], 10_000);
    assert_eq!(clock["clock"]["black"]["periods"], 2);
    send(&mut socket, json!({"type": "ping"})).await;
    assert_eq!(next_json(&mut socket).await["type"], "pong");
    s.stop().await;
}

#[tokio::test]
async fn notation_lists_the_moves_in_human_notations() {
    let s = TestServer::start().await;
    let notation = |id: String, style: &'static str, token: Option<String>| {
        let s = &s;
        async move {
            s.get(
                &format!("/api/games/{id}/notation?style={style}"),
                token.as_deref(),
            )
            .await
        }
    };
    // Xiangqi: the expected texts are the rules crate's own (spell.rs tests).
    let (id, red, black) = s.game(json!({"variant": "xiangqi"}), "red").await;
    s.play(&id, &red, "h2e2").await;
    s.play(&id, &black, "h9g7").await;
    for (style, moves) in [
        ("wxf", json!(["C2.5", "H8+7"])),
        ("chinese", json!(["炮二平五", "马８进７"])),
        ("chinese-traditional", json!(["炮二平五", "馬８進７"])),
        ("iccs", json!(["h2e2", "h9g7"])),
    ] {
        let (status, v) = notation(id.clone(), style, None).await;
        assert_eq!(status, StatusCode::OK, "{style}: {v}");
        assert_eq!((&v["style"], &v["moves"]), (&json!(style), &moves));
        assert_eq!(v["positions"].as_array().unwrap().len(), 3, "{v}");
        assert!(v.get("notes").is_none(), "notes are Jieqi's: {v}");
    }
    // A style of the other family, an unknown style and a missing style are refused.
    for style in ["japanese", "klingon", ""] {
        assert_refused(
            notation(id.clone(), style, None).await,
            StatusCode::BAD_REQUEST,
            "bad_notation_style",
        );
    }
    let (status, v) = s.get(&format!("/api/games/{id}/notation"), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    // An unknown game.
    let (status, v) = notation("NoSuchGame0".into(), "wxf", None).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{v}");

    // Shogi.
    let (id, sente, _gote) = s.game(json!({"variant": "shogi"}), "sente").await;
    s.play(&id, &sente, "7g7f").await;
    for (style, moves) in [
        ("japanese", json!(["☗７六歩"])),
        ("western", json!(["P-76"])),
        ("western-letters", json!(["P-7f"])),
        ("usi", json!(["7g7f"])),
    ] {
        let (status, v) = notation(id.clone(), style, None).await;
        assert_eq!(status, StatusCode::OK, "{style}: {v}");
        assert_eq!((&v["style"], &v["moves"]), (&json!(style), &moves));
        assert_eq!(v["positions"].as_array().unwrap().len(), 2, "{v}");
    }
    assert_refused(
        notation(id.clone(), "wxf", None).await,
        StatusCode::BAD_REQUEST,
        "bad_notation_style",
    );

    // Jieqi: covered pieces are named as their point's piece; every viewer gets the same
    // list (nothing of the deal leaks), and it agrees with the public move list.
    let (id, red, black) = s.game(json!({"variant": "jieqi"}), "red").await;
    s.play(&id, &red, "h2e2").await;
    s.play(&id, &black, "h9g7").await;
    let spectator_view = s.view(&id, None).await;
    for style in ["wxf", "chinese", "chinese-traditional", "iccs"] {
        let (status, seen) = notation(id.clone(), style, None).await;
        assert_eq!(status, StatusCode::OK, "{style}: {seen}");
        for token in [&red, &black] {
            let (_, v) = notation(id.clone(), style, Some(token.clone())).await;
            assert_eq!(v, seen, "{style}");
        }
        let expected = match style {
            "wxf" => json!(["C2.5", "H8+7"]),
            "chinese" => json!(["炮二平五", "马８进７"]),
            "chinese-traditional" => json!(["炮二平五", "馬８進７"]),
            _ => spectator_view["moves"].clone(),
        };
        assert_eq!(seen["moves"], expected, "{style}");
    }
    s.stop().await;
}

/// Red's chariot on e1 checks Black's general on d9 by moving to d1 (not mate: e9 is free).
const CHECK_FEN: &str = "3k5/9/9/9/9/9/9/9/4R4/5K3 w - - 0 1";

#[tokio::test]
async fn hints_show_the_checked_king_and_name_the_legal_moves() {
    let s = TestServer::start().await;
    let (id, red, black) = s
        .game(json!({"variant": "xiangqi", "fen": CHECK_FEN}), "red")
        .await;
    let before = s.view(&id, Some(&red)).await;
    assert_eq!(before["hints"]["check"], Value::Null, "{before}");
    // The names follow `legal_moves`, one list per move.
    let legal = before["legal_moves"].as_array().unwrap();
    let names = before["hints"]["legal_names"].as_array().unwrap();
    assert_eq!(names.len(), legal.len());
    let at = legal.iter().position(|m| m == "e1d1").unwrap();
    assert_eq!(names[at], json!(["R5.6", "车五平六", "俥五平六"]));
    // The side not to move and spectators get no names.
    assert_eq!(
        s.view(&id, Some(&black)).await["hints"]["legal_names"],
        json!([])
    );
    assert_eq!(s.view(&id, None).await["hints"]["legal_names"], json!([]));

    let mut socket = connect(&s.ws_url(&id, Some(&black))).await;
    next_of(&mut socket, "state").await;
    let answer = s.play(&id, &red, "e1d1").await;
    assert_eq!(answer["hints"]["check"], "d9", "{answer}");
    assert_eq!(answer["hints"]["legal_names"], json!([]));
    // The move event carries the hints: Black, to move and in check, gets its names too.
    let event = next_of(&mut socket, "move").await;
    assert_eq!(event["hints"]["check"], "d9", "{event}");
    let legal = event["legal_moves"].as_array().unwrap();
    assert!(!legal.is_empty());
    assert_eq!(
        event["hints"]["legal_names"].as_array().unwrap().len(),
        legal.len()
    );
    assert_eq!(s.view(&id, None).await["hints"]["check"], "d9");
    assert!(
        s.view(&id, None).await["hints"]
            .get("can_declare_impasse")
            .is_none()
    );

    // The history steps through the positions with their checks.
    let (status, h) = s
        .get(&format!("/api/games/{id}/notation?style=wxf"), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{h}");
    assert_eq!(h["moves"], json!(["R5.6"]));
    assert_eq!(h["positions"][0]["fen"], before["initial_fen"]);
    assert_eq!(h["positions"][0]["check"], Value::Null);
    assert_eq!(h["positions"][1]["fen"], answer["fen"]);
    assert_eq!(h["positions"][1]["check"], "d9");
    s.stop().await;
}

#[tokio::test]
async fn hints_name_the_legal_moves_in_every_family() {
    let s = TestServer::start().await;
    for (variant, side, mv, expected) in [
        ("xiangqi", "red", "h2e2", json!(["C2.5", "炮二平五"])),
        ("jieqi", "red", "h2e2", json!(["C2.5", "炮二平五"])),
        ("shogi", "sente", "7g7f", json!(["☗７六歩", "P-76", "P-7f"])),
        (
            "minishogi",
            "sente",
            "5e4d",
            json!(["☗４四玉", "K-44", "K-4d"]),
        ),
    ] {
        let (id, first, _) = s.game(json!({"variant": variant}), side).await;
        let view = s.view(&id, Some(&first)).await;
        let legal = view["legal_moves"].as_array().unwrap();
        let names = view["hints"]["legal_names"].as_array().unwrap();
        assert_eq!(names.len(), legal.len(), "{variant}");
        assert!(
            names.iter().all(|n| !n.as_array().unwrap().is_empty()),
            "{variant}"
        );
        let at = legal.iter().position(|m| m == mv).unwrap();
        assert_eq!(names[at], expected, "{variant}");
    }
    // Shogi: after a move to a square, taking back there is named with 同 and by its square.
    let (id, sente, gote) = s.game(json!({"variant": "shogi"}), "sente").await;
    for (token, mv) in [(&sente, "7g7f"), (&gote, "3c3d"), (&sente, "8h2b+")] {
        s.play(&id, token, mv).await;
    }
    let view = s.view(&id, Some(&gote)).await;
    let legal = view["legal_moves"].as_array().unwrap();
    let at = legal.iter().position(|m| m == "3a2b").unwrap();
    assert_eq!(
        view["hints"]["legal_names"][at],
        json!(["☖同　銀", "☖２二銀", "Sx22", "Sx2b"])
    );
    s.stop().await;
}

#[tokio::test]
async fn jieqi_hints_never_show_a_covered_identity() {
    let s = TestServer::start().await;
    // Two games, two independent secret deals: what Red is told at the start is the same,
    // so it cannot depend on the deal.
    let (a, red_a, black_a) = s.game(json!({"variant": "jieqi"}), "red").await;
    let (b, red_b, _) = s.game(json!({"variant": "jieqi"}), "red").await;
    let view_a = s.view(&a, Some(&red_a)).await;
    assert_eq!(view_a["hints"], s.view(&b, Some(&red_b)).await["hints"]);
    for names in view_a["hints"]["legal_names"].as_array().unwrap() {
        for name in names.as_array().unwrap() {
            let name = name.as_str().unwrap();
            assert!(!name.contains('(') && !name.contains('（'), "{name}");
        }
    }
    // A reveal is public once made: the history notes it for everyone, in each style.
    let played = s.play(&a, &red_a, "h2e2").await;
    let recorded = played["moves"][0].as_str().unwrap().to_owned();
    let letter = recorded.chars().nth(4).unwrap();
    let wxf = match letter {
        'B' => 'E',
        'N' => 'H',
        other => other,
    };
    let (status, h) = s
        .get(&format!("/api/games/{a}/notation?style=wxf"), None)
        .await;
    assert_eq!(status, StatusCode::OK, "{h}");
    assert_eq!(h["notes"], json!([format!(" ({wxf})")]));
    let (_, h) = s
        .get(&format!("/api/games/{a}/notation?style=iccs"), None)
        .await;
    assert_eq!(h["notes"], json!([""]));
    // The history's positions are the public ones: Black's covered pieces stay face down.
    let fen = h["positions"][1]["fen"].as_str().unwrap();
    assert_eq!(fen, played["fen"].as_str().unwrap());
    assert!(fen.starts_with("xxxxkxxxx/"), "{fen}");
    // Black, now to move, is told names for its moves, still by point only.
    let black_view = s.view(&a, Some(&black_a)).await;
    let names = black_view["hints"]["legal_names"].as_array().unwrap();
    assert_eq!(
        names.len(),
        black_view["legal_moves"].as_array().unwrap().len()
    );
    assert!(!names.is_empty());
    s.stop().await;
}

#[tokio::test]
async fn shogi_hints_impasse_points_with_a_handicap_and_the_declaration() {
    let s = TestServer::start().await;
    // Rook handicap: the giver (gote, uwate) moves first and is credited 5 points.
    let (id, gote, _sente) = s
        .game(json!({"variant": "shogi", "handicap": "rook"}), "gote")
        .await;
    let view = s.view(&id, Some(&gote)).await;
    assert_eq!(view["to_move"], "gote");
    assert_eq!(
        view["impasse"]["gote"],
        json!({"king_in_zone": false, "pieces_in_zone": 0, "declaration": 5, "needed": 27, "total": 27})
    );
    assert_eq!(view["impasse"]["sente"]["declaration"], 0);
    assert_eq!(view["impasse"]["sente"]["total"], 27);
    assert_eq!(view["hints"]["can_declare_impasse"], false);
    // Where the declaration holds, the side to move is told so; the other side is not.
    let (id, sente, gote) = s
        .game(json!({"variant": "shogi", "fen": IMPASSE}), "sente")
        .await;
    assert_eq!(
        s.view(&id, Some(&sente)).await["hints"]["can_declare_impasse"],
        true
    );
    assert_eq!(
        s.view(&id, Some(&gote)).await["hints"]["can_declare_impasse"],
        false
    );
    assert_eq!(
        s.view(&id, None).await["hints"]["can_declare_impasse"],
        false
    );
    // Minishogi has no impasse rule: no such hint.
    let (mid, msente, _) = s.game(json!({"variant": "minishogi"}), "sente").await;
    assert!(
        s.view(&mid, Some(&msente)).await["hints"]
            .get("can_declare_impasse")
            .is_none()
    );
    s.stop().await;
}
