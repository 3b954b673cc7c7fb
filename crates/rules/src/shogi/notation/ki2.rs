//! KI2 records (棋譜ファイル KI2 形式): the KIF header, then moves in the JSA notation of
//! printed records, without origins or times:
//!
//! ```text
//! 手合割：平手
//! 先手：Alice
//! 後手：Bob
//!
//! ▲７六歩
//! △３四歩
//! ▲５八金左
//! まで3手で先手の勝ち
//! ```
//!
//! Jiang writes one move a line, as cshogi does: desktop programs accept it, and cshogi's
//! reader loses its place on lines holding several moves. Reading accepts any number of
//! moves a line.
//!
//! Moves carry the relative words (右/左/直, 上/引/寄), 不成, and 打 only where a board move
//! could be meant. KI2 has no special move lines: the end is the summary line alone, in the
//! plain forms every reader parses (`{winner}の勝ち`, `千日手`, `持将棋`, `中断`), plus
//! `*連続王手の千日手` for a perpetual check and Jiang's `#jiang-result:` comment.

use crate::shogi::Move;

use super::error::RecordError;
use super::japanese::Flavour;
use super::kif::{
    EndNotes, NoteLine, begin_record, end_words, only_end_lines, read_header, record_from_header,
    summary_winner,
};
use super::record::{ShogiRecord, decode_record_text, result_comment, side_label};

/// Writes `record` as a KI2 record (UTF-8 text, `\n` line ends; save as `.ki2u`, or encode as
/// Shift_JIS for `.ki2`).
///
/// Fails when the start SFEN or a move is not legal.
pub fn write_ki2(record: &ShogiRecord) -> Result<String, RecordError> {
    let (replay, labelled, mut out) = begin_record(record, "KI2")?;
    out.push('\n');
    for text in replay.japanese(Flavour::Ki2) {
        out.push_str(&text);
        out.push('\n');
    }
    let n = replay.steps.len();
    if let Some(outcome) = &record.result {
        let (_, summary) = end_words(outcome, labelled, replay.end.turn());
        if outcome.reason == crate::Reason::PerpetualCheck {
            out.push_str("*連続王手の千日手\n");
        }
        out.push_str(&format!("まで{n}手で{summary}\n"));
        out.push_str(&format!("#{}\n", result_comment(outcome)));
    } else if let Some(winner) = record.end_winner {
        if let Some(other) = &record.other_end {
            out.push_str(&format!("*{other}\n"));
        }
        out.push_str(&format!(
            "まで{n}手で{}の勝ち\n",
            side_label(labelled, winner)
        ));
    }
    Ok(out)
}

/// Splits a KI2 move line into its moves: each starts at a side mark (▲△☗☖).
fn split_moves(line: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for c in line.chars() {
        if matches!(c, '▲' | '△' | '☗' | '☖') {
            out.push(String::new());
        }
        if let Some(current) = out.last_mut() {
            current.push(c);
        }
    }
    out.into_iter().map(|m| m.trim().to_owned()).collect()
}

/// Reads a KI2 record (UTF-8 or Shift_JIS bytes): the KIF header and start diagram, the moves
/// (several to a line, each with its side mark), comments and the summary line.
pub fn read_ki2(bytes: &[u8]) -> Result<ShogiRecord, RecordError> {
    let text = decode_record_text(bytes)?;
    let lines: Vec<&str> = text.lines().map(|l| l.trim_end_matches('\r')).collect();
    let (header, first) = read_header(&lines)?;
    let (mut record, start) = record_from_header(header)?;
    let mut pos = start;
    let mut previous: Option<Move> = None;
    let mut notes = EndNotes::default();
    let mut illegal = false;
    for (i, raw) in lines.iter().enumerate().skip(first) {
        let line_no = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('&') {
            continue;
        }
        match notes.take(trimmed) {
            NoteLine::Taken => continue,
            NoteLine::Variations => break,
            NoteLine::Other => {}
        }
        if !trimmed.starts_with(['▲', '△', '☗', '☖']) {
            return Err(RecordError::Syntax {
                line: line_no,
                message: format!("`{trimmed}` is not a KI2 move line (moves start with ▲ or △)"),
            });
        }
        let moves = split_moves(trimmed);
        for (k, text) in moves.iter().enumerate() {
            if illegal {
                break;
            }
            let ply = record.moves.len() + 1;
            match super::parse_japanese(&pos, text, previous) {
                Ok(mv) => {
                    record.moves.push(mv.to_string());
                    pos.play(mv);
                    previous = Some(mv);
                }
                // A game lost by an illegal last move: keep the moves before it.
                Err(_) if k + 1 == moves.len() && only_end_lines(&lines[i + 1..]) => {
                    record.illegal_move = Some(text.clone());
                    illegal = true;
                }
                Err(source) => {
                    return Err(RecordError::Move {
                        line: line_no,
                        ply,
                        source,
                    });
                }
            }
        }
    }
    let special = illegal.then(|| "反則負け".to_owned());
    let (result, other) = notes.result(&pos, special);
    record.end_winner = other.as_ref().and_then(|_| {
        notes
            .summary
            .as_deref()
            .and_then(summary_winner)
            .or(illegal.then(|| !pos.turn()))
    });
    record.result = result;
    record.other_end = other;
    Ok(record)
}
