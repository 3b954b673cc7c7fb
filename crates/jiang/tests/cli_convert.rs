//! `jiang convert` against the built binary: every family's formats in and out, from a file
//! and from standard input, and errors with line numbers.

mod common;

/// Runs `jiang <args>` with `stdin` bytes; returns (stdout, stderr, exit code).
fn jiang(args: &[&str], stdin: &[u8]) -> (String, String, i32) {
    let out = common::run_jiang(args, stdin);
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn converts_between_every_format_of_a_family() {
    // Shogi: KIF → every shogi format → back to USI, the same game each time.
    let kif = "手合割：平手\n先手：A\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 投了\nまで4手で後手の勝ち\n";
    let usi = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d 8h2b+ 3a2b\n";
    for to in ["kif", "ki2", "csa", "usi"] {
        let (written, err, code) = jiang(&["convert", "--to", to], kif.as_bytes());
        assert_eq!(code, 0, "{to}: {err}");
        let (back, err, code) = jiang(&["convert", "--to", "usi"], written.as_bytes());
        assert_eq!((back.as_str(), code), (usi, 0), "{to}: {err}\n{written}");
    }
    let (sfen, _, _) = jiang(&["convert", "--to", "sfen"], kif.as_bytes());
    assert_eq!(
        sfen,
        "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5\n"
    );
    // Shift_JIS input.
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(kif);
    let (back, _, code) = jiang(&["convert", "--to", "usi"], &sjis);
    assert_eq!((back.as_str(), code), (usi, 0));
    // Xiangqi: PGN (WXF movetext) → ICCS PGN, FEN, position line.
    let pgn = "[Game \"Chinese Chess\"]\n[Format \"WXF\"]\n\n1. C2.5 H8+7 2. H2+3 R9.8 *\n";
    let (iccs, err, code) = jiang(&["convert", "--to", "pgn"], pgn.as_bytes());
    assert_eq!(code, 0, "{err}");
    assert!(
        iccs.contains("[Format \"ICCS\"]") && iccs.contains("1. h2e2 h9g7 2. h0g2 i9h9 *"),
        "{iccs}"
    );
    let (line, _, _) = jiang(&["convert", "--to", "usi"], iccs.as_bytes());
    assert_eq!(
        line,
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7 h0g2 i9h9\n"
    );
    let (wxf, _, _) = jiang(&["convert", "--to", "wxf"], line.as_bytes());
    assert!(wxf.contains("1. C2.5 H8+7 2. H2+3 R9.8 *"), "{wxf}");
    // From a file.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.pgn");
    std::fs::write(&path, pgn).unwrap();
    let (fen, _, code) = jiang(&["convert", "--to", "fen", path.to_str().unwrap()], b"");
    assert_eq!(
        (fen.as_str(), code),
        (
            "rnbakabr1/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3\n",
            0
        )
    );
}

#[test]
fn bad_records_and_wrong_formats_exit_2_with_the_line() {
    let kif = "   1 ７六歩(77)\n   2 ７五歩(76)\n   3 ２六歩(27)\n";
    let (out, err, code) = jiang(&["convert", "--to", "csa"], kif.as_bytes());
    assert_eq!((out.as_str(), code), ("", 2));
    assert!(err.contains("line 2"), "{err}");
    let pgn = "1. h2e2 h9g7 *\n";
    let (_, err, code) = jiang(&["convert", "--to", "kif"], pgn.as_bytes());
    assert_eq!(code, 2);
    assert!(err.contains("use pgn, wxf, fen or usi"), "{err}");
    let (_, err, code) = jiang(&["convert", "--to", "docx"], pgn.as_bytes());
    assert_eq!(code, 2, "{err}");
    let (_, err, code) = jiang(
        &["convert", "--to", "pgn", "--variant", "shogi"],
        pgn.as_bytes(),
    );
    assert_eq!(code, 2);
    assert!(err.contains("not shogi"), "{err}");
}
