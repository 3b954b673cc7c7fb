//! Players without accounts (issue 24): the key (create, rotate, delete, 401 for a wrong one),
//! names (any script, unique after case folding, typed refusals), rated games (both seats
//! players, never the same one, never against the computer), ratings changed only by the end
//! of a rated game and in the same transaction, the player page, the leaderboard and rated
//! quick pairing. SQLite and PostgreSQL.

#[macro_use]
mod common;

use common::{Backend, TestServer, assert_refused, fetch_one, typed};
use jiang_protocol::{Leaderboard, PlayerCreated, PlayerView};
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

/// A new player (with `name`, if given): (id, key).
async fn new_player(s: &TestServer, name: Option<&str>) -> (String, String) {
    let body = match name {
        Some(name) => json!({ "name": name }),
        None => json!({}),
    };
    let (status, v) = s
        .as_player(Method::POST, "/api/players", None, Some(body))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let created: PlayerCreated = typed(&v);
    assert_eq!(created.name.as_deref(), name);
    (created.id, created.key)
}

/// A player's page by id or name.
async fn page(s: &TestServer, who: &str) -> PlayerView {
    let (status, v) = s.get(&format!("/api/players/{who}"), None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    typed(&v)
}

/// The player of `key`'s own page.
async fn my_page(s: &TestServer, key: &str) -> (StatusCode, Value) {
    s.as_player(Method::GET, "/api/players/me", Some(key), None)
        .await
}

/// A rated game created by `creator` (red) and joined by `joiner`: (id, red token, black token).
async fn rated_game(
    s: &TestServer,
    creator: &str,
    joiner: &str,
    clock: bool,
) -> (String, String, String) {
    let mut body = json!({"variant": "xiangqi", "side": "red", "rated": true});
    if clock {
        body["clock"] = json!({"main": 300, "increment": 3});
    }
    let (status, v) = s
        .as_player(Method::POST, "/api/games", Some(creator), Some(body))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().unwrap().to_owned();
    let red = v["token"].as_str().unwrap().to_owned();
    let (status, v) = join(s, &id, Some(joiner)).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    (id, red, v["token"].as_str().unwrap().to_owned())
}

on_both!(keys_rotate_and_delete, |s: TestServer| async move {
    let (id, key) = new_player(&s, Some("王小明")).await;
    let (status, v) = my_page(&s, &key).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let me: PlayerView = typed(&v);
    assert_eq!(me.id, id);
    assert!(
        !v.to_string().contains(&key),
        "the key is never shown again"
    );
    assert_eq!(page(&s, "王小明").await.id, id);

    assert_refused(
        my_page(&s, "not-a-key").await,
        StatusCode::UNAUTHORIZED,
        "wrong_player_key",
    );
    assert_refused(
        s.as_player(Method::GET, "/api/players/me", None, None)
            .await,
        StatusCode::UNAUTHORIZED,
        "player_key_required",
    );

    let (status, v) = s
        .as_player(
            Method::POST,
            "/api/players/me/key",
            Some(&key),
            Some(json!({})),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let rotated: PlayerCreated = typed(&v);
    assert_eq!(rotated.id, id);
    assert_ne!(rotated.key, key);
    assert_refused(
        my_page(&s, &key).await,
        StatusCode::UNAUTHORIZED,
        "wrong_player_key",
    );
    assert_eq!(my_page(&s, &rotated.key).await.0, StatusCode::OK);
    // The old key rotates nothing any more.
    assert_refused(
        s.as_player(
            Method::POST,
            "/api/players/me/key",
            Some(&key),
            Some(json!({})),
        )
        .await,
        StatusCode::UNAUTHORIZED,
        "wrong_player_key",
    );

    let (status, _) = s
        .as_player(Method::DELETE, "/api/players/me", Some(&rotated.key), None)
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_refused(
        my_page(&s, &rotated.key).await,
        StatusCode::UNAUTHORIZED,
        "wrong_player_key",
    );
    assert_refused(
        s.get(&format!("/api/players/{id}"), None).await,
        StatusCode::NOT_FOUND,
        "player_not_found",
    );
    // The name is free again.
    new_player(&s, Some("王小明")).await;
    s.stop().await;
});

on_both!(
    names_are_unique_after_folding_and_refused_by_type,
    |s: TestServer| async move {
        let (_, key) = new_player(&s, Some("Straße")).await;
        let taken = ["STRASSE", "strasse", "Ｓｔｒａｓｓｅ"]
            .map(|n| (n, StatusCode::CONFLICT, "name_taken"));
        let bad = ["a", "two words", "<script>", "123456789012345678901"]
            .map(|n| (n, StatusCode::BAD_REQUEST, "invalid_name"));
        for (name, status, code) in taken.into_iter().chain(bad) {
            let answer = s
                .as_player(
                    Method::POST,
                    "/api/players",
                    None,
                    Some(json!({ "name": name })),
                )
                .await;
            assert_refused(answer, status, code);
        }
        let (_, other) = new_player(&s, None).await;
        assert_refused(
            s.as_player(
                Method::PATCH,
                "/api/players/me",
                Some(&other),
                Some(json!({"name": "strasse"})),
            )
            .await,
            StatusCode::CONFLICT,
            "name_taken",
        );
        let (status, v) = s
            .as_player(
                Method::PATCH,
                "/api/players/me",
                Some(&other),
                Some(json!({"name": "羽生"})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(typed::<PlayerView>(&v).name.as_deref(), Some("羽生"));
        // Renaming to one's own name in another case is allowed.
        let (status, v) = s
            .as_player(
                Method::PATCH,
                "/api/players/me",
                Some(&key),
                Some(json!({"name": "STRASSE"})),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        s.stop().await;
    }
);

on_both!(
    a_rated_game_changes_both_ratings_once,
    |s: TestServer| async move {
        let (a, key_a) = new_player(&s, Some("alice")).await;
        let (b, key_b) = new_player(&s, Some("bob")).await;
        let (id, red, black) = rated_game(&s, &key_a, &key_b, true).await;
        let view = s.view(&id, Some(&red)).await;
        assert_eq!(view["rated"], true);
        assert_eq!(view["players"], json!({"red": a, "black": b}));
        s.play(&id, &red, "h2e2").await;
        s.play(&id, &black, "h9g7").await;
        s.resign(&id, &black).await;

        let alice = page(&s, "alice").await;
        let bob = page(&s, &b).await;
        let (ra, rb) = (&alice.ratings["xiangqi"], &bob.ratings["xiangqi"]);
        assert!(ra.rating > 1500 && rb.rating < 1500, "{ra:?} {rb:?}");
        assert_eq!(
            ra.rating - 1500,
            1500 - rb.rating,
            "equal start: equal change"
        );
        assert_eq!((ra.games, rb.games), (1, 1));
        assert!(ra.provisional && rb.provisional);
        assert_eq!(alice.history["xiangqi"].len(), 1);
        assert_eq!(alice.games[0].id, id);
        assert_eq!(alice.games[0].result.as_deref(), Some("win"));
        assert_eq!(bob.games[0].result.as_deref(), Some("loss"));
        assert!(alice.games[0].rated);
        assert_eq!(
            alice.games[0].opponent.as_ref().map(|o| o.id.as_str()),
            Some(b.as_str())
        );
        assert_eq!(alice.games[0].rating_change, Some(ra.rating - 1500));
        assert!(alice.correspondence.is_empty());

        // Nothing after the end changes the ratings again.
        assert_refused(
            s.action(&id, "resign", Some(&red), json!({})).await,
            StatusCode::CONFLICT,
            "game_over",
        );
        assert_eq!(page(&s, &a).await.ratings["xiangqi"].games, 1);

        // An aborted rated game changes nothing; an untimed one is a correspondence rating.
        let (id2, red2, _) = rated_game(&s, &key_a, &key_b, true).await;
        let (status, v) = s.action(&id2, "abort", Some(&red2), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let (id3, red3, _) = rated_game(&s, &key_b, &key_a, false).await;
        s.resign(&id3, &red3).await;
        let alice = page(&s, &a).await;
        assert_eq!(alice.ratings["xiangqi"].games, 1);
        assert_eq!(alice.correspondence["xiangqi"].games, 1);
        let (rows,): (i64,) = fetch_one(
            &s.config.database_url,
            "SELECT COUNT(*) FROM rating_history WHERE game_id = $1",
            &[&id2],
        )
        .await;
        assert_eq!(rows, 0, "the aborted game rated nobody");

        // Bob deletes himself in the middle of a rated game: the games stay on Alice's page,
        // without him; the game still rates Alice, and Bob's ratings stay gone.
        let (id4, red4, black4) = rated_game(&s, &key_a, &key_b, true).await;
        s.play(&id4, &red4, "h2e2").await;
        s.play(&id4, &black4, "h9g7").await;
        let (status, _) = s
            .as_player(Method::DELETE, "/api/players/me", Some(&key_b), None)
            .await;
        assert_eq!(status, StatusCode::NO_CONTENT);
        s.resign(&id4, &black4).await;
        let (kept,): (i64,) = fetch_one(
            &s.config.database_url,
            "SELECT COUNT(*) FROM ratings WHERE player_id = $1",
            &[&b],
        )
        .await;
        assert_eq!(kept, 0, "a deleted player's ratings are not written again");
        assert_eq!(page(&s, &a).await.ratings["xiangqi"].games, 2);
        let alice = page(&s, &a).await;
        let first = alice
            .games
            .iter()
            .find(|g| g.id == id)
            .expect("the game stays");
        assert_eq!(first.opponent, None, "shown as a deleted player");
        assert_eq!(first.result.as_deref(), Some("win"));
        s.stop().await;
    }
);

on_both!(
    rated_play_refuses_what_it_must,
    |s: TestServer| async move {
        let (_, key) = new_player(&s, None).await;
        // Without a key, with a wrong key, against the computer, from a custom start.
        assert_refused(
            s.post(
                "/api/games",
                None,
                json!({"variant": "xiangqi", "rated": true}),
            )
            .await,
            StatusCode::UNAUTHORIZED,
            "player_key_required",
        );
        assert_refused(
            s.as_player(
                Method::POST,
                "/api/games",
                Some("wrong"),
                Some(json!({"variant": "xiangqi"})),
            )
            .await,
            StatusCode::UNAUTHORIZED,
            "wrong_player_key",
        );
        for body in [
            json!({"variant": "xiangqi", "rated": true, "opponent": {"computer": 1}}),
            json!({"variant": "shogi", "rated": true, "handicap": "lance"}),
        ] {
            assert_refused(
                s.as_player(Method::POST, "/api/games", Some(&key), Some(body))
                    .await,
                StatusCode::BAD_REQUEST,
                "rated_not_allowed",
            );
        }
        // The same player cannot take both seats; an anonymous joiner cannot take a rated seat.
        let (status, v) = s
            .as_player(
                Method::POST,
                "/api/games",
                Some(&key),
                Some(json!({"variant": "xiangqi", "rated": true})),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let id = v["id"].as_str().unwrap();
        assert_refused(
            join(&s, id, Some(&key)).await,
            StatusCode::CONFLICT,
            "same_player",
        );
        assert_refused(
            join(&s, id, None).await,
            StatusCode::UNAUTHORIZED,
            "player_key_required",
        );
        assert_refused(
            join(&s, id, Some("wrong")).await,
            StatusCode::UNAUTHORIZED,
            "wrong_player_key",
        );
        let view = s.view(id, None).await;
        assert_eq!(view["status"], "waiting", "nothing was seated: {view}");
        // A casual game played by players changes no rating.
        let (_, other) = new_player(&s, None).await;
        let (status, v) = s
            .as_player(
                Method::POST,
                "/api/games",
                Some(&key),
                Some(json!({"variant": "xiangqi", "side": "red"})),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{v}");
        let casual = v["id"].as_str().unwrap().to_owned();
        let (status, v) = join(&s, &casual, Some(&other)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        s.resign(&casual, v["token"].as_str().unwrap()).await;
        let (_, v) = my_page(&s, &key).await;
        let me: PlayerView = typed(&v);
        assert!(me.ratings.is_empty(), "{me:?}");
        assert_eq!(me.games[0].id, casual);
        assert!(!me.games[0].rated);
        s.stop().await;
    }
);

on_both!(
    players_are_created_at_a_limited_rate,
    |c: &mut jiang_server::Config| {
        c.player_rate = jiang_server::Rate {
            per_second: 0.001,
            burst: 2.0,
        }
    },
    |s: TestServer| async move {
        new_player(&s, None).await;
        new_player(&s, None).await;
        assert_refused(
            s.as_player(Method::POST, "/api/players", None, Some(json!({})))
                .await,
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
        );
        s.stop().await;
    }
);

/// Makes the database fail the insert of player `victim`'s rating history row: when it is the
/// second side's, that is inside a rated game's end, after the first side's rating and history
/// were written.
async fn fail_history_of(url: &str, victim: &str) {
    let statements: Vec<String> = if url.starts_with("postgres") {
        vec![
            "CREATE FUNCTION fail_history() RETURNS trigger AS $$ BEGIN \
             RAISE EXCEPTION 'injected'; END; $$ LANGUAGE plpgsql"
                .into(),
            format!(
                "CREATE TRIGGER fail_history BEFORE INSERT ON rating_history FOR EACH ROW \
                 WHEN (NEW.player_id = '{victim}') EXECUTE FUNCTION fail_history()"
            ),
        ]
    } else {
        vec![format!(
            "CREATE TRIGGER fail_history BEFORE INSERT ON rating_history \
             WHEN NEW.player_id = '{victim}' BEGIN SELECT RAISE(ABORT, 'injected'); END"
        )]
    };
    run(url, &statements).await;
}

/// Runs `statements` on the database at `url` with a connection of the test's own.
async fn run(url: &str, statements: &[String]) {
    if url.starts_with("postgres") {
        let pool = sqlx::PgPool::connect(url).await.unwrap();
        for sql in statements {
            sqlx::query(sql).execute(&pool).await.unwrap();
        }
        pool.close().await;
    } else {
        let pool = sqlx::SqlitePool::connect(url).await.unwrap();
        for sql in statements {
            sqlx::query(sql).execute(&pool).await.unwrap();
        }
        pool.close().await;
    }
}

on_both!(
    a_failed_end_rates_neither_side,
    |s: TestServer| async move {
        let (a, key_a) = new_player(&s, None).await;
        let (b, key_b) = new_player(&s, None).await;
        let (id, red, black) = rated_game(&s, &key_a, &key_b, true).await;
        // Black's history row is written after red's rating and history: they roll back too.
        fail_history_of(&s.config.database_url, &b).await;
        let (status, v) = s.action(&id, "resign", Some(&black), json!({})).await;
        assert!(status.is_server_error(), "{status} {v}");
        for p in [&a, &b] {
            let (rows,): (i64,) = fetch_one(
                &s.config.database_url,
                "SELECT COUNT(*) FROM ratings WHERE player_id = $1 AND games > 0",
                &[p],
            )
            .await;
            assert_eq!(rows, 0, "nobody is rated by a failed end");
            assert!(page(&s, p).await.ratings.is_empty());
        }
        let view = s.view(&id, Some(&red)).await;
        assert_eq!(view["status"], "playing", "the end was not stored: {view}");

        let drop = if s.config.database_url.starts_with("postgres") {
            "DROP TRIGGER fail_history ON rating_history"
        } else {
            "DROP TRIGGER fail_history"
        };
        run(&s.config.database_url, &[drop.to_owned()]).await;
        s.resign(&id, &black).await;
        assert_eq!(page(&s, &a).await.ratings["xiangqi"].games, 1);
        assert_eq!(page(&s, &b).await.ratings["xiangqi"].games, 1);
        s.stop().await;
    }
);

on_both!(
    rated_quick_pairing_meets_players_and_ranks_them,
    |s: TestServer| async move {
        let (a, key_a) = new_player(&s, Some("pa")).await;
        let (b, key_b) = new_player(&s, Some("pb")).await;
        let pair = |key: String| {
            let s = &s;
            async move {
                let body = json!({"variant": "xiangqi", "clock": {"main": 180, "increment": 2}, "rated": true});
                s.as_player(Method::POST, "/api/lobby/pair", Some(&key), Some(body))
                    .await
            }
        };
        let (status, first) = pair(key_a.clone()).await;
        assert_eq!(status, StatusCode::CREATED, "{first}");
        let (_, lobby) = s.get("/api/lobby", None).await;
        let seek = &lobby["seeks"][0];
        assert_eq!(seek["rated"], true, "{lobby}");
        assert_eq!(seek["player"]["name"], "pa", "{lobby}");
        assert_eq!(seek["player"]["rating"], 1500, "{lobby}");
        // The same player does not meet itself: a second seek is opened instead.
        let (status, again) = pair(key_a.clone()).await;
        assert_eq!(status, StatusCode::CREATED, "{again}");
        // A casual pairing does not take a rated seek.
        let (status, casual) = s
            .post(
                "/api/lobby/pair",
                None,
                json!({"variant": "xiangqi", "clock": {"main": 180, "increment": 2}}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{casual}");
        let (status, second) = pair(key_b.clone()).await;
        assert_eq!(status, StatusCode::OK, "{second}");
        assert_eq!(second["id"], first["id"]);
        let id = first["id"].as_str().unwrap();
        let view = s.view(id, None).await;
        assert_eq!(view["rated"], true);
        let players = view["players"].as_object().unwrap();
        assert!(
            players.values().any(|p| p == &json!(a)) && players.values().any(|p| p == &json!(b))
        );

        let (status, board) = s.get("/api/leaderboard/xiangqi", None).await;
        assert_eq!(status, StatusCode::OK, "{board}");
        let board: Leaderboard = typed(&board);
        assert!(
            board.players.is_empty(),
            "provisional players are not listed"
        );
        assert_refused(
            s.get("/api/leaderboard/chess", None).await,
            StatusCode::BAD_REQUEST,
            "unknown_variant",
        );
        s.stop().await;
    }
);

/// The leaderboard lists players once their deviation is at most 110, best first.
#[tokio::test]
async fn the_leaderboard_lists_established_players_best_first() {
    let s = TestServer::with(Backend::Sqlite, "leaderboard", |_| {}).await;
    let (a, key_a) = new_player(&s, Some("strong")).await;
    let (b, key_b) = new_player(&s, Some("weak")).await;
    // Glicko-2 with one game a period: 16 games (two wins to one) bring the deviation of
    // both under 110; after 15 they are still provisional.
    for i in 0..16 {
        if i == 15 {
            let (_, board) = s.get("/api/leaderboard/xiangqi", None).await;
            assert!(typed::<Leaderboard>(&board).players.is_empty(), "{board}");
        }
        let (id, red, black) = rated_game(&s, &key_a, &key_b, true).await;
        s.resign(&id, if i % 3 == 2 { &red } else { &black }).await;
    }
    let (_, board) = s.get("/api/leaderboard/xiangqi", None).await;
    let board: Leaderboard = typed(&board);
    let ids: Vec<&str> = board.players.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, [a.as_str(), b.as_str()], "{board:?}");
    assert!(board.players[0].rating > board.players[1].rating);
    assert!(
        board
            .players
            .iter()
            .all(|p| p.deviation <= 110 && p.games == 16)
    );
    s.stop().await;
}

on_both!(
    the_browser_keeps_the_key_in_a_same_site_cookie,
    |s: TestServer| async move {
        let (id, key) = new_player(&s, Some("carrier")).await;
        let keep = "/api/players/me/cookie";
        assert_refused(
            s.as_player(Method::POST, keep, None, Some(json!({}))).await,
            StatusCode::UNAUTHORIZED,
            "player_key_required",
        );
        assert_refused(
            s.as_player(Method::POST, keep, Some("wrong"), Some(json!({})))
                .await,
            StatusCode::UNAUTHORIZED,
            "wrong_player_key",
        );
        // The carry link's landing: the key from the header is kept in the cookie.
        let answer = s
            .http
            .post(s.url(keep))
            .header("authorization", format!("Player {key}"))
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), StatusCode::OK);
        let cookie = answer.headers()["set-cookie"].to_str().unwrap().to_owned();
        assert!(
            cookie.starts_with(&format!("jiang_player={key};")),
            "{cookie}"
        );
        assert!(
            cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
            "{cookie}"
        );
        let page: PlayerView = typed(&answer.json().await.unwrap());
        assert_eq!(page.id, id);

        // The cookie identifies the player for reads and for changes from the site's own pages …
        let with_cookie = |request: reqwest::RequestBuilder| {
            request.header("cookie", format!("jiang_player={key}"))
        };
        let me = with_cookie(s.http.get(s.url("/api/players/me")))
            .send()
            .await
            .unwrap();
        assert_eq!(me.status(), StatusCode::OK);
        let rename = |origin: &str| {
            with_cookie(s.http.patch(s.url("/api/players/me")))
                .header("origin", origin)
                .header(
                    "sec-fetch-site",
                    if origin == s.base {
                        "same-origin"
                    } else {
                        "cross-site"
                    },
                )
                .json(&json!({"name": "renamed"}))
        };
        // … but no other site can make a visitor's browser change the player.
        let refused = rename("http://evil.example").send().await.unwrap();
        assert_eq!(refused.status(), StatusCode::FORBIDDEN);
        assert_eq!(page_name(&s, &id).await, Some("carrier".to_owned()));
        let done = rename(&s.base).send().await.unwrap();
        assert_eq!(done.status(), StatusCode::OK);
        assert_eq!(page_name(&s, &id).await, Some("renamed".to_owned()));
        // A seat taken with the cookie is the player's, from the site's own pages only.
        let create = |origin: Option<&str>| {
            let mut request = with_cookie(s.http.post(s.url("/api/games")));
            if let Some(origin) = origin {
                request = request
                    .header("origin", origin)
                    .header("sec-fetch-site", "same-origin");
            }
            request.json(&json!({"variant": "xiangqi", "rated": true}))
        };
        let refused = create(None).send().await.unwrap();
        assert_eq!(
            refused.status(),
            StatusCode::FORBIDDEN,
            "the cookie without Origin"
        );
        let created = create(Some(&s.base)).send().await.unwrap();
        assert_eq!(created.status(), StatusCode::CREATED);
        let game: Value = created.json().await.unwrap();
        let view = s.view(game["id"].as_str().unwrap(), None).await;
        assert_eq!(
            view["players"].as_object().unwrap().values().next(),
            Some(&json!(id))
        );
        // Nor create a player in it.
        let created = s
            .http
            .post(s.url("/api/players"))
            .header("origin", "http://evil.example")
            .header("sec-fetch-site", "cross-site")
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        assert_eq!(created.status(), StatusCode::FORBIDDEN);

        // Forgetting clears the cookie; the key itself still works.
        let forgot = s.http.delete(s.url(keep)).send().await.unwrap();
        assert_eq!(forgot.status(), StatusCode::NO_CONTENT);
        let cleared = forgot.headers()["set-cookie"].to_str().unwrap();
        assert!(
            cleared.starts_with("jiang_player=;") && cleared.contains("Max-Age=0"),
            "{cleared}"
        );
        assert_eq!(my_page(&s, &key).await.0, StatusCode::OK);
        s.stop().await;
    }
);

/// A player's name as its page says.
async fn page_name(s: &TestServer, id: &str) -> Option<String> {
    page(s, id).await.name
}

#[tokio::test]
async fn the_carry_code_is_an_svg_qr_code() {
    let s = TestServer::start().await;
    let answer = s
        .http
        .post(s.url("/api/qr"))
        .json(&json!({"text": "http://127.0.0.1/#key=abc"}))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    assert_eq!(answer.headers()["content-type"], "image/svg+xml");
    assert_eq!(answer.headers()["cache-control"], "no-store");
    let svg = answer.text().await.unwrap();
    assert!(svg.contains("<svg") && svg.contains("<path"), "{svg}");
    for text in [String::new(), "x".repeat(513)] {
        assert_refused(
            s.post("/api/qr", None, json!({ "text": text })).await,
            StatusCode::BAD_REQUEST,
            "invalid_request",
        );
    }
    s.stop().await;
}

on_both!(
    rating_ranges_keep_seeks_for_players_within_them,
    |s: TestServer| async move {
        let (_, key_a) = new_player(&s, Some("ranger")).await;
        let (b, key_b) = new_player(&s, Some("rookie")).await;
        let clock = json!({"main": 300, "increment": 3});
        let seek = |range: [i64; 2]| {
            let body = json!({"variant": "xiangqi", "side": "red", "open": true, "clock": clock,
                          "rating_range": range});
            s.as_player(Method::POST, "/api/games", Some(&key_a), Some(body))
        };
        let (status, high) = seek([1600, 1800]).await;
        assert_eq!(status, StatusCode::CREATED, "{high}");
        let high = high["id"].as_str().unwrap().to_owned();
        let (_, lobby) = s.get("/api/lobby", None).await;
        assert_eq!(
            lobby["seeks"][0]["rating_range"],
            json!([1600, 1800]),
            "{lobby}"
        );
        assert_refused(
            join(&s, &high, None).await,
            StatusCode::UNAUTHORIZED,
            "player_key_required",
        );
        // A new player's 1500 is not in 1600–1800: refused, and quick pairing passes it by.
        assert_refused(
            join(&s, &high, Some(&key_b)).await,
            StatusCode::CONFLICT,
            "rating_out_of_range",
        );
        let pair = json!({"variant": "xiangqi", "clock": clock});
        let (status, paired) = s
            .as_player(Method::POST, "/api/lobby/pair", Some(&key_b), Some(pair))
            .await;
        assert_eq!(
            status,
            StatusCode::CREATED,
            "a new seek, not the ranged one: {paired}"
        );
        assert_refused(
            s.post(
                "/api/games",
                None,
                json!({"variant": "xiangqi", "rating_range": [1600, 1500]}),
            )
            .await,
            StatusCode::BAD_REQUEST,
            "invalid_request",
        );
        // Within 1400–1600 the same player joins; the Watch list names both players.
        let (_, near) = seek([1400, 1600]).await;
        let near = near["id"].as_str().unwrap().to_owned();
        let (status, v) = join(&s, &near, Some(&key_b)).await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let mut listed = Value::Null;
        for _ in 0..50 {
            let (_, lobby) = s.get("/api/lobby", None).await;
            if let Some(game) = lobby["games"]
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["id"] == near)
            {
                listed = game.clone();
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert_eq!(listed["players"]["red"]["name"], "ranger", "{listed}");
        assert_eq!(listed["players"]["black"]["id"], json!(b), "{listed}");
        assert_eq!(listed["players"]["black"]["rating"], 1500, "{listed}");
        s.stop().await;
    }
);

/// Joins game `id` as the player of `key` (or anonymously).
async fn join(s: &TestServer, id: &str, key: Option<&str>) -> (StatusCode, Value) {
    let path = format!("/api/games/{id}/join");
    s.as_player(Method::POST, &path, key, Some(json!({}))).await
}

on_both!(
    a_rated_rematch_is_rated_between_the_same_players,
    |s: TestServer| async move {
        let (a, key_a) = new_player(&s, None).await;
        let (b, key_b) = new_player(&s, None).await;
        let (id, red, black) = rated_game(&s, &key_a, &key_b, true).await;
        s.resign(&id, &black).await;
        for token in [&red, &black] {
            let (status, v) = s.action(&id, "rematch", Some(token), json!({})).await;
            assert_eq!(status, StatusCode::OK, "{v}");
        }
        let next = s.view(&id, None).await["rematch"]["id"].clone();
        let next = next.as_str().expect("the rematch exists");
        let view = s.view(next, None).await;
        assert_eq!(view["rated"], true, "{view}");
        // Sides swap: Alice plays black now.
        assert_eq!(view["players"], json!({"red": b, "black": a}), "{view}");
        s.stop().await;
    }
);
