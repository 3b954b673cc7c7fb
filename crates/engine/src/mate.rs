//! The tsume (checkmate problem) search behind USI's `go mate`: does the side to move (the
//! attacker) force mate by checking on every move?
//!
//! An AND/OR search by iterative deepening over odd depths: at an OR node the attacker tries
//! each move that gives check (those leaving the fewest replies first) and one proof is
//! enough; at an AND node every legal reply of the defender must lead to a proof, and a
//! defender without a legal reply is mated. Legal moves come from the rules crate, so a
//! mating pawn drop (uchifuzume) is never tried, and checks are the only attacking moves, as
//! tsume requires. A table keyed by the position remembers proofs (within `d` plies) and
//! disproofs (not within `d` plies, and whether that was because the checks ran out, which is
//! final). The first depth that proves the root gives the shortest mate against the
//! longest defence; when a depth is disproved without ever reaching its horizon, the checks
//! have run out everywhere: there is no mate at all.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use jiang_rules::shogi::{Move, Position};

/// The deepest mate searched, in plies.
pub const MAX_PLIES: u32 = 255;

/// The most table entries kept (about 100 MB).
const TABLE_LIMIT: usize = 1 << 21;

/// The answer to `go mate`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateAnswer {
    /// A forced mate: the moves in USI notation, attacker first, ending with the mate.
    Mate(Vec<String>),
    /// No mate: the attacker runs out of checks (or none is found within [`MAX_PLIES`]).
    NoMate,
    /// Stopped or out of time before an answer.
    Timeout,
}

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    /// Mate within this many plies (`u32::MAX`: not known).
    proof: u32,
    /// No mate within this many plies (0: not known).
    disproof: u32,
    /// The disproof did not depend on a depth horizon: there is no mate at all.
    final_disproof: bool,
}

struct Solver<'a> {
    table: HashMap<u64, Entry>,
    nodes: u64,
    /// Stop (aborted) once this many nodes have been visited.
    max_nodes: u64,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    aborted: bool,
    /// The current iteration reached its horizon somewhere (a disproof is not final).
    horizon: bool,
}

impl Solver<'_> {
    fn entry(&self, key: u64) -> Entry {
        self.table.get(&key).copied().unwrap_or(Entry {
            proof: u32::MAX,
            ..Entry::default()
        })
    }

    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes >= self.max_nodes {
            self.aborted = true;
        }
        // The table is a cache: past its bound it is emptied (proofs are found again).
        if self.table.len() >= TABLE_LIMIT {
            self.table.clear();
        }
        if self.nodes % 1024 == 0
            && (self.stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|d| Instant::now() >= d))
        {
            self.aborted = true;
        }
    }

    /// The attacker's checks, those leaving the defender the fewest replies first.
    fn checks(&self, position: &Position) -> Vec<(Move, Position, usize)> {
        let mut moves = Vec::new();
        position.legal_moves_into(&mut moves);
        let mut replies = Vec::new();
        let mut checks: Vec<(Move, Position, usize)> = moves
            .into_iter()
            .filter_map(|mv| {
                let mut child = position.clone();
                child.play(mv);
                if !child.is_check() {
                    return None;
                }
                child.legal_moves_into(&mut replies);
                Some((mv, child, replies.len()))
            })
            .collect();
        checks.sort_by_key(|c| c.2);
        checks
    }

    /// Whether the attacker to move in `position` mates within `depth` plies (odd, ≥ 1).
    fn or_node(&mut self, position: &Position, depth: u32) -> bool {
        self.node(position, depth, |search| {
            for (_, child, replies) in search.checks(position) {
                if replies == 0 || (depth > 1 && search.and_node(&child, depth - 1)) {
                    return true;
                }
                if depth == 1 {
                    // Replies exist and no plies are left: the horizon.
                    search.horizon = true;
                }
                if search.aborted {
                    return false;
                }
            }
            false
        })
    }

    /// Whether every reply of the defender to move in `position` (in check) is mated within
    /// `depth` plies (even, ≥ 2).
    fn and_node(&mut self, position: &Position, depth: u32) -> bool {
        self.node(position, depth, |search| {
            let mut replies = Vec::new();
            position.legal_moves_into(&mut replies);
            replies.into_iter().all(|mv| {
                let mut child = position.clone();
                child.play(mv);
                search.or_node(&child, depth - 1)
            })
        })
    }

    /// One node of either kind: answered from the table when it knows, else `expand`ed (true:
    /// proved), with the result stored. A disproof found only because the horizon cut the
    /// search short is stored as bounded by `depth`, not final, so deeper iterations retry it.
    fn node(
        &mut self,
        position: &Position,
        depth: u32,
        expand: impl FnOnce(&mut Self) -> bool,
    ) -> bool {
        self.tick();
        if self.aborted {
            return false;
        }
        let key = position.key();
        let e = self.entry(key);
        if e.proof <= depth {
            return true;
        }
        if e.final_disproof {
            return false;
        }
        if e.disproof >= depth {
            // A disproof bounded by a horizon is not final for deeper iterations.
            self.horizon = true;
            return false;
        }
        let horizon_before = self.horizon;
        self.horizon = false;
        let proved = expand(self);
        let reached_horizon = self.horizon;
        self.horizon = horizon_before || reached_horizon;
        if self.aborted {
            return false;
        }
        let slot = self.table.entry(key).or_insert(Entry {
            proof: u32::MAX,
            ..Entry::default()
        });
        if proved {
            slot.proof = slot.proof.min(depth);
        } else {
            slot.disproof = slot.disproof.max(depth);
            slot.final_disproof |= !reached_horizon;
        }
        proved
    }

    /// The fewest plies (odd, up to `within`) in which the attacker to move mates.
    fn or_distance(&mut self, position: &Position, within: u32) -> Option<u32> {
        (1..=within)
            .step_by(2)
            .find(|&d| self.or_node(position, d) && !self.aborted)
    }

    /// The mating line from a proved OR node: the attacker's quickest mate, the defender's
    /// longest resistance (board moves before drops among equals: a drop interposed only to
    /// be captured is the longest line but the least natural one).
    fn line(&mut self, position: &Position, depth: u32) -> Option<Vec<Move>> {
        let mut line = Vec::new();
        let mut attacker = position.clone();
        let mut left = depth;
        loop {
            let within = self.or_distance(&attacker, left)?;
            let mut chosen = None;
            for (mv, child, replies) in self.checks(&attacker) {
                if replies == 0 {
                    chosen = Some((mv, child, 0));
                    break;
                }
                if within > 1 && self.and_node(&child, within - 1) {
                    chosen = Some((mv, child, replies));
                    break;
                }
            }
            let (mv, defender, replies) = chosen?;
            line.push(mv);
            if replies == 0 {
                return Some(line);
            }
            let mut moves = Vec::new();
            defender.legal_moves_into(&mut moves);
            let mut best: Option<(u32, bool, Move, Position)> = None;
            for reply in moves {
                let mut child = defender.clone();
                child.play(reply);
                let d = self.or_distance(&child, within - 2)?;
                let board = !reply.is_drop();
                if best
                    .as_ref()
                    .is_none_or(|(bd, bb, _, _)| (d, board) > (*bd, *bb))
                {
                    best = Some((d, board, reply, child));
                }
            }
            let (d, _, reply, next) = best?;
            line.push(reply);
            attacker = next;
            left = d;
        }
    }
}

/// Solves the tsume for the side to move in `position` within `limit` (none: until `stop`).
pub fn solve(position: &Position, limit: Option<Duration>, stop: &AtomicBool) -> MateAnswer {
    let mut solver = Solver {
        table: HashMap::new(),
        nodes: 0,
        max_nodes: u64::MAX,
        deadline: limit.map(|l| Instant::now() + l),
        stop,
        aborted: false,
        horizon: false,
    };
    let mut depth = 1;
    while depth <= MAX_PLIES {
        solver.horizon = false;
        let proved = solver.or_node(position, depth);
        if solver.aborted {
            return MateAnswer::Timeout;
        }
        if proved {
            return match solver.line(position, depth) {
                Some(line) => MateAnswer::Mate(line.iter().map(Move::to_string).collect()),
                None => MateAnswer::Timeout,
            };
        }
        if !solver.horizon {
            return MateAnswer::NoMate;
        }
        depth += 2;
    }
    MateAnswer::NoMate
}

/// A [`Prover`]'s node budget ran out before it knew the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the tsume search ran out of its node budget")]
pub struct Exhausted;

/// Never set: a [`Prover`] is bounded by nodes, not stopped from outside.
static NEVER: AtomicBool = AtomicBool::new(false);

/// The tsume search as a reusable, deterministic prover for tools that ask many questions
/// about related positions (a puzzle composer proving uniqueness): one table shared by every
/// question, bounded by a node budget instead of a clock, so the same questions give the same
/// answers on any machine. Mate lengths count plies, attacker first, against the longest
/// defence (every interposition counted); only checks are tried for the attacker.
pub struct Prover {
    solver: Solver<'static>,
}

impl Prover {
    /// A prover that gives up ([`Exhausted`]) once it has visited `max_nodes` nodes in all.
    pub fn new(max_nodes: u64) -> Prover {
        Prover {
            solver: Solver {
                table: HashMap::new(),
                nodes: 0,
                max_nodes,
                deadline: None,
                stop: &NEVER,
                aborted: false,
                horizon: false,
            },
        }
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.solver.nodes
    }

    fn answer<T>(&self, value: T) -> Result<T, Exhausted> {
        if self.solver.aborted {
            Err(Exhausted)
        } else {
            Ok(value)
        }
    }

    /// The fewest plies (odd, at most `within`) in which the attacker to move in `position`
    /// mates, or `None` when it does not within `within`.
    pub fn mate_distance(
        &mut self,
        position: &Position,
        within: u32,
    ) -> Result<Option<u32>, Exhausted> {
        let mut depth = 1;
        while depth <= within.min(MAX_PLIES) {
            self.solver.horizon = false;
            let proved = self.solver.or_node(position, depth);
            if self.solver.aborted {
                return Err(Exhausted);
            }
            if proved {
                return Ok(Some(depth));
            }
            if !self.solver.horizon {
                return Ok(None); // the checks run out everywhere: no mate at all
            }
            depth += 2;
        }
        Ok(None)
    }

    /// Whether the attacker to move in `position` mates within `plies` (odd) plies.
    pub fn mates_within(&mut self, position: &Position, plies: u32) -> Result<bool, Exhausted> {
        if plies == 0 {
            return Ok(false);
        }
        let proved = self.solver.or_node(position, plies | 1);
        self.answer(proved)
    }

    /// Whether the defender to move in `position` is mated within `plies` (even) plies
    /// whatever it plays: with no legal move it is mated now (0 plies).
    pub fn defender_mated_within(
        &mut self,
        position: &Position,
        plies: u32,
    ) -> Result<bool, Exhausted> {
        let mut replies = Vec::new();
        position.legal_moves_into(&mut replies);
        if replies.is_empty() {
            return Ok(position.is_check());
        }
        if plies < 2 {
            return Ok(false);
        }
        let proved = self.solver.and_node(position, plies & !1);
        self.answer(proved)
    }

    /// The mating line from `position` within `plies` plies, as [`solve`] gives it: the
    /// attacker's quickest mate, the defender's longest resistance. `None` when there is no
    /// mate within `plies`.
    pub fn line(
        &mut self,
        position: &Position,
        plies: u32,
    ) -> Result<Option<Vec<Move>>, Exhausted> {
        let line = self.solver.line(position, plies);
        self.answer(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiang_rules::Variant;

    fn solve_sfen(sfen: &str) -> MateAnswer {
        let position = Position::from_sfen(Variant::Shogi, sfen).expect("valid SFEN");
        solve(
            &position,
            Some(Duration::from_secs(30)),
            &AtomicBool::new(false),
        )
    }

    #[test]
    fn a_head_gold_mate_in_one() {
        // The king on 5a with its pawn wall; a gold dropped on 5b, guarded by the pawn on
        // 5c, mates (the attacker's king far away on 9i).
        let answer = solve_sfen("4k4/9/4P4/9/9/9/9/9/K8 b G2r2b3g4s4n4l17p 1");
        assert_eq!(answer, MateAnswer::Mate(vec!["G*5b".to_owned()]));
    }

    #[test]
    fn no_check_no_mate() {
        // The attacker has nothing that can give check.
        let answer = solve_sfen("4k4/9/9/9/9/9/9/9/K8 b 2r2b4g4s4n4l18p 1");
        assert_eq!(answer, MateAnswer::NoMate);
    }

    #[test]
    fn the_prover_measures_and_bounds_its_work() {
        let position = Position::from_sfen(
            Variant::Shogi,
            "6+Pnl/6Sk1/6sp1/9/8P/9/9/9/9 b GS2r2b3g1s3n3l15p 1",
        )
        .unwrap();
        let mut prover = Prover::new(1_000_000);
        assert_eq!(prover.mate_distance(&position, 11), Ok(Some(7)));
        assert_eq!(prover.mates_within(&position, 5), Ok(false));
        assert_eq!(prover.mates_within(&position, 7), Ok(true));
        let line = prover.line(&position, 7).unwrap().unwrap();
        assert_eq!(line.len(), 7);
        // After the first check the defender is mated within 6 plies, not 4.
        let mut after = position.clone();
        after.play(line[0]);
        assert_eq!(prover.defender_mated_within(&after, 6), Ok(true));
        assert_eq!(prover.defender_mated_within(&after, 4), Ok(false));
        // A budget too small to know says so.
        assert_eq!(Prover::new(10).mate_distance(&position, 11), Err(Exhausted));
    }
}
