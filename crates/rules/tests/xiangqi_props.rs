//! Property tests over random Xiangqi and Jieqi games: the move generator agrees with a slow,
//! obviously-correct reference written here from the rules text alone (try every from-to pair
//! against the piece's geometry, then test the general's safety by brute force); playing
//! keeps the position consistent (FEN round trip rebuilds the identical position); and the
//! FEN and move parsers never panic on arbitrary input.

use std::collections::BTreeSet;

use jiang_rules::xiangqi::{Game, Occupant, PieceKind, Position, Square};
use jiang_rules::{Position as _, Side, Variant};
use proptest::prelude::*;

#[derive(Clone, Copy)]
struct Cell {
    side: Side,
    /// The kind it moves as (a covered piece: its point's kind).
    kind: PieceKind,
    covered: bool,
}

type Board = [Option<Cell>; 90];

fn board_of(p: &Position) -> Board {
    let mut b = [None; 90];
    for sq in Square::all() {
        if let Some(o) = p.occupant(sq) {
            b[sq.index()] = Some(Cell {
                side: o.side(),
                kind: p.moves_as(sq).unwrap(),
                covered: matches!(o, Occupant::Covered(_)),
            });
        }
    }
    b
}

fn fr(i: usize) -> (i32, i32) {
    ((i % 9) as i32, (i / 9) as i32)
}

fn at(f: i32, r: i32) -> usize {
    (r * 9 + f) as usize
}

fn in_palace(side: Side, i: usize) -> bool {
    let (f, r) = fr(i);
    let r = if side == Side::RED { r } else { 9 - r };
    (3..=5).contains(&f) && r <= 2
}

fn own_half(side: Side, i: usize) -> bool {
    let (_, r) = fr(i);
    if side == Side::RED { r <= 4 } else { r >= 5 }
}

/// Pieces strictly between two points on one line (None if not on one line).
fn between(b: &Board, from: usize, to: usize) -> Option<usize> {
    let ((f1, r1), (f2, r2)) = (fr(from), fr(to));
    if f1 != f2 && r1 != r2 {
        return None;
    }
    let (df, dr) = ((f2 - f1).signum(), (r2 - r1).signum());
    let (mut f, mut r, mut n) = (f1 + df, r1 + dr, 0);
    while (f, r) != (f2, r2) {
        n += b[at(f, r)].is_some() as usize;
        f += df;
        r += dr;
    }
    Some(n)
}

/// Could the piece on `from` move to `to` by its own rules (general safety ignored)?
fn geometry(b: &Board, jieqi: bool, from: usize, to: usize) -> bool {
    let Some(c) = b[from] else { return false };
    if from == to || b[to].is_some_and(|t| t.side == c.side) {
        return false;
    }
    let ((f1, r1), (f2, r2)) = (fr(from), fr(to));
    let (df, dr) = (f2 - f1, r2 - r1);
    let free = jieqi && !c.covered;
    match c.kind {
        PieceKind::General => df.abs() + dr.abs() == 1 && in_palace(c.side, to),
        PieceKind::Advisor => df.abs() == 1 && dr.abs() == 1 && (free || in_palace(c.side, to)),
        PieceKind::Elephant => {
            df.abs() == 2
                && dr.abs() == 2
                && b[at(f1 + df / 2, r1 + dr / 2)].is_none()
                && (free || own_half(c.side, to))
        }
        PieceKind::Horse => {
            let leg = if df.abs() == 2 && dr.abs() == 1 {
                at(f1 + df / 2, r1)
            } else if df.abs() == 1 && dr.abs() == 2 {
                at(f1, r1 + dr / 2)
            } else {
                return false;
            };
            b[leg].is_none()
        }
        PieceKind::Chariot => between(b, from, to) == Some(0),
        PieceKind::Cannon => match between(b, from, to) {
            Some(n) => n == if b[to].is_some() { 1 } else { 0 },
            None => false,
        },
        PieceKind::Soldier => {
            let forward = if c.side == Side::RED { 1 } else { -1 };
            (df == 0 && dr == forward) || (dr == 0 && df.abs() == 1 && !own_half(c.side, from))
        }
    }
}

/// Is `side`'s general attacked (including by the facing enemy general)?
fn attacked(b: &Board, jieqi: bool, side: Side) -> bool {
    let king = (0..90)
        .find(|&i| b[i].is_some_and(|c| c.side == side && c.kind == PieceKind::General))
        .expect("general");
    (0..90).any(|i| match b[i] {
        Some(c) if c.side != side => {
            geometry(b, jieqi, i, king)
                || (c.kind == PieceKind::General
                    && i % 9 == king % 9
                    && between(b, i, king) == Some(0))
        }
        _ => false,
    })
}

fn reference_moves(p: &Position) -> BTreeSet<(usize, usize)> {
    let b = board_of(p);
    let jieqi = p.variant() == Variant::Jieqi;
    let mut out = BTreeSet::new();
    for from in 0..90 {
        if b[from].is_none_or(|c| c.side != p.turn()) {
            continue;
        }
        for to in 0..90 {
            if geometry(&b, jieqi, from, to) {
                let mut after = b;
                after[to] = after[from];
                after[from] = None;
                if !attacked(&after, jieqi, p.turn()) {
                    out.insert((from, to));
                }
            }
        }
    }
    out
}

fn engine_moves(p: &Position) -> BTreeSet<(usize, usize)> {
    p.legal_moves()
        .into_iter()
        .map(|m| (m.from().index(), m.to().index()))
        .collect()
}

fn check_position(p: &Position) -> Result<(), TestCaseError> {
    let fen = p.fen();
    prop_assert_eq!(
        engine_moves(p),
        reference_moves(p),
        "moves differ in {}",
        fen
    );
    let b = board_of(p);
    prop_assert_eq!(
        p.is_check(),
        attacked(&b, p.variant() == Variant::Jieqi, p.turn()),
        "check in {}",
        &fen
    );
    // FEN round trip rebuilds exactly the same position (bitboards, hash, pools, clocks).
    let reparsed = Position::from_fen(p.variant(), &fen)
        .map_err(|e| TestCaseError::fail(format!("{fen}: {e}")))?;
    prop_assert_eq!(&reparsed, p, "round trip of {}", &fen);
    prop_assert_eq!(reparsed.fen(), fen);
    // Jieqi: every covered from-to pair comes once per distinct identity in the pool.
    let pool_kinds = p.pool(p.turn()).kinds().count();
    for (from, to) in engine_moves(p) {
        let n = p
            .legal_moves()
            .iter()
            .filter(|m| (m.from().index(), m.to().index()) == (from, to))
            .count();
        let covered = p
            .occupant(Square::from_index(from).unwrap())
            .unwrap()
            .is_covered();
        prop_assert_eq!(n, if covered { pool_kinds } else { 1 });
    }
    prop_assert_eq!(p.perft(1), p.legal_moves().len() as u64);
    Ok(())
}

fn random_game(variant: Variant, choices: &[u16]) -> Result<(), TestCaseError> {
    let mut game = Game::new(Position::start(variant));
    let mut seen = vec![game.position().clone()];
    for &choice in choices {
        let position = game.position().clone();
        check_position(&position)?;
        if game.outcome().is_some() {
            break;
        }
        let moves = position.legal_moves();
        let mv = moves[choice as usize % moves.len()];
        // Playing through the game and through the position agree, and the move's text parses
        // back to the same move.
        prop_assert_eq!(position.parse_move(&mv.to_string()), Ok(mv));
        game.play(mv)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(game.position(), &position.after(mv));
        seen.push(position.after(mv));
    }
    // The game keeps only the positions since the last capture and replays the others.
    prop_assert_eq!(game.positions().collect::<Vec<_>>(), seen);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn xiangqi_games_agree_with_the_reference(choices in prop::collection::vec(any::<u16>(), 1..120)) {
        random_game(Variant::Xiangqi, &choices)?;
    }

    #[test]
    fn jieqi_games_agree_with_the_reference(choices in prop::collection::vec(any::<u16>(), 1..120)) {
        random_game(Variant::Jieqi, &choices)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn fen_parser_never_panics_on_arbitrary_text(text in ".{0,120}") {
        for variant in [Variant::Xiangqi, Variant::Jieqi] {
            if let Ok(p) = Position::from_fen(variant, &text) {
                // Whatever parses is a playable, round-tripping position.
                let _ = p.legal_moves();
                prop_assert_eq!(Position::from_fen(variant, &p.fen()).unwrap(), p);
            }
        }
    }

    #[test]
    fn fen_parser_never_panics_on_fen_like_text(
        text in "[rnbakcpxheRNBAKCPXHE1-9/]{0,70}( [wrbx-]{0,2}( [A-Za-z0-9-]{0,30}( [0-9-]{0,4}){0,4})?)?"
    ) {
        for variant in [Variant::Xiangqi, Variant::Jieqi] {
            if let Ok(p) = Position::from_fen(variant, &text) {
                let _ = p.legal_moves();
                prop_assert_eq!(Position::from_fen(variant, &p.fen()).unwrap(), p);
            }
        }
    }

    #[test]
    fn move_parser_never_panics(text in ".{0,8}", ascii in "[a-j0-9A-Za-z]{0,6}") {
        for variant in [Variant::Xiangqi, Variant::Jieqi] {
            let p = Position::start(variant);
            for t in [&text, &ascii] {
                if let Ok(mv) = p.parse_move(t) {
                    prop_assert!(p.legal_moves().contains(&mv));
                }
            }
        }
    }
}
