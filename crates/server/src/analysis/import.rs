//! `POST /api/import`: a record of any format read by the rules crate (format, variant and
//! encoding detected) and answered as the parsed game, or typed errors with the line.
//!
//! The body is JSON `{"text": "…", "variant": "shogi"}` (`variant` optional), a
//! `multipart/form-data` upload (the first file part, or a part named `text`; a `variant`
//! part optional), or the raw record bytes (any other content type, `?variant=` optional).
//! Raw and uploaded bytes may be UTF-8, Shift_JIS or EUC-JP.

use axum::body::Bytes;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use jiang_rules::Variant;
use jiang_rules::import::{Imported, import};
use serde_json::Value;

use crate::error::ApiError;
use jiang_protocol::{ErrorBody, ErrorCode, ErrorDetail, ImportedGame, ImportedResult};

/// Largest record accepted (a long KIF with comments stays far below).
pub(crate) const MAX_IMPORT: usize = 1 << 20;

/// `POST /api/import`.
pub(crate) async fn handler(
    axum::extract::RawQuery(query): axum::extract::RawQuery,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Response {
    match run(query.as_deref(), &headers, body) {
        Ok(value) => (StatusCode::OK, axum::Json(value)).into_response(),
        Err((status, body)) => (status, axum::Json(body)).into_response(),
    }
}

fn run(
    query: Option<&str>,
    headers: &HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Value, (StatusCode, Value)> {
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            api(ApiError::too_large(MAX_IMPORT))
        } else {
            api(ApiError::new(ErrorCode::BadBody, rejection.body_text()))
        }
    })?;
    let content_type = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_ascii_lowercase();
    let mut variant_name = query
        .unwrap_or("")
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == "variant")
        .map(|(_, v)| v.to_owned());
    let record: Vec<u8> = if content_type.starts_with("application/json") {
        let value: Value = serde_json::from_slice(&bytes).map_err(|e| {
            api(ApiError::new(
                ErrorCode::MalformedJson,
                format!("The body is not valid JSON: {e}."),
            ))
        })?;
        if let Some(v) = value.get("variant").and_then(Value::as_str) {
            variant_name = Some(v.to_owned());
        }
        value
            .get("text")
            .and_then(Value::as_str)
            .ok_or_else(|| {
                api(ApiError::new(
                    ErrorCode::MissingText,
                    "The JSON body needs a `text` field holding the record.",
                ))
            })?
            .as_bytes()
            .to_vec()
    } else if content_type.starts_with("multipart/form-data") {
        let boundary = content_type
            .split(';')
            .filter_map(|p| p.trim().strip_prefix("boundary="))
            .next()
            .map(|b| b.trim_matches('"').to_owned())
            .ok_or_else(|| {
                api(ApiError::new(
                    ErrorCode::BadBody,
                    "The multipart body has no boundary.",
                ))
            })?;
        // The boundary's case matters: take it from the original header.
        let original = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split("boundary=").nth(1))
            .map(|b| {
                b.split(';')
                    .next()
                    .unwrap_or(b)
                    .trim()
                    .trim_matches('"')
                    .to_owned()
            })
            .unwrap_or(boundary);
        let parts = multipart_parts(&bytes, &original);
        if let Some((_, _, v)) = parts.iter().find(|(name, _, _)| name == "variant") {
            variant_name = Some(String::from_utf8_lossy(v).trim().to_owned());
        }
        parts
            .iter()
            .find(|(_, file, _)| *file)
            .or_else(|| parts.iter().find(|(name, _, _)| name == "text"))
            .map(|(_, _, body)| body.clone())
            .ok_or_else(|| {
                api(ApiError::new(
                    ErrorCode::MissingText,
                    "The upload has no file part (nor a `text` part).",
                ))
            })?
    } else {
        bytes.to_vec()
    };
    let variant = match variant_name.as_deref().filter(|v| !v.is_empty()) {
        None => None,
        Some(name) => Some(name.parse::<Variant>().map_err(|_| {
            api(ApiError::new(
                ErrorCode::BadVariant,
                format!("Unknown variant `{name}`: expected xiangqi, jieqi, shogi or minishogi."),
            ))
        })?),
    };
    let game = import(&record, variant).map_err(|e| {
        let code = ErrorCode::from_name(e.code()).unwrap_or(ErrorCode::BadRecord);
        let body = ErrorBody {
            error: ErrorDetail {
                code,
                message: capitalised(&e.to_string()),
                detail: None,
                line: e.line().map(|l| l as u64),
                reason: None,
                params: Some(
                    e.params()
                        .into_iter()
                        .map(|(k, v)| (k.to_owned(), v))
                        .collect(),
                )
                .filter(|p: &std::collections::BTreeMap<String, String>| !p.is_empty()),
            },
        };
        (
            StatusCode::from_u16(code.status()).unwrap_or(StatusCode::BAD_REQUEST),
            jiang_protocol::to_sorted_value(&body),
        )
    })?;
    Ok(game_json(&game))
}

/// An API error as the status and body `run` fails with.
fn api(e: ApiError) -> (StatusCode, Value) {
    (e.status(), jiang_protocol::to_sorted_value(&e.body()))
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => {
            let mut s: String = c.to_uppercase().collect();
            s.push_str(chars.as_str());
            if !s.ends_with('.') {
                s.push('.');
            }
            s
        }
        None => String::new(),
    }
}

/// The parts of a multipart body: `(name, is a file, body)`.
fn multipart_parts(body: &[u8], boundary: &str) -> Vec<(String, bool, Vec<u8>)> {
    let delimiter = format!("--{boundary}");
    let mut out = Vec::new();
    for chunk in split_bytes(body, delimiter.as_bytes()).into_iter().skip(1) {
        if chunk.starts_with(b"--") {
            break;
        }
        let chunk = chunk.strip_prefix(b"\r\n").unwrap_or(chunk);
        let Some(split) = find(chunk, b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&chunk[..split]).to_ascii_lowercase();
        let mut content = &chunk[split + 4..];
        content = content.strip_suffix(b"\r\n").unwrap_or(content);
        let name = head
            .split("name=\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or("")
            .to_owned();
        let is_file = head.contains("filename=");
        out.push((name, is_file, content.to_vec()));
    }
    out
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn split_bytes<'a>(mut body: &'a [u8], delimiter: &[u8]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    while let Some(at) = find(body, delimiter) {
        out.push(&body[..at]);
        body = &body[at + delimiter.len()..];
    }
    out.push(body);
    out
}

/// The answer: what was read, in the API's vocabulary.
fn game_json(game: &Imported) -> Value {
    let variant = game.variant();
    let side = |s: jiang_rules::Side| variant.side_name(s).to_owned();
    jiang_protocol::to_sorted_value(&ImportedGame {
        format: game.format.name().to_owned(),
        variant: variant.name().to_owned(),
        start: game.start(),
        moves: game.moves(),
        result: game.result().map(|o| ImportedResult {
            winner: o.winner.map(side),
            reason: o.reason.name().to_owned(),
        }),
        winner: game.winner().map(side),
        other_end: game.other_end(),
        players: jiang_rules::Side::BOTH
            .into_iter()
            .zip(game.players())
            .filter_map(|(s, name)| Some((side(s), name?)))
            .collect(),
        headers: game.headers(),
        move_seconds: game.move_seconds().into_iter().map(u64::from).collect(),
    })
}
