//! Correspondence games (`{"days": N}` per move): the clock spec is validated; the actor leaves
//! memory between moves and a move is accepted after it did; the deadline is a date that a
//! restart does not move; the deadline sweep ends a game whose time ran out while nobody was
//! connected (and while the server was down); correspondence games are rated apart from the
//! live ones. Real server, real database (SQLite, and PostgreSQL when
//! `JIANG_TEST_DATABASE_URL` is set).

#[macro_use]
mod common;

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::{Backend, TestServer, assert_refused, execute, fetch_one};

use jiang_protocol::PlayerView;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

const DAY_MS: i64 = 24 * 3600 * 1000;

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// A correspondence game of xiangqi (`days` per move), red on the creator's seat, `moves`
/// played in turn: (id, red token, black token).
async fn correspondence_game(
    s: &TestServer,
    days: u32,
    moves: &[&str],
) -> (String, String, String) {
    s.game_played(
        json!({"variant": "xiangqi", "clock": {"days": days}}),
        "red",
        moves,
    )
    .await
}

/// The deadline the view shows for `side` (ms since the Unix epoch).
fn deadline_of(view: &Value, side: &str) -> Option<i64> {
    view["clock"][side]["deadline"].as_i64()
}

/// The stored `deadline_at` of game `id`, read directly.
async fn stored_deadline(url: &str, id: &str) -> Option<i64> {
    let (at,): (Option<i64>,) =
        fetch_one(url, "SELECT deadline_at FROM games WHERE id = $1", &[id]).await;
    at
}

/// The stored status of game `id`, read directly.
async fn stored_status(url: &str, id: &str) -> String {
    let (status,): (String,) =
        fetch_one(url, "SELECT status FROM games WHERE id = $1", &[id]).await;
    status
}

/// Waits (at most 10 s) until `check` holds.
async fn eventually(what: &str, mut check: impl AsyncFnMut() -> bool) {
    let until = Instant::now() + Duration::from_secs(10);
    while !check().await {
        assert!(Instant::now() < until, "timed out waiting: {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until the server holds no game actor in memory.
async fn until_no_actor(s: &TestServer) {
    eventually("every actor retired", async || s.live_games() == 0).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_days_clock_is_validated() {
    let s = TestServer::start().await;
    for (clock, field) in [
        (json!({"days": 4}), "clock.days"),
        (json!({"days": 0}), "clock.days"),
        (json!({"days": 30}), "clock.days"),
        (json!({"days": 3, "main": 600}), "clock.main"),
        (json!({"days": 3, "increment": 5}), "clock.increment"),
        (json!({"days": 3, "byoyomi": 30}), "clock.byoyomi"),
        (json!({"days": 3, "periods": 1}), "clock.periods"),
        (json!({"days": 3, "move_limit": 60}), "clock.move_limit"),
    ] {
        let answer = s
            .post(
                "/api/games",
                None,
                json!({"variant": "xiangqi", "clock": clock}),
            )
            .await;
        let body = assert_refused(answer, StatusCode::BAD_REQUEST, "invalid_request");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(message.contains(field), "{clock}: {message}");
    }
    // Every offered length is taken, shown as `Nd`, and runs N days for the first move.
    for days in [1, 2, 3, 5, 7, 10, 14] {
        let (id, _, _) = s
            .create(json!({"variant": "shogi", "clock": {"days": days}}))
            .await;
        let view = s.view(&id, None).await;
        assert_eq!(view["clock_settings"]["days"], days, "{view}");
        assert_eq!(view["time_control"], format!("{days}d"));
    }
    // Quick pairing is for live clocks.
    let answer = s
        .post(
            "/api/lobby/pair",
            None,
            json!({"variant": "xiangqi", "clock": {"days": 3}}),
        )
        .await;
    let body = assert_refused(answer, StatusCode::BAD_REQUEST, "invalid_request");
    assert!(body["error"]["message"].as_str().unwrap().contains("days"));
    s.stop().await;
}

on_both!(
    the_actor_leaves_memory_and_a_later_move_is_accepted,
    |c| c.idle_timeout = Duration::from_millis(200),
    |s: TestServer| async move {
        let url = s.config.database_url.clone();
        // Before both first moves: the first move has the N days too (no 30 s abort).
        let (id, red, black) = correspondence_game(&s, 3, &[]).await;
        let view = s.view(&id, None).await;
        let first = deadline_of(&view, "red").expect("red's first-move deadline");
        assert!((first - (now_ms() + 3 * DAY_MS)).abs() < 60_000, "{view}");
        assert_eq!(view["clock"]["black"]["deadline"], Value::Null);
        let stored = stored_deadline(&url, &id).await.unwrap();
        assert!((stored - first).abs() <= 5, "{stored} vs {first}");
        s.play(&id, &red, "h2e2").await;
        s.play(&id, &black, "h7e7").await;
        let view = s.play(&id, &red, "h0g2").await;
        // Black's clock runs: 3 days to move, as a date.
        assert_eq!(view["clock"]["running"], "black");
        let deadline = deadline_of(&view, "black").expect("black's deadline");
        assert!(
            (deadline - (now_ms() + 3 * DAY_MS)).abs() < 60_000,
            "{view}"
        );
        assert_eq!(view["clock"]["red"]["deadline"], Value::Null);
        let stored = stored_deadline(&url, &id).await.unwrap();
        assert!((stored - deadline).abs() <= 5, "{stored} vs {deadline}");
        // Nobody watches: the actor leaves memory although its clock runs.
        until_no_actor(&s).await;
        // Black comes back (days later, for all the game knows) and moves.
        let view = s.play(&id, &black, "h9g7").await;
        assert_eq!(view["status"], "playing");
        assert_eq!(view["clock"]["running"], "red");
        let red_deadline = deadline_of(&view, "red").expect("red's deadline");
        assert!(red_deadline >= deadline, "the countdown starts again");
        until_no_actor(&s).await;
        let stored = stored_deadline(&url, &id).await.unwrap();
        assert!(
            (stored - red_deadline).abs() <= 5,
            "{stored} vs {red_deadline}"
        );
        s.stop().await;
    }
);

on_both!(
    a_correspondence_game_survives_a_restart,
    |s: TestServer| async move {
        let (id, red, black) = correspondence_game(&s, 1, &["h2e2", "h7e7", "h0g2"]).await;
        let deadline = deadline_of(&s.view(&id, None).await, "black").unwrap();
        let s = s.restart_after(Duration::from_millis(1500)).await;
        // Not loaded at start: nothing to run until its deadline.
        assert_eq!(s.resumed(), 0);
        assert_eq!(s.live_games(), 0);
        let view = s.view(&id, Some(&black)).await;
        assert_eq!(view["status"], "playing");
        // A date: the downtime did not move it (clocks of live games would be refunded).
        let after = deadline_of(&view, "black").unwrap();
        assert!((after - deadline).abs() <= 5, "{deadline} → {after}");
        let view = s.play(&id, &black, "h9g7").await;
        assert_eq!(view["moves"], json!(["h2e2", "h7e7", "h0g2", "h9g7"]));
        s.play(&id, &red, "i0h0").await;
        s.stop().await;
    }
);

on_both!(
    a_timeout_while_nobody_is_connected_ends_the_game,
    |c| {
        c.idle_timeout = Duration::from_millis(200);
        c.deadline_sweep_max = Duration::from_millis(200);
    },
    |s: TestServer| async move {
        let url = s.config.database_url.clone();
        let (id, red, _black) = correspondence_game(&s, 2, &["h2e2", "h7e7", "h0g2"]).await;
        until_no_actor(&s).await;
        // Black's two days are up (written as the passing of time would leave the row).
        execute(
            &url,
            "UPDATE games SET deadline_at = $1 WHERE id = $2",
            &id,
            now_ms() - 1000,
        )
        .await;
        // The sweep finds it without anyone asking, and the actor settles it durably.
        eventually("the sweep ended the game", async || {
            stored_status(&url, &id).await == "ended"
        })
        .await;
        assert_eq!(stored_deadline(&url, &id).await, None);
        let view = s.view(&id, Some(&red)).await;
        assert_eq!(
            view["result"],
            json!({"winner": "red", "reason": "timeout", "result": "1-0"}),
            "{view}"
        );
        assert_eq!(view["clock"]["running"], Value::Null);
        let (code, body) = s
            .action(&id, "move", Some(&red), json!({"move": "i0h0"}))
            .await;
        assert_eq!(code, StatusCode::CONFLICT, "{body}");
        s.stop().await;
    }
);

on_both!(
    a_deadline_passed_while_the_server_was_down_ends_the_game_at_start,
    |c| c.deadline_sweep_max = Duration::from_millis(200),
    |mut s: TestServer| async move {
        let url = s.config.database_url.clone();
        // Red to move after four moves; and a game whose black never made a first move.
        let (played, ..) = correspondence_game(&s, 7, &["h2e2", "h7e7", "h0g2", "h9g7"]).await;
        let (opening, ..) = correspondence_game(&s, 7, &["h2e2"]).await;
        let (fresh, ..) = correspondence_game(&s, 7, &["h2e2", "h7e7"]).await;
        s.shut_down().await;
        for id in [&played, &opening] {
            execute(
                &url,
                "UPDATE games SET deadline_at = $1 WHERE id = $2",
                id,
                now_ms() - DAY_MS,
            )
            .await;
        }
        s.start_again().await;
        assert_eq!(s.resumed(), 0);
        eventually("both games ended", async || {
            stored_status(&url, &played).await == "ended"
                && stored_status(&url, &opening).await == "aborted"
        })
        .await;
        let view = s.view(&played, None).await;
        assert_eq!(view["result"]["winner"], "black", "{view}");
        assert_eq!(view["result"]["reason"], "timeout");
        let view = s.view(&opening, None).await;
        assert_eq!(view["status"], "aborted", "{view}");
        // The game whose deadline is days away goes on.
        assert_eq!(stored_status(&url, &fresh).await, "playing");
        s.stop().await;
    }
);

on_both!(
    correspondence_games_are_rated_apart_from_live_ones,
    |s: TestServer| async move {
        let keys = [s.new_player("alice").await.1, s.new_player("bob").await.1];
        let body = json!({"variant": "xiangqi", "side": "red", "rated": true,
                          "clock": {"days": 3}});
        let (status, v) = s
            .as_player(Method::POST, "/api/games", Some(&keys[0]), Some(body))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let id = v["id"].as_str().unwrap().to_owned();
        let red = v["token"].as_str().unwrap().to_owned();
        let (status, v) = s
            .as_player(
                Method::POST,
                &format!("/api/games/{id}/join"),
                Some(&keys[1]),
                Some(json!({})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let black = v["token"].as_str().unwrap().to_owned();
        s.play(&id, &red, "h2e2").await;
        s.play(&id, &black, "h7e7").await;
        s.resign(&id, &black).await;
        // A rematch starts playing at once: its first move's deadline is stored from the start
        // (the sweep would abort it even if nobody ever opened it).
        for token in [&red, &black] {
            let (status, v) = s.action(&id, "rematch", Some(token), json!({})).await;
            assert_eq!(status, StatusCode::OK, "{v}");
        }
        let next = s.view(&id, None).await["rematch"]["id"]
            .as_str()
            .expect("the rematch")
            .to_owned();
        let url = s.config.database_url.clone();
        let at = stored_deadline(&url, &next).await.expect("a deadline");
        assert!((at - (now_ms() + 3 * DAY_MS)).abs() < 60_000, "{at}");
        for (name, games) in [("alice", 1), ("bob", 1)] {
            let (status, v) = s.get(&format!("/api/players/{name}"), None).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            let page: PlayerView = common::typed(&v);
            assert!(page.ratings.is_empty(), "no live rating moved: {v}");
            assert_eq!(page.correspondence["xiangqi"].games, games, "{v}");
        }
        let (_, board) = s
            .get("/api/leaderboard/xiangqi?speed=correspondence", None)
            .await;
        assert_eq!(board["speed"], "correspondence");
        s.stop().await;
    }
);

/// Player `who`'s games as their page lists them: (id, your turn), in order.
async fn turn_order(s: &TestServer, who: &str) -> (Vec<(String, bool)>, PlayerView) {
    let (_, page) = s.get(&format!("/api/players/{who}"), None).await;
    let page: PlayerView = common::typed(&page);
    let order = page
        .games
        .iter()
        .map(|g| (g.id.clone(), g.your_turn))
        .collect();
    (order, page)
}

/// A casual correspondence game between two players, `red` (creator) and `black`: (id, red's
/// token, black's token).
async fn players_game(s: &TestServer, red: &str, black: &str) -> (String, String, String) {
    let body = json!({"variant": "xiangqi", "side": "red", "clock": {"days": 5}});
    let (status, v) = s
        .as_player(Method::POST, "/api/games", Some(red), Some(body))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_owned();
    let red_token = v["token"].as_str().unwrap().to_owned();
    let path = format!("/api/games/{id}/join");
    let (status, v) = s
        .as_player(Method::POST, &path, Some(black), Some(json!({})))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    (id, red_token, v["token"].as_str().unwrap().to_owned())
}

on_both!(
    games_where_it_is_your_turn_come_first,
    |s: TestServer| async move {
        let alice = s.new_player("alice").await.1;
        let bob = s.new_player("bob").await.1;
        // Older: Alice (red) to move. Newer: Bob to move.
        let (mine, _, _) = players_game(&s, &alice, &bob).await;
        tokio::time::sleep(Duration::from_millis(5)).await;
        let (theirs, red, _) = players_game(&s, &alice, &bob).await;
        s.play(&theirs, &red, "h2e2").await;
        let (order, page) = turn_order(&s, "alice").await;
        assert_eq!(order, [(mine.clone(), true), (theirs.clone(), false)]);
        assert!(page.games[0].deadline.unwrap() > now_ms() + 4 * DAY_MS);
        let (order, _) = turn_order(&s, "bob").await;
        assert_eq!(order, [(theirs.clone(), true), (mine.clone(), false)]);
        // A browser's "My games" learns the side to move and the deadline.
        let (status, v) = s
            .post("/api/summaries", None, json!({"ids": [mine, theirs]}))
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let games = v["games"].as_array().unwrap();
        let find = |id: &str| games.iter().find(|g| g["id"] == id).unwrap().clone();
        assert_eq!(find(&mine)["to_move"], "red");
        assert_eq!(find(&theirs)["to_move"], "black");
        assert!(find(&theirs)["deadline"].as_i64().unwrap() > now_ms());
        s.stop().await;
    }
);

#[test]
fn an_actor_in_memory_flags_at_the_deadline_itself() {
    use jiang_rules::Side;
    use jiang_server::clock::{Clock, TimeControl};
    let day = Duration::from_secs(24 * 3600);
    let control = TimeControl::correspondence(2).unwrap();
    assert_eq!(control.display(), "2d");
    let start = Instant::now();
    let mut clock = Clock::new(control);
    clock.start(Side::First, start);
    // The actor's timer falls at the deadline: two days after the move started.
    assert_eq!(clock.flag_at(), Some(start + 2 * day));
    // A move after a day and a half: the opponent has two full days, nothing is banked.
    let moved = start + day + day / 2;
    clock.press(moved).unwrap();
    assert_eq!(clock.flag_at(), Some(moved + 2 * day));
    clock.press(moved + day).unwrap();
    assert_eq!(clock.flag_at(), Some(moved + 3 * day));
    assert_eq!(clock.flagged(moved + 3 * day), Some(Side::First));
    assert_eq!(
        clock.flagged(moved + 3 * day - Duration::from_millis(1)),
        None
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_label_the_days_per_move() {
    let s = TestServer::start().await;
    let (id, ..) = correspondence_game(&s, 3, &["h2e2", "h7e7"]).await;
    let (status, _, pgn) = s.record(&id, "format=pgn").await;
    assert_eq!(status, StatusCode::OK);
    // PGN's moves/seconds form: one move in 3 days; no byo-yomi tag.
    assert!(pgn.contains("[TimeControl \"1/259200\"]"), "{pgn}");
    assert!(!pgn.contains("Byoyomi"), "{pgn}");
    let (id, ..) = s
        .game_played(
            json!({"variant": "shogi", "clock": {"days": 3}}),
            "sente",
            &["7g7f", "3c3d"],
        )
        .await;
    let (status, _, kif) = s.record(&id, "format=kif").await;
    assert_eq!(status, StatusCode::OK);
    assert!(kif.contains("持ち時間：1手3日"), "{kif}");
    let (_, _, csa) = s.record(&id, "format=csa").await;
    assert!(csa.contains("'持ち時間:1手3日"), "{csa}");
    // The records read back (the importer keeps the label as the header says it).
    let (status, imported) = s.post("/api/import", None, json!({ "text": kif })).await;
    assert_eq!(status, StatusCode::OK, "{imported}");
    assert_eq!(imported["moves"], json!(["7g7f", "3c3d"]));
    s.stop().await;
}
