//! Finding and proving puzzles in Xiangqi, Shogi and Minishogi games with Jiang's engine.
//!
//! **Decisive** (for the side to move): a mate score, or at least [`Thresholds::win`]
//! centipawns. **Not winning** (an alternative): at most [`Thresholds::alt`] centipawns, at
//! least [`Thresholds::gap`] below the solution's move, and no mate.
//!
//! A position of a game is a puzzle when, with every root move searched exactly to the finding
//! depth ([`Engine::rank_moves`], MultiPV over all moves):
//!
//! 1. the best move is decisive, and every other move is not winning (the first move is
//!    unique);
//! 2. the line is followed: the opponent answers with the engine's best reply, and while the
//!    solver's best move is again decisive and unique the line goes on (at most
//!    [`Settings::max_solver_moves`] solver moves). An advantage line stops at the first solver
//!    move that is not unique (the solution ends with the solver's last unique move); a mate
//!    line must reach mate, each solver move being the only mating move (other moves may still
//!    win material: the puzzle is about the mate), except that at the final move any other
//!    mate in one is accepted too (the trainer accepts any mating last move);
//! 3. the puzzle is then proved by [`verify`] at the (deeper) proof depth: the same
//!    conditions, searched again from scratch, must hold at every solver move.
//!
//! A forced mate longer than `max_solver_moves` is not a mate puzzle: it may still be an
//! advantage puzzle (a mate score is decisive).

use jiang_engine::engine::best_at_depth;
use jiang_engine::score::{MATE, is_mate};
use jiang_engine::{Decision, Engine, Input};
use jiang_rules::{AnyGame, Reason, Variant};

use crate::format::{Proof, ProofKind, Puzzle};
use crate::generate::Settings;
use crate::source::SourceGame;
use crate::themes;

/// The score bounds of a variant, in its engine's centipawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    /// A move scoring at least this (or a mate) wins decisively.
    pub win: i32,
    /// Every alternative must score at most this (and not mate)...
    pub alt: i32,
    /// ...and at least this much less than the solution's move.
    pub gap: i32,
}

/// The bounds of `variant`: Xiangqi wins at +400 (about a horse or cannon; a chariot is 920),
/// alternatives at most +250 and 300 below; Shogi and Minishogi (where a captured piece also
/// goes to the hand, so a won silver swings about 1,000) win at +700, alternatives at most
/// +450 and 450 below.
pub fn thresholds(variant: Variant) -> Thresholds {
    match variant {
        Variant::Xiangqi | Variant::Jieqi => Thresholds {
            win: 400,
            alt: 250,
            gap: 300,
        },
        Variant::Shogi | Variant::Minishogi => Thresholds {
            win: 700,
            alt: 450,
            gap: 450,
        },
    }
}

/// The hash table size of the finder's and the prover's engines, in MB.
pub const HASH_MB: usize = 8;

/// Whether `score` mates for the side to move.
fn mates(score: i32) -> bool {
    is_mate(score) && score > 0
}

/// Whether `score` is decisive for the side to move.
fn decisive(score: i32, th: Thresholds) -> bool {
    mates(score) || score >= th.win
}

/// How many solver moves a mate score takes.
fn mate_moves(score: i32) -> usize {
    ((MATE - score + 1) / 2).max(1) as usize
}

/// Checks one solver move `mv` against a full ranking (see the module doc).
fn step(
    ranked: &[(String, i32)],
    mv: &str,
    first: bool,
    last: bool,
    kind: ProofKind,
    th: Thresholds,
) -> Result<(), String> {
    let Some(&(_, best)) = ranked.first() else {
        return Err("no legal move".into());
    };
    let Some(&(_, score)) = ranked.iter().find(|(m, _)| m == mv) else {
        return Err(format!("`{mv}` is not legal"));
    };
    if score < best {
        return Err(format!("`{mv}` scores {score}, below the best {best}"));
    }
    match kind {
        ProofKind::Mate if !mates(score) => return Err(format!("`{mv}` does not mate ({score})")),
        ProofKind::Advantage if !decisive(score, th) => {
            return Err(format!("`{mv}` is not decisive ({score})"));
        }
        _ => {}
    }
    for (other, s) in ranked.iter().filter(|(m, _)| m != mv) {
        let fine = if first {
            // The first move is the only decisive one, whatever the kind.
            !mates(*s) && *s <= th.alt && *s <= score - th.gap
        } else {
            match kind {
                ProofKind::Mate => !mates(*s) || (last && *s == MATE - 1),
                ProofKind::Advantage => !mates(*s) && *s <= th.alt && *s <= score - th.gap,
            }
        };
        if !fine {
            return Err(format!(
                "`{other}` ({s}) also wins, besides `{mv}` ({score})"
            ));
        }
    }
    Ok(())
}

/// Every move of `input` searched exactly to `depth`, best first (ties keep the engine's
/// order).
fn rank(engine: &mut Engine, input: &Input, depth: u32) -> Vec<(String, i32)> {
    let mut ranked = engine.rank_moves(input, depth);
    ranked.sort_by_key(|&(_, score)| std::cmp::Reverse(score));
    ranked
}

/// The engine input of `game`'s current position alone (as a puzzle shows it: no history).
fn input_of(game: &AnyGame) -> Result<Input, String> {
    Input::from_text(game.variant(), &game.fen(), &[]).map_err(|e| e.to_string())
}

/// A fresh engine for the finder and the prover (deterministic: same input, same answer).
fn engine() -> Engine {
    let mut engine = Engine::new();
    engine.set_hash(HASH_MB);
    engine
}

/// Re-proves `puzzle` at `puzzle.proof.depth` with a fresh engine: every solver move of the
/// solution is the best and only winning move there (see the module doc), every opponent move
/// is legal, and the line ends in mate (a mate puzzle) or with a decisive score (an advantage
/// puzzle). Xiangqi, Shogi and Minishogi only.
pub fn verify(puzzle: &Puzzle) -> Result<(), String> {
    let variant = puzzle.variant;
    if variant == Variant::Jieqi {
        return Err("Jieqi puzzles are proved by the Jieqi prover".into());
    }
    let len = puzzle.solution.len();
    if len == 0 || len % 2 == 0 {
        return Err(format!(
            "the solution has {len} plies: it must end with the solver's move"
        ));
    }
    if puzzle.proof.plies as usize != len {
        return Err(format!(
            "the proof says {} plies, the solution has {len}",
            puzzle.proof.plies
        ));
    }
    if puzzle.id != Puzzle::derive_id(variant, &puzzle.position, &puzzle.solution) {
        return Err(format!(
            "the id {} is not derived from the puzzle",
            puzzle.id
        ));
    }
    let th = thresholds(variant);
    let mut game = AnyGame::analysis(variant, Some(&puzzle.position)).map_err(|e| e.to_string())?;
    let solver = game.turn();
    let mut engine = engine();
    for (i, mv) in puzzle.solution.iter().enumerate() {
        if game.outcome().is_some() {
            return Err(format!("the game is over before move {}", i + 1));
        }
        if i % 2 == 0 {
            let ranked = rank(&mut engine, &input_of(&game)?, puzzle.proof.depth);
            step(&ranked, mv, i == 0, i + 1 == len, puzzle.proof.kind, th)
                .map_err(|e| format!("move {}: {e}", i + 1))?;
        }
        game.play(mv)
            .map_err(|e| format!("move {} `{mv}`: {e}", i + 1))?;
    }
    if puzzle.proof.kind == ProofKind::Mate {
        let mated = game.outcome().is_some_and(|o| {
            o.winner == Some(solver) && matches!(o.reason, Reason::Checkmate | Reason::Stalemate)
        });
        if !mated {
            return Err("the mate line does not end in mate".into());
        }
    }
    Ok(())
}

/// The line from `fen`, if it is a puzzle at the finding depth (see the module doc).
fn line(
    fen: &str,
    variant: Variant,
    settings: &Settings,
    engine: &mut Engine,
) -> Option<(Vec<String>, ProofKind)> {
    let th = thresholds(variant);
    let mut game = AnyGame::analysis(variant, Some(fen)).ok()?;
    let mut solution: Vec<String> = Vec::new();
    let mut kind = ProofKind::Advantage;
    loop {
        let first = solution.is_empty();
        let ranked = rank(engine, &input_of(&game).ok()?, settings.find_depth);
        let (best, score) = ranked.first()?.clone();
        if first && mates(score) && mate_moves(score) <= settings.max_solver_moves {
            kind = ProofKind::Mate;
        }
        let last = kind == ProofKind::Mate && score == MATE - 1;
        if step(&ranked, &best, first, last, kind, th).is_err() {
            if first || kind == ProofKind::Mate {
                return None;
            }
            solution.pop(); // the opponent's reply: the solution ends with the solver's move
            return Some((solution, kind));
        }
        game.play(&best).ok()?;
        solution.push(best);
        if game.outcome().is_some() {
            return (kind == ProofKind::Advantage || mated_by(&game, solution.len()))
                .then_some((solution, kind));
        }
        if solution.len().div_ceil(2) >= settings.max_solver_moves {
            return (kind == ProofKind::Advantage).then_some((solution, kind));
        }
        let reply = best_at_depth(engine, &input_of(&game).ok()?, settings.find_depth);
        let Decision::Move(reply) = reply.decision else {
            return None;
        };
        game.play(&reply).ok()?;
        solution.push(reply);
        if game.outcome().is_some() {
            // The defender ended the game (a repetition, a declaration): no puzzle line.
            solution.pop();
            return (kind == ProofKind::Advantage).then_some((solution, kind));
        }
    }
}

/// Whether the solver (who moved last, `plies` being odd) mated.
fn mated_by(game: &AnyGame, plies: usize) -> bool {
    plies % 2 == 1
        && game.outcome().is_some_and(|o| {
            o.winner.is_some() && matches!(o.reason, Reason::Checkmate | Reason::Stalemate)
        })
}

/// After this many plies in a row with one side ahead by three times the winning bound (or a
/// mate score), the rest of a game is not searched.
pub const DECIDED_PLIES: usize = 6;

/// What [`find`] did, for the generator's summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FindStats {
    /// Positions screened.
    pub positions: u64,
    /// Positions the screening search found decisive.
    pub decisive: u64,
    /// Positions whose line was proposed for proof.
    pub candidates: u64,
}

/// The puzzles in `game` (Xiangqi, Shogi or Minishogi), each proved by [`verify`], themed and
/// rated. Positions from ply [`Settings::min_ply`] on are screened by one search at the finding
/// depth; a decisive one is examined with a full ranking (see the module doc).
pub fn find(game: &SourceGame, settings: &Settings) -> Vec<Puzzle> {
    find_counted(game, settings).0
}

/// [`find`], also counting positions and candidates.
pub fn find_counted(game: &SourceGame, settings: &Settings) -> (Vec<Puzzle>, FindStats) {
    let mut stats = FindStats::default();
    let mut puzzles = Vec::new();
    let variant = game.variant;
    if variant == Variant::Jieqi {
        return (puzzles, stats);
    }
    let Ok(mut board) = AnyGame::analysis(variant, Some(&game.start)) else {
        return (puzzles, stats);
    };
    let mut fens = Vec::new();
    for (ply, mv) in game.moves.iter().enumerate() {
        if board.outcome().is_some() {
            break;
        }
        fens.push((ply, board.fen()));
        if board.play(mv).is_err() {
            break;
        }
    }
    if board.outcome().is_none() {
        fens.push((game.moves.len(), board.fen()));
    }
    let th = thresholds(variant);
    let mut engine = engine();
    // The screening score of the previous position (its mover's view), and how many plies in a
    // row one side has been far ahead.
    let mut previous: Option<i32> = None;
    let mut decided = 0;
    for (ply, fen) in fens.into_iter().filter(|(p, _)| *p >= settings.min_ply) {
        let Ok(at) = AnyGame::analysis(variant, Some(&fen)) else {
            previous = None;
            continue;
        };
        if at.outcome().is_some() || at.legal_moves().is_empty() {
            break;
        }
        let Ok(input) = input_of(&at) else {
            previous = None;
            continue;
        };
        stats.positions += 1;
        let screen = best_at_depth(&mut engine, &input, settings.find_depth);
        let before = previous.replace(screen.score);
        decided = if is_mate(screen.score) || screen.score.abs() >= 3 * th.win {
            decided + 1
        } else {
            0
        };
        if decided > DECIDED_PLIES {
            break; // the game is decided: no more unique wins to find
        }
        if !decisive(screen.score, th) {
            continue;
        }
        // The puzzle follows a mistake: the solver was not already decisively ahead before
        // the opponent's last move.
        if before.is_some_and(|b| b <= -th.win) {
            continue;
        }
        stats.decisive += 1;
        let Some((solution, kind)) = line(&fen, variant, settings, &mut engine) else {
            continue;
        };
        stats.candidates += 1;
        let mut puzzle = Puzzle {
            id: Puzzle::derive_id(variant, &fen, &solution),
            variant,
            position: fen.clone(),
            proof: Proof {
                kind,
                plies: solution.len() as u32,
                depth: settings.proof_depth,
            },
            solution,
            themes: Vec::new(),
            rating: 0.0,
            source: format!("{}, ply {}", game.name, ply + 1),
        };
        if verify(&puzzle).is_err() {
            continue;
        }
        puzzle.themes = themes::detect(&puzzle);
        puzzle.rating = rating(&puzzle, settings);
        puzzles.push(puzzle);
    }
    (puzzles, stats)
}

/// The starting rating of a proved puzzle: 800, plus 200 for each ply of search beyond one
/// that a fresh full-strength engine needs before it plays the first move (searching depths
/// 1, 2, … up to the proof depth; never found counts as the proof depth plus one), plus 100
/// for each solver move beyond the first; between 600 and 2,800.
pub fn rating(puzzle: &Puzzle, settings: &Settings) -> f64 {
    let found_at =
        first_found_depth(puzzle, settings.proof_depth).unwrap_or(settings.proof_depth + 1);
    let moves = puzzle.solver_moves().max(1) as f64;
    (800.0 + 200.0 * f64::from(found_at - 1) + 100.0 * (moves - 1.0)).clamp(600.0, 2800.0)
}

/// The lowest depth (1..=`max`) at which a fresh engine plays the solution's first move.
pub fn first_found_depth(puzzle: &Puzzle, max: u32) -> Option<u32> {
    let input = Input::from_text(puzzle.variant, &puzzle.position, &[]).ok()?;
    let first = puzzle.solution.first()?;
    (1..=max).find(|&depth| {
        let mut engine = engine();
        matches!(best_at_depth(&mut engine, &input, depth).decision, Decision::Move(m) if &m == first)
    })
}
