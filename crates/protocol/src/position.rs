//! `POST /api/positions/validate`: a position checked by the rules, with every problem typed
//! and located, for the board editor (the browser never judges a position itself).

use serde::{Deserialize, Serialize};

/// `POST /api/positions/validate`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ValidatePosition {
    /// `xiangqi`, `jieqi`, `shogi` or `minishogi`.
    pub variant: String,
    /// The position: FEN (xiangqi family; Jieqi with `X`/`x` and an optional pool) or SFEN
    /// (shogi family); `startpos` allowed.
    pub fen: String,
}

/// The answer to [`ValidatePosition`] (always `200` once the request itself is well formed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionCheck {
    /// Whether the position is legal to play from.
    pub valid: bool,
    /// The canonical FEN/SFEN when valid, else `null`.
    pub fen: Option<String>,
    /// Everything wrong with it, in board order and then per side; empty when valid.
    pub problems: Vec<PositionProblem>,
    /// When valid: the side to move (`red`/`black`, `sente`/`gote`).
    pub turn: Option<String>,
    /// When valid: whether the side to move is in check.
    pub check: bool,
    /// When valid but the game would already be over there (checkmate, stalemate, bare
    /// kings…): how, as a result (`winner` `null` for a draw).
    pub outcome: Option<crate::ImportedResult>,
    /// Whether `POST /api/games` accepts it as a custom start (`fen`): valid, not over, and
    /// not Jieqi (a Jieqi game always starts from a fresh deal).
    pub playable: bool,
}

/// One reason a position is not legal, typed and located. Squares are ICCS (`e0`) in the
/// xiangqi family and USI (`5e`) in the shogi family; sides are the variant's side names;
/// pieces are kind names (`general`, `advisor`, `elephant`, `horse`, `chariot`, `cannon`,
/// `soldier`; `king`, `rook`, `bishop`, `gold`, `silver`, `knight`, `lance`, `pawn`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "problem", rename_all = "snake_case")]
pub enum PositionProblem {
    /// The text is not a FEN/SFEN at all (nothing else can be said). `part` and `rank` say
    /// where, for a reader in any language; `message` says where and what, in English.
    Unreadable {
        /// What is wrong with the text, in English.
        message: String,
        /// The part of the text at fault: `fields` (their number or order), `board`, `side`,
        /// `pool` (Jieqi's pool and captured fields), `hands`, `counters` (move counters).
        part: String,
        /// The board's rank at fault, when the fault is in one (ICCS digit or USI letter).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rank: Option<String>,
    },
    /// A side has no general/king, or more than one.
    KingCount {
        /// The side.
        side: String,
        /// How many it has.
        found: u32,
    },
    /// Xiangqi family: a general outside its palace.
    KingOutsidePalace {
        /// The side.
        side: String,
        /// Where it stands.
        square: String,
    },
    /// Xiangqi: an advisor, elephant or soldier on a point it can never reach (an advisor off
    /// its palace's diagonals, an elephant off its seven points, a soldier behind its start).
    PieceOutOfPlace {
        /// The side.
        side: String,
        /// `advisor`, `elephant` or `soldier`.
        piece: String,
        /// Where it stands.
        square: String,
    },
    /// Jieqi: a covered piece off its side's starting points (or on its general's point).
    CoveredOffStart {
        /// The side.
        side: String,
        /// Where it stands.
        square: String,
    },
    /// Shogi family: an unpromoted pawn or lance on the last rank, or knight on the last two:
    /// it could never move.
    StuckPiece {
        /// The side.
        side: String,
        /// `pawn`, `lance` or `knight`.
        piece: String,
        /// Where it stands.
        square: String,
    },
    /// Shogi family: two unpromoted pawns of one side on one file (nifu).
    Nifu {
        /// The side.
        side: String,
        /// The file, 1-9.
        file: u8,
    },
    /// More of a kind than a set holds: per side in the xiangqi family (Jieqi: on the board
    /// and in the pool), both sides together with the hands in the shogi family (`side`
    /// absent).
    TooMany {
        /// The side, in the xiangqi family.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side: Option<String>,
        /// The kind (promoted shogi pieces count as their base kind).
        piece: String,
        /// How many there are.
        found: u32,
        /// How many a set has.
        max: u32,
    },
    /// Jieqi: more covered pieces than identities left in the side's pool.
    PoolTooSmall {
        /// The side.
        side: String,
        /// Covered pieces on the board.
        covered: u32,
        /// Identities in the pool.
        pool: u32,
    },
    /// Xiangqi family: the generals face each other on an open file.
    GeneralsFacing {
        /// The file letter (`a`-`i`).
        file: String,
    },
    /// The side not to move is in check.
    OpponentInCheck {
        /// The side in check.
        side: String,
    },
}
