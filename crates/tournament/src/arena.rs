//! Arena tournaments, lichess style: a fixed duration, players join and withdraw at will, and a
//! player who finishes a game waits to be paired again at once.
//!
//! # Scoring
//!
//! A player's games are taken in the order they finished (`finished_at_ms`, then `id`). Aborted
//! games are skipped entirely: no points, not a game played, no effect on a streak.
//!
//! - A **win** scores 2, a **draw** 1, a **loss** 0.
//! - **Streak ("on fire")**: a player is on fire for a game when their two previous counted
//!   games were both wins. While on fire a win scores 4 and a draw scores 2 (double points).
//!   Any game that is not a win (draw or loss) ends the streak: the next game is played off fire,
//!   and two new wins in a row are needed to catch fire again. So the sequence
//!   W W W W D W W W L reads 2 2 4 4 2 2 2 4 0.
//! - **Berserk**: a player who berserked (gave up half their clock) and then wins gets one extra
//!   point, on top of a doubled win (so 3 off fire, 5 on fire), but only if the game lasted at
//!   least [`MIN_PLIES_FOR_BERSERK_BONUS`] plies. Berserking a draw or a loss gives nothing.
//! - **Quick draws**: a draw in fewer than [`MIN_PLIES_FOR_DRAW_POINTS`] plies scores 0 (lichess
//!   does the same against arranged draws); it still counts as a game and still ends a streak.
//!
//! # Standings
//!
//! Players are ranked by score (higher first), then by games played (fewer first: the same
//! score in fewer games was more efficient), then by wins (more first). Players equal on all
//! three share a rank (1, 2, 2, 4); their order in the list is by player id so it is stable.
//! Lichess breaks ties by performance rating; the tournament core has no ratings of finished
//! games, so it uses the rule above instead.
//!
//! # Pairing
//!
//! See [`arena_pairings`].

use crate::{GameResult, Pair, PlayerId, Seat};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// The fewest plies a game must last for a berserked win to earn its extra point: 14 plies is
/// 7 moves by each player, lichess's "at least 7 moves" rule.
pub const MIN_PLIES_FOR_BERSERK_BONUS: u32 = 14;

/// The fewest plies a draw must last to score: a draw in fewer plies (an arranged draw, most
/// likely) scores 0. 20 plies is 10 moves by each player, as on lichess.
pub const MIN_PLIES_FOR_DRAW_POINTS: u32 = 20;

/// One finished (or aborted) arena game, as stored: everything the scoring and the pairing need.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaGame {
    /// The game's id; orders games that finished in the same millisecond.
    pub id: String,
    /// When the game ended, in milliseconds on any clock the caller keeps consistent.
    pub finished_at_ms: u64,
    /// The player in the first seat.
    pub first: PlayerId,
    /// The player in the second seat.
    pub second: PlayerId,
    /// How the game ended.
    pub result: GameResult,
    /// Whether the first seat's player berserked.
    pub first_berserked: bool,
    /// Whether the second seat's player berserked.
    pub second_berserked: bool,
    /// Plies (half-moves) played in the game.
    pub plies: u32,
}

impl ArenaGame {
    /// The player in `seat`.
    fn player(&self, seat: Seat) -> &PlayerId {
        match seat {
            Seat::First => &self.first,
            Seat::Second => &self.second,
        }
    }

    /// Whether the player in `seat` berserked.
    fn berserked(&self, seat: Seat) -> bool {
        match seat {
            Seat::First => self.first_berserked,
            Seat::Second => self.second_berserked,
        }
    }

    /// Whether the game counts (aborted games and games against oneself do not).
    fn counts(&self) -> bool {
        self.result != GameResult::Aborted && self.first != self.second
    }
}

/// How a counted game went for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SheetOutcome {
    /// The player won.
    Win,
    /// The game was drawn.
    Draw,
    /// The player lost.
    Loss,
}

/// One game on a player's score sheet, so the page can show "2 4 4 0 1" with fire and berserk
/// marks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SheetEntry {
    /// The game's id.
    pub game_id: String,
    /// The opponent in that game.
    pub opponent: PlayerId,
    /// How the game went for this player.
    pub outcome: SheetOutcome,
    /// Points earned by the game, streak doubling and berserk bonus included.
    pub points: u32,
    /// Whether the player was on fire (points doubled) for this game.
    pub on_fire: bool,
    /// Whether the game earned the berserk bonus point.
    pub berserk_bonus: bool,
}

/// One line of an arena's standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaStanding {
    /// The player.
    pub player: PlayerId,
    /// The rank, from 1; players tied on score, games and wins share it.
    pub rank: u32,
    /// Total points.
    pub score: u32,
    /// Counted games (aborted games excluded).
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Whether the player's next game would be played on fire (their last two games were wins).
    pub on_fire: bool,
    /// The player's games in the order they finished.
    pub sheet: Vec<SheetEntry>,
}

/// The games in scoring order: by `finished_at_ms`, then by `id`.
fn ordered(games: &[ArenaGame]) -> Vec<&ArenaGame> {
    let mut order: Vec<&ArenaGame> = games.iter().collect();
    order.sort_by(|a, b| (a.finished_at_ms, &a.id).cmp(&(b.finished_at_ms, &b.id)));
    order
}

/// The points a counted game earns the player in `seat`: how it went, the points, and whether
/// the berserk bonus was earned. The one place the scoring rules live.
fn game_points(on_fire: bool, game: &ArenaGame, seat: Seat) -> (SheetOutcome, u32, bool) {
    let factor = if on_fire { 2 } else { 1 };
    let (outcome, mut points) = match game.result.won_by(seat) {
        Some(true) => (SheetOutcome::Win, 2 * factor),
        Some(false) => (SheetOutcome::Loss, 0),
        None if game.plies < MIN_PLIES_FOR_DRAW_POINTS => (SheetOutcome::Draw, 0),
        None => (SheetOutcome::Draw, factor),
    };
    let berserk_bonus = outcome == SheetOutcome::Win
        && game.berserked(seat)
        && game.plies >= MIN_PLIES_FOR_BERSERK_BONUS;
    if berserk_bonus {
        points += 1;
    }
    (outcome, points, berserk_bonus)
}

/// The running state of one player while games are scored in order.
#[derive(Default)]
struct Tally {
    score: u32,
    games: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    /// Consecutive wins ending with the last counted game.
    streak: u32,
    sheet: Vec<SheetEntry>,
}

impl Tally {
    /// Scores one counted game for the player in `seat` and returns its sheet entry.
    fn score(&mut self, game: &ArenaGame, seat: Seat) -> SheetEntry {
        let on_fire = self.streak >= 2;
        let (outcome, points, berserk_bonus) = game_points(on_fire, game, seat);
        self.score += points;
        self.games += 1;
        match outcome {
            SheetOutcome::Win => {
                self.wins += 1;
                self.streak += 1;
            }
            SheetOutcome::Draw => {
                self.draws += 1;
                self.streak = 0;
            }
            SheetOutcome::Loss => {
                self.losses += 1;
                self.streak = 0;
            }
        }
        SheetEntry {
            game_id: game.id.clone(),
            opponent: game.player(seat.other()).clone(),
            outcome,
            points,
            on_fire,
            berserk_bonus,
        }
    }
}

/// The standings of an arena, derived from its games alone (plus the players who joined, so
/// that those who have not played yet appear with 0).
///
/// `players` is everyone who joined (order and duplicates do not matter); players found only in
/// `games` are included too (even if their only games were aborted). Games are scored in the order they finished, whatever the order of
/// the slice. Games against oneself are ignored like aborted games. The result is sorted by
/// rank (see the module doc for the rules).
pub fn arena_standings(players: &[PlayerId], games: &[ArenaGame]) -> Vec<ArenaStanding> {
    let mut tallies: HashMap<&PlayerId, Tally> = HashMap::new();
    for player in players {
        tallies.entry(player).or_default();
    }
    for game in ordered(games) {
        if !game.counts() {
            // Still list the players: they took part in the arena.
            tallies.entry(&game.first).or_default();
            tallies.entry(&game.second).or_default();
            continue;
        }
        for seat in [Seat::First, Seat::Second] {
            let tally = tallies.entry(game.player(seat)).or_default();
            let entry = tally.score(game, seat);
            tally.sheet.push(entry);
        }
    }
    let mut standings: Vec<ArenaStanding> = tallies
        .into_iter()
        .map(|(player, t)| ArenaStanding {
            player: player.clone(),
            rank: 0,
            score: t.score,
            games: t.games,
            wins: t.wins,
            draws: t.draws,
            losses: t.losses,
            on_fire: t.streak >= 2,
            sheet: t.sheet,
        })
        .collect();
    let key = |s: &ArenaStanding| {
        (
            std::cmp::Reverse(s.score),
            s.games,
            std::cmp::Reverse(s.wins),
        )
    };
    standings.sort_by(|a, b| key(a).cmp(&key(b)).then_with(|| a.player.cmp(&b.player)));
    for i in 0..standings.len() {
        standings[i].rank = if i > 0 && key(&standings[i]) == key(&standings[i - 1]) {
            standings[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    standings
}

/// A player waiting in an arena for their next game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Waiting {
    /// The player.
    pub player: PlayerId,
    /// The player's rating in the tournament's variant and speed (any scale; only its order
    /// matters).
    pub rating: i32,
    /// When the player started waiting, in milliseconds on the same clock as the games.
    pub waiting_since_ms: u64,
}

/// What pairing needs to know of one player's past games.
#[derive(Default)]
struct PairingInfo<'a> {
    score: u32,
    streak: u32,
    firsts: u32,
    seconds: u32,
    last_seat: Option<Seat>,
    last_opponent: Option<&'a PlayerId>,
}

/// Pairs the players waiting for a game in an arena.
///
/// The algorithm, deterministic (no randomness):
///
/// 1. Scores, seat counts and each player's last opponent are derived from `history` (the
///    arena's games so far, in any order; aborted games count for "last opponent" and seats but
///    not for score). Duplicate entries in `waiting` are ignored after the first.
/// 2. The waiting players are sorted by score (higher first), then rating (higher first), then
///    id, so that players of similar standing are next to each other.
/// 3. With an odd number waiting, the player who started waiting last (ties: the one sorted
///    last) stays waiting for the next call. A single waiting player always stays waiting.
/// 4. Greedily from the top, each unpaired player is paired with the nearest unpaired player
///    below them who is not a *rematch*: two players are a rematch when either one's most
///    recent game was against the other. If that leaves a rematch (everyone left below a player
///    was one), the pairing is made again exactly: from the top, each player takes the nearest
///    player below such that all the others can still be paired without a rematch (decided
///    with a maximum matching, Edmonds' blossom algorithm). Only if no pairing without a
///    rematch exists at all is the greedy pairing with its rematch kept (for instance with just
///    two players waiting, who then play again rather than wait forever).
/// 5. Seats: the player who has had the first seat less often (first seats minus second seats)
///    takes it; on a tie, the one whose last game was in the second seat; on a further tie, the
///    one sorted higher.
///
/// The work is O(history · log history + waiting) in practice: 1,000 waiting players with
/// 5,000 games of history pair in about 2 ms in a release build (`examples/bench.rs`).
pub fn arena_pairings(waiting: &[Waiting], history: &[ArenaGame]) -> Vec<Pair> {
    let mut info: HashMap<&PlayerId, PairingInfo<'_>> = HashMap::with_capacity(waiting.len());
    for w in waiting {
        info.entry(&w.player).or_default();
    }
    for game in ordered(history) {
        if game.first == game.second {
            continue;
        }
        for seat in [Seat::First, Seat::Second] {
            let Some(i) = info.get_mut(game.player(seat)) else {
                continue;
            };
            match seat {
                Seat::First => i.firsts += 1,
                Seat::Second => i.seconds += 1,
            }
            i.last_seat = Some(seat);
            i.last_opponent = Some(game.player(seat.other()));
            if game.result == GameResult::Aborted {
                continue;
            }
            // The same points as the standings, without building the sheet.
            let (outcome, points, _) = game_points(i.streak >= 2, game, seat);
            i.score += points;
            i.streak = if outcome == SheetOutcome::Win {
                i.streak + 1
            } else {
                0
            };
        }
    }

    // Deduplicate, then sort by standing.
    let mut seen = std::collections::HashSet::with_capacity(waiting.len());
    let mut order: Vec<&Waiting> = waiting.iter().filter(|w| seen.insert(&w.player)).collect();
    let score = |w: &Waiting| info[&w.player].score;
    order.sort_by(|a, b| {
        score(b)
            .cmp(&score(a))
            .then(b.rating.cmp(&a.rating))
            .then_with(|| a.player.cmp(&b.player))
    });
    if order.len() % 2 == 1 {
        let idle = (0..order.len())
            .rev()
            .max_by_key(|&i| order[i].waiting_since_ms)
            .expect("an odd count is not zero");
        order.remove(idle);
    }
    let n = order.len();
    let rematch = |a: usize, b: usize| {
        info[&order[a].player].last_opponent == Some(&order[b].player)
            || info[&order[b].player].last_opponent == Some(&order[a].player)
    };

    // Greedy: each unpaired player takes the nearest non-rematch below.
    let mut paired = vec![false; n];
    let mut pairs: Vec<(usize, usize)> = Vec::with_capacity(n / 2);
    let mut forced = false; // whether a rematch was made
    for a in 0..n {
        if paired[a] {
            continue;
        }
        paired[a] = true;
        let mut nearest = None;
        let mut choice = None;
        for b in (a + 1..n).filter(|&b| !paired[b]) {
            nearest.get_or_insert(b);
            if !rematch(a, b) {
                choice = Some(b);
                break;
            }
        }
        let b = match (choice, nearest) {
            (Some(b), _) => b,
            (None, Some(b)) => {
                forced = true;
                b
            }
            (None, None) => unreachable!("an even count leaves a partner for everyone"),
        };
        paired[b] = true;
        pairs.push((a, b));
    }

    // A rematch was left: pair again, each player from the top taking the nearest partner
    // below that leaves everyone else a partner without a rematch (exact, with a matching).
    if forced {
        let everyone: Vec<usize> = (0..n).collect();
        let exact = crate::matching::pair_in_order(
            n,
            &everyone,
            |a, b| !rematch(a, b),
            |rest| rest[1..].to_vec(),
        );
        if let Some(exact) = exact {
            pairs = exact;
        }
    }

    pairs.sort_unstable();
    pairs
        .into_iter()
        .map(|(a, b)| {
            let (ia, ib) = (&info[&order[a].player], &info[&order[b].player]);
            let balance = |i: &PairingInfo<'_>| i64::from(i.firsts) - i64::from(i.seconds);
            let a_first = match balance(ia).cmp(&balance(ib)) {
                std::cmp::Ordering::Less => true,
                std::cmp::Ordering::Greater => false,
                std::cmp::Ordering::Equal => {
                    !(ib.last_seat == Some(Seat::Second) && ia.last_seat != Some(Seat::Second))
                }
            };
            let (first, second) = if a_first { (a, b) } else { (b, a) };
            Pair {
                first: order[first].player.clone(),
                second: order[second].player.clone(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> PlayerId {
        PlayerId::new(s)
    }

    /// A game finished at `t` between `a` (first seat) and `b`, long enough for every bonus.
    fn game(t: u64, a: &str, b: &str, result: GameResult) -> ArenaGame {
        ArenaGame {
            id: format!("g{t:05}"),
            finished_at_ms: t,
            first: p(a),
            second: p(b),
            result,
            first_berserked: false,
            second_berserked: false,
            plies: 60,
        }
    }

    fn standing<'a>(s: &'a [ArenaStanding], who: &str) -> &'a ArenaStanding {
        s.iter()
            .find(|s| s.player.0 == who)
            .expect("player in standings")
    }

    fn points(s: &ArenaStanding) -> Vec<u32> {
        s.sheet.iter().map(|e| e.points).collect()
    }

    /// `a` plays a fresh opponent each time with the given results (true = a wins, false = a
    /// loses, None = draw).
    fn series(results: &[Option<bool>]) -> Vec<ArenaGame> {
        results
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let result = match r {
                    Some(true) => GameResult::FirstWins,
                    Some(false) => GameResult::SecondWins,
                    None => GameResult::Draw,
                };
                game(i as u64 * 10, "a", &format!("o{i}"), result)
            })
            .collect()
    }

    #[test]
    fn streak_starts_after_two_wins_and_doubles_later_wins() {
        let s = arena_standings(
            &[],
            &series(&[Some(true), Some(true), Some(true), Some(true)]),
        );
        let a = standing(&s, "a");
        assert_eq!(points(a), [2, 2, 4, 4]);
        assert_eq!(a.score, 12);
        assert_eq!(
            a.sheet.iter().map(|e| e.on_fire).collect::<Vec<_>>(),
            [false, false, true, true]
        );
        assert!(a.on_fire);
        assert_eq!(a.rank, 1);
    }

    #[test]
    fn one_win_is_not_yet_on_fire() {
        let s = arena_standings(&[], &series(&[Some(true)]));
        assert!(!standing(&s, "a").on_fire);
        let s = arena_standings(&[], &series(&[Some(true), Some(true)]));
        assert!(standing(&s, "a").on_fire);
    }

    #[test]
    fn a_draw_on_fire_scores_double_and_ends_the_streak() {
        let games = series(&[
            Some(true),
            Some(true),
            None,
            Some(true),
            Some(true),
            Some(true),
        ]);
        let a = standing(&arena_standings(&[], &games), "a").clone();
        assert_eq!(points(&a), [2, 2, 2, 2, 2, 4]);
        assert_eq!((a.wins, a.draws, a.losses), (5, 1, 0));
        assert!(a.sheet[2].on_fire && a.sheet[2].outcome == SheetOutcome::Draw);
        assert!(!a.sheet[3].on_fire);
    }

    #[test]
    fn a_loss_ends_the_streak() {
        let games = series(&[Some(true), Some(true), Some(true), Some(false), Some(true)]);
        let s = arena_standings(&[], &games);
        let a = standing(&s, "a");
        assert_eq!(points(a), [2, 2, 4, 0, 2]);
        assert!(!a.on_fire);
        // The opponent who won gets a plain 2.
        assert_eq!(points(standing(&s, "o3")), [2]);
    }

    #[test]
    fn the_documented_sequence_reads_as_documented() {
        // W W W W D W W W L -> 2 2 4 4 2 2 2 4 0 (module doc).
        let t = Some(true);
        let games = series(&[t, t, t, t, None, t, t, t, Some(false)]);
        let s = arena_standings(&[], &games);
        assert_eq!(points(standing(&s, "a")), [2, 2, 4, 4, 2, 2, 2, 4, 0]);
    }

    #[test]
    fn berserk_bonus_only_for_a_long_enough_win() {
        let mut games = series(&[Some(true), Some(true), Some(true), Some(false), None]);
        for g in &mut games {
            g.first_berserked = true;
        }
        games[1].plies = MIN_PLIES_FOR_BERSERK_BONUS - 1; // too short: no bonus
        games[2].plies = MIN_PLIES_FOR_BERSERK_BONUS; // just enough, and on fire: 4 + 1
        let s = arena_standings(&[], &games);
        let a = standing(&s, "a");
        assert_eq!(points(a), [3, 2, 5, 0, 1]);
        assert_eq!(
            a.sheet.iter().map(|e| e.berserk_bonus).collect::<Vec<_>>(),
            [true, false, true, false, false]
        );
        // The opponent who berserked nothing and won game 3 gets no bonus.
        assert!(!standing(&s, "o3").sheet[0].berserk_bonus);
    }

    #[test]
    fn aborted_games_count_for_nothing_and_keep_the_streak() {
        let mut games = series(&[Some(true), Some(true), Some(true)]);
        games.insert(1, game(5, "a", "x", GameResult::Aborted));
        let s = arena_standings(&[], &games);
        let a = standing(&s, "a");
        assert_eq!(points(a), [2, 2, 4]);
        assert_eq!(a.games, 3);
        // "x" only took part in an aborted game: listed with nothing.
        let x = standing(&s, "x");
        assert_eq!((x.score, x.games, x.sheet.len()), (0, 0, 0));
    }

    #[test]
    fn quick_draws_score_nothing() {
        let mut g = game(1, "a", "b", GameResult::Draw);
        g.plies = MIN_PLIES_FOR_DRAW_POINTS - 1;
        let s = arena_standings(&[], &[g.clone()]);
        assert_eq!(standing(&s, "a").score, 0);
        assert_eq!(standing(&s, "a").draws, 1);
        g.plies = MIN_PLIES_FOR_DRAW_POINTS;
        let s = arena_standings(&[], &[g]);
        assert_eq!(standing(&s, "b").score, 1);
    }

    #[test]
    fn games_are_scored_in_finishing_order_not_slice_order() {
        let mut games = series(&[Some(false), Some(true), Some(true), Some(true)]);
        games.reverse();
        let s = arena_standings(&[], &games);
        assert_eq!(points(standing(&s, "a")), [0, 2, 2, 4]);
    }

    #[test]
    fn ranking_idle_players_and_shared_ranks() {
        let games = vec![
            game(1, "a", "b", GameResult::FirstWins),
            game(2, "c", "d", GameResult::FirstWins),
            game(3, "e", "f", GameResult::Draw),
            game(4, "e", "g", GameResult::Draw),
        ];
        let s = arena_standings(&[p("idle"), p("a")], &games);
        let order: Vec<(&str, u32, u32)> = s
            .iter()
            .map(|s| (s.player.0.as_str(), s.rank, s.score))
            .collect();
        assert_eq!(
            order,
            [
                ("a", 1, 2),
                ("c", 1, 2),
                ("e", 3, 2), // same score in two games ranks below
                ("f", 4, 1),
                ("g", 4, 1),
                ("idle", 6, 0), // no games: above those who lost
                ("b", 7, 0),
                ("d", 7, 0),
            ]
        );
    }

    fn w(player: &str, rating: i32, since: u64) -> Waiting {
        Waiting {
            player: p(player),
            rating,
            waiting_since_ms: since,
        }
    }

    fn has_pair(pairs: &[Pair], a: &str, b: &str) -> bool {
        pairs
            .iter()
            .any(|x| (x.first.0 == a && x.second.0 == b) || (x.first.0 == b && x.second.0 == a))
    }

    #[test]
    fn pairs_neighbours_by_score_then_rating() {
        let history = vec![
            game(1, "a", "x", GameResult::FirstWins),
            game(2, "b", "y", GameResult::FirstWins),
        ];
        let waiting = [
            w("a", 1500, 0),
            w("b", 1400, 0),
            w("c", 2000, 0),
            w("d", 1900, 0),
        ];
        let pairs = arena_pairings(&waiting, &history);
        assert_eq!(pairs.len(), 2);
        assert!(has_pair(&pairs, "a", "b"), "{pairs:?}");
        assert!(has_pair(&pairs, "c", "d"), "{pairs:?}");
    }

    #[test]
    fn no_immediate_rematch_when_an_alternative_exists() {
        let history = vec![
            game(1, "a", "b", GameResult::FirstWins),
            game(2, "c", "d", GameResult::Draw),
        ];
        // Sorted by score: a (2), c (1), d (1), b (0). Neither a-b nor c-d may be made again.
        let waiting = [
            w("a", 1500, 0),
            w("b", 1500, 0),
            w("c", 1500, 0),
            w("d", 1500, 0),
        ];
        let pairs = arena_pairings(&waiting, &history);
        assert_eq!(pairs.len(), 2);
        assert!(
            !has_pair(&pairs, "a", "b") && !has_pair(&pairs, "c", "d"),
            "{pairs:?}"
        );
    }

    #[test]
    fn a_rematch_at_the_bottom_is_repaired() {
        // e and f just played each other and are the two lowest: the greedy leaves them together,
        // the exact pass pairs them with the two above.
        let history = vec![game(1, "e", "f", GameResult::Draw)];
        let waiting = [
            w("a", 2000, 0),
            w("b", 1900, 0),
            w("e", 1000, 0),
            w("f", 900, 0),
        ];
        let pairs = arena_pairings(&waiting, &history);
        assert_eq!(pairs.len(), 2);
        assert!(!has_pair(&pairs, "e", "f"), "{pairs:?}");
    }

    #[test]
    fn two_players_alone_play_again_rather_than_wait() {
        let history = vec![game(1, "a", "b", GameResult::FirstWins)];
        let pairs = arena_pairings(&[w("a", 1500, 0), w("b", 1500, 0)], &history);
        assert_eq!(
            pairs,
            [Pair {
                first: p("b"),
                second: p("a")
            }]
        );
    }

    #[test]
    fn seats_alternate() {
        // a had the first seat, so now takes the second; then again the other way.
        let mut history = vec![game(1, "a", "b", GameResult::Draw)];
        let waiting = [w("a", 1500, 0), w("c", 1500, 0)];
        let pairs = arena_pairings(&waiting, &history);
        assert_eq!(
            pairs,
            [Pair {
                first: p("c"),
                second: p("a")
            }]
        );
        history.push(game(2, "c", "a", GameResult::Draw));
        history.push(game(3, "d", "e", GameResult::Draw));
        // a: one first, one second, last second -> first. d: one first -> second.
        let pairs = arena_pairings(&[w("a", 1500, 0), w("d", 1500, 0)], &history);
        assert_eq!(
            pairs,
            [Pair {
                first: p("a"),
                second: p("d")
            }]
        );
    }

    #[test]
    fn the_odd_player_who_came_last_waits() {
        let waiting = [w("a", 1500, 10), w("b", 1500, 30), w("c", 1500, 20)];
        let pairs = arena_pairings(&waiting, &[]);
        assert_eq!(pairs.len(), 1);
        assert!(has_pair(&pairs, "a", "c"), "{pairs:?}");
        assert!(arena_pairings(&[w("a", 1500, 0)], &[]).is_empty());
        assert!(arena_pairings(&[], &[]).is_empty());
    }

    #[test]
    fn duplicates_in_the_queue_are_ignored() {
        let waiting = [w("a", 1500, 0), w("a", 1500, 0), w("b", 1500, 0)];
        let pairs = arena_pairings(&waiting, &[]);
        assert_eq!(pairs.len(), 1);
        assert!(has_pair(&pairs, "a", "b"));
    }

    #[test]
    fn a_thousand_players_are_all_paired_without_rematches() {
        // Everyone has played one game: i against i+1 for even i.
        let n = 1000;
        let name = |i: usize| format!("p{i:04}");
        let history: Vec<ArenaGame> = (0..n)
            .step_by(2)
            .map(|i| {
                let result = if i % 4 == 0 {
                    GameResult::FirstWins
                } else {
                    GameResult::Draw
                };
                game(i as u64, &name(i), &name(i + 1), result)
            })
            .collect();
        let waiting: Vec<Waiting> = (0..n)
            .map(|i| w(&name(i), 1500 + (i as i32 * 7919) % 700, 0))
            .collect();
        let mut one_more = waiting.clone();
        one_more.push(w("late", 1500, 1));
        let pairs = arena_pairings(&one_more, &history);
        assert_eq!(pairs.len(), n / 2);
        assert!(
            pairs
                .iter()
                .all(|x| x.first.0 != "late" && x.second.0 != "late")
        );
        let pairs = arena_pairings(&waiting, &history);
        assert_eq!(pairs.len(), n / 2);
        let mut everyone: Vec<&PlayerId> =
            pairs.iter().flat_map(|x| [&x.first, &x.second]).collect();
        everyone.sort();
        everyone.dedup();
        assert_eq!(everyone.len(), n);
        for x in &pairs {
            let (a, b) = (&x.first.0, &x.second.0);
            let (ia, ib): (usize, usize) = (a[1..].parse().unwrap(), b[1..].parse().unwrap());
            assert!(ia / 2 != ib / 2, "rematch {a} {b}");
            // Seats alternate: the previous first seat (even index) now takes the second.
            assert!(ia % 2 == 1 || ib % 2 == 0, "{a} {b}");
        }
    }
}
