//! KIF and CSA records: round trips for every result type and for handicap games, the words
//! each format uses, import of what desktop programs write (start diagrams, Shift_JIS,
//! comments, variations), and readers that never panic.

mod common;

use jiang_rules::shogi::notation::{
    RecordError, ShogiRecord, read_csa, read_ki2, read_kif, write_csa, write_ki2, write_kif,
    write_kif_shift_jis,
};
use jiang_rules::shogi::{Game, Position, handicap};
use jiang_rules::{Outcome, Reason, Side, Variant};
use proptest::prelude::*;

/// A record of `variant` from `sfen` (or the standard start) with `moves`.
fn record(
    variant: Variant,
    sfen: Option<&str>,
    moves: &[&str],
    result: Option<Outcome>,
) -> ShogiRecord {
    let mut r = ShogiRecord::new(variant);
    if let Some(sfen) = sfen {
        r.start_sfen = Position::from_sfen(variant, sfen).unwrap().sfen();
    }
    r.moves = moves.iter().map(|m| (*m).to_owned()).collect();
    r.result = result;
    r.sente_name = Some("羽生善治".into());
    r.gote_name = Some("Bob Smith".into());
    r.start_time = Some("2024/01/02 10:00:00".into());
    r.time_control = Some("10分+30秒".into());
    r
}

/// Asserts that `read` failed on the move at `ply`, written on `line`.
#[track_caller]
fn assert_move_error(read: Result<ShogiRecord, RecordError>, line: usize, ply: usize) {
    match read {
        Err(RecordError::Move {
            line: at, ply: n, ..
        }) => assert_eq!((at, n), (line, ply), "(line, ply) of the move error"),
        other => panic!("expected a move error on line {line}, ply {ply}: {other:?}"),
    }
}

/// The outcome the shogi core decides for these moves (the records below are real endings).
fn decided(variant: Variant, sfen: Option<&str>, moves: &[&str]) -> Option<Outcome> {
    let start = match sfen {
        Some(s) => Position::from_sfen(variant, s).unwrap(),
        None => Position::startpos(variant),
    };
    let mut game = Game::new(start);
    for m in moves {
        game.play_usi(m).unwrap();
    }
    game.outcome()
}

/// Drops Jiang's exact-result comment so that import must read the standard words.
fn without_result_comment(text: &str) -> String {
    text.lines()
        .filter(|l| !l.contains("jiang-result"))
        .map(|l| format!("{l}\n"))
        .collect()
}

fn repeat(cycle: &[&'static str], times: usize) -> Vec<&'static str> {
    cycle
        .iter()
        .copied()
        .cycle()
        .take(cycle.len() * times)
        .collect()
}

/// One record per way a game ends, each with the result Jiang would record.
fn every_ending() -> Vec<(&'static str, ShogiRecord)> {
    let mut out = Vec::new();
    let opening = ["7g7f", "3c3d", "2g2f", "8c8d"];
    out.push((
        "resignation",
        record(
            Variant::Shogi,
            None,
            &opening,
            Some(Outcome::win(Side::Second, Reason::Resignation)),
        ),
    ));
    // Ends the shogi core itself decides for the moves.
    type Decided<'a> = (
        &'static str,
        Variant,
        Option<&'static str>,
        &'a [&'static str],
        Outcome,
    );
    let shuffle = repeat(&["2h3h", "8b7b", "3h2h", "7b8b"], 3);
    let checks = repeat(&["3b4b", "3h4h", "4b3b", "4h3h"], 3);
    let victim_checks = repeat(&["3h4h", "4b3b", "4h3h", "3b4b"], 3);
    let mini_shuffle = repeat(&["5e4d", "1a2b", "4d5e", "2b1a"], 3);
    let decided_by_the_core: [Decided; 6] = [
        (
            "checkmate",
            Variant::Shogi,
            Some("4k4/9/4P4/9/9/9/9/9/4K4 b G 1"),
            &["G*5b"],
            Outcome::win(Side::First, Reason::Checkmate),
        ),
        // Gote's king on 1a cannot move and is not in check: a loss for gote all the same.
        (
            "stalemate",
            Variant::Shogi,
            Some("8k/7P1/6+RG1/9/9/9/9/9/4K4 w - 1"),
            &[],
            Outcome::win(Side::First, Reason::Stalemate),
        ),
        (
            "repetition",
            Variant::Shogi,
            None,
            &shuffle,
            Outcome::draw(Reason::Repetition),
        ),
        (
            "perpetual-check",
            Variant::Shogi,
            Some("9/6k2/9/9/9/9/9/6R2/K8 w - 1"),
            &checks,
            Outcome::win(Side::Second, Reason::PerpetualCheck),
        ),
        // The same perpetual check, but the fourth occurrence is reached by the victim's move:
        // the checker is to move when the game ends.
        (
            "perpetual-check completed by the victim",
            Variant::Shogi,
            Some("9/5k3/9/9/9/9/9/6R2/K8 b - 1"),
            &victim_checks,
            Outcome::win(Side::Second, Reason::PerpetualCheck),
        ),
        (
            "minishogi repetition",
            Variant::Minishogi,
            None,
            &mini_shuffle,
            Outcome::win(Side::Second, Reason::Repetition),
        ),
    ];
    for (name, variant, sfen, moves, ending) in decided_by_the_core {
        let outcome = decided(variant, sfen, moves);
        assert_eq!(outcome, Some(ending), "{name}");
        out.push((name, record(variant, sfen, moves, outcome)));
    }
    // Ends decided outside the moves: the moves played, and the result.
    let sente_wins = |reason| Some(Outcome::win(Side::First, reason));
    let decided_outside: [(&str, &[&str], Option<Outcome>); 5] = [
        (
            "resignation by the side not to move",
            &opening,
            sente_wins(Reason::Resignation),
        ),
        ("timeout", &opening[..3], sente_wins(Reason::Timeout)),
        // The declarer is the side to move when the game ends.
        (
            "impasse",
            &opening[..3],
            Some(Outcome::win(Side::Second, Reason::Impasse)),
        ),
        ("aborted", &[], Some(Outcome::draw(Reason::Aborted))),
        (
            "move-limit",
            &opening,
            Some(Outcome::draw(Reason::MoveLimit)),
        ),
    ];
    for (name, moves, outcome) in decided_outside {
        out.push((name, record(Variant::Shogi, None, moves, outcome)));
    }
    let bare = "4k4/9/9/9/9/9/9/9/4K4 b - 1";
    out.push((
        "bare kings",
        record(
            Variant::Shogi,
            Some(bare),
            &["5i5h"],
            Some(Outcome::draw(Reason::InsufficientMaterial)),
        ),
    ));
    let mut lance = record(
        Variant::Shogi,
        Some(handicap(Variant::Shogi, "lance").unwrap().sfen),
        &["5c5d", "7g7f", "4a5b"],
        Some(Outcome::win(Side::Second, Reason::Resignation)),
    );
    lance.handicap = handicap(Variant::Shogi, "lance");
    lance.sente_name = Some("下手さん".into());
    out.push(("handicap", lance));
    let mut two = record(
        Variant::Shogi,
        Some(handicap(Variant::Shogi, "2-piece").unwrap().sfen),
        &["5c5d", "7g7f"],
        Some(Outcome::win(Side::First, Reason::Resignation)),
    );
    two.handicap = handicap(Variant::Shogi, "2-piece");
    out.push(("2-piece handicap", two));
    let mut timed = record(Variant::Shogi, None, &opening, None);
    timed.move_seconds = vec![3, 5, 61, 3600];
    out.push(("unfinished with times", timed));
    let custom = "lnsgk2nl/6g2/p1pppp2p/6R2/9/1rP6/P2PPPPPP/1SG6/LN2KGSNL b BS2Pb 1";
    out.push((
        "custom start with hands",
        record(
            Variant::Shogi,
            Some(custom),
            &["B*5e", "B*3c"],
            Some(Outcome::win(Side::Second, Reason::Resignation)),
        ),
    ));
    out
}

#[test]
fn kif_round_trips_every_ending() {
    for (name, rec) in every_ending() {
        let text = write_kif(&rec).unwrap();
        if std::env::var_os("SHOW_RECORDS").is_some() {
            println!("== {name}\n{text}\n{}", write_csa(&rec).unwrap());
        }
        assert_eq!(read_kif(text.as_bytes()).unwrap(), rec, "{name}:\n{text}");
        // The standard words and the summary alone give the same result.
        let bare = without_result_comment(&text);
        assert_same_end(
            read_kif(bare.as_bytes()).unwrap().result,
            rec.result,
            name,
            &bare,
        );
    }
}

/// Without Jiang's comment, the words must give the same winner, and the same reason unless
/// the format has no word for it (the draws KIF and KI2 call 持将棋).
fn assert_same_end(read: Option<Outcome>, written: Option<Outcome>, name: &str, text: &str) {
    let winner = |o: Option<Outcome>| o.map(|o| o.winner);
    assert_eq!(winner(read), winner(written), "{name}: winner\n{text}");
    let collapsed = |o: Option<Outcome>| {
        o.map(|o| match o.reason {
            Reason::InsufficientMaterial
            | Reason::Agreement
            | Reason::TimeoutVsInsufficient
            | Reason::MoveLimit => Reason::MoveLimit,
            r => r,
        })
    };
    assert_eq!(
        collapsed(read),
        collapsed(written),
        "{name}: reason\n{text}"
    );
}

#[test]
fn ki2_round_trips_every_ending() {
    for (name, rec) in every_ending() {
        let text = write_ki2(&rec).unwrap();
        let mut expected = rec.clone();
        expected.move_seconds.clear(); // KI2 has no times
        assert_eq!(
            read_ki2(text.as_bytes()).unwrap(),
            expected,
            "{name}:\n{text}"
        );
        // Without Jiang's comment KI2 keeps the winner (its summary has no reason words
        // that readers parse, beyond what the final position shows).
        let bare = without_result_comment(&text);
        let read = read_ki2(bare.as_bytes()).unwrap().result;
        assert_eq!(
            read.map(|o| o.winner),
            rec.result.map(|o| o.winner),
            "{name}:\n{bare}"
        );
    }
}

/// The winner every format names, as the third-party readers find it: KIF's summary
/// `まで{n}手で{side}の勝ち` and special move, KI2's summary, CSA's `%` word.
#[test]
fn every_ending_names_the_right_winner_in_every_format() {
    for (name, rec) in every_ending() {
        let Some(outcome) = rec.result else { continue };
        let handicap = rec.effective_handicap().is_some();
        let label = |side: Side| match (handicap, side) {
            (false, Side::First) => "先手",
            (false, Side::Second) => "後手",
            (true, Side::First) => "下手",
            (true, Side::Second) => "上手",
        };
        let n = rec.moves.len();
        let summary = match (outcome.winner, outcome.reason) {
            (Some(w), _) => format!("まで{n}手で{}の勝ち", label(w)),
            (None, Reason::Repetition) => format!("まで{n}手で千日手"),
            (None, Reason::Aborted) => format!("まで{n}手で中断"),
            (None, _) => format!("まで{n}手で持将棋"),
        };
        for (format, text) in [
            ("kif", write_kif(&rec).unwrap()),
            ("ki2", write_ki2(&rec).unwrap()),
        ] {
            assert!(
                text.lines().any(|l| l == summary),
                "{name} {format}: `{summary}` in\n{text}"
            );
        }
        // The KIF special move speaks for the side to move at the end.
        let kif = write_kif(&rec).unwrap();
        let special = kif
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{} ", n + 1)))
            .map_or("", |l| l.split_whitespace().nth(1).unwrap_or(""))
            .to_owned();
        let mut end = Position::from_sfen(rec.variant, &rec.start_sfen).unwrap();
        for m in &rec.moves {
            let mv = end.parse_move(m).unwrap();
            end.play(mv);
        }
        let to_move = end.turn();
        let mover_wins = match special.as_str() {
            "反則勝ち" | "入玉勝ち" => Some(true),
            "投了" | "詰み" | "切れ負け" | "反則負け" => Some(false),
            _ => None,
        };
        if let Some(mover_wins) = mover_wins {
            let named = if mover_wins { to_move } else { !to_move };
            assert_eq!(
                Some(named),
                outcome.winner,
                "{name}: KIF `{special}`\n{kif}"
            );
        }
        // CSA: the `%` word with the side to move (or the offender it names).
        let csa = write_csa(&rec).unwrap();
        let word = csa.lines().find(|l| l.starts_with('%')).unwrap();
        let csa_winner = match word {
            "%TORYO" | "%TSUMI" | "%TIME_UP" => Some(!to_move),
            "%KACHI" => Some(to_move),
            "%+ILLEGAL_ACTION" => Some(Side::Second),
            "%-ILLEGAL_ACTION" => Some(Side::First),
            _ => None,
        };
        if csa_winner.is_some() || !matches!(word, "%SENNICHITE") {
            assert_eq!(csa_winner, outcome.winner, "{name}: CSA `{word}`\n{csa}");
        }
    }
}

#[test]
fn csa_round_trips_every_ending() {
    for (name, rec) in every_ending() {
        let text = write_csa(&rec).unwrap();
        assert_eq!(read_csa(text.as_bytes()).unwrap(), rec, "{name}:\n{text}");
        let bare = without_result_comment(&text);
        let read = read_csa(bare.as_bytes()).unwrap().result;
        if rec.variant == Variant::Minishogi
            && rec.result.is_some_and(|o| o.reason == Reason::Repetition)
        {
            continue; // CSA's %SENNICHITE cannot say that sente lost (documented)
        }
        assert_eq!(read, rec.result, "{name}:\n{bare}");
    }
}

/// The line of `text` that starts with `prefix`.
fn line<'a>(text: &'a str, prefix: &str) -> &'a str {
    text.lines()
        .find(|l| l.trim_start().starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starting with {prefix} in\n{text}"))
}

#[test]
fn kif_uses_the_desktop_layout_and_words() {
    let endings = every_ending();
    let get = |name: &str| &endings.iter().find(|(n, _)| *n == name).unwrap().1;
    let kif = write_kif(get("resignation")).unwrap();
    let expected_start = "#KIF version=2.0 encoding=UTF-8\n開始日時：2024/01/02 10:00:00\n手合割：平手\n先手：羽生善治\n後手：Bob Smith\n持ち時間：10分+30秒\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:00/00:00:00)\n   2 ３四歩(33)   ( 0:00/00:00:00)\n";
    assert!(kif.starts_with(expected_start), "{kif}");
    assert!(
        kif.contains("\n   5 投了         ( 0:00/00:00:00)\nまで4手で後手の勝ち\n"),
        "{kif}"
    );
    let words = [
        ("checkmate", "詰み", "まで1手で先手の勝ち"),
        ("repetition", "千日手", "まで12手で千日手"),
        ("perpetual-check", "反則勝ち", "まで12手で後手の勝ち"),
        (
            "perpetual-check completed by the victim",
            "反則負け",
            "まで12手で後手の勝ち",
        ),
        ("timeout", "切れ負け", "まで3手で先手の勝ち"),
        ("impasse", "入玉勝ち", "まで3手で後手の勝ち"),
        ("aborted", "中断", "まで0手で中断"),
        ("move-limit", "持将棋", "まで4手で持将棋"),
        ("minishogi repetition", "千日手", "まで12手で後手の勝ち"),
        ("handicap", "投了", "まで3手で上手の勝ち"),
    ];
    for (name, word, summary) in words {
        let kif = write_kif(get(name)).unwrap();
        let n = get(name).moves.len() + 1;
        assert!(line(&kif, &format!("{n} ")).contains(word), "{name}: {kif}");
        assert!(kif.contains(&format!("\n{summary}\n")), "{name}: {kif}");
    }
    // Handicap games: 手合割 and 下手/上手 labels, no diagram.
    let kif = write_kif(get("handicap")).unwrap();
    assert!(
        kif.contains("手合割：香落ち\n下手：下手さん\n上手：Bob Smith\n"),
        "{kif}"
    );
    assert!(!kif.contains('|'), "{kif}");
    // Handicap move 1 is gote's (上手's), written the same way.
    assert!(kif.contains("   1 ５四歩(53)"), "{kif}");
    // Minishogi.
    assert!(
        write_kif(get("minishogi repetition"))
            .unwrap()
            .contains("手合割：5五将棋\n")
    );
    // Custom start: a diagram with hands.
    let kif = write_kif(get("custom start with hands")).unwrap();
    assert!(kif.contains("後手の持駒：角　\n"), "{kif}");
    assert!(kif.contains("先手の持駒：角　銀　歩二　\n"), "{kif}");
    assert!(kif.contains("|v香v桂v銀v金v玉 ・ ・v桂v香|一\n"), "{kif}");
    assert!(
        kif.contains("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n"),
        "{kif}"
    );
    assert!(kif.contains("   1 ５五角打     ( 0:00/00:00:00)"), "{kif}");
    // Times: per move and the player's running total.
    let kif = write_kif(get("unfinished with times")).unwrap();
    assert!(kif.contains("   3 ２六歩(27)   ( 1:01/00:01:04)"), "{kif}");
    assert!(kif.contains("   4 ８四歩(83)   (60:00/01:00:05)"), "{kif}");
}

#[test]
fn csa_uses_the_standard_words() {
    let endings = every_ending();
    let get = |name: &str| write_csa(&endings.iter().find(|(n, _)| *n == name).unwrap().1).unwrap();
    let csa = get("resignation");
    assert!(
        csa.starts_with("'CSA encoding=UTF-8\nV2.2\nN+羽生善治\nN-Bob Smith\n$START_TIME:2024/01/02 10:00:00\n'持ち時間:10分+30秒\nPI\n+\n+7776FU\n-3334FU\n"),
        "{csa}"
    );
    assert!(csa.contains("\n%TORYO\n"));
    for (name, word) in [
        ("checkmate", "%TORYO"),
        ("repetition", "%SENNICHITE"),
        ("perpetual-check", "%+ILLEGAL_ACTION"),
        ("timeout", "%TIME_UP"),
        ("impasse", "%KACHI"),
        ("aborted", "%CHUDAN"),
        ("move-limit", "%JISHOGI"),
        ("bare kings", "%HIKIWAKE"),
        ("minishogi repetition", "%SENNICHITE"),
    ] {
        assert!(
            get(name).contains(&format!("\n{word}\n")),
            "{name}: {}",
            get(name)
        );
    }
    assert!(
        get("handicap").contains("\nPI11KY\n-\n-5354FU\n"),
        "{}",
        get("handicap")
    );
    assert!(get("2-piece handicap").contains("\nPI22KA82HI\n-\n"));
    assert!(
        get("checkmate").contains("P+00KI\n+\n+0052KI\n"),
        "{}",
        get("checkmate")
    );
    assert!(get("unfinished with times").contains("+7776FU\nT3\n-3334FU\nT5\n"));
    let mini = get("minishogi repetition");
    assert!(
        mini.contains("P1-HI-KA-GI-KI-OU\nP2 *  *  *  * -FU\n"),
        "{mini}"
    );
    let custom = get("custom start with hands");
    assert!(
        custom.contains("P+00KA00GI00FU00FU\nP-00KA\n+\n+0055KA\n-0033KA\n"),
        "{custom}"
    );
}

#[test]
fn records_from_games_carry_the_decided_outcome() {
    let mut game = Game::new(handicap(Variant::Shogi, "bishop").unwrap().position());
    for m in ["5c5d", "7g7f"] {
        game.play_usi(m).unwrap();
    }
    let rec = ShogiRecord::from_game(&game);
    assert_eq!(rec.handicap, handicap(Variant::Shogi, "bishop"));
    assert_eq!(rec.moves, ["5c5d", "7g7f"]);
    assert_eq!(rec.result, None);
    assert!(write_kif(&rec).unwrap().contains("手合割：角落ち\n"));
    let mut mate =
        Game::new(Position::from_sfen(Variant::Shogi, "4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap());
    mate.play_usi("G*5b").unwrap();
    let rec = ShogiRecord::from_game(&mate);
    assert_eq!(
        rec.result,
        Some(Outcome::win(Side::First, Reason::Checkmate))
    );
    assert_eq!(read_csa(write_csa(&rec).unwrap().as_bytes()).unwrap(), rec);
}

#[test]
fn promotions_in_csa_name_the_promoted_piece() {
    let rec = record(
        Variant::Shogi,
        None,
        &["7g7f", "3c3d", "8h2b+", "3a2b"],
        None,
    );
    let csa = write_csa(&rec).unwrap();
    assert!(csa.contains("+8822UM\n-3122GI\n"), "{csa}");
    assert_eq!(read_csa(csa.as_bytes()).unwrap(), rec);
    let kif = write_kif(&rec).unwrap();
    assert!(
        kif.contains("   3 ２二角成(88) ( 0:00/00:00:00)\n   4 同　銀(31)   ( 0:00/00:00:00)\n"),
        "{kif}"
    );
}

/// A KIF as Kifu for Windows writes it: header comment, padded 手合割, comments after moves,
/// `&` bookmarks, a variation, `+` markers, a trailing 終了日時.
const DESKTOP_KIF: &str = include_str!("fixtures/shogi/kifu_for_windows.kifu");

#[test]
fn imports_a_kif_as_a_desktop_program_writes_it() {
    let rec = read_kif(DESKTOP_KIF.as_bytes()).unwrap();
    assert_eq!(rec.variant, Variant::Shogi);
    assert_eq!(rec.start_sfen, Position::startpos(Variant::Shogi).sfen());
    assert_eq!(rec.sente_name.as_deref(), Some("先手太郎"));
    assert_eq!(rec.gote_name.as_deref(), Some("後手花子"));
    assert_eq!(rec.start_time.as_deref(), Some("2023/11/03(金) 10:00:00"));
    assert_eq!(
        rec.moves,
        ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "4a5b", "4e3d"]
    );
    assert_eq!(rec.move_seconds, [16, 2, 5, 1, 10, 20, 3]);
    assert_eq!(
        rec.result,
        Some(Outcome::win(Side::First, Reason::Resignation))
    );
    assert_eq!(rec.handicap, None);
}

#[test]
fn imports_shift_jis() {
    // `.kif` files are Shift_JIS; the fixture is the UTF-8 `.kifu` sample re-encoded.
    let bytes = include_bytes!("fixtures/shogi/kifu_for_windows.kif");
    assert!(
        String::from_utf8(bytes.to_vec()).is_err(),
        "really Shift_JIS"
    );
    let rec = read_kif(bytes).unwrap();
    assert_eq!(rec, read_kif(DESKTOP_KIF.as_bytes()).unwrap());
    let csa = "V2.2\r\nN+先手\r\nN-後手\r\nPI\r\n+\r\n+7776FU\r\n%TORYO\r\n";
    let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(csa);
    let rec = read_csa(&bytes).unwrap();
    assert_eq!(rec.sente_name.as_deref(), Some("先手"));
    assert_eq!(
        rec.result,
        Some(Outcome::win(Side::First, Reason::Resignation))
    );
}

/// A tsume-style KIF with a start diagram (gote's pieces marked `v`), hands, no 手合割, no
/// time columns, a lone `同 ` with an ASCII space, and 龍 spelled 竜.
const DIAGRAM_KIF: &str = include_str!("fixtures/shogi/tsume_diagram.kifu");

#[test]
fn imports_a_kif_with_a_start_diagram() {
    let rec = read_kif(DIAGRAM_KIF.as_bytes()).unwrap();
    assert_eq!(
        rec.start_sfen,
        "7nl/7k1/9/9/9/9/9/9/4K3R b SPr2b4g3s3n3l17p 1"
    );
    assert_eq!(rec.moves, ["S*3a", "2b3a", "1i1b+", "3a4a", "1b2b"]);
    assert_eq!(rec.handicap, None);
    // A move that is not legal in the diagram's position is reported with its line.
    let broken = DIAGRAM_KIF.replace("3 １二飛成", "3 １二竜");
    assert_move_error(read_kif(broken.as_bytes()), 20, 3);
    assert_eq!(rec.sente_name.as_deref(), Some("作者"));
    assert_eq!(rec.result, None);
    // Written back, the diagram reproduces the same start.
    let again = read_kif(write_kif(&rec).unwrap().as_bytes()).unwrap();
    assert_eq!(again, rec);
}

#[test]
fn imports_a_gote_to_move_diagram_and_minishogi() {
    let kif = "手合割：5五将棋
上手の持駒：なし
  ５ ４ ３ ２ １
+---------------+
|v飛v角v銀v金v玉|一
| ・ ・ ・ ・v歩|二
| ・ ・ ・ ・ ・|三
| 歩 ・ ・ ・ ・|四
| 玉 金 銀 角 ・|五
+---------------+
下手の持駒：なし
上手番
手数----指手---------消費時間--
   1 １三歩(12)
   2 ５三歩(54)
   3 投了
まで2手で下手の勝ち
";
    let rec = read_kif(kif.as_bytes()).unwrap();
    assert_eq!(rec.variant, Variant::Minishogi);
    assert_eq!(rec.start_sfen, "rbsgk/4p/5/P4/KGSB1 w - 1");
    assert_eq!(rec.moves, ["1b1c", "5d5c"]);
    assert_eq!(
        rec.result,
        Some(Outcome::win(Side::First, Reason::Resignation))
    );
}

#[test]
fn shift_jis_export_round_trips_or_says_why_not() {
    for (name, rec) in every_ending() {
        let bytes = write_kif_shift_jis(&rec).unwrap();
        assert!(
            String::from_utf8(bytes.clone()).is_err(),
            "{name}: Japanese text in Shift_JIS"
        );
        assert_eq!(read_kif(&bytes).unwrap(), rec, "{name}");
    }
    let mut rec = ShogiRecord::new(Variant::Shogi);
    rec.sente_name = Some("Ana 🐉".into());
    assert!(
        matches!(write_kif_shift_jis(&rec), Err(RecordError::Unwritable(m)) if m.contains('🐉'))
    );
}

#[test]
fn a_summary_line_alone_gives_the_result() {
    let kif = "   1 ７六歩(77)\n   2 ３四歩(33)\nまで2手で後手の勝ち\n";
    let rec = read_kif(kif.as_bytes()).unwrap();
    assert_eq!(
        rec.result,
        Some(Outcome::win(Side::Second, Reason::Resignation))
    );
    let kif = "   1 ７六歩(77)\nまで1手で千日手\n";
    assert_eq!(
        read_kif(kif.as_bytes()).unwrap().result,
        Some(Outcome::draw(Reason::Repetition))
    );
    // A foul Jiang has no reason for is kept as text.
    let kif = "   1 ７六歩(77)\n   2 反則負け\nまで1手で後手の反則負け\n";
    let rec = read_kif(kif.as_bytes()).unwrap();
    assert_eq!(rec.result, None);
    assert_eq!(rec.other_end.as_deref(), Some("反則負け"));
}

#[test]
fn record_errors_say_where() {
    let bad_move = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ７五歩(76)\n   3 ２六歩(27)\n";
    assert_move_error(read_kif(bad_move.as_bytes()), 4, 2);
    let bad_number = "   1 ７六歩(77)\n   3 ３四歩(33)\n";
    assert!(matches!(
        read_kif(bad_number.as_bytes()),
        Err(RecordError::Syntax { line: 2, .. })
    ));
    let bad_handicap = "手合割：九枚落ち\n";
    assert!(matches!(
        read_kif(bad_handicap.as_bytes()),
        Err(RecordError::Syntax { line: 1, .. })
    ));
    assert!(matches!(
        read_kif(&[0x82, 0xff, 0xff, 0x00, 0x81]),
        Err(RecordError::Encoding)
    ));
    let csa = "V2.2\nPI\n+\n+7776FU\n+3334FU\n-8384FU\n";
    assert_move_error(read_csa(csa.as_bytes()), 5, 2);
    let no_side = "V2.2\nPI\n";
    assert!(matches!(
        read_csa(no_side.as_bytes()),
        Err(RecordError::Syntax { .. })
    ));
    let bad_row = "P1-KY-KE\n+\n";
    assert!(matches!(
        read_csa(bad_row.as_bytes()),
        Err(RecordError::Syntax { line: 1, .. })
    ));
    let mut illegal = ShogiRecord::new(Variant::Shogi);
    illegal.moves = vec!["7g7e".into()];
    assert!(matches!(
        write_kif(&illegal),
        Err(RecordError::Unwritable(_))
    ));
    assert!(matches!(
        write_csa(&illegal),
        Err(RecordError::Unwritable(_))
    ));
}

#[test]
fn imports_a_csa_as_a_game_server_writes_it() {
    let rec = read_csa(include_bytes!("fixtures/shogi/server_game.csa")).unwrap();
    assert_eq!(rec.sente_name.as_deref(), Some("NAKAHARA"));
    assert_eq!(rec.gote_name.as_deref(), Some("YONENAGA"));
    assert_eq!(rec.start_time.as_deref(), Some("2003/05/03 10:30:00"));
    assert_eq!(rec.start_sfen, Position::startpos(Variant::Shogi).sfen());
    assert_eq!(rec.moves, ["2g2f", "3c3d", "7g7f"]);
    assert_eq!(rec.move_seconds, [12, 6, 3]);
    assert_eq!(rec.time_control.as_deref(), Some("00:25+00"));
    assert_eq!(
        rec.result,
        Some(Outcome::win(Side::First, Reason::Resignation))
    );
}

#[test]
fn csa_reads_comma_separated_statements_and_full_boards() {
    let csa = "'comment\nV2.2\nN+A\nN-B\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n+7776FU,T1\n-3334FU,T2\n%CHUDAN\n";
    let rec = read_csa(csa.as_bytes()).unwrap();
    assert_eq!(rec.start_sfen, Position::startpos(Variant::Shogi).sfen());
    assert_eq!(rec.moves, ["7g7f", "3c3d"]);
    assert_eq!(rec.move_seconds, [1, 2]);
    assert_eq!(rec.result, Some(Outcome::draw(Reason::Aborted)));
    // `00AL` puts every remaining piece in one hand (tsume problems).
    let tsume = "P1 *  *  *  *  *  *  * -KE-KY\nP2 *  *  *  *  *  *  * -OU * \nP3 *  *  *  *  *  *  *  *  * \nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  * +OU *  *  * +HI\nP+00GI00FU\nP-00AL\n+\n";
    let rec = read_csa(tsume.as_bytes()).unwrap();
    assert_eq!(
        rec.start_sfen,
        "7nl/7k1/9/9/9/9/9/9/4K3R b SPr2b4g3s3n3l17p 1"
    );
    // An end Jiang has no reason for is kept verbatim.
    let foul = "PI\n+\n+7776FU\n%ILLEGAL_MOVE\n";
    let rec = read_csa(foul.as_bytes()).unwrap();
    assert_eq!(rec.result, None);
    assert_eq!(rec.other_end.as_deref(), Some("%ILLEGAL_MOVE"));
    assert_eq!(read_csa(write_csa(&rec).unwrap().as_bytes()).unwrap(), rec);
    // Servers' %OUTE_SENNICHITE: the side to move (the victim) wins.
    let outes = "PI\n+\n+7776FU\n%OUTE_SENNICHITE\n";
    assert_eq!(
        read_csa(outes.as_bytes()).unwrap().result,
        Some(Outcome::win(Side::Second, Reason::PerpetualCheck))
    );
}

/// Plays a random game from `start`, at most `plies` long.
/// Whether a KIF move line has the shape the common readers match (python-shogi's and cshogi's
/// `MOVE_RE`): number, destination or `同　`, one piece name (成銀/成桂/成香 allowed, as both
/// normalise them), then `打` or an optional `成` and the origin `(77)`, then the time column.
/// No relative words, no 不成.
fn kif_move_has_reader_shape(line: &str) -> bool {
    let rest = line
        .trim_start()
        .trim_start_matches(|c: char| c.is_ascii_digit());
    let Some(rest) = rest.strip_prefix(' ') else {
        return false;
    };
    let rest = if let Some(r) = rest.strip_prefix("同　") {
        r
    } else {
        let mut chars = rest.chars();
        let file = chars
            .next()
            .is_some_and(|c| "１２３４５６７８９".contains(c));
        let rank = chars
            .next()
            .is_some_and(|c| "一二三四五六七八九".contains(c));
        if !(file && rank) {
            return false;
        }
        chars.as_str()
    };
    let pieces = [
        "成銀", "成桂", "成香", "歩", "香", "桂", "銀", "金", "角", "飛", "玉", "と", "馬", "龍",
    ];
    let Some(rest) = pieces.iter().find_map(|p| rest.strip_prefix(p)) else {
        return false;
    };
    let rest = match rest.strip_prefix('打') {
        Some(r) => r,
        None => {
            let r = rest.strip_prefix('成').unwrap_or(rest);
            let b = r.as_bytes();
            if b.len() < 4
                || b[0] != b'('
                || !b[1].is_ascii_digit()
                || !b[2].is_ascii_digit()
                || b[3] != b')'
            {
                return false;
            }
            &r[4..]
        }
    };
    let rest = rest.trim_start();
    rest.starts_with('(') && rest.ends_with(')') && rest.contains('/')
}

#[test]
fn kif_gives_origins_and_ki2_relative_words() {
    // Two golds can reach 5h (from 4i and 6i), and a silver can promote or not on 2c.
    let sfen = "4k4/9/9/3S5/9/9/9/9/3GKG3 b - 1";
    let mut rec = ShogiRecord::new(Variant::Shogi);
    rec.start_sfen = Position::from_sfen(Variant::Shogi, sfen).unwrap().sfen();
    rec.moves = vec!["4i5h".into(), "5a4a".into(), "6d7c".into()];
    let kif = write_kif(&rec).unwrap();
    assert!(kif.contains("   1 ５八金(49)"), "{kif}");
    assert!(kif.contains("   3 ７三銀(64)"), "{kif}");
    assert!(!kif.contains('右') && !kif.contains("不成"), "{kif}");
    let ki2 = write_ki2(&rec).unwrap();
    assert!(ki2.contains("▲５八金右"), "{ki2}");
    assert!(ki2.contains("▲７三銀不成"), "{ki2}");
    assert_eq!(read_ki2(ki2.as_bytes()).unwrap().moves, rec.moves);
}

/// The moves of a random game from `start` (see [`common::random_game`]), as text.
fn random_moves(start: &Position, seed: u64, plies: usize) -> Vec<String> {
    common::random_game(start, seed, plies)
        .into_iter()
        .map(|(_, m)| m.to_string())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn random_games_round_trip_through_kif_and_csa(seed: u64, mini: bool, preset in 0usize..4) {
        let variant = if mini { Variant::Minishogi } else { Variant::Shogi };
        let start = match (mini, preset) {
            (false, 1) => handicap(Variant::Shogi, "bishop").unwrap().position(),
            (false, 2) => handicap(Variant::Shogi, "10-piece").unwrap().position(),
            (true, 1) => handicap(Variant::Minishogi, "rook").unwrap().position(),
            _ => Position::startpos(variant),
        };
        let mut rec = ShogiRecord::new(variant);
        rec.start_sfen = start.sfen();
        rec.handicap = jiang_rules::shogi::Handicap::recognise(&start);
        rec.moves = random_moves(&start, seed, 120);
        rec.move_seconds = (0..rec.moves.len() as u32).map(|i| i % 7).collect();
        if preset == 3 {
            rec.result = Some(Outcome::win(Side::First, Reason::Timeout));
        }
        let kif = write_kif(&rec).unwrap();
        prop_assert_eq!(read_kif(kif.as_bytes()).unwrap(), rec.clone(), "{}", kif);
        for line in kif.lines().skip_while(|l| !l.starts_with("手数")).skip(1).take(rec.moves.len()) {
            prop_assert!(kif_move_has_reader_shape(line), "{}", line);
        }
        let csa = write_csa(&rec).unwrap();
        prop_assert_eq!(read_csa(csa.as_bytes()).unwrap(), rec.clone(), "{}", csa);
        let ki2 = write_ki2(&rec).unwrap();
        let mut untimed = rec;
        untimed.move_seconds.clear();
        prop_assert_eq!(read_ki2(ki2.as_bytes()).unwrap(), untimed, "{}", ki2);
    }

    #[test]
    fn record_readers_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200), text in "\\PC{0,200}") {
        let _ = read_kif(&bytes);
        let _ = read_csa(&bytes);
        let _ = read_ki2(&bytes);
        let _ = jiang_rules::import::import(&bytes, None);
        let _ = read_kif(text.as_bytes());
        let _ = read_csa(text.as_bytes());
        let _ = read_ki2(text.as_bytes());
        let _ = jiang_rules::import::import(text.as_bytes(), None);
    }

    #[test]
    fn record_readers_never_panic_on_mangled_records(cut in 0usize..600, junk in "[ 0-9+\\-|vPIN%:：歩金同成打()\n]{0,20}") {
        for base in [DESKTOP_KIF, DIAGRAM_KIF] {
            let chars: Vec<char> = base.chars().collect();
            let at = cut.min(chars.len());
            let mangled: String = chars[..at].iter().collect::<String>() + &junk + &chars[at..].iter().collect::<String>();
            let _ = read_kif(mangled.as_bytes());
            let _ = read_csa(mangled.as_bytes());
            let _ = read_ki2(mangled.as_bytes());
            let _ = jiang_rules::import::import(mangled.as_bytes(), None);
        }
        let csa = "V2.2\nPI82HI\n-\n-3334FU\n+7776FU\n%TORYO\n";
        let at = cut.min(csa.len());
        let mangled = format!("{}{}{}", &csa[..at], junk, &csa[at..]);
        let _ = read_csa(mangled.as_bytes());
    }
}

/// Every handicap name real KIF files use reads as its start position, and is what Jiang
/// writes for that start (a name, never a diagram).
#[test]
fn handicap_names_read_and_write_without_diagrams() {
    let names = [
        (
            "香落ち",
            "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "右香落ち",
            "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "角落ち",
            "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "飛車落ち",
            "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "飛香落ち",
            "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "二枚落ち",
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "三枚落ち",
            "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "四枚落ち",
            "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "五枚落ち",
            "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "左五枚落ち",
            "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "六枚落ち",
            "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "右七枚落ち",
            "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "左七枚落ち",
            "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "八枚落ち",
            "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        (
            "十枚落ち",
            "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
    ];
    for (name, sfen) in names {
        let start = Position::from_sfen(Variant::Shogi, sfen).unwrap();
        let kif = format!("手合割：{name}\n手数----指手---------消費時間--\n   1 ５四歩(53)\n");
        let rec = read_kif(kif.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(rec.start_sfen, start.sfen(), "{name}");
        let mut written = ShogiRecord::new(Variant::Shogi);
        written.start_sfen = start.sfen();
        written.moves = vec!["5c5d".into()];
        for text in [write_kif(&written).unwrap(), write_ki2(&written).unwrap()] {
            assert!(
                text.contains(&format!("手合割：{name}\n")),
                "{name}:\n{text}"
            );
            assert!(!text.contains('|'), "{name}: no diagram\n{text}");
            assert_eq!(
                read_kif(text.as_bytes())
                    .or_else(|_| read_ki2(text.as_bytes()))
                    .unwrap()
                    .start_sfen,
                start.sfen()
            );
        }
    }
}

#[test]
fn imports_sealed_moves_euc_jp_padded_boards_and_illegal_endings() {
    // 封じ手: a note under the number of the move it seals.
    let sealed = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 封じ手\n   2 ３四歩(33)\n   3 投了\nまで2手で後手の勝ち\n";
    let rec = read_kif(sealed.as_bytes()).unwrap();
    assert_eq!(rec.moves, ["7g7f", "3c3d"]);
    assert_eq!(rec.result.map(|o| o.winner), Some(Some(Side::Second)));
    // `Time-up` as some sites write the special move.
    let time_up = "   1 ７六歩(77)\n   2 Time-up\nまで1手で先手の勝ち\n";
    let rec = read_kif(time_up.as_bytes()).unwrap();
    assert_eq!(rec.result, Some(Outcome::win(Side::First, Reason::Timeout)));
    // EUC-JP CSA (older Unix servers), without an encoding line.
    let csa = "V2.2\nN+中原誠\nN-米長邦雄\nPI\n+\n+7776FU\n%TORYO\n";
    let (euc, _, _) = encoding_rs::EUC_JP.encode(csa);
    let rec = read_csa(&euc).unwrap();
    assert_eq!(rec.sente_name.as_deref(), Some("中原誠"));
    assert_eq!(rec.gote_name.as_deref(), Some("米長邦雄"));
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(csa);
    assert_eq!(
        read_csa(&sjis).unwrap().gote_name.as_deref(),
        Some("米長邦雄")
    );
    // A board padded with `.` for empty squares.
    let padded = "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 . -HI .  .  .  .  . -KA . \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 .  .  .  .  .  .  .  .  . \nP5 .  .  .  .  .  .  .  .  . \nP6 .  .  .  .  .  .  .  .  . \nP7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 . +KA .  .  .  .  . +HI . \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n+7776FU\n";
    let rec = read_csa(padded.as_bytes()).unwrap();
    assert_eq!(rec.start_sfen, Position::startpos(Variant::Shogi).sfen());
    // Games lost by an illegal last move: imported up to it, the loss marked, in each format.
    let kif = "   1 ７六歩(77)\n   2 ７五歩(76)\n   3 反則負け\nまで2手で後手の反則負け\n";
    let rec = read_kif(kif.as_bytes()).unwrap();
    assert_eq!(rec.moves, ["7g7f"]);
    assert_eq!(rec.illegal_move.as_deref(), Some("７五歩(76)"));
    assert_eq!(
        (rec.result, rec.other_end.as_deref(), rec.end_winner),
        (None, Some("反則負け"), Some(Side::First))
    );
    let ki2 = "▲７六歩 △７五歩\nまで2手で先手の勝ち\n";
    let rec = read_ki2(ki2.as_bytes()).unwrap();
    assert_eq!((rec.moves.len(), rec.end_winner), (1, Some(Side::First)));
    let csa = "V2.2\nPI\n+\n+7776FU\n-7675FU\n%ILLEGAL_MOVE\n";
    let rec = read_csa(csa.as_bytes()).unwrap();
    assert_eq!(
        (rec.moves.len(), rec.illegal_move.as_deref(), rec.end_winner),
        (1, Some("-7675FU"), Some(Side::First))
    );
    // Written back, the illegal move and the loss survive.
    assert_eq!(
        read_kif(write_kif(&rec).unwrap().as_bytes())
            .unwrap()
            .end_winner,
        Some(Side::First)
    );
    assert_eq!(read_csa(write_csa(&rec).unwrap().as_bytes()).unwrap(), rec);
}
