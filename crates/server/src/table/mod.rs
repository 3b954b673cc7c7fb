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

//!
//! Rooms: `errors` (typed refusals and their reasons), `formats` (record formats and notation
//! styles), `open` (the tables of games with nothing hidden), `jieqi` (Jieqi's table),
//! `knowledge` (Jieqi analysis as one side knew it).

use jiang_rules::jieqi::{Deal, JieqiGame, Salt};
use jiang_rules::shogi::notation::RecordError as ShogiRecordError;
use jiang_rules::variation::{Node, RecordFacts, TreeError};
use jiang_rules::{Family, Outcome, Position, Reason, RecordClock, Side, Variant, shogi, xiangqi};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

use jiang_protocol::{Capture, VariantFields};

use crate::hints::{self, Hints, History};

mod errors;
mod formats;
mod jieqi;
pub(crate) mod knowledge;
mod open;

pub use errors::*;
pub use formats::*;
use jieqi::JieqiTable;
pub(crate) use jieqi::{jieqi_captures, jieqi_unseen};
use open::OpenTable;

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
    use jiang_rules::RefusedMove;

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
