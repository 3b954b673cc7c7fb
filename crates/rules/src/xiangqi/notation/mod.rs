//! Human notations and records for the xiangqi family: WXF (`C2.5`, `H8+7`, `C+.5`),
//! Chinese (`炮二平五`, `马８进７`, simplified and traditional characters) and the PGN-style
//! record.
//!
//! ```
//! use jiang_rules::Variant;
//! use jiang_rules::xiangqi::Position;
//! use jiang_rules::xiangqi::notation::{Script, chinese, parse_chinese, parse_wxf, wxf};
//!
//! let start = Position::start(Variant::Xiangqi);
//! let mv = parse_wxf(&start, "C2.5").unwrap();
//! assert_eq!(mv.iccs(), "h2e2");
//! assert_eq!(chinese(&start, mv, Script::Simplified), "炮二平五");
//! assert_eq!(parse_chinese(&start, "砲二平五"), Ok(mv));
//! assert_eq!(wxf(&start, mv), "C2.5");
//! ```
//!
//! # Conventions chosen here
//! - Files are numbered 1–9 from each player's own right. A straight mover (chariot, cannon,
//!   soldier, general) moving along its file gives the distance; every other move gives the
//!   destination file.
//! - WXF letters are written K A E H R C P; input also accepts B, N (and G for the general),
//!   `=` for `.`, any letter case and full-width forms.
//! - Advisors and elephants are always named by their file (`A4+5`, `象７退５`): the direction
//!   tells two on one file apart (WXF convention); only when it does not (revealed Jieqi
//!   pieces) are they written front/rear.
//! - Like pieces on one file (WXF tandem rules, Asian/World Xiangqi Federation): the
//!   marker stands in place of the file digit, after the letter (the official order): two are
//!   `C+`/`C-` (the front and rear; the order `+C`/`-C` Jiang used to write is accepted on
//!   input); three soldiers `P+`, `P3` (the middle one keeps its file), `P-`; four `++`, `P+`,
//!   `P-`, `--`; five `++`, `P+`, `P3`, `P-`, `--`; tandems on two files name the file first: `3+`, `33`,
//!   `3-`. In Chinese: `前炮`/`后炮`; three `前兵 中兵 后兵`; four or five `一兵 二兵 三兵 四兵
//!   五兵` from the front (ordinals in Chinese numerals for both sides); on two files `前七 中七 后七` (the file in place of the piece).
//! - Chinese numerals: Red's files and distances in Chinese numerals (一…九), Black's in
//!   full-width Arabic digits (１…９), as printed in Chinese books; input accepts Chinese,
//!   full-width and ASCII digits for either side, and either script's characters (帅/帥/将/將,
//!   仕/士, 相/象, 马/馬/傌, 车/車/俥, 炮/砲/包, 兵/卒, 进/進, 后/後).
//! - Jieqi: a covered piece is named as the piece it moves as (its point's piece); the
//!   revealed identity is shown by the machine notation's suffix, not by WXF or Chinese.
//!   Only in Jieqi can six or more like pieces share a file or tandems of more than three
//!   share two files; such a piece is written by its ordinal from the front, its letter and
//!   its file: `4P3+1`, `四兵三进一`.

mod describe;
mod record;
mod spell;

pub use record::{MoveFormat, Record, RecordError};
pub use spell::Script;

use super::{Move, Position};
use describe::{Board, describe};
use spell::{Notation, resolve};

/// The notations' view of `position`: every piece as the kind it moves as.
fn board(position: &Position) -> Board {
    let mut board = Board::new(position.turn());
    for (square, occupant) in position.occupants() {
        if let Some(kind) = position.moves_as(square) {
            board.put(square, occupant.side(), kind);
        }
    }
    board
}

/// The legal moves (without Jieqi reveals) with their points, for reading.
fn candidates(position: &Position) -> Vec<(Move, super::Square, super::Square)> {
    position
        .legal_moves_unrevealed()
        .into_iter()
        .map(|mv| (mv, mv.from(), mv.to()))
        .collect()
}

/// The WXF text of `mv`, a legal move in `position` (`C2.5`, `H8+7`, `C+.5`, `A4+5`).
pub fn wxf(position: &Position, mv: Move) -> String {
    spelled(position, mv, spell::wxf, |text| parse_wxf(position, text))
}

/// The Chinese text of `mv`, a legal move in `position` (`炮二平五`, `马８进７`, `象７退５`), in
/// `script`.
pub fn chinese(position: &Position, mv: Move, script: Script) -> String {
    spelled(
        position,
        mv,
        |d| spell::chinese(d, script),
        |text| parse_chinese(position, text),
    )
}

/// Spells `mv` with `spell`. Advisors and elephants follow the WXF convention: two on one
/// file are named by their file like a lone piece (`A4+5`, `象７退５`, not `+A+5`, `前象退５`),
/// because the direction of the move already tells them apart (an advisor or elephant can
/// only go forward from the rear point and back from the front one). When it does not (a
/// revealed Jieqi advisor or elephant moves freely), `read` finds the plain spelling
/// ambiguous and front/rear is written instead. ICCS when `from` is empty.
fn spelled(
    position: &Position,
    mv: Move,
    spell: impl Fn(&describe::Description) -> String,
    read: impl Fn(&str) -> Result<Move, NotationError>,
) -> String {
    let Some(d) = describe(&board(position), mv.from(), mv.to()) else {
        return mv.iccs();
    };
    let by_file = matches!(
        d.kind,
        super::PieceKind::Advisor | super::PieceKind::Elephant
    ) && d.origin.count == 2
        && !d.origin.other_tandem_file;
    if by_file {
        let mut alone = d;
        alone.origin.count = 1;
        alone.origin.index = 0;
        let text = spell(&alone);
        if read(&text).is_ok_and(|m| m.from() == mv.from() && m.to() == mv.to()) {
            return text;
        }
    }
    spell(&d)
}

/// A move notation for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Style {
    /// ICCS with the Jieqi reveal suffix (`h2e2`, `b0c2R`): the machine notation.
    Iccs,
    /// WXF (`C2.5`).
    Wxf,
    /// Chinese in a script (`炮二平五` / `炮二平五`).
    Chinese(Script),
}

/// Every move of a game written in `style`, in order: what a move list shows. (For Jieqi
/// pass the public game; nothing here depends on hidden identities.)
pub fn move_list(game: &super::Game, style: Style) -> Vec<String> {
    game.positions()
        .zip(game.moves())
        .map(|(position, &mv)| match style {
            Style::Iccs => mv.to_string(),
            Style::Wxf => wxf(&position, mv),
            Style::Chinese(script) => chinese(&position, mv, script),
        })
        .collect()
}

/// Jieqi: the note a move list adds after a move's WXF or Chinese text to show the piece its
/// reveal turned over (` (R)`, `（车）` in the mover's character), or `""` when the move
/// revealed nothing. ICCS needs none: its suffix already says it (`h2e2R`). Public
/// information: a reveal is seen by everyone.
pub fn reveal_note(mv: Move, style: Style) -> String {
    match (mv.reveal(), style) {
        (None, _) | (_, Style::Iccs) => String::new(),
        (Some(piece), Style::Wxf) => format!(" ({})", spell::wxf_letter(piece.kind)),
        (Some(piece), Style::Chinese(script)) => {
            format!(
                "（{}）",
                spell::chinese_piece(piece.kind, piece.side, script)
            )
        }
    }
}

/// Every legal move of `position` with the texts WXF and Chinese write for it (WXF, then
/// simplified, then traditional characters, without repeats), in generation order: what a
/// move typed by a person is matched against. Jieqi moves come without their reveal, as a
/// player sends them, and name a covered piece by its point only, so nothing hidden shows.
pub fn legal_move_names(position: &Position) -> Vec<(Move, Vec<String>)> {
    let board = board(position);
    position
        .legal_moves_unrevealed()
        .into_iter()
        .map(|mv| {
            let mut names = Vec::with_capacity(3);
            if let Some(d) = describe(&board, mv.from(), mv.to()) {
                for name in [
                    spell::wxf(&d),
                    spell::chinese(&d, Script::Simplified),
                    spell::chinese(&d, Script::Traditional),
                ] {
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
            }
            (mv, names)
        })
        .collect()
}

/// The legal move that the WXF text names in `position`, or why there is none.
///
/// In Jieqi a move of a covered piece comes back without its reveal, as a player sends it
/// (attach the dealt identity with `Position::find_move`, or hand it to the Jieqi game).
pub fn parse_wxf(position: &Position, text: &str) -> Result<Move, NotationError> {
    resolve(&board(position), &candidates(position), Notation::Wxf, text)
}

/// The legal move that the Chinese text names in `position` (either script), or why there
/// is none. Jieqi covered moves come back without their reveal, as with [`parse_wxf`].
pub fn parse_chinese(position: &Position, text: &str) -> Result<Move, NotationError> {
    resolve(
        &board(position),
        &candidates(position),
        Notation::Chinese,
        text,
    )
}

/// Why a WXF or Chinese move text is not a legal move in the position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Nothing was given.
    #[error("the move is empty")]
    Empty,
    /// Longer than any move in these notations.
    #[error("`{text}…` is too long to be a move")]
    TooLong {
        /// The start of the text.
        text: String,
    },
    /// A character that has no meaning in the notation.
    #[error("`{text}`: `{found}` at character {position} is not allowed here; expected {expected}")]
    BadCharacter {
        /// The whole text.
        text: String,
        /// The offending character.
        found: char,
        /// Its 1-based position.
        position: usize,
        /// What the notation allows.
        expected: &'static str,
    },
    /// No legal move of the side to move is written that way.
    #[error("`{text}` is not a legal move for {side} here: {why}")]
    NoSuchMove {
        /// The text.
        text: String,
        /// `Red` or `Black`.
        side: &'static str,
        /// Whether the piece it names exists (then it cannot move so), or no piece is
        /// named that way, or the text is not shaped like a move.
        why: &'static str,
    },
    /// More than one legal move is written that way.
    #[error("`{text}` is ambiguous here: it could be {candidates}")]
    Ambiguous {
        /// The text.
        text: String,
        /// The ICCS moves it could mean.
        candidates: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use crate::xiangqi::PieceKind;

    /// The names of the move `iccs` (legal moves come without their reveal, so their text is
    /// their ICCS).
    fn names_of(position: &Position, iccs: &str) -> Vec<String> {
        crate::test_support::names_of(legal_move_names(position), iccs)
    }

    #[test]
    fn legal_move_names_give_every_human_notation_once() {
        let start = Position::start(Variant::Xiangqi);
        let all = legal_move_names(&start);
        assert_eq!(all.len(), start.legal_moves_unrevealed().len());
        // The cannon's character is the same in both scripts: written once.
        assert_eq!(names_of(&start, "h2e2"), ["C2.5", "炮二平五"]);
        assert_eq!(names_of(&start, "h0g2"), ["H2+3", "马二进三", "傌二進三"]);
        let black = start.after(
            start
                .find_move("h2".parse().unwrap(), "e2".parse().unwrap(), None)
                .unwrap(),
        );
        assert_eq!(names_of(&black, "h9g7"), ["H8+7", "马８进７", "馬８進７"]);
    }

    #[test]
    fn jieqi_names_a_covered_piece_by_its_point_only() {
        // Whatever a covered piece is, its names are those of its point's piece.
        let start = Position::start(Variant::Jieqi);
        assert_eq!(names_of(&start, "h2e2"), ["C2.5", "炮二平五"]);
        assert_eq!(names_of(&start, "a3a4"), ["P9+1", "兵九进一", "兵九進一"]);
        for (_, names) in legal_move_names(&start) {
            for name in names {
                assert!(!name.contains('(') && !name.contains('（'), "{name}");
            }
        }
    }

    #[test]
    fn reveal_notes_name_the_revealed_piece_in_the_movers_characters() {
        let start = Position::start(Variant::Jieqi);
        let (h2, e2) = ("h2".parse().unwrap(), "e2".parse().unwrap());
        let reveal = start.find_move(h2, e2, Some(PieceKind::Horse)).unwrap();
        assert_eq!(reveal_note(reveal, Style::Wxf), " (H)");
        assert_eq!(
            reveal_note(reveal, Style::Chinese(Script::Simplified)),
            "（马）"
        );
        assert_eq!(
            reveal_note(reveal, Style::Chinese(Script::Traditional)),
            "（傌）"
        );
        assert_eq!(reveal_note(reveal, Style::Iccs), "");
        let black = start.after(reveal);
        let (b7, b4) = ("b7".parse().unwrap(), "b4".parse().unwrap());
        let chariot = black.find_move(b7, b4, Some(PieceKind::Chariot)).unwrap();
        assert_eq!(
            reveal_note(chariot, Style::Chinese(Script::Traditional)),
            "（車）"
        );
        let plain = Position::start(Variant::Xiangqi)
            .find_move(h2, e2, None)
            .unwrap();
        assert_eq!(reveal_note(plain, Style::Wxf), "");
    }
}
