//! Japanese and Western move notation: every piece, every disambiguation word (with the JSA's
//! tricky cases), 同, 打, 成/不成, from hand-built positions; round trips over random games;
//! parsers never panic.

mod common;

use common::random_game;
use jiang_rules::Variant;
use jiang_rules::shogi::notation::{
    NotationError, WesternStyle, japanese, japanese_line, parse_japanese, parse_western, western,
};
use jiang_rules::shogi::{Move, Position};
use proptest::prelude::*;

/// A shogi position from `(usi square, sfen letter)` pairs, side to move and hands.
fn pos(pieces: &[(&str, &str)], turn: &str, hands: &str) -> Position {
    pos_of(Variant::Shogi, 9, pieces, turn, hands)
}

/// A Shogi position with Sente to move and both hands empty.
fn sente_to_move(pieces: &[(&str, &str)]) -> Position {
    pos(pieces, "b", "-")
}

fn pos_of(
    variant: Variant,
    size: u8,
    pieces: &[(&str, &str)],
    turn: &str,
    hands: &str,
) -> Position {
    let mut grid = vec![vec![String::new(); size as usize]; size as usize];
    for (sq, p) in pieces {
        let b = sq.as_bytes();
        let file = (b[0] - b'0') as usize;
        let rank = (b[1] - b'a') as usize;
        grid[rank][size as usize - file] = (*p).to_owned();
    }
    let rows: Vec<String> = grid
        .iter()
        .map(|row| {
            let mut out = String::new();
            let mut empty = 0;
            for cell in row {
                if cell.is_empty() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(cell);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    let sfen = format!("{} {turn} {hands} 1", rows.join("/"));
    Position::from_sfen(variant, &sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn mv(p: &Position, usi: &str) -> Move {
    p.parse_move(usi).unwrap_or_else(|e| panic!("{usi}: {e}"))
}

/// Asserts the Japanese text of each USI move and that the text reads back as that move.
fn check_japanese(p: &Position, cases: &[(&str, &str)]) {
    for (usi, want) in cases {
        let m = mv(p, usi);
        let text = japanese(p, m, None);
        assert_eq!(text, *want, "{usi} in {}", p.sfen());
        assert_eq!(parse_japanese(p, &text, None), Ok(m), "{text}");
    }
}

#[test]
fn japanese_basics_same_square_and_promotion() {
    let mut p = Position::startpos(Variant::Shogi);
    let moves = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "2b3c"];
    let want = [
        "☗７六歩",
        "☖３四歩",
        "☗２二角成",
        "☖同　銀",
        "☗４五角",
        "☖３三銀",
    ];
    let mut previous = None;
    for (usi, want) in moves.iter().zip(want) {
        let m = mv(&p, usi);
        assert_eq!(japanese(&p, m, previous), want);
        assert_eq!(parse_japanese(&p, want, previous), Ok(m));
        previous = Some(m);
        p.play(m);
    }
}

#[test]
fn move_lists_chain_same_square() {
    let start = Position::startpos(Variant::Shogi);
    let mut p = start.clone();
    let mut moves = Vec::new();
    for usi in ["7g7f", "3c3d", "8h2b+", "3a2b"] {
        let m = mv(&p, usi);
        moves.push(m);
        p.play(m);
    }
    assert_eq!(
        japanese_line(&start, &moves),
        ["☗７六歩", "☖３四歩", "☗２二角成", "☖同　銀"]
    );
}

#[test]
fn every_piece_has_its_name() {
    let p = sente_to_move(&[
        ("5i", "K"),
        ("5a", "k"),
        ("9f", "P"),
        ("9i", "L"),
        ("8i", "N"),
        ("7i", "S"),
        ("6i", "G"),
        ("8h", "B"),
        ("2h", "R"),
        ("1g", "+P"),
        ("2g", "+L"),
        ("3g", "+N"),
        ("4g", "+S"),
        ("6e", "+B"),
        ("1e", "+R"),
    ]);
    check_japanese(
        &p,
        &[
            ("9f9e", "☗９五歩"),
            ("9i9h", "☗９八香"),
            ("8i7g", "☗７七桂"),
            ("7i7h", "☗７八銀"),
            ("6i6h", "☗６八金"),
            ("8h9g", "☗９七角"),
            ("2h2i", "☗２九飛"),
            ("5i4h", "☗４八玉"),
            ("1g1f", "☗１六と"),
            ("2g2f", "☗２六成香"),
            ("3g3f", "☗３六成桂"),
            ("4g4f", "☗４六成銀"),
            ("6e6d", "☗６四馬"),
            ("1e1d", "☗１四龍"),
        ],
    );
    // The same moves in Western notation.
    for (usi, want) in [
        ("9f9e", "P-95"),
        ("9i9h", "L-98"),
        ("8i7g", "N-77"),
        ("7i7h", "S-78"),
        ("6i6h", "G-68"),
        ("8h9g", "B-97"),
        ("2h2i", "R-29"),
        ("5i4h", "K-48"),
        ("1g1f", "+P-16"),
        ("2g2f", "+L-26"),
        ("3g3f", "+N-36"),
        ("4g4f", "+S-46"),
        ("6e6d", "+B-64"),
        ("1e1d", "+R-14"),
    ] {
        let m = mv(&p, usi);
        assert_eq!(western(&p, m, WesternStyle::Numeric), want);
        assert_eq!(parse_western(&p, want), Ok(m));
    }
    // Gote's king and the alternative spellings read back.
    let q = pos(&[("5i", "K"), ("5a", "k")], "w", "-");
    assert_eq!(japanese(&q, mv(&q, "5a4b"), None), "☖４二玉");
    assert_eq!(parse_japanese(&q, "△4二王", None), Ok(mv(&q, "5a4b")));
    assert_eq!(parse_japanese(&p, "1四竜", None), Ok(mv(&p, "1e1d")));
    assert_eq!(parse_japanese(&p, "▲4六全", None), Ok(mv(&p, "4g4f")));
}

#[test]
fn motion_words_up_sideways_back() {
    // 上 / 寄: golds on 9c and 7b can both reach 8b.
    // 上 / 引: golds on 4c and 3a can both reach 3b.
    let p = sente_to_move(&[
        ("5i", "K"),
        ("5e", "k"),
        ("9c", "G"),
        ("7b", "G"),
        ("4c", "G"),
        ("3a", "G"),
    ]);
    check_japanese(
        &p,
        &[
            ("9c8b", "☗８二金上"),
            ("7b8b", "☗８二金寄"),
            ("4c3b", "☗３二金上"),
            ("3a3b", "☗３二金引"),
        ],
    );
}

#[test]
fn right_left_and_straight_for_golds() {
    // Three golds side by side below 5b: 左, 直, 右 (position alone decides, 上 is not needed).
    let p = sente_to_move(&[
        ("5i", "K"),
        ("9a", "k"),
        ("6c", "G"),
        ("5c", "G"),
        ("4c", "G"),
    ]);
    check_japanese(
        &p,
        &[
            ("6c5b", "☗５二金左"),
            ("5c5b", "☗５二金直"),
            ("4c5b", "☗５二金右"),
        ],
    );
    // With a fourth gold beside the destination: 6c needs both words (左上), 6b moves 寄.
    let q = sente_to_move(&[
        ("5i", "K"),
        ("9a", "k"),
        ("6c", "G"),
        ("4c", "G"),
        ("6b", "G"),
    ]);
    check_japanese(
        &q,
        &[
            ("6c5b", "☗５二金左上"),
            ("4c5b", "☗５二金右"),
            ("6b5b", "☗５二金寄"),
        ],
    );
    // Motion first: a gold straight below and one beside: 上 and 寄, never 直.
    let r = sente_to_move(&[("5i", "K"), ("9a", "k"), ("5c", "G"), ("6b", "G")]);
    check_japanese(&r, &[("5c5b", "☗５二金上"), ("6b5b", "☗５二金寄")]);
}

#[test]
fn silvers_combine_position_and_motion() {
    // Silvers on 6f, 4f and 4d all reach 5e: 4f shares 上 with 6f and 右 with 4d.
    let p = sente_to_move(&[
        ("5i", "K"),
        ("9a", "k"),
        ("6f", "S"),
        ("4f", "S"),
        ("4d", "S"),
    ]);
    check_japanese(
        &p,
        &[
            ("6f5e", "☗５五銀左"),
            ("4f5e", "☗５五銀右上"),
            ("4d5e", "☗５五銀引"),
        ],
    );
    // A promoted silver moves as a gold and uses 直 too; it is not confused with a silver.
    let q = sente_to_move(&[
        ("5i", "K"),
        ("9a", "k"),
        ("5f", "+S"),
        ("4f", "+S"),
        ("6f", "S"),
    ]);
    check_japanese(
        &q,
        &[
            ("5f5e", "☗５五成銀直"),
            ("4f5e", "☗５五成銀右"),
            ("6f5e", "☗５五銀"),
        ],
    );
}

#[test]
fn a_ring_of_silvers_and_golds() {
    // Silvers on the four diagonals of 5e and golds on the four sides: every silver needs
    // two words (左引, 左上, …); each gold needs one, the motion first (the gold below moves
    // 上 and is the only one to do so, so it is not 直: 直 is for pieces side by side).
    let p = sente_to_move(&[
        ("9i", "K"),
        ("1a", "k"),
        ("6d", "S"),
        ("4d", "S"),
        ("6f", "S"),
        ("4f", "S"),
        ("6e", "G"),
        ("4e", "G"),
        ("5d", "G"),
        ("5f", "G"),
    ]);
    check_japanese(
        &p,
        &[
            ("6d5e", "☗５五銀左引"),
            ("4d5e", "☗５五銀右引"),
            ("6f5e", "☗５五銀左上"),
            ("4f5e", "☗５五銀右上"),
            ("6e5e", "☗５五金左"),
            ("4e5e", "☗５五金右"),
            ("5d5e", "☗５五金引"),
            ("5f5e", "☗５五金上"),
        ],
    );
}

#[test]
fn knights_use_right_and_left_with_promotion_marks() {
    let p = sente_to_move(&[("5i", "K"), ("9a", "k"), ("4e", "N"), ("2e", "N")]);
    check_japanese(
        &p,
        &[
            ("4e3c", "☗３三桂左不成"),
            ("4e3c+", "☗３三桂左成"),
            ("2e3c", "☗３三桂右不成"),
            ("2e3c+", "☗３三桂右成"),
        ],
    );
}

#[test]
fn dragons_and_horses_compare_with_each_other_and_never_use_straight() {
    // JSA / Wikipedia example: dragons on 1c and 2b both move 引 to 2d: 右 and 左.
    let p = sente_to_move(&[("5i", "K"), ("9a", "k"), ("1c", "+R"), ("2b", "+R")]);
    check_japanese(&p, &[("1c2d", "☗２四龍右"), ("2b2d", "☗２四龍左")]);
    // A dragon straight below the destination and one below-right: both 上; no 直.
    let q = sente_to_move(&[("5i", "K"), ("9a", "k"), ("5g", "+R"), ("4g", "+R")]);
    check_japanese(&q, &[("5g5f", "☗５六龍左"), ("4g5f", "☗５六龍右")]);
    // Horses on 9a and 8a both move 引 to 8b: 左 and 右.
    let r = sente_to_move(&[("5i", "K"), ("1a", "k"), ("9a", "+B"), ("8a", "+B")]);
    check_japanese(&r, &[("9a8b", "☗８二馬左"), ("8a8b", "☗８二馬右")]);
    // Motion still comes first: one horse moves 上, the other 引.
    let s = sente_to_move(&[("5i", "K"), ("8a", "k"), ("3g", "+B"), ("3c", "+B")]);
    check_japanese(&s, &[("3g4f", "☗４六馬"), ("3c4d", "☗４四馬")]);
    check_japanese(&s, &[("3g5e", "☗５五馬上"), ("3c5e", "☗５五馬引")]);
    // Rooks on both sides of 5e: both 寄, 左 and 右.
    let t = sente_to_move(&[("5i", "K"), ("5a", "k"), ("9e", "R"), ("1e", "R")]);
    check_japanese(&t, &[("9e5e", "☗５五飛左"), ("1e5e", "☗５五飛右")]);
}

#[test]
fn gote_sees_right_and_left_from_its_own_side() {
    // Gote's golds on 6g, 5g and 4g reach 5h moving forward (down the board). Gote's right
    // is file 9's side.
    let p = pos(
        &[
            ("1i", "K"),
            ("5a", "k"),
            ("6g", "g"),
            ("5g", "g"),
            ("4g", "g"),
        ],
        "w",
        "-",
    );
    check_japanese(
        &p,
        &[
            ("6g5h", "☖５八金右"),
            ("5g5h", "☖５八金直"),
            ("4g5h", "☖５八金左"),
        ],
    );
    // 引 for gote is towards rank a.
    let q = pos(
        &[("1i", "K"), ("5a", "k"), ("6e", "g"), ("5f", "g")],
        "w",
        "-",
    );
    check_japanese(&q, &[("5f5e", "☖５五金引"), ("6e5e", "☖５五金寄")]);
}

#[test]
fn drop_mark_only_when_a_board_piece_could_move_there() {
    let p = pos(&[("5i", "K"), ("5a", "k"), ("7c", "G")], "b", "G");
    check_japanese(
        &p,
        &[
            ("7c7b", "☗７二金"),
            ("G*7b", "☗７二金打"),
            ("G*2b", "☗２二金"),
        ],
    );
    // Without 打 the text means the board move; a drop elsewhere needs no mark.
    assert_eq!(parse_japanese(&p, "☗７二金", None), Ok(mv(&p, "7c7b")));
    assert_eq!(parse_japanese(&p, "２二金打", None), Ok(mv(&p, "G*2b")));
}

#[test]
fn promotion_marks_only_where_promotion_was_possible() {
    let p = sente_to_move(&[
        ("5i", "K"),
        ("9a", "k"),
        ("5d", "S"),
        ("1b", "P"),
        ("2c", "S"),
    ]);
    check_japanese(
        &p,
        &[
            ("5d4c+", "☗４三銀成"),
            ("5d4c", "☗４三銀不成"),
            ("5d6e", "☗６五銀"),    // not a promotion move at all
            ("1b1a+", "☗１一歩成"), // forced: no 不成 alternative exists
            ("2c3d+", "☗３四銀成"), // leaving the zone may promote
            ("2c3d", "☗３四銀不成"),
        ],
    );
    // Older records omit 不成: the bare text is the non-promotion.
    assert_eq!(parse_japanese(&p, "４三銀", None), Ok(mv(&p, "5d4c")));
}

#[test]
fn japanese_errors_are_precise() {
    let p = Position::startpos(Variant::Shogi);
    assert!(matches!(
        parse_japanese(&p, "同　歩", None),
        Err(NotationError::NoPreviousMove(_))
    ));
    assert!(matches!(
        parse_japanese(&p, "☖３四歩", None),
        Err(NotationError::WrongSide(_))
    ));
    assert!(matches!(
        parse_japanese(&p, "７五歩", None),
        Err(NotationError::NoSuchMove(_))
    ));
    assert!(matches!(
        parse_japanese(&p, "x六歩", None),
        Err(NotationError::Syntax { at: 0, .. })
    ));
    assert!(matches!(
        parse_japanese(&p, "７六犬", None),
        Err(NotationError::Syntax { at: 2, .. })
    ));
    // Two golds can reach 5h: without a relative word it is ambiguous.
    assert!(matches!(
        parse_japanese(&p, "５八金", None),
        Err(NotationError::Ambiguous { count: 2, .. })
    ));
    assert_eq!(parse_japanese(&p, "５八金右", None), Ok(mv(&p, "4i5h")));
}

#[test]
fn a_move_from_another_position_is_shown_in_usi_not_a_panic() {
    let shogi = Position::startpos(Variant::Shogi);
    let mini = Position::startpos(Variant::Minishogi);
    let foreign = mv(&shogi, "7g7f");
    assert_eq!(japanese(&mini, foreign, None), "7g7f");
    assert_eq!(western(&mini, foreign, WesternStyle::Numeric), "7g7f");
}

#[test]
fn western_notation() {
    let mut p = Position::startpos(Variant::Shogi);
    let moves = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "6a5b"];
    let want = ["P-76", "P-34", "Bx22+", "Sx22", "B*45", "G61-52"];
    let letters = ["P-7f", "P-3d", "Bx2b+", "Sx2b", "B*4e", "G6a-5b"];
    for ((usi, want), letter) in moves.iter().zip(want).zip(letters) {
        let m = mv(&p, usi);
        assert_eq!(western(&p, m, WesternStyle::Numeric), want);
        assert_eq!(western(&p, m, WesternStyle::Letters), letter);
        assert_eq!(parse_western(&p, want), Ok(m));
        assert_eq!(parse_western(&p, letter), Ok(m));
        p.play(m);
    }
    // Origin only when ambiguous: G69-58 vs G49-58 at the start.
    let s = Position::startpos(Variant::Shogi);
    assert_eq!(western(&s, mv(&s, "6i5h"), WesternStyle::Numeric), "G69-58");
    assert_eq!(western(&s, mv(&s, "4i5h"), WesternStyle::Numeric), "G49-58");
    assert_eq!(western(&s, mv(&s, "6i7h"), WesternStyle::Numeric), "G-78");
    assert!(matches!(
        parse_western(&s, "G-58"),
        Err(NotationError::Ambiguous { .. })
    ));
    // `=` declines, `+` promotes, promoted pieces carry `+`.
    let q = sente_to_move(&[
        ("5i", "K"),
        ("9a", "k"),
        ("5d", "S"),
        ("1e", "+R"),
        ("2c", "p"),
    ]);
    assert_eq!(western(&q, mv(&q, "5d4c"), WesternStyle::Numeric), "S-43=");
    assert_eq!(western(&q, mv(&q, "5d4c+"), WesternStyle::Numeric), "S-43+");
    assert_eq!(western(&q, mv(&q, "1e1a"), WesternStyle::Numeric), "+R-11");
    assert_eq!(parse_western(&q, "+R-11"), Ok(mv(&q, "1e1a")));
    assert_eq!(parse_western(&q, "S-43"), Ok(mv(&q, "5d4c")));
    assert!(parse_western(&q, "R-11").is_err());
    assert!(matches!(
        parse_western(&q, "S-4"),
        Err(NotationError::Syntax { .. })
    ));
}

#[test]
fn minishogi_notation() {
    let p = Position::startpos(Variant::Minishogi);
    // 5×5: the zone is the last rank only.
    let m = mv(&p, "4e3d");
    assert_eq!(japanese(&p, m, None), "☗３四金");
    assert_eq!(western(&p, m, WesternStyle::Numeric), "G-34");
    let q = pos_of(
        Variant::Minishogi,
        5,
        &[("5e", "K"), ("1a", "k"), ("3b", "S")],
        "b",
        "-",
    );
    assert_eq!(japanese(&q, mv(&q, "3b3a+"), None), "☗３一銀成");
    assert_eq!(japanese(&q, mv(&q, "3b3a"), None), "☗３一銀不成");
    assert_eq!(japanese(&q, mv(&q, "3b2c"), None), "☗２三銀");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn japanese_and_western_round_trip_over_random_games(seed: u64, mini: bool) {
        let variant = if mini { Variant::Minishogi } else { Variant::Shogi };
        let start = Position::startpos(variant);
        let mut previous = None;
        for (p, m) in random_game(&start, seed, 160) {
            let text = japanese(&p, m, previous);
            prop_assert_eq!(parse_japanese(&p, &text, previous), Ok(m), "{} in {}", text, p.sfen());
            for style in [WesternStyle::Numeric, WesternStyle::Letters] {
                let text = western(&p, m, style);
                prop_assert_eq!(parse_western(&p, &text), Ok(m), "{} in {}", text, p.sfen());
            }
            previous = Some(m);
        }
    }

    #[test]
    fn move_parsers_never_panic(text in "\\PC{0,12}", jp in "[☗☖▲△同　０-９1-9一-九歩香桂銀金角飛玉王と成馬龍竜右左直上引寄打不生()]{0,10}") {
        let p = Position::startpos(Variant::Shogi);
        let _ = parse_japanese(&p, &text, None);
        let _ = parse_japanese(&p, &jp, Some(p.legal_moves()[0]));
        let _ = parse_western(&p, &text);
    }

    #[test]
    fn western_parser_never_panics_on_near_misses(text in "[+]?[PLNSGBRKx*=+-]{0,2}[0-9a-j]{0,4}[-x*]?[0-9a-j]{0,3}[+=]?") {
        let p = Position::startpos(Variant::Shogi);
        let _ = parse_western(&p, &text);
    }
}
