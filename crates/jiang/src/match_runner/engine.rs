//! A UCI or USI engine as a child process: start it, set it up, ask it for moves within a
//! deadline, and notice when it dies.
//!
//! A thread reads the engine's standard output line by line into a channel, so every wait has
//! a deadline and an engine that hangs or floods output never blocks the runner. The engine's
//! standard error goes to the runner's.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::thread;
use std::time::{Duration, Instant};

use jiang_rules::Variant;

/// How long an engine may take to answer `uci`/`usi` and `isready` (it may allocate its
/// hash table or load tables then).
pub const STARTUP_TIMEOUT: Duration = Duration::from_secs(30);
/// Longest engine output line read at once.
const MAX_LINE_BYTES: u64 = 1 << 20;
/// How long an engine may take to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_secs(2);

/// The engine protocol, chosen by the variant's family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI (xiangqi, jieqi): `uci`/`uciok`, `ucinewgame`, `position fen`.
    Uci,
    /// USI (shogi, minishogi): `usi`/`usiok`, `usinewgame`, `position sfen`, `gameover`.
    Usi,
}

impl Protocol {
    /// The protocol engines of `variant` speak.
    pub fn of(variant: Variant) -> Protocol {
        match variant.family() {
            jiang_rules::Family::Xiangqi => Protocol::Uci,
            jiang_rules::Family::Shogi => Protocol::Usi,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Protocol::Uci => "uci",
            Protocol::Usi => "usi",
        }
    }

    /// The variant an engine plays under this protocol when told nothing.
    fn default_variant(self) -> Variant {
        match self {
            Protocol::Uci => Variant::Xiangqi,
            Protocol::Usi => Variant::Shogi,
        }
    }
}

/// How to run one engine: its command line and what to set before the first game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The command line, split like a shell does (quotes and backslashes).
    pub command: String,
    /// `setoption name <Name> value <Value>`, in order.
    pub options: Vec<(String, String)>,
    /// The number of the first rank in the engine's xiangqi-family move coordinates: 0 for
    /// ICCS (`h2e2`: Pikafish, `jiang engine`), 1 for Fairy-Stockfish's UCI (`h3e3`).
    pub first_rank: u8,
}

/// Why an engine did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The command line is empty or its quotes do not close.
    #[error("cannot read the engine command `{0}`: it is empty or a quote is not closed")]
    BadCommand(String),
    /// The program could not be started.
    #[error("cannot start `{command}`: {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// The process ended (or closed its output, or stopped reading its input).
    #[error("{0}")]
    Died(String),
    /// No expected answer before the deadline.
    #[error("no `{expected}` within {waited} ms")]
    NoAnswer {
        /// What was awaited.
        expected: &'static str,
        /// How long the runner waited.
        waited: u128,
    },
}

/// What an engine answered to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The move as the engine wrote it, translated to Jiang's notation (ICCS or USI); also
    /// `resign`, `win` (USI impasse), `(none)`, or empty when `bestmove` had no move.
    pub text: String,
    /// From sending `go` to reading `bestmove`.
    pub elapsed: Duration,
}

/// One line of the engine's output, or its end.
enum Line {
    Text(String),
    Closed,
}

/// A running engine.
pub struct Engine {
    spec: EngineSpec,
    protocol: Protocol,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    /// The `id name`, or the program name.
    name: String,
}

impl Engine {
    /// Starts the engine and sets it up for `variant`: the handshake, the variant option, the
    /// spec's options, `isready`.
    pub fn start(spec: &EngineSpec, variant: Variant) -> Result<Engine, EngineError> {
        let words = shlex::split(&spec.command)
            .filter(|w| !w.is_empty())
            .ok_or_else(|| EngineError::BadCommand(spec.command.clone()))?;
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|source| EngineError::Spawn {
                command: spec.command.clone(),
                source,
            })?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stdin = child.stdin.take().expect("stdin is piped");
        let (send, lines) = channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buffer = Vec::new();
            loop {
                buffer.clear();
                // A line longer than this arrives in pieces rather than filling memory.
                match (&mut reader)
                    .take(MAX_LINE_BYTES)
                    .read_until(b'\n', &mut buffer)
                {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let text = String::from_utf8_lossy(&buffer).trim().to_owned();
                        if send.send(Line::Text(text)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = send.send(Line::Closed);
        });
        let program = std::path::Path::new(&words[0])
            .file_name()
            .map_or_else(|| words[0].clone(), |n| n.to_string_lossy().into_owned());
        let protocol = Protocol::of(variant);
        let mut engine = Engine {
            spec: spec.clone(),
            protocol,
            child,
            stdin,
            lines,
            name: program,
        };
        engine.handshake(variant)?;
        Ok(engine)
    }

    fn handshake(&mut self, variant: Variant) -> Result<(), EngineError> {
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        let protocol = self.protocol.name();
        self.send(protocol)?;
        let ok = match self.protocol {
            Protocol::Uci => "uciok",
            Protocol::Usi => "usiok",
        };
        let mut options = Vec::new();
        loop {
            let line = self.next_line(deadline, ok)?;
            if line == ok {
                break;
            }
            if let Some(name) = line.strip_prefix("id name ") {
                self.name = name.trim().to_owned();
            } else if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split(" type ").next().unwrap_or(rest).trim();
                options.push(name.to_owned());
            }
        }
        // The variant: under the name the engine lists (Fairy-Stockfish calls it
        // `USI_Variant` under USI), else `UCI_Variant` when the protocol's default is not it.
        let listed = ["UCI_Variant", "USI_Variant"]
            .into_iter()
            .find(|n| options.iter().any(|o| o == n));
        match listed {
            Some(option) => self.set_option(option, variant.name())?,
            None if variant != self.protocol.default_variant() => {
                self.set_option("UCI_Variant", variant.name())?
            }
            None => {}
        }
        for (name, value) in self.spec.options.clone() {
            self.set_option(&name, &value)?;
        }
        self.ready()
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// `isready`, then waits for `readyok` (earlier output is skipped).
    fn ready(&mut self) -> Result<(), EngineError> {
        self.send("isready")?;
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        while self.next_line(deadline, "readyok")? != "readyok" {}
        Ok(())
    }

    /// The engine's name: its `id name`, else the program's file name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `ucinewgame`/`usinewgame`, then `isready`.
    pub fn new_game(&mut self) -> Result<(), EngineError> {
        self.send(match self.protocol {
            Protocol::Uci => "ucinewgame",
            Protocol::Usi => "usinewgame",
        })?;
        self.ready()
    }

    /// Sends `position …` and `go …` and waits until `deadline` for `bestmove`. `moves` are in
    /// Jiang's notation; `start` is `startpos` or a FEN/SFEN.
    pub fn think(
        &mut self,
        start: &str,
        moves: &[String],
        go: &str,
        deadline: Duration,
    ) -> Result<BestMove, EngineError> {
        let mut position = match (start, self.protocol) {
            ("startpos", _) => "position startpos".to_owned(),
            (fen, Protocol::Uci) => format!("position fen {fen}"),
            (sfen, Protocol::Usi) => format!("position sfen {sfen}"),
        };
        if !moves.is_empty() {
            position.push_str(" moves");
            for mv in moves {
                position.push(' ');
                position.push_str(&self.jiang_to_engine(mv));
            }
        }
        self.send(&position)?;
        let started = Instant::now();
        self.send(go)?;
        let until = started + deadline;
        loop {
            let line = self.next_line(until, "bestmove")?;
            let mut words = line.split_whitespace();
            if words.next() == Some("bestmove") {
                let text = words.next().unwrap_or("");
                return Ok(BestMove {
                    text: self.engine_to_jiang(text),
                    elapsed: started.elapsed(),
                });
            }
        }
    }

    /// USI `gameover win|lose|draw` (UCI has no such message).
    pub fn game_over(&mut self, result: &str) -> Result<(), EngineError> {
        if self.protocol == Protocol::Usi {
            self.send(&format!("gameover {result}"))?;
        }
        Ok(())
    }

    /// `quit`, a short wait, then the process is killed if still there.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        // Dropping kills it.
    }

    fn send(&mut self, line: &str) -> Result<(), EngineError> {
        let sent = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        sent.map_err(|_| EngineError::Died(self.death("stopped reading its input")))
    }

    /// The next line before `deadline`, or why there is none.
    fn next_line(
        &mut self,
        deadline: Instant,
        expected: &'static str,
    ) -> Result<String, EngineError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Line::Text(text)) => Ok(text),
            Ok(Line::Closed) | Err(RecvTimeoutError::Disconnected) => {
                Err(EngineError::Died(self.death("closed its output")))
            }
            Err(RecvTimeoutError::Timeout) => Err(EngineError::NoAnswer {
                expected,
                waited: wait.as_millis(),
            }),
        }
    }

    /// How the process ended: its exit status if it has exited (waiting briefly for it),
    /// else what it did.
    fn death(&mut self, what: &str) -> String {
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return format!("the engine exited ({status})"),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                _ => return format!("the engine {what}"),
            }
        }
    }

    /// A move in Jiang's notation as this engine writes it.
    fn jiang_to_engine(&self, mv: &str) -> String {
        if self.spec.first_rank == 0 || self.protocol != Protocol::Uci {
            return mv.to_owned();
        }
        shift_ranks(mv, 1).unwrap_or_else(|| mv.to_owned())
    }

    /// A move as this engine wrote it, in Jiang's notation.
    fn engine_to_jiang(&self, mv: &str) -> String {
        if self.spec.first_rank == 0 || self.protocol != Protocol::Uci {
            return mv.to_owned();
        }
        shift_ranks(mv, -1).unwrap_or_else(|| mv.to_owned())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Adds `by` to both ranks of a coordinate move `<file><rank><file><rank>[suffix]` whose ranks
/// may have two digits (`h10`); `None` when `mv` is not such a move or a rank leaves 0..=10.
fn shift_ranks(mv: &str, by: i32) -> Option<String> {
    let mut out = String::new();
    let mut rest = mv;
    for _ in 0..2 {
        let file = rest.chars().next().filter(char::is_ascii_lowercase)?;
        let digits = rest[1..].chars().take_while(char::is_ascii_digit).count();
        if digits == 0 || digits > 2 {
            return None;
        }
        let rank: i32 = rest[1..1 + digits].parse().ok()?;
        let shifted = rank + by;
        if !(0..=10).contains(&shifted) {
            return None;
        }
        out.push(file);
        out.push_str(&shifted.to_string());
        rest = &rest[1 + digits..];
    }
    out.push_str(rest);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_shift_between_iccs_and_fairy_stockfish() {
        assert_eq!(shift_ranks("h2e2", 1).as_deref(), Some("h3e3"));
        assert_eq!(shift_ranks("a9a0", 1).as_deref(), Some("a10a1"));
        assert_eq!(shift_ranks("a10a1", -1).as_deref(), Some("a9a0"));
        assert_eq!(shift_ranks("h2e2C", 1).as_deref(), Some("h3e3C"));
        assert_eq!(shift_ranks("a0a1", -1), None);
        assert_eq!(shift_ranks("(none)", -1), None);
        assert_eq!(shift_ranks("", 1), None);
    }
}
