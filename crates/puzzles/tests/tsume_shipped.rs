//! The shipped tsume file, `puzzles/shogi-tsume.jsonl` (written by
//! `cargo run -p jiang -- puzzles generate --variant shogi --tsume --games 450 --seed 1 --out puzzles/shogi-tsume.jsonl`):
//! every line reads, ids are unique, every puzzle passes `tsume::verify` (proved again from
//! scratch), replays through the trainer's verdict, and every solver move gives check.

use std::collections::{BTreeMap, HashSet};

use jiang_puzzles::{Theme, Verdict, check, read_puzzles, tsume};
use jiang_rules::Variant;
use jiang_rules::shogi::Position;

const FILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../puzzles/shogi-tsume.jsonl"
);

#[test]
fn the_shipped_tsume_are_sound() {
    let text = std::fs::read_to_string(FILE).expect("puzzles/shogi-tsume.jsonl");
    let puzzles = read_puzzles(text.as_bytes()).expect("every line is a puzzle");
    assert_eq!(puzzles.len(), text.lines().count(), "one puzzle a line");
    assert!(puzzles.len() >= 200, "{} tsume", puzzles.len());
    let mut ids = HashSet::new();
    let mut by_plies = BTreeMap::new();
    for p in &puzzles {
        assert!(ids.insert(p.id.clone()), "duplicate id {}", p.id);
        assert_eq!(p.variant, Variant::Shogi);
        assert!(p.themes.contains(&Theme::Tsume), "{}", p.id);
        tsume::verify(p).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        *by_plies.entry(p.solution.len()).or_insert(0) += 1;
        // Every solver move checks.
        let mut pos = Position::from_sfen(Variant::Shogi, &p.position).unwrap();
        for (i, mv) in p.solution.iter().enumerate() {
            let m = pos.parse_move(mv).unwrap();
            pos.play(m);
            if i % 2 == 0 {
                assert!(
                    pos.is_check(),
                    "{} move {}: {mv} does not check",
                    p.id,
                    i + 1
                );
            }
        }
        // The trainer: each solver move is right (with the recorded reply), the last solves.
        for at in (0..p.solution.len()).step_by(2) {
            let verdict = check(p, &p.solution[..at], &p.solution[at]).unwrap();
            match verdict {
                Verdict::Right { reply, .. } => assert_eq!(reply, p.solution[at + 1]),
                Verdict::Solved { .. } => assert_eq!(at + 1, p.solution.len(), "{}", p.id),
                Verdict::Wrong => panic!("{}: move {} judged wrong", p.id, at + 1),
            }
        }
    }
    // The lengths are mixed: mate in 1, 3, 5 and 7 plies.
    for plies in [1, 3, 5, 7] {
        assert!(
            by_plies.get(&plies).copied().unwrap_or(0) >= 40,
            "{by_plies:?}"
        );
    }
    println!("{} tsume, by plies: {by_plies:?}", puzzles.len());
}
