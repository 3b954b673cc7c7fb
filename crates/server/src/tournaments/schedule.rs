//! Tournaments the server holds by itself (`--schedule`): "an hourly xiangqi arena", "a Swiss
//! every Saturday evening". Each entry is one line of text, parsed once at start:
//!
//! ```text
//! <when> <variant> <clock> <length> [rated]
//! hourly@:00        xiangqi 3+2   57m rated     an arena at every full hour, 57 minutes long
//! daily@19:30       shogi   10|30 90m           an arena every day at 19:30 UTC
//! weekly@sat-18:00  jieqi   5+3   7r  rated     a 7-round Swiss every Saturday at 18:00 UTC
//! ```
//!
//! `<clock>` is minutes `+` increment seconds, minutes `|` byo-yomi seconds, or both
//! (`10+5|30`); `<length>` is minutes (`m`: an arena) or rounds (`r`: a Swiss). Times are UTC.
//!
//! The pairing loop keeps one upcoming tournament per entry: the next occurrence, created as
//! soon as the previous one has started (so players see it and join ahead). Its id is derived
//! from the entry and the start, and the insert ignores an id already there, so a restart or a
//! second node never creates an occurrence twice. An occurrence missed while the server was
//! down is skipped.

use std::fmt;

use jiang_protocol::{TimeControlSpec, TournamentKind};
use jiang_rules::Variant;
use sha2::{Digest, Sha256};

use crate::clock::TimeControl;
use crate::store::TournamentRow;

/// The `created_by` of scheduled tournaments: no player's id (those are 12 characters).
pub const SCHEDULER: &str = "jiang";

const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 24 * HOUR_MS;
const WEEKDAYS: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

/// When an entry recurs (UTC).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Every {
    /// Every hour at `minute`.
    Hour {
        /// 0–59.
        minute: u32,
    },
    /// Every day at `hour:minute`.
    Day {
        /// 0–23.
        hour: u32,
        /// 0–59.
        minute: u32,
    },
    /// Every week on `weekday` (0 Monday … 6 Sunday) at `hour:minute`.
    Week {
        /// 0 Monday … 6 Sunday.
        weekday: u32,
        /// 0–23.
        hour: u32,
        /// 0–59.
        minute: u32,
    },
}

impl Every {
    /// The first occurrence at or after `now` (milliseconds since the Unix epoch).
    pub fn next_at_or_after(self, now: i64) -> i64 {
        let (period, offset) = match self {
            Every::Hour { minute } => (HOUR_MS, i64::from(minute) * 60_000),
            Every::Day { hour, minute } => (DAY_MS, i64::from(hour * 60 + minute) * 60_000),
            // 1970-01-01 was a Thursday: Monday 00:00 of that week is 3 days before the epoch.
            Every::Week {
                weekday,
                hour,
                minute,
            } => (
                7 * DAY_MS,
                (i64::from(weekday) - 3) * DAY_MS + i64::from(hour * 60 + minute) * 60_000,
            ),
        };
        let k = (now - offset).div_euclid(period);
        let at = k * period + offset;
        if at >= now { at } else { at + period }
    }
}

/// One `--schedule` entry.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// When it recurs.
    pub every: Every,
    /// Arena or Swiss.
    pub kind: TournamentKind,
    /// The variant.
    pub variant: Variant,
    /// Every game's clock.
    pub clock: TimeControlSpec,
    /// Arena: minutes; Swiss: rounds.
    pub length: u32,
    /// Rated games.
    pub rated: bool,
    /// The entry as given (normalised spaces): part of each occurrence's id.
    text: String,
}

/// Why a `--schedule` entry was refused: the entry, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--schedule `{entry}`: {why}")]
pub struct ScheduleError {
    /// The entry as given.
    pub entry: String,
    /// What is wrong.
    pub why: String,
}

impl std::str::FromStr for Schedule {
    type Err = ScheduleError;

    fn from_str(entry: &str) -> Result<Self, ScheduleError> {
        let fail = |why: String| ScheduleError {
            entry: entry.trim().to_owned(),
            why,
        };
        let words: Vec<&str> = entry.split_whitespace().collect();
        let [when, variant, clock, length, rest @ ..] = words.as_slice() else {
            return Err(fail(
                "expected `<when> <variant> <clock> <length> [rated]`, e.g. \
                 `hourly@:00 xiangqi 3+2 57m rated`"
                    .into(),
            ));
        };
        let rated = match rest {
            [] => false,
            ["rated"] => true,
            _ => {
                return Err(fail(format!(
                    "unexpected `{}` after the length (only `rated` may follow)",
                    rest.join(" ")
                )));
            }
        };
        let every = parse_when(when).map_err(fail)?;
        let variant: Variant = variant.parse().map_err(|e| fail(format!("{e}")))?;
        let clock = parse_clock(clock).map_err(fail)?;
        TimeControl::try_from(clock).map_err(|e| fail(format!("clock `{}`: {e}", words[2])))?;
        let (kind, length) = parse_length(length).map_err(fail)?;
        Ok(Schedule {
            every,
            kind,
            variant,
            clock,
            length,
            rated,
            text: words.join(" "),
        })
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// `hourly@:MM`, `daily@HH:MM`, `weekly@DAY-HH:MM` (`hourly`, `daily`: at :00 / 00:00).
fn parse_when(when: &str) -> Result<Every, String> {
    let bad = || {
        format!(
            "`{when}` is not a time: use `hourly@:MM`, `daily@HH:MM` or `weekly@DAY-HH:MM` \
             (DAY: mon … sun; UTC)"
        )
    };
    let hh_mm = |text: &str| -> Option<(u32, u32)> {
        let (h, m) = text.split_once(':')?;
        let (h, m) = (h.parse::<u32>().ok()?, m.parse::<u32>().ok()?);
        (h < 24 && m < 60 && text.len() == 5).then_some((h, m))
    };
    let (what, at) = when.split_once('@').unwrap_or((when, ""));
    match what {
        "hourly" => {
            let minute = if at.is_empty() {
                0
            } else {
                let m = at.strip_prefix(':').ok_or_else(bad)?;
                (m.len() == 2).then_some(()).ok_or_else(bad)?;
                m.parse::<u32>().ok().filter(|m| *m < 60).ok_or_else(bad)?
            };
            Ok(Every::Hour { minute })
        }
        "daily" => {
            let (hour, minute) = if at.is_empty() {
                (0, 0)
            } else {
                hh_mm(at).ok_or_else(bad)?
            };
            Ok(Every::Day { hour, minute })
        }
        "weekly" => {
            let (day, time) = at.split_once('-').ok_or_else(bad)?;
            let weekday = WEEKDAYS
                .iter()
                .position(|d| d.eq_ignore_ascii_case(day))
                .ok_or_else(bad)? as u32;
            let (hour, minute) = hh_mm(time).ok_or_else(bad)?;
            Ok(Every::Week {
                weekday,
                hour,
                minute,
            })
        }
        _ => Err(bad()),
    }
}

/// `M+I`, `M|B` or `M+I|B`: main minutes, increment seconds, byo-yomi seconds.
fn parse_clock(clock: &str) -> Result<TimeControlSpec, String> {
    let bad = || {
        format!(
            "`{clock}` is not a clock: use minutes+increment (`3+2`), minutes|byo-yomi \
             (`10|30`) or both (`10+5|30`)"
        )
    };
    let number = |s: &str| -> Result<f64, String> {
        s.parse::<f64>()
            .ok()
            .filter(|n| n.is_finite() && *n >= 0.0)
            .ok_or_else(bad)
    };
    let (before, byoyomi) = match clock.split_once('|') {
        Some((before, b)) => (before, number(b)?),
        None => (clock, 0.0),
    };
    let (main, increment) = match before.split_once('+') {
        Some((m, i)) => (number(m)?, number(i)?),
        None if byoyomi > 0.0 => (number(before)?, 0.0),
        None => return Err(bad()),
    };
    Ok(TimeControlSpec {
        main: main * 60.0,
        increment,
        byoyomi,
        ..TimeControlSpec::default()
    })
}

/// `57m` (an arena of 57 minutes) or `7r` (a Swiss of 7 rounds), within the API's bounds.
fn parse_length(length: &str) -> Result<(TournamentKind, u32), String> {
    use super::handlers::{MAX_MINUTES, MAX_ROUNDS};
    let bad = || {
        format!(
            "`{length}` is not a length: use minutes for an arena (`57m`, 1–{MAX_MINUTES}) or \
             rounds for a Swiss (`7r`, 1–{MAX_ROUNDS})"
        )
    };
    let (n, kind, max) = if let Some(n) = length.strip_suffix('m') {
        (n, TournamentKind::Arena, MAX_MINUTES)
    } else if let Some(n) = length.strip_suffix('r') {
        (n, TournamentKind::Swiss, MAX_ROUNDS)
    } else {
        return Err(bad());
    };
    let n: u32 = n.parse().map_err(|_| bad())?;
    if !(1..=max).contains(&n) {
        return Err(bad());
    }
    Ok((kind, n))
}

impl Schedule {
    /// The tournament of this entry's next occurrence at or after `now` (ms since the Unix
    /// epoch): its id derived from the entry and the start.
    pub(crate) fn next_occurrence(&self, now: i64) -> TournamentRow {
        let starts_at = self.every.next_at_or_after(now);
        let (minutes, rounds) = match self.kind {
            TournamentKind::Arena => (Some(i64::from(self.length)), None),
            TournamentKind::Swiss => (None, Some(i64::from(self.length))),
        };
        TournamentRow {
            id: occurrence_id(&self.text, starts_at),
            kind: super::kind_name(self.kind).to_owned(),
            variant: self.variant.name().to_owned(),
            clock: serde_json::to_string(&self.clock).expect("a clock serialises"),
            minutes,
            rounds,
            starts_at,
            rated: i64::from(self.rated),
            created_by: SCHEDULER.to_owned(),
            status: "upcoming".to_owned(),
            created_at: now,
            finished_at: None,
        }
    }
}

/// 8 base62 characters of SHA-256(entry, start): the same on every node and after restarts.
fn occurrence_id(text: &str, starts_at: i64) -> String {
    const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let digest = Sha256::digest(format!("jiang-schedule-v1\n{text}\n{starts_at}").as_bytes());
    let mut n = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"));
    (0..8)
        .map(|_| {
            let c = BASE62[(n % 62) as usize] as char;
            n /= 62;
            c
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-12-05T17:42:10Z, a Saturday.
    const SAT_1742: i64 = 1_796_492_530_000;

    #[test]
    fn the_test_instant_is_what_it_says() {
        assert_eq!(super::super::rfc3339(SAT_1742), "2026-12-05T17:42:10Z");
    }

    #[test]
    fn occurrences_fall_on_the_named_times() {
        let at = |every: Every, now| super::super::rfc3339(every.next_at_or_after(now));
        assert_eq!(
            at(Every::Hour { minute: 0 }, SAT_1742),
            "2026-12-05T18:00:00Z"
        );
        assert_eq!(
            at(Every::Hour { minute: 30 }, SAT_1742),
            "2026-12-05T18:30:00Z"
        );
        assert_eq!(
            at(Every::Hour { minute: 50 }, SAT_1742),
            "2026-12-05T17:50:00Z"
        );
        let day = Every::Day {
            hour: 9,
            minute: 15,
        };
        assert_eq!(at(day, SAT_1742), "2026-12-06T09:15:00Z");
        let saturday_evening = Every::Week {
            weekday: 5,
            hour: 18,
            minute: 0,
        };
        assert_eq!(at(saturday_evening, SAT_1742), "2026-12-05T18:00:00Z");
        let saturday_morning = Every::Week {
            weekday: 5,
            hour: 9,
            minute: 0,
        };
        assert_eq!(at(saturday_morning, SAT_1742), "2026-12-12T09:00:00Z");
        let monday = Every::Week {
            weekday: 0,
            hour: 0,
            minute: 0,
        };
        assert_eq!(at(monday, SAT_1742), "2026-12-07T00:00:00Z");
        // The very instant of an occurrence is that occurrence.
        let exact = Every::Hour { minute: 0 }.next_at_or_after(SAT_1742);
        assert_eq!(Every::Hour { minute: 0 }.next_at_or_after(exact), exact);
    }

    #[test]
    fn entries_parse_into_tournaments() {
        let hourly: Schedule = "hourly@:00  xiangqi 3+2 57m rated".parse().unwrap();
        assert_eq!(hourly.every, Every::Hour { minute: 0 });
        assert_eq!(
            (hourly.kind, hourly.length, hourly.rated),
            (TournamentKind::Arena, 57, true)
        );
        assert_eq!((hourly.clock.main, hourly.clock.increment), (180.0, 2.0));
        assert_eq!(hourly.to_string(), "hourly@:00 xiangqi 3+2 57m rated");
        let row = hourly.next_occurrence(SAT_1742);
        assert_eq!(super::super::rfc3339(row.starts_at), "2026-12-05T18:00:00Z");
        assert_eq!((row.minutes, row.rounds, row.rated), (Some(57), None, 1));
        assert_eq!(row.created_by, SCHEDULER);
        // The same occurrence has the same id on every node; the next hour's differs.
        assert_eq!(hourly.next_occurrence(SAT_1742 + 60_000).id, row.id);
        assert_ne!(hourly.next_occurrence(row.starts_at + 1).id, row.id);
        assert_eq!(row.id.len(), 8);
        let swiss: Schedule = "weekly@sat-18:00 shogi 10|30 7r".parse().unwrap();
        assert_eq!(
            (swiss.kind, swiss.length, swiss.rated),
            (TournamentKind::Swiss, 7, false)
        );
        assert_eq!((swiss.clock.main, swiss.clock.byoyomi), (600.0, 30.0));
        let both: Schedule = "daily@19:30 minishogi 10+5|30 90m".parse().unwrap();
        assert_eq!(
            (both.clock.main, both.clock.increment, both.clock.byoyomi),
            (600.0, 5.0, 30.0)
        );
    }

    #[test]
    fn bad_entries_say_what_is_wrong() {
        let why = |entry: &str| entry.parse::<Schedule>().unwrap_err().to_string();
        assert!(why("hourly xiangqi 3+2").contains("expected `<when>"));
        assert!(why("often xiangqi 3+2 57m").contains("`often` is not a time"));
        assert!(why("hourly@:75 xiangqi 3+2 57m").contains("not a time"));
        assert!(why("daily@24:00 xiangqi 3+2 57m").contains("not a time"));
        assert!(why("weekly@someday-10:00 xiangqi 3+2 57m").contains("not a time"));
        assert!(why("hourly chess 3+2 57m").contains("chess"));
        assert!(why("hourly xiangqi 3 57m").contains("`3` is not a clock"));
        assert!(why("hourly xiangqi 0+0 57m").contains("clock `0+0`"));
        assert!(why("hourly xiangqi 3+2 57").contains("`57` is not a length"));
        assert!(why("hourly xiangqi 3+2 0m").contains("not a length"));
        assert!(why("hourly xiangqi 3+2 99r").contains("not a length"));
        assert!(why("hourly xiangqi 3+2 57m casual").contains("only `rated`"));
        assert!(why("hourly xiangqi 3+2 57m casual").starts_with("--schedule `hourly xiangqi"));
    }
}
