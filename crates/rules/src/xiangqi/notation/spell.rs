//! Spelling move descriptions in WXF and Chinese notation, and reading them back by matching
//! the text against the spellings of every legal move.
//!
//! Reading compares *normalised* text: WXF is upper-cased with `B`/`N`/`=` read as `E`/`H`/`.`;
//! Chinese maps every accepted character to one token (both scripts, both sides' piece
//! characters, Chinese, ASCII and full-width numerals). A move matches in two tiers: first
//! its canonical spelling; only if no move matches that way, the accepted alternatives
//! (the older `+C` for the official `C+`, a plain file for a tandem piece, 前/后/ordinals for any
//! tandem). More than one match in a tier is an ambiguity error, never a guess.

use super::NotationError;
use super::describe::{Board, Description, Direction, Place, describe, place};
use crate::Side;
use crate::xiangqi::{PieceKind, Square};

/// Which Chinese characters to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Script {
    /// Simplified characters (zh-Hans): 帅 仕 相 马 车 炮 兵 / 将 士 象 马 车 炮 卒, 进 退 平, 前 中 后.
    Simplified,
    /// Traditional characters (zh-Hant): 帥 仕 相 傌 俥 炮 兵 / 將 士 象 馬 車 砲 卒, 進 退 平, 前 中 後.
    Traditional,
}

/// The WXF letter of a kind: K A E H R C P (WXF writes E and H for elephant and horse).
pub(crate) fn wxf_letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::General => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Chariot => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Soldier => 'P',
    }
}

fn digit(n: u8) -> char {
    char::from_digit(u32::from(n), 10).unwrap_or('?')
}

fn direction_sign(direction: Direction) -> char {
    match direction {
        Direction::Forward => '+',
        Direction::Backward => '-',
        Direction::Sideways => '.',
    }
}

/// Whether the file must be written because tandem pieces stand on two files (the WXF
/// rule for tandem soldiers on two files: `3+`, `33`, `3-`). Beyond three on such a file
/// (Jieqi only) the ordinal form is used instead.
fn names_file(d: &Description) -> bool {
    d.origin.other_tandem_file && d.origin.count <= 3
}

/// The canonical WXF spelling (the official WXF order, the tandem marker in place of the
/// file digit): `C2.5`, `H8+7`, `C+.5`, `P3.4` (middle of three), `++.4`, `3+.4`, and for six
/// or more like pieces on a file (Jieqi) `4P3+1`.
pub(crate) fn wxf(d: &Description) -> String {
    let letter = wxf_letter(d.kind);
    let file = digit(d.origin.file);
    let mut text = String::with_capacity(6);
    if names_file(d) {
        text.push(file);
        text.push(match place(d.origin) {
            Place::Front => '+',
            Place::Rear => '-',
            _ => file,
        });
    } else {
        match place(d.origin) {
            Place::Alone | Place::Middle => {
                text.push(letter);
                text.push(file);
            }
            // The official WXF order: the marker in place of the file digit, after the
            // letter (`R+.3`, `C--1`).
            Place::Front => {
                text.push(letter);
                text.push('+');
            }
            Place::Rear => {
                text.push(letter);
                text.push('-');
            }
            Place::Foremost => text.push_str("++"),
            Place::Rearmost => text.push_str("--"),
            Place::Ordinal(_) => {}
        }
    }
    if text.is_empty() || (d.origin.other_tandem_file && d.origin.count > 3) {
        text = format!("{}{letter}{file}", d.origin.index + 1);
    }
    text.push(direction_sign(d.direction));
    text.push(digit(d.number));
    text
}

/// Other accepted WXF spellings: the sign-before-letter order Jiang used to write (`+C` for
/// `C+`), `+`/`-` (either order) for the first and last of two or three on a file (also when
/// two files hold tandems), and the plain file.
fn wxf_alternatives(d: &Description) -> Vec<String> {
    let letter = wxf_letter(d.kind);
    let tail = format!("{}{}", direction_sign(d.direction), digit(d.number));
    let mut out = vec![format!("{letter}{}{tail}", digit(d.origin.file))];
    let canonical = wxf(d);
    if let [l, sign @ ('+' | '-'), rest @ ..] = canonical.chars().collect::<Vec<_>>().as_slice()
        && *l == letter
    {
        out.push(format!("{sign}{l}{}", rest.iter().collect::<String>()));
    }
    // With four or more, `+`/`-` name the second from each end (`++`/`--` the ends).
    let last = d.origin.count - 1;
    if (2..=3).contains(&d.origin.count) {
        if d.origin.index == 0 {
            out.push(format!("{letter}+{tail}"));
            out.push(format!("+{letter}{tail}"));
        }
        if d.origin.index == last {
            out.push(format!("{letter}-{tail}"));
            out.push(format!("-{letter}{tail}"));
        }
    }
    out
}

/// Normalises WXF input: trims, upper-cases, reads `B`/`N`/`G` as `E`/`H`/`K`, `=` as `.`,
/// full-width forms as ASCII; any other character is an error naming its position.
fn normalise_wxf(text: &str) -> Result<String, NotationError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(NotationError::Empty);
    }
    let mut out = String::with_capacity(trimmed.len());
    for (i, c) in trimmed.chars().enumerate() {
        let ascii = match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        };
        let token = match ascii.to_ascii_uppercase() {
            c @ ('K' | 'A' | 'E' | 'H' | 'R' | 'C' | 'P' | '+' | '-' | '.' | '1'..='9') => c,
            'B' => 'E',
            'N' => 'H',
            'G' => 'K',
            '=' => '.',
            _ => {
                return Err(NotationError::BadCharacter {
                    text: text.to_owned(),
                    found: c,
                    position: i + 1,
                    expected: "a piece letter (K A E H R C P), a file or number 1-9, or + - .",
                });
            }
        };
        out.push(token);
    }
    Ok(out)
}

/// The character for `kind` of `side` in `script`.
pub(crate) fn chinese_piece(kind: PieceKind, side: Side, script: Script) -> char {
    match script {
        Script::Traditional => kind.character(side),
        Script::Simplified => match (kind, side) {
            (PieceKind::General, Side::First) => '帅',
            (PieceKind::General, Side::Second) => '将',
            (PieceKind::Horse, _) => '马',
            (PieceKind::Chariot, _) => '车',
            (PieceKind::Cannon, _) => '炮',
            _ => kind.character(side),
        },
    }
}

const CHINESE_NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FULL_WIDTH_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// A file or distance: Chinese numerals for Red, full-width digits for Black.
fn chinese_number(side: Side, n: u8) -> char {
    let i = usize::from(n.clamp(1, 9) - 1);
    match side {
        Side::First => CHINESE_NUMERALS[i],
        Side::Second => FULL_WIDTH_DIGITS[i],
    }
}

fn chinese_ordinal(n: u8) -> char {
    CHINESE_NUMERALS[usize::from(n.clamp(1, 9) - 1)]
}

/// The canonical Chinese spelling (the seed's convention): Red `炮二平五`, Black `马８进７`;
/// two like pieces on a file `前炮`/`后炮`; three `前兵 中兵 后兵`; four or five
/// `一兵 二兵 …` from the front; tandems on two files name the file in place of the piece
/// (`前七`, `中七`, `后七`); six or more (Jieqi) `四兵三…` (ordinal, piece, file).
pub(crate) fn chinese(d: &Description, script: Script) -> String {
    let piece = chinese_piece(d.kind, d.side, script);
    let file = chinese_number(d.side, d.origin.file);
    let (front, middle, rear) = match script {
        Script::Simplified => ('前', '中', '后'),
        Script::Traditional => ('前', '中', '後'),
    };
    let Description { origin, .. } = *d;
    let mut text = String::with_capacity(16);
    let named = |i: u8| match (origin.count, i) {
        (_, 0) => front,
        (3, 1) => middle,
        _ => rear,
    };
    if origin.count == 1 {
        text.push(piece);
        text.push(file);
    } else if names_file(d) {
        text.push(named(origin.index));
        text.push(file);
    } else if origin.count <= 3 {
        text.push(named(origin.index));
        text.push(piece);
    } else {
        text.push(chinese_ordinal(origin.index + 1));
        text.push(piece);
        if origin.count > 5 || origin.other_tandem_file {
            text.push(file);
        }
    }
    text.push(match (d.direction, script) {
        (Direction::Forward, Script::Simplified) => '进',
        (Direction::Forward, Script::Traditional) => '進',
        (Direction::Backward, _) => '退',
        (Direction::Sideways, _) => '平',
    });
    text.push(chinese_number(d.side, d.number));
    text
}

/// Other accepted Chinese spellings (normalised): the plain file, 前/后 for the first and
/// last of any tandem, 中 for the middle of an odd one, and ordinals for any tandem.
fn chinese_alternatives(d: &Description) -> Vec<String> {
    let letter = wxf_letter(d.kind);
    let file = digit(d.origin.file);
    let tail = format!("{}{}", direction_sign(d.direction), digit(d.number));
    let Description { origin, .. } = *d;
    let mut out = vec![format!("{letter}{file}{tail}")];
    if origin.count > 1 {
        let ordinal = digit(origin.index + 1);
        out.push(format!("{ordinal}{letter}{tail}"));
        out.push(format!("{ordinal}{letter}{file}{tail}"));
        let mut marks = Vec::new();
        if origin.index == 0 {
            marks.push('F');
        }
        if origin.index == origin.count - 1 {
            marks.push('B');
        }
        if origin.count % 2 == 1 && origin.index == origin.count / 2 {
            marks.push('M');
        }
        for mark in marks {
            out.push(format!("{mark}{letter}{tail}"));
            out.push(format!("{mark}{file}{tail}"));
            out.push(format!("{mark}{letter}{file}{tail}"));
        }
    }
    out
}

/// Maps one character of Chinese notation to its token, if it is one.
fn chinese_token(c: char) -> Option<char> {
    Some(match c {
        '帅' | '帥' | '将' | '將' => 'K',
        '仕' | '士' => 'A',
        '相' | '象' => 'E',
        '马' | '馬' | '傌' => 'H',
        '车' | '車' | '俥' => 'R',
        '炮' | '砲' | '包' => 'C',
        '兵' | '卒' => 'P',
        '进' | '進' => '+',
        '退' => '-',
        '平' => '.',
        '前' => 'F',
        '中' => 'M',
        '后' | '後' => 'B',
        '1'..='9' => c,
        '１'..='９' => char::from_u32(c as u32 - '１' as u32 + '1' as u32)?,
        _ => {
            let i = CHINESE_NUMERALS.iter().position(|&n| n == c)?;
            digit(i as u8 + 1)
        }
    })
}

/// Normalises Chinese input to tokens; whitespace is ignored.
fn normalise_chinese(text: &str) -> Result<String, NotationError> {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if c.is_whitespace() {
            continue;
        }
        out.push(chinese_token(c).ok_or_else(|| NotationError::BadCharacter {
            text: text.to_owned(),
            found: c,
            position: i + 1,
            expected: "a piece (车 马 相 仕 帅 炮 兵 …), a numeral, 进 退 平, or 前 中 后",
        })?);
    }
    if out.is_empty() {
        return Err(NotationError::Empty);
    }
    Ok(out)
}

/// The canonical spelling of Chinese notation, normalised to tokens.
fn chinese_normalised(d: &Description) -> String {
    normalise_chinese(&chinese(d, Script::Simplified)).unwrap_or_default()
}

/// Which human notation a text is read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Notation {
    Wxf,
    Chinese,
}

/// Finds the one legal move (`candidates`: each with its from and to points) that `text`
/// spells in `notation`.
pub(crate) fn resolve<M: Copy>(
    board: &Board,
    candidates: &[(M, Square, Square)],
    notation: Notation,
    text: &str,
) -> Result<M, NotationError> {
    if text.chars().count() > 32 {
        return Err(NotationError::TooLong {
            text: text.chars().take(32).collect(),
        });
    }
    let input = match notation {
        Notation::Wxf => normalise_wxf(text)?,
        Notation::Chinese => normalise_chinese(text)?,
    };
    let described: Vec<(M, Square, Square, Description)> = candidates
        .iter()
        .filter_map(|&(mv, from, to)| describe(board, from, to).map(|d| (mv, from, to, d)))
        .collect();
    let canonical = |d: &Description| match notation {
        Notation::Wxf => normalise_wxf(&wxf(d)).unwrap_or_default(),
        Notation::Chinese => chinese_normalised(d),
    };
    let alternatives = |d: &Description| match notation {
        Notation::Wxf => wxf_alternatives(d),
        Notation::Chinese => chinese_alternatives(d),
    };
    let tiers: [&dyn Fn(&Description) -> bool; 2] = [&|d| canonical(d) == input, &|d| {
        alternatives(d).contains(&input)
    }];
    for matches in tiers {
        let mut found: Vec<(M, Square, Square)> = Vec::new();
        for &(mv, from, to, ref d) in &described {
            if matches(d) && !found.iter().any(|&(_, f, t)| (f, t) == (from, to)) {
                found.push((mv, from, to));
            }
        }
        match found.as_slice() {
            [] => continue,
            [(mv, _, _)] => return Ok(*mv),
            many => {
                return Err(NotationError::Ambiguous {
                    text: text.trim().to_owned(),
                    candidates: many
                        .iter()
                        .map(|(_, f, t)| format!("{f}{t}"))
                        .collect::<Vec<_>>()
                        .join(", "),
                });
            }
        }
    }
    let side = match board.turn() {
        Side::First => "Red",
        Side::Second => "Black",
    };
    let why = diagnose(board, notation, &input)
        .unwrap_or("it does not have the shape piece, file, direction, number");
    Err(NotationError::NoSuchMove {
        text: text.trim().to_owned(),
        side,
        why,
    })
}

/// Why normalised `input`, which matches no legal move, is wrong: whether the piece it
/// names exists. `None` when it is too short to name a piece and a move.
fn diagnose(board: &Board, notation: Notation, input: &str) -> Option<&'static str> {
    let chars: Vec<char> = input.chars().collect();
    let split = chars.len().checked_sub(2).filter(|&n| n > 0)?;
    if !matches!(chars[split], '+' | '-' | '.') || !chars[split + 1].is_ascii_digit() {
        return None;
    }
    let designator: String = chars[..split].iter().collect();
    // Describe every piece of the mover as if it moved sideways to its own file: only the
    // designator (all but the last two tokens) of each spelling matters here.
    let names_a_piece = Square::all()
        .filter(|&sq| board.at(sq).is_some_and(|(side, _)| side == board.turn()))
        .filter_map(|sq| describe(board, sq, sq))
        .any(|d| {
            let mut spellings = match notation {
                Notation::Wxf => wxf_alternatives(&d),
                Notation::Chinese => chinese_alternatives(&d),
            };
            spellings.push(match notation {
                Notation::Wxf => wxf(&d),
                Notation::Chinese => chinese_normalised(&d),
            });
            spellings.iter().any(|s| {
                let cs: Vec<char> = s.chars().collect();
                cs.len() >= 2 && cs[..cs.len() - 2].iter().collect::<String>() == designator
            })
        });
    Some(if names_a_piece {
        "that piece cannot make this move"
    } else {
        "no piece of the side to move is named that way"
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    /// A board from `(point, side, kind)` triples.
    fn board(turn: Side, pieces: &[(&str, Side, PieceKind)]) -> Board {
        let mut b = Board::new(turn);
        for &(s, side, kind) in pieces {
            b.put(sq(s), side, kind);
        }
        b
    }

    /// WXF, simplified and traditional spellings of `from`-`to`.
    fn spell(b: &Board, from: &str, to: &str) -> (String, String, String) {
        let d = describe(b, sq(from), sq(to)).unwrap();
        (
            wxf(&d),
            chinese(&d, Script::Simplified),
            chinese(&d, Script::Traditional),
        )
    }

    fn check(b: &Board, from: &str, to: &str, expected: (&str, &str, &str)) {
        let (w, s, t) = spell(b, from, to);
        assert_eq!((w.as_str(), s.as_str(), t.as_str()), expected, "{from}{to}");
        // Each spelling reads back as this move when it is among candidates.
        let candidates = [(0u8, sq(from), sq(to))];
        for (text, notation) in [
            (w, Notation::Wxf),
            (s, Notation::Chinese),
            (t, Notation::Chinese),
        ] {
            assert_eq!(resolve(b, &candidates, notation, &text), Ok(0), "{text}");
        }
    }

    use PieceKind::*;
    const R: Side = Side::RED;
    const B: Side = Side::BLACK;

    #[test]
    fn every_kind_both_sides() {
        let red = board(
            R,
            &[
                ("e0", R, General),
                ("f0", R, Advisor),
                ("g0", R, Elephant),
                ("h0", R, Horse),
                ("i0", R, Chariot),
                ("h2", R, Cannon),
                ("c3", R, Soldier),
                ("e6", R, Soldier),
            ],
        );
        check(&red, "e0", "e1", ("K5+1", "帅五进一", "帥五進一"));
        check(&red, "f0", "e1", ("A4+5", "仕四进五", "仕四進五"));
        check(&red, "g0", "e2", ("E3+5", "相三进五", "相三進五"));
        check(&red, "h0", "g2", ("H2+3", "马二进三", "傌二進三"));
        check(&red, "i0", "i1", ("R1+1", "车一进一", "俥一進一"));
        check(&red, "h2", "e2", ("C2.5", "炮二平五", "炮二平五"));
        check(&red, "h2", "h0", ("C2-2", "炮二退二", "炮二退二"));
        check(&red, "c3", "c4", ("P7+1", "兵七进一", "兵七進一"));
        check(&red, "e6", "d6", ("P5.6", "兵五平六", "兵五平六"));
        let black = board(
            B,
            &[
                ("e9", B, General),
                ("d9", B, Advisor),
                ("c9", B, Elephant),
                ("h9", B, Horse),
                ("a9", B, Chariot),
                ("b7", B, Cannon),
                ("g6", B, Soldier),
                ("e3", B, Soldier),
            ],
        );
        check(&black, "e9", "e8", ("K5+1", "将５进１", "將５進１"));
        check(&black, "d9", "e8", ("A4+5", "士４进５", "士４進５"));
        check(&black, "c9", "e7", ("E3+5", "象３进５", "象３進５"));
        check(&black, "h9", "g7", ("H8+7", "马８进７", "馬８進７"));
        check(&black, "a9", "a8", ("R1+1", "车１进１", "車１進１"));
        check(&black, "b7", "e7", ("C2.5", "炮２平５", "砲２平５"));
        check(&black, "b7", "b9", ("C2-2", "炮２退２", "砲２退２"));
        check(&black, "g6", "g5", ("P7+1", "卒７进１", "卒７進１"));
        check(&black, "e3", "f3", ("P5.6", "卒５平６", "卒５平６"));
    }

    #[test]
    fn two_like_pieces_on_a_file() {
        let b = board(R, &[("h2", R, Cannon), ("h5", R, Cannon), ("b0", R, Horse)]);
        check(&b, "h5", "e5", ("C+.5", "前炮平五", "前炮平五"));
        check(&b, "h2", "h1", ("C--1", "后炮退一", "後炮退一"));
        let b = board(B, &[("a9", B, Chariot), ("a5", B, Chariot)]);
        check(&b, "a5", "a3", ("R++2", "前车进２", "前車進２"));
        check(&b, "a9", "b9", ("R-.2", "后车平２", "後車平２"));
    }

    #[test]
    fn three_to_five_soldiers_on_a_file() {
        let files = ["c5", "c6", "c7", "c8", "c9"];
        let expected: [&[(&str, &str)]; 3] = [
            &[
                ("P+.8", "前兵平八"),
                ("P7.8", "中兵平八"),
                ("P-.8", "后兵平八"),
            ],
            &[
                ("++.8", "一兵平八"),
                ("P+.8", "二兵平八"),
                ("P-.8", "三兵平八"),
                ("--.8", "四兵平八"),
            ],
            &[
                ("++.8", "一兵平八"),
                ("P+.8", "二兵平八"),
                ("P7.8", "三兵平八"),
                ("P-.8", "四兵平八"),
                ("--.8", "五兵平八"),
            ],
        ];
        for (n, want) in (3..=5).zip(expected) {
            let pieces: Vec<_> = files[..n].iter().map(|&s| (s, R, Soldier)).collect();
            let b = board(R, &pieces);
            for (i, &(w, zh)) in want.iter().enumerate() {
                let from = files[n - 1 - i]; // frontmost first
                let to = format!("b{}", &from[1..]);
                let (got_w, got_zh, _) = spell(&b, from, &to);
                assert_eq!(
                    (got_w.as_str(), got_zh.as_str()),
                    (w, zh),
                    "{n} soldiers, {i}"
                );
            }
            // All of them sideways at once: each reads back to its own move.
            let candidates: Vec<(usize, Square, Square)> = files[..n]
                .iter()
                .enumerate()
                .map(|(i, s)| (i, sq(s), sq(&format!("b{}", &s[1..]))))
                .collect();
            for &(id, from, to) in &candidates {
                let d = describe(&b, from, to).unwrap();
                for (text, notation) in [
                    (wxf(&d), Notation::Wxf),
                    (chinese(&d, Script::Simplified), Notation::Chinese),
                    (chinese(&d, Script::Traditional), Notation::Chinese),
                ] {
                    assert_eq!(resolve(&b, &candidates, notation, &text), Ok(id), "{text}");
                }
            }
        }
    }

    #[test]
    fn tandem_soldiers_on_two_files() {
        let b = board(
            R,
            &[
                ("c5", R, Soldier),
                ("c6", R, Soldier),
                ("c7", R, Soldier),
                ("g5", R, Soldier),
                ("g6", R, Soldier),
            ],
        );
        check(&b, "c7", "b7", ("7+.8", "前七平八", "前七平八"));
        check(&b, "c6", "b6", ("77.8", "中七平八", "中七平八"));
        check(&b, "c5", "d5", ("7-.6", "后七平六", "後七平六"));
        check(&b, "g6", "g7", ("3++1", "前三进一", "前三進一"));
        check(&b, "g5", "h5", ("3-.2", "后三平二", "後三平二"));
    }

    #[test]
    fn alternatives_are_read_and_ambiguity_is_reported() {
        let b = board(R, &[("h2", R, Cannon), ("h5", R, Cannon)]);
        let candidates = [
            (0, sq("h5"), sq("e5")),
            (1, sq("h2"), sq("e2")),
            (2, sq("h2"), sq("h3")),
        ];
        let read = |text: &str, n| resolve(&b, &candidates, n, text);
        assert_eq!(read("C+.5", Notation::Wxf), Ok(0));
        assert_eq!(read("+C.5", Notation::Wxf), Ok(0));
        assert_eq!(read("c-=5", Notation::Wxf), Ok(1));
        assert_eq!(read("C2+1", Notation::Wxf), Ok(2));
        assert!(matches!(
            read("C2.5", Notation::Wxf),
            Err(NotationError::Ambiguous { .. })
        ));
        assert_eq!(read("後砲平5", Notation::Chinese), Ok(1));
        assert_eq!(read(" 炮 二 进 一 ", Notation::Chinese), Ok(2));
        assert!(matches!(
            read("C2.6", Notation::Wxf),
            Err(NotationError::NoSuchMove { side: "Red", .. })
        ));
        assert!(matches!(
            read("C2x5", Notation::Wxf),
            Err(NotationError::BadCharacter {
                found: 'x',
                position: 3,
                ..
            })
        ));
        assert_eq!(read("", Notation::Chinese), Err(NotationError::Empty));
    }
}
