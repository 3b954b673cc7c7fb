//! The match clock: a fixed time per move, Fischer (main time plus an increment per move) or
//! byo-yomi (main time, then a fixed time per move; USI), kept by the runner for each engine
//! and sent with every `go`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use jiang_rules::Side;

/// How the engines' thinking time is limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// Each move gets this long (`go movetime` in UCI, `go byoyomi` in USI).
    MoveTime(Duration),
    /// Each side has a bank of `main` time, and `increment` is added after each of its moves.
    Fischer {
        /// Starting bank of each side.
        main: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// Each side has a bank of `main` time; once it is spent, each move must be made within
    /// `byoyomi` (one period; USI engines only).
    Byoyomi {
        /// Starting bank of each side.
        main: Duration,
        /// The countdown each move gets once the bank is empty.
        byoyomi: Duration,
    },
}

/// Why a `--tc` value could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// Not `<main>+<increment>` or `<main>|<byoyomi>` in seconds.
    #[error(
        "`{0}` is not a time control: expected <main>+<increment> (Fischer) or <main>|<byoyomi> in seconds, like 60+1, 10+0.1 or 60|5"
    )]
    Malformed(String),
    /// A main time of zero leaves nothing to think with.
    #[error("the main time of `{0}` must be more than 0 seconds")]
    NoMainTime(String),
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    /// `60+1` (main seconds + increment seconds, decimals allowed), `60` (no increment) or
    /// `60|5` (main seconds, then 5 seconds byo-yomi).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let malformed = || TimeControlError::Malformed(text.to_owned());
        let seconds = |part: &str| -> Result<Duration, TimeControlError> {
            let value: f64 = part.trim().parse().map_err(|_| malformed())?;
            if !value.is_finite() || !(0.0..=1e7).contains(&value) {
                return Err(malformed());
            }
            Ok(Duration::from_secs_f64(value))
        };
        if let Some((main, byoyomi)) = text.split_once('|') {
            let (main, byoyomi) = (seconds(main)?, seconds(byoyomi)?);
            if main.is_zero() && byoyomi.is_zero() {
                return Err(TimeControlError::NoMainTime(text.to_owned()));
            }
            return Ok(TimeControl::Byoyomi { main, byoyomi });
        }
        let (main, increment) = text.split_once('+').unwrap_or((text, "0"));
        let main = seconds(main)?;
        let increment = seconds(increment)?;
        if main.is_zero() {
            return Err(TimeControlError::NoMainTime(text.to_owned()));
        }
        Ok(TimeControl::Fischer { main, increment })
    }
}

impl fmt::Display for TimeControl {
    /// `movetime 100 ms` or `tc 60+1` (the PGN `TimeControl` value is [`TimeControl::pgn`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::MoveTime(t) => write!(f, "movetime {} ms", t.as_millis()),
            TimeControl::Fischer { .. } => write!(f, "tc {}", self.pgn()),
            TimeControl::Byoyomi { main, byoyomi } => {
                write!(f, "tc {}|{}", seconds(*main), seconds(*byoyomi))
            }
        }
    }
}

impl TimeControl {
    /// The PGN `TimeControl` tag: `main+increment` in seconds, or `-` for a time per move
    /// (byo-yomi is for USI engines, whose records are KIF).
    pub fn pgn(&self) -> String {
        match self {
            TimeControl::MoveTime(_) | TimeControl::Byoyomi { .. } => "-".to_owned(),
            TimeControl::Fischer { main, increment } => {
                format!("{}+{}", seconds(*main), seconds(*increment))
            }
        }
    }

    /// The KIF `持ち時間` text: `60秒+1秒`, `60秒+秒読み5秒`, or `1手100ミリ秒` for a time per
    /// move.
    pub fn kif(&self) -> String {
        match self {
            TimeControl::Byoyomi { main, byoyomi } => {
                format!("{}秒+秒読み{}秒", seconds(*main), seconds(*byoyomi))
            }
            TimeControl::MoveTime(t) => format!("1手{}ミリ秒", t.as_millis()),
            TimeControl::Fischer { main, increment } => {
                format!("{}秒+{}秒", seconds(*main), seconds(*increment))
            }
        }
    }
}

/// Seconds without a trailing `.0`: `60`, `0.1`.
fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{}", s as u64)
    } else {
        format!("{s}")
    }
}

/// Both sides' remaining time in one game.
#[derive(Clone, Debug)]
pub struct Clocks {
    control: TimeControl,
    /// Remaining main time, by [`Side::index`] (unused for a time per move).
    remaining: [Duration; 2],
}

/// What a move's thinking time did to the mover's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Charge {
    /// In time.
    InTime,
    /// Over its time by more than the grace margin: a loss on time.
    Flagged {
        /// The time it had for this move (without the margin).
        allowed: Duration,
    },
}

impl Clocks {
    /// Fresh clocks for a game.
    pub fn new(control: TimeControl) -> Clocks {
        let start = match control {
            TimeControl::MoveTime(_) => Duration::ZERO,
            TimeControl::Fischer { main, .. } | TimeControl::Byoyomi { main, .. } => main,
        };
        Clocks {
            control,
            remaining: [start; 2],
        }
    }

    /// The time `side` has for its next move (without the grace margin).
    pub fn allowed(&self, side: Side) -> Duration {
        match self.control {
            TimeControl::MoveTime(t) => t,
            TimeControl::Fischer { .. } => self.remaining[side.index()],
            TimeControl::Byoyomi { byoyomi, .. } => self.remaining[side.index()] + byoyomi,
        }
    }

    /// Charges `side` for `used`: over its time by more than `margin` is a flag; within the
    /// margin its bank is emptied (not made negative); then the increment is added. Under
    /// byo-yomi the time is taken from the bank first and from the countdown after
    /// (clocks-and-games.md), so the bank only ever goes down.
    pub fn charge(&mut self, side: Side, used: Duration, margin: Duration) -> Charge {
        let allowed = self.allowed(side);
        if used > allowed + margin {
            return Charge::Flagged { allowed };
        }
        let bank = &mut self.remaining[side.index()];
        match self.control {
            TimeControl::MoveTime(_) => {}
            TimeControl::Fischer { increment, .. } => *bank = bank.saturating_sub(used) + increment,
            TimeControl::Byoyomi { .. } => *bank = bank.saturating_sub(used),
        }
        Charge::InTime
    }

    /// The UCI `go` arguments (`w` = Red, the first side). UCI has no byo-yomi (the runner
    /// refuses it for UCI engines); it would be written with USI's `byoyomi` word.
    pub fn uci_go(&self) -> String {
        match self.control {
            TimeControl::MoveTime(t) => format!("go movetime {}", t.as_millis()),
            _ => self.go_with_banks("w", "b"),
        }
    }

    /// The USI `go` arguments (`b` = sente, the first side).
    pub fn usi_go(&self) -> String {
        self.go_with_banks("b", "w")
    }

    /// `go` with both sides' banks, then the control's byo-yomi or increments; `first` and
    /// `second` are the protocol's letters for the first and second side. A time per move is
    /// a byo-yomi on banks that stay empty (USI has no `movetime`).
    fn go_with_banks(&self, first: &str, second: &str) -> String {
        let bank = |side: Side| self.remaining[side.index()].as_millis();
        let banks = format!(
            "go {first}time {} {second}time {}",
            bank(Side::First),
            bank(Side::Second)
        );
        match self.control {
            TimeControl::MoveTime(countdown)
            | TimeControl::Byoyomi {
                byoyomi: countdown, ..
            } => {
                format!("{banks} byoyomi {}", countdown.as_millis())
            }
            TimeControl::Fischer { increment, .. } => {
                let increment = increment.as_millis();
                format!("{banks} {first}inc {increment} {second}inc {increment}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Flagged after `allowed` ms.
    fn flagged(allowed: u64) -> Charge {
        Charge::Flagged {
            allowed: ms(allowed),
        }
    }

    #[test]
    fn reads_fischer_controls() {
        assert_eq!(
            "60+1".parse(),
            Ok(TimeControl::Fischer {
                main: ms(60_000),
                increment: ms(1000)
            })
        );
        assert_eq!(
            "10+0.1".parse(),
            Ok(TimeControl::Fischer {
                main: ms(10_000),
                increment: ms(100)
            })
        );
        assert_eq!(
            "5".parse(),
            Ok(TimeControl::Fischer {
                main: ms(5000),
                increment: Duration::ZERO
            })
        );
        for bad in ["", "+1", "a+b", "60+", "-5+1", "inf+0", "60+1+2"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(
            "0+1".parse::<TimeControl>(),
            Err(TimeControlError::NoMainTime("0+1".into()))
        );
        assert_eq!("10+0.1".parse::<TimeControl>().unwrap().pgn(), "10+0.1");
    }

    #[test]
    fn fischer_clocks_run_down_and_gain_the_increment() {
        let mut clocks = Clocks::new("1+0.5".parse().unwrap());
        assert_eq!(
            clocks.uci_go(),
            "go wtime 1000 btime 1000 winc 500 binc 500"
        );
        assert_eq!(clocks.charge(Side::First, ms(300), ms(100)), Charge::InTime);
        assert_eq!(
            clocks.usi_go(),
            "go btime 1200 wtime 1000 binc 500 winc 500"
        );
        // Over by less than the margin: the bank is emptied, then the increment added.
        assert_eq!(
            clocks.charge(Side::Second, ms(1050), ms(100)),
            Charge::InTime
        );
        assert_eq!(clocks.allowed(Side::Second), ms(500));
        // Over by more than the margin: flagged.
        assert_eq!(clocks.charge(Side::First, ms(1301), ms(100)), flagged(1200));
    }

    #[test]
    fn byoyomi_spends_the_bank_then_the_countdown() {
        let control: TimeControl = "1|0.5".parse().unwrap();
        assert_eq!(
            control,
            TimeControl::Byoyomi {
                main: ms(1000),
                byoyomi: ms(500)
            }
        );
        assert_eq!(control.to_string(), "tc 1|0.5");
        assert_eq!(control.kif(), "1秒+秒読み0.5秒");
        assert!("0|0".parse::<TimeControl>().is_err());
        assert!("1|x".parse::<TimeControl>().is_err());
        let mut clocks = Clocks::new(control);
        assert_eq!(clocks.usi_go(), "go btime 1000 wtime 1000 byoyomi 500");
        assert_eq!(clocks.allowed(Side::First), ms(1500));
        // Sente uses 1.2 s: the bank, then 0.2 s of the countdown; in time.
        assert_eq!(clocks.charge(Side::First, ms(1200), ms(50)), Charge::InTime);
        assert_eq!(clocks.usi_go(), "go btime 0 wtime 1000 byoyomi 500");
        // From now on each sente move has the countdown alone, which resets every move.
        assert_eq!(clocks.charge(Side::First, ms(540), ms(50)), Charge::InTime);
        assert_eq!(clocks.allowed(Side::First), ms(500));
        assert_eq!(clocks.charge(Side::First, ms(551), ms(50)), flagged(500));
    }

    #[test]
    fn a_time_per_move_is_the_same_every_move() {
        let mut clocks = Clocks::new(TimeControl::MoveTime(ms(100)));
        assert_eq!(clocks.uci_go(), "go movetime 100");
        assert_eq!(clocks.usi_go(), "go btime 0 wtime 0 byoyomi 100");
        assert_eq!(clocks.charge(Side::First, ms(150), ms(50)), Charge::InTime);
        assert_eq!(clocks.allowed(Side::First), ms(100));
        assert_eq!(clocks.charge(Side::First, ms(151), ms(50)), flagged(100));
    }
}
