//! Random bodies and socket messages against a real server: every one is answered with a 4xx
//! JSON error (or accepted, when it happens to be valid), nothing panics, and a refused request
//! leaves the game exactly as it was. The cases come from a seeded generator, so a failure
//! names its seed and case and reproduces (`JIANG_FUZZ_SEED`, `JIANG_FUZZ_CASES`).

mod common;

use common::{TestServer, connect, next_json, send};
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use reqwest::StatusCode;
use serde_json::{Value, json};

/// Keys the API knows, and some it does not.
const KEYS: &[&str] = &[
    "variant",
    "clock",
    "side",
    "fen",
    "handicap",
    "move",
    "action",
    "type",
    "main",
    "increment",
    "byoyomi",
    "periods",
    "move_limit",
    "token",
    "",
    "évite",
    "__proto__",
];

/// Strings near what the API expects.
const WORDS: &[&str] = &[
    "xiangqi",
    "jieqi",
    "shogi",
    "minishogi",
    "chess",
    "red",
    "black",
    "sente",
    "gote",
    "random",
    "offer",
    "accept",
    "decline",
    "move",
    "resign",
    "draw",
    "abort",
    "impasse",
    "rematch",
    "clock",
    "ping",
    "h2e2",
    "h2e3",
    "b0c2",
    "7g7f",
    "P*5e",
    "8h2b+",
    "a0a9",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "4k4/9/9 w",
    "2-piece",
    "",
    " ",
    "\u{0}",
    "漢字",
    "🀄",
];

fn value(rng: &mut StdRng, depth: u32) -> Value {
    match rng.random_range(0..if depth > 2 { 6 } else { 8 }) {
        0 => Value::Null,
        1 => json!(rng.random::<bool>()),
        2 => json!(rng.random_range(-5i64..100_000)),
        3 => json!(rng.random::<f64>() * 1e6 - 10.0),
        4 | 5 => json!(WORDS.choose(rng).expect("words")),
        6 => Value::Array(
            (0..rng.random_range(0..4))
                .map(|_| value(rng, depth + 1))
                .collect(),
        ),
        _ => object(rng, depth + 1),
    }
}

fn object(rng: &mut StdRng, depth: u32) -> Value {
    let mut map = serde_json::Map::new();
    for _ in 0..rng.random_range(0..4) {
        map.insert(
            (*KEYS.choose(rng).expect("keys")).to_owned(),
            value(rng, depth),
        );
    }
    Value::Object(map)
}

/// A body: mostly JSON objects, sometimes other JSON, mangled JSON or bytes.
fn body(rng: &mut StdRng) -> Vec<u8> {
    let text = object(rng, 0).to_string();
    match rng.random_range(0..10) {
        0 => value(rng, 0).to_string().into_bytes(),
        1 => {
            let mut bytes = text.into_bytes();
            let cut = rng.random_range(0..=bytes.len());
            bytes.truncate(cut);
            bytes
        }
        2 => (0..rng.random_range(0..40)).map(|_| rng.random()).collect(),
        _ => text.into_bytes(),
    }
}

fn assert_refusal(status: StatusCode, answer: &Value, case: &str) {
    assert!(
        status.is_client_error(),
        "{case}: expected a 4xx, got {status} {answer}"
    );
    let code = answer["error"]["code"].as_str().unwrap_or_default();
    assert!(
        !code.is_empty() && code.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'),
        "{case}: no snake_case error code in {answer}"
    );
    assert!(
        answer["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{case}: no message in {answer}"
    );
}

/// What a refused request must not change.
fn essentials(view: &Value) -> Value {
    json!([
        view["status"],
        view["moves"],
        view["draw_offer"],
        view["result"],
        view["rematch"]
    ])
}

/// The seed (`JIANG_FUZZ_SEED`, else a fixed one), the number of cases (`JIANG_FUZZ_CASES`,
/// else 400) and the generator seeded with it.
fn seeded() -> (u64, u64, StdRng) {
    let from_env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let seed = from_env("JIANG_FUZZ_SEED").unwrap_or(0x4a69616e67);
    let cases = from_env("JIANG_FUZZ_CASES").unwrap_or(400);
    (seed, cases, StdRng::seed_from_u64(seed))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_requests_and_messages_are_refused_cleanly() {
    // A fixed seed in CI; `JIANG_FUZZ_SEED=<n> JIANG_FUZZ_CASES=<n>` explores further.
    let (seed, cases, mut rng) = seeded();
    let s = TestServer::start().await;
    let (id, red, black) = s.game(json!({"variant": "xiangqi"}), "red").await;
    for case in 0..cases {
        let bytes = body(&mut rng);
        let target = rng.random_range(0..5);
        let label = format!(
            "JIANG_FUZZ_SEED={seed} case {case}: target {target}, body {:?}",
            String::from_utf8_lossy(&bytes)
        );
        let before = s.view(&id, Some(&red)).await;
        let (status, answer) = match target {
            0 => s.post_raw("/api/games", None, bytes).await,
            // Not black's turn: no move of black's can be accepted.
            1 => {
                s.post_raw(&format!("/api/games/{id}/move"), Some(&black), bytes)
                    .await
            }
            2 => {
                s.post_raw(&format!("/api/games/{id}/draw"), Some(&red), bytes)
                    .await
            }
            3 => {
                s.post_raw(
                    &format!("/api/games/{id}/resign"),
                    Some("not-a-token"),
                    bytes,
                )
                .await
            }
            // A spectator's socket: every message is parsed, none may act. (A fresh socket
            // each time: a socket is closed after too many refused messages.)
            _ => {
                let mut spectator = connect(&s.ws_url(&id, None)).await;
                next_json(&mut spectator).await; // state
                let text = String::from_utf8_lossy(&bytes).into_owned();
                socket_answer(&mut spectator, text).await
            }
        };
        match (target, status) {
            (0, StatusCode::CREATED) => assert!(answer["id"].is_string(), "{label}: {answer}"),
            // A valid draw offer may happen to be generated; a ping or clock request answers.
            (2 | 4, StatusCode::OK) => {}
            _ => {
                assert_refusal(status, &answer, &label);
                let after = s.view(&id, Some(&red)).await;
                assert_eq!(essentials(&before), essentials(&after), "{label}");
            }
        }
    }
    // Still playing, still answering.
    s.play(&id, &red, "h2e2").await;
    s.stop().await;
}

/// Sends `text` on the socket and returns its answer as an HTTP-like pair: an `error` message
/// as a 400 with that error, a `pong` as a 200. Every message gets exactly one of the two, in
/// order, except a clock request (its `clock` event comes from the game and is skipped): a ping
/// sent after it makes sure its answer, if any, has arrived.
async fn socket_answer(socket: &mut common::Socket, text: String) -> (StatusCode, Value) {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let answers_directly =
        serde_json::from_str::<Value>(&text).map_or(true, |v| v != json!({"type": "clock"}));
    socket.send(Message::Text(text.into())).await.expect("send");
    send(socket, json!({"type": "ping"})).await;
    let mut answers = Vec::new();
    while answers.len() < 1 + usize::from(answers_directly) {
        let message = next_json(socket).await;
        if matches!(message["type"].as_str(), Some("pong" | "error")) {
            answers.push(message);
        }
    }
    let first = &answers[0];
    if answers_directly && first["type"] == "error" {
        let error = json!({"error": {"code": first["code"], "message": first["message"]}});
        (StatusCode::BAD_REQUEST, error)
    } else {
        (StatusCode::OK, json!({}))
    }
}

/// Characters a position text is made of, and some it is not.
const POSITION_CHARS: &[char] = &[
    'K', 'k', 'A', 'a', 'B', 'b', 'N', 'n', 'R', 'r', 'C', 'c', 'P', 'p', 'X', 'x', 'G', 'g', 'S',
    's', 'L', 'l', 'E', 'H', '+', '1', '2', '3', '5', '9', '0', '/', ' ', '-', 'w', '漢',
];

/// A start position with a few characters replaced, inserted or removed.
fn mangled_position(rng: &mut StdRng, base: &str) -> String {
    let mut chars: Vec<char> = base.chars().collect();
    for _ in 0..rng.random_range(1..6) {
        let c = *POSITION_CHARS.choose(rng).expect("chars");
        let at = rng.random_range(0..=chars.len());
        match rng.random_range(0..3) {
            0 if at < chars.len() => chars[at] = c,
            1 if at < chars.len() => {
                chars.remove(at);
            }
            _ => chars.insert(at, c),
        }
    }
    chars.into_iter().collect()
}

/// The position judge with mangled start positions of every variant and random bodies: a
/// well-formed request is always answered `200` with a verdict that agrees with itself (a
/// valid position's canonical text is valid again, unchanged), anything else is a clean 4xx.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_positions_are_judged_cleanly() {
    use jiang_protocol::PositionCheck;
    let (seed, cases, mut rng) = seeded();
    let s = TestServer::start().await;
    let starts = [
        (
            "xiangqi",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        ),
        (
            "jieqi",
            "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1",
        ),
        (
            "shogi",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        ),
        ("minishogi", "rbsgk/4p/5/P4/KGSBR b - 1"),
    ];
    let mut valid = 0;
    for case in 0..cases {
        let (variant, start) = *starts.choose(&mut rng).expect("starts");
        let bytes = if rng.random_range(0..5) == 0 {
            body(&mut rng)
        } else {
            json!({"variant": variant, "fen": mangled_position(&mut rng, start)})
                .to_string()
                .into_bytes()
        };
        let label = format!(
            "JIANG_FUZZ_SEED={seed} case {case}: body {:?}",
            String::from_utf8_lossy(&bytes)
        );
        // A valid answer names its variant in the request, which was then JSON.
        let sent: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        let (status, answer) = s.post_raw("/api/positions/validate", None, bytes).await;
        if status != StatusCode::OK {
            assert_refusal(status, &answer, &label);
            continue;
        }
        let check: PositionCheck = serde_json::from_value(answer.clone())
            .unwrap_or_else(|e| panic!("{label}: {e}: {answer}"));
        assert_eq!(check.valid, check.problems.is_empty(), "{label}: {answer}");
        if let Some(fen) = check.fen {
            valid += 1;
            let (status, again) = s
                .post(
                    "/api/positions/validate",
                    None,
                    json!({"variant": sent["variant"], "fen": fen}),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{label}");
            assert_eq!(again["fen"], json!(fen), "{label}: canonical text changed");
        }
    }
    // The mangling leaves some positions valid, so both kinds of answer were seen.
    assert!(valid > 0, "no valid position among {cases} cases");
    s.stop().await;
}
