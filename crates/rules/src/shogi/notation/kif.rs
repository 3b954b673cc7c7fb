//! KIF records (柿木形式), as Kifu for Windows, ShogiGUI and KifuBrowser write them:
//!
//! ```text
//! #KIF version=2.0 encoding=UTF-8
//! 開始日時：2024/01/02 10:00:00
//! 手合割：平手
//! 先手：Alice
//! 後手：Bob
//! 持ち時間：10分+30秒
//! 手数----指手---------消費時間--
//!    1 ７六歩(77)   ( 0:03/00:00:03)
//!    2 ３四歩(33)   ( 0:05/00:00:05)
//!    3 投了         ( 0:01/00:00:04)
//! まで2手で後手の勝ち
//! ```
//!
//! A start position that is neither the standard one nor a handicap preset is written as a
//! board diagram (BOD: `|v香v桂…|一` rows, 先手の持駒/後手の持駒, 後手番). Minishogi records say
//! `手合割：5五将棋` (with a 5×5 diagram when the start is not the standard one). Handicap
//! games label the players 下手 (sente) and 上手 (gote).
//!
//! Import accepts UTF-8 or Shift_JIS, `#` and `*` comments, `&` lines, missing time columns,
//! ASCII or full-width colons, 竜/龍 and 全/圭/杏 spellings, and stops at the first
//! variation (`変化：`).

use crate::shogi::{HANDICAPS, Handicap, Move, Piece, PieceKind, Position, Square};
use crate::{Outcome, Reason, Side, Variant};

use super::error::{NotationError, RecordError};
use super::japanese::{self, Flavour};
use super::kanji;
use super::record::{
    ShogiRecord, decode_record_text, parse_result_comment, replay, result_comment, side_label,
};
use super::view::BoardView;
use super::{facts, legal_facts};
use crate::variation::Node;

/// The KIF name of Minishogi's "handicap" line.
const MINISHOGI_NAME: &str = "5五将棋";

/// Handicap names that KIF writers use for starts Jiang has no preset for (python-shogi,
/// cshogi and Kifu for Windows know them), with their start SFEN. Jiang's own presets are
/// [`HANDICAPS`].
const OTHER_HANDICAPS: [(&str, &str); 6] = [
    (
        "右香落ち",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "三枚落ち",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "五枚落ち",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左五枚落ち",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    // Left and right are the handicap giver's (gote's right is the 9 file).
    (
        "右七枚落ち",
        "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左七枚落ち",
        "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];

/// The start position a 手合割 name stands for (shogi only), if Jiang knows the name.
pub(crate) fn handicap_by_name(name: &str) -> Option<Position> {
    let name = name.trim();
    if name == "平手" {
        return Some(Position::startpos(Variant::Shogi));
    }
    if let Some(h) = HANDICAPS
        .iter()
        .find(|h| h.variant == Variant::Shogi && h.japanese == name)
    {
        return Some(h.position());
    }
    // Spellings seen in real files.
    match name {
        "飛車香落ち" => return handicap_by_name("飛香落ち"),
        "左香落ち" => return handicap_by_name("香落ち"),
        n if n.ends_with('落') => return handicap_by_name(&format!("{n}ち")),
        _ => {}
    }
    OTHER_HANDICAPS
        .iter()
        .find(|(n, _)| *n == name)
        .and_then(|(_, sfen)| Position::from_sfen(Variant::Shogi, sfen).ok())
}

/// The 手合割 name of a shogi start that is not one of Jiang's presets but has a name.
fn handicap_name_of(start: &Position) -> Option<&'static str> {
    OTHER_HANDICAPS
        .iter()
        .find(|(_, sfen)| Position::from_sfen(Variant::Shogi, sfen).ok().as_ref() == Some(start))
        .map(|(n, _)| *n)
}

/// Display width of KIF text: full-width characters count two columns (as in Shift_JIS).
pub(crate) fn width(text: &str) -> usize {
    text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// `( 0:16/00:00:16)`: this move's minutes and seconds, the player's total so far.
fn time_column(seconds: u32, total: u32) -> String {
    format!(
        "({:>2}:{:02}/{:02}:{:02}:{:02})",
        seconds / 60,
        seconds % 60,
        total / 3600,
        total / 60 % 60,
        total % 60
    )
}

/// One move line: number right-aligned in 4 columns, the move padded to 13 columns.
fn move_line(number: usize, text: &str, seconds: u32, total: u32) -> String {
    let pad = 13usize.saturating_sub(width(text)).max(1);
    format!(
        "{number:>4} {text}{}{}",
        " ".repeat(pad),
        time_column(seconds, total)
    )
}

/// The KIF special move (a move of `to_move`, the side to move when the game ended) and the
/// summary tail (`まで{n}手で…`) for `outcome`.
///
/// The summary is always one of the plain forms every reader parses (python-shogi, cshogi,
/// Kifu for Windows): `{winner}の勝ち`, `千日手`, `持将棋` or `中断`; the reason lives in the
/// special move. A special move speaks for the side to move, so it is chosen by whether that
/// side won or lost: a perpetual check completed by the checker's move leaves the victim to
/// move (反則勝ち), one completed by the victim's own move leaves the checker to move
/// (反則負け).
pub(crate) fn end_words(
    outcome: &Outcome,
    handicap: bool,
    to_move: Side,
) -> (&'static str, String) {
    let summary = match outcome.winner {
        Some(w) => format!("{}の勝ち", side_label(handicap, w)),
        None => match outcome.reason {
            Reason::Repetition => "千日手".to_owned(),
            Reason::Aborted | Reason::Disconnection => "中断".to_owned(),
            _ => "持将棋".to_owned(),
        },
    };
    let mover_won = outcome.winner == Some(to_move);
    let word = match outcome.reason {
        Reason::Resignation => "投了",
        Reason::Checkmate | Reason::Stalemate => "詰み",
        Reason::Timeout => "切れ負け",
        Reason::Repetition => "千日手",
        Reason::PerpetualCheck | Reason::PerpetualChase if mover_won => "反則勝ち",
        Reason::PerpetualCheck | Reason::PerpetualChase => "反則負け",
        Reason::Impasse => "入玉勝ち",
        Reason::TimeoutVsInsufficient
        | Reason::MoveLimit
        | Reason::InsufficientMaterial
        | Reason::Agreement => "持将棋",
        Reason::Aborted | Reason::Abandoned => "中断",
        // The player who left loses: a forfeit (反則), said from the side to move's view.
        Reason::Disconnection if mover_won => "反則勝ち",
        Reason::Disconnection if outcome.winner.is_some() => "反則負け",
        Reason::Disconnection => "中断",
    };
    (word, summary)
}

/// A board diagram (BOD) of `pos` with hands and the side to move, labelled for handicap
/// games when `handicap`.
fn diagram(pos: &Position, handicap: bool) -> String {
    let size = pos.size();
    let mut out = String::new();
    let hand_line = |side: Side| {
        let mut line = format!("{}の持駒：", side_label(handicap, side));
        let hand = pos.hand(side);
        if hand.is_empty() {
            line.push_str("なし");
        }
        for (kind, n) in hand {
            line.push(kanji::diagram_char(kind));
            if n > 1 {
                line.push_str(&kanji::kanji_count(u32::from(n)));
            }
            line.push('　');
        }
        line
    };
    out.push_str(&hand_line(Side::Second));
    out.push('\n');
    out.push(' ');
    for file in (1..=size).rev() {
        out.push(' ');
        out.push(kanji::full_width_digit(file));
    }
    out.push('\n');
    let border = format!("+{}+\n", "-".repeat(3 * usize::from(size)));
    out.push_str(&border);
    for rank in 1..=size {
        out.push('|');
        for file in (1..=size).rev() {
            let sq = Square::new(file, rank).expect("on board");
            match pos.piece_at(sq) {
                None => out.push_str(" ・"),
                Some(p) => {
                    out.push(if p.side == Side::First { ' ' } else { 'v' });
                    out.push(kanji::diagram_char(p.kind));
                }
            }
        }
        out.push('|');
        out.push(kanji::kanji_numeral(rank));
        out.push('\n');
    }
    out.push_str(&border);
    out.push_str(&hand_line(Side::First));
    out.push('\n');
    if pos.turn() == Side::Second {
        out.push_str(&format!("{}番\n", side_label(handicap, Side::Second)));
    }
    out
}

/// Writes `record` as a KIF record (UTF-8 text, `\n` line ends).
///
/// Fails when the start SFEN or a move is not legal.
pub fn write_kif(record: &ShogiRecord) -> Result<String, RecordError> {
    let replay = replay(record)?;
    let labelled = record.effective_handicap().is_some();
    let mut out = String::from("#KIF version=2.0 encoding=UTF-8\n");
    write_header(record, &replay.start, &mut out);
    out.push_str("手数----指手---------消費時間--\n");
    let mut totals = [0u32; 2];
    let mut previous: Option<Move> = None;
    for (i, (pos, mv)) in replay.steps.iter().enumerate() {
        let (_, legal) = legal_facts(pos);
        let text = japanese::write(
            &legal,
            &facts(pos, *mv),
            pos.size(),
            previous.map(Move::to),
            Flavour::Kif,
        );
        let seconds = record.move_seconds.get(i).copied().unwrap_or(0);
        let side = pos.turn().index();
        totals[side] += seconds;
        out.push_str(&move_line(i + 1, &text, seconds, totals[side]));
        out.push('\n');
        previous = Some(*mv);
    }
    let n = replay.steps.len();
    if let Some(outcome) = &record.result {
        let (word, summary) = end_words(outcome, labelled, replay.end.turn());
        let side = replay.end.turn().index();
        // A special move is the side to move's: a player who resigned while the opponent
        // was to move has none, and the summary line alone names the winner.
        let resigned_off_turn =
            outcome.reason == Reason::Resignation && outcome.winner == Some(replay.end.turn());
        if !resigned_off_turn {
            out.push_str(&move_line(n + 1, word, 0, totals[side]));
            out.push('\n');
        }
        if outcome.reason == Reason::PerpetualCheck {
            out.push_str("*連続王手の千日手\n");
        }
        if outcome.reason == Reason::Disconnection {
            out.push_str("*切断\n");
        }
        out.push_str(&format!("まで{n}手で{summary}\n"));
        out.push_str(&format!("#{}\n", result_comment(outcome)));
    } else if let Some(other) = &record.other_end {
        let side = replay.end.turn().index();
        out.push_str(&move_line(n + 1, &one_line(other), 0, totals[side]));
        out.push('\n');
        if let Some(illegal) = &record.illegal_move {
            out.push_str(&format!("*反則手：{}\n", one_line(illegal)));
        }
        if let Some(w) = record.end_winner {
            out.push_str(&format!("まで{n}手で{}の勝ち\n", side_label(labelled, w)));
        }
    }
    Ok(out)
}

/// Writes `record` as KIF with the variations of `tree` after it, as Kifu for Windows and
/// ShogiGUI write them: the main line (which must be `record.moves`) and its ending, then one
/// `変化：N手` block per variation, the latest branch point of a line first and each block
/// followed by its own variations. Readers that stop at the first `変化` (Jiang's own,
/// python-shogi, cshogi) read the main line. Every move of `tree` must be legal where it stands.
pub fn write_kif_with_variations(
    record: &ShogiRecord,
    tree: &[Node<Move>],
) -> Result<String, RecordError> {
    if crate::variation::main_line(tree)
        != replay(record)?
            .steps
            .iter()
            .map(|(_, m)| *m)
            .collect::<Vec<_>>()
    {
        return Err(RecordError::Unwritable(
            "the tree's main line is not the record's moves".into(),
        ));
    }
    let mut out = write_kif(record)?;
    let start = Position::from_sfen(record.variant, &record.start_sfen)
        .map_err(|e| RecordError::Unwritable(format!("start SFEN: {e}")))?;
    variation_blocks(&start, tree, 1, None, &mut out);
    Ok(out)
}

/// The `変化` blocks of the variations hanging off `line` (played from `start`, its first move
/// at `first_ply`, `previous` the move before it), the latest branch point first.
fn variation_blocks(
    start: &Position,
    line: &[Node<Move>],
    first_ply: usize,
    previous: Option<Move>,
    out: &mut String,
) {
    // The position before each move of the line, and the move before it (for 同).
    let mut befores = Vec::with_capacity(line.len());
    let mut position = start.clone();
    let mut last = previous;
    for node in line {
        befores.push((position.clone(), last));
        position.play(node.mv);
        last = Some(node.mv);
    }
    for (i, node) in line.iter().enumerate().rev() {
        let (before, last) = &befores[i];
        let ply = first_ply + i;
        for variation in &node.variations {
            out.push_str(&format!("\n変化：{ply}手\n"));
            let mut position = before.clone();
            let mut prev = *last;
            for (j, v) in variation.iter().enumerate() {
                let (_, legal) = legal_facts(&position);
                let text = japanese::write(
                    &legal,
                    &facts(&position, v.mv),
                    position.size(),
                    prev.map(Move::to),
                    Flavour::Kif,
                );
                out.push_str(&move_line(ply + j, &text, 0, 0));
                out.push('\n');
                position.play(v.mv);
                prev = Some(v.mv);
            }
            variation_blocks(before, variation, ply, *last, out);
        }
    }
}

/// The header lines shared by KIF and KI2: date, 手合割 (a handicap by its name, never as a
/// diagram), players, 持ち時間, and a board diagram only for a start that has no name.
pub(crate) fn write_header(record: &ShogiRecord, start: &Position, out: &mut String) {
    for note in &record.notes {
        out.push_str(&format!("#{}\n", one_line(note)));
    }
    let handicap = record.effective_handicap();
    let labelled = handicap.is_some();
    let standard = *start == Position::startpos(record.variant);
    let named = (record.variant == Variant::Shogi && handicap.is_none() && !standard)
        .then(|| handicap_name_of(start))
        .flatten();
    if let Some(t) = &record.start_time {
        out.push_str(&format!("開始日時：{}\n", one_line(t)));
    }
    match (record.variant, handicap) {
        (Variant::Minishogi, _) => out.push_str(&format!("手合割：{MINISHOGI_NAME}\n")),
        (_, Some(h)) => out.push_str(&format!("手合割：{}\n", h.japanese)),
        (_, None) if standard => out.push_str("手合割：平手\n"),
        _ => {
            if let Some(name) = named {
                out.push_str(&format!("手合割：{name}\n"));
            }
        }
    }
    for (side, name) in [
        (Side::First, &record.sente_name),
        (Side::Second, &record.gote_name),
    ] {
        if let Some(name) = name {
            out.push_str(&format!(
                "{}：{}\n",
                side_label(labelled, side),
                one_line(name)
            ));
        }
    }
    if let Some(tc) = &record.time_control {
        out.push_str(&format!("持ち時間：{}\n", one_line(tc)));
    }
    let needs_diagram = !standard
        && named.is_none()
        && (record.variant == Variant::Minishogi
            || handicap.is_none_or(|h| h.position() != *start));
    if needs_diagram {
        out.push_str(&diagram(start, labelled));
    }
}

/// Writes `record` as a Shift_JIS KIF record, the encoding desktop programs expect of a
/// `.kif` file (the UTF-8 text of [`write_kif`] belongs in a `.kifu` file).
///
/// Fails like [`write_kif`], and when a name or header holds a character Shift_JIS cannot
/// represent.
pub fn write_kif_shift_jis(record: &ShogiRecord) -> Result<Vec<u8>, RecordError> {
    let text = write_kif(record)?.replacen(
        "#KIF version=2.0 encoding=UTF-8",
        "#KIF version=2.0 encoding=Shift_JIS",
        1,
    );
    let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(&text);
    if unmappable {
        let bad = text
            .chars()
            .find(|c| {
                let mut buf = [0u8; 4];
                encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut buf)).2
            })
            .unwrap_or('?');
        return Err(RecordError::Unwritable(format!(
            "`{bad}` has no Shift_JIS code: write the record as UTF-8 instead"
        )));
    }
    Ok(bytes.into_owned())
}

/// Header values are single lines.
pub(crate) fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

/// The special moves that end a KIF move list.
const SPECIAL_MOVES: [&str; 13] = [
    "投了",
    "中断",
    "持将棋",
    "千日手",
    "詰み",
    "切れ負け",
    "反則勝ち",
    "反則負け",
    "入玉勝ち",
    "不戦勝",
    "不戦敗",
    "時間切れ",
    "詰",
];

/// What the header and diagram lines say, before the moves are read.
#[derive(Default)]
pub(crate) struct Header {
    start_time: Option<String>,
    handicap_name: Option<(usize, String)>,
    sente_name: Option<String>,
    gote_name: Option<String>,
    time_control: Option<String>,
    rows: Vec<(usize, Vec<Option<Piece>>)>,
    hands: [Option<(usize, String)>; 2],
    gote_to_move: Option<bool>,
}

fn syntax(line: usize, message: impl Into<String>) -> RecordError {
    RecordError::Syntax {
        line,
        message: message.into(),
    }
}

/// Reads one diagram row `|v香v桂 ・…|一` into pieces, left (file 9) to right.
fn read_row(line_no: usize, line: &str) -> Result<Vec<Option<Piece>>, RecordError> {
    let inner = line
        .strip_prefix('|')
        .and_then(|rest| rest.split('|').next())
        .ok_or_else(|| syntax(line_no, "a board row must be enclosed in `|`"))?;
    let chars: Vec<char> = inner.chars().collect();
    let mut cells = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let (side, c) = match chars[i] {
            'v' | 'V' => (Side::Second, chars.get(i + 1)),
            ' ' | '^' | '+' => (Side::First, chars.get(i + 1)),
            _ => (Side::First, Some(&chars[i])),
        };
        let consumed = if matches!(chars[i], 'v' | 'V' | ' ' | '^' | '+') {
            2
        } else {
            1
        };
        let Some(&c) = c else {
            return Err(syntax(
                line_no,
                "a board row ends in the middle of a square",
            ));
        };
        if c == '・' || c == '　' {
            cells.push(None);
        } else {
            let kind = kanji::strip_piece_name(&c.to_string())
                .map(|(k, _)| k)
                .ok_or_else(|| syntax(line_no, format!("`{c}` is not a piece in a board row")))?;
            cells.push(Some(Piece::new(side, kind)));
        }
        i += consumed;
    }
    Ok(cells)
}

/// Reads a hand line's value (`飛　角　歩三`, `なし`) into counts per kind.
fn read_hand(line_no: usize, value: &str) -> Result<Vec<(PieceKind, u32)>, RecordError> {
    let mut out = Vec::new();
    for token in value.split(|c: char| c.is_whitespace() || c == '　' || c == ',' || c == '、') {
        if token.is_empty() || token == "なし" {
            continue;
        }
        let (kind, rest) = kanji::strip_piece_name(token)
            .ok_or_else(|| syntax(line_no, format!("`{token}` is not a piece in hand")))?;
        if kind.is_promoted() || kind == PieceKind::King {
            return Err(syntax(line_no, format!("`{token}` cannot be held in hand")));
        }
        let count = if rest.is_empty() {
            1
        } else {
            kanji::parse_kanji_count(rest)
                .filter(|&n| n <= 18)
                .ok_or_else(|| syntax(line_no, format!("`{rest}` is not a count")))?
        };
        out.push((kind, count));
    }
    Ok(out)
}

/// The start position a KIF header describes.
fn start_position(header: &Header) -> Result<(Variant, Position), RecordError> {
    let minishogi_name = header
        .handicap_name
        .as_ref()
        .is_some_and(|(_, n)| is_minishogi_name(n));
    if !header.rows.is_empty() {
        let line = header.rows[0].0;
        let size = header.rows.len();
        let variant = match size {
            9 => Variant::Shogi,
            5 => Variant::Minishogi,
            n => {
                return Err(syntax(
                    line,
                    format!("a board diagram has {n} rows, expected 9 or 5"),
                ));
            }
        };
        let handicapped = header
            .handicap_name
            .as_ref()
            .is_some_and(|(_, n)| n != "平手" && !is_minishogi_name(n));
        let turn = match header.gote_to_move {
            Some(true) => Side::Second,
            Some(false) => Side::First,
            None if handicapped => Side::Second,
            None => Side::First,
        };
        let mut view = BoardView::empty(size as u8, turn);
        for (rank, (line_no, cells)) in header.rows.iter().enumerate() {
            if cells.len() != size {
                return Err(syntax(
                    *line_no,
                    format!("a board row has {} squares, expected {size}", cells.len()),
                ));
            }
            for (i, cell) in cells.iter().enumerate() {
                let sq = Square::new((size - i) as u8, rank as u8 + 1).expect("on board");
                view.set_piece(sq, *cell);
            }
        }
        for (side, hand) in Side::BOTH.into_iter().zip(&header.hands) {
            if let Some((line_no, value)) = hand {
                for (kind, n) in read_hand(*line_no, value)? {
                    view.set_hand(side, kind, view.hand(side, kind) + n);
                }
            }
        }
        let pos = Position::from_sfen(variant, &view.sfen(1)).map_err(|e| {
            RecordError::StartPosition {
                line,
                message: super::record::start_position_message(&e.to_string()),
            }
        })?;
        return Ok((variant, pos));
    }
    match &header.handicap_name {
        None => Ok((Variant::Shogi, Position::startpos(Variant::Shogi))),
        Some(_) if minishogi_name => {
            Ok((Variant::Minishogi, Position::startpos(Variant::Minishogi)))
        }
        Some((_, name)) if name == "平手" => {
            Ok((Variant::Shogi, Position::startpos(Variant::Shogi)))
        }
        Some((line, name)) => handicap_by_name(name)
            .map(|p| (Variant::Shogi, p))
            .ok_or_else(|| {
                syntax(
                    *line,
                    format!(
                        "handicap `{name}` is not one Jiang knows and no board diagram gives it"
                    ),
                )
            }),
    }
}

fn is_minishogi_name(name: &str) -> bool {
    matches!(
        name,
        "5五将棋" | "５五将棋" | "五々将棋" | "5五將棋" | "ミニ将棋"
    )
}

/// Splits `key：value` (full-width or ASCII colon).
fn header_pair(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once('：').or_else(|| line.split_once(':'))?;
    let key = key.trim();
    if key.is_empty()
        || key
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c == ' ')
    {
        return None;
    }
    Some((
        key,
        value.trim_matches(|c: char| c.is_whitespace() || c == '　'),
    ))
}

/// Splits a move line's time column off: `７六歩(77)   ( 0:16/00:00:16)+` → text, seconds.
fn split_time(rest: &str) -> (&str, Option<u32>) {
    let rest = rest.trim_end().trim_end_matches('+').trim_end();
    if rest.ends_with(')') {
        if let Some(open) = rest.rfind('(') {
            let inside = &rest[open + 1..rest.len() - 1];
            if inside.contains(':') {
                let seconds = inside.split('/').next().and_then(|t| {
                    let (m, s) = t.trim().split_once(':')?;
                    Some(m.trim().parse::<u32>().ok()? * 60 + s.trim().parse::<u32>().ok()?)
                });
                return (rest[..open].trim_end(), seconds);
            }
        }
    }
    (rest, None)
}

/// Reads a KIF record (UTF-8 or Shift_JIS bytes): headers, an optional start diagram, the
/// main line of moves (variations are ignored) and its end.
pub fn read_kif(bytes: &[u8]) -> Result<ShogiRecord, RecordError> {
    let text = decode_record_text(bytes)?;
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let (header, first_move_line) = read_header(&lines)?;
    let (mut record, start) = record_from_header(header)?;
    read_moves(&lines, first_move_line, &mut record, start)?;
    Ok(record)
}

/// Reads the header and diagram lines shared by KIF and KI2; returns them with the index of
/// the first line after them.
pub(crate) fn read_header(lines: &[&str]) -> Result<(Header, usize), RecordError> {
    let mut header = Header::default();
    let mut first_move_line = lines.len();
    // Headers and diagram: everything before the first move line.
    for (i, raw) in lines.iter().enumerate() {
        let line_no = i + 1;
        let line = raw.trim_end();
        let trimmed = line.trim_start();
        if trimmed.is_empty()
            || trimmed.starts_with('#')
            || trimmed.starts_with('*')
            || trimmed.starts_with('&')
        {
            continue;
        }
        if trimmed.starts_with("手数＝") || trimmed.starts_with("手数=") {
            continue;
        }
        if trimmed.starts_with("手数") {
            first_move_line = i + 1;
            break;
        }
        if line.starts_with('|') {
            header.rows.push((line_no, read_row(line_no, line)?));
            continue;
        }
        let is_file_labels = trimmed
            .chars()
            .all(|c| c.is_whitespace() || kanji::digit_value(c).is_some());
        if trimmed.starts_with('+') || is_file_labels {
            continue;
        }
        if trimmed
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || matches!(c, '▲' | '△' | '☗' | '☖'))
        {
            first_move_line = i;
            break;
        }
        match trimmed {
            "後手番" | "上手番" => {
                header.gote_to_move = Some(true);
                continue;
            }
            "先手番" | "下手番" => {
                header.gote_to_move = Some(false);
                continue;
            }
            _ => {}
        }
        if trimmed.starts_with("まで") || trimmed.starts_with("変化") {
            first_move_line = i;
            break;
        }
        let Some((key, value)) = header_pair(trimmed) else {
            return Err(syntax(
                line_no,
                format!("`{trimmed}` is not a KIF header, diagram or move line"),
            ));
        };
        let value = value.to_owned();
        match key {
            "開始日時" | "対局日" => header.start_time = Some(value),
            "手合割" => header.handicap_name = Some((line_no, value)),
            "先手" | "下手" => header.sente_name = Some(value),
            "後手" | "上手" => header.gote_name = Some(value),
            "持ち時間" => header.time_control = Some(value),
            "先手の持駒" | "下手の持駒" => header.hands[0] = Some((line_no, value)),
            "後手の持駒" | "上手の持駒" => header.hands[1] = Some((line_no, value)),
            _ => {}
        }
    }
    Ok((header, first_move_line))
}

/// The record a header describes (no moves yet) and its start position.
pub(crate) fn record_from_header(header: Header) -> Result<(ShogiRecord, Position), RecordError> {
    let (variant, start) = start_position(&header)?;
    let mut record = ShogiRecord::new(variant);
    record.start_sfen = start.sfen();
    record.handicap = Handicap::recognise(&start);
    record.sente_name = header.sente_name.filter(|n| !n.is_empty());
    record.gote_name = header.gote_name.filter(|n| !n.is_empty());
    record.start_time = header.start_time.filter(|t| !t.is_empty());
    record.time_control = header.time_control.filter(|t| !t.is_empty());
    Ok((record, start))
}

/// Reads KIF move lines from `first_move_line` on into `record`, from `start`.
fn read_moves(
    lines: &[&str],
    first_move_line: usize,
    record: &mut ShogiRecord,
    start: Position,
) -> Result<(), RecordError> {
    let mut pos = start;
    let mut previous: Option<Move> = None;
    let mut seconds = Vec::new();
    let mut all_timed = true;
    let mut special: Option<(usize, String)> = None;
    let mut notes = EndNotes::default();
    for (i, raw) in lines.iter().enumerate().skip(first_move_line) {
        let line_no = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('&') || trimmed.starts_with("手数") {
            continue;
        }
        match notes.take(trimmed) {
            NoteLine::Taken => continue,
            NoteLine::Variations => break,
            NoteLine::Other => {}
        }
        let digits: String = trimmed.chars().take_while(|c| c.is_ascii_digit()).collect();
        if digits.is_empty() {
            if header_pair(trimmed).is_some() {
                continue; // a header after the move list (終了日時 and the like)
            }
            return Err(syntax(line_no, format!("`{trimmed}` is not a move line")));
        }
        if special.is_some() {
            continue;
        }
        let number: usize = digits
            .parse()
            .map_err(|_| syntax(line_no, "the move number is too large"))?;
        let ply = record.moves.len() + 1;
        if number != ply {
            return Err(syntax(
                line_no,
                format!("move number {number}, expected {ply}"),
            ));
        }
        let (text, time) = split_time(&trimmed[digits.len()..]);
        let text = text.trim();
        // 封じ手 (a sealed move at an adjournment) is a note, not a move: the move it seals
        // follows under the same number.
        if text == "封じ手" {
            continue;
        }
        let bare = text.trim_start_matches(['▲', '△', '☗', '☖']);
        if let Some(word) = SPECIAL_MOVES.iter().find(|w| bare.starts_with(**w)) {
            special = Some((line_no, (*word).to_owned()));
            continue;
        }
        // English special moves some sites write: `Time-up`, `Resign`.
        let english = match bare.to_ascii_lowercase().as_str() {
            "time-up" | "timeup" | "time up" => Some("切れ負け"),
            "resign" | "resigns" => Some("投了"),
            _ => None,
        };
        if let Some(word) = english {
            special = Some((line_no, word.to_owned()));
            continue;
        }
        let mv = match japanese_move(&pos, text, previous) {
            Ok(mv) => mv,
            // A game lost by an illegal move: the move stands last, followed at most by the
            // end words. Import the game up to it and mark the ending.
            Err(_) if only_end_lines(&lines[i + 1..]) => {
                record.illegal_move = Some(text.to_owned());
                special = Some((line_no, "反則負け".to_owned()));
                continue;
            }
            Err(source) => {
                return Err(RecordError::Move {
                    line: line_no,
                    ply,
                    source,
                });
            }
        };
        record.moves.push(mv.to_string());
        match time {
            Some(t) => seconds.push(t),
            None => all_timed = false,
        }
        pos.play(mv);
        previous = Some(mv);
    }
    // All-zero time columns are how desktop programs write unknown times.
    if all_timed && seconds.iter().any(|&t| t > 0) {
        record.move_seconds = seconds;
    }
    let EndNotes {
        comment_result,
        perpetual_noted,
        summary,
    } = notes;
    let (result, other) = match comment_result {
        Some(outcome) => (Some(outcome), None),
        None => derive_result(
            &pos,
            special.map(|s| s.1),
            summary.as_deref(),
            perpetual_noted,
        ),
    };
    record.end_winner = other.as_deref().and_then(|word| {
        summary.as_deref().and_then(summary_winner).or(match word {
            "反則負け" | "不戦敗" => Some(!pos.turn()),
            "反則勝ち" | "不戦勝" => Some(pos.turn()),
            _ => None,
        })
    });
    record.result = result;
    record.other_end = other;
    Ok(())
}

/// Whether `lines` hold nothing but what may follow the last move: special moves, the
/// summary, comments, headers such as 終了日時, blank lines.
pub(crate) fn only_end_lines(lines: &[&str]) -> bool {
    lines.iter().all(|raw| {
        let t = raw.trim();
        let after_number = t.trim_start_matches(|c: char| c.is_ascii_digit()).trim();
        t.is_empty()
            || t.starts_with(['#', '*', '&'])
            || t.starts_with("まで")
            || t.starts_with("変化")
            || SPECIAL_MOVES.iter().any(|w| {
                after_number
                    .trim_start_matches(['▲', '△', '☗', '☖'])
                    .starts_with(w)
            })
            || (!t.starts_with(|c: char| c.is_ascii_digit()) && header_pair(t).is_some())
    })
}

/// Parses a KIF move text against `pos`.
fn japanese_move(
    pos: &Position,
    text: &str,
    previous: Option<Move>,
) -> Result<Move, NotationError> {
    super::parse_japanese(pos, text, previous)
}

/// What the KIF and KI2 readers gather from the lines around the moves: a `#` result
/// comment, whether a `*` comment or the summary names a perpetual check (連続王手), and the
/// `まで…` summary.
#[derive(Default)]
pub(crate) struct EndNotes {
    /// The result a `#` comment states.
    pub(crate) comment_result: Option<Outcome>,
    /// Whether a comment or the summary names a perpetual check.
    pub(crate) perpetual_noted: bool,
    /// The summary after `まで`.
    pub(crate) summary: Option<String>,
}

/// What a trimmed line of a move section is to [`EndNotes::take`].
pub(crate) enum NoteLine {
    /// A note, taken.
    Taken,
    /// The start of the variations (`変化`): the main line is over.
    Variations,
    /// Not a note: a move line (or something the reader judges).
    Other,
}

impl EndNotes {
    /// Takes `trimmed` if it is a note.
    pub(crate) fn take(&mut self, trimmed: &str) -> NoteLine {
        if let Some(body) = trimmed.strip_prefix('#') {
            self.comment_result = parse_result_comment(body).or(self.comment_result);
            return NoteLine::Taken;
        }
        if let Some(body) = trimmed.strip_prefix('*') {
            self.perpetual_noted |= body.contains("連続王手");
            return NoteLine::Taken;
        }
        if trimmed.starts_with("変化") {
            return NoteLine::Variations;
        }
        if let Some(rest) = trimmed.strip_prefix("まで") {
            self.perpetual_noted |= rest.contains("連続王手");
            self.summary = Some(rest.to_owned());
            return NoteLine::Taken;
        }
        NoteLine::Other
    }
}

/// The winner a KIF summary names (`…先手の勝ち`, `…上手の反則負け`), if any.
pub(crate) fn summary_winner(summary: &str) -> Option<Side> {
    let labels = [
        ("先手", Side::First),
        ("下手", Side::First),
        ("後手", Side::Second),
        ("上手", Side::Second),
    ];
    for (label, side) in labels {
        if summary.contains(&format!("{label}の勝ち"))
            || summary.contains(&format!("{label}の反則勝ち"))
            || summary.contains(&format!("{label}の入玉勝ち"))
        {
            return Some(side);
        }
        if summary.contains(&format!("{label}の反則負け"))
            || summary.contains(&format!("{label}の負け"))
        {
            return Some(!side);
        }
    }
    None
}

/// The outcome of a KIF record from its special move, summary line and final position.
pub(crate) fn derive_result(
    end: &Position,
    special: Option<String>,
    summary: Option<&str>,
    perpetual_noted: bool,
) -> (Option<Outcome>, Option<String>) {
    let to_move = end.turn();
    let named = summary.and_then(summary_winner);
    // Some files end with the summary alone: read the end from its words.
    let special = special.or_else(|| {
        let summary = summary?;
        let word = [
            ("連続王手", "反則勝ち"),
            ("千日手", "千日手"),
            ("持将棋", "持将棋"),
            ("中断", "中断"),
            ("時間切れ", "切れ負け"),
            ("入玉", "入玉勝ち"),
            ("詰み", "詰み"),
        ]
        .into_iter()
        .find(|(hint, _)| summary.contains(hint))
        .map(|(_, word)| word)
        // A plain `…の勝ち` (KI2): a side to move without a legal move was mated.
        .or(named.map(|_| {
            if end.legal_moves().is_empty() {
                "詰み"
            } else {
                "投了"
            }
        }))?;
        Some(word.to_owned())
    });
    let Some(word) = special else {
        return (None, None);
    };
    let win = |default: Side, reason: Reason| Some(Outcome::win(named.unwrap_or(default), reason));
    let outcome = match word.as_str() {
        "投了" => win(!to_move, Reason::Resignation),
        "詰み" | "詰" => {
            let reason = if end.is_check() {
                Reason::Checkmate
            } else {
                Reason::Stalemate
            };
            win(!to_move, reason)
        }
        "切れ負け" | "時間切れ" => win(!to_move, Reason::Timeout),
        "千日手" if perpetual_noted => win(to_move, Reason::PerpetualCheck),
        "千日手" => match named {
            Some(w) => Some(Outcome::win(w, Reason::Repetition)),
            // Minishogi: a plain sennichite is a loss for sente (shogi.md).
            None if end.variant() == Variant::Minishogi => {
                Some(Outcome::win(Side::Second, Reason::Repetition))
            }
            None => Some(Outcome::draw(Reason::Repetition)),
        },
        "反則勝ち" if perpetual_noted => win(to_move, Reason::PerpetualCheck),
        "反則負け" if perpetual_noted => win(!to_move, Reason::PerpetualCheck),
        "入玉勝ち" => win(to_move, Reason::Impasse),
        "持将棋" if summary.is_some_and(|s| s.contains("引き分け")) => {
            Some(Outcome::draw(Reason::InsufficientMaterial))
        }
        "持将棋" => Some(Outcome::draw(Reason::MoveLimit)),
        "中断" => Some(Outcome::draw(Reason::Aborted)),
        _ => None,
    };
    match outcome {
        Some(o) => (Some(o), None),
        None => (None, Some(word)),
    }
}
