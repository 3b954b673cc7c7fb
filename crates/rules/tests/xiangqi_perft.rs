//! Perft counts from `../shared/rules/README.md` (bulk counting at the last ply). Depth 5 and
//! 6 are `#[ignore]`d: run them with `cargo test -p jiang-rules --release -- --ignored`.

use jiang_rules::Variant;
use jiang_rules::xiangqi::Position;

const MIDGAME: &str = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";

fn perft(fen: &str, depth: u32) -> u64 {
    Position::parse_fen(Variant::Xiangqi, fen)
        .unwrap()
        .perft(depth)
}

#[test]
fn start_to_depth_4() {
    let expected = [1, 44, 1920, 79666, 3290240];
    for (depth, &nodes) in expected.iter().enumerate() {
        assert_eq!(perft("startpos", depth as u32), nodes, "depth {depth}");
    }
}

#[test]
fn midgame_to_depth_4() {
    let expected = [1, 38, 1128, 43929, 1339047];
    for (depth, &nodes) in expected.iter().enumerate() {
        assert_eq!(perft(MIDGAME, depth as u32), nodes, "depth {depth}");
    }
}

#[test]
#[ignore = "slow in debug: run with --release -- --ignored"]
fn start_depth_5() {
    assert_eq!(perft("startpos", 5), 133_312_995);
}

#[test]
#[ignore = "slow in debug: run with --release -- --ignored"]
fn midgame_depth_5() {
    assert_eq!(perft(MIDGAME, 5), 53_112_976);
}

#[test]
#[ignore = "very slow: a minute or more even in release"]
fn start_depth_6() {
    assert_eq!(perft("startpos", 6), 5_392_831_844);
}

#[test]
fn perft_equals_the_sum_over_legal_moves() {
    // The bulk-counted perft and a plain walk over `legal_moves` agree, in both variants.
    for (variant, fen) in [
        (Variant::Xiangqi, MIDGAME),
        (Variant::Jieqi, "startpos"),
        (
            Variant::Jieqi,
            "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/4C4/X1X1X1X1X/1X7/9/XXXXKXXXX b A2B2N2R2C1P5a2b2n2r2c2p5 0 1",
        ),
    ] {
        let position = Position::parse_fen(variant, fen).unwrap();
        let walked: u64 = position
            .legal_moves()
            .into_iter()
            .map(|mv| position.after(mv).perft(2))
            .sum();
        assert_eq!(position.perft(3), walked, "{fen}");
    }
}

#[test]
fn jieqi_perft_branches_over_the_pool() {
    // From the Jieqi start the same 44 from-to moves as in Xiangqi exist; all but the
    // general's e0e1 move a covered piece and branch over the six identities of Red's pool.
    let start = Position::parse_fen(Variant::Jieqi, "startpos").unwrap();
    let general_moves = start
        .legal_moves()
        .iter()
        .filter(|mv| mv.reveal().is_none())
        .count();
    assert_eq!(general_moves, 1);
    assert_eq!(start.perft(1), 43 * 6 + 1);
    // With only a chariot and a soldier left in Red's pool, each covered move branches twice.
    let narrow = Position::parse_fen(
        Variant::Jieqi,
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X6/9/9/4K4 w R1P1a2b2n2r2c2p5 0 1",
    )
    .unwrap();
    let mut reveals: Vec<String> = narrow
        .legal_moves()
        .iter()
        .filter(|mv| mv.reveal().is_some())
        .map(|mv| mv.to_string())
        .collect();
    reveals.sort();
    assert_eq!(reveals, ["a3a4P", "a3a4R", "c3c4P", "c3c4R"]);
    // The general has e0d0, e0e1, e0f0 besides.
    assert_eq!(narrow.perft(1), 4 + 3);
}
