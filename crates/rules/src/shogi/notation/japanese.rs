//! Japanese move notation (`☗７六歩`, `☖同　銀`, `☗５二金左上`, `☗５五角打`, `☗２二角成`),
//! written and read against the list of legal moves of a position.
//!
//! Disambiguation follows the Japan Shogi Association's rules (棋譜の表記方法):
//! 1. When several pieces of the same kind can move to the destination, the *motion* decides
//!    if it can: 上 (moves forward), 引 (moves backward), 寄 (moves sideways on its rank).
//! 2. Otherwise the *position* decides: 右/左, the piece on the mover's right/left, seen from
//!    the mover's side of the board (for gote, file 9 is on the right). For gold, silver and
//!    the promoted minor pieces (と 成香 成桂 成銀), which are compared with the destination,
//!    a piece moving straight forward is 直 instead. For rook, bishop, dragon and horse (at
//!    most two of each per side) 右/左 compare the two pieces with each other, and 直 is never
//!    used: with a dragon straight below the destination and another below-right, both move
//!    上 and they are 竜左 and 竜右.
//! 3. When neither alone decides, both are written, position first: `５二金左上`.
//!
//! 打 marks a drop only when a piece of the same kind on the board could also move there
//! (in KIF records every drop carries 打). 成 marks a promotion; 不成 a move that could have
//! promoted and did not. 同 (plus a full-width space) replaces the destination when it is the
//! previous move's destination.

use crate::Side;
use crate::shogi::{PieceKind, Square};

use super::error::NotationError;
use super::kanji;
use super::only_fit;
use super::view::{MoveFacts, could_promote};

/// Which flavour of Japanese notation to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flavour {
    /// For display: `☗` / `☖` mark, 打 only when needed.
    Display,
    /// For KIF move lines: no mark, 打 on every drop, origin in parentheses `(77)`. The
    /// origin singles the move out, so no relative words (右/左/直/上/引/寄) and no 不成 are
    /// written: the KIF specification (柿木, kif_format.html) notes no 不成, and the readers
    /// built on it (python-shogi, cshogi) expect `５八金(49)` and `２三銀(34)`.
    Kif,
    /// For KI2 move lines: `▲`/`△` mark, the JSA relative words, 不成, 打 only when
    /// needed; no origin.
    Ki2,
}

/// How a piece moves to its destination, from its own side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Motion {
    /// 上: forward.
    Up,
    /// 引: backward.
    Back,
    /// 寄: sideways along its rank.
    Sideways,
}

/// Where a piece stands, from its own side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// 右.
    Right,
    /// 左.
    Left,
    /// 直: straight below the destination, moving straight forward (gold and silver kinds).
    Straight,
}

impl Motion {
    fn word(self) -> char {
        match self {
            Motion::Up => '上',
            Motion::Back => '引',
            Motion::Sideways => '寄',
        }
    }
}

impl Place {
    fn word(self) -> char {
        match self {
            Place::Right => '右',
            Place::Left => '左',
            Place::Straight => '直',
        }
    }
}

/// The side mark: ☗ for sente, ☖ for gote (also in handicap games).
pub(crate) fn side_mark(side: Side) -> char {
    match side {
        Side::First => '☗',
        Side::Second => '☖',
    }
}

fn motion(side: Side, from: Square, to: Square) -> Motion {
    let forward = match side {
        Side::First => i32::from(from.rank()) - i32::from(to.rank()),
        Side::Second => i32::from(to.rank()) - i32::from(from.rank()),
    };
    match forward {
        f if f > 0 => Motion::Up,
        f if f < 0 => Motion::Back,
        _ => Motion::Sideways,
    }
}

/// How far to the mover's right `a` is compared with `b`: positive when `a` is to the right.
fn rightwards(side: Side, a: Square, b: Square) -> i32 {
    let d = i32::from(b.file()) - i32::from(a.file());
    match side {
        Side::First => d,
        Side::Second => -d,
    }
}

/// Pieces that have at most two of a kind per side and compare positions with each other.
fn is_major(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::Rook | PieceKind::Bishop | PieceKind::Dragon | PieceKind::Horse
    )
}

/// Gold, silver and the pieces moving as gold: those that use 直.
fn uses_straight(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::Gold
            | PieceKind::Silver
            | PieceKind::Tokin
            | PieceKind::PromotedLance
            | PieceKind::PromotedKnight
            | PieceKind::PromotedSilver
    )
}

/// The place word of a piece moving `from` → `to`, among `others` (the origins of the other
/// pieces of its kind that can reach `to`).
fn place(
    side: Side,
    kind: PieceKind,
    from: Square,
    to: Square,
    others: &[Square],
) -> Option<Place> {
    if is_major(kind) {
        // Relative to the other piece(s), never 直 (JSA: 竜・馬が2枚の場合).
        if others.iter().all(|&o| rightwards(side, from, o) > 0) {
            Some(Place::Right)
        } else if others.iter().all(|&o| rightwards(side, from, o) < 0) {
            Some(Place::Left)
        } else {
            None
        }
    } else {
        match rightwards(side, from, to) {
            d if d > 0 => Some(Place::Right),
            d if d < 0 => Some(Place::Left),
            _ if uses_straight(kind) && motion(side, from, to) == Motion::Up => {
                Some(Place::Straight)
            }
            _ => None,
        }
    }
}

/// The distinct origins of board moves of `kind` by the mover to `to`.
fn origins(legal: &[MoveFacts], kind: PieceKind, to: Square) -> Vec<Square> {
    let mut out: Vec<Square> = legal
        .iter()
        .filter(|m| m.kind == kind && m.to == to)
        .filter_map(|m| m.from)
        .collect();
    out.sort();
    out.dedup();
    out
}

/// Tags (motion, place) of every origin in `all`, each place computed against the others.
fn tags(
    side: Side,
    kind: PieceKind,
    to: Square,
    all: &[Square],
) -> Vec<(Square, Motion, Option<Place>)> {
    all.iter()
        .map(|&from| {
            let others: Vec<Square> = all.iter().copied().filter(|&o| o != from).collect();
            (
                from,
                motion(side, from, to),
                place(side, kind, from, to, &others),
            )
        })
        .collect()
}

/// The relative words (右/左/直 and 上/引/寄) that single out `mv` among `legal`.
fn relative_words(legal: &[MoveFacts], mv: &MoveFacts) -> String {
    let Some(from) = mv.from else {
        return String::new();
    };
    let all = origins(legal, mv.kind, mv.to);
    if all.len() < 2 {
        return String::new();
    }
    let tagged = tags(mv.side, mv.kind, mv.to, &all);
    let mine = tagged.iter().find(|t| t.0 == from).copied();
    let Some((_, my_motion, my_place)) = mine else {
        return String::new();
    };
    let others: Vec<_> = tagged.iter().filter(|t| t.0 != from).collect();
    // 1. Motion alone.
    if others.iter().all(|t| t.1 != my_motion) {
        return my_motion.word().to_string();
    }
    if let Some(p) = my_place {
        // 2. Position alone.
        if others.iter().all(|t| t.2 != Some(p)) {
            return p.word().to_string();
        }
        // 3. Both, position first.
        return format!("{}{}", p.word(), my_motion.word());
    }
    my_motion.word().to_string()
}

/// Whether a board piece of the dropped kind could also move to the drop's destination.
fn drop_needs_mark(legal: &[MoveFacts], mv: &MoveFacts) -> bool {
    legal
        .iter()
        .any(|m| !m.is_drop() && m.kind == mv.kind && m.to == mv.to)
}

/// Writes `mv` (one of `legal`) on a board of `size`.
pub(crate) fn write(
    legal: &[MoveFacts],
    mv: &MoveFacts,
    size: u8,
    previous_to: Option<Square>,
    flavour: Flavour,
) -> String {
    let mut out = String::new();
    match flavour {
        Flavour::Display => out.push(side_mark(mv.side)),
        Flavour::Ki2 => out.push(match mv.side {
            Side::First => '▲',
            Side::Second => '△',
        }),
        Flavour::Kif => {}
    }
    if previous_to == Some(mv.to) {
        out.push_str("同　");
    } else {
        out.push(kanji::full_width_digit(mv.to.file()));
        out.push(kanji::kanji_numeral(mv.to.rank()));
    }
    out.push_str(kanji::move_name(mv.kind));
    match mv.from {
        None => {
            if flavour == Flavour::Kif || drop_needs_mark(legal, mv) {
                out.push('打');
            }
        }
        Some(from) => {
            if flavour != Flavour::Kif {
                out.push_str(&relative_words(legal, mv));
            }
            if mv.promote {
                out.push('成');
            } else if flavour != Flavour::Kif && could_promote(mv, size) {
                out.push_str("不成");
            }
            if flavour == Flavour::Kif {
                out.push_str(&format!("({}{})", from.file(), from.rank()));
            }
        }
    }
    out
}

/// What a Japanese move text says, before it is matched against the legal moves.
#[derive(Debug, Default)]
struct Parsed {
    side: Option<Side>,
    to: Option<Square>,
    same: bool,
    kind: Option<PieceKind>,
    motion: Option<Motion>,
    place: Option<Place>,
    drop: bool,
    promote: Option<bool>,
    from: Option<Square>,
}

fn is_space(c: char) -> bool {
    c.is_whitespace() || c == '　'
}

fn syntax(text: &str, at: usize, expected: &'static str) -> NotationError {
    NotationError::Syntax {
        text: text.to_owned(),
        at,
        expected,
    }
}

fn tokenize(text: &str) -> Result<Parsed, NotationError> {
    let chars: Vec<char> = text.chars().collect();
    let mut parsed = Parsed::default();
    let mut i = 0;
    let skip_spaces = |i: &mut usize| {
        while *i < chars.len() && is_space(chars[*i]) {
            *i += 1;
        }
    };
    skip_spaces(&mut i);
    match chars.get(i) {
        Some('☗' | '▲' | '■' | '+') => {
            parsed.side = Some(Side::First);
            i += 1;
        }
        Some('☖' | '△' | '▽' | '□' | '-') => {
            parsed.side = Some(Side::Second);
            i += 1;
        }
        _ => {}
    }
    skip_spaces(&mut i);
    if chars.get(i) == Some(&'同') {
        parsed.same = true;
        i += 1;
        skip_spaces(&mut i);
    } else {
        let file = chars.get(i).and_then(|&c| kanji::digit_value(c));
        let rank = chars.get(i + 1).and_then(|&c| kanji::digit_value(c));
        match (file, rank) {
            (Some(f), Some(r)) => {
                parsed.to = Square::new(f, r);
                i += 2;
            }
            (None, _) => return Err(syntax(text, i, "a file digit or 同")),
            (Some(_), None) => return Err(syntax(text, i + 1, "a rank numeral")),
        }
        skip_spaces(&mut i);
        // `７六同歩` is not standard, but `同` right after the square is harmless.
        if chars.get(i) == Some(&'同') {
            i += 1;
        }
    }
    let rest: String = chars[i..].iter().collect();
    let Some((kind, after)) = kanji::strip_piece_name(&rest) else {
        return Err(syntax(text, i, "a piece name"));
    };
    parsed.kind = Some(kind);
    i = chars.len() - after.chars().count();
    while i < chars.len() {
        let c = chars[i];
        match c {
            '右' | '左' | '直' if parsed.place.is_none() => {
                parsed.place = Some(match c {
                    '右' => Place::Right,
                    '左' => Place::Left,
                    _ => Place::Straight,
                });
            }
            '上' | '行' | '入' | '引' | '寄' if parsed.motion.is_none() => {
                parsed.motion = Some(match c {
                    '引' => Motion::Back,
                    '寄' => Motion::Sideways,
                    _ => Motion::Up,
                });
            }
            '打' if !parsed.drop => parsed.drop = true,
            '成' if parsed.promote.is_none() => {
                parsed.promote = Some(true);
                if chars.get(i + 1) == Some(&'り') {
                    i += 1;
                }
            }
            '不' if parsed.promote.is_none() && chars.get(i + 1) == Some(&'成') => {
                parsed.promote = Some(false);
                i += 1;
                if chars.get(i + 1) == Some(&'り') {
                    i += 1;
                }
            }
            '生' if parsed.promote.is_none() => parsed.promote = Some(false),
            '(' | '（' if parsed.from.is_none() => {
                let f = chars.get(i + 1).and_then(|&c| kanji::digit_value(c));
                let r = chars.get(i + 2).and_then(|&c| kanji::digit_value(c));
                let close = chars.get(i + 3);
                match (f, r, close) {
                    (Some(f), Some(r), Some(')' | '）')) => {
                        parsed.from = Square::new(f, r);
                        i += 3;
                    }
                    _ => return Err(syntax(text, i + 1, "an origin like (77)")),
                }
            }
            c if is_space(c) => {}
            _ => {
                return Err(syntax(
                    text,
                    i,
                    "右/左/直, 上/引/寄, 打, 成/不成 or an origin",
                ));
            }
        }
        i += 1;
    }
    Ok(parsed)
}

/// Reads `text` as one of `legal` (on a board of `size`, `turn` to move), returning its index.
pub(crate) fn parse(
    legal: &[MoveFacts],
    text: &str,
    turn: Side,
    previous_to: Option<Square>,
) -> Result<usize, NotationError> {
    let parsed = tokenize(text)?;
    if parsed.side.is_some_and(|s| s != turn) {
        return Err(NotationError::WrongSide(text.to_owned()));
    }
    let to = if parsed.same {
        previous_to.ok_or_else(|| NotationError::NoPreviousMove(text.to_owned()))?
    } else {
        parsed
            .to
            .ok_or_else(|| syntax(text, 0, "a square on the board"))?
    };
    let kind = parsed.kind.ok_or_else(|| syntax(text, 0, "a piece name"))?;
    let mut fits: Vec<usize> = (0..legal.len())
        .filter(|&i| legal[i].to == to && legal[i].kind == kind)
        .collect();
    // 打 means a drop; without it a board move is meant when there is one (JSA).
    if parsed.drop {
        fits.retain(|&i| legal[i].is_drop());
    } else if parsed.from.is_some() || fits.iter().any(|&i| !legal[i].is_drop()) {
        fits.retain(|&i| !legal[i].is_drop());
    }
    if let Some(from) = parsed.from {
        fits.retain(|&i| legal[i].from == Some(from));
    }
    if parsed.motion.is_some() || parsed.place.is_some() {
        let all = origins(legal, kind, to);
        let tagged = tags(turn, kind, to, &all);
        fits.retain(|&i| {
            tagged.iter().any(|&(from, m, p)| {
                legal[i].from == Some(from)
                    && parsed.motion.is_none_or(|want| want == m)
                    && parsed.place.is_none_or(|want| Some(want) == p)
            })
        });
    }
    match parsed.promote {
        Some(want) => fits.retain(|&i| legal[i].promote == want),
        // No mark: the non-promotion when both exist (older records omit 不成).
        None => {
            if fits.iter().any(|&i| !legal[i].promote) {
                fits.retain(|&i| !legal[i].promote);
            }
        }
    }
    only_fit(&fits, text)
}
