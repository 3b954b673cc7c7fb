//! The front end: `web/` embedded with rust-embed (read from disk in debug builds).
//!
//! `/`, `/g/{id}`, `/rules/{variant}`, `/analysis/{variant}`, `/editor/{variant}`,
//! `/puzzles/{variant}`, `/player/{who}`, `/tournaments` and `/tournament/{id}` all answer
//! `web/app.html` with `{{lang}}` (the `?lang=` of the address, else the `lang` cookie, else
//! Accept-Language), `{{alternates}}` (the same page in every language, as `hreflang` links
//! for search engines), `{{description}}` (the page's meta description in that language),
//! `{{version}}` and `{{commit}}` filled in; `/static/{path}` serves `web/{path}`.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use axum::Router;
use axum::body::Bytes;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rust_embed::RustEmbed;

use crate::http::extract::cookie;
use crate::http::state::AppState;

/// `web/` as served: the content authors' notes stay out of the binary.
#[derive(RustEmbed)]
#[folder = "../../web"]
#[exclude = "*.md"]
struct Web;

/// The languages of the UI, as `{{lang}}` values (BCP 47 tags; `web/js/i18n.js` lists the
/// same, with their names).
pub const LANGUAGES: [&str; 15] = [
    "en", "zh-Hans", "zh-Hant", "ja", "ko", "vi", "id", "es", "pt-BR", "fr", "it", "de", "pl",
    "ru", "hu",
];

/// The build's short git commit (or `unknown`).
pub const COMMIT: &str = env!("JIANG_COMMIT");

pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/", get(app))
        .route("/g/{id}", get(app))
        .route("/rules/{variant}", get(app))
        .route("/analysis/{variant}", get(app))
        .route("/editor/{variant}", get(app))
        .route("/puzzles", get(app))
        .route("/puzzles/{variant}", get(app))
        .route("/player/{who}", get(app))
        .route("/tournaments", get(app))
        .route("/tournament/{id}", get(app))
        .route("/static/{*path}", get(asset))
}

async fn app(uri: Uri, headers: HeaderMap) -> Response {
    let Some(file) = Web::get("app.html") else {
        return (StatusCode::INTERNAL_SERVER_ERROR, "web/app.html is missing").into_response();
    };
    let asked = uri.query().and_then(|query| {
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix("lang="))
            .and_then(|code| LANGUAGES.iter().find(|l| **l == code).copied())
    });
    let lang = asked.unwrap_or_else(|| {
        negotiate(
            cookie(&headers, "lang").as_deref(),
            headers
                .get(header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok()),
        )
    });
    let html = String::from_utf8_lossy(&file.data)
        .replace("{{lang}}", lang)
        .replace("{{alternates}}", &alternates(uri.path()))
        .replace("{{description}}", &escape_attribute(&description(lang)))
        .replace("{{version}}", env!("CARGO_PKG_VERSION"))
        .replace("{{commit}}", COMMIT);
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
            (header::VARY, "Cookie, Accept-Language"),
        ],
        html,
    )
        .into_response()
}

/// `<link rel="alternate" hreflang>` lines for the page at `path`: one per language (its
/// `?lang=` address) and `x-default` (the address that negotiates).
fn alternates(path: &str) -> String {
    let path = escape_attribute(path);
    let mut links: Vec<String> = LANGUAGES
        .iter()
        .map(|lang| {
            format!(r#"<link rel="alternate" hreflang="{lang}" href="{path}?lang={lang}">"#)
        })
        .collect();
    links.push(format!(
        r#"<link rel="alternate" hreflang="x-default" href="{path}">"#
    ));
    links.join("\n")
}

/// The meta description in `lang`: the locale's `meta.description`, else the English one (a
/// search engine shows it under the link, so it should be in the reader's language).
fn description(lang: &str) -> String {
    let read = |lang: &str| -> Option<String> {
        let file = Web::get(&format!("locales/{lang}.json"))?;
        let catalogue: serde_json::Value = serde_json::from_slice(&file.data).ok()?;
        Some(catalogue.get("meta.description")?.as_str()?.to_owned())
    };
    read(lang).or_else(|| read("en")).unwrap_or_default()
}

/// `text` made safe inside a double-quoted HTML attribute.
fn escape_attribute(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
    out
}

/// The UI language: the `lang` cookie if it names one, else the best match of
/// Accept-Language, else `en`.
pub fn negotiate(cookie: Option<&str>, accept_language: Option<&str>) -> &'static str {
    if let Some(lang) = cookie.and_then(|c| LANGUAGES.iter().find(|l| **l == c)) {
        return lang;
    }
    let mut best: Option<(f32, usize, &'static str)> = None;
    for (position, item) in accept_language.unwrap_or("").split(',').enumerate() {
        let mut parts = item.split(';');
        let tag = parts.next().unwrap_or("").trim();
        let q = parts
            .find_map(|p| p.trim().strip_prefix("q="))
            .and_then(|q| q.parse::<f32>().ok())
            .unwrap_or(1.0);
        let Some(lang) = match_tag(tag) else { continue };
        if q <= 0.0 {
            continue;
        }
        // Higher q wins; on a tie the earlier entry.
        if best.is_none_or(|(bq, bp, _)| q > bq || (q == bq && position < bp)) {
            best = Some((q, position, lang));
        }
    }
    best.map_or("en", |(_, _, lang)| lang)
}

fn match_tag(tag: &str) -> Option<&'static str> {
    let lower = tag.to_ascii_lowercase();
    let mut subtags = lower.split(['-', '_']);
    let primary = subtags.next()?;
    let rest: Vec<&str> = subtags.collect();
    Some(match primary {
        "en" => "en",
        "ja" => "ja",
        "ko" => "ko",
        "vi" => "vi",
        // `in` is Indonesian's withdrawn code, still sent by old Android systems.
        "id" | "in" => "id",
        "es" => "es",
        // Jiang's Portuguese is Brazil's; a reader of Portugal's reads it better than English.
        "pt" => "pt-BR",
        "fr" => "fr",
        "it" => "it",
        "de" => "de",
        "pl" => "pl",
        "ru" => "ru",
        "hu" => "hu",
        "zh" => {
            let traditional = rest
                .iter()
                .any(|s| matches!(*s, "hant" | "tw" | "hk" | "mo"));
            if traditional { "zh-Hant" } else { "zh-Hans" }
        }
        _ => return None,
    })
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next().unwrap_or("") {
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "html" => "text/html; charset=utf-8",
        "woff2" => "font/woff2",
        "png" => "image/png",
        "mp3" => "audio/mpeg",
        "ogg" => "audio/ogg",
        "txt" => "text/plain; charset=utf-8",
        "ico" => "image/x-icon",
        _ => "application/octet-stream",
    }
}

/// Brotli at its best quality for the embedded text assets: 16% smaller than the quality 4
/// used on the fly (the whole of `web/`: 181 KB at quality 4, 152 KB at 11), for about 1 s of
/// CPU once per process. Keyed by the file's SHA-256 (in debug builds `web/` is read from
/// disk, so an edited file gets a new entry); `None` while being computed.
static PRECOMPRESSED: LazyLock<Mutex<HashMap<[u8; 32], Option<Bytes>>>> =
    LazyLock::new(Default::default);

/// The brotli quality of [`PRECOMPRESSED`] (the highest).
pub const PRECOMPRESS_QUALITY: i32 = 11;
/// The brotli window of [`PRECOMPRESSED`] (log2 bytes; 22 is brotli's default).
pub const PRECOMPRESS_WINDOW: i32 = 22;

/// `data` compressed with brotli at [`PRECOMPRESS_QUALITY`] and [`PRECOMPRESS_WINDOW`].
pub fn brotli_best(data: &[u8]) -> Vec<u8> {
    let params = brotli::enc::BrotliEncoderParams {
        quality: PRECOMPRESS_QUALITY,
        lgwin: PRECOMPRESS_WINDOW,
        ..Default::default()
    };
    let mut out = Vec::with_capacity(data.len() / 3);
    // Writing to a Vec cannot fail.
    let _ = brotli::BrotliCompress(&mut &data[..], &mut out, &params);
    out
}

/// The asset's bytes as [`brotli_best`] made them, if they are ready. The first request for
/// a file starts compressing it on a blocking thread (a large file takes tens of milliseconds,
/// more in a debug build) and gets `None`: no request waits for it; meanwhile the compression
/// layer compresses on the fly.
fn precompressed(hash: [u8; 32], data: &[u8]) -> Option<Bytes> {
    let mut cache = PRECOMPRESSED.lock().ok()?;
    match cache.get(&hash) {
        Some(ready) => ready.clone(),
        None => {
            cache.insert(hash, None);
            let data = data.to_vec();
            tokio::task::spawn_blocking(move || {
                let compressed = Bytes::from(brotli_best(&data));
                if let Ok(mut cache) = PRECOMPRESSED.lock() {
                    cache.insert(hash, Some(compressed));
                }
            });
            None
        }
    }
}

/// The `q` the client's `Accept-Encoding` gives `coding` (0 when not listed; `*` counts).
fn accepted_quality(headers: &HeaderMap, coding: &str) -> f32 {
    let mut star = 0.0;
    for value in headers.get_all(header::ACCEPT_ENCODING) {
        for item in value.to_str().unwrap_or("").split(',') {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or("").trim();
            let q = parts
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if name.eq_ignore_ascii_case(coding) {
                return q;
            }
            if name == "*" {
                star = q;
            }
        }
    }
    star
}

/// Whether to send the precompressed brotli bytes: the client accepts brotli at least as
/// much as gzip (what the compression layer would choose too).
fn wants_brotli(headers: &HeaderMap) -> bool {
    let br = accepted_quality(headers, "br");
    br > 0.0 && br >= accepted_quality(headers, "gzip")
}

async fn asset(Path(path): Path<String>, headers: HeaderMap) -> Response {
    let safe = !path.is_empty()
        && !path.starts_with('/')
        && !path.contains('\\')
        && path
            .split('/')
            .all(|seg| !seg.is_empty() && seg != ".." && seg != ".");
    let file = if safe { Web::get(&path) } else { None };
    let Some(file) = file else {
        return (StatusCode::NOT_FOUND, "not found\n").into_response();
    };
    let hash = file.metadata.sha256_hash();
    let content_type = content_type(&path);
    let brotli = if crate::http::is_compressible_type(content_type)
        && file.data.len() >= usize::from(crate::http::COMPRESS_MIN_BYTES)
        && wants_brotli(&headers)
    {
        precompressed(hash, &file.data)
    } else {
        None
    };
    // Each representation has its own tag (RFC 9110, 8.8.3); gzip made on the fly by the
    // compression layer keeps the identity tag.
    let etag = format!(
        "\"{}{}\"",
        hex::encode(&hash[..12]),
        if brotli.is_some() { "-br" } else { "" }
    );
    let etag_value = HeaderValue::from_str(&etag).expect("hex etag");
    if headers
        .get(header::IF_NONE_MATCH)
        .is_some_and(|v| v.as_bytes() == etag.as_bytes())
    {
        return (
            StatusCode::NOT_MODIFIED,
            [
                (header::ETAG, etag_value),
                (header::VARY, HeaderValue::from_static("Accept-Encoding")),
            ],
        )
            .into_response();
    }
    let common = [
        (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
        (
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=300, must-revalidate"),
        ),
        (header::ETAG, etag_value),
    ];
    if let Some(body) = brotli {
        // The compression layer leaves a response that already has a Content-Encoding alone.
        return (
            common,
            [
                (header::CONTENT_ENCODING, HeaderValue::from_static("br")),
                (header::VARY, HeaderValue::from_static("Accept-Encoding")),
            ],
            body,
        )
            .into_response();
    }
    (common, file.data.into_owned()).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_are_negotiated() {
        assert_eq!(negotiate(Some("ja"), Some("en")), "ja");
        assert_eq!(negotiate(Some("xx"), Some("hu-HU,en;q=0.5")), "hu");
        assert_eq!(negotiate(None, Some("zh-TW,zh;q=0.9")), "zh-Hant");
        assert_eq!(negotiate(None, Some("zh-CN")), "zh-Hans");
        assert_eq!(negotiate(None, Some("sv, es;q=0.3, vi;q=0.8")), "vi");
        assert_eq!(negotiate(None, Some("de-AT,de;q=0.9")), "de");
        assert_eq!(negotiate(None, Some("pt-PT")), "pt-BR");
        assert_eq!(negotiate(None, Some("in-ID")), "id");
        assert_eq!(negotiate(None, Some("ko-KR")), "ko");
        assert_eq!(negotiate(None, Some("sv")), "en");
        assert_eq!(negotiate(None, None), "en");
    }

    #[test]
    fn every_language_has_its_own_meta_description() {
        let english = description("en");
        assert!(english.starts_with("Play Xiangqi"), "{english}");
        for lang in LANGUAGES.iter().filter(|l| **l != "en") {
            let text = description(lang);
            assert!(!text.is_empty() && text != english, "{lang}: {text}");
        }
        assert_eq!(
            description("xx"),
            english,
            "an unknown language falls back to English"
        );
    }

    #[test]
    fn brotli_is_chosen_as_the_compression_layer_would() {
        let wants = |accept: &str| {
            let mut headers = HeaderMap::new();
            headers.insert(
                header::ACCEPT_ENCODING,
                HeaderValue::from_str(accept).unwrap(),
            );
            wants_brotli(&headers)
        };
        assert!(wants("gzip, deflate, br"));
        assert!(wants("br"));
        assert!(wants("*"));
        assert!(!wants("gzip"));
        assert!(!wants("br;q=0, gzip"));
        assert!(!wants("br;q=0.5, gzip;q=0.8"));
        assert!(wants("gzip;q=0.5, br"));
        assert!(!wants("identity"));
        assert!(!wants_brotli(&HeaderMap::new()));
    }

    #[test]
    fn attributes_are_escaped() {
        assert_eq!(
            escape_attribute(r#"a "b" <c> & d"#),
            "a &quot;b&quot; &lt;c&gt; &amp; d"
        );
    }
}
