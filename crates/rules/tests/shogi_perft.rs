//! Perft against the published counts of `../shared/rules/README.md` (bulk counting at the
//! last ply; promotion and non-promotion separate; pawn-drop mates are not moves).

use jiang_rules::Variant;
use jiang_rules::shogi::Position;

const MIDGAME: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";

fn perft(variant: Variant, sfen: &str, depth: u32) -> u64 {
    Position::from_sfen(variant, sfen).unwrap().perft(depth)
}

/// Checks the perft of `sfen` at depths 1, 2, … against `expected`.
fn perft_from_depth_1(variant: Variant, sfen: &str, expected: &[u64]) {
    for (depth, &n) in (1..).zip(expected) {
        assert_eq!(
            perft(variant, sfen, depth),
            n,
            "{variant:?} {sfen} depth {depth}"
        );
    }
}

#[test]
fn shogi_start_to_depth_4() {
    perft_from_depth_1(Variant::Shogi, "startpos", &[30, 900, 25470, 719731]);
}

#[test]
#[ignore = "depth 5 and 6: run with --ignored --release"]
fn shogi_start_depth_5_and_6() {
    assert_eq!(perft(Variant::Shogi, "startpos", 5), 19861490);
    assert_eq!(perft(Variant::Shogi, "startpos", 6), 547581517);
}

#[test]
fn shogi_midgame_to_depth_3() {
    perft_from_depth_1(Variant::Shogi, MIDGAME, &[207, 28684, 4809015]);
}

#[test]
fn shogi_midgame_depth_4() {
    assert_eq!(perft(Variant::Shogi, MIDGAME, 4), 516925165);
}

#[test]
fn minishogi_start_to_depth_6() {
    perft_from_depth_1(
        Variant::Minishogi,
        "startpos",
        &[14, 181, 2512, 35401, 533203, 8276188],
    );
}

/// The README gives 132680698 for minishogi depth 7. That figure counts 81 pawn drops that
/// mate at the last ply (uchifuzume, illegal by shogi.md and by the issue: "pawn-drop mates
/// are not moves"); Jiang's generator and its independent slow reference both exclude them,
/// giving 132680698 − 81. The unit test `minishogi_depth6_uchifuzume_count` (in
/// `src/shogi/tests.rs`) counts those 81 drops.
#[test]
#[ignore = "depth 7: run with --ignored --release"]
fn minishogi_start_depth_7() {
    assert_eq!(perft(Variant::Minishogi, "startpos", 7), 132680698 - 81);
}

#[test]
fn handicap_starts_have_gote_to_move() {
    // Lance handicap: gote (the uwate) moves first, with one lance fewer.
    let pos = Position::from_sfen(
        Variant::Shogi,
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    )
    .unwrap();
    // The 1a lance's move 1a1b is gone, the bishop's 2b1a is new.
    assert_eq!(pos.perft(1), 30);
    let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    assert!(moves.contains(&"2b1a".to_owned()) && !moves.contains(&"1a1b".to_owned()));
}
