//! The shogi family as a game tree: Shogi and Minishogi.

pub mod eval;

use jiang_rules::shogi::{self, Move, PieceKind, Position, Square};
use jiang_rules::{Side, Variant};

use crate::score::MATE;
use crate::see::{self, Exchange};
use crate::tree::{Chance, GameTree, Line, Verdict};

/// How far back (in plies) the search looks for a repetition.
const REPETITION_WINDOW: usize = 64;

/// A node of the shogi-family tree: a position.
#[derive(Clone, Debug)]
pub struct ShogiNode {
    pub(crate) position: Position,
}

impl ShogiNode {
    /// A node for `position`.
    pub fn new(position: Position) -> ShogiNode {
        ShogiNode { position }
    }

    /// The position.
    pub fn position(&self) -> &Position {
        &self.position
    }
}

/// Impasse points of a kind (shogi.md, Impasse): rook and bishop (promoted or not) 5, king 0,
/// others 1.
fn impasse_points(kind: PieceKind) -> u32 {
    match kind.unpromoted() {
        PieceKind::Rook | PieceKind::Bishop => 5,
        PieceKind::King => 0,
        _ => 1,
    }
}

/// Whether the side to move could declare impasse now (shogi.md conditions 1–4, without a
/// handicap credit): the engine treats such a node as won.
pub fn can_declare(position: &Position) -> bool {
    if position.variant() != Variant::Shogi || position.is_check() {
        return false;
    }
    let side = position.turn();
    let zone = position.promotion_zone(side);
    // A tsume's attacker has no king: no declaration (shogi.md, condition 1).
    let Some(king) = position.king_square(side).map(|sq| sq.index()) else {
        return false;
    };
    if zone & (1u128 << king) == 0 {
        return false;
    }
    let mut pieces = 0;
    let mut points = 0;
    let mut bits = position.occupancy(side) & zone;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        if i == king {
            continue;
        }
        let sq = shogi::Square::from_index(i).expect("on board");
        if let Some(piece) = position.piece_at(sq) {
            pieces += 1;
            points += impasse_points(piece.kind);
        }
    }
    if pieces < 10 {
        return false;
    }
    for (kind, count) in position.hand(side) {
        points += impasse_points(kind) * count as u32;
    }
    points >= if side == Side::SENTE { 28 } else { 27 }
}

impl Exchange for ShogiNode {
    #[inline]
    fn attackers(&self, target: usize, side: Side, removed: u128) -> u128 {
        self.position.attackers_of(target, side, removed)
    }

    #[inline]
    fn worth_at(&self, index: usize) -> i32 {
        Square::from_index(index)
            .and_then(|sq| self.position.piece_at(sq))
            .map_or(0, |p| eval::capture_worth(self.position.variant(), p.kind))
    }
}

impl GameTree for ShogiNode {
    type Move = Move;

    #[inline]
    fn key(&self) -> u64 {
        self.position.key()
    }

    #[inline]
    fn turn(&self) -> Side {
        self.position.turn()
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.position.is_check()
    }

    #[inline]
    fn generate(&self, out: &mut Vec<Move>) {
        self.position.legal_moves_into(out);
    }

    #[inline]
    fn chances(&self, _mv: Move, out: &mut Vec<Chance>) {
        out.clear();
    }

    #[inline]
    fn play(&self, mv: Move, _tag: Option<u8>) -> ShogiNode {
        let mut position = self.position.clone();
        position.play(mv);
        ShogiNode { position }
    }

    fn gives_check(&self, mv: Move) -> bool {
        let mut position = self.position.clone();
        position.play(mv);
        position.is_check()
    }

    #[inline]
    fn is_noisy(&self, mv: Move) -> bool {
        mv.promotes() || (!mv.is_drop() && self.position.piece_at(mv.to()).is_some())
    }

    fn see_at_least(&self, mv: Move, threshold: i32) -> bool {
        let to = mv.to().index();
        let victim = self.worth_at(to);
        let (from, kind) = match mv.from() {
            Some(sq) => (
                Some(sq.index()),
                self.position
                    .piece_at(sq)
                    .map_or(PieceKind::Pawn, |p| p.kind),
            ),
            None => (None, mv.drop_kind().unwrap_or(PieceKind::Pawn)),
        };
        let variant = self.position.variant();
        // A promotion's gain counts with the first capture; the promoted piece is what the
        // opponent can take back.
        let (mover, gain) = match kind.promoted().filter(|_| mv.promotes()) {
            Some(promoted) => (
                eval::capture_worth(variant, promoted),
                eval::piece_worth(variant, promoted) - eval::piece_worth(variant, kind),
            ),
            None => (eval::capture_worth(variant, kind), 0),
        };
        see::at_least(self, self.turn(), from, to, victim + gain, mover, threshold)
    }

    fn mvv_lva(&self, mv: Move) -> i32 {
        let victim = self
            .position
            .piece_at(mv.to())
            .map_or(0, |p| eval::piece_worth(self.position.variant(), p.kind));
        let attacker = mv
            .from()
            .and_then(|sq| self.position.piece_at(sq))
            .map_or(0, |p| eval::piece_worth(self.position.variant(), p.kind));
        let promotion = if mv.promotes() { 300 } else { 0 };
        victim * 8 - attacker / 8 + promotion
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        eval::evaluate(&self.position)
    }

    fn null_move_ok(&self) -> bool {
        // Zugzwang is rare with drops; keep a guard for bare positions.
        let us = self.turn();
        (self.position.occupancy(us).count_ones() >= 3)
            || PieceKind::HAND_ORDER
                .into_iter()
                .any(|k| self.position.hand_count(us, k) > 0)
    }

    fn pass(&self) -> ShogiNode {
        ShogiNode {
            position: self.position.passed(),
        }
    }

    fn rules_score(&self) -> Option<i32> {
        let p = &self.position;
        if p.ply() > shogi::MOVE_CAP {
            return Some(0);
        }
        if p.bare_king(Side::SENTE)
            && p.bare_king(Side::GOTE)
            && p.hand(Side::SENTE).is_empty()
            && p.hand(Side::GOTE).is_empty()
        {
            return Some(0);
        }
        if can_declare(p) {
            return Some(MATE);
        }
        None
    }

    fn repetition_horizon(&self) -> usize {
        REPETITION_WINDOW
    }

    fn same_position(&self, other: &ShogiNode) -> bool {
        self.position == other.position
    }

    fn cycle_verdict(cycle: &[ShogiNode], _moves: &[Move]) -> Verdict {
        // shogi.md Sennichite: the side that gave check with every move of the cycle loses;
        // otherwise a draw, except in minishogi where sente loses. The position after a move
        // by `side` has the other side to move.
        let checked_throughout = |side: Side| {
            cycle[1..]
                .iter()
                .filter(|n| n.turn() != side)
                .all(|n| n.in_check())
        };
        let sente = checked_throughout(Side::SENTE);
        let gote = checked_throughout(Side::GOTE);
        let minishogi = cycle[0].position.variant() == Variant::Minishogi;
        match (sente, gote) {
            (true, false) => Verdict::Win(Side::GOTE),
            (false, true) => Verdict::Win(Side::SENTE),
            _ if minishogi => Verdict::Win(Side::GOTE),
            _ => Verdict::Draw,
        }
    }

    #[inline]
    fn encode(mv: Move) -> u16 {
        let to = mv.to().index() as u16;
        let origin = match (mv.from(), mv.drop_kind()) {
            (Some(from), _) => from.index() as u16,
            (None, Some(kind)) => 81 + kind.index() as u16,
            (None, None) => 127,
        };
        1 + (to | origin << 7 | (mv.promotes() as u16) << 14)
    }

    fn move_text(&self, mv: Move) -> String {
        mv.to_string()
    }
}

/// The line to search in a game: its current node and the positions before it (at most the
/// repetition window), with the moves leading on.
pub(crate) fn line(game: &shogi::Game) -> Line<ShogiNode> {
    let moves = game.moves();
    let mut positions: Vec<Position> = game.positions().collect();
    let current = positions.pop().expect("a game has a start");
    let keep = positions.len().min(REPETITION_WINDOW);
    let first = positions.len() - keep;
    let history = positions[first..]
        .iter()
        .cloned()
        .map(ShogiNode::new)
        .collect();
    Line {
        history,
        moves: moves[first..].to_vec(),
        root: ShogiNode::new(current),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Exchanges on 5e, where gote's pawn is guarded by a gold: pawn takes pawn breaks
    /// even, unless sente's rook stands behind (then the gold does not take back); the rook
    /// taking first loses itself for the pawn.
    #[test]
    fn exchanges_on_a_guarded_pawn() {
        let node = |sfen: &str| ShogiNode::new(Position::from_sfen(Variant::Shogi, sfen).unwrap());
        let pawn = eval::capture_worth(Variant::Shogi, PieceKind::Pawn);
        let rook = eval::capture_worth(Variant::Shogi, PieceKind::Rook);

        let even = node("4k4/9/9/4g4/4p4/4P4/9/9/4K4 b - 1");
        let pawn_takes = even.position().parse_move("5f5e").unwrap();
        assert!(even.see_at_least(pawn_takes, 0));
        assert!(!even.see_at_least(pawn_takes, 1));

        let backed = node("4k4/9/9/4g4/4p4/4P4/9/4R4/4K4 b - 1");
        let pawn_takes = backed.position().parse_move("5f5e").unwrap();
        assert!(backed.see_at_least(pawn_takes, pawn));

        let rook_first = node("4k4/9/9/4g4/4p4/9/9/4R4/4K4 b - 1");
        let rook_takes = rook_first.position().parse_move("5h5e").unwrap();
        assert!(rook_first.see_at_least(rook_takes, pawn - rook));
        assert!(!rook_first.see_at_least(rook_takes, pawn - rook + 1));
    }
}
