//! The engine on tsume positions without the attacker's king (shogi.md: valid for analysis):
//! the alpha-beta search and the `go mate` solver neither panic nor miss the mate.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use jiang_engine::engine::best_at_depth;
use jiang_engine::mate::{MateAnswer, solve};
use jiang_engine::{Decision, Engine, Input};
use jiang_rules::Variant;
use jiang_rules::shogi::Position;

/// `taichitsume` of the interop corpus (Kifu for Windows): mate in 7.
const TAICHI: &str = "6+Pnl/6Sk1/6sp1/9/8P/9/9/9/9 b GS2r2b3g1s3n3l15p 1";
/// `kifu_for_iphone` of the corpus: mate in 3 (5二馬 同銀 6二銀打).
const IPHONE: &str = "3sks3/9/4+P4/6+B2/9/9/9/9/9 b S2r1b4g1s4n4l17p 1";

fn replay_mate(sfen: &str, line: &[String]) {
    let mut p = Position::from_sfen(Variant::Shogi, sfen).unwrap();
    for (i, mv) in line.iter().enumerate() {
        let m = p.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        p.play(m);
        if i % 2 == 0 {
            assert!(p.is_check(), "attacker's move {mv} gives check");
        }
    }
    assert!(
        p.is_check() && p.legal_moves().is_empty(),
        "mated at the end"
    );
}

#[test]
fn go_mate_solves_kingless_tsume() {
    for (sfen, plies) in [(IPHONE, 3), (TAICHI, 7)] {
        let p = Position::from_sfen(Variant::Shogi, sfen).unwrap();
        match solve(&p, Some(Duration::from_secs(60)), &AtomicBool::new(false)) {
            MateAnswer::Mate(line) => {
                assert_eq!(line.len(), plies, "{sfen}: {line:?}");
                replay_mate(sfen, &line);
            }
            other => panic!("{sfen}: {other:?}"),
        }
    }
    // The record's line, or its mirror (either silver takes the horse).
    let iphone = Position::from_sfen(Variant::Shogi, IPHONE).unwrap();
    let answer = solve(
        &iphone,
        Some(Duration::from_secs(60)),
        &AtomicBool::new(false),
    );
    let mirror = |a: &str, b: &str| MateAnswer::Mate(vec!["3d5b".into(), a.into(), b.into()]);
    assert!(
        answer == mirror("6a5b", "S*6b") || answer == mirror("4a5b", "S*4b"),
        "{answer:?}"
    );
    // A lone gold in hand: every check is answered by taking the gold, then the checks run
    // out: no mate (and no panic).
    let p =
        Position::from_sfen(Variant::Shogi, "4k4/9/9/9/9/9/9/9/9 b G2r2b3g4s4n4l18p 1").unwrap();
    assert_eq!(
        solve(&p, Some(Duration::from_secs(60)), &AtomicBool::new(false)),
        MateAnswer::NoMate
    );
}

#[test]
fn the_search_plays_kingless_tsume_for_both_sides() {
    let mut engine = Engine::new();
    // The attacker to move finds the mate in 3.
    let input = Input::from_text(Variant::Shogi, IPHONE, &[]).unwrap();
    let thought = best_at_depth(&mut engine, &input, 5);
    assert_eq!(
        thought.decision,
        Decision::Move("3d5b".into()),
        "{thought:?}"
    );
    assert!(
        jiang_engine::score::is_mate(thought.score) && thought.score > 0,
        "a mate score: {}",
        thought.score
    );
    // The defender to move (the attacker has no king to attack) searches too.
    let input = Input::from_text(Variant::Shogi, TAICHI, &["S*1c"]).unwrap();
    let thought = best_at_depth(&mut engine, &input, 4);
    assert!(matches!(thought.decision, Decision::Move(_)), "{thought:?}");
    // A minishogi tsume as well, and a position where the attacker has nothing left.
    let input = Input::from_text(Variant::Minishogi, "2k2/5/2P2/5/5 b G 1", &[]).unwrap();
    let thought = best_at_depth(&mut engine, &input, 3);
    assert_eq!(
        thought.decision,
        Decision::Move("G*3b".into()),
        "{thought:?}"
    );
    let input = Input::from_text(Variant::Shogi, "4k4/9/9/9/9/9/9/9/9 b - 1", &[]).unwrap();
    let thought = best_at_depth(&mut engine, &input, 3);
    assert_eq!(thought.decision, Decision::Resign);
}
