//! Human and record notations of the shogi family, read and written against positions:
//!
//! - Japanese move text (`☗７六歩`, `☖同　銀`, `☗５二金左上`) with the JSA disambiguation
//!   rules: [`japanese`], [`parse_japanese`];
//! - Western (Hodges) move text (`P-76`, `Bx33+`, `S*45`, `G69-58`, or `P-7f`): [`western`],
//!   [`parse_western`];
//! - KIF, KI2 and CSA game records through one [`ShogiRecord`]: [`write_kif`], [`read_kif`],
//!   [`write_ki2`], [`read_ki2`], [`write_csa`], [`read_csa`]. Records are written as UTF-8 ([`write_kif_shift_jis`] for
//!   a `.kif` file); reading accepts UTF-8 and Shift_JIS.
//!
//! USI and SFEN, the machine notations, live with [`super::Position`] and [`super::Move`].

mod csa;
mod error;
mod japanese;
mod kanji;
mod ki2;
mod kif;
mod record;
mod view;
mod western;

pub use csa::{read_csa, write_csa};
pub use error::{NotationError, RecordError};
pub use ki2::{read_ki2, write_ki2};
pub use kif::{read_kif, write_kif, write_kif_shift_jis, write_kif_with_variations};
pub use record::{ShogiRecord, decode_record_text};
pub use western::WesternStyle;

use super::{Move, Position};
use crate::Outcome;
use view::MoveFacts;

/// A record's closing word read as `outcome`, or the word itself when it names no outcome
/// (kept for the reader's notes).
pub(crate) fn outcome_or_word(
    outcome: Option<Outcome>,
    word: String,
) -> (Option<Outcome>, Option<String>) {
    match outcome {
        Some(o) => (Some(o), None),
        None => (None, Some(word)),
    }
}

/// The one legal move (an index into the legal moves) that fits `text`, or why there is not
/// exactly one: none fits, or several do.
pub(crate) fn only_fit(fits: &[usize], text: &str) -> Result<usize, NotationError> {
    match fits {
        [] => Err(NotationError::NoSuchMove(text.to_owned())),
        [one] => Ok(*one),
        many => Err(NotationError::Ambiguous {
            text: text.to_owned(),
            count: many.len(),
        }),
    }
}

/// The facts of `mv` (legal in `pos`) that notation needs.
pub(crate) fn facts(pos: &Position, mv: Move) -> MoveFacts {
    let kind = match mv.drop_kind() {
        Some(kind) => kind,
        None => {
            let from = mv.from().expect("a board move has an origin");
            pos.piece_at(from)
                .expect("a legal move starts on a piece")
                .kind
        }
    };
    MoveFacts {
        from: mv.from(),
        to: mv.to(),
        promote: mv.promotes(),
        kind,
        side: pos.turn(),
        captured: pos.piece_at(mv.to()).map(|p| p.kind),
    }
}

/// Every legal move of `pos` with its facts, in generation order.
pub(crate) fn legal_facts(pos: &Position) -> (Vec<Move>, Vec<MoveFacts>) {
    let moves = pos.legal_moves();
    let facts = moves.iter().map(|&mv| facts(pos, mv)).collect();
    (moves, facts)
}

/// The Japanese notation of `mv`, a legal move of `pos`, for display: side mark, square (or
/// 同 when `previous`, the move played just before, ended on the same square), piece, the
/// JSA relative words when needed, 成/不成, and 打 when a drop would otherwise be read as a
/// board move. `☗７六歩`, `☖同　銀`, `☗５二金左上`, `☗５五角打`, `☗２二角成`. A move that is
/// not legal in `pos` is shown in USI.
///
/// In handicap games the marks still name sente (☗) and gote (☖).
pub fn japanese(pos: &Position, mv: Move, previous: Option<Move>) -> String {
    let (moves, legal) = legal_facts(pos);
    match moves.iter().position(|&m| m == mv) {
        Some(i) => japanese::write(
            &legal,
            &legal[i],
            pos.size(),
            previous.map(Move::to),
            japanese::Flavour::Display,
        ),
        // Not a move of this position (a caller's mistake): show it in USI, never panic.
        None => mv.to_string(),
    }
}

/// The Japanese notation of every move of a game from `start`, with 同 where it applies:
/// what a move list shows. Stops at the first move that is not legal where it is played.
pub fn japanese_line(start: &Position, moves: &[Move]) -> Vec<String> {
    let mut pos = start.clone();
    let mut previous = None;
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !pos.is_legal(mv) {
            break;
        }
        out.push(japanese(&pos, mv, previous));
        pos.play(mv);
        previous = Some(mv);
    }
    out
}

/// Every legal move of `pos` with the texts the notations write for it, in generation order:
/// Japanese (with 同 when `previous`, the move played just before, ended on the same square,
/// and also with the square written out), Western with numeric squares and with USI-style
/// letters, without repeats. What a move typed by a person is matched against; one pass over
/// the legal moves, not one per move.
pub fn legal_move_names(pos: &Position, previous: Option<Move>) -> Vec<(Move, Vec<String>)> {
    let (moves, legal) = legal_facts(pos);
    let previous_to = previous.map(Move::to);
    let display = japanese::Flavour::Display;
    moves
        .iter()
        .zip(&legal)
        .map(|(&mv, facts)| {
            let mut names = Vec::with_capacity(4);
            for name in [
                japanese::write(&legal, facts, pos.size(), previous_to, display),
                japanese::write(&legal, facts, pos.size(), None, display),
                western::write(&legal, facts, pos.size(), WesternStyle::Numeric),
                western::write(&legal, facts, pos.size(), WesternStyle::Letters),
            ] {
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            (mv, names)
        })
        .collect()
}

/// Every legal move of `pos` with its text in one notation, in generation order, in one pass
/// over the legal moves: Japanese (with 同 when `previous`, the move played just before, ended
/// on the same square) when `western` is `None`, else Western in that square style. What an
/// analysis board lists.
pub fn legal_move_notation(
    pos: &Position,
    previous: Option<Move>,
    western: Option<WesternStyle>,
) -> Vec<(Move, String)> {
    let (moves, legal) = legal_facts(pos);
    let previous_to = previous.map(Move::to);
    moves
        .iter()
        .zip(&legal)
        .map(|(&mv, facts)| {
            let text = match western {
                None => japanese::write(
                    &legal,
                    facts,
                    pos.size(),
                    previous_to,
                    japanese::Flavour::Display,
                ),
                Some(style) => western::write(&legal, facts, pos.size(), style),
            };
            (mv, text)
        })
        .collect()
}

/// Reads Japanese move text (with or without the side mark; digits in any script; `竜` or
/// `龍`; optional KIF origin `(77)`) as a legal move of `pos`. `previous` is the move played
/// just before, needed for 同.
pub fn parse_japanese(
    pos: &Position,
    text: &str,
    previous: Option<Move>,
) -> Result<Move, NotationError> {
    let (moves, legal) = legal_facts(pos);
    japanese::parse(&legal, text, pos.turn(), previous.map(Move::to)).map(|i| moves[i])
}

/// The Western notation of `mv`, a legal move of `pos`: `P-76`, `Bx33+`, `S*45`, `G69-58`,
/// `+R-22` (or `P-7f` with [`WesternStyle::Letters`]). A move that is not legal in `pos` is
/// shown in USI.
pub fn western(pos: &Position, mv: Move, style: WesternStyle) -> String {
    let (moves, legal) = legal_facts(pos);
    match moves.iter().position(|&m| m == mv) {
        Some(i) => western::write(&legal, &legal[i], pos.size(), style),
        None => mv.to_string(),
    }
}

/// Reads Western move text in either square style as a legal move of `pos`. Without `+` or
/// `=` a move that could promote is read as not promoting.
pub fn parse_western(pos: &Position, text: &str) -> Result<Move, NotationError> {
    let (moves, legal) = legal_facts(pos);
    western::parse(&legal, text).map(|i| moves[i])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    fn names_of(pos: &Position, usi: &str, previous: Option<Move>) -> Vec<String> {
        crate::test_support::names_of(legal_move_names(pos, previous), usi)
    }

    #[test]
    fn legal_move_names_give_japanese_and_both_western_styles() {
        let start = Position::startpos(Variant::Shogi);
        assert_eq!(
            legal_move_names(&start, None).len(),
            start.legal_moves().len()
        );
        assert_eq!(names_of(&start, "7g7f", None), ["☗７六歩", "P-76", "P-7f"]);
    }

    #[test]
    fn legal_move_names_write_dou_and_the_square_after_a_move_to_it() {
        let mut pos = Position::startpos(Variant::Shogi);
        let mut last = None;
        for usi in ["7g7f", "3c3d", "8h2b+"] {
            let mv = pos.parse_move(usi).unwrap();
            pos.play(mv);
            last = Some(mv);
        }
        assert_eq!(
            names_of(&pos, "3a2b", last),
            ["☖同　銀", "☖２二銀", "Sx22", "Sx2b"]
        );
    }
}
