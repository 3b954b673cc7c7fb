//! A slow, obviously-correct move generator for tests: mailbox stepping per piece, then
//! make-and-test for check, and a full search for replies to decide uchifuzume. It shares no
//! code with the bitboard generator except the board representation it reads.

use super::{Move, Piece, PieceKind, Position, Square};
use crate::Side;

/// (file delta, rank delta, slides) for sente; gote mirrors the rank delta.
fn patterns(kind: PieceKind) -> Vec<(i32, i32, bool)> {
    use PieceKind::*;
    let gold = vec![
        (-1, -1, false),
        (0, -1, false),
        (1, -1, false),
        (-1, 0, false),
        (1, 0, false),
        (0, 1, false),
    ];
    let orth = |slide| vec![(0, -1, slide), (0, 1, slide), (-1, 0, slide), (1, 0, slide)];
    let diag = |slide| {
        vec![
            (-1, -1, slide),
            (1, -1, slide),
            (-1, 1, slide),
            (1, 1, slide),
        ]
    };
    match kind {
        Pawn => vec![(0, -1, false)],
        Lance => vec![(0, -1, true)],
        Knight => vec![(-1, -2, false), (1, -2, false)],
        Silver => vec![
            (-1, -1, false),
            (0, -1, false),
            (1, -1, false),
            (-1, 1, false),
            (1, 1, false),
        ],
        Gold | Tokin | PromotedLance | PromotedKnight | PromotedSilver => gold,
        Bishop => diag(true),
        Rook => orth(true),
        King => [orth(false), diag(false)].concat(),
        Horse => [diag(true), orth(false)].concat(),
        Dragon => [orth(true), diag(false)].concat(),
    }
}

fn square(file: i32, rank: i32, size: u8) -> Option<Square> {
    if file < 1 || rank < 1 || file > size as i32 || rank > size as i32 {
        None
    } else {
        Square::new(file as u8, rank as u8)
    }
}

/// Squares the piece on `from` attacks.
fn targets(pos: &Position, from: Square, piece: Piece) -> Vec<Square> {
    let size = pos.size();
    let sign = if piece.side == Side::SENTE { 1 } else { -1 };
    let mut out = Vec::new();
    for (df, dr, slide) in patterns(piece.kind) {
        let (mut f, mut r) = (from.file() as i32, from.rank() as i32);
        loop {
            f += df;
            r += dr * sign;
            let Some(sq) = square(f, r, size) else { break };
            out.push(sq);
            if !slide || pos.piece_at(sq).is_some() {
                break;
            }
        }
    }
    out
}

fn attacked(pos: &Position, sq: Square, by: Side) -> bool {
    pos.pieces()
        .any(|(from, p)| p.side == by && targets(pos, from, p).contains(&sq))
}

/// Whether a piece of `kind` of `side` could move again from `sq` (rank counted from the
/// side's own far edge).
fn can_move_from(kind: PieceKind, side: Side, sq: Square, size: u8) -> bool {
    let rank = if side == Side::SENTE {
        sq.rank()
    } else {
        size + 1 - sq.rank()
    };
    match kind {
        PieceKind::Pawn | PieceKind::Lance => rank > 1,
        PieceKind::Knight => rank > 2,
        _ => true,
    }
}

fn in_zone(side: Side, sq: Square, size: u8) -> bool {
    let depth = if size == 9 { 3 } else { 1 };
    if side == Side::SENTE {
        sq.rank() <= depth
    } else {
        sq.rank() > size - depth
    }
}

/// Every legal move, found the slow way.
pub(crate) fn legal_moves(pos: &Position) -> Vec<Move> {
    legal_moves_inner(pos, true)
}

fn legal_moves_inner(pos: &Position, uchifuzume: bool) -> Vec<Move> {
    let us = pos.turn();
    let size = pos.size();
    let mut candidates = Vec::new();
    for (from, piece) in pos.pieces().filter(|(_, p)| p.side == us) {
        for to in targets(pos, from, piece) {
            if pos.piece_at(to).is_some_and(|p| p.side == us) {
                continue;
            }
            if can_move_from(piece.kind, us, to, size) {
                candidates.push(Move::normal(from.index(), to.index(), false));
            }
            if piece.kind.promoted().is_some() && (in_zone(us, from, size) || in_zone(us, to, size))
            {
                candidates.push(Move::normal(from.index(), to.index(), true));
            }
        }
    }
    for kind in PieceKind::HAND_ORDER {
        if pos.hand_count(us, kind) == 0 {
            continue;
        }
        for to in Square::all(size) {
            if pos.piece_at(to).is_some() || !can_move_from(kind, us, to, size) {
                continue;
            }
            if kind == PieceKind::Pawn {
                let nifu = (1..=size).any(|rank| {
                    pos.piece_at(Square::new(to.file(), rank).unwrap())
                        == Some(Piece::new(us, PieceKind::Pawn))
                });
                if nifu {
                    continue;
                }
            }
            candidates.push(Move::drop(kind.index(), to.index()));
        }
    }
    candidates
        .into_iter()
        .filter(|&mv| {
            let mut next = pos.clone();
            next.play(mv);
            // A tsume's attacker has no king: nothing of its own can be attacked.
            let king = |side: Side| {
                next.pieces()
                    .find(|(_, p)| *p == Piece::new(side, PieceKind::King))
                    .map(|(sq, _)| sq)
            };
            if king(us).is_some_and(|k| attacked(&next, k, !us)) {
                return false;
            }
            if uchifuzume
                && mv.drop_kind() == Some(PieceKind::Pawn)
                && king(!us).is_some_and(|k| attacked(&next, k, us))
                && legal_moves_inner(&next, false).is_empty()
            {
                return false;
            }
            true
        })
        .collect()
}
