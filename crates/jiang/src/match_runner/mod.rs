//! `jiang match`: two UCI (xiangqi, jieqi) or USI (shogi, minishogi) engines play each other,
//! with Jiang's rules as the referee.
//!
//! Games come in pairs with the same opening and the colours swapped. Every move an engine
//! answers is checked by the rules; an illegal move, a crash or a timeout loses the game with
//! the reason printed. Jieqi games are dealt from the operating system's generator, and each
//! engine is told only what its seat may know (see [`referee::jieqi_position`]).
//!
//! # Output (standard output; a contract other programs parse, see docs/engine.md)
//! ```text
//! Match xiangqi: Alpha vs Beta, 4 games, movetime 100 ms, openings random:4, seed 42
//! Game 1/4: Alpha vs Beta: 1-0 checkmate (87 plies)
//! Game 2/4: Beta vs Alpha: 0-1 illegal-move (12 plies): Beta played `i9i8`: …
//! Game 3/4: Alpha vs Beta: 1/2-1/2 repetition (60 plies)
//! Game 4/4: Beta vs Alpha: 1-0 timeout (31 plies): Alpha gave no bestmove within 1100 ms …
//! Score of Alpha vs Beta: 2-1-1 (0.625) Elo +89 ± inf
//! ```
//! Game lines name Red (sente) first; results are written from Red's (sente's) side.

mod clock;
mod engine;
mod referee;
mod stats;

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;
use std::time::{Duration, SystemTime};

use clap::ArgMatches;
use jiang_rules::{Family, Reason, Side, Variant};
use rand::rngs::{OsRng, StdRng};
use rand::seq::SliceRandom;
use rand::{RngCore, SeedableRng, TryRngCore};

pub use clock::TimeControl;
use clock::{Charge, Clocks};
use engine::{Engine, EngineError, EngineSpec, Protocol};
use referee::{EndReason, Forfeit, GameEnd, RecordInfo, Referee};
use stats::{GameScore, Tally};

/// The time per move when neither `--movetime` nor `--tc` is given, in milliseconds.
const DEFAULT_MOVETIME_MS: u64 = 100;
/// Longest random opening accepted.
const MAX_OPENING_PLIES: usize = 200;

/// Command-line arguments of `jiang match`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// xiangqi, jieqi (UCI engines), shogi or minishogi (USI engines).
    #[arg(long, env = "JIANG_MATCH_VARIANT")]
    pub variant: Variant,
    /// An engine's command line (give it twice; quotes group words as in a shell).
    #[arg(long = "engine", value_name = "COMMAND", required = true)]
    pub engines: Vec<String>,
    /// `setoption name <NAME> value <VALUE>` for the engine given just before it (repeat).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// For the engine given just before it: the number of the first rank in its xiangqi
    /// moves, 0 (ICCS, the default) or 1 (Fairy-Stockfish's UCI coordinates).
    #[arg(long = "first-rank", value_name = "0|1", value_parser = clap::value_parser!(u8).range(0..=1))]
    pub first_ranks: Vec<u8>,
    /// For the engine given just before it: the name to show instead of its `id name`.
    #[arg(long = "name", value_name = "NAME")]
    pub names: Vec<String>,
    /// Games to play (pairs with the same opening, colours swapped).
    #[arg(long, env = "JIANG_MATCH_GAMES", default_value_t = 2,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Fixed time per move in milliseconds (default 100 when --tc is not given).
    #[arg(long, env = "JIANG_MATCH_MOVETIME", value_name = "MS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Fischer clock `<main>+<increment>` in seconds (e.g. `60+1`), or byo-yomi
    /// `<main>|<byoyomi>` (e.g. `60|5`; shogi and minishogi).
    #[arg(long, env = "JIANG_MATCH_TC", value_name = "MAIN+INC|MAIN|BYOYOMI")]
    pub tc: Option<TimeControl>,
    /// `random:<plies>`: each pair of games starts with that many random legal plies.
    #[arg(long, env = "JIANG_MATCH_OPENINGS", value_name = "random:PLIES")]
    pub openings: Option<Openings>,
    /// Seed of the random openings (default: a fresh one; it is printed).
    #[arg(long, env = "JIANG_MATCH_SEED")]
    pub seed: Option<u64>,
    /// Write the games to this file as PGN (xiangqi, jieqi).
    #[arg(long, env = "JIANG_MATCH_PGN", value_name = "FILE")]
    pub pgn: Option<PathBuf>,
    /// Write the games to this file as KIF (shogi, minishogi).
    #[arg(long, env = "JIANG_MATCH_KIF", value_name = "FILE")]
    pub kif: Option<PathBuf>,
    /// Grace in milliseconds over an engine's time before it loses on time.
    #[arg(
        long,
        env = "JIANG_MATCH_TIMEOUT_MARGIN",
        value_name = "MS",
        default_value_t = 1000
    )]
    pub timeout_margin: u64,
}

/// How games start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Openings {
    /// Each pair starts with this many random legal plies (seeded).
    Random(usize),
}

/// Why an `--openings` value could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not an opening choice: expected random:<plies>, with plies from 0 to {MAX_OPENING_PLIES}"
)]
pub struct OpeningsError(String);

impl FromStr for Openings {
    type Err = OpeningsError;
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        text.strip_prefix("random:")
            .and_then(|n| n.parse::<usize>().ok())
            .filter(|&n| n <= MAX_OPENING_PLIES)
            .map(Openings::Random)
            .ok_or_else(|| OpeningsError(text.to_owned()))
    }
}

/// Why a match could not be run at all.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The command line asked for something impossible.
    #[error("{0}")]
    Usage(String),
    /// An engine could not be started for the first game.
    #[error("engine {index} ({command}): {source}")]
    EngineStart {
        /// 1 or 2.
        index: usize,
        /// Its command line.
        command: String,
        /// What went wrong.
        source: EngineError,
    },
    /// The record file could not be written.
    #[error("{path}: {source}")]
    Record {
        /// The file.
        path: String,
        /// What went wrong.
        source: io::Error,
    },
    /// The referee could not build what an engine is told (a bug, never the engines' fault).
    #[error("internal error: {0}")]
    Internal(String),
    /// Writing the report failed.
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Runs `jiang match`; `matches` are the subcommand's parsed arguments, which give the order
/// of `--engine`, `--option` and `--first-rank`.
pub fn main(args: Args, matches: Option<&ArgMatches>) -> ExitCode {
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match run(args, matches, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = out.flush();
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// One of the two engines of the match.
struct Seat {
    spec: EngineSpec,
    engine: Option<Engine>,
    name: String,
}

/// Where the records go.
struct RecordFile {
    path: PathBuf,
    writer: BufWriter<File>,
}

fn run(args: Args, matches: Option<&ArgMatches>, out: &mut impl Write) -> Result<(), MatchError> {
    let specs = engine_specs(&args, matches)?;
    let control = match (args.movetime, args.tc) {
        (Some(_), Some(_)) => {
            return Err(MatchError::Usage(
                "give --movetime or --tc, not both".to_owned(),
            ));
        }
        (_, Some(TimeControl::Byoyomi { .. })) if args.variant.family() == Family::Xiangqi => {
            return Err(MatchError::Usage(
                "byo-yomi (--tc <main>|<byoyomi>) is for USI engines (shogi, minishogi); UCI has none"
                    .to_owned(),
            ));
        }
        (_, Some(tc)) => tc,
        (movetime, None) => TimeControl::MoveTime(Duration::from_millis(
            movetime.unwrap_or(DEFAULT_MOVETIME_MS),
        )),
    };
    let record_path = match (args.variant.family(), &args.pgn, &args.kif) {
        (_, Some(_), Some(_)) => {
            return Err(MatchError::Usage(
                "give --pgn or --kif, not both".to_owned(),
            ));
        }
        (Family::Xiangqi, None, Some(_)) => {
            return Err(MatchError::Usage(format!(
                "{} games are written as PGN: use --pgn",
                args.variant
            )));
        }
        (Family::Shogi, Some(_), None) => {
            return Err(MatchError::Usage(format!(
                "{} games are written as KIF: use --kif",
                args.variant
            )));
        }
        (_, pgn, kif) => pgn.as_ref().or(kif.as_ref()).cloned(),
    };
    let mut records = match record_path {
        Some(path) => {
            let file = File::create(&path).map_err(|source| MatchError::Record {
                path: path.display().to_string(),
                source,
            })?;
            Some(RecordFile {
                path,
                writer: BufWriter::new(file),
            })
        }
        None => None,
    };
    let seed = args.seed.unwrap_or_else(|| OsRng.unwrap_err().next_u64());
    let margin = Duration::from_millis(args.timeout_margin);

    let mut seats = Vec::with_capacity(2);
    for (i, (spec, name)) in specs.into_iter().enumerate() {
        let engine =
            Engine::start(&spec, args.variant).map_err(|source| MatchError::EngineStart {
                index: i + 1,
                command: spec.command.clone(),
                source,
            })?;
        seats.push(Seat {
            name: name.unwrap_or_else(|| engine.name().to_owned()),
            spec,
            engine: Some(engine),
        });
    }
    if seats[0].name == seats[1].name {
        for (i, seat) in seats.iter_mut().enumerate() {
            seat.name = format!("{} ({})", seat.name, i + 1);
        }
    }
    let openings = match args.openings {
        Some(Openings::Random(plies)) => format!("random:{plies}"),
        None => "none".to_owned(),
    };
    line(
        out,
        &format!(
            "Match {}: {} vs {}, {} games, {control}, openings {openings}, seed {seed}",
            args.variant, seats[0].name, seats[1].name, args.games
        ),
    )?;

    let mut rng = StdRng::seed_from_u64(seed);
    let mut tally = Tally::default();
    let mut opening: Vec<String> = Vec::new();
    let games = args.games as usize;
    for index in 0..games {
        // Even games: seat 0 plays Red/sente with a new opening; odd games: swapped, same one.
        let first_seat = index % 2;
        let started = SystemTime::now();
        let mut referee = Referee::new(args.variant, &mut OsRng.unwrap_err());
        let mut move_seconds = Vec::new();
        if let Some(Openings::Random(plies)) = args.openings {
            if index % 2 == 0 {
                opening = random_opening(&mut referee, plies, &mut rng);
            } else {
                replay_opening(&mut referee, &opening);
            }
            move_seconds.resize(referee.ply(), 0);
        }
        let end = play_game(
            &mut referee,
            &mut seats,
            first_seat,
            control,
            margin,
            &mut move_seconds,
        )?;
        referee.finish(&end);
        let first = &seats[first_seat].name;
        let second = &seats[1 - first_seat].name;
        let mut text = format!(
            "Game {}/{games}: {first} vs {second}: {} {} ({} plies)",
            index + 1,
            end.result(),
            end.reason.name(),
            referee.ply()
        );
        if let Some(detail) = &end.detail {
            text.push_str(": ");
            text.push_str(detail);
        }
        line(out, &text)?;
        if let Some(records) = &mut records {
            let info = RecordInfo {
                round: index + 1,
                first,
                second,
                pgn_time_control: control.pgn(),
                kif_time_control: control.kif(),
                move_seconds,
                started,
            };
            let record = referee.record(&end, &info).map_err(MatchError::Internal)?;
            let written =
                writeln!(records.writer, "{record}").and_then(|()| records.writer.flush());
            written.map_err(|source| MatchError::Record {
                path: records.path.display().to_string(),
                source,
            })?;
        }
        // Seat 0's side this game.
        let seat0_side = if first_seat == 0 {
            Side::First
        } else {
            Side::Second
        };
        tally.add(match end.winner {
            None => GameScore::Draw,
            Some(side) if side == seat0_side => GameScore::Win,
            Some(_) => GameScore::Loss,
        });
    }
    for seat in &mut seats {
        if let Some(engine) = seat.engine.take() {
            engine.quit();
        }
    }
    line(out, &tally.summary(&seats[0].name, &seats[1].name))?;
    Ok(())
}

/// Prints one line of the report and flushes it, so progress shows as games finish.
fn line(out: &mut impl Write, text: &str) -> io::Result<()> {
    writeln!(out, "{text}")?;
    out.flush()
}

/// The two engines with their options and chosen names, in command-line order: each
/// `--option`, `--first-rank` and `--name` belongs to the `--engine` before it.
fn engine_specs(
    args: &Args,
    matches: Option<&ArgMatches>,
) -> Result<Vec<(EngineSpec, Option<String>)>, MatchError> {
    if args.engines.len() != 2 {
        return Err(MatchError::Usage(format!(
            "a match needs exactly two --engine commands, not {}",
            args.engines.len()
        )));
    }
    let indices = |id: &str, count: usize| -> Vec<usize> {
        matches
            .and_then(|m| m.indices_of(id))
            .map(|i| i.collect())
            .unwrap_or_else(|| (0..count).collect())
    };
    let engine_at = indices("engines", args.engines.len());
    let owner = |flag: &str, at: usize| -> Result<usize, MatchError> {
        engine_at.iter().rposition(|&e| e < at).ok_or_else(|| {
            MatchError::Usage(format!(
                "{flag} applies to the --engine given before it: put it after one"
            ))
        })
    };
    let mut specs: Vec<EngineSpec> = args
        .engines
        .iter()
        .map(|command| EngineSpec {
            command: command.clone(),
            options: Vec::new(),
            first_rank: 0,
        })
        .collect();
    for (option, at) in args
        .options
        .iter()
        .zip(indices("options", args.options.len()))
    {
        let (name, value) = option
            .split_once('=')
            .filter(|(name, _)| !name.trim().is_empty())
            .ok_or_else(|| {
                MatchError::Usage(format!(
                    "--option `{option}` is not NAME=VALUE (e.g. --option \"Skill Level=10\")"
                ))
            })?;
        specs[owner("--option", at)?]
            .options
            .push((name.trim().to_owned(), value.trim().to_owned()));
    }
    for (&rank, at) in args
        .first_ranks
        .iter()
        .zip(indices("first_ranks", args.first_ranks.len()))
    {
        specs[owner("--first-rank", at)?].first_rank = rank;
    }
    let mut names = vec![None, None];
    for (name, at) in args.names.iter().zip(indices("names", args.names.len())) {
        if name.trim().is_empty() {
            return Err(MatchError::Usage("--name must not be empty".to_owned()));
        }
        names[owner("--name", at)?] = Some(name.trim().to_owned());
    }
    Ok(specs.into_iter().zip(names).collect())
}

/// Plays random legal plies (never one that ends the game); returns them as played.
fn random_opening(referee: &mut Referee, plies: usize, rng: &mut StdRng) -> Vec<String> {
    let mut played = Vec::new();
    for _ in 0..plies {
        let mut moves = referee.legal_moves();
        moves.shuffle(rng);
        let next = moves.into_iter().find_map(|mv| {
            let mut trial = referee.clone();
            (trial.play(&mv).is_ok() && trial.outcome().is_none()).then_some((mv, trial))
        });
        match next {
            Some((mv, trial)) => {
                *referee = trial;
                played.push(mv);
            }
            None => break,
        }
    }
    played
}

/// Replays an opening with the colours swapped. In Jieqi another deal can make a later move
/// of it illegal (a piece revealed as something else); the opening then stops there.
fn replay_opening(referee: &mut Referee, opening: &[String]) {
    for mv in opening {
        let mut trial = referee.clone();
        if trial.play(mv).is_err() || trial.outcome().is_some() {
            break;
        }
        *referee = trial;
    }
}

/// Plays one game to its end: the engines of `seats` (seat `first_seat` plays Red/sente).
fn play_game(
    referee: &mut Referee,
    seats: &mut [Seat],
    first_seat: usize,
    control: TimeControl,
    margin: Duration,
    move_seconds: &mut Vec<u32>,
) -> Result<GameEnd, MatchError> {
    let seat_of = |side: Side| match side {
        Side::First => first_seat,
        Side::Second => 1 - first_seat,
    };
    let variant = referee.variant();
    let protocol = Protocol::of(variant);
    // Both engines ready for a new game; one that cannot be (re)started loses it.
    for side in Side::BOTH {
        let seat = &mut seats[seat_of(side)];
        let ready = match seat.engine.take() {
            Some(engine) => Ok(engine),
            None => Engine::start(&seat.spec, variant),
        }
        .and_then(|mut engine| engine.new_game().map(|()| engine));
        match ready {
            Ok(engine) => seat.engine = Some(engine),
            Err(e) => {
                return Ok(GameEnd {
                    winner: Some(!side),
                    reason: EndReason::Forfeit(Forfeit::Crash),
                    detail: Some(format!("{} could not start a game: {e}", seat.name)),
                });
            }
        }
    }
    let mut clocks = Clocks::new(control);
    let end = loop {
        if let Some(outcome) = referee.outcome() {
            break GameEnd::by_rules(outcome);
        }
        let side = referee.turn();
        let seat = &mut seats[seat_of(side)];
        let position = referee.position_for(side).map_err(MatchError::Internal)?;
        let go = match protocol {
            Protocol::Uci => clocks.uci_go(),
            Protocol::Usi => clocks.usi_go(),
        };
        let allowed = clocks.allowed(side);
        let Some(engine) = seat.engine.as_mut() else {
            return Err(MatchError::Internal("an engine went missing".to_owned()));
        };
        let answer = engine.think(&position.start, &position.moves, &go, allowed + margin);
        let best = match answer {
            Ok(best) => best,
            Err(EngineError::NoAnswer { waited, .. }) => {
                // It may still be thinking: it is stopped and restarted for the next game.
                seat.engine = None;
                let mut end = GameEnd::by_rules(referee.timeout(side));
                end.detail = Some(format!(
                    "{} gave no bestmove within {waited} ms ({} ms + {} ms margin)",
                    seat.name,
                    allowed.as_millis(),
                    margin.as_millis()
                ));
                break end;
            }
            Err(e) => {
                seat.engine = None;
                break forfeit(side, Forfeit::Crash, format!("{} crashed: {e}", seat.name));
            }
        };
        if let Charge::Flagged { allowed } = clocks.charge(side, best.elapsed, margin) {
            let mut end = GameEnd::by_rules(referee.timeout(side));
            end.detail = Some(format!(
                "{} used {} ms of {} ms (+ {} ms margin)",
                seat.name,
                best.elapsed.as_millis(),
                allowed.as_millis(),
                margin.as_millis()
            ));
            break end;
        }
        match best.text.as_str() {
            "resign" => {
                break GameEnd::by_rules(jiang_rules::Outcome::win(!side, Reason::Resignation));
            }
            "win" if protocol == Protocol::Usi => match referee.declare_impasse() {
                Ok(outcome) => break GameEnd::by_rules(outcome),
                Err(why) => {
                    break forfeit(
                        side,
                        Forfeit::IllegalMove,
                        format!("{} declared impasse (`win`) wrongly: {why}", seat.name),
                    );
                }
            },
            "" => {
                break forfeit(
                    side,
                    Forfeit::IllegalMove,
                    format!("{} answered `bestmove` without a move", seat.name),
                );
            }
            text => {
                if let Err(why) = referee.play(text) {
                    break forfeit(
                        side,
                        Forfeit::IllegalMove,
                        format!("{} played `{text}`: {why}", seat.name),
                    );
                }
                move_seconds.push(best.elapsed.as_secs_f64().round() as u32);
            }
        }
    };
    for side in Side::BOTH {
        let result = match end.winner {
            None => "draw",
            Some(winner) if winner == side => "win",
            Some(_) => "lose",
        };
        if let Some(engine) = seats[seat_of(side)].engine.as_mut()
            && engine.game_over(result).is_err()
        {
            // It died after the game: it is restarted for the next one.
            seats[seat_of(side)].engine = None;
        }
    }
    Ok(end)
}

/// `side` loses by a fault of its engine.
fn forfeit(side: Side, kind: Forfeit, detail: String) -> GameEnd {
    GameEnd {
        winner: Some(!side),
        reason: EndReason::Forfeit(kind),
        detail: Some(detail),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_read() {
        assert_eq!("random:8".parse(), Ok(Openings::Random(8)));
        assert_eq!("random:0".parse(), Ok(Openings::Random(0)));
        for bad in ["random", "random:", "random:-1", "book:x", "random:201"] {
            assert!(bad.parse::<Openings>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_random_opening_is_seeded_and_replays_with_colours_swapped() {
        let mut os = OsRng.unwrap_err();
        for variant in Variant::ALL {
            let mut a = Referee::new(variant, &mut os);
            let mut b = Referee::new(variant, &mut os);
            let one = random_opening(&mut a, 6, &mut StdRng::seed_from_u64(5));
            let two = random_opening(&mut b, 6, &mut StdRng::seed_from_u64(5));
            assert_eq!(one.len(), 6, "{variant}");
            if variant != Variant::Jieqi {
                assert_eq!(one, two, "{variant}: the same seed, the same opening");
            }
            let mut c = Referee::new(variant, &mut os);
            replay_opening(&mut c, &one);
            assert!(c.ply() <= 6 && c.outcome().is_none(), "{variant}");
            if variant != Variant::Jieqi {
                assert_eq!(c.ply(), 6, "{variant}");
            }
        }
    }
}
