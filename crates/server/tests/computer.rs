//! Games against the computer: created with `"opponent": {"computer": <level>}`, started at
//! once, the computer answering in every variant through the engine pool, bad levels refused,
//! the other seat closed, draw offers declined, Jieqi searched from the computer's view only,
//! and a computer to move after a restart moving. Real server, real database, real
//! WebSockets.

#[macro_use]
mod common;

use std::time::Duration;

use common::{Backend, TestServer, connect, execute, fetch_one, next_message, typed};
use jiang_protocol::{
    ComputerSeat, Created, ErrorBody, GameStatus, GameView, MoveEvent, ServerMessage,
};
use jiang_rules::{AnyGame, Side, Variant};
use jiang_server::table;
use reqwest::StatusCode;
use serde_json::json;

/// (variant, first side, second side).
const VARIANTS: [(&str, &str, &str); 4] = [
    ("xiangqi", "red", "black"),
    ("jieqi", "red", "black"),
    ("shogi", "sente", "gote"),
    ("minishogi", "sente", "gote"),
];

/// Waits (through the game's WebSocket) for the `move` event that makes the game `ply` plies
/// long.
async fn move_event_at(socket: &mut common::Socket, ply: u64) -> MoveEvent {
    loop {
        let ServerMessage::Move(event) = next_message(socket, "move").await else {
            unreachable!("a move event");
        };
        if event.state.ply >= ply {
            assert_eq!(event.state.ply, ply, "no move skipped");
            return event;
        }
    }
}

on_both!(
    the_computer_answers_in_every_variant,
    |s: TestServer| async move {
        for (variant, first, second) in VARIANTS {
            let (status, v) = s
                .post(
                    "/api/games",
                    None,
                    json!({"variant": variant, "side": first, "opponent": {"computer": 1}}),
                )
                .await;
            assert_eq!(status, StatusCode::CREATED, "{variant}: {v}");
            let created: Created = typed(&v);
            assert_eq!(created.side, first);
            let view = s.game_view(&created.id, Some(&created.token)).await;
            assert_eq!(
                view.state.status,
                GameStatus::Playing,
                "{variant}: starts at once"
            );
            assert_eq!(
                view.state.computer,
                Some(ComputerSeat {
                    side: second.into(),
                    level: 1
                })
            );
            assert!(view.state.seats.values().all(|&taken| taken), "{variant}");
            let mut socket = connect(&s.ws_url(&created.id, Some(&created.token))).await;
            let mv = view.state.legal_moves[0].clone();
            s.play(&created.id, &created.token, &mv).await;
            let answer = move_event_at(&mut socket, 2).await;
            assert_eq!(answer.state.to_move.as_deref(), Some(first), "{variant}");
            assert!(
                !answer.state.legal_moves.is_empty(),
                "{variant}: my turn again"
            );
            // Spectators see the game and who the computer is.
            let watched = s.game_view(&created.id, None).await;
            assert_eq!(watched.moves.len(), 2, "{variant}");
            assert_eq!(watched.state.computer.map(|c| c.side), Some(second.into()));
        }
        s.stop().await;
    }
);

on_both!(
    the_computer_moves_first_from_the_first_side,
    |s: TestServer| async move {
        for (variant, first, second) in VARIANTS {
            let (id, side, token) = s
                .create(
                    json!({"variant": variant, "side": second, "opponent": {"computer": 2},
                           "clock": {"main": 60, "increment": 1}}),
                )
                .await;
            assert_eq!(side, second);
            let mut socket = connect(&s.ws_url(&id, Some(&token))).await;
            let view = s.game_view(&id, Some(&token)).await;
            let answer = if view.state.ply == 0 {
                move_event_at(&mut socket, 1).await.state
            } else {
                view.state
            };
            assert_eq!(answer.ply, 1, "{variant}");
            assert_eq!(answer.to_move.as_deref(), Some(second), "{variant}");
            assert_eq!(answer.computer.map(|c| c.side), Some(first.into()));
        }
        s.stop().await;
    }
);

on_both!(bad_levels_are_refused, |s: TestServer| async move {
    for (opponent, code) in [
        (json!({"computer": 0}), "invalid_level"),
        (json!({"computer": 9}), "invalid_level"),
        (json!({"computer": 1000}), "invalid_level"),
        (json!({"computer": -1}), "invalid_request"),
        (json!({"computer": "3"}), "invalid_request"),
        (json!({"computer": 2.5}), "invalid_request"),
        (json!({"human": 1}), "invalid_request"),
        (json!("computer"), "invalid_request"),
    ] {
        let (status, v) = s
            .post(
                "/api/games",
                None,
                json!({"variant": "xiangqi", "opponent": opponent}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{opponent}: {v}");
        let body: ErrorBody = typed(&v);
        assert_eq!(body.error.code.as_str(), code, "{opponent}: {v}");
    }
    s.stop().await;
});

on_both!(
    the_other_seat_is_closed_and_draws_are_declined,
    |s: TestServer| async move {
        let (id, _, token) = s
            .create(json!({"variant": "xiangqi", "side": "red", "opponent": {"computer": 1}}))
            .await;
        let (status, v) = s.action(&id, "join", None, json!({})).await;
        assert_eq!(status, StatusCode::CONFLICT, "{v}");
        let body: ErrorBody = typed(&v);
        assert_eq!(body.error.code.as_str(), "seat_taken");
        let (status, v) = s
            .action(&id, "draw", Some(&token), json!({"action": "offer"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let view: GameView = typed(&v);
        assert_eq!(view.state.draw_offer, None, "the computer declined");
        assert_eq!(view.state.status, GameStatus::Playing);
        s.stop().await;
    }
);

/// The number of moves stored for game `id`, read from the database directly.
async fn stored_moves(url: &str, id: &str) -> i64 {
    let sql = "SELECT COUNT(*) FROM moves WHERE game_id = $1";
    let (n,): (i64,) = fetch_one(url, sql, &[id]).await;
    n
}

on_both!(
    a_computer_to_move_after_a_restart_moves,
    |mut s: TestServer| async move {
        // The computer (red) moves first; once it has, the server stops and its move is taken
        // out of the store: after the restart the computer is to move with nobody asking.
        let (id, _, _token) = s
            .create(json!({"variant": "xiangqi", "side": "black", "opponent": {"computer": 1}}))
            .await;
        let url = s.config.database_url.clone();
        let mut waited = Duration::ZERO;
        while stored_moves(&url, &id).await < 1 {
            assert!(waited < Duration::from_secs(30), "the computer moved");
            tokio::time::sleep(Duration::from_millis(50)).await;
            waited += Duration::from_millis(50);
        }
        s.shut_down().await;
        execute(
            &url,
            "DELETE FROM moves WHERE ply >= $1 AND game_id = $2",
            &id,
            1,
        )
        .await;
        assert_eq!(stored_moves(&url, &id).await, 0);
        s.start_again().await;
        assert!(
            s.resumed() >= 1,
            "the game against the computer was resumed"
        );
        // No request touches the game: the resumed actor moves by itself.
        let mut waited = Duration::ZERO;
        while stored_moves(&url, &id).await < 1 {
            assert!(
                waited < Duration::from_secs(30),
                "the computer moved after the restart"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
            waited += Duration::from_millis(50);
        }
        let view = s.game_view(&id, None).await;
        assert_eq!(view.state.ply, 1);
        assert_eq!(view.state.to_move.as_deref(), Some("black"));
        s.stop().await;
    }
);

/// Swaps two letters of a Jieqi deal word at deal indices that no move touched and that hold
/// different pieces: the same public game with another hidden deal.
fn swap_unseen(word: &str, untouched: &[usize]) -> String {
    let mut letters: Vec<char> = word.chars().collect();
    let (i, j) = untouched
        .iter()
        .flat_map(|&i| untouched.iter().map(move |&j| (i, j)))
        .find(|&(i, j)| letters[i] != letters[j])
        .expect("two different unseen pieces");
    letters.swap(i, j);
    letters.into_iter().collect()
}

#[test]
fn the_jieqi_computer_gets_its_view_and_never_the_deal() {
    // Moves of covered pieces from deal indices 9 (h2/h7) and 12 (e3/e6) only.
    let moves = ["h2e2", "h7e7", "e3e4", "e6e5"];
    let untouched: Vec<usize> = (0..15).filter(|i| ![9, 12].contains(i)).collect();
    for _ in 0..4 {
        let setup = table::create(Variant::Jieqi, None, None).unwrap();
        let mut a = AnyGame::open(Variant::Jieqi, &setup, &[]).unwrap();
        let recorded: Vec<String> = moves.iter().map(|m| a.play(m).unwrap()).collect();
        let deal = setup.deal.clone().unwrap();
        let (red, black) = deal.split_once('/').unwrap();
        let other = table::Setup {
            deal: Some(format!(
                "{}/{}",
                swap_unseen(red, &untouched),
                swap_unseen(black, &untouched)
            )),
            ..setup.clone()
        };
        assert_ne!(other.deal, setup.deal);
        // The same public game (same reveals), another deal.
        let b = AnyGame::open(Variant::Jieqi, &other, &recorded).unwrap();
        assert_eq!(a.moves(), b.moves());
        for seat in Side::BOTH {
            let (from_a, from_b) = (
                jiang_engine::Input::for_seat(&a, seat).unwrap(),
                jiang_engine::Input::for_seat(&b, seat).unwrap(),
            );
            assert_eq!(format!("{from_a:?}"), format!("{from_b:?}"), "{seat:?}");
        }
        // And so the engine plays the same move whatever the deal.
        let think = |t: &AnyGame| {
            let mut engine = jiang_engine::Engine::new();
            engine.set_seed(7);
            jiang_engine::engine::best_at_depth(
                &mut engine,
                &jiang_engine::Input::for_seat(t, Side::First).unwrap(),
                3,
            )
            .decision
        };
        assert_eq!(think(&a), think(&b));
    }
}

#[test]
fn the_computer_reads_the_public_game_in_the_open_variants() {
    for variant in [Variant::Xiangqi, Variant::Shogi, Variant::Minishogi] {
        let setup = table::create(variant, None, None).unwrap();
        let mut t = AnyGame::open(variant, &setup, &[]).unwrap();
        let first = t.legal_moves()[0].clone();
        t.play(&first).unwrap();
        let input = jiang_engine::Input::for_seat(&t, Side::Second).unwrap();
        assert_eq!(input.variant(), variant);
        let mut engine = jiang_engine::Engine::new();
        let thought = jiang_engine::engine::best_at_depth(&mut engine, &input, 2);
        let jiang_engine::Decision::Move(reply) = thought.decision else {
            panic!("{variant}: a move");
        };
        assert!(t.legal_moves().contains(&reply), "{variant}: {reply}");
    }
}

on_both!(
    takebacks_claims_and_seeks_against_the_computer,
    |s: TestServer| async move {
        // Never an open seek: the computer holds the other seat at once.
        let (status, v) = s
            .post(
                "/api/games",
                None,
                json!({"variant": "xiangqi", "opponent": {"computer": 1}, "open": true}),
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        let body: ErrorBody = typed(&v);
        assert_eq!(body.error.code.as_str(), "invalid_request");

        let (id, _, token) = s
            .create(json!({"variant": "xiangqi", "side": "red", "opponent": {"computer": 1}}))
            .await;
        let mut socket = connect(&s.ws_url(&id, Some(&token))).await;
        for ply in [2, 4] {
            let view = s.game_view(&id, Some(&token)).await;
            s.play(&id, &token, &view.state.legal_moves[0]).await;
            move_event_at(&mut socket, ply).await;
        }
        // The computer agrees at once: red's move and its reply are gone, red is to move.
        let (status, v) = s
            .action(&id, "takeback", Some(&token), json!({"action": "request"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let view = s.game_view(&id, Some(&token)).await;
        assert_eq!(view.moves.len(), 2, "two plies taken back");
        assert_eq!(view.state.to_move.as_deref(), Some("red"));
        assert_eq!(view.state.takeback, None, "no request left standing");
        // The computer has no socket, yet it is never away: nothing to claim.
        assert!(view.state.away.is_empty(), "{:?}", view.state.away);
        let (status, v) = s
            .action(&id, "claim", Some(&token), json!({"result": "win"}))
            .await;
        assert_eq!(status, StatusCode::CONFLICT, "{v}");
        let body: ErrorBody = typed(&v);
        assert_eq!(body.error.code.as_str(), "claim_too_early");
        assert_eq!(
            s.game_view(&id, None).await.state.status,
            GameStatus::Playing
        );
        s.stop().await;
    }
);

/// Polls `GET /api/lobby` until `done` holds for the listed games' ids and computer marks
/// (within 5 s).
async fn watch_until(
    s: &TestServer,
    what: &str,
    done: impl Fn(&[jiang_protocol::LiveGame]) -> bool,
) -> Vec<jiang_protocol::LiveGame> {
    for _ in 0..100 {
        let (_, v) = s.get("/api/lobby", None).await;
        let snapshot: jiang_protocol::LobbySnapshot = typed(&v);
        if done(&snapshot.games) {
            return snapshot.games;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the Watch list never showed {what}");
}

// Issue 22: the first-move countdown frees a person from a no-show; the computer is never
// one, and the person at the board may study it as long as they like. Only a person who left
// before their first move is a no-show (away for the claim grace: aborted). In "Watch", a
// game against the computer says so, and leaves the list when its person has left.
on_both!(
    no_first_move_abort_against_the_computer_while_the_person_is_there,
    |c: &mut jiang_server::Config| {
        c.first_move_timeout = Duration::from_millis(300);
        c.claim_grace_min = Duration::from_millis(500);
    },
    |s: TestServer| async move {
        // 5 s of main time: the claim grace is its floor, 0.5 s.
        let body = json!({"variant": "xiangqi", "side": "red", "clock": {"main": 5, "increment": 0},
                          "opponent": {"computer": 1}});
        let (status, v) = s.post("/api/games", None, body.clone()).await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let present: Created = typed(&v);
        let mut socket = connect(&s.ws_url(&present.id, Some(&present.token))).await;
        next_message(&mut socket, "state").await;
        // Listed in Watch, marked as a game against the computer at its level.
        watch_until(&s, "the computer game", |games| {
            games
                .iter()
                .any(|g| g.id == present.id && g.computer == Some(1))
        })
        .await;
        // Well past the 0.3 s countdown (and the grace) the person still has all the time.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let view = s.game_view(&present.id, Some(&present.token)).await;
        assert_eq!(view.state.status, GameStatus::Playing);
        assert_eq!(view.state.first_move_ms, None, "no countdown shown");
        s.play(&present.id, &present.token, "h2e2").await;
        move_event_at(&mut socket, 2).await;

        // A person who leaves the page: the game leaves Watch.
        drop(socket);
        watch_until(&s, "the abandoned game gone", |games| {
            games.iter().all(|g| g.id != present.id)
        })
        .await;

        // A person who never comes to the board is a no-show: aborted.
        let (_, v) = s.post("/api/games", None, body).await;
        let absent: Created = typed(&v);
        let started = std::time::Instant::now();
        loop {
            let view = s.game_view(&absent.id, Some(&absent.token)).await;
            if view.state.status == GameStatus::Aborted {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the no-show's game was never aborted"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
);

/// Issue 22: the computer's answer times, levels 1–8, at 5+3 and at 10 min + 30 s byo-yomi
/// (a measurement, not a check of the engine's strength): per level and clock, the median and
/// the longest time from a person's move to the computer's answer over a few moves of a real
/// game (the person plays at once). Every answer must come within the level's pace plus a
/// margin for scheduling. `JIANG_PACE_VARIANTS` (comma separated, default xiangqi,shogi) and
/// `JIANG_PACE_MOVES` (default 8) choose what is played.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a measurement of several minutes: cargo test -p jiang-server --test computer computer_pace -- --ignored --nocapture"]
async fn computer_pace() {
    let s = TestServer::start().await;
    let variants = std::env::var("JIANG_PACE_VARIANTS").unwrap_or_else(|_| "xiangqi,shogi".into());
    let moves: usize = std::env::var("JIANG_PACE_MOVES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(8);
    let clocks = [
        ("5+3", json!({"main": 300, "increment": 3})),
        (
            "10min+30s byo-yomi",
            json!({"main": 600, "byoyomi": 30, "periods": 1}),
        ),
    ];
    println!("| variant | clock | level | median s | max s | moves |");
    println!("|---|---|---|---|---|---|");
    for variant in variants.split(',') {
        let first = common::first_mover(variant);
        for (clock_name, clock) in &clocks {
            for level in 1..=8u32 {
                let (status, v) = s
                    .post(
                        "/api/games",
                        None,
                        json!({"variant": variant, "side": first, "clock": clock,
                               "opponent": {"computer": level}}),
                    )
                    .await;
                assert_eq!(status, StatusCode::CREATED, "{v}");
                let created: Created = typed(&v);
                let mut socket = connect(&s.ws_url(&created.id, Some(&created.token))).await;
                let mut view = s.game_view(&created.id, Some(&created.token)).await;
                let mut times = Vec::new();
                for i in 0..moves {
                    if view.state.status != GameStatus::Playing || view.state.legal_moves.is_empty()
                    {
                        break;
                    }
                    // The person plays one of their legal moves at once (varied by the ply).
                    let legal = &view.state.legal_moves;
                    let mv = legal[(i * 7 + 3) % legal.len()].clone();
                    let sent = std::time::Instant::now();
                    s.play(&created.id, &created.token, &mv).await;
                    let answer = move_event_at(&mut socket, (2 * i + 2) as u64).await;
                    times.push(sent.elapsed().as_secs_f64());
                    if answer.state.status != GameStatus::Playing {
                        break;
                    }
                    view = s.game_view(&created.id, Some(&created.token)).await;
                }
                times.sort_by(|a, b| a.total_cmp(b));
                let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
                let max = times.last().copied().unwrap_or(0.0);
                println!(
                    "| {variant} | {clock_name} | {level} | {median:.2} | {max:.2} | {} |",
                    times.len()
                );
                assert!(
                    max < 3.0 + 1.5,
                    "{variant} {clock_name} level {level}: {max:.2} s"
                );
                // Over already (a quick mate), or resigned now.
                if s.game_view(&created.id, None).await.state.status == GameStatus::Playing {
                    s.resign(&created.id, &created.token).await;
                }
            }
        }
    }
    s.stop().await;
}
