//! Jieqi's table: the true game (deal included) lives here and leaves only through views;
//! its public notes, captures, unseen identities and pool.

use jiang_rules::jieqi::{JieqiGame, JieqiView, Observer};
use jiang_rules::variation::{Node, RecordFacts};
use jiang_rules::xiangqi::notation::{Script, Style as XiangqiStyle};
use jiang_rules::{Outcome, Position, RefusedMove, Side, Variant, xiangqi};
use std::collections::BTreeMap;

use jiang_protocol::{Capture, VariantFields};

use super::errors::{PlayError, RecordError};
use super::formats::{NotationStyle, RecordFormat, WrongFamily, per_side, xiangqi_move_list};
use super::open::{OpenTable, fen_only, xiangqi_legal_notation, xiangqi_tags, xiangqi_tree_record};
use super::{RecordInfo, Table, TreeExportError};
use crate::hints::{self, Hints};

/// Jieqi: the note shown after each move of the public `game` in `style` for its reveal.
pub(super) fn jieqi_notes(game: &xiangqi::Game, style: NotationStyle) -> Vec<String> {
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

pub(super) fn jieqi_pool(position: &xiangqi::Position) -> BTreeMap<String, String> {
    per_side(Variant::Jieqi, |side| position.pool(side).fen_text(side))
}

/// Jieqi: the true state lives here and leaves only through views.
#[derive(Clone)]
pub(super) struct JieqiTable {
    pub(super) game: JieqiGame,
    pub(super) moves: Vec<String>,
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
