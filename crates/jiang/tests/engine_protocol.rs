//! `jiang engine` driven through the real binary as a GUI or a match runner would: scripted
//! UCI (xiangqi, jieqi) and USI (shogi, minishogi) sessions. Every move the engine gives is
//! checked legal by the rules crate. Deadlines are generous and only guard against hangs.

mod engine_process;

use std::time::{Duration, Instant};

use engine_process::{EngineProcess, assert_offered, legal};
use jiang_rules::{Variant, shogi};

#[test]
fn a_uci_xiangqi_and_jieqi_session() {
    let (mut e, hello) = EngineProcess::greeted("uci");
    assert_offered(
        &hello,
        &[
            "option name UCI_Variant ",
            "option name Hash ",
            "option name MultiPV ",
            "option name Level ",
            "option name Threads ",
            "option name RandomMover ",
            "id name Jiang",
        ],
    );
    e.send("setoption name Hash value 8");
    e.ready();
    e.send("ucinewgame");

    // Xiangqi, a fixed depth: info lines in the standard form, then a legal best move.
    let (_, lines) = e.search_from_start(Variant::Xiangqi, &["h2e2", "h9g7"], "depth 4");
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 4 "))
        .unwrap_or_else(|| panic!("an info line for depth 4: {lines:?}"));
    for field in [
        " seldepth ",
        " score cp ",
        " nodes ",
        " nps ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "{field} in {info}");
    }

    // MultiPV: three ranked lines per depth; a node limit ends the search.
    e.send("setoption name MultiPV value 3");
    let (_, lines) = e.go("depth 3");
    for k in 1..=3 {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info depth 3 ") && l.contains(&format!(" multipv {k} "))),
            "line {k}: {lines:?}"
        );
    }
    e.send("setoption name MultiPV value 1");
    let (mv, _) = e.go("nodes 3000");
    assert!(
        legal(Variant::Xiangqi, "startpos", &["h2e2", "h9g7"], &mv),
        "{mv}"
    );

    // A mate in one with the flying general, from a FEN: the score says mate 1.
    let mate = "3k5/1R7/9/8p/9/9/9/9/9/R3K4 w - - 0 1";
    let (mv, lines) = e.search(&format!("fen {mate}"), "depth 3");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1 ")),
        "{lines:?}"
    );
    assert!(legal(Variant::Xiangqi, mate, &[], &mv));

    // Jieqi with the JieqiBox FEN form (covered X/x and the pool field) and a reveal suffix.
    e.send("setoption name UCI_Variant value jieqi");
    let jieqi = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1";
    let (mv, _) = e.search(&format!("fen {jieqi} moves h2e2C"), "depth 2");
    assert!(legal(Variant::Jieqi, jieqi, &["h2e2C"], &mv), "{mv}");

    // Searching on its own thread: `isready` is answered during `go infinite`, `stop` ends it.
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let before_ready = e.ready();
    assert!(!before_ready.iter().any(|l| l.starts_with("bestmove")));
    e.send("stop");
    let (mv, _) = e.bestmove();
    assert!(legal(Variant::Jieqi, "startpos", &[], &mv), "{mv}");

    // A new `go` during `go infinite` (no `stop`) ends the old search instead of hanging.
    e.send("go infinite");
    let (first, _) = e.go("depth 1");
    let (second, _) = e.bestmove();
    for mv in [first, second] {
        assert!(legal(Variant::Jieqi, "startpos", &[], &mv), "{mv}");
    }

    // A clock: the move comes well within the time given.
    e.send("setoption name UCI_Variant value xiangqi");
    e.send("position startpos");
    let started = Instant::now();
    let (mv, _) = e.go("wtime 2000 btime 2000 winc 100 binc 100");
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert!(legal(Variant::Xiangqi, "startpos", &[], &mv));

    // Bad input is reported and changes nothing.
    e.send("position fen not-a-fen");
    e.send("setoption name UCI_Variant value shogi");
    e.send("setoption name Level value 9");
    e.send("setoption name RandomMover value maybe");
    e.send("frobnicate");
    let complaints = e.ready();
    let errors: Vec<&String> = complaints
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .collect();
    assert_eq!(errors.len(), 5, "{complaints:?}");
    // The refused position is not replaced by an older one: no move.
    let (mv, lines) = e.go("depth 1");
    assert_eq!(mv, "(none)", "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info string error:")),
        "{lines:?}"
    );
    let (mv, _) = e.search("startpos", "depth 1");
    assert!(legal(Variant::Xiangqi, "startpos", &[], &mv), "{mv}");
    e.quit();
}

#[test]
fn a_usi_shogi_and_minishogi_session() {
    let (mut e, hello) = EngineProcess::greeted("usi");
    assert_offered(&hello, &["option name USI_Hash "]);
    e.send("setoption name USI_Hash value 8");
    e.send("setoption name USI_Ponder value false");
    e.ready();
    e.send("usinewgame");

    // Shogi with byo-yomi: a legal move.
    e.search_from_start(
        Variant::Shogi,
        &["7g7f", "3c3d"],
        "btime 0 wtime 0 byoyomi 300",
    );

    // A tsume with a drop: mate in one ply, USI counts mates in plies.
    let tsume = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1";
    let (mv, lines) = e.search(&format!("sfen {tsume}"), "depth 3");
    assert_eq!(mv, "G*5b");
    assert!(
        lines.iter().any(|l| l.contains("score mate 1 ")),
        "{lines:?}"
    );

    // Impasse: the declaration wins, so the engine declares.
    let impasse = "sfen +L+NSGKGS+N+L/1R5B1/9/9/9/9/9/9/4k4 b 10P8p 1";
    assert_eq!(e.search(impasse, "byoyomi 1000").0, "win");

    // Mated: resign.
    let mated = "sfen 4k4/4G4/4P4/9/9/9/9/9/4K4 w - 2";
    assert_eq!(e.search(mated, "byoyomi 1000").0, "resign");

    // Minishogi by the variant option.
    e.send("setoption name UCI_Variant value minishogi");
    e.search_from_start(Variant::Minishogi, &[], "depth 4");
    e.quit();
}

#[test]
fn lower_levels_answer_with_legal_moves() {
    let (mut e, _) = EngineProcess::greeted("uci");
    for level in 1..=8 {
        e.send(&format!("setoption name Level value {level}"));
        let (mv, _) = e.search("startpos moves h2e2", "movetime 100");
        assert!(
            legal(Variant::Xiangqi, "startpos", &["h2e2"], &mv),
            "level {level}: {mv}"
        );
    }
    e.quit();
}

#[test]
fn the_random_mover_answers_legal_moves_at_once() {
    // The yardstick of the level ladder: `RandomMover` plays a uniformly random legal move
    // without searching (its one `info` line, which shows the move, counts no node), in both
    // protocols; turning it off searches again.
    let (mut e, _) = EngineProcess::greeted("uci");
    e.send("setoption name RandomMover value true");
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..12 {
        let (mv, lines) = e.search_from_start(Variant::Xiangqi, &["h2e2"], "movetime 100");
        let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info")).collect();
        assert_eq!(infos.len(), 1, "{lines:?}");
        assert!(
            infos[0].contains(" nodes 0 ") && infos[0].ends_with(&format!(" pv {mv}")),
            "{lines:?}"
        );
        seen.insert(mv);
    }
    assert!(seen.len() >= 3, "{seen:?}");
    e.send("setoption name RandomMover value false");
    let (_, lines) = e.go("depth 2");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    e.quit();

    let (mut e, _) = EngineProcess::greeted("usi");
    e.send("setoption name UCI_Variant value minishogi");
    e.send("setoption name RandomMover value true");
    e.search_from_start(Variant::Minishogi, &[], "byoyomi 100");
    e.quit();
}

/// The first move of the last `info … multipv 1 … pv` line (or of a line without multipv).
fn last_pv_move(lines: &[String]) -> Option<String> {
    lines
        .iter()
        .rfind(|l| {
            l.starts_with("info ")
                && l.contains(" pv ")
                && (!l.contains(" multipv ") || l.contains(" multipv 1 "))
        })
        .and_then(|l| l.split(" pv ").nth(1))
        .and_then(|pv| pv.split_whitespace().next())
        .map(str::to_owned)
}

/// The search's `bestmove` is the first move of the last line shown, and its `ponder` move
/// (when there is one) that line's second move.
#[track_caller]
fn assert_bestmove_follows_the_line(mv: &str, lines: &[String]) {
    assert_eq!(last_pv_move(lines).as_deref(), Some(mv), "{lines:?}");
    let words: Vec<&str> = lines.last().unwrap().split_whitespace().collect();
    if let [_, _, "ponder", reply] = words[..] {
        let line = lines
            .iter()
            .rfind(|l| l.starts_with("info ") && l.contains(" multipv 1 ") && l.contains(" pv "))
            .unwrap();
        let pv: Vec<&str> = line.split(" pv ").nth(1).unwrap().split(' ').collect();
        assert_eq!(pv.get(1), Some(&reply), "{lines:?}");
    }
}

/// A Jieqi FEN in JieqiBox's six-field form (`board side POOL CAPTURED halfmove fullmove`)
/// and the same public position in Jiang's own form (the public pool is POOL + CAPTURED).
/// Red has revealed a rook, which took a covered black piece on i6 that Red saw was a pawn
/// (CAPTURED `p1`); Black has revealed a rook, which took a covered red piece on a3 whose
/// identity Red never saw (so it stays in Red's POOL).
const JIEQIBOX_MIDGAME: &str =
    "1xxxkxxxx/9/1x5x1/x1x1x1x1R/9/9/r1X1X1X1X/1X5X1/9/XXXXKXXX1 w R1r1N2n2B2b2A2a2C2c2P5p4 p1 0 1";
const JIANG_MIDGAME: &str =
    "1xxxkxxxx/9/1x5x1/x1x1x1x1R/9/9/r1X1X1X1X/1X5X1/9/XXXXKXXX1 w A2B2N2R1C2P5a2b2n2r1c2p5 0 1";

#[test]
fn jieqibox_fens_and_moves_are_read() {
    let (mut e, _) = EngineProcess::greeted("uci");
    e.send("setoption name UCI_Variant value jieqi");
    let start = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX";
    // The start in JieqiBox's six-field form (nothing captured) and its older seven-field
    // form (`board POOL side - - halfmove fullmove`).
    for fen in [
        format!("{start} w R2N2B2A2C2P5r2n2b2a2c2p5 - 0 1"),
        format!("{start} R2r2N2n2B2b2A2a2C2c2P5p5 w - - 0 1"),
    ] {
        let (mv, lines) = e.search(&format!("fen {fen}"), "depth 2");
        assert!(
            legal(Variant::Jieqi, "startpos", &[], &mv),
            "{mv} {lines:?}"
        );
    }
    // A non-empty captured field.
    let (mv, lines) = e.search(&format!("fen {JIEQIBOX_MIDGAME}"), "depth 2");
    assert!(
        legal(Variant::Jieqi, JIANG_MIDGAME, &[], &mv),
        "{mv} {lines:?}"
    );
    // A fully revealed board with a captured field (and with neither).
    let revealed = "3k5/9/9/9/9/9/9/9/4R4/4K4";
    for (jieqibox, jiang) in [
        (
            format!("{revealed} w - r1 0 1"),
            format!("{revealed} w r1 0 1"),
        ),
        (
            format!("{revealed} w - - 0 1"),
            format!("{revealed} w - - 0 1"),
        ),
    ] {
        let (mv, lines) = e.search(&format!("fen {jieqibox}"), "depth 3");
        assert!(legal(Variant::Jieqi, &jiang, &[], &mv), "{mv} {lines:?}");
    }
    // JieqiBox's moves: a reveal suffix (the mover's letter) and the identity of a covered
    // piece captured (the other side's letter, here the black pawn the red cannon takes).
    let fen = format!("{start} w R2N2B2A2C2P5r2n2b2a2c2p5 - 0 1");
    let moves = ["h2e2C", "a6a5p", "e2e6p"];
    let (mv, lines) = e.search(&format!("fen {fen} moves {}", moves.join(" ")), "depth 2");
    assert!(
        legal(Variant::Jieqi, "startpos", &["h2e2C", "a6a5p", "e2e6"], &mv),
        "{mv} {lines:?}"
    );
    // A capture suffix that names what is not there is refused.
    e.send(&format!("position fen {fen} moves h2e2C a6a5p e2f2r"));
    let (mv, lines) = e.go("depth 1");
    assert_eq!(mv, "(none)", "{lines:?}");
    e.quit();
}

#[test]
fn a_refused_position_gets_no_move() {
    // UCI: after a good position, a refused one (a black-to-move FEN whose side not to move
    // is in check) must not leave the good one to be searched.
    let (mut e, _) = EngineProcess::greeted("uci");
    e.send("position startpos moves h2e2");
    e.send("position fen 4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1 moves e9e8");
    e.send("position fen 3k5/9/9/9/9/9/9/9/4R4/4K4 x - - 0 1");
    let (mv, lines) = e.go("depth 2");
    assert_eq!(mv, "(none)", "{lines:?}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error:") && l.contains("refused")),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
    // A malformed `go` gets no move either (rather than no answer).
    e.send("position startpos");
    let (mv, _) = e.go("depth x");
    assert_eq!(mv, "(none)");
    e.quit();

    // USI: `bestmove resign`.
    let (mut e, _) = EngineProcess::greeted("usi");
    e.send("position startpos moves 7g7f");
    e.send("position sfen lnsgkgsnl/9/9/9/9/9/9/9/LNSGKGSN b - 1");
    let (mv, lines) = e.go("btime 0 wtime 0 byoyomi 100");
    assert_eq!(mv, "resign", "{lines:?}");
    // A tsume search answers in its own form.
    e.send("go mate 1000");
    let lines = e.until("checkmate");
    assert_eq!(lines.last().unwrap(), "checkmate nomate", "{lines:?}");
    assert!(lines[0].starts_with("info string error:"), "{lines:?}");
    e.quit();
}

/// Searches `startpos moves <moves>` with `go`, whose legal move must come within 2.5 s
/// (every clock form asked here allows well under that); the lines of the answer.
#[track_caller]
fn go_in_time(e: &mut EngineProcess, variant: Variant, moves: &[&str], go: &str) -> Vec<String> {
    e.send(&format!("position startpos moves {}", moves.join(" ")));
    let started = Instant::now();
    let (mv, lines) = e.go(go);
    let took = started.elapsed();
    assert!(took < Duration::from_millis(2500), "{go}: {took:?}");
    assert!(
        legal(variant, "startpos", moves, &mv),
        "{go}: {mv} {lines:?}"
    );
    lines
}

#[test]
fn every_clock_form_ends_in_time() {
    let (mut e, _) = EngineProcess::greeted("usi");
    e.send("usinewgame");
    // cshogi's byo-yomi-only form: no main time at all.
    for go in [
        "byoyomi 200",
        "btime 0 wtime 0 byoyomi 200",
        "btime 1000 wtime 1000 byoyomi 100",
        "btime 2000 wtime 2000 binc 100 winc 100",
        "btime 3000 wtime 3000 movestogo 1",
        "movetime 200",
    ] {
        go_in_time(&mut e, Variant::Shogi, &["7g7f", "3c3d"], go);
    }
    // The byo-yomi is used, not thrown away: with no main time, what the period leaves is
    // lost, so the search goes on to its end (less the margin, a sixth of 600 ms).
    e.send("position startpos");
    let started = Instant::now();
    e.go("byoyomi 600");
    assert!(
        started.elapsed() >= Duration::from_millis(450),
        "{:?}",
        started.elapsed()
    );
    e.quit();

    let (mut e, _) = EngineProcess::greeted("uci");
    for go in [
        "wtime 1500 btime 1500 winc 50 binc 50",
        "wtime 3000 btime 3000 movestogo 2",
        "movetime 150",
        "nodes 4000",
        "depth 3",
    ] {
        let lines = go_in_time(&mut e, Variant::Xiangqi, &["h2e2"], go);
        if go == "depth 3" {
            assert!(lines.iter().any(|l| l.starts_with("info depth 3 ")));
            assert!(!lines.iter().any(|l| l.starts_with("info depth 4 ")));
        }
    }
    // `Move Overhead` is kept back from the time given.
    e.send("setoption name Move Overhead value 100");
    e.send("position startpos");
    let started = Instant::now();
    e.go("movetime 150");
    assert!(started.elapsed() < Duration::from_millis(1000));
    // `infinite` waits for `stop`, even when the search has nothing left to do.
    e.send("position fen 3k5/1R7/9/8p/9/9/9/9/9/R3K4 w - - 0 1");
    e.send("go infinite");
    e.silent_for(300, "bestmove");
    e.send("stop");
    let (mv, _) = e.bestmove();
    assert!(legal(
        Variant::Xiangqi,
        "3k5/1R7/9/8p/9/9/9/9/9/R3K4 w - - 0 1",
        &[],
        &mv
    ));
    e.quit();
}

/// Replays a `checkmate` answer: every attacker move checks, every move is legal, and the
/// defender is mated at the end.
fn is_forced_mate_line(sfen: &str, line: &[&str]) -> bool {
    let mut p = shogi::Position::from_sfen(Variant::Shogi, sfen).unwrap();
    for (i, text) in line.iter().enumerate() {
        let Some(mv) = p.legal_moves().into_iter().find(|m| m.to_string() == *text) else {
            return false;
        };
        p.play(mv);
        if i % 2 == 0 && !p.is_check() {
            return false;
        }
    }
    line.len() % 2 == 1 && p.is_check() && p.legal_moves().is_empty()
}

#[test]
fn usi_go_mate_solves_tsume() {
    // Tsume problems from the literature (the attacker's king added on an empty corner,
    // as the rules need one), with the length of their solution in plies; each line was
    // also checked against cshogi's mate search (tools/engine-interop).
    let problems = [
        ("9/4k4/9/4P4/9/9/9/9/K8 b 2G2r2b4s4n4l17p 1", 3),
        ("3sks3/9/4S4/9/9/8B/9/9/K8 b S 1", 3),
        ("5g1nl/4g1sk1/4ppppp/9/4B4/9/9/9/K8 b GN2rbg3s2n3l13p 1", 3),
        ("9/9/5k3/9/4G4/4P4/9/9/K8 b 3G2r2b4s4n4l17p 1", 5),
        ("6knl/6s2/5Pppp/9/9/9/9/9/K8 b G2S2r2b3gs3n3l14p 1", 5),
        ("4R2nl/6sk1/6pp1/8p/9/9/9/9/K8 b BGLrb3g3s3n2l15p 1", 5),
        ("l2k5/9/3S2S2/9/9/9/9/9/8K b B2N2rb4g2s2n3l18p 1", 5),
        ("7nl/7k1/6ppp/9/9/9/9/9/K4R3 b Sr2b4g3s3n3l15p 1", 7),
        ("9/9/9/4k4/9/4P4/9/9/K8 b 4G2r2b4s4n4l17p 1", 7),
        ("+R4G1nl/6k2/4ppppp/9/9/9/9/9/K8 b r2b3g4s3n3l13p 1", 7),
    ];
    let (mut e, _) = EngineProcess::greeted("usi");
    for (sfen, plies) in problems {
        e.send(&format!("position sfen {sfen}"));
        e.send("go mate 20000");
        let answer = e.until("checkmate").pop().unwrap();
        let line: Vec<&str> = answer.split_whitespace().skip(1).collect();
        assert_eq!(line.len(), plies, "{sfen}: {answer}");
        assert!(is_forced_mate_line(sfen, &line), "{sfen}: {answer}");
    }
    // One gold is not enough: the checks run out, `nomate`.
    e.send("position sfen 9/4k4/9/4P4/9/9/9/9/K8 b G2r2b4s4n4l17p 1");
    e.send("go mate 20000");
    assert_eq!(e.until("checkmate").pop().unwrap(), "checkmate nomate");
    // Rook and bishop chase the king for ever: out of time.
    e.send("position sfen 4k4/9/9/9/9/9/9/9/K8 b RB 1");
    e.send("go mate 300");
    assert_eq!(e.until("checkmate").pop().unwrap(), "checkmate timeout");
    // `go mate infinite` answers when it knows, and `stop` ends it.
    e.send("position sfen 9/4k4/9/4P4/9/9/9/9/K8 b 2G2r2b4s4n4l17p 1");
    e.send("go mate infinite");
    let answer = e.until("checkmate").pop().unwrap();
    assert!(answer.starts_with("checkmate G*"), "{answer}");
    e.send("position sfen 4k4/9/9/9/9/9/9/9/K8 b RB 1");
    e.send("go mate infinite");
    e.silent_for(200, "checkmate");
    e.send("stop");
    assert_eq!(e.until("checkmate").pop().unwrap(), "checkmate timeout");
    e.quit();
}

#[test]
fn searchmoves_and_pondering() {
    let (mut e, hello) = EngineProcess::greeted("uci");
    assert_offered(&hello, &["option name Ponder "]);
    // Only the moves listed are searched.
    let allowed = ["a0a1", "i0i1", "a3a4"];
    e.send("position startpos");
    let (mv, lines) = e.go(&format!("depth 3 searchmoves {}", allowed.join(" ")));
    assert!(allowed.contains(&mv.as_str()), "{mv}");
    for line in lines.iter().filter(|l| l.contains(" pv ")) {
        let first = line
            .split(" pv ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        assert!(allowed.contains(&first), "{line}");
    }
    // `go ponder` thinks until `ponderhit`, then on the clock it was given, counted from
    // the hit: no best move before the hit, one about the move time after it.
    e.send("position startpos moves h2e2 h9g7");
    e.send("go ponder movetime 400");
    e.silent_for(600, "bestmove");
    let hit = Instant::now();
    e.send("ponderhit");
    let (mv, _) = e.bestmove();
    let after = hit.elapsed();
    assert!(
        after >= Duration::from_millis(200) && after < Duration::from_millis(2000),
        "{after:?}"
    );
    assert!(legal(Variant::Xiangqi, "startpos", &["h2e2", "h9g7"], &mv));
    // With a clock: `go ponder wtime … btime …`.
    e.send("go ponder wtime 2000 btime 2000 winc 10 binc 10");
    std::thread::sleep(Duration::from_millis(300));
    e.send("ponderhit");
    let hit = Instant::now();
    e.bestmove();
    assert!(hit.elapsed() < Duration::from_millis(2000));
    // `stop` during the ponder answers a best move (which the GUI then ignores).
    e.send("go ponder");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let (mv, _) = e.bestmove();
    assert!(legal(Variant::Xiangqi, "startpos", &["h2e2", "h9g7"], &mv));
    // A ponder whose search ends early (a depth) still waits for the hit.
    e.send("go ponder depth 1");
    e.silent_for(300, "bestmove");
    e.send("ponderhit");
    e.bestmove();
    e.quit();
}

#[test]
fn commands_are_answered_at_once_whatever_runs() {
    let (mut e, _) = EngineProcess::greeted("uci");
    // A long fixed-depth search: `isready` is answered during it, `position` does not wait
    // for it, `stop` ends it.
    e.send("position startpos");
    e.send("go depth 40");
    std::thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    let ready = e.ready();
    assert!(
        asked.elapsed() < Duration::from_millis(500),
        "{:?}",
        asked.elapsed()
    );
    assert!(!ready.iter().any(|l| l.starts_with("bestmove")));
    let asked = Instant::now();
    e.send("position startpos moves h2e2");
    e.send("setoption name MultiPV value 2");
    e.send("stop");
    let (mv, _) = e.bestmove();
    assert!(
        asked.elapsed() < Duration::from_millis(1000),
        "{:?}",
        asked.elapsed()
    );
    assert!(legal(Variant::Xiangqi, "startpos", &[], &mv), "{mv}");
    // The queued position is the next one searched, with the option set meanwhile.
    let (mv, lines) = e.go("depth 2");
    assert!(legal(Variant::Xiangqi, "startpos", &["h2e2"], &mv), "{mv}");
    assert!(lines.iter().any(|l| l.contains(" multipv 2 ")), "{lines:?}");
    // `quit` during a search ends the process at once.
    e.send("go depth 40");
    std::thread::sleep(Duration::from_millis(100));
    let asked = Instant::now();
    e.quit();
    assert!(asked.elapsed() < Duration::from_millis(1000));
}

#[test]
fn bestmove_is_the_first_move_of_the_last_line() {
    // Short searches, cut in the middle of an iteration, and weak levels (which may play
    // another of their best few moves): the last line shown always starts with the move
    // played.
    let (mut e, _) = EngineProcess::greeted("uci");
    e.send("setoption name UCI_Variant value jieqi");
    let openings = [
        "",
        "h2e2C",
        "h2e2C h7e7c",
        "h2e2C b7e7c b2d2R",
        "b0c2N",
        "b0c2N h9g7b",
    ];
    for (i, opening) in openings.iter().cycle().take(12).enumerate() {
        if i == 6 {
            e.send("setoption name Level value 2");
        }
        let position = if opening.is_empty() {
            "startpos".to_owned()
        } else {
            format!("startpos moves {opening}")
        };
        let (mv, lines) = e.search(&position, "movetime 40");
        assert_bestmove_follows_the_line(&mv, &lines);
    }
    e.quit();

    let (mut e, _) = EngineProcess::greeted("usi");
    for (i, level) in [8, 8, 8, 3, 2, 1].into_iter().enumerate() {
        e.send(&format!("setoption name Level value {level}"));
        let start = [
            "7g7f",
            "2g2f",
            "7g7f 3c3d",
            "2g2f 8c8d",
            "5g5f",
            "7g7f 3c3d 8h2b+",
        ][i];
        let (mv, lines) = e.search(&format!("startpos moves {start}"), "byoyomi 60");
        assert_bestmove_follows_the_line(&mv, &lines);
    }
    e.quit();
}

#[test]
fn standard_options() {
    let (mut e, hello) = EngineProcess::greeted("uci");
    assert_offered(
        &hello,
        &[
            "option name Clear Hash type button",
            "option name Move Overhead type spin ",
            "option name UCI_LimitStrength type check default false",
            "option name UCI_Elo type spin ",
            "option name Threads type spin default 1 min 1 max ",
            "option name MultiPV type spin ",
            "option name Hash type spin ",
        ],
    );
    e.send("setoption name Clear Hash");
    e.send("setoption name Hash value 4");
    e.send("setoption name Threads value 2");
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1000");
    e.send("setoption name Move Overhead value 20");
    let ready = e.ready();
    assert!(!ready.iter().any(|l| l.contains("error")), "{ready:?}");
    let (mv, _) = e.search_from_start(Variant::Xiangqi, &[], "movetime 100");
    assert!(!mv.is_empty());
    // Out of range: refused with a reason.
    e.send("setoption name UCI_Elo value 5");
    e.send("setoption name Threads value 0");
    e.send("setoption name UCI_LimitStrength value maybe");
    let ready = e.ready();
    assert_eq!(
        ready
            .iter()
            .filter(|l| l.starts_with("info string error:"))
            .count(),
        3,
        "{ready:?}"
    );
    e.quit();

    let (mut e, hello) = EngineProcess::greeted("usi");
    assert_offered(
        &hello,
        &[
            "option name USI_Hash ",
            "option name USI_Ponder ",
            "option name Threads ",
            "option name Clear Hash ",
            "option name MultiPV ",
        ],
    );
    e.send("setoption name USI_Ponder value true");
    e.send("setoption name Threads value 2");
    e.ready();
    e.search_from_start(Variant::Shogi, &[], "byoyomi 100");
    e.quit();
}

#[test]
fn a_fixed_node_search_with_one_thread_is_repeatable() {
    let run = || {
        let (mut e, _) = EngineProcess::greeted("uci");
        e.send("setoption name Threads value 1");
        let (mv, lines) = e.search_from_start(Variant::Xiangqi, &["h2e2"], "nodes 30000");
        e.quit();
        // Times and speeds vary; depths, scores, node counts and lines do not.
        let shape: Vec<String> = lines
            .iter()
            .filter(|l| l.starts_with("info depth"))
            .map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                let mut kept = Vec::new();
                let mut i = 0;
                while i < words.len() {
                    if words[i] == "nps" || words[i] == "time" {
                        i += 2;
                        continue;
                    }
                    kept.push(words[i]);
                    i += 1;
                }
                kept.join(" ")
            })
            .collect();
        (mv, shape)
    };
    assert_eq!(run(), run());
}
