//! Rules review (independent QA): hand-built Xiangqi and Jieqi positions for the awkward rules
//! of `/work/shared/rules/xiangqi.md` and `jieqi.md`, checked through the public CLI contract
//! (`jiang outcome` and `jiang moves`), i.e. what players and other programs see.
//!
//! Every position was drawn on paper; each comment explains the board and why the verdict
//! follows from the rules file. Squares are ICCS (files a–i from Red's left, ranks 0–9 from
//! Red's side). A cycle of 4 plies played twice from the start position gives its **third**
//! occurrence (start = 1st, after 4 plies = 2nd, after 8 = 3rd): "Repetition" in xiangqi.md.

mod common;

use common::{
    assert_cycle_verdict, assert_illegal, assert_outcome, assert_verdict_exactly_at, cycle, moves,
};

const XQ: &str = "xiangqi";
const JQ: &str = "jieqi";

// ---------------------------------------------------------------------------------------------
// Repetition: perpetual check
// ---------------------------------------------------------------------------------------------

/// Red K d0, R a8; Black K e9 alone. Red a8a9+ checks along rank 9 (b9–d9 empty); Black's only
/// reply is e9e8 (d9 is on the rank and faces the Red general on the open d-file, f9 is behind
/// the king on the same rank). a9a8+ checks on rank 8; Black returns e8e9. Every Red move of the
/// cycle checks, Black's king moves never check nor chase (attacks by a general are never a
/// chase) → Red checks perpetually and loses: `0-1 perpetual-check` on the 3rd occurrence.
#[test]
fn perpetual_check_by_a_chariot_loses() {
    let fen = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1";
    let cyc = "a8a9 e9e8 a9a8 e8e9";
    // Second occurrence: the game goes on; the verdict comes exactly at the third.
    assert_cycle_verdict(XQ, fen, cyc, 1, "* ongoing");
    assert_verdict_exactly_at(XQ, fen, cyc, 2, "0-1 perpetual-check");
    // Nothing can be played after the end.
    assert_illegal(XQ, &cycle(fen, cyc, 2, "a8a9"), 9, "over");
}

/// Mirror for Black: Black K d9, R a1; Red K e0. Black a1a0+ (rank 0, b0–d0 empty), Red e0e1,
/// Black a0a1+ (rank 1), Red e1e0. Black checks with every move → Black loses: `1-0`.
#[test]
fn perpetual_check_by_black_loses_for_black() {
    let fen = "3k5/9/9/9/9/9/9/9/r8/4K4 b - - 0 1";
    assert_cycle_verdict(XQ, fen, "a1a0 e0e1 a0a1 e1e0", 2, "1-0 perpetual-check");
}

/// Both sides check with every move (draw). Red K d0, C a8, N c6; Black K f8, C d9, N d6; Red
/// to move and in check (Black cannon d9 over the screen d6 onto d0).
/// 1. c6d8: the horse blocks the d-file (two pieces between d9 and d0) and becomes the screen
///    for the Red cannon a8 on rank 8 (b8–e8: only d8) → check on f8.
/// 2. d6e8: the Black horse puts a second piece on rank 8 (blocks) and leaves the d-file, where
///    now only the Red horse d8 stands → Black cannon d9 checks d0 over it.
/// 3. d8c6: leaves both lines: d-file empty (no screen, no check on Red); rank 8 holds only e8
///    → Red cannon checks f8 over the Black horse.
/// 4. e8d6: rank 8 empty again; d-file has d6 → check on Red. Back to the start.
///
/// All legs (c7, d7, d7, e7) are empty; neither horse ever attacks a king. Both sides check
/// perpetually → draw, `1/2-1/2 repetition`.
#[test]
fn both_sides_checking_perpetually_is_a_draw() {
    let fen = "3c5/C4k3/9/2Nn5/9/9/9/9/9/3K5 w - - 0 1";
    assert_cycle_verdict(XQ, fen, "c6d8 d6e8 d8c6 e8d6", 2, "1/2-1/2 repetition");
}

/// Perpetual check against perpetual chase: the checker loses. Red K d0, R a8; Black K e9,
/// cannons i9 and i8 with screens g9 (elephant) and g8 (horse).
/// a8a9+ (rank 9). Black e9e8 escapes and uncovers the cannon i9: rank 9 now holds only the
/// screen g9 between i9 and a9 → the cannon attacks the Red chariot (new: the king was a second
/// piece before), a chariot is worth more than a cannon → a chase.
/// a9a8+ (rank 8, b8–d8 empty). Black e8e9 uncovers the cannon i8 over g8 onto a8: again a new
/// attack on the same chariot → chase. Red checks with every move, Black chases the same piece
/// with every move → the checker loses: `0-1 perpetual-check`.
#[test]
fn perpetual_check_against_perpetual_chase_checker_loses() {
    let fen = "4k1b1c/R5n1c/9/9/9/9/9/9/9/3K5 w - - 0 1";
    assert_cycle_verdict(XQ, fen, "a8a9 e9e8 a9a8 e8e9", 2, "0-1 perpetual-check");
}

/// One check, one chase: Red K d0, R a7; Black K e9, N g7 (unprotected). a7a9+ checks; e9e8;
/// a9a7 attacks the horse g7 anew along rank 7 (a chase); e8e9. Red mixes a check and a chase
/// → not perpetual; Black only moves the king → draw.
#[test]
fn one_check_one_chase_is_a_draw() {
    let fen = "4k4/9/R5n2/9/9/9/9/9/9/3K5 w - - 0 1";
    assert_cycle_verdict(XQ, fen, "a7a9 e9e8 a9a7 e8e9", 2, "1/2-1/2 repetition");
}

// ---------------------------------------------------------------------------------------------
// Repetition: perpetual chase
// ---------------------------------------------------------------------------------------------

/// Red K d0, R a5; Black K e9, N h7 (nothing can recapture on h7 or g5). a5a7 attacks h7 along
/// rank 7 (new); h7g5 (leg h6); a7a5 attacks g5 along rank 5 (new: from a7 it did not);
/// g5h7 (leg g6). The horse never attacks a5/a7 or d0. Red chases the same (moving) horse with
/// every move → `0-1 perpetual-chase`.
#[test]
fn chariot_chasing_an_unprotected_horse_loses() {
    let fen = "4k4/9/7n1/9/R8/9/9/9/9/3K5 w - - 0 1";
    let cyc = "a5a7 h7g5 a7a5 g5h7";
    assert_verdict_exactly_at(XQ, fen, cyc, 2, "0-1 perpetual-chase");
}

/// Mirror for Black: Black R a4/a2 chases the Red horse h2/g4 → Black loses, `1-0`.
#[test]
fn black_chasing_an_unprotected_horse_loses_for_black() {
    let fen = "3k5/9/9/9/9/r8/9/7N1/9/4K4 b - - 0 1";
    assert_cycle_verdict(XQ, fen, "a4a2 h2g4 a2a4 g4h2", 2, "1-0 perpetual-chase");
}

/// The same cycle, but the horse is protected on both squares: Black R h9 recaptures on h7
/// (h8 empty) and Black elephant i7 recaptures on g5 (eye h6 empty). A chariot attacking a
/// protected horse is not a chase (the horse is not worth more) → draw.
#[test]
fn chariot_attacking_a_protected_horse_is_not_a_chase() {
    let fen = "4k2r1/9/7nb/9/R8/9/9/9/9/3K5 w - - 0 1";
    assert_cycle_verdict(XQ, fen, "a5a7 h7g5 a7a5 g5h7", 2, "1/2-1/2 repetition");
}

/// "Protected" means a LEGAL recapture. Black R h9 protects h7 only (not g5): without a pin,
/// Red's attack on g5 chases but the one on h7 does not → not every move chases → draw. With
/// a Red chariot on i9 the Black chariot is pinned on rank 9 against its king (leaving the rank
/// opens i9–e9), so it cannot recapture on h7 → both attacks chase → Red loses. (The horse on
/// h7 attacks i9, so Black chases on every other move: not perpetual, no effect on the verdict.)
#[test]
fn a_pinned_protector_does_not_protect() {
    let cyc = "a5a7 h7g5 a7a5 g5h7";
    let free = "4k2r1/9/7n1/9/R8/9/9/9/9/3K5 w - - 0 1";
    assert_cycle_verdict(XQ, free, cyc, 2, "1/2-1/2 repetition");
    let pinned = "4k2rR/9/7n1/9/R8/9/9/9/9/3K5 w - - 0 1";
    assert_cycle_verdict(XQ, pinned, cyc, 2, "0-1 perpetual-chase");
}

/// A protected chariot chased by a cannon is still a chase (worth more than the attacker).
/// Red K d0, C a8; Black K e9, R i7 (the target), R i9 (protects i8 and, over empty i8, i7),
/// advisor e8 and elephant e7 as screens. a8a7: cannon over e7 onto i7 (new). i7i8. a7a8: over
/// e8 onto i8 (new). i8i7. The Black chariot stops at the screens and never sees the cannon.
/// Red chases the same chariot every move → `0-1 perpetual-chase`.
#[test]
fn cannon_chasing_a_protected_chariot_is_a_chase() {
    let fen = "4k3r/C3a4/4b3r/9/9/9/9/9/9/3K5 w - - 0 1";
    assert_cycle_verdict(XQ, fen, "a8a7 i7i8 a7a8 i8i7", 2, "0-1 perpetual-chase");
}

/// A chariot alternately chasing two pieces: Red K d0, R a5; Black K e9, horses h5 and h3
/// (they do not protect each other, nothing else can). a5a3 attacks h3 (new), e9e8, a3a5
/// attacks h5 (new), e8e9. Every Red move chases, but not one and the same piece → draw.
#[test]
fn chariot_alternately_chasing_two_pieces_is_a_draw() {
    let fen = "4k4/9/9/9/R6n1/9/7n1/9/9/3K5 w - - 0 1";
    assert_cycle_verdict(XQ, fen, "a5a3 e9e8 a3a5 e8e9", 2, "1/2-1/2 repetition");
}

/// An attack that is not NEW is not a chase: Red R a5/b5 keeps attacking the unprotected horse
/// h5 along rank 5 (it attacked it before each move too); Black K e9↔f9 → draw.
#[test]
fn keeping_up_an_old_attack_is_not_a_chase() {
    let fen = "4k4/9/9/9/R6n1/9/9/9/9/3K5 w - - 0 1";
    assert_cycle_verdict(XQ, fen, "a5b5 e9f9 b5a5 f9e9", 2, "1/2-1/2 repetition");
}

/// The cycle runs from the FIRST occurrence: Red's first loop is a5a6 (quiet) h7g5 a6a5
/// (chase), its second loop a5a7/a7a5 (two chases). Judged from the first occurrence Red has a
/// quiet move → not perpetual → draw (judging only the last loop would wrongly find a chase).
#[test]
fn the_cycle_is_judged_from_the_first_occurrence() {
    let fen = "4k4/9/7n1/9/R8/9/9/9/9/3K5 w - - 0 1";
    let line = format!("{fen} moves a5a6 h7g5 a6a5 g5h7 a5a7 h7g5 a7a5 g5h7");
    assert_outcome(XQ, &line, "1/2-1/2 repetition");
}

/// "Could legally capture it next move": Red R e3↔e4 is pinned on the e-file against its
/// general e0 by the Black chariot e8, so it can never take the unprotected horse h4/f3 it
/// attacks anew with each move (from e4 along rank 4 via f4, g4; from e3 the adjacent f3;
/// horse legs g4/g3 empty). Not a chase → draw. Without the pinning chariot it is → `0-1`.
#[test]
fn a_pinned_attacker_does_not_chase() {
    let cyc = "e3e4 h4f3 e4e3 f3h4";
    let pinned = "3k5/4r4/9/9/9/7n1/4R4/9/9/4K4 w - - 0 1";
    assert_cycle_verdict(XQ, pinned, cyc, 2, "1/2-1/2 repetition");
    let free = "3k5/9/9/9/9/7n1/4R4/9/9/4K4 w - - 0 1";
    assert_cycle_verdict(XQ, free, cyc, 2, "0-1 perpetual-chase");
}

/// Piece values ("worth more than the attacker"), with the Red horse-leg template: Red horses
/// d4 and f4 aim at e6 through their legs d5/f5; the Red cannon d5↔f5 (via empty e5) blocks one
/// leg and frees the other with each move → a new horse attack on e6 every move. Black K d9↔d8.
/// - e6 = Black chariot protected by the chariot e9 (e7, e8 empty): a horse attacking a
///   chariot chases even a protected one → `0-1 perpetual-chase`.
/// - e6 = Black cannon, protected the same way: a cannon is not worth more than a horse →
///   draw; unprotected (no e9 chariot) → chase.
#[test]
fn horse_attacks_chase_by_piece_value() {
    let cyc = "d5f5 d9d8 f5d5 d8d9";
    let protected_chariot = "3kr4/9/9/4r4/3C5/3N1N3/9/9/9/5K3 w - - 0 1";
    assert_cycle_verdict(XQ, protected_chariot, cyc, 2, "0-1 perpetual-chase");
    let protected_cannon = "3kr4/9/9/4c4/3C5/3N1N3/9/9/9/5K3 w - - 0 1";
    assert_cycle_verdict(XQ, protected_cannon, cyc, 2, "1/2-1/2 repetition");
    let lone_cannon = "3k5/9/9/4c4/3C5/3N1N3/9/9/9/5K3 w - - 0 1";
    assert_cycle_verdict(XQ, lone_cannon, cyc, 2, "0-1 perpetual-chase");
}

/// A cannon attacking a PROTECTED horse is not a chase (same worth): the cannon-screen template
/// with a Black chariot on g9 guarding g6 (g8, g7 empty) → draw.
#[test]
fn cannon_attacking_a_protected_horse_is_not_a_chase() {
    let fen = "4k1r2/9/9/C4Nn2/9/9/9/9/6C2/3K5 w - - 0 1";
    assert_cycle_verdict(XQ, fen, "f6g4 e9f9 g4f6 f9e9", 2, "1/2-1/2 repetition");
}

/// An elephant attacking a protected horse chases (a horse is worth more). Red elephants c4
/// and g4 aim at the Black horse e2 through their eyes d3/f3; the Red cannon d3↔f3 (via e3)
/// blocks one eye and frees the other. The horse is guarded by the Black chariot e7 (e6–e3
/// empty); it never attacks the Red general e0 (no horse move from e2 reaches e0).
#[test]
fn elephant_attacking_a_protected_horse_is_a_chase() {
    let fen = "3k5/9/4r4/9/9/2B3B2/3C5/4n4/9/4K4 w - - 0 1";
    assert_cycle_verdict(XQ, fen, "d3f3 d9d8 f3d3 d8d9", 2, "0-1 perpetual-chase");
}

/// Protection is judged AFTER the capture: the Black cannon a9 "covers" a3 over the Red chariot
/// a5 as its screen, but when that chariot takes on a3 the screen is gone, so nothing can
/// recapture. Template: Red R a5 (file a) and R d3 (rank 3) aim at the Black horse a3; the Red
/// horse c3↔a4 (legs b3, b4) blocks one line and uncovers the other. Each Red move chases the
/// unprotected horse → `0-1 perpetual-chase`.
#[test]
fn protection_is_judged_after_the_capture() {
    let fen = "c3k4/9/9/9/R8/9/n1NR5/9/9/3K5 w - - 0 1";
    assert_cycle_verdict(XQ, fen, "c3a4 e9f9 a4c3 f9e9", 2, "0-1 perpetual-chase");
}

/// Both sides chase perpetually → draw. Red: chariots a6/g1 aim at the Black horse g6, Red
/// horse f6↔g4 toggles the lines (as above). Black, point-mirrored: chariots i3/c8 aim at the
/// Red horse c3, Black horse d3↔c5 (legs d4, c4) toggles. Each side chases one and the same
/// unprotected horse with every move → `1/2-1/2 repetition`.
#[test]
fn both_sides_chasing_perpetually_is_a_draw() {
    let fen = "4k4/2r6/9/R4Nn2/9/9/2Nn4r/9/6R2/3K5 w - - 0 1";
    assert_cycle_verdict(XQ, fen, "f6g4 d3c5 g4f6 c5d3", 2, "1/2-1/2 repetition");
}

/// A piece that walks INTO a standing attack is not chased by the attacker: Red chariots a7
/// and a5 stand still while the Black horse h7↔g5 moves between their ranks; Red only shuffles
/// its cannon i0↔i1. No Red move makes a new attack → draw.
#[test]
fn walking_into_a_standing_attack_is_not_a_chase() {
    let fen = "4k4/9/R6n1/9/R8/9/9/9/9/3K4C w - - 0 1";
    assert_cycle_verdict(XQ, fen, "i0i1 h7g5 i1i0 g5h7", 2, "1/2-1/2 repetition");
}

/// A 6-ply cycle (chariots a0→a1→a2→a0 and a9→a8→a7→a9): the start position occurs for the
/// third time after 12 plies, not before.
#[test]
fn six_ply_cycle_repeats_on_the_twelfth_ply() {
    let cyc = "a0a1 a9a8 a1a2 a8a7 a2a0 a7a9";
    assert_cycle_verdict(XQ, "startpos", cyc, 1, "* ongoing");
    assert_verdict_exactly_at(XQ, "startpos", cyc, 2, "1/2-1/2 repetition");
}

/// A general "chasing": Red K e1↔d1 alternately attacks the unprotected Black cannon d2/e2
/// (new each time; the cannon, adjacent with no screen, never attacks the general). Attacks by
/// a general are never a chase → draw.
#[test]
fn a_general_never_chases() {
    let fen = "5k3/9/9/9/9/9/9/3c5/4K4/9 w - - 0 1";
    assert_cycle_verdict(XQ, fen, "e1d1 d2e2 d1e1 e2d2", 2, "1/2-1/2 repetition");
}

/// A soldier "chasing": the crossed Red soldier d5↔e5 alternately attacks the Black chariot
/// e6/d6 (from e5 it attacks e6, from d5 it attacks d6; worth more than a soldier, so it would
/// be a chase by any other piece). The chariot never attacks the soldier or the Red general
/// (f0) by its own move. Attacks by a soldier are never a chase → draw.
#[test]
fn a_soldier_never_chases() {
    let fen = "4k4/9/9/4r4/3P5/9/9/9/9/5K3 w - - 0 1";
    assert_cycle_verdict(XQ, fen, "d5e5 e6d6 e5d5 d6e6", 2, "1/2-1/2 repetition");
}

/// A chase by a DISCOVERED attack: Red R a6 and R g1 both aim at the unprotected Black horse
/// g6; the Red horse f6↔g4 blocks one line and uncovers the other with each move (legs f5,
/// g5 empty; it never attacks g6 or e8/e9/f9 itself). Each Red move makes a new attack on the
/// same horse (by the uncovered chariot) → Red chases perpetually; Black shuffles e9↔f9.
#[test]
fn chase_by_an_uncovered_chariot() {
    let fen = "4k4/9/9/R4Nn2/9/9/9/9/6R2/3K5 w - - 0 1";
    assert_cycle_verdict(XQ, fen, "f6g4 e9f9 g4f6 f9e9", 2, "0-1 perpetual-chase");
}

/// A chase by giving a cannon a screen: the same geometry with cannons a6 and g1; the Red horse
/// is now the screen of one cannon or the other → each move makes a new cannon attack on the
/// unprotected horse g6 → `0-1 perpetual-chase`.
#[test]
fn chase_by_giving_a_cannon_a_screen() {
    let fen = "4k4/9/9/C4Nn2/9/9/9/9/6C2/3K5 w - - 0 1";
    assert_cycle_verdict(XQ, fen, "f6g4 e9f9 g4f6 f9e9", 2, "0-1 perpetual-chase");
}

/// The same discovered attacks on a Black soldier on g6 that has NOT crossed the river (Black
/// crosses below rank 5): never a chase → draw. Moved down to g3 (crossed; Red chariots a3/g0,
/// horse f3↔g1, legs f2/g2) the same pattern is a chase → Red loses.
#[test]
fn attacks_on_an_uncrossed_soldier_never_chase_but_on_a_crossed_one_do() {
    let cyc = "f6g4 e9f9 g4f6 f9e9";
    let uncrossed = "4k4/9/9/R4Np2/9/9/9/9/6R2/3K5 w - - 0 1";
    assert_cycle_verdict(XQ, uncrossed, cyc, 2, "1/2-1/2 repetition");
    let crossed = "4k4/9/9/9/9/9/R4Np2/9/9/3K2R2 w - - 0 1";
    assert_cycle_verdict(XQ, crossed, "f3g1 e9f9 g1f3 f9e9", 2, "0-1 perpetual-chase");
}

/// Chariot against chariot: the same discovered attacks, but the target on g6 is a Black
/// chariot, which can capture the uncovered Red chariot back along the same line: an offer to
/// exchange, never a chase → draw.
#[test]
fn chariot_attacking_chariot_is_an_offer_to_exchange() {
    let fen = "4k4/9/9/R4Nr2/9/9/9/9/6R2/3K5 w - - 0 1";
    assert_cycle_verdict(XQ, fen, "f6g4 e9f9 g4f6 f9e9", 2, "1/2-1/2 repetition");
}

/// Horse against horse is only an exchange offer when they can capture EACH OTHER. Red horse
/// f6↔d7, Black horse c5↔e4 (unprotected): from d7 the Red horse hits c5 (leg d6), from f6 it
/// hits e4 (leg f5), new each time. With Red soldiers on c6 and e5 the Black horse's legs
/// towards d7 (c6) and f6 (e5) are blocked, so it can never capture back → a real chase →
/// Red loses. Without the soldiers the horses attack each other → exchange offer → draw.
#[test]
fn horse_attacking_a_horse_that_cannot_hit_back_is_a_chase() {
    let cyc = "f6d7 c5e4 d7f6 e4c5";
    let blocked = "3k5/9/9/2P2N3/2n1P4/9/9/9/9/4K4 w - - 0 1";
    assert_cycle_verdict(XQ, blocked, cyc, 2, "0-1 perpetual-chase");
    let mutual = "3k5/9/9/5N3/2n6/9/9/9/9/4K4 w - - 0 1";
    assert_cycle_verdict(XQ, mutual, cyc, 2, "1/2-1/2 repetition");
}

/// A plain repetition with quiet moves from the start: horses b0c2 b9c7 c2b0 c7b9 (legs b1,
/// b8, c1, c8 empty; no new attack on anything). Second occurrence → ongoing; third → draw.
#[test]
fn plain_repetition_is_a_draw_on_the_third_occurrence() {
    let cyc = "b0c2 b9c7 c2b0 c7b9";
    assert_cycle_verdict(XQ, "startpos", cyc, 1, "* ongoing");
    assert_verdict_exactly_at(XQ, "startpos", cyc, 2, "1/2-1/2 repetition");
}

// ---------------------------------------------------------------------------------------------
// Stalemate, flying general, move limit, insufficient material, order of the checks
// ---------------------------------------------------------------------------------------------

/// Black K d9 alone; Red K e0, R a7. a7a8 takes d8 (rank 8); e9 would face the Red general on
/// the open e-file. Black is not in check and has no legal move → Black LOSES (`stalemate`).
#[test]
fn stalemate_is_a_loss() {
    assert_outcome(
        XQ,
        "3k5/9/R8/9/9/9/9/9/9/4K4 w - - 0 1 moves a7a8",
        "1-0 stalemate",
    );
    assert!(moves(XQ, "3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1").is_empty());
}

/// Flying general: Red K e0, Black K e9, a Red horse e4 between them. Any horse move leaves the
/// file open → illegal; only the general's moves remain (e0e1 stays behind the horse).
/// With Black K d9 and Red K e0, e0d0 would face it → illegal.
#[test]
fn flying_general_is_illegal() {
    let fen = "4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1";
    assert_illegal(XQ, &format!("{fen} moves e4c5"), 1, "");
    assert_eq!(moves(XQ, fen), ["e0d0", "e0e1", "e0f0"]);
    let fen = "3k5/9/9/9/9/9/P8/9/9/4K4 w - - 0 1";
    assert_illegal(XQ, &format!("{fen} moves e0d0"), 1, "");
    assert_eq!(moves(XQ, fen), ["a3a4", "e0e1", "e0f0"]);
}

/// A piece moved onto the line between an enemy cannon and its own general becomes the screen
/// and exposes the general: Black cannon e7, Red K e0, empty e-file; Red R a4e4 is illegal and
/// not listed (nor is e0d0, which faces the Black general d9).
#[test]
fn becoming_the_screen_of_an_enemy_cannon_is_illegal() {
    let fen = "3k5/9/4c4/9/9/R8/9/9/9/4K4 w - - 0 1";
    assert_illegal(XQ, &format!("{fen} moves a4e4"), 1, "");
    let list = moves(XQ, fen);
    assert!(!list.contains(&"a4e4".to_owned()), "{list:?}");
    assert!(!list.contains(&"e0d0".to_owned()), "{list:?}");
    assert_eq!(list.len(), 18, "{list:?}");
}

/// Move limit: 120 plies without a capture. Red K d0, R a0; Black K f9, R i9 (quiet moves
/// a0a1, i9i8). From halfmove 118: one ply → 119 → ongoing; two → 120 → `move-limit`. A capture
/// (a0a5 takes the soldier) resets the count: 0, then 1 → ongoing.
#[test]
fn move_limit_boundary_and_capture_reset() {
    let fen = "5k2r/9/9/9/9/9/9/9/9/R2K5 w - - 118 60";
    assert_outcome(XQ, &format!("{fen} moves a0a1"), "* ongoing");
    assert_outcome(XQ, &format!("{fen} moves a0a1 i9i8"), "1/2-1/2 move-limit");
    let fen = "5k2r/9/9/9/p8/9/9/9/9/R2K5 w - - 118 60";
    assert_outcome(XQ, &format!("{fen} moves a0a5 i9i8"), "* ongoing");
    assert_outcome(XQ, &format!("{fen} moves a0a1 i9i8"), "1/2-1/2 move-limit");
}

/// Order of the end checks: a checkmate on the 120th ply wins (1 before 3). Black K d9; Red
/// K e0, R a8 (holds d8), R b7. b7b9+: d8 and e9 (facing e0, and on rank 9) are covered → mate.
#[test]
fn checkmate_on_the_120th_ply_beats_the_move_limit() {
    let fen = "3k5/R8/1R7/9/9/9/9/9/9/4K4 w - - 119 60";
    assert_outcome(XQ, &format!("{fen} moves b7b9"), "1-0 checkmate");
}

/// Order of the end checks: a third occurrence on the 120th ply is judged as a repetition
/// (2 before 3): the perpetual-check cycle from halfmove 112 ends on ply 120.
#[test]
fn repetition_on_the_120th_ply_beats_the_move_limit() {
    let fen = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 112 60";
    assert_cycle_verdict(XQ, fen, "a8a9 e9e8 a9a8 e8e9", 2, "0-1 perpetual-check");
}

/// Insufficient material after a capture: Red K e1, elephant c0; Black K f9, advisor e8, a
/// crossed soldier d1 (giving check). e1d1 takes the soldier; left are generals, an elephant and
/// an advisor: no chariot, horse, cannon or soldier → draw.
#[test]
fn insufficient_material_after_a_capture() {
    let fen = "5k3/4a4/9/9/9/9/9/9/3pK4/2B6 w - - 0 1";
    assert_outcome(XQ, fen, "* ongoing");
    assert_outcome(
        XQ,
        &format!("{fen} moves e1d1"),
        "1/2-1/2 insufficient-material",
    );
}

// ---------------------------------------------------------------------------------------------
// Jieqi
// ---------------------------------------------------------------------------------------------

/// The 44 Xiangqi opening moves (hand count: chariots 4, horses 4 (b0d1/h0f1 blocked by the
/// elephants), cannons 2×12 (incl. b2b9/h2h9 over the cannon screens), elephants 4, advisors 2,
/// general 1, soldiers 5).
const XIANGQI_START_MOVES: &str = "a0a1 a0a2 a3a4 b0a2 b0c2 b2a2 b2b1 b2b3 b2b4 b2b5 b2b6 b2b9 \
     b2c2 b2d2 b2e2 b2f2 b2g2 c0a2 c0e2 c3c4 d0e1 e0e1 e3e4 f0e1 g0e2 g0i2 g3g4 h0g2 h0i2 h2c2 \
     h2d2 h2e2 h2f2 h2g2 h2h1 h2h3 h2h4 h2h5 h2h6 h2h9 h2i2 i0i1 i0i2 i3i4";

/// Covered pieces move as their point's piece: Jieqi's start has exactly Xiangqi's 44 moves,
/// printed without reveal suffixes (players send moves without them).
#[test]
fn jieqi_start_moves_are_the_xiangqi_start_moves() {
    let expected: Vec<&str> = XIANGQI_START_MOVES.split_whitespace().collect();
    assert_eq!(expected.len(), 44);
    assert_eq!(moves(XQ, "startpos"), expected);
    assert_eq!(moves(JQ, "startpos"), expected);
}

/// `outcome` needs to know what a covered piece turns out to be: a covered move without the
/// suffix is refused; a suffix that is not the mover's (K, a black letter) or not left in the
/// pool (a third red chariot) is illegal.
#[test]
fn jieqi_reveal_suffixes_are_checked() {
    assert_illegal(JQ, "startpos moves b0c2", 1, "");
    assert_illegal(JQ, "startpos moves b0c2K", 1, "");
    assert_illegal(JQ, "startpos moves b0c2r", 1, "");
    // a0a1R, i0i1R reveal both red chariots; b0c2R (a covered horse-point piece) cannot be one.
    let two_chariots = "startpos moves a0a1R a9a8r i0i1R a6a5p";
    assert_illegal(JQ, &format!("{two_chariots} b0c2R"), 5, "");
    assert_outcome(JQ, &format!("{two_chariots} b0c2N"), "* ongoing");
}

/// A revealed advisor moves one point diagonally anywhere: d0e1A, e1f2, then (after g3 moved
/// away) f2g3 and g3f4 leave the palace. In Xiangqi an advisor on f2 has no move to g3.
#[test]
fn jieqi_revealed_advisor_leaves_the_palace() {
    let line = "startpos moves d0e1A a9a8r e1f2 a8a9 g3g4P a9a8 f2g3 a8a9 g3f4";
    assert_outcome(JQ, line, "* ongoing");
    let fen = "3k5/9/9/9/9/2A6/9/9/9/4K4 w - - 0 1";
    assert_eq!(
        moves(JQ, fen),
        ["c4b3", "c4b5", "c4d3", "c4d5", "e0e1", "e0f0"]
    );
}

/// A revealed elephant crosses the river (still two points diagonally, eyes d1/d3/d5/f7 empty):
/// c0e2B, e2c4, c4e6 (captures the covered soldier-point piece on e6), e6g8.
#[test]
fn jieqi_revealed_elephant_crosses_the_river() {
    let line = "startpos moves c0e2B a9a8r e2c4 a8a9 c4e6 a9a8 e6g8";
    assert_outcome(JQ, line, "* ongoing");
    let fen = "3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1";
    assert_eq!(
        moves(JQ, fen),
        ["c4a2", "c4a6", "c4e2", "c4e6", "e0e1", "e0f0"]
    );
}

/// A reveal does not reset the move-limit count (jieqi.md "End of the game"); a capture does.
#[test]
fn jieqi_move_limit_counts_reveals() {
    let fen = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w \
               A2B2N2R2C2P5a2b2n2r2c2p5 118 60";
    assert_outcome(JQ, &format!("{fen} moves a0a1R"), "* ongoing");
    assert_outcome(
        JQ,
        &format!("{fen} moves a0a1R a9a8r"),
        "1/2-1/2 move-limit",
    );
    // b2b9C: the covered cannon-point piece jumps b7 and takes b9 → count 0, then 1.
    assert_outcome(JQ, &format!("{fen} moves b2b9C a9a8r"), "* ongoing");
}

/// A revealed piece back on its starting point is not the same position as the covered one:
/// the revealed Black chariot returns to a9 after a9a8r, so repetition counts from after the
/// reveals. Cycle e1d2 a8a9 d2e1 a9a8 (quiet) from the position after `d0e1A a9a8r`.
#[test]
fn jieqi_repetition_counts_revealed_positions() {
    let head = "startpos moves d0e1A a9a8r";
    let cyc = " e1d2 a8a9 d2e1 a9a8";
    assert_outcome(JQ, &format!("{head}{cyc}{cyc}"), "1/2-1/2 repetition");
    assert_outcome(JQ, &format!("{head}{cyc} e1d2 a8a9 d2e1"), "* ongoing");
}

/// A revealed soldier moves as a soldier whatever point it was revealed on: a0a1P stands on
/// Red's own side, so it only steps forward (a1a2), never sideways (a1b1).
#[test]
fn jieqi_soldier_revealed_on_the_back_rank_moves_forward() {
    assert_illegal(JQ, "startpos moves a0a1P a9a8r a1b1", 3, "");
    assert_outcome(JQ, "startpos moves a0a1P a9a8r a1a2", "* ongoing");
}

/// Without a pool field the pool is derived (full set minus the revealed pieces on the board):
/// with both Red chariots revealed on a1 and i1, no covered Red piece can be a chariot. A
/// missing covered piece (captured, identity unknown) leaves the pool larger than the covered
/// pieces, which is a valid position.
#[test]
fn jieqi_derived_pool() {
    let fen = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/R7R/1XXXKXXX1 w - - 0 1";
    assert_illegal(JQ, &format!("{fen} moves b0c2R"), 1, "");
    assert_outcome(JQ, &format!("{fen} moves b0c2N"), "* ongoing");
    let captured = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/1XXXKXXXX w";
    assert_outcome(JQ, captured, "* ongoing");
}

/// Jieqi judges repetitions like Xiangqi (jieqi.md "End of the game"): the chariot perpetual
/// check and the chariot-chases-horse cycles above, as Jieqi positions with revealed pieces.
#[test]
fn jieqi_perpetual_check_and_chase() {
    let check = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1";
    assert_cycle_verdict(JQ, check, "a8a9 e9e8 a9a8 e8e9", 2, "0-1 perpetual-check");
    let chase = "4k4/9/7n1/9/R8/9/9/9/9/3K5 w - - 0 1";
    assert_cycle_verdict(JQ, chase, "a5a7 h7g5 a7a5 g5h7", 2, "0-1 perpetual-chase");
}
