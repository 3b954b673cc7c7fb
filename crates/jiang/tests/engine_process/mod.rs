//! `jiang engine` as a process for the protocol tests: started, spoken to line by line as a
//! GUI would, its answers awaited with a generous deadline, and every move it gives checked
//! legal by the rules crate.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use jiang_rules::{Family, Position, Variant, shogi, xiangqi};

pub const PATIENCE: Duration = Duration::from_secs(60);

/// A running `jiang engine`.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl EngineProcess {
    pub fn start() -> EngineProcess {
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
    pub fn greeted(protocol: &str) -> (EngineProcess, Vec<String>) {
        let mut e = EngineProcess::start();
        e.send(protocol);
        let hello = e.until(&format!("{protocol}ok"));
        (e, hello)
    }

    /// Every line up to `readyok`, the answer to `isready`.
    pub fn ready(&mut self) -> Vec<String> {
        self.send("isready");
        self.until("readyok")
    }

    /// After `ms` milliseconds the engine is still answering `isready` and has printed no
    /// line starting with `prefix` (a search that must go on until `stop` or `ponderhit`).
    pub fn silent_for(&mut self, ms: u64, prefix: &str) {
        std::thread::sleep(Duration::from_millis(ms));
        let ready = self.ready();
        assert!(!ready.iter().any(|l| l.starts_with(prefix)), "{ready:?}");
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads its input");
        self.stdin.flush().expect("flushed");
    }

    /// Every line up to and including the first that starts with `prefix`.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
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
    pub fn search(&mut self, position: &str, go: &str) -> (String, Vec<String>) {
        self.send(&format!("position {position}"));
        self.go(go)
    }

    /// Sets the start position of `variant` followed by `moves`, searches with `go` and asserts
    /// that the move found is legal there: see [`Self::search`].
    #[track_caller]
    pub fn search_from_start(
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
    pub fn go(&mut self, go: &str) -> (String, Vec<String>) {
        self.send(&format!("go {go}"));
        self.bestmove()
    }

    /// The move of the `bestmove` line that ends the current search.
    pub fn bestmove(&mut self) -> (String, Vec<String>) {
        let lines = self.until("bestmove");
        let last = lines.last().expect("a bestmove line");
        let mv = last
            .split_whitespace()
            .nth(1)
            .expect("bestmove has a move")
            .to_owned();
        (mv, lines)
    }

    pub fn quit(mut self) {
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
pub fn legal(variant: Variant, fen: &str, moves: &[&str], mv: &str) -> bool {
    match variant.family() {
        Family::Xiangqi => legal_in::<xiangqi::Position>(variant, fen, moves, mv),
        Family::Shogi => legal_in::<shogi::Position>(variant, fen, moves, mv),
    }
}

/// [`legal`] in one family's positions.
pub fn legal_in<P: Position>(variant: Variant, fen: &str, moves: &[&str], mv: &str) -> bool {
    let mut p = P::from_fen(variant, fen).unwrap();
    for m in moves {
        let parsed = p.parse_move(m).unwrap();
        p.play(parsed);
    }
    p.legal_move_texts().iter().any(|t| t == mv)
}

/// Asserts that the engine's greeting `hello` has a line starting with each of `starts`.
pub fn assert_offered(hello: &[String], starts: &[&str]) {
    for start in starts {
        assert!(
            hello.iter().any(|l| l.starts_with(start)),
            "{start:?} offered: {hello:?}"
        );
    }
}
