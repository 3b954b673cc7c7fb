//! The error vocabulary: every code the server answers, with its HTTP status, in one place.

use serde::{Deserialize, Serialize};

/// Declares a fieldless enum whose values clients see by their snake_case names, from one
/// table: each variant with one more value (`status` of a code, `code` of a reason), read by
/// the `const fn` named before the table, and its name. It writes the enum, `ALL` (the
/// table's order, which the docs' table follows), `as_str`, that `const fn` and `Display`.
macro_rules! named_enum {
    (
        $(#[$meta:meta])*
        pub enum $enum:ident;
        $(#[doc = $value_doc:literal])*
        pub const fn $value_fn:ident -> $value_ty:ty;
        $($(#[doc = $doc:literal])* $variant:ident = ($value:expr, $name:literal),)*
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum $enum {
            $($(#[doc = $doc])* $variant,)*
        }

        impl $enum {
            /// Every value, in the order of the docs' table.
            pub const ALL: &'static [$enum] = &[$($enum::$variant,)*];

            /// The snake_case name clients see.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($enum::$variant => $name,)*
                }
            }

            $(#[doc = $value_doc])*
            pub const fn $value_fn(self) -> $value_ty {
                match self {
                    $($enum::$variant => $value,)*
                }
            }
        }

        impl std::fmt::Display for $enum {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

named_enum! {
    /// A stable, machine-readable reason for a refusal. Each code has exactly one HTTP
    /// status; WebSocket `error` messages carry the same codes.
    pub enum ErrorCode;
    /// The HTTP status the code is answered with.
    pub const fn status -> u16;

    /// The body is not a JSON object.
    MalformedJson = (400, "malformed_json"),
    /// The body could not be read at all (a broken upload).
    BadBody = (400, "bad_body"),
    /// A field the endpoint does not know.
    UnknownField = (400, "unknown_field"),
    /// A field has the wrong type or value.
    InvalidRequest = (400, "invalid_request"),
    /// `variant` is not one of the four.
    UnknownVariant = (400, "unknown_variant"),
    /// `side` is not a side of that variant or `random`.
    InvalidSide = (400, "invalid_side"),
    /// The custom start does not parse, or the game would already be over.
    InvalidFen = (400, "invalid_fen"),
    /// Unknown handicap for that variant.
    InvalidHandicap = (400, "invalid_handicap"),
    /// A computer opponent's level outside 1–8.
    InvalidLevel = (400, "invalid_level"),
    /// A combination that does not exist (a FEN for Jieqi, a FEN and a handicap).
    Unsupported = (400, "unsupported"),
    /// The move does not parse or is not legal.
    IllegalMove = (400, "illegal_move"),
    /// Draw offers in the shogi family.
    DrawNotAllowed = (400, "draw_not_allowed"),
    /// Impasse outside shogi.
    ImpasseNotAllowed = (400, "impasse_not_allowed"),
    /// The impasse declaration does not hold.
    ImpasseRejected = (400, "impasse_rejected"),
    /// A record format that does not fit the variant.
    UnsupportedFormat = (400, "unsupported_format"),
    /// A notation style that is missing, unknown or of the other family.
    BadNotationStyle = (400, "bad_notation_style"),
    /// A PGN move notation (`?moves=`) that is unknown or given for another format.
    BadMoves = (400, "bad_moves"),
    /// Import: the record is empty.
    EmptyRecord = (400, "empty_record"),
    /// Import: the bytes are in no encoding Jiang reads.
    BadEncoding = (400, "bad_encoding"),
    /// Import: not a record in any format Jiang reads.
    UnknownFormat = (400, "unknown_format"),
    /// Import: the record is of another variant than the one asked for.
    WrongVariant = (400, "wrong_variant"),
    /// Import: `variant` is not one of the four.
    BadVariant = (400, "bad_variant"),
    /// Import: the body holds no record text.
    MissingText = (400, "missing_text"),
    /// Import: a move that is not legal where it stands (except a last one).
    BadMove = (400, "bad_move"),
    /// Import: a start position or FEN that is not valid.
    BadPosition = (400, "bad_position"),
    /// Import: anything else malformed.
    BadRecord = (400, "bad_record"),
    /// `/ws` without a WebSocket upgrade.
    NotWebsocket = (400, "not_websocket"),
    /// A player name that is not 2–20 letters, digits, `_` or `-`.
    InvalidName = (400, "invalid_name"),
    /// `rated` where it cannot be: against the computer, from a custom start or a handicap.
    RatedNotAllowed = (400, "rated_not_allowed"),
    /// A method the path does not answer.
    MethodNotAllowed = (405, "method_not_allowed"),
    /// (WebSocket) a message that is not one of the client messages.
    InvalidMessage = (400, "invalid_message"),
    /// An action without a token.
    MissingToken = (401, "missing_token"),
    /// A rated game (or `/api/players/me`) without a player key.
    PlayerKeyRequired = (401, "player_key_required"),
    /// A player key that is wrong, rotated away or of a deleted player.
    WrongPlayerKey = (401, "wrong_player_key"),
    /// A token that holds no seat in this game.
    WrongToken = (403, "wrong_token"),
    /// A browser request from another origin, or the seat cookie without origin headers.
    CrossOrigin = (403, "cross_origin"),
    /// No game with that id.
    GameNotFound = (404, "game_not_found"),
    /// No player with that id or name.
    PlayerNotFound = (404, "player_not_found"),
    /// No such API endpoint.
    NotFound = (404, "not_found"),
    /// No puzzle has that id, or none matches what was asked (variant, theme).
    PuzzleNotFound = (404, "puzzle_not_found"),
    /// No tournament with that id.
    TournamentNotFound = (404, "tournament_not_found"),
    /// Join when both seats are taken.
    SeatTaken = (409, "seat_taken"),
    /// Another player has that name (after case folding and NFKC).
    NameTaken = (409, "name_taken"),
    /// Joining a rated game as the player who holds its other seat.
    SamePlayer = (409, "same_player"),
    /// Joining a game whose creator asked for opponents in a rating range one is not in.
    RatingOutOfRange = (409, "rating_out_of_range"),
    /// Joining, withdrawing from or berserking in a tournament that is over.
    TournamentFinished = (409, "tournament_finished"),
    /// Withdrawing from (or berserking in) a tournament one has not joined.
    NotInTournament = (409, "not_in_tournament"),
    /// Berserk outside an arena game, after one's first move, twice, or without main time.
    BerserkNotAllowed = (409, "berserk_not_allowed"),
    /// A rematch of a tournament game (the tournament pairs its players).
    RematchNotAllowed = (409, "rematch_not_allowed"),
    /// An action while the opponent's seat is still free.
    NotStarted = (409, "not_started"),
    /// A move (or an impasse declaration) out of turn.
    NotYourTurn = (409, "not_your_turn"),
    /// A move or action after the end.
    GameOver = (409, "game_over"),
    /// Accept/decline without an offer from the opponent.
    NoDrawOffer = (409, "no_draw_offer"),
    /// Abort after both sides have moved.
    TooLateToAbort = (409, "too_late_to_abort"),
    /// Rematch before the end.
    GameNotOver = (409, "game_not_over"),
    /// A chat line that is empty, longer than 200 characters or not one line of text.
    ChatInvalid = (400, "chat_invalid"),
    /// A chat channel this viewer may not write in, or one it turned off.
    ChatNotAllowed = (403, "chat_not_allowed"),
    /// The game's chat holds the most lines it keeps (1,000).
    ChatFull = (409, "chat_full"),
    /// Takeback: nothing of yours to take back (the first move of each side stays).
    NothingToTakeBack = (409, "nothing_to_take_back"),
    /// Takeback: the opponent has under 20 s on the clock; answering would cost it time.
    TakebackUnfair = (409, "takeback_unfair"),
    /// Takeback (Jieqi): the moves to take back revealed or captured a covered piece.
    TakebackHidden = (409, "takeback_hidden"),
    /// Takeback: the opponent's request stands (answer it first).
    TakebackPending = (409, "takeback_pending"),
    /// Takeback: accept/decline/cancel without such a request.
    NoTakeback = (409, "no_takeback"),
    /// Premove on your own turn: play the move instead.
    PremoveNotAllowed = (409, "premove_not_allowed"),
    /// Claim while the opponent is present, before the grace period is over, or while you are
    /// away yourself.
    ClaimTooEarly = (409, "claim_too_early"),
    /// Analysis of a game still being played (or waiting for its second player).
    GameInProgress = (409, "game_in_progress"),
    /// A body or WebSocket message over the limit.
    TooLarge = (413, "too_large"),
    /// A browser request whose `Content-Type` is not `application/json`.
    UnsupportedMediaType = (415, "unsupported_media_type"),
    /// Too many requests from this address.
    RateLimited = (429, "rate_limited"),
    /// Too many WebSockets open from this address.
    TooManySockets = (429, "too_many_sockets"),
    /// An open seek over the address's cap of seeks open at once.
    TooManySeeks = (429, "too_many_seeks"),
    /// A player creating a tournament while five of theirs are not finished.
    TooManyTournaments = (429, "too_many_tournaments"),
    /// Open seeks created too fast from this address (seek churn).
    SeekRateLimited = (429, "seek_rate_limited"),
    /// The database refused the write itself (a bug): nothing was applied.
    Internal = (500, "internal"),
    /// The database cannot store anything right now: nothing was changed.
    StorageUnavailable = (503, "storage_unavailable"),
    /// The server is shutting down: nothing was changed.
    Unavailable = (503, "unavailable"),
    /// Cluster mode: the node that runs the game cannot be reached over NATS right now (the
    /// message bus is down): nothing was changed.
    ClusterUnavailable = (503, "cluster_unavailable"),
}

impl ErrorCode {
    /// The code named `name` (its snake_case form), if any.
    pub fn from_name(name: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.iter().copied().find(|c| c.as_str() == name)
    }
}

named_enum! {
    /// Why the rules refused a move (`illegal_move`) or an impasse declaration
    /// (`impasse_rejected`): a stable name of the rules' typed error, so that a client can say
    /// it in its reader's language. It refines a code and never stands alone.
    pub enum ErrorReason;
    /// The code the reason refines.
    pub const fn code -> ErrorCode;

    /// The move text does not parse (ICCS like `h2e2`, USI like `7g7f`).
    Malformed = (ErrorCode::IllegalMove, "malformed"),
    /// No piece stands on the from point (square).
    NoPiece = (ErrorCode::IllegalMove, "no_piece"),
    /// The piece on the from point (square) is the opponent's.
    NotYourPiece = (ErrorCode::IllegalMove, "not_your_piece"),
    /// That piece cannot move there (geometry, blocking, own piece there).
    Unreachable = (ErrorCode::IllegalMove, "unreachable"),
    /// Xiangqi family: the move would leave the mover's general attacked or facing the other.
    LeavesGeneralInCheck = (ErrorCode::IllegalMove, "leaves_general_in_check"),
    /// Xiangqi family: a reveal letter where none belongs (Xiangqi has no covered pieces, and
    /// in Jieqi the server reveals from the deal), or one that names no piece of the mover.
    RevealLetter = (ErrorCode::IllegalMove, "reveal_letter"),
    /// Shogi family: a square of the move is off the board (Minishogi is 5×5).
    OffBoard = (ErrorCode::IllegalMove, "off_board"),
    /// Shogi family: a drop of a piece the mover has none of in hand.
    NotInHand = (ErrorCode::IllegalMove, "not_in_hand"),
    /// Shogi family: a drop on an occupied square.
    DropOnOccupied = (ErrorCode::IllegalMove, "drop_on_occupied"),
    /// Shogi family: a drop where the piece could never move (a pawn or lance on the last
    /// rank, a knight on the last two).
    DeadDrop = (ErrorCode::IllegalMove, "dead_drop"),
    /// Shogi family: nifu, a second unpromoted pawn of the mover's on one file.
    Nifu = (ErrorCode::IllegalMove, "nifu"),
    /// Shogi family: uchifuzume, a pawn drop that gives checkmate.
    Uchifuzume = (ErrorCode::IllegalMove, "uchifuzume"),
    /// Shogi family: a move without promotion to where the piece could never move again.
    MustPromote = (ErrorCode::IllegalMove, "must_promote"),
    /// Shogi family: a promotion of a piece that does not promote, or outside the zone.
    CannotPromote = (ErrorCode::IllegalMove, "cannot_promote"),
    /// Shogi family: the move would leave the mover's king in check (or does not answer one).
    LeavesKingInCheck = (ErrorCode::IllegalMove, "leaves_king_in_check"),
    /// The rules consider the game over (e.g. a move after an end the rules reached).
    GameOver = (ErrorCode::IllegalMove, "game_over"),
    /// Impasse condition 1: the king is not in the promotion zone.
    KingNotInZone = (ErrorCode::ImpasseRejected, "king_not_in_zone"),
    /// Impasse condition 2: fewer than 10 pieces besides the king in the zone.
    TooFewPieces = (ErrorCode::ImpasseRejected, "too_few_pieces"),
    /// Impasse condition 3: the king is in check.
    InCheck = (ErrorCode::ImpasseRejected, "in_check"),
    /// Impasse condition 4: too few points (28 for sente, 27 for gote).
    TooFewPoints = (ErrorCode::ImpasseRejected, "too_few_points"),
}

/// The body of every HTTP error: `{"error": {"code", "message"}}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorBody {
    /// What went wrong.
    pub error: ErrorDetail,
}

/// The inside of [`ErrorBody`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ErrorDetail {
    /// The stable code.
    pub code: ErrorCode,
    /// A sentence for a person.
    pub message: String,
    /// `/healthz` only: the database's own words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// `POST /api/import` only: the record's line the error is on, when it is on one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// `illegal_move` and `impasse_rejected` only: which rule refused it (see
    /// [`ErrorReason`]); absent when the rules give no finer reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<ErrorReason>,
    /// `POST /api/import` only: the values `message` is written from (`line`, `ply`, `move`,
    /// `wanted`, `found`), so that a client can say the error in its reader's language
    /// instead of passing the English `message` on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<std::collections::BTreeMap<String, String>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value of `all` is written as the JSON string of its `as_str` and read back.
    fn round_trips<T>(all: &[T], as_str: fn(T) -> &'static str)
    where
        T: Copy + std::fmt::Debug + PartialEq + Serialize + serde::de::DeserializeOwned,
    {
        for &value in all {
            let text = serde_json::to_string(&value).unwrap();
            assert_eq!(text, format!("\"{}\"", as_str(value)));
            assert_eq!(serde_json::from_str::<T>(&text).unwrap(), value);
        }
    }

    #[test]
    fn names_round_trip_through_serde() {
        round_trips(ErrorCode::ALL, ErrorCode::as_str);
        for code in ErrorCode::ALL {
            assert!((400..600).contains(&code.status()), "{code}");
        }
    }

    #[test]
    fn reasons_round_trip_through_serde_and_refine_the_two_rules_codes() {
        round_trips(ErrorReason::ALL, ErrorReason::as_str);
        for reason in ErrorReason::ALL {
            assert!(
                matches!(
                    reason.code(),
                    ErrorCode::IllegalMove | ErrorCode::ImpasseRejected
                ),
                "{reason}"
            );
        }
    }

    #[test]
    fn an_absent_reason_is_not_written() {
        let detail = ErrorDetail {
            code: ErrorCode::NotYourTurn,
            message: "It is not your turn.".into(),
            detail: None,
            line: None,
            reason: None,
            params: None,
        };
        assert_eq!(
            serde_json::to_string(&detail).unwrap(),
            r#"{"code":"not_your_turn","message":"It is not your turn."}"#
        );
    }
}
