//! Jieqi rules (`../shared/rules/jieqi.md`) on the public position: covered pieces move as
//! their point's piece, reveals, freed advisors and elephants, pools, FEN forms, move limit.

use jiang_rules::xiangqi::{FenError, Game, MoveError, Occupant, PieceKind, Position, Square};
use jiang_rules::{Outcome, Position as _, Reason, Side, Variant};

const START: &str =
    "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1";

fn pos(fen: &str) -> Position {
    Position::parse_fen(Variant::Jieqi, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// Destinations of the piece on `from` (reveals collapsed), sorted.
fn moves_from(p: &Position, from: &str) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_moves_unrevealed()
        .into_iter()
        .filter(|mv| mv.from() == sq(from))
        .map(|mv| mv.to().to_string())
        .collect();
    v.sort();
    v
}

fn game(fen: &str, moves: &[&str]) -> Game {
    let mut game = Game::new(pos(fen));
    for mv in moves {
        game.play_iccs(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    game
}

#[test]
fn the_public_start_is_the_documented_fen() {
    let start = pos("startpos");
    assert_eq!(start.fen(), START);
    assert_eq!(pos(START), start);
    assert_eq!(
        start.occupant(sq("e0")),
        Some(Occupant::Piece(jiang_rules::xiangqi::Piece::new(
            Side::RED,
            PieceKind::General
        )))
    );
    assert_eq!(start.occupant(sq("a0")), Some(Occupant::Covered(Side::RED)));
    assert_eq!(start.moves_as(sq("b2")), Some(PieceKind::Cannon));
    assert_eq!(start.covered_count(Side::BLACK), 15);
}

#[test]
fn covered_pieces_move_as_their_points_piece() {
    let start = pos("startpos");
    // Covered chariot a0: a1 a2; covered horse b0: a2 c2; covered elephant c0: a2 e2;
    // covered soldier a3: a4.
    assert_eq!(moves_from(&start, "a0"), ["a1", "a2"]);
    assert_eq!(moves_from(&start, "b0"), ["a2", "c2"]);
    assert_eq!(moves_from(&start, "c0"), ["a2", "e2"]);
    assert_eq!(moves_from(&start, "a3"), ["a4"]);
    // The same 44 from-to moves as in Xiangqi.
    assert_eq!(start.legal_moves_unrevealed().len(), 44);
}

#[test]
fn covered_advisor_stays_in_the_palace() {
    assert_eq!(moves_from(&pos("startpos"), "d0"), ["e1"]);
}

#[test]
fn covered_cannon_captures_over_a_covered_screen() {
    let start = pos("startpos");
    assert!(moves_from(&start, "b2").contains(&"b9".to_owned()));
    // Every identity of the pool is a legal reveal for it, and captures the covered horse.
    for letter in ['A', 'B', 'N', 'R', 'C', 'P'] {
        let mut g = Game::new(start.clone());
        g.play_iccs(&format!("b2b9{letter}")).unwrap();
        assert!(g.position().occupant(sq("b9")).unwrap().piece().is_some());
        assert_eq!(g.position().covered_count(Side::BLACK), 14);
    }
}

#[test]
fn revealed_advisor_moves_diagonally_anywhere() {
    let fen = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/2A6/X1X1X1X1X/1X5X1/9/XXX1KXXXX w";
    assert_eq!(moves_from(&pos(fen), "c4"), ["b3", "b5", "d3", "d5"]);
    // In Xiangqi the same advisor could never stand there.
    assert!(matches!(
        Position::parse_fen(Variant::Xiangqi, "4k4/9/9/9/9/2A6/9/9/9/4K4 w"),
        Err(FenError::UnreachablePoint { .. })
    ));
    // Revealed on e1 by a real move, it may then leave the palace.
    let g = game("startpos", &["d0e1A", "a6a5p", "e1d2"]);
    assert_eq!(
        g.position().piece_at(sq("d2")).unwrap().kind,
        PieceKind::Advisor
    );
}

#[test]
fn revealed_elephant_crosses_the_river_but_its_eye_still_blocks() {
    let fen = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/2B6/X1X1X1X1X/1X5X1/9/XX1XKXXXX w";
    // a6 and e6 hold covered black soldiers: captured across the river.
    assert_eq!(moves_from(&pos(fen), "c4"), ["a2", "a6", "e2", "e6"]);
    let blocked = "xxxxkxxxx/9/1x5x1/x3x1x1x/3p5/2B6/X1X1X1X1X/1X5X1/9/XX1XKXXXX w";
    assert_eq!(moves_from(&pos(blocked), "c4"), ["a2", "a6", "e2"]);
}

#[test]
fn covered_elephant_cannot_cross() {
    // A covered elephant only ever stands on c0/g0 and reaches a2/e2, g0: e2/i2.
    assert_eq!(moves_from(&pos("startpos"), "g0"), ["e2", "i2"]);
}

#[test]
fn soldier_revealed_on_its_back_rank_moves_forward_only() {
    // The covered chariot a0 goes to a1 and turns out to be a soldier.
    let g = game("startpos", &["a0a1P", "a6a5p"]);
    assert_eq!(moves_from(g.position(), "a1"), ["a2"]);
}

#[test]
fn a_covered_move_needs_its_reveal_suffix_from_the_pool() {
    let mut g = Game::new(pos("startpos"));
    assert!(matches!(
        g.play_iccs("h2e2"),
        Err(jiang_rules::xiangqi::PlayError::Illegal(
            MoveError::MissingReveal { .. }
        ))
    ));
    // Black's letter for a Red move, or the general: rejected.
    assert!(g.play_iccs("h2e2c").is_err());
    assert!(g.play_iccs("h2e2K").is_err());
    // A face-up piece takes no suffix.
    assert!(g.play_iccs("e0e1A").is_err());
    g.play_iccs("h2e2C").unwrap();
    assert_eq!(g.position().pool(Side::RED).count(PieceKind::Cannon), 1);
    assert_eq!(g.last_move().unwrap().to_string(), "h2e2C");
    // Both cannons revealed: no third one to reveal.
    g.play_iccs("h7e7c").unwrap();
    g.play_iccs("b2c2C").unwrap();
    g.play_iccs("b7c7c").unwrap();
    assert!(matches!(
        g.play_iccs("a3a4C"),
        Err(jiang_rules::xiangqi::PlayError::Illegal(
            MoveError::RevealNotInPool { .. }
        ))
    ));
    assert_eq!(g.position().pool(Side::RED).count(PieceKind::Cannon), 0);
}

#[test]
fn a_captured_covered_piece_stays_in_the_public_pool() {
    let g = game("startpos", &["b2b9R"]);
    let p = g.position();
    assert_eq!(
        p.pool(Side::BLACK).total(),
        15,
        "nobody publicly saw what b9 was"
    );
    assert_eq!(p.covered_count(Side::BLACK), 14);
    assert_eq!(p.pool(Side::RED).count(PieceKind::Chariot), 1);
    assert_eq!(p.halfmove_clock(), 0);
}

#[test]
fn move_limit_counts_reveals_but_not_captures() {
    let at = |half: u32| START.replace(" 0 1", &format!(" {half} 70"));
    // A reveal on ply 120 without a capture: draw by move limit.
    assert_eq!(
        game(&at(119), &["a3a4P"]).outcome(),
        Some(Outcome::draw(Reason::MoveLimit))
    );
    // A capture on that ply resets the count.
    let g = game(&at(119), &["b2b9C"]);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.position().halfmove_clock(), 0);
}

#[test]
fn the_three_fen_forms_are_told_apart_by_field_count() {
    let short = pos("xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w");
    let xiangqi_form = pos("xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w - - 0 1");
    assert_eq!(short, xiangqi_form);
    assert_eq!(short.fen(), START, "canonical output is the pool form");
    // The pool form's pool is taken as given.
    let given = pos(
        "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 3 9",
    );
    assert_eq!((given.halfmove_clock(), given.fullmove_number()), (3, 9));
    // Derived pool: full set minus revealed pieces on the board.
    let derived = pos("xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/2A6/X1X1X1X1X/1X5X1/9/XXX1KXXXX w");
    assert_eq!(derived.pool(Side::RED).count(PieceKind::Advisor), 1);
    assert_eq!(derived.pool(Side::RED).total(), 14);
    assert!(derived.fen().contains(" A1B2N2R2C2P5a2b2n2r2c2p5 "));
    // An empty pool is written `-`.
    let bare = pos("3k5/9/9/9/9/9/9/9/9/R3K4 w - 0 1");
    assert_eq!(bare.fen(), "3k5/9/9/9/9/9/9/9/9/R3K4 w - 0 1");
}

#[test]
fn covered_pieces_only_on_their_sides_start_points() {
    assert!(matches!(
        Position::parse_fen(
            Variant::Jieqi,
            "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/X8/X1X1X1X1X/1X5X1/9/XXXXKXXXX w"
        ),
        Err(FenError::CoveredOffStartPoint { .. })
    ));
    // A red covered piece on a black start point is also wrong.
    assert!(matches!(
        Position::parse_fen(
            Variant::Jieqi,
            "Xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXX1 w"
        ),
        Err(FenError::CoveredOffStartPoint { .. })
    ));
    // Never in Xiangqi.
    assert!(matches!(
        Position::parse_fen(Variant::Xiangqi, START),
        Err(FenError::CoveredInXiangqi { .. }) | Err(FenError::FieldCount { .. })
    ));
    // More covered pieces than the pool holds.
    assert!(matches!(
        Position::parse_fen(
            Variant::Jieqi,
            "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2 0 1"
        ),
        Err(FenError::PoolTooSmall { .. })
    ));
}

#[test]
fn insufficient_material_counts_covered_pieces_as_anything() {
    // Generals, advisors and elephants only: a draw in Xiangqi terms, but a covered Red piece
    // whose pool still holds a chariot could be one.
    let covered = pos("3k5/9/9/9/9/9/9/9/9/X3K4 w R1 0 1");
    assert!(covered.can_ever_check(Side::RED));
    assert_eq!(Game::new(covered).outcome(), None);
    // Revealed advisors roam freely in Jieqi and can give check.
    let advisor = pos("3k5/9/9/9/9/9/9/9/4A4/4K4 w - 0 1");
    assert!(advisor.can_ever_check(Side::RED));
    // Nothing at all: a draw.
    let bare = pos("3k5/9/9/9/9/9/9/9/9/4K4 w - 0 1");
    assert_eq!(
        Game::new(bare).outcome(),
        Some(Outcome::draw(Reason::InsufficientMaterial))
    );
}

#[test]
fn move_texts_for_players_have_no_suffix() {
    let texts = pos("startpos").legal_move_texts();
    assert_eq!(texts.len(), 44);
    assert!(texts.iter().all(|t| t.len() == 4));
    assert!(texts.contains(&"h2e2".to_owned()));
}

#[test]
fn find_move_attaches_a_dealt_identity() {
    // What the hidden-information layer does with a player's `h2e2`.
    let start = pos("startpos");
    let mv = start
        .find_move(sq("h2"), sq("e2"), Some(PieceKind::Horse))
        .unwrap();
    assert_eq!(mv.to_string(), "h2e2N");
    assert!(start.find_move(sq("h2"), sq("e2"), None).is_err());
    assert!(start.find_move(sq("e0"), sq("e1"), None).is_ok());
}

#[test]
fn repetition_compares_covered_points_too() {
    // The generals shuffle between covered pieces that never move: the third occurrence of
    // the start is a plain repetition (generals never chase).
    let moves = ["e0e1", "e9e8", "e1e0", "e8e9"];
    let all: Vec<&str> = moves.iter().chain(moves.iter()).copied().collect();
    assert_eq!(
        game("startpos", &all).outcome(),
        Some(Outcome::draw(Reason::Repetition))
    );
    // After a reveal the covered set differs, so earlier positions no longer count.
    let with_reveal = [
        "e0e1", "e9e8", "e1e0", "e8e9", "a3a4P", "a6a5p", "e0e1", "e9e8", "e1e0", "e8e9",
    ];
    assert_eq!(game("startpos", &with_reveal).outcome(), None);
}
