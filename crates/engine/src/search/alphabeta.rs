//! The alpha-beta node and quiescence of [`Searcher`]: pruning, reductions, extensions and
//! move ordering at every ply below the root.

use crate::score::{EVAL_LIMIT, INFINITY, MATE, MATE_BOUND};
use crate::tree::GameTree;
use crate::tt::Bound;

use super::{MAX_PLY, Searcher};

impl<T: GameTree> Searcher<T> {
    pub(super) fn node(
        &mut self,
        ply: usize,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        pv: bool,
    ) -> i32 {
        if let Some(score) = self.enter(ply) {
            return score;
        }
        if let Some(score) = self.repetition(ply) {
            return score;
        }
        if ply >= MAX_PLY {
            return self.stack[ply].evaluate();
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let in_check = self.stack[ply].in_check();
        if in_check {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(ply, alpha, beta, 0);
        }
        let key = self.stack[ply].key();
        let hit = self.table.probe(key, ply);
        let mut table_move = 0;
        if let Some(hit) = hit {
            table_move = hit.mv;
            if !pv && hit.depth >= depth {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
                if cut {
                    return hit.score;
                }
            }
        }
        // Internal iterative reduction: a node the table knows nothing about is searched a
        // ply shallower (its ordering is poor; the next iteration finds it in the table).
        if table_move == 0 && depth >= 4 {
            depth -= 1;
        }
        let static_eval = if in_check {
            -INFINITY
        } else {
            self.stack[ply].evaluate()
        };
        if !pv && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility pruning near the leaves.
            if depth <= 3 && static_eval - 150 * depth >= beta {
                return static_eval;
            }
            // Null move, guarded against zugzwang by the family.
            if depth >= 3
                && static_eval >= beta
                && self.path_moves[ply].is_some()
                && self.stack[ply].null_move_ok()
            {
                let r = 3 + depth / 5;
                let child = self.stack[ply].pass();
                self.stack.truncate(ply + 1);
                self.stack.push(child);
                self.path_moves[ply + 1] = None;
                let v = -self.node(ply + 1, depth - 1 - r, -beta, -beta + 1, false);
                self.stack.truncate(ply + 1);
                if self.aborted {
                    return 0;
                }
                if v >= beta {
                    return if v > MATE_BOUND { beta } else { v };
                }
            }
        }

        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        self.stack[ply].generate(&mut moves);
        if moves.is_empty() {
            self.move_buffers[ply] = moves;
            // No legal move loses in both families (checkmate or stalemate).
            return -MATE + ply as i32;
        }
        let mut keys = std::mem::take(&mut self.key_buffers[ply]);
        self.order_keys(ply, &moves, table_move, &mut keys);
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = 0u16;
        let mut searched_quiet = std::mem::take(&mut self.quiet_buffers[ply]);
        searched_quiet.clear();
        for i in 0..moves.len() {
            pick(&mut moves, &mut keys, i);
            let mv = moves[i];
            let code = T::encode(mv);
            let noisy = self.stack[ply].is_noisy(mv);
            let quiet_late = i > 0 && !noisy && !in_check && keys[i] < 80_000;
            // Shallow pruning of late quiet moves (never the first move, never in check, never
            // while every move so far loses to a mate): beyond a move count that grows with
            // the depth, or when even a generous margin over the static evaluation cannot
            // reach alpha. A move that gives check is always searched.
            if quiet_late && !pv && depth <= 4 && best > -MATE_BOUND && alpha.abs() < MATE_BOUND {
                let late = i as i32 >= 4 + depth * depth;
                let futile = depth <= 3 && static_eval + 100 + 120 * depth <= alpha;
                if (late || futile) && !self.stack[ply].gives_check(mv) {
                    continue;
                }
            }
            // Exchange pruning near the leaves (not the first move, not in check, not while
            // every move so far loses to a mate): a capture that loses more than a margin
            // growing with the depth, or a quiet move whose piece is simply lost, is skipped
            // unless it gives check.
            if i > 0 && !pv && !in_check && depth <= 6 && best > -MATE_BOUND {
                let margin = if noisy {
                    -90 * depth
                } else {
                    -25 * depth * depth
                };
                if !self.stack[ply].see_at_least(mv, margin) && !self.stack[ply].gives_check(mv) {
                    continue;
                }
            }
            let score = if i == 0 {
                self.child_value(ply, mv, depth - 1, alpha, beta, pv)
            } else {
                // Late-move reductions for quiet moves searched late, growing with the depth
                // and the move's rank.
                let mut reduction = 0;
                if depth >= 3 && i >= 2 && quiet_late {
                    reduction = lmr(depth, i) - pv as i32;
                    reduction = reduction.clamp(0, depth - 2);
                }
                let mut s =
                    self.child_value(ply, mv, depth - 1 - reduction, alpha, alpha + 1, false);
                if reduction > 0 && s > alpha && !self.aborted {
                    s = self.child_value(ply, mv, depth - 1, alpha, alpha + 1, false);
                }
                if pv && s > alpha && s < beta && !self.aborted {
                    s = self.child_value(ply, mv, depth - 1, alpha, beta, true);
                }
                s
            };
            if self.aborted {
                self.move_buffers[ply] = moves;
                self.key_buffers[ply] = keys;
                self.quiet_buffers[ply] = searched_quiet;
                return 0;
            }
            if score > best {
                best = score;
                best_move = code;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        if !noisy {
                            let k = &mut self.killers[ply];
                            if k[0] != code {
                                k[1] = k[0];
                                k[0] = code;
                            }
                            if let Some(previous) = self.path_moves[ply] {
                                self.counter_moves[T::encode(previous) as usize] = code;
                            }
                            let bonus = depth * depth;
                            let h = &mut self.history_scores[code as usize];
                            *h = (*h + bonus).min(60_000);
                            for &q in &searched_quiet {
                                let h = &mut self.history_scores[q as usize];
                                *h = (*h - bonus).max(-60_000);
                            }
                        }
                        break;
                    }
                }
            }
            if !noisy {
                searched_quiet.push(code);
            }
        }
        self.move_buffers[ply] = moves;
        self.key_buffers[ply] = keys;
        self.quiet_buffers[ply] = searched_quiet;
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.table.store(key, ply, best_move, best, depth, bound);
        best
    }

    /// Ordering keys (higher first): table move, captures that do not lose material by
    /// MVV-LVA, killers, the counter move, history, then captures that lose material.
    pub(super) fn order_keys(
        &self,
        ply: usize,
        moves: &[T::Move],
        table_move: u16,
        keys: &mut Vec<i32>,
    ) {
        let node = &self.stack[ply];
        let killers = self.killers[ply];
        let counter = self.path_moves[ply].map_or(0, |m| self.counter_moves[T::encode(m) as usize]);
        keys.clear();
        keys.extend(moves.iter().map(|&mv| {
            let code = T::encode(mv);
            if code == table_move {
                1_000_000
            } else if node.is_noisy(mv) {
                if node.see_at_least(mv, 0) {
                    200_000 + node.mvv_lva(mv)
                } else {
                    -100_000 + node.mvv_lva(mv)
                }
            } else if code == killers[0] {
                90_000
            } else if code == killers[1] {
                85_000
            } else if code == counter {
                80_000
            } else {
                self.history_scores[code as usize].clamp(-70_000, 70_000)
            }
        }));
    }

    pub(super) fn quiescence(&mut self, ply: usize, mut alpha: i32, beta: i32, qply: usize) -> i32 {
        if let Some(score) = self.enter(ply) {
            return score;
        }
        let in_check = self.stack[ply].in_check();
        if ply >= MAX_PLY || (in_check && qply > 6) {
            return self.stack[ply].evaluate();
        }
        let mut best = -INFINITY;
        if !in_check {
            let stand = self.stack[ply].evaluate();
            if stand >= beta {
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
        }
        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        self.stack[ply].generate(&mut moves);
        if moves.is_empty() {
            self.move_buffers[ply] = moves;
            return -MATE + ply as i32;
        }
        if !in_check {
            let node = &self.stack[ply];
            moves.retain(|&m| node.is_noisy(m));
        }
        let node = &self.stack[ply];
        let mut keys = std::mem::take(&mut self.key_buffers[ply]);
        keys.clear();
        keys.extend(moves.iter().map(|&m| node.mvv_lva(m)));
        for i in 0..moves.len() {
            pick(&mut moves, &mut keys, i);
            let mv = moves[i];
            // Delta pruning: a capture that cannot bring the score near alpha even when the
            // victim is won for free is skipped (not in check, where every move counts).
            if !in_check && best > -MATE_BOUND && best + keys[i] / 8 + 200 <= alpha {
                continue;
            }
            // A capture (or promotion) that loses material in the exchange is not followed
            // (in check every evasion counts).
            if !in_check && !self.stack[ply].see_at_least(mv, 0) {
                continue;
            }
            let mut chances = std::mem::take(&mut self.chance_buffers[ply]);
            self.stack[ply].chances(mv, &mut chances);
            let score = if chances.len() <= 1 {
                let child = self.stack[ply].play(mv, chances.first().map(|c| c.tag));
                self.push(ply, child, mv);
                let v = -self.quiescence(ply + 1, -beta, -alpha, qply + 1);
                self.stack.truncate(ply + 1);
                v
            } else {
                // Average over the identities: searched on at the first quiescence ply,
                // evaluated statically deeper (chance captures multiply fast).
                let total: i64 = chances.iter().map(|c| c.weight as i64).sum();
                let mut sum = 0i64;
                for c in &chances {
                    let child = self.stack[ply].play(mv, Some(c.tag));
                    let offset = self.stack[ply].chance_offset(mv, c.tag);
                    let v = if qply == 0 {
                        self.push(ply, child, mv);
                        let v =
                            -self.quiescence(ply + 1, -beta - offset, -alpha - offset, qply + 1);
                        self.stack.truncate(ply + 1);
                        v
                    } else {
                        self.nodes += 1;
                        -child.evaluate()
                    };
                    sum += c.weight as i64 * ((v.clamp(-EVAL_LIMIT, EVAL_LIMIT) - offset) as i64);
                }
                (sum / total) as i32
            };
            self.chance_buffers[ply] = chances;
            if self.aborted {
                self.move_buffers[ply] = moves;
                self.key_buffers[ply] = keys;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.move_buffers[ply] = moves;
        self.key_buffers[ply] = keys;
        best
    }
}

/// The late-move reduction at `depth` for the `index`-th move: about
/// `0.75 + ln(depth)·ln(index) / 2.25` plies.
fn lmr(depth: i32, index: usize) -> i32 {
    let d = (depth.max(1) as f32).ln();
    let m = (index.max(1) as f32).ln();
    (0.75 + d * m / 2.25) as i32
}

/// Brings the best remaining move (by key) to position `i` (selection sort, lazily).
fn pick<M>(moves: &mut [M], keys: &mut [i32], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        if keys[j] > keys[best] {
            best = j;
        }
    }
    moves.swap(i, best);
    keys.swap(i, best);
}
