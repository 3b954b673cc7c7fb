//! Calendar dates for records' date headers (PGN `Date`, KIF `開始日時`, CSA `$START_TIME`).

/// Milliseconds since the Unix epoch as `(year, month, day, hour, minute, second)` in UTC, by
/// Howard Hinnant's days-to-civil conversion of the proleptic Gregorian calendar.
pub fn utc_civil(unix_ms: i64) -> (i64, u32, u32, u32, u32, u32) {
    let secs = unix_ms.div_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400) as u32;
    // Days since 0000-03-01, in 400-year eras of 146,097 days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day, rem / 3600, rem / 60 % 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::utc_civil;

    #[test]
    fn dates_are_civil() {
        assert_eq!(utc_civil(0), (1970, 1, 1, 0, 0, 0));
        // Before the epoch: the last second of 1969.
        assert_eq!(utc_civil(-1), (1969, 12, 31, 23, 59, 59));
        // 2000-02-29 12:34:56 UTC (a leap day of a century leap year).
        assert_eq!(utc_civil(951_827_696_000), (2000, 2, 29, 12, 34, 56));
        // 2026-11-29 11:45:50 UTC.
        assert_eq!(utc_civil(1_795_952_750_000), (2026, 11, 29, 11, 45, 50));
        // 2026-12-01 08:17:02 UTC.
        assert_eq!(utc_civil(1_796_113_022_000), (2026, 12, 1, 8, 17, 2));
    }
}
