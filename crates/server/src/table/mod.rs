//! The one place where the server meets the rules: a variant-agnostic live game (a "table").
//!
//! Everything else in the server works with `dyn Table` and never matches on variants: creating
//! a game from a variant plus an optional custom start or handicap (plus a deal for Jieqi),
//! legal moves as text, playing text, the outcome, the per-viewer variant fields of a view, record
//! export, whether a side could ever give check (for `timeout-vs-insufficient`) and the shogi
//! impasse declaration.
//!
//! May use: the rules crate, `hints`, and `knowledge` beside it (Jieqi's per-side views),
//! which uses this module back: one concern in one folder. Nothing async, no I/O.

use jiang_rules::jieqi::{Deal, JieqiError, JieqiGame, JieqiView, Observer, Salt};
use jiang_rules::shogi::notation::{
    RecordError as ShogiRecordError, ShogiRecord, write_csa, write_ki2, write_kif,
    write_kif_with_variations,
};
use jiang_rules::shogi::notation::{WesternStyle, japanese_line, western};
use jiang_rules::variation::{
    Node, RecordFacts, TreeError, main_line, main_line_outcome, parse_tree,
};
use jiang_rules::xiangqi::notation::{
    MoveFormat, Record, Script, Style as XiangqiStyle, move_list,
};
use jiang_rules::{
    Family, Outcome, Position, Reason, RecordClock, RefusedMove, Side, Variant, shogi, xiangqi,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use jiang_protocol::{Capture, ErrorReason, ImpassePoints, VariantFields};

use crate::hints::{self, Hints, History};

pub(crate) mod knowledge;

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

/// Why a move, a stored move or a declaration was refused. Nothing changed.
#[derive(Debug, thiserror::Error)]
pub enum PlayError {
    /// The rules refused it: the family's own typed reason (the move does not parse or is not
    /// legal, the game is over, a declaration does not hold or the variant has none).
    #[error(transparent)]
    Rules(#[from] RefusedMove),
    /// The game was ended outside play (resignation, time, …).
    #[error("the game is over ({0})")]
    Ended(Reason),
    /// Jieqi: a stored move's reveal is not the one the deal gives (corrupt data).
    #[error("stored move `{recorded}` does not match the deal (`{played}`)")]
    DealMismatch {
        /// The move as stored.
        recorded: String,
        /// The move as the deal plays it.
        played: String,
    },
}

impl From<xiangqi::PlayError> for PlayError {
    fn from(error: xiangqi::PlayError) -> Self {
        PlayError::Rules(error.into())
    }
}

impl From<JieqiError> for PlayError {
    fn from(error: JieqiError) -> Self {
        PlayError::Rules(error.into())
    }
}

impl From<shogi::PlayError> for PlayError {
    fn from(error: shogi::PlayError) -> Self {
        PlayError::Rules(error.into())
    }
}

impl PlayError {
    /// The stable name of the rules' typed reason, for clients that say it in their reader's
    /// language (docs/api.md, Errors); `None` where the rules give no finer reason than the code.
    pub fn reason(&self) -> Option<ErrorReason> {
        match self {
            PlayError::Rules(refused) => refused_reason(refused),
            PlayError::Ended(_) => Some(ErrorReason::GameOver),
            PlayError::DealMismatch { .. } => None,
        }
    }
}

/// See [`PlayError::reason`].
fn refused_reason(refused: &RefusedMove) -> Option<ErrorReason> {
    match refused {
        RefusedMove::Xiangqi(xiangqi::PlayError::Illegal(e)) => Some(xiangqi_move_reason(e)),
        RefusedMove::Xiangqi(xiangqi::PlayError::GameOver(_)) => Some(ErrorReason::GameOver),
        RefusedMove::Jieqi(JieqiError::Malformed(_)) => Some(ErrorReason::Malformed),
        RefusedMove::Jieqi(JieqiError::Illegal(e)) => Some(xiangqi_move_reason(e)),
        RefusedMove::Jieqi(JieqiError::GameOver(_)) => Some(ErrorReason::GameOver),
        RefusedMove::Jieqi(JieqiError::DealMismatch { .. }) => None,
        RefusedMove::Shogi(shogi::PlayError::GameOver(_)) => Some(ErrorReason::GameOver),
        RefusedMove::Shogi(shogi::PlayError::NotLegal { reason, .. }) => {
            Some(shogi_move_reason(reason))
        }
        RefusedMove::Shogi(shogi::PlayError::Move(shogi::MoveError::Syntax(_))) => {
            Some(ErrorReason::Malformed)
        }
        RefusedMove::Shogi(shogi::PlayError::Move(shogi::MoveError::Illegal {
            reason, ..
        })) => Some(shogi_move_reason(reason)),
        RefusedMove::Shogi(shogi::PlayError::Impasse(e)) => match e {
            shogi::ImpasseError::KingNotInZone => Some(ErrorReason::KingNotInZone),
            shogi::ImpasseError::TooFewPieces { .. } => Some(ErrorReason::TooFewPieces),
            shogi::ImpasseError::InCheck => Some(ErrorReason::InCheck),
            shogi::ImpasseError::TooFewPoints { .. } => Some(ErrorReason::TooFewPoints),
            // The server refuses these before asking the rules (impasse_not_allowed,
            // game_over): the code says all there is.
            shogi::ImpasseError::NotAvailable(_) | shogi::ImpasseError::GameOver => None,
        },
        // The code says all there is: a declaration in a variant without one is refused
        // (impasse_not_allowed) before a table is asked, and `win` is only read as one.
        RefusedMove::NoImpasse(_) | RefusedMove::DeclarationAsMove => None,
    }
}

/// The reason for a refused Xiangqi or Jieqi move.
fn xiangqi_move_reason(error: &xiangqi::MoveError) -> ErrorReason {
    use xiangqi::MoveError as E;
    match error {
        E::Malformed(_) => ErrorReason::Malformed,
        E::NoPiece(_) => ErrorReason::NoPiece,
        E::NotYourPiece(_) => ErrorReason::NotYourPiece,
        E::Unreachable { .. } => ErrorReason::Unreachable,
        E::LeavesGeneralAttacked { .. } => ErrorReason::LeavesGeneralInCheck,
        E::MissingReveal { .. }
        | E::UnexpectedReveal { .. }
        | E::BadRevealLetter { .. }
        | E::RevealNotInPool { .. } => ErrorReason::RevealLetter,
    }
}

/// The reason for a refused Shogi or Minishogi move.
fn shogi_move_reason(error: &shogi::Illegal) -> ErrorReason {
    use shogi::Illegal as E;
    match error {
        E::OffBoard { .. } => ErrorReason::OffBoard,
        E::NotInHand(_) => ErrorReason::NotInHand,
        E::DropOnOccupied(_) => ErrorReason::DropOnOccupied,
        E::DeadDrop(_) => ErrorReason::DeadDrop,
        E::Nifu { .. } => ErrorReason::Nifu,
        E::Uchifuzume => ErrorReason::Uchifuzume,
        E::NoPiece(_) => ErrorReason::NoPiece,
        E::NotYourPiece(_) => ErrorReason::NotYourPiece,
        E::OwnPieceOnTarget(_) | E::Unreachable { .. } => ErrorReason::Unreachable,
        E::CannotPromote(_) | E::PromotionOutsideZone => ErrorReason::CannotPromote,
        E::MustPromote { .. } => ErrorReason::MustPromote,
        E::IgnoresCheck | E::LeavesKingInCheck => ErrorReason::LeavesKingInCheck,
        E::GameOver(_) => ErrorReason::GameOver,
    }
}

/// Why a record could not be written.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The format belongs to the other family.
    #[error("A {variant} record cannot be written as {}: use {}.", .format.extension(), formats_of(.variant.family()))]
    WrongFormat {
        /// The game's variant.
        variant: Variant,
        /// The format asked for.
        format: RecordFormat,
    },
    /// The shogi record writer refused the game.
    #[error("The record cannot be written: {0}.")]
    Unwritable(#[from] ShogiRecordError),
}

/// A map from `variant`'s side names to `f` of each side: the shape of every per-side field of
/// a view.
pub fn per_side<T>(variant: Variant, f: impl Fn(Side) -> T) -> BTreeMap<String, T> {
    Side::BOTH
        .into_iter()
        .map(|side| (variant.side_name(side).to_owned(), f(side)))
        .collect()
}

/// The record formats of a family, for error messages.
fn formats_of(family: Family) -> &'static str {
    match family {
        Family::Xiangqi => "pgn or fen",
        Family::Shogi => "kif, ki2, csa or sfen",
    }
}

/// The record formats of `GET /api/games/{id}/record`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordFormat {
    /// PGN-style record (xiangqi family), ICCS moves with `[Format "ICCS"]`.
    Pgn,
    /// PGN-style record with WXF moves (`?format=pgn&moves=wxf`; Jieqi stays ICCS).
    #[serde(skip)]
    PgnWxf,
    /// PGN-style record with Chinese moves (`?format=pgn&moves=chinese`; Jieqi stays ICCS).
    #[serde(skip)]
    PgnChinese,
    /// KIF (shogi family), UTF-8.
    Kif,
    /// KI2 (shogi family), UTF-8.
    Ki2,
    /// CSA (shogi family).
    Csa,
    /// The current position as FEN (xiangqi family).
    Fen,
    /// The current position as SFEN (shogi family).
    Sfen,
}

impl RecordFormat {
    /// The file extension of a download. Jiang writes KIF and KI2 as UTF-8, and UTF-8 KIF is
    /// `.kifu` (`.ki2u`) by the convention of Kifu for Windows, ShogiGUI and cshogi, which
    /// read a `.kif` file as Shift_JIS: UTF-8 keeps every player name, where Shift_JIS cannot
    /// hold many.
    pub fn extension(self) -> &'static str {
        match self {
            RecordFormat::Pgn | RecordFormat::PgnWxf | RecordFormat::PgnChinese => "pgn",
            RecordFormat::Kif => "kifu",
            RecordFormat::Ki2 => "ki2u",
            RecordFormat::Csa => "csa",
            RecordFormat::Fen => "fen",
            RecordFormat::Sfen => "sfen",
        }
    }

    /// The content type of a download; every record is UTF-8 and says so.
    pub fn content_type(self) -> &'static str {
        match self {
            RecordFormat::Pgn | RecordFormat::PgnWxf | RecordFormat::PgnChinese => {
                "application/x-chess-pgn; charset=utf-8"
            }
            _ => "text/plain; charset=utf-8",
        }
    }

    /// The format's name between nodes of a cluster (`pgn`, `pgn-wxf`, `pgn-chinese`, `kif`, …).
    pub fn name(self) -> &'static str {
        match self {
            RecordFormat::Pgn => "pgn",
            RecordFormat::PgnWxf => "pgn-wxf",
            RecordFormat::PgnChinese => "pgn-chinese",
            RecordFormat::Kif => "kif",
            RecordFormat::Ki2 => "ki2",
            RecordFormat::Csa => "csa",
            RecordFormat::Fen => "fen",
            RecordFormat::Sfen => "sfen",
        }
    }

    /// The format of [`RecordFormat::name`] `name`, if any.
    pub fn from_name(name: &str) -> Option<RecordFormat> {
        [
            RecordFormat::Pgn,
            RecordFormat::PgnWxf,
            RecordFormat::PgnChinese,
            RecordFormat::Kif,
            RecordFormat::Ki2,
            RecordFormat::Csa,
            RecordFormat::Fen,
            RecordFormat::Sfen,
        ]
        .into_iter()
        .find(|f| f.name() == name)
    }

    /// The PGN flavour named by the `moves` query parameter (`iccs`, `wxf`, `chinese`).
    pub fn pgn_with_moves(moves: &str) -> Option<RecordFormat> {
        match moves {
            "iccs" => Some(RecordFormat::Pgn),
            "wxf" => Some(RecordFormat::PgnWxf),
            "chinese" => Some(RecordFormat::PgnChinese),
            _ => None,
        }
    }

    /// The movetext format of a PGN flavour, `None` for the other formats.
    fn move_format(self) -> Option<MoveFormat> {
        match self {
            RecordFormat::Pgn => Some(MoveFormat::Iccs),
            RecordFormat::PgnWxf => Some(MoveFormat::Wxf),
            RecordFormat::PgnChinese => Some(MoveFormat::Chinese(Script::Simplified)),
            _ => None,
        }
    }
}

/// The human move notations of `GET /api/games/{id}/notation?style=…`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotationStyle {
    /// ICCS, the xiangqi family's machine notation (Jieqi: with reveal suffixes).
    Iccs,
    /// WXF (`C2.5`), xiangqi family.
    Wxf,
    /// Chinese in simplified characters (`炮二平五`), xiangqi family.
    Chinese,
    /// Chinese in traditional characters (`砲二平五`), xiangqi family.
    ChineseTraditional,
    /// USI, the shogi family's machine notation.
    Usi,
    /// Japanese (`☗７六歩`), shogi family.
    Japanese,
    /// Western with numeric squares (`P-76`), shogi family.
    Western,
    /// Western with USI-style squares (`P-7f`), shogi family.
    WesternLetters,
}

impl NotationStyle {
    /// Every style, for error messages.
    pub const ALL: [NotationStyle; 8] = [
        NotationStyle::Iccs,
        NotationStyle::Wxf,
        NotationStyle::Chinese,
        NotationStyle::ChineseTraditional,
        NotationStyle::Usi,
        NotationStyle::Japanese,
        NotationStyle::Western,
        NotationStyle::WesternLetters,
    ];

    /// The style's name in the API (`wxf`, `chinese-traditional`, `western-letters`, …).
    pub fn name(self) -> &'static str {
        match self {
            NotationStyle::Iccs => "iccs",
            NotationStyle::Wxf => "wxf",
            NotationStyle::Chinese => "chinese",
            NotationStyle::ChineseTraditional => "chinese-traditional",
            NotationStyle::Usi => "usi",
            NotationStyle::Japanese => "japanese",
            NotationStyle::Western => "western",
            NotationStyle::WesternLetters => "western-letters",
        }
    }

    /// The style named `name` in the API, if any.
    pub fn parse(name: &str) -> Option<NotationStyle> {
        NotationStyle::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The family whose moves this style writes.
    pub fn family(self) -> Family {
        match self {
            NotationStyle::Iccs
            | NotationStyle::Wxf
            | NotationStyle::Chinese
            | NotationStyle::ChineseTraditional => Family::Xiangqi,
            _ => Family::Shogi,
        }
    }

    /// The names of the styles of `family`, comma-separated, for error messages.
    pub fn names_for(family: Family) -> String {
        NotationStyle::ALL
            .into_iter()
            .filter(|s| s.family() == family)
            .map(NotationStyle::name)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Why a move list cannot be written in a notation style.
#[derive(Debug, thiserror::Error)]
#[error("a {variant} game cannot be written in {} notation: use one of {}", .style.name(), NotationStyle::names_for(.variant.family()))]
pub struct WrongFamily {
    /// The game's variant.
    pub variant: Variant,
    /// The style asked for.
    pub style: NotationStyle,
}

/// The xiangqi family's move list of `game` in `style` (for Jieqi, the public game).
fn xiangqi_move_list(
    variant: Variant,
    game: &xiangqi::Game,
    style: NotationStyle,
) -> Result<Vec<String>, WrongFamily> {
    let rules_style = match style {
        NotationStyle::Iccs => XiangqiStyle::Iccs,
        NotationStyle::Wxf => XiangqiStyle::Wxf,
        NotationStyle::Chinese => XiangqiStyle::Chinese(Script::Simplified),
        NotationStyle::ChineseTraditional => XiangqiStyle::Chinese(Script::Traditional),
        _ => return Err(WrongFamily { variant, style }),
    };
    Ok(move_list(game, rules_style))
}

/// What a record says about the game besides its moves.
#[derive(Clone, Debug)]
pub struct RecordInfo {
    /// The game id (for the header / site link).
    pub id: String,
    /// Link to the game.
    pub url: String,
    /// The clock settings, `None` for an untimed game.
    pub clock: Option<RecordClock>,
    /// Milliseconds each move took, one per move played, when known (empty otherwise).
    pub move_ms: Vec<u64>,
    /// When the game was created, milliseconds since the epoch.
    pub created_at: i64,
    /// The result, if the game is over.
    pub result: Option<Outcome>,
    /// The takebacks made in the game, one line each (`takeback: red took back e1e0 at ply
    /// 3`): PGN writes them in a `Takebacks` tag, KIF/KI2 and CSA as header comments.
    pub takebacks: Vec<String>,
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

/// Trait methods that only pass the call on to a field of `self`: `forward! { field => fn
/// name(&self, arg: Type) -> Return; … }` writes each as `self.field.name(arg)`.
macro_rules! forward {
    ($field:ident => $(fn $name:ident(&self $(, $arg:ident: $ty:ty)*) -> $ret:ty;)*) => {
        $(
            fn $name(&self $(, $arg: $ty)*) -> $ret {
                self.$field.$name($($arg),*)
            }
        )*
    };
}
pub(crate) use forward;

/// A live game of any variant. `dyn Table` is all the rest of the server sees.
pub trait Table: Send + Sync {
    /// A copy, on which a change is computed before it is stored (the original stays as it is
    /// until the store has the change).
    fn boxed_clone(&self) -> Box<dyn Table>;
    /// Whether the players may agree a draw (the xiangqi family; shogi has no agreed draws).
    fn allows_agreed_draws(&self) -> bool;
    /// Whether a player may declare impasse (shogi; not minishogi).
    fn has_impasse_declaration(&self) -> bool;
    /// The outcome when `flagged` runs out of time: the other side wins, unless it could never
    /// give check (clocks-and-games.md: then a draw, `timeout-vs-insufficient`).
    fn flag_outcome(&self, flagged: Side) -> Outcome {
        let winner = !flagged;
        if self.can_ever_check(winner) {
            Outcome::win(winner, Reason::Timeout)
        } else {
            Outcome::draw(Reason::TimeoutVsInsufficient)
        }
    }
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
    fn play(&mut self, text: &str) -> Result<String, PlayError>;
    /// Replays a recorded move (from the store).
    fn replay(&mut self, recorded: &str) -> Result<(), PlayError>;
    /// The outcome if the moves so far (or [`Table::end`]) ended the game.
    fn outcome(&self) -> Option<Outcome>;
    /// Records an end decided outside play (resignation, time, agreement, abort), so that
    /// hidden information is released (Jieqi).
    fn end(&mut self, outcome: Outcome);
    /// Whether `side` has material that could ever give check (xiangqi family: chariot, horse,
    /// cannon or soldier; Jieqi also any covered piece and a freed advisor or elephant). The
    /// shogi family always can.
    fn can_ever_check(&self, side: Side) -> bool;
    /// The side to move declares impasse (shogi): the winning outcome, or which condition
    /// failed. Changes nothing on failure.
    fn declare_impasse(&mut self) -> Result<Outcome, PlayError>;
    /// The viewer's variant-specific view fields (Jieqi: commitment, captures, pools; after the
    /// end, deal and salt; shogi: impasse points). `viewer` is `None` for spectators.
    fn variant_fields(&self, viewer: Option<Side>) -> VariantFields;
    /// The record in `format`, or why this format does not fit this variant.
    fn record(&self, format: RecordFormat, info: &RecordInfo) -> Result<String, RecordError>;
    /// Every move played, written in `style` (public information only: the same for every
    /// viewer), or why this style does not fit this variant.
    fn notation(&self, style: NotationStyle) -> Result<Vec<String>, WrongFamily>;
    /// The view's `hints` for a viewer whose `legal_moves` (the view's: empty unless the
    /// viewer is to move) are given: the checked king, the legal moves' human names and, in
    /// shogi, whether impasse may be declared. Public information and the viewer's own only.
    fn hints(&self, legal_moves: &[String]) -> Hints;
    /// The move list in `style` with the positions the game went through (public positions),
    /// or why this style does not fit this variant.
    fn history(&self, style: NotationStyle) -> Result<History, WrongFamily> {
        let moves = self.notation(style)?;
        let (positions, notes) = self.positions(style);
        Ok(History {
            style: style.name().to_owned(),
            moves,
            notes,
            positions,
        })
    }
    /// The start and every position after it as [`History::positions`] shows them, and for
    /// Jieqi the reveal notes of the moves in `style`.
    fn positions(&self, style: NotationStyle) -> (Vec<hints::ShownPosition>, Option<Vec<String>>);
    /// A new table at this one's start with the same set-up (Jieqi: the same deal), for the
    /// analysis board.
    fn restart(&self) -> Box<dyn Table>;
    /// A table at this one's start that knows public information only: for Jieqi the public
    /// game (covered pieces stay covered and a covered piece's move must name the identity
    /// supposed for it, `h2e2R`); for the other variants the same as [`Table::restart`].
    fn public_restart(&self) -> Box<dyn Table>;
    /// A table at this one's start for the analysis of the finished game "as `side` knew
    /// it": Jieqi plays the public game (as [`Table::public_restart`]), and while the line
    /// follows the game's record its pools, captures and engine input are `side`'s view at
    /// that ply (it knows the covered pieces it captured). Other variants: [`Table::restart`].
    fn knowledge_restart(&self, side: Side) -> Box<dyn Table> {
        let _ = side;
        self.public_restart()
    }
    /// With [`Table::knowledge_restart`], on the game's record: per side name, the pieces
    /// captured by that side as the knowing side saw them. `None` elsewhere.
    fn captured(&self) -> Option<BTreeMap<String, Vec<Capture>>> {
        None
    }
    /// One text per move of [`Table::legal_moves`], in the same order, written in `style`.
    fn legal_notation(&self, style: NotationStyle) -> Result<Vec<String>, WrongFamily>;
    /// Jieqi: per side name, the identities not yet turned over in this game (public).
    fn pool(&self) -> Option<BTreeMap<String, String>> {
        None
    }
    /// Jieqi with the deal: square → FEN letter of every piece still face down. Only for the
    /// analysis of a finished game, whose deal is public.
    fn covered_pieces(&self) -> Option<BTreeMap<String, String>> {
        None
    }
    /// The move tree `tree` played from this table's start, written as a record with its
    /// variations (PGN `(…)` for the xiangqi family, KIF `変化` blocks for shogi), with the
    /// players' names and the ending `facts` give (the recorded ending when the main line is
    /// the recorded line, else the rules' verdict at the main line's end).
    fn write_tree(
        &self,
        tree: &[Node<String>],
        format: RecordFormat,
        facts: &RecordFacts,
    ) -> Result<String, TreeExportError>;
    /// What an engine playing `seat` may know of the game, as the engine's input: the public
    /// game, and in Jieqi that seat's view (built from [`JieqiGame::view`], never the deal).
    fn engine_input(&self, seat: Side) -> Result<jiang_engine::Input, jiang_engine::InputError>;
}

/// Why a move tree could not be written as a record.
#[derive(Debug, thiserror::Error)]
pub enum TreeExportError {
    /// The format does not fit the variant (or has no variations: CSA, KI2, FEN).
    #[error("A {variant} analysis cannot be exported as {}: use {}.", .format.extension(), if .variant.family() == Family::Xiangqi { "pgn" } else { "kif" })]
    WrongFormat {
        /// The variant.
        variant: Variant,
        /// The format asked for.
        format: RecordFormat,
    },
    /// A move of the tree is not legal where it stands.
    #[error("The tree has an illegal move at {0}.")]
    Tree(#[from] TreeError),
    /// The record writer refused the tree.
    #[error("The record cannot be written: {0}.")]
    Unwritable(#[from] ShogiRecordError),
}

/// A board for the analysis of a position that belongs to no game: `fen` (or the variant's
/// start). Jieqi: the public game from a position with covered pieces (and an optional pool);
/// a covered piece's move names the identity supposed for it.
pub fn open_analysis(variant: Variant, fen: Option<&str>) -> Result<Box<dyn Table>, SetupError> {
    match (variant, fen) {
        (Variant::Jieqi, fen) => {
            let start = match fen {
                Some(text) => xiangqi::Position::from_fen(variant, text)
                    .map_err(|e| SetupError::BadFen(e.to_string()))?,
                None => xiangqi::Position::start(variant),
            };
            Ok(Box::new(OpenTable::new(xiangqi::Game::new(start))))
        }
        _ => open(variant, &create(variant, fen, None)?, &[]),
    }
}

/// The xiangqi-family texts of `position`'s legal moves (ICCS without reveals, sorted and
/// deduplicated as [`Table::legal_moves`] lists them) in `style`.
fn xiangqi_legal_notation(
    variant: Variant,
    position: &xiangqi::Position,
    style: NotationStyle,
) -> Result<Vec<String>, WrongFamily> {
    let spell: fn(&xiangqi::Position, xiangqi::Move) -> String = match style {
        NotationStyle::Iccs => |_, mv| mv.iccs(),
        NotationStyle::Wxf => xiangqi::notation::wxf,
        NotationStyle::Chinese => |p, mv| xiangqi::notation::chinese(p, mv, Script::Simplified),
        NotationStyle::ChineseTraditional => {
            |p, mv| xiangqi::notation::chinese(p, mv, Script::Traditional)
        }
        _ => return Err(WrongFamily { variant, style }),
    };
    let mut named: Vec<(String, String)> = position
        .legal_moves_unrevealed()
        .into_iter()
        .map(|mv| (mv.iccs(), spell(position, mv)))
        .collect();
    named.sort();
    named.dedup_by(|a, b| a.0 == b.0);
    Ok(named.into_iter().map(|(_, text)| text).collect())
}

/// Jieqi: the note shown after each move of the public `game` in `style` for its reveal.
fn jieqi_notes(game: &xiangqi::Game, style: NotationStyle) -> Vec<String> {
    let style = match style {
        NotationStyle::Wxf => XiangqiStyle::Wxf,
        NotationStyle::Chinese => XiangqiStyle::Chinese(Script::Simplified),
        NotationStyle::ChineseTraditional => XiangqiStyle::Chinese(Script::Traditional),
        _ => XiangqiStyle::Iccs,
    };
    game.moves()
        .iter()
        .map(|&mv| xiangqi::notation::reveal_note(mv, style))
        .collect()
}

/// Jieqi: per side name, the identities not yet turned over in `position` (public).
/// Jieqi: per side name, the pieces captured by that side as `view`'s observer sees them.
pub(crate) fn jieqi_captures(view: &JieqiView) -> BTreeMap<String, Vec<Capture>> {
    let name = |side: Side| Variant::Jieqi.side_name(side).to_owned();
    per_side(Variant::Jieqi, |side| {
        view.captured[side.index()]
            .iter()
            .map(|c| Capture {
                ply: c.ply as u64,
                square: c.square.to_string(),
                side: name(c.side),
                was_covered: c.was_covered,
                piece: c.piece.map(|p| p.fen_letter().to_string()),
            })
            .collect()
    })
}

/// Jieqi: per side name, the identities `view`'s observer has not seen (FEN pool text).
pub(crate) fn jieqi_unseen(view: &JieqiView) -> BTreeMap<String, String> {
    per_side(Variant::Jieqi, |side| view.pools[side.index()].text(side))
}

fn jieqi_pool(position: &xiangqi::Position) -> BTreeMap<String, String> {
    per_side(Variant::Jieqi, |side| position.pool(side).fen_text(side))
}

/// The xiangqi-family PGN of `tree` from `start` (public: Jieqi moves with their reveals).
fn xiangqi_tree_record(
    start: &xiangqi::Position,
    tree: &[Node<String>],
    format: RecordFormat,
    facts: &RecordFacts,
) -> Result<String, TreeExportError> {
    let moves = format.move_format().ok_or(TreeExportError::WrongFormat {
        variant: start.variant(),
        format,
    })?;
    let parsed = parse_tree(start, tree)?;
    let mut record = Record::new(start.clone());
    record.set_tag("Event", "Jiang analysis");
    for (tag, name) in ["Red", "Black"].into_iter().zip(&facts.names) {
        if let Some(name) = name {
            record.set_tag(tag, name);
        }
    }
    if let Some(outcome) = main_line_outcome::<xiangqi::Game>(start, tree, facts) {
        record.set_outcome(outcome);
    }
    Ok(record.to_text_with_variations(moves, &parsed))
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
pub fn open(
    variant: Variant,
    setup: &Setup,
    moves: &[String],
) -> Result<Box<dyn Table>, SetupError> {
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

fn fen_only(variant: Variant, format: RecordFormat, fen: String) -> Result<String, RecordError> {
    match (variant.family(), format) {
        (Family::Xiangqi, RecordFormat::Fen) | (Family::Shogi, RecordFormat::Sfen) => {
            Ok(format!("{fen}\n"))
        }
        _ => Err(RecordError::WrongFormat { variant, format }),
    }
}

fn xiangqi_tags(record: &mut Record, info: &RecordInfo) {
    let (y, m, d, ..) = jiang_rules::utc_civil(info.created_at);
    record.set_tag("Event", "Jiang game");
    record.set_tag("Site", &info.url);
    record.set_tag("Date", &format!("{y:04}.{m:02}.{d:02}"));
    record.set_tag("TimeControl", &RecordClock::pgn(info.clock.as_ref()));
    if let Some(byoyomi) = info.clock.as_ref().and_then(RecordClock::pgn_byoyomi) {
        record.set_tag("Byoyomi", &byoyomi);
    }
    if let Some(outcome) = info.result {
        record.set_outcome(outcome);
    }
    if !info.takebacks.is_empty() {
        record.set_tag("Takebacks", &info.takebacks.join("; "));
    }
}

/// Jieqi: the true state lives here and leaves only through views.
#[derive(Clone)]
struct JieqiTable {
    game: JieqiGame,
    moves: Vec<String>,
}

impl Table for JieqiTable {
    fn boxed_clone(&self) -> Box<dyn Table> {
        Box::new(self.clone())
    }
    fn allows_agreed_draws(&self) -> bool {
        true
    }
    fn has_impasse_declaration(&self) -> bool {
        false
    }
    fn variant(&self) -> Variant {
        Variant::Jieqi
    }
    fn initial_fen(&self) -> String {
        self.game.public_game().start().fen()
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
        self.game.legal_moves()
    }
    fn play(&mut self, text: &str) -> Result<String, PlayError> {
        let mv = self.game.play(text)?;
        let recorded = mv.to_string();
        self.moves.push(recorded.clone());
        Ok(recorded)
    }
    fn replay(&mut self, recorded: &str) -> Result<(), PlayError> {
        let plain = recorded.get(..4).unwrap_or(recorded);
        let played = self.play(plain)?;
        if played != recorded {
            return Err(PlayError::DealMismatch {
                recorded: recorded.to_owned(),
                played,
            });
        }
        Ok(())
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }
    fn end(&mut self, outcome: Outcome) {
        let _ = self.game.end(outcome);
    }
    fn can_ever_check(&self, side: Side) -> bool {
        self.game.public_game().can_ever_check(side)
    }
    fn declare_impasse(&mut self) -> Result<Outcome, PlayError> {
        Err(RefusedMove::NoImpasse(Variant::Jieqi).into())
    }
    fn engine_input(&self, seat: Side) -> Result<jiang_engine::Input, jiang_engine::InputError> {
        // The seat's view is all the engine gets: the deal never leaves `self.game`.
        jiang_engine::Input::from_view(&self.game.view(Observer::from(Some(seat))))
    }
    fn variant_fields(&self, viewer: Option<Side>) -> VariantFields {
        let view = self.game.view(Observer::from(viewer));
        let revelation = view.revelation.as_ref();
        VariantFields {
            commitment: Some(view.commitment.to_string()),
            captured: Some(jieqi_captures(&view)),
            pool: Some(jieqi_unseen(&view)),
            covered: Some(per_side(Variant::Jieqi, |side| view.covered[side.index()])),
            deal: revelation.map(|r| r.deal.to_string()),
            salt: revelation.map(|r| r.salt.to_string()),
            covered_pieces: revelation.map(|r| {
                r.covered
                    .iter()
                    .map(|(square, piece)| (square.to_string(), piece.fen_letter().to_string()))
                    .collect()
            }),
            ..VariantFields::default()
        }
    }
    fn record(&self, format: RecordFormat, info: &RecordInfo) -> Result<String, RecordError> {
        let Some(moves) = format.move_format() else {
            return fen_only(self.variant(), format, self.fen());
        };
        // Public information only until the end; then the deal and salt tags too. Always
        // ICCS: only it carries the reveals.
        let mut record = self.game.record();
        xiangqi_tags(&mut record, info);
        Ok(record.to_text(moves))
    }
    fn notation(&self, style: NotationStyle) -> Result<Vec<String>, WrongFamily> {
        // The public game only: covered pieces are named as their point's piece, and ICCS
        // carries only reveals already made. Never the deal.
        xiangqi_move_list(self.variant(), self.game.public_game(), style)
    }
    fn hints(&self, legal_moves: &[String]) -> Hints {
        // The public position only: a covered piece is named by its point, never the deal.
        let position = self.game.position();
        let names = if legal_moves.is_empty() {
            Vec::new()
        } else {
            hints::xiangqi_names(position)
        };
        hints::hints(hints::xiangqi_check(position), legal_moves, names, None)
    }
    fn positions(&self, style: NotationStyle) -> (Vec<hints::ShownPosition>, Option<Vec<String>>) {
        let game = self.game.public_game();
        let positions = game.positions().map(|p| hints::xiangqi_shown(&p)).collect();
        (positions, Some(jieqi_notes(game, style)))
    }
    fn restart(&self) -> Box<dyn Table> {
        Box::new(JieqiTable {
            game: JieqiGame::with_deal(*self.game.deal(), *self.game.salt()),
            moves: Vec::new(),
        })
    }
    fn public_restart(&self) -> Box<dyn Table> {
        let start = self.game.public_game().start().clone();
        Box::new(OpenTable::new(xiangqi::Game::new(start)))
    }
    fn knowledge_restart(&self, side: Side) -> Box<dyn Table> {
        Box::new(crate::table::knowledge::KnownTable::new(
            self.public_restart(),
            JieqiGame::with_deal(*self.game.deal(), *self.game.salt()),
            self.moves.clone(),
            Observer::player(side),
        ))
    }
    fn legal_notation(&self, style: NotationStyle) -> Result<Vec<String>, WrongFamily> {
        if self.game.is_over() {
            return Ok(Vec::new());
        }
        xiangqi_legal_notation(Variant::Jieqi, self.game.position(), style)
    }
    fn pool(&self) -> Option<BTreeMap<String, String>> {
        Some(jieqi_pool(self.game.position()))
    }
    fn covered_pieces(&self) -> Option<BTreeMap<String, String>> {
        let deal = self.game.deal();
        Some(
            self.game
                .position()
                .occupants()
                .filter_map(|(square, occupant)| match occupant {
                    xiangqi::Occupant::Covered(side) => {
                        deal.identity_at(side, square).map(|kind| {
                            (
                                square.to_string(),
                                xiangqi::Piece::new(side, kind).fen_letter().to_string(),
                            )
                        })
                    }
                    xiangqi::Occupant::Piece(_) => None,
                })
                .collect(),
        )
    }
    fn write_tree(
        &self,
        tree: &[Node<String>],
        format: RecordFormat,
        facts: &RecordFacts,
    ) -> Result<String, TreeExportError> {
        xiangqi_tree_record(self.game.public_game().start(), tree, format, facts)
    }
}

/// Xiangqi, Shogi and Minishogi: nothing is hidden, so a table is the rules game and the moves
/// as recorded. What differs between the families is in [`OpenGame`].
#[derive(Clone)]
struct OpenTable<G> {
    game: G,
    moves: Vec<String>,
    /// An end decided outside play (resignation, time, …), for the records.
    ended: Option<Outcome>,
}

impl<G: OpenGame> OpenTable<G> {
    fn new(game: G) -> Self {
        OpenTable {
            game,
            moves: Vec::new(),
            ended: None,
        }
    }
}

/// The family-specific parts of an [`OpenTable`].
trait OpenGame: jiang_rules::Game + Clone {
    /// See [`Table::can_ever_check`].
    fn can_ever_check(&self, side: Side) -> bool;
    /// Plays a move given in machine notation; returns the text recorded for it. An illegal
    /// move changes nothing.
    fn play_recorded(&mut self, text: &str) -> Result<String, PlayError>;
    /// See [`Table::declare_impasse`].
    fn declare_impasse(&mut self) -> Result<Outcome, PlayError>;
    /// See [`Table::variant_fields`] (the same for every viewer: nothing is hidden).
    fn variant_fields(&self) -> VariantFields;
    /// The record in the family's format (PGN-style, KIF or CSA), `None` for another format.
    fn record(
        &self,
        format: RecordFormat,
        info: &RecordInfo,
        moves: &[String],
        outcome: Option<Outcome>,
    ) -> Option<Result<String, RecordError>>;
    /// See [`Table::notation`]; `moves` as recorded.
    fn notation(&self, style: NotationStyle, moves: &[String]) -> Result<Vec<String>, WrongFamily>;
    /// The checked king of the current position, if any.
    fn check(&self) -> Option<String>;
    /// The human names of the current position's legal moves, keyed by machine text.
    fn legal_names(&self) -> Vec<(String, Vec<String>)>;
    /// See [`Hints::can_declare_impasse`], for the side to move.
    fn can_declare_impasse(&self) -> Option<bool>;
    /// See [`Table::positions`] (no notes: nothing is revealed outside Jieqi).
    fn shown_positions(&self) -> Vec<hints::ShownPosition>;
    /// Jieqi's public game: the reveal notes of [`Table::positions`]; `None` elsewhere.
    fn reveal_notes(&self, _style: NotationStyle) -> Option<Vec<String>> {
        None
    }
    /// A new game at this one's start (same handicap).
    fn fresh(&self) -> Self;
    /// See [`Table::legal_notation`].
    fn legal_notation(&self, style: NotationStyle) -> Result<Vec<String>, WrongFamily>;
    /// See [`Table::pool`].
    fn pool(&self) -> Option<BTreeMap<String, String>> {
        None
    }
    /// See [`Table::write_tree`].
    fn write_tree(
        &self,
        tree: &[Node<String>],
        format: RecordFormat,
        facts: &RecordFacts,
    ) -> Result<String, TreeExportError>;
}

impl<G: OpenGame> Table for OpenTable<G> {
    fn boxed_clone(&self) -> Box<dyn Table> {
        Box::new(self.clone())
    }
    fn allows_agreed_draws(&self) -> bool {
        self.variant().family() == Family::Xiangqi
    }
    fn has_impasse_declaration(&self) -> bool {
        self.variant() == Variant::Shogi
    }
    fn variant(&self) -> Variant {
        self.game.position().variant()
    }
    fn initial_fen(&self) -> String {
        self.game.start().fen()
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
        if self.outcome().is_some() {
            return Vec::new();
        }
        self.game.position().legal_move_texts()
    }
    fn play(&mut self, text: &str) -> Result<String, PlayError> {
        if let Some(outcome) = self.outcome() {
            return Err(PlayError::Ended(outcome.reason));
        }
        let recorded = self.game.play_recorded(text)?;
        self.moves.push(recorded.clone());
        Ok(recorded)
    }
    fn replay(&mut self, recorded: &str) -> Result<(), PlayError> {
        self.play(recorded).map(|_| ())
    }
    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().or(self.ended)
    }
    fn end(&mut self, outcome: Outcome) {
        if self.outcome().is_none() {
            self.ended = Some(outcome);
        }
    }
    forward! { game =>
        fn can_ever_check(&self, side: Side) -> bool;
        fn pool(&self) -> Option<BTreeMap<String, String>>;
        fn write_tree(&self, tree: &[Node<String>], format: RecordFormat, facts: &RecordFacts)
            -> Result<String, TreeExportError>;
    }
    fn declare_impasse(&mut self) -> Result<Outcome, PlayError> {
        self.game.declare_impasse()
    }
    fn engine_input(&self, _seat: Side) -> Result<jiang_engine::Input, jiang_engine::InputError> {
        // Nothing is hidden: the public game is what both seats know.
        let moves: Vec<&str> = self.moves.iter().map(String::as_str).collect();
        jiang_engine::Input::from_text(self.variant(), &self.initial_fen(), &moves)
    }
    fn variant_fields(&self, _viewer: Option<Side>) -> VariantFields {
        self.game.variant_fields()
    }
    fn record(&self, format: RecordFormat, info: &RecordInfo) -> Result<String, RecordError> {
        self.game
            .record(format, info, &self.moves, self.outcome())
            .unwrap_or_else(|| fen_only(self.variant(), format, self.fen()))
    }
    fn notation(&self, style: NotationStyle) -> Result<Vec<String>, WrongFamily> {
        self.game.notation(style, &self.moves)
    }
    fn hints(&self, legal_moves: &[String]) -> Hints {
        let names = if legal_moves.is_empty() {
            Vec::new()
        } else {
            self.game.legal_names()
        };
        let can_declare = self
            .game
            .can_declare_impasse()
            .map(|can| can && !legal_moves.is_empty());
        hints::hints(self.game.check(), legal_moves, names, can_declare)
    }
    fn positions(&self, style: NotationStyle) -> (Vec<hints::ShownPosition>, Option<Vec<String>>) {
        (self.game.shown_positions(), self.game.reveal_notes(style))
    }
    fn restart(&self) -> Box<dyn Table> {
        Box::new(OpenTable::new(self.game.fresh()))
    }
    fn public_restart(&self) -> Box<dyn Table> {
        self.restart()
    }
    fn legal_notation(&self, style: NotationStyle) -> Result<Vec<String>, WrongFamily> {
        if self.outcome().is_some() {
            // Checked like the moves: a style of the other family is refused even here.
            return self.game.legal_notation(style).map(|_| Vec::new());
        }
        self.game.legal_notation(style)
    }
}

impl OpenGame for xiangqi::Game {
    fn can_ever_check(&self, side: Side) -> bool {
        xiangqi::Game::can_ever_check(self, side)
    }
    fn play_recorded(&mut self, text: &str) -> Result<String, PlayError> {
        let position = self.position();
        let mv = position
            .parse_move(text)
            .map_err(xiangqi::PlayError::from)?;
        let recorded = position.move_text(mv);
        xiangqi::Game::play(self, mv)?;
        Ok(recorded)
    }
    fn declare_impasse(&mut self) -> Result<Outcome, PlayError> {
        Err(RefusedMove::NoImpasse(Variant::Xiangqi).into())
    }
    fn variant_fields(&self) -> VariantFields {
        VariantFields::default()
    }
    fn record(
        &self,
        format: RecordFormat,
        info: &RecordInfo,
        _moves: &[String],
        _outcome: Option<Outcome>,
    ) -> Option<Result<String, RecordError>> {
        format.move_format().map(|moves| {
            let mut record = Record::from_game(self);
            xiangqi_tags(&mut record, info);
            Ok(record.to_text(moves))
        })
    }
    fn notation(
        &self,
        style: NotationStyle,
        _moves: &[String],
    ) -> Result<Vec<String>, WrongFamily> {
        xiangqi_move_list(Variant::Xiangqi, self, style)
    }
    fn check(&self) -> Option<String> {
        hints::xiangqi_check(self.position())
    }
    fn legal_names(&self) -> Vec<(String, Vec<String>)> {
        hints::xiangqi_names(self.position())
    }
    fn can_declare_impasse(&self) -> Option<bool> {
        None
    }
    fn shown_positions(&self) -> Vec<hints::ShownPosition> {
        self.positions().map(|p| hints::xiangqi_shown(&p)).collect()
    }
    fn reveal_notes(&self, style: NotationStyle) -> Option<Vec<String>> {
        (self.position().variant() == Variant::Jieqi).then(|| jieqi_notes(self, style))
    }
    fn fresh(&self) -> Self {
        xiangqi::Game::new(self.start().clone())
    }
    fn legal_notation(&self, style: NotationStyle) -> Result<Vec<String>, WrongFamily> {
        let position = self.position();
        xiangqi_legal_notation(position.variant(), position, style)
    }
    fn pool(&self) -> Option<BTreeMap<String, String>> {
        let position = self.position();
        (position.variant() == Variant::Jieqi).then(|| jieqi_pool(position))
    }
    fn write_tree(
        &self,
        tree: &[Node<String>],
        format: RecordFormat,
        facts: &RecordFacts,
    ) -> Result<String, TreeExportError> {
        xiangqi_tree_record(self.start(), tree, format, facts)
    }
}

impl OpenGame for shogi::Game {
    fn can_ever_check(&self, _side: Side) -> bool {
        true
    }
    fn play_recorded(&mut self, text: &str) -> Result<String, PlayError> {
        let position = self.position();
        let mv = position.parse_move(text).map_err(shogi::PlayError::from)?;
        let recorded = position.move_text(mv);
        shogi::Game::play(self, mv)?;
        Ok(recorded)
    }
    fn declare_impasse(&mut self) -> Result<Outcome, PlayError> {
        shogi::Game::declare_impasse(self).map_err(|e| PlayError::from(shogi::PlayError::from(e)))
    }
    fn variant_fields(&self) -> VariantFields {
        let variant = self.position().variant();
        let impasse = (variant == Variant::Shogi).then(|| {
            per_side(variant, |side| {
                let p = self.impasse_points(side);
                ImpassePoints {
                    king_in_zone: p.king_in_zone,
                    pieces_in_zone: p.pieces_in_zone,
                    declaration: p.declaration,
                    needed: p.needed,
                    total: p.total,
                }
            })
        });
        VariantFields {
            impasse,
            ..VariantFields::default()
        }
    }
    fn record(
        &self,
        format: RecordFormat,
        info: &RecordInfo,
        moves: &[String],
        outcome: Option<Outcome>,
    ) -> Option<Result<String, RecordError>> {
        if !matches!(
            format,
            RecordFormat::Kif | RecordFormat::Ki2 | RecordFormat::Csa
        ) {
            return None;
        }
        let (y, mo, d, h, mi, s) = jiang_rules::utc_civil(info.created_at);
        let mut record = ShogiRecord::new(self.position().variant());
        record.start_sfen = self.start().fen();
        record.handicap = self.handicap();
        record.start_time = Some(format!("{y:04}/{mo:02}/{d:02} {h:02}:{mi:02}:{s:02}"));
        record.time_control = info.clock.as_ref().map(RecordClock::kif);
        record.moves = moves.to_vec();
        // Whole seconds, rounded down, as KIF's and CSA's time columns count them.
        if info.move_ms.len() == moves.len() {
            record.move_seconds = info
                .move_ms
                .iter()
                .map(|&ms| u32::try_from(ms / 1000).unwrap_or(u32::MAX))
                .collect();
        }
        record.result = info.result.or(outcome);
        record.notes = info.takebacks.clone();
        let written = match format {
            RecordFormat::Kif => write_kif(&record),
            RecordFormat::Ki2 => write_ki2(&record),
            _ => write_csa(&record),
        };
        Some(written.map_err(RecordError::from))
    }
    fn notation(&self, style: NotationStyle, moves: &[String]) -> Result<Vec<String>, WrongFamily> {
        let western_style = match style {
            NotationStyle::Usi => return Ok(moves.to_vec()),
            NotationStyle::Japanese => return Ok(japanese_line(self.start(), &self.moves())),
            NotationStyle::Western => WesternStyle::Numeric,
            NotationStyle::WesternLetters => WesternStyle::Letters,
            _ => {
                return Err(WrongFamily {
                    variant: self.position().variant(),
                    style,
                });
            }
        };
        Ok(self
            .positions()
            .zip(self.moves())
            .map(|(pos, mv)| western(&pos, mv, western_style))
            .collect())
    }
    fn check(&self) -> Option<String> {
        hints::shogi_check(self.position())
    }
    fn legal_names(&self) -> Vec<(String, Vec<String>)> {
        hints::shogi_names(self.position(), self.moves().last().copied())
    }
    fn can_declare_impasse(&self) -> Option<bool> {
        // Minishogi has no impasse rule (shogi.md).
        (self.position().variant() == Variant::Shogi)
            .then(|| shogi::Game::can_declare_impasse(self).is_ok())
    }
    fn shown_positions(&self) -> Vec<hints::ShownPosition> {
        self.positions().map(|p| hints::shogi_shown(&p)).collect()
    }
    fn fresh(&self) -> Self {
        shogi::Game::with_handicap(self.start().clone(), self.handicap())
    }
    fn legal_notation(&self, style: NotationStyle) -> Result<Vec<String>, WrongFamily> {
        let western = match style {
            NotationStyle::Usi => return Ok(self.position().legal_move_texts()),
            NotationStyle::Japanese => None,
            NotationStyle::Western => Some(WesternStyle::Numeric),
            NotationStyle::WesternLetters => Some(WesternStyle::Letters),
            _ => {
                return Err(WrongFamily {
                    variant: self.position().variant(),
                    style,
                });
            }
        };
        let position = self.position();
        let mut named: Vec<(String, String)> =
            shogi::notation::legal_move_notation(position, self.moves().last().copied(), western)
                .into_iter()
                .map(|(mv, text)| (mv.to_string(), text))
                .collect();
        named.sort();
        named.dedup_by(|a, b| a.0 == b.0);
        Ok(named.into_iter().map(|(_, text)| text).collect())
    }
    fn write_tree(
        &self,
        tree: &[Node<String>],
        format: RecordFormat,
        facts: &RecordFacts,
    ) -> Result<String, TreeExportError> {
        let variant = self.position().variant();
        if format != RecordFormat::Kif {
            return Err(TreeExportError::WrongFormat { variant, format });
        }
        let parsed = parse_tree(self.start(), tree)?;
        let mut record = ShogiRecord::new(variant);
        record.start_sfen = self.start().fen();
        record.handicap = self.handicap();
        record.moves = main_line(&parsed).iter().map(|m| m.to_string()).collect();
        record.result = main_line_outcome::<shogi::Game>(self.start(), tree, facts);
        [record.sente_name, record.gote_name] = facts.names.clone();
        Ok(write_kif_with_variations(&record, &parsed)?)
    }
}

/// The wiring to the rules crate's concrete types: the only code that names them.
mod rules {
    use rand::TryRngCore;
    use rand::rngs::OsRng;

    use super::*;

    pub(super) fn create(
        variant: Variant,
        fen: Option<&str>,
        handicap: Option<&str>,
    ) -> Result<Setup, SetupError> {
        let plain = |initial_fen: String| Setup {
            initial_fen,
            handicap: handicap.map(str::to_owned),
            deal: None,
            salt: None,
        };
        match (variant, fen, handicap) {
            (Variant::Jieqi, _, _) => {
                // The operating system's secure generator (jieqi.md, setup).
                let mut rng = OsRng.unwrap_err();
                let game = JieqiGame::new(&mut rng);
                Ok(Setup {
                    initial_fen: game.public_game().start().fen(),
                    handicap: None,
                    deal: Some(game.deal().to_string()),
                    salt: Some(game.salt().to_string()),
                })
            }
            (_, _, Some(name)) => {
                let h = shogi::handicap(variant, name).ok_or_else(|| {
                    let known: Vec<&str> = shogi::HANDICAPS
                        .iter()
                        .filter(|h| h.variant == variant)
                        .map(|h| h.name)
                        .collect();
                    SetupError::BadHandicap(format!(
                        "unknown {variant} handicap `{name}`: expected one of {}",
                        known.join(", ")
                    ))
                })?;
                Ok(plain(h.position().fen()))
            }
            (Variant::Xiangqi, Some(text), None) => xiangqi::Position::from_fen(variant, text)
                .map(|p| plain(p.fen()))
                .map_err(|e| SetupError::BadFen(e.to_string())),
            (_, Some(text), None) => shogi::Position::from_fen(variant, text)
                .map(|p| plain(p.fen()))
                .map_err(|e| SetupError::BadFen(e.to_string())),
            (Variant::Xiangqi, None, None) => Ok(plain(xiangqi::Position::start(variant).fen())),
            (_, None, None) => Ok(plain(shogi::Position::start(variant).fen())),
        }
    }

    pub(super) fn open(variant: Variant, setup: &Setup) -> Result<Box<dyn Table>, SetupError> {
        let corrupt = |what: String| SetupError::Corrupt(what);
        match variant {
            Variant::Xiangqi => {
                let start = xiangqi::Position::from_fen(variant, &setup.initial_fen)
                    .map_err(|e| corrupt(e.to_string()))?;
                Ok(Box::new(OpenTable::new(xiangqi::Game::new(start))))
            }
            Variant::Jieqi => {
                let deal: Deal = setup
                    .deal
                    .as_deref()
                    .ok_or_else(|| corrupt("no deal".into()))?
                    .parse()
                    .map_err(|e: jiang_rules::jieqi::DealError| corrupt(e.to_string()))?;
                let salt: Salt = setup
                    .salt
                    .as_deref()
                    .ok_or_else(|| corrupt("no salt".into()))?
                    .parse()
                    .map_err(|_| corrupt("bad salt".into()))?;
                Ok(Box::new(JieqiTable {
                    game: JieqiGame::with_deal(deal, salt),
                    moves: Vec::new(),
                }))
            }
            Variant::Shogi | Variant::Minishogi => {
                let start = shogi::Position::from_fen(variant, &setup.initial_fen)
                    .map_err(|e| corrupt(e.to_string()))?;
                let handicap = match &setup.handicap {
                    Some(name) => Some(
                        shogi::handicap(variant, name)
                            .ok_or_else(|| corrupt(format!("unknown handicap {name}")))?,
                    ),
                    None => None,
                };
                Ok(Box::new(OpenTable::new(shogi::Game::with_handicap(
                    start, handicap,
                ))))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_refusals_name_their_reason_under_the_code_they_refine() {
        use jiang_protocol::{ErrorCode, ErrorReason as R};
        let reason = |variant, fen: Option<&str>, moves: &[&str], mv: &str| {
            let setup = create(variant, fen, None).unwrap();
            let mut table = open(variant, &setup, &[]).unwrap();
            for m in moves {
                table.play(m).unwrap();
            }
            table.play(mv).unwrap_err().reason()
        };
        let x = Variant::Xiangqi;
        assert_eq!(reason(x, None, &[], "zz"), Some(R::Malformed));
        assert_eq!(reason(x, None, &[], "e4e5"), Some(R::NoPiece));
        assert_eq!(reason(x, None, &[], "h7e7"), Some(R::NotYourPiece));
        assert_eq!(reason(x, None, &[], "a0a5"), Some(R::Unreachable));
        assert_eq!(reason(x, None, &[], "h2e2C"), Some(R::RevealLetter));
        // The red chariot on e1 shields its general from the black chariot on the e-file.
        let pinned = "4k4/4r4/9/9/9/9/9/9/4R4/4K4 w - - 0 1";
        assert_eq!(
            reason(x, Some(pinned), &[], "e1d1"),
            Some(R::LeavesGeneralInCheck)
        );
        assert_eq!(reason(Variant::Jieqi, None, &[], "zz"), Some(R::Malformed));
        let s = Variant::Shogi;
        assert_eq!(reason(s, None, &[], "zz"), Some(R::Malformed));
        assert_eq!(reason(s, None, &[], "7g7e"), Some(R::Unreachable));
        // One position per shogi cause: the rules' typed reason, refined into the server's.
        let shogi_reasons = [
            (Variant::Minishogi, None, "9a9b", R::OffBoard),
            (s, None, "P*5e", R::NotInHand),
            (s, None, "5e5d", R::NoPiece),
            (s, None, "3c3d", R::NotYourPiece),
            (s, None, "5i4i", R::Unreachable),
            (s, None, "7g7f+", R::CannotPromote),
            (
                s,
                Some("k8/9/9/4G4/9/9/9/9/4K4 b - 1"),
                "5d5c+",
                R::CannotPromote,
            ),
            (
                s,
                Some("k8/4P4/9/9/9/9/9/9/4K4 b - 1"),
                "5b5a",
                R::MustPromote,
            ),
            (
                s,
                Some("k8/9/9/9/9/9/9/9/4K4 b G 1"),
                "G*5i",
                R::DropOnOccupied,
            ),
            (s, Some("k8/9/9/9/9/9/9/9/4K4 b N 1"), "N*5b", R::DeadDrop),
            (s, Some("k8/9/6+P2/9/9/9/4P4/9/4K4 b P 1"), "P*5e", R::Nifu),
            (
                s,
                Some("8k/9/8G/9/9/9/9/9/4K2L1 b P 1"),
                "P*1b",
                R::Uchifuzume,
            ),
            (
                s,
                Some("k3r4/9/9/9/9/9/9/4G4/4K4 b G 1"),
                "5h4h",
                R::LeavesKingInCheck,
            ),
            (
                s,
                Some("k3r4/9/9/9/9/9/9/9/4K4 b G 1"),
                "G*1e",
                R::LeavesKingInCheck,
            ),
        ];
        for (variant, fen, mv, want) in shogi_reasons {
            assert_eq!(reason(variant, fen, &[], mv), Some(want), "{mv} in {fen:?}");
        }

        let setup = create(s, None, None).unwrap();
        let mut table = open(s, &setup, &[]).unwrap();
        let e = table.declare_impasse().unwrap_err();
        assert_eq!(e.reason(), Some(R::KingNotInZone));
        table.end(Outcome::win(Side::First, Reason::Resignation));
        assert_eq!(table.play("7g7f").unwrap_err().reason(), Some(R::GameOver));

        // Every reason refines one of the two rules codes, and the typed errors the server
        // passes through without a finer reason stay without one.
        for r in R::ALL {
            assert!(matches!(
                r.code(),
                ErrorCode::IllegalMove | ErrorCode::ImpasseRejected
            ));
        }
        assert_eq!(
            PlayError::from(RefusedMove::NoImpasse(Variant::Xiangqi)).reason(),
            None
        );
    }

    #[test]
    fn refusals_keep_the_rules_typed_reason_and_their_message() {
        let setup = create(Variant::Xiangqi, None, None).unwrap();
        let mut table = open(Variant::Xiangqi, &setup, &[]).unwrap();
        let e = table.play("a0a5").unwrap_err();
        assert!(
            matches!(e, PlayError::Rules(RefusedMove::Xiangqi(_))),
            "{e:?}"
        );
        assert!(!e.to_string().is_empty());
        assert!(matches!(
            table.declare_impasse(),
            Err(PlayError::Rules(RefusedMove::NoImpasse(Variant::Xiangqi)))
        ));
        table.end(Outcome::win(Side::First, Reason::Resignation));
        let e = table.play("h2e2").unwrap_err();
        assert!(matches!(e, PlayError::Ended(Reason::Resignation)), "{e:?}");
        assert_eq!(e.to_string(), "the game is over (resignation)");

        let setup = create(Variant::Shogi, None, None).unwrap();
        let mut table = open(Variant::Shogi, &setup, &[]).unwrap();
        let e = table.play("7g7e").unwrap_err();
        assert!(
            matches!(
                e,
                PlayError::Rules(RefusedMove::Shogi(shogi::PlayError::Move(_)))
            ),
            "{e:?}"
        );
        let e = table.declare_impasse().unwrap_err();
        assert!(
            matches!(
                e,
                PlayError::Rules(RefusedMove::Shogi(shogi::PlayError::Impasse(
                    shogi::ImpasseError::KingNotInZone
                )))
            ),
            "{e:?}"
        );
        assert!(e.to_string().contains("condition 1"), "{e}");

        let e = table
            .record(
                RecordFormat::Pgn,
                &RecordInfo {
                    id: "x".into(),
                    url: "u".into(),
                    clock: None,
                    move_ms: Vec::new(),
                    created_at: 0,
                    result: None,
                    takebacks: Vec::new(),
                },
            )
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "A shogi record cannot be written as pgn: use kif, ki2, csa or sfen."
        );
    }

    #[test]
    fn every_variant_opens_and_plays() {
        for (variant, mv) in [
            (Variant::Xiangqi, "h2e2"),
            (Variant::Shogi, "7g7f"),
            (Variant::Minishogi, "5d5c"),
        ] {
            let setup = create(variant, None, None).unwrap();
            let mut table = open(variant, &setup, &[]).unwrap();
            assert!(table.legal_moves().contains(&mv.to_owned()), "{variant}");
            assert_eq!(table.play(mv).unwrap(), mv);
            assert!(table.play("zz").is_err());
            let again = open(variant, &setup, table.moves()).unwrap();
            assert_eq!(again.fen(), table.fen());
        }
        let setup = create(Variant::Jieqi, None, None).unwrap();
        let mut table = open(Variant::Jieqi, &setup, &[]).unwrap();
        let recorded = table.play("h2e2").unwrap();
        assert_eq!(recorded.len(), 5, "a reveal carries its letter: {recorded}");
        let again = open(Variant::Jieqi, &setup, table.moves()).unwrap();
        assert_eq!(again.fen(), table.fen());
    }
}
