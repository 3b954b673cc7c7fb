//! The analysis board's API against a real server: lines of moves answered with their
//! positions, legal moves in each notation, checks and verdicts; finished games opened by id
//! (live ones refused); Jieqi's two ways of looking back without leaking the deal; and move
//! trees exported with their variations and read back by the server's own import.

#[macro_use]
mod common;

use common::*;
use jiang_protocol::{AnalysisAnswer, EngineServerMessage, ExportedRecord, GameView, ReviewAnswer};
use reqwest::StatusCode;
use serde_json::{Value, json};

async fn analyse(server: &TestServer, body: Value) -> AnalysisAnswer {
    let (status, v) = server.post("/api/analysis", None, body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{body} → {v}");
    typed(&v)
}

/// The computer review of `body`, which must be answered: the answer and its JSON.
async fn reviewed(server: &TestServer, body: Value) -> (ReviewAnswer, Value) {
    let (status, v) = server
        .post("/api/analysis/review", None, body.clone())
        .await;
    assert_eq!(status, StatusCode::OK, "{body} → {v}");
    (typed(&v), v)
}

async fn refused(server: &TestServer, path: &str, body: Value) -> (StatusCode, String, Value) {
    let (status, v) = server.post(path, None, body).await;
    let code = v["error"]["code"].as_str().unwrap_or_default().to_owned();
    (status, code, v)
}

on_both!(
    lines_are_answered_in_the_chosen_notation,
    |server: TestServer| async move {
        let a = analyse(
            &server,
            json!({"variant": "xiangqi", "moves": ["h2e2", "h9g7"], "style": "wxf"}),
        )
        .await;
        assert_eq!(a.notation, ["C2.5", "H8+7"]);
        assert_eq!(a.moves, ["h2e2", "h9g7"]);
        assert_eq!(a.positions.len(), 3);
        for (ply, p) in a.positions.iter().enumerate() {
            assert_eq!(p.ply, ply as u64);
            assert_eq!(p.legal_moves.len(), p.legal_notation.len());
            assert!(p.result.is_none());
        }
        let start = &a.positions[0];
        let i = start.legal_moves.iter().position(|m| m == "h2e2").unwrap();
        assert_eq!(start.legal_notation[i], "C2.5");
        assert_eq!(start.to_move.as_deref(), Some("red"));
        assert_eq!(a.positions[1].to_move.as_deref(), Some("black"));

        // The same line in Chinese, and only the last position when `from` says so.
        let a = analyse(
            &server,
            json!({"variant": "xiangqi", "moves": ["h2e2", "h9g7"], "style": "chinese", "from": 2}),
        )
        .await;
        assert_eq!(a.notation, ["炮二平五", "马８进７"]);
        assert_eq!(a.positions.len(), 1);
        assert_eq!(a.positions[0].ply, 2);

        // Shogi in Japanese (同 included) and Western; minishogi from its start.
        let a = analyse(
        &server,
        json!({"variant": "shogi", "moves": ["7g7f", "3c3d", "8h2b+", "3a2b"], "style": "japanese"}),
    )
    .await;
        assert_eq!(a.notation, ["☗７六歩", "☖３四歩", "☗２二角成", "☖同　銀"]);
        let last = a.positions.last().unwrap();
        assert_eq!(last.legal_moves.len(), last.legal_notation.len());
        assert!(last.legal_moves.iter().any(|m| m == "B*5e"));
        let a = analyse(
            &server,
            json!({"variant": "shogi", "moves": ["7g7f"], "style": "western", "from": 1}),
        )
        .await;
        assert_eq!(a.notation, ["P-76"]);
        let a = analyse(&server, json!({"variant": "minishogi", "style": "usi"})).await;
        assert_eq!(a.start, "rbsgk/4p/5/P4/KGSBR b - 1");
        assert!(a.positions[0].legal_moves.iter().any(|m| m == "5d5c"));
        assert_eq!(a.positions[0].legal_moves, a.positions[0].legal_notation);
    }
);

on_both!(
    checks_and_verdicts_come_from_the_rules,
    |server: TestServer| async move {
        // Two chariots mate the lone general on e9.
        let fen = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1";
        let a = analyse(
            &server,
            json!({"variant": "xiangqi", "fen": fen, "moves": ["b0b9"], "style": "iccs"}),
        )
        .await;
        let end = &a.positions[1];
        assert_eq!(end.check.as_deref(), Some("e9"));
        assert!(end.legal_moves.is_empty());
        assert_eq!(end.to_move, None);
        let result = end.result.as_ref().expect("the rules end the game");
        assert_eq!(
            (
                result.winner.as_deref(),
                result.reason.as_str(),
                result.result.as_str()
            ),
            (Some("red"), "checkmate", "1-0")
        );
        assert!(a.positions[0].result.is_none());
    }
);

on_both!(
    bad_requests_are_refused_by_name,
    |server: TestServer| async move {
        let path = "/api/analysis";
        let cases = [
            (
                json!({"variant": "chess", "style": "wxf"}),
                "unknown_variant",
            ),
            (
                json!({"variant": "xiangqi", "style": "japanese"}),
                "bad_notation_style",
            ),
            (
                json!({"variant": "xiangqi", "style": "nope"}),
                "bad_notation_style",
            ),
            (
                json!({"variant": "xiangqi", "style": "wxf", "fen": "nonsense"}),
                "invalid_fen",
            ),
            (
                json!({"variant": "xiangqi", "style": "wxf", "extra": 1}),
                "unknown_field",
            ),
            (json!({"style": "wxf"}), "invalid_request"),
            (
                json!({"variant": "xiangqi", "style": "wxf", "moves": ["h2e2"], "from": 2}),
                "invalid_request",
            ),
            (
                json!({"variant": "xiangqi", "style": "wxf", "knowledge": "red"}),
                "unsupported",
            ),
            (
                json!({"game": "zzzzzzzzzzzz", "style": "wxf"}),
                "game_not_found",
            ),
        ];
        for (body, code) in cases {
            let (status, got, v) = refused(&server, path, body.clone()).await;
            assert_eq!(got, code, "{body} → {v}");
            assert_eq!(
                status.as_u16(),
                jiang_protocol::ErrorCode::from_name(code).unwrap().status()
            );
        }
        let (status, code, v) = refused(
            &server,
            path,
            json!({"variant": "shogi", "style": "usi", "moves": ["7g7f", "7g7e"]}),
        )
        .await;
        assert_eq!(
            (status, code.as_str()),
            (StatusCode::BAD_REQUEST, "illegal_move"),
            "{v}"
        );
        // Gote has no piece on 7g.
        assert_eq!(v["error"]["reason"], "no_piece");
        assert!(
            v["error"]["message"].as_str().unwrap().contains("Move 2"),
            "{v}"
        );
    }
);

on_both!(
    live_games_are_refused_and_finished_ones_open_by_id,
    |server: TestServer| async move {
        let (id, red, _black) = server.untimed_game("xiangqi", &["h2e2", "h9g7"]).await;
        // A game being played, or waiting for its second player, is not over.
        let (waiting, _, _) = server.create(json!({"variant": "shogi"})).await;
        for (path, body) in [
            ("/api/analysis", json!({"game": id, "style": "wxf"})),
            (
                "/api/analysis/export",
                json!({"game": id, "format": "pgn", "tree": []}),
            ),
            ("/api/analysis", json!({"game": waiting, "style": "usi"})),
        ] {
            let (status, code, _) = refused(&server, path, body).await;
            assert_eq!(
                (status, code.as_str()),
                (StatusCode::CONFLICT, "game_in_progress"),
                "{path}"
            );
        }

        server.resign(&id, &red).await;
        let a = analyse(
            &server,
            json!({"game": id, "style": "wxf", "moves": ["h2e2", "b9c7"]}),
        )
        .await;
        let game = a.game.expect("the game opened by id");
        assert_eq!(game.moves, ["h2e2", "h9g7"]);
        let result = game.result.unwrap();
        assert_eq!(
            (result.winner.as_deref(), result.reason.as_str()),
            (Some("black"), "resignation")
        );
        assert_eq!(a.notation, ["C2.5", "H2+3"]);
        for (body, expected) in [
            (
                json!({"game": id, "variant": "shogi", "style": "usi"}),
                "invalid_request",
            ),
            (
                json!({"game": id, "fen": "startpos", "style": "wxf"}),
                "unsupported",
            ),
        ] {
            let (_, code, v) = refused(&server, "/api/analysis", body).await;
            assert_eq!(code, expected, "{v}");
        }
    }
);

on_both!(
    jieqi_as_it_was_shows_the_deal_and_what_red_knew_leaks_nothing,
    |server: TestServer| async move {
        let (id, red, _black) = server.untimed_game("jieqi", &["h2e2", "h7e7"]).await;
        // While the game is played, neither way of looking is open.
        for knowledge in ["all", "red", "black"] {
            let (_, code, _) = refused(
                &server,
                "/api/analysis",
                json!({"game": id, "style": "iccs", "knowledge": knowledge}),
            )
            .await;
            assert_eq!(code, "game_in_progress");
        }
        server.resign(&id, &red).await;
        let end: GameView = server.game_view(&id, None).await;
        let covered_at_end = end.state.variant_fields.covered_pieces.clone().unwrap();
        let played = end.moves.clone();

        // As it was: the deal shows every covered piece, and a covered piece moved in a variation
        // turns over as the deal had it.
        let a = analyse(
            &server,
            json!({"game": id, "style": "iccs", "knowledge": "all", "moves": played}),
        )
        .await;
        assert_eq!(
            a.positions.last().unwrap().covered_pieces.as_ref(),
            Some(&covered_at_end)
        );
        let start_covered = a.positions[0].covered_pieces.clone().unwrap();
        assert_eq!(start_covered.len(), 30);
        let a = analyse(
            &server,
            json!({"game": id, "style": "iccs", "knowledge": "all", "moves": ["b2e2"]}),
        )
        .await;
        assert_eq!(a.moves[0], format!("b2e2{}", start_covered["b2"]));

        // What Red knew: covered pieces stay covered; nothing of the deal is in the answer.
        let public_line: Vec<String> = played.clone();
        let (status, v) = server
            .post(
                "/api/analysis",
                None,
                json!({"game": id, "style": "wxf", "knowledge": "red", "moves": public_line}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let text = v.to_string();
        assert!(!text.contains("covered_pieces"), "{text}");
        let deal = end.state.variant_fields.deal.clone().unwrap();
        assert!(!text.contains(&deal), "the deal leaked: {text}");
        let a: AnalysisAnswer = typed(&v);
        assert_eq!(a.moves, played, "the public reveals of the game are public");
        for p in &a.positions {
            assert!(p.covered_pieces.is_none());
            assert!(p.fen.contains('x') && p.fen.contains('X'), "{}", p.fen);
            assert!(p.pool.is_some());
        }
        // A covered piece moved in a variation needs the identity the analyst supposes for it.
        let (_, code, v) = refused(
            &server,
            "/api/analysis",
            json!({"game": id, "style": "iccs", "knowledge": "red", "moves": ["b2e2"]}),
        )
        .await;
        assert_eq!(code, "illegal_move", "{v}");
        assert_eq!(v["error"]["reason"], "reveal_letter");
        let a = analyse(
            &server,
            json!({"game": id, "style": "iccs", "knowledge": "black", "moves": ["b2e2R"]}),
        )
        .await;
        assert_eq!(a.moves, ["b2e2R"]);
        assert_eq!(a.positions[1].pool.as_ref().unwrap()["red"], "A2B2N2R1C2P5");
    }
);

/// How many of the identity `letter` a FEN pool text (`A2B2N2R2C2P5`) counts.
fn pool_count(pool: &str, letter: char) -> u32 {
    pool.find(letter)
        .and_then(|i| pool[i + 1..].chars().next()?.to_digit(10))
        .unwrap_or(0)
}

on_both!(
    jieqi_what_a_side_knew_includes_the_covered_pieces_it_captured,
    |server: TestServer| async move {
        // Red's covered cannon takes Black's covered horse at h9 (screen h7); Black's covered
        // cannon takes Red's covered horse at b0 (screen b2); then Red resigns.
        let (id, red, _black) = server.untimed_game("jieqi", &["h2h9", "b7b0"]).await;
        server.resign(&id, &red).await;
        let end: GameView = server.game_view(&id, None).await;
        let all_captured = end.state.variant_fields.captured.clone().unwrap();
        let black_horse = all_captured["red"][0].piece.clone().unwrap();
        let red_horse = all_captured["black"][0].piece.clone().unwrap();
        let played = end.moves.clone();
        let knew = |knowledge: &'static str| {
            let (server, id, played) = (&server, id.clone(), played.clone());
            async move {
                analyse(
                    server,
                    json!({"game": id, "style": "iccs", "knowledge": knowledge, "moves": played}),
                )
                .await
            }
        };
        let red_knew = knew("red").await;
        let black_knew = knew("black").await;
        assert_eq!(red_knew.moves, played);

        // After Red's capture: Red knows what it took, Black (its owner) does not yet.
        let (r1, b1) = (&red_knew.positions[1], &black_knew.positions[1]);
        let r_captured = r1.captured.as_ref().unwrap();
        assert_eq!(r_captured["red"][0].piece.as_deref(), Some(&*black_horse));
        assert!(r_captured["red"][0].was_covered);
        let b_captured = b1.captured.as_ref().unwrap();
        assert_eq!(b_captured["red"][0].piece, None);
        assert!(b_captured["red"][0].was_covered);
        let letter = black_horse.chars().next().unwrap();
        let (r_pool, b_pool) = (r1.pool.as_ref().unwrap(), b1.pool.as_ref().unwrap());
        assert_eq!(
            pool_count(&r_pool["black"], letter) + 1,
            pool_count(&b_pool["black"], letter),
            "{r_pool:?} / {b_pool:?}"
        );

        // After Black's capture: the other way round, and Red still knows its own capture.
        let (r2, b2) = (&red_knew.positions[2], &black_knew.positions[2]);
        let r_captured = r2.captured.as_ref().unwrap();
        assert_eq!(r_captured["black"][0].piece, None);
        assert_eq!(r_captured["red"][0].piece.as_deref(), Some(&*black_horse));
        let b_captured = b2.captured.as_ref().unwrap();
        assert_eq!(b_captured["black"][0].piece.as_deref(), Some(&*red_horse));
        assert_eq!(b_captured["red"][0].piece, None);
        let letter = red_horse.chars().next().unwrap();
        assert_eq!(
            pool_count(&b2.pool.as_ref().unwrap()["red"], letter) + 1,
            pool_count(&r2.pool.as_ref().unwrap()["red"], letter),
        );
        for a in [&red_knew, &black_knew] {
            for p in &a.positions {
                assert!(p.covered_pieces.is_none());
            }
        }

        // Past the end of the game's moves: the public game with supposed identities, as before.
        let mut line = played.clone();
        line.push("e0e1".to_owned());
        let a = analyse(
            &server,
            json!({"game": id, "style": "iccs", "knowledge": "red", "moves": line}),
        )
        .await;
        let past = a.positions.last().unwrap();
        assert_eq!(past.ply, 3);
        assert!(past.captured.is_none());
        // The public pools: Red's capture is back among Black's unseen identities.
        let past_pool = past.pool.as_ref().unwrap();
        assert_eq!(past_pool["black"], b2.pool.as_ref().unwrap()["black"]);
        assert_eq!(past_pool["red"], r2.pool.as_ref().unwrap()["red"]);
    }
);

on_both!(
    trees_export_with_variations_and_read_back,
    |server: TestServer| async move {
        let tree = json!([
            {"move": "h2e2", "variations": [[{"move": "b2e2"}, {"move": "b9c7"}]]},
            {"move": "h9g7"},
            {"move": "h0g2", "variations": [[{"move": "b0c2"}]]},
        ]);
        for moves in ["iccs", "wxf", "chinese"] {
            let (status, v) = server
                .post(
                    "/api/analysis/export",
                    None,
                    json!({"variant": "xiangqi", "format": "pgn", "moves": moves, "tree": tree}),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{v}");
            let record: ExportedRecord = typed(&v);
            assert_eq!(record.file_name, "analysis.pgn");
            assert_eq!(record.text.matches('(').count(), 2, "{}", record.text);
            let (status, read) = server
                .post("/api/import", None, json!({"text": record.text}))
                .await;
            assert_eq!(status, StatusCode::OK, "{read}");
            assert_eq!(
                read["moves"],
                json!(["h2e2", "h9g7", "h0g2"]),
                "{}",
                record.text
            );
        }
        let tree = json!([
            {"move": "7g7f"},
            {"move": "3c3d", "variations": [[{"move": "8c8d"}, {"move": "2g2f"}]]},
            {"move": "2g2f"},
        ]);
        let (status, v) = server
            .post(
                "/api/analysis/export",
                None,
                json!({"variant": "shogi", "format": "kif", "tree": tree}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let record: ExportedRecord = typed(&v);
        assert_eq!(record.file_name, "analysis.kifu");
        assert!(
            record.text.contains("変化：2手\n   2 ８四歩(83)"),
            "{}",
            record.text
        );
        let (status, read) = server
            .post("/api/import", None, json!({"text": record.text}))
            .await;
        assert_eq!(status, StatusCode::OK, "{read}");
        assert_eq!(read["moves"], json!(["7g7f", "3c3d", "2g2f"]));

        // Errors: the other family's format, an illegal move in a variation, an unknown format.
        let variation = json!([{"move": "h2e2", "variations": [[{"move": "h9g7"}]]}]);
        for (body, expected) in [
            (
                json!({"variant": "xiangqi", "format": "kif", "tree": []}),
                "unsupported_format",
            ),
            (
                json!({"variant": "xiangqi", "format": "pgn", "tree": variation}),
                "illegal_move",
            ),
            (
                json!({"variant": "shogi", "format": "csa", "tree": []}),
                "unsupported_format",
            ),
            (
                json!({"variant": "shogi", "format": "kif", "moves": "wxf", "tree": []}),
                "bad_moves",
            ),
        ] {
            let (_, code, v) = refused(&server, "/api/analysis/export", body).await;
            assert_eq!(code, expected, "{v}");
        }
    }
);

/// The next engine message (within 10 s), checked against the protocol type.
async fn next_engine(socket: &mut Socket) -> Value {
    next_typed_json::<EngineServerMessage>(socket, std::time::Duration::from_secs(10)).await
}

async fn engine_socket(server: &TestServer) -> Socket {
    connect(&format!(
        "{}/api/analysis/ws",
        server.base.replacen("http", "ws", 1)
    ))
    .await
}

on_both!(
    the_engine_streams_lines_until_stopped,
    |server: TestServer| async move {
        let mut socket = engine_socket(&server).await;
        send(
        &mut socket,
        json!({"type": "start", "variant": "xiangqi", "moves": ["h2e2"], "style": "wxf", "lines": 2}),
    )
    .await;
        let queued = next_engine(&mut socket).await;
        assert_eq!(queued, json!({"type": "queued", "search": 1, "ply": 1}));
        // Lines arrive as the search deepens: two of them, black to move.
        let info = loop {
            let v = next_engine(&mut socket).await;
            assert_eq!(v["type"], "info", "{v}");
            if v["lines"].as_array().unwrap().len() == 2 {
                break v;
            }
        };
        let best = &info["lines"][0];
        assert_eq!(best["multipv"], 1);
        assert!(!best["pv"].as_array().unwrap().is_empty());
        assert_eq!(
            best["pv"].as_array().unwrap().len(),
            best["pv_notation"].as_array().unwrap().len()
        );
        // Black to move: Red's point of view is the opposite.
        if let Some(cp) = best["score"]["cp"].as_i64() {
            assert_eq!(best["score_first"]["cp"].as_i64(), Some(-cp));
        }
        send(&mut socket, json!({"type": "stop"})).await;
        let done = loop {
            let v = next_engine(&mut socket).await;
            if v["type"] == "done" {
                break v;
            }
        };
        assert_eq!(done["search"], 1);

        // Refusals: a bad message, too many lines, a live game, a line with an illegal move.
        send(&mut socket, json!({"type": "go"})).await;
        assert_eq!(next_engine(&mut socket).await["code"], "invalid_message");
        send(
            &mut socket,
            json!({"type": "start", "variant": "shogi", "style": "usi", "lines": 4}),
        )
        .await;
        assert_eq!(next_engine(&mut socket).await["code"], "invalid_message");
        let (live, _, _) = server.game(json!({"variant": "shogi"}), "sente").await;
        send(
            &mut socket,
            json!({"type": "start", "game": live, "style": "usi"}),
        )
        .await;
        assert_eq!(next_engine(&mut socket).await["code"], "game_in_progress");
        send(
            &mut socket,
            json!({"type": "start", "variant": "shogi", "style": "usi", "moves": ["7g7e"]}),
        )
        .await;
        let e = next_engine(&mut socket).await;
        assert_eq!(
            (e["code"].as_str(), e["reason"].as_str()),
            // A pawn moves one square.
            (Some("illegal_move"), Some("unreachable"))
        );
        // A position where the game is over: nothing to search.
        send(
        &mut socket,
        json!({"type": "start", "variant": "xiangqi", "fen": "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1", "moves": ["b0b9"], "style": "iccs"}),
    )
    .await;
        assert_eq!(
            next_engine(&mut socket).await,
            json!({"type": "done", "search": 2, "depth": 0, "nodes": 0})
        );
        send(&mut socket, json!({"type": "ping"})).await;
        assert_eq!(next_engine(&mut socket).await["type"], "pong");
    }
);

on_both!(
    a_search_ends_by_itself_at_its_budget,
    |config: &mut jiang_server::Config| config.analysis_seconds =
        std::time::Duration::from_millis(300),
    |server: TestServer| async move {
        let mut socket = engine_socket(&server).await;
        send(
            &mut socket,
            json!({"type": "start", "variant": "minishogi", "style": "western"}),
        )
        .await;
        assert_eq!(next_engine(&mut socket).await["type"], "queued");
        loop {
            let v = next_engine(&mut socket).await;
            if v["type"] == "done" {
                assert!(v["depth"].as_u64().unwrap() >= 1, "{v}");
                break;
            }
            assert_eq!(v["type"], "info");
            assert!(
                v["lines"][0]["pv_notation"][0]
                    .as_str()
                    .unwrap()
                    .contains('-'),
                "{v}"
            );
        }
    }
);

on_both!(
    a_review_marks_the_blunder_and_rates_both_sides,
    |server: TestServer| async move {
        // Red's chariot goes to a5, where Black's chariot on i5 takes it.
        let fen = "3k5/9/9/9/8r/9/9/9/9/R3K4 w - - 0 1";
        let (review, v) = reviewed(
            &server,
            json!({"variant": "xiangqi", "fen": fen, "moves": ["a0a5", "i5a5"], "style": "wxf"}),
        )
        .await;
        assert_eq!(review.evals.len(), 3);
        assert_eq!(review.verdicts.len(), 2);
        let blunder = &review.verdicts[0];
        assert_eq!(
            blunder.judgement,
            Some(jiang_protocol::Judgement::Blunder),
            "{v}"
        );
        assert!(
            blunder.better.is_some() && blunder.better_notation.is_some(),
            "{v}"
        );
        assert_eq!(
            review.verdicts[1].judgement, None,
            "taking the chariot is right: {v}"
        );
        assert!(review.accuracy["red"] < review.accuracy["black"], "{v}");
        for a in review.accuracy.values() {
            assert!((0.0..=100.0).contains(a));
        }
        // After the blunder Black (Red's point of view: negative) is far ahead.
        let after = review.evals[2].unwrap();
        assert!(after.mate.is_some() || after.cp.unwrap() < -300, "{v}");

        // A game still being played is not reviewed; a finished one is, by id, with its moves.
        let (id, red, _) = server.untimed_game("minishogi", &["5d5c", "1b1c"]).await;
        let (status, code, _) = refused(
            &server,
            "/api/analysis/review",
            json!({"game": id, "style": "usi"}),
        )
        .await;
        assert_eq!(
            (status, code.as_str()),
            (StatusCode::CONFLICT, "game_in_progress")
        );
        server.resign(&id, &red).await;
        let (review, _) = reviewed(&server, json!({"game": id, "style": "western"})).await;
        assert_eq!(review.moves, ["5d5c", "1b1c"]);
        assert_eq!(review.verdicts.len(), 2);
    }
);

on_both!(
    records_keep_their_result_and_names_through_import_and_export,
    |server: TestServer| async move {
        // A KIF that ends 投了 / まで4手で後手の勝ち, with the players' names.
        let kif = "先手：Alice\n後手：Bob\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 ８八角成(22)\n   5 投了\nまで4手で後手の勝ち\n";
        let (status, read) = server.post("/api/import", None, json!({"text": kif})).await;
        assert_eq!(status, StatusCode::OK, "{read}");
        assert_eq!(read["players"], json!({"sente": "Alice", "gote": "Bob"}));
        assert_eq!(
            read["result"],
            json!({"winner": "gote", "reason": "resignation"})
        );
        let line = |moves: &Value| -> Value {
            Value::Array(
                moves
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| json!({"move": m}))
                    .collect(),
            )
        };
        let record =
            json!({"players": read["players"], "moves": read["moves"], "result": read["result"]});
        let export = |body: Value| {
            let server = &server;
            async move {
                let (status, v) = server.post("/api/analysis/export", None, body).await;
                assert_eq!(status, StatusCode::OK, "{v}");
                typed::<ExportedRecord>(&v).text
            }
        };
        let text = export(json!({"variant": "shogi", "format": "kif", "tree": line(&read["moves"]), "record": record})).await;
        for expected in ["先手：Alice", "後手：Bob", "投了", "まで4手で後手の勝ち"]
        {
            assert!(text.contains(expected), "{expected} in {text}");
        }
        // Read back, the export keeps them.
        let (_, again) = server
            .post("/api/import", None, json!({"text": text}))
            .await;
        assert_eq!(again["result"], read["result"]);
        assert_eq!(again["players"], read["players"]);
        // Another main line is not the recorded game: no result, still the names.
        let other = export(json!({"variant": "shogi", "format": "kif", "tree": line(&json!(["7g7f", "3c3d"])), "record": record})).await;
        assert!(
            !other.contains("投了") && other.contains("先手：Alice"),
            "{other}"
        );

        // A PGN checkmate without a Termination: the rules' verdict, and it is written back.
        let pgn = "[Game \"Chinese Chess\"]\n[Red \"Alice\"]\n[Black \"Bob\"]\n[FEN \"4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1\"]\n[Result \"1-0\"]\n\n1. b7b9 1-0\n";
        let (_, read) = server.post("/api/import", None, json!({"text": pgn})).await;
        assert_eq!(
            read["result"],
            json!({"winner": "red", "reason": "checkmate"})
        );
        assert_eq!(read["players"], json!({"red": "Alice", "black": "Bob"}));
        let text = export(json!({"variant": "xiangqi", "fen": read["start"], "format": "pgn", "tree": line(&read["moves"])})).await;
        assert!(
            text.contains("[Result \"1-0\"]") && text.contains("[Termination \"checkmate\"]"),
            "{text}"
        );

        // A finished game opened by id: its own result (a resignation) on its own line.
        let (id, red, _black) = server.untimed_game("xiangqi", &["h2e2", "h9g7"]).await;
        server.resign(&id, &red).await;
        let text = export(json!({"game": id, "format": "pgn", "moves": "wxf", "tree": line(&json!(["h2e2", "h9g7"]))})).await;
        assert!(
            text.contains("[Result \"0-1\"]") && text.contains("[Termination \"resignation\"]"),
            "{text}"
        );
        let text =
            export(json!({"game": id, "format": "pgn", "tree": line(&json!(["h2e2"]))})).await;
        assert!(text.contains("[Result \"*\"]"), "{text}");
        let (_, code, _) = refused(
            &server,
            "/api/analysis/export",
            json!({"game": id, "format": "pgn", "tree": [], "record": {}}),
        )
        .await;
        assert_eq!(code, "unsupported");
    }
);

on_both!(
    a_review_is_repeatable_whatever_the_engine_did_in_between,
    |server: TestServer| async move {
        let body = json!({"variant": "xiangqi", "style": "wxf",
            "moves": ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "h0h4", "h7i7", "h4c4", "c6c5"]});
        let (first, v1) = reviewed(&server, body.clone()).await;
        // The live engine searches other positions on the same pool in between.
        let mut socket = engine_socket(&server).await;
        for moves in [
            json!(["b2e2", "h9g7"]),
            json!(["h2e2", "b9c7", "h0g2", "a9b9"]),
        ] {
            send(
                &mut socket,
                json!({"type": "start", "variant": "xiangqi", "moves": moves, "style": "wxf", "lines": 3}),
            )
            .await;
            let mut infos = 0;
            loop {
                let v = next_engine(&mut socket).await;
                if v["type"] == "info" {
                    infos += 1;
                }
                if infos == 6 {
                    send(&mut socket, json!({"type": "stop"})).await;
                }
                if v["type"] == "done" {
                    break;
                }
            }
        }
        let (second, v2) = reviewed(&server, body).await;
        assert_eq!(first.evals, second.evals, "{v1}\n{v2}");
        assert_eq!(first.verdicts, second.verdicts, "{v1}\n{v2}");
        assert_eq!(first.accuracy, second.accuracy, "{v1}\n{v2}");
    }
);

on_both!(
    import_errors_carry_the_values_their_message_is_written_from,
    |server: TestServer| async move {
        let refused_import = |body: Value| {
            let server = &server;
            async move {
                let (status, v) = server.post("/api/import", None, body).await;
                assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
                typed::<jiang_protocol::ErrorBody>(&v);
                v["error"].clone()
            }
        };
        let e = refused_import(json!({"text": "hello there"})).await;
        assert_eq!(e["code"], "unknown_format");
        assert_eq!(e["params"], json!({"line": "1"}));
        let e =
            refused_import(json!({"text": "[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 2. a0a5 *\n"}))
                .await;
        assert_eq!(e["code"], "bad_move");
        assert_eq!(
            e["params"],
            json!({"line": "3", "ply": "3", "move": "a0a5"})
        );
        let e = refused_import(json!({"text": "1. h2e2 *", "variant": "shogi"})).await;
        assert_eq!(e["code"], "wrong_variant", "{e}");
        assert_eq!(e["params"], json!({"wanted": "shogi", "found": "xiangqi"}));
        let e = refused_import(json!({"text": "   "})).await;
        assert_eq!(e["code"], "empty_record");
        assert!(e.get("params").is_none(), "{e}");
    }
);
