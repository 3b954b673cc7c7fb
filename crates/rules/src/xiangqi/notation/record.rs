//! The PGN-style game record of the xiangqi family.
//!
//! ```text
//! [Game "Chinese Chess"]
//! [Variant "xiangqi"]
//! [Date "2026.11.29"]
//! [Red "Ann"]
//! [Black "Bo"]
//! [Result "1-0"]
//! [Termination "checkmate"]
//! [TimeControl "600+5"]
//! [FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]
//! [Format "ICCS"]
//!
//! 1. h2e2 h9g7 2. h0g2 i9h9 1-0
//! ```
//!
//! Movetext is ICCS with move numbers and `[Format "ICCS"]` (so that readers do not take the
//! moves for WXF); [`Record::to_text`] writes WXF or Chinese movetext instead. Jieqi moves
//! that reveal carry the suffix (`b0c2R`). A footer after the result line (XQBase's notice) is
//! ignored on import.
//! On import (where the classic ICCS form `H2-E2` is also read), move numbers, `{comments}`, `;` comments, `(variations)` and `$n` annotations
//! are skipped, and each move may be ICCS, WXF or Chinese. Tag values escape `"` and `\` with
//! a backslash. `Termination` holds a reason name (`checkmate`, `perpetual-check`, …) or
//! `unterminated`; `TimeControl` is `main+increment` in seconds or `-`.

use std::fmt;
use std::str::FromStr;

use super::{Script, parse_chinese, parse_wxf};
use crate::variation::Node;
use crate::xiangqi::{FenError, Game, Move, Position, Square};
use crate::{Outcome, Variant};

/// The value of the `Game` tag.
pub const GAME_TAG: &str = "Chinese Chess";

/// Largest record accepted on import.
pub const MAX_RECORD_BYTES: usize = 1 << 20;

/// A game record: its start, its moves and its tags (in the order they are written).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    start: Position,
    moves: Vec<Move>,
    tags: Vec<(String, String)>,
}

/// Why a record could not be read. Lines are 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// Larger than [`MAX_RECORD_BYTES`].
    #[error("the record is {0} bytes; at most 1 MiB is accepted")]
    TooLarge(usize),
    /// A tag line that is not `[Name "value"]`.
    #[error("line {line}: {what}")]
    Tag {
        /// Where.
        line: usize,
        /// What is wrong with it.
        what: String,
    },
    /// The `Variant` tag names no xiangqi-family variant.
    #[error("the Variant tag `{0}` is not a xiangqi-family variant: expected xiangqi or jieqi")]
    Variant(String),
    /// The `FEN` tag is not a valid position.
    #[error("the FEN tag is not a valid position: {0}")]
    Fen(FenError),
    /// A `{` comment or `(` variation that never closes.
    #[error("line {line}: a `{opener}` is never closed")]
    Unclosed {
        /// Where it opened.
        line: usize,
        /// `{` or `(`.
        opener: char,
    },
    /// A move that is not legal where it stands.
    #[error("line {line}, ply {ply}: `{token}` is not a legal move: {why}")]
    Move {
        /// Where.
        line: usize,
        /// 1-based ply of the record.
        ply: usize,
        /// The token.
        token: String,
        /// Why it is not legal.
        why: String,
    },
    /// Something after the result token.
    #[error("line {line}: `{token}` comes after the result")]
    AfterResult {
        /// Where.
        line: usize,
        /// The token.
        token: String,
    },
    /// The result token contradicts the `Result` tag.
    #[error("line {line}: the result `{token}` contradicts the Result tag `{tag}`")]
    ResultMismatch {
        /// Where.
        line: usize,
        /// The token at the end of the movetext.
        token: String,
        /// The tag's value.
        tag: String,
    },
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

impl Record {
    /// A record of no moves from `start`, with the standard tags and unknown values
    /// (`?` players, `????.??.??` date, `*` result, `unterminated`, `-` time control).
    pub fn new(start: Position) -> Record {
        let tags = [
            ("Game", GAME_TAG.to_owned()),
            ("Variant", start.variant().name().to_owned()),
            ("Date", "????.??.??".to_owned()),
            ("Red", "?".to_owned()),
            ("Black", "?".to_owned()),
            ("Result", "*".to_owned()),
            ("Termination", "unterminated".to_owned()),
            ("TimeControl", "-".to_owned()),
            ("FEN", start.to_fen()),
        ]
        .into_iter()
        .map(|(n, v)| (n.to_owned(), v))
        .collect();
        Record {
            start,
            moves: Vec::new(),
            tags,
        }
    }

    /// The record of a game: its start, moves and, if it ended by the rules, result and
    /// termination. (For Jieqi this is the public game: reveals as suffixes, nothing hidden.)
    pub fn from_game(game: &Game) -> Record {
        let mut record = Record::new(game.start().clone());
        record.moves = game.moves().to_vec();
        if let Some(outcome) = game.outcome() {
            record.set_outcome(outcome);
        }
        record
    }

    /// Sets `Result` and `Termination` from an outcome (also for resignation, time, …).
    pub fn set_outcome(&mut self, outcome: Outcome) {
        self.set_tag("Result", outcome.result());
        self.set_tag("Termination", outcome.reason.name());
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The variant (from the start position).
    pub fn variant(&self) -> Variant {
        self.start.variant()
    }

    /// The moves, each legal where it was played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every tag in order, as `(name, value)`.
    pub fn tags(&self) -> &[(String, String)] {
        &self.tags
    }

    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` (replacing its value in place, or appending it). Line breaks in the
    /// value become spaces. `Game`, `Variant` and `FEN` follow the start position, and
    /// `Format` the movetext as written: they are not changed here.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        if matches!(name, "Game" | "Variant" | "FEN" | "Format") || !valid_tag_name(name) {
            return;
        }
        let value: String = value
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_owned(), value)),
        }
    }

    /// The `Result` tag (`1-0`, `0-1`, `1/2-1/2` or `*`).
    pub fn result(&self) -> &str {
        self.tag("Result").unwrap_or("*")
    }

    /// Replays the moves from the start: the game as far as the record goes.
    pub fn game(&self) -> Game {
        let mut game = Game::new(self.start.clone());
        for &mv in &self.moves {
            if game.play(mv).is_err() {
                break;
            }
        }
        game
    }

    /// Reads a record: tags, then movetext. Missing `Variant` means xiangqi, a missing `FEN`
    /// the variant's start. Every move is checked for legality.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        text.parse()
    }
}

fn valid_tag_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// How the moves of a written record are spelled, named by its `Format` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveFormat {
    /// ICCS (`h2e2`; Jieqi reveals as suffixes), tagged `[Format "ICCS"]`: what engines and
    /// the `cchess` library read.
    Iccs,
    /// WXF (`C2.5`), tagged `[Format "WXF"]`: what XQBase and PlayOK exchange.
    Wxf,
    /// Chinese (`炮二平五`), tagged `[Format "Chinese"]`: the movetext of Chinese sites.
    Chinese(Script),
}

impl MoveFormat {
    /// The `Format` tag value.
    pub fn tag(self) -> &'static str {
        match self {
            MoveFormat::Iccs => "ICCS",
            MoveFormat::Wxf => "WXF",
            MoveFormat::Chinese(_) => "Chinese",
        }
    }
}

impl Record {
    /// The record text with moves in `format`. Jieqi records are always ICCS: WXF and
    /// Chinese cannot carry the reveals. See the `Display` implementation for the layout.
    pub fn to_text(&self, format: MoveFormat) -> String {
        let tree: Vec<Node<Move>> = self.moves.iter().map(|&mv| Node::new(mv)).collect();
        self.to_text_with_variations(format, &tree)
    }

    /// The record text with `tree` as its movetext instead of the record's own moves: the
    /// main line, and after each move its variations in parentheses, numbered as PGN numbers
    /// them (`1. h2e2 (1. b2e2 h9g7) 1... h9g7`). Every move of `tree` must be legal where it
    /// stands (as [`crate::variation::parse_tree`] gives them). Readers that skip variations
    /// (Jiang's own, cchess, pyffish's PGN tools) read the main line.
    pub fn to_text_with_variations(&self, format: MoveFormat, tree: &[Node<Move>]) -> String {
        let format = if self.variant() == Variant::Jieqi {
            MoveFormat::Iccs
        } else {
            format
        };
        let mut out = String::new();
        for (name, value) in &self.tags {
            if name == "Format" {
                continue;
            }
            let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
            out.push_str(&format!("[{name} \"{escaped}\"]\n"));
            // Right after the FEN, where readers look for it; always present.
            if name == "FEN" {
                out.push_str(&format!("[Format \"{}\"]\n", format.tag()));
            }
        }
        if !self.tags.iter().any(|(n, _)| n == "FEN") {
            out.push_str(&format!("[Format \"{}\"]\n", format.tag()));
        }
        out.push('\n');
        let mut tokens = Vec::with_capacity(tree.len() * 3 / 2 + 1);
        line_tokens(
            &self.start,
            self.start.fullmove_number(),
            tree,
            format,
            &mut tokens,
        );
        tokens.push(self.result().to_owned());
        out.push_str(&wrap(tokens));
        out
    }
}

/// The movetext tokens of `line` from `position` (full move `number`): move numbers, moves
/// spelled in `format`, and each node's variations as `(` … `)`.
fn line_tokens(
    position: &Position,
    mut number: u32,
    line: &[Node<Move>],
    format: MoveFormat,
    tokens: &mut Vec<String>,
) {
    let mut position = position.clone();
    // Black's move needs its number after a variation and at the start of a line.
    let mut numbered = false;
    for node in line {
        let red_to_move = position.turn() == crate::Side::RED;
        if red_to_move {
            tokens.push(format!("{number}."));
        } else if !numbered {
            tokens.push(format!("{number}..."));
        }
        tokens.push(match format {
            MoveFormat::Iccs => node.mv.to_string(),
            MoveFormat::Wxf => super::wxf(&position, node.mv),
            MoveFormat::Chinese(script) => super::chinese(&position, node.mv, script),
        });
        for variation in &node.variations {
            tokens.push("(".to_owned());
            line_tokens(&position, number, variation, format, tokens);
            tokens.push(")".to_owned());
        }
        numbered = red_to_move && node.variations.is_empty();
        position.play(node.mv);
        if !red_to_move {
            number += 1;
        }
    }
}

/// Joins movetext tokens with spaces (none inside parentheses' edges), wrapped at 80 columns
/// (a CJK character counts two), with a final newline.
fn wrap(tokens: Vec<String>) -> String {
    let mut out = String::new();
    let mut width = 0;
    let mut after_open = false;
    for token in tokens {
        let w = token
            .chars()
            .map(|c| if c.is_ascii() { 1 } else { 2 })
            .sum::<usize>();
        let glued = after_open || token == ")";
        if width > 0 && width + 1 + w > 80 {
            out.push('\n');
            width = 0;
        } else if width > 0 && !glued {
            out.push(' ');
            width += 1;
        }
        after_open = token == "(";
        out.push_str(&token);
        width += w;
    }
    out.push('\n');
    out
}

impl fmt::Display for Record {
    /// The record text: tag lines (with `[Format "ICCS"]`), a blank line, ICCS movetext
    /// wrapped at 80 columns ending with the result, and a final newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text(MoveFormat::Iccs))
    }
}

/// Reads one `[Name "value"]` line.
fn parse_tag(line: &str, number: usize) -> Result<(String, String), RecordError> {
    let error = |what: &str| RecordError::Tag {
        line: number,
        what: what.to_owned(),
    };
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| error("a tag must look like [Name \"value\"]"))?;
    let (name, rest) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| error("a tag needs a name and a quoted value"))?;
    if !valid_tag_name(name) {
        return Err(error("a tag name is letters, digits and `_`"));
    }
    let quoted = rest.trim();
    let body = quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .ok_or_else(|| error("a tag value must be in double quotes"))?;
    let mut value = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('\\' | '"')) => value.push(e),
                _ => return Err(error("only \\\\ and \\\" are escapes in a tag value")),
            },
            '"' => return Err(error("a `\"` inside a tag value must be written \\\"")),
            c => value.push(c),
        }
    }
    Ok((name.to_owned(), value))
}

/// Splits movetext into `(line, token)` pairs, skipping comments, variations and NAGs.
fn movetext_tokens(lines: &[(usize, &str)]) -> Result<Vec<(usize, String)>, RecordError> {
    let mut tokens = Vec::new();
    let mut comment: Option<usize> = None; // line where an open `{` started
    let mut depth = 0usize; // variation nesting
    let mut variation_line = 0;
    for &(number, line) in lines {
        let mut current = String::new();
        let flush = |current: &mut String, tokens: &mut Vec<(usize, String)>| {
            if !current.is_empty() {
                tokens.push((number, std::mem::take(current)));
            }
        };
        for c in line.chars() {
            if comment.is_some() {
                if c == '}' {
                    comment = None;
                }
                continue;
            }
            match c {
                '{' => {
                    flush(&mut current, &mut tokens);
                    comment = Some(number);
                }
                ';' if depth == 0 => {
                    flush(&mut current, &mut tokens);
                    break;
                }
                '(' => {
                    flush(&mut current, &mut tokens);
                    if depth == 0 {
                        variation_line = number;
                    }
                    depth += 1;
                }
                ')' if depth > 0 => depth -= 1,
                _ if depth > 0 => {}
                c if c.is_whitespace() => flush(&mut current, &mut tokens),
                c => current.push(c),
            }
        }
        if depth == 0 {
            flush(&mut current, &mut tokens);
        }
    }
    if let Some(line) = comment {
        return Err(RecordError::Unclosed { line, opener: '{' });
    }
    if depth > 0 {
        return Err(RecordError::Unclosed {
            line: variation_line,
            opener: '(',
        });
    }
    Ok(tokens
        .into_iter()
        .filter_map(|(line, token)| {
            let token = strip_move_number(&token);
            (!token.is_empty() && !token.starts_with('$')).then(|| (line, token.to_owned()))
        })
        .collect())
}

/// Removes a leading move number (`12.`, `12...`) unless what follows starts with a digit
/// (then the token is a WXF move such as `77.8`).
fn strip_move_number(token: &str) -> &str {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &token[digits..];
    let after_dots = rest.trim_start_matches('.');
    if digits == 0 || after_dots.len() == rest.len() {
        return token;
    }
    if after_dots.starts_with(|c: char| c.is_ascii_digit()) {
        token
    } else {
        after_dots
    }
}

/// The move `token` names in `position`: ICCS first (also the classic `H2-E2` form), then
/// WXF, then Chinese.
fn read_move(position: &Position, token: &str) -> Result<Move, String> {
    let classic = token.is_ascii() && (5..=6).contains(&token.len()) && token.as_bytes()[2] == b'-';
    let token = &if classic {
        format!(
            "{}{}{}",
            token[..2].to_ascii_lowercase(),
            token[3..5].to_ascii_lowercase(),
            &token[5..]
        )
    } else {
        token.to_owned()
    };
    let iccs_error = match position.parse_move(token) {
        Ok(mv) => return Ok(mv),
        Err(e) => e,
    };
    let names_points = token.len() >= 4
        && token.is_char_boundary(2)
        && token.is_char_boundary(4)
        && token[..2].parse::<Square>().is_ok()
        && token[2..4].parse::<Square>().is_ok();
    if names_points {
        return Err(iccs_error.to_string());
    }
    // WXF may come in full-width forms (`Ｃ２＝５`, as wxf.ca writes it).
    let wxf_like = token
        .chars()
        .all(|c| c.is_ascii() || ('\u{FF01}'..='\u{FF5E}').contains(&c));
    let mv = if wxf_like {
        parse_wxf(position, token)
    } else {
        parse_chinese(position, token)
    }
    .map_err(|e| e.to_string())?;
    if position.occupant(mv.from()).is_some_and(|o| o.is_covered()) {
        return Err(format!(
            "it moves a covered piece: write it in ICCS with the revealed piece's letter, like `{}R`",
            mv.iccs()
        ));
    }
    Ok(mv)
}

/// Reads `token` as two four-character WXF or Chinese moves written without a space.
fn glued_pair(position: &Position, token: &str) -> Option<Vec<Move>> {
    let chars: Vec<char> = token.chars().collect();
    if chars.len() != 8 {
        return None;
    }
    let first: String = chars[..4].iter().collect();
    let second: String = chars[4..].iter().collect();
    let a = read_move(position, &first).ok()?;
    let mut after = position.clone();
    after.play(a);
    let b = read_move(&after, &second).ok()?;
    Some(vec![a, b])
}

impl FromStr for Record {
    type Err = RecordError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text.len() > MAX_RECORD_BYTES {
            return Err(RecordError::TooLarge(text.len()));
        }
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut movetext: Vec<(usize, &str)> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if movetext.is_empty() && line.starts_with('[') {
                let (name, value) = parse_tag(line, i + 1)?;
                match tags.iter_mut().find(|(n, _)| *n == name) {
                    Some(slot) => slot.1 = value,
                    None => tags.push((name, value)),
                }
            } else if !line.is_empty() || !movetext.is_empty() {
                movetext.push((i + 1, line));
            }
        }
        let tag = |name: &str| {
            tags.iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        let variant = match tag("Variant") {
            // Without a Variant tag, a FEN with covered pieces can only be Jieqi.
            None if tag("FEN").is_some_and(|fen| {
                fen.split_whitespace()
                    .next()
                    .is_some_and(|board| board.contains(['X', 'x']))
            }) =>
            {
                Variant::Jieqi
            }
            None => Variant::Xiangqi,
            Some(name) => match name.to_ascii_lowercase().parse::<Variant>() {
                Ok(v @ (Variant::Xiangqi | Variant::Jieqi)) => v,
                _ => return Err(RecordError::Variant(name.to_owned())),
            },
        };
        let start = match tag("FEN") {
            None => Position::start(variant),
            Some(fen) => Position::parse_fen(variant, fen).map_err(RecordError::Fen)?,
        };
        let mut record = Record::new(start.clone());
        for (name, value) in &tags {
            record.set_tag(name, value);
        }
        // Text after the line that ends the movetext with the result is a footer (XQBase
        // appends its notice there): it is not read.
        if let Some(end) = movetext.iter().position(|(_, line)| {
            !line.contains(['{', '}', '(', ')'])
                && line.split_whitespace().any(|t| RESULTS.contains(&t))
        }) {
            movetext.truncate(end + 1);
        }
        let mut position = start;
        let mut result: Option<(usize, String)> = None;
        for (line, token) in movetext_tokens(&movetext)? {
            if result.is_some() {
                return Err(RecordError::AfterResult { line, token });
            }
            if RESULTS.contains(&token.as_str()) {
                result = Some((line, token));
                continue;
            }
            let moves = match read_move(&position, &token) {
                Ok(mv) => vec![mv],
                // Two moves written without a space (`Ｃ２＝５Ｈ８＋７`, `炮二平五马８进７`, as
                // wxf.ca's exports do): read as Red's and Black's halves.
                Err(why) => glued_pair(&position, &token).ok_or_else(|| RecordError::Move {
                    line,
                    ply: record.moves.len() + 1,
                    token: token.clone(),
                    why,
                })?,
            };
            for mv in moves {
                position.play(mv);
                record.moves.push(mv);
            }
        }
        if let Some((line, token)) = result {
            match tag("Result") {
                Some(tag) if tag != token => {
                    return Err(RecordError::ResultMismatch {
                        line,
                        token,
                        tag: tag.to_owned(),
                    });
                }
                Some(_) => {}
                None => record.set_tag("Result", &token),
            }
        }
        Ok(record)
    }
}
