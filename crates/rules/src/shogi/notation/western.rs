//! Western (Hodges) move notation: `P-76`, `Bx33+`, `S*45`, `G69-58`, `+Rx22`, and the
//! engine-coordinates style with rank letters, `P-7f`.
//!
//! A piece letter (`+` before it for a promoted piece), the origin only when another piece of
//! the same kind could also move to the destination, `-` for a move, `x` for a capture, `*`
//! for a drop, the destination, then `+` for a promotion or `=` for a move that could have
//! promoted and did not.

use crate::shogi::{PieceKind, Square};

use super::error::NotationError;
use super::only_fit;
use super::view::{MoveFacts, could_promote};

/// How Western notation writes squares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum WesternStyle {
    /// File and rank digits, `P-76` (the Hodges style of English books).
    #[default]
    Numeric,
    /// File digit and rank letter as in USI, `P-7f`.
    Letters,
}

fn square_text(sq: Square, style: WesternStyle) -> String {
    match style {
        WesternStyle::Numeric => format!("{}{}", sq.file(), sq.rank()),
        WesternStyle::Letters => sq.to_string(),
    }
}

/// The piece letter(s): `P`, `+R`.
fn piece_text(kind: PieceKind) -> String {
    if kind.is_promoted() {
        format!("+{}", kind.letter())
    } else {
        kind.letter().to_string()
    }
}

/// Writes `mv` (one of `legal`) on a board of `size`.
pub(crate) fn write(legal: &[MoveFacts], mv: &MoveFacts, size: u8, style: WesternStyle) -> String {
    let mut out = piece_text(mv.kind);
    match mv.from {
        None => {
            out.push('*');
            out.push_str(&square_text(mv.to, style));
        }
        Some(from) => {
            let ambiguous = legal
                .iter()
                .any(|m| m.kind == mv.kind && m.to == mv.to && m.from.is_some_and(|f| f != from));
            if ambiguous {
                out.push_str(&square_text(from, style));
            }
            out.push(if mv.captured.is_some() { 'x' } else { '-' });
            out.push_str(&square_text(mv.to, style));
            if mv.promote {
                out.push('+');
            } else if could_promote(mv, size) {
                out.push('=');
            }
        }
    }
    out
}

/// Reads a square written as `76` or `7f` at the start of `chars`.
fn read_square(chars: &[char]) -> Option<Square> {
    let file = chars.first()?.to_digit(10)?;
    let rank = match chars.get(1)? {
        c @ '1'..='9' => c.to_digit(10)?,
        c @ 'a'..='i' => *c as u32 - 'a' as u32 + 1,
        _ => return None,
    };
    Square::new(file as u8, rank as u8)
}

fn syntax(text: &str, at: usize, expected: &'static str) -> NotationError {
    NotationError::Syntax {
        text: text.to_owned(),
        at,
        expected,
    }
}

/// Reads `text` as one of `legal`, returning its index.
pub(crate) fn parse(legal: &[MoveFacts], text: &str) -> Result<usize, NotationError> {
    let chars: Vec<char> = text.trim().chars().collect();
    let mut i = 0;
    let promoted = chars.first() == Some(&'+');
    if promoted {
        i += 1;
    }
    let base = chars
        .get(i)
        .and_then(|&c| PieceKind::from_letter(c).filter(|_| c.is_ascii_uppercase()))
        .ok_or_else(|| syntax(text, i, "a piece letter P L N S G B R K"))?;
    i += 1;
    let kind = if promoted {
        base.promoted()
            .ok_or_else(|| syntax(text, i - 1, "a piece that promotes after `+`"))?
    } else {
        base
    };
    let mut from = None;
    if chars.get(i).is_some_and(|c| c.is_ascii_digit()) {
        from = Some(read_square(&chars[i..]).ok_or_else(|| syntax(text, i, "an origin square"))?);
        i += 2;
    }
    let separator = *chars
        .get(i)
        .filter(|c| matches!(c, '-' | 'x' | '*'))
        .ok_or_else(|| syntax(text, i, "`-`, `x` or `*`"))?;
    i += 1;
    if separator == '*' && (from.is_some() || promoted) {
        return Err(syntax(
            text,
            i - 1,
            "a drop of an unpromoted piece without origin",
        ));
    }
    let to = read_square(chars.get(i..).unwrap_or_default())
        .ok_or_else(|| syntax(text, i, "a destination square like 76 or 7f"))?;
    i += 2;
    let promote = match chars.get(i) {
        Some('+') => Some(true),
        Some('=') => Some(false),
        None => None,
        Some(_) => return Err(syntax(text, i, "`+`, `=` or the end")),
    };
    if promote.is_some() && chars.len() > i + 1 {
        return Err(syntax(text, i + 1, "the end"));
    }
    let mut fits: Vec<usize> = (0..legal.len())
        .filter(|&n| {
            let m = &legal[n];
            m.kind == kind
                && m.to == to
                && m.is_drop() == (separator == '*')
                && from.is_none_or(|f| m.from == Some(f))
                && (separator != 'x' || m.captured.is_some())
        })
        .collect();
    match promote {
        Some(want) => fits.retain(|&n| legal[n].promote == want),
        None => fits.retain(|&n| !legal[n].promote),
    }
    only_fit(&fits, text)
}
