//! `jiang engine`: Jiang's engine behind the standard protocols, on standard input and output.
//!
//! UCI when the first command is `uci` (Xiangqi, Jieqi), USI when it is `usi` (Shogi,
//! Minishogi); the variant is the `UCI_Variant` option. Searches run on their own thread so
//! that `isready` and `stop` are answered while the engine thinks; every line is flushed.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use jiang_engine::score::{MATE, MATE_BOUND, Reported};
use jiang_engine::{Clock, Decision, Engine, Go, Info, Input};
use jiang_rules::{Family, Side, Variant};

/// Which protocol the session speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI, as the xiangqi GUIs (and Pikafish) use it.
    Uci,
    /// USI, as the shogi GUIs use it.
    Usi,
}

impl Protocol {
    fn default_variant(self) -> Variant {
        match self {
            Protocol::Uci => Variant::Xiangqi,
            Protocol::Usi => Variant::Shogi,
        }
    }
}

/// A line sink shared with the search thread: every line is written whole and flushed.
#[derive(Clone)]
struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    fn line(&self, text: &str) {
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A closed standard output (the GUI went away) is not the engine's problem.
        let _ = writeln!(out, "{text}");
        let _ = out.flush();
    }
}

/// A running search: its stop flag and the thread, which gives the engine back.
struct Running {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Engine>,
    /// `go infinite`: it ends only with `stop`.
    infinite: bool,
}

/// One engine session.
struct Session {
    protocol: Option<Protocol>,
    variant: Variant,
    engine: Option<Engine>,
    running: Option<Running>,
    input: Option<Input>,
    out: Output,
}

/// Parsed `go` arguments.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoArgs {
    /// `wtime` (UCI: Red's; USI: gote's) in ms.
    pub wtime: Option<u64>,
    /// `btime` (UCI: Black's; USI: sente's) in ms.
    pub btime: Option<u64>,
    /// `winc` in ms.
    pub winc: u64,
    /// `binc` in ms.
    pub binc: u64,
    /// `movestogo`.
    pub movestogo: Option<u32>,
    /// `byoyomi` in ms (USI).
    pub byoyomi: u64,
    /// `movetime` in ms.
    pub movetime: Option<u64>,
    /// `depth`.
    pub depth: Option<u32>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `infinite` (also `ponder`, searched until `stop` or `ponderhit`).
    pub infinite: bool,
}

/// Why a command line was not understood.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// A number was expected.
    #[error("`{name}` needs a number, got `{value}`")]
    NotANumber {
        /// The argument.
        name: String,
        /// What followed it.
        value: String,
    },
    /// `position` without `startpos`, `fen` or `sfen`.
    #[error("`position` needs `startpos`, `fen <FEN>` or `sfen <SFEN>`")]
    BadPosition,
    /// An unknown option name.
    #[error("unknown option `{0}`")]
    UnknownOption(String),
    /// A value out of range or of the wrong kind.
    #[error("option `{name}`: {message}")]
    BadValue {
        /// The option.
        name: String,
        /// What is wrong.
        message: String,
    },
}

/// Reads the arguments of `go`.
pub fn parse_go(tokens: &[&str]) -> Result<GoArgs, CommandError> {
    fn number<T: std::str::FromStr>(name: &str, value: Option<&&str>) -> Result<T, CommandError> {
        let value = value.copied().unwrap_or("");
        // GUIs sometimes send negative remaining times: read them as zero.
        if let Some(rest) = value.strip_prefix('-') {
            if rest.chars().all(|c| c.is_ascii_digit()) && !rest.is_empty() {
                return "0".parse().map_err(|_| CommandError::NotANumber {
                    name: name.to_owned(),
                    value: value.to_owned(),
                });
            }
        }
        value.parse().map_err(|_| CommandError::NotANumber {
            name: name.to_owned(),
            value: value.to_owned(),
        })
    }
    let mut args = GoArgs::default();
    let mut i = 0;
    while i < tokens.len() {
        let name = tokens[i];
        let value = tokens.get(i + 1);
        let mut takes_value = true;
        match name {
            "wtime" => args.wtime = Some(number(name, value)?),
            "btime" => args.btime = Some(number(name, value)?),
            "winc" => args.winc = number(name, value)?,
            "binc" => args.binc = number(name, value)?,
            "movestogo" => args.movestogo = Some(number(name, value)?),
            "byoyomi" => args.byoyomi = number(name, value)?,
            "movetime" => args.movetime = Some(number(name, value)?),
            "depth" => args.depth = Some(number(name, value)?),
            "nodes" => args.nodes = Some(number(name, value)?),
            "mate" => {
                let moves: u32 = number(name, value)?;
                args.depth = Some(moves * 2 + 1);
            }
            "infinite" | "ponder" => {
                args.infinite = true;
                takes_value = false;
            }
            // Unknown words (searchmoves lists, future extensions) are skipped.
            _ => takes_value = false,
        }
        i += if takes_value { 2 } else { 1 };
    }
    Ok(args)
}

impl GoArgs {
    /// The clock of the side to move: UCI's `w` is Red, USI's `b` (black, sente) moves first.
    pub fn clock(&self, protocol: Protocol, turn: Side) -> Clock {
        let first = match protocol {
            Protocol::Uci => (self.wtime, self.winc),
            Protocol::Usi => (self.btime, self.binc),
        };
        let second = match protocol {
            Protocol::Uci => (self.btime, self.binc),
            Protocol::Usi => (self.wtime, self.winc),
        };
        let (remaining, increment) = if turn == Side::First { first } else { second };
        Clock {
            remaining: remaining.map(Duration::from_millis),
            increment: Duration::from_millis(increment),
            moves_to_go: self.movestogo,
            byoyomi: Duration::from_millis(self.byoyomi),
            movetime: self.movetime.map(Duration::from_millis),
        }
    }
}

/// Splits `position …` into the FEN (or `startpos`) and the moves.
pub fn parse_position(tokens: &[&str]) -> Result<(String, Vec<String>), CommandError> {
    let moves_at = tokens.iter().position(|&t| t == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&tokens[..i], &tokens[i + 1..]),
        None => (tokens, &[][..]),
    };
    let fen = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => "startpos".to_owned(),
        Some(&"fen") | Some(&"sfen") if setup.len() > 1 => setup[1..].join(" "),
        _ => return Err(CommandError::BadPosition),
    };
    Ok((fen, moves.iter().map(|m| (*m).to_owned()).collect()))
}

impl Session {
    fn new(out: Output, seed: u64) -> Session {
        let mut engine = Engine::new();
        engine.set_seed(seed);
        Session {
            protocol: None,
            variant: Variant::Xiangqi,
            engine: Some(engine),
            running: None,
            input: None,
            out,
        }
    }

    fn protocol(&self) -> Protocol {
        self.protocol.unwrap_or(Protocol::Uci)
    }

    /// Reports a problem the GUI can show (`info string`), changing nothing.
    fn complain(&self, message: &str) {
        self.out.line(&format!("info string error: {message}"));
    }

    /// Waits for a running search to finish (after `stop`, or on its own) and takes the
    /// engine back.
    fn join(&mut self) {
        if let Some(running) = self.running.take() {
            match running.thread.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => {
                    self.complain("the search failed; the engine was reset");
                    self.engine = Some(Engine::new());
                }
            }
        }
    }

    fn stop(&mut self) {
        if let Some(running) = &self.running {
            running.stop.store(true, Ordering::Relaxed);
        }
        self.join();
    }

    /// Before a command that needs the engine: a search with limits is awaited, an infinite
    /// one (which only `stop` ends) is stopped, so no command can hang the session.
    fn finish(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.infinite) {
            self.stop();
        } else {
            self.join();
        }
    }

    fn engine(&mut self) -> &mut Engine {
        self.finish();
        self.engine.get_or_insert_with(Engine::new)
    }

    fn greet(&mut self, protocol: Protocol) {
        self.protocol = Some(protocol);
        self.variant = protocol.default_variant();
        let (variants, ok, hash) = match protocol {
            Protocol::Uci => ("var xiangqi var jieqi", "uciok", "Hash"),
            Protocol::Usi => ("var shogi var minishogi", "usiok", "USI_Hash"),
        };
        self.out
            .line(&format!("id name Jiang {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the Jiang developers");
        self.out.line(&format!(
            "option name UCI_Variant type combo default {} {variants}",
            self.variant
        ));
        self.out.line(&format!(
            "option name {hash} type spin default {} min 1 max {}",
            Engine::DEFAULT_HASH_MB,
            Engine::MAX_HASH_MB
        ));
        self.out
            .line("option name MultiPV type spin default 1 min 1 max 64");
        self.out
            .line("option name Level type spin default 8 min 1 max 8");
        self.out
            .line("option name Threads type spin default 1 min 1 max 1");
        self.out
            .line("option name RandomMover type check default false");
        self.out.line(ok);
    }

    fn set_option(&mut self, tokens: &[&str]) -> Result<(), CommandError> {
        // setoption name <name…> [value <value…>]
        let value_at = tokens.iter().position(|&t| t == "value");
        let name_end = value_at.unwrap_or(tokens.len());
        let name = tokens.get(1..name_end).unwrap_or(&[]).join(" ");
        let value = value_at
            .map(|i| tokens[i + 1..].join(" "))
            .unwrap_or_default();
        let number = |max: u64| -> Result<u64, CommandError> {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| CommandError::BadValue {
                    name: name.clone(),
                    message: format!("expected a number from 1 to {max}, got `{value}`"),
                })
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let variant: Variant =
                    value.parse().map_err(|e: jiang_rules::UnknownVariant| {
                        CommandError::BadValue {
                            name: name.clone(),
                            message: e.to_string(),
                        }
                    })?;
                let family = match self.protocol() {
                    Protocol::Uci => Family::Xiangqi,
                    Protocol::Usi => Family::Shogi,
                };
                if variant.family() != family {
                    return Err(CommandError::BadValue {
                        name,
                        message: format!(
                            "{variant} is played over {}, not this protocol",
                            if family == Family::Xiangqi {
                                "USI"
                            } else {
                                "UCI"
                            }
                        ),
                    });
                }
                self.variant = variant;
                self.input = None;
            }
            "hash" | "usi_hash" => {
                let mb = number(Engine::MAX_HASH_MB as u64)?;
                self.engine().set_hash(mb as usize);
            }
            "multipv" => {
                let lines = number(64)?;
                self.engine().set_multi_pv(lines as usize);
            }
            "level" => {
                let level = number(8)?;
                self.engine().set_level(level as u8);
            }
            "threads" => {
                number(1)?;
            }
            "randommover" => {
                let random = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(CommandError::BadValue {
                            name,
                            message: format!("expected true or false, got `{value}`"),
                        });
                    }
                };
                self.engine().set_random_mover(random);
            }
            // USI GUIs set these for every engine; nothing to do.
            "usi_ponder" | "ponder" | "usi_ownbook" => {}
            _ => return Err(CommandError::UnknownOption(name)),
        }
        Ok(())
    }

    fn position(&mut self, tokens: &[&str]) -> Result<(), String> {
        let (fen, moves) = parse_position(tokens).map_err(|e| e.to_string())?;
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        let input = Input::from_text(self.variant, &fen, &refs).map_err(|e| e.to_string())?;
        self.input = Some(input);
        Ok(())
    }

    fn go(&mut self, tokens: &[&str]) -> Result<(), String> {
        let args = parse_go(tokens).map_err(|e| e.to_string())?;
        let input = match &self.input {
            Some(input) => input.clone(),
            None => Input::from_text(self.variant, "startpos", &[]).map_err(|e| e.to_string())?,
        };
        let protocol = self.protocol();
        let turn = match &input {
            Input::Xiangqi(k) => k.position().turn(),
            Input::Shogi(g) => g.position().turn(),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let go = Go {
            clock: args.clock(protocol, turn),
            depth: args.depth,
            nodes: args.nodes,
            infinite: args.infinite,
            stop: Some(stop.clone()),
        };
        let mut engine = self.engine.take().unwrap_or_default();
        let out = self.out.clone();
        let flag = stop.clone();
        let thread = std::thread::Builder::new()
            .name("search".to_owned())
            .stack_size(64 * 1024 * 1024)
            .spawn(move || {
                let thought = engine.think(&input, &go, &mut |info| {
                    out.line(&info_line(protocol, info));
                });
                // UCI/USI: after `go infinite` the best move waits for `stop`.
                if go.infinite {
                    while !flag.load(Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(2));
                    }
                }
                out.line(&bestmove_line(protocol, &thought.decision));
                engine
            })
            .map_err(|e| format!("cannot start the search thread: {e}"))?;
        self.running = Some(Running {
            stop,
            thread,
            infinite: args.infinite,
        });
        Ok(())
    }

    /// Handles one command line; `false` for `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&command) = tokens.first() else {
            return true;
        };
        match command {
            "uci" => self.greet(Protocol::Uci),
            "usi" => self.greet(Protocol::Usi),
            "isready" => self.out.line("readyok"),
            "setoption" => {
                if let Err(e) = self.set_option(&tokens[1..]) {
                    self.complain(&e.to_string());
                }
            }
            "ucinewgame" | "usinewgame" => {
                self.engine().new_game();
                self.input = None;
            }
            "position" => {
                self.finish();
                if let Err(e) = self.position(&tokens[1..]) {
                    self.complain(&e);
                }
            }
            "go" => {
                self.finish();
                if let Err(e) = self.go(&tokens[1..]) {
                    self.complain(&e);
                }
            }
            "stop" => self.stop(),
            // Pondering is searched as `infinite` (no Ponder option is offered); should a GUI
            // send `ponderhit` anyway, the move found so far is given at once. `gameover`
            // (USI) ends any search.
            "ponderhit" | "gameover" => self.stop(),
            "quit" => {
                self.stop();
                return false;
            }
            other => self.complain(&format!("unknown command `{other}`")),
        }
        true
    }
}

/// An `info` line for one report.
fn info_line(protocol: Protocol, info: &Info) -> String {
    let ms = info.elapsed.as_millis().max(1) as u64;
    let nps = info.nodes * 1000 / ms;
    let score = match protocol {
        Protocol::Uci => Reported::of(info.score).to_string(),
        // USI gives mates in plies.
        Protocol::Usi if info.score > MATE_BOUND => format!("mate {}", MATE - info.score),
        Protocol::Usi if info.score < -MATE_BOUND => format!("mate -{}", MATE + info.score),
        Protocol::Usi => format!("cp {}", info.score),
    };
    format!(
        "info depth {} seldepth {} multipv {} score {score} nodes {} nps {nps} time {} pv {}",
        info.depth,
        info.seldepth.max(info.depth),
        info.multipv,
        info.nodes,
        info.elapsed.as_millis(),
        info.pv.join(" ")
    )
}

/// The `bestmove` line for a decision.
fn bestmove_line(protocol: Protocol, decision: &Decision) -> String {
    match (decision, protocol) {
        (Decision::Move(m), _) => format!("bestmove {m}"),
        (Decision::DeclareImpasse, _) => "bestmove win".to_owned(),
        (Decision::Resign, Protocol::Usi) => "bestmove resign".to_owned(),
        (Decision::Resign, Protocol::Uci) => "bestmove (none)".to_owned(),
    }
}

/// Runs a session until `quit` or the end of `input`, writing to standard output.
pub fn run(input: impl BufRead) -> io::Result<()> {
    let out = Output(Arc::new(Mutex::new(Box::new(io::stdout()))));
    // The levels' choices vary from session to session.
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut session = Session::new(out, seed ^ Instant::now().elapsed().as_nanos() as u64);
    for line in input.lines() {
        if !session.handle(line?.trim()) {
            return Ok(());
        }
    }
    // End of input: a search with limits finishes (its best move is still printed); an
    // infinite one is stopped, as nobody is left to send `stop`.
    session.finish();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_reads_every_limit() {
        let args = parse_go(&[
            "wtime",
            "1000",
            "btime",
            "2000",
            "winc",
            "10",
            "binc",
            "20",
            "movestogo",
            "5",
            "byoyomi",
            "300",
            "depth",
            "7",
            "nodes",
            "5000",
            "movetime",
            "250",
        ])
        .unwrap();
        assert_eq!(args.wtime, Some(1000));
        assert_eq!(args.btime, Some(2000));
        assert_eq!((args.winc, args.binc, args.byoyomi), (10, 20, 300));
        assert_eq!(args.movestogo, Some(5));
        assert_eq!(
            (args.depth, args.nodes, args.movetime),
            (Some(7), Some(5000), Some(250))
        );
        assert!(parse_go(&["infinite"]).unwrap().infinite);
        assert_eq!(parse_go(&["wtime", "-40"]).unwrap().wtime, Some(0));
        assert!(matches!(
            parse_go(&["depth", "x"]),
            Err(CommandError::NotANumber { .. })
        ));
    }

    #[test]
    fn the_mover_clock_follows_the_protocol() {
        let args = parse_go(&["wtime", "1000", "btime", "2000", "binc", "7"]).unwrap();
        // UCI: w is Red, the first side.
        let red = args.clock(Protocol::Uci, Side::First);
        assert_eq!(red.remaining, Some(Duration::from_millis(1000)));
        // USI: b (black) is sente, the first side.
        let sente = args.clock(Protocol::Usi, Side::First);
        assert_eq!(sente.remaining, Some(Duration::from_millis(2000)));
        assert_eq!(sente.increment, Duration::from_millis(7));
    }

    #[test]
    fn position_splits_setup_and_moves() {
        assert_eq!(
            parse_position(&["startpos", "moves", "h2e2", "h9g7"]).unwrap(),
            (
                "startpos".to_owned(),
                vec!["h2e2".to_owned(), "h9g7".to_owned()]
            )
        );
        let (fen, moves) =
            parse_position(&["sfen", "lnsgkgsnl/9/9/9/9/9/9/9/LNSGKGSNL", "b", "-", "1"]).unwrap();
        assert_eq!(fen, "lnsgkgsnl/9/9/9/9/9/9/9/LNSGKGSNL b - 1");
        assert!(moves.is_empty());
        assert_eq!(parse_position(&["fen"]), Err(CommandError::BadPosition));
        assert_eq!(parse_position(&[]), Err(CommandError::BadPosition));
    }

    #[test]
    fn usi_mates_are_in_plies_uci_in_moves() {
        let info = Info {
            depth: 3,
            seldepth: 3,
            multipv: 1,
            score: MATE - 3,
            nodes: 10,
            elapsed: Duration::from_millis(2),
            pv: vec![],
        };
        assert!(info_line(Protocol::Uci, &info).contains("score mate 2 "));
        assert!(info_line(Protocol::Usi, &info).contains("score mate 3 "));
    }
}
