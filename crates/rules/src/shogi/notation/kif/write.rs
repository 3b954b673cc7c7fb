//! Writing KIF: the header, a board diagram for other starts, the moves with their times,
//! the ending and variations (UTF-8 or Shift_JIS).

use crate::shogi::{Move, Position, Square};
use crate::{Outcome, Reason, Side, Variant};

use super::read::one_line;
use super::{MINISHOGI_NAME, handicap_name_of, width};
use crate::shogi::notation::error::RecordError;
use crate::shogi::notation::japanese::{self, Flavour};
use crate::shogi::notation::kanji;
use crate::shogi::notation::record::{Replay, ShogiRecord, replay, result_comment, side_label};
use crate::shogi::notation::{facts, legal_facts};
use crate::variation::Node;

/// `( 0:16/00:00:16)`: this move's minutes and seconds, the player's total so far.
pub(crate) fn time_column(seconds: u32, total: u32) -> String {
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
pub(crate) fn move_line(number: usize, text: &str, seconds: u32, total: u32) -> String {
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
pub(crate) fn diagram(pos: &Position, handicap: bool) -> String {
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
    let (replay, labelled, mut out) = begin_record(record, "KIF")?;
    out.push_str("手数----指手---------消費時間--\n");
    let mut totals = [0u32; 2];
    let texts = replay.japanese(Flavour::Kif);
    for (i, ((pos, _), text)) in replay.steps.iter().zip(texts).enumerate() {
        let seconds = record.move_seconds.get(i).copied().unwrap_or(0);
        let side = pos.turn().index();
        totals[side] += seconds;
        out.push_str(&move_line(i + 1, &text, seconds, totals[side]));
        out.push('\n');
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
pub(crate) fn variation_blocks(
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

/// The start of a KIF or KI2 (`format`) record: the replayed game, whether its handicap is
/// labelled, and the text so far (the `#KIF`/`#KI2` line and the header).
pub(crate) fn begin_record(
    record: &ShogiRecord,
    format: &str,
) -> Result<(Replay, bool, String), RecordError> {
    let replay = replay(record)?;
    let labelled = record.effective_handicap().is_some();
    let mut out = format!("#{format} version=2.0 encoding=UTF-8\n");
    write_header(record, &replay.start, &mut out);
    Ok((replay, labelled, out))
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
