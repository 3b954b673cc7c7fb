//! WXF, Chinese and record notation against real positions: hand-checked moves, tandem
//! pieces, round trips over random games, and parsers that never panic.

use jiang_rules::Variant;
use jiang_rules::xiangqi::notation::{
    MoveFormat, NotationError, Record, RecordError, Script, chinese, parse_chinese, parse_wxf, wxf,
};
use jiang_rules::xiangqi::{Game, Move, Position};
use proptest::prelude::*;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

fn position(fen: &str) -> Position {
    Position::parse_fen(Variant::Xiangqi, fen).unwrap()
}

/// The legal move `text` (ICCS without reveal) as the notations read it back.
fn iccs(position: &Position, text: &str) -> Move {
    position
        .legal_moves_unrevealed()
        .into_iter()
        .find(|mv| mv.iccs() == text)
        .unwrap_or_else(|| panic!("{text} is not legal in {}", position.to_fen()))
}

/// Checks WXF, simplified and traditional spellings of `mv` and that each reads back.
fn check(position: &Position, mv: &str, expected: [&str; 3]) {
    let mv = iccs(position, mv);
    let got = [
        wxf(position, mv),
        chinese(position, mv, Script::Simplified),
        chinese(position, mv, Script::Traditional),
    ];
    assert_eq!(got, expected.map(str::to_owned), "{mv}");
    assert_eq!(parse_wxf(position, &got[0]), Ok(mv), "{}", got[0]);
    // The official WXF order puts a tandem marker after the letter (`C+.5`); the order Jiang
    // wrote before (`+C.5`) is still read.
    if let [letter, sign @ ('+' | '-'), rest @ ..] = got[0].chars().collect::<Vec<_>>().as_slice()
        && letter.is_ascii_alphabetic()
    {
        let older = format!("{sign}{letter}{}", rest.iter().collect::<String>());
        assert_eq!(parse_wxf(position, &older), Ok(mv), "{older}");
    }
    assert_eq!(parse_chinese(position, &got[1]), Ok(mv), "{}", got[1]);
    assert_eq!(parse_chinese(position, &got[2]), Ok(mv), "{}", got[2]);
}

#[test]
fn every_kind_from_the_start_both_sides() {
    let red = Position::start(Variant::Xiangqi);
    check(&red, "h2e2", ["C2.5", "炮二平五", "炮二平五"]);
    check(&red, "h0g2", ["H2+3", "马二进三", "傌二進三"]);
    check(&red, "i0i1", ["R1+1", "车一进一", "俥一進一"]);
    check(&red, "f0e1", ["A4+5", "仕四进五", "仕四進五"]);
    check(&red, "g0e2", ["E3+5", "相三进五", "相三進五"]);
    check(&red, "g3g4", ["P3+1", "兵三进一", "兵三進一"]);
    check(&red, "e0e1", ["K5+1", "帅五进一", "帥五進一"]);
    let black = red.after(iccs(&red, "h2e2"));
    check(&black, "h9g7", ["H8+7", "马８进７", "馬８進７"]);
    check(&black, "b9c7", ["H2+3", "马２进３", "馬２進３"]);
    check(&black, "h7e7", ["C8.5", "炮８平５", "砲８平５"]);
    check(&black, "a9a8", ["R1+1", "车１进１", "車１進１"]);
    check(&black, "d9e8", ["A4+5", "士４进５", "士４進５"]);
    check(&black, "c9e7", ["E3+5", "象３进５", "象３進５"]);
    check(&black, "c6c5", ["P3+1", "卒３进１", "卒３進１"]);
    check(&black, "e9e8", ["K5+1", "将５进１", "將５進１"]);
}

#[test]
fn backward_and_sideways_moves() {
    // Red chariot on e4, cannon on h5, horse on c4; Black chariot on b5.
    let p = position("3k5/9/9/9/1r5C1/2N1R4/9/9/9/4K4 w");
    check(&p, "e4e1", ["R5-3", "车五退三", "俥五退三"]);
    check(&p, "e4d4", ["R5.6", "车五平六", "俥五平六"]);
    check(&p, "h5h3", ["C2-2", "炮二退二", "炮二退二"]);
    check(&p, "c4b2", ["H7-8", "马七退八", "傌七退八"]);
    let p = position("3k5/9/9/9/1r5C1/2N1R4/9/9/9/4K4 b");
    check(&p, "b5b9", ["R2-4", "车２退４", "車２退４"]);
    check(&p, "b5h5", ["R2.8", "车２平８", "車２平８"]);
}

#[test]
fn two_like_pieces_on_one_file() {
    // Red cannons on h2 and h5; Black horses on c7 and c5.
    let p = position("3k5/9/2n6/9/2n4C1/9/9/7C1/9/4K4 w");
    check(&p, "h5e5", ["C+.5", "前炮平五", "前炮平五"]);
    check(&p, "h2h1", ["C--1", "后炮退一", "後炮退一"]);
    assert_eq!(
        parse_wxf(&p, "+C.5"),
        Ok(iccs(&p, "h5e5")),
        "the order Jiang wrote before the official one"
    );
    assert_eq!(parse_wxf(&p, "c-=5"), Ok(iccs(&p, "h2e2")));
    let p = position("3k5/9/2n6/9/2n4C1/9/9/7C1/9/4K4 b");
    // Black's front horse is the one nearer Red: c5.
    check(&p, "c5d3", ["H++4", "前马进４", "前馬進４"]);
    check(&p, "c7a8", ["H--1", "后马退１", "後馬退１"]);
}

#[test]
fn three_soldiers_on_a_file_and_tandems_on_two_files() {
    // Red soldiers c5 c6 c7 (file 7) and g5 g6 (file 3), all across the river.
    let p = position("3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w");
    check(&p, "c7b7", ["7+.8", "前七平八", "前七平八"]);
    check(&p, "c6d6", ["77.6", "中七平六", "中七平六"]);
    check(&p, "c5b5", ["7-.8", "后七平八", "後七平八"]);
    check(&p, "g6h6", ["3+.2", "前三平二", "前三平二"]);
    check(&p, "g5f5", ["3-.4", "后三平四", "後三平四"]);
    // Only one tandem file: three soldiers on file 7.
    let p = position("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w");
    check(&p, "c7b7", ["P+.8", "前兵平八", "前兵平八"]);
    check(&p, "c6b6", ["P7.8", "中兵平八", "中兵平八"]);
    check(&p, "c5d5", ["P-.6", "后兵平六", "後兵平六"]);
    // Black: four soldiers on file 5 (e4 e3 e2 e1 from Black's front).
    let p = position("3k5/9/9/9/9/4p4/4p4/4p4/4p4/5K3 b");
    check(&p, "e1f1", ["++.6", "一卒平６", "一卒平６"]);
    check(&p, "e2f2", ["P+.6", "二卒平６", "二卒平６"]);
    check(&p, "e3d3", ["P-.4", "三卒平４", "三卒平４"]);
    check(&p, "e4d4", ["--.4", "四卒平４", "四卒平４"]);
    // Five in a file: the middle one keeps its file in WXF.
    let p = position("3k5/9/9/9/4p4/4p4/4p4/4p4/4p4/5K3 b");
    check(&p, "e1d1", ["++.4", "一卒平４", "一卒平４"]);
    check(&p, "e2d2", ["P+.4", "二卒平４", "二卒平４"]);
    check(&p, "e3f3", ["P5.6", "三卒平６", "三卒平６"]);
    check(&p, "e4f4", ["P-.6", "四卒平６", "四卒平６"]);
    assert_eq!(parse_chinese(&p, "中卒平６"), Ok(iccs(&p, "e3f3")));
    assert_eq!(parse_chinese(&p, "前卒平４"), Ok(iccs(&p, "e1d1")));
}

#[test]
fn readers_explain_what_is_wrong() {
    let p = Position::start(Variant::Xiangqi);
    assert_eq!(parse_wxf(&p, ""), Err(NotationError::Empty));
    assert!(matches!(
        parse_wxf(&p, "C2x5"),
        Err(NotationError::BadCharacter {
            found: 'x',
            position: 3,
            ..
        })
    ));
    assert!(matches!(
        parse_wxf(&p, "R1.2"),
        Err(NotationError::NoSuchMove { side: "Red", .. })
    ));
    assert!(matches!(
        parse_chinese(&p, "车一平二"),
        Err(NotationError::NoSuchMove { .. })
    ));
    assert!(matches!(
        parse_chinese(&p, "炮二飞五"),
        Err(NotationError::BadCharacter {
            found: '飞',
            position: 3,
            ..
        })
    ));
    // Accepted variants: ASCII and full-width digits, traditional characters, spaces.
    let h2e2 = iccs(&p, "h2e2");
    for text in [
        "炮2平5",
        "炮２平５",
        "砲二平五",
        " 炮 二 平 五 ",
        "包二平五",
    ] {
        assert_eq!(parse_chinese(&p, text), Ok(h2e2), "{text}");
    }
    for text in ["c2.5", "C2=5", "Ｃ２．５"] {
        assert_eq!(parse_wxf(&p, text), Ok(h2e2), "{text}");
    }
}

/// A random game of `variant` up to `plies` long (Jieqi reveals drawn from the public pool).
fn random_game(variant: Variant, seed: u64, plies: usize) -> Game {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut game = Game::new(Position::start(variant));
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let moves = game.position().legal_moves();
        let mv = moves[rng.next_u32() as usize % moves.len()];
        game.play(mv).unwrap();
    }
    game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn wxf_and_chinese_round_trip_over_random_games(seed in any::<u64>(), jieqi in any::<bool>()) {
        let variant = if jieqi { Variant::Jieqi } else { Variant::Xiangqi };
        let game = random_game(variant, seed, 100);
        for position in game.positions() {
            let position = &position;
            for mv in position.legal_moves_unrevealed() {
                let w = wxf(position, mv);
                prop_assert_eq!(parse_wxf(position, &w), Ok(mv), "{} in {}", w, position.to_fen());
                for script in [Script::Simplified, Script::Traditional] {
                    let c = chinese(position, mv, script);
                    prop_assert_eq!(parse_chinese(position, &c), Ok(mv), "{} in {}", c, position.to_fen());
                }
            }
        }
    }

    #[test]
    fn records_round_trip(seed in any::<u64>(), jieqi in any::<bool>(), red in "[ -~]{0,12}", black in "\\PC{0,8}") {
        let variant = if jieqi { Variant::Jieqi } else { Variant::Xiangqi };
        let game = random_game(variant, seed, 150);
        let mut record = Record::from_game(&game);
        record.set_tag("Red", &red);
        record.set_tag("Black", &black);
        record.set_tag("Date", "2026.11.29");
        record.set_tag("TimeControl", "600+5");
        let text = record.to_string();
        prop_assert!(text.contains("[Format \"ICCS\"]\n"), "{}", text);
        let back = Record::parse(&text).unwrap();
        prop_assert_eq!(&back, &record, "{}", text);
        let replayed = back.game();
        prop_assert_eq!(replayed.moves(), game.moves());
        prop_assert_eq!(replayed.outcome(), game.outcome());
        // Every movetext flavour reads back as the same record, tagged with its Format.
        for format in [MoveFormat::Iccs, MoveFormat::Wxf, MoveFormat::Chinese(Script::Simplified), MoveFormat::Chinese(Script::Traditional)] {
            let text = record.to_text(format);
            let tag = if jieqi { "ICCS" } else { format.tag() };
            prop_assert!(text.contains(&format!("[Format \"{tag}\"]\n")), "{}", text);
            prop_assert_eq!(&Record::parse(&text).unwrap(), &record, "{}", text);
        }
    }

    #[test]
    fn wxf_movetext_imports(seed in any::<u64>()) {
        let game = random_game(Variant::Xiangqi, seed, 80);
        let mut text = String::from("[Game \"Chinese Chess\"]\n\n");
        for (i, (position, &mv)) in game.positions().zip(game.moves()).enumerate() {
            let position = &position;
            if i % 2 == 0 {
                text.push_str(&format!("{}. ", i / 2 + 1));
            }
            let token = match i % 3 {
                0 => wxf(position, mv),
                1 => chinese(position, mv, Script::Simplified),
                _ => chinese(position, mv, Script::Traditional),
            };
            text.push_str(&token);
            text.push(' ');
        }
        let record = Record::parse(&text).unwrap();
        prop_assert_eq!(record.moves(), game.moves());
    }

    #[test]
    fn readers_never_panic(text in "\\PC{0,40}", position_seed in any::<u64>()) {
        let game = random_game(Variant::Jieqi, position_seed, 30);
        let p = game.position();
        let _ = parse_wxf(p, &text);
        let _ = parse_chinese(p, &text);
        let _ = Record::parse(&text);
    }

    #[test]
    fn readers_never_panic_on_notation_like_text(
        text in "[KAEHRCPBNkaehrcp+\\-.=0-9 ]{0,8}|[帅将仕士相象马馬车車炮砲兵卒进進退平前中后後一二三四五六七八九１２３４５６７８９]{0,6}",
    ) {
        let p = Position::start(Variant::Xiangqi);
        let _ = parse_wxf(&p, &text);
        let _ = parse_chinese(&p, &text);
        let record = format!("[Variant \"xiangqi\"]\n1. {text} *\n");
        let _ = Record::parse(&record);
    }
}

#[test]
fn record_text_has_the_contract_tags() {
    let mut game = Game::new(Position::start(Variant::Xiangqi));
    for mv in ["h2e2", "h9g7", "h0g2", "i9h9"] {
        game.play_iccs(mv).unwrap();
    }
    let mut record = Record::from_game(&game);
    record.set_tag("Red", "Ann \"the cannon\"");
    record.set_tag("Black", "Bo\\");
    let text = record.to_string();
    assert!(
        text.starts_with("[Game \"Chinese Chess\"]\n[Variant \"xiangqi\"]\n"),
        "{text}"
    );
    for tag in [
        "[Date ",
        "[Result \"*\"]",
        "[Termination ",
        "[TimeControl ",
        "[FEN ",
        "[Red \"Ann \\\"the cannon\\\"\"]",
        "[Black \"Bo\\\\\"]",
    ] {
        assert!(text.contains(tag), "{tag} in {text}");
    }
    assert!(text.ends_with("\n1. h2e2 h9g7 2. h0g2 i9h9 *\n"), "{text}");
    assert_eq!(Record::parse(&text).unwrap(), record);
}

#[test]
fn black_to_move_starts_with_an_ellipsis() {
    let start = position("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1");
    let mut game = Game::new(start);
    game.play_iccs("h9g7").unwrap();
    game.play_iccs("h0g2").unwrap();
    let text = Record::from_game(&game).to_string();
    assert!(text.contains("\n1... h9g7 2. h0g2 *\n"), "{text}");
    assert_eq!(Record::parse(&text).unwrap().moves(), game.moves());
}

#[test]
fn record_reader_skips_comments_and_reports_errors() {
    let text = "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n\n1. h2e2 {central cannon\nspanning lines} h9g7 ; a comment\n2. (2. h0g2) H2+3 $1 1-0\n";
    let record = Record::parse(text).unwrap();
    assert_eq!(record.moves().len(), 3);
    assert_eq!(record.result(), "1-0");
    let err = |text: &str| Record::parse(text).unwrap_err();
    assert!(matches!(
        err("1. h2e2 h2e2"),
        RecordError::Move {
            line: 1,
            ply: 2,
            ..
        }
    ));
    assert!(matches!(err("[Red Ann]"), RecordError::Tag { line: 1, .. }));
    assert!(matches!(
        err("[Variant \"shogi\"]"),
        RecordError::Variant(_)
    ));
    assert!(matches!(err("[FEN \"9/9 w\"]"), RecordError::Fen(_)));
    assert!(matches!(
        err("\n1. h2e2 {oops"),
        RecordError::Unclosed {
            line: 2,
            opener: '{'
        }
    ));
    assert!(matches!(
        err("1. h2e2 * h9g7"),
        RecordError::AfterResult { .. }
    ));
    assert!(matches!(
        err("[Result \"0-1\"]\n1. h2e2 1-0"),
        RecordError::ResultMismatch { .. }
    ));
    let message = err("1. h2e2 h9g7 2. C8.5").to_string();
    assert!(
        message.contains("ply 3") && message.contains("C8.5"),
        "{message}"
    );
}

#[test]
fn jieqi_record_keeps_reveal_suffixes() {
    let start = Position::start(Variant::Jieqi);
    let mut game = Game::new(start);
    for mv in ["h2e2C", "h9g7n", "b0c2R"] {
        game.play_iccs(mv).unwrap();
    }
    let text = Record::from_game(&game).to_string();
    assert!(text.contains("[Variant \"jieqi\"]"), "{text}");
    assert!(text.contains("1. h2e2C h9g7n 2. b0c2R *"), "{text}");
    let back = Record::parse(&text).unwrap();
    assert_eq!(back.moves(), game.moves());
    assert_eq!(back.game().position(), game.position());
    // A WXF move of a covered piece cannot say what it reveals.
    let err = Record::parse("[Variant \"jieqi\"]\n1. C2.5").unwrap_err();
    assert!(err.to_string().contains("covered"), "{err}");
}

#[test]
fn jieqi_covered_pieces_count_as_their_points_kind() {
    // Red: a covered piece on a0 (a chariot point) and face-up chariots on a5 and a7: three
    // chariot-movers on file 9.
    let p = Position::parse_fen(Variant::Jieqi, "3k5/9/R8/9/R8/9/9/9/9/X3K4 w").unwrap();
    check(&p, "a7b7", ["R+.8", "前车平八", "前俥平八"]);
    check(&p, "a5b5", ["R9.8", "中车平八", "中俥平八"]);
    check(&p, "a0a1", ["R-+1", "后车进一", "後俥進一"]);
    // Covered a0 and i0 with face-up chariots on a5 and i4: tandems on two files name the file.
    let p = Position::parse_fen(Variant::Jieqi, "3k5/9/9/9/R8/8R/9/9/9/X3K3X w").unwrap();
    check(&p, "a5b5", ["9+.8", "前九平八", "前九平八"]);
    check(&p, "a0a1", ["9-+1", "后九进一", "後九進一"]);
    check(&p, "i4h4", ["1+.2", "前一平二", "前一平二"]);
    check(&p, "i0i1", ["1-+1", "后一进一", "後一進一"]);
    // Six soldier-movers on file 9 (the covered soldier point a3 and five face-up soldiers):
    // written by ordinal, letter and file.
    let p = Position::parse_fen(Variant::Jieqi, "P2k5/P8/P8/P8/P8/9/X8/9/9/4K4 w").unwrap();
    check(&p, "a9b9", ["1P9.8", "一兵九平八", "一兵九平八"]);
    check(&p, "a6b6", ["4P9.8", "四兵九平八", "四兵九平八"]);
    check(&p, "a3a4", ["6P9+1", "六兵九进一", "六兵九進一"]);
    // A covered move reads back without its reveal, as players send it.
    let mv = parse_wxf(&p, "6P9+1").unwrap();
    assert_eq!((mv.iccs(), mv.reveal()), ("a3a4".to_owned(), None));
}

#[test]
fn official_wxf_order_is_read_for_every_tandem() {
    let p = position("3k5/9/9/9/9/4p4/4p4/4p4/4p4/5K3 b");
    assert_eq!(parse_wxf(&p, "P+.6"), Ok(iccs(&p, "e2f2")));
    assert_eq!(parse_wxf(&p, "P-.4"), Ok(iccs(&p, "e3d3")));
    assert_eq!(parse_chinese(&p, "前卒平６"), Ok(iccs(&p, "e1f1")));
    assert_eq!(parse_chinese(&p, "后卒平４"), Ok(iccs(&p, "e4d4")));
}

#[test]
fn a_fen_with_covered_pieces_is_read_as_jieqi() {
    let text = format!(
        "[FEN \"{}\"]\n\n1. h2e2C *\n",
        jiang_rules::xiangqi::JIEQI_START
    );
    let record = Record::parse(&text).unwrap();
    assert_eq!(record.variant(), Variant::Jieqi);
    assert_eq!(record.moves().len(), 1);
}

#[test]
fn move_lists_in_every_style() {
    use jiang_rules::xiangqi::notation::{Style, move_list};
    let mut game = Game::new(Position::start(Variant::Xiangqi));
    for mv in ["h2e2", "h9g7", "h0g2", "i9h9"] {
        game.play_iccs(mv).unwrap();
    }
    assert_eq!(
        move_list(&game, Style::Iccs),
        ["h2e2", "h9g7", "h0g2", "i9h9"]
    );
    assert_eq!(
        move_list(&game, Style::Wxf),
        ["C2.5", "H8+7", "H2+3", "R9.8"]
    );
    assert_eq!(
        move_list(&game, Style::Chinese(Script::Simplified)),
        ["炮二平五", "马８进７", "马二进三", "车９平８"]
    );
    assert_eq!(
        move_list(&game, Style::Chinese(Script::Traditional)),
        ["炮二平五", "馬８進７", "傌二進三", "車９平８"]
    );
}

#[test]
fn classic_iccs_and_crlf_are_read() {
    let record =
        Record::parse("[Game \"Chinese Chess\"]\r\n\r\n1. H2-E2 h9-g7\r\n2. 马二进三 *\r\n")
            .unwrap();
    let texts: Vec<String> = record.moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(texts, ["h2e2", "h9g7", "h0g2"]);
}

#[test]
fn no_such_move_says_whether_the_piece_exists() {
    let p = Position::start(Variant::Xiangqi);
    let why = |text: &str, chinese_text: bool| {
        let result = if chinese_text {
            parse_chinese(&p, text)
        } else {
            parse_wxf(&p, text)
        };
        match result {
            Err(NotationError::NoSuchMove { why, .. }) => why,
            other => panic!("{text}: {other:?}"),
        }
    };
    assert_eq!(why("R1.2", false), "that piece cannot make this move");
    assert_eq!(
        why("C3.5", false),
        "no piece of the side to move is named that way"
    );
    assert_eq!(
        why("+C.5", false),
        "no piece of the side to move is named that way"
    );
    assert_eq!(why("车一平二", true), "that piece cannot make this move");
    assert_eq!(
        why("车二平三", true),
        "no piece of the side to move is named that way"
    );
    assert_eq!(
        why("C2", false),
        "it does not have the shape piece, file, direction, number"
    );
    let message = parse_wxf(&p, "R1.2").unwrap_err().to_string();
    assert_eq!(
        message,
        "`R1.2` is not a legal move for Red here: that piece cannot make this move"
    );
}

/// WXF convention: advisors and elephants are named by their file even when two share it,
/// since the direction tells them apart; the rules crate's reader reads them back.
#[test]
fn advisors_and_elephants_are_named_by_file() {
    // Red advisors on d0 and d2 (file 6), elephants on c0 and c4 (file 7); Black's
    // elephants on g9 and g5 (file 7 for Black), advisors on f9 and f7 (file 6).
    let p = position("3k5/9/9/9/9/9/9/3A5/9/2BAK4 w - - 0 1");
    check(&p, "d0e1", ["A6+5", "仕六进五", "仕六進五"]);
    check(&p, "d2e1", ["A6-5", "仕六退五", "仕六退五"]);
    let p = position("3k5/9/9/9/9/2B6/9/9/9/2B1K4 w - - 0 1");
    check(&p, "c4e2", ["E7-5", "相七退五", "相七退五"]);
    check(&p, "c0a2", ["E7+9", "相七进九", "相七進九"]);
    let p = position("4kab2/9/5a3/9/6b2/9/9/9/9/3K5 b - - 0 1");
    check(&p, "g5e7", ["E7-5", "象７退５", "象７退５"]);
    check(&p, "f7e8", ["A6-5", "士６退５", "士６退５"]);
    // Every advisor and elephant move of random games: never front/rear in Xiangqi.
    for seed in 0..40 {
        let game = random_game(Variant::Xiangqi, seed, 160);
        for p in game.positions() {
            for mv in p.legal_moves_unrevealed() {
                let w = wxf(&p, mv);
                if w.contains(['A', 'E']) {
                    assert!(!w.starts_with(['+', '-']), "{w} in {}", p.to_fen());
                    let c = chinese(&p, mv, Script::Simplified);
                    assert!(!c.starts_with(['前', '后']), "{c} in {}", p.to_fen());
                }
            }
        }
    }
}

#[test]
fn xqbase_footer_after_the_result_is_ignored() {
    let text = "[Game \"Chinese Chess\"]\n[Result \"1-0\"]\n[Format \"Chinese\"]\n\n1. 炮二平五 马８进７\n2. 马二进三 车９平８\n 1-0\n============================\n 欢迎访问《象棋百科全书网》 (www.xqbase.com)\n 推荐用《象棋巫师》打开棋谱\n";
    let record = Record::parse(text).unwrap();
    assert_eq!(record.moves().len(), 4);
    assert_eq!(record.result(), "1-0");
    // Text after the result on the same line is still an error.
    assert!(matches!(
        Record::parse("1. h2e2 1-0 h9g7\n"),
        Err(RecordError::AfterResult { .. })
    ));
}
