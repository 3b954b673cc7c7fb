//! The comforts of live play (issue 14) over real WebSockets: chat, takebacks, premoves, and
//! presence with claims, in every variant, with their errors and their survival of restarts.

#[macro_use]
mod common;

use std::time::Duration;

use common::*;
use futures_util::StreamExt;
use jiang_protocol::{ChatHistoryMessage, GameView, ServerMessage};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// The first side's name and a shuffle of both kings (legal from the start, no capture, no
/// reveal), first side first.
fn kings(variant: &str) -> (&'static str, [&'static str; 4]) {
    match variant {
        "xiangqi" | "jieqi" => ("red", ["e0e1", "e9e8", "e1e0", "e8e9"]),
        "shogi" => ("sente", ["5i4h", "5a4b", "4h5i", "4b5a"]),
        "minishogi" => ("sente", ["5e4d", "1a2b", "4d5e", "2b1a"]),
        other => panic!("no variant {other}"),
    }
}

const VARIANTS: [&str; 4] = ["xiangqi", "jieqi", "shogi", "minishogi"];

/// The view a `state` or `end` message carries, as the protocol type.
fn view_in(mut message: Value) -> GameView {
    message.as_object_mut().unwrap().remove("type");
    typed(&message)
}

/// Sends one chat line on `channel`.
async fn chat(socket: &mut Socket, channel: &str, text: &str) {
    send(
        socket,
        json!({"type": "chat", "channel": channel, "text": text}),
    )
    .await;
}

/// The code of the `error` message a socket gets next.
async fn next_error(socket: &mut Socket) -> String {
    let v = next_of(socket, "error").await;
    v["code"].as_str().unwrap().to_owned()
}

/// Reads every message that arrives within `wait`, as JSON.
async fn drain(socket: &mut Socket, wait: Duration) -> Vec<Value> {
    let mut out = Vec::new();
    while let Ok(Some(Ok(message))) = tokio::time::timeout(wait, socket.next()).await {
        if let tokio_tungstenite::tungstenite::Message::Text(text) = message {
            out.push(serde_json::from_str(&text).unwrap());
        }
    }
    out
}

/// Whether no chat line reaches `socket` within `wait` (every message that arrives is read).
async fn no_chat_within(socket: &mut Socket, wait: Duration) -> bool {
    drain(socket, wait)
        .await
        .iter()
        .all(|m| m["type"] != "chat")
}

/// A socket for `token` (or a spectator's), its `state` and `chat_history` read.
async fn subscribe(
    server: &TestServer,
    id: &str,
    token: Option<&str>,
) -> (Socket, ChatHistoryMessage) {
    let mut socket = connect(&server.ws_url(id, token)).await;
    next_of(&mut socket, "state").await;
    let ServerMessage::ChatHistory(history) = next_message(&mut socket, "chat_history").await
    else {
        unreachable!()
    };
    (socket, history)
}

on_both!(
    chat_channels_limits_mutes_and_restarts,
    |server: TestServer| async move {
        let (id, red, black) = server.game(json!({"variant": "xiangqi"}), "red").await;
        let (mut r, history) = subscribe(&server, &id, Some(&red)).await;
        assert!(history.lines.is_empty());
        assert_eq!(history.muted, Some(Default::default()));
        let (mut b, _) = subscribe(&server, &id, Some(&black)).await;
        let (mut s, spectator_history) = subscribe(&server, &id, None).await;
        assert_eq!(spectator_history.muted, None);

        // A player's line reaches both players, as plain text exactly as sent; never a spectator.
        let text = "hi <b>there</b> https://example.com";
        chat(&mut r, "players", text).await;
        for socket in [&mut r, &mut b] {
            let line = next_of(socket, "chat").await;
            assert_eq!(line["text"], text);
            assert_eq!(line["from"], "red");
            assert_eq!(line["channel"], "players");
        }
        // A spectator's line reaches the spectators and the players.
        chat(&mut s, "spectators", "nice").await;
        for socket in [&mut s, &mut r, &mut b] {
            let line = next_of(socket, "chat").await;
            assert_eq!(line["from"], Value::Null);
            assert_eq!(line["text"], "nice");
        }
        assert!(
            no_chat_within(&mut s, Duration::from_millis(200)).await,
            "the spectator saw no players' line"
        );

        // Refusals: wrong channels, bad text.
        chat(&mut s, "players", "let me in").await;
        assert_eq!(next_error(&mut s).await, "chat_not_allowed");
        chat(&mut r, "spectators", "hello").await;
        assert_eq!(next_error(&mut r).await, "chat_not_allowed");
        for bad in ["", "   ", "two\nlines", &"x".repeat(201)] {
            chat(&mut r, "players", bad).await;
            assert_eq!(next_error(&mut r).await, "chat_invalid", "{bad:?}");
        }
        send(
            &mut r,
            json!({"type": "chat", "channel": "players", "text": "x", "html": true}),
        )
        .await;
        assert_eq!(next_error(&mut r).await, "invalid_message");

        // The rate limit: 5 lines at once per speaker (black has said none yet).
        for i in 0..5 {
            chat(&mut b, "players", &format!("line {i}")).await;
            assert_eq!(next_of(&mut b, "chat").await["text"], format!("line {i}"));
        }
        chat(&mut b, "players", "one too many").await;
        assert_eq!(next_error(&mut b).await, "rate_limited");
        drain(&mut r, Duration::from_millis(200)).await;

        // Red turns the players' channel off: black's lines no longer reach it, and it cannot
        // write there; it hides the spectators too, over HTTP.
        send(
            &mut r,
            json!({"type": "chat_mute", "channel": "players", "muted": true}),
        )
        .await;
        let ServerMessage::ChatHistory(h) = next_message(&mut r, "chat_history").await else {
            unreachable!()
        };
        assert!(h.muted.unwrap().players);
        assert!(h.lines.iter().all(|l| l.channel.name() == "spectators"));
        for (channel, answer) in [
            ("spectators", StatusCode::OK),
            ("nobody", StatusCode::BAD_REQUEST),
        ] {
            let body = json!({"channel": channel, "muted": true});
            let (status, v) = server.action(&id, "chat_mute", Some(&red), body).await;
            assert_eq!(status, answer, "{channel}: {v}");
        }
        chat(&mut r, "players", "hello?").await;
        assert_eq!(next_error(&mut r).await, "chat_not_allowed");
        chat(&mut s, "spectators", "still here").await;
        next_of(&mut s, "chat").await;
        assert!(
            no_chat_within(&mut r, Duration::from_millis(300)).await,
            "muted channels reach red no more"
        );
        drop((r, b, s));

        // The chat and the settings survive a restart.
        let server = server.restart().await;
        let (_, h) = subscribe(&server, &id, Some(&black)).await;
        let texts: Vec<&str> = h.lines.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            texts,
            [
                text,
                "nice",
                "line 0",
                "line 1",
                "line 2",
                "line 3",
                "line 4",
                "still here"
            ]
        );
        let (_, h) = subscribe(&server, &id, Some(&red)).await;
        assert!(
            h.lines.is_empty(),
            "both channels off for red: {:?}",
            h.lines
        );
        assert_eq!(
            h.muted.map(|m| (m.players, m.spectators)),
            Some((true, true))
        );
        server.stop().await;
    }
);

/// Plays the king shuffle's first `n` moves in `variant`: (id, first token, second token).
async fn shuffled(
    server: &TestServer,
    variant: &str,
    clock: Option<Value>,
    n: usize,
) -> (String, String, String) {
    let (first, moves) = kings(variant);
    let mut body = json!({"variant": variant});
    if let Some(clock) = clock {
        body["clock"] = clock;
    }
    server.game_played(body, first, &moves[..n]).await
}

/// POSTs the takeback `action` (`request`, `accept`, …) for the seat of `token` in game `id`.
async fn takeback(
    server: &TestServer,
    id: &str,
    token: Option<&str>,
    action: &str,
) -> (StatusCode, Value) {
    server
        .action(id, "takeback", token, json!({"action": action}))
        .await
}

/// One variant's takebacks: refusals, decline, accept, what records show, the history after a
/// restart. Returns the restarted server.
async fn takeback_case(server: TestServer, variant: &str) -> TestServer {
    let (first_side, moves) = kings(variant);
    let (id, first, second) = shuffled(&server, variant, None, 3).await;
    let (mut a, _) = subscribe(&server, &id, Some(&first)).await;
    let (mut b, _) = subscribe(&server, &id, Some(&second)).await;
    // The second side has only its first move, which stays: nothing to take back.
    send(&mut b, json!({"type": "takeback", "action": "request"})).await;
    assert_eq!(
        next_error(&mut b).await,
        "nothing_to_take_back",
        "{variant}"
    );
    send(&mut b, json!({"type": "takeback", "action": "accept"})).await;
    assert_eq!(next_error(&mut b).await, "no_takeback");
    // The first side asks, is declined, asks again (over HTTP) and is accepted.
    send(&mut a, json!({"type": "takeback", "action": "request"})).await;
    assert_eq!(next_of(&mut b, "takeback").await["takeback"], first_side);
    assert_eq!(next_of(&mut a, "takeback").await["takeback"], first_side);
    send(&mut b, json!({"type": "takeback", "action": "request"})).await;
    assert_eq!(next_error(&mut b).await, "takeback_pending");
    send(&mut b, json!({"type": "takeback", "action": "decline"})).await;
    assert_eq!(next_of(&mut a, "takeback").await["takeback"], Value::Null);
    let (status, v) = takeback(&server, &id, Some(&first), "request").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["takeback"], first_side);
    next_of(&mut b, "takeback").await;
    send(&mut b, json!({"type": "takeback", "action": "accept"})).await;
    let state: GameView = view_in(next_of(&mut a, "state").await);
    assert_eq!(state.moves, moves[..2], "{variant}");
    assert_eq!(state.state.to_move.as_deref(), Some(first_side));
    let history = next_of(&mut a, "chat_history").await;
    assert_eq!(history["takebacks"][0]["moves"], json!([moves[2]]));
    assert_eq!(history["takebacks"][0]["by"], first_side);
    // The move taken back in every notation of the family, for the pages to show.
    let names = &history["takebacks"][0]["names"];
    let expected = match variant {
        "xiangqi" | "jieqi" => json!({"wxf": ["K5-1"], "chinese": ["帅五退一"],
            "chinese-traditional": ["帥五退一"], "iccs": [moves[2]]}),
        "shogi" => json!({"japanese": ["☗５九玉"], "western": ["K-59"],
            "western-letters": ["K-5i"], "usi": [moves[2]]}),
        _ => json!({"japanese": ["☗５五玉"], "western": ["K-55"],
            "western-letters": ["K-5e"], "usi": [moves[2]]}),
    };
    assert_eq!(names, &expected, "{variant}");
    // The records have only the moves that stand.
    let format = if variant.ends_with("shogi") {
        "usi"
    } else {
        "fen"
    };
    let _ = format;
    let (_, notation) = server
        .get(
            &format!(
                "/api/games/{id}/notation?style={}",
                if variant.ends_with("shogi") {
                    "usi"
                } else {
                    "iccs"
                }
            ),
            None,
        )
        .await;
    assert_eq!(notation["moves"].as_array().unwrap().len(), 2, "{notation}");
    let record = server
        .get_text(&format!(
            "/api/games/{id}/record?format={}",
            if variant.ends_with("shogi") {
                "kif"
            } else {
                "pgn"
            }
        ))
        .await;
    assert!(
        !record.contains(if variant.ends_with("shogi") {
            "   3 "
        } else {
            "2. "
        }),
        "{record}"
    );
    // The takeback is noted where the format has room: a PGN tag, a KIF header comment.
    let note = format!("takeback by {first_side}: {} (from ply 3)", moves[2]);
    let noted = if variant.ends_with("shogi") {
        format!("#{note}")
    } else {
        format!("[Takebacks \"{note}\"]")
    };
    assert!(record.contains(&noted), "{record}");
    // Play on; after a restart the game goes on where the takeback left it, history kept.
    server.play(&id, &first, moves[2]).await;
    server.play(&id, &second, moves[3]).await;
    drop((a, b));
    let server = server.restart().await;
    let (mut b, h) = subscribe(&server, &id, Some(&second)).await;
    assert_eq!(h.takebacks.len(), 1);
    assert_eq!(h.takebacks[0].ply, 2);
    assert_eq!(h.takebacks[0].moves, [moves[2]]);
    let view = server.game_view(&id, None).await;
    assert_eq!(view.moves, moves, "{variant}");
    // The second side's last move is the 4th (the first side to move): one ply; it cancels.
    send(&mut b, json!({"type": "takeback", "action": "request"})).await;
    let second_side = next_of(&mut b, "takeback").await["takeback"].clone();
    assert_ne!(second_side, first_side);
    send(&mut b, json!({"type": "takeback", "action": "cancel"})).await;
    assert_eq!(next_of(&mut b, "takeback").await["takeback"], Value::Null);
    send(&mut b, json!({"type": "takeback", "action": "cancel"})).await;
    assert_eq!(next_error(&mut b).await, "no_takeback");
    server
}

on_both!(
    takebacks_in_every_variant_and_after_restarts,
    |server: TestServer| async move {
        let mut server = server;
        for variant in VARIANTS {
            server = takeback_case(server, variant).await;
        }
        server.stop().await;
    }
);

on_both!(
    takeback_refusals_clock_and_jieqi,
    |server: TestServer| async move {
        // Clock fairness: the opponent under 20 s refuses the request.
        let (id, red, _) = shuffled(&server, "xiangqi", Some(json!({"main": 15})), 3).await;
        let refused = takeback(&server, &id, Some(&red), "request").await;
        assert_refused(refused, StatusCode::CONFLICT, "takeback_unfair");
        // With time enough it is allowed, and the clocks are not rewound.
        let (id, red, black) = shuffled(&server, "xiangqi", Some(json!({"main": 300})), 3).await;
        let before = server.game_view(&id, None).await.state.clock.unwrap();
        takeback(&server, &id, Some(&red), "request").await;
        let (status, v) = takeback(&server, &id, Some(&black), "accept").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let after: GameView = typed(&v);
        let clock = after.state.clock.unwrap();
        assert_eq!(clock.running.as_deref(), Some("red"));
        assert!(
            clock.sides["red"].ms <= before.sides["red"].ms,
            "no time given back to red"
        );
        // Jieqi: a move that revealed a piece is not taken back.
        let (id, red, _) = server.untimed_game("jieqi", &["h2e2", "e9e8"]).await;
        server.play(&id, &red, "e0e1").await;
        let (status, v) = takeback(&server, &id, Some(&red), "request").await;
        assert_eq!(status, StatusCode::OK, "a king move reveals nothing: {v}");
        takeback(&server, &id, Some(&red), "cancel").await;
        let (id, red, black) = server
            .untimed_game("jieqi", &["e0e1", "e9e8", "h2e2"])
            .await;
        let refused = takeback(&server, &id, Some(&red), "request").await;
        assert_refused(refused, StatusCode::CONFLICT, "takeback_hidden");
        let (status, v) = takeback(&server, &id, Some(&black), "accept").await;
        assert_eq!(v["error"]["code"], "no_takeback", "{status}");
        // Spectators and strangers hold no seat.
        let (status, _) = takeback(&server, &id, None, "request").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let (status, v) = takeback(&server, &id, Some(&red), "maybe").await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        server.stop().await;
    }
);

on_both!(premoves_and_predrops, |server: TestServer| async move {
    for variant in VARIANTS {
        let (first_side, moves) = kings(variant);
        let (id, first, second) = shuffled(&server, variant, Some(json!({"main": 60})), 2).await;
        let (mut a, _) = subscribe(&server, &id, Some(&first)).await;
        let (mut b, _) = subscribe(&server, &id, Some(&second)).await;
        let (mut s, _) = subscribe(&server, &id, None).await;
        // On one's own turn: refused; a malformed one: refused.
        send(&mut a, json!({"type": "premove", "move": moves[2]})).await;
        assert_eq!(next_error(&mut a).await, "premove_not_allowed");
        send(&mut b, json!({"type": "premove", "move": "<b>"})).await;
        let error = next_of(&mut b, "error").await;
        assert_eq!(
            (error["code"].as_str(), error["reason"].as_str()),
            (Some("illegal_move"), Some("malformed"))
        );
        // Queued, cancelled, queued again: only its owner hears of it.
        send(&mut b, json!({"type": "premove", "move": moves[3]})).await;
        assert_eq!(next_of(&mut b, "premove").await["premove"], moves[3]);
        send(&mut b, json!({"type": "premove", "move": null})).await;
        assert_eq!(next_of(&mut b, "premove").await["premove"], Value::Null);
        let (status, v) = server
            .action(&id, "premove", Some(&second), json!({"move": moves[3]}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["premove"], moves[3]);
        next_of(&mut b, "premove").await;
        assert_eq!(server.view(&id, Some(&first)).await.get("premove"), None);
        assert_eq!(server.view(&id, None).await.get("premove"), None);
        // The first side moves: the premove is played at once, 0 ms spent.
        server.play(&id, &first, moves[2]).await;
        let view = server.game_view(&id, None).await;
        assert_eq!(view.moves, moves, "{variant}");
        let clock = view.state.clock.unwrap();
        let second_side = view
            .state
            .seats
            .keys()
            .find(|s| *s != first_side)
            .unwrap()
            .clone();
        assert_eq!(
            clock.sides[&second_side].ms, 60_000,
            "{variant}: the premove took no time"
        );
        assert_eq!(clock.running.as_deref(), Some(first_side));
        // Nobody but its owner ever saw it.
        for (who, socket) in [("first", &mut a), ("spectator", &mut s)] {
            for m in drain(socket, Duration::from_millis(200)).await {
                assert_ne!(m["type"], "premove", "{who}");
                assert_eq!(m.get("premove"), None, "{who}: {m}");
            }
        }
        // A premove that is not legal when its turn comes is dropped and its owner told.
        let bad = if variant.ends_with("shogi") {
            "5a5i"
        } else {
            "e9e7"
        };
        send(&mut b, json!({"type": "premove", "move": bad})).await;
        // Wait for this premove's own acknowledgement (the socket may still hold the notice
        // that the previous premove was played): only then is it queued before the move.
        while next_of(&mut b, "premove").await["premove"] != bad {}
        server.play(&id, &first, moves[0]).await;
        let dropped = loop {
            let m = next_of(&mut b, "premove").await;
            if m.get("dropped").is_some() {
                break m;
            }
        };
        assert_eq!(dropped["dropped"], bad);
        assert_eq!(dropped["premove"], Value::Null);
        assert_eq!(server.game_view(&id, None).await.moves.len(), 5);
    }
    // A predrop: sente takes the bishop, queues its drop, and it is played on gote's reply.
    let (id, sente, gote) = server
        .untimed_game("shogi", &["7g7f", "3c3d", "8h2b+"])
        .await;
    let (status, v) = server
        .action(&id, "premove", Some(&sente), json!({"move": "B*5e"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    server.play(&id, &gote, "3a2b").await;
    let view = server.game_view(&id, None).await;
    assert_eq!(view.moves.last().map(String::as_str), Some("B*5e"));
    server.stop().await;
});

/// Drops a socket without a close frame: the TCP connection just ends.
fn vanish(socket: Socket) {
    let stream = socket.into_inner();
    if let tokio_tungstenite::MaybeTlsStream::Plain(tcp) = stream {
        let std = tcp.into_std().expect("a plain TCP stream");
        let _ = std.set_nonblocking(false);
        drop(std);
    }
}

on_both!(
    presence_and_claims_after_a_socket_vanishes,
    |c: &mut jiang_server::Config| c.claim_grace_min = Duration::from_millis(500),
    |server: TestServer| async move {
        for (i, variant) in VARIANTS.into_iter().enumerate() {
            let (first_side, _) = kings(variant);
            // main 5 s: a grace of 0.5 s (the floor).
            let (id, first, second) = shuffled(&server, variant, Some(json!({"main": 5})), 2).await;
            let (mut a, _) = subscribe(&server, &id, Some(&first)).await;
            let (b, _) = subscribe(&server, &id, Some(&second)).await;
            // Present both: no claim.
            send(&mut a, json!({"type": "claim", "result": "win"})).await;
            assert_eq!(next_error(&mut a).await, "claim_too_early");
            vanish(b);
            let presence = next_of(&mut a, "presence").await;
            let away = presence["away"].as_object().unwrap();
            assert_eq!(away.len(), 1, "{presence}");
            let (gone, figures) = away.iter().next().unwrap();
            assert_ne!(gone, first_side);
            let wait = figures["claim_in_ms"].as_u64().unwrap();
            assert!(wait <= 500);
            // The view says so too.
            assert!(server.view(&id, None).await["away"].get(gone).is_some());
            tokio::time::sleep(Duration::from_millis(wait + 100)).await;
            if variant.ends_with("shogi") {
                send(&mut a, json!({"type": "claim", "result": "draw"})).await;
                assert_eq!(next_error(&mut a).await, "draw_not_allowed");
            }
            // Claim over the socket (win), or a draw in the xiangqi family once.
            let result = if i == 1 { "draw" } else { "win" };
            send(&mut a, json!({"type": "claim", "result": result})).await;
            let end: GameView = view_in(next_of(&mut a, "end").await);
            let r = end.state.result.unwrap();
            assert_eq!(r.reason, "disconnection");
            assert_eq!(
                r.winner.as_deref(),
                (result == "win").then_some(first_side),
                "{variant}"
            );
            assert!(end.state.away.is_empty());
            // The records say why.
            let format = if variant.ends_with("shogi") {
                ["kif", "csa"]
            } else {
                ["pgn", "pgn"]
            };
            for f in format {
                let text = server
                    .get_text(&format!("/api/games/{id}/record?format={f}"))
                    .await;
                let expected = match f {
                    "kif" => "*切断",
                    "csa" => "'切断",
                    _ => "[Termination \"disconnection\"]",
                };
                assert!(text.contains(expected), "{f}: {text}");
                assert!(text.contains("disconnection"), "{f}: {text}");
            }
        }
        // Someone away with no socket of one's own: no claim either.
        let (id, red, _) = shuffled(&server, "xiangqi", Some(json!({"main": 5})), 2).await;
        tokio::time::sleep(Duration::from_millis(600)).await;
        let (status, v) = server
            .action(&id, "claim", Some(&red), json!({"result": "win"}))
            .await;
        assert_eq!(
            (status, v["error"]["code"].as_str()),
            (StatusCode::CONFLICT, Some("claim_too_early"))
        );
        server.stop().await;
    }
);

#[test]
fn the_grace_period_grows_with_the_clock() {
    use jiang_server::game::claim_grace;
    let floor = Duration::from_secs(10);
    let control = |main: u64, inc: u64, byo: u64| {
        jiang_server::clock::TimeControl::new(
            Duration::from_secs(main),
            Duration::from_secs(inc),
            Duration::from_secs(byo),
            u32::from(byo > 0),
            None,
        )
        .unwrap()
    };
    assert_eq!(claim_grace(None, floor), Duration::from_secs(120));
    assert_eq!(claim_grace(Some(&control(60, 0, 0)), floor), floor);
    assert_eq!(
        claim_grace(Some(&control(300, 3, 0)), floor),
        Duration::from_secs(42)
    );
    assert_eq!(
        claim_grace(Some(&control(600, 5, 0)), floor),
        Duration::from_secs(80)
    );
    assert_eq!(
        claim_grace(Some(&control(600, 0, 30)), floor),
        Duration::from_secs(120)
    );
}
