//! The game record shared by KIF and CSA, and what both formats need: text decoding, replaying
//! the moves, and the mapping of Jiang's outcomes to the formats' result words.
//!
//! ## Outcomes in records
//! KIF ends the move list with a "special move" of the side to move and the summary line
//! `まで{n}手で…` in the plain form every reader parses (python-shogi, cshogi, Kifu for
//! Windows): `{winner}の勝ち` for every win, else `千日手`, `持将棋` or `中断`. KI2 has the summary
//! alone; CSA a `%` word. Jiang maps its reasons as follows:
//!
//! | reason | KIF move | KIF/KI2 summary | CSA |
//! |---|---|---|---|
//! | resignation | 投了 | `{winner}の勝ち` | `%TORYO`; by the side not to move `%±ILLEGAL_ACTION` naming the loser, with `'投了` |
//! | checkmate, stalemate | 詰み | `{winner}の勝ち` | `%TORYO` (no legal move left; `%TSUMI` read too) |
//! | timeout | 切れ負け | `{winner}の勝ち` | `%TIME_UP` |
//! | repetition (draw) | 千日手 | `千日手` | `%SENNICHITE` |
//! | repetition (Minishogi: sente loses) | 千日手 | `{winner}の勝ち` | `%SENNICHITE` |
//! | perpetual-check | 反則勝ち / 反則負け | `{winner}の勝ち` | `%+ILLEGAL_ACTION` / `%-ILLEGAL_ACTION` |
//! | impasse | 入玉勝ち | `{winner}の勝ち` | `%KACHI` |
//! | move-limit | 持将棋 | `持将棋` | `%JISHOGI` |
//! | insufficient-material (bare kings), agreement, timeout-vs-insufficient | 持将棋 | `持将棋` | `%HIKIWAKE` |
//! | aborted | 中断 | `中断` | `%CHUDAN` |
//!
//! The special move speaks for the side to move. Perpetual check: when the checker's move
//! completes the fourth occurrence the victim is to move and wins (反則勝ち); when the victim's
//! own move completes it the checker is to move and loses (反則負け). CSA V2.2 has no
//! perpetual-check word: `%SENNICHITE` would be read as a draw by every other program, so
//! Jiang writes `%+ILLEGAL_ACTION` (sente committed the foul) or `%-ILLEGAL_ACTION`, the V2.2
//! words that name the offender, with a comment `'連続王手の千日手`; `%OUTE_SENNICHITE` (used
//! by some servers) is accepted on import.
//!
//! Sennichite in Minishogi is a loss for sente (shogi.md), which neither format can say with
//! its word alone: the KIF/KI2 summary says who won; CSA readers only see `%SENNICHITE`.
//!
//! Both formats get one extra comment line with Jiang's exact outcome (`#jiang-result: 0-1
//! perpetual-check` in KIF, `'jiang-result: …` in CSA), which import trusts over the words
//! when present, so Jiang's own records round-trip exactly. Without it, import derives the
//! outcome from the words, the summary and the final position (詰み without check is
//! stalemate).

use crate::shogi::{Game, Handicap, Move, Position};
use crate::{Outcome, Reason, Side, Variant};

use super::error::RecordError;
use super::japanese::{self, Flavour};
use super::{facts, legal_facts};

/// A shogi or minishogi game record: what KIF and CSA files hold and what the server has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShogiRecord {
    /// Shogi or Minishogi.
    pub variant: Variant,
    /// The start position's SFEN (the variant's standard start, a handicap preset or any
    /// position).
    pub start_sfen: String,
    /// The handicap preset the game was played with, if any: records then label the players
    /// 下手 (sente, the weaker player) and 上手 (gote, the handicap giver).
    pub handicap: Option<&'static Handicap>,
    /// Sente's (下手's) name.
    pub sente_name: Option<String>,
    /// Gote's (上手's) name.
    pub gote_name: Option<String>,
    /// When the game started, as the formats write it: `2024/01/02 10:00:00`.
    pub start_time: Option<String>,
    /// The time control as text (`10分+30秒`), written to KIF's 持ち時間.
    pub time_control: Option<String>,
    /// The moves in USI (`7g7f`, `8h2b+`, `P*5e`), from the start position.
    pub moves: Vec<String>,
    /// Seconds spent on each move, one per move, or empty when unknown.
    pub move_seconds: Vec<u32>,
    /// How the game ended, or `None` while it goes on (or when the record's end has no Jiang
    /// reason: see `other_end`).
    pub result: Option<Outcome>,
    /// An end read from a record that Jiang has no reason for (反則負け, 不戦勝,
    /// `%ILLEGAL_MOVE`, …), kept verbatim; `result` is then `None`.
    pub other_end: Option<String>,
    /// With `other_end`: the winner the record names, if it names one (`…後手の反則負け`, an
    /// illegal last move, `%+ILLEGAL_ACTION`).
    pub end_winner: Option<Side>,
    /// A last move that is not legal (a game lost by an illegal move), kept as written; the
    /// moves stop before it and `other_end` marks the loss.
    pub illegal_move: Option<String>,
    /// Notes about the game written as comments in the header (KIF/KI2 `#`, CSA `'`): what
    /// the formats have no field for, such as the takebacks made in it. One line each.
    pub notes: Vec<String>,
}

impl ShogiRecord {
    /// An empty record of `variant` from its standard start.
    pub fn new(variant: Variant) -> ShogiRecord {
        ShogiRecord {
            variant,
            start_sfen: Position::startpos(variant).sfen(),
            handicap: None,
            sente_name: None,
            gote_name: None,
            start_time: None,
            time_control: None,
            moves: Vec::new(),
            move_seconds: Vec::new(),
            result: None,
            other_end: None,
            end_winner: None,
            illegal_move: None,
            notes: Vec::new(),
        }
    }

    /// A record of `game`: its variant, start, handicap, moves and the outcome the rules
    /// decided (checkmate, sennichite, impasse declaration, …). The caller adds what only it
    /// knows: names, times, and a resignation, timeout or abort as `result`.
    pub fn from_game(game: &Game) -> ShogiRecord {
        let start = game.start();
        let mut record = ShogiRecord::new(start.variant());
        record.start_sfen = start.sfen();
        record.handicap = game.handicap();
        record.moves = game.moves().iter().map(Move::to_string).collect();
        record.result = game.outcome();
        record
    }

    /// The handicap preset in force: the one given, else the one whose start position this
    /// record starts from.
    pub fn effective_handicap(&self) -> Option<&'static Handicap> {
        self.handicap.or_else(|| {
            Position::from_sfen(self.variant, &self.start_sfen)
                .ok()
                .and_then(|p| Handicap::recognise(&p))
        })
    }
}

/// Decodes record bytes: UTF-8 (with or without a byte-order mark), else the encoding the
/// text declares (`encoding=Shift_JIS` / `EUC-JP` on a `#KIF` or `'CSA` first line), else
/// whichever of Shift_JIS and EUC-JP (older CSA files from Unix servers) decodes without
/// errors into more Japanese text.
pub fn decode_record_text(bytes: &[u8]) -> Result<String, RecordError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok(text.to_owned());
    }
    let first_line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let declared = String::from_utf8_lossy(first_line).to_ascii_lowercase();
    let candidates: &[&'static encoding_rs::Encoding] =
        if declared.contains("encoding=euc-jp") || declared.contains("encoding=euc_jp") {
            &[encoding_rs::EUC_JP]
        } else if declared.contains("encoding=shift_jis") || declared.contains("encoding=sjis") {
            &[encoding_rs::SHIFT_JIS]
        } else {
            &[encoding_rs::SHIFT_JIS, encoding_rs::EUC_JP]
        };
    candidates
        .iter()
        .filter_map(|enc| {
            let (text, had_errors) = enc.decode_without_bom_handling(bytes);
            (!had_errors).then(|| {
                let score = text.chars().filter(|&c| is_japanese(c)).count();
                (score, text.into_owned())
            })
        })
        .max_by_key(|(score, _)| *score)
        .map(|(_, text)| text)
        .ok_or(RecordError::Encoding)
}

/// Kana, CJK ideographs and full-width forms: what a real record's non-ASCII text is made of.
fn is_japanese(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{30FF}' | '\u{4E00}'..='\u{9FFF}' | '\u{FF01}'..='\u{FF5E}')
}

/// The start position and every move of `record`, each with the position it is played in.
pub(crate) struct Replay {
    pub start: Position,
    pub steps: Vec<(Position, Move)>,
    pub end: Position,
}

impl Replay {
    /// Each move in Japanese of `flavour` (KIF or KI2), with 同 where a move lands where the
    /// one before it did.
    pub(crate) fn japanese(&self, flavour: Flavour) -> Vec<String> {
        let mut previous: Option<Move> = None;
        self.steps
            .iter()
            .map(|(pos, mv)| {
                let (_, legal) = legal_facts(pos);
                let text = japanese::write(
                    &legal,
                    &facts(pos, *mv),
                    pos.size(),
                    previous.map(Move::to),
                    flavour,
                );
                previous = Some(*mv);
                text
            })
            .collect()
    }
}

/// Replays `record`'s moves, checking each is legal.
pub(crate) fn replay(record: &ShogiRecord) -> Result<Replay, RecordError> {
    if !matches!(record.variant, Variant::Shogi | Variant::Minishogi) {
        return Err(RecordError::Unwritable(format!(
            "{} is not a shogi-family variant",
            record.variant
        )));
    }
    let start = Position::from_sfen(record.variant, &record.start_sfen)
        .map_err(|e| RecordError::Unwritable(format!("start SFEN: {e}")))?;
    let mut pos = start.clone();
    let mut steps = Vec::with_capacity(record.moves.len());
    for (i, text) in record.moves.iter().enumerate() {
        let mv = pos
            .parse_move(text)
            .map_err(|e| RecordError::Unwritable(format!("move {}: {e}", i + 1)))?;
        steps.push((pos.clone(), mv));
        pos.play(mv);
    }
    Ok(Replay {
        start,
        steps,
        end: pos,
    })
}

/// The player labels of a record: 先手/後手, or 下手/上手 in handicap games.
pub(crate) fn side_label(handicap: bool, side: Side) -> &'static str {
    match (handicap, side) {
        (false, Side::First) => "先手",
        (false, Side::Second) => "後手",
        (true, Side::First) => "下手",
        (true, Side::Second) => "上手",
    }
}

/// The machine-readable outcome comment body: `jiang-result: 0-1 perpetual-check`.
pub(crate) fn result_comment(outcome: &Outcome) -> String {
    format!("jiang-result: {outcome}")
}

/// Reads a `jiang-result: <result> <reason>` comment body.
pub(crate) fn parse_result_comment(body: &str) -> Option<Outcome> {
    let rest = body.trim().strip_prefix("jiang-result:")?.trim();
    let (result, reason) = rest.split_once(' ')?;
    let reason: Reason = reason.trim().parse().ok()?;
    let winner = match result {
        "1-0" => Some(Side::First),
        "0-1" => Some(Side::Second),
        "1/2-1/2" | "*" => None,
        _ => return None,
    };
    Some(Outcome { winner, reason })
}

/// Why a record's start position was refused, with the rule cited when it has no king at
/// all: a tsume may lack the attacker's king, never the defender's (shogi.md).
pub(crate) fn start_position_message(error: &str) -> String {
    if error.contains("has 0 kings") {
        format!(
            "{error} (a position needs the defender's king: only a tsume's attacker may have \
             no king, shogi.md)"
        )
    } else {
        error.to_owned()
    }
}
