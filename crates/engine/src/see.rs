//! Static exchange evaluation: what a move wins or loses in material once both sides have
//! gone on capturing on its target point, each with its least valuable attacker first and
//! each free to stop when going on would cost it. The search prunes losing captures and
//! quiet moves onto defended points with it, and orders losing captures last.
//!
//! Pins and checks are ignored (as in every engine's exchange evaluation): it is an
//! estimate for pruning and ordering, never a verdict.

use jiang_rules::Side;

/// What the exchange needs from a family's position.
pub(crate) trait Exchange {
    /// The pieces of `side` (as point bits `1 << index`) that attack the point `target` when
    /// the points in `removed` are empty and their pieces gone.
    fn attackers(&self, target: usize, side: Side, removed: u128) -> u128;
    /// The worth of the piece standing on the point `index` when it is captured.
    fn worth_at(&self, index: usize) -> i32;
}

/// The longest exchange followed: more attackers than this on one point never happen.
const MAX_EXCHANGE: usize = 40;

/// The material balance for `us` of moving a piece worth `mover` from `from` (`None` for a
/// drop) to `target`, capturing a piece worth `victim` there (0 for none), then of the
/// exchange on `target` with both sides recapturing as long as it pays them.
pub(crate) fn exchange<E: Exchange>(
    position: &E,
    us: Side,
    from: Option<usize>,
    target: usize,
    victim: i32,
    mover: i32,
) -> i32 {
    // captured[k]: the worth of what the k-th capture on the target takes (the move itself
    // is the first, and is played whatever it costs).
    let mut captured = [0i32; MAX_EXCHANGE];
    captured[0] = victim;
    let mut count = 1;
    let mut removed = from.map_or(0, |f| 1u128 << f);
    let mut on_target = mover;
    let mut side = !us;
    while count < MAX_EXCHANGE {
        let attackers = position.attackers(target, side, removed) & !removed;
        if attackers == 0 {
            break;
        }
        let (index, worth) = least_valuable(position, attackers);
        captured[count] = on_target;
        count += 1;
        removed |= 1u128 << index;
        on_target = worth;
        side = !side;
    }
    // Backwards: each capture's net is what it takes less what the reply nets, when the
    // reply is worth making (a side may always stop).
    let mut net = captured[count - 1];
    for k in (0..count - 1).rev() {
        net = captured[k] - net.max(0);
    }
    net
}

/// Whether [`exchange`] is at least `threshold`, answered without the exchange when its
/// bounds settle it: the mover always nets at most the victim, and at least the victim
/// less the piece moved (it may stop after the first recapture).
pub(crate) fn at_least<E: Exchange>(
    position: &E,
    us: Side,
    from: Option<usize>,
    target: usize,
    victim: i32,
    mover: i32,
    threshold: i32,
) -> bool {
    if victim - mover >= threshold {
        return true;
    }
    if victim < threshold {
        return false;
    }
    exchange(position, us, from, target, victim, mover) >= threshold
}

/// The attacker in `attackers` with the least worth (the first such point on a tie).
fn least_valuable<E: Exchange>(position: &E, mut attackers: u128) -> (usize, i32) {
    let mut best = (usize::MAX, i32::MAX);
    while attackers != 0 {
        let index = attackers.trailing_zeros() as usize;
        attackers &= attackers - 1;
        let worth = position.worth_at(index);
        if worth < best.1 {
            best = (index, worth);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of points 0..n where each listed piece attacks point 0 (the target) unless a
    /// removed piece stands between: enough to check the arithmetic and the x-rays.
    struct Line {
        /// (point, side, worth, hidden behind this point until it is removed)
        pieces: Vec<(usize, Side, i32, Option<usize>)>,
    }

    impl Exchange for Line {
        fn attackers(&self, _target: usize, side: Side, removed: u128) -> u128 {
            self.pieces
                .iter()
                .filter(|p| p.1 == side && p.3.is_none_or(|b| removed & (1 << b) != 0))
                .fold(0, |bits, p| bits | 1u128 << p.0)
        }
        fn worth_at(&self, index: usize) -> i32 {
            self.pieces.iter().find(|p| p.0 == index).map_or(0, |p| p.2)
        }
    }

    const US: Side = Side::RED;
    const THEM: Side = Side::BLACK;

    #[test]
    fn an_undefended_victim_is_won_whole() {
        let line = Line { pieces: vec![] };
        assert_eq!(exchange(&line, US, Some(1), 0, 300, 900), 300);
    }

    #[test]
    fn a_defended_victim_taken_by_a_bigger_piece_loses_the_difference() {
        let line = Line {
            pieces: vec![(2, THEM, 100, None)],
        };
        assert_eq!(exchange(&line, US, Some(1), 0, 100, 900), 100 - 900);
    }

    #[test]
    fn the_defender_does_not_recapture_when_it_would_lose_more() {
        // Pawn takes pawn; their rook could take back, but our second pawn guards the
        // point: the rook would win 100 and lose 900, so it stays, and we net 100.
        let line = Line {
            pieces: vec![(2, THEM, 900, None), (3, US, 100, None)],
        };
        assert_eq!(exchange(&line, US, Some(1), 0, 100, 100), 100);
    }

    #[test]
    fn x_rays_join_once_the_piece_in_front_has_gone() {
        // Our rook takes a knight guarded by a pawn; our second rook stands behind the
        // first and joins once it has gone: the pawn takes back, the second rook takes the
        // pawn, and we net 300 - 900 + 100.
        let line = Line {
            pieces: vec![(2, THEM, 100, None), (3, US, 900, Some(1))],
        };
        assert_eq!(exchange(&line, US, Some(1), 0, 300, 900), 300 - 900 + 100);
    }

    #[test]
    fn a_quiet_move_onto_a_guarded_point_loses_the_piece() {
        let line = Line {
            pieces: vec![(2, THEM, 100, None)],
        };
        assert_eq!(exchange(&line, US, None, 0, 0, 500), -500);
    }

    #[test]
    fn the_bounds_agree_with_the_exchange() {
        let line = Line {
            pieces: vec![(2, THEM, 100, None), (3, US, 900, Some(1))],
        };
        for threshold in [-1000, -600, -500, -499, 0, 300, 301] {
            assert_eq!(
                at_least(&line, US, Some(1), 0, 300, 900, threshold),
                -500 >= threshold,
                "threshold {threshold}"
            );
        }
    }

    #[test]
    fn a_king_never_recaptures_into_a_defended_point() {
        // Their king could take back, but our second attacker guards the point.
        let line = Line {
            pieces: vec![(2, THEM, 10_000, None), (3, US, 100, None)],
        };
        assert_eq!(exchange(&line, US, Some(1), 0, 0, 100), 0);
    }
}
