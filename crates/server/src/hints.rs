//! What the browser needs to draw a game beyond the FEN, decided by the rules crate so that the
//! browser holds no rules of its own: the checked king, the human names of the legal moves (to
//! match a typed move against), whether an impasse may be declared, and for the move list the
//! positions the game went through with their checks.
//!
//! Everything here is public information or the viewer's own: in Jieqi a covered piece is
//! named only by its point, and positions are the public ones (covered pieces face down).

use std::collections::HashMap;

use jiang_rules::Position as _;
use jiang_rules::{shogi, xiangqi};
use serde::Serialize;

/// The view's `hints`: the live position's drawing and input aids for one viewer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
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
    /// `None` in the other variants; `false` for a viewer not to move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub can_declare_impasse: Option<bool>,
}

impl Hints {
    /// Hints with `legal_names` aligned to `legal_moves` from `names` (machine text → names,
    /// as the rules crate lists them). A move without names gets an empty list.
    pub fn new(
        check: Option<String>,
        legal_moves: &[String],
        names: Vec<(String, Vec<String>)>,
        can_declare_impasse: Option<bool>,
    ) -> Hints {
        let mut by_text: HashMap<String, Vec<String>> = names.into_iter().collect();
        let legal_names = legal_moves
            .iter()
            .map(|mv| by_text.remove(mv).unwrap_or_default())
            .collect();
        Hints {
            check,
            legal_names,
            can_declare_impasse,
        }
    }
}

/// One position of a game's history, as the move list steps through it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ShownPosition {
    /// The position as everyone may see it (FEN or SFEN; Jieqi: covered pieces face down).
    pub fen: String,
    /// As [`Hints::check`], for this position.
    pub check: Option<String>,
}

/// `GET /api/games/{id}/notation?style=…`: the move list in a style, and the positions the
/// page steps back through.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct History {
    /// The style's API name.
    pub style: &'static str,
    /// Every move so far in the style.
    pub moves: Vec<String>,
    /// Jieqi only: for each move, the note the move list shows after it for a reveal
    /// (` (R)`, `（车）`; `""` for a move that revealed nothing and in ICCS).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notes: Option<Vec<String>>,
    /// The start and the position after each move: one more than `moves`.
    pub positions: Vec<ShownPosition>,
}

/// The checked general of a xiangqi-family position, if any.
pub fn xiangqi_check(position: &xiangqi::Position) -> Option<String> {
    position
        .in_check()
        .then(|| position.general(position.turn()).to_string())
}

/// The checked king of a shogi-family position, if any.
pub fn shogi_check(position: &shogi::Position) -> Option<String> {
    position
        .is_check()
        .then(|| position.king_square(position.turn()).to_string())
}

/// A xiangqi-family position as the history shows it.
pub fn xiangqi_shown(position: &xiangqi::Position) -> ShownPosition {
    ShownPosition {
        fen: position.fen(),
        check: xiangqi_check(position),
    }
}

/// A shogi-family position as the history shows it.
pub fn shogi_shown(position: &shogi::Position) -> ShownPosition {
    ShownPosition {
        fen: position.fen(),
        check: shogi_check(position),
    }
}

/// The human names of the legal moves of a xiangqi-family position, keyed by the ICCS a
/// player sends (Jieqi: without the reveal).
pub fn xiangqi_names(position: &xiangqi::Position) -> Vec<(String, Vec<String>)> {
    xiangqi::notation::legal_move_names(position)
        .into_iter()
        .map(|(mv, names)| (mv.iccs(), names))
        .collect()
}

/// The human names of the legal moves of a shogi-family position, keyed by USI; `previous`
/// is the move played just before (for 同).
pub fn shogi_names(
    position: &shogi::Position,
    previous: Option<shogi::Move>,
) -> Vec<(String, Vec<String>)> {
    shogi::notation::legal_move_names(position, previous)
        .into_iter()
        .map(|(mv, names)| (mv.to_string(), names))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_the_legal_moves_order_and_missing_ones_are_empty() {
        let legal = ["b".to_owned(), "a".to_owned(), "c".to_owned()];
        let names = vec![
            ("a".to_owned(), vec!["A".to_owned()]),
            ("b".to_owned(), vec!["B".to_owned(), "B2".to_owned()]),
        ];
        let hints = Hints::new(None, &legal, names, None);
        assert_eq!(
            hints.legal_names,
            [
                vec!["B".to_owned(), "B2".to_owned()],
                vec!["A".to_owned()],
                vec![]
            ]
        );
        let json = serde_json::to_value(&hints).unwrap();
        assert!(json.get("can_declare_impasse").is_none());
        assert_eq!(json["check"], serde_json::Value::Null);
    }
}
