//! Engine-against-engine games refereed by the rules crate, for the tuner and the level
//! ladder (examples only: Jieqi deals need a CSPRNG, which the engine crate does not depend
//! on). Each engine sees only what its seat may know: for Jieqi, its own view.

#![allow(dead_code)] // each example uses a part

use jiang_engine::{Decision, Engine, Go, Input};
use jiang_rules::jieqi::{JieqiGame, Observer};
use jiang_rules::{Game as _, Outcome, Position as _, Reason, Side, Variant, shogi, xiangqi};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

/// Plies after which a game is adjudicated a draw.
pub const MAX_PLIES: usize = 300;

/// A game in progress.
pub enum Table {
    /// Xiangqi.
    Xiangqi(Box<xiangqi::Game>),
    /// Jieqi with its hidden deal (the referee's only).
    Jieqi(Box<JieqiGame>),
    /// Shogi or Minishogi.
    Shogi(Box<shogi::Game>),
}

impl Table {
    /// A new game of `variant` (Jieqi dealt from `rng`).
    pub fn new(variant: Variant, rng: &mut ChaCha20Rng) -> Table {
        match variant {
            Variant::Xiangqi => Table::Xiangqi(Box::new(xiangqi::Game::new(
                xiangqi::Position::start(variant),
            ))),
            Variant::Jieqi => Table::Jieqi(Box::new(JieqiGame::new(rng))),
            _ => Table::Shogi(Box::new(shogi::Game::new(shogi::Position::startpos(
                variant,
            )))),
        }
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        match self {
            Table::Xiangqi(g) => g.position().turn(),
            Table::Jieqi(g) => g.position().turn(),
            Table::Shogi(g) => g.position().turn(),
        }
    }

    /// What the side to move may know, as engine input.
    pub fn input(&self) -> Input {
        match self {
            Table::Xiangqi(g) => jiang_engine::engine::from_xiangqi_game(g),
            Table::Jieqi(g) => Input::from_view(&g.view(Observer::player(g.position().turn())))
                .expect("a view reads back"),
            Table::Shogi(g) => {
                let moves: Vec<String> = g.moves().iter().map(|m| m.to_string()).collect();
                let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
                Input::from_text(g.position().variant(), &g.start().fen(), &refs)
                    .expect("a game reads back")
            }
        }
    }

    /// The legal moves as the mover would send them.
    pub fn legal(&self) -> Vec<String> {
        match self {
            Table::Xiangqi(g) => g.position().legal_move_texts(),
            Table::Jieqi(g) => g.legal_moves(),
            Table::Shogi(g) => g.position().legal_move_texts(),
        }
    }

    /// Plays a move (or `win`); an illegal one loses for the mover.
    pub fn play(&mut self, text: &str) -> Result<(), String> {
        match self {
            Table::Xiangqi(g) => g.play_text(text).map_err(|e| e.to_string()),
            Table::Jieqi(g) => g.play(text).map(|_| ()).map_err(|e| e.to_string()),
            Table::Shogi(g) => g.play_text(text).map_err(|e| e.to_string()),
        }
    }

    /// The outcome by the rules, if over.
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            Table::Xiangqi(g) => g.outcome(),
            Table::Jieqi(g) => g.outcome(),
            Table::Shogi(g) => g.outcome(),
        }
    }

    /// Plies played.
    pub fn ply(&self) -> usize {
        match self {
            Table::Xiangqi(g) => g.ply(),
            Table::Jieqi(g) => g.public_game().ply(),
            Table::Shogi(g) => g.moves().len(),
        }
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
    let mut table = Table::new(variant, &mut rng);
    for _ in 0..opening {
        let legal = table.legal();
        if legal.is_empty() || table.outcome().is_some() {
            break;
        }
        let pick = &legal[(rng.next_u64() % legal.len() as u64) as usize];
        table.play(pick).expect("a legal move");
    }
    play_out(&mut table, |table, mover| {
        let input = table.input();
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
    let mut table = Table::new(variant, &mut rng);
    play_out(&mut table, |table, mover| {
        if mover == side {
            decided(
                engine.think(&table.input(), go, &mut |_| {}).decision,
                mover,
            )
        } else {
            let legal = table.legal();
            Ok(legal[(rng.next_u64() % legal.len() as u64) as usize].clone())
        }
    })
}

/// Plays `table` to its end: `choose` gives the mover's move text, or the outcome that ends
/// the game instead (a resignation); a move the table refuses resigns, the ply cap draws.
fn play_out(
    table: &mut Table,
    mut choose: impl FnMut(&Table, Side) -> Result<String, Outcome>,
) -> Outcome {
    loop {
        if let Some(outcome) = table.outcome() {
            return outcome;
        }
        if table.ply() >= MAX_PLIES {
            return Outcome::draw(Reason::MoveLimit);
        }
        let mover = table.turn();
        let text = match choose(table, mover) {
            Ok(text) => text,
            Err(outcome) => return outcome,
        };
        if table.play(&text).is_err() {
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
