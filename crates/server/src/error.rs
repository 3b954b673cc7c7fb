//! The API's error type: every failure a client can cause, with its HTTP status and the
//! contract's JSON shape `{"error": {"code", "message"}}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

/// An error answered to a client. `code` is a stable snake_case name; `message` a sentence.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// Stable machine-readable code.
    pub code: &'static str,
    /// A sentence for a person.
    pub message: String,
}

impl ApiError {
    /// Any error.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    /// 400 with `code`.
    pub fn bad_request(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 409 with `code`.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, message)
    }

    /// 404 for an unknown game.
    pub fn game_not_found(id: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "game_not_found",
            format!("There is no game with id `{id}`."),
        )
    }

    /// 401: the action needs a seat token and none was given.
    pub fn missing_token() -> Self {
        Self::new(
            StatusCode::UNAUTHORIZED,
            "missing_token",
            "This action needs your seat token (Authorization: Bearer <token>).",
        )
    }

    /// 403: the token given holds no seat in this game.
    pub fn wrong_token() -> Self {
        Self::new(
            StatusCode::FORBIDDEN,
            "wrong_token",
            "The token given does not hold a seat in this game.",
        )
    }

    /// 429.
    pub fn rate_limited() -> Self {
        Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "Too many requests; slow down and try again in a moment.",
        )
    }

    /// 413.
    pub fn too_large(limit: usize) -> Self {
        Self::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("The request body is larger than {limit} bytes."),
        )
    }

    /// 500 (the store failed): the action was not applied.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }

    /// 503: the server is shutting down.
    pub fn unavailable() -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            "The server is restarting; try again in a moment.",
        )
    }

    /// 503: the database could not store the change (disk full, I/O error, lost database
    /// connection); nothing was changed and the same request may succeed later.
    pub fn storage_unavailable() -> Self {
        Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "storage_unavailable",
            "The server cannot store anything right now, so nothing was changed; try again in a \
             moment.",
        )
    }

    /// The JSON body.
    pub fn body(&self) -> serde_json::Value {
        json!({"error": {"code": self.code, "message": self.message}})
    }

    /// The WebSocket form: `{"type": "error", "code", "message"}`.
    pub fn ws_message(&self) -> String {
        json!({"type": "error", "code": self.code, "message": self.message}).to_string()
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(self.body())).into_response()
    }
}
