//! Swiss tournaments: a fixed number of rounds, every present player plays every round, nobody
//! meets the same opponent twice.
//!
//! # Scoring
//!
//! A win is 1 point, a draw ½, a loss 0. Scores are kept as integers in half points (`_x2`
//! fields: a win is 2, a draw 1) so that sums and comparisons are exact. An aborted game
//! (forfeit by a technical failure) scores 0 for both, is not a game played for colours or
//! tie-breaks, but the two players still count as having met.
//!
//! # Byes
//!
//! With an odd number of present players, one gets a bye: 1 point (like a win), no colour, no
//! opponent. A player gets at most one bye in a tournament. The bye goes to the lowest-ranked
//! present player who has not had one, provided the others can then be paired without repeats;
//! otherwise to the next one up.
//!
//! # Tie-breaks (standings)
//!
//! Players are ranked by score, then **Buchholz** (the sum of the current scores of every
//! opponent met over the board; a bye contributes nothing, nor does an aborted game), then
//! **Sonneborn–Berger** (the sum of the scores of the opponents beaten, plus half the scores of
//! the opponents drawn). Players equal on all three share a rank; they are listed by rating
//! (higher first), then id.
//!
//! # Pairing
//!
//! See [`swiss_pairings`].

use crate::{GameResult, Pair, PairingError, PlayerId, Seat};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

/// A player present for the round being paired.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissPlayer {
    /// The player.
    pub id: PlayerId,
    /// Their rating (any scale): orders players of equal score.
    pub rating: i32,
}

/// One game of a Swiss round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissGame {
    /// The player in the first seat.
    pub first: PlayerId,
    /// The player in the second seat.
    pub second: PlayerId,
    /// How it ended.
    pub result: GameResult,
}

/// One played round: its games and its bye, as stored.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissRound {
    /// The round's games.
    pub games: Vec<SwissGame>,
    /// The player who had the bye, if the round had one.
    pub bye: Option<PlayerId>,
}

/// The pairing of the next round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundPairing {
    /// The round's number, from 1.
    pub round: u32,
    /// The games, board 1 first (the board of the higher-ranked players).
    pub pairs: Vec<Pair>,
    /// The player with the bye, when an odd number are present.
    pub bye: Option<PlayerId>,
}

/// One line of a Swiss's standings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissStanding {
    /// The player.
    pub player: PlayerId,
    /// The rank, from 1; players equal on score and both tie-breaks share it.
    pub rank: u32,
    /// The score in half points (a win or bye is 2, a draw 1).
    pub score_x2: u32,
    /// Buchholz in half points.
    pub buchholz_x2: u32,
    /// Sonneborn–Berger in quarter points (a beaten opponent with 3 points adds 12).
    pub sonneborn_berger_x4: u32,
    /// Games played over the board (aborted games excluded).
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Whether the player had a bye.
    pub had_bye: bool,
}

impl SwissStanding {
    /// The score in points (exact: halves are representable).
    pub fn score(&self) -> f64 {
        f64::from(self.score_x2) / 2.0
    }

    /// Buchholz in points.
    pub fn buchholz(&self) -> f64 {
        f64::from(self.buchholz_x2) / 2.0
    }

    /// Sonneborn–Berger in points.
    pub fn sonneborn_berger(&self) -> f64 {
        f64::from(self.sonneborn_berger_x4) / 4.0
    }
}

/// What the history says about one player.
#[derive(Default, Clone)]
struct Record {
    score_x2: u32,
    wins: u32,
    draws: u32,
    losses: u32,
    had_bye: bool,
    /// Seats of the games played over the board, in round order.
    seats: Vec<Seat>,
    /// Everyone met (aborted games included).
    met: HashSet<PlayerId>,
    /// (opponent, own half points) per game played over the board.
    results: Vec<(PlayerId, u32)>,
}

/// Every player's record from the rounds played. With `strict`, an inconsistent history is an
/// error; otherwise it is counted as it stands.
fn records(rounds: &[SwissRound], strict: bool) -> Result<HashMap<PlayerId, Record>, PairingError> {
    let mut records: HashMap<PlayerId, Record> = HashMap::new();
    for (r, round) in rounds.iter().enumerate() {
        let mut seen: HashSet<&PlayerId> = HashSet::new();
        let players = round
            .games
            .iter()
            .flat_map(|g| [&g.first, &g.second])
            .chain(round.bye.iter());
        for player in players {
            if !seen.insert(player) && strict {
                return Err(PairingError::InvalidHistory(format!(
                    "{player} appears twice in round {}",
                    r + 1
                )));
            }
        }
        for game in &round.games {
            if game.first == game.second {
                if strict {
                    return Err(PairingError::InvalidHistory(format!(
                        "{} plays themself in round {}",
                        game.first,
                        r + 1
                    )));
                }
                continue;
            }
            for seat in [Seat::First, Seat::Second] {
                let (me, them) = match seat {
                    Seat::First => (&game.first, &game.second),
                    Seat::Second => (&game.second, &game.first),
                };
                let rec = records.entry(me.clone()).or_default();
                rec.met.insert(them.clone());
                if game.result == GameResult::Aborted {
                    continue;
                }
                rec.seats.push(seat);
                let points = match game.result.won_by(seat) {
                    Some(true) => {
                        rec.wins += 1;
                        2
                    }
                    Some(false) => {
                        rec.losses += 1;
                        0
                    }
                    None => {
                        rec.draws += 1;
                        1
                    }
                };
                rec.score_x2 += points;
                rec.results.push((them.clone(), points));
            }
        }
        if let Some(player) = &round.bye {
            let rec = records.entry(player.clone()).or_default();
            if rec.had_bye && strict {
                return Err(PairingError::InvalidHistory(format!(
                    "{player} has a second bye in round {}",
                    r + 1
                )));
            }
            rec.had_bye = true;
            rec.score_x2 += 2;
        }
    }
    Ok(records)
}

/// The standings of a Swiss, derived from its rounds alone.
///
/// `players` is everyone who joined (withdrawn players included; their rating orders exact
/// ties); players found only in `rounds` are included with rating 0. An inconsistent history
/// (which [`swiss_pairings`] refuses) is counted as it stands. The result is sorted by rank:
/// score, Buchholz, Sonneborn–Berger (see the module doc).
pub fn swiss_standings(players: &[SwissPlayer], rounds: &[SwissRound]) -> Vec<SwissStanding> {
    let records = records(rounds, false).expect("a lenient count never fails");
    let mut ratings: HashMap<&PlayerId, i32> = HashMap::new();
    for p in players {
        ratings.entry(&p.id).or_insert(p.rating);
    }
    for id in records.keys() {
        ratings.entry(id).or_insert(0);
    }
    let score = |id: &PlayerId| records.get(id).map_or(0, |r| r.score_x2);
    let empty = Record::default();
    let mut standings: Vec<(i32, SwissStanding)> = ratings
        .iter()
        .map(|(&id, &rating)| {
            let rec = records.get(id).unwrap_or(&empty);
            let buchholz_x2 = rec.results.iter().map(|(o, _)| score(o)).sum();
            let sonneborn_berger_x4 = rec.results.iter().map(|(o, pts)| pts * score(o)).sum();
            let standing = SwissStanding {
                player: id.clone(),
                rank: 0,
                score_x2: rec.score_x2,
                buchholz_x2,
                sonneborn_berger_x4,
                games: rec.results.len() as u32,
                wins: rec.wins,
                draws: rec.draws,
                losses: rec.losses,
                had_bye: rec.had_bye,
            };
            (rating, standing)
        })
        .collect();
    let key =
        |s: &SwissStanding| std::cmp::Reverse((s.score_x2, s.buchholz_x2, s.sonneborn_berger_x4));
    standings.sort_by(|(ra, a), (rb, b)| {
        key(a)
            .cmp(&key(b))
            .then(rb.cmp(ra))
            .then_with(|| a.player.cmp(&b.player))
    });
    let mut out: Vec<SwissStanding> = standings.into_iter().map(|(_, s)| s).collect();
    for i in 0..out.len() {
        out[i].rank = if i > 0 && key(&out[i]) == key(&out[i - 1]) {
            out[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    out
}

/// How much a player wants a seat, weakest first (the order matters: stronger wins).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    /// Alternate from the last game.
    Mild,
    /// Even out an imbalance of one.
    Strong,
    /// The same seat twice in a row, or an imbalance of two or more: must not get it again.
    Absolute,
}

/// A player's seat preference from their seat history, or `None` before their first game.
fn preference(seats: &[Seat]) -> Option<(Seat, Strength)> {
    let firsts = seats.iter().filter(|&&s| s == Seat::First).count() as i64;
    let diff = 2 * firsts - seats.len() as i64; // firsts - seconds
    let fewer = if diff > 0 { Seat::Second } else { Seat::First };
    let last = *seats.last()?;
    if diff.abs() >= 2 {
        Some((fewer, Strength::Absolute))
    } else if seats.len() >= 2 && seats[seats.len() - 2] == last {
        Some((last.other(), Strength::Absolute))
    } else if diff != 0 {
        Some((fewer, Strength::Strong))
    } else {
        Some((last.other(), Strength::Mild))
    }
}

/// The pairing search over the present players (indices in rank order).
struct Search {
    score: Vec<u32>,
    pref: Vec<Option<(Seat, Strength)>>,
    /// The seat each player must get because their last two were the other one.
    row: Vec<Option<Seat>>,
    /// `met[a][b]`: `a` has already played `b` (indices in rank order).
    met: Vec<Vec<bool>>,
}

/// Which seat wishes the pairing search treats as hard rules, strictest first: pairs of
/// players who both must get the same seat are refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SeatRule {
    /// Both must (two in a row, or an imbalance of two or more).
    AllMusts,
    /// Both must because of two in a row (a third would follow).
    RowOnly,
    /// No seat rule: only no-repeat.
    Off,
}

impl Search {
    /// Whether `a` and `b` may meet under `rule`.
    fn allowed(&self, a: usize, b: usize, rule: SeatRule) -> bool {
        if a == b || self.met[a][b] {
            return false;
        }
        match rule {
            SeatRule::AllMusts => !matches!(
                (self.pref[a], self.pref[b]),
                (Some((sa, Strength::Absolute)), Some((sb, Strength::Absolute))) if sa == sb
            ),
            SeatRule::RowOnly => self.row[a].is_none() || self.row[a] != self.row[b],
            SeatRule::Off => true,
        }
    }

    /// Whether `a` and `b` both want the same seat at least strongly.
    fn clash(&self, a: usize, b: usize) -> bool {
        matches!(
            (self.pref[a], self.pref[b]),
            (Some((sa, ka)), Some((sb, kb)))
                if sa == sb && ka >= Strength::Strong && kb >= Strength::Strong
        )
    }

    /// The opponents to try for `remaining[0]`, best first (see [`swiss_pairings`]).
    fn candidates(&self, remaining: &[usize], rule: SeatRule) -> Vec<usize> {
        let p = remaining[0];
        let group = remaining
            .iter()
            .take_while(|&&q| self.score[q] == self.score[p])
            .count();
        let others = &remaining[1..group];
        let ideal = (group / 2).saturating_sub(1);
        let mut in_group: Vec<usize> = others[ideal.min(others.len())..]
            .iter()
            .chain(others[..ideal.min(others.len())].iter().rev())
            .copied()
            .collect();
        // Stable: colour-compatible opponents first, keeping the half-against-half order.
        in_group.sort_by_key(|&q| self.clash(p, q));
        in_group
            .into_iter()
            .chain(remaining[group..].iter().copied())
            .filter(|&q| self.allowed(p, q, rule))
            .collect()
    }

    /// A quick necessary condition for a pass: at most half of `remaining` must get one seat
    /// (two who must get the same seat cannot meet under `rule`).
    fn seats_can_balance(&self, remaining: &[usize], rule: SeatRule) -> bool {
        let must = |a: usize| match rule {
            SeatRule::AllMusts => match self.pref[a] {
                Some((seat, Strength::Absolute)) => Some(seat),
                _ => None,
            },
            SeatRule::RowOnly => self.row[a],
            SeatRule::Off => None,
        };
        [Seat::First, Seat::Second].into_iter().all(|seat| {
            2 * remaining.iter().filter(|&&a| must(a) == Some(seat)).count() <= remaining.len()
        })
    }

    /// Pairs `remaining` (in rank order) under `rule`, or `None` if no pairing exists.
    ///
    /// Greedy with an exact look-ahead: the highest-ranked unpaired player takes the first
    /// candidate (in [`Search::candidates`] order) after which the others can still all be
    /// paired. A perfect matching of the "may meet" graph is kept throughout (Edmonds' blossom
    /// algorithm), so each test is one augmenting-path search, O(players²). The result is the
    /// one an exhaustive backtracking search over the same candidate order would find.
    fn pair_under(&self, remaining: &[usize], rule: SeatRule) -> Option<Vec<(usize, usize)>> {
        if !self.seats_can_balance(remaining, rule) {
            return None;
        }
        crate::matching::pair_in_order(
            self.score.len(),
            remaining,
            |a, b| self.allowed(a, b, rule),
            |rem| self.candidates(rem, rule),
        )
    }

    /// Pairs `remaining`, trying the seat rules from the strictest (see [`SeatRule`]).
    fn pair_all(&self, remaining: &[usize]) -> Option<Vec<(usize, usize)>> {
        [SeatRule::AllMusts, SeatRule::RowOnly, SeatRule::Off]
            .into_iter()
            .find_map(|rule| self.pair_under(remaining, rule))
    }

    /// Which of `a` (higher-ranked) and `b` takes the first seat, on board `board` (from 0).
    fn a_takes_first(&self, a: usize, b: usize, board: usize) -> bool {
        match (self.pref[a], self.pref[b]) {
            (None, None) => board % 2 == 0,
            (Some((sa, _)), None) => sa == Seat::First,
            (None, Some((sb, _))) => sb == Seat::Second,
            (Some((sa, ka)), Some((sb, kb))) => {
                if sa != sb || ka > kb {
                    sa == Seat::First
                } else if kb > ka {
                    sb == Seat::Second
                } else if self.row[b].is_some() && self.row[a].is_none() {
                    // Both must switch: avoiding a third seat in a row comes first.
                    sb == Seat::Second
                } else {
                    // Equal wishes for the same seat: the higher-ranked player gets it.
                    sa == Seat::First
                }
            }
        }
    }
}

/// Pairs the next round of a Swiss.
///
/// `players` are the players present for this round (withdrawn players are simply left out;
/// late joiners start with 0); `rounds` are the rounds played so far, in order.
///
/// The algorithm, a simplified Dutch system, deterministic:
///
/// 1. Scores, seat histories, opponents met and byes are derived from `rounds`. Present players
///    are ranked by score, then rating (higher first), then id.
/// 2. With an odd number present, the bye goes to the lowest-ranked player who has not had one
///    and whose removal leaves a pairing without repeats (trying upwards from the bottom).
/// 3. The highest-ranked unpaired player is paired first. Their *score group* is the unpaired
///    players with the same score. Top half plays bottom half: with `g` players left in the
///    group, the ideal opponent is the `g/2`-th after them (so 1–5, 2–6, 3–7, 4–8 in a group of
///    eight); then the players below the ideal one, then those above it (nearest first);
///    within the group, opponents who do not both want the same seat strongly are tried first.
///    A player alone in their group (or the odd one left over) floats down and meets the
///    highest players of the next group.
/// 4. Nobody meets an opponent twice. A choice is only made if the players left can still all
///    be paired (checked exactly with a maximum matching, Edmonds' blossom algorithm, kept up to
///    date as pairs are made), so the result is what an exhaustive backtracking search in this
///    candidate order would give, in polynomial time. The first pass also never pairs two
///    players who both *must* get the same seat (the same seat twice in a row, or two more of
///    one seat than the other); if no such pairing exists, a second pass only refuses pairs who
///    both had the same seat twice in a row, so nobody gets the same seat three times in a row
///    when any pairing (with this bye) avoids it; a third pass drops seat rules.
/// 5. Seats: each player's preference is absolute (must switch after two in a row or an
///    imbalance of two), strong (evens out an imbalance of one) or mild (alternate). Compatible
///    wishes are both granted; otherwise the stronger wish; on equal wishes, the wish of the
///    player who would otherwise get the same seat a third time in a row, then the
///    higher-ranked player's. When neither has played yet, the higher-ranked player takes the
///    first seat on boards 1, 3, 5, … and the second on boards 2, 4, 6, …
///
/// Errors: fewer than two present, a duplicate, an inconsistent history, or no pairing without
/// repeats (the tournament should then end early, as lichess Swiss tournaments do).
///
/// Cost: polynomial (each tentative pair costs one augmenting-path search, O(players²));
/// a round of 200 players takes at most a few tens of milliseconds in a release build.
pub fn swiss_pairings(
    players: &[SwissPlayer],
    rounds: &[SwissRound],
) -> Result<RoundPairing, PairingError> {
    if players.len() < 2 {
        return Err(PairingError::NotEnoughPlayers);
    }
    let mut seen = HashSet::new();
    for p in players {
        if !seen.insert(&p.id) {
            return Err(PairingError::DuplicatePlayer(p.id.clone()));
        }
    }
    let records = records(rounds, true)?;
    let empty = Record::default();
    let rec = |id: &PlayerId| records.get(id).unwrap_or(&empty);
    let mut order: Vec<&SwissPlayer> = players.iter().collect();
    order.sort_by(|a, b| {
        rec(&b.id)
            .score_x2
            .cmp(&rec(&a.id).score_x2)
            .then(b.rating.cmp(&a.rating))
            .then_with(|| a.id.cmp(&b.id))
    });
    let index: HashMap<&PlayerId, usize> =
        order.iter().enumerate().map(|(i, p)| (&p.id, i)).collect();
    let search = Search {
        score: order.iter().map(|p| rec(&p.id).score_x2).collect(),
        row: order
            .iter()
            .map(|p| match rec(&p.id).seats.as_slice() {
                [.., x, y] if x == y => Some(x.other()),
                _ => None,
            })
            .collect(),
        pref: order
            .iter()
            .map(|p| preference(&rec(&p.id).seats))
            .collect(),
        met: order
            .iter()
            .map(|p| {
                let mut row = vec![false; order.len()];
                for o in &rec(&p.id).met {
                    if let Some(&i) = index.get(o) {
                        row[i] = true;
                    }
                }
                row
            })
            .collect(),
    };
    let everyone: Vec<usize> = (0..order.len()).collect();
    let bye_candidates: Vec<Option<usize>> = if order.len() % 2 == 0 {
        vec![None]
    } else {
        (0..order.len())
            .rev()
            .filter(|&i| !rec(&order[i].id).had_bye)
            .map(Some)
            .collect()
    };
    for bye in bye_candidates {
        let remaining: Vec<usize> = everyone
            .iter()
            .copied()
            .filter(|&i| Some(i) != bye)
            .collect();
        let Some(pairs) = search.pair_all(&remaining) else {
            continue;
        };
        let pairs = pairs
            .iter()
            .enumerate()
            .map(|(board, &(a, b))| {
                let (first, second) = if search.a_takes_first(a, b, board) {
                    (a, b)
                } else {
                    (b, a)
                };
                Pair {
                    first: order[first].id.clone(),
                    second: order[second].id.clone(),
                }
            })
            .collect();
        return Ok(RoundPairing {
            round: rounds.len() as u32 + 1,
            pairs,
            bye: bye.map(|i| order[i].id.clone()),
        });
    }
    Err(PairingError::NoPairingWithoutRepeat)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> PlayerId {
        PlayerId::new(s)
    }

    fn sp(s: &str, rating: i32) -> SwissPlayer {
        SwissPlayer { id: p(s), rating }
    }

    fn g(a: &str, b: &str, result: GameResult) -> SwissGame {
        SwissGame {
            first: p(a),
            second: p(b),
            result,
        }
    }

    #[test]
    fn preferences_from_seat_history() {
        use Seat::{First as F, Second as S};
        assert_eq!(preference(&[]), None);
        assert_eq!(preference(&[F]), Some((S, Strength::Strong)));
        assert_eq!(preference(&[F, S]), Some((F, Strength::Mild)));
        assert_eq!(preference(&[S, S]), Some((F, Strength::Absolute)));
        assert_eq!(preference(&[F, S, F]), Some((S, Strength::Strong)));
        assert_eq!(preference(&[F, F, S, F]), Some((S, Strength::Absolute)));
    }

    #[test]
    fn first_round_is_top_half_against_bottom_half_with_alternating_seats() {
        let players: Vec<SwissPlayer> = (0..8)
            .map(|i| sp(&format!("p{i}"), 2000 - i * 100))
            .collect();
        let r = swiss_pairings(&players, &[]).unwrap();
        assert_eq!(r.round, 1);
        assert_eq!(r.bye, None);
        let boards: Vec<(String, String)> = r
            .pairs
            .iter()
            .map(|x| (x.first.0.clone(), x.second.0.clone()))
            .collect();
        let want = [("p0", "p4"), ("p5", "p1"), ("p2", "p6"), ("p7", "p3")];
        assert_eq!(
            boards,
            want.map(|(a, b)| (a.to_string(), b.to_string())).to_vec()
        );
    }

    #[test]
    fn the_bye_goes_to_the_lowest_ranked_player_without_one() {
        let players = [sp("a", 2000), sp("b", 1900), sp("c", 1800)];
        let r1 = swiss_pairings(&players, &[]).unwrap();
        assert_eq!(r1.bye, Some(p("c")));
        assert_eq!(r1.pairs.len(), 1);
        let round1 = SwissRound {
            games: vec![g("a", "b", GameResult::FirstWins)],
            bye: Some(p("c")),
        };
        // a 1, c 1 (bye), b 0: b is lowest and has not had a bye.
        let r2 = swiss_pairings(&players, std::slice::from_ref(&round1)).unwrap();
        assert_eq!(r2.bye, Some(p("b")));
        // c meets a, the only opponent left; seats: a had first -> second.
        assert_eq!(
            r2.pairs,
            [Pair {
                first: p("c"),
                second: p("a")
            }]
        );
        let round2 = SwissRound {
            games: vec![g("c", "a", GameResult::Draw)],
            bye: Some(p("b")),
        };
        let r3 = swiss_pairings(&players, &[round1, round2]).unwrap();
        assert_eq!(r3.bye, Some(p("a")));
        assert_eq!(r3.pairs.len(), 1);
        assert!(r3.pairs[0].first == p("b")); // b: one second seat -> first
    }

    #[test]
    fn no_pairing_left_is_an_error() {
        let players = [sp("a", 0), sp("b", 0)];
        let round = SwissRound {
            games: vec![g("a", "b", GameResult::Draw)],
            bye: None,
        };
        assert_eq!(
            swiss_pairings(&players, &[round]),
            Err(PairingError::NoPairingWithoutRepeat)
        );
    }

    #[test]
    fn input_errors() {
        assert_eq!(
            swiss_pairings(&[sp("a", 0)], &[]),
            Err(PairingError::NotEnoughPlayers)
        );
        assert_eq!(
            swiss_pairings(&[sp("a", 0), sp("a", 1)], &[]),
            Err(PairingError::DuplicatePlayer(p("a")))
        );
        let twice = SwissRound {
            games: vec![g("a", "b", GameResult::Draw), g("a", "c", GameResult::Draw)],
            bye: None,
        };
        assert!(matches!(
            swiss_pairings(&[sp("a", 0), sp("b", 0)], &[twice]),
            Err(PairingError::InvalidHistory(_))
        ));
        let byes = [
            SwissRound {
                games: vec![],
                bye: Some(p("a")),
            },
            SwissRound {
                games: vec![],
                bye: Some(p("a")),
            },
        ];
        assert!(matches!(
            swiss_pairings(&[sp("a", 0), sp("b", 0)], &byes),
            Err(PairingError::InvalidHistory(_))
        ));
    }

    #[test]
    fn score_groups_are_paired_within_themselves_first() {
        let players: Vec<SwissPlayer> = ["a", "b", "c", "d"].map(|s| sp(s, 1500)).to_vec();
        let round = SwissRound {
            games: vec![
                g("a", "c", GameResult::FirstWins),
                g("d", "b", GameResult::SecondWins),
            ],
            bye: None,
        };
        let r = swiss_pairings(&players, &[round]).unwrap();
        // Winners a and b meet; losers c and d meet. Seats: a had first, b had second.
        assert_eq!(
            r.pairs,
            [
                Pair {
                    first: p("b"),
                    second: p("a")
                },
                Pair {
                    first: p("c"),
                    second: p("d")
                }
            ]
        );
    }

    #[test]
    fn buchholz_and_sonneborn_berger_by_hand() {
        // Round 1: a beats b, c draws d, e has the bye.
        // Round 2: c draws a, e beats b, d has the bye.
        let rounds = [
            SwissRound {
                games: vec![
                    g("a", "b", GameResult::FirstWins),
                    g("c", "d", GameResult::Draw),
                ],
                bye: Some(p("e")),
            },
            SwissRound {
                games: vec![
                    g("c", "a", GameResult::Draw),
                    g("e", "b", GameResult::FirstWins),
                ],
                bye: Some(p("d")),
            },
        ];
        // Scores: a 1.5, b 0, c 1, d 1.5, e 2.
        // Buchholz: a = b + c = 0 + 1 = 1; c = d + a = 3; d = c = 1 (bye adds nothing);
        //           e = b = 0; b = a + e = 3.5.
        // SB: a = beat b (0) + half of c (0.5) = 0.5; c = half d + half a = 1.5;
        //     d = half c = 0.5; e = beat b = 0; b = 0.
        let s = swiss_standings(&[sp("a", 0), sp("f", 0)], &rounds);
        let get = |who: &str| s.iter().find(|x| x.player.0 == who).unwrap();
        let line = |who: &str| {
            let x = get(who);
            (x.score(), x.buchholz(), x.sonneborn_berger())
        };
        assert_eq!(line("a"), (1.5, 1.0, 0.5));
        assert_eq!(line("b"), (0.0, 3.5, 0.0));
        assert_eq!(line("c"), (1.0, 3.0, 1.5));
        assert_eq!(line("d"), (1.5, 1.0, 0.5));
        assert_eq!(line("e"), (2.0, 0.0, 0.0));
        assert_eq!(line("f"), (0.0, 0.0, 0.0));
        assert!(get("e").had_bye && get("d").had_bye && !get("a").had_bye);
        assert_eq!((get("a").wins, get("a").draws, get("a").games), (1, 1, 2));
        // Order: e (2), then a and d tied on everything (1.5, 1, 0.5) sharing rank 2, then c,
        // then b (Buchholz 3.5) above f.
        let order: Vec<(&str, u32)> = s.iter().map(|x| (x.player.0.as_str(), x.rank)).collect();
        assert_eq!(
            order,
            [("e", 1), ("a", 2), ("d", 2), ("c", 4), ("b", 5), ("f", 6)]
        );
    }

    #[test]
    fn a_third_seat_in_a_row_only_when_forced_and_the_higher_ranked_keeps_the_wish() {
        let players = [sp("a", 2000), sp("b", 1900), sp("c", 1800), sp("d", 1700)];
        let rounds = [
            SwissRound {
                games: vec![
                    g("a", "c", GameResult::FirstWins),
                    g("b", "d", GameResult::FirstWins),
                ],
                bye: None,
            },
            SwissRound {
                games: vec![
                    g("a", "d", GameResult::FirstWins),
                    g("b", "c", GameResult::FirstWins),
                ],
                bye: None,
            },
        ];
        // a and b both had the first seat twice, c and d the second twice; the only games left
        // are a-b and c-d, so one of each pair must take the same seat a third time.
        let r = swiss_pairings(&players, &rounds).unwrap();
        assert_eq!(
            r.pairs,
            [
                Pair {
                    first: p("b"),
                    second: p("a")
                },
                Pair {
                    first: p("c"),
                    second: p("d")
                }
            ]
        );
    }

    #[test]
    fn the_seat_rule_changes_the_pairing_when_it_can() {
        // a and b lead and both had the first seat twice; g and h trail and both had the second
        // seat twice. Ranking alone would pair a-b (one of them a third first seat); the seat
        // rule pairs them elsewhere so that everyone gets the seat they need.
        let players: Vec<SwissPlayer> = ["a", "b", "w", "x", "y", "z", "g", "h"]
            .iter()
            .enumerate()
            .map(|(i, s)| sp(s, 2000 - 100 * i as i32))
            .collect();
        let rounds = [
            SwissRound {
                games: vec![
                    g("a", "w", GameResult::FirstWins),
                    g("b", "x", GameResult::FirstWins),
                    g("y", "g", GameResult::FirstWins),
                    g("z", "h", GameResult::FirstWins),
                ],
                bye: None,
            },
            SwissRound {
                games: vec![
                    g("a", "y", GameResult::FirstWins),
                    g("b", "z", GameResult::FirstWins),
                    g("w", "g", GameResult::FirstWins),
                    g("x", "h", GameResult::FirstWins),
                ],
                bye: None,
            },
        ];
        let r = swiss_pairings(&players, &rounds).unwrap();
        assert_eq!(r.pairs.len(), 4);
        let seat_of = |who: &str| {
            let pair = r
                .pairs
                .iter()
                .find(|x| x.first.0 == who || x.second.0 == who)
                .unwrap();
            if pair.first.0 == who {
                Seat::First
            } else {
                Seat::Second
            }
        };
        for who in ["a", "b"] {
            assert_eq!(seat_of(who), Seat::Second, "{:?}", r.pairs);
        }
        for who in ["g", "h"] {
            assert_eq!(seat_of(who), Seat::First, "{:?}", r.pairs);
        }
        assert!(
            !r.pairs
                .iter()
                .any(|x| [&x.first.0, &x.second.0] == ["a", "b"]
                    || [&x.first.0, &x.second.0] == ["b", "a"])
        );
    }

    #[test]
    fn late_joiners_and_withdrawals() {
        let round = SwissRound {
            games: vec![g("a", "b", GameResult::FirstWins)],
            bye: None,
        };
        // b withdrew; c and d joined for round 2.
        let players = [sp("a", 1500), sp("c", 1600), sp("d", 1400)];
        let r = swiss_pairings(&players, std::slice::from_ref(&round)).unwrap();
        assert_eq!(r.round, 2);
        // a leads with 1 point; c and d have 0; d is lowest and gets the bye.
        assert_eq!(r.bye, Some(p("d")));
        assert_eq!(
            r.pairs,
            [Pair {
                first: p("c"),
                second: p("a")
            }]
        );
        // Standings still list b, who withdrew.
        let s = swiss_standings(&players, &[round]);
        assert!(s.iter().any(|x| x.player == p("b") && x.losses == 1));
        assert_eq!(s.len(), 4);
    }

    /// Brute force: can `players` be perfectly matched with `ok` pairs?
    fn matchable(players: &[usize], ok: &dyn Fn(usize, usize) -> bool) -> bool {
        let Some((&p, rest)) = players.split_first() else {
            return true;
        };
        (0..rest.len()).any(|i| {
            ok(p, rest[i]) && {
                let mut others = rest.to_vec();
                others.remove(i);
                matchable(&others, ok)
            }
        })
    }

    #[test]
    fn the_matching_oracle_agrees_with_brute_force_on_random_graphs() {
        let mut state = 0x1234_5678_9ABC_DEF1_u64;
        let mut rand = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        let (mut found, mut refused) = (0, 0);
        for _ in 0..2000 {
            let n = 2 * (1 + rand(5) as usize); // 2..=10 players
            let density = 2 + rand(7); // in tenths: how many pairs have already met
            let mut met = vec![vec![false; n]; n];
            let all_pairs: Vec<(usize, usize)> = (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect();
            for (a, b) in all_pairs {
                if rand(10) < density {
                    met[a][b] = true;
                    met[b][a] = true;
                }
            }
            let search = Search {
                score: (0..n).map(|_| rand(3) as u32).collect(),
                pref: vec![None; n],
                row: vec![None; n],
                met: met.clone(),
            };
            let everyone: Vec<usize> = (0..n).collect();
            let exists = matchable(&everyone, &|a, b| !met[a][b]);
            match search.pair_under(&everyone, SeatRule::Off) {
                Some(pairs) => {
                    assert!(exists);
                    found += 1;
                    let mut seen: Vec<usize> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
                    seen.sort();
                    assert_eq!(seen, everyone);
                    assert!(pairs.iter().all(|&(a, b)| !met[a][b]));
                }
                None => {
                    assert!(!exists);
                    refused += 1;
                }
            }
        }
        // Both outcomes were exercised many times.
        assert!(found > 200 && refused > 200, "{found} {refused}");
    }

    #[test]
    fn aborted_games_block_a_rematch_but_score_nothing() {
        let players = [sp("a", 0), sp("b", 0), sp("c", 0), sp("d", 0)];
        let round = SwissRound {
            games: vec![
                g("a", "b", GameResult::Aborted),
                g("c", "d", GameResult::FirstWins),
            ],
            bye: None,
        };
        let s = swiss_standings(&players, std::slice::from_ref(&round));
        let a = s.iter().find(|x| x.player.0 == "a").unwrap();
        assert_eq!((a.score_x2, a.games), (0, 0));
        let r = swiss_pairings(&players, &[round]).unwrap();
        for pair in &r.pairs {
            let ids = [pair.first.0.as_str(), pair.second.0.as_str()];
            assert!(ids != ["a", "b"] && ids != ["b", "a"]);
            assert!(ids != ["c", "d"] && ids != ["d", "c"]);
        }
    }
}
