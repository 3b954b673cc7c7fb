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
        {
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

/// Every position 6 plies deep in Minishogi (8,276,188): the fast generator and the slow
/// reference agree (takes minutes).
#[test]
#[ignore = "slow: run with --release --ignored"]
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
            let Some(king) = pos.king_square(!pos.turn) else {
                return;
            };
            let sq = super::tables::PAWN[us ^ 1][king.index()] & t;
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

/// The README's minishogi depth-7 figure (132680698) is 81 more than Jiang's: exactly the
/// pawn drops that would mate at the last ply, which shogi.md forbids (uchifuzume).
#[test]
fn minishogi_depth6_uchifuzume_count() {
    let mut hits = Vec::new();
    count_uchifuzume(&Position::startpos(Variant::Minishogi), 6, &mut hits);
    assert_eq!(hits.len(), 81);
    // One of them, checked by hand: gote's king on 2c, a pawn on 2d defended by the silver
    // on 3e, every flight square covered.
    assert!(
        hits.iter()
            .any(|h| h.starts_with("rb1g+R/2s2/3k1/PK3/1GSB1 b P 7"))
    );
}

/// A small deterministic generator for picking random moves.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn variant_of(minishogi: bool) -> Variant {
    if minishogi {
        Variant::Minishogi
    } else {
        Variant::Shogi
    }
}

/// Checks one position of a random game against the invariants; returns the legal moves.
fn check_position(pos: &Position) -> Vec<Move> {
    assert!(pos.is_consistent(), "{}", pos.sfen());
    let fast = sorted(pos.legal_moves());
    let slow = sorted(reference::legal_moves(pos));
    assert_eq!(fast, slow, "{}", pos.sfen());
    assert_eq!(pos.count_moves() as usize, fast.len());
    let again = Position::from_sfen(pos.variant(), &pos.sfen()).expect("own SFEN reads back");
    assert_eq!(&again, pos);
    assert_eq!(again.sfen(), pos.sfen());
    assert_eq!(again.key(), pos.key());
    for &mv in &fast {
        assert_eq!(pos.parse_move(&mv.to_string()), Ok(mv));
    }
    fast
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random games: the generator agrees with the slow reference, incremental data (bitboards,
    /// mailbox, king squares, Zobrist key) match a recomputation, SFEN and USI round-trip.
    #[test]
    fn random_games_keep_every_invariant(seed in 1u64.., minishogi: bool, plies in 0usize..160) {
        let mut rng = Rng(seed);
        let mut game = Game::new(Position::startpos(variant_of(minishogi)));
        let mut seen = vec![game.position().sfen()];
        for _ in 0..plies {
            let pos = game.position().clone();
            let legal = check_position(&pos);
            if legal.is_empty() || game.outcome().is_some() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            game.play(mv).expect("a generated move is legal");
            let mut by_hand = pos.clone();
            by_hand.play(mv);
            prop_assert_eq!(&by_hand, game.position());
            prop_assert_eq!(by_hand.ply(), pos.ply() + 1);
            seen.push(by_hand.sfen());
        }
        // The game keeps compact entries and replays its positions: the same ones.
        let replayed: Vec<String> = game.positions().map(|p| p.sfen()).collect();
        prop_assert_eq!(replayed, seen);
    }

    /// Random positions built from arbitrary hands and a random game: drops, nifu, dead drops
    /// and uchifuzume meet the reference often.
    #[test]
    fn random_games_with_full_hands(seed in 1u64.., minishogi: bool, plies in 0usize..60) {
        let variant = variant_of(minishogi);
        let start = if minishogi { "k4/5/5/5/4K b GSBRPgsbrp 1" } else {
            "4k4/9/9/9/9/9/9/9/4K4 b RBGSNL4Prbgsnl4p 1"
        };
        let mut rng = Rng(seed);
        let mut pos = Position::from_sfen(variant, start).unwrap();
        for _ in 0..plies {
            let legal = check_position(&pos);
            if legal.is_empty() {
                break;
            }
            pos.play(legal[rng.below(legal.len())]);
        }
    }

    /// The SFEN reader never panics, whatever it is given.
    #[test]
    fn sfen_parser_never_panics(text in "\\PC{0,80}", minishogi: bool) {
        let _ = Position::from_sfen(variant_of(minishogi), &text);
    }

    /// ... including near-SFEN text built from SFEN's alphabet.
    #[test]
    fn sfen_parser_never_panics_on_sfen_like_text(
        text in "[0-9kKrRbBgGsSnNlLpP+/ bw-]{0,90}",
        minishogi: bool,
    ) {
        if let Ok(pos) = Position::from_sfen(variant_of(minishogi), &text) {
            prop_assert!(pos.is_consistent());
            let _ = pos.legal_moves();
        }
    }

    /// The USI move reader never panics and accepts only legal moves.
    #[test]
    fn move_parser_never_panics(text in "[0-9a-zA-Z*+]{0,6}|\\PC{0,8}", minishogi: bool) {
        let pos = Position::startpos(variant_of(minishogi));
        if let Ok(mv) = pos.parse_move(&text) {
            prop_assert!(pos.legal_moves().contains(&mv));
        }
        let mut game = Game::new(pos);
        let _ = crate::Game::play_text(&mut game, &text);
    }
}

/// The portable perft and the one compiled for bit-counting instructions agree.
#[test]
fn perft_flavours_agree() {
    let midgame = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
    let cases = [
        (Variant::Shogi, "startpos", 3, 25470),
        (Variant::Shogi, midgame, 2, 28684),
        (Variant::Minishogi, "startpos", 4, 35401),
    ];
    for (variant, sfen, depth, nodes) in cases {
        let pos = Position::from_sfen(variant, sfen).unwrap();
        assert_eq!(pos.perft_portable(depth), nodes);
        assert_eq!(pos.perft_nodes(depth), nodes);
    }
}
