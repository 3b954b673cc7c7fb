//! The shipped Jieqi puzzles (`puzzles/jieqi.jsonl`): every one reads, is unique, is proven
//! again whatever the covered pieces are, replays through the trainer's verdict, and shows no
//! covered identity in its position.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use jiang_puzzles::jieqi::verify;
use jiang_puzzles::{Puzzle, Verdict, check, read_puzzles};
use jiang_rules::Variant;
use jiang_rules::xiangqi::{FULL_SET, Occupant, PieceKind, Position};

fn shipped() -> Vec<Puzzle> {
    // `JIANG_JIEQI_PUZZLES` checks another file the same way (a generator's output).
    let path = match std::env::var_os("JIANG_JIEQI_PUZZLES") {
        Some(path) => PathBuf::from(path),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../puzzles/jieqi.jsonl"),
    };
    let file = std::fs::File::open(&path).expect("puzzles/jieqi.jsonl is shipped");
    read_puzzles(std::io::BufReader::new(file)).expect("every line is a puzzle")
}

/// The position holds only public information: covered pieces as `X`/`x`, and pools that could
/// be the public ones (at most the full set minus the revealed pieces on the board, at least as
/// many as the covered pieces).
fn assert_public(puzzle: &Puzzle) {
    let pos = Position::parse_fen(Variant::Jieqi, &puzzle.position).expect("a Jieqi FEN");
    assert_eq!(
        pos.to_fen(),
        puzzle.position,
        "{}: canonical form",
        puzzle.id
    );
    let board = puzzle.position.split(' ').next().unwrap_or("");
    assert!(
        board
            .chars()
            .all(|c| c == '/' || c.is_ascii_digit() || "xXkKaAbBnNrRcCpP".contains(c)),
        "{}",
        puzzle.id
    );
    for side in jiang_rules::Side::BOTH {
        let pool = pos.pool(side);
        assert!(pool.total() >= pos.covered_count(side), "{}", puzzle.id);
        for kind in PieceKind::ALL {
            let revealed = pos
                .occupants()
                .filter(
                    |(_, o)| matches!(o, Occupant::Piece(p) if p.side == side && p.kind == kind),
                )
                .count() as u8;
            assert!(
                pool.count(kind) + revealed <= FULL_SET[kind.index()],
                "{}: the pool of {kind:?} is not the public one",
                puzzle.id
            );
        }
    }
}

/// The trainer accepts the solution: each solver move is right (and gets the stored reply),
/// the last one solves.
fn assert_replays(puzzle: &Puzzle) {
    let mut line: Vec<String> = Vec::new();
    for (i, recorded) in puzzle.solution.iter().enumerate().step_by(2) {
        let sent = &recorded[..4];
        match check(puzzle, &line, sent) {
            Ok(Verdict::Right { played, reply }) => {
                assert_eq!(&played, recorded, "{}", puzzle.id);
                assert_eq!(Some(&reply), puzzle.solution.get(i + 1), "{}", puzzle.id);
                line.push(sent.to_owned());
                line.push(reply);
            }
            Ok(Verdict::Solved { played }) => {
                assert_eq!(&played, recorded, "{}", puzzle.id);
                assert_eq!(i + 1, puzzle.solution.len(), "{}", puzzle.id);
            }
            other => panic!("{}: move {} gave {other:?}", puzzle.id, i + 1),
        }
    }
}

#[test]
fn every_shipped_jieqi_puzzle_is_unique_proven_and_replays() {
    let started = Instant::now();
    let puzzles = shipped();
    let mut ids = HashSet::new();
    let mut positions = HashSet::new();
    for puzzle in &puzzles {
        assert_eq!(puzzle.variant, Variant::Jieqi);
        assert!(ids.insert(puzzle.id.clone()), "duplicate id {}", puzzle.id);
        assert!(
            positions.insert(puzzle.position.clone()),
            "duplicate position {}",
            puzzle.id
        );
        assert_public(puzzle);
        verify(puzzle).unwrap_or_else(|e| panic!("{}: {e}", puzzle.id));
        assert_replays(puzzle);
    }
    eprintln!(
        "{} Jieqi puzzles verified in {:.1} s",
        puzzles.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(puzzles.len() >= 500, "only {} puzzles", puzzles.len());
    // Made with `--mates-in-one-percent 33` (docs/puzzles.md): a set of mostly one-move mates
    // would be solved by the weakest player.
    let mates_in_one = puzzles.iter().filter(|p| p.proof.plies == 1).count();
    assert!(
        mates_in_one * 100 <= puzzles.len() * 34,
        "{mates_in_one} of {} are mates in one",
        puzzles.len()
    );
}
