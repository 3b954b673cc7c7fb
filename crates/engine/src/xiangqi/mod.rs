//! The xiangqi family as a game tree: Xiangqi, and Jieqi played from one side's knowledge.
//!
//! A [`XiangqiNode`] is a public position plus the identities each side's covered pieces
//! may still be, as the searching side knows them ([`Knowledge`]). A move of a covered piece
//! is a chance node: one child per identity still unseen, weighted by how many remain.
//! Nothing here can hold a Jieqi deal: the engine is built from a public position and a view.

pub mod eval;

use jiang_rules::jieqi::JieqiView;
use jiang_rules::xiangqi::{self, Move, PieceKind, Position};
use jiang_rules::{Outcome, Side, Variant};

use crate::tree::{Chance, GameTree, Verdict};

/// Per side, how many of each identity ([`PieceKind::index`]) the searching side has not
/// seen yet: what that side's covered pieces may be. All zero in Xiangqi.
pub type Unseen = [[u8; 7]; 2];

/// Random keys for the unseen counts, so that the table tells apart nodes that differ only
/// in what is still hidden.
const fn unseen_keys() -> [[u64; 7]; 2] {
    let mut keys = [[0u64; 7]; 2];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut s = 0;
    while s < 2 {
        let mut k = 0;
        while k < 7 {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            keys[s][k] = z ^ (z >> 31);
            k += 1;
        }
        s += 1;
    }
    keys
}

static UNSEEN_KEYS: [[u64; 7]; 2] = unseen_keys();

fn unseen_key(unseen: &Unseen) -> u64 {
    let mut key = 0u64;
    for s in 0..2 {
        for k in 1..7 {
            key = key.wrapping_add(UNSEEN_KEYS[s][k].wrapping_mul(unseen[s][k] as u64));
        }
    }
    key
}

/// A node of the xiangqi-family tree.
#[derive(Clone, Debug)]
pub struct XiangqiNode {
    pub(crate) position: Position,
    pub(crate) unseen: Unseen,
    key: u64,
}

impl XiangqiNode {
    /// A node from a public position and what the searching side has not seen.
    fn new(position: Position, unseen: Unseen) -> XiangqiNode {
        let key = position.hash() ^ unseen_key(&unseen);
        XiangqiNode {
            position,
            unseen,
            key,
        }
    }

    /// The public position.
    pub fn position(&self) -> &Position {
        &self.position
    }
}

/// What the searching side knows of a Jieqi game: the public start, the public moves (with
/// the reveals everyone saw) and, per side, the identities it has not seen yet. Built from a
/// [`JieqiView`] or from public text; there is no way to give it a deal.
#[derive(Clone, Debug)]
pub struct Knowledge {
    start: Position,
    moves: Vec<Move>,
    unseen: Unseen,
}

/// Why a game could not be read for the engine.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The FEN is not valid.
    #[error("invalid position: {0}")]
    Fen(#[from] xiangqi::FenError),
    /// A move is not legal.
    #[error("move {index} (`{text}`) is not legal: {reason}")]
    Move {
        /// 1-based index in the list.
        index: usize,
        /// The move text.
        text: String,
        /// Why.
        reason: String,
    },
}

fn counts_of(pool: impl Fn(PieceKind) -> u8) -> [u8; 7] {
    let mut out = [0; 7];
    for kind in PieceKind::ALL {
        out[kind.index()] = pool(kind);
    }
    out
}

impl Knowledge {
    /// From public text: a FEN (`startpos` allowed) and ICCS moves (reveals carry their
    /// suffix). The searching side knows only what is public: each side's public pool.
    pub fn from_public(
        variant: Variant,
        fen: &str,
        moves: &[&str],
    ) -> Result<Knowledge, InputError> {
        let start = Position::parse_fen(variant, fen)?;
        let mut position = start.clone();
        let mut played = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let mv = position.parse_move(text).map_err(|e| InputError::Move {
                index: i + 1,
                text: (*text).to_owned(),
                reason: e.to_string(),
            })?;
            position.play(mv);
            played.push(mv);
        }
        let unseen = [
            counts_of(|k| position.pool(Side::RED).count(k)),
            counts_of(|k| position.pool(Side::BLACK).count(k)),
        ];
        Ok(Knowledge {
            start,
            moves: played,
            unseen,
        })
    }

    /// From one observer's view of a Jieqi game (what a server sends a player): the public
    /// start and moves, and the pools of identities this observer has not seen (it knows the
    /// covered pieces it captured).
    pub fn from_view(view: &JieqiView) -> Result<Knowledge, InputError> {
        let texts: Vec<&str> = view.moves.iter().map(String::as_str).collect();
        let mut knowledge = Knowledge::from_public(Variant::Jieqi, &view.initial_fen, &texts)?;
        for side in Side::BOTH {
            let pool = view.pools[side.index()];
            let public = knowledge.unseen[side.index()];
            // What this observer has not seen can only be less than what is publicly unseen.
            knowledge.unseen[side.index()] = counts_of(|k| pool.count(k).min(public[k.index()]));
        }
        Ok(knowledge)
    }

    /// The public position now.
    pub fn position(&self) -> Position {
        let mut p = self.start.clone();
        for &mv in &self.moves {
            p.play(mv);
        }
        p
    }

    /// The node the engine searches from (the current position with this knowledge).
    pub fn node(&self) -> XiangqiNode {
        XiangqiNode::new(self.position(), self.unseen)
    }

    /// The history (positions before the current one, since the last capture, with the moves
    /// leading on) and the current node.
    pub(crate) fn nodes(&self) -> (Vec<XiangqiNode>, Vec<Move>, XiangqiNode) {
        let mut positions = vec![self.start.clone()];
        for &mv in &self.moves {
            let next = positions.last().expect("start").after(mv);
            positions.push(next);
        }
        let current = positions.pop().expect("start");
        let keep = (current.halfmove_clock() as usize).min(positions.len());
        let first = positions.len() - keep;
        let history = positions[first..]
            .iter()
            .map(|p| XiangqiNode::new(p.clone(), self.unseen))
            .collect();
        let moves = self.moves[first..].to_vec();
        (history, moves, XiangqiNode::new(current, self.unseen))
    }
}

/// Piece worth for ordering captures (a covered piece: the pool's average).
fn worth(node: &XiangqiNode, side: Side, kind: PieceKind, covered: bool) -> i32 {
    if covered {
        eval::covered_worth(node, side)
    } else {
        eval::piece_worth(node.position.variant(), kind)
    }
}

impl GameTree for XiangqiNode {
    type Move = Move;

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }

    #[inline]
    fn turn(&self) -> Side {
        self.position.turn()
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.position.in_check()
    }

    #[inline]
    fn generate(&self, out: &mut Vec<Move>) {
        self.position.legal_moves_into(out);
    }

    fn chances(&self, mv: Move, out: &mut Vec<Chance>) {
        out.clear();
        if !self.position.is_covered_at(mv.from()) {
            return;
        }
        let us = self.turn();
        let pool = self.position.pool(us);
        for kind in PieceKind::ALL {
            let public = pool.count(kind);
            let n = self.unseen[us.index()][kind.index()].min(public);
            if n > 0 {
                out.push(Chance {
                    weight: n as u32,
                    tag: kind.index() as u8,
                });
            }
        }
        if out.is_empty() {
            // Nothing unseen that the public pool still allows: fall back on the public pool.
            for kind in pool.kinds() {
                out.push(Chance {
                    weight: pool.count(kind) as u32,
                    tag: kind.index() as u8,
                });
            }
        }
    }

    fn chance_offset(&self, _mv: Move, tag: u8) -> i32 {
        let us = self.turn();
        eval::piece_worth(self.position.variant(), PieceKind::ALL[tag as usize])
            - eval::covered_worth(self, us)
    }

    #[inline]
    fn play(&self, mv: Move, tag: Option<u8>) -> XiangqiNode {
        let mut position = self.position.clone();
        let mut unseen = self.unseen;
        let reveal = tag.map(|t| PieceKind::ALL[t as usize]);
        if let Some(kind) = reveal {
            let us = self.turn().index();
            unseen[us][kind.index()] = unseen[us][kind.index()].saturating_sub(1);
        }
        position.play_revealing(mv, reveal);
        let key = if reveal.is_some() {
            position.hash() ^ unseen_key(&unseen)
        } else {
            position.hash() ^ (self.key ^ self.position.hash())
        };
        XiangqiNode {
            position,
            unseen,
            key,
        }
    }

    fn gives_check(&self, mv: Move) -> bool {
        // A reveal's identity is chance's part: treat it as checking (never pruned).
        self.position.is_covered_at(mv.from()) || self.position.gives_check(mv)
    }

    #[inline]
    fn is_noisy(&self, mv: Move) -> bool {
        self.position.captured(mv).is_some()
    }

    fn mvv_lva(&self, mv: Move) -> i32 {
        let victim = self
            .position
            .captured(mv)
            .map_or(0, |c| worth(self, c.side, c.kind, c.covered));
        let attacker = self
            .position
            .cell(mv.from().index())
            .map_or(0, |c| worth(self, c.side, c.kind, c.covered));
        victim * 8 - attacker / 8
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    fn null_move_ok(&self) -> bool {
        // Zugzwang guard: keep at least two pieces that move far (chariot, horse, cannon or
        // covered pieces) before passing.
        let us = self.turn();
        let mut strong = 0;
        let own = self.position.occupancy(us);
        let mut bits = own;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if let Some(c) = self.position.cell(i) {
                if c.covered
                    || matches!(
                        c.kind,
                        PieceKind::Chariot | PieceKind::Horse | PieceKind::Cannon
                    )
                {
                    strong += 1;
                }
            }
        }
        strong >= 2
    }

    fn pass(&self) -> XiangqiNode {
        XiangqiNode::new(self.position.passed(), self.unseen)
    }

    fn rules_score(&self) -> Option<i32> {
        let p = &self.position;
        if p.halfmove_clock() >= xiangqi::MOVE_LIMIT_PLIES {
            return Some(0);
        }
        if !p.can_ever_check(Side::RED) && !p.can_ever_check(Side::BLACK) {
            return Some(0);
        }
        None
    }

    fn repetition_horizon(&self) -> usize {
        self.position.halfmove_clock() as usize
    }

    fn same_position(&self, other: &XiangqiNode) -> bool {
        self.position.same_placement(&other.position) && self.unseen == other.unseen
    }

    fn cycle_verdict(cycle: &[XiangqiNode], moves: &[Move]) -> Verdict {
        let positions: Vec<Position> = cycle.iter().map(|n| n.position.clone()).collect();
        verdict(xiangqi::cycle_verdict(&positions, moves))
    }

    #[inline]
    fn encode(mv: Move) -> u16 {
        1 + (mv.from().index() * 90 + mv.to().index()) as u16
    }

    fn move_text(&self, mv: Move) -> String {
        mv.iccs()
    }
}

fn verdict(outcome: Outcome) -> Verdict {
    match outcome.winner {
        Some(side) => Verdict::Win(side),
        None => Verdict::Draw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_covered_move_is_a_chance_over_the_unseen_pool() {
        let knowledge = Knowledge::from_public(Variant::Jieqi, "startpos", &[]).unwrap();
        let node = knowledge.node();
        let mv = node
            .position
            .legal_moves_unrevealed()
            .into_iter()
            .find(|m| node.position.is_covered_at(m.from()))
            .expect("covered pieces can move");
        let mut chances = Vec::new();
        node.chances(mv, &mut chances);
        let weights: Vec<(PieceKind, u32)> = chances
            .iter()
            .map(|c| (PieceKind::ALL[c.tag as usize], c.weight))
            .collect();
        use PieceKind::*;
        assert_eq!(
            weights,
            vec![
                (Advisor, 2),
                (Elephant, 2),
                (Horse, 2),
                (Chariot, 2),
                (Cannon, 2),
                (Soldier, 5)
            ]
        );
        // Revealing a chariot leaves one unseen, and the key changes with it.
        let child = node.play(mv, Some(Chariot.index() as u8));
        assert_eq!(child.unseen[0][Chariot.index()], 1);
        assert_ne!(child.key(), node.play(mv, Some(Cannon.index() as u8)).key());
        // A covered piece is worth its pool's average.
        let average = (2 * (260 + 270 + 420 + 920 + 460) + 5 * 110) / 15;
        assert_eq!(eval::covered_worth(&node, Side::RED), average);
    }

    #[test]
    fn xiangqi_moves_are_never_chances() {
        let node = Knowledge::from_public(Variant::Xiangqi, "startpos", &[])
            .unwrap()
            .node();
        let mut moves = Vec::new();
        node.generate(&mut moves);
        assert_eq!(moves.len(), 44);
        let mut chances = Vec::new();
        for mv in moves {
            node.chances(mv, &mut chances);
            assert!(chances.is_empty());
        }
    }
}
