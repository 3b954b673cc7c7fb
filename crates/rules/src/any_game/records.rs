//! A game of any variant written down: its record in a format of its family, its move list in a
//! notation style, the names of its legal moves, and an analysis tree with its variations.
//! Public information only (Jieqi's deal appears in a record only after the end).

use crate::shogi::notation::{
    ShogiRecord, WesternStyle, japanese_line, legal_move_notation, western, write_csa, write_ki2,
    write_kif, write_kif_with_variations,
};
use crate::variation::{Node, RecordFacts, main_line, main_line_outcome, parse_tree};
use crate::xiangqi::notation::{Record, Script};
use crate::{Family, Outcome, Position as _, RecordClock, Variant, shogi, utc_civil, xiangqi};

use super::formats::xiangqi_move_list;
use super::{
    AnyGame, Kind, NotationStyle, Public, RecordError, RecordFormat, TreeExportError, WrongFamily,
};

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

/// A game's record as a value of its family's writer, for a caller to add its own headers.
pub enum FamilyRecord {
    /// A PGN-style record (xiangqi family; Jieqi with its deal once over).
    Xiangqi(Box<Record>),
    /// A KIF/KI2/CSA record (shogi family).
    Shogi(Box<ShogiRecord>),
}

impl AnyGame {
    /// The record of the moves played, as its family's writer holds it: public information
    /// only until the end (then Jieqi's deal and salt too).
    pub fn family_record(&self) -> FamilyRecord {
        match &self.kind {
            Kind::Jieqi(game) => FamilyRecord::Xiangqi(Box::new(game.record())),
            Kind::Xiangqi(game) => FamilyRecord::Xiangqi(Box::new(Record::from_game(game))),
            Kind::Known(known) => FamilyRecord::Xiangqi(Box::new(Record::from_game(&known.public))),
            Kind::Shogi(game) => FamilyRecord::Shogi(Box::new(ShogiRecord::from_game(game))),
        }
    }

    /// The record in `format`, or why this format does not fit this variant. The xiangqi
    /// family's records are always ICCS in Jieqi: only it carries the reveals.
    pub fn record(&self, format: RecordFormat, info: &RecordInfo) -> Result<String, RecordError> {
        let wrong = || RecordError::WrongFormat {
            variant: self.variant(),
            format,
        };
        match (self.family_record(), format) {
            (FamilyRecord::Xiangqi(mut record), _) => {
                let Some(moves) = format.move_format() else {
                    return self.fen_record(format).ok_or_else(wrong);
                };
                xiangqi_tags(&mut record, info);
                Ok(record.to_text(moves))
            }
            (
                FamilyRecord::Shogi(mut record),
                RecordFormat::Kif | RecordFormat::Ki2 | RecordFormat::Csa,
            ) => {
                let (y, mo, d, h, mi, s) = utc_civil(info.created_at);
                record.start_time = Some(format!("{y:04}/{mo:02}/{d:02} {h:02}:{mi:02}:{s:02}"));
                record.time_control = info.clock.as_ref().map(RecordClock::kif);
                // Whole seconds, rounded down, as KIF's and CSA's time columns count them.
                if info.move_ms.len() == self.moves.len() {
                    record.move_seconds = info
                        .move_ms
                        .iter()
                        .map(|&ms| u32::try_from(ms / 1000).unwrap_or(u32::MAX))
                        .collect();
                }
                record.result = info.result.or(self.outcome());
                record.notes = info.takebacks.clone();
                let written = match format {
                    RecordFormat::Kif => write_kif(&record),
                    RecordFormat::Ki2 => write_ki2(&record),
                    _ => write_csa(&record),
                };
                Ok(written?)
            }
            (FamilyRecord::Shogi(_), _) => self.fen_record(format).ok_or_else(wrong),
        }
    }

    /// The current position as a one-line record, when `format` is the family's FEN or SFEN.
    fn fen_record(&self, format: RecordFormat) -> Option<String> {
        match (self.variant().family(), format) {
            (Family::Xiangqi, RecordFormat::Fen) | (Family::Shogi, RecordFormat::Sfen) => {
                Some(format!("{}\n", self.fen()))
            }
            _ => None,
        }
    }

    /// Every move played, written in `style` (public information only: the same for every
    /// viewer; covered Jieqi pieces are named as their point's piece), or why this style does
    /// not fit this variant.
    pub fn notation(&self, style: NotationStyle) -> Result<Vec<String>, WrongFamily> {
        let variant = self.variant();
        let game = match self.public() {
            Public::Xiangqi(game) => return xiangqi_move_list(variant, game, style),
            Public::Shogi(game) => game,
        };
        let western_style = match style {
            NotationStyle::Usi => return Ok(self.moves.clone()),
            NotationStyle::Japanese => return Ok(japanese_line(game.start(), &game.moves())),
            NotationStyle::Western => WesternStyle::Numeric,
            NotationStyle::WesternLetters => WesternStyle::Letters,
            _ => return Err(WrongFamily { variant, style }),
        };
        Ok(game
            .positions()
            .zip(game.moves())
            .map(|(pos, mv)| western(&pos, mv, western_style))
            .collect())
    }

    /// One text per move of [`AnyGame::legal_moves`], in the same order, written in `style`;
    /// a style of the other family is refused even once the game is over.
    pub fn legal_notation(&self, style: NotationStyle) -> Result<Vec<String>, WrongFamily> {
        let over = self.outcome().is_some();
        if over && matches!(self.kind, Kind::Jieqi(_)) {
            return Ok(Vec::new());
        }
        let variant = self.variant();
        let named = match self.public() {
            Public::Xiangqi(game) => xiangqi_legal_notation(variant, game.position(), style)?,
            Public::Shogi(game) => shogi_legal_notation(variant, game, style)?,
        };
        Ok(if over { Vec::new() } else { named })
    }

    /// The move tree `tree` played from this game's start, written as a record with its
    /// variations (PGN `(…)` for the xiangqi family, KIF `変化` blocks for shogi), with the
    /// players' names and the ending `facts` give (the recorded ending when the main line is
    /// the recorded line, else the rules' verdict at the main line's end).
    pub fn write_tree(
        &self,
        tree: &[Node<String>],
        format: RecordFormat,
        facts: &RecordFacts,
    ) -> Result<String, TreeExportError> {
        let variant = self.variant();
        let wrong = TreeExportError::WrongFormat { variant, format };
        match self.public() {
            Public::Xiangqi(game) => {
                let start = game.start();
                let moves = format.move_format().ok_or(wrong)?;
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
            Public::Shogi(game) => {
                if format != RecordFormat::Kif {
                    return Err(wrong);
                }
                let start = game.start();
                let parsed = parse_tree(start, tree)?;
                let mut record = ShogiRecord::new(variant);
                record.start_sfen = start.fen();
                record.handicap = game.handicap();
                record.moves = main_line(&parsed).iter().map(|m| m.to_string()).collect();
                record.result = main_line_outcome::<shogi::Game>(start, tree, facts);
                [record.sente_name, record.gote_name] = facts.names.clone();
                Ok(write_kif_with_variations(&record, &parsed)?)
            }
        }
    }
}

/// The tags of a live game's PGN-style record.
fn xiangqi_tags(record: &mut Record, info: &RecordInfo) {
    let (y, m, d, ..) = utc_civil(info.created_at);
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

/// The xiangqi-family texts of `position`'s legal moves (ICCS without reveals, sorted and
/// deduplicated as [`AnyGame::legal_moves`] lists them) in `style`.
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
    let named = position
        .legal_moves_unrevealed()
        .into_iter()
        .map(|mv| (mv.iccs(), spell(position, mv)));
    Ok(sorted_by_machine_text(named))
}

/// The shogi-family texts of the current position's legal moves (USI order, as
/// [`AnyGame::legal_moves`] lists them) in `style`.
fn shogi_legal_notation(
    variant: Variant,
    game: &shogi::Game,
    style: NotationStyle,
) -> Result<Vec<String>, WrongFamily> {
    let position = game.position();
    let western = match style {
        NotationStyle::Usi => return Ok(crate::Position::legal_move_texts(position)),
        NotationStyle::Japanese => None,
        NotationStyle::Western => Some(WesternStyle::Numeric),
        NotationStyle::WesternLetters => Some(WesternStyle::Letters),
        _ => return Err(WrongFamily { variant, style }),
    };
    let named = legal_move_notation(position, game.moves().last().copied(), western)
        .into_iter()
        .map(|(mv, text)| (mv.to_string(), text));
    Ok(sorted_by_machine_text(named))
}

/// The texts of `named` (machine text, text) in the machine texts' sorted order, one per
/// machine text.
fn sorted_by_machine_text(named: impl Iterator<Item = (String, String)>) -> Vec<String> {
    let mut named: Vec<(String, String)> = named.collect();
    named.sort();
    named.dedup_by(|a, b| a.0 == b.0);
    named.into_iter().map(|(_, text)| text).collect()
}
