//! The view of a game: what `GET /api/games/{id}` answers, actions answer, and the `state`,
//! `move` and `end` WebSocket events carry, for one viewer.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    /// One seat is still free.
    Waiting,
    /// Both seats are taken and the game goes on.
    Playing,
    /// Over with a result.
    Ended,
    /// Abandoned before both sides moved: no result.
    Aborted,
}

impl GameStatus {
    /// Every status.
    pub const ALL: [GameStatus; 4] = [
        GameStatus::Waiting,
        GameStatus::Playing,
        GameStatus::Ended,
        GameStatus::Aborted,
    ];

    /// The API name (`waiting`, …).
    pub const fn name(self) -> &'static str {
        match self {
            GameStatus::Waiting => "waiting",
            GameStatus::Playing => "playing",
            GameStatus::Ended => "ended",
            GameStatus::Aborted => "aborted",
        }
    }

    /// The status named `name`, if any.
    pub fn parse(name: &str) -> Option<GameStatus> {
        GameStatus::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Whether the game is over (ended or aborted).
    pub const fn is_over(self) -> bool {
        matches!(self, GameStatus::Ended | GameStatus::Aborted)
    }
}

/// The full view of a game for one viewer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameView {
    /// The start position as everyone may see it.
    pub initial_fen: String,
    /// Every move played, as recorded (Jieqi: with reveal letters).
    pub moves: Vec<String>,
    /// Everything else (what a `move` event carries too).
    #[serde(flatten)]
    pub state: GameState,
}

/// The view without the start and the move list: what changes with each move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameState {
    /// The game id.
    pub id: String,
    /// The variant's name.
    pub variant: String,
    /// Where the game stands.
    pub status: GameStatus,
    /// The current position as this viewer may see it.
    pub fen: String,
    /// Plies played.
    pub ply: u64,
    /// The side to move; `null` once the game is over.
    pub to_move: Option<String>,
    /// The viewer's side, `null` for a spectator.
    pub you: Option<String>,
    /// Sorted; only for the seat to move while playing, otherwise empty.
    pub legal_moves: Vec<String>,
    /// What the browser needs to draw beyond the FEN, decided by the rules (check, the legal
    /// moves' human names, whether impasse may be declared).
    pub hints: Hints,
    /// `null` without a clock.
    pub clock: Option<ClockView>,
    /// The time control's display string (`10+5`, `∞`).
    pub time_control: String,
    /// The time control in seconds (as the game was created), `null` without a clock: what
    /// the browser's clock label is written from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock_settings: Option<crate::TimeControlSpec>,
    /// `null` until the end.
    pub result: Option<GameResult>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<String>,
    /// How many spectators are connected.
    pub spectators: u64,
    /// Per side name: whether the seat is taken.
    pub seats: BTreeMap<String, bool>,
    /// While a side still has to make its first move: milliseconds before the game is aborted.
    pub first_move_ms: Option<u64>,
    /// The shogi handicap, in handicap games only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handicap: Option<String>,
    /// Who asked for a rematch, and the next game.
    pub rematch: RematchView,
    /// The side whose takeback request stands (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub takeback: Option<String>,
    /// For a player: its own queued premove (never shown to anyone else).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub premove: Option<String>,
    /// While playing: per side name, the players away (no open WebSocket); absent when both
    /// are present.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub away: BTreeMap<String, crate::AwayView>,
    /// In a game against the computer: its side and level (absent in games between people).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computer: Option<ComputerSeat>,
    /// A rated game (both seats held by players; the end changes their ratings).
    #[serde(default, skip_serializing_if = "crate::request::is_false")]
    pub rated: bool,
    /// Per side name: the public id of the player holding the seat, for seats taken with a
    /// player key (`GET /api/players/{id}` names them).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub players: BTreeMap<String, String>,
    /// A tournament's game: which tournament, and who berserked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<GameTournament>,
    /// What only some variants show.
    #[serde(flatten)]
    pub variant_fields: VariantFields,
}

/// The tournament a game belongs to (`GameState::tournament`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameTournament {
    /// The tournament's id (`/api/tournaments/{id}`).
    pub id: String,
    /// `arena` or `swiss`: only an arena's players may berserk.
    pub kind: crate::TournamentKind,
    /// The side names that berserked (half the main time, no increment or byo-yomi).
    pub berserk: Vec<String>,
}

/// The computer's seat in a game against it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComputerSeat {
    /// The side it plays.
    pub side: String,
    /// Its level, 1–8.
    pub level: u8,
}

/// The clock at one instant, under the variant's side names, plus `running`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    /// The side whose time runs (`null` before each side's first move and after the end).
    pub running: Option<String>,
    /// Per side name.
    #[serde(flatten)]
    pub sides: BTreeMap<String, SideClock>,
}

/// One side's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideClock {
    /// Time left in the current phase, in milliseconds (rounded up).
    pub ms: u64,
    /// Byo-yomi periods left.
    pub periods: u32,
    /// Whether the side is in byo-yomi.
    pub byoyomi: bool,
    /// Correspondence clocks only, for the side whose time runs: when it loses on time if it
    /// has not moved, in milliseconds since the Unix epoch (a date: server downtime does not
    /// move it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<i64>,
}

/// A finished game's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    /// The winner's side name, `null` for no winner.
    pub winner: Option<String>,
    /// Why the game ended (`checkmate`, `timeout`, …).
    pub reason: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

/// The rematch part of a view (and the `rematch` event's fields).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RematchView {
    /// The side names that asked.
    pub requested: Vec<String>,
    /// The next game, once created.
    pub id: Option<String>,
    /// For a player once the next game exists: its seat token there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// For a player once the next game exists: its side there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
}

/// Fields only some variants have (absent elsewhere).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantFields {
    /// Shogi: per side name, the impasse counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub impasse: Option<BTreeMap<String, ImpassePoints>>,
    /// Jieqi: the fairness commitment (64 hex digits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commitment: Option<String>,
    /// Jieqi: per side name, the pieces it captured, in order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captured: Option<BTreeMap<String, Vec<Capture>>>,
    /// Jieqi: per side name, the identities this viewer has not seen yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<BTreeMap<String, String>>,
    /// Jieqi: per side name, face-down pieces on the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub covered: Option<BTreeMap<String, u32>>,
    /// Jieqi, after the end: the deal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<String>,
    /// Jieqi, after the end: the commitment's salt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
    /// Jieqi, after the end: square → FEN letter of the pieces still face down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub covered_pieces: Option<BTreeMap<String, String>>,
}

/// Shogi: one side's impasse counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImpassePoints {
    /// Whether the king stands in its promotion zone.
    pub king_in_zone: bool,
    /// Pieces other than the king in the promotion zone.
    pub pieces_in_zone: u32,
    /// The declaration count (with the handicap credit).
    pub declaration: u32,
    /// The count the declaration needs.
    pub needed: u32,
    /// The 24-point count (information only).
    pub total: u32,
}

/// Jieqi: a captured piece.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Capture {
    /// 1-based ply of the capturing move.
    pub ply: u64,
    /// Where it was captured.
    pub square: String,
    /// Its owner's side name.
    pub side: String,
    /// Whether it was face down.
    pub was_covered: bool,
    /// Its FEN letter, `null` when this viewer may not know it.
    pub piece: Option<String>,
}

/// The view's `hints`: the live position's drawing and input aids for one viewer, decided by
/// the rules crate so that the browser holds no rules of its own.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hints {
    /// The square of the side to move's king (general) when it is in check: the square the
    /// board rings in red. `None` when not in check.
    pub check: Option<String>,
    /// For the viewer to move, one entry per move of the view's `legal_moves`, in the same
    /// order: every human text the server writes for it (xiangqi family: WXF, Chinese in
    /// simplified and traditional characters; shogi family: Japanese with 同 and with the
    /// square, Western with numeric and letter squares), without repeats. Empty for everyone
    /// else. A move typed by a person is looked up here (or in `legal_moves` for machine text).
    pub legal_names: Vec<Vec<String>>,
    /// Shogi: whether the viewer, to move, may declare impasse now (conditions 1–4 of
    /// shogi.md's declaration rule; the server checks time, condition 5, when it is declared).
    /// Absent in the other variants; `false` for a viewer not to move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub can_declare_impasse: Option<bool>,
}

/// One position of a game's history, as the move list steps through it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShownPosition {
    /// The position as everyone may see it (FEN or SFEN; Jieqi: covered pieces face down).
    pub fen: String,
    /// As [`Hints::check`], for this position.
    pub check: Option<String>,
}
