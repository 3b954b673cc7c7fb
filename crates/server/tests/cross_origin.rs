//! Cross-site request forgery: a page of another origin must not act for a player through the
//! seat cookie the browser attaches on its own (issue 9, point 4). A real server on a random
//! port, real HTTP requests and real WebSocket handshakes with the headers a browser would send.

mod common;

use common::{Backend, TestServer, connect, next_of};
use jiang_server::Config;
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

const EVIL: &str = "http://evil.example";

/// A server whose public URL is `public_url` (default: `http://<listen address>`).
async fn server(public_url: Option<&str>) -> TestServer {
    let public_url = public_url.map(str::to_owned);
    TestServer::with(Backend::Sqlite, "cross_origin", |c: &mut Config| {
        c.public_url = public_url;
    })
    .await
}

/// The `Set-Cookie` header of a response (the seat cookie).
fn set_cookie(response: &reqwest::Response) -> String {
    response.headers()[reqwest::header::SET_COOKIE]
        .to_str()
        .expect("ASCII cookie")
        .to_owned()
}

/// A xiangqi game created from the server's own page, red for the creator; then joined by a
/// bearer client. Returns (id, the creator's `name=value` seat cookie, red's token, black's
/// token).
async fn game_with_cookie(s: &TestServer) -> (String, String, String, String) {
    let response = s
        .http
        .post(s.url("/api/games"))
        .header("origin", &s.base)
        .json(&json!({"variant": "xiangqi", "side": "red"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let cookie = set_cookie(&response);
    let created: Value = response.json().await.unwrap();
    let id = created["id"].as_str().unwrap().to_owned();
    let red = created["token"].as_str().unwrap().to_owned();
    let pair = cookie.split(';').next().unwrap().to_owned();
    assert_eq!(pair, format!("jiang_seat_{id}={red}"));
    let (_, black) = s.join(&id).await;
    (id, pair, red, black)
}

/// A fresh server (default public URL) with a [`game_with_cookie`] on it: (server, id, the
/// creator's seat cookie, red's token, black's token).
async fn cookie_game() -> (TestServer, String, String, String, String) {
    let s = server(None).await;
    let (id, cookie, red, black) = game_with_cookie(&s).await;
    (s, id, cookie, red, black)
}

/// The body of red's first move in [`game_with_cookie`]'s game.
const H2E2: &str = r#"{"move":"h2e2"}"#;

/// The headers of a browser's request with the seat `cookie`, from `origin`, of `content_type`.
fn browser<'a>(
    cookie: &'a str,
    origin: &'a str,
    content_type: &'a str,
) -> [(&'static str, &'a str); 3] {
    [
        ("cookie", cookie),
        ("origin", origin),
        ("content-type", content_type),
    ]
}

/// Creates a game from `body` as a plain browser request: the whole `Set-Cookie` header (checked
/// to be `HttpOnly` and `SameSite=Lax`) and the answer.
async fn create_in_browser(s: &TestServer, body: Value) -> (String, Value) {
    let response = s
        .http
        .post(s.url("/api/games"))
        .json(&body)
        .send()
        .await
        .unwrap();
    let cookie = set_cookie(&response);
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"),
        "{cookie}"
    );
    (cookie, response.json().await.unwrap())
}

/// POSTs `body` to `path` with exactly these headers; (status, JSON answer).
async fn post(
    s: &TestServer,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (StatusCode, Value) {
    let mut request = s.http.post(s.url(path)).body(body.to_owned());
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.send().await.expect("request");
    let status = response.status();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// The number of moves and the status of game `id`, as a spectator sees them.
async fn progress(s: &TestServer, id: &str) -> (usize, String) {
    let v = s.view(id, None).await;
    (
        v["moves"].as_array().expect("moves").len(),
        v["status"].as_str().unwrap().to_owned(),
    )
}

/// Asserts that game `id` has `moves` moves and is still being played, then stops the server.
async fn still_playing_after(s: TestServer, id: &str, moves: usize) {
    assert_eq!(progress(&s, id).await, (moves, "playing".to_owned()));
    s.stop().await;
}

/// POSTs `body` to `path` with exactly these headers and asserts that it is refused as
/// `cross_origin` (403).
async fn assert_cross_origin_refused(
    s: &TestServer,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) {
    let got = post(s, path, headers, body).await;
    assert_refused(&got, StatusCode::FORBIDDEN, "cross_origin");
}

/// Asserts that `got` is a `cross_origin` refusal whose message says `words`.
fn assert_cross_origin_saying(got: &(StatusCode, Value), words: &str) {
    assert_refused(got, StatusCode::FORBIDDEN, "cross_origin");
    let message = got.1["error"]["message"].as_str().unwrap();
    assert!(message.contains(words), "{}", got.1);
}

fn assert_refused(got: &(StatusCode, Value), status: StatusCode, code: &str) {
    assert_eq!(got.0, status, "{}", got.1);
    assert_eq!(got.1["error"]["code"], code, "{}", got.1);
    assert!(
        got.1["error"]["message"]
            .as_str()
            .is_some_and(|m| m.len() > 20),
        "{}",
        got.1
    );
}

#[tokio::test]
async fn a_cross_origin_text_plain_move_with_the_cookie_is_refused_and_changes_nothing() {
    let (s, id, cookie, _, _) = cookie_game().await;
    let path = format!("/api/games/{id}/move");
    // What a <form enctype="text/plain"> or a no-cors fetch from evil.example sends.
    let got = post(&s, &path, &browser(&cookie, EVIL, "text/plain"), H2E2).await;
    assert_cross_origin_saying(&got, "`http://evil.example`");
    // Even declared JSON (which a browser would only send after a preflight) is refused.
    let json = browser(&cookie, EVIL, "application/json");
    assert_cross_origin_refused(&s, &path, &json, H2E2).await;
    still_playing_after(s, &id, 0).await;
}

#[tokio::test]
async fn a_cross_origin_form_encoded_resign_with_the_cookie_is_refused() {
    let (s, id, cookie, _, _) = cookie_game().await;
    let form = browser(&cookie, EVIL, "application/x-www-form-urlencoded");
    for action in ["resign", "abort"] {
        assert_cross_origin_refused(&s, &format!("/api/games/{id}/{action}"), &form, "").await;
    }
    // Another port of the same host is another origin (same site, so SameSite=Lax lets the
    // cookie through; only the Origin check stops it).
    let (_, port) = s.base.rsplit_once(':').unwrap();
    let neighbour = format!("http://127.0.0.1:{}", port.parse::<u16>().unwrap() ^ 1);
    let json = browser(&cookie, &neighbour, "application/json");
    assert_cross_origin_refused(&s, &format!("/api/games/{id}/resign"), &json, "{}").await;
    still_playing_after(s, &id, 0).await;
}

#[tokio::test]
async fn same_origin_json_with_the_cookie_acts_and_other_content_types_are_refused() {
    let (s, id, cookie, _, black) = cookie_game().await;
    let path = format!("/api/games/{id}/move");
    // A same-origin form (or text/plain) post is refused by its content type.
    for content_type in ["text/plain", "application/x-www-form-urlencoded"] {
        let got = post(&s, &path, &browser(&cookie, &s.base, content_type), H2E2).await;
        assert_refused(
            &got,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
        );
    }
    assert_eq!(progress(&s, &id).await, (0, "playing".to_owned()));
    // The server's own page: JSON, its origin.
    let json = browser(&cookie, &s.base, "application/json; charset=utf-8");
    let got = post(&s, &path, &json, H2E2).await;
    assert_eq!(got.0, StatusCode::OK, "{}", got.1);
    assert_eq!(got.1["you"], "red");
    s.play(&id, &black, "h9g7").await;
    // The same server reached under another name: the Host header names the origin.
    let (_, port) = s.base.rsplit_once(':').unwrap();
    let host = format!("localhost:{port}");
    let got = post(
        &s,
        &path,
        &[
            ("cookie", &cookie),
            ("host", &host),
            ("origin", &format!("http://{host}")),
            ("content-type", "application/json"),
        ],
        r#"{"move":"h0g2"}"#,
    )
    .await;
    assert_eq!(got.0, StatusCode::OK, "{}", got.1);
    s.play(&id, &black, "b9c7").await;
    // Sec-Fetch-Site: same-origin without an Origin header is the server's own page too.
    let got = post(
        &s,
        &path,
        &[
            ("cookie", &cookie),
            ("sec-fetch-site", "same-origin"),
            ("content-type", "application/json"),
        ],
        r#"{"move":"b0c2"}"#,
    )
    .await;
    assert_eq!(got.0, StatusCode::OK, "{}", got.1);
    still_playing_after(s, &id, 5).await;
}

#[tokio::test]
async fn the_cookie_without_origin_or_sec_fetch_site_is_refused_and_cross_site_fetch_metadata_too()
{
    let (s, id, cookie, _, _) = cookie_game().await;
    let path = format!("/api/games/{id}/move");
    let json = ("content-type", "application/json");
    let got = post(&s, &path, &[("cookie", &cookie), json], H2E2).await;
    assert_cross_origin_saying(&got, "Authorization: Bearer");
    for site in ["cross-site", "same-site", "none"] {
        let headers = [("cookie", &*cookie), ("sec-fetch-site", site), json];
        assert_cross_origin_refused(&s, &path, &headers, H2E2).await;
    }
    // A browser's own page origin does not outweigh its own cross-site verdict.
    assert_cross_origin_refused(
        &s,
        &path,
        &[
            ("cookie", &cookie),
            ("origin", &s.base),
            ("sec-fetch-site", "cross-site"),
            json,
        ],
        H2E2,
    )
    .await;
    // `null` (a sandboxed frame, a data: page) is never this server.
    let headers = [("cookie", &*cookie), ("origin", "null"), json];
    assert_cross_origin_refused(&s, &path, &headers, H2E2).await;
    still_playing_after(s, &id, 0).await;
}

#[tokio::test]
async fn bearer_clients_are_unaffected_by_origin_and_content_type() {
    let (s, id, cookie, red, black) = cookie_game().await;
    let path = format!("/api/games/{id}/move");
    let red_auth = format!("Bearer {red}");
    let black_auth = format!("Bearer {black}");
    // No Origin, no content type at all.
    let got = post(&s, &path, &[("authorization", &red_auth)], H2E2).await;
    assert_eq!(got.0, StatusCode::OK, "{}", got.1);
    // Any Origin and content type: the token was given on purpose, not attached by a browser.
    let got = post(
        &s,
        &path,
        &[
            ("authorization", &black_auth),
            ("origin", EVIL),
            ("sec-fetch-site", "cross-site"),
            ("content-type", "text/plain"),
        ],
        r#"{"move":"h9g7"}"#,
    )
    .await;
    assert_eq!(got.0, StatusCode::OK, "{}", got.1);
    // The bearer header wins over a cookie: checked as a bearer request.
    let got = post(
        &s,
        &format!("/api/games/{id}/draw"),
        &[
            ("authorization", &red_auth),
            ("cookie", &cookie),
            ("origin", EVIL),
        ],
        r#"{"action":"offer"}"#,
    )
    .await;
    assert_eq!(got.0, StatusCode::OK, "{}", got.1);
    still_playing_after(s, &id, 2).await;
}

#[tokio::test]
async fn another_origin_can_neither_create_nor_join_in_a_visitors_browser() {
    let s = server(None).await;
    let (id, side, _) = s.create(json!({"variant": "shogi", "side": "sente"})).await;
    assert_eq!(side, "sente");
    let join = format!("/api/games/{id}/join");
    let form = ("content-type", "application/x-www-form-urlencoded");
    for headers in [
        vec![("origin", EVIL), form],
        vec![("origin", EVIL), ("content-type", "application/json")],
        vec![("sec-fetch-site", "cross-site"), form],
    ] {
        assert_cross_origin_refused(&s, &join, &headers, "").await;
        assert_cross_origin_refused(&s, "/api/games", &headers, r#"{"variant":"xiangqi"}"#).await;
    }
    // The server's own page must send JSON.
    let got = post(&s, &join, &[("origin", &s.base), form], "").await;
    assert_refused(
        &got,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported_media_type",
    );
    let v = s.view(&id, None).await;
    assert_eq!(
        (v["status"].as_str(), &v["seats"]["gote"]),
        (Some("waiting"), &json!(false))
    );
    // Non-browser clients (no Origin) join as before, whatever the content type.
    let got = post(&s, &join, &[("content-type", "text/plain")], "").await;
    assert_eq!(got.0, StatusCode::OK, "{}", got.1);
    assert_eq!(got.1["side"], "gote");
    // An action without any token from another origin is refused as cross-origin too.
    assert_cross_origin_refused(
        &s,
        &format!("/api/games/{id}/resign"),
        &[("origin", EVIL)],
        "",
    )
    .await;
    let got = post(&s, &format!("/api/games/{id}/resign"), &[], "").await;
    assert_refused(&got, StatusCode::UNAUTHORIZED, "missing_token");
    s.stop().await;
}

/// Opens a WebSocket to game `id` with these extra headers; the socket, or the refusal's status
/// and JSON body.
async fn handshake(
    s: &TestServer,
    id: &str,
    token: Option<&str>,
    headers: &[(&'static str, &str)],
) -> Result<common::Socket, (u16, Value)> {
    let mut request = s.ws_url(id, token).into_client_request().unwrap();
    for (name, value) in headers {
        request
            .headers_mut()
            .insert(*name, value.parse().expect("header value"));
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((socket, _)) => Ok(socket),
        Err(tungstenite::Error::Http(response)) => {
            let body = response.body().clone().unwrap_or_default();
            Err((
                response.status().as_u16(),
                serde_json::from_slice(&body).unwrap_or(Value::Null),
            ))
        }
        Err(e) => panic!("unexpected handshake error: {e}"),
    }
}

#[tokio::test]
async fn websocket_upgrades_from_another_origin_are_refused_and_never_get_the_seat() {
    let (s, id, cookie, red, _) = cookie_game().await;
    // Another origin, with the cookie or without: 403 before the upgrade.
    for headers in [
        vec![("cookie", cookie.as_str()), ("origin", EVIL)],
        vec![("origin", EVIL)],
        vec![("cookie", cookie.as_str()), ("origin", "null")],
        vec![
            ("cookie", cookie.as_str()),
            ("origin", s.base.as_str()),
            ("sec-fetch-site", "cross-site"),
        ],
    ] {
        let refused = handshake(&s, &id, None, &headers).await.err();
        let (status, body) = refused.unwrap_or_else(|| panic!("{headers:?} upgraded"));
        assert_eq!(status, 403, "{headers:?}: {body}");
        assert_eq!(body["error"]["code"], "cross_origin", "{body}");
    }
    // The cookie without any Origin (not a browser) is refused; without the cookie it watches.
    let (status, body) = handshake(&s, &id, None, &[("cookie", &cookie)])
        .await
        .expect_err("refused");
    assert_eq!(
        (status, &body["error"]["code"]),
        (403, &json!("cross_origin"))
    );
    let mut watcher = handshake(&s, &id, None, &[]).await.expect("spectator");
    assert_eq!(next_of(&mut watcher, "state").await["you"], Value::Null);
    // The server's own page gets the seat from the cookie, and can play.
    let mut own = handshake(&s, &id, None, &[("cookie", &cookie), ("origin", &s.base)])
        .await
        .expect("same origin upgrades");
    assert_eq!(next_of(&mut own, "state").await["you"], "red");
    common::send(&mut own, json!({"type": "move", "move": "h2e2"})).await;
    next_of(&mut own, "move").await;
    // An explicit token is the client's own choice: accepted from any origin.
    let mut explicit = handshake(&s, &id, Some(&red), &[("origin", EVIL)])
        .await
        .expect("explicit token upgrades");
    assert_eq!(next_of(&mut explicit, "state").await["you"], "red");
    // The plain harness connection (no Origin, token in the query) is unchanged.
    let mut plain = connect(&s.ws_url(&id, Some(&red))).await;
    assert_eq!(next_of(&mut plain, "state").await["you"], "red");
    still_playing_after(s, &id, 1).await;
}

#[tokio::test]
async fn the_seat_cookie_is_secure_exactly_when_the_public_url_is_https() {
    let s = server(None).await;
    let (cookie, _) = create_in_browser(&s, json!({"variant": "minishogi"})).await;
    assert!(!cookie.contains("Secure"), "{cookie}");
    s.stop().await;

    let s = server(Some("https://jiang.example/")).await;
    let body = json!({"variant": "minishogi", "side": "sente"});
    let (cookie, created) = create_in_browser(&s, body).await;
    assert!(cookie.ends_with("; Secure"), "{cookie}");
    let id = created["id"].as_str().unwrap().to_owned();
    assert_eq!(created["url"], format!("https://jiang.example/g/{id}"));
    let response = s.join_response(&id).await;
    assert!(set_cookie(&response).ends_with("; Secure"));
    // Behind the TLS proxy, the public origin is the server's own page.
    let pair = cookie.split(';').next().unwrap();
    let json = browser(pair, "https://jiang.example", "application/json");
    let got = post(
        &s,
        &format!("/api/games/{id}/move"),
        &json,
        r#"{"move":"5d5c"}"#,
    )
    .await;
    assert_eq!(got.0, StatusCode::OK, "{}", got.1);
    // Its plain-HTTP twin is another origin.
    let json = browser(pair, "http://jiang.example", "application/json");
    assert_cross_origin_refused(&s, &format!("/api/games/{id}/resign"), &json, "{}").await;
    still_playing_after(s, &id, 1).await;
}

#[tokio::test]
async fn a_public_url_that_is_not_http_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let database = dir.path().join("jiang.db");
    for bad in ["jiang.example", "ftp://jiang.example", "https://"] {
        let config = Config {
            listen: "127.0.0.1:0".into(),
            database_url: format!("sqlite://{}", database.display()),
            public_url: Some(bad.into()),
            ..Config::default()
        };
        let error = jiang_server::start(config)
            .await
            .err()
            .unwrap_or_else(|| panic!("{bad} accepted"));
        assert!(error.to_string().contains(bad), "{error}");
    }
    assert!(
        !database.exists(),
        "no database is created for a bad configuration"
    );
}
