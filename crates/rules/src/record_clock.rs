//! A game's clock settings as the record formats write them: PGN's `TimeControl` tag
//! (seconds, `600+5`, `-` for none) and KIF's `持ち時間` header (`10分+30秒`).

/// The clock settings of a recorded game, in milliseconds (what the server plays with).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecordClock {
    /// Each side's main time.
    pub main_ms: u64,
    /// Fischer increment per move.
    pub increment_ms: u64,
    /// One byo-yomi period (0: none).
    pub byoyomi_ms: u64,
    /// Number of byo-yomi periods.
    pub periods: u32,
    /// A correspondence clock: days per move (the other fields are then unused).
    pub days: Option<u32>,
}

/// Seconds as PGN writes them: whole seconds plainly, fractions with up to three decimals.
fn seconds(ms: u64) -> String {
    if ms % 1000 == 0 {
        (ms / 1000).to_string()
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        text.trim_end_matches('0').to_owned()
    }
}

/// A duration the way KIF headers write it: `1時間30分`, `10分`, `30秒`, `1分30秒`.
fn japanese_duration(ms: u64) -> String {
    let total = ms / 1000;
    let (h, m, s) = (total / 3600, total / 60 % 60, total % 60);
    let mut out = String::new();
    if h > 0 {
        out.push_str(&format!("{h}時間"));
    }
    if m > 0 {
        out.push_str(&format!("{m}分"));
    }
    if s > 0 || out.is_empty() {
        out.push_str(&format!("{s}秒"));
    }
    out
}

impl RecordClock {
    /// PGN's `TimeControl` value (PGN standard, section 9.6): `main+increment` in seconds
    /// (`600+5`, `600` for sudden death), `-` for a game without a clock. Byo-yomi, which
    /// the standard cannot say, is left out here; see [`RecordClock::pgn_byoyomi`]. A
    /// correspondence clock of N days per move is the standard's moves/seconds form, one move
    /// in N days: `1/259200` for 3 days.
    pub fn pgn(clock: Option<&RecordClock>) -> String {
        match clock {
            None => "-".to_owned(),
            Some(RecordClock {
                days: Some(days), ..
            }) => format!("1/{}", u64::from(*days) * 86_400),
            Some(c) if c.increment_ms > 0 => {
                format!("{}+{}", seconds(c.main_ms), seconds(c.increment_ms))
            }
            Some(c) => seconds(c.main_ms),
        }
    }

    /// The byo-yomi in seconds and periods (`30x3`, `30` for one period), for a separate
    /// tag, or `None` without byo-yomi.
    pub fn pgn_byoyomi(&self) -> Option<String> {
        (self.byoyomi_ms > 0 && self.days.is_none()).then(|| match self.periods {
            0 | 1 => seconds(self.byoyomi_ms),
            n => format!("{}x{n}", seconds(self.byoyomi_ms)),
        })
    }

    /// KIF's `持ち時間` value as desktop programs and game sites write it: the main time,
    /// `+30秒` for a byo-yomi (`(3回)` with several periods), `(1手5秒加算)` for an increment:
    /// `10分+30秒`, `1時間`, `0秒+30秒`, `10分(1手5秒加算)`; a correspondence clock is its
    /// days per move, `1手3日`.
    pub fn kif(&self) -> String {
        if let Some(days) = self.days {
            return format!("1手{days}日");
        }
        let mut out = japanese_duration(self.main_ms);
        if self.byoyomi_ms > 0 {
            out.push('+');
            out.push_str(&japanese_duration(self.byoyomi_ms));
            if self.periods > 1 {
                out.push_str(&format!("({}回)", self.periods));
            }
        }
        if self.increment_ms > 0 {
            out.push_str(&format!(
                "(1手{}加算)",
                japanese_duration(self.increment_ms)
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(main: u64, inc: u64, byo: u64, periods: u32) -> RecordClock {
        RecordClock {
            main_ms: main,
            increment_ms: inc,
            byoyomi_ms: byo,
            periods,
            days: None,
        }
    }

    #[test]
    fn pgn_time_control_is_seconds_plus_increment_or_dash() {
        assert_eq!(RecordClock::pgn(None), "-");
        let cases = [
            (clock(600_000, 5_000, 0, 0), "600+5"),
            (clock(600_000, 0, 0, 0), "600"),
            (clock(30_000, 500, 0, 0), "30+0.5"),
            (clock(5_400_000, 30_000, 0, 0), "5400+30"),
            (clock(0, 0, 30_000, 1), "0"),
        ];
        for (c, want) in cases {
            assert_eq!(RecordClock::pgn(Some(&c)), want, "{c:?}");
            // The main part and increment read back as the seconds they stand for.
            let (main, inc) = want.split_once('+').unwrap_or((want, "0"));
            assert_eq!((main.parse::<f64>().unwrap() * 1000.0) as u64, c.main_ms);
            assert_eq!(
                (inc.parse::<f64>().unwrap() * 1000.0) as u64,
                c.increment_ms
            );
        }
        assert_eq!(
            clock(0, 0, 30_000, 3).pgn_byoyomi().as_deref(),
            Some("30x3")
        );
        assert_eq!(clock(60_000, 0, 0, 0).pgn_byoyomi(), None);
        let correspondence = RecordClock {
            days: Some(3),
            ..clock(0, 0, 259_200_000, 1)
        };
        assert_eq!(RecordClock::pgn(Some(&correspondence)), "1/259200");
        assert_eq!(correspondence.pgn_byoyomi(), None);
        assert_eq!(correspondence.kif(), "1手3日");
    }

    #[test]
    fn kif_time_control_uses_the_japanese_units() {
        assert_eq!(clock(600_000, 0, 30_000, 1).kif(), "10分+30秒");
        assert_eq!(clock(3_600_000, 0, 60_000, 1).kif(), "1時間+1分");
        assert_eq!(clock(5_400_000, 0, 0, 0).kif(), "1時間30分");
        assert_eq!(clock(0, 0, 30_000, 3).kif(), "0秒+30秒(3回)");
        assert_eq!(clock(600_000, 5_000, 0, 0).kif(), "10分(1手5秒加算)");
        assert_eq!(clock(90_000, 0, 0, 0).kif(), "1分30秒");
    }
}
