//! Jiang's engine: one game-tree search for Xiangqi, Jieqi, Shogi and Minishogi, on top of
//! `jiang-rules` (its move generation, Zobrist keys and repetition verdicts).
//!
//! Pure and synchronous: no I/O, and no threads of its own unless asked for more than one
//! ([`Engine::set_threads`]: [`smp`] then runs helper threads inside [`Engine::think`]). A
//! protocol front end (`jiang engine`, the server's engine pool) runs [`Engine::think`] on a
//! thread of its choosing and stops it through [`Go::stop`].
//!
//! - [`search`]: iterative deepening, PVS alpha-beta with aspiration windows, transposition
//!   table, quiescence, move ordering, null move, LMR, exchange (SEE) pruning, check
//!   extension, mate scores, repetition verdicts, and Jieqi chance nodes; `see`: the static
//!   exchange evaluation both families share.
//! - [`tree::GameTree`]: what a family provides; [`xiangqi`] and [`shogi`] implement it.
//! - [`eval`]: evaluation per family as weighted terms (the tuner fits the weights).
//! - [`time`]: budgets for Fischer, byo-yomi and fixed times, and pondering; [`level`]:
//!   levels 1–8.
//! - [`smp`]: Lazy SMP over the shared table ([`tt`]); [`mate`]: the tsume search (USI
//!   `go mate`).
//! - Jieqi: the engine takes a [`xiangqi::Knowledge`] (a public position and one side's
//!   view), never a deal.

#![warn(missing_docs)]

pub mod engine;
pub mod eval;
pub mod level;
pub mod mate;
pub mod score;
pub mod search;
mod see;
pub mod shogi;
pub mod smp;
pub mod time;
pub mod tree;
pub mod tt;
pub mod xiangqi;

pub use engine::{Decision, Engine, Go, Input, InputError, Thought};
pub use search::{Info, Limits};
pub use time::{Clock, Ponder};
