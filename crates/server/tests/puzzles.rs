//! Puzzles over HTTP (issue 26): the trainer's endpoints on puzzles loaded from a file, on
//! SQLite and PostgreSQL — the view never carries the solution, moves are judged one at a time
//! with the reply, hints and the solution on request; ratings: a key holder's first attempt
//! rates the player and the puzzle in the store (a hinted solve counts half, later attempts
//! nothing), a browser's own rating comes back moved and nothing is stored; the daily puzzle;
//! the refusals.

#[macro_use]
mod common;

use std::path::PathBuf;

use common::{Backend, TestServer, assert_refused, typed};
use jiang_protocol::{PuzzleHint, PuzzleMoveAnswer, PuzzleResult, PuzzleSolution, PuzzleView};
use jiang_puzzles::{ProofKind, Puzzle, Theme, write_puzzles};
use jiang_rules::Variant;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// Two chariots: b0b9 mates at once.
const CHARIOTS: &str = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1";

fn puzzle(variant: Variant, position: &str, solution: &[&str], kind: ProofKind) -> Puzzle {
    Puzzle {
        themes: vec![Theme::Mate],
        ..Puzzle::hand_made(variant, position, solution, kind)
    }
}

/// The test set: a xiangqi mate in one, a three-ply xiangqi line, a shogi drop mate and a
/// Jieqi line whose reply reveals a covered piece.
fn set() -> Vec<Puzzle> {
    vec![
        puzzle(Variant::Xiangqi, CHARIOTS, &["b0b9"], ProofKind::Mate),
        puzzle(
            Variant::Xiangqi,
            CHARIOTS,
            &["b0b1", "e9f9", "a8a9"],
            ProofKind::Advantage,
        ),
        puzzle(
            Variant::Shogi,
            "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
            &["G*5b"],
            ProofKind::Mate,
        ),
        puzzle(
            Variant::Jieqi,
            "4k4/R8/9/x8/9/9/9/9/9/1R1K5 w - - 0 1",
            &["b0b1", "a6a5r", "b1b9"],
            ProofKind::Mate,
        ),
    ]
}

/// The set written to a file that outlives the test's server.
fn set_file(name: &str) -> PathBuf {
    let path =
        std::env::temp_dir().join(format!("jiang-puzzles-{name}-{}.jsonl", std::process::id()));
    let mut bytes = Vec::new();
    write_puzzles(&mut bytes, &set()).unwrap();
    std::fs::write(&path, bytes).unwrap();
    path
}

fn with_set(name: &'static str) -> impl FnOnce(&mut jiang_server::Config) {
    move |config| config.puzzles.files = vec![set_file(name)]
}

fn id_of(variant: Variant, first: &str) -> String {
    set()
        .into_iter()
        .find(|p| p.variant == variant && p.solution[0] == first)
        .unwrap()
        .id
}

async fn new_player(s: &TestServer) -> String {
    let (status, v) = s
        .as_player(Method::POST, "/api/players", None, Some(json!({})))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    v["key"].as_str().unwrap().to_owned()
}

async fn play(s: &TestServer, key: Option<&str>, id: &str, body: Value) -> (StatusCode, Value) {
    s.as_player(
        Method::POST,
        &format!("/api/puzzles/{id}/move"),
        key,
        Some(body),
    )
    .await
}

/// `play`'s answer, which must be a verdict.
async fn answer(s: &TestServer, key: Option<&str>, id: &str, body: Value) -> PuzzleMoveAnswer {
    let (status, v) = play(s, key, id, body).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    typed(&v)
}

async fn view(s: &TestServer, key: Option<&str>, id: &str) -> PuzzleView {
    let (status, v) = s
        .as_player(Method::GET, &format!("/api/puzzles/{id}"), key, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    typed(&v)
}

on_both!(
    a_puzzle_is_played_move_by_move,
    with_set("moves"),
    |s: TestServer| async move {
        let (status, v) = s.get("/api/puzzles/next?variant=xiangqi", None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let first: PuzzleView = typed(&v);
        assert_eq!(first.variant, "xiangqi");
        assert_eq!(first.to_move, "red");
        assert!(
            !v.to_string().contains("b0b9") && !v.to_string().contains("e9f9"),
            "{v}"
        );

        let id = id_of(Variant::Xiangqi, "b0b1");
        let seen = view(&s, None, &id).await;
        assert_eq!((seen.moves, seen.rating, seen.plays), (2, 1500, 0));
        let wrong: PuzzleMoveAnswer = answer(&s, None, &id, json!({"move": "a8a7"})).await;
        assert_eq!(wrong.result, PuzzleResult::Wrong);
        assert_eq!((wrong.played, wrong.reply, wrong.rated), (None, None, None));
        let right: PuzzleMoveAnswer = answer(&s, None, &id, json!({"move": "b0b1"})).await;
        assert_eq!(right.result, PuzzleResult::Right);
        assert_eq!(right.reply.as_deref(), Some("e9f9"));
        let (status, v) = play(
            &s,
            None,
            &id,
            json!({"move": "a8a9", "line": ["b0b1", "e9f9"]}),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let solved: PuzzleMoveAnswer = typed(&v);
        assert_eq!(solved.result, PuzzleResult::Solved);
        assert_eq!(solved.played.as_deref(), Some("a8a9"));

        // A hint names the piece; the solution is the whole line.
        let (status, v) = s
            .post(
                &format!("/api/puzzles/{id}/hint"),
                None,
                json!({"line": ["b0b1", "e9f9"]}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(typed::<PuzzleHint>(&v).from, "a8");
        let (status, v) = s
            .post(&format!("/api/puzzles/{id}/solution"), None, json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let solution: PuzzleSolution = typed(&v);
        assert_eq!(solution.solution, ["b0b1", "e9f9", "a8a9"]);
        assert_eq!(solution.rated, None);

        // Shogi: a drop; the hint names the piece in hand.
        let shogi = id_of(Variant::Shogi, "G*5b");
        let (_, v) = s
            .post(&format!("/api/puzzles/{shogi}/hint"), None, json!({}))
            .await;
        assert_eq!(typed::<PuzzleHint>(&v).from, "G*");
        let done: PuzzleMoveAnswer = answer(&s, None, &shogi, json!({"move": "G*5b"})).await;
        assert_eq!(done.result, PuzzleResult::Solved);
    }
);

on_both!(
    a_jieqi_reveal_comes_with_the_reply,
    with_set("jieqi"),
    |s: TestServer| async move {
        let id = id_of(Variant::Jieqi, "b0b1");
        let seen = view(&s, None, &id).await;
        assert!(seen.position.contains('x'), "{}", seen.position);
        let (_, v) = s.get(&format!("/api/puzzles/{id}"), None).await;
        assert!(
            !v.to_string().contains("a6a5r"),
            "no identity before its reveal: {v}"
        );
        let right: PuzzleMoveAnswer = answer(&s, None, &id, json!({"move": "b0b1"})).await;
        assert_eq!(right.reply.as_deref(), Some("a6a5r"));
        let solved: PuzzleMoveAnswer = answer(
            &s,
            None,
            &id,
            json!({"move": "b1b9", "line": ["b0b1", "a6a5r"]}),
        )
        .await;
        assert_eq!(solved.result, PuzzleResult::Solved);
    }
);

on_both!(
    a_browser_keeps_its_own_rating,
    with_set("browser"),
    |s: TestServer| async move {
        let id = id_of(Variant::Xiangqi, "b0b9");
        let mine = json!({"rating": 1500.0, "deviation": 350.0, "volatility": 0.06});
        let won: PuzzleMoveAnswer =
            answer(&s, None, &id, json!({"move": "b0b9", "rating": mine})).await;
        let rated = won.rated.expect("a browser's rating comes back");
        assert!(
            rated.change > 0.0 && rated.rating.deviation < 350.0,
            "{rated:?}"
        );
        let hinted: PuzzleMoveAnswer = answer(
            &s,
            None,
            &id,
            json!({"move": "b0b9", "rating": mine, "hinted": true}),
        )
        .await;
        let half = hinted.rated.unwrap().change;
        assert!(
            half < rated.change,
            "a hinted solve counts half: {half} vs {}",
            rated.change
        );
        let lost: PuzzleMoveAnswer =
            answer(&s, None, &id, json!({"move": "d0d1", "rating": mine})).await;
        assert!(lost.rated.unwrap().change < 0.0);
        // Nothing of it was stored: the puzzle's rating and plays are as they were.
        let after = view(&s, None, &id).await;
        assert_eq!((after.rating, after.plays), (1500, 0));
        // Giving up is a loss unless the attempt already ended.
        let (_, v) = s
            .post(
                &format!("/api/puzzles/{id}/solution"),
                None,
                json!({"rating": mine}),
            )
            .await;
        assert!(typed::<PuzzleSolution>(&v).rated.unwrap().change < 0.0);
        let (_, v) = s
            .post(
                &format!("/api/puzzles/{id}/solution"),
                None,
                json!({"rating": mine, "ended": true}),
            )
            .await;
        assert_eq!(typed::<PuzzleSolution>(&v).rated, None);
        assert_refused(
        play(&s, None, &id, json!({"move": "b0b9", "rating": {"rating": 1e9, "deviation": 50.0, "volatility": 0.06}})).await,
        StatusCode::BAD_REQUEST,
        "invalid_request",
    );
    }
);

on_both!(
    a_players_first_attempt_is_rated_once,
    with_set("player"),
    |s: TestServer| async move {
        let key = new_player(&s).await;
        let id = id_of(Variant::Xiangqi, "b0b9");
        let won: PuzzleMoveAnswer = answer(&s, Some(&key), &id, json!({"move": "b0b9"})).await;
        let rated = won.rated.expect("the first attempt is rated");
        assert!(rated.change > 0.0, "{rated:?}");
        let seen = view(&s, Some(&key), &id).await;
        assert!(seen.attempted);
        assert_eq!(seen.plays, 1);
        assert!(
            seen.rating < 1500,
            "the solved puzzle loses rating: {}",
            seen.rating
        );
        let you = seen.you.expect("the player's puzzle rating");
        assert_eq!(you, rated.rating);
        // Again: not rated.
        let again: PuzzleMoveAnswer = answer(&s, Some(&key), &id, json!({"move": "d0d1"})).await;
        assert_eq!((again.result, again.rated), (PuzzleResult::Wrong, None));
        assert_eq!(view(&s, Some(&key), &id).await.plays, 1);
        // The next puzzle is one not tried yet; once every one was tried, a tried one comes back.
        for _ in 0..5 {
            let (_, v) = s
                .as_player(
                    Method::GET,
                    "/api/puzzles/next?variant=xiangqi",
                    Some(&key),
                    None,
                )
                .await;
            assert_ne!(typed::<PuzzleView>(&v).id, id);
        }
        let other = id_of(Variant::Xiangqi, "b0b1");
        let (_, v) = s
            .as_player(
                Method::POST,
                &format!("/api/puzzles/{other}/solution"),
                Some(&key),
                Some(json!({})),
            )
            .await;
        let gave_up = typed::<PuzzleSolution>(&v)
            .rated
            .expect("giving up is rated");
        assert!(gave_up.change < 0.0, "giving up is a loss");
        let (status, v) = s
            .as_player(
                Method::GET,
                "/api/puzzles/next?variant=xiangqi",
                Some(&key),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");

        // A hinted solve counts half: less than a clean solve by a player rated the same.
        let (clean, hinted) = (new_player(&s).await, new_player(&s).await);
        let shogi = id_of(Variant::Shogi, "G*5b");
        let (status, v) = s
            .as_player(
                Method::POST,
                &format!("/api/puzzles/{shogi}/hint"),
                Some(&hinted),
                Some(json!({})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let half: PuzzleMoveAnswer =
            answer(&s, Some(&hinted), &shogi, json!({"move": "G*5b"})).await;
        let full: PuzzleMoveAnswer =
            answer(&s, Some(&clean), &shogi, json!({"move": "G*5b"})).await;
        let (half, full) = (half.rated.unwrap().change, full.rated.unwrap().change);
        assert!(half.abs() < full / 2.0, "hinted {half}, clean {full}");

        // The player page shows the puzzle rating.
        let (_, page) = s
            .as_player(Method::GET, "/api/players/me", Some(&key), None)
            .await;
        let page: jiang_protocol::PlayerView = typed(&page);
        let shown = &page.puzzles["xiangqi"];
        assert_eq!(
            (shown.rating, shown.games),
            (gave_up.rating.rating.round() as i64, 2)
        );

        // The ratings are the store's: a restart keeps them.
        let s = s.restart().await;
        let seen = view(&s, Some(&key), &id).await;
        assert!(seen.attempted && seen.plays == 1 && seen.you.is_some());
    }
);

on_both!(
    the_daily_puzzle_is_the_same_all_day,
    with_set("daily"),
    |s: TestServer| async move {
        let (status, v) = s.get("/api/puzzles/daily/xiangqi", None).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let daily: PuzzleView = typed(&v);
        for _ in 0..3 {
            let (_, v) = s.get("/api/puzzles/daily/xiangqi", None).await;
            assert_eq!(typed::<PuzzleView>(&v).id, daily.id);
        }
        let s = s.restart().await;
        let (_, v) = s.get("/api/puzzles/daily/xiangqi", None).await;
        assert_eq!(typed::<PuzzleView>(&v).id, daily.id);
        assert_refused(
            s.get("/api/puzzles/daily/minishogi", None).await,
            StatusCode::NOT_FOUND,
            "puzzle_not_found",
        );
        assert_refused(
            s.get("/api/puzzles/daily/chess", None).await,
            StatusCode::BAD_REQUEST,
            "unknown_variant",
        );
    }
);

on_both!(
    bad_requests_are_refused_and_change_nothing,
    with_set("refusals"),
    |s: TestServer| async move {
        let id = id_of(Variant::Xiangqi, "b0b1");
        assert_refused(
            play(&s, None, "x-0000000000", json!({"move": "b0b1"})).await,
            StatusCode::NOT_FOUND,
            "puzzle_not_found",
        );
        let illegal = assert_refused(
            play(&s, None, &id, json!({"move": "b0c5"})).await,
            StatusCode::BAD_REQUEST,
            "illegal_move",
        );
        assert!(
            illegal["error"]["message"]
                .as_str()
                .unwrap()
                .contains("b0c5"),
            "{illegal}"
        );
        assert_refused(
            play(
                &s,
                None,
                &id,
                json!({"move": "a8a9", "line": ["b0b2", "e9f9"]}),
            )
            .await,
            StatusCode::BAD_REQUEST,
            "bad_moves",
        );
        assert_refused(
            play(&s, None, &id, json!({"move": "e9e8", "line": ["b0b1"]})).await,
            StatusCode::CONFLICT,
            "not_your_turn",
        );
        assert_refused(
            play(&s, None, &id, json!({"mv": "b0b1"})).await,
            StatusCode::BAD_REQUEST,
            "unknown_field",
        );
        assert_refused(
            play(&s, Some("not-a-key"), &id, json!({"move": "b0b1"})).await,
            StatusCode::UNAUTHORIZED,
            "wrong_player_key",
        );
        for (query, code) in [
            ("", "invalid_request"),
            ("variant=xiangqi&theme=brilliancy", "invalid_request"),
            ("variant=xiangqi&rating=abc", "invalid_request"),
            ("variant=xiangqi&colour=red", "invalid_request"),
            ("variant=chess", "unknown_variant"),
        ] {
            assert_refused(
                s.get(&format!("/api/puzzles/next?{query}"), None).await,
                StatusCode::BAD_REQUEST,
                code,
            );
        }
        assert_refused(
            s.get("/api/puzzles/next?variant=minishogi", None).await,
            StatusCode::NOT_FOUND,
            "puzzle_not_found",
        );
        assert_refused(
            s.get("/api/puzzles/next?variant=xiangqi&theme=fork", None)
                .await,
            StatusCode::NOT_FOUND,
            "puzzle_not_found",
        );
        let (status, v) = s
            .get("/api/puzzles/next?variant=xiangqi&theme=mate", None)
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(view(&s, None, &id).await.plays, 0);
    }
);

#[tokio::test]
async fn a_bad_puzzle_file_stops_the_start_and_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.jsonl");
    let mut bad = puzzle(Variant::Xiangqi, CHARIOTS, &["b0b9"], ProofKind::Mate);
    bad.solution = vec!["b0c5".into()];
    let mut bytes = Vec::new();
    write_puzzles(&mut bytes, &[bad.clone()]).unwrap();
    std::fs::write(&path, bytes).unwrap();
    let config = jiang_server::Config {
        listen: "127.0.0.1:0".into(),
        database_url: format!("sqlite://{}/jiang.db", dir.path().display()),
        puzzles: jiang_server::PuzzleSettings {
            shipped: false,
            files: vec![path.clone()],
            import_every: None,
        },
        ..jiang_server::Config::default()
    };
    let error = jiang_server::start(config.clone())
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(
        error.contains("bad.jsonl") && error.contains(&bad.id) && error.contains("b0c5"),
        "{error}"
    );
    std::fs::write(&path, "{\"id\": 1}\n").unwrap();
    let error = jiang_server::start(config)
        .await
        .err()
        .expect("refused")
        .to_string();
    assert!(
        error.contains("bad.jsonl") && error.contains("line 1"),
        "{error}"
    );
}

#[tokio::test]
async fn the_shipped_sets_load() {
    let s = TestServer::with(Backend::Sqlite, "shipped", |c| c.puzzles.shipped = true).await;
    let shipped = jiang_puzzles::shipped::all().unwrap();
    for puzzle in shipped.iter().take(20) {
        assert_eq!(view(&s, None, &puzzle.id).await.id, puzzle.id);
    }
}

on_both!(
    finished_games_become_puzzles,
    |config: &mut jiang_server::Config| {
        config.puzzles.import_every = Some(std::time::Duration::from_millis(300));
    },
    |s: TestServer| async move {
        // A self-play game with puzzles in it, played over the API by two browsers.
        let (game, expected) = (1..)
            .map(|seed| jiang_puzzles::self_play(Variant::Minishogi, seed).unwrap())
            .filter(|g| g.moves.len() <= 150)
            .map(|g| {
                let found = jiang_puzzles::find(&g);
                (g, found)
            })
            .find(|(_, found)| !found.is_empty())
            .unwrap();
        let moves: Vec<&str> = game.moves.iter().map(String::as_str).collect();
        let (id, first, _) = s.untimed_game("minishogi", &moves).await;
        if s.view(&id, None).await["status"] != "ended" {
            s.resign(&id, &first).await;
        }
        // The importer finds them (and keeps them only once however often it runs).
        for puzzle in &expected {
            let mut found = false;
            for _ in 0..300 {
                let (status, _) = s.get(&format!("/api/puzzles/{}", puzzle.id), None).await;
                if status == StatusCode::OK {
                    found = true;
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            assert!(
                found,
                "puzzle {} of the finished game was imported",
                puzzle.id
            );
            let seen = view(&s, None, &puzzle.id).await;
            assert_eq!(seen.position, puzzle.position);
        }
    }
);
