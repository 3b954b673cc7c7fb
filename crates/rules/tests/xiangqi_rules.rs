//! One test per rule of `../shared/rules/xiangqi.md` (pieces, check and legality, end of the
//! game), on hand-made positions whose legal moves were worked out by hand.

use jiang_rules::xiangqi::{Game, Position};
use jiang_rules::{Outcome, Reason, Side, Variant};

fn pos(fen: &str) -> Position {
    Position::parse_fen(Variant::Xiangqi, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves of the piece on `from`, sorted, as ICCS destinations.
fn moves_from(fen: &str, from: &str) -> Vec<String> {
    let mut v: Vec<String> = pos(fen)
        .legal_moves()
        .into_iter()
        .filter(|mv| mv.from().to_string() == from)
        .map(|mv| mv.to().to_string())
        .collect();
    v.sort();
    v
}

fn outcome(fen: &str, moves: &[&str]) -> Option<Outcome> {
    let mut game = Game::new(pos(fen));
    for mv in moves {
        game.play_iccs(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    game.outcome()
}

#[test]
fn general_steps_orthogonally_inside_its_palace() {
    // Red general on d0: e0 and d1 only (c0 is outside the palace).
    assert_eq!(moves_from("5k3/9/9/9/9/9/9/9/9/3K5 w", "d0"), ["d1", "e0"]);
    // Black general on f7: f8, e7 (f6 is outside).
    assert_eq!(moves_from("9/9/5k3/9/9/9/9/9/9/3K5 b", "f7"), ["e7", "f8"]);
}

#[test]
fn advisor_steps_diagonally_inside_its_palace() {
    assert_eq!(
        moves_from("4k4/9/9/9/9/9/9/9/4A4/3K5 w", "e1"),
        ["d2", "f0", "f2"]
    );
    assert_eq!(moves_from("4k4/9/9/9/9/9/9/5A3/9/3K5 w", "f2"), ["e1"]);
}

#[test]
fn elephant_leaps_two_diagonally_blocked_by_its_eye_never_across_the_river() {
    // Elephant on c4: a2 and e2 (a6/e6 are across the river); with a piece on d3, e2 is gone.
    assert_eq!(
        moves_from("4k4/9/9/9/9/2B6/9/9/9/3K5 w", "c4"),
        ["a2", "e2"]
    );
    assert_eq!(moves_from("4k4/9/9/9/9/2B6/3p5/9/9/3K5 w", "c4"), ["a2"]);
}

#[test]
fn horse_moves_one_straight_one_diagonal_blocked_by_its_leg() {
    assert_eq!(
        moves_from("4k4/9/9/9/9/4N4/9/9/9/3K5 w", "e4"),
        ["c3", "c5", "d2", "d6", "f2", "f6", "g3", "g5"]
    );
    // A piece on e5 (the leg upwards) removes d6 and f6.
    assert_eq!(
        moves_from("4k4/9/9/9/4p4/4N4/9/9/9/3K5 w", "e4"),
        ["c3", "c5", "d2", "f2", "g3", "g5"]
    );
}

#[test]
fn chariot_slides_without_jumping_and_captures_the_first_enemy() {
    // Chariot a0 with a red soldier on a3 and a black horse on c0: a1 a2 b0 c0.
    assert_eq!(
        moves_from("3k5/9/9/9/9/9/P8/9/9/R1n1K4 w", "a0"),
        ["a1", "a2", "b0", "c0"]
    );
}

#[test]
fn cannon_captures_only_over_exactly_one_screen() {
    // Cannon b2: quiet moves along the file and rank; b9 is taken over b7 (one screen).
    let start = moves_from("startpos", "b2");
    assert!(start.contains(&"b9".to_owned()));
    assert!(
        !start.contains(&"b7".to_owned()),
        "no capture without a screen"
    );
    // Two screens (b5 and b7) between b2 and b9: no capture.
    // Cannon a0: the screen may be of either side (own soldier a3, then a6 is taken); the
    // chariot a9 behind two screens (a3, a6) is out of reach.
    assert_eq!(
        moves_from("r3k4/9/9/p8/9/9/P8/9/9/C2K5 w", "a0"),
        ["a1", "a2", "a6", "b0", "c0"]
    );
}

#[test]
fn soldier_moves_forward_then_also_sideways_after_the_river_never_back() {
    assert_eq!(moves_from("4k4/9/9/9/9/9/4P4/9/9/3K5 w", "e3"), ["e4"]);
    assert_eq!(
        moves_from("4k4/9/9/9/4P4/9/9/9/9/3K5 w", "e5"),
        ["d5", "e6", "f5"]
    );
    // On the last rank: sideways only.
    assert_eq!(
        moves_from("3k5/6P2/9/9/9/9/9/9/9/4K4 w", "g8"),
        ["f8", "g9", "h8"]
    );
    // Black soldiers go down the board.
    assert_eq!(
        moves_from("4k4/9/9/9/9/2p6/9/9/9/3K5 b", "c4"),
        ["b4", "c3", "d4"]
    );
    assert_eq!(moves_from("4k4/9/9/9/2p6/9/9/9/9/3K5 b", "c5"), ["c4"]);
}

#[test]
fn flying_general_a_move_that_leaves_the_generals_facing_is_illegal() {
    // The red horse on e4 is the only piece between the generals: it may not move.
    assert!(moves_from("4k4/9/9/9/9/4N4/9/9/9/4K4 w", "e4").is_empty());
    // The general may not step onto the open file of the enemy general.
    assert_eq!(moves_from("4k4/9/9/9/9/9/9/9/9/3K5 w", "d0"), ["d1"]);
    assert_eq!(moves_from("3k5/9/9/9/9/9/9/9/9/4K4 w", "e0"), ["e1", "f0"]);
}

#[test]
fn a_pinned_piece_may_not_leave_the_line() {
    // Red chariot e3 pinned by the black chariot e7 against the general e0: it may only move
    // along the e-file.
    assert_eq!(
        moves_from("3k5/9/4r4/9/9/9/4R4/9/9/4K4 w", "e3"),
        ["e1", "e2", "e4", "e5", "e6", "e7"]
    );
}

#[test]
fn a_move_that_becomes_a_cannon_screen_against_its_own_general_is_illegal() {
    // Black cannon e7 aims at the general e0 with nothing between: the red horse c3 may not
    // go to e4 (its other moves are fine), nor may the red chariot a2 go to e2.
    let horse = moves_from("3k5/9/4c4/9/9/9/2N6/R8/9/4K4 w", "c3");
    assert!(!horse.contains(&"e4".to_owned()) && horse.contains(&"d5".to_owned()));
    let chariot = moves_from("3k5/9/4c4/9/9/9/2N6/R8/9/4K4 w", "a2");
    assert!(!chariot.contains(&"e2".to_owned()) && chariot.contains(&"d2".to_owned()));
}

#[test]
fn a_check_must_be_answered() {
    // Black chariot on e5 checks the red general e0. Legal: block with the chariot a2-e2, or
    // step to f0 (e1 stays on the file; d0 faces the black general on d9).
    let p = pos("3k5/9/9/9/4r4/9/9/R8/9/4K4 w");
    assert!(p.in_check());
    let mut moves: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    moves.sort();
    assert_eq!(moves, ["a2e2", "e0f0"]);
}

#[test]
fn the_general_attacks_along_an_open_file_for_check() {
    // A FEN where Black (not to move) faces the red general is not a valid position.
    assert!(Position::parse_fen(Variant::Xiangqi, "4k4/9/9/9/9/9/9/9/9/4K4 w").is_err());
}

/// Red to move mates in one with h0h9 (the checkmate and move-limit tests).
const MATE_IN_ONE: &str = "4k4/R8/9/9/9/9/9/9/9/3K3R1 w";

#[test]
fn no_legal_moves_in_check_is_checkmate_a_loss() {
    // Two chariots: e8 and... black general e9 mated by chariots on rank 9 and rank 8.
    assert_eq!(
        outcome(MATE_IN_ONE, &["h0h9"]),
        Some(Outcome::win(Side::RED, Reason::Checkmate))
    );
}

#[test]
fn no_legal_moves_without_check_is_stalemate_a_loss() {
    // Black general d9 cannot move (d8 and e9 are covered by the chariots), is not in check,
    // and has nothing else: Black loses.
    assert_eq!(
        outcome("3k5/4R4/4R4/9/9/9/9/9/9/4K4 b", &[]),
        Some(Outcome::win(Side::RED, Reason::Stalemate))
    );
    // Reached by a move: the chariot e6-e7 stalemates.
    assert_eq!(
        outcome("3k5/4R4/9/4R4/9/9/9/9/9/4K4 w", &["e6e7"]),
        Some(Outcome::win(Side::RED, Reason::Stalemate))
    );
}

#[test]
fn move_limit_120_plies_without_capture_is_a_draw() {
    let fen = "4k4/9/9/9/9/R8/9/9/9/3K5 w - - 118 60";
    assert_eq!(outcome(fen, &["a4a5"]), None);
    assert_eq!(
        outcome(fen, &["a4a5", "e9e8"]),
        Some(Outcome::draw(Reason::MoveLimit))
    );
}

#[test]
fn a_capture_resets_the_move_limit_count() {
    let fen = "4k4/9/9/9/p8/R8/9/9/9/3K5 w - - 119 60";
    let mut game = Game::new(pos(fen));
    game.play_iccs("a4a5").unwrap();
    assert_eq!(game.position().halfmove_clock(), 0);
    assert_eq!(game.outcome(), None);
}

#[test]
fn checkmate_comes_before_the_move_limit() {
    // The same mate played as the 120th ply without a capture.
    assert_eq!(
        outcome(&format!("{MATE_IN_ONE} - - 119 60"), &["h0h9"]),
        Some(Outcome::win(Side::RED, Reason::Checkmate))
    );
}

#[test]
fn insufficient_material_without_chariot_horse_cannon_or_soldier_is_a_draw() {
    assert_eq!(
        outcome("3akab2/9/4b4/9/9/9/9/4B4/4A4/3K1A3 w", &[]),
        Some(Outcome::draw(Reason::InsufficientMaterial))
    );
    // One soldier left is enough to go on.
    assert_eq!(outcome("3ak4/9/9/9/9/9/4P4/9/9/3K5 w", &[]), None);
    // Capturing the last attacking piece ends the game.
    assert_eq!(
        outcome("3ak4/9/9/9/9/9/9/9/3p5/3K5 w", &["d0d1"]),
        Some(Outcome::draw(Reason::InsufficientMaterial))
    );
}

#[test]
fn can_ever_check_tells_who_has_mating_material() {
    let p = pos("3ak4/9/9/9/9/9/4P4/9/9/3K5 w");
    assert!(p.can_ever_check(Side::RED));
    assert!(!p.can_ever_check(Side::BLACK));
}

#[test]
fn red_moves_first_and_the_fen_counters_follow_the_moves() {
    let mut game = Game::new(pos("startpos"));
    assert_eq!(game.position().turn(), Side::RED);
    game.play_iccs("h2e2").unwrap();
    assert_eq!(
        game.position().to_fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    );
    game.play_iccs("h9g7").unwrap();
    // The fullmove number increases after Black's move; the halfmove clock counts plies.
    assert_eq!(
        game.position().to_fen(),
        "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    );
    game.play_iccs("e2e6").unwrap(); // captures the soldier: the clock resets
    assert_eq!(game.position().halfmove_clock(), 0);
    assert_eq!(game.last_move().unwrap().to_string(), "e2e6");
    // The cannon on e6 has no screen before the general on e9 (e7, e8 empty): no check.
    assert!(!game.is_check());
}
