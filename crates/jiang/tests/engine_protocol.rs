//! `jiang engine` driven through the real binary as a GUI or a match runner would: scripted
//! UCI (xiangqi, jieqi) and USI (shogi, minishogi) sessions. Every move the engine gives is
//! checked legal by the rules crate. Deadlines are generous and only guard against hangs.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use jiang_rules::{Family, Position, Variant, shogi, xiangqi};

const PATIENCE: Duration = Duration::from_secs(60);

/// A running `jiang engine`.
struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl EngineProcess {
    fn start() -> EngineProcess {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jiang"))
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("jiang engine starts");
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        EngineProcess {
            child,
            stdin,
            lines,
        }
    }

    /// A `jiang engine` greeted in `protocol` (`uci` or `usi`): the process and every line of
    /// its answer up to `uciok` or `usiok`.
    fn greeted(protocol: &str) -> (EngineProcess, Vec<String>) {
        let mut e = EngineProcess::start();
        e.send(protocol);
        let hello = e.until(&format!("{protocol}ok"));
        (e, hello)
    }

    /// Every line up to `readyok`, the answer to `isready`.
    fn ready(&mut self) -> Vec<String> {
        self.send("isready");
        self.until("readyok")
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads its input");
        self.stdin.flush().expect("flushed");
    }

    /// Every line up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(prefix);
                    seen.push(line);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no `{prefix}` line within {PATIENCE:?}; got {seen:?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the engine closed its output before `{prefix}`; got {seen:?}")
                }
            }
        }
    }

    /// Sets `position` (what follows the word: `startpos moves …`, `fen …`, `sfen …`), searches
    /// with `go` (what follows that word) and waits for the move: see [`Self::bestmove`].
    fn search(&mut self, position: &str, go: &str) -> (String, Vec<String>) {
        self.send(&format!("position {position}"));
        self.go(go)
    }

    /// Sets the start position of `variant` followed by `moves`, searches with `go` and asserts
    /// that the move found is legal there: see [`Self::search`].
    #[track_caller]
    fn search_from_start(
        &mut self,
        variant: Variant,
        moves: &[&str],
        go: &str,
    ) -> (String, Vec<String>) {
        let position = if moves.is_empty() {
            "startpos".to_owned()
        } else {
            format!("startpos moves {}", moves.join(" "))
        };
        let (mv, lines) = self.search(&position, go);
        assert!(
            legal(variant, "startpos", moves, &mv),
            "{mv} in {variant:?} after {moves:?}"
        );
        (mv, lines)
    }

    /// Searches the current position with `go` (what follows the word) and waits for the move:
    /// see [`Self::bestmove`].
    fn go(&mut self, go: &str) -> (String, Vec<String>) {
        self.send(&format!("go {go}"));
        self.bestmove()
    }

    /// The move of the `bestmove` line that ends the current search.
    fn bestmove(&mut self) -> (String, Vec<String>) {
        let lines = self.until("bestmove");
        let last = lines.last().expect("a bestmove line");
        let mv = last
            .split_whitespace()
            .nth(1)
            .expect("bestmove has a move")
            .to_owned();
        (mv, lines)
    }

    fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(Instant::now() < deadline, "the engine did not quit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// Whether the engine's `mv` is legal after `moves` from `fen` (or `startpos`), by the rules
/// crate.
fn legal(variant: Variant, fen: &str, moves: &[&str], mv: &str) -> bool {
    match variant.family() {
        Family::Xiangqi => legal_in::<xiangqi::Position>(variant, fen, moves, mv),
        Family::Shogi => legal_in::<shogi::Position>(variant, fen, moves, mv),
    }
}

/// [`legal`] in one family's positions.
fn legal_in<P: Position>(variant: Variant, fen: &str, moves: &[&str], mv: &str) -> bool {
    let mut p = P::from_fen(variant, fen).unwrap();
    for m in moves {
        let parsed = p.parse_move(m).unwrap();
        p.play(parsed);
    }
    p.legal_move_texts().iter().any(|t| t == mv)
}

#[test]
fn a_uci_xiangqi_and_jieqi_session() {
    let (mut e, hello) = EngineProcess::greeted("uci");
    for option in [
        "UCI_Variant",
        "Hash",
        "MultiPV",
        "Level",
        "Threads",
        "RandomMover",
    ] {
        assert!(
            hello
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} "))),
            "{option} offered: {hello:?}"
        );
    }
    assert!(hello.iter().any(|l| l.starts_with("id name Jiang")));
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
    assert!(hello.iter().any(|l| l.starts_with("option name USI_Hash ")));
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
