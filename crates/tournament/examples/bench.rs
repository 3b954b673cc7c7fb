//! Measures arena pairing of 1,000 waiting players (and a Swiss round of 200), to be run with
//! `cargo run --release -p jiang-tournament --example bench`.

use jiang_tournament::{
    ArenaGame, GameResult, PlayerId, SwissGame, SwissPlayer, SwissRound, Waiting, arena_pairings,
    swiss_pairings,
};
use std::time::Instant;

fn main() {
    let n = 1000;
    let name = |i: usize| PlayerId::new(format!("player-{i:04}"));
    // Ten earlier "waves" of games: 5,000 games of history.
    let mut history = Vec::new();
    for wave in 0..10u64 {
        for i in (0..n).step_by(2) {
            let (a, b) = (
                (i + wave as usize * 7) % n,
                (i + 1 + wave as usize * 13) % n,
            );
            if a == b {
                continue;
            }
            history.push(ArenaGame {
                id: format!("g{wave}-{i}"),
                finished_at_ms: wave * 600_000 + i as u64,
                first: name(a),
                second: name(b),
                result: [
                    GameResult::FirstWins,
                    GameResult::SecondWins,
                    GameResult::Draw,
                ][(i + wave as usize) % 3],
                first_berserked: i % 5 == 0,
                second_berserked: false,
                plies: 40,
            });
        }
    }
    let waiting: Vec<Waiting> = (0..n)
        .map(|i| Waiting {
            player: name(i),
            rating: 1200 + ((i * 7919) % 1300) as i32,
            waiting_since_ms: i as u64,
        })
        .collect();
    let runs = 50;
    let start = Instant::now();
    let mut pairs = 0;
    for _ in 0..runs {
        pairs = arena_pairings(&waiting, &history).len();
    }
    let each = start.elapsed() / runs;
    println!(
        "arena: {n} waiting, {} games of history -> {pairs} pairs in {each:?} per call",
        history.len()
    );

    // The worst case: the two lowest players just played each other, so the greedy pairing
    // ends with a rematch and the exact pass (with a maximum matching) runs.
    let fresh: Vec<Waiting> = (0..n)
        .map(|i| Waiting {
            player: name(i),
            rating: 3000 - i as i32,
            waiting_since_ms: 0,
        })
        .collect();
    let last_two = [ArenaGame {
        id: "last".into(),
        finished_at_ms: 1,
        first: name(n - 2),
        second: name(n - 1),
        result: GameResult::Draw,
        first_berserked: false,
        second_berserked: false,
        plies: 40,
    }];
    let start = Instant::now();
    for _ in 0..runs {
        let pairs = arena_pairings(&fresh, &last_two);
        let (a, b) = (name(n - 2), name(n - 1));
        let rematch = |p: &jiang_tournament::Pair| {
            (p.first == a && p.second == b) || (p.first == b && p.second == a)
        };
        assert!(!pairs.iter().any(rematch));
    }
    println!(
        "arena: {n} waiting, exact pass for a rematch at the bottom: {:?} per call",
        start.elapsed() / runs
    );

    // A Swiss of 200 players, 9 rounds, decisive results by rating order.
    let players: Vec<SwissPlayer> = (0..200)
        .map(|i| SwissPlayer {
            id: name(i),
            rating: 2500 - i as i32,
        })
        .collect();
    let mut rounds: Vec<SwissRound> = Vec::new();
    let mut slowest = std::time::Duration::ZERO;
    for r in 0..9 {
        let start = Instant::now();
        let pairing = swiss_pairings(&players, &rounds).expect("a pairing");
        slowest = slowest.max(start.elapsed());
        let games = pairing
            .pairs
            .iter()
            .enumerate()
            .map(|(b, p)| SwissGame {
                first: p.first.clone(),
                second: p.second.clone(),
                result: if (b + r) % 4 == 0 {
                    GameResult::Draw
                } else {
                    GameResult::FirstWins
                },
            })
            .collect();
        rounds.push(SwissRound {
            games,
            bye: pairing.bye,
        });
    }
    println!("swiss: 200 players, 9 rounds, slowest round paired in {slowest:?}");

    // Swisses played as long as they can be paired (random results from a fixed seed): how far
    // they get, and the slowest round, including the one proving that no pairing is left.
    let mut state = 0x5EED_u64;
    let mut rand = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    for n in [9usize, 16, 33, 64, 128] {
        let players: Vec<SwissPlayer> = (0..n)
            .map(|i| SwissPlayer {
                id: name(i),
                rating: 1200 + rand(1000) as i32,
            })
            .collect();
        let mut rounds: Vec<SwissRound> = Vec::new();
        let mut slowest = std::time::Duration::ZERO;
        let end = loop {
            if rounds.len() + 1 >= n {
                break "all rounds paired".to_string();
            }
            let start = Instant::now();
            let pairing = swiss_pairings(&players, &rounds);
            slowest = slowest.max(start.elapsed());
            let pairing = match pairing {
                Ok(p) => p,
                Err(e) => break e.to_string(),
            };
            let games = pairing
                .pairs
                .iter()
                .map(|p| SwissGame {
                    first: p.first.clone(),
                    second: p.second.clone(),
                    result: [
                        GameResult::FirstWins,
                        GameResult::SecondWins,
                        GameResult::Draw,
                    ][rand(3) as usize],
                })
                .collect();
            rounds.push(SwissRound {
                games,
                bye: pairing.bye,
            });
        };
        println!(
            "swiss: {n} players, {} rounds paired ({end}), slowest call {slowest:?}",
            rounds.len()
        );
    }
}
