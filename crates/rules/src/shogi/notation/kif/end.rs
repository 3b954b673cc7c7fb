//! The end of a KIF or KI2 record: special moves (投了, 千日手, …), the summary line
//! (まで…で後手の勝ち) and the result they give, shared by both readers.

use crate::shogi::{Move, Position};
use crate::{Outcome, Reason, Side, Variant};

use super::read::{SPECIAL_MOVES, header_pair};
use crate::shogi::notation::error::NotationError;
use crate::shogi::notation::outcome_or_word;
use crate::shogi::notation::record::parse_result_comment;

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
pub(crate) fn japanese_move(
    pos: &Position,
    text: &str,
    previous: Option<Move>,
) -> Result<Move, NotationError> {
    crate::shogi::notation::parse_japanese(pos, text, previous)
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

impl EndNotes {
    /// The record's result and its other end word: the `#` comment's result if any, else
    /// what the `special` move (and the summary) at the `end` position give.
    pub(crate) fn result(
        &self,
        end: &Position,
        special: Option<String>,
    ) -> (Option<Outcome>, Option<String>) {
        match self.comment_result {
            Some(outcome) => (Some(outcome), None),
            None => derive_result(end, special, self.summary.as_deref(), self.perpetual_noted),
        }
    }
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
        "詰み" | "詰" => win(
            !to_move,
            Outcome::no_legal_move(to_move, end.is_check()).reason,
        ),
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
    outcome_or_word(outcome, word)
}
