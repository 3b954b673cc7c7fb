//! Every class of setup problem, per variant, as a board editor sees them: typed, with where,
//! all at once (`Setup::problems`), and the first one as the error of validation.

use jiang_rules::shogi::{self, SetupProblem, SfenError};
use jiang_rules::xiangqi::{self, FenError, Piece, PieceKind, SideName};
use jiang_rules::{Side, Variant};

fn xq_problems(variant: Variant, fen: &str) -> Vec<FenError> {
    xiangqi::Setup::parse(variant, fen)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .problems(variant)
}

fn xsq(name: &str) -> xiangqi::Square {
    name.parse().unwrap()
}

fn ssq(name: &str) -> shogi::Square {
    name.parse().unwrap()
}

fn sg_problems(variant: Variant, sfen: &str) -> Vec<SetupProblem> {
    shogi::Setup::parse(variant, sfen)
        .unwrap_or_else(|e| panic!("{sfen}: {e}"))
        .problems()
}

const RED: SideName = SideName(Side::RED);
const BLACK: SideName = SideName(Side::BLACK);

#[test]
fn xiangqi_general_counts_and_palace() {
    let v = Variant::Xiangqi;
    assert_eq!(
        xq_problems(v, "4k4/9/9/9/9/9/9/9/9/3KK4 w"),
        [FenError::GeneralCount {
            side: RED,
            found: 2
        }]
    );
    assert_eq!(
        xq_problems(v, "9/9/9/9/9/9/9/9/9/3K5 w"),
        [FenError::GeneralCount {
            side: BLACK,
            found: 0
        }]
    );
    assert_eq!(
        xq_problems(v, "4k4/9/9/9/9/9/9/9/9/K8 w"),
        [FenError::GeneralOutsidePalace {
            side: RED,
            square: xsq("a0")
        }]
    );
}

#[test]
fn xiangqi_pieces_on_points_they_never_reach() {
    let v = Variant::Xiangqi;
    let unreachable = |fen: &str| match xq_problems(v, fen).as_slice() {
        [FenError::UnreachablePoint { piece, square, .. }] => (*piece, *square),
        other => panic!("{fen}: {other:?}"),
    };
    // An advisor off the palace diagonals, an elephant off its seven points or over the
    // river, a soldier behind its start or beside it before the river.
    for (fen, side, kind, square) in [
        (
            "4k4/9/9/9/9/9/9/9/9/A2K5 w",
            Side::RED,
            PieceKind::Advisor,
            "a0",
        ),
        (
            "4k4/9/9/9/B8/9/9/9/9/3K5 w",
            Side::RED,
            PieceKind::Elephant,
            "a5",
        ),
        (
            "3k5/9/9/9/9/9/9/9/P8/4K4 w",
            Side::RED,
            PieceKind::Soldier,
            "a1",
        ),
        (
            "3k5/9/9/1p7/9/9/9/9/9/4K4 w",
            Side::BLACK,
            PieceKind::Soldier,
            "b6",
        ),
    ] {
        assert_eq!(unreachable(fen), (Piece::new(side, kind), xsq(square)));
    }
    // Where they may stand: no problem.
    assert!(xq_problems(v, "3k5/9/9/p8/9/9/9/4B4/4A4/4K4 w").is_empty());
}

#[test]
fn xiangqi_too_many_of_a_kind() {
    assert_eq!(
        xq_problems(Variant::Xiangqi, "3k5/9/9/9/PPPPPP3/9/9/9/9/4K4 w"),
        [FenError::TooMany {
            side: RED,
            letter: 'P',
            found: 6,
            max: 5,
            pool_note: "",
        }]
    );
}

#[test]
fn xiangqi_check_of_the_side_not_to_move_and_facing_generals() {
    let v = Variant::Xiangqi;
    assert_eq!(
        xq_problems(v, "4k4/9/9/9/4R4/9/9/9/9/3K5 w"),
        [FenError::OpponentInCheck { side: BLACK }]
    );
    // The same with Black to move is fine: Black is in check and must answer it.
    assert!(xq_problems(v, "4k4/9/9/9/4R4/9/9/9/9/3K5 b").is_empty());
    assert_eq!(
        xq_problems(v, "3k5/9/9/9/9/9/9/9/9/3K5 w"),
        [FenError::GeneralsFacing {
            red: xsq("d0"),
            black: xsq("d9")
        }]
    );
}

#[test]
fn xiangqi_lists_every_problem_at_once_and_validate_gives_the_first() {
    let fen = "4k4/9/9/9/9/9/9/9/P8/KK7 w";
    let problems = xq_problems(Variant::Xiangqi, fen);
    assert_eq!(
        problems,
        [
            FenError::GeneralOutsidePalace {
                side: RED,
                square: xsq("a0")
            },
            FenError::GeneralOutsidePalace {
                side: RED,
                square: xsq("b0")
            },
            FenError::UnreachablePoint {
                piece: Piece::new(Side::RED, PieceKind::Soldier),
                square: xsq("a1"),
                why: "a soldier never stands behind or beside its start before crossing the river",
            },
            FenError::GeneralCount {
                side: RED,
                found: 2
            },
        ]
    );
    assert_eq!(
        xiangqi::Position::parse_fen(Variant::Xiangqi, fen),
        Err(problems[0].clone())
    );
}

#[test]
fn jieqi_covered_pieces_on_their_start_points_and_a_pool_that_fits() {
    let v = Variant::Jieqi;
    assert_eq!(
        xq_problems(v, "3k5/9/9/9/9/9/9/9/X8/4K4 w"),
        [FenError::CoveredOffStartPoint {
            rank: 1,
            side: RED,
            square: xsq("a1")
        }]
    );
    // A red covered piece on a black start point.
    assert_eq!(
        xq_problems(v, "X3k4/9/9/9/9/9/9/9/9/3K5 w"),
        [FenError::CoveredOffStartPoint {
            rank: 9,
            side: RED,
            square: xsq("a9")
        }]
    );
    // Generals are never covered.
    assert!(xq_problems(v, "4x4/3k5/9/9/9/9/9/9/9/4K4 w").contains(
        &FenError::CoveredOffStartPoint {
            rank: 9,
            side: BLACK,
            square: xsq("e9")
        }
    ));
    // Covered pieces are a Jieqi thing: in Xiangqi the FEN does not even read.
    assert!(matches!(
        xiangqi::Setup::parse(Variant::Xiangqi, "4k4/9/9/9/9/9/9/9/9/X3K4 w"),
        Err(FenError::CoveredInXiangqi { .. })
    ));
    // Revealed pieces roam: an advisor and an elephant across the river are fine.
    assert!(xq_problems(v, "4k4/9/9/9/2A1B4/9/9/9/9/4K4 w").is_empty());

    // The pool must fit the board.
    // Two covered red pieces but one identity left in Red's pool.
    assert_eq!(
        xq_problems(v, "3k5/9/9/9/9/9/9/9/9/XX2K4 w R1 0 1"),
        [FenError::PoolTooSmall {
            side: RED,
            covered: 2,
            pool: 1
        }]
    );
    // A revealed red chariot plus two still in the pool: three of a kind that has two.
    assert_eq!(
        xq_problems(v, "4k4/9/9/9/4R4/9/9/9/9/X3K4 w R2 0 1"),
        [
            FenError::TooMany {
                side: RED,
                letter: 'R',
                found: 3,
                max: 2,
                pool_note: " and in the pool",
            },
            FenError::OpponentInCheck { side: BLACK },
        ]
    );
    // Without a pool field the pool is derived and always fits.
    assert!(xq_problems(v, "3k5/9/9/9/9/9/9/9/9/XX2K4 w").is_empty());
}

#[test]
fn shogi_kings() {
    let v = Variant::Shogi;
    assert_eq!(
        sg_problems(v, "4k4/9/9/9/9/9/9/9/3KK4 b - 1"),
        [SetupProblem::KingCount {
            side: Side::SENTE,
            found: 2
        }]
    );
    // A tsume lacks the attacker's king (shogi.md): valid, whichever side is to move, and
    // for either side as the attacker.
    assert!(sg_problems(v, "4k4/9/9/9/9/9/9/9/9 b - 1").is_empty());
    assert!(sg_problems(v, "4k4/9/9/9/9/9/9/9/9 w - 1").is_empty());
    assert!(sg_problems(v, "9/9/9/9/9/9/9/9/4K4 w - 1").is_empty());
    // A position needs the defender's king: no king at all is refused, for both sides.
    assert_eq!(
        sg_problems(v, "9/9/9/9/9/9/9/9/9 b P 1"),
        [
            SetupProblem::KingCount {
                side: Side::SENTE,
                found: 0
            },
            SetupProblem::KingCount {
                side: Side::GOTE,
                found: 0
            }
        ]
    );
    // Two kings for the defender and none for the attacker: both counts are wrong.
    assert_eq!(
        sg_problems(v, "3kk4/9/9/9/9/9/9/9/9 b - 1"),
        [
            SetupProblem::KingCount {
                side: Side::SENTE,
                found: 0
            },
            SetupProblem::KingCount {
                side: Side::GOTE,
                found: 2
            }
        ]
    );
    // The defender to move may be in check; the defender waiting in check is refused.
    assert!(sg_problems(v, "4k4/4R4/9/9/9/9/9/9/9 w - 1").is_empty());
    assert_eq!(
        sg_problems(v, "4k4/4R4/9/9/9/9/9/9/9 b - 1"),
        [SetupProblem::OpponentInCheck { side: Side::GOTE }]
    );
    // Minishogi too.
    assert!(sg_problems(Variant::Minishogi, "4k/5/5/5/5 b G 1").is_empty());
}

#[test]
fn shogi_stuck_pieces_nifu_and_counts() {
    let v = Variant::Shogi;
    assert_eq!(
        sg_problems(v, "k3P4/1N7/9/9/9/9/9/9/K3l4 b - 1"),
        [
            SetupProblem::StuckPiece {
                side: Side::SENTE,
                kind: shogi::PieceKind::Pawn,
                square: ssq("5a")
            },
            SetupProblem::StuckPiece {
                side: Side::SENTE,
                kind: shogi::PieceKind::Knight,
                square: ssq("8b")
            },
            SetupProblem::StuckPiece {
                side: Side::GOTE,
                kind: shogi::PieceKind::Lance,
                square: ssq("5i")
            },
        ]
    );
    // Promoted pieces on the last rank are fine.
    assert!(sg_problems(v, "k3+P4/7+N1/9/9/9/9/9/9/K3+l4 b - 1").is_empty());
    assert_eq!(
        sg_problems(v, "k8/9/4P4/9/4P4/9/9/9/K8 b - 1"),
        [SetupProblem::Nifu {
            side: Side::SENTE,
            file: 5
        }]
    );
    // A tokin does not count for nifu.
    assert!(sg_problems(v, "k8/9/4+P4/9/4P4/9/9/9/K8 b - 1").is_empty());
    // Hands count: 18 pawns on the board plus one in hand.
    assert_eq!(
        sg_problems(v, "k8/9/9/9/9/9/9/9/K8 b 2B1b 1"),
        [SetupProblem::TooMany {
            kind: shogi::PieceKind::Bishop,
            found: 3,
            max: 2
        }]
    );
}

#[test]
fn shogi_side_not_to_move_in_check() {
    let v = Variant::Shogi;
    assert_eq!(
        sg_problems(v, "k8/R8/9/9/9/9/9/9/8K b - 1"),
        [SetupProblem::OpponentInCheck { side: Side::GOTE }]
    );
    assert!(sg_problems(v, "k8/R8/9/9/9/9/9/9/8K w - 1").is_empty());
    assert_eq!(
        shogi::Position::from_sfen(v, "k8/R8/9/9/9/9/9/9/8K b - 1").unwrap_err(),
        SfenError::Illegal(SetupProblem::OpponentInCheck { side: Side::GOTE })
    );
}

#[test]
fn minishogi_problems() {
    let v = Variant::Minishogi;
    assert_eq!(
        sg_problems(v, "k1P2/5/5/5/4K b - 1"),
        [SetupProblem::StuckPiece {
            side: Side::SENTE,
            kind: shogi::PieceKind::Pawn,
            square: ssq("3a")
        }]
    );
    assert_eq!(
        sg_problems(v, "k4/2p2/5/2p2/4K b - 1"),
        [SetupProblem::Nifu {
            side: Side::GOTE,
            file: 3
        }]
    );
    // Minishogi's set has two pawns and no lances.
    assert_eq!(
        sg_problems(v, "k4/5/5/5/4K b 2Pp 1"),
        [SetupProblem::TooMany {
            kind: shogi::PieceKind::Pawn,
            found: 3,
            max: 2
        }]
    );
    assert_eq!(
        sg_problems(v, "k4/5/5/5/4K b L 1"),
        [SetupProblem::TooMany {
            kind: shogi::PieceKind::Lance,
            found: 1,
            max: 0
        }]
    );
    assert_eq!(
        sg_problems(v, "k4/5/5/5/K3K w - 1"),
        [SetupProblem::KingCount {
            side: Side::SENTE,
            found: 2
        }]
    );
    assert_eq!(
        sg_problems(v, "k4/R4/5/5/4K b - 1"),
        [SetupProblem::OpponentInCheck { side: Side::GOTE }]
    );
    assert!(sg_problems(v, "startpos").is_empty());
}

/// The board field for `ranks` × `files` cells: index `n` into `letters` is a piece (of
/// one or two characters), anything past them an empty square.
fn board(cells: &[usize], files: usize, letters: &[&str]) -> String {
    let mut ranks = Vec::new();
    for rank in cells.chunks(files) {
        let (mut text, mut empty) = (String::new(), 0);
        for &c in rank {
            match letters.get(c) {
                Some(piece) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push_str(piece);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    ranks.join("/")
}

const XQ: &[&str] = &[
    "K", "k", "A", "B", "N", "R", "C", "P", "a", "b", "n", "r", "c", "p", "X", "x", "X", "x",
];
const SG: &[&str] = &[
    "K", "k", "P", "p", "L", "l", "N", "n", "S", "s", "G", "g", "B", "b", "R", "r", "+P", "+p",
    "+R", "+b",
];
const MINI: &[&str] = &[
    "K", "k", "P", "p", "S", "s", "G", "g", "B", "b", "R", "r", "+P", "+s",
];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// Random boards never panic, and the problems are empty exactly when validation accepts
    /// (the first problem is validation's error).
    #[test]
    fn problems_agree_with_validation(
        xq in proptest::collection::vec(0..60usize, 90),
        sg in proptest::collection::vec(0..120usize, 81),
        mini in proptest::collection::vec(0..30usize, 25),
        turn in proptest::bool::ANY,
        pool in "(-|[ABNRCPabnrcp][0-5]{1,2}){1,3}",
        hands in "(-|[0-3]?[RBGSNLPrbgsnlp]){1,4}",
    ) {
        let side = if turn { "w" } else { "b" };
        let xq = board(&xq, 9, XQ);
        for (variant, fen) in [
            (Variant::Xiangqi, format!("{} {side}", xq.replace(['X', 'x'], "1"))),
            (Variant::Jieqi, format!("{xq} {side}")),
            (Variant::Jieqi, format!("{xq} {side} {pool} 0 1")),
        ] {
            if let Ok(setup) = xiangqi::Setup::parse(variant, &fen) {
                let problems = setup.problems(variant);
                let valid = setup.validate(variant);
                proptest::prop_assert_eq!(problems.is_empty(), valid.is_ok(), "{}", fen);
                if let Err(e) = valid {
                    proptest::prop_assert_eq!(&problems[0], &e);
                }
            }
        }
        for (variant, sfen) in [
            (Variant::Shogi, format!("{} {side} {hands} 1", board(&sg, 9, SG))),
            (Variant::Minishogi, format!("{} {side} {hands} 1", board(&mini, 5, MINI))),
        ] {
            if let Ok(setup) = shogi::Setup::parse(variant, &sfen) {
                let problems = setup.problems();
                let text = setup.sfen();
                match setup.validate() {
                    Ok(p) => {
                        proptest::prop_assert!(problems.is_empty(), "{}", sfen);
                        proptest::prop_assert_eq!(p.sfen(), text);
                    }
                    Err(e) => proptest::prop_assert_eq!(SfenError::Illegal(problems[0].clone()), e),
                }
            }
        }
    }
}
