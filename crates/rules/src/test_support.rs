//! Helpers shared by the unit tests of both families.

use std::fmt::Display;

/// The names that a family's `legal_move_names` gave the move written `text` (USI or ICCS);
/// panics when no legal move is written so.
pub(crate) fn names_of<M: Display>(names: Vec<(M, Vec<String>)>, text: &str) -> Vec<String> {
    names
        .into_iter()
        .find(|(mv, _)| mv.to_string() == text)
        .map(|(_, names)| names)
        .unwrap_or_else(|| panic!("{text} is not legal here"))
}
