//! Tournaments: arenas and Swiss tournaments between players with keys. The store keeps the
//! tournaments, who joined, and which game belongs to which tournament; standings and the next
//! pairings are never stored but derived from the stored games (their results read from the
//! games table) by the pure `jiang-tournament` crate, so a restart loses no point and pairs
//! nobody twice.
//!
//! Rooms: `handlers` (the `/api/tournaments` endpoints), `runner` (the pairing loop: starts
//! tournaments, pairs, notices games' ends, finishes), `schedule` (the tournaments the server
//! holds by itself), `socket` (the tournament WebSocket), `hub` (what the sockets are told).
//! The [`Hub`] carries changes from the handlers and the loop to the sockets.
//!
//! May use: `store`, `players` (who a request is, names and ratings), `game` (a new game's
//! rows, waking its actor), `table`, `clock`, `seat`, `error`, `http::state` and
//! `http::extract`/`http::ws` (handlers and socket).

pub(crate) mod handlers;
mod hub;
mod pages;
pub(crate) mod runner;
pub mod schedule;
pub(crate) mod socket;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use jiang_protocol::{
    MyTournamentGame, SheetMark, TimeControlSpec, TournamentBye, TournamentGame, TournamentKind,
    TournamentStanding, TournamentState, TournamentStatus, TournamentSummary,
};
use jiang_rules::{Side, Variant};
use jiang_tournament::{
    ArenaGame, GameResult, PlayerId, SheetOutcome, SwissGame, SwissPlayer, SwissRound,
    arena_standings, swiss_standings,
};

use crate::store::{Backend, EntryRow, StoreError, TournamentGameRow, TournamentRow};

/// How the pairing loop runs.
#[derive(Clone, Debug)]
pub struct TournamentSettings {
    /// How often the loop looks at the running tournaments (and at once after a join).
    pub tick: Duration,
    /// Arena: pairing waits until someone has waited this long, then pairs everyone waiting,
    /// so that players who finish at about the same time meet new opponents.
    pub arena_pair_wait: Duration,
    /// The tournaments the server holds by itself (`--schedule`).
    pub schedule: Vec<schedule::Schedule>,
}

impl Default for TournamentSettings {
    fn default() -> Self {
        TournamentSettings {
            tick: Duration::from_millis(500),
            arena_pair_wait: Duration::from_secs(2),
            schedule: Vec::new(),
        }
    }
}

pub(crate) use hub::{Event, Hub};
pub(crate) use pages::Standings;

/// A tournament with everything its standings are derived from.
pub(crate) struct Loaded {
    pub row: TournamentRow,
    pub kind: TournamentKind,
    pub status: TournamentStatus,
    pub variant: Variant,
    pub clock: TimeControlSpec,
    pub entries: Vec<EntryRow>,
    pub games: Vec<TournamentGameRow>,
    pub byes: Vec<(i64, String)>,
}

/// Reads tournament `id` and its entries, games and byes (`None`: no such tournament; a row
/// that does not read is an error).
pub(crate) async fn load(backend: &dyn Backend, id: &str) -> Result<Option<Loaded>, StoreError> {
    let Some((row, entries, games, byes)) = backend.tournament_snapshot(id).await? else {
        return Ok(None);
    };
    Ok(loaded(row, entries, games, byes))
}

fn loaded(
    row: TournamentRow,
    entries: Vec<EntryRow>,
    games: Vec<TournamentGameRow>,
    byes: Vec<(i64, String)>,
) -> Option<Loaded> {
    let kind = parse_kind(&row.kind)?;
    let status = parse_status(&row.status)?;
    let variant = row.variant.parse().ok()?;
    let clock = serde_json::from_str(&row.clock).ok()?;
    Some(Loaded {
        row,
        kind,
        status,
        variant,
        clock,
        entries,
        games,
        byes,
    })
}

pub(crate) fn parse_kind(kind: &str) -> Option<TournamentKind> {
    match kind {
        "arena" => Some(TournamentKind::Arena),
        "swiss" => Some(TournamentKind::Swiss),
        _ => None,
    }
}

pub(crate) fn kind_name(kind: TournamentKind) -> &'static str {
    match kind {
        TournamentKind::Arena => "arena",
        TournamentKind::Swiss => "swiss",
    }
}

pub(crate) fn parse_status(status: &str) -> Option<TournamentStatus> {
    match status {
        "upcoming" => Some(TournamentStatus::Upcoming),
        "running" => Some(TournamentStatus::Running),
        "finished" => Some(TournamentStatus::Finished),
        _ => None,
    }
}

pub(crate) fn status_name(status: TournamentStatus) -> &'static str {
    match status {
        TournamentStatus::Upcoming => "upcoming",
        TournamentStatus::Running => "running",
        TournamentStatus::Finished => "finished",
    }
}

/// How a tournament game stands: `None` while it is played, else its result for the
/// tournament (an aborted game, or a stored result that does not read, is `Aborted`).
pub(crate) fn result_of(game: &TournamentGameRow) -> Option<GameResult> {
    match game.status.as_str() {
        "ended" => {
            let value: serde_json::Value = game
                .result
                .as_deref()
                .and_then(|r| serde_json::from_str(r).ok())
                .unwrap_or_default();
            Some(
                match value.get("winner").and_then(serde_json::Value::as_i64) {
                    Some(0) => GameResult::FirstWins,
                    Some(1) => GameResult::SecondWins,
                    Some(_) => GameResult::Aborted,
                    None if value.is_object() => GameResult::Draw,
                    None => GameResult::Aborted,
                },
            )
        }
        "aborted" => Some(GameResult::Aborted),
        _ => None,
    }
}

/// When a finished game ended, for the arena's order: when the loop saw it end, else the
/// game's last change.
fn ended_ms(game: &TournamentGameRow) -> u64 {
    u64::try_from(game.ended_at.unwrap_or(game.updated_at)).unwrap_or(0)
}

/// An arena's finished games as the tournament core counts them.
pub(crate) fn arena_games(games: &[TournamentGameRow]) -> Vec<ArenaGame> {
    games
        .iter()
        .filter_map(|g| {
            Some(ArenaGame {
                id: g.game_id.clone(),
                finished_at_ms: ended_ms(g),
                first: PlayerId::new(&g.first_player),
                second: PlayerId::new(&g.second_player),
                result: result_of(g)?,
                first_berserked: g.berserk_first != 0,
                second_berserked: g.berserk_second != 0,
                plies: u32::try_from(g.plies).unwrap_or(u32::MAX),
            })
        })
        .collect()
}

/// The Swiss rounds `1..=upto` as the tournament core counts them: finished games and byes.
pub(crate) fn swiss_rounds(loaded: &Loaded, upto: u32) -> Vec<SwissRound> {
    (1..=i64::from(upto))
        .map(|round| SwissRound {
            games: loaded
                .games
                .iter()
                .filter(|g| g.round == Some(round))
                .filter_map(|g| {
                    Some(SwissGame {
                        first: PlayerId::new(&g.first_player),
                        second: PlayerId::new(&g.second_player),
                        result: result_of(g)?,
                    })
                })
                .collect(),
            bye: loaded
                .byes
                .iter()
                .find(|(r, _)| *r == round)
                .map(|(_, p)| PlayerId::new(p)),
        })
        .collect()
}

/// A Swiss's current round: the highest round with a game or a bye (0 before the first).
pub(crate) fn current_round(loaded: &Loaded) -> u32 {
    let games = loaded.games.iter().filter_map(|g| g.round);
    let byes = loaded.byes.iter().map(|(r, _)| *r);
    games
        .chain(byes)
        .max()
        .map_or(0, |r| u32::try_from(r).unwrap_or(0))
}

/// Milliseconds as RFC 3339 UTC, to the second (`2026-12-24T18:00:00Z`).
pub(crate) fn rfc3339(ms: i64) -> String {
    let (y, mo, d, h, mi, s) = jiang_rules::utc_civil(ms);
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
}

/// Days since 1970-01-01 of a civil date (the inverse of the rules crate's `utc_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// An RFC 3339 date-time (`2026-12-24T18:00:00Z`, `…T19:00:00.5+01:00`) as milliseconds since
/// the Unix epoch; `None` if it is not one.
pub(crate) fn parse_rfc3339(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let part = text.get(from..from + len)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let (y, mo, d) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
    let (h, mi, s) = (num(11, 2)?, num(14, 2)?, num(17, 2)?);
    let days_in_month = match mo {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        _ => return None,
    };
    if d < 1 || d > days_in_month || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    let mut at = 19;
    let mut millis = 0;
    if b[at] == b'.' {
        let digits = text[at + 1..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        if digits == 0 {
            return None;
        }
        let frac = &text[at + 1..at + 1 + digits];
        millis = format!("{:0<3}", &frac[..digits.min(3)]).parse().ok()?;
        at += 1 + digits;
    }
    let offset = match &text[at..] {
        "Z" | "z" => 0,
        rest if rest.len() == 6 && (rest.starts_with('+') || rest.starts_with('-')) => {
            if rest.as_bytes()[3] != b':' {
                return None;
            }
            let (oh, om) = (num(at + 1, 2)?, num(at + 4, 2)?);
            if oh > 23 || om > 59 {
                return None;
            }
            let minutes = oh * 60 + om;
            if rest.starts_with('-') {
                -minutes
            } else {
                minutes
            }
        }
        _ => return None,
    };
    let secs = days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s.min(59) - offset * 60;
    Some(secs * 1000 + millis)
}

/// The summary of a tournament.
pub(crate) fn summary(loaded: &Loaded) -> TournamentSummary {
    let row = &loaded.row;
    let ends_at = row
        .minutes
        .filter(|_| loaded.kind == TournamentKind::Arena)
        .map(|m| rfc3339(row.starts_at + m * 60_000));
    TournamentSummary {
        id: row.id.clone(),
        kind: loaded.kind,
        variant: loaded.variant.name().to_owned(),
        clock: loaded.clock,
        minutes: row.minutes.and_then(|m| u32::try_from(m).ok()),
        rounds: row.rounds.and_then(|r| u32::try_from(r).ok()),
        starts_at: rfc3339(row.starts_at),
        ends_at,
        finished_at: row.finished_at.map(rfc3339),
        rated: row.rated != 0,
        status: loaded.status,
        created_by: row.created_by.clone(),
        scheduled: row.created_by == schedule::SCHEDULER,
        players: loaded.entries.iter().filter(|e| e.withdrawn == 0).count() as u32,
    }
}

fn outcome_name(outcome: SheetOutcome) -> &'static str {
    match outcome {
        SheetOutcome::Win => "win",
        SheetOutcome::Draw => "draw",
        SheetOutcome::Loss => "loss",
    }
}

/// The tournament's state: summary, standings (derived from the games), games, byes. `names`
/// gives players' names by id.
pub(crate) fn state_of(
    loaded: &Loaded,
    names: &HashMap<String, Option<String>>,
) -> TournamentState {
    let withdrawn: HashSet<&str> = loaded
        .entries
        .iter()
        .filter(|e| e.withdrawn != 0)
        .map(|e| e.player_id.as_str())
        .collect();
    let name = |id: &str| names.get(id).cloned().flatten();
    let players: Vec<PlayerId> = loaded
        .entries
        .iter()
        .map(|e| PlayerId::new(&e.player_id))
        .collect();
    let (standings, round) = match loaded.kind {
        TournamentKind::Arena => {
            let games = arena_games(&loaded.games);
            let standings = arena_standings(&players, &games)
                .into_iter()
                .map(|s| TournamentStanding {
                    name: name(&s.player.0),
                    withdrawn: withdrawn.contains(s.player.0.as_str()),
                    id: s.player.0,
                    rank: s.rank,
                    score: f64::from(s.score),
                    games: s.games,
                    wins: s.wins,
                    draws: s.draws,
                    losses: s.losses,
                    on_fire: Some(s.on_fire),
                    buchholz: None,
                    sonneborn_berger: None,
                    sheet: s
                        .sheet
                        .into_iter()
                        .map(|e| SheetMark {
                            game: Some(e.game_id),
                            outcome: outcome_name(e.outcome).to_owned(),
                            points: e.points,
                            on_fire: e.on_fire,
                        })
                        .collect(),
                })
                .collect();
            (standings, None)
        }
        TournamentKind::Swiss => {
            let round = current_round(loaded);
            let swiss_players: Vec<SwissPlayer> = players
                .iter()
                .map(|id| SwissPlayer {
                    id: id.clone(),
                    rating: 0,
                })
                .collect();
            let rounds = swiss_rounds(loaded, round);
            let standings = swiss_standings(&swiss_players, &rounds)
                .into_iter()
                .map(|s| TournamentStanding {
                    name: name(&s.player.0),
                    withdrawn: withdrawn.contains(s.player.0.as_str()),
                    rank: s.rank,
                    score: s.score(),
                    games: s.games,
                    wins: s.wins,
                    draws: s.draws,
                    losses: s.losses,
                    on_fire: None,
                    buchholz: Some(s.buchholz()),
                    sonneborn_berger: Some(s.sonneborn_berger()),
                    sheet: swiss_sheet(loaded, &s.player.0),
                    id: s.player.0,
                })
                .collect();
            (standings, Some(round))
        }
    };
    let games = loaded
        .games
        .iter()
        .map(|g| TournamentGame {
            id: g.game_id.clone(),
            round: g.round.and_then(|r| u32::try_from(r).ok()),
            first: g.first_player.clone(),
            second: g.second_player.clone(),
            result: match result_of(g) {
                None => "playing",
                Some(GameResult::FirstWins) => "first",
                Some(GameResult::SecondWins) => "second",
                Some(GameResult::Draw) => "draw",
                Some(GameResult::Aborted) => "aborted",
            }
            .to_owned(),
        })
        .collect();
    let byes = loaded
        .byes
        .iter()
        .map(|(round, player)| TournamentBye {
            round: u32::try_from(*round).unwrap_or(0),
            player: player.clone(),
        })
        .collect();
    TournamentState {
        tournament: summary(loaded),
        round,
        standings,
        games,
        byes,
    }
}

/// A Swiss player's record by round: each finished game (2 half points a win, 1 a draw) and
/// the bye (2).
fn swiss_sheet(loaded: &Loaded, player: &str) -> Vec<SheetMark> {
    let mut marks: Vec<(i64, SheetMark)> = Vec::new();
    for g in &loaded.games {
        let seat = if g.first_player == player {
            0
        } else if g.second_player == player {
            1
        } else {
            continue;
        };
        let Some(result) = result_of(g) else { continue };
        let (outcome, points) = match (result, seat) {
            (GameResult::Aborted, _) => ("aborted", 0),
            (GameResult::Draw, _) => ("draw", 1),
            (GameResult::FirstWins, 0) | (GameResult::SecondWins, 1) => ("win", 2),
            _ => ("loss", 0),
        };
        marks.push((
            g.round.unwrap_or(0),
            SheetMark {
                game: Some(g.game_id.clone()),
                outcome: outcome.to_owned(),
                points,
                on_fire: false,
            },
        ));
    }
    for (round, p) in &loaded.byes {
        if p == player {
            marks.push((
                *round,
                SheetMark {
                    game: None,
                    outcome: "bye".to_owned(),
                    points: 2,
                    on_fire: false,
                },
            ));
        }
    }
    marks.sort_by_key(|(round, _)| *round);
    marks.into_iter().map(|(_, m)| m).collect()
}

/// `player`'s game in progress in the tournament, with its seat and token.
pub(crate) fn my_game(loaded: &Loaded, player: &str) -> Option<MyTournamentGame> {
    loaded
        .games
        .iter()
        .rev()
        .filter(|g| result_of(g).is_none())
        .find_map(|g| game_for(loaded.variant, g, player))
}

/// `player`'s seat in tournament game `g`, if they hold one.
pub(crate) fn game_for(
    variant: Variant,
    g: &TournamentGameRow,
    player: &str,
) -> Option<MyTournamentGame> {
    let (side, token) = if g.first_player == player {
        (Side::First, &g.token_first)
    } else if g.second_player == player {
        (Side::Second, &g.token_second)
    } else {
        return None;
    };
    Some(MyTournamentGame {
        id: g.game_id.clone(),
        side: variant.side_name(side).to_owned(),
        token: token.clone(),
    })
}

/// The names of everyone who joined (a player deleted meanwhile has none), read with the
/// entries.
pub(crate) fn names(loaded: &Loaded) -> HashMap<String, Option<String>> {
    loaded
        .entries
        .iter()
        .map(|e| (e.player_id.clone(), e.name.clone()))
        .collect()
}

/// The standings of tournament `id` as its sockets page them (`None`: no such tournament),
/// and what they were derived from.
pub(crate) async fn standings_of(
    backend: &dyn Backend,
    id: &str,
) -> Result<Option<(Arc<Standings>, Loaded)>, StoreError> {
    let Some(loaded) = load(backend, id).await? else {
        return Ok(None);
    };
    let names = names(&loaded);
    Ok(Some((Standings::new(state_of(&loaded, &names)), loaded)))
}

/// Sends tournament `id`'s state to its sockets, if any watch it.
///
/// Throttled by size: a tournament's standings cost its sockets at most
/// [`hub::STANDINGS_BYTES_PER_SECOND`] (a page to each socket; a large arena's, with a thousand
/// sockets, are sent less often than a small one's, which go out at every change); what is
/// held back is marked and sent by the pairing loop once its time has come
/// ([`Hub::standings_due`]).
pub(crate) async fn publish_standings(hub: &Hub, backend: &dyn Backend, id: &str) {
    if !hub.watched(id) || hub.hold_standings(id) {
        return;
    }
    match standings_of(backend, id).await {
        Ok(Some((standings, _))) => {
            // The first page stands for all: pages are cut to the same number of lines.
            hub.standings_sent(id, standings.page(1).len(), standings.pages());
            hub.publish(id, Event::Standings(standings));
        }
        Ok(None) => {}
        Err(e) => tracing::warn!(tournament = %id, error = %e, "cannot read a tournament"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(status: &str, result: Option<&str>) -> TournamentGameRow {
        TournamentGameRow {
            game_id: "g".into(),
            round: None,
            first_player: "a".into(),
            second_player: "b".into(),
            token_first: "t1".into(),
            token_second: "t2".into(),
            berserk_first: 0,
            berserk_second: 0,
            created_at: 1,
            ended_at: None,
            status: status.into(),
            result: result.map(str::to_owned),
            updated_at: 2,
            plies: 0,
        }
    }

    #[test]
    fn stored_results_read_as_tournament_results() {
        let win = |w| format!(r#"{{"winner":{w},"reason":"resignation"}}"#);
        assert_eq!(result_of(&game("playing", None)), None);
        assert_eq!(result_of(&game("waiting", None)), None);
        assert_eq!(
            result_of(&game("ended", Some(&win(0)))),
            Some(GameResult::FirstWins)
        );
        assert_eq!(
            result_of(&game("ended", Some(&win(1)))),
            Some(GameResult::SecondWins)
        );
        assert_eq!(
            result_of(&game(
                "ended",
                Some(r#"{"winner":null,"reason":"stalemate"}"#)
            )),
            Some(GameResult::Draw)
        );
        assert_eq!(result_of(&game("aborted", None)), Some(GameResult::Aborted));
        // A result that does not read counts for nothing rather than for someone.
        assert_eq!(
            result_of(&game("ended", Some("not json"))),
            Some(GameResult::Aborted)
        );
        let mine = game_for(Variant::Shogi, &game("playing", None), "b").unwrap();
        assert_eq!((mine.side.as_str(), mine.token.as_str()), ("gote", "t2"));
        assert!(game_for(Variant::Shogi, &game("playing", None), "c").is_none());
    }

    #[test]
    fn rfc3339_round_trips() {
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_rfc3339("2026-12-24T18:00:00Z")
                .map(rfc3339)
                .as_deref(),
            Some("2026-12-24T18:00:00Z")
        );
        assert_eq!(
            parse_rfc3339("2026-12-24T19:00:00.5+01:00"),
            parse_rfc3339("2026-12-24T18:00:00Z").map(|ms| ms + 500)
        );
        assert_eq!(parse_rfc3339("2000-02-29T12:34:56Z"), Some(951_827_696_000));
        for bad in [
            "",
            "tomorrow",
            "2026-13-01T00:00:00Z",
            "2026-02-30T00:00:00Z",
            "2026-12-24T18:00:00",
            "2026-12-24T18:00:00+0100",
            "2026-12-24T25:00:00Z",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }
}
