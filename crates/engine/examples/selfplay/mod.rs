//! Engine-against-engine games refereed by the rules crate, for the tuner and the level
//! ladder (examples only: Jieqi deals need a CSPRNG, which the engine crate does not depend
//! on). Each engine sees only what its seat may know: for Jieqi, its own view.

#![allow(dead_code)] // each example uses a part

use jiang_engine::{Decision, Engine, Go, Input};
use jiang_rules::{AnyGame, Outcome, Reason, RefusedMove, Side, Variant};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

/// Plies after which a game is adjudicated a draw.
pub const MAX_PLIES: usize = 300;

/// What the side to move in `game` may know, as engine input (Jieqi: its own view).
fn input(game: &AnyGame) -> Input {
    Input::for_seat(game, game.turn()).expect("a game reads back")
}

/// Plays a move, or `win` (an impasse declaration).
fn play(game: &mut AnyGame, text: &str) -> Result<(), RefusedMove> {
    if text == "win" {
        game.declare_impasse().map(|_| ())
    } else {
        game.play_engine_move(text).map(|_| ())
    }
}

/// Plays one game: `engines[0]` has the first side. `opening` random plies first. Calls
/// `seen` with every input the engines think about. Returns the outcome.
pub fn play_game(
    variant: Variant,
    engines: &mut [Engine; 2],
    go: &Go,
    opening: usize,
    seed: u64,
    seen: &mut dyn FnMut(&Input),
) -> Outcome {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut game = AnyGame::new(variant, &mut rng);
    for _ in 0..opening {
        let legal = game.legal_moves();
        if legal.is_empty() || game.outcome().is_some() {
            break;
        }
        let pick = &legal[(rng.next_u64() % legal.len() as u64) as usize];
        play(&mut game, pick).expect("a legal move");
    }
    play_out(&mut game, |game, mover| {
        let input = input(game);
        seen(&input);
        let thought = engines[mover.index()].think(&input, go, &mut |_| {});
        decided(thought.decision, mover)
    })
}

/// Plays `engine` (on `side`) against a mover of uniformly random legal moves.
pub fn play_vs_random(
    variant: Variant,
    engine: &mut Engine,
    side: Side,
    go: &Go,
    seed: u64,
) -> Outcome {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut game = AnyGame::new(variant, &mut rng);
    play_out(&mut game, |game, mover| {
        if mover == side {
            decided(engine.think(&input(game), go, &mut |_| {}).decision, mover)
        } else {
            let legal = game.legal_moves();
            Ok(legal[(rng.next_u64() % legal.len() as u64) as usize].clone())
        }
    })
}

/// Plays `game` to its end: `choose` gives the mover's move text, or the outcome that ends
/// the game instead (a resignation); a move the rules refuse resigns, the ply cap draws.
fn play_out(
    game: &mut AnyGame,
    mut choose: impl FnMut(&AnyGame, Side) -> Result<String, Outcome>,
) -> Outcome {
    loop {
        if let Some(outcome) = game.outcome() {
            return outcome;
        }
        if game.ply() >= MAX_PLIES {
            return Outcome::draw(Reason::MoveLimit);
        }
        let mover = game.turn();
        let text = match choose(game, mover) {
            Ok(text) => text,
            Err(outcome) => return outcome,
        };
        if play(game, &text).is_err() {
            return Outcome::win(!mover, Reason::Resignation);
        }
    }
}

/// The move text of an engine's `decision` for `mover` (`win` declares an impasse), or the
/// outcome of its resignation.
fn decided(decision: Decision, mover: Side) -> Result<String, Outcome> {
    match decision {
        Decision::Move(m) => Ok(m),
        Decision::DeclareImpasse => Ok("win".to_owned()),
        Decision::Resign => Err(Outcome::win(!mover, Reason::Resignation)),
    }
}
