//! The one place where the server meets the rules: a variant-agnostic live game (a "table").
//!
//! Everything else in the server works with `dyn Table` and never matches on variants: creating
//! a game from a variant plus an optional custom start or handicap (plus a deal for Jieqi),
//! legal moves as text, playing text, the outcome, the per-viewer extras of a view, record
//! export, whether a side could ever give check (for `timeout-vs-insufficient`) and the shogi
//! impasse declaration.

use jiang_rules::{Family, Game, IllegalMove, Outcome, Position, Side, Variant};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Why a table could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The custom start position is not valid.
    #[error("invalid fen: {0}")]
    BadFen(String),
    /// The handicap is unknown for this variant.
    #[error("{0}")]
    BadHandicap(String),
    /// The request combines things that do not go together (a FEN for Jieqi, …).
    #[error("{0}")]
    Unsupported(String),
    /// Stored data could not be replayed (corrupt database).
    #[error("stored game cannot be replayed: {0}")]
    Corrupt(String),
}

/// The record formats of `GET /api/games/{id}/record`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordFormat {
    /// PGN-style record (xiangqi family).
    Pgn,
    /// KIF (shogi family).
    Kif,
    /// CSA (shogi family).
    Csa,
    /// The current position as FEN (xiangqi family).
    Fen,
    /// The current position as SFEN (shogi family).
    Sfen,
}

impl RecordFormat {
    /// The file extension of a download.
    pub fn extension(self) -> &'static str {
        match self {
            RecordFormat::Pgn => "pgn",
            RecordFormat::Kif => "kif",
            RecordFormat::Csa => "csa",
            RecordFormat::Fen => "fen",
            RecordFormat::Sfen => "sfen",
        }
    }

    /// The content type of a download. KIF is traditionally Shift_JIS; Jiang writes UTF-8 and
    /// says so.
    pub fn content_type(self) -> &'static str {
        match self {
            RecordFormat::Pgn => "application/x-chess-pgn; charset=utf-8",
            _ => "text/plain; charset=utf-8",
        }
    }
}

/// What a record says about the game besides its moves.
#[derive(Clone, Debug)]
pub struct RecordInfo {
    /// The game id (for the header / site link).
    pub id: String,
    /// Link to the game.
    pub url: String,
    /// Time control display string (`10+5`, `∞`).
    pub time_control: String,
    /// When the game was created, milliseconds since the epoch.
    pub created_at: i64,
    /// The result, if the game is over.
    pub result: Option<Outcome>,
}

/// The persistent set-up of a game: everything needed to rebuild its table together with the
/// moves. Stored as JSON; for Jieqi it holds the secret deal, so it never leaves the server
/// before the end.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Setup {
    /// The start position (public form) as FEN/SFEN.
    pub initial_fen: String,
    /// The shogi handicap name, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handicap: Option<String>,
    /// Jieqi: the deal letters (jieqi.md order), secret until the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<String>,
    /// Jieqi: the commitment salt (hex), secret until the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub salt: Option<String>,
}

/// A live game of any variant. `dyn Table` is all the rest of the server sees.
pub trait Table: Send + Sync {
    /// The variant.
    fn variant(&self) -> Variant;
    /// The start position as everyone may see it.
    fn initial_fen(&self) -> String;
    /// The current position as everyone may see it.
    fn fen(&self) -> String;
    /// The side to move.
    fn to_move(&self) -> Side;
    /// The moves played, as recorded (Jieqi: with reveal suffixes).
    fn moves(&self) -> &[String];
    /// The legal moves of the side to move, in the text players send, sorted.
    fn legal_moves(&self) -> Vec<String>;
    /// Plays a move given as players send it; returns the text recorded for it. An illegal move
    /// changes nothing.
    fn play(&mut self, text: &str) -> Result<String, IllegalMove>;
    /// Replays a recorded move (from the store).
    fn replay(&mut self, recorded: &str) -> Result<(), IllegalMove>;
    /// The outcome if the moves so far ended the game.
    fn outcome(&self) -> Option<Outcome>;
    /// Whether `side` has material that could ever give check (xiangqi family: chariot, horse,
    /// cannon or soldier; Jieqi also any covered piece and a freed advisor or elephant). The
    /// shogi family always can.
    fn can_ever_check(&self, side: Side) -> bool;
    /// The side to move declares impasse (shogi): the winning outcome, or which condition
    /// failed. Changes nothing on failure.
    fn declare_impasse(&mut self) -> Result<Outcome, IllegalMove>;
    /// The viewer's extra view fields (Jieqi: commitment, captures, pool; after the end, deal
    /// and salt). `viewer` is `None` for spectators; `ended` releases everything.
    fn extras(&self, viewer: Option<Side>, ended: bool) -> Map<String, Value>;
    /// The record in `format`, or why this format does not fit this variant.
    fn record(&self, format: RecordFormat, info: &RecordInfo) -> Result<String, String>;
}

/// Creates a new game's set-up: the start from `fen`, a `handicap` name or the variant's
/// standard start, and for Jieqi a fresh secret deal from the operating system's RNG.
pub fn create(
    variant: Variant,
    fen: Option<&str>,
    handicap: Option<&str>,
) -> Result<Setup, SetupError> {
    if fen.is_some() && handicap.is_some() {
        return Err(SetupError::Unsupported(
            "give either a fen or a handicap, not both".into(),
        ));
    }
    if handicap.is_some() && variant.family() != Family::Shogi {
        return Err(SetupError::BadHandicap(format!(
            "handicaps exist only in shogi and minishogi, not in {variant}"
        )));
    }
    if variant == Variant::Jieqi && fen.is_some() {
        return Err(SetupError::Unsupported(
            "a Jieqi game always starts from a fresh shuffled deal: fen is not accepted".into(),
        ));
    }
    rules::create(variant, fen, handicap)
}

/// Rebuilds a table from its set-up and recorded moves.
pub fn open(variant: Variant, setup: &Setup, moves: &[String]) -> Result<Box<dyn Table>, SetupError> {
    let mut table = rules::open(variant, setup)?;
    for (i, mv) in moves.iter().enumerate() {
        table
            .replay(mv)
            .map_err(|e| SetupError::Corrupt(format!("move {} `{mv}`: {e}", i + 1)))?;
    }
    Ok(table)
}

/// The same set-up for a rematch: the same start and handicap, and for Jieqi a new deal.
pub fn rematch(variant: Variant, setup: &Setup) -> Result<Setup, SetupError> {
    if variant == Variant::Jieqi {
        rules::create(variant, None, None)
    } else {
        Ok(Setup {
            deal: None,
            salt: None,
            ..setup.clone()
        })
    }
}

/// Whether a xiangqi-family board (the first FEN field) holds, for `side`, a piece that could
/// ever give check. Covered pieces (`X`/`x`) count: whatever they are, once revealed they can.
/// In Jieqi a revealed advisor or elephant is freed (jieqi.md) and can reach the enemy palace.
pub(crate) fn xiangqi_can_ever_check(fen: &str, side: Side, jieqi: bool) -> bool {
    let board = fen.split_whitespace().next().unwrap_or("");
    board.chars().any(|c| {
        let ours = match side {
            Side::First => c.is_ascii_uppercase(),
            Side::Second => c.is_ascii_lowercase(),
        };
        ours && match c.to_ascii_lowercase() {
            'r' | 'n' | 'h' | 'c' | 'p' | 'x' => true,
            'a' | 'b' | 'e' => jieqi,
            _ => false,
        }
    })
}

/// A table for the variants without hidden information, over any `jiang_rules::Game`.
pub(crate) struct Plain<G: Game> {
    game: G,
    initial: String,
    moves: Vec<String>,
}

impl<G: Game> Plain<G> {
    /// A new table from a start position.
    pub(crate) fn new(start: G::Position) -> Self {
        Plain {
            initial: start.fen(),
            game: G::new(start),
            moves: Vec::new(),
        }
    }
}

impl<G: Game> Table for Plain<G> {
    fn variant(&self) -> Variant {
        self.game.position().variant()
    }

    fn initial_fen(&self) -> String {
        self.initial.clone()
    }

    fn fen(&self) -> String {
        self.game.position().fen()
    }

    fn to_move(&self) -> Side {
        self.game.position().turn()
    }

    fn moves(&self) -> &[String] {
        &self.moves
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.game.outcome().is_some() {
            return Vec::new();
        }
        self.game.position().legal_move_texts()
    }

    fn play(&mut self, text: &str) -> Result<String, IllegalMove> {
        if self.game.outcome().is_some() {
            return Err(IllegalMove("the game is over".into()));
        }
        let position = self.game.position();
        let mv = position
            .parse_move(text)
            .map_err(|e| IllegalMove(e.to_string()))?;
        let canonical = position.move_text(mv);
        self.game.play_text(&canonical)?;
        self.moves.push(canonical.clone());
        Ok(canonical)
    }

    fn replay(&mut self, recorded: &str) -> Result<(), IllegalMove> {
        self.play(recorded).map(|_| ())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn can_ever_check(&self, side: Side) -> bool {
        match self.variant().family() {
            Family::Xiangqi => xiangqi_can_ever_check(&self.fen(), side, false),
            Family::Shogi => true,
        }
    }

    fn declare_impasse(&mut self) -> Result<Outcome, IllegalMove> {
        if self.variant() != Variant::Shogi {
            return Err(IllegalMove(format!(
                "{} has no impasse declaration",
                self.variant()
            )));
        }
        rules::declare_impasse(&mut self.game)
    }

    fn extras(&self, _viewer: Option<Side>, _ended: bool) -> Map<String, Value> {
        Map::new()
    }

    fn record(&self, format: RecordFormat, info: &RecordInfo) -> Result<String, String> {
        rules::record(
            self.variant(),
            &self.initial,
            &self.moves,
            &self.fen(),
            format,
            info,
        )
    }
}

/// The wiring to the rules crate's concrete types: the only code that names them.
mod rules {
    use super::*;

    pub(super) fn create(
        variant: Variant,
        fen: Option<&str>,
        handicap: Option<&str>,
    ) -> Result<Setup, SetupError> {
        let _ = (fen, handicap);
        Err(SetupError::Unsupported(format!(
            "{variant} is not available on this server yet"
        )))
    }

    pub(super) fn open(variant: Variant, setup: &Setup) -> Result<Box<dyn Table>, SetupError> {
        let _ = setup;
        Err(SetupError::Unsupported(format!(
            "{variant} is not available on this server yet"
        )))
    }

    pub(super) fn declare_impasse<G: Game>(game: &mut G) -> Result<Outcome, IllegalMove> {
        game.play_text("win")?;
        game.outcome()
            .ok_or_else(|| IllegalMove("the declaration did not end the game".into()))
    }

    pub(super) fn record(
        variant: Variant,
        initial: &str,
        moves: &[String],
        fen: &str,
        format: RecordFormat,
        info: &RecordInfo,
    ) -> Result<String, String> {
        let _ = (initial, moves, info);
        match (variant.family(), format) {
            (Family::Xiangqi, RecordFormat::Fen) | (Family::Shogi, RecordFormat::Sfen) => {
                Ok(format!("{fen}\n"))
            }
            _ => Err(format!(
                "format {} is not available for {variant}",
                format.extension()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insufficient_material_is_read_from_the_board() {
        // Red: general and two advisors; Black: general and a horse.
        let fen = "4k4/9/9/9/9/9/9/5n3/4A4/3AK4 w - - 0 1";
        assert!(!xiangqi_can_ever_check(fen, Side::RED, false));
        assert!(xiangqi_can_ever_check(fen, Side::BLACK, false));
        // A freed Jieqi advisor can.
        assert!(xiangqi_can_ever_check(fen, Side::RED, true));
        assert!(xiangqi_can_ever_check("4k4/9/9/9/9/9/9/9/9/X3K4 w", Side::RED, true));
    }
}
