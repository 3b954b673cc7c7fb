//! The commands' arguments: `go` (every clock form, limits, `searchmoves`, ponder, mate) and
//! `position`, parsed into types with a typed error for what is wrong.

use std::time::Duration;

use jiang_engine::Clock;
use jiang_rules::Side;

use super::Protocol;

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
    /// `infinite`: searched until `stop`.
    pub infinite: bool,
    /// `ponder`: thinking on the opponent's time; the clock starts at `ponderhit`.
    pub ponder: bool,
    /// `mate N` (`Some(Some(N))`) or `mate infinite` (`Some(None)`): USI's tsume search
    /// with N ms; UCI's mate in N moves, searched as a depth.
    pub mate: Option<Option<u64>>,
    /// `searchmoves m1 m2 …`: only these root moves.
    pub searchmoves: Vec<String>,
}

/// The words of `go`; `searchmoves` takes every word up to the next of these.
const GO_WORDS: [&str; 15] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "byoyomi",
    "movetime",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
    "moves",
];

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
                args.mate = Some(if value == Some(&"infinite") {
                    None
                } else {
                    Some(number(name, value)?)
                });
            }
            "infinite" => {
                args.infinite = true;
                takes_value = false;
            }
            "ponder" => {
                args.ponder = true;
                takes_value = false;
            }
            "searchmoves" => {
                let list: Vec<String> = tokens[i + 1..]
                    .iter()
                    .take_while(|t| !GO_WORDS.contains(t))
                    .map(|t| (*t).to_owned())
                    .collect();
                i += 1 + list.len();
                args.searchmoves.extend(list);
                continue;
            }
            // Unknown words (future extensions) are skipped.
            _ => takes_value = false,
        }
        i += if takes_value { 2 } else { 1 };
    }
    Ok(args)
}

impl GoArgs {
    /// The clock of the side to move: UCI's `w` is Red, USI's `b` (black, sente) moves first;
    /// `overhead` ms (the `Move Overhead` option) are kept back from every time given.
    pub fn clock(&self, protocol: Protocol, turn: Side, overhead: u64) -> Clock {
        let first = match protocol {
            Protocol::Uci => (self.wtime, self.winc),
            Protocol::Usi => (self.btime, self.binc),
        };
        let second = match protocol {
            Protocol::Uci => (self.btime, self.binc),
            Protocol::Usi => (self.wtime, self.winc),
        };
        let (remaining, increment) = if turn == Side::First { first } else { second };
        let less = |ms: u64| Duration::from_millis(ms.saturating_sub(overhead));
        // Byo-yomi: the overhead comes out of the period (the main time may be spent).
        let byoyomi = if self.byoyomi > 0 {
            Duration::from_millis(self.byoyomi.saturating_sub(overhead).max(1))
        } else {
            Duration::ZERO
        };
        Clock {
            remaining: remaining.map(|ms| {
                if self.byoyomi > 0 {
                    Duration::from_millis(ms)
                } else {
                    less(ms)
                }
            }),
            increment: Duration::from_millis(increment),
            moves_to_go: self.movestogo,
            byoyomi,
            movetime: self
                .movetime
                .map(|ms| less(ms).max(Duration::from_millis(1))),
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
