//! The Jiang API as types: every request body, response, view and WebSocket message
//! (client → server and server → client), and the one vocabulary of error codes.
//!
//! This crate is the reference for the JSON shapes of `docs/api.md`: the server builds its
//! answers from these types, the load generator and the tests parse answers with them, and a
//! test parses every JSON example of the docs with the type it is labelled with. Inputs refuse
//! unknown fields (`deny_unknown_fields`); outputs are parsed leniently only where a field is
//! optional.
//!
//! Side names are the variant's own (`red`/`black`, `sente`/`gote`), so they are strings here:
//! the rules crate, not the contract, knows which names a variant has.

mod analysis;
mod cluster;
mod comforts;
mod error;
mod lobby;
mod message;
mod players;
mod position;
mod puzzles;
mod request;
mod tournaments;
mod view;

pub use analysis::{
    AnalysedGame, AnalysisAnswer, AnalysisPosition, AnalysisRequest, EngineClientMessage,
    EngineInfo, EngineLine, EngineScore, EngineServerMessage, EngineStart, ExportRequest,
    ExportedRecord, Judgement, Knowledge, MoveVerdict, RecordFacts, ReviewAnswer, ReviewRequest,
    TreeMove,
};
pub use cluster::{LobbyShare, NodeAlive, NodeReply, NodeRequest, TournamentNews, TournamentShare};
pub use comforts::{
    AwayView, ChatChannel, ChatHistoryMessage, ChatLine, ChatMessage, ChatMuteRequest, ChatMuted,
    ClaimRequest, ClaimResult, PremoveMessage, PremoveRequest, PresenceMessage, TakebackAction,
    TakebackMessage, TakebackNote, TakebackRequest,
};
pub use error::{ErrorBody, ErrorCode, ErrorDetail, ErrorReason};
pub use lobby::{
    GameSummary, HeldSeat, LiveGame, LobbyClientMessage, LobbyCounts, LobbyServerMessage,
    LobbySnapshot, LobbyUpdate, PairRequest, Paired, Seek, Summaries, SummariesRequest,
};
pub use message::{
    ClientMessage, ClockMessage, CountMessage, DrawOfferMessage, MoveEvent, RematchMessage,
    ServerMessage,
};
pub use players::{
    CreatePlayer, Leaderboard, LeaderboardEntry, PlayerCreated, PlayerGame, PlayerRef, PlayerView,
    QrRequest, RatingPoint, RatingView, RenamePlayer,
};
pub use position::{PositionCheck, PositionProblem, ValidatePosition};
pub use puzzles::{
    PuzzleHint, PuzzleMoveAnswer, PuzzleMoveRequest, PuzzleRated, PuzzleRating, PuzzleResult,
    PuzzleSolution, PuzzleStepRequest, PuzzleView,
};
pub use request::{
    CreateGame, Created, DrawAction, DrawRequest, EmptyRequest, Health, ImportedGame,
    ImportedResult, Joined, MoveRequest, NotationList, Opponent, TimeControlSpec,
};
pub use tournaments::{
    CreateTournament, MyTournamentGame, PAGE_FINISHED_GAMES, STANDINGS_PAGE_LINES, SheetMark,
    TournamentBerserk, TournamentBye, TournamentClientMessage, TournamentEntry, TournamentGame,
    TournamentKind, TournamentList, TournamentPage, TournamentServerMessage, TournamentStanding,
    TournamentState, TournamentStatus, TournamentSummary, TournamentView,
};
pub use view::{
    Capture, ClockView, ComputerSeat, GameResult, GameState, GameStatus, GameTournament, GameView,
    Hints, ImpassePoints, RematchView, ShownPosition, SideClock, VariantFields,
};

/// `value` as JSON text with every object's keys in sorted order, the way the API has always
/// written its answers (through `serde_json::Value`, whose maps are sorted), so the bytes do not
/// depend on the order fields are declared in.
pub fn to_sorted_json<T: serde::Serialize>(value: &T) -> String {
    to_sorted_value(value).to_string()
}

/// `value` as a `serde_json::Value` (sorted keys; see [`to_sorted_json`]).
pub fn to_sorted_value<T: serde::Serialize>(value: &T) -> serde_json::Value {
    serde_json::to_value(value).expect("protocol types serialise to JSON")
}
