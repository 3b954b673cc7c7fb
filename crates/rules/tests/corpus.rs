//! Real public records (tests/data/, sources and licences in its README) imported and
//! compared move by move: shogi records with what the third-party readers read from them
//! (`expected.tsv`, written by tools/interop/corpus_expect.py with cshogi and python-shogi),
//! or with the same game in another format where no reader reads the file; xiangqi master
//! games, each given in WXF, Chinese and ICCS, with each other.

use std::collections::BTreeMap;
use std::path::Path;

use jiang_rules::import::{ImportError, import};
use jiang_rules::xiangqi::notation::Record;
use jiang_rules::{AnyGame, Side, Variant};
use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::SeedableRng;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");

/// An SFEN's board, side to move and hand (as a sorted multiset: readers order hands
/// differently).
fn sfen_parts(sfen: &str) -> (String, String, Vec<(char, u32)>) {
    let mut fields = sfen.split_whitespace();
    let board = fields.next().unwrap_or("").to_owned();
    let turn = fields.next().unwrap_or("").to_owned();
    let mut hand = BTreeMap::new();
    let mut count = String::new();
    for c in fields.next().unwrap_or("-").chars().filter(|&c| c != '-') {
        if c.is_ascii_digit() {
            count.push(c);
        } else {
            *hand.entry(c).or_insert(0) += count.parse::<u32>().unwrap_or(1);
            count.clear();
        }
    }
    (board, turn, hand.into_iter().collect())
}

/// Records no third-party reader reads (cshogi's KI2 reader loses its place on lines with
/// several moves), each with a record of the same game in another format.
const SAME_GAME: [(&str, &str); 6] = [
    ("jkf-ki2-fork.ki2", "jkf-kif-fork.kif"),
    ("es-ki2-sjis.ki2", "es-kif-sjis.kif"),
    ("jkf-ki2-8mai.ki2", "jkf-kif-8mai.kif"),
    ("jkf-ki2-8mai.ki2u", "jkf-kif-8mai.kif"),
    ("jkf-ki2-chudan.ki2", "jkf-kif-chudan.kif"),
    ("jkf-ki2-noeol.ki2", "jkf-kif-noeol.kif"),
];

#[test]
fn real_shogi_records_read_as_the_readers_read_them() {
    let dir = Path::new(DATA).join("shogi");
    let expected = std::fs::read_to_string(dir.join("expected.tsv")).unwrap();
    let mut imported = 0;
    let mut refused = Vec::new();
    let mut tsume = Vec::new();
    let mut compared_with_reader = 0;
    let mut compared_with_sibling = 0;
    for line in expected.lines() {
        let cols: Vec<&str> = line.split('\t').collect();
        let (file, reader, sfen, moves) = (cols[0], cols[1], cols[2], cols[3]);
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let game = match import(&bytes, None) {
            Ok(game) => game,
            Err(e @ ImportError::Shogi(_)) if IMPOSSIBLE.contains(&file) => {
                // The nine-pawn joke problem: nine gote pawns on one file, one on the last
                // rank. Refused for that, not for the missing sente king.
                let e = e.to_string();
                assert!(
                    e.contains("could never move") || e.contains("nifu"),
                    "{file}: {e}"
                );
                refused.push(file);
                continue;
            }
            Err(e) => panic!("{file}: {e}"),
        };
        imported += 1;
        let start = jiang_rules::shogi::Position::from_sfen(Variant::Shogi, &game.start());
        if start.is_ok_and(|p| p.kingless_side().is_some()) {
            tsume.push(file);
        }
        if reader != "none" {
            let want: Vec<&str> = moves.split_whitespace().collect();
            assert_eq!(game.moves(), want, "{file}: moves as {reader} reads them");
            let (board, turn, hand) = sfen_parts(&game.start());
            let (want_board, want_turn, want_hand) = sfen_parts(sfen);
            assert_eq!((&board, &hand), (&want_board, &want_hand), "{file}: start");
            // python-shogi derives a diagram's side to move from the number of moves read.
            if reader != "python-shogi" {
                assert_eq!(turn, want_turn, "{file}: side to move");
            }
            compared_with_reader += 1;
        } else if let Some((_, sibling)) = SAME_GAME.iter().find(|(f, _)| *f == file) {
            let other = import(&std::fs::read(dir.join(sibling)).unwrap(), None).unwrap();
            assert_eq!(game.start(), other.start(), "{file} vs {sibling}");
            assert_eq!(game.moves(), other.moves(), "{file} vs {sibling}");
            compared_with_sibling += 1;
        }
    }
    println!(
        "shogi corpus: {imported} imported ({compared_with_reader} compared with a reader, \
         {compared_with_sibling} with the same game in another format); {} refused citing \
         shogi.md: {refused:?}",
        refused.len()
    );
    assert!(imported >= 40, "{imported}");
    assert_eq!(
        refused, IMPOSSIBLE,
        "exactly the impossible positions are refused"
    );
    assert_eq!(
        tsume, TSUME,
        "the tsume records without sente's king import"
    );
}

/// The nine-pawn problem (`9fu`) in four formats: nine gote pawns on file 2, one on the last
/// rank, which no legal position has (shogi.md: nifu, dead pieces).
const IMPOSSIBLE: [&str; 4] = [
    "jkf-csa-9fu.csa",
    "jkf-csa-9fu_komabetsu.csa",
    "jkf-ki2-9fu.ki2",
    "jkf-kif-9fu.kif",
];

/// Tsume records published without sente's king (shogi.md: valid for import and analysis).
const TSUME: [&str; 3] = [
    "jkf-kif-kifu_for_iphone.kif",
    "jkf-kif-shogidokoro.kifu",
    "jkf-kif-taichitsume.kif",
];

#[test]
fn tsume_records_without_sentes_king_open_on_the_analysis_board() {
    let dir = Path::new(DATA).join("shogi");
    for file in TSUME {
        let game = import(&std::fs::read(dir.join(file)).unwrap(), None).unwrap();
        let start = game.start();
        let position = jiang_rules::shogi::Position::from_sfen(Variant::Shogi, &start).unwrap();
        assert_eq!(position.kingless_side(), Some(Side::SENTE), "{file}");
        // The analysis board opens it and every recorded move replays there.
        let mut board = AnyGame::analysis(Variant::Shogi, Some(&start)).unwrap();
        for mv in game.moves() {
            board
                .play(&mv)
                .unwrap_or_else(|e| panic!("{file} {mv}: {e}"));
        }
        // A game from it is refused, saying why.
        let refused = jiang_rules::Setup::create(
            Variant::Shogi,
            Some(&start),
            None,
            &mut ChaCha20Rng::seed_from_u64(1),
        );
        let e = refused.unwrap_err().to_string();
        assert!(e.contains("a game needs both kings"), "{file}: {e}");
    }
}

/// Splits a file of several games at each `[Event` tag.
fn games(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        if line.starts_with("[Event") || out.is_empty() {
            out.push(String::new());
        }
        let last = out.last_mut().unwrap();
        last.push_str(line);
        last.push('\n');
    }
    out
}

#[test]
fn real_xiangqi_games_agree_in_wxf_chinese_and_iccs() {
    let dir = Path::new(DATA).join("xiangqi");
    let read = |name: &str| games(&std::fs::read_to_string(dir.join(name)).unwrap());
    let wxf = read("wxfca-xqdb_international.pgn");
    let chinese = read("wxfca-xqdb_traditional.pgn");
    let iccs = read("wxfca-bulk_games_uci.pgn");
    assert_eq!((wxf.len(), chinese.len(), iccs.len()), (15, 15, 15));
    let mut plies = 0;
    let mut differences = Vec::new();
    for (i, ((w, c), u)) in wxf.iter().zip(&chinese).zip(&iccs).enumerate() {
        let parse = |text: &str| {
            Record::parse(text).unwrap_or_else(|e| panic!("game {}: {e}\n{text}", i + 1))
        };
        let (w, c, u) = (parse(w), parse(c), parse(u));
        let iccs = |r: &Record| {
            r.moves()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(iccs(&w), iccs(&c), "game {}: WXF vs Chinese", i + 1);
        let (ours, theirs) = (iccs(&w), iccs(&u));
        assert_eq!(ours.len(), theirs.len(), "game {}", i + 1);
        for (ply, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            if a != b {
                differences.push((i + 1, ply + 1, a.clone(), b.clone()));
            }
        }
        assert_eq!(w.tag("Red"), u.tag("Red"));
        // And Jiang writes them back in each notation as the same game.
        for format in [
            jiang_rules::xiangqi::notation::MoveFormat::Wxf,
            jiang_rules::xiangqi::notation::MoveFormat::Chinese(
                jiang_rules::xiangqi::notation::Script::Traditional,
            ),
        ] {
            assert_eq!(
                Record::parse(&u.to_text(format)).unwrap().moves(),
                u.moves()
            );
        }
        plies += u.moves().len();
    }
    // One move differs, and there the source's ICCS file is wrong: game 2's 36th Red move
    // is `－Ｐ＋１` in WXF and `后兵进一` in Chinese, the rear of the two soldiers on the 5th
    // file (e3, the other is on e5), which the ICCS file gives as the front one's e5e6.
    assert_eq!(
        differences,
        [(2, 71, "e3e4".to_owned(), "e5e6".to_owned())],
        "moves where WXF/Chinese and ICCS disagree"
    );
    println!("xiangqi corpus: 15 games x 3 notations, {plies} plies each, move by move");
}
