//! Tsume without the attacker's king through the real API (shogi.md: valid for import,
//! analysis and the editor, never for a game): a real tsume record imports, the analysis
//! board opens it and plays its solution to mate, the editor's check accepts the position,
//! and a game from it is refused with a message saying why.

#[macro_use]
mod common;

use common::*;
use reqwest::StatusCode;
use serde_json::json;

/// A tsume record written by Shogidokoro (the interop corpus, UTF-8), without sente's king.
const RECORD: &str = include_str!("../../rules/tests/data/shogi/jkf-kif-shogidokoro.kifu");

on_both!(
    a_kingless_tsume_imports_and_opens_for_analysis_but_not_as_a_game,
    |server: TestServer| async move {
        let (status, read) = server
            .post("/api/import", None, json!({"text": RECORD}))
            .await;
        assert_eq!(status, StatusCode::OK, "{read}");
        let start = read["start"].as_str().unwrap().to_owned();
        assert!(!start.split(' ').next().unwrap().contains('K'), "{start}");
        let moves = read["moves"].as_array().unwrap().clone();
        assert!(moves.len() >= 3, "{read}");

        // The analysis board opens it with the record's moves; the line ends in mate.
        let (status, a) = server
            .post(
                "/api/analysis",
                None,
                json!({"variant": "shogi", "fen": start, "moves": moves, "style": "western"}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{a}");
        let positions = a["positions"].as_array().unwrap();
        assert_eq!(positions.len(), moves.len() + 1);
        assert_eq!(positions[0]["to_move"], "sente");
        let last = positions.last().unwrap();
        assert_eq!(last["result"]["winner"], "sente", "{last}");
        assert_eq!(last["result"]["reason"], "checkmate", "{last}");

        // The board editor's check accepts it for analysis, not as a game's start.
        let (status, v) = server
            .post(
                "/api/positions/validate",
                None,
                json!({"variant": "shogi", "fen": start}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["valid"], true, "{v}");
        assert_eq!(v["playable"], false, "{v}");
        assert_eq!(v["problems"], json!([]), "{v}");

        // A game from it is refused: a game needs both kings.
        let (status, v) = server
            .post(
                "/api/games",
                None,
                json!({"variant": "shogi", "fen": start}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        let message = v["error"]["message"].as_str().unwrap();
        assert!(message.contains("a game needs both kings"), "{message}");
        assert!(message.contains("analysis board"), "{message}");

        // A position without any king is refused by the analysis board too.
        let (status, v) = server
            .post(
                "/api/analysis",
                None,
                json!({"variant": "shogi", "fen": "9/9/9/9/9/9/9/9/9 b R 1", "style": "western"}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    }
);
