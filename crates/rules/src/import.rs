//! Records of any family brought in and written out: the format and variant of a text are
//! detected (PGN, KIF, KI2, CSA, a FEN/SFEN line, or a USI/UCCI `position …` line; UTF-8,
//! GBK for Chinese PGN, Shift_JIS or EUC-JP), the game
//! is read with the family's reader, and it can be written in any format of its family.
//!
//! ```
//! use jiang_rules::import::{ExportFormat, export, import};
//!
//! let game = import("手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n".as_bytes(), None).unwrap();
//! assert_eq!(game.variant(), jiang_rules::Variant::Shogi);
//! assert_eq!(game.moves(), ["7g7f", "3c3d"]);
//! assert!(export(&game, ExportFormat::Csa).unwrap().contains("+7776FU\n-3334FU\n"));
//! ```

use std::fmt;
use std::str::FromStr;

use crate::shogi::notation::{
    self as shogi_notation, ShogiRecord, decode_record_text, read_csa, read_ki2, read_kif,
    write_csa, write_ki2, write_kif,
};
use crate::xiangqi::notation::{self as xiangqi_notation, MoveFormat, Record};
use crate::{Family, Outcome, Reason, Side, Variant, shogi, xiangqi};

/// The formats a record can be read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SourceFormat {
    /// PGN-style (xiangqi family; movetext in ICCS, WXF or Chinese).
    Pgn,
    /// KIF (shogi family).
    Kif,
    /// KI2 (shogi family).
    Ki2,
    /// CSA (shogi family).
    Csa,
    /// One FEN (xiangqi family) or SFEN (shogi family) line: a position without moves.
    Position,
    /// A `position startpos|fen …|sfen … [moves …]` line (USI, UCCI).
    Usi,
}

impl SourceFormat {
    /// The lowercase name (`pgn`, `kif`, `ki2`, `csa`, `position`, `usi`).
    pub fn name(self) -> &'static str {
        match self {
            SourceFormat::Pgn => "pgn",
            SourceFormat::Kif => "kif",
            SourceFormat::Ki2 => "ki2",
            SourceFormat::Csa => "csa",
            SourceFormat::Position => "position",
            SourceFormat::Usi => "usi",
        }
    }
}

/// The formats a game can be written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExportFormat {
    /// PGN-style, ICCS movetext (xiangqi family).
    Pgn,
    /// PGN-style, WXF movetext (Xiangqi).
    PgnWxf,
    /// KIF, UTF-8 (shogi family).
    Kif,
    /// KI2, UTF-8 (shogi family).
    Ki2,
    /// CSA V2.2 (shogi family).
    Csa,
    /// The final position as FEN (xiangqi family).
    Fen,
    /// The final position as SFEN (shogi family).
    Sfen,
    /// `position sfen|fen <start> moves …` (USI for shogi, UCCI for the xiangqi family).
    Usi,
}

/// An export format name that Jiang does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown format `{0}`: expected pgn, wxf, kif, ki2, csa, fen, sfen or usi")]
pub struct UnknownFormat(pub String);

impl FromStr for ExportFormat {
    type Err = UnknownFormat;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "pgn" => ExportFormat::Pgn,
            "wxf" | "pgn-wxf" => ExportFormat::PgnWxf,
            "kif" | "kifu" => ExportFormat::Kif,
            "ki2" | "ki2u" => ExportFormat::Ki2,
            "csa" => ExportFormat::Csa,
            "fen" => ExportFormat::Fen,
            "sfen" => ExportFormat::Sfen,
            "usi" | "ucci" => ExportFormat::Usi,
            _ => return Err(UnknownFormat(s.to_owned())),
        })
    }
}

impl fmt::Display for ExportFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ExportFormat::Pgn => "pgn",
            ExportFormat::PgnWxf => "wxf",
            ExportFormat::Kif => "kif",
            ExportFormat::Ki2 => "ki2",
            ExportFormat::Csa => "csa",
            ExportFormat::Fen => "fen",
            ExportFormat::Sfen => "sfen",
            ExportFormat::Usi => "usi",
        })
    }
}

/// A game read from a record, in its family's record type.
#[allow(clippy::large_enum_variant)] // one per import: size does not matter
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImportedRecord {
    /// Xiangqi or Jieqi.
    Xiangqi(Record),
    /// Shogi or Minishogi.
    Shogi(ShogiRecord),
}

/// A game read from a record: what it was read from and what it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    /// The format the text was read as.
    pub format: SourceFormat,
    /// The game.
    pub record: ImportedRecord,
}

/// Why a text could not be imported. Errors inside a record carry its line number.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImportError {
    /// Nothing but blank space.
    #[error("the text is empty")]
    Empty,
    /// The bytes are not UTF-8, Shift_JIS or EUC-JP text.
    #[error("the record is neither UTF-8, Shift_JIS nor EUC-JP text")]
    Encoding,
    /// No format fits the text.
    #[error(
        "line {line}: the text is not a PGN, KIF, KI2 or CSA record, nor a FEN, SFEN or position line"
    )]
    UnknownFormat {
        /// The first line that no format explains.
        line: usize,
    },
    /// The variant given does not fit the record.
    #[error("the record is {found}, not {wanted}")]
    WrongVariant {
        /// The variant asked for.
        wanted: Variant,
        /// The variant the record holds.
        found: Variant,
    },
    /// A shogi-family record is malformed.
    #[error(transparent)]
    Shogi(#[from] shogi_notation::RecordError),
    /// A xiangqi-family record is malformed.
    #[error(transparent)]
    Xiangqi(#[from] xiangqi_notation::RecordError),
    /// A position or position line is not valid.
    #[error("line {line}: {message}")]
    Position {
        /// Where.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

impl ImportError {
    /// The 1-based line the error is on, when it is on one.
    pub fn line(&self) -> Option<usize> {
        use shogi_notation::RecordError as S;
        use xiangqi_notation::RecordError as X;
        match self {
            ImportError::UnknownFormat { line } | ImportError::Position { line, .. } => Some(*line),
            ImportError::Shogi(
                S::Syntax { line, .. } | S::StartPosition { line, .. } | S::Move { line, .. },
            ) => Some(*line),
            ImportError::Xiangqi(
                X::Tag { line, .. }
                | X::Unclosed { line, .. }
                | X::Move { line, .. }
                | X::AfterResult { line, .. }
                | X::ResultMismatch { line, .. },
            ) => Some(*line),
            _ => None,
        }
    }

    /// The values a message for this error is written from, for a client to say it in its
    /// reader's language: `line` (when the error is on one), `ply` and `move` (the move's
    /// text as the record writes it) for a move, `wanted` and `found` (variant names) for a
    /// record of another variant.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        use shogi_notation::RecordError as S;
        use xiangqi_notation::RecordError as X;
        let mut out = Vec::new();
        if let Some(line) = self.line() {
            out.push(("line", line.to_string()));
        }
        match self {
            ImportError::Xiangqi(X::Move { ply, token, .. }) => {
                out.push(("ply", ply.to_string()));
                out.push(("move", token.clone()));
            }
            ImportError::Shogi(S::Move { ply, source, .. }) => {
                out.push(("ply", ply.to_string()));
                out.push(("move", source.text().to_owned()));
            }
            ImportError::WrongVariant { wanted, found } => {
                out.push(("wanted", wanted.name().to_owned()));
                out.push(("found", found.name().to_owned()));
            }
            _ => {}
        }
        out
    }

    /// A stable snake_case code for APIs (`bad_move`, `bad_position`, …).
    pub fn code(&self) -> &'static str {
        use shogi_notation::RecordError as S;
        use xiangqi_notation::RecordError as X;
        match self {
            ImportError::Empty => "empty_record",
            ImportError::Encoding => "bad_encoding",
            ImportError::UnknownFormat { .. } => "unknown_format",
            ImportError::WrongVariant { .. } => "wrong_variant",
            ImportError::Shogi(S::Move { .. }) | ImportError::Xiangqi(X::Move { .. }) => "bad_move",
            ImportError::Shogi(S::StartPosition { .. })
            | ImportError::Xiangqi(X::Fen(_) | X::Variant(_))
            | ImportError::Position { .. } => "bad_position",
            ImportError::Xiangqi(X::TooLarge(_)) => "too_large",
            _ => "bad_record",
        }
    }
}

/// Why a game cannot be written in a format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExportError {
    /// The format belongs to the other family.
    #[error("a {variant} game cannot be written as {format}: use {expected}")]
    WrongFamily {
        /// The game's variant.
        variant: Variant,
        /// The format asked for.
        format: ExportFormat,
        /// The formats of the game's family.
        expected: &'static str,
    },
    /// The record holds something the writer refuses (an illegal move, a bad start).
    #[error("{0}")]
    Unwritable(String),
}

impl Imported {
    /// The variant.
    pub fn variant(&self) -> Variant {
        match &self.record {
            ImportedRecord::Xiangqi(r) => r.variant(),
            ImportedRecord::Shogi(r) => r.variant,
        }
    }

    /// The start position as FEN (xiangqi family) or SFEN (shogi family).
    pub fn start(&self) -> String {
        match &self.record {
            ImportedRecord::Xiangqi(r) => r.start().to_fen(),
            ImportedRecord::Shogi(r) => r.start_sfen.clone(),
        }
    }

    /// The moves in machine notation (ICCS with Jieqi reveals, USI).
    pub fn moves(&self) -> Vec<String> {
        match &self.record {
            ImportedRecord::Xiangqi(r) => r.moves().iter().map(ToString::to_string).collect(),
            ImportedRecord::Shogi(r) => r.moves.clone(),
        }
    }

    /// How the game ended, when the record says so in terms Jiang has a reason for.
    pub fn result(&self) -> Option<Outcome> {
        match &self.record {
            ImportedRecord::Xiangqi(r) => pgn_outcome(r),
            ImportedRecord::Shogi(r) => r.result,
        }
    }

    /// The winner, also for endings Jiang has no reason for (an illegal last move,
    /// 反則負け); `None` for a draw, no result or an unknown winner.
    pub fn winner(&self) -> Option<Side> {
        match &self.record {
            ImportedRecord::Xiangqi(r) => match r.result() {
                "1-0" => Some(Side::First),
                "0-1" => Some(Side::Second),
                _ => None,
            },
            ImportedRecord::Shogi(r) => r.result.and_then(|o| o.winner).or(r.end_winner),
        }
    }

    /// An ending Jiang has no reason for, as the record words it (`反則負け`,
    /// `%ILLEGAL_MOVE`, a PGN `Termination` Jiang does not know).
    pub fn other_end(&self) -> Option<String> {
        match &self.record {
            ImportedRecord::Xiangqi(r) => {
                let termination = r.tag("Termination")?;
                (pgn_outcome(r).is_none() && termination != "unterminated")
                    .then(|| termination.to_owned())
            }
            ImportedRecord::Shogi(r) => r.other_end.clone(),
        }
    }

    /// The players' names as the record gives them: the first side's (Red, Sente; 下手 in a
    /// handicap game) and the second's. PGN's `?` (unknown) is no name.
    pub fn players(&self) -> [Option<String>; 2] {
        let named = |name: Option<&str>| {
            name.map(str::trim)
                .filter(|n| !n.is_empty() && *n != "?")
                .map(str::to_owned)
        };
        match &self.record {
            ImportedRecord::Xiangqi(r) => [named(r.tag("Red")), named(r.tag("Black"))],
            ImportedRecord::Shogi(r) => [
                named(r.sente_name.as_deref()),
                named(r.gote_name.as_deref()),
            ],
        }
    }

    /// The record's headers as `(name, value)` pairs: PGN tags, or the KIF/CSA fields
    /// (`sente`, `gote`, `start_time`, `time_control`, `handicap`).
    pub fn headers(&self) -> Vec<(String, String)> {
        match &self.record {
            ImportedRecord::Xiangqi(r) => r.tags().to_vec(),
            ImportedRecord::Shogi(r) => {
                let fields = [
                    ("sente", r.sente_name.clone()),
                    ("gote", r.gote_name.clone()),
                    ("start_time", r.start_time.clone()),
                    ("time_control", r.time_control.clone()),
                    ("handicap", r.handicap.map(|h| h.name.to_owned())),
                    ("illegal_move", r.illegal_move.clone()),
                ];
                fields
                    .into_iter()
                    .filter_map(|(k, v)| v.map(|v| (k.to_owned(), v)))
                    .collect()
            }
        }
    }

    /// Seconds spent on each move, when the record has them (empty otherwise).
    pub fn move_seconds(&self) -> Vec<u32> {
        match &self.record {
            ImportedRecord::Xiangqi(_) => Vec::new(),
            ImportedRecord::Shogi(r) => r.move_seconds.clone(),
        }
    }
}

/// The outcome a PGN's `Result` and `Termination` tags give: Jiang's reason names, and the
/// words other programs write (`time forfeit`, `Time-up`, `resign`, `mate`, …). `None` while
/// the result is `*` or the termination is not one Jiang has a reason for.
fn pgn_outcome(record: &Record) -> Option<Outcome> {
    let winner = match record.result() {
        "1-0" => Some(Side::First),
        "0-1" => Some(Side::Second),
        "1/2-1/2" => None,
        _ => return None,
    };
    let termination = record
        .tag("Termination")
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    let reason = match termination.parse::<Reason>() {
        Ok(reason) => reason,
        Err(_) => match termination.as_str() {
            "time forfeit" | "time-up" | "time up" | "timeout" | "time" | "flag" => Reason::Timeout,
            "resign" | "resigned" | "resigns" => Reason::Resignation,
            "mate" | "checkmated" => Reason::Checkmate,
            // A decisive result without a known termination: the rules' verdict when the
            // moves end the game that way (a checkmate), else resignation, as PGN writers
            // that leave it out mean (the `Termination` is kept in the headers).
            "" | "normal" | "unterminated" if winner.is_some() => match record.game().outcome() {
                Some(ended) if ended.winner == winner => return Some(ended),
                _ => Reason::Resignation,
            },
            "" | "normal" | "unterminated" => Reason::Agreement,
            _ => return None,
        },
    };
    Some(Outcome { winner, reason })
}

/// How a text looks, judged from its lines.
fn detect(text: &str) -> Result<SourceFormat, ImportError> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    let Some(&(first_no, first)) = lines.first() else {
        return Err(ImportError::Empty);
    };
    let is_csa_move = |l: &str| {
        let b = l.as_bytes();
        b.len() >= 7
            && (b[0] == b'+' || b[0] == b'-')
            && b[1..5].iter().all(u8::is_ascii_digit)
            && b[5..7].iter().all(u8::is_ascii_uppercase)
    };
    if first.starts_with('[') {
        return Ok(SourceFormat::Pgn);
    }
    if lines.iter().any(|(_, l)| {
        l.starts_with("'CSA")
            || l.starts_with("V2")
            || l.starts_with("PI")
            || l.starts_with("P1")
            || l.starts_with("N+")
            || l.starts_with("N-")
            || l.starts_with("$EVENT")
            || is_csa_move(l)
    }) {
        return Ok(SourceFormat::Csa);
    }
    if first.starts_with("#KIF") || lines.iter().any(|(_, l)| l.starts_with("手数")) {
        return Ok(SourceFormat::Kif);
    }
    if first.starts_with("#KI2") {
        return Ok(SourceFormat::Ki2);
    }
    let kif_move = lines.iter().any(|(_, l)| {
        let rest = l.trim_start_matches(|c: char| c.is_ascii_digit());
        rest.len() < l.len()
            && rest.starts_with(char::is_whitespace)
            && rest.trim_start().chars().next().is_some_and(|c| {
                "１２３４５６７８９同".contains(c) || "投了中断詰持千切反入".contains(c)
            })
    });
    if kif_move {
        return Ok(SourceFormat::Kif);
    }
    if lines.iter().any(|(_, l)| l.starts_with(['▲', '△'])) {
        return Ok(SourceFormat::Ki2);
    }
    if lines
        .iter()
        .any(|(_, l)| l.starts_with("手合割") || l.starts_with("先手：") || l.starts_with('|'))
    {
        return Ok(SourceFormat::Kif);
    }
    if first.starts_with("position ") || first.starts_with("startpos") {
        return Ok(SourceFormat::Usi);
    }
    if lines.len() == 1 && first.contains('/') {
        return Ok(SourceFormat::Position);
    }
    // Movetext without tags: numbered moves.
    if first
        .split_whitespace()
        .next()
        .is_some_and(|t| t.starts_with(|c: char| c.is_ascii_digit()) && t.ends_with('.'))
    {
        return Ok(SourceFormat::Pgn);
    }
    Err(ImportError::UnknownFormat { line: first_no })
}

/// Reads a record of any format (detected) and family. `variant`, when given, must be the
/// record's variant; it also chooses the reader of a bare FEN/SFEN or position line (else
/// Xiangqi or Jieqi FEN, then Shogi or Minishogi SFEN, whichever parses).
pub fn import(bytes: &[u8], variant: Option<Variant>) -> Result<Imported, ImportError> {
    let text = match chinese_text(bytes) {
        Some(text) => text,
        None => decode_record_text(bytes).map_err(|_| ImportError::Encoding)?,
    };
    let format = detect(&text)?;
    let record = match format {
        SourceFormat::Kif => ImportedRecord::Shogi(read_kif(text.as_bytes())?),
        SourceFormat::Ki2 => ImportedRecord::Shogi(read_ki2(text.as_bytes())?),
        SourceFormat::Csa => ImportedRecord::Shogi(read_csa(text.as_bytes())?),
        SourceFormat::Pgn => ImportedRecord::Xiangqi(pgn_for(&text, variant)?),
        SourceFormat::Position => position_line(&text, variant, &[])?,
        SourceFormat::Usi => usi_line(&text, variant)?,
    };
    let imported = Imported { format, record };
    if let Some(wanted) = variant
        && wanted != imported.variant()
    {
        return Err(ImportError::WrongVariant {
            wanted,
            found: imported.variant(),
        });
    }
    Ok(imported)
}

/// Bytes that are not UTF-8 but decode as GBK (GB18030) into Chinese move text: the
/// encoding of XQBase's and most Chinese sites' PGN files. `None` otherwise (then the
/// Japanese encodings are tried).
fn chinese_text(bytes: &[u8]) -> Option<String> {
    if std::str::from_utf8(bytes).is_ok() {
        return None;
    }
    let (text, had_errors) = encoding_rs::GB18030.decode_without_bom_handling(bytes);
    let verbs = text
        .chars()
        .filter(|c| matches!(c, '进' | '退' | '平'))
        .count();
    (!had_errors && verbs >= 2).then(|| text.into_owned())
}

/// Reads a PGN; a forced Jieqi variant without a `Variant` tag is added as one.
fn pgn_for(text: &str, variant: Option<Variant>) -> Result<Record, ImportError> {
    if variant == Some(Variant::Jieqi) && !text.contains("[Variant ") {
        return Ok(Record::parse(&format!("[Variant \"jieqi\"]\n{text}"))?);
    }
    Ok(Record::parse(text)?)
}

/// The variants to try for a position, in order.
fn candidates(variant: Option<Variant>) -> Vec<Variant> {
    match variant {
        Some(v) => vec![v],
        None => vec![
            Variant::Xiangqi,
            Variant::Jieqi,
            Variant::Shogi,
            Variant::Minishogi,
        ],
    }
}

/// A game from a FEN/SFEN (`startpos` for the standard start) and machine moves.
fn position_line(
    text: &str,
    variant: Option<Variant>,
    moves: &[&str],
) -> Result<ImportedRecord, ImportError> {
    let fen = text.trim();
    let mut why = String::new();
    for v in candidates(variant) {
        let result = match v.family() {
            Family::Xiangqi => xiangqi_game(v, fen, moves),
            Family::Shogi => shogi_game(v, fen, moves),
        };
        match result {
            Ok(record) => return Ok(record),
            Err(e) if variant.is_some() => return Err(e),
            Err(e) => why = e.to_string(),
        }
    }
    Err(ImportError::Position {
        line: 1,
        message: format!("`{fen}` is no FEN or SFEN of any variant ({why})"),
    })
}

fn xiangqi_game(
    variant: Variant,
    fen: &str,
    moves: &[&str],
) -> Result<ImportedRecord, ImportError> {
    let start = if fen == "startpos" {
        xiangqi::Position::start(variant)
    } else {
        xiangqi::Position::parse_fen(variant, fen).map_err(|e| ImportError::Position {
            line: 1,
            message: e.to_string(),
        })?
    };
    let mut text = format!(
        "[Variant \"{}\"]\n[FEN \"{}\"]\n\n",
        variant.name(),
        start.to_fen()
    );
    for m in moves {
        text.push_str(m);
        text.push(' ');
    }
    let record = Record::parse(&text).map_err(|e| match e {
        xiangqi_notation::RecordError::Move {
            ply, token, why, ..
        } => ImportError::Position {
            line: 1,
            message: format!("move {ply} `{token}` is not legal: {why}"),
        },
        other => other.into(),
    })?;
    Ok(ImportedRecord::Xiangqi(record))
}

fn shogi_game(variant: Variant, sfen: &str, moves: &[&str]) -> Result<ImportedRecord, ImportError> {
    let bad = |message: String| ImportError::Position { line: 1, message };
    let start = if sfen == "startpos" {
        shogi::Position::startpos(variant)
    } else {
        shogi::Position::from_sfen(variant, sfen).map_err(|e| bad(e.to_string()))?
    };
    let mut record = ShogiRecord::new(variant);
    record.start_sfen = start.sfen();
    record.handicap = shogi::Handicap::recognise(&start);
    let mut game = shogi::Game::new(start);
    for (i, m) in moves.iter().enumerate() {
        game.play_usi(m)
            .map_err(|e| bad(format!("move {} `{m}` is not legal: {e}", i + 1)))?;
        record.moves.push((*m).to_owned());
    }
    record.result = game.outcome();
    Ok(ImportedRecord::Shogi(record))
}

/// Reads `position startpos|fen <FEN>|sfen <SFEN> [moves …]` (the `position` word optional).
fn usi_line(text: &str, variant: Option<Variant>) -> Result<ImportedRecord, ImportError> {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let line = line.strip_prefix("position").unwrap_or(line).trim();
    let (setup, moves) = match line.split_once(" moves") {
        Some((s, m)) => (s.trim(), m.split_whitespace().collect::<Vec<_>>()),
        None => (line, Vec::new()),
    };
    let fen = if setup == "startpos" {
        "startpos"
    } else if let Some(rest) = setup
        .strip_prefix("sfen ")
        .or_else(|| setup.strip_prefix("fen "))
    {
        rest.trim()
    } else {
        return Err(ImportError::Position {
            line: 1,
            message: format!("`{setup}`: expected startpos, fen <FEN> or sfen <SFEN>"),
        });
    };
    // `startpos` of an unnamed variant: Shogi for USI moves (`7g7f`, `P*5e`: a file digit
    // first), else Xiangqi (ICCS: a file letter first). Minishogi needs the variant given.
    let variant = variant.or_else(|| {
        (fen == "startpos").then(|| {
            let usi = moves
                .first()
                .is_some_and(|m| m.contains('*') || m.starts_with(|c: char| c.is_ascii_digit()));
            if usi {
                Variant::Shogi
            } else {
                Variant::Xiangqi
            }
        })
    });
    position_line(fen, variant, &moves)
}

/// Writes `game` in `format`.
pub fn export(game: &Imported, format: ExportFormat) -> Result<String, ExportError> {
    let variant = game.variant();
    let wrong = |expected| ExportError::WrongFamily {
        variant,
        format,
        expected,
    };
    let unwritable = |e: shogi_notation::RecordError| ExportError::Unwritable(e.to_string());
    match (&game.record, format) {
        (ImportedRecord::Xiangqi(r), ExportFormat::Pgn) => Ok(r.to_text(MoveFormat::Iccs)),
        (ImportedRecord::Xiangqi(r), ExportFormat::PgnWxf) => Ok(r.to_text(MoveFormat::Wxf)),
        (ImportedRecord::Xiangqi(r), ExportFormat::Fen) => {
            Ok(format!("{}\n", r.game().position().to_fen()))
        }
        (ImportedRecord::Xiangqi(r), ExportFormat::Usi) => {
            let mut line = format!("position fen {}", r.start().to_fen());
            if !r.moves().is_empty() {
                line.push_str(" moves");
                for m in r.moves() {
                    line.push(' ');
                    line.push_str(&m.to_string());
                }
            }
            Ok(line + "\n")
        }
        (ImportedRecord::Xiangqi(_), _) => Err(wrong("pgn, wxf, fen or usi")),
        (ImportedRecord::Shogi(r), ExportFormat::Kif) => write_kif(r).map_err(unwritable),
        (ImportedRecord::Shogi(r), ExportFormat::Ki2) => write_ki2(r).map_err(unwritable),
        (ImportedRecord::Shogi(r), ExportFormat::Csa) => write_csa(r).map_err(unwritable),
        (ImportedRecord::Shogi(r), ExportFormat::Sfen) => {
            let mut pos = shogi::Position::from_sfen(r.variant, &r.start_sfen)
                .map_err(|e| ExportError::Unwritable(e.to_string()))?;
            for m in &r.moves {
                let mv = pos
                    .parse_move(m)
                    .map_err(|e| ExportError::Unwritable(e.to_string()))?;
                pos.play(mv);
            }
            Ok(format!("{}\n", pos.sfen()))
        }
        (ImportedRecord::Shogi(r), ExportFormat::Usi) => {
            let mut line = format!("position sfen {}", r.start_sfen);
            if !r.moves.is_empty() {
                line.push_str(" moves ");
                line.push_str(&r.moves.join(" "));
            }
            Ok(line + "\n")
        }
        (ImportedRecord::Shogi(_), _) => Err(wrong("kif, ki2, csa, sfen or usi")),
    }
}
