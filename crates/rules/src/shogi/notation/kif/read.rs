//! Reading KIF: the header (players, handicap or diagram, clock), the moves with their
//! times, up to the first variation.

use crate::shogi::{Handicap, Move, Piece, PieceKind, Position, Square};
use crate::{Side, Variant};

use super::end::{EndNotes, NoteLine, japanese_move, only_end_lines, summary_winner};
use super::handicap_by_name;
use crate::shogi::notation::error::RecordError;
use crate::shogi::notation::kanji;
use crate::shogi::notation::record::{ShogiRecord, decode_record_text};
use crate::shogi::notation::view::BoardView;

/// Header values are single lines.
pub(crate) fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

/// The special moves that end a KIF move list.
pub(crate) const SPECIAL_MOVES: [&str; 13] = [
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

pub(crate) fn syntax(line: usize, message: impl Into<String>) -> RecordError {
    RecordError::Syntax {
        line,
        message: message.into(),
    }
}

/// Reads one diagram row `|v香v桂 ・…|一` into pieces, left (file 9) to right.
pub(crate) fn read_row(line_no: usize, line: &str) -> Result<Vec<Option<Piece>>, RecordError> {
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
pub(crate) fn read_hand(line_no: usize, value: &str) -> Result<Vec<(PieceKind, u32)>, RecordError> {
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

/// The words of a KIF hand line that give a side every remaining piece (tsume records).
const REST_WORDS: [&str; 3] = ["残り全部", "残りすべて", "残り総て"];

/// The start position a KIF header describes.
pub(crate) fn start_position(header: &Header) -> Result<(Variant, Position), RecordError> {
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
        let mut rest_to = None;
        for (side, hand) in Side::BOTH.into_iter().zip(&header.hands) {
            if let Some((line_no, value)) = hand {
                // 「残り全部」: every piece not on the board nor in the other hand (the tsume
                // convention for the defender's hand).
                let mut listed = value.clone();
                for word in REST_WORDS {
                    if listed.contains(word) {
                        listed = listed.replace(word, " ");
                        rest_to = Some(side);
                    }
                }
                for (kind, n) in read_hand(*line_no, &listed)? {
                    view.set_hand(side, kind, view.hand(side, kind) + n);
                }
            }
        }
        if let Some(side) = rest_to {
            view.give_rest(side, variant);
        }
        let pos = Position::from_sfen(variant, &view.sfen(1)).map_err(|e| {
            RecordError::StartPosition {
                line,
                message: crate::shogi::notation::record::start_position_message(&e.to_string()),
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

pub(crate) fn is_minishogi_name(name: &str) -> bool {
    matches!(
        name,
        "5五将棋" | "５五将棋" | "五々将棋" | "5五將棋" | "ミニ将棋"
    )
}

/// Splits `key：value` (full-width or ASCII colon).
pub(crate) fn header_pair(line: &str) -> Option<(&str, &str)> {
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
pub(crate) fn split_time(rest: &str) -> (&str, Option<u32>) {
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
pub(crate) fn read_moves(
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
    let (result, other) = notes.result(&pos, special.map(|s| s.1));
    record.end_winner = other.as_deref().and_then(|word| {
        notes
            .summary
            .as_deref()
            .and_then(summary_winner)
            .or(match word {
                "反則負け" | "不戦敗" => Some(!pos.turn()),
                "反則勝ち" | "不戦勝" => Some(pos.turn()),
                _ => None,
            })
    });
    record.result = result;
    record.other_end = other;
    Ok(())
}
