//! The engine as a protocol front end uses it: one object per game session holding the
//! options (hash, level, MultiPV, seed) and the searchers, thinking about an [`Input`] within
//! [`Go`] limits and answering a [`Decision`].

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use jiang_rules::jieqi::JieqiView;
use jiang_rules::{AnyGame, Side, Variant, shogi, xiangqi};

use crate::level::{self, Rng};
use crate::search::{Info, Limits, Outcome, Searcher};
use crate::shogi::ShogiNode;
use crate::smp::search_threads;
use crate::time::{Clock, Ponder};
use crate::tree::{GameTree, Line};
use crate::xiangqi::{InputError as XiangqiInputError, Knowledge, XiangqiNode};

/// What the engine is asked to think about: a game as its side may know it.
///
/// For Jieqi this is always [`Knowledge`] (a public position and view): there is no way to
/// hand the engine a deal.
#[derive(Clone, Debug)]
pub enum Input {
    /// Xiangqi or Jieqi, as public moves plus the searching side's knowledge.
    Xiangqi(Box<Knowledge>),
    /// Shogi or Minishogi, as a game (history for sennichite).
    Shogi(Box<shogi::Game>),
}

/// Why a position or a move list could not be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// Xiangqi family.
    #[error(transparent)]
    Xiangqi(#[from] XiangqiInputError),
    /// Shogi family: the SFEN.
    #[error("invalid position: {0}")]
    Sfen(#[from] shogi::SfenError),
    /// Shogi family: a move.
    #[error("move {index} (`{text}`) is not legal: {reason}")]
    Move {
        /// 1-based index.
        index: usize,
        /// The text.
        text: String,
        /// Why.
        reason: String,
    },
}

impl Input {
    /// A game from text: a FEN/SFEN (or `startpos`) and moves in machine notation.
    pub fn from_text(variant: Variant, fen: &str, moves: &[&str]) -> Result<Input, InputError> {
        match variant {
            Variant::Xiangqi | Variant::Jieqi => Ok(Input::Xiangqi(Box::new(
                Knowledge::from_public(variant, fen, moves)?,
            ))),
            Variant::Shogi | Variant::Minishogi => {
                let start = if fen == "startpos" {
                    shogi::Position::startpos(variant)
                } else {
                    shogi::Position::from_sfen(variant, fen)?
                };
                let mut game = shogi::Game::new(start);
                for (i, text) in moves.iter().enumerate() {
                    game.play_token(text).map_err(|e| InputError::Move {
                        index: i + 1,
                        text: (*text).to_owned(),
                        reason: e.to_string(),
                    })?;
                }
                Ok(Input::Shogi(Box::new(game)))
            }
        }
    }

    /// A Jieqi game as one player (or spectator) sees it.
    pub fn from_view(view: &JieqiView) -> Result<Input, InputError> {
        Ok(Input::Xiangqi(Box::new(Knowledge::from_view(view)?)))
    }

    /// What an engine playing `seat` in `game` may know: the public game, and in Jieqi that
    /// seat's view ([`AnyGame::seat_view`], never the deal).
    pub fn for_seat(game: &AnyGame, seat: Side) -> Result<Input, InputError> {
        match game.seat_view(seat) {
            Some(view) => Input::from_view(&view),
            None => {
                let moves: Vec<&str> = game.moves().iter().map(String::as_str).collect();
                Input::from_text(game.variant(), &game.initial_fen(), &moves)
            }
        }
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        match self {
            Input::Xiangqi(k) => k.position().variant(),
            Input::Shogi(g) => g.position().variant(),
        }
    }
}

/// How to search this move (the protocol's `go`).
#[derive(Clone, Debug, Default)]
pub struct Go {
    /// The clock (or a fixed time per move).
    pub clock: Clock,
    /// Search to this depth at most.
    pub depth: Option<u32>,
    /// Search about this many nodes at most.
    pub nodes: Option<u64>,
    /// Search until stopped (`go infinite`).
    pub infinite: bool,
    /// Set to stop the search early.
    pub stop: Option<Arc<AtomicBool>>,
    /// Only these root moves (`searchmoves`, machine notation); empty for all.
    pub searchmoves: Vec<String>,
    /// `go ponder`: the clock's limits start at the ponder hit.
    pub ponder: Option<Arc<Ponder>>,
}

/// What the engine decided.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play this move (machine notation; a Jieqi covered piece's move without identity).
    Move(String),
    /// Shogi: declare impasse (USI `bestmove win`).
    DeclareImpasse,
    /// No legal move: the game is lost (USI `bestmove resign`).
    Resign,
}

/// The answer to one `go`.
#[derive(Clone, Debug)]
pub struct Thought {
    /// What to do.
    pub decision: Decision,
    /// The score of the chosen move from the mover's view.
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The line the chosen move starts (machine notation; at least the move when there is
    /// one).
    pub pv: Vec<String>,
}

/// An engine session: options and search state kept between moves of a game.
pub struct Engine {
    hash_mb: usize,
    level: u8,
    multi_pv: usize,
    threads: usize,
    random_mover: bool,
    rng: Rng,
    xiangqi: Option<Searcher<XiangqiNode>>,
    shogi: Option<Searcher<ShogiNode>>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl Engine {
    /// Default hash size in MB.
    pub const DEFAULT_HASH_MB: usize = 16;
    /// The largest hash size accepted, in MB.
    pub const MAX_HASH_MB: usize = 4096;
    /// The most search threads.
    pub const MAX_THREADS: usize = 64;

    /// An engine at level 8 with a 16 MB table and seed 0.
    pub fn new() -> Engine {
        Engine {
            hash_mb: Self::DEFAULT_HASH_MB,
            level: level::MAX,
            multi_pv: 1,
            threads: 1,
            random_mover: false,
            rng: Rng::new(0),
            xiangqi: None,
            shogi: None,
        }
    }

    /// Sets the table size (MB, clamped to 1–4096); the table is rebuilt on next use.
    pub fn set_hash(&mut self, megabytes: usize) {
        self.hash_mb = megabytes.clamp(1, Self::MAX_HASH_MB);
        self.xiangqi = None;
        self.shogi = None;
    }

    /// Sets how many threads search (clamped to 1–[`Engine::MAX_THREADS`]).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, Self::MAX_THREADS);
    }

    /// Sets the level (clamped to 1–8).
    pub fn set_level(&mut self, level: u8) {
        self.level = level.clamp(level::MIN, level::MAX);
    }

    /// The level.
    pub fn level(&self) -> u8 {
        self.level
    }

    /// Makes the engine a random mover (whatever the level): it plays a legal move chosen
    /// uniformly at random, without searching — the weakest possible opponent, a yardstick
    /// for the levels.
    pub fn set_random_mover(&mut self, random: bool) {
        self.random_mover = random;
    }

    /// Sets how many lines `info` reports (at least 1).
    pub fn set_multi_pv(&mut self, lines: usize) {
        self.multi_pv = lines.clamp(1, 64);
    }

    /// Seeds the levels' choices (the engine is deterministic for a given seed and input).
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// Forgets what earlier searches taught the engine (a new game): the table and the move
    /// ordering's history, so that a node-limited search of an input gives the same answer
    /// whatever the engine searched before (a review is repeatable).
    pub fn new_game(&mut self) {
        if let Some(s) = &mut self.xiangqi {
            s.forget();
        }
        if let Some(s) = &mut self.shogi {
            s.forget();
        }
    }

    /// Every root move of `input` with its score from the mover's view, best first, each
    /// searched exactly to `depth` (MultiPV over all moves, at full strength): for analysis
    /// and tests.
    pub fn rank_moves(&mut self, input: &Input, depth: u32) -> Vec<(String, i32)> {
        let limits = Limits {
            depth: Some(depth),
            multi_pv: usize::MAX,
            ..Limits::default()
        };
        let hash = self.hash_mb;
        match input {
            Input::Xiangqi(knowledge) => {
                let line = knowledge.line();
                let root = line.root.clone();
                let searcher = self.xiangqi.get_or_insert_with(|| Searcher::new(hash));
                ranking(&root, &searcher.search(line, limits, &mut |_| {}))
            }
            Input::Shogi(game) => {
                let line = crate::shogi::line(game);
                let root = line.root.clone();
                let searcher = self.shogi.get_or_insert_with(|| Searcher::new(hash));
                ranking(&root, &searcher.search(line, limits, &mut |_| {}))
            }
        }
    }

    /// Thinks about `input` within `go` and decides, calling `report` with progress.
    pub fn think(&mut self, input: &Input, go: &Go, report: &mut dyn FnMut(&Info)) -> Thought {
        let settings = level::settings(self.level, input.variant());
        let mut limits = Limits {
            depth: min_option(go.depth, settings.depth),
            nodes: min_option(go.nodes, settings.nodes),
            stop: go.stop.clone(),
            multi_pv: self.multi_pv.max(settings.candidates),
            searchmoves: go.searchmoves.clone(),
            ponder: go.ponder.clone(),
            ..Limits::default()
        };
        if !go.infinite {
            if let Some(budget) = go.clock.budget() {
                let share = |d: Duration| d * settings.time_percent / 100;
                limits.hard_time = Some(share(budget.hard).max(Duration::from_millis(1)));
                limits.soft_time = Some(share(budget.soft));
            }
        }
        let hash = self.hash_mb;
        // The weaker levels are a measured ladder of capped single-threaded searches: only
        // full strength uses more threads.
        let threads = if self.level == level::MAX {
            self.threads
        } else {
            1
        };
        match input {
            Input::Xiangqi(knowledge) => {
                let searcher = self.xiangqi.get_or_insert_with(|| Searcher::new(hash));
                let run = Run {
                    threads,
                    limits,
                    temperature: settings.temperature,
                };
                run.think(
                    searcher,
                    knowledge.line(),
                    self.random_mover,
                    &mut self.rng,
                    report,
                )
            }
            Input::Shogi(game) => {
                if game.can_declare_impasse().is_ok() {
                    return Thought {
                        decision: Decision::DeclareImpasse,
                        score: crate::score::MATE,
                        depth: 0,
                        nodes: 0,
                        pv: Vec::new(),
                    };
                }
                let searcher = self.shogi.get_or_insert_with(|| Searcher::new(hash));
                let run = Run {
                    threads,
                    limits,
                    temperature: settings.temperature,
                };
                let line = crate::shogi::line(game);
                run.think(searcher, line, self.random_mover, &mut self.rng, report)
            }
        }
    }
}

fn min_option<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, None) => a,
        (None, b) => b,
    }
}

fn ranking<T: GameTree>(root: &T, outcome: &Outcome<T::Move>) -> Vec<(String, i32)> {
    outcome
        .ranked
        .iter()
        .map(|r| (root.move_text(r.mv), r.score))
        .collect()
}

/// One search's settings, the same for either family's tree.
struct Run {
    threads: usize,
    limits: Limits,
    temperature: i32,
}

impl Run {
    /// Searches from `root` (after `history`, reached by `moves`) and decides; the random
    /// mover picks any legal move instead.
    fn think<T: GameTree>(
        self,
        searcher: &mut Searcher<T>,
        line: Line<T>,
        random_mover: bool,
        rng: &mut Rng,
        report: &mut dyn FnMut(&Info),
    ) -> Thought {
        if random_mover {
            return random_move(&line.root, rng);
        }
        let root = line.root.clone();
        let outcome = search_threads(searcher, self.threads, line, self.limits, report);
        decide(&root, outcome, self.temperature, rng)
    }
}

/// A legal move of `root` chosen uniformly at random (resigns when there is none).
fn random_move<T: GameTree>(root: &T, rng: &mut Rng) -> Thought {
    let mut moves = Vec::new();
    root.generate(&mut moves);
    let (decision, pv) = if moves.is_empty() {
        (Decision::Resign, Vec::new())
    } else {
        let index = ((rng.unit() * moves.len() as f64) as usize).min(moves.len() - 1);
        let text = root.move_text(moves[index]);
        (Decision::Move(text.clone()), vec![text])
    };
    Thought {
        decision,
        score: 0,
        depth: 0,
        nodes: 0,
        pv,
    }
}

/// The move to play from a search's ranking, with the level's temperature.
fn decide<T: GameTree>(
    root: &T,
    outcome: Outcome<T::Move>,
    temperature: i32,
    rng: &mut Rng,
) -> Thought {
    if outcome.ranked.is_empty() {
        return Thought {
            decision: Decision::Resign,
            score: -crate::score::MATE,
            depth: outcome.depth,
            nodes: outcome.nodes,
            pv: Vec::new(),
        };
    }
    let candidates: Vec<_> = outcome
        .ranked
        .iter()
        .take_while(|r| r.score > -crate::score::INFINITY)
        .collect();
    let index = if candidates.is_empty() {
        0
    } else {
        let scores: Vec<i32> = candidates.iter().map(|r| r.score).collect();
        // Never throw away a forced mate, nor walk into one, by noise.
        let pick = level::choose(&scores, temperature, rng);
        if crate::score::is_mate(scores[0]) || crate::score::is_mate(scores[pick]) {
            0
        } else {
            pick
        }
    };
    let chosen = &outcome.ranked[index];
    Thought {
        decision: Decision::Move(root.move_text(chosen.mv)),
        score: chosen.score,
        depth: outcome.depth,
        nodes: outcome.nodes,
        pv: crate::search::pv_text(root, &chosen.pv),
    }
}

/// Convenience for tests and tools: the move `engine` plays in `input` searched to `depth`.
pub fn best_at_depth(engine: &mut Engine, input: &Input, depth: u32) -> Thought {
    let go = Go {
        depth: Some(depth),
        ..Go::default()
    };
    engine.think(input, &go, &mut |_| {})
}

/// A fixed time per move.
pub fn movetime(ms: u64) -> Go {
    Go {
        clock: Clock {
            movetime: Some(Duration::from_millis(ms)),
            ..Clock::default()
        },
        ..Go::default()
    }
}

/// Reads a xiangqi-family public game into an input (a Jieqi public game knows only the
/// public pools).
pub fn from_xiangqi_game(game: &xiangqi::Game) -> Input {
    let texts: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let variant = game.position().variant();
    Input::Xiangqi(Box::new(
        Knowledge::from_public(variant, &game.start().to_fen(), &refs)
            .expect("a game's own moves are legal"),
    ))
}
