//! The API's error type: every failure a client can cause, with its code (which fixes the HTTP
//! status; see [`ErrorCode`]) and the contract's JSON shape `{"error": {"code", "message"}}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
pub use jiang_protocol::ErrorCode;
use jiang_protocol::{ErrorBody, ErrorDetail, ErrorReason, ServerMessage};

/// An error answered to a client: a stable code and a sentence for a person.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ApiError {
    /// Stable machine-readable code; it fixes the HTTP status.
    pub code: ErrorCode,
    /// A sentence for a person.
    pub message: String,
    /// Which rule refused a move or a declaration (`illegal_move`, `impasse_rejected`).
    pub reason: Option<ErrorReason>,
}

impl ApiError {
    /// Any error.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ApiError {
            code,
            message: message.into(),
            reason: None,
        }
    }

    /// The same error with the rules' reason attached (clients translate it); a reason that
    /// refines another code than this error's is left out, so `reason` always fits `code`.
    pub fn with_reason(mut self, reason: Option<ErrorReason>) -> Self {
        self.reason = reason.filter(|r| r.code() == self.code);
        self
    }

    /// The HTTP status of the code.
    pub fn status(&self) -> StatusCode {
        StatusCode::from_u16(self.code.status()).expect("error codes have valid statuses")
    }

    /// 404 for an unknown game.
    pub fn game_not_found(id: &str) -> Self {
        Self::new(
            ErrorCode::GameNotFound,
            format!("There is no game with id `{id}`."),
        )
    }

    /// 401: the action needs a seat token and none was given.
    pub fn missing_token() -> Self {
        Self::new(
            ErrorCode::MissingToken,
            "This action needs your seat token (Authorization: Bearer <token>).",
        )
    }

    /// 403: the token given holds no seat in this game.
    pub fn wrong_token() -> Self {
        Self::new(
            ErrorCode::WrongToken,
            "The token given does not hold a seat in this game.",
        )
    }

    /// 400 `invalid_request`, saying what is wrong with it: `Invalid request: {detail}.`
    pub fn invalid_request(detail: impl std::fmt::Display) -> Self {
        Self::new(
            ErrorCode::InvalidRequest,
            format!("Invalid request: {detail}."),
        )
    }

    /// 429.
    pub fn rate_limited() -> Self {
        Self::new(
            ErrorCode::RateLimited,
            "Too many requests; slow down and try again in a moment.",
        )
    }

    /// 413.
    pub fn too_large(limit: usize) -> Self {
        Self::new(
            ErrorCode::TooLarge,
            format!("The request body is larger than {limit} bytes."),
        )
    }

    /// 500 (the store failed): the action was not applied.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Internal, message)
    }

    /// 503 (cluster mode): the node running the game cannot be reached over NATS.
    pub fn cluster_unavailable() -> Self {
        Self::new(
            ErrorCode::ClusterUnavailable,
            "The server running this game cannot be reached right now, so nothing was changed; \
             try again in a moment.",
        )
    }

    /// 503: the server is shutting down.
    pub fn unavailable() -> Self {
        Self::new(
            ErrorCode::Unavailable,
            "The server is restarting; try again in a moment.",
        )
    }

    /// 503: the database could not store the change (disk full, I/O error, lost database
    /// connection); nothing was changed and the same request may succeed later.
    pub fn storage_unavailable() -> Self {
        Self::new(
            ErrorCode::StorageUnavailable,
            "The server cannot store anything right now, so nothing was changed; try again in a \
             moment.",
        )
    }

    /// The JSON body, with the extra `detail` of `/healthz`.
    pub fn body_with_detail(&self, detail: Option<String>) -> ErrorBody {
        ErrorBody {
            error: ErrorDetail {
                code: self.code,
                message: self.message.clone(),
                detail,
                line: None,
                reason: self.reason,
                params: None,
            },
        }
    }

    /// The JSON body.
    pub fn body(&self) -> ErrorBody {
        self.body_with_detail(None)
    }

    /// The WebSocket form: `{"type": "error", "code", "message"}` (and `reason` when known).
    pub fn ws_message(&self) -> String {
        jiang_protocol::to_sorted_json(&ServerMessage::Error {
            code: self.code,
            message: self.message.clone(),
            reason: self.reason,
        })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status(),
            axum::Json(jiang_protocol::to_sorted_value(&self.body())),
        )
            .into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_is_kept_only_under_the_code_it_refines() {
        let e = ApiError::new(ErrorCode::IllegalMove, "x").with_reason(Some(ErrorReason::NoPiece));
        assert_eq!(e.reason, Some(ErrorReason::NoPiece));
        assert!(
            e.ws_message().contains(r#""reason":"no_piece""#),
            "{}",
            e.ws_message()
        );
        let e = ApiError::new(ErrorCode::IllegalMove, "x").with_reason(Some(ErrorReason::InCheck));
        assert_eq!(e.reason, None);
        assert_eq!(
            e.ws_message(),
            r#"{"code":"illegal_move","message":"x","type":"error"}"#
        );
    }
}
