//! Restarts are fair and untimed games do not pile up: a restart charges the side to move its
//! think time up to the stop and refunds only the downtime (clocks, byo-yomi periods, the
//! first-move countdown); each node keeps a heartbeat row; untimed games are not loaded at
//! start, and those nobody moved in for the abandonment period end as `abandoned`.
//! Real server, real database (SQLite, and PostgreSQL when `JIANG_TEST_DATABASE_URL` is set).

#[macro_use]
mod common;

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::{Backend, TestServer, execute, fetch_one, first_mover};
use serde_json::{Value, json};

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// A game's `status` and `result` columns, read directly.
async fn stored_status(url: &str, id: &str) -> (String, Option<String>) {
    fetch_one(url, "SELECT status, result FROM games WHERE id = $1", &[id]).await
}

/// The `main` node's latest run: (alive_at, stopped_at), read directly.
async fn node_row(url: &str) -> (i64, Option<i64>) {
    let sql = "SELECT alive_at, stopped_at FROM node_runs WHERE node = 'main' \
               ORDER BY started_at DESC LIMIT 1";
    fetch_one(url, sql, &[]).await
}

/// How many runs of the `main` node are recorded.
async fn run_count(url: &str) -> i64 {
    let sql = "SELECT COUNT(*) FROM node_runs WHERE node = 'main'";
    let (n,): (i64,) = fetch_one(url, sql, &[]).await;
    n
}

/// A game of `variant` with 60 s each, the first side (red, sente) on the creator's seat, and
/// `opening` played: the first side's clock runs from the second move, whose sending time is
/// returned with the id and the first side's token.
async fn first_clock_running(
    s: &TestServer,
    variant: &str,
    opening: [&str; 2],
) -> (String, String, Instant) {
    let (id, first, second) = s
        .game(
            json!({"variant": variant, "clock": {"main": 60}}),
            first_mover(variant),
        )
        .await;
    s.play(&id, &first, opening[0]).await;
    let started = Instant::now();
    s.play(&id, &second, opening[1]).await;
    (id, first, started)
}

fn ms_of(view: &Value, side: &str) -> i64 {
    view["clock"][side]["ms"].as_i64().expect("clock ms")
}

on_both!(
    restart_resumes_games_without_charging_downtime,
    |s: TestServer| async move {
        let clock = json!({"main": 60, "increment": 1});
        let (id, red, black) = s.timed_game("xiangqi", clock, &["h2e2", "h7e7"]).await;
        let before = s.play(&id, &red, "h0g2").await;
        assert_eq!(before["clock"]["running"], "black");
        let black_ms = before["clock"]["black"]["ms"].as_u64().unwrap();
        let s = s.restart().await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        let after = s.view(&id, Some(&black)).await;
        assert_eq!(after["moves"], json!(["h2e2", "h7e7", "h0g2"]));
        assert_eq!(after["status"], "playing");
        assert_eq!(after["clock"]["running"], "black");
        let after_ms = after["clock"]["black"]["ms"].as_u64().unwrap();
        // Only the time since the restart (≈200 ms) is charged, not the downtime.
        assert!(
            after_ms <= black_ms && black_ms - after_ms < 2_000,
            "{black_ms} → {after_ms}"
        );
        assert_eq!(after["clock"]["red"], before["clock"]["red"]);
        // The seats' tokens still work and the game continues.
        let next = s.play(&id, &black, "h9g7").await;
        assert_eq!(next["ply"], 4);
        s.stop().await;
    }
);

on_both!(
    graceful_restart_charges_think_time_not_downtime,
    |s: TestServer| async move {
        let (id, red, started) = first_clock_running(&s, "xiangqi", ["h2e2", "h7e7"]).await;
        tokio::time::sleep(Duration::from_millis(1500)).await; // Red thinks.
        let downtime = Duration::from_secs(3);
        let s = s.restart_after(downtime).await;
        let view = s.view(&id, Some(&red)).await;
        let wall = started.elapsed().as_millis() as i64;
        let charged = 60_000 - ms_of(&view, "red");
        assert_eq!(view["clock"]["running"], "red");
        assert_eq!(ms_of(&view, "black"), 60_000);
        // The 1.5 s of thinking before the stop is charged (it used to be refunded) ...
        assert!(charged >= 1_500, "charged {charged} ms");
        // ... and the 3 s of downtime is not (generous: what else passed is shutdown and start).
        assert!(
            charged < wall - 3_000 + 200 && charged < 4_000,
            "charged {charged} ms of {wall} ms"
        );
        let next = s.play(&id, &red, "h0g2").await;
        assert_eq!(next["clock"]["running"], "black");
        s.stop().await;
    }
);

on_both!(
    chained_restarts_charge_every_run_and_no_downtime,
    |s: TestServer| async move {
        let (id, red, started) = first_clock_running(&s, "shogi", ["7g7f", "3c3d"]).await;
        // Sente thinks 1 s in each of three runs; nothing about the game is written in between.
        tokio::time::sleep(Duration::from_millis(1000)).await;
        let s = s.restart_after(Duration::from_secs(2)).await;
        tokio::time::sleep(Duration::from_millis(1000)).await;
        let s = s.restart_after(Duration::from_secs(2)).await;
        tokio::time::sleep(Duration::from_millis(1000)).await;
        let view = s.view(&id, Some(&red)).await;
        let wall = started.elapsed().as_millis() as i64;
        let charged = 60_000 - ms_of(&view, "sente");
        // 3 s of thinking (it used to be only the last run's 1 s) ...
        assert!(charged >= 3_000, "charged {charged} ms");
        // ... and neither 2 s downtime.
        assert!(
            charged < wall - 4_000 + 200 && charged < 4_500,
            "charged {charged} ms of {wall} ms"
        );
        s.stop().await;
    }
);

on_both!(
    byoyomi_periods_used_before_a_restart_stay_used,
    |s: TestServer| async move {
        let clock = json!({"byoyomi": 2, "periods": 5});
        let (id, red, _) = s.timed_game("xiangqi", clock, &["h2e2", "h7e7"]).await;
        // Red thinks 3 s: one countdown of 2 s used, 1 s into the second.
        tokio::time::sleep(Duration::from_millis(3000)).await;
        let s = s.restart_after(Duration::from_secs(4)).await;
        let view = s.view(&id, Some(&red)).await;
        let periods = view["clock"]["red"]["periods"].as_u64().unwrap();
        // 5: the think time was refunded; 2 or fewer (or a flag): the downtime was charged.
        assert_eq!(view["status"], "playing", "{view}");
        assert!((3..=4).contains(&periods), "{periods} periods left: {view}");
        assert_eq!(view["clock"]["red"]["byoyomi"], true);
        s.stop().await;
    }
);

on_both!(
    first_move_countdown_resumes_where_it_stopped,
    |c| c.first_move_timeout = Duration::from_secs(20),
    |s: TestServer| async move {
        let (id, red, _black) = s.game(json!({"variant": "xiangqi"}), "red").await;
        let view = s.view(&id, Some(&red)).await;
        assert!(view["first_move_ms"].as_i64().unwrap() > 19_000);
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let s = s.restart_after(Duration::from_secs(3)).await;
        let view = s.view(&id, Some(&red)).await;
        let left = view["first_move_ms"].as_i64().expect("countdown");
        // 20 s again would refund the 1.5 s; below 16 s would charge the 3 s downtime.
        assert!((16_000..=18_500).contains(&left), "{left} ms left");
        assert_eq!(view["status"], "playing");
        s.play(&id, &red, "h2e2").await;
        s.stop().await;
    }
);

on_both!(
    each_node_keeps_a_heartbeat_and_marks_a_clean_stop,
    |mut s: TestServer| async move {
        let url = s.config.database_url.clone();
        let (first, stopped) = node_row(&url).await;
        assert_eq!(stopped, None, "running");
        tokio::time::sleep(Duration::from_millis(2500)).await;
        let (later, _) = node_row(&url).await;
        assert!(
            later >= first + 1_000,
            "the heartbeat advanced: {first} → {later}"
        );
        s.shut_down().await;
        let (last, stopped) = node_row(&url).await;
        assert_eq!(stopped, Some(last), "a graceful stop is recorded");
        assert!(last >= later);
        s.start_again().await;
        assert_eq!(node_row(&url).await.1, None, "running again");
        // No game has a running clock: older runs are not kept.
        s.shut_down().await;
        s.start_again().await;
        let runs = run_count(&url).await;
        assert!(runs <= 2, "{runs} runs kept");
        s.stop().await;
    }
);

on_both!(
    only_games_with_a_timer_are_loaded_at_start,
    |s: TestServer| async move {
        // Untimed, both sides moved: nothing to run, loaded when asked for.
        let (untimed, red, _) = s.untimed_game("xiangqi", &["h2e2", "h7e7"]).await;
        // Untimed, in its first-move countdown: resumed.
        s.untimed_game("xiangqi", &["h2e2"]).await;
        // Timed: resumed.
        s.timed_game("shogi", json!({"main": 600}), &["7g7f", "3c3d"])
            .await;
        // Waiting for an opponent: loaded when asked for.
        s.create(json!({"variant": "jieqi"})).await;
        let s = s.restart().await;
        assert_eq!(s.resumed(), 2);
        let view = s.view(&untimed, Some(&red)).await;
        assert_eq!(view["status"], "playing");
        assert_eq!(view["moves"], json!(["h2e2", "h7e7"]));
        s.play(&untimed, &red, "h0g2").await;
        s.stop().await;
    }
);

on_both!(
    abandoned_untimed_games_end_at_start,
    |mut s: TestServer| async move {
        let url = s.config.database_url.clone();
        let (old, red, _) = s.untimed_game("xiangqi", &["h2e2", "h7e7"]).await;
        let (fresh, ..) = s.untimed_game("shogi", &["7g7f", "3c3d"]).await;
        let (waiting, _, _) = s.create(json!({"variant": "xiangqi"})).await;
        // Only one side moved: the first-move countdown governs it (an abort), not this rule.
        let (opening, ..) = s.untimed_game("xiangqi", &["h2e2"]).await;
        s.shut_down().await;
        let month_ago = now_ms() - 31 * 24 * 3600 * 1000;
        for id in [&old, &waiting, &opening] {
            execute(
                &url,
                "UPDATE games SET updated_at = $1 WHERE id = $2",
                id,
                month_ago,
            )
            .await;
        }
        s.start_again().await;
        // The sweep at start ends it (in the background: wait for it).
        let deadline = Instant::now() + Duration::from_secs(20);
        let view = loop {
            let view = s.view(&old, None).await;
            if view["status"] != "playing" || Instant::now() > deadline {
                break view;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        assert_eq!(view["status"], "ended", "{view}");
        assert_eq!(
            view["result"],
            json!({"winner": null, "reason": "abandoned", "result": "*"})
        );
        assert_eq!(view["moves"], json!(["h2e2", "h7e7"]));
        let (status, result) = stored_status(&url, &old).await;
        assert_eq!(status, "ended");
        assert!(result.unwrap().contains("abandoned"));
        // A move after the end is refused; the fresh game and the waiting one are untouched.
        let (code, body) = s
            .action(&old, "move", Some(&red), json!({"move": "h0g2"}))
            .await;
        assert_eq!(code, 409, "{body}");
        assert_eq!(stored_status(&url, &fresh).await.0, "playing");
        assert_eq!(stored_status(&url, &waiting).await.0, "waiting");
        // (The month without a change was not server time: its countdown goes on.)
        let opening = s.view(&opening, None).await;
        assert_eq!(opening["status"], "playing", "{opening}");
        assert!(opening["first_move_ms"].as_i64().unwrap() > 0);
        s.stop().await;
    }
);

on_both!(
    an_abandoned_untimed_game_ends_when_it_is_loaded,
    |c| {
        c.abandon_after = Duration::from_secs(1);
        c.idle_timeout = Duration::from_millis(100);
    },
    |s: TestServer| async move {
        let url = s.config.database_url.clone();
        let (id, red, black) = s.game(json!({"variant": "minishogi"}), "sente").await;
        s.play(&id, &red, "5e4d").await;
        s.play(&id, &black, "1a2b").await;
        // Nobody moves for longer than the (short) abandonment period; the actor retires.
        tokio::time::sleep(Duration::from_millis(2000)).await;
        let view = s.view(&id, Some(&red)).await;
        assert_eq!(view["status"], "ended", "{view}");
        assert_eq!(view["result"]["reason"], "abandoned");
        assert_eq!(view["result"]["winner"], Value::Null);
        assert_eq!(stored_status(&url, &id).await.0, "ended");
        s.stop().await;
    }
);
