//! `POST /api/positions/validate` against a real server: every problem class of every variant
//! comes back typed and located, a valid position comes back canonical with its side to move,
//! check and end, and a validated position starts a game.

mod common;

use common::{TestServer, typed};
use jiang_protocol::{PositionCheck, to_sorted_value};
use reqwest::StatusCode;
use serde_json::{Value, json};

async fn check(s: &TestServer, variant: &str, fen: &str) -> PositionCheck {
    let (status, answer) = s
        .post(
            "/api/positions/validate",
            None,
            json!({"variant": variant, "fen": fen}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{variant} {fen}: {answer}");
    let check: PositionCheck = typed(&answer);
    assert_eq!(check.valid, check.problems.is_empty(), "{answer}");
    assert_eq!(check.valid, check.fen.is_some(), "{answer}");
    check
}

/// (variant, position, the problems the server must list, as JSON).
fn cases() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        (
            "xiangqi",
            "4k4/9/9/9/9/9/9/9/9/3KK4 w",
            json!([{"problem": "king_count", "side": "red", "found": 2}]),
        ),
        (
            "xiangqi",
            "9/9/9/9/9/9/9/9/9/3K5 w",
            json!([{"problem": "king_count", "side": "black", "found": 0}]),
        ),
        (
            "xiangqi",
            "3k5/9/9/9/9/9/9/9/9/K8 w",
            json!([{"problem": "king_outside_palace", "side": "red", "square": "a0"}]),
        ),
        (
            "xiangqi",
            "3k5/9/9/9/B8/9/9/9/A8/4K4 w",
            json!([
            {"problem": "piece_out_of_place", "side": "red", "piece": "advisor", "square": "a1"},
            {"problem": "piece_out_of_place", "side": "red", "piece": "elephant", "square": "a5"}]),
        ),
        (
            "xiangqi",
            "3k5/9/9/9/9/9/9/9/P8/4K4 w",
            json!([{"problem": "piece_out_of_place", "side": "red", "piece": "soldier", "square": "a1"}]),
        ),
        (
            "xiangqi",
            "3k5/9/9/9/PPPPPP3/9/9/9/9/4K4 w",
            json!([{"problem": "too_many", "side": "red", "piece": "soldier", "found": 6, "max": 5}]),
        ),
        (
            "xiangqi",
            "3k5/9/9/9/9/9/9/9/9/3K5 b",
            json!([{"problem": "generals_facing", "file": "d"}]),
        ),
        (
            "xiangqi",
            "4k4/9/9/9/4R4/9/9/9/9/3K5 w",
            json!([{"problem": "opponent_in_check", "side": "black"}]),
        ),
        (
            "xiangqi",
            "rnbakabnr/9 w",
            json!([{"problem": "unreadable", "message": "field 1 (board): expected 10 ranks separated by `/`, found 2", "part": "board"}]),
        ),
        (
            "jieqi",
            "3k5/9/9/9/9/9/9/9/X8/4K4 w",
            json!([{"problem": "covered_off_start", "side": "red", "square": "a1"}]),
        ),
        (
            "jieqi",
            "3k5/9/9/9/9/9/9/9/9/XX2K4 w R1 0 1",
            json!([{"problem": "pool_too_small", "side": "red", "covered": 2, "pool": 1}]),
        ),
        (
            "jieqi",
            "3k5/9/9/9/9/9/9/9/9/R3K4 w R2 0 1",
            json!([{"problem": "too_many", "side": "red", "piece": "chariot", "found": 3, "max": 2}]),
        ),
        (
            "shogi",
            "4k4/9/9/9/9/9/9/9/3KK4 b - 1",
            json!([{"problem": "king_count", "side": "sente", "found": 2}]),
        ),
        (
            "shogi",
            "k3P4/1N7/9/9/9/9/9/9/K3l4 b - 1",
            json!([
            {"problem": "stuck_piece", "side": "sente", "piece": "pawn", "square": "5a"},
            {"problem": "stuck_piece", "side": "sente", "piece": "knight", "square": "8b"},
            {"problem": "stuck_piece", "side": "gote", "piece": "lance", "square": "5i"}]),
        ),
        (
            "shogi",
            "k8/9/4P4/9/4P4/9/9/9/K8 b - 1",
            json!([{"problem": "nifu", "side": "sente", "file": 5}]),
        ),
        (
            "shogi",
            "k8/9/9/9/9/9/9/9/K8 b 2B1b 1",
            json!([{"problem": "too_many", "piece": "bishop", "found": 3, "max": 2}]),
        ),
        (
            "shogi",
            "k8/R8/9/9/9/9/9/9/8K b - 1",
            json!([{"problem": "opponent_in_check", "side": "gote"}]),
        ),
        (
            "minishogi",
            "k4/2p2/5/2p2/4K b - 1",
            json!([{"problem": "nifu", "side": "gote", "file": 3}]),
        ),
        (
            "minishogi",
            "k1P2/5/5/5/4K b - 1",
            json!([{"problem": "stuck_piece", "side": "sente", "piece": "pawn", "square": "3a"}]),
        ),
    ]
}

#[tokio::test]
async fn every_problem_class_of_every_variant_is_typed_and_located() {
    let s = TestServer::start().await;
    for (variant, fen, expected) in cases() {
        let check = check(&s, variant, fen).await;
        assert!(!check.valid && !check.playable, "{variant} {fen}");
        assert_eq!(
            to_sorted_value(&check.problems),
            expected,
            "{variant} {fen}"
        );
    }
    // The Jieqi start is valid, but a Jieqi game always starts from a fresh deal.
    let start = check(&s, "jieqi", "startpos").await;
    assert!(start.valid && !start.playable);
    assert_eq!(
        start.fen.as_deref(),
        Some(
            "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1"
        )
    );
    s.stop().await;
}

/// An unreadable text is located by part (and rank) so that a reader of any language can be told
/// where; the English message is beside it.
#[tokio::test]
async fn an_unreadable_text_says_which_part_and_rank() {
    let s = TestServer::start().await;
    let cases = [
        ("xiangqi", "rnbakabnr w", "board", None),
        (
            "xiangqi",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABZR w",
            "board",
            Some("0"),
        ),
        (
            "xiangqi",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR q",
            "side",
            None,
        ),
        (
            "xiangqi",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1",
            "counters",
            None,
        ),
        (
            "shogi",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
            "side",
            None,
        ),
        (
            "shogi",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNQ b - 1",
            "board",
            Some("i"),
        ),
        (
            "shogi",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2Q 1",
            "hands",
            None,
        ),
    ];
    for (variant, fen, part, rank) in cases {
        let check = check(&s, variant, fen).await;
        let problems = to_sorted_value(&check.problems);
        assert_eq!(
            problems[0]["problem"], "unreadable",
            "{variant} {fen}: {problems}"
        );
        assert_eq!(problems[0]["part"], part, "{variant} {fen}: {problems}");
        assert_eq!(
            problems[0].get("rank").and_then(Value::as_str),
            rank,
            "{variant} {fen}: {problems}"
        );
        assert!(
            problems[0]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty())
        );
    }
    s.stop().await;
}

#[tokio::test]
async fn a_valid_position_is_canonical_and_starts_a_game() {
    let s = TestServer::start().await;
    // A short FEN comes back canonical, with the side to move and check.
    let valid = check(&s, "xiangqi", "3k5/9/9/9/9/9/9/9/3R5/5K3 b").await;
    assert!(valid.valid && valid.playable && valid.check);
    assert_eq!(valid.turn.as_deref(), Some("black"));
    assert_eq!(
        valid.fen.as_deref(),
        Some("3k5/9/9/9/9/9/9/9/3R5/5K3 b - - 0 1")
    );
    // Checkmate: valid, but over before it starts, so not playable.
    let mated = check(&s, "xiangqi", "3k5/3R5/3R5/9/9/9/9/9/9/4K4 b").await;
    assert!(mated.valid && !mated.playable);
    let outcome = mated.outcome.expect("over");
    assert_eq!(
        (outcome.winner.as_deref(), outcome.reason.as_str()),
        (Some("red"), "checkmate")
    );
    // Shogi with hands: canonical order, and the game starts from it.
    let shogi = check(&s, "shogi", "4k4/9/9/9/9/9/9/9/4K4 w pG 1").await;
    assert!(shogi.playable);
    let fen = shogi.fen.expect("valid");
    assert_eq!(fen, "4k4/9/9/9/9/9/9/9/4K4 w Gp 1");
    let (id, _, _) = s.create(json!({"variant": "shogi", "fen": fen})).await;
    let view = s.view(&id, None).await;
    assert_eq!(view["initial_fen"], fen.as_str());
    s.stop().await;
}

#[tokio::test]
async fn bad_requests_are_refused() {
    let s = TestServer::start().await;
    let cases = [
        (
            json!({"variant": "chess", "fen": "startpos"}),
            "unknown_variant",
        ),
        (json!({"variant": "shogi"}), "invalid_request"),
        (
            json!({"variant": "shogi", "fen": "startpos", "turn": "b"}),
            "unknown_field",
        ),
        (json!({"variant": "shogi", "fen": 3}), "invalid_request"),
    ];
    for (body, code) in cases {
        let (status, answer) = s.post("/api/positions/validate", None, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{answer}");
        assert_eq!(answer["error"]["code"], code, "{answer}");
    }
    let (status, answer) = s.get("/api/positions/validate", None).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{answer}");
    s.stop().await;
}
