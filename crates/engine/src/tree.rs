//! What the search needs from a family: one trait, implemented by the xiangqi family (with
//! Jieqi's chance moves) and the shogi family, so one search serves all four variants.

use jiang_rules::Side;

/// The verdict of a repetition cycle found on the search path (or reaching into the game's
/// history): a draw, or a win for one side (perpetual check or chase, minishogi's rule).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Plain repetition.
    Draw,
    /// The side that wins by the repetition rules.
    Win(Side),
}

/// One identity a covered Jieqi piece may turn out to be, and how many of it remain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chance {
    /// How many identities of this kind the mover's unseen pool holds (the weight).
    pub weight: u32,
    /// Which identity (family-specific tag passed back to [`GameTree::play`]).
    pub tag: u8,
}

/// A node of the game tree as the search walks it: a position plus what the family needs to
/// play, order, evaluate and judge it. Nodes are copied and played (copy-make).
pub trait GameTree: Clone + Send + 'static {
    /// A move as the searching side chooses it (a Jieqi move of a covered piece has no
    /// identity: that is chance's part).
    type Move: Copy + Eq + Send + std::fmt::Debug + 'static;

    /// A hash of everything the evaluation depends on (position, side to move, pools).
    fn key(&self) -> u64;
    /// The side to move.
    fn turn(&self) -> Side;
    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;
    /// Clears `out` and pushes every legal move.
    fn generate(&self, out: &mut Vec<Self::Move>);
    /// Pushes into `out` (cleared first) the identities `mv` may reveal with their weights;
    /// leaves it empty when `mv` is deterministic.
    fn chances(&self, mv: Self::Move, out: &mut Vec<Chance>);
    /// How much better (for the mover, in centipawns) the identity `tag` is than the average
    /// of the identities `mv` may reveal: the material part of the chance, which the search
    /// takes out of each child's window.
    fn chance_offset(&self, _mv: Self::Move, _tag: u8) -> i32 {
        0
    }
    /// The node after `mv` (with the identity `tag` from [`GameTree::chances`] for a chance
    /// move, `None` otherwise).
    fn play(&self, mv: Self::Move, tag: Option<u8>) -> Self;
    /// Whether `mv` gives check (the search never prunes such a move). A family may answer
    /// `true` when it cannot tell cheaply (a Jieqi reveal).
    fn gives_check(&self, mv: Self::Move) -> bool;
    /// Whether quiescence search plays `mv`: captures (and, in shogi, promotions).
    fn is_noisy(&self, mv: Self::Move) -> bool;
    /// Whether `mv` at least breaks even by `threshold` centipawns for the mover once the
    /// exchange on its target is played out ([`crate::see`]): the search prunes moves that
    /// lose material and orders losing captures last.
    fn see_at_least(&self, mv: Self::Move, threshold: i32) -> bool;
    /// An ordering key for noisy moves: most valuable victim, least valuable attacker.
    fn mvv_lva(&self, mv: Self::Move) -> i32;
    /// The static evaluation from the side to move's point of view, in centipawns.
    fn evaluate(&self) -> i32;
    /// Whether a null move is sound enough here (the zugzwang guard: the side to move keeps
    /// enough material).
    fn null_move_ok(&self) -> bool;
    /// The node with the other side to move.
    fn pass(&self) -> Self;
    /// A score decided by the rules without search, from the side to move's view: 0 for a
    /// draw (move limit, insufficient material), `MATE` when the side to move wins at once
    /// (a winning impasse declaration).
    fn rules_score(&self) -> Option<i32>;
    /// How many plies back a repetition can reach (xiangqi: since the last capture).
    fn repetition_horizon(&self) -> usize;
    /// Whether `self` and `other` are the same position for repetition (keys already match).
    fn same_position(&self, other: &Self) -> bool;
    /// The verdict of a cycle: `cycle[0]` and the last node are the same position and
    /// `moves[i]` leads from `cycle[i]` to `cycle[i + 1]`.
    fn cycle_verdict(cycle: &[Self], moves: &[Self::Move]) -> Verdict;
    /// A 16-bit code for the transposition table (0 is never a move).
    fn encode(mv: Self::Move) -> u16;
    /// The move in machine notation (ICCS without reveal, or USI).
    fn move_text(&self, mv: Self::Move) -> String;
}

/// Where a search starts: the position searched and the game that led to it, which the
/// rules' repetition verdicts look back into.
#[derive(Clone, Debug)]
pub struct Line<T: GameTree> {
    /// The positions before the root that can still repeat, oldest first.
    pub history: Vec<T>,
    /// The move played from each of them (the last one reaches the root): as many as `history`.
    pub moves: Vec<T::Move>,
    /// The position searched.
    pub root: T,
}
