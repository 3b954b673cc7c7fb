//! What the browser needs to draw a game beyond the FEN, decided by the rules crate so that the
//! browser holds no rules of its own: the checked king, the human names of the legal moves (to
//! match a typed move against), whether an impasse may be declared, and for the move list the
//! positions the game went through with their checks.
//!
//! Everything here is public information or the viewer's own: in Jieqi a covered piece is
//! named only by its point, and positions are the public ones (covered pieces face down).

use std::collections::HashMap;

pub use jiang_protocol::{Hints, NotationList as History};

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
