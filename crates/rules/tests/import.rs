//! Import with format and variant detection, and export in every format of a family: each
//! written text is detected and read back as the same game.

use jiang_rules::import::{ExportFormat, ImportError, SourceFormat, export, import};
use jiang_rules::{Game, Outcome, Position, Reason, Side, Variant, shogi, xiangqi};

/// Up to 60 random legal moves of a `G` game of `variant` from its start, `next(n)` choosing
/// among `n` legal moves.
fn random_moves<G: Game>(variant: Variant, next: &mut impl FnMut(usize) -> usize) -> Vec<String> {
    let mut game = G::new(G::Position::start(variant));
    let mut moves = Vec::new();
    for _ in 0..60 {
        if game.outcome().is_some() {
            break;
        }
        let legal = game.position().legal_moves();
        let mv = legal[next(legal.len())];
        let text = game.position().move_text(mv);
        game.play_move(mv).unwrap();
        moves.push(text);
    }
    moves
}

/// A game of `variant` of up to 60 random legal moves, as an imported record.
fn random_game(variant: Variant, seed: u64) -> jiang_rules::import::Imported {
    let mut state = seed | 1;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let moves = match variant {
        Variant::Xiangqi | Variant::Jieqi => random_moves::<xiangqi::Game>(variant, &mut next),
        Variant::Shogi | Variant::Minishogi => random_moves::<shogi::Game>(variant, &mut next),
    };
    let line = format!("position startpos moves {}", moves.join(" "));
    import(line.as_bytes(), Some(variant)).unwrap()
}

#[test]
fn every_export_format_is_detected_and_read_back() {
    let formats: [(Variant, &[ExportFormat]); 4] = [
        (
            Variant::Xiangqi,
            &[ExportFormat::Pgn, ExportFormat::PgnWxf, ExportFormat::Usi],
        ),
        (Variant::Jieqi, &[ExportFormat::Pgn, ExportFormat::Usi]),
        (
            Variant::Shogi,
            &[
                ExportFormat::Kif,
                ExportFormat::Ki2,
                ExportFormat::Csa,
                ExportFormat::Usi,
            ],
        ),
        (
            Variant::Minishogi,
            &[
                ExportFormat::Kif,
                ExportFormat::Ki2,
                ExportFormat::Csa,
                ExportFormat::Usi,
            ],
        ),
    ];
    for (variant, formats) in formats {
        for seed in 1..6 {
            let game = random_game(variant, seed);
            for &format in formats {
                let text = export(&game, format).unwrap();
                // Detected without being told the variant (Jieqi PGN has its Variant tag;
                // a Jieqi position line needs the variant).
                let told =
                    (variant == Variant::Jieqi && format == ExportFormat::Usi).then_some(variant);
                let back = import(text.as_bytes(), told)
                    .unwrap_or_else(|e| panic!("{variant} {format}: {e}\n{text}"));
                assert_eq!(back.variant(), variant, "{format}\n{text}");
                assert_eq!(back.start(), game.start(), "{variant} {format}");
                assert_eq!(back.moves(), game.moves(), "{variant} {format}\n{text}");
                assert_eq!(back.result(), game.result(), "{variant} {format}\n{text}");
            }
            // The final position formats give the position after the moves.
            let fen_format = match variant.family() {
                jiang_rules::Family::Xiangqi => ExportFormat::Fen,
                jiang_rules::Family::Shogi => ExportFormat::Sfen,
            };
            let fen = export(&game, fen_format).unwrap();
            let position = import(fen.as_bytes(), Some(variant)).unwrap();
            assert_eq!(position.format, SourceFormat::Position);
            assert!(position.moves().is_empty());
            assert_eq!(position.start(), fen.trim());
            // The other family's formats are refused with a reason.
            let other = match variant.family() {
                jiang_rules::Family::Xiangqi => ExportFormat::Kif,
                jiang_rules::Family::Shogi => ExportFormat::Pgn,
            };
            assert!(export(&game, other).is_err());
        }
    }
}

#[test]
fn detection_and_errors_say_what_and_where() {
    assert_eq!(import(b"  \n", None), Err(ImportError::Empty));
    let unknown = import(b"hello world\n", None).unwrap_err();
    assert_eq!(
        (unknown.code(), unknown.line()),
        ("unknown_format", Some(1))
    );
    let kif = "手合割：平手\n   1 ７六歩(77)\n   2 ７五歩(76)\n   3 ２六歩(27)\n";
    let e = import(kif.as_bytes(), None).unwrap_err();
    assert_eq!((e.code(), e.line()), ("bad_move", Some(3)));
    let pgn = "[Variant \"xiangqi\"]\n\n1. h2e2 h9g7\n2. h2h9 *\n";
    let e = import(pgn.as_bytes(), None).unwrap_err();
    assert_eq!((e.code(), e.line()), ("bad_move", Some(4)));
    let e = import(pgn.as_bytes(), Some(Variant::Shogi)).unwrap_err();
    assert_eq!(e.code(), "bad_move"); // read as the PGN it is, then the move fails
    let good = "[Variant \"xiangqi\"]\n\n1. h2e2 h9g7 *\n";
    let e = import(good.as_bytes(), Some(Variant::Shogi)).unwrap_err();
    assert_eq!(e.code(), "wrong_variant");
    let e = import(b"position startpos moves 7g7f 7g7f", None).unwrap_err();
    assert_eq!(e.code(), "bad_position");
    // `startpos` is told by its moves: USI for shogi, ICCS for xiangqi.
    let shogi = import(b"position startpos moves 7g7f 3c3d", None).unwrap();
    assert_eq!(shogi.variant(), Variant::Shogi);
    let xiangqi = import(b"startpos moves h2e2 h9g7", None).unwrap();
    assert_eq!(xiangqi.variant(), Variant::Xiangqi);
    let mini = import(b"position startpos moves 5e4d", Some(Variant::Minishogi)).unwrap();
    assert_eq!(mini.moves(), ["5e4d"]);
    // Time-up and other terminations other programs write.
    let pgn = "[Result \"0-1\"]\n[Termination \"time forfeit\"]\n\n1. h2e2 0-1\n";
    let game = import(pgn.as_bytes(), None).unwrap();
    assert_eq!(
        game.result(),
        Some(jiang_rules::Outcome::win(
            jiang_rules::Side::Second,
            jiang_rules::Reason::Timeout
        ))
    );
    // Shift_JIS KIF is detected after decoding.
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("先手：羽生\n   1 ７六歩(77)\n");
    let game = import(&sjis, None).unwrap();
    assert_eq!(game.format, SourceFormat::Kif);
    assert_eq!(game.headers()[0], ("sente".to_owned(), "羽生".to_owned()));
}

/// Every real record of the corpus, cut anywhere and with junk inserted, is read or refused
/// with an error: never a panic.
#[test]
fn import_never_panics_on_mangled_real_records() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let junk = [
        "",
        "\n",
        "▲同　",
        "(",
        "[",
        "{",
        "+00",
        "|v",
        "変化：",
        "1. ",
        "　",
        "\u{feff}",
    ];
    for family in ["shogi", "xiangqi"] {
        for entry in std::fs::read_dir(format!("{dir}/{family}")).unwrap() {
            let bytes = std::fs::read(entry.unwrap().path()).unwrap();
            for cut in (0..bytes.len()).step_by(607) {
                for j in junk {
                    let mut mangled = bytes[..cut].to_vec();
                    mangled.extend_from_slice(j.as_bytes());
                    mangled.extend_from_slice(&bytes[cut..]);
                    let _ = import(&mangled, None);
                }
            }
        }
    }
}

/// XQBase and Chinese sites save PGN in GBK; Japanese records in Shift_JIS or EUC-JP: each is
/// told apart and read.
#[test]
fn gbk_pgn_and_japanese_encodings_are_told_apart() {
    let pgn = "[Game \"Chinese Chess\"]\n[Event \"全国象棋个人赛\"]\n[Red \"胡荣华\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ *\n";
    let (gbk, _, _) = encoding_rs::GBK.encode(pgn);
    let game = import(&gbk, None).unwrap();
    assert_eq!(game.moves(), ["h2e2", "h9g7", "h0g2", "i9h9"]);
    assert!(
        game.headers()
            .contains(&("Red".to_owned(), "胡荣华".to_owned()))
    );
    let kif = "先手：羽生善治\n後手：谷川浩司\n   1 ７六歩(77)\n   2 ３四歩(33)\n";
    for encoding in [encoding_rs::SHIFT_JIS, encoding_rs::EUC_JP] {
        let (bytes, _, _) = encoding.encode(kif);
        let game = import(&bytes, None).unwrap();
        assert_eq!(
            game.headers()[1],
            ("gote".to_owned(), "谷川浩司".to_owned())
        );
    }
}

/// Every way a xiangqi-family game ends names the right result in the PGN and reads back
/// as the same outcome.
#[test]
fn every_xiangqi_ending_reads_back_from_pgn() {
    use jiang_rules::xiangqi::notation::{MoveFormat, Record, Script};
    use jiang_rules::{Outcome, Reason, Side};
    let start = jiang_rules::xiangqi::Position::start(Variant::Xiangqi);
    let decisive = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::Resignation,
        Reason::Timeout,
        Reason::PerpetualCheck,
        Reason::PerpetualChase,
    ];
    let drawn = [
        Reason::Repetition,
        Reason::MoveLimit,
        Reason::InsufficientMaterial,
        Reason::Agreement,
        Reason::TimeoutVsInsufficient,
    ];
    let mut outcomes: Vec<Outcome> = Vec::new();
    for reason in decisive {
        outcomes.push(Outcome::win(Side::First, reason));
        outcomes.push(Outcome::win(Side::Second, reason));
    }
    outcomes.extend(drawn.map(Outcome::draw));
    for outcome in outcomes {
        let mut record = Record::new(start.clone());
        record.set_outcome(outcome);
        for format in [
            MoveFormat::Iccs,
            MoveFormat::Wxf,
            MoveFormat::Chinese(Script::Simplified),
        ] {
            let text = record.to_text(format);
            let want = match outcome.winner {
                Some(Side::First) => "1-0",
                Some(Side::Second) => "0-1",
                None => "1/2-1/2",
            };
            assert!(text.contains(&format!("[Result \"{want}\"]")), "{text}");
            let game = import(text.as_bytes(), None).unwrap();
            assert_eq!(game.result(), Some(outcome), "{text}");
            assert_eq!(game.winner(), outcome.winner);
        }
    }
}

/// The records of issue 22: each keeps its result, reason and players' names.
#[test]
fn imported_records_keep_result_reason_and_names() {
    let kif = "先手：Alice\n後手：Bob\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 ８八角成(22)\n   5 投了\nまで4手で後手の勝ち\n";
    let pgn = "[Game \"Chinese Chess\"]\n[Red \"Alice\"]\n[Black \"Bob\"]\n[FEN \"4k4/R8/1R7/9/9/9/9/9/9/3K5 w - - 0 1\"]\n[Result \"1-0\"]\n\n1. b7b9 1-0\n";
    let csa = "V2.2\nN+Alice\nN-Bob\nPI\n+\n+7776FU\n-3334FU\n'切断\n%-ILLEGAL_ACTION\n'jiang-result: 1-0 disconnection\n";
    for (text, winner, reason) in [
        (kif, Side::Second, Reason::Resignation),
        (pgn, Side::First, Reason::Checkmate),
        (csa, Side::First, Reason::Disconnection),
    ] {
        let game = import(text.as_bytes(), None).unwrap();
        assert_eq!(game.result(), Some(Outcome::win(winner, reason)), "{text}");
        assert_eq!(
            game.players(),
            [Some("Alice".to_owned()), Some("Bob".to_owned())],
            "{text}"
        );
    }
    // PGN's `?` is no name.
    let unnamed = import(b"[Red \"?\"]\n\n1. h2e2 *\n", None).unwrap();
    assert_eq!(unnamed.players(), [None, None]);
}
