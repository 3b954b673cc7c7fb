//! The tools for engine authors: `perft`, `moves` and `outcome`. Their output formats are a
//! contract other programs parse (see docs/tools.md); they are written once, generic over the
//! [`Game`] trait, and dispatched by the variant's family.

use std::io::{self, BufRead, Write};
use std::time::Instant;

use jiang_rules::{Family, Game, Position, Variant};

/// How a tool run went when it ran to the end.
#[derive(Debug, PartialEq, Eq)]
pub enum Status {
    /// Every input was understood.
    Clean,
    /// Some input lines were rejected (each with an `error:` line); the exit status is 1.
    SomeInputRejected,
}

/// Why a tool could not run at all.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The command line asked for something impossible.
    #[error("{0}")]
    Usage(String),
    /// The start position given with `--fen` is not valid.
    #[error("bad position: {0}")]
    BadPosition(String),
    /// A record could not be read (`jiang convert`): what and where.
    #[error("bad record: {0}")]
    BadRecord(String),
    /// Reading or writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Calls `$body` with `$G` bound to the [`Game`] type of `$variant`'s family.
macro_rules! with_family {
    ($variant:expr, $G:ident => $body:expr) => {
        match $variant.family() {
            Family::Xiangqi => {
                type $G = jiang_rules::xiangqi::Game;
                $body
            }
            Family::Shogi => {
                type $G = jiang_rules::shogi::Game;
                $body
            }
        }
    };
}

/// `jiang perft`: optional divide lines, then `<nodes> nodes <ms> ms`.
pub fn perft(
    variant: Variant,
    fen: &str,
    depth: u32,
    divide: bool,
    out: &mut impl Write,
) -> Result<Status, ToolError> {
    with_family!(variant, G => {
        let position = <G as Game>::Position::from_fen(variant, fen.trim())
            .map_err(|e| ToolError::BadPosition(e.to_string()))?;
        perft_from(&position, depth, divide, out)
    })
}

/// `jiang perft` from a parsed `position`.
fn perft_from<P: Position>(
    position: &P,
    depth: u32,
    divide: bool,
    out: &mut impl Write,
) -> Result<Status, ToolError> {
    let started = Instant::now();
    let nodes = if divide && depth > 0 {
        let mut lines: Vec<(String, u64)> = position
            .legal_moves()
            .into_iter()
            .map(|mv| {
                let text = position.move_text(mv);
                let mut child = position.clone();
                child.play(mv);
                (text, child.perft(depth - 1))
            })
            .collect();
        let elapsed = started.elapsed();
        lines.sort();
        for (text, count) in &lines {
            writeln!(out, "{text}: {count}")?;
        }
        let nodes = lines.iter().map(|(_, n)| n).sum();
        return finish_perft(out, nodes, elapsed.as_millis());
    } else {
        position.perft(depth)
    };
    finish_perft(out, nodes, started.elapsed().as_millis())
}

fn finish_perft(out: &mut impl Write, nodes: u64, ms: u128) -> Result<Status, ToolError> {
    writeln!(out, "{nodes} nodes {ms} ms")?;
    Ok(Status::Clean)
}

/// `jiang moves`: one line of sorted legal moves per input position, flushed as soon as it is
/// written.
pub fn moves(
    variant: Variant,
    input: impl BufRead,
    out: &mut impl Write,
) -> Result<Status, ToolError> {
    answer_lines(input, out, |line| legal_moves_line(variant, line))
}

/// The sorted legal moves of the position on `line`, or why it is not one.
fn legal_moves_line(variant: Variant, line: &str) -> Result<String, String> {
    with_family!(variant, G => <G as Game>::Position::from_fen(variant, line.trim())
        .map(|position| position.legal_move_texts().join(" "))
        .map_err(|e| e.to_string()))
}

/// Writes `answer(line)` (or `error: …`) for each input line, each answer flushed before the
/// next line is read: a long-lived process serves as an oracle (one line in, one line out).
fn answer_lines(
    input: impl BufRead,
    out: &mut impl Write,
    mut answer: impl FnMut(&str) -> Result<String, String>,
) -> Result<Status, ToolError> {
    let mut status = Status::Clean;
    for line in input.lines() {
        let line = line?;
        match answer(&line) {
            Ok(text) => writeln!(out, "{text}")?,
            Err(e) => {
                writeln!(out, "error: {e}")?;
                status = Status::SomeInputRejected;
            }
        }
        out.flush()?;
    }
    Ok(status)
}

/// `jiang outcome`: one `<result> <reason>`, `illegal <n> <why>` or `error: …` line per input,
/// flushed as soon as it is written.
pub fn outcome(
    variant: Variant,
    input: impl BufRead,
    out: &mut impl Write,
) -> Result<Status, ToolError> {
    answer_lines(
        input,
        out,
        |line| with_family!(variant, G => judge_line::<G>(variant, line)),
    )
}

/// The verdict on one `outcome` line, or why the line is malformed.
fn judge_line<G: Game>(variant: Variant, line: &str) -> Result<String, String> {
    let line = line.trim();
    let (fen, moves) = match line.split_once(" moves") {
        Some((fen, rest)) if rest.is_empty() || rest.starts_with(char::is_whitespace) => {
            (fen.trim(), rest)
        }
        _ => (line, ""),
    };
    if fen.is_empty() {
        return Err("empty line: expected `<FEN or startpos> [moves <m1> ...]`".into());
    }
    let start = G::Position::from_fen(variant, fen).map_err(|e| e.to_string())?;
    let mut game = G::new(start);
    for (i, token) in moves.split_whitespace().enumerate() {
        let n = i + 1;
        if let Some(outcome) = game.outcome() {
            return Ok(format!("illegal {n} the game is already over ({outcome})"));
        }
        if let Err(why) = game.play_text(token) {
            return Ok(format!("illegal {n} {why}"));
        }
    }
    Ok(match game.outcome() {
        Some(outcome) => outcome.to_string(),
        None => "* ongoing".to_owned(),
    })
}
