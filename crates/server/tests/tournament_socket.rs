//! The tournament socket (issue 25): the standings on connect and after every change, "your
//! next game" to its player only, and the standings a page at a time: the reader's own page
//! first, any other on request. SQLite and PostgreSQL.

#[macro_use]
mod common;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use common::tournaments::*;
use common::{Backend, TestServer, send};
use jiang_protocol::{GameView, STANDINGS_PAGE_LINES};
use serde_json::{Value, json};

on_both!(
    socket_sends_standings_and_next_game,
    quick,
    |s: TestServer| async move {
        let (_, ka) = new_player(&s, "Sock").await;
        let (b, kb) = new_player(&s, "Shoe").await;
        let t = create(
            &s,
            &ka,
            json!({"kind": "arena", "variant": "minishogi", "clock": {"main": 120}, "minutes": 10}),
        )
        .await;
        let mut mine = socket(&s, &t.id, Some(&ka)).await;
        let mut watcher = socket(&s, &t.id, None).await;
        let first = next(&mut mine).await;
        assert_eq!(first["type"], "standings");
        assert_eq!(first["standings"], json!([]));
        assert_eq!(next(&mut watcher).await["type"], "standings");
        join(&s, &t.id, &ka).await;
        join(&s, &t.id, &kb).await;
        // Standings after each join, then the pairing: "your next game" to the player only.
        let mut game = None;
        let mut standings_with_two = false;
        while game.is_none() {
            let m = next(&mut mine).await;
            match m["type"].as_str().unwrap() {
                "standings" => {
                    if m["standings"].as_array().unwrap().len() == 2 {
                        standings_with_two = true;
                    }
                }
                "game" => game = Some(m),
                other => panic!("unexpected {other}: {m}"),
            }
        }
        assert!(standings_with_two, "the joins were sent");
        let game = game.unwrap();
        let id = game["id"].as_str().unwrap();
        let token = game["token"].as_str().unwrap();
        let seen: GameView = s.game_view(id, Some(token)).await;
        assert_eq!(seen.state.you.as_deref(), game["side"].as_str());
        let v = view(&s, &t.id, Some(&ka)).await;
        assert_eq!(v.my_game.as_ref().map(|g| g.id.as_str()), Some(id));
        // The watcher sees the game in the standings, and never a `game` message.
        let mut watched_game = false;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(3);
        while tokio::time::Instant::now() < deadline && !watched_game {
            let m = next(&mut watcher).await;
            assert_eq!(m["type"], "standings", "a watcher gets no seat: {m}");
            watched_game = m["games"].as_array().unwrap().iter().any(|g| g["id"] == id);
        }
        assert!(watched_game);
        // A socket opened during the game gets the standings, then the game again.
        let mut again = socket(&s, &t.id, Some(&kb)).await;
        assert_eq!(next(&mut again).await["type"], "standings");
        let resent = next(&mut again).await;
        assert_eq!(resent["type"], "game");
        assert_eq!(resent["id"], id);
        // The game's end reaches every socket as new standings.
        s.resign(id, token).await;
        loop {
            let m = next(&mut watcher).await;
            if m["games"]
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g["id"] == id && g["result"] != "playing")
            {
                let winner = m["standings"][0]["id"].as_str().unwrap();
                assert_eq!(winner, b, "the one who did not resign leads");
                assert_eq!(m["standings"][0]["score"], 2.0);
                break;
            }
        }
        s.stop().await;
    }
);

/// The lines' ids of a `standings` message.
fn ids(m: &Value) -> Vec<String> {
    m["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_str().unwrap().to_owned())
        .collect()
}

on_both!(
    standings_come_a_page_at_a_time,
    quick,
    |s: TestServer| async move {
        let now_s = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let (_, creator) = new_player(&s, "Host").await;
        // Upcoming: nobody is paired while the pages are read.
        let t = create(
            &s,
            &creator,
            json!({"kind": "arena", "variant": "xiangqi", "clock": {"main": 180}, "minutes": 30, "starts_at": rfc3339(now_s + 3600)}),
        )
        .await;
        let mut keys = vec![];
        for i in 0..45 {
            let (id, key) = new_player(&s, &format!("P{i}")).await;
            join(&s, &t.id, &key).await;
            keys.push((id, key));
        }
        let whole = standings_ids(&s, &t.id).await;
        assert_eq!(whole.len(), 45);
        // A watcher starts on page 1 of 3, with the first 20 lines.
        let mut watcher = socket(&s, &t.id, None).await;
        let first = next(&mut watcher).await;
        assert_eq!(
            (first["page"].as_u64(), first["pages"].as_u64()),
            (Some(1), Some(3))
        );
        assert_eq!(ids(&first), whole[..STANDINGS_PAGE_LINES]);
        assert_eq!(first["tournament"]["players"], 45);
        // The pages, asked for one by one, are the whole table in order.
        let mut read = ids(&first);
        for page in [2, 3] {
            send(&mut watcher, json!({"type": "page", "page": page})).await;
            let m = next(&mut watcher).await;
            assert_eq!(m["page"].as_u64(), Some(page));
            read.extend(ids(&m));
        }
        assert_eq!(read, whole);
        // Past the last page: the last; page 0 is refused and changes nothing.
        send(&mut watcher, json!({"type": "page", "page": 99})).await;
        let m = next(&mut watcher).await;
        assert_eq!((m["page"].as_u64(), ids(&m).len()), (Some(3), 5));
        send(&mut watcher, json!({"type": "page", "page": 0})).await;
        let m = next(&mut watcher).await;
        assert_eq!(
            (m["type"].as_str(), m["code"].as_str()),
            (Some("error"), Some("invalid_message"))
        );
        // A player starts on their own page; `page` without a number goes back to it.
        let (far, far_key) = keys.iter().find(|(id, _)| *id == whole[41]).unwrap();
        let mut mine = socket(&s, &t.id, Some(far_key)).await;
        let m = next(&mut mine).await;
        assert_eq!(m["page"].as_u64(), Some(3));
        assert!(ids(&m).contains(far));
        send(&mut mine, json!({"type": "page", "page": 1})).await;
        assert_eq!(next(&mut mine).await["page"].as_u64(), Some(1));
        send(&mut mine, json!({"type": "page"})).await;
        assert_eq!(next(&mut mine).await["page"].as_u64(), Some(3));
        // A change reaches each socket as the page it follows: the watcher stays on page 3.
        let (late, late_key) = new_player(&s, "Late").await;
        join(&s, &t.id, &late_key).await;
        let m = next(&mut watcher).await;
        assert_eq!(
            (m["page"].as_u64(), m["pages"].as_u64()),
            (Some(3), Some(3))
        );
        let whole = standings_ids(&s, &t.id).await;
        assert!(whole.contains(&late));
        assert_eq!(ids(&m), whole[2 * STANDINGS_PAGE_LINES..]);
        s.stop().await;
    }
);
