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

pub use jiang_protocol::{Hints, NotationList as History, ShownPosition};

/// Hints with `legal_names` aligned to `legal_moves` from `names` (machine text → names, as
/// the rules crate lists them). A move without names gets an empty list.
pub fn hints(
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
        let hints = hints(None, &legal, names, None);
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
