//! `jiang engine`: Jiang's engine behind the standard protocols, on standard input and output.
//!
//! UCI when the first command is `uci` (Xiangqi, Jieqi), USI when it is `usi` (Shogi,
//! Minishogi); the variant is the `UCI_Variant` option. Searches run on their own thread so
//! that `isready` and `stop` are answered while the engine thinks; every line is flushed.

mod commands;
mod options;

pub use commands::{CommandError, parse_go, parse_position};
pub use options::elo;

use options::Options;

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use jiang_engine::mate::{self, MateAnswer};
use jiang_engine::score::{MATE, MATE_BOUND, Reported};
use jiang_engine::{Decision, Engine, Go, Info, Input, Ponder, Thought};
use jiang_rules::{Family, Variant};

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

/// A running search: its stop flag, its ponder state and the thread, which gives the engine
/// back.
struct Running {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<Engine>,
    /// `go infinite` (or `go mate infinite`): it ends only with `stop`.
    infinite: bool,
    /// `go ponder`: thinking on the opponent's time until `ponderhit` or `stop`.
    ponder: Option<Arc<Ponder>>,
}

/// The position a `go` searches: none given yet (the variant's start), a position, or the
/// refusal of the last `position` (a `go` then answers no move).
enum Setup {
    Start,
    Ready(Box<Input>),
    Refused(String),
}

/// One engine session.
struct Session {
    protocol: Option<Protocol>,
    variant: Variant,
    engine: Option<Engine>,
    running: Option<Running>,
    setup: Setup,
    options: Options,
    /// The options last applied to the engine.
    applied: Option<Options>,
    out: Output,
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
            setup: Setup::Start,
            options: Options::default(),
            applied: None,
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
                    self.applied = None;
                }
            }
        }
    }

    /// Stops a running search at once (its best move is printed) and takes the engine back.
    fn stop(&mut self) {
        if let Some(running) = &self.running {
            running.stop.store(true, Ordering::Relaxed);
        }
        self.join();
    }

    /// At the end of input: a search with limits finishes (its best move is still printed);
    /// an infinite or pondering one is stopped, as nobody is left to send `stop`.
    fn finish(&mut self) {
        let endless = self
            .running
            .as_ref()
            .is_some_and(|r| r.infinite || r.ponder.as_ref().is_some_and(|p| p.is_active()));
        if endless {
            self.stop();
        } else {
            self.join();
        }
    }

    /// The engine with the session's options applied (a search must not be running).
    fn configured_engine(&mut self) -> Engine {
        let mut engine = self.engine.take().unwrap_or_default();
        let options = self.options.clone();
        let previous = self.applied.take();
        if previous.as_ref().map(|p| p.hash_mb) != Some(options.hash_mb) {
            engine.set_hash(options.hash_mb);
        } else if options.clear {
            engine.new_game();
        }
        engine.set_multi_pv(options.multi_pv);
        engine.set_level(options.effective_level());
        engine.set_random_mover(options.random_mover);
        engine.set_threads(options.threads);
        self.options.clear = false;
        self.applied = Some(Options {
            clear: false,
            ..options
        });
        engine
    }

    fn greet(&mut self, protocol: Protocol) {
        self.protocol = Some(protocol);
        self.variant = protocol.default_variant();
        self.setup = Setup::Start;
        let (variants, ok, hash, ponder) = match protocol {
            Protocol::Uci => ("var xiangqi var jieqi", "uciok", "Hash", "Ponder"),
            Protocol::Usi => ("var shogi var minishogi", "usiok", "USI_Hash", "USI_Ponder"),
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
        self.out.line("option name Clear Hash type button");
        self.out.line(&format!(
            "option name Threads type spin default 1 min 1 max {}",
            Engine::MAX_THREADS
        ));
        self.out
            .line(&format!("option name {ponder} type check default false"));
        self.out
            .line("option name MultiPV type spin default 1 min 1 max 64");
        self.out
            .line("option name Move Overhead type spin default 0 min 0 max 5000");
        self.out
            .line("option name UCI_LimitStrength type check default false");
        self.out.line(&format!(
            "option name UCI_Elo type spin default {} min {} max {}",
            elo::MAX,
            elo::MIN,
            elo::MAX
        ));
        self.out
            .line("option name Level type spin default 8 min 1 max 8");
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
        let number = |min: u64, max: u64| -> Result<u64, CommandError> {
            value
                .parse::<u64>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| CommandError::BadValue {
                    name: name.clone(),
                    message: format!("expected a number from {min} to {max}, got `{value}`"),
                })
        };
        let check = || -> Result<bool, CommandError> {
            match value.to_ascii_lowercase().as_str() {
                "true" => Ok(true),
                "false" => Ok(false),
                _ => Err(CommandError::BadValue {
                    name: name.clone(),
                    message: format!("expected true or false, got `{value}`"),
                }),
            }
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" | "usi_variant" => {
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
                self.setup = Setup::Start;
            }
            "hash" | "usi_hash" => {
                self.options.hash_mb = number(1, Engine::MAX_HASH_MB as u64)? as usize;
            }
            "clear hash" => self.options.clear = true,
            "multipv" => self.options.multi_pv = number(1, 64)? as usize,
            "level" => self.options.level = number(1, 8)? as u8,
            "uci_limitstrength" => self.options.limit_strength = check()?,
            "uci_elo" => self.options.elo = number(elo::MIN as u64, elo::MAX as u64)? as u32,
            "threads" => self.options.threads = number(1, Engine::MAX_THREADS as u64)? as usize,
            "move overhead" => self.options.move_overhead = number(0, 5000)?,
            "randommover" => self.options.random_mover = check()?,
            // Pondering needs no setup (`go ponder` is always understood); USI GUIs set these
            // for every engine.
            "ponder" | "usi_ponder" => {
                check()?;
            }
            "usi_ownbook" => {}
            _ => return Err(CommandError::UnknownOption(name)),
        }
        Ok(())
    }

    /// Reads `position …`; a refused position is remembered, so that `go` answers no move
    /// rather than searching an earlier one.
    fn position(&mut self, tokens: &[&str]) -> Result<(), String> {
        let read = || -> Result<Input, String> {
            let (fen, moves) = parse_position(tokens).map_err(|e| e.to_string())?;
            let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
            Input::from_text(self.variant, &fen, &refs).map_err(|e| e.to_string())
        };
        match read() {
            Ok(input) => {
                self.setup = Setup::Ready(Box::new(input));
                Ok(())
            }
            Err(e) => {
                self.setup = Setup::Refused(e.clone());
                Err(e)
            }
        }
    }

    /// The answer to a `go` that cannot search: the reason and no move.
    fn no_move(&self, message: &str, tsume: bool) {
        self.complain(message);
        if tsume {
            // USI `go mate`: the client waits for a `checkmate` line.
            self.out.line("checkmate nomate");
        } else {
            self.out
                .line(&bestmove_line(self.protocol(), &Decision::Resign, None));
        }
    }

    fn go(&mut self, tokens: &[&str]) {
        // UCI: a `go` during a search is a GUI's mistake; the old search ends first (its
        // best move is printed) so that nothing hangs.
        self.stop();
        let args = match parse_go(tokens) {
            Ok(args) => args,
            Err(e) => {
                let tsume = self.protocol() == Protocol::Usi && tokens.contains(&"mate");
                return self.no_move(&e.to_string(), tsume);
            }
        };
        let tsume = self.protocol() == Protocol::Usi && args.mate.is_some();
        let input = match &self.setup {
            Setup::Ready(input) => (**input).clone(),
            Setup::Start => match Input::from_text(self.variant, "startpos", &[]) {
                Ok(input) => input,
                Err(e) => return self.no_move(&e.to_string(), tsume),
            },
            Setup::Refused(why) => {
                return self.no_move(
                    &format!("no position to search (the last was refused: {why})"),
                    tsume,
                );
            }
        };
        let protocol = self.protocol();
        if let (Some(time), Protocol::Usi) = (args.mate, protocol) {
            return self.go_mate(input, time);
        }
        let turn = match &input {
            Input::Xiangqi(k) => k.position().turn(),
            Input::Shogi(g) => g.position().turn(),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let ponder = args.ponder.then(|| Arc::new(Ponder::new()));
        // UCI's `go mate N`: a mate in N moves is found within 2N - 1 plies.
        let depth = match args.mate {
            Some(Some(moves)) => {
                let plies = (moves.min(200) as u32 * 2).saturating_sub(1).max(1);
                Some(args.depth.map_or(plies, |d| d.min(plies)))
            }
            _ => args.depth,
        };
        let go = Go {
            clock: args.clock(protocol, turn, self.options.move_overhead),
            depth,
            nodes: args.nodes,
            infinite: args.infinite,
            stop: Some(stop.clone()),
            searchmoves: args.searchmoves.clone(),
            ponder: ponder.clone(),
        };
        let mut engine = self.configured_engine();
        let out = self.out.clone();
        let flag = stop.clone();
        let waiting = ponder.clone();
        let thread = std::thread::Builder::new()
            .name("search".to_owned())
            .stack_size(64 * 1024 * 1024)
            .spawn(move || {
                let started = Instant::now();
                let mut shown: Option<Vec<String>> = None;
                let thought = engine.think(&input, &go, &mut |info| {
                    if info.multipv == 1 {
                        shown = Some(info.pv.clone());
                    }
                    out.line(&info_line(protocol, info));
                });
                // `bestmove` (and its `ponder` move) is the start of the last reported line:
                // when the line played is another (a cut-short iteration's, a weaker level's
                // choice), it is reported first.
                if let Decision::Move(_) = &thought.decision {
                    if shown.as_ref() != Some(&thought.pv) {
                        out.line(&info_line(
                            protocol,
                            &final_info(&thought, started.elapsed()),
                        ));
                    }
                }
                // UCI/USI: after `go infinite` the best move waits for `stop`, after `go
                // ponder` for `ponderhit` or `stop`.
                loop {
                    let endless = go.infinite || waiting.as_ref().is_some_and(|p| p.is_active());
                    if !endless || flag.load(Ordering::Relaxed) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                let ponder_move = thought.pv.get(1).map(String::as_str);
                out.line(&bestmove_line(protocol, &thought.decision, ponder_move));
                engine
            });
        let running = thread.map(|thread| Running {
            stop,
            thread,
            infinite: args.infinite,
            ponder,
        });
        if let Err(why) = self.keep_running(running) {
            self.no_move(&why, false);
        }
    }

    /// Keeps a search thread that started as the one running; when it could not start, puts a
    /// fresh engine back (the thread took the old one) and says why.
    fn keep_running(&mut self, running: io::Result<Running>) -> Result<(), String> {
        match running {
            Ok(running) => {
                self.running = Some(running);
                Ok(())
            }
            Err(e) => {
                self.engine = Some(Engine::new());
                self.applied = None;
                Err(format!("cannot start the search thread: {e}"))
            }
        }
    }

    /// USI `go mate <ms>|infinite`: a tsume search answering `checkmate <moves>`,
    /// `checkmate nomate`, `checkmate timeout` (or `checkmate notimplemented` for a family
    /// without it).
    fn go_mate(&mut self, input: Input, time: Option<u64>) {
        let Input::Shogi(game) = input else {
            self.out.line("checkmate notimplemented");
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        let out = self.out.clone();
        let flag = stop.clone();
        let engine = self.configured_engine();
        let limit = time.map(|ms| {
            Duration::from_millis(ms.saturating_sub(self.options.move_overhead))
                .max(Duration::from_millis(1))
        });
        let thread = std::thread::Builder::new()
            .name("mate".to_owned())
            .stack_size(64 * 1024 * 1024)
            .spawn(move || {
                // `go mate infinite` searches without a time limit and answers when it knows
                // (USI), or `checkmate timeout` after `stop`.
                let answer = mate::solve(game.position(), limit, &flag);
                let text = match answer {
                    MateAnswer::Mate(moves) if moves.is_empty() => "checkmate nomate".to_owned(),
                    MateAnswer::Mate(moves) => format!("checkmate {}", moves.join(" ")),
                    MateAnswer::NoMate => "checkmate nomate".to_owned(),
                    MateAnswer::Timeout => "checkmate timeout".to_owned(),
                };
                out.line(&text);
                engine
            });
        let running = thread.map(|thread| Running {
            stop,
            thread,
            infinite: time.is_none(),
            ponder: None,
        });
        if let Err(why) = self.keep_running(running) {
            self.complain(&why);
            self.out.line("checkmate timeout");
        }
    }

    /// Handles one command line; `false` for `quit`. Nothing here waits for a search that
    /// runs on: `position` and `setoption` take effect at the next `go`, `isready` is
    /// answered at once, `stop` and `quit` end the search at once.
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
                self.options.clear = true;
                self.setup = Setup::Start;
            }
            "position" => {
                if let Err(e) = self.position(&tokens[1..]) {
                    self.complain(&e);
                }
            }
            "go" => self.go(&tokens[1..]),
            "stop" => self.stop(),
            "ponderhit" => {
                if let Some(ponder) = self.running.as_ref().and_then(|r| r.ponder.as_ref()) {
                    ponder.hit();
                }
            }
            // USI: the game is over; any search ends.
            "gameover" => self.stop(),
            "quit" => {
                self.stop();
                return false;
            }
            other => self.complain(&format!("unknown command `{other}`")),
        }
        true
    }
}

/// The report of the move played when no `info` line showed it: the thought's own line.
fn final_info(thought: &Thought, elapsed: Duration) -> Info {
    Info {
        depth: thought.depth.max(1),
        seldepth: thought.depth.max(1),
        multipv: 1,
        score: thought.score,
        nodes: thought.nodes,
        elapsed,
        pv: thought.pv.clone(),
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

/// The `bestmove` line for a decision (with the move expected in reply, when known).
fn bestmove_line(protocol: Protocol, decision: &Decision, ponder: Option<&str>) -> String {
    match (decision, protocol) {
        (Decision::Move(m), _) => match ponder {
            Some(reply) => format!("bestmove {m} ponder {reply}"),
            None => format!("bestmove {m}"),
        },
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
    use jiang_rules::Side;

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
    fn go_reads_ponder_mate_and_searchmoves() {
        let args = parse_go(&[
            "ponder",
            "wtime",
            "100",
            "searchmoves",
            "a0a1",
            "h2e2",
            "movetime",
            "50",
        ])
        .unwrap();
        assert!(args.ponder && !args.infinite);
        assert_eq!(args.searchmoves, ["a0a1", "h2e2"]);
        assert_eq!((args.wtime, args.movetime), (Some(100), Some(50)));
        assert_eq!(parse_go(&["mate", "infinite"]).unwrap().mate, Some(None));
        assert_eq!(parse_go(&["mate", "3000"]).unwrap().mate, Some(Some(3000)));
        assert!(parse_go(&["searchmoves"]).unwrap().searchmoves.is_empty());
    }

    #[test]
    fn elo_maps_onto_the_nearest_level() {
        assert_eq!(elo::level_for(elo::MIN), 1);
        assert_eq!(elo::level_for(elo::MAX), 8);
        assert_eq!(elo::level_for(0), 1);
        assert_eq!(elo::level_for(1500), 4);
        assert_eq!(elo::level_for(1450), 4);
        // Halfway between 3 (1310) and 4 (1500): the weaker.
        assert_eq!(elo::level_for(1405), 3);
        assert!(elo::LEVELS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn move_overhead_comes_off_every_time_given() {
        let args = parse_go(&["movetime", "100", "wtime", "1000", "byoyomi", "300"]).unwrap();
        let clock = args.clock(Protocol::Uci, Side::First, 40);
        assert_eq!(clock.movetime, Some(Duration::from_millis(60)));
        assert_eq!(clock.byoyomi, Duration::from_millis(260));
        // With byo-yomi the main time may be spent: the overhead comes out of the period.
        assert_eq!(clock.remaining, Some(Duration::from_millis(1000)));
        let fischer = parse_go(&["wtime", "1000"])
            .unwrap()
            .clock(Protocol::Uci, Side::First, 40);
        assert_eq!(fischer.remaining, Some(Duration::from_millis(960)));
    }

    #[test]
    fn the_mover_clock_follows_the_protocol() {
        let args = parse_go(&["wtime", "1000", "btime", "2000", "binc", "7"]).unwrap();
        // UCI: w is Red, the first side.
        let red = args.clock(Protocol::Uci, Side::First, 0);
        assert_eq!(red.remaining, Some(Duration::from_millis(1000)));
        // USI: b (black) is sente, the first side.
        let sente = args.clock(Protocol::Usi, Side::First, 0);
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
