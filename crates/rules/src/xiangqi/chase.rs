//! Perpetual check and perpetual chase: judging the moves of a repetition cycle
//! (xiangqi.md "Repetition: perpetual check and perpetual chase").
//!
//! Definitions used here, decided from public information only:
//! - After the move, a piece **attacks** a target when its side, if it were to move, could
//!   legally capture the target (xiangqi.md: "could legally capture it next move").
//! - The attack is **new** unless the same piece could already capture the target by its
//!   movement rules before the move (from its old point if it is the moved piece), legal or
//!   not: a side evading a check cannot legally capture anything else, yet its pieces' standing
//!   attacks are not new when the check ends.
//! - A covered Jieqi piece attacks, and is valued, as its point's kind.
//! - A move **chases** target `t` when after it some mover's piece `a` attacks `t`, the attack
//!   is new, `a` is not a
//!   general or soldier, `t` is not a general and not a soldier on its own side of the river,
//!   `a` and `t` are not the same kind among chariot/horse/cannon able to capture each other,
//!   and `t` is either unprotected (after `a` takes `t` the opponent has no legal move onto
//!   that point) or worth more than `a` (chariot > horse = cannon > advisor = elephant).
//! - A move that gives check is a check, never a chase ("one check, one chase" is not
//!   perpetual).
//! - Pieces are followed by identity through the cycle: a chased piece may move.

use super::bitboard::{Bits, bit};
use super::position::code_kind;
use super::{Move, PieceKind, Position};
use crate::{Outcome, Reason, Side};

/// What a side did through a repetition cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Offence {
    /// Every one of its moves gave check.
    Check,
    /// Every one of its moves chased one and the same enemy piece.
    Chase,
    /// Neither.
    None,
}

/// A rough worth used only for "worth more than the attacker".
fn worth(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::General => 9,
        PieceKind::Chariot => 4,
        PieceKind::Horse | PieceKind::Cannon => 3,
        PieceKind::Advisor | PieceKind::Elephant => 2,
        PieceKind::Soldier => 1,
    }
}

/// The same position with the other side to move (for "could capture next move").
fn with_turn_flipped(position: &Position) -> Position {
    let mut flipped = position.clone();
    flipped.turn = !flipped.turn;
    flipped
}

/// Captures `(from, to)` the side to move's pieces could make by their movement rules alone
/// (ignoring the safety of their general).
fn pseudo_captures(position: &Position) -> Vec<(usize, usize)> {
    let them = position.occ[1 - position.turn.index()];
    let mut captures = Vec::new();
    position.for_each_pseudo(|from, targets| {
        for to in Bits(targets & them) {
            captures.push((from, to));
        }
    });
    captures
}

/// Legal captures `(from, to)` of the side to move.
fn legal_captures(position: &Position) -> Vec<(usize, usize)> {
    let them = position.occ[1 - position.turn.index()];
    position
        .legal_pairs()
        .as_slice()
        .iter()
        .map(|&(f, t)| (f as usize, t as usize))
        .filter(|&(_, t)| them & bit(t) != 0)
        .collect()
}

/// The points of enemy pieces that the move `before` → `after` (by `before`'s side to move,
/// moving `mv`) chases, as a bitboard over `after`'s points.
pub(crate) fn chased_points(before: &Position, mv: Move, after: &Position) -> u128 {
    let kind_at = |p: &Position, sq: usize| PieceKind::ALL[code_kind(p.board[sq])];
    let mover_view = with_turn_flipped(after);
    let before_caps = pseudo_captures(before);
    let (from, to) = (mv.from().index(), mv.to().index());
    let mut chased = 0u128;
    for (a, t) in legal_captures(&mover_view) {
        let attacker = kind_at(after, a);
        let target = kind_at(after, t);
        let target_side = after.turn;
        if target == PieceKind::General
            || matches!(attacker, PieceKind::General | PieceKind::Soldier)
            || (target == PieceKind::Soldier
                && super::bitboard::on_own_half(target_side.index(), t))
        {
            continue;
        }
        // New attack: the same piece (from its old point if it moved) did not attack t before.
        let a_before = if a == to { from } else { a };
        if before_caps.contains(&(a_before, t)) {
            continue;
        }
        // An offer to exchange: same kind, and the target could capture back.
        if attacker == target
            && matches!(
                attacker,
                PieceKind::Chariot | PieceKind::Horse | PieceKind::Cannon
            )
            && after.is_legal_pair(t, a)
        {
            continue;
        }
        let mut captured = mover_view.clone();
        captured.make(a, t, None);
        let protected = captured
            .legal_pairs()
            .as_slice()
            .iter()
            .any(|&(_, to)| to as usize == t);
        if !protected || worth(target) > worth(attacker) {
            chased |= bit(t);
        }
    }
    chased
}

/// The verdict of a cycle (`positions[0]` the first occurrence, `positions[i + 1]` after
/// `moves[i]`): the side that checked (or else chased) throughout while the other did not
/// loses; otherwise a draw.
pub(crate) fn cycle_outcome(positions: &[Position], moves: &[Move]) -> Outcome {
    let [red, black] = judge_cycle(positions, moves);
    match (red, black) {
        (Offence::Check, Offence::Check) | (Offence::Chase, Offence::Chase) => {
            Outcome::draw(Reason::Repetition)
        }
        (Offence::Check, _) => Outcome::win(Side::BLACK, Reason::PerpetualCheck),
        (_, Offence::Check) => Outcome::win(Side::RED, Reason::PerpetualCheck),
        (Offence::Chase, _) => Outcome::win(Side::BLACK, Reason::PerpetualChase),
        (_, Offence::Chase) => Outcome::win(Side::RED, Reason::PerpetualChase),
        (Offence::None, Offence::None) => Outcome::draw(Reason::Repetition),
    }
}

/// Judges a cycle: `positions[0]` is the first occurrence, `positions[i + 1]` follows
/// `moves[i]`. Returns the offence of Red and of Black.
pub(crate) fn judge_cycle(positions: &[Position], moves: &[Move]) -> [Offence; 2] {
    // ids[point] = identity of the piece there, numbered by its point at the cycle start.
    let mut ids = [u8::MAX; 90];
    for sq in Bits(positions[0].occ[0] | positions[0].occ[1]) {
        ids[sq] = sq as u8;
    }
    let mut all_check = [true; 2];
    // Identities chased by every move so far, per side (None before the side's first move).
    let mut chased: [Option<u128>; 2] = [None, None];
    for (i, &mv) in moves.iter().enumerate() {
        let (before, after) = (&positions[i], &positions[i + 1]);
        let side = before.turn.index();
        let check = after.in_check();
        all_check[side] &= check;
        let mut targets = 0u128;
        if !check {
            for t in Bits(chased_points(before, mv, after)) {
                targets |= 1u128 << ids[t];
            }
        }
        chased[side] = Some(chased[side].map_or(targets, |c| c & targets));
        ids[mv.to().index()] = ids[mv.from().index()];
        ids[mv.from().index()] = u8::MAX;
    }
    let verdict = |s: usize| {
        if all_check[s] {
            Offence::Check
        } else if chased[s].is_some_and(|c| c != 0) {
            Offence::Chase
        } else {
            Offence::None
        }
    };
    [verdict(0), verdict(1)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    /// Plays `cycle` twice from `fen` and judges the eight moves as one cycle.
    fn offences(fen: &str, cycle: &[&str]) -> [Offence; 2] {
        let mut positions = vec![Position::parse_fen(Variant::Xiangqi, fen).unwrap()];
        let mut moves = Vec::new();
        for text in cycle.iter().chain(cycle) {
            let position = positions.last().unwrap();
            let mv = position.parse_move(text).unwrap();
            positions.push(position.after(mv));
            moves.push(mv);
        }
        assert!(positions[0].same_placement(positions.last().unwrap()));
        judge_cycle(&positions, &moves)
    }

    /// The points `mv` newly chases when played from `fen`.
    fn chased_by(fen: &str, mv: &str) -> u128 {
        let before = Position::parse_fen(Variant::Xiangqi, fen).unwrap();
        let mv = before.parse_move(mv).unwrap();
        chased_points(&before, mv, &before.after(mv))
    }

    #[test]
    fn cycles_are_judged_per_side() {
        // (case, start, the cycle's four moves, each side's offence)
        let cases = [
            (
                "check against chase is judged per side",
                "r2k5/r8/9/9/4P4/9/9/N8/3C5/5K3 w - - 0 1",
                ["e5d5", "a8d8", "d5e5", "d8a8"],
                [Offence::Check, Offence::Chase],
            ),
            (
                "chaser and quiet side",
                "4R4/5k3/n8/9/9/9/9/9/9/3K5 w - - 0 1",
                ["e9e7", "a7b9", "e7e9", "b9a7"],
                [Offence::Chase, Offence::None],
            ),
            // In "3k5/9/5N3/2R6/9/2C6/8r/2cC5/9/4K4 w" the black cannon c2 attacks the chariot
            // c6 over c4 throughout; Black's evasions must not count it as a new attack.
            (
                "a standing attack is not new after a check ends",
                "3k5/9/5N3/2R6/9/2C6/8r/2cC5/9/4K4 w - - 0 1",
                ["f7d6", "i3d3", "d6f7", "d3i3"],
                [Offence::Check, Offence::None],
            ),
        ];
        for (case, fen, cycle, want) in cases {
            assert_eq!(offences(fen, &cycle), want, "{case}");
        }
    }

    #[test]
    fn uncrossed_soldiers_are_not_chased_but_crossed_ones_are() {
        // Chariot a8-c8 newly attacks the black soldier on c5, still on its own side of the
        // river: not a chase.
        assert_eq!(chased_by("3k5/R8/9/9/2p6/9/9/9/9/5K3 w - - 0 1", "a8c8"), 0);
        // The same with the soldier across the river on c4: chased (unprotected).
        let c4 = "c4".parse::<crate::xiangqi::Square>().unwrap().index();
        assert_eq!(
            chased_by("3k5/R8/9/9/9/2p6/9/9/9/5K3 w - - 0 1", "a8c8"),
            bit(c4)
        );
    }

    #[test]
    fn same_kind_pieces_able_to_take_each_other_offer_an_exchange() {
        // Chariot a0-a8 attacks the black chariot on i8 along rank 8; it can take back.
        assert_eq!(chased_by("3k5/8r/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a8"), 0);
    }
}
