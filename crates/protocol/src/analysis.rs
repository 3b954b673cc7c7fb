//! The analysis board: `POST /api/analysis` (a line of moves from a start, answered with the
//! positions, their legal moves in the reader's notation, check and the rules' verdicts) and
//! `POST /api/analysis/export` (a move tree with its variations as a PGN or KIF record).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::view::GameResult;

/// Declares a request that opens a board: the fields naming where the board starts
/// (`variant`, `game`, `fen`, `knowledge`, documented once here), then the request's own
/// fields. A shared struct with `#[serde(flatten)]` would say the same, but serde cannot
/// combine `flatten` with `deny_unknown_fields`.
macro_rules! board_request {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $($(#[$field_meta:meta])* pub $field:ident: $ty:ty,)*
        }
    ) => {
        $(#[$meta])*
        pub struct $name {
            /// `xiangqi`, `jieqi`, `shogi` or `minishogi`; may be left out with `game`.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub variant: Option<String>,
            /// A finished game's id: its start (and for Jieqi its deal) is the start. A game
            /// still being played is refused (`game_in_progress`).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub game: Option<String>,
            /// A start position (FEN or SFEN; Jieqi with covered pieces and an optional pool);
            /// not with `game`. Absent: the variant's standard start.
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub fen: Option<String>,
            /// Jieqi with `game` only (default `all`).
            #[serde(default, skip_serializing_if = "Option::is_none")]
            pub knowledge: Option<Knowledge>,
            $($(#[$field_meta])* pub $field: $ty,)*
        }
    };
}

/// Jieqi, analysing a finished game: whose knowledge the board shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Knowledge {
    /// "As it was": the whole deal revealed (every covered piece's identity is shown, and a
    /// covered piece moved in a variation turns over as the deal had it).
    #[default]
    All,
    /// "What Red knew": covered pieces stay covered; a covered piece moved in a variation
    /// needs the identity the analyst supposes for it (`h2e2R`), from the pool.
    Red,
    /// "What Black knew": as `red`, for Black.
    Black,
}

board_request! {
    /// `POST /api/analysis`: a line of moves to analyse.
    #[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct AnalysisRequest {
        /// The moves from the start, in machine notation (ICCS, USI). Jieqi: a covered piece's
        /// move carries the supposed identity (`h2e2R`) except when the deal is known
        /// (`knowledge` `all`), where the deal turns it over.
        #[serde(default)]
        pub moves: Vec<String>,
        /// The notation of the answer's move texts (`wxf`, `chinese`, `chinese-traditional`,
        /// `iccs`; `japanese`, `western`, `western-letters`, `usi`).
        pub style: String,
        /// Answer the positions from this ply on (default 0, the start): a board that already
        /// knows the earlier ones asks for the last only.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub from: Option<u64>,
    }
}

/// The answer to `POST /api/analysis`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisAnswer {
    /// The variant's name.
    pub variant: String,
    /// The start position as this board shows it (FEN or SFEN).
    pub start: String,
    /// The style of the texts below.
    pub style: String,
    /// The moves as the rules recorded them (Jieqi: with the reveal letters).
    pub moves: Vec<String>,
    /// The same moves in `style`.
    pub notation: Vec<String>,
    /// Jieqi: per move, the note shown after it for a reveal (` (R)`, `（车）`, or `""`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<Vec<String>>,
    /// The positions from ply `from` to the last, in order.
    pub positions: Vec<AnalysisPosition>,
    /// With `game`: the game's own moves (its main line) and result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<AnalysedGame>,
}

/// One position of an analysed line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisPosition {
    /// Plies from the start.
    pub ply: u64,
    /// The position as this board shows it (Jieqi: covered pieces face down).
    pub fen: String,
    /// The side to move, `null` when the rules ended the game here.
    pub to_move: Option<String>,
    /// The checked king's (general's) square, if any.
    pub check: Option<String>,
    /// The legal moves in machine notation, sorted (Jieqi: without reveal letters).
    pub legal_moves: Vec<String>,
    /// One text per legal move, in the request's style.
    pub legal_notation: Vec<String>,
    /// The rules' verdict when the game is over here (checkmate, repetition, …).
    pub result: Option<GameResult>,
    /// Jieqi: per side name, the identities not yet turned over on this line ("what Red/Black
    /// knew" on the game's own moves: not yet seen by that side, which knows what it captured).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<BTreeMap<String, String>>,
    /// Jieqi "what Red/Black knew", on the game's own moves: per side name, the pieces that
    /// side captured, as the knowing side saw them (`piece` `null` when it may not know).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captured: Option<BTreeMap<String, Vec<crate::view::Capture>>>,
    /// Jieqi "as it was": square → FEN letter of every piece still face down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub covered_pieces: Option<BTreeMap<String, String>>,
}

/// A finished game opened on the analysis board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysedGame {
    /// The game id.
    pub id: String,
    /// Every move of the game, as recorded (Jieqi: with the public reveal letters).
    pub moves: Vec<String>,
    /// How it ended (`null` for an aborted game).
    pub result: Option<GameResult>,
}

/// One move of a tree and the lines played instead of it (from the same position).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeMove {
    /// The move in machine notation, as `POST /api/analysis` recorded it.
    #[serde(rename = "move")]
    pub mv: String,
    /// Alternatives to this move, each a line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<Vec<TreeMove>>,
}

board_request! {
    /// `POST /api/analysis/export`: a move tree as a record with its variations.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct ExportRequest {
        /// `pgn` (xiangqi family) or `kif` (shogi family).
        pub format: String,
        /// PGN movetext: `iccs` (default), `wxf` or `chinese` (Jieqi: always ICCS).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub moves: Option<String>,
        /// The tree's main line, each move with its variations.
        pub tree: Vec<TreeMove>,
        /// Without `game`: what the record the tree came from says besides its moves (an
        /// imported record's names and ending). With `game` the game's own are used.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub record: Option<RecordFacts>,
    }
}

/// What a record says besides its moves, as `POST /api/import` answered it: written into an
/// export of the tree (the names always; the result when the tree's main line is `moves`,
/// else the rules' verdict at the main line's end, or none).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordFacts {
    /// Per side name, the player's name.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub players: BTreeMap<String, String>,
    /// The recorded moves from the start, in machine notation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<String>,
    /// How the recorded line ended (`null`: unfinished, or an end Jiang has no reason for).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<crate::ImportedResult>,
}

/// The answer to `POST /api/analysis/export`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportedRecord {
    /// `pgn` or `kif`.
    pub format: String,
    /// A file name for the download (`analysis.pgn`, `analysis.kifu`).
    pub file_name: String,
    /// The record (UTF-8).
    pub text: String,
}

/// `GET /api/analysis/ws`, client → server: start or stop the engine on a position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum EngineClientMessage {
    /// Analyse the position a line leads to, replacing any search of this socket.
    Start(EngineStart),
    /// Stop the search (a `done` follows with what it found).
    Stop {},
    /// Keep-alive; answered by `pong`.
    Ping {},
}

board_request! {
    /// A `start` message of `GET /api/analysis/ws`: the position a line leads to (as in
    /// [`AnalysisRequest`]; a `game` must be finished) and how many lines to show.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct EngineStart {
        /// The line from the start to the position to analyse.
        #[serde(default)]
        pub moves: Vec<String>,
        /// The notation of the lines' texts.
        pub style: String,
        /// How many lines (MultiPV), 1–3 (default 1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub lines: Option<u8>,
    }
}

/// `GET /api/analysis/ws`, server → client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EngineServerMessage {
    /// A `start` was accepted: the search waits for a thread of the engine pool.
    Queued {
        /// The search's number on this socket (1, 2, …); later messages carry it.
        search: u64,
        /// The ply of the analysed position.
        ply: u64,
    },
    /// The search's latest lines, after each completed iteration.
    Info(EngineInfo),
    /// The search ended (its time budget, a `stop`, a new `start`, or the game is over there).
    Done {
        /// The search's number.
        search: u64,
        /// The deepest completed iteration.
        depth: u32,
        /// Nodes searched.
        nodes: u64,
    },
    /// Answer to `ping`.
    Pong {},
    /// A message was refused.
    Error {
        /// The code, as in HTTP errors.
        code: crate::ErrorCode,
        /// A sentence for a person.
        message: String,
        /// `illegal_move` only: which rule refused the line's move.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<crate::ErrorReason>,
    },
}

/// An `info` message: the engine's current lines on the analysed position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineInfo {
    /// The search's number.
    pub search: u64,
    /// The iteration's depth.
    pub depth: u32,
    /// Nodes so far.
    pub nodes: u64,
    /// Milliseconds so far.
    pub ms: u64,
    /// The best lines, best first (MultiPV).
    pub lines: Vec<EngineLine>,
}

/// One engine line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineLine {
    /// 1-based rank.
    pub multipv: u32,
    /// The evaluation from the side to move's point of view.
    pub score: EngineScore,
    /// The same from Red's (Sente's) point of view.
    pub score_first: EngineScore,
    /// The principal variation in machine notation.
    pub pv: Vec<String>,
    /// As far as it can be written, the same in the request's style (Jieqi: a covered piece
    /// whose identity is not known ends it).
    pub pv_notation: Vec<String>,
}

/// An evaluation: centipawns, or mate in `mate` moves (negative: being mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineScore {
    /// Centipawns, `null` for a mate.
    pub cp: Option<i32>,
    /// Moves to mate, `null` for a centipawn score.
    pub mate: Option<i32>,
}

board_request! {
    /// `POST /api/analysis/review`: a computer review of a finished game (or of a line), every
    /// position evaluated at the same fixed budget.
    #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    pub struct ReviewRequest {
        /// The line to review; absent with `game`: the game's moves.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pub moves: Option<Vec<String>>,
        /// The notation of the better moves' texts.
        pub style: String,
    }
}

/// How bad a move was, by the evaluation it lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// Lost at least 50 centipawns.
    Inaccuracy,
    /// Lost at least 100.
    Mistake,
    /// Lost at least 300.
    Blunder,
}

/// The answer to `POST /api/analysis/review`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewAnswer {
    /// The reviewed moves as recorded.
    pub moves: Vec<String>,
    /// The engine's budget per position, in nodes.
    pub nodes_per_position: u64,
    /// Per position (the start and after each move): the evaluation from Red's (Sente's)
    /// point of view, `null` where the game is over.
    pub evals: Vec<Option<EngineScore>>,
    /// Per move: what the review says of it.
    pub verdicts: Vec<MoveVerdict>,
    /// Per side name: the accuracy of its moves, 0–100.
    pub accuracy: BTreeMap<String, f64>,
}

/// What the review says of one move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveVerdict {
    /// 1-based ply.
    pub ply: u64,
    /// Centipawns the move lost against the engine's best, from the mover's view (0 or more).
    pub loss: i32,
    /// `null` for a good move.
    pub judgement: Option<Judgement>,
    /// The engine's move there in machine notation, when it differs from the move played.
    pub better: Option<String>,
    /// The same in the request's style.
    pub better_notation: Option<String>,
}
