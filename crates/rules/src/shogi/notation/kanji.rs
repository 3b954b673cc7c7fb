//! The character tables of Japanese shogi text: full-width digits, kanji numerals, piece
//! names as written in move text and in board diagrams, and CSA piece codes.

use crate::shogi::PieceKind;

const FULL_WIDTH_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const KANJI_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The full-width arabic digit for a file `1..=9` (`７`).
pub(crate) fn full_width_digit(n: u8) -> char {
    FULL_WIDTH_DIGITS[usize::from(n.clamp(1, 9)) - 1]
}

/// The kanji numeral for a rank `1..=9` (`六`).
pub(crate) fn kanji_numeral(n: u8) -> char {
    KANJI_NUMERALS[usize::from(n.clamp(1, 9)) - 1]
}

/// A count written in kanji as in KIF hands: `二` … `九`, `十`, `十一` … `十八`.
pub(crate) fn kanji_count(n: u32) -> String {
    let mut out = String::new();
    if n >= 20 {
        out.push(kanji_numeral((n / 10) as u8));
    }
    if n >= 10 {
        out.push('十');
    }
    if n % 10 != 0 {
        out.push(kanji_numeral((n % 10) as u8));
    }
    out
}

/// Reads a kanji count (`十八`, `二`); `None` if `text` is not one.
pub(crate) fn parse_kanji_count(text: &str) -> Option<u32> {
    let chars: Vec<char> = text.chars().collect();
    let digit = |c: char| digit_value(c).map(u32::from);
    match chars.as_slice() {
        [] => None,
        ['十'] => Some(10),
        ['十', d] => Some(10 + digit(*d)?),
        [t, '十'] => Some(10 * digit(*t)?),
        [t, '十', d] => Some(10 * digit(*t)? + digit(*d)?),
        [d] => digit(*d),
        _ => {
            // Plain arabic digits are also seen (`歩18`).
            text.parse().ok()
        }
    }
}

/// The value 1–9 of a digit written as ASCII, full-width or kanji (`7`, `７`, `七`).
pub(crate) fn digit_value(c: char) -> Option<u8> {
    if let Some(d) = c.to_digit(10) {
        return (1..=9).contains(&d).then_some(d as u8);
    }
    FULL_WIDTH_DIGITS
        .iter()
        .position(|&d| d == c)
        .or_else(|| KANJI_NUMERALS.iter().position(|&d| d == c))
        .map(|i| i as u8 + 1)
}

/// The name of a piece in Japanese move text: one or two characters (`歩`, `成銀`, `龍`).
pub(crate) fn move_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "歩",
        PieceKind::Lance => "香",
        PieceKind::Knight => "桂",
        PieceKind::Silver => "銀",
        PieceKind::Gold => "金",
        PieceKind::Bishop => "角",
        PieceKind::Rook => "飛",
        PieceKind::King => "玉",
        PieceKind::Tokin => "と",
        PieceKind::PromotedLance => "成香",
        PieceKind::PromotedKnight => "成桂",
        PieceKind::PromotedSilver => "成銀",
        PieceKind::Horse => "馬",
        PieceKind::Dragon => "龍",
    }
}

/// Every spelling of a piece name accepted in move text and diagrams, longest first so that
/// `成銀` is matched before `銀`.
const NAME_SPELLINGS: [(&str, PieceKind); 19] = [
    ("成香", PieceKind::PromotedLance),
    ("成桂", PieceKind::PromotedKnight),
    ("成銀", PieceKind::PromotedSilver),
    ("歩", PieceKind::Pawn),
    ("香", PieceKind::Lance),
    ("桂", PieceKind::Knight),
    ("銀", PieceKind::Silver),
    ("金", PieceKind::Gold),
    ("角", PieceKind::Bishop),
    ("飛", PieceKind::Rook),
    ("玉", PieceKind::King),
    ("王", PieceKind::King),
    ("と", PieceKind::Tokin),
    ("杏", PieceKind::PromotedLance),
    ("圭", PieceKind::PromotedKnight),
    ("全", PieceKind::PromotedSilver),
    ("馬", PieceKind::Horse),
    ("龍", PieceKind::Dragon),
    ("竜", PieceKind::Dragon),
];

/// The piece name at the start of `text` and the rest of the text after it.
pub(crate) fn strip_piece_name(text: &str) -> Option<(PieceKind, &str)> {
    NAME_SPELLINGS
        .iter()
        .find_map(|&(name, kind)| text.strip_prefix(name).map(|rest| (kind, rest)))
}

/// The one-character kanji of a board diagram (BOD): 全 圭 杏 for the promoted minor pieces.
pub(crate) fn diagram_char(kind: PieceKind) -> char {
    kind.kanji()
}

/// The two-letter CSA code of a piece kind (`FU`, `UM`).
pub(crate) fn csa_code(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "FU",
        PieceKind::Lance => "KY",
        PieceKind::Knight => "KE",
        PieceKind::Silver => "GI",
        PieceKind::Gold => "KI",
        PieceKind::Bishop => "KA",
        PieceKind::Rook => "HI",
        PieceKind::King => "OU",
        PieceKind::Tokin => "TO",
        PieceKind::PromotedLance => "NY",
        PieceKind::PromotedKnight => "NK",
        PieceKind::PromotedSilver => "NG",
        PieceKind::Horse => "UM",
        PieceKind::Dragon => "RY",
    }
}

/// The piece kind of a CSA code.
pub(crate) fn from_csa_code(code: &str) -> Option<PieceKind> {
    PieceKind::ALL.into_iter().find(|&k| csa_code(k) == code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_round_trip() {
        for n in 1..=18 {
            assert_eq!(parse_kanji_count(&kanji_count(n)), Some(n), "{n}");
        }
        assert_eq!(kanji_count(18), "十八");
        assert_eq!(kanji_count(10), "十");
        assert_eq!(parse_kanji_count("x"), None);
    }

    #[test]
    fn digits_in_every_script() {
        assert_eq!(digit_value('7'), Some(7));
        assert_eq!(digit_value('７'), Some(7));
        assert_eq!(digit_value('七'), Some(7));
        assert_eq!(digit_value('0'), None);
        assert_eq!(full_width_digit(7), '７');
        assert_eq!(kanji_numeral(6), '六');
    }

    #[test]
    fn names_and_codes_round_trip() {
        for kind in PieceKind::ALL {
            assert_eq!(strip_piece_name(move_name(kind)), Some((kind, "")));
            let one = diagram_char(kind).to_string();
            assert_eq!(strip_piece_name(&one), Some((kind, "")));
            assert_eq!(from_csa_code(csa_code(kind)), Some(kind));
        }
        assert_eq!(strip_piece_name("竜引"), Some((PieceKind::Dragon, "引")));
    }
}
