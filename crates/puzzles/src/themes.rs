//! Themes: what a puzzle teaches, detected from the rules alone (no search). Each rule, as
//! also documented in `docs/puzzles.md`:
//!
//! - `mate`, `mate_in_1` … `mate_in_5`, `long_mate`: a mate puzzle; N is the number of solver
//!   moves (`long_mate` beyond five).
//! - `advantage`: an advantage puzzle (a decisive score, not a mate line).
//! - `one_move`: the solution is one move; `long`: the solver makes three moves or more.
//! - `promotion`: a solver move promotes (a USI move ending in `+`).
//! - `drop`: a solver move drops a piece from hand (a USI move with `*`).
//! - `sacrifice`: after some opponent reply in the line, the solver's material (board, and hand
//!   in shogi) is lower than at the start by more than a small piece (Xiangqi: 150, Shogi
//!   family: 300 engine centipawns; piece values as the engine's).
//! - `fork` (advantage puzzles): after a solver move, the moved (or dropped) piece attacks two
//!   or more targets at once (the opponent's king when it gives check; any piece worth at least
//!   a minor piece — Xiangqi horse, Shogi silver — or worth more than the moving piece). Attacks
//!   are the captures the solver could play if it were to move again.
//! - `pin`: a solver move captures a piece that was pinned to its king: with that piece lifted
//!   off the board, the opponent's king would be in check there.
//! - `discovered_attack`: a solver move uncovers a line: the moved piece's square lay strictly
//!   between another solver piece and an opponent target (the king, or a piece worth at least a
//!   minor piece) on one rank, file or diagonal, and that piece attacks the target after the
//!   move but did not before; or the move gives check and the check remains with the moved
//!   piece lifted off the board (a discovered check).

use std::collections::BTreeSet;

use jiang_rules::{AnyGame, Family, Variant};

use crate::format::{ProofKind, Puzzle, Theme};

/// The themes of a proved puzzle, sorted and without repeats.
pub fn detect(puzzle: &Puzzle) -> Vec<Theme> {
    let mut themes = BTreeSet::new();
    let solver_moves = puzzle.solver_moves();
    match puzzle.proof.kind {
        ProofKind::Mate => {
            themes.insert(Theme::Mate);
            themes.insert(Theme::mate_in(solver_moves));
        }
        ProofKind::Advantage => {
            themes.insert(Theme::Advantage);
        }
    }
    if puzzle.solution.len() == 1 {
        themes.insert(Theme::OneMove);
    }
    if solver_moves >= 3 {
        themes.insert(Theme::Long);
    }
    let solver_texts = puzzle.solution.iter().step_by(2);
    for mv in solver_texts {
        if mv.contains('*') {
            themes.insert(Theme::Drop);
        }
        if mv.ends_with('+') {
            themes.insert(Theme::Promotion);
        }
    }
    let Ok(positions) = positions(puzzle) else {
        return themes.into_iter().collect();
    };
    let variant = puzzle.variant;
    if sacrifice(variant, &positions) {
        themes.insert(Theme::Sacrifice);
    }
    for (i, mv) in puzzle.solution.iter().enumerate().step_by(2) {
        let before = &positions[i];
        let after = &positions[i + 1];
        if puzzle.proof.kind == ProofKind::Advantage && fork(variant, mv, before, after) {
            themes.insert(Theme::Fork);
        }
        if pin(variant, mv, before) {
            themes.insert(Theme::Pin);
        }
        if discovered(variant, mv, before, after) {
            themes.insert(Theme::DiscoveredAttack);
        }
    }
    themes.into_iter().collect()
}

/// The FENs along the solution: the start and after each move.
fn positions(puzzle: &Puzzle) -> Result<Vec<String>, String> {
    let mut game =
        AnyGame::analysis(puzzle.variant, Some(&puzzle.position)).map_err(|e| e.to_string())?;
    let mut fens = vec![game.fen()];
    for mv in &puzzle.solution {
        game.play(mv).map_err(|e| e.to_string())?;
        fens.push(game.fen());
    }
    Ok(fens)
}

/// A board read from a FEN/SFEN: piece tokens (`R`, `+p`) by row (top first) and column.
#[derive(Clone, Debug)]
struct Board {
    family: Family,
    rows: Vec<Vec<Option<String>>>,
    /// The FEN's fields after the placement.
    rest: Vec<String>,
}

impl Board {
    fn read(variant: Variant, fen: &str) -> Option<Board> {
        let mut fields = fen.split_whitespace();
        let placement = fields.next()?;
        let mut rows = Vec::new();
        for row_text in placement.split('/') {
            let mut row = Vec::new();
            let mut promoted = false;
            let mut digits = String::new();
            for c in row_text.chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                    continue;
                }
                if !digits.is_empty() {
                    let n: usize = digits.parse().ok()?;
                    row.extend(std::iter::repeat_n(None, n));
                    digits.clear();
                }
                if c == '+' {
                    promoted = true;
                    continue;
                }
                let token = if promoted {
                    format!("+{c}")
                } else {
                    c.to_string()
                };
                promoted = false;
                row.push(Some(token));
            }
            if !digits.is_empty() {
                let n: usize = digits.parse().ok()?;
                row.extend(std::iter::repeat_n(None, n));
            }
            rows.push(row);
        }
        Some(Board {
            family: variant.family(),
            rows,
            rest: fields.map(str::to_owned).collect(),
        })
    }

    fn width(&self) -> usize {
        self.rows.first().map_or(0, Vec::len)
    }

    fn height(&self) -> usize {
        self.rows.len()
    }

    /// (row, column) of a square name (`e2` Xiangqi, `5e` Shogi).
    fn locate(&self, square: &str) -> Option<(usize, usize)> {
        let bytes = square.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        match self.family {
            Family::Xiangqi => {
                let col = bytes[0].checked_sub(b'a')? as usize;
                let rank = bytes[1].checked_sub(b'0')? as usize;
                let row = self.height().checked_sub(1 + rank)?;
                (col < self.width()).then_some((row, col))
            }
            Family::Shogi => {
                let file = bytes[0].checked_sub(b'0')? as usize;
                let row = bytes[1].checked_sub(b'a')? as usize;
                let col = self.width().checked_sub(file)?;
                (row < self.height() && file >= 1).then_some((row, col))
            }
        }
    }

    fn at(&self, square: &str) -> Option<&str> {
        let (r, c) = self.locate(square)?;
        self.rows.get(r)?.get(c)?.as_deref()
    }

    /// The FEN with `square` emptied and, if `flip`, the other side to move.
    fn fen_with(&self, lift: Option<&str>, flip: bool) -> Option<String> {
        let mut rows = self.rows.clone();
        if let Some(square) = lift {
            let (r, c) = self.locate(square)?;
            rows[r][c] = None;
        }
        let mut placement = Vec::new();
        for row in &rows {
            let mut text = String::new();
            let mut empty = 0;
            for cell in row {
                match cell {
                    None => empty += 1,
                    Some(token) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push_str(token);
                    }
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            placement.push(text);
        }
        let mut rest = self.rest.clone();
        if flip {
            if let Some(side) = rest.first_mut() {
                *side = match side.as_str() {
                    "w" => "b".into(),
                    "b" => "w".into(),
                    other => other.into(),
                };
            }
        }
        Some(format!("{} {}", placement.join("/"), rest.join(" ")))
    }
}

/// Whether a piece token belongs to the first side (Red, Sente): upper case.
fn is_first(token: &str) -> bool {
    token.chars().any(|c| c.is_ascii_uppercase())
}

/// The value of a piece token (the engine's material weights; kings 10,000).
fn value(family: Family, token: &str) -> i32 {
    let lower = token.to_ascii_lowercase();
    match family {
        Family::Xiangqi => match lower.as_str() {
            "k" => 10_000,
            "a" | "b" | "e" => 200,
            "n" | "h" => 420,
            "r" => 920,
            "c" => 460,
            "p" => 100,
            _ => 0,
        },
        Family::Shogi => match lower.as_str() {
            "k" => 10_000,
            "p" => 90,
            "l" => 320,
            "n" => 400,
            "s" => 500,
            "g" => 550,
            "b" => 850,
            "r" => 1000,
            "+p" | "+s" => 560,
            "+l" | "+n" => 550,
            "+b" => 1050,
            "+r" => 1300,
            _ => 0,
        },
    }
}

/// The smallest piece worth calling a target (Xiangqi horse, Shogi silver).
fn minor(family: Family) -> i32 {
    match family {
        Family::Xiangqi => 400,
        Family::Shogi => 500,
    }
}

/// The material of the side to move minus the other side's, board and (shogi) hand, from the
/// side `first`'s view.
fn balance(variant: Variant, fen: &str, first: bool) -> Option<i32> {
    let board = Board::read(variant, fen)?;
    let family = variant.family();
    let mut total = 0;
    for token in board.rows.iter().flatten().flatten() {
        if token.eq_ignore_ascii_case("k") {
            continue;
        }
        let v = value(family, token);
        total += if is_first(token) == first { v } else { -v };
    }
    if family == Family::Shogi {
        // SFEN fields: side, hand, move number.
        let hand = board.rest.get(1).map(String::as_str).unwrap_or("-");
        let mut count = String::new();
        for c in hand.chars() {
            if c.is_ascii_digit() {
                count.push(c);
                continue;
            }
            if c == '-' {
                continue;
            }
            let n: i32 = if count.is_empty() {
                1
            } else {
                count.parse().ok()?
            };
            count.clear();
            let v = value(family, &c.to_string()) * n;
            total += if c.is_ascii_uppercase() == first {
                v
            } else {
                -v
            };
        }
    }
    Some(total)
}

/// The solver is the first side?
fn solver_first(variant: Variant, fen: &str) -> bool {
    let side = fen.split_whitespace().nth(1).unwrap_or("");
    match variant.family() {
        Family::Xiangqi => side == "w" || side == "r",
        Family::Shogi => side == "b",
    }
}

fn sacrifice(variant: Variant, positions: &[String]) -> bool {
    let first = solver_first(variant, &positions[0]);
    let Some(start) = balance(variant, &positions[0], first) else {
        return false;
    };
    let margin = match variant.family() {
        Family::Xiangqi => 150,
        Family::Shogi => 300,
    };
    // After each opponent reply: positions[2], [4], …
    positions
        .iter()
        .skip(2)
        .step_by(2)
        .filter_map(|fen| balance(variant, fen, first))
        .any(|b| b < start - margin)
}

/// The destination square of a move (ICCS `h2e2`, USI `7g7f+`, `P*5e`).
fn to_square(mv: &str) -> Option<&str> {
    mv.get(2..4)
}

/// The origin square, `None` for a drop.
fn from_square(mv: &str) -> Option<&str> {
    if mv.contains('*') { None } else { mv.get(0..2) }
}

/// The captures (from, to) the side to move in `fen` could play.
fn captures(variant: Variant, fen: &str) -> Vec<(String, String)> {
    let Some(board) = Board::read(variant, fen) else {
        return Vec::new();
    };
    let Ok(game) = AnyGame::analysis(variant, Some(fen)) else {
        return Vec::new();
    };
    let first = solver_first(variant, fen);
    game.legal_moves()
        .into_iter()
        .filter_map(|mv| {
            let from = from_square(&mv)?.to_owned();
            let to = to_square(&mv)?.to_owned();
            let target = board.at(&to)?;
            (is_first(target) != first).then_some((from, to))
        })
        .collect()
}

/// Whether the side to move in `fen` is in check.
fn in_check(variant: Variant, fen: &str) -> bool {
    AnyGame::analysis(variant, Some(fen)).is_ok_and(|g| g.check().is_some())
}

fn fork(variant: Variant, mv: &str, before: &str, after: &str) -> bool {
    let family = variant.family();
    let (Some(to), Some(board)) = (to_square(mv), Board::read(variant, after)) else {
        return false;
    };
    let Some(mover) = board.at(to).map(|t| value(family, t)) else {
        return false;
    };
    let _ = before;
    let Some(again) = board.fen_with(None, true) else {
        return false;
    };
    let mut targets = 0;
    let mut pieces = 0;
    for (from, target) in captures(variant, &again) {
        if from != to {
            continue;
        }
        let worth = board.at(&target).map_or(0, |t| value(family, t));
        if worth >= 10_000 {
            continue; // the king: counted through check below
        }
        if worth >= minor(family) || worth > mover {
            targets += 1;
            pieces += 1;
        }
    }
    // A check given by the moved piece itself: it stops when that piece is lifted.
    if in_check(variant, after)
        && board
            .fen_with(Some(to), false)
            .is_some_and(|lifted| !in_check(variant, &lifted))
    {
        targets += 1;
    }
    targets >= 2 && pieces >= 1
}

fn pin(variant: Variant, mv: &str, before: &str) -> bool {
    let (Some(to), Some(board)) = (to_square(mv), Board::read(variant, before)) else {
        return false;
    };
    if board.at(to).is_none() || mv.contains('*') {
        return false; // not a capture
    }
    // The opponent to move, with and without the captured piece.
    let (Some(present), Some(lifted)) =
        (board.fen_with(None, true), board.fen_with(Some(to), true))
    else {
        return false;
    };
    !in_check(variant, &present) && in_check(variant, &lifted)
}

fn discovered(variant: Variant, mv: &str, before: &str, after: &str) -> bool {
    let family = variant.family();
    let (Some(from), Some(to)) = (from_square(mv), to_square(mv)) else {
        return false;
    };
    let (Some(board_before), Some(board_after)) =
        (Board::read(variant, before), Board::read(variant, after))
    else {
        return false;
    };
    // A discovered check.
    if in_check(variant, after)
        && board_after
            .fen_with(Some(to), false)
            .is_some_and(|lifted| in_check(variant, &lifted))
    {
        return true;
    }
    let Some(again) = board_after.fen_with(None, true) else {
        return false;
    };
    let old: BTreeSet<(String, String)> = captures(variant, before).into_iter().collect();
    let Some(gap) = board_before.locate(from) else {
        return false;
    };
    captures(variant, &again)
        .into_iter()
        .any(|(attacker, target)| {
            if attacker == to || old.contains(&(attacker.clone(), target.clone())) {
                return false;
            }
            let worth = board_after.at(&target).map_or(0, |t| value(family, t));
            if worth < minor(family) {
                return false;
            }
            match (board_after.locate(&attacker), board_after.locate(&target)) {
                (Some(a), Some(t)) => between(a, gap, t),
                _ => false,
            }
        })
}

/// Whether `m` lies strictly between `a` and `b` on one rank, file or diagonal.
fn between(a: (usize, usize), m: (usize, usize), b: (usize, usize)) -> bool {
    let d = |x: usize, y: usize| y as i64 - x as i64;
    let (dr, dc) = (d(a.0, b.0), d(a.1, b.1));
    let (mr, mc) = (d(a.0, m.0), d(a.1, m.1));
    let straight = dr == 0 || dc == 0 || dr.abs() == dc.abs();
    if !straight || (dr == 0 && dc == 0) {
        return false;
    }
    // Collinear and inside the segment.
    mr * dc == mc * dr
        && (mr != 0 || mc != 0)
        && (mr, mc) != (dr, dc)
        && mr.signum() == dr.signum()
        && mc.signum() == dc.signum()
        && mr.abs() <= dr.abs()
        && mc.abs() <= dc.abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(variant: Variant, position: &str, solution: &[&str], kind: ProofKind) -> Puzzle {
        Puzzle::hand_made(variant, position, solution, kind)
    }

    #[test]
    fn squares_read_both_ways() {
        let b = Board::read(
            Variant::Xiangqi,
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        )
        .unwrap();
        assert_eq!(b.at("e0"), Some("K"));
        assert_eq!(b.at("b2"), Some("C"));
        assert_eq!(b.at("a9"), Some("r"));
        let s = Board::read(
            Variant::Shogi,
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        )
        .unwrap();
        assert_eq!(s.at("5i"), Some("K"));
        assert_eq!(s.at("8h"), Some("B"));
        assert_eq!(s.at("2b"), Some("b"));
        assert_eq!(
            s.fen_with(None, true).unwrap(),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        assert!(between((0, 0), (0, 2), (0, 5)));
        assert!(between((0, 0), (2, 2), (4, 4)));
        assert!(!between((0, 0), (1, 2), (4, 4)));
        assert!(!between((0, 0), (0, 5), (0, 5)));
    }

    #[test]
    fn move_themes_are_read_from_the_solution() {
        // Sente's rook takes on 2b... a quiet shogi line: a drop and a promotion.
        let p = puzzle(
            Variant::Shogi,
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1",
            &["P*5e"],
            ProofKind::Advantage,
        );
        let themes = detect(&p);
        assert!(themes.contains(&Theme::Drop), "{themes:?}");
        assert!(themes.contains(&Theme::OneMove), "{themes:?}");
        assert!(themes.contains(&Theme::Advantage), "{themes:?}");
        assert!(!themes.contains(&Theme::Promotion), "{themes:?}");
    }

    #[test]
    fn a_xiangqi_fork_is_seen() {
        // The red horse jumps to d7... a horse on c5 going to d7 attacks the chariots on b8 and f8.
        let fen = "3k5/1r3r3/9/9/2N6/9/9/9/9/4K4 w - - 0 1";
        let p = puzzle(Variant::Xiangqi, fen, &["c5d7"], ProofKind::Advantage);
        let themes = detect(&p);
        assert!(themes.contains(&Theme::Fork), "{themes:?}");
    }

    #[test]
    fn a_xiangqi_pin_and_a_discovered_check_are_seen() {
        // Black's horse on e5 shields its general on e9 from the red chariot on e1: taking it
        // with the chariot is taking a pinned piece.
        let fen = "4k4/9/9/9/4n4/9/9/9/4R4/3K5 w - - 0 1";
        let p = puzzle(Variant::Xiangqi, fen, &["e1e5"], ProofKind::Advantage);
        assert!(detect(&p).contains(&Theme::Pin), "{:?}", detect(&p));
        // The red horse on e4 steps aside from the chariot's file: discovered check.
        let fen = "3k5/9/9/9/9/9/3N5/9/3R5/4K4 w - - 0 1";
        let p = puzzle(Variant::Xiangqi, fen, &["d3b4"], ProofKind::Advantage);
        assert!(
            detect(&p).contains(&Theme::DiscoveredAttack),
            "{:?}",
            detect(&p)
        );
    }
}
