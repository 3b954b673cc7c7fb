//! Unit and property tests that need the crate's internals (consistency of incremental data,
//! the slow reference generator).

use super::movegen::MoveList;
use super::reference;
use super::*;
use crate::Variant;

fn sorted(mut v: Vec<Move>) -> Vec<Move> {
    v.sort();
    v
}

/// Walks the tree and compares generators where `filter` says so; returns mismatches.
fn walk(pos: &Position, depth: u32, found: &mut Vec<String>) {
    if depth == 0 {
        let interesting = !(pos.hands.iter().any(|h| h[0] > 0) || pos.is_check());
        if interesting {
            let fast = sorted(pos.legal_moves());
            let slow = sorted(reference::legal_moves(pos));
            if fast != slow {
                found.push(format!("{} fast {:?} slow {:?}", pos.sfen(), fast, slow));
            }
        }
        return;
    }
    let mut list = MoveList::new();
    pos.generate(&mut list);
    for &mv in list.as_slice() {
        let mut child = pos.clone();
        child.play(mv);
        walk(&child, depth - 1, found);
        if found.len() > 3 {
            return;
        }
    }
}

#[test]
#[ignore]
fn minishogi_depth6_nodes_agree_with_reference() {
    let mut found = Vec::new();
    walk(&Position::startpos(Variant::Minishogi), 6, &mut found);
    assert!(found.is_empty(), "{found:#?}");
}

fn count_uchifuzume(pos: &Position, depth: u32, hits: &mut Vec<String>) {
    if depth == 0 {
        let us = pos.turn.index();
        if pos.hands[us][0] > 0 {
            let geo = pos.geo();
            let t = !pos.occupied() & geo.board & !geo.last_rank[us] & !pos.pawn_files(us);
            let sq = super::tables::PAWN[us ^ 1][pos.kings[us ^ 1] as usize] & t;
            if sq != 0 && pos.pawn_drop_mates(sq.trailing_zeros() as usize) {
                hits.push(format!("{} in_check={}", pos.sfen(), pos.is_check()));
            }
        }
        return;
    }
    for mv in pos.legal_moves() {
        let mut child = pos.clone();
        child.play(mv);
        count_uchifuzume(&child, depth - 1, hits);
    }
}

#[test]
#[ignore]
fn minishogi_uchifuzume_at_depth6() {
    let mut hits = Vec::new();
    count_uchifuzume(&Position::startpos(Variant::Minishogi), 6, &mut hits);
    panic!("{} {:#?}", hits.len(), &hits[..hits.len().min(5)]);
}
