//! Reading requests: JSON bodies (with the same-site rule for cookie-authorised actions),
//! bearer tokens and the seat cookie.

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequest, Request};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use jiang_protocol::to_sorted_value;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::{ApiError, ErrorCode};
use crate::http::state::AppState;

/// The largest request body accepted (bytes).
pub const MAX_BODY: usize = 16 * 1024;

/// A POST's JSON object body, read by [`parse_body`]: the last extractor of the endpoints that
/// take one.
pub(crate) struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        parse_body(Bytes::from_request(request, state).await).map(JsonBody)
    }
}

/// The [`JsonBody`] of a POST that a visitor's browser may only send from this site's own
/// pages (it takes a seat): the origin check (see `crate::http::origin`), then [`parse_body`].
pub(crate) struct SameSiteJson<T>(pub T);

impl<T: DeserializeOwned> FromRequest<AppState> for SameSiteJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, ApiError> {
        state.origin.check_post(request.headers())?;
        parse_body(Bytes::from_request(request, state).await).map(SameSiteJson)
    }
}

/// Parses a JSON body, naming what is wrong (unknown field, missing field, bad value).
pub(crate) fn parse_body<T: DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::too_large(MAX_BODY)
        } else {
            ApiError::new(ErrorCode::BadBody, rejection.body_text())
        }
    })?;
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        &bytes
    };
    let value: Value = serde_json::from_slice(bytes).map_err(|e| {
        ApiError::new(
            ErrorCode::MalformedJson,
            format!("The body is not valid JSON: {e}."),
        )
    })?;
    if !value.is_object() {
        return Err(ApiError::new(
            ErrorCode::MalformedJson,
            "The body must be a JSON object.",
        ));
    }
    serde_json::from_value(value).map_err(|e| {
        let text = e.to_string();
        let code = if text.starts_with("unknown field") {
            ErrorCode::UnknownField
        } else {
            ErrorCode::InvalidRequest
        };
        ApiError::new(code, format!("Invalid request: {text}."))
    })
}

/// The bearer token of a request, if any.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let token = value
        .strip_prefix("Bearer ")
        .or_else(|| value.strip_prefix("bearer "))?;
    Some(token.trim().to_owned())
}

/// The name of the cookie that keeps a seat's token for game `id`.
pub(crate) fn seat_cookie_name(id: &str) -> String {
    format!("jiang_seat_{id}")
}

/// A cookie's value by name.
pub(crate) fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_owned())
}

/// The seat token of an action on game `id`: the bearer header, else the game's seat cookie,
/// which only a JSON request from the server's own pages may use (cross-site request forgery;
/// see [`crate::http::origin`]). Without either, a browser request from another origin is refused too.
pub(crate) fn action_token(
    state: &AppState,
    headers: &HeaderMap,
    id: &str,
) -> Result<Option<String>, ApiError> {
    if let Some(token) = bearer(headers) {
        return Ok(Some(token));
    }
    match cookie(headers, &seat_cookie_name(id)) {
        Some(token) => {
            state.origin.check_cookie_post(headers)?;
            Ok(Some(token))
        }
        None => {
            state.origin.check_post(headers)?;
            Ok(None)
        }
    }
}

/// `body` as the JSON answer with `status`, setting the cookie that keeps the seat `(game id,
/// token)` (see [`seat_cookie`]).
pub(crate) fn seated_answer(
    state: &AppState,
    status: StatusCode,
    (id, token): (&str, &str),
    body: &impl Serialize,
) -> Response {
    let cookie = seat_cookie(id, token, state.origin.secure_cookies());
    let mut response = (status, Json(to_sorted_value(body))).into_response();
    response.headers_mut().insert(header::SET_COOKIE, cookie);
    response
}

/// The `Set-Cookie` value that keeps `token` for game `id`: HttpOnly (no script reads it),
/// `SameSite=Lax`, and `Secure` when the public URL is https.
pub(crate) fn seat_cookie(id: &str, token: &str, secure: bool) -> HeaderValue {
    HeaderValue::from_str(&format!(
        "{}={token}; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax{}",
        seat_cookie_name(id),
        if secure { "; Secure" } else { "" }
    ))
    .expect("base62 cookie is a valid header")
}
