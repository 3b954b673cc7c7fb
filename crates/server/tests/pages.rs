//! Page serving end to end: the meta description in the reader's language, and HTTP
//! compression (gzip, brotli) of text responses, never of WebSocket upgrades.

mod common;

use std::io::Read;

use common::{TestServer, next_json};
use reqwest::StatusCode;
use reqwest::header::{ACCEPT_ENCODING, ACCEPT_LANGUAGE, CONTENT_ENCODING, VARY};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// `meta.description` of `web/locales/<lang>.json`, as written in the source tree.
fn locale_description(lang: &str) -> String {
    let path = format!(
        "{}/../../web/locales/{lang}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let catalogue: Value = serde_json::from_str(&text).expect("locale JSON");
    catalogue["meta.description"]
        .as_str()
        .unwrap_or_else(|| panic!("{lang} has meta.description"))
        .to_owned()
}

/// The `content` of the page's `<meta name="description">`.
fn meta_description(html: &str) -> &str {
    let start = html
        .find(r#"<meta name="description" content=""#)
        .expect("a meta description")
        + r#"<meta name="description" content=""#.len();
    let end = start + html[start..].find('"').expect("closing quote");
    &html[start..end]
}

#[tokio::test]
async fn the_meta_description_is_in_the_negotiated_language() {
    let s = TestServer::start().await;
    let english = locale_description("en");
    for (path, accept, cookie, lang) in [
        ("/", None, None, "en"),
        ("/", Some("ja,en;q=0.5"), None, "ja"),
        ("/", Some("hu-HU"), None, "hu"),
        ("/rules/shogi", Some("zh-TW"), None, "zh-Hant"),
        ("/rules/xiangqi", Some("zh-CN"), None, "zh-Hans"),
        ("/g/abcdefgh", Some("vi"), None, "vi"),
        // The tournaments' pages (issue 25).
        ("/tournaments", Some("pl"), None, "pl"),
        ("/tournament/Qx81hZ0a", Some("it-IT"), None, "it"),
        // The cookie (the language picker's choice) wins over the browser's languages.
        ("/", Some("ja"), Some("lang=es"), "es"),
        ("/", Some("de-CH,de;q=0.9"), None, "de"),
        ("/", Some("pt-PT"), None, "pt-BR"),
        ("/", Some("sv"), None, "en"),
        // The address's `?lang=` (a search engine's alternate) wins over both.
        ("/rules/shogi?lang=ko", Some("ja"), Some("lang=es"), "ko"),
        ("/?lang=xx", Some("ru"), None, "ru"),
    ] {
        let mut request = s.http.get(s.url(path));
        if let Some(accept) = accept {
            request = request.header(ACCEPT_LANGUAGE, accept);
        }
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let html = response.text().await.unwrap();
        assert!(
            html.contains(&format!(r#"<html lang="{lang}">"#)),
            "{path} {accept:?}"
        );
        let expected = locale_description(lang);
        assert_eq!(meta_description(&html), expected, "{path} {accept:?}");
        if lang != "en" {
            assert_ne!(meta_description(&html), english, "{lang} is not English");
        }
        assert!(!html.contains("{{"), "every placeholder filled in: {path}");
        // The same page in every language, for search engines.
        let page = path.split('?').next().unwrap();
        for other in jiang_server::http::pages::LANGUAGES {
            let link =
                format!(r#"<link rel="alternate" hreflang="{other}" href="{page}?lang={other}">"#);
            assert!(html.contains(&link), "{path}: {link}");
        }
        let default = format!(r#"<link rel="alternate" hreflang="x-default" href="{page}">"#);
        assert!(html.contains(&default), "{path}");
    }
    s.stop().await;
}

/// GET `path` with `accept_encoding` (none: no header); returns the status, the
/// `Content-Encoding`, the `Vary` values and the body as received.
async fn fetch(
    s: &TestServer,
    path: &str,
    accept_encoding: Option<&str>,
) -> (StatusCode, Option<String>, String, Vec<u8>) {
    let mut request = s.http.get(s.url(path));
    if let Some(accept) = accept_encoding {
        request = request.header(ACCEPT_ENCODING, accept);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    let encoding = response
        .headers()
        .get(CONTENT_ENCODING)
        .map(|v| v.to_str().unwrap().to_owned());
    let vary = response
        .headers()
        .get_all(VARY)
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect::<Vec<_>>()
        .join(", ");
    let body = response.bytes().await.unwrap().to_vec();
    (status, encoding, vary, body)
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("valid gzip");
    out
}

fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut out)
        .expect("valid brotli");
    out
}

#[tokio::test]
async fn text_responses_are_compressed_as_the_client_asks() {
    let s = TestServer::start().await;
    let (id, _, _) = s.create(json!({"variant": "xiangqi", "side": "red"})).await;
    let view = format!("/api/games/{id}");
    for path in [
        "/",
        "/static/js/game.js",
        "/static/js/board.js",
        "/static/css/app.css",
        "/static/locales/hu.json",
        "/static/img/icon.svg",
        "/static/content/rules/xiangqi.en.html",
        view.as_str(),
    ] {
        let (status, encoding, _, identity) = fetch(&s, path, None).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert_eq!(encoding, None, "{path}: no Accept-Encoding, no compression");
        let (_, encoding, vary, br) = fetch(&s, path, Some("gzip, deflate, br")).await;
        assert_eq!(encoding.as_deref(), Some("br"), "{path}: brotli preferred");
        assert!(
            vary.to_ascii_lowercase().contains("accept-encoding"),
            "{path}: {vary}"
        );
        assert_eq!(
            unbrotli(&br),
            identity,
            "{path}: brotli gives the same bytes"
        );
        if path.starts_with("/static/") {
            // Embedded assets: precompressed once at brotli's best quality, in the background
            // after the first request (which got brotli made on the fly).
            let best = jiang_server::http::pages::brotli_best(&identity);
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
            loop {
                let (_, encoding, _, again) = fetch(&s, path, Some("br")).await;
                assert_eq!(encoding.as_deref(), Some("br"), "{path}");
                assert_eq!(unbrotli(&again), identity, "{path}");
                if again == best {
                    break;
                }
                assert!(
                    std::time::Instant::now() < deadline,
                    "{path}: never precompressed"
                );
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
        }
        let (_, encoding, _, gz) = fetch(&s, path, Some("gzip")).await;
        assert_eq!(encoding.as_deref(), Some("gzip"), "{path}");
        assert_eq!(gunzip(&gz), identity, "{path}: gzip gives the same bytes");
        assert!(
            br.len() < identity.len() && gz.len() < identity.len(),
            "{path}"
        );
        // Refusing both (q=0) gets the identity bytes.
        let (_, encoding, _, plain) = fetch(&s, path, Some("gzip;q=0, br;q=0, identity")).await;
        assert_eq!(encoding, None, "{path}");
        assert_eq!(plain, identity, "{path}");
        eprintln!(
            "{path}: identity {} B, gzip {} B, brotli {} B",
            identity.len(),
            gz.len(),
            br.len()
        );
    }
    // Small bodies are sent as they are.
    let (status, encoding, _, body) = fetch(&s, "/healthz", Some("gzip, br")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(encoding, None, "{}", String::from_utf8_lossy(&body));
    // Each representation has its own tag, and revalidates to a 304 without a body.
    let server = &s;
    let etag = |accept: &'static str| async move {
        server
            .http
            .get(server.url("/static/js/game.js"))
            .header(ACCEPT_ENCODING, accept)
            .send()
            .await
            .unwrap()
            .headers()["etag"]
            .clone()
    };
    let (identity_tag, br_tag) = (etag("identity").await, etag("br").await);
    assert_ne!(identity_tag, br_tag);
    for (accept, tag) in [("identity", &identity_tag), ("br", &br_tag)] {
        let response = s
            .http
            .get(s.url("/static/js/game.js"))
            .header(ACCEPT_ENCODING, accept)
            .header("if-none-match", tag)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::NOT_MODIFIED, "{accept}");
        assert!(response.headers().get(CONTENT_ENCODING).is_none());
        assert!(response.bytes().await.unwrap().is_empty());
    }
    s.stop().await;
}

#[tokio::test]
async fn websocket_upgrades_are_never_compressed() {
    let s = TestServer::start().await;
    let (id, _, token) = s.create(json!({"variant": "shogi", "side": "sente"})).await;
    let mut request = s.ws_url(&id, Some(&token)).into_client_request().unwrap();
    request
        .headers_mut()
        .insert(ACCEPT_ENCODING.as_str(), "gzip, br".parse().unwrap());
    let (mut socket, response) = tokio_tungstenite::connect_async(request)
        .await
        .expect("the upgrade succeeds with Accept-Encoding");
    assert_eq!(response.status().as_u16(), 101);
    assert!(response.headers().get(CONTENT_ENCODING.as_str()).is_none());
    // The socket speaks plain JSON frames.
    let first = next_json(&mut socket).await;
    assert!(first.is_object(), "{first}");
    s.stop().await;
}
