//! CSA records (CSA標準棋譜ファイル形式 V2.2):
//!
//! ```text
//! 'CSA encoding=UTF-8
//! V2.2
//! N+Alice
//! N-Bob
//! $START_TIME:2024/01/02 10:00:00
//! PI
//! +
//! +7776FU
//! T3
//! -3334FU
//! T5
//! %TORYO
//! ```
//!
//! A start that is the standard position with some pieces removed (every handicap) is written
//! `PI` plus the removed pieces (`PI82HI22KA`); any other start as full `P1`…`P9` rows with
//! `P+`/`P-` hand lines (`P+00HI00FU`). Moves are `+7776FU`, drops `+0055KA`, promotions
//! name the promoted piece (`+2233UM`), `T` lines give seconds spent when known. Results are
//! the `%` words listed in the `record` module. The time control, which V2.2 has no free-text
//! field for, is a comment `'持ち時間:10分+30秒`.
//!
//! **Minishogi** is not part of the CSA standard. Jiang writes it with the same syntax on a
//! 5×5 board: always full `P1`…`P5` rows of five squares (never `PI`), squares `11`…`55`;
//! import recognises a minishogi record by its five-square rows.

use crate::shogi::{Handicap, Move, Piece, PieceKind, Position, Square};
use crate::{Outcome, Reason, Side, Variant};

use super::error::{NotationError, RecordError};
use super::kanji;
use super::legal_facts;
use super::outcome_or_word;
use super::record::{
    ShogiRecord, decode_record_text, parse_result_comment, replay, result_comment,
};
use super::view::{BoardView, kind_after};

fn sign(side: Side) -> char {
    match side {
        Side::First => '+',
        Side::Second => '-',
    }
}

fn two_digits(sq: Square) -> String {
    format!("{}{}", sq.file(), sq.rank())
}

/// The pieces removed from the standard start to get `start`, if that is what it is.
fn removals(start: &Position) -> Option<Vec<(Square, PieceKind)>> {
    if start.variant() != Variant::Shogi
        || !start.hand(Side::First).is_empty()
        || !start.hand(Side::Second).is_empty()
    {
        return None;
    }
    let standard = Position::startpos(Variant::Shogi);
    let mut removed = Vec::new();
    for sq in Square::all(9) {
        match (standard.piece_at(sq), start.piece_at(sq)) {
            (a, b) if a == b => {}
            (Some(p), None) if p.kind != PieceKind::King => removed.push((sq, p.kind)),
            _ => return None,
        }
    }
    Some(removed)
}

/// The `%` word for `outcome`, and whether a perpetual-check comment goes with it.
fn end_word(outcome: &Outcome, to_move: Side) -> String {
    match outcome.reason {
        // `%TORYO` is the side to move's. A player who resigned while the opponent was to
        // move is named by the V2.2 word that names the loser instead, with a `'投了`
        // comment, so that every reader finds the right winner.
        Reason::Resignation => match outcome.winner {
            Some(winner) if winner == to_move => format!("%{}ILLEGAL_ACTION", sign(!winner)),
            _ => "%TORYO".into(),
        },
        // A mate is recorded as game servers record it, the mated side resigning: readers
        // such as cshogi give no winner for `%TSUMI`. Import reads a `%TORYO` in a position
        // without legal moves as the mate (or stalemate) it is.
        Reason::Checkmate | Reason::Stalemate => "%TORYO".into(),
        Reason::Timeout | Reason::TimeoutVsInsufficient => "%TIME_UP".into(),
        Reason::Repetition => "%SENNICHITE".into(),
        Reason::PerpetualCheck | Reason::PerpetualChase => match outcome.winner {
            // The offender is the loser.
            Some(winner) => format!("%{}ILLEGAL_ACTION", sign(!winner)),
            None => "%SENNICHITE".into(),
        },
        Reason::Impasse => "%KACHI".into(),
        Reason::MoveLimit => "%JISHOGI".into(),
        Reason::InsufficientMaterial | Reason::Agreement => "%HIKIWAKE".into(),
        Reason::Aborted | Reason::Abandoned => "%CHUDAN".into(),
        // The player who left loses, named like a resignation out of turn (with a `'切断`
        // comment); a draw claimed against an absent player is an interruption.
        Reason::Disconnection => match outcome.winner {
            Some(winner) => format!("%{}ILLEGAL_ACTION", sign(!winner)),
            None => "%CHUDAN".into(),
        },
    }
}

/// Writes `record` as a CSA V2.2 record (UTF-8 text, `\n` line ends).
///
/// Fails when the start SFEN or a move is not legal.
pub fn write_csa(record: &ShogiRecord) -> Result<String, RecordError> {
    let replay = replay(record)?;
    // V3.0 readers take a file without this line to be Shift_JIS; V2.2 readers skip it as a
    // comment.
    let mut out = String::from("'CSA encoding=UTF-8\nV2.2\n");
    for note in &record.notes {
        out.push_str(&format!("'{}\n", one_line(note)));
    }
    if let Some(name) = &record.sente_name {
        out.push_str(&format!("N+{}\n", one_line(name)));
    }
    if let Some(name) = &record.gote_name {
        out.push_str(&format!("N-{}\n", one_line(name)));
    }
    if let Some(t) = &record.start_time {
        out.push_str(&format!("$START_TIME:{}\n", one_line(t)));
    }
    if let Some(tc) = &record.time_control {
        out.push_str(&format!("'持ち時間:{}\n", one_line(tc)));
    }
    if let Some(h) = record.effective_handicap() {
        out.push_str(&format!("'手合割:{}\n", h.japanese));
    }
    let start = &replay.start;
    match removals(start) {
        Some(removed) => {
            out.push_str("PI");
            for (sq, kind) in removed {
                out.push_str(&two_digits(sq));
                out.push_str(kanji::csa_code(kind));
            }
            out.push('\n');
        }
        None => {
            let size = start.size();
            for rank in 1..=size {
                out.push_str(&format!("P{rank}"));
                for file in (1..=size).rev() {
                    let sq = Square::new(file, rank).expect("on board");
                    match start.piece_at(sq) {
                        None => out.push_str(" * "),
                        Some(p) => {
                            out.push(sign(p.side));
                            out.push_str(kanji::csa_code(p.kind));
                        }
                    }
                }
                out.push('\n');
            }
            for side in Side::BOTH {
                let hand = start.hand(side);
                if hand.is_empty() {
                    continue;
                }
                out.push('P');
                out.push(sign(side));
                for (kind, n) in hand {
                    for _ in 0..n {
                        out.push_str("00");
                        out.push_str(kanji::csa_code(kind));
                    }
                }
                out.push('\n');
            }
        }
    }
    out.push(sign(start.turn()));
    out.push('\n');
    for (i, (pos, mv)) in replay.steps.iter().enumerate() {
        let f = super::facts(pos, *mv);
        out.push(sign(f.side));
        out.push_str(&f.from.map_or_else(|| "00".to_owned(), two_digits));
        out.push_str(&two_digits(f.to));
        out.push_str(kanji::csa_code(kind_after(&f)));
        out.push('\n');
        if let Some(t) = record.move_seconds.get(i) {
            out.push_str(&format!("T{t}\n"));
        }
    }
    if let Some(outcome) = &record.result {
        if outcome.reason == Reason::PerpetualCheck {
            out.push_str("'連続王手の千日手\n");
        }
        let word = end_word(outcome, replay.end.turn());
        if outcome.reason == Reason::Resignation && word != "%TORYO" {
            out.push_str("'投了\n");
        }
        if outcome.reason == Reason::Disconnection {
            out.push_str("'切断\n");
        }
        out.push_str(&word);
        out.push('\n');
        out.push_str(&format!("'{}\n", result_comment(outcome)));
    } else if let Some(other) = &record.other_end {
        if let Some(illegal) = &record.illegal_move {
            // The illegal move itself when it is CSA text, else as a comment.
            if illegal.starts_with(['+', '-']) {
                out.push_str(&format!("{}\n", one_line(illegal)));
            } else {
                out.push_str(&format!("'反則手:{}\n", one_line(illegal)));
            }
        }
        if other.starts_with('%') {
            out.push_str(&format!("{}\n", one_line(other)));
        }
    }
    Ok(out)
}

fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

fn syntax(line: usize, message: impl Into<String>) -> RecordError {
    RecordError::Syntax {
        line,
        message: message.into(),
    }
}

/// Reads a two-digit CSA square (`77`; `00` is the hand) on a board of `size`.
fn read_square(text: &str, size: u8) -> Option<Option<Square>> {
    let b = text.as_bytes();
    if b.len() != 2 || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let (f, r) = (b[0] - b'0', b[1] - b'0');
    if f == 0 && r == 0 {
        return Some(None);
    }
    if f == 0 || r == 0 || f > size || r > size {
        return None;
    }
    Square::new(f, r).map(Some)
}

/// How many of each hand kind a full set has (both sides together).
/// The start position being assembled from `PI`, `P1`… and `P+`/`P-` lines.
struct Setup {
    view: Option<BoardView>,
    size: u8,
    all_to: Option<(usize, Side)>,
}

impl Setup {
    fn view(&mut self) -> &mut BoardView {
        let size = self.size;
        self.view
            .get_or_insert_with(|| BoardView::empty(size, Side::First))
    }
}

/// Reads a CSA record (UTF-8 or Shift_JIS bytes): version, names, `$` information, the start
/// position (`PI`, `P1`…`P9` or `P1`…`P5` for Minishogi, `P+`/`P-`), the moves, `T` times and
/// the `%` end. Several statements may share a line separated by `,`.
pub fn read_csa(bytes: &[u8]) -> Result<ShogiRecord, RecordError> {
    let text = decode_record_text(bytes)?;
    let mut statements: Vec<(usize, String)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        if line.starts_with('\'') {
            statements.push((i + 1, line.to_owned()));
        } else {
            for part in line.split(',') {
                // Board rows keep their trailing ` * `; other statements are trimmed.
                let is_row =
                    part.len() > 1 && part.starts_with('P') && part.as_bytes()[1].is_ascii_digit();
                if is_row {
                    statements.push((i + 1, part.to_owned()));
                } else if !part.trim().is_empty() {
                    statements.push((i + 1, part.trim().to_owned()));
                }
            }
        }
    }
    // The board size: five-square rows mean Minishogi.
    let size = statements
        .iter()
        .find(|(_, s)| s.len() > 2 && s.starts_with('P') && s.as_bytes()[1].is_ascii_digit())
        .map_or(9, |(_, s)| {
            if s.trim_end().chars().count() <= 17 {
                5
            } else {
                9
            }
        });
    let variant = if size == 5 {
        Variant::Minishogi
    } else {
        Variant::Shogi
    };
    let mut record = ShogiRecord::new(variant);
    let mut setup = Setup {
        view: None,
        size,
        all_to: None,
    };
    let mut pos: Option<Position> = None;
    let mut comment_result = None;
    let mut perpetual_noted = false;
    let mut resignation_noted = false;
    let mut special: Option<String> = None;
    let mut seconds = Vec::new();
    let mut illegal_by: Option<Side> = None;
    for (line, s) in &statements {
        let line = *line;
        if let Some(body) = s.strip_prefix('\'') {
            if let Some(outcome) = parse_result_comment(body) {
                comment_result = Some(outcome);
            } else if let Some(tc) = body.strip_prefix("持ち時間:") {
                record.time_control = Some(tc.trim().to_owned());
            }
            perpetual_noted |= body.contains("連続王手") || body.contains("OUTE_SENNICHITE");
            resignation_noted |= body.trim() == "投了";
            continue;
        }
        if s.starts_with('V') && pos.is_none() {
            continue;
        }
        if let Some(name) = s.strip_prefix("N+") {
            record.sente_name = Some(name.to_owned());
            continue;
        }
        if let Some(name) = s.strip_prefix("N-") {
            record.gote_name = Some(name.to_owned());
            continue;
        }
        if let Some(info) = s.strip_prefix('$') {
            if let Some(t) = info.strip_prefix("START_TIME:") {
                record.start_time = Some(t.to_owned());
            } else if let Some(t) = info
                .strip_prefix("TIME_LIMIT:")
                .or_else(|| info.strip_prefix("TIME:"))
            {
                // A `'持ち時間:` comment (Jiang's own) wins over the standard field.
                record.time_control.get_or_insert_with(|| t.to_owned());
            }
            continue;
        }
        let Some(current) = pos.as_mut() else {
            // Still reading the start position.
            if s == "+" || s == "-" {
                let turn = if s == "+" { Side::First } else { Side::Second };
                let start = finish_setup(&mut setup, variant, turn, line)?;
                record.start_sfen = start.sfen();
                record.handicap = Handicap::recognise(&start);
                pos = Some(start);
                continue;
            }
            read_setup_line(&mut setup, variant, s, line)?;
            continue;
        };
        if special.is_some() {
            continue;
        }
        if let Some(t) = s.strip_prefix('T') {
            let t: u32 = t
                .trim()
                .parse()
                .map_err(|_| syntax(line, format!("`{s}` is not a time line like T12")))?;
            if seconds.len() + 1 == record.moves.len() {
                seconds.push(t);
            }
            continue;
        }
        if s.starts_with('%') {
            special = Some(s.split(',').next().unwrap_or(s).to_owned());
            continue;
        }
        let ply = record.moves.len() + 1;
        let mv = match read_move(current, s, size) {
            Ok(mv) => mv,
            // A game lost by an illegal move: the move stands last, followed at most by
            // times, comments and the `%` end. Keep the moves before it and mark the loss.
            Err(NotationError::NoSuchMove(_) | NotationError::WrongSide(_))
                if statements
                    .iter()
                    .filter(|(l, _)| *l > line)
                    .all(|(_, t)| t.starts_with(['\'', 'T', '%'])) =>
            {
                record.illegal_move = Some(s.clone());
                illegal_by = Some(current.turn());
                special = Some("%ILLEGAL_MOVE".to_owned());
                continue;
            }
            Err(source) => {
                return Err(RecordError::Move { line, ply, source });
            }
        };
        record.moves.push(mv.to_string());
        current.play(mv);
    }
    let Some(end) = pos else {
        return Err(syntax(
            statements.last().map_or(1, |s| s.0),
            "the record has no side-to-move line (`+` or `-`) after the start position",
        ));
    };
    if seconds.len() == record.moves.len() && !seconds.is_empty() {
        record.move_seconds = seconds;
    }
    match comment_result {
        Some(outcome) => record.result = Some(outcome),
        None => {
            let (result, other) = match special.as_deref() {
                Some(word @ ("%+ILLEGAL_ACTION" | "%-ILLEGAL_ACTION")) if resignation_noted => {
                    let loser = if word.starts_with("%+") {
                        Side::First
                    } else {
                        Side::Second
                    };
                    (Some(Outcome::win(!loser, Reason::Resignation)), None)
                }
                _ => derive_result(&end, special, perpetual_noted),
            };
            record.end_winner = other.as_deref().and_then(|word| match word {
                "%+ILLEGAL_ACTION" => Some(Side::Second),
                "%-ILLEGAL_ACTION" => Some(Side::First),
                "%ILLEGAL_MOVE" => Some(!illegal_by.unwrap_or(end.turn())),
                _ => None,
            });
            record.result = result;
            record.other_end = other;
        }
    }
    Ok(record)
}

/// `text` as square-piece pairs of four characters (`82HI`): the square's two, the piece's
/// two. Anything else is a syntax error naming `what` and an `example`.
fn pairs(
    text: &str,
    line: usize,
    what: &str,
    example: &str,
) -> Result<Vec<(String, String)>, RecordError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() % 4 != 0 {
        return Err(syntax(
            line,
            format!("{what} are square-piece pairs like `{example}`"),
        ));
    }
    Ok(chars
        .chunks(4)
        .map(|chunk| (chunk[..2].iter().collect(), chunk[2..].iter().collect()))
        .collect())
}

/// Applies one start-position statement (`PI…`, `P1…`, `P+…`, `P-…`).
fn read_setup_line(
    setup: &mut Setup,
    variant: Variant,
    s: &str,
    line: usize,
) -> Result<(), RecordError> {
    let size = setup.size;
    if let Some(rest) = s.strip_prefix("PI") {
        if variant != Variant::Shogi {
            return Err(syntax(
                line,
                "`PI` (the standard start) is for 9×9 shogi only",
            ));
        }
        let standard = Position::startpos(Variant::Shogi);
        let view = setup.view();
        for sq in Square::all(9) {
            view.set_piece(sq, standard.piece_at(sq));
        }
        for (sq_text, code) in pairs(rest, line, "`PI` removals", "82HI")? {
            let sq = read_square(&sq_text, 9)
                .flatten()
                .ok_or_else(|| syntax(line, format!("`{sq_text}` is not a square")))?;
            let kind = kanji::from_csa_code(&code)
                .ok_or_else(|| syntax(line, format!("`{code}` is not a CSA piece")))?;
            if view.piece(sq).map(|p| p.kind) != Some(kind) {
                return Err(syntax(
                    line,
                    format!("`PI` removes {code} from {sq_text}, which does not hold it"),
                ));
            }
            view.set_piece(sq, None);
        }
        return Ok(());
    }
    let mut chars = s.chars();
    if chars.next() != Some('P') {
        return Err(syntax(line, format!("`{s}` is not a start-position line")));
    }
    match chars.next() {
        Some(d @ '1'..='9') => {
            let rank = d as u8 - b'0';
            if rank > size {
                return Err(syntax(
                    line,
                    format!("row P{rank} is off the {size}×{size} board"),
                ));
            }
            let mut cells: Vec<char> = chars.collect();
            // Editors strip the trailing spaces of an empty last square (` * `).
            while cells.len() < 3 * usize::from(size) && cells.len() % 3 != 0 {
                cells.push(' ');
            }
            if cells.len() != 3 * usize::from(size) {
                return Err(syntax(
                    line,
                    format!("row P{rank} must have {size} squares of 3 characters"),
                ));
            }
            for (i, cell) in cells.chunks(3).enumerate() {
                let sq = Square::new(size - i as u8, rank).expect("on board");
                let text: String = cell.iter().collect();
                // Some writers pad empty squares with `.` instead of `*`.
                let piece = if matches!(text.trim(), "*" | "." | "") {
                    None
                } else {
                    let side = match cell[0] {
                        '+' => Side::First,
                        '-' => Side::Second,
                        _ => {
                            return Err(syntax(
                                line,
                                format!("`{text}` is not a square of row P{rank}"),
                            ));
                        }
                    };
                    let code: String = cell[1..].iter().collect();
                    let kind = kanji::from_csa_code(&code)
                        .ok_or_else(|| syntax(line, format!("`{code}` is not a CSA piece")))?;
                    Some(Piece::new(side, kind))
                };
                setup.view().set_piece(sq, piece);
            }
            Ok(())
        }
        Some(c @ ('+' | '-')) => {
            let side = if c == '+' { Side::First } else { Side::Second };
            let rest: String = chars.collect();
            for (sq_text, code) in pairs(&rest, line, "placements", "00HI")? {
                if sq_text == "00" && code == "AL" {
                    setup.all_to = Some((line, side));
                    continue;
                }
                let sq = read_square(&sq_text, size)
                    .ok_or_else(|| syntax(line, format!("`{sq_text}` is not a square")))?;
                let kind = kanji::from_csa_code(&code)
                    .ok_or_else(|| syntax(line, format!("`{code}` is not a CSA piece")))?;
                let view = setup.view();
                match sq {
                    Some(sq) => view.set_piece(sq, Some(Piece::new(side, kind))),
                    None => {
                        if kind.is_promoted() || kind == PieceKind::King {
                            return Err(syntax(line, format!("{code} cannot be held in hand")));
                        }
                        view.set_hand(side, kind, view.hand(side, kind) + 1);
                    }
                }
            }
            Ok(())
        }
        _ => Err(syntax(line, format!("`{s}` is not a start-position line"))),
    }
}

/// The start position once the side-to-move line is reached.
fn finish_setup(
    setup: &mut Setup,
    variant: Variant,
    turn: Side,
    line: usize,
) -> Result<Position, RecordError> {
    let all_to = setup.all_to;
    let size = setup.size;
    let view = setup
        .view
        .get_or_insert_with(|| BoardView::empty(size, turn));
    view.turn = turn;
    if let Some((_, side)) = all_to {
        view.give_rest(side, variant);
    }
    Position::from_sfen(variant, &view.sfen(1)).map_err(|e| RecordError::StartPosition {
        line,
        message: super::record::start_position_message(&e.to_string()),
    })
}

/// Reads a CSA move (`+7776FU`, `+0055KA`, `+2233UM`) as a legal move of `pos`.
fn read_move(pos: &Position, s: &str, size: u8) -> Result<Move, NotationError> {
    let bad = |at: usize, expected: &'static str| NotationError::Syntax {
        text: s.to_owned(),
        at,
        expected,
    };
    let chars: Vec<char> = s.chars().collect();
    if chars.len() != 7 {
        return Err(bad(0, "a move like +7776FU"));
    }
    let side = match chars[0] {
        '+' => Side::First,
        '-' => Side::Second,
        _ => return Err(bad(0, "`+` or `-`")),
    };
    if side != pos.turn() {
        return Err(NotationError::WrongSide(s.to_owned()));
    }
    let from_text: String = chars[1..3].iter().collect();
    let to_text: String = chars[3..5].iter().collect();
    let code: String = chars[5..].iter().collect();
    let from = read_square(&from_text, size).ok_or_else(|| bad(1, "an origin square or 00"))?;
    let to = read_square(&to_text, size)
        .flatten()
        .ok_or_else(|| bad(3, "a destination square"))?;
    let kind = kanji::from_csa_code(&code).ok_or_else(|| bad(5, "a CSA piece code"))?;
    let (moves, legal) = legal_facts(pos);
    legal
        .iter()
        .position(|f| f.from == from && f.to == to && kind_after(f) == kind)
        .map(|i| moves[i])
        .ok_or_else(|| NotationError::NoSuchMove(s.to_owned()))
}

/// The outcome of a CSA record from its `%` word and final position.
fn derive_result(
    end: &Position,
    special: Option<String>,
    perpetual_noted: bool,
) -> (Option<Outcome>, Option<String>) {
    let Some(word) = special else {
        return (None, None);
    };
    let to_move = end.turn();
    let outcome = match word.as_str() {
        "%TORYO" if !end.legal_moves().is_empty() => {
            Some(Outcome::win(!to_move, Reason::Resignation))
        }
        "%TORYO" | "%TSUMI" => Some(Outcome::no_legal_move(to_move, end.is_check())),
        "%TIME_UP" => Some(Outcome::win(!to_move, Reason::Timeout)),
        // Minishogi: a plain sennichite is a loss for sente (shogi.md).
        "%SENNICHITE" if end.variant() == Variant::Minishogi => {
            Some(Outcome::win(Side::Second, Reason::Repetition))
        }
        "%SENNICHITE" => Some(Outcome::draw(Reason::Repetition)),
        "%OUTE_SENNICHITE" => Some(Outcome::win(to_move, Reason::PerpetualCheck)),
        "%+ILLEGAL_ACTION" if perpetual_noted => {
            Some(Outcome::win(Side::Second, Reason::PerpetualCheck))
        }
        "%-ILLEGAL_ACTION" if perpetual_noted => {
            Some(Outcome::win(Side::First, Reason::PerpetualCheck))
        }
        "%KACHI" => Some(Outcome::win(to_move, Reason::Impasse)),
        "%JISHOGI" | "%MAX_MOVES" => Some(Outcome::draw(Reason::MoveLimit)),
        "%HIKIWAKE" => Some(Outcome::draw(Reason::InsufficientMaterial)),
        "%CHUDAN" => Some(Outcome::draw(Reason::Aborted)),
        _ => None,
    };
    outcome_or_word(outcome, word)
}
