//! Swiss tournaments played out with random results from fixed seeds: the pairing rules hold
//! round after round, and where the pairing claims something is impossible (no pairing at all,
//! the same seat a third time), a brute force over every pairing confirms it (small fields).

use jiang_tournament::{
    GameResult, Pair, PairingError, PlayerId, Seat, SwissGame, SwissPlayer, SwissRound,
    swiss_pairings, swiss_standings,
};
use std::collections::{HashMap, HashSet};

mod common;
use common::Rng;

/// What the history says, recomputed independently of the crate.
#[derive(Default)]
struct Facts {
    met: HashSet<(String, String)>,
    byes: HashSet<String>,
    seats: HashMap<String, Vec<Seat>>,
    score: HashMap<String, u32>,
}

impl Facts {
    fn of(rounds: &[SwissRound]) -> Facts {
        let mut f = Facts::default();
        for round in rounds {
            for g in &round.games {
                let (a, b) = (g.first.0.clone(), g.second.0.clone());
                f.met.insert((a.clone(), b.clone()));
                f.met.insert((b.clone(), a.clone()));
                f.seats.entry(a.clone()).or_default().push(Seat::First);
                f.seats.entry(b.clone()).or_default().push(Seat::Second);
                let (pa, pb) = match g.result {
                    GameResult::FirstWins => (2, 0),
                    GameResult::SecondWins => (0, 2),
                    GameResult::Draw => (1, 1),
                    GameResult::Aborted => (0, 0),
                };
                *f.score.entry(a).or_default() += pa;
                *f.score.entry(b).or_default() += pb;
            }
            if let Some(b) = &round.bye {
                f.byes.insert(b.0.clone());
                *f.score.entry(b.0.clone()).or_default() += 2;
            }
        }
        f
    }

    fn met(&self, a: &str, b: &str) -> bool {
        self.met.contains(&(a.to_string(), b.to_string()))
    }

    /// The seat `p` must get (their last two were the other one), if any.
    fn must(&self, p: &str) -> Option<Seat> {
        let s = self.seats.get(p)?;
        match s.as_slice() {
            [.., x, y] if x == y => Some(x.other()),
            _ => None,
        }
    }
}

/// Whether `players` can be perfectly matched with every pair passing `ok` (brute force).
fn matchable(players: &[String], ok: &dyn Fn(&str, &str) -> bool) -> bool {
    let Some((p, rest)) = players.split_first() else {
        return true;
    };
    (0..rest.len()).any(|i| {
        ok(p, &rest[i]) && {
            let mut others = rest.to_vec();
            others.remove(i);
            matchable(&others, ok)
        }
    })
}

/// Plays `rounds` rounds of a Swiss with `n` players and random results from `seed`, checking
/// every round; returns how many rounds could be paired and how many seats were given a third
/// time in a row (each one proven unavoidable).
fn play(n: usize, rounds: usize, seed: u64) -> (usize, usize) {
    let mut rng = Rng(seed);
    let players: Vec<SwissPlayer> = (0..n)
        .map(|i| SwissPlayer {
            id: PlayerId::new(format!("p{i:02}")),
            rating: 1200 + rng.below(1000) as i32,
        })
        .collect();
    let rating: HashMap<String, i32> = players.iter().map(|p| (p.id.0.clone(), p.rating)).collect();
    let mut history: Vec<SwissRound> = Vec::new();
    let mut thirds = 0;
    for round in 0..rounds {
        let facts = Facts::of(&history);
        let names: Vec<String> = players.iter().map(|p| p.id.0.clone()).collect();
        let pairing = match swiss_pairings(&players, &history) {
            Ok(p) => p,
            Err(PairingError::NoPairingWithoutRepeat) => {
                // Confirm by brute force (small fields only): no bye choice and no matching.
                assert!(
                    n <= 10,
                    "n={n} seed={seed}: no pairing in round {}",
                    round + 1
                );
                let no_repeat = |a: &str, b: &str| !facts.met(a, b);
                let possible = if n % 2 == 0 {
                    matchable(&names, &no_repeat)
                } else {
                    names
                        .iter()
                        .filter(|b| !facts.byes.contains(*b))
                        .any(|bye| {
                            let rest: Vec<String> =
                                names.iter().filter(|x| *x != bye).cloned().collect();
                            matchable(&rest, &no_repeat)
                        })
                };
                assert!(
                    !possible,
                    "n={n} seed={seed}: a pairing existed in round {}",
                    round + 1
                );
                return (round, thirds);
            }
            Err(e) => panic!("n={n} seed={seed} round {}: {e}", round + 1),
        };
        assert_eq!(pairing.round as usize, round + 1);

        // Everyone exactly once; bye iff odd; no repeat; no second bye.
        let mut seen: Vec<String> = pairing
            .pairs
            .iter()
            .flat_map(|p| [p.first.0.clone(), p.second.0.clone()])
            .chain(pairing.bye.iter().map(|b| b.0.clone()))
            .collect();
        seen.sort();
        assert_eq!(seen, names, "n={n} seed={seed} round {}", round + 1);
        assert_eq!(pairing.bye.is_some(), n % 2 == 1);
        for Pair { first, second } in &pairing.pairs {
            assert!(!facts.met(&first.0, &second.0), "repeat {first} {second}");
        }
        if let Some(bye) = &pairing.bye {
            assert!(!facts.byes.contains(&bye.0), "second bye for {bye}");
            // Every eligible player ranked below the bye could not have taken it.
            if n <= 10 {
                let key = |p: &String| {
                    (
                        std::cmp::Reverse(facts.score.get(p).copied().unwrap_or(0)),
                        std::cmp::Reverse(rating[p]),
                        p.clone(),
                    )
                };
                for lower in names
                    .iter()
                    .filter(|x| !facts.byes.contains(*x) && key(x) > key(&bye.0))
                {
                    let rest: Vec<String> = names.iter().filter(|x| *x != lower).cloned().collect();
                    assert!(
                        !matchable(&rest, &|a, b| !facts.met(a, b)),
                        "n={n} seed={seed}: {lower} ranks below {bye} and could have had the bye"
                    );
                }
            }
        }

        // Seats: nobody gets the same seat a third time in a row, unless every pairing without
        // repeats forces it (brute force for small fields; never allowed in larger ones here).
        let forced_third: Vec<String> = pairing
            .pairs
            .iter()
            .flat_map(|p| [(&p.first.0, Seat::First), (&p.second.0, Seat::Second)])
            .filter(|(who, seat)| facts.must(who) == Some(seat.other()))
            .map(|(who, _)| who.clone())
            .collect();
        if !forced_third.is_empty() {
            // With the bye as given (the bye rule comes first), no pairing avoided it.
            assert!(
                n <= 10,
                "n={n} seed={seed}: third seat for {forced_third:?}"
            );
            let rest: Vec<String> = names
                .iter()
                .filter(|x| Some(*x) != pairing.bye.as_ref().map(|b| &b.0))
                .cloned()
                .collect();
            let avoidable = matchable(&rest, &|a, b| {
                !facts.met(a, b) && (facts.must(a).is_none() || facts.must(a) != facts.must(b))
            });
            assert!(!avoidable, "n={n} seed={seed}: {forced_third:?} avoidable");
            thirds += 1;
        }

        // Play the round.
        let games = pairing
            .pairs
            .iter()
            .map(|p| SwissGame {
                first: p.first.clone(),
                second: p.second.clone(),
                result: match rng.below(5) {
                    0 | 1 => GameResult::FirstWins,
                    2 | 3 => GameResult::SecondWins,
                    _ => GameResult::Draw,
                },
            })
            .collect();
        history.push(SwissRound {
            games,
            bye: pairing.bye,
        });
    }

    // The standings agree with the independent count and are sorted.
    let facts = Facts::of(&history);
    let standings = swiss_standings(&players, &history);
    assert_eq!(standings.len(), n);
    for s in &standings {
        assert_eq!(
            s.score_x2,
            facts.score.get(&s.player.0).copied().unwrap_or(0)
        );
    }
    for w in standings.windows(2) {
        let k = |s: &jiang_tournament::SwissStanding| {
            (s.score_x2, s.buchholz_x2, s.sonneborn_berger_x4)
        };
        assert!(k(&w[0]) >= k(&w[1]));
        assert!(w[0].rank <= w[1].rank);
    }
    (rounds, thirds)
}

/// Plays `seeds` tournaments and returns the fewest rounds paired, the total number of
/// (unavoidable) third seats in a row, and how many tournaments ran out of pairings early.
fn many(n: usize, rounds: usize, seeds: u64) -> (usize, usize, usize) {
    let (mut fewest, mut thirds, mut early) = (usize::MAX, 0, 0);
    for seed in 0..seeds {
        let (played, t) = play(n, rounds, seed);
        fewest = fewest.min(played);
        thirds += t;
        early += usize::from(played < rounds);
    }
    println!("n={n}: fewest rounds {fewest}, unavoidable thirds {thirds}, ended early {early}");
    (fewest, thirds, early)
}

#[test]
fn seven_players() {
    // Up to a full round robin; the pairing may run out earlier (each time proven impossible).
    let (fewest, _, _) = many(7, 7, 30);
    assert!(fewest >= 5, "{fewest}");
}

#[test]
fn eight_players() {
    let (fewest, _, _) = many(8, 7, 30);
    assert!(fewest >= 5, "{fewest}");
}

#[test]
fn nine_players() {
    let (fewest, _, _) = many(9, 9, 30);
    assert!(fewest >= 7, "{fewest}");
}

#[test]
fn sixteen_players_never_get_a_third_seat_in_a_row() {
    // `play` refuses any third seat in a row for fields this size.
    assert_eq!(many(16, 9, 10), (9, 0, 0));
}

#[test]
fn thirty_three_players() {
    assert_eq!(many(33, 11, 5), (11, 0, 0));
}
