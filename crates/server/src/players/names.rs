//! Player names: 2–20 letters, digits, `_` or `-` of any script (so 王小明 and 羽生 work),
//! unique after NFKC and Unicode case folding.

use unicode_normalization::UnicodeNormalization;

/// The fewest characters of a name.
pub const MIN_CHARS: usize = 2;
/// The most characters of a name.
pub const MAX_CHARS: usize = 20;

/// Why a name is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NameError {
    /// Fewer than 2 or more than 20 characters.
    #[error("a name has 2 to 20 characters")]
    Length,
    /// A character that is not a letter, a digit, `_` or `-`.
    #[error("a name has only letters, digits, `_` and `-` (`{0}` is none of them)")]
    Character(char),
}

/// `name` as it is kept (NFKC, trimmed), if it is a valid name.
pub fn valid_name(name: &str) -> Result<String, NameError> {
    let name: String = name.trim().nfkc().collect();
    let count = name.chars().count();
    if !(MIN_CHARS..=MAX_CHARS).contains(&count) {
        return Err(NameError::Length);
    }
    if let Some(bad) = name
        .chars()
        .find(|&c| !(c.is_alphanumeric() || c == '_' || c == '-'))
    {
        return Err(NameError::Character(bad));
    }
    Ok(name)
}

/// The uniqueness key of a (valid) name: NFKC, Unicode default case folding, NFKC again (the
/// fold can undo a normalisation).
pub fn name_key(name: &str) -> String {
    let normal: String = name.nfkc().collect();
    caseless::default_case_fold_str(&normal).nfkc().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_any_script_are_kept_and_folded() {
        assert_eq!(valid_name(" 王小明 ").unwrap(), "王小明");
        assert_eq!(valid_name("羽生").unwrap(), "羽生");
        assert_eq!(valid_name("Ｂｏｂ_1").unwrap(), "Bob_1");
        assert_eq!(name_key("STRASSE"), name_key("straße"));
        assert_eq!(name_key("Ｂｏｂ"), name_key("bob"));
        assert_ne!(name_key("bob"), name_key("bobb"));
    }

    #[test]
    fn bad_names_are_refused_with_the_reason() {
        assert_eq!(valid_name("a"), Err(NameError::Length));
        assert_eq!(valid_name(&"x".repeat(21)), Err(NameError::Length));
        assert_eq!(valid_name("a b"), Err(NameError::Character(' ')));
        assert_eq!(valid_name("a<b"), Err(NameError::Character('<')));
        assert_eq!(
            valid_name("ab\u{202e}"),
            Err(NameError::Character('\u{202e}'))
        );
    }
}
