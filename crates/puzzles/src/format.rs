//! A puzzle as stored and shipped: one JSON object a line (JSON Lines), documented in
//! `docs/puzzles.md`. The files under `puzzles/` and the server's table hold exactly this.
//!
//! ```json
//! {"id":"x-5c0e3f9a21","variant":"xiangqi","position":"<FEN>","solution":["h2e2","e9f9","e2e9"],
//!  "themes":["mate","mate_in_2"],"rating":1500,"proof":{"kind":"mate","plies":3,"depth":9},
//!  "source":"self-play, seed 7, ply 41"}
//! ```

use std::fmt;
use std::io::{BufRead, Write};
use std::str::FromStr;

use jiang_rules::Variant;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One puzzle: a position, the side to move finds the solution.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Puzzle {
    /// Stable identifier ([`Puzzle::derive_id`]): the variant's letter and a hash of the
    /// position and solution, so the same puzzle found twice has the same id.
    pub id: String,
    /// The game.
    #[serde(serialize_with = "variant_out", deserialize_with = "variant_in")]
    pub variant: Variant,
    /// The position as a FEN (xiangqi family; Jieqi in Jiang's FEN with covered pieces and the
    /// pool) or an SFEN (shogi family; a tsume may lack the attacker's king). The side to move
    /// is the solver.
    pub position: String,
    /// The line, in machine notation (ICCS or USI): the solver's move first, then the
    /// opponent's answer, and so on, ending with the solver's last move. A Jieqi move that
    /// reveals a covered piece carries the revealed letter (`b0c2R`); the solver sends it
    /// without.
    pub solution: Vec<String>,
    /// What the puzzle teaches, as detected by the generator (`docs/puzzles.md`).
    pub themes: Vec<Theme>,
    /// The puzzle's starting rating (Glicko-2 scale); the server's copy moves with attempts.
    pub rating: f64,
    /// How the generator proved it.
    pub proof: Proof,
    /// Where it comes from (a game, a seed, a record's name): free text, for people.
    pub source: String,
}

/// How a puzzle was proved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proof {
    /// Mate or an evaluation gain.
    pub kind: ProofKind,
    /// The solution's length in plies.
    pub plies: u32,
    /// The search depth (plies) at which the proof held: every alternative first move was
    /// searched to it and does not win.
    pub depth: u32,
}

/// What a puzzle's solution achieves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProofKind {
    /// A forced mate against every defence (in Jieqi, whatever the covered pieces are).
    Mate,
    /// A decisive gain (material or evaluation) that holds at the proof's depth.
    Advantage,
}

macro_rules! themes {
    ($($(#[doc = $doc:literal])* $variant:ident = $name:literal,)*) => {
        /// A theme: what kind of idea the puzzle's solution uses. How each is detected is in
        /// `docs/puzzles.md`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Theme {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Theme {
            /// Every theme, in display order.
            pub const ALL: &[Theme] = &[$(Theme::$variant),*];

            /// The theme's stable name (API, files, URLs).
            pub const fn name(self) -> &'static str {
                match self {
                    $(Theme::$variant => $name,)*
                }
            }
        }

        impl FromStr for Theme {
            type Err = FormatError;
            fn from_str(text: &str) -> Result<Theme, FormatError> {
                match text {
                    $($name => Ok(Theme::$variant),)*
                    _ => Err(FormatError::UnknownTheme(text.to_owned())),
                }
            }
        }
    };
}

themes! {
    /// The solution ends in checkmate.
    Mate = "mate",
    /// Mate with the solver's first move.
    MateIn1 = "mate_in_1",
    /// Mate with the solver's second move.
    MateIn2 = "mate_in_2",
    /// Mate with the solver's third move.
    MateIn3 = "mate_in_3",
    /// Mate with the solver's fourth move.
    MateIn4 = "mate_in_4",
    /// Mate with the solver's fifth move.
    MateIn5 = "mate_in_5",
    /// Mate in more than five moves.
    LongMate = "long_mate",
    /// A shogi mating problem: every solver move checks (often without the attacker's king).
    Tsume = "tsume",
    /// A decisive material or evaluation gain rather than mate.
    Advantage = "advantage",
    /// One move attacks two or more valuable targets at once.
    Fork = "fork",
    /// A piece that cannot move without exposing a more valuable one (or the king) is won.
    Pin = "pin",
    /// Moving one piece opens an attack by another.
    DiscoveredAttack = "discovered_attack",
    /// The solution promotes a piece (shogi family).
    Promotion = "promotion",
    /// The solution drops a piece from hand (shogi family).
    Drop = "drop",
    /// The solver gives material up on the way.
    Sacrifice = "sacrifice",
    /// Jieqi: the line turns a covered piece face up, and the solution holds whatever it is.
    Reveal = "reveal",
    /// The solution is a single move.
    OneMove = "one_move",
    /// The solver makes three moves or more.
    Long = "long",
}

impl Theme {
    /// The mate-in-N theme of a mate in `solver_moves` moves of the solver (`long_mate` past
    /// five).
    pub const fn mate_in(solver_moves: usize) -> Theme {
        match solver_moves {
            0 | 1 => Theme::MateIn1,
            2 => Theme::MateIn2,
            3 => Theme::MateIn3,
            4 => Theme::MateIn4,
            5 => Theme::MateIn5,
            _ => Theme::LongMate,
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Theme {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Theme {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Theme, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

fn variant_out<S: Serializer>(variant: &Variant, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(variant.name())
}

fn variant_in<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
    let text = String::deserialize(d)?;
    text.parse().map_err(serde::de::Error::custom)
}

/// Why a puzzle file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// A line is not a puzzle.
    #[error("line {line}: {reason}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// What was wrong.
        reason: String,
    },
    /// A theme name nobody knows.
    #[error("unknown theme `{0}`")]
    UnknownTheme(String),
    /// Reading or writing failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

impl Puzzle {
    /// The stable id of a puzzle: the variant's initial (`x`, `j`, `s`, `m`), a dash, and 10 hex
    /// digits of a 64-bit FNV-1a hash of the position and the solution.
    pub fn derive_id(variant: Variant, position: &str, solution: &[String]) -> String {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        let mut feed = |bytes: &[u8]| {
            for &b in bytes {
                hash ^= u64::from(b);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        };
        feed(position.as_bytes());
        for mv in solution {
            feed(b" ");
            feed(mv.as_bytes());
        }
        let initial = variant.name().as_bytes()[0] as char;
        format!("{initial}-{:010x}", hash >> 24)
    }

    /// A puzzle written by hand: its parts, the id derived, no theme, rating 1500, the proof
    /// as long as the solution and of depth 0 (nothing searched). For tests and for files an
    /// operator writes himself.
    pub fn hand_made(
        variant: Variant,
        position: &str,
        solution: &[&str],
        kind: ProofKind,
    ) -> Puzzle {
        let solution: Vec<String> = solution.iter().map(|s| s.to_string()).collect();
        Puzzle {
            id: Puzzle::derive_id(variant, position, &solution),
            variant,
            position: position.into(),
            proof: Proof {
                kind,
                plies: solution.len() as u32,
                depth: 0,
            },
            solution,
            themes: Vec::new(),
            rating: 1500.0,
            source: "hand-made".into(),
        }
    }

    /// How many moves the solver makes.
    pub fn solver_moves(&self) -> usize {
        self.solution.len().div_ceil(2)
    }
}

/// Reads a puzzle file: one puzzle a line; blank lines are skipped.
pub fn read_puzzles(reader: impl BufRead) -> Result<Vec<Puzzle>, FormatError> {
    let mut puzzles = Vec::new();
    for (i, line) in reader.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let puzzle: Puzzle = serde_json::from_str(&line).map_err(|e| FormatError::Line {
            line: i + 1,
            reason: e.to_string(),
        })?;
        puzzles.push(puzzle);
    }
    Ok(puzzles)
}

/// Writes puzzles one a line, in the order given.
pub fn write_puzzles(mut writer: impl Write, puzzles: &[Puzzle]) -> Result<(), FormatError> {
    for puzzle in puzzles {
        let line = serde_json::to_string(puzzle).map_err(std::io::Error::other)?;
        writeln!(writer, "{line}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Puzzle {
        let solution = vec!["h2e2".to_owned()];
        Puzzle {
            id: Puzzle::derive_id(
                Variant::Xiangqi,
                "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1",
                &solution,
            ),
            variant: Variant::Xiangqi,
            position: "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1".into(),
            solution,
            themes: vec![Theme::Mate, Theme::MateIn1, Theme::OneMove],
            rating: 1200.0,
            proof: Proof {
                kind: ProofKind::Mate,
                plies: 1,
                depth: 5,
            },
            source: "test".into(),
        }
    }

    #[test]
    fn a_puzzle_survives_a_round_trip_through_a_file() {
        let puzzles = vec![sample(), sample()];
        let mut bytes = Vec::new();
        write_puzzles(&mut bytes, &puzzles).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        assert_eq!(text.lines().count(), 2);
        assert!(
            text.contains(r#""themes":["mate","mate_in_1","one_move"]"#),
            "{text}"
        );
        assert!(text.contains(r#""variant":"xiangqi""#), "{text}");
        assert_eq!(read_puzzles(text.as_bytes()).unwrap(), puzzles);
    }

    #[test]
    fn a_bad_line_is_named() {
        let text = format!(
            "{}\n\n{{\"id\":1}}\n",
            serde_json::to_string(&sample()).unwrap()
        );
        match read_puzzles(text.as_bytes()) {
            Err(FormatError::Line { line: 3, .. }) => {}
            other => panic!("{other:?}"),
        }
        let unknown = serde_json::to_string(&sample())
            .unwrap()
            .replace("one_move", "brilliancy");
        let error = read_puzzles(unknown.as_bytes()).unwrap_err().to_string();
        assert!(error.contains("brilliancy"), "{error}");
    }

    #[test]
    fn ids_are_stable_and_tell_puzzles_apart() {
        let a = Puzzle::derive_id(Variant::Shogi, "p", &["7g7f".into()]);
        assert_eq!(a, Puzzle::derive_id(Variant::Shogi, "p", &["7g7f".into()]));
        assert!(a.starts_with("s-") && a.len() == 12, "{a}");
        assert_ne!(a, Puzzle::derive_id(Variant::Shogi, "p", &["2g2f".into()]));
        assert_ne!(
            a,
            Puzzle::derive_id(Variant::Minishogi, "p", &["7g7f".into()])
        );
    }

    #[test]
    fn every_theme_name_reads_back() {
        for &theme in Theme::ALL {
            assert_eq!(theme.name().parse::<Theme>().unwrap(), theme);
        }
    }
}
