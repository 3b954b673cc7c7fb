//! Repetition verdicts (xiangqi.md "Repetition: perpetual check and perpetual chase"): every
//! case the rules file lists, each a real move cycle checked by hand (comments say why each
//! move checks or chases). Each cycle is played twice, so the start position occurs for the
//! third time on the last move.

use jiang_rules::xiangqi::{Game, Position};
use jiang_rules::{Outcome, Reason, Side, Variant};

fn play(fen: &str, cycle: &[&str]) -> Game {
    let mut game = Game::new(Position::parse_fen(Variant::Xiangqi, fen).unwrap());
    let moves: Vec<&str> = cycle.iter().chain(cycle.iter()).copied().collect();
    for (i, mv) in moves.iter().enumerate() {
        assert_eq!(game.outcome(), None, "ended before move {} ({mv})", i + 1);
        game.play_iccs(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    game
}

fn verdict(fen: &str, cycle: &[&str]) -> Option<Outcome> {
    play(fen, cycle).outcome()
}

/// One repetition verdict: a position and the four-move cycle played twice from it.
struct Case {
    name: &'static str,
    fen: &'static str,
    cycle: [&'static str; 4],
    expected: Option<Outcome>,
}

/// Red offends in every cycle that is not a draw, so Black wins.
const RED_LOSES_BY_PERPETUAL_CHECK: Option<Outcome> =
    Some(Outcome::win(Side::BLACK, Reason::PerpetualCheck));
const RED_LOSES_BY_PERPETUAL_CHASE: Option<Outcome> =
    Some(Outcome::win(Side::BLACK, Reason::PerpetualChase));
const DRAW: Option<Outcome> = Some(Outcome::draw(Reason::Repetition));

/// Every verdict case; the comment above each says why each move checks or chases.
const CASES: &[Case] = &[
    // R a8-a9 checks on rank 9, the general steps e9-e8, R a9-a8 checks on rank 8, back.
    Case {
        name: "perpetual_check_by_a_chariot_loses",
        fen: "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1",
        cycle: ["a8a9", "e9e8", "a9a8", "e8e9"],
        expected: RED_LOSES_BY_PERPETUAL_CHECK,
    },
    // R e9-e7 newly attacks the horse on a7 along rank 7; it flees a7-b9; R e7-e9 newly
    // attacks it on b9 along rank 9; it flees back. Nothing black can retake on a7 or b9.
    Case {
        name: "perpetual_chase_of_an_unprotected_horse_by_a_chariot_loses",
        fen: "4R4/5k3/n8/9/9/9/9/9/9/3K5 w - - 0 1",
        cycle: ["e9e7", "a7b9", "e7e9", "b9a7"],
        expected: RED_LOSES_BY_PERPETUAL_CHASE,
    },
    // C g7-g9 attacks the chariot on d9 over the general (screen e9); the chariot goes d9-d7;
    // C g9-g7 attacks it on d7 over the elephant e7. The advisor on e8 protects d9 and d7,
    // but a chariot is worth more than a cannon.
    Case {
        name: "chasing_a_protected_chariot_with_a_cannon_is_still_a_chase",
        fen: "3rk4/4a4/4b1C2/9/9/9/9/9/9/5K3 w - - 0 1",
        cycle: ["g7g9", "d9d7", "g9g7", "d7d9"],
        expected: RED_LOSES_BY_PERPETUAL_CHASE,
    },
    // As the horse chase above, but the chariot on a9 protects a7 (through a8) and b9; the
    // chariots meeting on rank 9 is an offer to exchange. Nobody offends: a draw.
    Case {
        name: "attacking_a_protected_horse_with_a_chariot_is_not_a_chase",
        fen: "r3R4/5k3/n8/9/9/9/9/9/9/3K5 w - - 0 1",
        cycle: ["e9e7", "a7b9", "e7e9", "b9a7"],
        expected: DRAW,
    },
    // The crossed soldier steps d5-e5 under the chariot on e6, which side-steps to d6, and
    // so on: the soldier newly attacks an unprotected chariot every move, yet soldiers never
    // chase.
    Case {
        name: "a_soldier_chasing_is_never_a_chase",
        fen: "3k5/9/9/4r4/3P5/9/9/9/9/5K3 w - - 0 1",
        cycle: ["d5e5", "e6d6", "e5d5", "d6e6"],
        expected: DRAW,
    },
    // The red general steps d1-e1 attacking the cannon on e2, which goes to d2; e1-d1 attacks
    // it again; it goes back. Generals never chase.
    Case {
        name: "a_general_chasing_is_never_a_chase",
        fen: "5k3/9/9/9/9/9/9/4c4/3K5/9 w - - 0 1",
        cycle: ["d1e1", "e2d2", "e1d1", "d2e2"],
        expected: DRAW,
    },
    // R a7-a9 checks along rank 9; the general steps to e8; R a9-a7 newly attacks the
    // unprotected horse on c7 (no check); the general returns. Red mixes a check and a chase.
    Case {
        name: "one_check_one_chase_is_a_draw",
        fen: "4k4/9/R1n6/9/9/9/9/9/9/3K5 w - - 0 1",
        cycle: ["a7a9", "e9e8", "a9a7", "e8e9"],
        expected: DRAW,
    },
    // R a5-a7 newly attacks the horse on c7, R a7-a5 the horse on c5 (both unprotected):
    // every move chases, but not one and the same piece.
    Case {
        name: "a_chariot_alternately_chasing_two_pieces_is_a_draw",
        fen: "4k4/9/2n6/9/R1n6/9/9/9/9/3K5 w - - 0 1",
        cycle: ["a5a7", "e9e8", "a7a5", "e8e9"],
        expected: DRAW,
    },
    // Start: Red is in check from the cannon e4 (screen: the chariot e1).
    // e1d1: the chariot leaves the screen and checks along the d-file.
    // e4d4: the cannon blocks the d-file and uncovers the chariot e9 on the e-file.
    // d1e1: the chariot blocks the e-file and leaves d4 as the only screen of the cannon d0.
    // d4e4: the cannon leaves (check gone) and checks again over the chariot e1.
    Case {
        name: "both_sides_checking_is_a_draw",
        fen: "4r4/3k5/6c2/9/9/4c4/8r/9/4R2R1/3CK4 w - - 0 1",
        cycle: ["e1d1", "e4d4", "d1e1", "d4e4"],
        expected: DRAW,
    },
    // e5d5: the soldier becomes the cannon d1's screen: check. a8d8: the chariot blocks and
    // uncovers the chariot a9 onto the unprotected horse a2 (a chase). d5e5: the soldier
    // leaves, the chariot d8 is now the only screen: check. d8a8: the chariot leaves the
    // d-file and attacks the horse a2 itself (a new attack by another chariot on the same
    // horse). Red checks every move, Black chases the horse every move: the checker loses.
    Case {
        name: "perpetual_check_against_perpetual_chase_the_checker_loses",
        fen: "r2k5/r8/9/9/4P4/9/9/N8/3C5/5K3 w - - 0 1",
        cycle: ["e5d5", "a8d8", "d5e5", "d8a8"],
        expected: RED_LOSES_BY_PERPETUAL_CHECK,
    },
    Case {
        name: "plain_repetition_with_quiet_moves_is_a_draw",
        fen: "4k4/9/9/9/9/R8/9/9/9/3K5 w - - 0 1",
        cycle: ["d0d1", "e9e8", "d1d0", "e8e9"],
        expected: DRAW,
    },
];

#[test]
fn every_listed_cycle_gets_its_verdict() {
    for case in CASES {
        assert_eq!(
            verdict(case.fen, &case.cycle),
            case.expected,
            "{}",
            case.name
        );
    }
}

#[test]
fn the_second_occurrence_is_not_yet_a_repetition() {
    let mut game = Game::new(
        Position::parse_fen(Variant::Xiangqi, "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1").unwrap(),
    );
    for mv in ["a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8", "a9a8"] {
        game.play_iccs(mv).unwrap();
        assert_eq!(game.outcome(), None, "{mv}");
    }
    game.play_iccs("e8e9").unwrap();
    assert!(game.outcome().is_some());
    // The game is over: no further move is accepted.
    assert!(game.play_iccs("a8a9").is_err());
}

#[test]
fn a_chased_piece_is_tracked_by_identity_as_it_moves() {
    // In the horse chase the target changes points every move (a7, b9) and is still one and
    // the same piece: that is what makes the chase perpetual.
    let game = play(
        "4R4/5k3/n8/9/9/9/9/9/9/3K5 w - - 0 1",
        &["e9e7", "a7b9", "e7e9", "b9a7"],
    );
    assert_eq!(game.outcome().unwrap().reason, Reason::PerpetualChase);
    assert_eq!(game.ply(), 8);
}
