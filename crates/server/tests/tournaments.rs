//! Tournaments (issue 25, the server side): creating (valid and invalid bodies), joining and
//! withdrawing, an arena of four players whose games are played through the real game API and
//! who are paired again (scores and streaks), a Swiss of three players over three rounds (a
//! bye each round, nobody meets twice) with a restart of the server in the middle, and
//! `my_game`. The socket is tested in `tournament_socket.rs`. SQLite and PostgreSQL.

#[macro_use]
mod common;

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use common::tournaments::*;
use common::{Backend, TestServer, assert_refused, typed};
use jiang_protocol::{
    GameView, TournamentBerserk, TournamentEntry, TournamentKind, TournamentList, TournamentStatus,
    TournamentSummary,
};
use reqwest::{Method, StatusCode};
use serde_json::json;

on_both!(create_validates, quick, |s: TestServer| async move {
    let (me, key) = new_player(&s, "Organiser").await;
    let arena = json!({"kind": "arena", "variant": "xiangqi", "clock": {"main": 180, "increment": 2}, "minutes": 30});
    // No key, a wrong key.
    assert_refused(
        s.as_player(Method::POST, "/api/tournaments", None, Some(arena.clone()))
            .await,
        StatusCode::UNAUTHORIZED,
        "player_key_required",
    );
    assert_refused(
        s.as_player(
            Method::POST,
            "/api/tournaments",
            Some("not-a-key"),
            Some(arena.clone()),
        )
        .await,
        StatusCode::UNAUTHORIZED,
        "wrong_player_key",
    );
    // Bad bodies, each with its typed refusal.
    let bad = [
        (
            json!({"kind": "knockout", "variant": "xiangqi", "clock": {"main": 60}, "minutes": 30}),
            "invalid_request",
        ),
        (
            json!({"kind": "arena", "variant": "chess", "clock": {"main": 60}, "minutes": 30}),
            "unknown_variant",
        ),
        (
            json!({"kind": "arena", "variant": "xiangqi", "clock": {"main": 60}}),
            "invalid_request",
        ),
        (
            json!({"kind": "arena", "variant": "xiangqi", "clock": {"main": 60}, "minutes": 0}),
            "invalid_request",
        ),
        (
            json!({"kind": "arena", "variant": "xiangqi", "clock": {"main": 60}, "minutes": 30, "rounds": 3}),
            "invalid_request",
        ),
        (
            json!({"kind": "swiss", "variant": "shogi", "clock": {"main": 60}, "rounds": 51}),
            "invalid_request",
        ),
        (
            json!({"kind": "swiss", "variant": "shogi", "clock": {"main": 60}, "minutes": 30}),
            "invalid_request",
        ),
        (
            json!({"kind": "swiss", "variant": "shogi", "rounds": 3}),
            "invalid_request",
        ),
        (
            json!({"kind": "swiss", "variant": "shogi", "clock": {"main": 0}, "rounds": 3}),
            "invalid_request",
        ),
        (
            json!({"kind": "swiss", "variant": "shogi", "clock": {"main": 60}, "rounds": 3, "starts_at": "tomorrow"}),
            "invalid_request",
        ),
        (
            json!({"kind": "swiss", "variant": "shogi", "clock": {"main": 60}, "rounds": 3, "starts_at": "2020-01-01T00:00:00Z"}),
            "invalid_request",
        ),
        (
            json!({"kind": "swiss", "variant": "shogi", "clock": {"main": 60}, "rounds": 3, "starts_at": "2999-01-01T00:00:00Z"}),
            "invalid_request",
        ),
        (
            json!({"kind": "swiss", "variant": "shogi", "clock": {"main": 60}, "rounds": 3, "prize": 100}),
            "unknown_field",
        ),
    ];
    for (body, code) in bad {
        let answer = s
            .as_player(
                Method::POST,
                "/api/tournaments",
                Some(&key),
                Some(body.clone()),
            )
            .await;
        let refused = assert_refused(answer, StatusCode::BAD_REQUEST, code);
        assert!(
            refused["error"]["message"].as_str().unwrap().len() > 10,
            "{body}: {refused}"
        );
    }
    // A valid arena starting now, and a Swiss starting in an hour.
    let created = create(&s, &key, arena).await;
    assert_eq!(created.variant, "xiangqi");
    assert_eq!(created.minutes, Some(30));
    assert_eq!(created.rounds, None);
    assert_eq!(created.created_by, me);
    assert_eq!(created.players, 0);
    assert!(!created.rated);
    assert!(created.ends_at.is_some());
    let now_s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let in_an_hour = rfc3339(now_s + 3600);
    let swiss = create(
        &s,
        &key,
        json!({"kind": "swiss", "variant": "minishogi", "clock": {"main": 60, "byoyomi": 10}, "rounds": 5, "starts_at": in_an_hour, "rated": true}),
    )
    .await;
    assert_eq!(swiss.starts_at, in_an_hour);
    assert_eq!(swiss.status, TournamentStatus::Upcoming);
    assert_eq!(swiss.rounds, Some(5));
    assert!(swiss.rated);
    assert_eq!(swiss.ends_at, None);
    // The arena starts at once (with nobody in it, it just runs); the Swiss waits.
    wait_for(&s, &created.id, "the arena starts", |v| {
        v.state.tournament.status == TournamentStatus::Running
    })
    .await;
    let (status, v) = s.get("/api/tournaments", None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let list: TournamentList = typed(&v);
    assert_eq!(
        list.upcoming
            .iter()
            .map(|t| t.id.as_str())
            .collect::<Vec<_>>(),
        [swiss.id.as_str()]
    );
    assert_eq!(
        list.running
            .iter()
            .map(|t| t.id.as_str())
            .collect::<Vec<_>>(),
        [created.id.as_str()]
    );
    assert!(list.finished.is_empty());
    // Five tournaments not finished per creator at most.
    for _ in 0..3 {
        create(&s, &key, json!({"kind": "swiss", "variant": "xiangqi", "clock": {"main": 60}, "rounds": 2, "starts_at": in_an_hour})).await;
    }
    assert_refused(
        s.as_player(
            Method::POST,
            "/api/tournaments",
            Some(&key),
            Some(
                json!({"kind": "swiss", "variant": "xiangqi", "clock": {"main": 60}, "rounds": 2}),
            ),
        )
        .await,
        StatusCode::TOO_MANY_REQUESTS,
        "too_many_tournaments",
    );
    assert_refused(
        s.get("/api/tournaments/nosuchone", None).await,
        StatusCode::NOT_FOUND,
        "tournament_not_found",
    );
    assert_refused(
        act(&s, "nosuchone", "join", Some(&key)).await,
        StatusCode::NOT_FOUND,
        "tournament_not_found",
    );
    s.stop().await;
});

on_both!(
    scheduled_tournaments_are_created_once,
    scheduled,
    |s: TestServer| async move {
        let upcoming = |list: &TournamentList| -> Vec<TournamentSummary> {
            list.upcoming
                .iter()
                .filter(|t| t.scheduled)
                .cloned()
                .collect()
        };
        let list = async |s: &TestServer| -> TournamentList {
            let (status, v) = s.get("/api/tournaments", None).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            typed(&v)
        };
        let mut found = Vec::new();
        for _ in 0..50 {
            found = upcoming(&list(&s).await);
            if found.len() == 2 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(
            found.len(),
            2,
            "one upcoming occurrence per entry: {found:?}"
        );
        let arena = found
            .iter()
            .find(|t| t.kind == TournamentKind::Arena)
            .unwrap();
        assert_eq!(
            (arena.variant.as_str(), arena.minutes, arena.rated),
            ("xiangqi", Some(57), true)
        );
        assert_eq!(arena.created_by, "jiang");
        assert!(arena.starts_at.ends_with(":00:00Z"), "{}", arena.starts_at);
        let swiss = found
            .iter()
            .find(|t| t.kind == TournamentKind::Swiss)
            .unwrap();
        assert_eq!((swiss.variant.as_str(), swiss.rounds), ("shogi", Some(7)));
        assert!(
            swiss.starts_at.ends_with("T18:00:00Z"),
            "{}",
            swiss.starts_at
        );
        // Players join a scheduled tournament like any other.
        let (_, key) = new_player(&s, "Early").await;
        join(&s, &arena.id, &key).await;
        // A restart finds them stored and creates nothing twice.
        let s = s.restart().await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let again = upcoming(&list(&s).await);
        let ids =
            |ts: &[TournamentSummary]| ts.iter().map(|t| t.id.clone()).collect::<HashSet<_>>();
        assert_eq!(ids(&again), ids(&found));
        assert_eq!(view(&s, &arena.id, None).await.state.tournament.players, 1);
        s.stop().await;
    }
);

on_both!(join_and_withdraw, quick, |s: TestServer| async move {
    let (a, ka) = new_player(&s, "Alpha").await;
    let (b, kb) = new_player(&s, "Bravo").await;
    let (_, kc) = new_player(&s, "Charlie").await;
    let now_s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let t = create(
        &s,
        &ka,
        json!({"kind": "arena", "variant": "jieqi", "clock": {"main": 120}, "minutes": 20, "starts_at": rfc3339(now_s + 3600)}),
    )
    .await;
    join(&s, &t.id, &ka).await;
    join(&s, &t.id, &kb).await;
    join(&s, &t.id, &kb).await; // twice: still one entry
    let v = view(&s, &t.id, Some(&ka)).await;
    assert_eq!(v.state.tournament.players, 2);
    assert_eq!(v.state.tournament.status, TournamentStatus::Upcoming);
    assert!(v.my_game.is_none(), "nothing paired before the start");
    let ids: HashSet<&str> = v.state.standings.iter().map(|s| s.id.as_str()).collect();
    assert_eq!(ids, HashSet::from([a.as_str(), b.as_str()]));
    for line in &v.state.standings {
        assert_eq!(line.score, 0.0);
        assert_eq!(line.rank, 1, "everyone equal at 0");
        assert_eq!(line.on_fire, Some(false));
        assert!(line.sheet.is_empty());
    }
    let alpha = v.state.standings.iter().find(|l| l.id == a).unwrap();
    assert_eq!(alpha.name.as_deref(), Some("Alpha"));

    // Withdraw: Bravo stays listed, withdrawn, and no longer counts as a player.
    let (status, w) = act(&s, &t.id, "withdraw", Some(&kb)).await;
    assert_eq!(status, StatusCode::OK, "{w}");
    let entry: TournamentEntry = typed(&w);
    assert!(entry.withdrawn);
    assert_eq!(entry.player, b);
    let v = view(&s, &t.id, None).await;
    assert_eq!(v.state.tournament.players, 1);
    let bravo = v.state.standings.iter().find(|l| l.id == b).unwrap();
    assert!(bravo.withdrawn);
    // Refusals: not joined, no key, wrong key; berserk without a game in progress.
    assert_refused(
        act(&s, &t.id, "withdraw", Some(&kc)).await,
        StatusCode::CONFLICT,
        "not_in_tournament",
    );
    assert_refused(
        act(&s, &t.id, "join", None).await,
        StatusCode::UNAUTHORIZED,
        "player_key_required",
    );
    assert_refused(
        act(&s, &t.id, "join", Some("wrong")).await,
        StatusCode::UNAUTHORIZED,
        "wrong_player_key",
    );
    assert_refused(
        act(&s, &t.id, "berserk", Some(&ka)).await,
        StatusCode::CONFLICT,
        "berserk_not_allowed",
    );
    assert_refused(
        act(&s, &t.id, "berserk", Some(&kc)).await,
        StatusCode::CONFLICT,
        "not_in_tournament",
    );
    // Joining again undoes the withdrawal.
    join(&s, &t.id, &kb).await;
    let v = view(&s, &t.id, None).await;
    assert_eq!(v.state.tournament.players, 2);
    assert!(!v.state.standings.iter().any(|l| l.withdrawn));
    s.stop().await;
});

on_both!(
    berserk_halves_the_clock_and_wins_a_point,
    quick,
    |s: TestServer| async move {
        let (a, ka) = new_player(&s, "Hasty").await;
        let (b, kb) = new_player(&s, "Steady").await;
        let t = create(
            &s,
            &ka,
            json!({"kind": "arena", "variant": "xiangqi", "clock": {"main": 300, "increment": 2}, "minutes": 60}),
        )
        .await;
        join(&s, &t.id, &ka).await;
        join(&s, &t.id, &kb).await;
        let v = wait_for(&s, &t.id, "a game paired", |v| playing(v).len() == 1).await;
        let (game, first, _) = playing(&v).remove(0);
        let (red_key, black_key) = if first == a { (&ka, &kb) } else { (&kb, &ka) };
        let red = view(&s, &t.id, Some(red_key)).await.my_game.unwrap();
        let black = view(&s, &t.id, Some(black_key)).await.my_game.unwrap();
        // Red berserks through the tournament, before its first move.
        let (status, answer) = act(&s, &t.id, "berserk", Some(red_key)).await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        let answer: TournamentBerserk = typed(&answer);
        assert_eq!(
            (answer.game.as_str(), answer.side.as_str()),
            (game.as_str(), "red")
        );
        let seen = s.game_view(&game, Some(&red.token)).await;
        let link = seen
            .state
            .tournament
            .clone()
            .expect("a tournament game says so");
        assert_eq!(
            (link.id.as_str(), link.kind),
            (t.id.as_str(), TournamentKind::Arena)
        );
        assert_eq!(link.berserk, ["red"]);
        let clock = serde_json::to_value(seen.state.clock.expect("timed")).unwrap();
        assert_eq!(clock["red"]["ms"], 150_000, "half the main time: {clock}");
        assert_eq!(clock["black"]["ms"], 300_000, "{clock}");
        assert_refused(
            act(&s, &t.id, "berserk", Some(red_key)).await,
            StatusCode::CONFLICT,
            "berserk_not_allowed",
        );
        s.play(&game, &red.token, "b0c2").await;
        assert_refused(
            s.action(&game, "berserk", Some(&red.token), json!({}))
                .await,
            StatusCode::CONFLICT,
            "berserk_not_allowed",
        );
        // Black berserks through the game's own action, before its first move.
        let (status, seen) = s
            .action(&game, "berserk", Some(&black.token), json!({}))
            .await;
        assert_eq!(status, StatusCode::OK, "{seen}");
        assert_eq!(seen["tournament"]["berserk"], json!(["red", "black"]));
        // No rematch in a tournament: the tournament pairs its players.
        let red_moves = ["h0g2", "a0a1", "i0i1", "c3c4", "g3g4", "e3e4"];
        let black_moves = ["b9c7", "h9g7", "a9a8", "i9i8", "c6c5", "g6g5", "e6e5"];
        for (i, mv) in black_moves.iter().enumerate() {
            s.play(&game, &black.token, mv).await;
            if let Some(mv) = red_moves.get(i) {
                s.play(&game, &red.token, mv).await;
            }
        }
        // 14 plies: a berserked win now earns its extra point. Black resigns.
        s.resign(&game, &black.token).await;
        assert_refused(
            s.action(&game, "rematch", Some(&red.token), json!({}))
                .await,
            StatusCode::CONFLICT,
            "rematch_not_allowed",
        );
        let v = wait_for(&s, &t.id, "the game counted", |v| {
            v.state.standings.iter().any(|l| l.games == 1)
        })
        .await;
        let winner = if first == a { &a } else { &b };
        assert_eq!(
            score_of(&v, winner),
            3.0,
            "a win (2) and the berserk point (1)"
        );
        s.stop().await;
    }
);

on_both!(
    arena_pairs_again_and_scores_streaks,
    quick,
    |s: TestServer| async move {
        let mut keys: HashMap<String, String> = HashMap::new();
        let mut ids = Vec::new();
        for name in ["Star", "Pawn1", "Pawn2", "Pawn3"] {
            let (id, key) = new_player(&s, name).await;
            ids.push(id.clone());
            keys.insert(id, key);
        }
        let star = ids[0].clone();
        let t = create(
        &s,
        &keys[&star],
        json!({"kind": "arena", "variant": "xiangqi", "clock": {"main": 300, "increment": 0}, "minutes": 60}),
    )
    .await;
        for id in &ids {
            join(&s, &t.id, &keys[id]).await;
        }
        let mut s = s;
        let mut last_opponent: HashMap<String, String> = HashMap::new();
        let mut expected: HashMap<String, Vec<u32>> = HashMap::new();
        let mut wins_in_a_row: HashMap<String, u32> = HashMap::new();
        let mut seen_games = HashSet::new();
        for wave in 0..3 {
            let v = wait_for(&s, &t.id, "two games paired", |v| {
                playing(v).len() == 2 && playing(v).iter().all(|(g, ..)| !seen_games.contains(g))
            })
            .await;
            assert_eq!(v.state.tournament.status, TournamentStatus::Running);
            let games = playing(&v);
            let in_games: HashSet<&str> = games
                .iter()
                .flat_map(|(_, a, b)| [a.as_str(), b.as_str()])
                .collect();
            assert_eq!(in_games.len(), 4, "everyone plays, once: {games:?}");
            for (game, first, second) in &games {
                seen_games.insert(game.clone());
                if wave > 0 {
                    assert_ne!(
                        last_opponent.get(first),
                        Some(second),
                        "wave {wave}: no immediate rematch when others wait"
                    );
                }
                last_opponent.insert(first.clone(), second.clone());
                last_opponent.insert(second.clone(), first.clone());
                // Each player's my_game is this game, in their seat, and its token plays it.
                for (player, side) in [(first, "red"), (second, "black")] {
                    let mine = view(&s, &t.id, Some(&keys[player])).await.my_game.unwrap();
                    assert_eq!((&mine.id, mine.side.as_str()), (game, side));
                    let seen: GameView = s.game_view(game, Some(&mine.token)).await;
                    assert_eq!(
                        seen.state.you.as_deref(),
                        Some(side),
                        "the token holds the seat"
                    );
                }
            }
            if wave == 1 {
                // A restart in the middle: standings, games and my_game are all still there.
                let before = view(&s, &t.id, Some(&keys[&star])).await;
                s = s.restart().await;
                let after = view(&s, &t.id, Some(&keys[&star])).await;
                assert_eq!(after.state.standings, before.state.standings);
                assert_eq!(after.state.games, before.state.games);
                assert_eq!(after.my_game, before.my_game);
            }
            // The star wins every game; in the other game the second seat resigns.
            for (game, first, second) in &games {
                let (winner, loser) = if second == &star {
                    (second, first)
                } else {
                    (first, second)
                };
                resign_as(&s, &t.id, game, &keys[loser]).await;
                let streak = wins_in_a_row.entry(winner.clone()).or_default();
                expected
                    .entry(winner.clone())
                    .or_default()
                    .push(if *streak >= 2 { 4 } else { 2 });
                *streak += 1;
                wins_in_a_row.insert(loser.clone(), 0);
                expected.entry(loser.clone()).or_default().push(0);
            }
        }
        let v = wait_for(&s, &t.id, "six games over", |v| {
            v.state
                .games
                .iter()
                .filter(|g| g.result != "playing")
                .count()
                >= 6
        })
        .await;
        assert_eq!(
            expected[&star],
            [2, 2, 4],
            "the star's third win is on fire"
        );
        for line in &v.state.standings {
            let points: Vec<u32> = line.sheet.iter().map(|m| m.points).collect();
            assert_eq!(points, expected[&line.id], "{}'s sheet", line.id);
            assert_eq!(line.score, f64::from(points.iter().sum::<u32>()));
            assert_eq!(line.games, 3);
        }
        let top = &v.state.standings[0];
        assert_eq!(top.id, star);
        assert_eq!(top.rank, 1);
        assert_eq!(top.score, 8.0);
        assert_eq!(top.wins, 3);
        assert_eq!(top.on_fire, Some(true));
        assert!(top.sheet[2].on_fire && !top.sheet[1].on_fire);
        // Withdrawn players are not paired again; the others are.
        for id in &ids[2..] {
            let (status, w) = act(&s, &t.id, "withdraw", Some(&keys[id])).await;
            assert_eq!(status, StatusCode::OK, "{w}");
        }
        let v = wait_for(&s, &t.id, "the two left paired", |v| playing(v).len() == 1).await;
        let (_, a, b) = &playing(&v)[0];
        let pair = HashSet::from([a.as_str(), b.as_str()]);
        assert_eq!(pair, HashSet::from([ids[0].as_str(), ids[1].as_str()]));
        assert_eq!(score_of(&v, &star), 8.0);
        s.stop().await;
    }
);

on_both!(
    swiss_three_players_with_byes_and_a_restart,
    quick,
    |s: TestServer| async move {
        let mut keys: HashMap<String, String> = HashMap::new();
        for name in ["Ann", "Ben", "Cid"] {
            let (id, key) = new_player(&s, name).await;
            keys.insert(id, key);
        }
        let creator = keys.values().next().unwrap().clone();
        // Starting in two seconds: everyone is in before round 1 is paired.
        let now_s = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let t = create(
        &s,
        &creator,
        json!({"kind": "swiss", "variant": "shogi", "clock": {"main": 300, "byoyomi": 10}, "rounds": 3, "rated": true, "starts_at": rfc3339(now_s + 2)}),
    )
    .await;
        assert_eq!(t.status, TournamentStatus::Upcoming);
        for key in keys.values() {
            join(&s, &t.id, key).await;
        }
        let mut s = s;
        let mut pairs_seen: HashSet<(String, String)> = HashSet::new();
        let mut byes_seen = Vec::new();
        for round in 1..=3u32 {
            let v = wait_for(&s, &t.id, "the round paired", |v| {
                v.state.round == Some(round)
            })
            .await;
            let games: Vec<_> = v
                .state
                .games
                .iter()
                .filter(|g| g.round == Some(round))
                .collect();
            assert_eq!(games.len(), 1, "three players: one game a round");
            let game = games[0].clone();
            assert_eq!(game.result, "playing");
            let bye = v
                .state
                .byes
                .iter()
                .find(|b| b.round == round)
                .expect("a bye every round")
                .player
                .clone();
            assert!(bye != game.first && bye != game.second);
            byes_seen.push(bye.clone());
            let mut pair = [game.first.clone(), game.second.clone()];
            pair.sort();
            assert!(
                pairs_seen.insert((pair[0].clone(), pair[1].clone())),
                "round {round} repeats a pairing: {pair:?}"
            );
            // The bye's holder has no game; the game is rated.
            assert!(view(&s, &t.id, Some(&keys[&bye])).await.my_game.is_none());
            let first_view: GameView = {
                let mine = view(&s, &t.id, Some(&keys[&game.first]))
                    .await
                    .my_game
                    .unwrap();
                assert_eq!(mine.side, "sente");
                s.game_view(&game.id, Some(&mine.token)).await
            };
            assert!(
                first_view.state.rated,
                "a rated tournament's games are rated"
            );
            if round == 2 {
                let before = view(&s, &t.id, Some(&keys[&game.second])).await;
                s = s.restart().await;
                let after = view(&s, &t.id, Some(&keys[&game.second])).await;
                assert_eq!(after.state, before.state, "the restart changes nothing");
                assert_eq!(after.my_game, before.my_game);
                assert!(after.my_game.is_some());
            }
            // The first seat wins (the second resigns).
            resign_as(&s, &t.id, &game.id, &keys[&game.second]).await;
        }
        let v = wait_for(&s, &t.id, "the Swiss finishes", |v| {
            v.state.tournament.status == TournamentStatus::Finished
        })
        .await;
        assert!(v.state.tournament.finished_at.is_some());
        let distinct: HashSet<&String> = byes_seen.iter().collect();
        assert_eq!(distinct.len(), 3, "nobody gets a second bye: {byes_seen:?}");
        assert_eq!(pairs_seen.len(), 3, "a full round robin, no repeat");
        assert_eq!(v.state.games.len(), 3);
        let total: f64 = v.state.standings.iter().map(|l| l.score).sum();
        assert_eq!(total, 6.0, "three decisive games and three byes");
        for line in &v.state.standings {
            let wins = v
                .state
                .games
                .iter()
                .filter(|g| g.first == line.id && g.result == "first")
                .count() as f64;
            assert_eq!(line.score, wins + 1.0, "{}: wins plus the bye", line.id);
            assert_eq!(line.games, 2);
            assert_eq!(line.sheet.len(), 3);
            assert_eq!(line.sheet.iter().filter(|m| m.outcome == "bye").count(), 1);
            assert!(line.buchholz.is_some() && line.sonneborn_berger.is_some());
        }
        let scores: Vec<f64> = v.state.standings.iter().map(|l| l.score).collect();
        assert!(
            scores.windows(2).all(|w| w[0] >= w[1]),
            "best first: {scores:?}"
        );
        // The games were rated: everyone's realtime shogi rating counts their two games.
        for id in keys.keys() {
            let (status, page) = s.get(&format!("/api/players/{id}"), None).await;
            assert_eq!(status, StatusCode::OK, "{page}");
            let page: jiang_protocol::PlayerView = typed(&page);
            assert_eq!(page.ratings.get("shogi").map(|r| r.games), Some(2), "{id}");
        }
        // Over: no more joining.
        assert_refused(
            act(&s, &t.id, "join", Some(&creator)).await,
            StatusCode::CONFLICT,
            "tournament_finished",
        );
        let (_, v) = s.get("/api/tournaments", None).await;
        let list: TournamentList = typed(&v);
        assert_eq!(list.finished.len(), 1);
        s.stop().await;
    }
);

on_both!(
    arena_stops_pairing_at_its_end,
    quick,
    |s: TestServer| async move {
        let (a, ka) = new_player(&s, "Early").await;
        let (_, kb) = new_player(&s, "Late").await;
        let t = create(
            &s,
            &ka,
            json!({"kind": "arena", "variant": "xiangqi", "clock": {"main": 60}, "minutes": 45}),
        )
        .await;
        join(&s, &t.id, &ka).await;
        join(&s, &t.id, &kb).await;
        let v = wait_for(&s, &t.id, "a game paired", |v| playing(v).len() == 1).await;
        let (game, ..) = playing(&v)[0].clone();
        // The duration runs out while the game is played (the row changed directly: no waiting 45
        // minutes): the arena waits for the game, then finishes without pairing again.
        common::execute(
            &s.config.database_url,
            "UPDATE tournaments SET minutes = $1 WHERE id = $2",
            &t.id,
            0,
        )
        .await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let v = view(&s, &t.id, None).await;
        assert_eq!(
            v.state.tournament.status,
            TournamentStatus::Running,
            "the game is still on"
        );
        resign_as(&s, &t.id, &game, &ka).await;
        let v = wait_for(&s, &t.id, "the arena finishes", |v| {
            v.state.tournament.status == TournamentStatus::Finished
        })
        .await;
        assert_eq!(v.state.games.len(), 1, "nobody is paired after the end");
        assert!(v.state.tournament.finished_at.is_some());
        assert_eq!(score_of(&v, &a), 0.0);
        assert_eq!(v.state.standings[0].score, 2.0);
        assert_refused(
            act(&s, &t.id, "join", Some(&kb)).await,
            StatusCode::CONFLICT,
            "tournament_finished",
        );
        assert_refused(
            act(&s, &t.id, "withdraw", Some(&kb)).await,
            StatusCode::CONFLICT,
            "tournament_finished",
        );
        s.stop().await;
    }
);
