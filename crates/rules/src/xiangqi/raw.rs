//! Allocation-free access for programs that walk many positions (engines, analysers): legal
//! moves into a reused buffer, a move played with a chosen reveal, a passed turn, raw cells
//! and occupancy, and the repetition verdict of a cycle of positions.
//!
//! Nothing here adds rules: it exposes, cheaply, what the generator and the game already
//! decide.

use super::bitboard::{
    ADVISOR_PALACE, Bits, DIAGONAL_STEPS, ELEPHANT_LEAPS, GENERAL_STEPS, HORSE_ATTACKERS, ROTATED,
    SOLDIER_ATTACKERS, bit, in_palace, on_own_half, slider_attacks, zobrist,
};
use super::chase::cycle_outcome;
use super::movegen::{ADVISOR, CANNON, CHARIOT, ELEPHANT, HORSE, SOLDIER};
use super::position::{COVERED_BIT, code_kind, code_side, side_of};
use super::{Move, PieceKind, Position, Square};
use crate::{Outcome, Side};

/// One occupied point as the engine sees it: whose piece, what it moves as, whether covered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Whose piece.
    pub side: Side,
    /// What it is, or for a covered Jieqi piece what it moves as (its point's kind).
    pub kind: PieceKind,
    /// Whether it is a face-down Jieqi piece.
    pub covered: bool,
}

impl Position {
    /// Clears `out` and pushes every legal move of the side to move, once per from-to pair:
    /// a move of a covered Jieqi piece comes without its reveal (see
    /// [`Position::play_revealing`]).
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        for &(from, to) in self.legal_pairs().as_slice() {
            out.push(Move::from_indices(from as usize, to as usize));
        }
    }

    /// Plays the legal from-to move `mv` (from [`Position::legal_moves_into`] or
    /// [`Position::legal_moves`]); a covered piece is revealed as `reveal`, which must be in
    /// the mover's public pool (`None` keeps `mv`'s own reveal, if any).
    pub fn play_revealing(&mut self, mv: Move, reveal: Option<PieceKind>) {
        debug_assert!(self.is_legal_pair(mv.from().index(), mv.to().index()));
        let reveal = reveal.or(mv.reveal().map(|p| p.kind));
        debug_assert!(
            self.covered & bit(mv.from().index()) == 0
                || reveal.is_some_and(|k| self.pools[self.turn.index()].count(k) > 0)
        );
        self.make(mv.from().index(), mv.to().index(), reveal);
    }

    /// The same position with the other side to move (a "null move"), for the side to move
    /// when it is not in check. The clocks do not change.
    pub fn passed(&self) -> Position {
        let mut p = self.clone();
        p.turn = !p.turn;
        p.hash ^= zobrist::BLACK_TO_MOVE;
        p
    }

    /// What stands on the point with index `index` (`0..90`), if anything.
    #[inline]
    pub fn cell(&self, index: usize) -> Option<Cell> {
        let code = self.board[index];
        (code != 0).then(|| Cell {
            side: side_of(code_side(code)),
            kind: PieceKind::ALL[code_kind(code)],
            covered: code & COVERED_BIT != 0,
        })
    }

    /// The points of `side`'s pieces as bits `1 << index`.
    #[inline]
    pub fn occupancy(&self, side: Side) -> u128 {
        self.occ[side.index()]
    }

    /// The points of covered pieces (both sides) as bits.
    #[inline]
    pub fn covered_points(&self) -> u128 {
        self.covered
    }

    /// Whether `mv` captures, and what: the occupant of its destination.
    #[inline]
    pub fn captured(&self, mv: Move) -> Option<Cell> {
        self.cell(mv.to().index())
    }

    /// The points of `side`'s pieces that could capture on the point `target` if the points
    /// in `removed` were empty and their pieces gone: for exchange evaluation, where
    /// `removed` holds the pieces that have already captured there. Geometry only (a pinned
    /// piece still counts; the flying general does not, it is no capture). A covered Jieqi
    /// piece attacks as its point's kind.
    pub fn attackers_of(&self, target: usize, side: Side, removed: u128) -> u128 {
        let s = side.index();
        let keep = !removed;
        let occ = (self.occ[0] | self.occ[1]) & keep;
        let mut rotated = self.rotated;
        for point in Bits(removed) {
            rotated &= !ROTATED[point];
        }
        let p = &self.pieces[s];
        let (slide, jump) = slider_attacks(target, occ, rotated);
        let mut found = (slide & p[CHARIOT]) | (jump & p[CANNON]);
        for &(leg, from) in &HORSE_ATTACKERS[target] {
            if leg < 90 && occ & bit(leg as usize) == 0 {
                found |= from & p[HORSE];
            }
        }
        found |= SOLDIER_ATTACKERS[s][target] & p[SOLDIER];
        let general = self.generals[s] as usize;
        if general < 90 && in_palace(s, target) {
            found |= GENERAL_STEPS[s][target] & bit(general);
        }
        // Advisors and elephants as the generator moves them: confined in Xiangqi and while
        // covered, free once revealed in Jieqi (jieqi.md, "Revealed pieces").
        let free = self.is_jieqi();
        for from in Bits(DIAGONAL_STEPS[target] & p[ADVISOR]) {
            if (free && self.covered & bit(from) == 0) || ADVISOR_PALACE[s][from] & bit(target) != 0
            {
                found |= bit(from);
            }
        }
        for leap in &ELEPHANT_LEAPS[target] {
            let from = leap.to as usize;
            if from < 90
                && p[ELEPHANT] & bit(from) != 0
                && occ & bit(leap.block as usize) == 0
                && ((free && self.covered & bit(from) == 0) || on_own_half(s, target))
            {
                found |= bit(from);
            }
        }
        found & keep
    }

    /// Calls `emit(from, targets)` for each of `side`'s pieces with the points it could move
    /// to, the general's safety aside (geometry, blocking, own pieces and the variant's
    /// rules respected): for evaluation (mobility), whoever is to move.
    pub fn reach(&self, side: Side, emit: impl FnMut(usize, u128)) {
        self.for_each_pseudo_of(side.index(), emit);
    }

    /// Whether the piece on `square` belongs to the side to move and is covered.
    pub fn is_covered_at(&self, square: Square) -> bool {
        self.covered & bit(square.index()) != 0
    }
}

/// The verdict of a repetition cycle (xiangqi.md "Repetition"): `positions[0]` and the last
/// position are the same, `moves[i]` leads from `positions[i]` to `positions[i + 1]`. The side
/// that checked (or else chased) throughout while the other did not loses; otherwise a draw.
pub fn cycle_verdict(positions: &[Position], moves: &[Move]) -> Outcome {
    assert_eq!(
        positions.len(),
        moves.len() + 1,
        "one more position than moves"
    );
    cycle_outcome(positions, moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Reason, Variant};

    #[test]
    fn buffered_moves_are_the_unrevealed_legal_moves() {
        for variant in [Variant::Xiangqi, Variant::Jieqi] {
            let p = Position::start(variant);
            let mut out = Vec::new();
            p.legal_moves_into(&mut out);
            assert_eq!(out, p.legal_moves_unrevealed());
        }
    }

    #[test]
    fn a_reveal_chosen_by_the_caller_is_played() {
        let p = Position::start(Variant::Jieqi);
        let mv = p.parse_move("h2e2R").unwrap();
        let mut a = p.clone();
        a.play_revealing(
            Move::new(mv.from(), mv.to(), None),
            Some(PieceKind::Chariot),
        );
        assert_eq!(a, p.after(mv));
        assert_eq!(
            a.cell(mv.to().index()).map(|c| c.kind),
            Some(PieceKind::Chariot)
        );
    }

    /// Every piece that the generator lets capture on a point is an attacker of that point,
    /// and nothing else is: cannons over their screens, horses and elephants with free legs
    /// and eyes, soldiers across the river, the general in its palace, and Jieqi's covered
    /// and revealed pieces.
    #[test]
    fn attackers_are_the_pieces_the_generator_lets_capture() {
        let mut positions = Vec::new();
        for fen in [
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
            "2bak4/9/3a5/p2N2R1p/2b6/4P4/P5n1P/4B4/4A4/2BAK4 b - - 0 1",
        ] {
            positions.push(Position::parse_fen(Variant::Xiangqi, fen).unwrap());
        }
        // Seeded random games from both starts: captures, crossed soldiers, and in Jieqi
        // covered and revealed pieces everywhere.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for variant in [Variant::Xiangqi, Variant::Jieqi] {
            for _game in 0..6 {
                let mut p = Position::start(variant);
                for _ply in 0..120 {
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    p = p.after(moves[(seed >> 33) as usize % moves.len()]);
                    positions.push(p.clone());
                }
            }
        }
        for p in positions {
            let fen = p.to_fen();
            for side in [p.turn(), !p.turn()] {
                let q = if side == p.turn() {
                    p.clone()
                } else {
                    p.passed()
                };
                let mut expected = [0u128; 90];
                q.for_each_pseudo(|from, targets| {
                    for to in Bits(targets) {
                        expected[to] |= bit(from);
                    }
                });
                // Only points the generator can reach with a capture are comparable (an own
                // piece's point is never a target).
                for target in Bits(q.occupancy(!side)) {
                    assert_eq!(
                        q.attackers_of(target, side, 0),
                        expected[target],
                        "{fen}: attackers of point {target} for {side:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn removed_pieces_open_lines_and_take_away_screens() {
        let p = Position::start(Variant::Xiangqi);
        let point = |name: &str| {
            let b = name.as_bytes();
            Square::new(b[0] - b'a', b[1] - b'0').unwrap().index()
        };
        // Red's cannon on b2 takes the horse on b9 over Black's cannon on b7.
        let b9 = point("b9");
        assert_ne!(p.attackers_of(b9, Side::RED, 0) & bit(point("b2")), 0);
        // With that screen gone the cannon has none.
        let without_screen = p.attackers_of(b9, Side::RED, bit(point("b7")));
        assert_eq!(without_screen & bit(point("b2")), 0);
        // Red's chariot on a0 reaches Black's soldier on a6 once Red's soldier on a3 has
        // gone, and the removed soldier itself is never listed.
        let a6 = point("a6");
        assert_eq!(p.attackers_of(a6, Side::RED, 0), 0);
        assert_eq!(
            p.attackers_of(a6, Side::RED, bit(point("a3"))),
            bit(point("a0"))
        );
    }

    #[test]
    fn a_pass_only_changes_the_side_to_move() {
        let p = Position::start(Variant::Xiangqi);
        let q = p.passed();
        assert_eq!(q.turn(), Side::BLACK);
        assert_ne!(q.hash(), p.hash());
        assert_eq!(q.passed().hash(), p.hash());
    }

    #[test]
    fn the_cycle_verdict_matches_the_game() {
        // As game.rs's test: Red checks on ranks 9 and 8 while Black's general shuffles.
        let start =
            Position::parse_fen(Variant::Xiangqi, "4k4/9/9/R8/9/9/9/9/9/3K5 w - - 0 1").unwrap();
        let mut positions = vec![start.clone()];
        let mut moves = Vec::new();
        for text in ["a6a9", "e9e8", "a9a8", "e8e9", "a8a9"] {
            let p = positions.last().unwrap();
            let mv = p.parse_move(text).unwrap();
            moves.push(mv);
            positions.push(p.after(mv));
        }
        // positions[1] (after a6a9) recurs as positions[5].
        assert!(positions[1].same_placement(&positions[5]));
        assert_eq!(
            cycle_verdict(&positions[1..], &moves[1..]),
            Outcome::win(Side::BLACK, Reason::PerpetualCheck)
        );
    }
}
