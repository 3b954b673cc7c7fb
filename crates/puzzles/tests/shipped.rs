//! The shipped puzzle sets (`puzzles/*.jsonl`): every line reads, ids and positions are
//! unique, every puzzle is proved again at its proof depth ([`standard::verify`]) and replays
//! through the trainer's verdict ([`check`]). And the finder on hand-made positions.

use std::collections::HashSet;
use std::io::BufReader;
use std::path::PathBuf;
use std::time::Instant;

use jiang_puzzles::generate::{Settings, position_key};
use jiang_puzzles::{ProofKind, Puzzle, SourceGame, Verdict, check, read_puzzles, standard};
use jiang_rules::Variant;

/// The smallest shipped set of a variant the issue asks for.
const MIN_SET: usize = 500;

/// Shogi's game puzzles are dear to find (a few hundred an hour of CPU, docs/puzzles.md): the
/// shipped file holds at least this many, and the variant's 500 are made up with the shipped tsume
/// (`shogi-tsume.jsonl`, checked by `tsume_shipped.rs`).
const SHOGI_GAME_SET: usize = 200;

fn shipped(name: &str) -> Vec<Puzzle> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../puzzles")
        .join(name);
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    read_puzzles(BufReader::new(file)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The solution replays move by move through the trainer: each solver move is right and
/// answered with the solution's reply, the last one solves.
fn replays(puzzle: &Puzzle) -> Result<(), String> {
    let mut line: Vec<String> = Vec::new();
    for (i, mv) in puzzle.solution.iter().enumerate().step_by(2) {
        let verdict = check(puzzle, &line, mv).map_err(|e| e.to_string())?;
        match (verdict, puzzle.solution.get(i + 1)) {
            (Verdict::Solved { .. }, None) => return Ok(()),
            (Verdict::Right { played, reply }, Some(expected)) if &reply == expected => {
                line.push(played);
                line.push(reply);
            }
            (other, _) => return Err(format!("move {}: {other:?}", i + 1)),
        }
    }
    Err("the solution never solves".into())
}

fn check_set(name: &str, variant: Variant, min: usize) {
    let puzzles = shipped(name);
    let started = Instant::now();
    assert!(
        puzzles.len() >= min,
        "{name}: {} puzzles, fewer than {min}",
        puzzles.len()
    );
    let mut ids = HashSet::new();
    let mut positions = HashSet::new();
    let mut failures = Vec::new();
    for puzzle in &puzzles {
        assert_eq!(puzzle.variant, variant, "{}", puzzle.id);
        assert!(
            ids.insert(puzzle.id.clone()),
            "{name}: id {} twice",
            puzzle.id
        );
        assert!(
            positions.insert(position_key(&puzzle.position)),
            "{name}: position of {} twice",
            puzzle.id
        );
        assert!(!puzzle.themes.is_empty(), "{}", puzzle.id);
        if let Err(e) = standard::verify(puzzle) {
            failures.push(format!("{}: {e}", puzzle.id));
        }
        if let Err(e) = replays(puzzle) {
            failures.push(format!("{} does not replay: {e}", puzzle.id));
        }
    }
    eprintln!(
        "{name}: {} puzzles verified in {:.1} s",
        puzzles.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(failures.is_empty(), "{name}: {failures:#?}");
}

#[test]
fn the_xiangqi_set_is_proved() {
    check_set("xiangqi.jsonl", Variant::Xiangqi, MIN_SET);
}

#[test]
fn the_shogi_set_is_proved() {
    check_set("shogi.jsonl", Variant::Shogi, SHOGI_GAME_SET);
    let all = shipped("shogi.jsonl").len() + shipped("shogi-tsume.jsonl").len();
    assert!(
        all >= MIN_SET,
        "shogi: {all} puzzles in all, fewer than {MIN_SET}"
    );
}

#[test]
fn the_minishogi_set_is_proved() {
    check_set("minishogi.jsonl", Variant::Minishogi, MIN_SET);
}

/// The game of one position (no moves), every ply searched.
fn position(variant: Variant, fen: &str) -> (SourceGame, Settings) {
    let game = SourceGame {
        variant,
        start: fen.into(),
        moves: Vec::new(),
        name: "test".into(),
    };
    let settings = Settings {
        min_ply: 0,
        ..Settings::for_variant(variant)
    };
    (game, settings)
}

#[test]
fn a_unique_mate_is_found_and_proved() {
    // Red's chariot g0–g9 mates (the pawn on d7 holds d8; Black has far more material, so
    // nothing else wins).
    let fen = "3k5/9/3P5/1nn6/1rr6/9/9/9/9/5KR2 w - - 0 1";
    let (game, settings) = position(Variant::Xiangqi, fen);
    let found = standard::find(&game, &settings);
    assert_eq!(found.len(), 1, "{found:?}");
    let puzzle = &found[0];
    assert_eq!(puzzle.solution, ["g0g9"]);
    assert_eq!(puzzle.proof.kind, ProofKind::Mate);
    assert_eq!(puzzle.proof.depth, settings.proof_depth);
    assert!(puzzle.proof.depth > settings.find_depth);
    assert!(standard::verify(puzzle).is_ok());
    replays(puzzle).unwrap();
    // A tampered solution is refused.
    let mut wrong = puzzle.clone();
    wrong.solution = vec!["g0g8".into()];
    wrong.id = Puzzle::derive_id(wrong.variant, &wrong.position, &wrong.solution);
    assert!(standard::verify(&wrong).is_err());
}

#[test]
fn two_winning_moves_make_no_puzzle() {
    // With the red king on e0, g0–g9 and g0–d0 both mate (and a8–a9 mates later).
    let fen = "3k5/R8/9/1nn6/1rr6/9/9/9/9/4K1R2 w - - 0 1";
    let (game, settings) = position(Variant::Xiangqi, fen);
    assert_eq!(standard::find(&game, &settings), Vec::<Puzzle>::new());
}

#[test]
fn a_quiet_position_makes_no_puzzle() {
    for variant in [Variant::Xiangqi, Variant::Shogi, Variant::Minishogi] {
        let start = jiang_rules::AnyGame::analysis(variant, None).unwrap().fen();
        let (game, settings) = position(variant, &start);
        assert_eq!(
            standard::find(&game, &settings),
            Vec::<Puzzle>::new(),
            "{variant:?}"
        );
    }
}
