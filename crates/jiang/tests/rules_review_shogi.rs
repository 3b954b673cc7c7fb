//! Rules review (independent QA): hand-built Shogi and Minishogi positions for the awkward rules
//! of `/work/shared/rules/shogi.md`, checked through the public CLI contract (`jiang outcome`
//! and `jiang moves`), i.e. what players and other programs see.
//!
//! Every position was drawn on paper; each comment explains the board and why the verdict
//! follows from the rules file. Squares are USI: file 1–9 from sente's right, rank a (gote's
//! back rank) to i. Sennichite ends on the FOURTH occurrence: a 4-ply cycle played 3 times.

mod common;

use common::{
    assert_cycle_verdict, assert_illegal, assert_outcome, assert_verdict_exactly_at, moves,
};

const SG: &str = "shogi";
const MS: &str = "minishogi";

/// Gote K 1a; sente G 2c (covers 1b, 2b, 3b), N 3c (covers 2a, 4a), K 9i.
const MATING_NET: &str = "8k/9/6NG1/9/9/9/9/9/K8";

// ---------------------------------------------------------------------------------------------
// Drops: uchifuzume, nifu, dead drops
// ---------------------------------------------------------------------------------------------

/// Uchifuzume (Drops 3): P*1b checks 1a; 1b is protected by G 2c, 2a is covered by the
/// knight, 2b by the gold, gote has nothing else → it would be mate by a pawn DROP → illegal,
/// and `jiang moves` does not offer it (it offers P*1c, which is no check).
#[test]
fn pawn_drop_mate_is_illegal_and_not_listed() {
    let fen = format!("{MATING_NET} b P 1");
    assert_illegal(SG, &format!("{fen} moves P*1b"), 1, "");
    let list = moves(SG, &fen);
    assert!(!list.contains(&"P*1b".to_owned()), "{list:?}");
    assert!(list.contains(&"P*1c".to_owned()), "{list:?}");
    // Dead drop on the last rank is not offered either.
    assert!(!list.contains(&"P*1a".to_owned()), "{list:?}");
}

/// Mating by dropping another piece is fine: G*1b (covers 1a, 2a, 2b; protected by G 2c) and
/// L*1b (attacks 1a; 2a knight, 2b gold, protected) both mate → `1-0 checkmate`.
#[test]
fn drop_mate_by_another_piece_is_legal() {
    assert_outcome(
        SG,
        &format!("{MATING_NET} b G 1 moves G*1b"),
        "1-0 checkmate",
    );
    assert_outcome(
        SG,
        &format!("{MATING_NET} b L 1 moves L*1b"),
        "1-0 checkmate",
    );
}

/// Mating by a pawn MOVE is fine: the pawn on 1c steps to 1b (no forced promotion on rank b)
/// → same net, `1-0 checkmate`.
#[test]
fn pawn_move_mate_is_legal() {
    assert_outcome(
        SG,
        "8k/9/6NGP/9/9/9/9/9/K8 b - 1 moves 1c1b",
        "1-0 checkmate",
    );
}

/// A pawn-drop CHECK that is not mate is legal: without the knight, the king escapes to 2a.
/// With a gote gold on 2a (which may capture the pawn on 1b) it is not mate either; but when
/// that gold is pinned on rank a by a sente rook on 5a, capturing is illegal → mate →
/// uchifuzume → illegal.
#[test]
fn pawn_drop_check_without_mate_is_legal() {
    assert_outcome(SG, "8k/9/7G1/9/9/9/9/9/K8 b P 1 moves P*1b", "* ongoing");
    assert_outcome(SG, "7gk/9/6NG1/9/9/9/9/9/K8 b P 1 moves P*1b", "* ongoing");
    assert_illegal(SG, "4R2gk/9/6NG1/9/9/9/9/9/K8 b P 1 moves P*1b", 1, "");
}

/// Uchifuzume when the pawn's protector is itself pinned: gote K 1a, gote lance 2a; sente G 2c
/// is pinned on file 2 against sente K 2i by that lance, but a pinned piece still attacks: the
/// king may not take on 1b, 2a is its own lance, 2b is covered → P*1b is mate → illegal.
#[test]
fn uchifuzume_with_a_pinned_protector() {
    assert_illegal(SG, "7lk/9/7G1/9/9/9/9/9/7K1 b P 1 moves P*1b", 1, "");
}

/// Gote's uchifuzume, mirrored: sente K 9i; gote G 8g (covers 8h, 9h), N 7g (covers 8i).
/// Gote's P*9h would mate → illegal and not listed; G*9h mates legally → `0-1 checkmate`.
#[test]
fn gote_pawn_drop_mate_is_illegal() {
    let fen = "8k/9/9/9/9/9/1gn6/9/K8 w p 1";
    assert_illegal(SG, &format!("{fen} moves P*9h"), 1, "");
    assert!(!moves(SG, fen).contains(&"P*9h".to_owned()));
    assert_outcome(
        SG,
        "8k/9/9/9/9/9/1gn6/9/K8 w g 1 moves G*9h",
        "0-1 checkmate",
    );
}

/// A dropped piece cannot promote on the drop (`S*2b+` is refused) but may on a later move:
/// S*3c, then 3c2b+ (starts and ends in the zone).
#[test]
fn dropped_piece_promotes_later() {
    let fen = "8k/9/9/9/9/9/9/9/K8 b S 1";
    assert_illegal(SG, &format!("{fen} moves S*2b+"), 1, "");
    assert_outcome(SG, &format!("{fen} moves S*3c 1a1b 3c2b+"), "* ongoing");
}

/// Nifu (Drops 1): sente pawn on 5g → P*5e illegal, P*4e fine; a tokin on 5g does not count.
#[test]
fn nifu_counts_unpromoted_pawns_only() {
    let fen = "4k4/9/9/9/9/9/4P4/9/4K4 b P 1";
    assert_illegal(SG, &format!("{fen} moves P*5e"), 1, "");
    assert_outcome(SG, &format!("{fen} moves P*4e"), "* ongoing");
    assert!(!moves(SG, fen).iter().any(|m| m.starts_with("P*5")));
    let fen = "4k4/9/9/9/9/9/4+P4/9/4K4 b P 1";
    assert_outcome(SG, &format!("{fen} moves P*5e"), "* ongoing");
    assert!(moves(SG, fen).contains(&"P*5e".to_owned()));
    // Only the dropper's own pawns count: a gote pawn on 5c does not stop sente's P*5e.
    assert_outcome(SG, "4k4/9/4p4/9/9/9/9/9/4K4 b P 1 moves P*5e", "* ongoing");
}

/// Dead drops (Drops 2), both sides (USI drops use the uppercase letter for both).
#[test]
fn dead_drops_are_illegal() {
    let fen = "4k4/9/9/9/9/9/9/9/4K4 b NLP 1";
    for bad in ["P*1a", "L*1a", "N*1a", "N*1b"] {
        assert_illegal(SG, &format!("{fen} moves {bad}"), 1, "");
    }
    for good in ["P*1b", "L*1b", "N*1c"] {
        assert_outcome(SG, &format!("{fen} moves {good}"), "* ongoing");
    }
    let fen = "4k4/9/9/9/9/9/9/9/4K4 w nlp 1";
    for bad in ["P*1i", "L*1i", "N*1i", "N*1h"] {
        assert_illegal(SG, &format!("{fen} moves {bad}"), 1, "");
    }
    assert_outcome(SG, &format!("{fen} moves N*1g"), "* ongoing");
}

/// A captured tokin goes to the hand as a pawn: 5f5e takes the gote +P, and P*1e can then be
/// dropped (file 1 has no sente pawn).
#[test]
fn captured_promoted_piece_returns_unpromoted() {
    let fen = "4k4/9/9/9/4+p4/4P4/9/9/4K4 b - 1";
    assert_outcome(SG, &format!("{fen} moves 5f5e 5a4a P*1e"), "* ongoing");
}

// ---------------------------------------------------------------------------------------------
// Promotion
// ---------------------------------------------------------------------------------------------

/// Gote K 5a; sente K 5i, P 1b, L 9c, S 7c, N 3d. Forced: pawn to 1a, lance to 9a, knight to
/// 2b/4b (last two ranks) — only the `+` move exists. Optional: lance 9c→9b, silver moves
/// into, inside and OUT OF the zone (7c→6d/8d starts in the zone) — both forms listed.
#[test]
fn forced_and_optional_promotion() {
    let fen = "4k4/8P/L1S6/6N2/9/9/9/9/4K4 b - 1";
    let list = moves(SG, fen);
    let has = |m: &str| list.iter().any(|x| x == m);
    for forced in ["1b1a", "9c9a", "3d2b", "3d4b"] {
        assert!(has(&format!("{forced}+")), "{forced}+ in {list:?}");
        assert!(!has(forced), "{forced} must not be listed: {list:?}");
        assert_illegal(SG, &format!("{fen} moves {forced}"), 1, "");
    }
    for optional in ["9c9b", "7c7b", "7c6b", "7c8b", "7c6d", "7c8d"] {
        assert!(has(optional), "{optional} in {list:?}");
        assert!(has(&format!("{optional}+")), "{optional}+ in {list:?}");
    }
    // King and gold never promote, even entering the zone.
    let fen = "8k/9/9/G8/9/9/9/9/K8 b - 1";
    assert_illegal(SG, &format!("{fen} moves 9d9c+"), 1, "");
    assert!(moves(SG, fen).contains(&"9d9c".to_owned()));
    assert!(!moves(SG, fen).contains(&"9d9c+".to_owned()));
    assert_illegal(SG, "8k/9/9/4K4/9/9/9/9/9 b P 1 moves 5d5c+", 1, "");
    // Gote: a knight reaching rank h (8f7h) must promote.
    let fen = "4k4/9/9/9/9/1n7/9/9/4K4 w - 1";
    assert_illegal(SG, &format!("{fen} moves 8f7h"), 1, "");
    assert_outcome(SG, &format!("{fen} moves 8f7h+"), "* ongoing");
    // Gote: a pawn reaching rank i must promote.
    let fen = "4k4/9/9/9/9/9/9/8p/4K4 w - 1";
    assert_illegal(SG, &format!("{fen} moves 1h1i"), 1, "");
    assert_outcome(SG, &format!("{fen} moves 1h1i+"), "* ongoing");
}

// ---------------------------------------------------------------------------------------------
// End of the game: stalemate, sennichite, perpetual check, bare kings, length cap
// ---------------------------------------------------------------------------------------------

/// No legal moves without check loses (End 1): the mating net with gote to move and no hand —
/// 1a is not attacked, 1b/2b covered by the gold, 2a by the knight → `1-0 stalemate`.
#[test]
fn stalemate_loses() {
    assert_outcome(SG, &format!("{MATING_NET} w - 1"), "1-0 stalemate");
    assert_outcome(
        SG,
        &format!("{MATING_NET} b - 1 moves 9i9h"),
        "1-0 stalemate",
    );
}

/// Sennichite (End 2): rooks 2h3h 8b7b 3h2h 7b8b from the start, no checks. The start position
/// occurs again after 4, 8, 12 plies: the 3rd occurrence goes on, the 4th is a draw.
#[test]
fn sennichite_on_the_fourth_occurrence() {
    let cyc = "2h3h 8b7b 3h2h 7b8b";
    assert_cycle_verdict(SG, "startpos", cyc, 2, "* ongoing");
    assert_verdict_exactly_at(SG, "startpos", cyc, 3, "1/2-1/2 repetition");
}

/// Perpetual check: sente R 9b; gote K 1a. 9b9a+ (rank a), 1a1b, 9a9b+ (rank b), 1b1a.
/// Every sente move checks → on the 4th occurrence sente loses.
#[test]
fn perpetual_check_loses_for_the_checker() {
    let fen = "8k/R8/9/9/9/9/9/9/4K4 b - 1";
    let cyc = "9b9a 1a1b 9a9b 1b1a";
    assert_cycle_verdict(SG, fen, cyc, 2, "* ongoing");
    assert_cycle_verdict(SG, fen, cyc, 3, "0-1 perpetual-check");
    // Mirror for gote: gote R 9h checks sente K 1i on ranks i and h → gote loses.
    let fen = "4k4/9/9/9/9/9/9/r8/8K w - 1";
    assert_cycle_verdict(SG, fen, "9h9i 1i1h 9i9h 1h1i", 3, "1-0 perpetual-check");
}

/// The checks are judged since the FIRST occurrence: a quiet first loop (9b8b 1a2a 8b9b 2a1a)
/// then two checking loops reach the 4th occurrence; sente did not check with every move since
/// the first occurrence → plain draw.
#[test]
fn perpetual_check_is_judged_from_the_first_occurrence() {
    let fen = "8k/R8/9/9/9/9/9/9/4K4 b - 1";
    let checks = "9b9a 1a1b 9a9b 1b1a";
    let line = format!("{fen} moves 9b8b 1a2a 8b9b 2a1a {checks} {checks}");
    assert_outcome(SG, &line, "1/2-1/2 repetition");
}

/// Bare kings (End 3) → draw (the rules name no reason; we check the result only). A pawn in a
/// hand is not bare.
#[test]
fn bare_kings_draw() {
    let verdict = common::outcome(SG, "4k4/9/9/9/9/9/9/9/4K4 b - 1");
    assert!(verdict.starts_with("1/2-1/2 "), "{verdict}");
    assert_outcome(SG, "4k4/9/9/9/9/9/9/9/4K4 b P 1", "* ongoing");
}

/// Length cap (End 4): the SFEN ply field is the number of the NEXT move. From ply 699 the
/// first move played is the 699th (ongoing), the second the 700th (draw); from ply 700 one move.
#[test]
fn length_cap_at_700_moves() {
    let fen = "4k4/9/9/9/9/9/9/9/4K4 b P 699";
    assert_outcome(SG, &format!("{fen} moves 5i4i"), "* ongoing");
    assert_outcome(SG, &format!("{fen} moves 5i4i 5a4a"), "1/2-1/2 move-limit");
    let fen = "4k4/9/9/9/9/9/9/9/4K4 b P 700";
    assert_outcome(SG, &format!("{fen} moves 5i4i"), "1/2-1/2 move-limit");
}

/// Order of the end checks (End 1, 2 before 4): from ply 689 the perpetual-check cycle reaches
/// its 4th occurrence with the 700th move → `0-1 perpetual-check`, not `move-limit`; a drop
/// mate played as the 700th move is `checkmate`.
#[test]
fn sennichite_and_mate_come_before_the_length_cap() {
    let fen = "8k/R8/9/9/9/9/9/9/4K4 b - 689";
    assert_cycle_verdict(SG, fen, "9b9a 1a1b 9a9b 1b1a", 3, "0-1 perpetual-check");
    assert_outcome(
        SG,
        &format!("{MATING_NET} b G 700 moves G*1b"),
        "1-0 checkmate",
    );
}

// ---------------------------------------------------------------------------------------------
// Impasse (27-point declaration), through the `win` token
// ---------------------------------------------------------------------------------------------

/// Sente K 5b, R 9b, B 1b, pawns 9c–2c (10 pieces in the zone: 5+5+8 = 18 points) and R + 5P in
/// hand (10 points) = 28, not in check (gote has only its king on 5i) → `1-0 impasse`.
/// Each condition failing alone → `illegal 1 <which>`.
#[test]
fn impasse_declaration_by_sente() {
    assert_outcome(
        SG,
        "9/R3K3B/PPPPPPPP1/9/9/9/9/9/4k4 b R5P 1 moves win",
        "1-0 impasse",
    );
    // A successful declaration ends the game: nothing can be played after it.
    assert_illegal(
        SG,
        "9/R3K3B/PPPPPPPP1/9/9/9/9/9/4k4 b R5P 1 moves win 5i4i",
        2,
        "over",
    );
    // Promoted rook and bishop still count 5.
    assert_outcome(
        SG,
        "9/+R3K3+B/PPPPPPPP1/9/9/9/9/9/4k4 b R5P 1 moves win",
        "1-0 impasse",
    );
    // 1: king on 5d, outside the zone.
    assert_illegal(
        SG,
        "9/R7B/PPPPPPPP1/4K4/9/9/9/9/4k4 b R5P 1 moves win",
        1,
        "zone",
    );
    // 2: 9 pieces in the zone (7 pawns), points still 17 + R B P = 28.
    assert_illegal(
        SG,
        "9/R3K3B/PPPPPPP2/9/9/9/9/9/4k4 b RBP 1 moves win",
        1,
        "9",
    );
    // 3: gote gold on 5a checks 5b.
    assert_illegal(
        SG,
        "4g4/R3K3B/PPPPPPPP1/9/9/9/9/9/4k4 b R5P 1 moves win",
        1,
        "check",
    );
    // 4: pieces OUTSIDE the zone do not count: 27 in zone + hand, plus a pawn on 1d.
    assert_illegal(
        SG,
        "9/R3K3B/PPPPPPPP1/8P/9/9/9/9/4k4 b R4P 1 moves win",
        1,
        "27",
    );
    // 4: 27 points (R + 4P in hand).
    assert_illegal(
        SG,
        "9/R3K3B/PPPPPPPP1/9/9/9/9/9/4k4 b R4P 1 moves win",
        1,
        "27",
    );
}

/// Gote needs 27: the mirror position (zone ranks g–i) with r + 4p in hand = 27 → `0-1
/// impasse`; with r + 3p (26) it fails on the points.
#[test]
fn impasse_declaration_by_gote() {
    let board = "4K4/9/9/9/9/9/pppppppp1/r3k3b/9 w";
    assert_outcome(SG, &format!("{board} r4p 1 moves win"), "0-1 impasse");
    assert_illegal(SG, &format!("{board} r3p 1 moves win"), 1, "26");
}

// ---------------------------------------------------------------------------------------------
// Handicaps
// ---------------------------------------------------------------------------------------------

/// Handicap games: gote (the uwate) moves first. 10-piece: gote has K 5a and nine pawns → 14
/// moves (K 4a 6a 4b 5b 6b, nine pawn pushes); a sente move first is refused. In the 2-piece
/// handicap a quiet cycle started by gote is a draw on the 4th occurrence (the result names
/// sides, not the first mover).
#[test]
fn handicap_games_start_with_gote() {
    let ten = "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    assert_eq!(moves(SG, ten).len(), 14);
    let two = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    assert_illegal(SG, &format!("{two} moves 7g7f"), 1, "");
    assert_outcome(SG, &format!("{two} moves 3c3d 7g7f"), "* ongoing");
    let cyc = "5a4b 2h3h 4b5a 3h2h";
    assert_cycle_verdict(SG, two, cyc, 3, "1/2-1/2 repetition");
}

// ---------------------------------------------------------------------------------------------
// Minishogi
// ---------------------------------------------------------------------------------------------

/// Minishogi plain repetition is a LOSS for sente (the first mover): R 1e1d, r 5a5b and back,
/// no checks, 4th occurrence after 12 plies → `0-1 repetition`.
#[test]
fn minishogi_repetition_loses_for_sente() {
    let cyc = "1e1d 5a5b 1d1e 5b5a";
    assert_verdict_exactly_at(MS, "startpos", cyc, 3, "0-1 repetition");
}

/// Minishogi perpetual check by gote: gote R 5d checks sente K 1e on ranks e and d → gote
/// loses (`1-0 perpetual-check`), not sente.
#[test]
fn minishogi_perpetual_check_by_gote_loses_for_gote() {
    let fen = "k4/5/5/r4/4K w - 1";
    assert_cycle_verdict(MS, fen, "5d5e 1e1d 5e5d 1d1e", 3, "1-0 perpetual-check");
}

/// Minishogi: uchifuzume (gote K 1a, sente S 3b covers 2a, G 2c covers 1b/2b → P*1b is
/// mate → illegal), forced pawn promotion on rank a, no impasse, 700-ply cap.
#[test]
fn minishogi_specifics() {
    let fen = "4k/2S2/3G1/5/K4 b P 1";
    assert_illegal(MS, &format!("{fen} moves P*1b"), 1, "");
    assert!(!moves(MS, fen).contains(&"P*1b".to_owned()));
    assert_illegal(MS, "4k/P4/5/5/K4 b - 1 moves 5b5a", 1, "");
    assert_outcome(MS, "4k/P4/5/5/K4 b - 1 moves 5b5a+", "* ongoing");
    assert_illegal(MS, "startpos moves win", 1, "");
    assert_outcome(MS, "k4/5/5/5/4K b P 699 moves 1e1d", "* ongoing");
    assert_outcome(
        MS,
        "k4/5/5/5/4K b P 699 moves 1e1d 5a4a",
        "1/2-1/2 move-limit",
    );
}
