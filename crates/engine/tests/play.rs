//! The engine against positions whose answer is known, every position read (and so checked)
//! by the rules crate, every mate confirmed by the rules crate as referee. Fixed depths only.

use jiang_engine::engine::best_at_depth;
use jiang_engine::score::{MATE, MATE_BOUND};
use jiang_engine::{Decision, Engine, Input};
use jiang_rules::jieqi::{JieqiGame, Observer};
use jiang_rules::{Game as _, Outcome, Position as _, Reason, Side, Variant, shogi, xiangqi};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

fn engine() -> Engine {
    let mut e = Engine::new();
    e.set_hash(8);
    e
}

fn chosen(decision: &Decision) -> &str {
    match decision {
        Decision::Move(m) => m,
        other => panic!("expected a move, got {other:?}"),
    }
}

/// A game of either family, refereed by the rules crate.
#[allow(clippy::large_enum_variant)] // a handful per test
enum Referee {
    Xiangqi(xiangqi::Game),
    Shogi(shogi::Game),
}

impl Referee {
    fn new(variant: Variant, fen: &str) -> Referee {
        match variant {
            Variant::Xiangqi | Variant::Jieqi => Referee::Xiangqi(xiangqi::Game::new(
                xiangqi::Position::from_fen(variant, fen).expect("test FEN is valid"),
            )),
            _ => Referee::Shogi(shogi::Game::new(
                shogi::Position::from_fen(variant, fen).expect("test SFEN is valid"),
            )),
        }
    }

    fn input(&self) -> Input {
        match self {
            Referee::Xiangqi(g) => jiang_engine::engine::from_xiangqi_game(g),
            Referee::Shogi(g) => {
                let moves: Vec<String> = g.moves().iter().map(|m| m.to_string()).collect();
                let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
                Input::from_text(g.position().variant(), &g.start().fen(), &refs).unwrap()
            }
        }
    }

    fn turn(&self) -> Side {
        match self {
            Referee::Xiangqi(g) => g.position().turn(),
            Referee::Shogi(g) => g.position().turn(),
        }
    }

    fn play(&mut self, text: &str) {
        match self {
            Referee::Xiangqi(g) => {
                // A Jieqi move of a covered piece whose identity is certain (a one-kind pool):
                // the referee supplies it, as a deal would.
                let candidates: Vec<xiangqi::Move> = g
                    .position()
                    .legal_moves()
                    .into_iter()
                    .filter(|m| m.iccs() == text)
                    .collect();
                match candidates.as_slice() {
                    [only] => g.play_move(*only),
                    _ => g.play_text(text),
                }
                .unwrap_or_else(|e| panic!("the engine's move {text} is legal: {e}"));
            }
            Referee::Shogi(g) => g
                .play_text(text)
                .unwrap_or_else(|e| panic!("the engine's move {text} is legal: {e}")),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        match self {
            Referee::Xiangqi(g) => g.outcome(),
            Referee::Shogi(g) => g.outcome(),
        }
    }
}

/// The side to move mates in `n` moves: the engine says so, and playing it out (the engine on
/// both sides, the defender searching as deep) ends in checkmate by the rules.
fn assert_mate_in(variant: Variant, fen: &str, n: u32) {
    let mut referee = Referee::new(variant, fen);
    let attacker = referee.turn();
    let mut e = engine();
    let first = best_at_depth(&mut e, &referee.input(), 2 * n + 1);
    assert_eq!(
        first.score,
        MATE - (2 * n as i32 - 1),
        "{fen}: mate in {n} expected, got score {} ({:?})",
        first.score,
        first.decision
    );
    for ply in 0..2 * n - 1 {
        let thought = best_at_depth(&mut e, &referee.input(), 2 * n + 1 - ply);
        referee.play(chosen(&thought.decision));
    }
    assert_eq!(
        referee.outcome(),
        Some(Outcome::win(attacker, Reason::Checkmate)),
        "{fen}: the line ends in mate"
    );
}

/// Positions whose side to move mates in so many moves, for [`assert_mate_in`].
const MATES: [(Variant, &str, u32); 8] = [
    // Xiangqi, the flying general: Black's general on d9 cannot step to e9, where it would
    // face Red's general on the open e-file. The chariot on b8 holds rank 8; a chariot check
    // on the d-file or rank 9 mates.
    (Variant::Xiangqi, "3k5/1R7/9/8p/9/9/9/9/9/R3K4 w - - 0 1", 1),
    // Xiangqi, mate in four with one chariot and the general.
    (Variant::Xiangqi, "3k5/9/4b4/8p/9/9/9/9/9/R3K4 w - - 0 1", 4),
    // Jieqi, around a covered piece: Black keeps a covered chariot on a9 (its pool: one
    // chariot); it cannot block.
    (Variant::Jieqi, "x2k5/1R7/9/8p/9/9/9/9/9/R3K4 w r1 0 1", 1),
    // Jieqi: Red's only attacker is covered but certain (its pool holds one chariot).
    (Variant::Jieqi, "3k5/9/9/8p/9/9/9/9/9/X3K4 w R1 0 1", 1),
    // Shogi tsume with drops. Head gold: G*5b, protected by the pawn on 5c.
    (Variant::Shogi, "4k4/9/4P4/9/9/9/9/9/4K4 b G 1", 1),
    // Shogi: three plies with drops only, silver then gold.
    (Variant::Shogi, "4k4/9/9/9/9/9/9/9/4K4 b 2GS 1", 2),
    // Minishogi mates with drops.
    (Variant::Minishogi, "2k2/5/2P2/5/2K2 b G 1", 1),
    (Variant::Minishogi, "1k3/5/5/5/2K2 b GS 1", 2),
];

#[test]
fn mates_are_found_and_end_in_checkmate() {
    for (variant, fen, n) in MATES {
        assert_mate_in(variant, fen, n);
    }
}

#[test]
fn a_free_piece_is_taken() {
    // Xiangqi and Jieqi: the black horse on e5 stands alone in front of the chariot; shogi:
    // the gote rook on 5e is undefended.
    for (variant, fen, capture) in FREE_PIECES {
        let input = Input::from_text(variant, fen, &[]).expect("test position is valid");
        assert_eq!(best_move(&input, 5), capture, "{variant} {fen}");
    }
}

/// The move a fresh engine chooses for `input`, searching to `depth`.
fn best_move(input: &Input, depth: u32) -> String {
    chosen(&best_at_depth(&mut engine(), input, depth).decision).to_owned()
}

/// The score of `mv` among all root moves ranked to `depth`.
fn score_of(input: &Input, depth: u32, mv: &str) -> i32 {
    let ranked = engine().rank_moves(input, depth);
    ranked
        .iter()
        .find(|(m, _)| m == mv)
        .unwrap_or_else(|| panic!("{mv} is among the moves: {ranked:?}"))
        .1
}

#[test]
fn a_losing_perpetual_chase_is_avoided() {
    // Red's chariot chases the unprotected black horse (xiangqi.md); Black's general is well
    // guarded. After e9e7 a7b9 e7e9 b9a7 e9e7 a7b9, Red's e7e9 would chase once more around
    // the same cycle: a loss for Red by the rules, so the engine scores it as one and plays
    // something else. From the same position without that history, e7e9 is an ordinary move.
    let fen = "4Rab2/5k3/n4a2b/9/9/9/9/9/9/3K5 w - - 0 1";
    let history = ["e9e7", "a7b9", "e7e9", "b9a7", "e9e7", "a7b9"];
    let repeated = Input::from_text(Variant::Xiangqi, fen, &history).unwrap();
    assert_eq!(score_of(&repeated, 4, "e7e9"), -(MATE - 1));
    let thought = best_at_depth(&mut engine(), &repeated, 6);
    assert_ne!(chosen(&thought.decision), "e7e9");
    assert!(
        thought.score > -MATE_BOUND,
        "Red does not lose: {}",
        thought.score
    );

    let here = "1n3ab2/5k3/4Ra2b/9/9/9/9/9/9/3K5 w - - 0 1";
    let fresh = Input::from_text(Variant::Xiangqi, here, &[]).unwrap();
    assert!(score_of(&fresh, 4, "e7e9").abs() < MATE_BOUND);
}

#[test]
fn the_opponents_losing_chase_is_used() {
    // The same chase seen from Black: after e9e7 a7b9 e7e9 b9a7 e9e7, Black's a7b9 repeats the
    // cycle in which only Red chased: Red loses, so the engine (Black) scores it as a win.
    let fen = "4Rab2/5k3/n4a2b/9/9/9/9/9/9/3K5 w - - 0 1";
    let history = ["e9e7", "a7b9", "e7e9", "b9a7", "e9e7"];
    let input = Input::from_text(Variant::Xiangqi, fen, &history).unwrap();
    assert_eq!(score_of(&input, 4, "a7b9"), MATE - 1);
    assert_eq!(best_move(&input, 4), "a7b9");
}

#[test]
fn a_losing_perpetual_check_is_avoided() {
    // Red has only checks against Black's mating net (the black chariots threaten i2i0). Red
    // has checked on a8 and a9 while Black's general shuffled; a8a9 now would be the third
    // occurrence, Red's perpetual check: a loss now, so the engine prefers to play on.
    let fen = "9/4k4/9/R8/9/9/9/8r/7r1/3K5 w - - 0 1";
    let history = "a6a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9";
    let moves: Vec<&str> = history.split(' ').collect();
    let input = Input::from_text(Variant::Xiangqi, fen, &moves).unwrap();
    assert_eq!(score_of(&input, 4, "a8a9"), -(MATE - 1));
    assert_ne!(best_move(&input, 5), "a8a9");
    // Without the history the check is what the engine plays (it delays the mate).
    let here = "4k4/R8/9/9/9/9/9/8r/7r1/3K5 w - - 0 1";
    let fresh = Input::from_text(Variant::Xiangqi, here, &[]).unwrap();
    assert_eq!(best_move(&fresh, 5), "a8a9");
}

#[test]
fn shogi_perpetual_check_loses_and_minishogi_repetition_loses_for_sente() {
    // Sente's rook checks on ranks a and b while gote's king steps between 5a and 5b: 9b9a
    // would repeat the cycle of checks, sennichite with perpetual check, a loss for sente.
    let fen = "4k4/9/9/9/9/9/9/9/R3K4 b - 1";
    let history = ["9i9a", "5a5b", "9a9b", "5b5a"];
    let input = Input::from_text(Variant::Shogi, fen, &history).unwrap();
    assert_eq!(score_of(&input, 3, "9b9a"), -(MATE - 1));
    assert_ne!(best_move(&input, 3), "9b9a");
    // Minishogi: a plain repetition is a loss for sente (shogi.md), a win for gote.
    let mini = "2k2/5/5/5/2KG1 b - 1";
    let shuffle = ["3e4e", "3a4a", "4e3e", "4a3a"];
    let input = Input::from_text(Variant::Minishogi, mini, &shuffle).unwrap();
    assert_eq!(score_of(&input, 3, "3e4e"), -(MATE - 1));
    let gote = Input::from_text(Variant::Minishogi, mini, &shuffle[..3]).unwrap();
    assert_eq!(score_of(&gote, 3, "4a3a"), MATE - 1);
}

#[test]
fn impasse_is_declared_when_it_wins() {
    // Sente's king and ten pieces in the zone: 8 minor pieces (8 points), rook and bishop
    // (10), ten pawns in hand (10): 28 points, what sente needs.
    let fen = "+L+NSGKGS+N+L/1R5B1/9/9/9/9/9/9/4k4 b 10P8p 1";
    let input = Input::from_text(Variant::Shogi, fen, &[]).expect("valid SFEN");
    let thought = best_at_depth(&mut engine(), &input, 3);
    assert_eq!(thought.decision, Decision::DeclareImpasse);
    // With nine pawns (27 points) the declaration would fail: the engine plays on.
    let short = "+L+NSGKGS+N+L/1R5B1/9/9/9/9/9/9/4k4 b 9P9p 1";
    let input = Input::from_text(Variant::Shogi, short, &[]).expect("valid SFEN");
    let thought = best_at_depth(&mut engine(), &input, 3);
    assert!(matches!(thought.decision, Decision::Move(_)), "{thought:?}");
}

#[test]
fn a_mated_side_resigns() {
    // Gote to move, mated by the head gold.
    let input = Input::from_text(Variant::Shogi, "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 2", &[]).unwrap();
    assert_eq!(
        best_at_depth(&mut engine(), &input, 3).decision,
        Decision::Resign
    );
}

#[test]
fn jieqi_engine_sees_the_view_not_the_deal() {
    // Two games with different hidden deals and the same public moves (only the generals
    // move, so nothing is revealed): Red's views are the same, and so is the engine's move,
    // for the same seed, at full strength and at a level with noise.
    let mut games: Vec<JieqiGame> = [1u64, 2]
        .iter()
        .map(|&seed| JieqiGame::new(&mut ChaCha20Rng::seed_from_u64(seed)))
        .collect();
    assert_ne!(games[0].deal(), games[1].deal(), "the deals differ");
    for game in &mut games {
        for m in ["e0e1", "e9e8"] {
            game.play(m).unwrap();
        }
    }
    let views: Vec<_> = games.iter().map(|g| g.view(Observer::Red)).collect();
    assert_eq!(views[0].fen, views[1].fen);
    assert_eq!(views[0].pools, views[1].pools);
    for level in [8, 3] {
        let decisions: Vec<Decision> = views
            .iter()
            .map(|view| {
                let mut e = engine();
                e.set_level(level);
                e.set_seed(42);
                best_at_depth(&mut e, &Input::from_view(view).unwrap(), 2).decision
            })
            .collect();
        assert_eq!(decisions[0], decisions[1], "level {level}");
        // And the move is legal in both real games (the referee adds the dealt identity).
        for game in &mut games.clone() {
            game.play(chosen(&decisions[0])).unwrap();
        }
    }
}

#[test]
fn a_view_knows_the_covered_pieces_its_side_captured() {
    // Red's cannon takes a covered black piece; Red's view then knows it, so Red's engine
    // counts one identity fewer in Black's unseen pool than the public pool has.
    let mut game = JieqiGame::new(&mut ChaCha20Rng::seed_from_u64(3));
    game.play("h2h9").unwrap();
    let view = game.view(Observer::Red);
    let public = game.view(Observer::Spectator);
    let red = view.pools[Side::BLACK.index()].total();
    let everyone = public.pools[Side::BLACK.index()].total();
    assert_eq!(red + 1, everyone);
    assert!(Input::from_view(&view).is_ok());
}

#[test]
fn a_stopped_search_still_answers_a_legal_move() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    for variant in Variant::ALL {
        let input = Input::from_text(variant, "startpos", &[]).unwrap();
        let go = jiang_engine::Go {
            stop: Some(Arc::new(AtomicBool::new(true))),
            ..jiang_engine::Go::default()
        };
        let thought = engine().think(&input, &go, &mut |_| {});
        let mv = chosen(&thought.decision).to_owned();
        let legal = match variant {
            Variant::Xiangqi | Variant::Jieqi => {
                xiangqi::Position::start(variant).legal_move_texts()
            }
            _ => shogi::Position::startpos(variant).legal_move_texts(),
        };
        assert!(legal.contains(&mv), "{variant}: {mv}");
    }
}

/// The free-piece positions of [`a_free_piece_is_taken`] with their capture.
const FREE_PIECES: [(Variant, &str, &str); 4] = [
    (
        Variant::Xiangqi,
        "5k3/9/9/9/4n4/9/9/9/9/3KR4 w - - 0 1",
        "e0e5",
    ),
    (Variant::Jieqi, "5k3/9/9/9/4n4/9/9/9/9/3KR4 w - 0 1", "e0e5"),
    (Variant::Shogi, "4k4/9/9/9/4r4/9/9/4R4/4K4 b - 1", "5h5e"),
    (Variant::Minishogi, "2k2/5/2r2/5/2RK1 b - 1", "3e3c"),
];

#[test]
fn a_node_cap_never_cuts_the_first_iteration() {
    // One node allowed: the first iteration still ranks every root move, so the free piece
    // is taken (a cut first iteration would answer the first generated move).
    for (variant, fen, capture) in FREE_PIECES {
        let input = Input::from_text(variant, fen, &[]).unwrap();
        let go = jiang_engine::Go {
            nodes: Some(1),
            ..jiang_engine::Go::default()
        };
        let thought = engine().think(&input, &go, &mut |_| {});
        assert_eq!(chosen(&thought.decision), capture, "{variant}");
        assert!(thought.depth >= 1, "{variant}");
    }
}

#[test]
fn level_one_takes_a_free_piece_at_least_half_the_time() {
    // Level 1 blunders, yet it is no random mover: a free piece is taken at least half the
    // time (xiangqi, shogi, minishogi; Jieqi's level 1 is wilder, see level.rs).
    for (variant, fen, capture) in FREE_PIECES {
        if variant == Variant::Jieqi {
            continue;
        }
        let input = Input::from_text(variant, fen, &[]).unwrap();
        let mut taken = 0;
        for seed in 0..40 {
            let mut e = engine();
            e.set_level(1);
            e.set_seed(seed);
            let thought = e.think(&input, &jiang_engine::engine::movetime(100), &mut |_| {});
            if chosen(&thought.decision) == capture {
                taken += 1;
            }
        }
        assert!(taken >= 20, "{variant}: {taken} of 40");
    }
}

#[test]
fn the_random_mover_plays_varied_legal_moves_without_searching() {
    for variant in Variant::ALL {
        let input = Input::from_text(variant, "startpos", &[]).unwrap();
        let legal = match variant {
            Variant::Xiangqi | Variant::Jieqi => {
                xiangqi::Position::start(variant).legal_move_texts()
            }
            _ => shogi::Position::startpos(variant).legal_move_texts(),
        };
        let mut seen = std::collections::BTreeSet::new();
        for seed in 0..30 {
            let mut e = engine();
            e.set_random_mover(true);
            e.set_seed(seed);
            let thought = e.think(&input, &jiang_engine::engine::movetime(100), &mut |_| {});
            let mv = chosen(&thought.decision).to_owned();
            assert!(legal.contains(&mv), "{variant}: {mv}");
            assert_eq!(thought.nodes, 0, "{variant}: no search");
            seen.insert(mv);
        }
        assert!(seen.len() >= 8, "{variant}: {seen:?}");
    }
}

#[test]
fn a_new_game_forgets_earlier_searches() {
    // A node-limited search after `new_game` is exactly a fresh engine's, whatever the engine
    // searched before (the table and the move ordering's history are both forgotten): a
    // computer review gives the same verdicts whatever the pool's engines did in between.
    let go = |nodes| jiang_engine::Go {
        nodes: Some(nodes),
        ..jiang_engine::Go::default()
    };
    for (variant, moves, other) in [
        (
            Variant::Xiangqi,
            &["h2e2", "h9g7", "h0g2", "i9h9"][..],
            &["b2e2", "b9c7", "b0c2"][..],
        ),
        (
            Variant::Shogi,
            &["7g7f", "3c3d", "2g2f"][..],
            &["5g5f", "8c8d"][..],
        ),
    ] {
        let start = match variant {
            Variant::Shogi => shogi::Position::start(variant).fen(),
            _ => xiangqi::Position::start(variant).fen(),
        };
        let input = Input::from_text(variant, &start, moves).unwrap();
        let before = Input::from_text(variant, &start, other).unwrap();
        let fresh = engine().think(&input, &go(30_000), &mut |_| {});
        let mut used = engine();
        used.think(&before, &go(60_000), &mut |_| {});
        used.think(&input, &go(45_000), &mut |_| {});
        used.new_game();
        let again = used.think(&input, &go(30_000), &mut |_| {});
        assert_eq!(
            (again.decision, again.score, again.nodes, again.depth),
            (fresh.decision, fresh.score, fresh.nodes, fresh.depth),
            "{variant}"
        );
    }
}
