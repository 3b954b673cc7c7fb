//! `jiang match` run as a user runs it, against real engine processes.
//!
//! This test target has no libtest harness (`harness = false` in Cargo.toml): the same
//! executable is both the test runner and the engines the tests start. Run with
//! `JIANG_TEST_ENGINE=<kind>`, it is a small UCI/USI engine:
//! - `random`: plays a random legal move, asking a long-lived `jiang moves` process (the oracle
//!   this commit makes answer line by line) for the legal moves of the position it is sent;
//! - `illegal`: answers a move that is never legal; `crash`: exits when asked to move;
//!   `silent`: never answers `go`; `resign`: resigns; `win`: claims impasse (`bestmove win`).
//!
//! Every engine logs the lines it receives to `JIANG_TEST_LOG` when set, so a test can check
//! what the runner told it. Run without that variable, the executable runs the tests (each
//! argument that is not a flag filters them by name) and prints `N passed, N failed`.

use std::collections::BTreeMap;
use std::fs::{self, OpenOptions};
use std::io::{self, BufRead, BufReader, Write};
use std::panic;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Output, Stdio};

use jiang_rules::shogi::notation::read_kif;
use jiang_rules::xiangqi::notation::Record;
use jiang_rules::xiangqi::{Occupant, Position as XiangqiPosition};
use jiang_rules::{Game, Position, Side, Variant, shogi, xiangqi};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::IndexedRandom;

fn main() -> ExitCode {
    if let Ok(kind) = std::env::var("JIANG_TEST_ENGINE") {
        test_engine(&kind);
        return ExitCode::SUCCESS;
    }
    let tests: [(&str, fn()); 15] = [
        (
            "random_movers_play_xiangqi_to_the_end",
            random_movers_play_xiangqi_to_the_end,
        ),
        (
            "random_movers_play_shogi_and_minishogi",
            random_movers_play_shogi_and_minishogi,
        ),
        (
            "jieqi_engines_learn_only_what_their_seat_may_know",
            jieqi_engines_learn_only_what_their_seat_may_know,
        ),
        (
            "options_go_to_the_engine_they_follow",
            options_go_to_the_engine_they_follow,
        ),
        (
            "repetition_is_judged_by_the_rules",
            repetition_is_judged_by_the_rules,
        ),
        (
            "an_engine_numbering_ranks_from_one_plays_with_first_rank_1",
            an_engine_numbering_ranks_from_one_plays_with_first_rank_1,
        ),
        ("an_illegal_move_loses", an_illegal_move_loses),
        (
            "a_crash_loses_and_the_engine_is_restarted",
            a_crash_loses_and_the_engine_is_restarted,
        ),
        ("no_answer_loses_on_time", no_answer_loses_on_time),
        (
            "a_fischer_clock_is_sent_and_kept",
            a_fischer_clock_is_sent_and_kept,
        ),
        (
            "a_byoyomi_clock_is_sent_to_usi_engines",
            a_byoyomi_clock_is_sent_to_usi_engines,
        ),
        ("a_resignation_loses", a_resignation_loses),
        ("a_false_impasse_claim_loses", a_false_impasse_claim_loses),
        (
            "usage_errors_stop_before_any_game",
            usage_errors_stop_before_any_game,
        ),
        (
            "an_engine_that_cannot_start_stops_the_match",
            an_engine_that_cannot_start_stops_the_match,
        ),
    ];
    let options = RunnerOptions::from_args(std::env::args().skip(1));
    if options.list {
        for (name, _) in tests {
            println!("{name}: test");
        }
        return ExitCode::SUCCESS;
    }
    let (mut passed, mut failed) = (0, 0);
    for (name, test) in tests {
        if !options.selects(name) {
            continue;
        }
        match panic::catch_unwind(test) {
            Ok(()) => {
                println!("test {name} ... ok");
                passed += 1;
            }
            Err(_) => {
                println!("test {name} ... FAILED");
                failed += 1;
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The libtest arguments this runner understands: name filters, `--exact`, `--skip <name>`,
/// `--list` (as cargo-nextest asks); other flags are ignored, with their values.
#[derive(Default)]
struct RunnerOptions {
    filters: Vec<String>,
    skips: Vec<String>,
    exact: bool,
    list: bool,
}

impl RunnerOptions {
    fn from_args(args: impl Iterator<Item = String>) -> RunnerOptions {
        let mut options = RunnerOptions::default();
        let mut args = args.peekable();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--exact" => options.exact = true,
                "--list" => options.list = true,
                "--skip" => options.skips.extend(args.next()),
                "--test-threads" | "--color" | "--format" | "--logfile" | "-Z"
                | "--shuffle-seed" => {
                    args.next();
                }
                flag if flag.starts_with('-') => {}
                filter => options.filters.push(filter.to_owned()),
            }
        }
        options
    }

    fn selects(&self, name: &str) -> bool {
        let matches = |f: &String| {
            if self.exact {
                name == f
            } else {
                name.contains(f.as_str())
            }
        };
        (self.filters.is_empty() || self.filters.iter().any(matches))
            && !self.skips.iter().any(|s| name.contains(s.as_str()))
    }
}

// ---------------------------------------------------------------------------------------------
// The test engines.

/// A long-lived `jiang moves <variant>`: one position in, its legal moves out.
struct MovesOracle {
    _child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl MovesOracle {
    fn start(variant: Variant) -> MovesOracle {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jiang"))
            .args(["moves", variant.name()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("jiang moves runs");
        MovesOracle {
            input: child.stdin.take().unwrap(),
            output: BufReader::new(child.stdout.take().unwrap()),
            _child: child,
        }
    }

    fn legal_moves(&mut self, fen: &str) -> Vec<String> {
        writeln!(self.input, "{fen}").unwrap();
        self.input.flush().unwrap();
        let mut answer = String::new();
        self.output.read_line(&mut answer).unwrap();
        assert!(!answer.starts_with("error"), "{fen}: {answer}");
        let mut moves: Vec<String> = answer
            .split_whitespace()
            // Jieqi: the oracle lists a covered piece's move once per identity it may reveal
            // (`h2e2C`, `h2e2R`, …); an engine sends the move without the letter.
            .map(|m| match m.len() {
                5 if m.as_bytes()[4].is_ascii_alphabetic() => m[..4].to_owned(),
                _ => m.to_owned(),
            })
            .collect();
        moves.dedup();
        moves
    }
}

/// The FEN/SFEN after `position <rest>` in `variant`.
fn current_fen(variant: Variant, rest: &str) -> String {
    fn replay<G: Game>(variant: Variant, start: &str, moves: &[&str]) -> String {
        let start = G::Position::from_fen(variant, start).expect("the runner sends valid FENs");
        let mut game = G::new(start);
        for mv in moves {
            game.play_text(mv).expect("the runner sends legal moves");
        }
        game.position().fen()
    }
    let (start, moves): (&str, Vec<String>) = match rest.split_once(" moves ") {
        Some((start, moves)) => (
            start,
            moves.split_whitespace().map(from_engine_ranks).collect(),
        ),
        None => (rest.trim_end_matches(" moves"), Vec::new()),
    };
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    let start = start
        .strip_prefix("fen ")
        .or_else(|| start.strip_prefix("sfen "))
        .unwrap_or(start);
    match variant {
        Variant::Xiangqi | Variant::Jieqi => replay::<xiangqi::Game>(variant, start, &moves),
        Variant::Shogi | Variant::Minishogi => replay::<shogi::Game>(variant, start, &moves),
    }
}

/// `JIANG_TEST_FIRST_RANK=1`: the engine numbers xiangqi ranks from 1, as Fairy-Stockfish
/// does under UCI (`h3e3` for ICCS `h2e2`).
fn ranks_from_one() -> bool {
    std::env::var("JIANG_TEST_FIRST_RANK").is_ok_and(|v| v == "1")
}

/// Shifts both ranks of a xiangqi coordinate move by `by` (ranks may have two digits).
fn shift_ranks(mv: &str, by: i32) -> String {
    let mut out = String::new();
    let mut rest = mv;
    for _ in 0..2 {
        let digits = rest[1..].chars().take_while(char::is_ascii_digit).count();
        let rank: i32 = rest[1..1 + digits].parse().unwrap();
        out.push_str(&format!("{}{}", &rest[..1], rank + by));
        rest = &rest[1 + digits..];
    }
    out + rest
}

/// A move as the runner sent it, in ICCS.
fn from_engine_ranks(mv: &str) -> String {
    if ranks_from_one() {
        shift_ranks(mv, -1)
    } else {
        mv.to_owned()
    }
}

fn test_engine(kind: &str) {
    let mut log = std::env::var("JIANG_TEST_LOG").ok().map(|path| {
        OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .expect("the log opens")
    });
    let mut out = io::stdout().lock();
    let mut variant = Variant::Xiangqi;
    let mut position = String::from("startpos");
    let mut oracle: Option<(Variant, MovesOracle)> = None;
    let mut rng = StdRng::seed_from_u64(
        std::env::var("JIANG_TEST_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(1),
    );
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { return };
        if let Some(log) = &mut log {
            writeln!(log, "{line}").unwrap();
        }
        let (command, rest) = line.split_once(' ').unwrap_or((&line, ""));
        match command {
            "uci" | "usi" => {
                if command == "usi" {
                    variant = Variant::Shogi;
                }
                writeln!(out, "id name test-{kind}").unwrap();
                writeln!(out, "id author Jiang tests").unwrap();
                writeln!(
                    out,
                    "option name UCI_Variant type combo default {variant} var xiangqi var jieqi var shogi var minishogi"
                )
                .unwrap();
                writeln!(out, "{command}ok").unwrap();
            }
            "setoption" => {
                if let Some(value) = rest.strip_prefix("name UCI_Variant value ") {
                    variant = value.trim().parse().expect("a variant");
                }
            }
            "isready" => writeln!(out, "readyok").unwrap(),
            "position" => position = rest.to_owned(),
            "go" => match kind {
                "random" => {
                    let fen = current_fen(variant, &position);
                    if oracle.as_ref().is_none_or(|(v, _)| *v != variant) {
                        oracle = Some((variant, MovesOracle::start(variant)));
                    }
                    let moves = oracle.as_mut().unwrap().1.legal_moves(&fen);
                    let mut choice = moves
                        .choose(&mut rng)
                        .map_or("resign", |m| m.as_str())
                        .to_owned();
                    if ranks_from_one() {
                        choice = shift_ranks(&choice, 1);
                    }
                    writeln!(out, "info depth 1 score cp 0 pv {choice}").unwrap();
                    writeln!(out, "bestmove {choice}").unwrap();
                }
                "script" => {
                    // Its moves in turn, from JIANG_TEST_MOVES, cycling: ply p is its
                    // (p / 2)-th move whichever side it plays.
                    let script = std::env::var("JIANG_TEST_MOVES").unwrap();
                    let script: Vec<&str> = script.split(' ').collect();
                    let played = position
                        .split_once(" moves ")
                        .map_or(0, |(_, m)| m.split_whitespace().count());
                    writeln!(out, "bestmove {}", script[(played / 2) % script.len()]).unwrap();
                }
                "illegal" => writeln!(out, "bestmove a0a0").unwrap(),
                "crash" => std::process::exit(3),
                "silent" => {}
                "resign" => writeln!(out, "bestmove resign").unwrap(),
                "win" => writeln!(out, "bestmove win").unwrap(),
                other => panic!("unknown test engine `{other}`"),
            },
            "quit" => return,
            _ => {}
        }
        out.flush().unwrap();
    }
}

// ---------------------------------------------------------------------------------------------
// Running `jiang match` and reading its report.

/// The command line of a test engine of `kind` (this executable), logging to `log`.
fn engine(kind: &str, log: Option<&Path>, seed: u64) -> String {
    engine_with(kind, log, seed, &[])
}

/// A `script` engine playing `moves` (space-separated) in turn.
fn script_engine(moves: &str) -> String {
    engine_with("script", None, 1, &[format!("JIANG_TEST_MOVES={moves}")])
}

fn engine_with(kind: &str, log: Option<&Path>, seed: u64, extra: &[String]) -> String {
    let exe = std::env::current_exe().unwrap();
    let mut words = vec![
        "env".to_owned(),
        format!("JIANG_TEST_ENGINE={kind}"),
        format!("JIANG_TEST_SEED={seed}"),
    ];
    words.extend(extra.iter().cloned());
    if let Some(log) = log {
        words.push(format!("JIANG_TEST_LOG={}", log.display()));
    }
    words.push(exe.display().to_string());
    shlex::try_join(words.iter().map(String::as_str)).unwrap()
}

fn jiang_match(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jiang"))
        .arg("match")
        .args(args)
        .env_remove("JIANG_TEST_ENGINE")
        .stdin(Stdio::null())
        .output()
        .expect("jiang match runs")
}

/// Runs `jiang match --variant <variant> --engine <first> --engine <second> <more…>`.
fn match_two(variant: &str, first: &str, second: &str, more: &[&str]) -> Output {
    jiang_match(&match_args(variant, [first, second], more))
}

/// `--variant <variant> --engine <first> --engine <second> <more…>`.
fn match_args<'a>(variant: &'a str, engines: [&'a str; 2], more: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "--variant",
        variant,
        "--engine",
        engines[0],
        "--engine",
        engines[1],
    ];
    args.extend_from_slice(more);
    args
}

/// One game of `variant` between two script engines, one playing the moves `first` in turn,
/// the other `second`; and its report.
fn scripted_game(variant: &str, first: &str, second: &str) -> Report {
    let (first, second) = (script_engine(first), script_engine(second));
    read_report(&match_two(variant, &first, &second, &["--games", "1"]), 1)
}

/// One `Game i/N: …` line.
#[derive(Debug)]
struct GameLine {
    first: String,
    second: String,
    result: String,
    reason: String,
    plies: usize,
    detail: Option<String>,
}

/// The report: the header, one line per game, the score line; checks the shape of each.
struct Report {
    header: String,
    games: Vec<GameLine>,
    score: String,
}

fn read_report(out: &Output, games: usize) -> Report {
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "exit {:?}\n{stdout}\n{stderr}",
        out.status
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), games + 2, "{stdout}");
    let parsed = lines[1..=games]
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let prefix = format!("Game {}/{games}: ", i + 1);
            let rest = line
                .strip_prefix(&prefix)
                .unwrap_or_else(|| panic!("{line}"));
            let (first, rest) = rest.split_once(" vs ").unwrap();
            let (second, rest) = rest.split_once(": ").unwrap();
            let (head, tail) = rest.split_once(" plies)").unwrap();
            let (result, rest) = head.split_once(' ').unwrap();
            let (reason, plies) = rest.split_once(" (").unwrap();
            assert!(["1-0", "0-1", "1/2-1/2"].contains(&result), "{line}");
            GameLine {
                first: first.to_owned(),
                second: second.to_owned(),
                result: result.to_owned(),
                reason: reason.to_owned(),
                plies: plies.parse().unwrap(),
                detail: tail.strip_prefix(": ").map(str::to_owned),
            }
        })
        .collect();
    Report {
        header: lines[0].to_owned(),
        games: parsed,
        score: lines[games + 1].to_owned(),
    }
}

impl Report {
    /// Asserts that every game ended for `reason`; the detail each one carries.
    fn details(&self, reason: &str) -> Vec<&str> {
        self.games
            .iter()
            .map(|g| {
                assert_eq!(g.reason, reason, "{g:?}");
                g.detail.as_deref().unwrap()
            })
            .collect()
    }

    /// Checks the score line against the game lines, from engine `e1`'s point of view.
    fn check_score(&self, e1: &str, e2: &str) {
        let (mut w, mut d, mut l) = (0, 0, 0);
        for g in &self.games {
            let e1_first = g.first == e1;
            assert_eq!(if e1_first { &g.second } else { &g.first }, e2, "{g:?}");
            match (g.result.as_str(), e1_first) {
                ("1/2-1/2", _) => d += 1,
                ("1-0", true) | ("0-1", false) => w += 1,
                _ => l += 1,
            }
        }
        let prefix = format!("Score of {e1} vs {e2}: {w}-{d}-{l} (");
        assert!(self.score.starts_with(&prefix), "{} / {prefix}", self.score);
        assert!(self.score.contains(") Elo "), "{}", self.score);
        assert!(self.score.contains(" ± "), "{}", self.score);
        // Colours alternate: game 1 has e1 first, game 2 e2 first.
        for (i, g) in self.games.iter().enumerate() {
            assert_eq!(g.first == e1, i % 2 == 0, "{g:?}");
        }
    }
}

fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// The records of a PGN file, one per game.
fn pgn_records(path: &Path) -> Vec<Record> {
    let text = fs::read_to_string(path).unwrap();
    text.split("\n\n[Game ")
        .enumerate()
        .map(|(i, part)| {
            let part = if i == 0 {
                part.to_owned()
            } else {
                format!("[Game {part}")
            };
            Record::parse(&part).unwrap_or_else(|e| panic!("record {}: {e}\n{part}", i + 1))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The tests.

fn random_movers_play_xiangqi_to_the_end() {
    let dir = temp_dir();
    let pgn = dir.path().join("games.pgn");
    let (a, b) = (engine("random", None, 1), engine("random", None, 2));
    let out = match_two(
        "xiangqi",
        &a,
        &b,
        &[
            "--games",
            "4",
            "--openings",
            "random:6",
            "--seed",
            "42",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
    );
    let report = read_report(&out, 4);
    assert_eq!(
        report.header,
        "Match xiangqi: test-random (1) vs test-random (2), 4 games, movetime 100 ms, openings random:6, seed 42"
    );
    report.check_score("test-random (1)", "test-random (2)");
    let records = pgn_records(&pgn);
    assert_eq!(records.len(), 4);
    for (i, (record, line)) in records.iter().zip(&report.games).enumerate() {
        // Each game ended by the rules, as the rules see its moves.
        let game = record.game();
        let outcome = game
            .outcome()
            .unwrap_or_else(|| panic!("game {} is over", i + 1));
        assert_eq!(outcome.result(), line.result, "{line:?}");
        assert_eq!(outcome.reason.name(), line.reason, "{line:?}");
        assert_eq!(record.moves().len(), line.plies);
        assert_eq!(record.tag("Red"), Some(line.first.as_str()));
        assert_eq!(record.tag("Round"), Some((i + 1).to_string().as_str()));
        let date = record.tag("Date").unwrap();
        assert!(
            date.len() == 10 && date.chars().filter(|c| c.is_ascii_digit()).count() == 8,
            "{date}"
        );
        assert!(line.detail.is_none(), "{line:?}");
    }
    // A pair shares its opening, colours swapped.
    for pair in records.chunks(2) {
        assert_eq!(pair[0].moves()[..6], pair[1].moves()[..6]);
    }
    assert_ne!(records[0].moves()[..6], records[2].moves()[..6]);
    // The same seed gives the same openings.
    let again = dir.path().join("again.pgn");
    let out = match_two(
        "xiangqi",
        &a,
        &b,
        &[
            "--games",
            "2",
            "--openings",
            "random:6",
            "--seed",
            "42",
            "--pgn",
            again.to_str().unwrap(),
        ],
    );
    read_report(&out, 2);
    assert_eq!(pgn_records(&again)[0].moves()[..6], records[0].moves()[..6]);
}

fn random_movers_play_shogi_and_minishogi() {
    for variant in ["shogi", "minishogi"] {
        let dir = temp_dir();
        let kif = dir.path().join("games.kif");
        let (a, b) = (engine("random", None, 3), engine("random", None, 4));
        let out = match_two(
            variant,
            &a,
            &b,
            &["--games", "2", "--kif", kif.to_str().unwrap()],
        );
        let report = read_report(&out, 2);
        report.check_score("test-random (1)", "test-random (2)");
        let text = fs::read_to_string(&kif).unwrap();
        let records: Vec<&str> = text
            .split("#KIF version=2.0")
            .filter(|t| !t.trim().is_empty())
            .collect();
        assert_eq!(records.len(), 2, "{text}");
        for (record, line) in records.iter().zip(&report.games) {
            let record = read_kif(format!("#KIF version=2.0{record}").as_bytes()).unwrap();
            assert_eq!(record.variant.name(), variant);
            assert_eq!(record.moves.len(), line.plies);
            let outcome = record.result.expect("a result");
            assert_eq!(outcome.result(), line.result, "{line:?}");
            assert_eq!(outcome.reason.name(), line.reason, "{line:?}");
            assert_eq!(record.sente_name.as_deref(), Some(line.first.as_str()));
            assert!(record.start_time.is_some());
        }
    }
}

/// What one engine was sent in one game: each `position` line, after `ucinewgame`.
fn positions_by_game(log: &Path) -> Vec<Vec<String>> {
    let text = fs::read_to_string(log).unwrap();
    let mut games: Vec<Vec<String>> = Vec::new();
    for line in text.lines() {
        if line == "ucinewgame" {
            games.push(Vec::new());
        } else if let Some(rest) = line.strip_prefix("position ") {
            games
                .last_mut()
                .expect("ucinewgame first")
                .push(rest.to_owned());
        }
    }
    games
}

/// Pool counts of a Jieqi FEN's pool field, by letter.
fn pool_counts(pool: &str) -> BTreeMap<char, u32> {
    let mut counts = BTreeMap::new();
    let chars: Vec<char> = pool.chars().collect();
    for pair in chars.chunks(2) {
        if let [letter, digit] = pair {
            counts.insert(*letter, digit.to_digit(10).unwrap());
        }
    }
    counts
}

fn jieqi_engines_learn_only_what_their_seat_may_know() {
    let dir = temp_dir();
    let pgn = dir.path().join("games.pgn");
    let logs = [dir.path().join("one.log"), dir.path().join("two.log")];
    let a = engine("random", Some(&logs[0]), 5);
    let b = engine("random", Some(&logs[1]), 6);
    let out = match_two(
        "jieqi",
        &a,
        &b,
        &["--games", "2", "--pgn", pgn.to_str().unwrap()],
    );
    let report = read_report(&out, 2);
    report.check_score("test-random (1)", "test-random (2)");
    let records = pgn_records(&pgn);
    // Each game has its own deal, published in its record once it is over.
    let deals: Vec<&str> = records.iter().map(|r| r.tag("Deal").unwrap()).collect();
    assert_ne!(deals[0], deals[1], "a fresh deal per game");
    for (engine_index, log) in logs.iter().enumerate() {
        for (game_index, sent) in positions_by_game(log).iter().enumerate() {
            let record = &records[game_index];
            let line = &report.games[game_index];
            // Engine 1 plays Red in game 1, Black in game 2.
            let seat = if (engine_index + game_index) % 2 == 0 {
                Side::RED
            } else {
                Side::BLACK
            };
            assert_eq!(
                line.first,
                format!(
                    "test-random ({})",
                    if seat == Side::RED {
                        engine_index + 1
                    } else {
                        2 - engine_index
                    }
                )
            );
            let public: Vec<String> = record.moves().iter().map(|m| m.to_string()).collect();
            // Replay the public game, noting the covered pieces each side captured.
            let mut game = xiangqi::Game::new(record.start().clone());
            let mut covered_captured = Vec::new();
            for mv in record.moves() {
                let captured = game.position().occupant(mv.to());
                covered_captured.push(matches!(captured, Some(Occupant::Covered(_))));
                game.play(*mv).unwrap();
            }
            assert!(!sent.is_empty());
            for command in sent {
                let (fen, moves) = command
                    .strip_prefix("fen ")
                    .expect("a Jieqi FEN")
                    .split_once(" moves ")
                    .map_or((command[4..].to_owned(), vec![]), |(f, m)| {
                        (f.to_owned(), m.split(' ').map(str::to_owned).collect())
                    });
                let fields: Vec<&str> = fen.split(' ').collect();
                let base: usize =
                    2 * (fields[4].parse::<usize>().unwrap() - 1) + usize::from(fields[1] == "b");
                let ply = base + moves.len();
                // The moves sent are the public moves, reveals included.
                assert_eq!(moves, public[base..ply], "{command}");
                // The position is the public one at the base.
                let position = XiangqiPosition::parse_fen(Variant::Jieqi, &fen).unwrap();
                let truth = record.game().positions().nth(base).unwrap();
                assert_eq!(position.board_fen(), truth.board_fen());
                assert_eq!(ply % 2 == 0, seat == Side::RED, "sent on its own turn");
                // The pools at `ply`: the identities this seat has not seen.
                let mut pools = pool_counts(fields[2]);
                for mv in &moves {
                    if let Some(letter) = mv.chars().nth(4) {
                        *pools.get_mut(&letter).unwrap() -= 1;
                    }
                }
                for side in Side::BOTH {
                    let revealed = public[..ply]
                        .iter()
                        .filter(|m| {
                            m.len() == 5
                                && (m.as_bytes()[4].is_ascii_uppercase() == (side == Side::RED))
                        })
                        .count() as u32;
                    // Covered pieces of `side` that the seat captured: it saw them.
                    let seen_captured = (0..ply)
                        .filter(|&p| {
                            covered_captured[p]
                                && side != seat
                                && (p % 2 == 0) == (seat == Side::RED)
                        })
                        .count() as u32;
                    let total: u32 = pools
                        .iter()
                        .filter(|(l, _)| l.is_ascii_uppercase() == (side == Side::RED))
                        .map(|(_, n)| n)
                        .sum();
                    assert_eq!(
                        total,
                        15 - revealed - seen_captured,
                        "{seat:?} seat, {side:?} pool at ply {ply}: {command}"
                    );
                }
            }
        }
    }
}

fn options_go_to_the_engine_they_follow() {
    let dir = temp_dir();
    let logs = [dir.path().join("one.log"), dir.path().join("two.log")];
    let a = engine("resign", Some(&logs[0]), 1);
    let b = engine("resign", Some(&logs[1]), 1);
    let out = jiang_match(&[
        "--variant",
        "minishogi",
        "--engine",
        &a,
        "--option",
        "Skill Level=3",
        "--name",
        "One",
        "--engine",
        &b,
        "--option",
        "Hash=16",
        "--option",
        "Path=/a=b",
        "--games",
        "1",
    ]);
    // Engine 1 shows under the name given; both resign at once, so engine 1 (sente) loses.
    let report = read_report(&out, 1);
    report.check_score("One", "test-resign");
    assert_eq!(report.games[0].result, "0-1");
    let one = fs::read_to_string(&logs[0]).unwrap();
    let two = fs::read_to_string(&logs[1]).unwrap();
    // The variant (the engines list UCI_Variant), then the user's options, then isready.
    assert!(one.starts_with(
        "usi\nsetoption name UCI_Variant value minishogi\nsetoption name Skill Level value 3\nisready\nusinewgame\nisready\nposition startpos\ngo btime 0 wtime 0 byoyomi 100\n"
    ), "{one}");
    assert!(
        two.contains("setoption name Hash value 16\nsetoption name Path value /a=b\n"),
        "{two}"
    );
    assert!(!two.contains("Skill Level") && !one.contains("Hash"));
    // USI engines hear how the game ended, then `quit`.
    assert!(one.ends_with("gameover lose\nquit\n"), "{one}");
    assert!(two.ends_with("gameover win\nquit\n"), "{two}");
}

fn repetition_is_judged_by_the_rules() {
    // Xiangqi: both sides shuffle a horse; the third occurrence with no offender is a draw.
    let report = scripted_game("xiangqi", "h0g2 g2h0", "h9g7 g7h9");
    assert_eq!(report.games[0].result, "1/2-1/2");
    assert_eq!(report.games[0].reason, "repetition");
    assert_eq!(report.games[0].plies, 8);
    assert_eq!(
        report.score,
        "Score of test-script (1) vs test-script (2): 0-1-0 (0.500) Elo +0 ± 0"
    );
    // Minishogi: the fourth occurrence loses for sente (shogi.md), whoever repeated.
    let report = scripted_game("minishogi", "5e4d 4d5e", "1a2b 2b1a");
    assert_eq!(report.games[0].result, "0-1");
    assert_eq!(report.games[0].reason, "repetition");
    assert_eq!(report.games[0].plies, 12);
    assert!(
        report
            .score
            .starts_with("Score of test-script (1) vs test-script (2): 0-0-1 (0.000)")
    );
}

fn an_engine_numbering_ranks_from_one_plays_with_first_rank_1() {
    let dir = temp_dir();
    let pgn = dir.path().join("games.pgn");
    let log = dir.path().join("fairy.log");
    let fairy = engine_with(
        "random",
        Some(&log),
        7,
        &["JIANG_TEST_FIRST_RANK=1".to_owned()],
    );
    let iccs = engine("random", None, 8);
    let out = jiang_match(&[
        "--variant",
        "xiangqi",
        "--engine",
        &fairy,
        "--first-rank",
        "1",
        "--engine",
        &iccs,
        "--games",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    let report = read_report(&out, 2);
    report.check_score("test-random (1)", "test-random (2)");
    for g in &report.games {
        // Ended by the rules: no forfeit, no time loss (those carry a detail).
        assert!(g.detail.is_none(), "{g:?}");
    }
    // In game 2 it plays Black: it is sent Red's first move with ranks numbered from 1.
    let sent = fs::read_to_string(&log).unwrap();
    let second_game_first_move = pgn_records(&pgn)[1].moves()[0].to_string();
    let expected = format!(
        "position startpos moves {}",
        shift_ranks(&second_game_first_move, 1)
    );
    assert!(sent.contains(&expected), "{expected}\n{sent}");
}

fn an_illegal_move_loses() {
    let report = two_games("xiangqi", ["illegal", "random"], &[]);
    assert_eq!(
        report.score,
        "Score of test-illegal vs test-random: 0-0-2 (0.000) Elo -inf ± inf"
    );
    for detail in report.details("illegal-move") {
        assert!(
            detail.starts_with("test-illegal played `a0a0`: "),
            "{detail}"
        );
    }
    assert_eq!(report.games[0].plies, 0);
    assert_eq!(
        report.games[1].plies, 1,
        "Red moved, then Black's answer was illegal"
    );
}

fn a_crash_loses_and_the_engine_is_restarted() {
    let report = two_games("jieqi", ["random", "crash"], &[]);
    assert!(
        report
            .score
            .starts_with("Score of test-random vs test-crash: 2-0-0 (1.000)")
    );
    for detail in report.details("crash") {
        assert!(
            detail.starts_with("test-crash crashed: the engine "),
            "{detail}"
        );
        assert!(
            detail.contains("exit status: 3") || detail.contains("closed"),
            "{detail}"
        );
    }
}

fn no_answer_loses_on_time() {
    let timing = ["--movetime", "50", "--timeout-margin", "200"];
    let report = two_games("shogi", ["silent", "random"], &timing);
    for detail in report.details("timeout") {
        assert!(
            detail.starts_with("test-silent gave no bestmove within ")
                && detail.ends_with(" ms (50 ms + 200 ms margin)"),
            "{detail}"
        );
    }
    assert_eq!(report.games[0].result, "0-1");
    assert_eq!(report.games[1].result, "1-0");
}

/// Two games of `variant` (colours swapped) between test engines of the kinds `first` and
/// `second` (seed 1 each), with `more` arguments; the report, its score checked.
fn two_games(variant: &str, [first, second]: [&str; 2], more: &[&str]) -> Report {
    let engines = [engine(first, None, 1), engine(second, None, 1)];
    let report = read_report(&match_two(variant, &engines[0], &engines[1], more), 2);
    report.check_score(&format!("test-{first}"), &format!("test-{second}"));
    report
}

/// Plays one game of `variant` between `engines` under the time control `tc`, checks that the
/// report names it, and returns the `go` commands engine 1 was sent (it logs to `log`).
fn go_commands(variant: &str, engines: [&str; 2], tc: &str, log: &Path) -> Vec<String> {
    let out = match_two(
        variant,
        engines[0],
        engines[1],
        &["--games", "1", "--tc", tc],
    );
    let report = read_report(&out, 1);
    let named = format!(", tc {tc}, ");
    assert!(report.header.contains(&named), "{}", report.header);
    fs::read_to_string(log)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("go "))
        .map(str::to_owned)
        .collect()
}

fn a_fischer_clock_is_sent_and_kept() {
    let dir = temp_dir();
    let logs = [dir.path().join("one.log"), dir.path().join("two.log")];
    let a = engine("random", Some(&logs[0]), 1);
    let b = engine("random", Some(&logs[1]), 2);
    let gos = go_commands("xiangqi", [&a, &b], "30+0.5", &logs[0]);
    assert_eq!(gos[0], "go wtime 30000 btime 30000 winc 500 binc 500");
    // Later: Red's clock gained increments (a random mover answers at once) and never runs
    // above main + increments, Black's likewise.
    for go in &gos[1..] {
        let words: Vec<&str> = go.split(' ').collect();
        assert_eq!(
            (words[1], words[3], words[5], words[7]),
            ("wtime", "btime", "winc", "binc")
        );
        let wtime: u64 = words[2].parse().unwrap();
        let btime: u64 = words[4].parse().unwrap();
        assert!(wtime > 30000 && btime > 30000, "{go}");
    }
}

fn a_byoyomi_clock_is_sent_to_usi_engines() {
    let dir = temp_dir();
    let log = dir.path().join("one.log");
    let a = engine("random", Some(&log), 1);
    let b = engine("random", None, 2);
    let gos = go_commands("minishogi", [&a, &b], "20|0.5", &log);
    assert_eq!(gos[0], "go btime 20000 wtime 20000 byoyomi 500");
    for go in &gos[1..] {
        let words: Vec<&str> = go.split(' ').collect();
        let names = (words[1], words[3], words[5], words[6]);
        assert_eq!(names, ("btime", "wtime", "byoyomi", "500"), "{go}");
        // The banks only go down.
        assert!(words[2].parse::<u64>().unwrap() <= 20000, "{go}");
    }
    // UCI has no byo-yomi.
    let out = match_two("xiangqi", &a, &b, &["--tc", "20|0.5"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("byo-yomi (--tc <main>|<byoyomi>) is for USI engines")
    );
}

fn a_resignation_loses() {
    let report = two_games("xiangqi", ["random", "resign"], &[]);
    assert!(
        report
            .games
            .iter()
            .all(|g| g.reason == "resignation" && g.detail.is_none())
    );
    assert_eq!(report.games[0].result, "1-0");
    assert_eq!(report.games[1].result, "0-1");
}

fn a_false_impasse_claim_loses() {
    let report = two_games("shogi", ["win", "random"], &[]);
    for g in &report.games {
        assert_eq!(g.reason, "illegal-move");
        assert_eq!(
            g.detail.as_deref(),
            Some(
                "test-win declared impasse (`win`) wrongly: impasse condition 1 fails: the king is not in the promotion zone"
            )
        );
    }
}

fn usage_errors_stop_before_any_game() {
    let good = engine("random", None, 1);
    let cases: [(Vec<&str>, &str); 6] = [
        (
            vec!["--variant", "xiangqi", "--engine", &good],
            "exactly two --engine",
        ),
        (
            vec![
                "--variant",
                "xiangqi",
                "--option",
                "A=1",
                "--engine",
                &good,
                "--engine",
                &good,
            ],
            "--option applies to the --engine given before it",
        ),
        (
            vec![
                "--variant",
                "xiangqi",
                "--engine",
                &good,
                "--option",
                "novalue",
                "--engine",
                &good,
            ],
            "is not NAME=VALUE",
        ),
        (
            match_args("xiangqi", [&good, &good], &["--kif", "x.kif"]),
            "use --pgn",
        ),
        (
            match_args("shogi", [&good, &good], &["--movetime", "5", "--tc", "1+0"]),
            "not both",
        ),
        (
            match_args("shogi", [&good, &good], &["--tc", "fast"]),
            "not a time control",
        ),
    ];
    for (args, expected) in cases {
        let out = jiang_match(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

fn an_engine_that_cannot_start_stops_the_match() {
    let good = engine("random", None, 1);
    let missing = PathBuf::from("/nonexistent/engine");
    let out = match_two("xiangqi", &good, missing.to_str().unwrap(), &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("engine 2 (/nonexistent/engine): cannot start `/nonexistent/engine`"),
        "{stderr}"
    );
}
