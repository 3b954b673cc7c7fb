//! The search, written once for every family: iterative deepening with aspiration windows,
//! principal-variation alpha-beta, a transposition table, quiescence, move ordering (table
//! move, MVV-LVA, killers, counter moves, history, losing captures last), null-move pruning,
//! late-move reductions, late-move and futility pruning of quiet moves near the leaves,
//! exchange (SEE) pruning of captures and quiet moves near the leaves and of losing captures
//! in quiescence, delta pruning in quiescence, check extension, mate scores, repetition verdicts from the rules, and Jieqi's chance nodes
//! (an expectation over the identities a covered piece may reveal, with Star1 bounds).

mod alphabeta;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::score::{EVAL_LIMIT, INFINITY, MATE, MATE_BOUND};
use crate::time::Ponder;
use crate::tree::{Chance, GameTree, Line, Verdict};
use crate::tt::Table;

const MAX_PLY: usize = 96;
/// How many plies shallower a chance node's less likely identities are searched below the
/// root (see `chance_value`; two plies saved little more than one).
const CHANCE_REDUCTION: i32 = 1;

/// When to stop searching.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The deepest iteration to complete.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (the first iteration always completes).
    pub nodes: Option<u64>,
    /// Stop at once when this much time has passed (the first iteration always completes).
    pub hard_time: Option<Duration>,
    /// Do not start a new iteration after this much time.
    pub soft_time: Option<Duration>,
    /// Set from outside (`stop`) to stop as soon as possible.
    pub stop: Option<Arc<AtomicBool>>,
    /// How many best root moves to rank (MultiPV); at least 1.
    pub multi_pv: usize,
    /// Only these root moves (machine notation; `searchmoves`), when any of them is legal.
    pub searchmoves: Vec<String>,
    /// Pondering: the time limits count from the ponder hit and do not run before it.
    pub ponder: Option<Arc<Ponder>>,
    /// Plies added to every iteration's depth (Lazy SMP helper threads search ahead of the
    /// main thread; 0 for the main search).
    pub depth_offset: u32,
}

/// A report after each completed iteration (and each MultiPV line).
#[derive(Clone, Debug)]
pub struct Info {
    /// The iteration's depth.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// 1-based MultiPV line.
    pub multipv: usize,
    /// The score from the root side's view.
    pub score: i32,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub elapsed: Duration,
    /// The principal variation in machine notation.
    pub pv: Vec<String>,
}

/// A root move with its latest score.
#[derive(Clone, Debug)]
pub struct RootMove<M> {
    /// The move.
    pub mv: M,
    /// Its latest score from the root side's view (`-INFINITY` if never searched fully).
    pub score: i32,
    /// The principal variation it starts.
    pub pv: Vec<M>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct Outcome<M> {
    /// The root moves ranked by the last completed iteration, best first (the first
    /// `multi_pv` are ranked exactly, the others follow in search order).
    pub ranked: Vec<RootMove<M>>,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

impl<M: Copy> Outcome<M> {
    /// The best move, if the root had any.
    pub fn best(&self) -> Option<M> {
        self.ranked.first().map(|r| r.mv)
    }

    /// The best move's score.
    pub fn score(&self) -> i32 {
        self.ranked.first().map_or(0, |r| r.score)
    }
}

/// The search of one position with its history: reusable state (table, ordering tables).
pub struct Searcher<T: GameTree> {
    /// The transposition table, kept between searches of a game (and shared with the
    /// helper threads of a multi-threaded search).
    pub table: Arc<Table>,
    /// The positions before the root, oldest first (the last one precedes the root).
    history: Vec<T>,
    /// `history_moves[i]` leads from `history[i]` to the next position (the root after the
    /// last one).
    history_moves: Vec<T::Move>,
    stack: Vec<T>,
    path_moves: Vec<Option<T::Move>>,
    killers: Vec<[u16; 2]>,
    /// The quiet move that last refuted each move (by the refuted move's code).
    counter_moves: Vec<u16>,
    history_scores: Vec<i32>,
    move_buffers: Vec<Vec<T::Move>>,
    chance_buffers: Vec<Vec<Chance>>,
    key_buffers: Vec<Vec<i32>>,
    quiet_buffers: Vec<Vec<u16>>,
    nodes: u64,
    next_check: u64,
    seldepth: usize,
    /// The iteration being searched (1 is never cut short by the node or time limits).
    iteration: u32,
    started: Instant,
    limits: Limits,
    aborted: bool,
}

impl<T: GameTree> Searcher<T> {
    /// A searcher with a table of `hash_mb` MB.
    pub fn new(hash_mb: usize) -> Searcher<T> {
        Searcher::with_table(Arc::new(Table::new(hash_mb)))
    }

    /// A searcher using `table`, which other searchers may share (Lazy SMP).
    pub fn with_table(table: Arc<Table>) -> Searcher<T> {
        Searcher {
            table,
            history: Vec::new(),
            history_moves: Vec::new(),
            stack: Vec::with_capacity(MAX_PLY + 2),
            path_moves: vec![None; MAX_PLY + 2],
            killers: vec![[0; 2]; MAX_PLY + 2],
            counter_moves: vec![0; 1 << 16],
            history_scores: vec![0; 1 << 16],
            move_buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(128)).collect(),
            chance_buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(8)).collect(),
            key_buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(128)).collect(),
            quiet_buffers: (0..MAX_PLY + 2).map(|_| Vec::with_capacity(128)).collect(),
            nodes: 0,
            next_check: 0,
            seldepth: 0,
            iteration: 0,
            started: Instant::now(),
            limits: Limits::default(),
            aborted: false,
        }
    }

    /// Forgets everything earlier searches learnt (the table, the killer moves and the
    /// history heuristic's scores), so that the next search is exactly a fresh searcher's:
    /// the same input and limits then give the same answer whatever was searched before.
    pub fn forget(&mut self) {
        self.table.clear();
        self.killers.fill([0; 2]);
        self.counter_moves.fill(0);
        self.history_scores.fill(0);
    }

    /// Searches `line`'s root within `limits`, calling `report` after each completed
    /// iteration.
    pub fn search(
        &mut self,
        line: Line<T>,
        limits: Limits,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome<T::Move> {
        let Line {
            history,
            moves: history_moves,
            root,
        } = line;
        assert_eq!(history.len(), history_moves.len());
        self.history = history;
        self.history_moves = history_moves;
        self.limits = limits;
        self.limits.multi_pv = self.limits.multi_pv.max(1);
        self.nodes = 0;
        self.next_check = 0;
        self.aborted = false;
        self.started = Instant::now();
        self.table.new_search();
        for k in &mut self.killers {
            *k = [0; 2];
        }
        for h in &mut self.history_scores {
            *h /= 8;
        }
        self.stack.clear();
        self.stack.push(root.clone());

        let mut moves = Vec::new();
        root.generate(&mut moves);
        if !self.limits.searchmoves.is_empty() {
            let wanted = &self.limits.searchmoves;
            let kept: Vec<T::Move> = moves
                .iter()
                .copied()
                .filter(|&m| {
                    let text = root.move_text(m);
                    wanted.iter().any(|w| {
                        *w == text || (w.len() == text.len() + 1 && w.starts_with(text.as_str()))
                    })
                })
                .collect();
            // None of them legal: the whole root is searched rather than nothing.
            if !kept.is_empty() {
                moves = kept;
            }
        }
        let mut ranked: Vec<RootMove<T::Move>> = moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITY,
                pv: vec![mv],
            })
            .collect();
        // Captures first before the first iteration.
        ranked.sort_by_key(|r| {
            if root.is_noisy(r.mv) {
                -root.mvv_lva(r.mv)
            } else {
                0
            }
        });
        let mut done = Outcome {
            ranked: ranked.clone(),
            depth: 0,
            nodes: 0,
        };
        if ranked.is_empty() {
            return done;
        }
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 4)
            .min(MAX_PLY as u32 - 4);
        let multi = self.limits.multi_pv.min(ranked.len());
        let mut depth = 1;
        while depth <= max_depth {
            self.iteration = depth;
            self.seldepth = 0;
            for line in 0..multi {
                let previous = ranked[line].score;
                let mut delta = 40;
                let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE_BOUND {
                    (previous - delta, previous + delta)
                } else {
                    (-INFINITY, INFINITY)
                };
                loop {
                    let searched = (depth + self.limits.depth_offset) as i32;
                    let score = self.search_root(&mut ranked[line..], searched, alpha, beta);
                    if self.aborted {
                        break;
                    }
                    if score <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (score - delta).max(-INFINITY);
                    } else if score >= beta {
                        beta = (score + delta).min(INFINITY);
                    } else {
                        break;
                    }
                    delta += delta;
                    if delta > 1000 {
                        alpha = -INFINITY;
                        beta = INFINITY;
                    }
                }
                if self.aborted {
                    break;
                }
                // The lines ranked so far stay; sort the rest by score for the next line.
                ranked[line..].sort_by_key(|r| -r.score);
                let best = &ranked[line];
                report(&Info {
                    depth,
                    seldepth: self.seldepth as u32,
                    multipv: line + 1,
                    score: best.score,
                    nodes: self.nodes,
                    elapsed: self.started.elapsed(),
                    pv: self.pv_text(&root, &best.pv),
                });
            }
            if self.aborted {
                // A partly searched iteration still tells something: a move reaches the front
                // only by beating the first move at this depth, so the front move is kept.
                if multi == 1 && ranked[0].score > -INFINITY {
                    let front = ranked[0].clone();
                    done.ranked.retain(|r| r.mv != front.mv);
                    done.ranked.insert(0, front);
                }
                break;
            }
            done = Outcome {
                ranked: ranked.clone(),
                depth,
                nodes: self.nodes,
            };
            if multi == 1 && ranked[0].score > MATE_BOUND && depth as i32 >= MATE - ranked[0].score
            {
                break;
            }
            if let (Some(soft), Some(elapsed)) = (self.limits.soft_time, self.clock_elapsed()) {
                if elapsed >= soft {
                    break;
                }
            }
            depth += 1;
        }
        done.nodes = self.nodes;
        done
    }

    fn pv_text(&self, root: &T, pv: &[T::Move]) -> Vec<String> {
        pv_text(root, pv)
    }

    fn search_root(
        &mut self,
        moves: &mut [RootMove<T::Move>],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INFINITY;
        for i in 0..moves.len() {
            let mv = moves[i].mv;
            self.path_moves[1] = Some(mv);
            let score = if i == 0 {
                self.child_value(0, mv, depth - 1, alpha, beta, true)
            } else {
                let s = self.child_value(0, mv, depth - 1, alpha, alpha + 1, false);
                if s > alpha && s < beta && !self.aborted {
                    self.child_value(0, mv, depth - 1, alpha, beta, true)
                } else {
                    s
                }
            };
            if self.aborted {
                return best;
            }
            if score > best {
                best = score;
            }
            if i == 0 || score > alpha {
                moves[i].score = score;
                let mut pv = vec![mv];
                pv.extend(self.table_line(0, mv));
                moves[i].pv = pv;
                if score > alpha {
                    alpha = score;
                    moves[..=i].rotate_right(1);
                    if score >= beta {
                        return score;
                    }
                }
            } else {
                moves[i].score = -INFINITY;
            }
        }
        best
    }

    /// Follows the table's best moves after `mv` from the node at `ply` (a few plies).
    fn table_line(&self, ply: usize, mv: T::Move) -> Vec<T::Move> {
        let mut node = self.stack[ply].clone();
        let mut chances = Vec::new();
        node.chances(mv, &mut chances);
        if !chances.is_empty() {
            return Vec::new();
        }
        node = node.play(mv, None);
        let mut line = Vec::new();
        let mut seen = vec![node.key()];
        let mut moves = Vec::new();
        while line.len() < 24 {
            let Some(hit) = self.table.probe(node.key(), 0) else {
                break;
            };
            if hit.mv == 0 {
                break;
            }
            node.generate(&mut moves);
            let Some(&next) = moves.iter().find(|&&m| T::encode(m) == hit.mv) else {
                break;
            };
            line.push(next);
            node.chances(next, &mut chances);
            if !chances.is_empty() {
                break;
            }
            node = node.play(next, None);
            if seen.contains(&node.key()) {
                break;
            }
            seen.push(node.key());
        }
        line
    }

    /// The value, for the node at `ply`, of playing `mv` and searching the child to `depth`
    /// with the window `(alpha, beta)` from the node's view: a plain child, or a chance
    /// node's expectation.
    fn child_value(
        &mut self,
        ply: usize,
        mv: T::Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        pv: bool,
    ) -> i32 {
        let mut chances = std::mem::take(&mut self.chance_buffers[ply]);
        self.stack[ply].chances(mv, &mut chances);
        let value = if chances.len() <= 1 {
            // Deterministic, or a covered piece whose identity is certain.
            let tag = chances.first().map(|c| c.tag);
            let child = self.stack[ply].play(mv, tag);
            self.push(ply, child, mv);
            let v = -self.node(ply + 1, depth, -beta, -alpha, pv);
            self.stack.truncate(ply + 1);
            v
        } else {
            self.chance_value(ply, mv, &chances, depth, alpha, beta)
        };
        self.chance_buffers[ply] = chances;
        value
    }

    /// The expectation over `chances`. Identities differ mostly by material, so each child
    /// is searched with the parent's window shifted by its identity's material offset
    /// against the pool's average ([`GameTree::chance_offset`]); the expectation is taken
    /// over the children's values less their offsets. This keeps alpha-beta cutoffs inside
    /// each child (a plain Star1 window is nearly infinite for the first children); when
    /// every child fails high (or low) the expectation does too, as it must.
    fn chance_value(
        &mut self,
        ply: usize,
        mv: T::Move,
        chances: &[Chance],
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let total: i64 = chances.iter().map(|c| c.weight as i64).sum();
        // Chance reductions: below the root, the likeliest identity is searched to the full
        // depth and the others a ply less (every identity still counts, with its weight). The
        // identities mostly differ by material, which the offsets account for exactly; a full
        // expansion at every chance node would multiply the tree by the pool's size per ply.
        let heaviest = chances
            .iter()
            .enumerate()
            .max_by_key(|(i, c)| (c.weight, std::cmp::Reverse(*i)))
            .map_or(0, |(i, _)| i);
        let mut sum = 0i64;
        for (i, chance) in chances.iter().enumerate() {
            let offset = self.stack[ply].chance_offset(mv, chance.tag);
            let child = self.stack[ply].play(mv, Some(chance.tag));
            self.push(ply, child, mv);
            let (a, b) = (
                (alpha + offset).clamp(-INFINITY, INFINITY),
                (beta + offset).clamp(-INFINITY, INFINITY),
            );
            let reduced = if ply > 0 && i != heaviest && depth >= 1 {
                depth - CHANCE_REDUCTION
            } else {
                depth
            };
            let v = -self.node(ply + 1, reduced, -b, -a, a + 1 < b);
            self.stack.truncate(ply + 1);
            if self.aborted {
                return 0;
            }
            let v = v.clamp(-EVAL_LIMIT, EVAL_LIMIT) - offset;
            sum += chance.weight as i64 * v as i64;
        }
        (sum / total) as i32
    }

    fn push(&mut self, ply: usize, child: T, mv: T::Move) {
        self.stack.truncate(ply + 1);
        self.stack.push(child);
        self.path_moves[ply + 1] = Some(mv);
    }

    fn check_stop(&mut self) {
        // Counted nodes can advance by more than one between checks (Jieqi's statically
        // evaluated identities), so the next check is a threshold, not a multiple.
        if self.nodes < self.next_check {
            return;
        }
        self.next_check = self.nodes + 1024;
        if let Some(stop) = &self.limits.stop {
            if stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        // The first iteration always completes (only `stop` ends it): a level's small node or
        // time share must not leave the root moves unranked.
        if self.iteration <= 1 {
            return;
        }
        if let Some(max) = self.limits.nodes {
            if self.nodes >= max {
                self.aborted = true;
            }
        }
        if let (Some(hard), Some(elapsed)) = (self.limits.hard_time, self.clock_elapsed()) {
            if elapsed >= hard {
                self.aborted = true;
            }
        }
    }

    /// The time the limits count: since the start, or since the ponder hit; `None` while
    /// pondering (no time limit runs then).
    fn clock_elapsed(&self) -> Option<Duration> {
        match &self.limits.ponder {
            Some(ponder) => ponder.since_hit(),
            None => Some(self.started.elapsed()),
        }
    }

    /// The node at `ply` (already on the stack) repeats an earlier position: the verdict of
    /// the cycle, as a score for the side to move there.
    fn repetition(&self, ply: usize) -> Option<i32> {
        let node = &self.stack[ply];
        let horizon = node.repetition_horizon();
        let key = node.key();
        let h = self.history.len();
        // Combined index: history[0..h] then stack[0..=ply] (stack[0] is the root).
        let at = |i: usize| -> &T {
            if i < h {
                &self.history[i]
            } else {
                &self.stack[i - h]
            }
        };
        let current = h + ply;
        let mut back = 4;
        while back <= horizon && back <= current {
            let i = current - back;
            let earlier = at(i);
            if earlier.key() == key && earlier.same_position(node) {
                let cycle: Vec<T> = (i..=current).map(|j| at(j).clone()).collect();
                let moves: Option<Vec<T::Move>> = (i..current)
                    .map(|j| {
                        if j < h {
                            Some(self.history_moves[j])
                        } else {
                            self.path_moves[j - h + 1]
                        }
                    })
                    .collect();
                // A cycle through a null move is no game: no verdict.
                let moves = moves?;
                // A decisive verdict ends the game here, like a mate at this ply.
                return Some(match T::cycle_verdict(&cycle, &moves) {
                    Verdict::Draw => 0,
                    Verdict::Win(side) if side == node.turn() => MATE - ply as i32,
                    Verdict::Win(_) => -(MATE - ply as i32),
                });
            }
            back += 2;
        }
        None
    }

    /// Counts a node at `ply` and answers it at once where it can: 0 once the search is
    /// stopped, the rules' score where the game is over here; `None` to search it.
    #[inline(always)]
    fn enter(&mut self, ply: usize) -> Option<i32> {
        self.nodes += 1;
        self.check_stop();
        if self.aborted {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        self.stack[ply]
            .rules_score()
            .map(|score| at_ply(score, ply))
    }
}

/// Moves in machine notation, each played from the previous position (chance moves shown
/// without their identity; the line stops there).
pub(crate) fn pv_text<T: GameTree>(root: &T, pv: &[T::Move]) -> Vec<String> {
    let mut node = root.clone();
    let mut out = Vec::new();
    let mut chances = Vec::new();
    for &mv in pv {
        out.push(node.move_text(mv));
        node.chances(mv, &mut chances);
        if !chances.is_empty() {
            break;
        }
        node = node.play(mv, None);
    }
    out
}

/// A rules score at `ply`: `±MATE` (the side to move wins or loses now) becomes a mate score
/// at this ply; anything else (a draw) stays.
fn at_ply(score: i32, ply: usize) -> i32 {
    if score >= MATE {
        MATE - ply as i32
    } else if score <= -MATE {
        -(MATE - ply as i32)
    } else {
        score
    }
}
