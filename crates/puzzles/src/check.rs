//! The trainer's verdict on one move: is it the solution's next move, and if so what does the
//! opponent answer? Pure rules: the server asks this for `POST /api/puzzles/{id}/move`, so the
//! solution never has to leave it before it is earned.

use jiang_rules::{AnyGame, Family, Reason, Variant};

use crate::format::{ProofKind, Puzzle};

/// What a move played in a puzzle did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The solution's move, and the puzzle goes on: the opponent answers `reply` (as recorded:
    /// a Jieqi reveal carries its letter).
    Right {
        /// The move as recorded (a Jieqi reveal with its letter).
        played: String,
        /// The opponent's answer.
        reply: String,
    },
    /// The puzzle's last move (or, in a mate puzzle, any move that mates at the end): done.
    Solved {
        /// The move as recorded.
        played: String,
    },
    /// A legal move that is not the solution.
    Wrong,
}

/// Why a move could not be judged. Nothing is changed by a refused move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CheckError {
    /// The moves said to have been played are not the start of this puzzle's line.
    #[error(
        "the line does not follow the puzzle: move {index} `{text}` is not the one played there"
    )]
    OffLine {
        /// 1-based index in `line`.
        index: usize,
        /// The move given.
        text: String,
    },
    /// The line ends where it is the opponent's turn, or goes past the end of the puzzle.
    #[error("the line must end with the opponent's answer, before the puzzle's end")]
    NotSolversTurn,
    /// The move is not legal in the position.
    #[error("`{text}` is not a legal move here")]
    Illegal {
        /// The move given.
        text: String,
    },
    /// The stored puzzle does not replay (a corrupt puzzle, never the player's fault).
    #[error("puzzle {id} does not replay: {reason}")]
    Corrupt {
        /// The puzzle.
        id: String,
        /// What failed.
        reason: String,
    },
}

/// The move as players send it: Jieqi's reveal letter dropped.
fn sent_form(variant: Variant, recorded: &str) -> &str {
    match variant {
        Variant::Jieqi => recorded.get(..4).unwrap_or(recorded),
        _ => recorded,
    }
}

/// The game at the puzzle's position, before any move.
pub fn start(puzzle: &Puzzle) -> Result<AnyGame, CheckError> {
    AnyGame::analysis(puzzle.variant, Some(&puzzle.position)).map_err(|e| CheckError::Corrupt {
        id: puzzle.id.clone(),
        reason: e.to_string(),
    })
}

/// The game after `line`, which must follow the puzzle's solution up to a solver's turn.
fn follow(puzzle: &Puzzle, line: &[String]) -> Result<AnyGame, CheckError> {
    let variant = puzzle.variant;
    if line.len() % 2 == 1 || line.len() >= puzzle.solution.len() {
        return Err(CheckError::NotSolversTurn);
    }
    let mut game = start(puzzle)?;
    for (i, (given, recorded)) in line.iter().zip(&puzzle.solution).enumerate() {
        if sent_form(variant, given) != sent_form(variant, recorded) {
            return Err(CheckError::OffLine {
                index: i + 1,
                text: given.clone(),
            });
        }
        game.play(recorded).map_err(|e| CheckError::Corrupt {
            id: puzzle.id.clone(),
            reason: format!("move {} `{recorded}`: {e}", i + 1),
        })?;
    }
    Ok(game)
}

/// The hint at the solver's turn after `line`: where the solution's next move starts — the
/// square of the piece it moves (`h2`, `7g`), or for a drop the piece's letter and `*` (`G*`).
pub fn hint(puzzle: &Puzzle, line: &[String]) -> Result<String, CheckError> {
    follow(puzzle, line)?;
    let next = &puzzle.solution[line.len()];
    Ok(match next.split_once('*') {
        Some((piece, _)) => format!("{piece}*"),
        None => next.get(..2).unwrap_or(next).to_owned(),
    })
}

/// Judges `text`, played after `line` (the moves of this puzzle played so far, as the trainer
/// showed them: the solver's as sent, the opponent's as recorded).
pub fn check(puzzle: &Puzzle, line: &[String], text: &str) -> Result<Verdict, CheckError> {
    let variant = puzzle.variant;
    let mut game = follow(puzzle, line)?;
    let text = text.trim();
    let sent = match variant.family() {
        // A player may add Jieqi's reveal letter; the position decides what is revealed.
        Family::Xiangqi => sent_form(variant, text),
        Family::Shogi => text,
    };
    if !game.legal_moves().iter().any(|m| m == sent) {
        return Err(CheckError::Illegal {
            text: text.to_owned(),
        });
    }
    let at = line.len();
    let expected = &puzzle.solution[at];
    let last = at + 1 == puzzle.solution.len();
    if sent == sent_form(variant, expected) {
        return Ok(match puzzle.solution.get(at + 1) {
            None => Verdict::Solved {
                played: expected.clone(),
            },
            Some(reply) => Verdict::Right {
                played: expected.clone(),
                reply: reply.clone(),
            },
        });
    }
    // Another move that mates at the end of a mate puzzle mates too: it solves it (a covered
    // Jieqi piece's move cannot be played without knowing what it is, so it stays wrong).
    if last && puzzle.proof.kind == ProofKind::Mate {
        // The solver is the side to move here (the line ends on the opponent's answer).
        let solver = game.turn();
        if let Ok(played) = game.play(sent) {
            let mated = game.outcome().is_some_and(|o| {
                o.winner == Some(solver)
                    && matches!(o.reason, Reason::Checkmate | Reason::Stalemate)
            });
            if mated {
                return Ok(Verdict::Solved { played });
            }
        }
    }
    Ok(Verdict::Wrong)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn puzzle(variant: Variant, position: &str, solution: &[&str]) -> Puzzle {
        Puzzle::hand_made(variant, position, solution, ProofKind::Mate)
    }

    fn line(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|s| s.to_string()).collect()
    }

    /// Two chariots: the one on the eighth rank shuts the general in, the other mates on the
    /// ninth (b0b9); a8a9 checks too but lets the general out to e8.
    const CHARIOTS: &str = "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1";

    #[test]
    fn the_solution_solves_and_a_legal_other_move_is_wrong() {
        let p = puzzle(Variant::Xiangqi, CHARIOTS, &["b0b9"]);
        assert_eq!(
            check(&p, &[], "b0b9"),
            Ok(Verdict::Solved {
                played: "b0b9".into()
            })
        );
        assert_eq!(check(&p, &[], "a8a9"), Ok(Verdict::Wrong));
        assert_eq!(check(&p, &[], "d0d1"), Ok(Verdict::Wrong));
        assert_eq!(
            check(&p, &[], "b0c1"),
            Err(CheckError::Illegal {
                text: "b0c1".into()
            })
        );
        assert_eq!(
            check(&p, &[], "zz"),
            Err(CheckError::Illegal { text: "zz".into() })
        );
    }

    #[test]
    fn a_right_move_gets_the_reply_and_the_line_must_follow_the_puzzle() {
        let p = puzzle(Variant::Xiangqi, CHARIOTS, &["b0b1", "e9f9", "a8a9"]);
        assert_eq!(
            check(&p, &[], "b0b1"),
            Ok(Verdict::Right {
                played: "b0b1".into(),
                reply: "e9f9".into()
            })
        );
        assert_eq!(
            check(&p, &line(&["b0b1", "e9f9"]), "a8a9"),
            Ok(Verdict::Solved {
                played: "a8a9".into()
            })
        );
        assert_eq!(
            check(&p, &line(&["b0b2", "e9f9"]), "a8a9"),
            Err(CheckError::OffLine {
                index: 1,
                text: "b0b2".into()
            })
        );
        assert_eq!(
            check(&p, &line(&["b0b1"]), "e9f9"),
            Err(CheckError::NotSolversTurn)
        );
        assert_eq!(
            check(&p, &line(&["b0b1", "e9f9", "a8a9", "f9e9"]), "a9a8"),
            Err(CheckError::NotSolversTurn)
        );
    }

    #[test]
    fn another_mate_at_the_end_of_a_mate_puzzle_solves_it() {
        // Gold drop on 5b, backed by the pawn on 5c; the king on 5a has nowhere to go.
        let sfen = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
        let p = puzzle(Variant::Shogi, sfen, &["G*5b"]);
        assert_eq!(
            check(&p, &[], "G*5b"),
            Ok(Verdict::Solved {
                played: "G*5b".into()
            })
        );
        assert_eq!(check(&p, &[], "G*4b"), Ok(Verdict::Wrong));
        // The same puzzle, stored with a quiet first move: the alternative is judged by the
        // position, not by the stored text.
        let mut other = puzzle(Variant::Shogi, sfen, &["5i4h"]);
        assert_eq!(
            check(&other, &[], "G*5b"),
            Ok(Verdict::Solved {
                played: "G*5b".into()
            })
        );
        other.proof.kind = ProofKind::Advantage;
        assert_eq!(check(&other, &[], "G*5b"), Ok(Verdict::Wrong));
    }

    #[test]
    fn a_jieqi_reveal_is_shown_only_when_the_line_reaches_it() {
        // A covered black soldier on a6; the opponent's answer reveals it (a chariot here).
        let fen = "4k4/R8/9/x8/9/9/9/9/9/1R1K5 w - - 0 1";
        let p = puzzle(Variant::Jieqi, fen, &["b0b1", "a6a5r", "b1b9"]);
        assert_eq!(
            check(&p, &[], "b0b1"),
            Ok(Verdict::Right {
                played: "b0b1".into(),
                reply: "a6a5r".into()
            })
        );
        for answer in ["a6a5r", "a6a5"] {
            assert_eq!(
                check(&p, &line(&["b0b1", answer]), "b1b9"),
                Ok(Verdict::Solved {
                    played: "b1b9".into()
                })
            );
        }
        assert_eq!(
            check(&p, &line(&["b0b1", "a6a5"]), "b1b8"),
            Ok(Verdict::Wrong)
        );
    }
}
