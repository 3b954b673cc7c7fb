//! Xiangqi, Shogi and Minishogi: nothing is hidden, so a table is the rules game and its
//! moves ([`OpenTable`]); what differs between the families is in [`OpenGame`].

use jiang_rules::shogi::notation::{
    ShogiRecord, write_csa, write_ki2, write_kif, write_kif_with_variations,
};
use jiang_rules::shogi::notation::{WesternStyle, japanese_line, western};
use jiang_rules::variation::{Node, RecordFacts, main_line, main_line_outcome, parse_tree};
use jiang_rules::xiangqi::notation::{Record, Script};
use jiang_rules::{
    Family, Outcome, Position, RecordClock, RefusedMove, Side, Variant, shogi, xiangqi,
};
use std::collections::BTreeMap;

use jiang_protocol::{ImpassePoints, VariantFields};

use super::errors::{PlayError, RecordError};
use super::formats::{NotationStyle, RecordFormat, WrongFamily, per_side, xiangqi_move_list};
use super::jieqi::{jieqi_notes, jieqi_pool};
use super::{RecordInfo, Table, TreeExportError, forward};
use crate::hints::{self, Hints};

/// The xiangqi-family texts of `position`'s legal moves (ICCS without reveals, sorted and
/// deduplicated as [`Table::legal_moves`] lists them) in `style`.
pub(super) fn xiangqi_legal_notation(
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

pub(super) fn xiangqi_tree_record(
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

pub(super) fn fen_only(
    variant: Variant,
    format: RecordFormat,
    fen: String,
) -> Result<String, RecordError> {
    match (variant.family(), format) {
        (Family::Xiangqi, RecordFormat::Fen) | (Family::Shogi, RecordFormat::Sfen) => {
            Ok(format!("{fen}\n"))
        }
        _ => Err(RecordError::WrongFormat { variant, format }),
    }
}

pub(super) fn xiangqi_tags(record: &mut Record, info: &RecordInfo) {
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

/// Xiangqi, Shogi and Minishogi: nothing is hidden, so a table is the rules game and the moves
/// as recorded. What differs between the families is in [`OpenGame`].
#[derive(Clone)]
pub(super) struct OpenTable<G> {
    game: G,
    moves: Vec<String>,
    /// An end decided outside play (resignation, time, …), for the records.
    ended: Option<Outcome>,
}

impl<G: OpenGame> OpenTable<G> {
    pub(super) fn new(game: G) -> Self {
        OpenTable {
            game,
            moves: Vec::new(),
            ended: None,
        }
    }
}

/// The family-specific parts of an [`OpenTable`].
pub(super) trait OpenGame: jiang_rules::Game + Clone {
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
