//! Tsume positions (shogi.md: a mate problem is published without the attacker's king):
//! validation, move generation against hand counts and the slow reference generator, check,
//! uchifuzume, outcomes, sennichite, impasse and the record formats.

use super::notation::{ShogiRecord, read_csa, read_ki2, read_kif, write_csa, write_ki2, write_kif};
use super::reference;
use super::*;
use crate::{Outcome, Reason, Side, Variant};

fn pos(sfen: &str) -> Position {
    Position::from_sfen(Variant::Shogi, sfen).unwrap()
}

fn sorted(mut v: Vec<Move>) -> Vec<Move> {
    v.sort();
    v
}

/// Every position `depth` plies deep agrees with the reference generator; returns the leaf
/// count.
fn agree(pos: &Position, depth: u32) -> u64 {
    assert!(pos.is_consistent(), "{pos:?}");
    let fast = sorted(pos.legal_moves());
    let slow = sorted(reference::legal_moves(pos));
    assert_eq!(fast, slow, "{}", pos.sfen());
    if depth == 1 {
        return fast.len() as u64;
    }
    let mut n = 0;
    for mv in fast {
        let mut child = pos.clone();
        child.play(mv);
        n += agree(&child, depth - 1);
    }
    n
}

#[test]
fn the_attacker_without_a_king_is_never_in_check_and_has_no_king_square() {
    let p = pos("4k4/9/9/9/9/9/9/9/9 b G 1");
    assert_eq!(p.kingless_side(), Some(Side::SENTE));
    assert_eq!(p.king_square(Side::SENTE), None);
    assert_eq!(p.king_square(Side::GOTE), Square::new(5, 1));
    assert!(!p.is_check());
    assert_eq!(p.sfen(), "4k4/9/9/9/9/9/9/9/9 b G 1");
    // A gote rook on sente's "king file" threatens nothing.
    let p = pos("4k4/9/9/9/4r4/9/9/9/9 b G 1");
    assert!(!p.is_check());
    assert!(p.is_consistent());
}

#[test]
fn moves_of_a_kingless_attacker_counted_by_hand() {
    // A gold in hand: a drop on each of the 80 empty squares.
    assert_eq!(pos("4k4/9/9/9/9/9/9/9/9 b G 1").perft(1), 80);
    // A pawn: not on rank a (8 empty squares there), so 80 - 8 = 72. The drop on 5b checks
    // but the king takes it: not a pawn-drop mate.
    assert_eq!(pos("4k4/9/9/9/9/9/9/9/9 b P 1").perft(1), 72);
    // A rook on 1i: 8 squares up file 1 and 8 along rank i, plus the optional promotion on
    // reaching 1c, 1b or 1a (3): 19.
    assert_eq!(pos("4k4/9/9/9/9/9/9/9/8R b - 1").perft(1), 19);
}

#[test]
fn kingless_trees_agree_with_the_reference_generator() {
    // Depth 3 from small tsume positions: the fast generator (no king: no king moves, no
    // pins, no check to answer) against make-and-test (nothing of the attacker's to attack).
    for (sfen, depth) in [
        ("7nk/9/8G/9/9/9/9/9/9 b P 1", 3),
        ("4k4/9/4P4/9/9/9/9/9/9 b RG 1", 2),
        ("3gkg3/9/4+R4/9/9/9/9/9/2B6 w 2S 1", 2),
        ("6snl/6k2/5pppp/9/7N1/9/9/9/9 b GSr 1", 2),
        ("4k/5/5/5/5 b GSp 1", 3),
    ] {
        let variant = if sfen.starts_with("4k/") {
            Variant::Minishogi
        } else {
            Variant::Shogi
        };
        let p = Position::from_sfen(variant, sfen).unwrap();
        assert_eq!(agree(&p, depth), p.perft(depth), "{sfen}");
    }
}

#[test]
fn a_mating_pawn_drop_is_refused_in_a_tsume_and_a_gold_drop_mates() {
    // Gote king 1a, its own knight on 2a, sente gold on 1c. P*1b would mate (the gold guards
    // 1b and 2b; the knight cannot reach 1b): uchifuzume. Hand count: gold 1c→1b, 2b, 2c,
    // 1d (4) + pawn drops on ranks b-i minus the gold's square (71) minus 1b = 74.
    let p = pos("7nk/9/8G/9/9/9/9/9/9 b P 1");
    assert_eq!(p.perft(1), 74);
    assert!(matches!(
        p.parse_move("P*1b"),
        Err(MoveError::Illegal {
            reason: Illegal::Uchifuzume,
            ..
        })
    ));
    let p = pos("7nk/9/8G/9/9/9/9/9/9 b G 1");
    let mut game = Game::new(p);
    game.play_usi("G*1b").unwrap();
    assert!(game.position().is_check());
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Side::SENTE, Reason::Checkmate))
    );
    // The defender's pawn drops: no enemy king, so none is a pawn-drop mate. King 9a: 3
    // moves; pawn drops on the 80 empty squares but rank i (9): 71.
    let p = pos("k8/9/9/9/9/9/9/9/9 w p 1");
    assert_eq!(p.perft(1), 3 + 71);
}

#[test]
fn outcomes_with_a_kingless_attacker() {
    // The attacker to move with no move at all loses (shogi.md: no legal moves loses).
    let game = Game::new(pos("4k4/9/9/9/9/9/9/9/9 b - 1"));
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Side::GOTE, Reason::Stalemate))
    );
    // The defender to move with a lone king against nothing: nobody can mate (bare kings).
    let game = Game::new(pos("4k4/9/9/9/9/9/9/9/9 w - 1"));
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(Reason::InsufficientMaterial))
    );
    // With anything in the attacker's hand the play goes on.
    assert_eq!(Game::new(pos("4k4/9/9/9/9/9/9/9/9 w P 1")).outcome(), None);
}

#[test]
fn perpetual_check_by_the_kingless_attacker_loses() {
    // Rook 4i, king 5a: R→5i check, K→4a, R→4i check, K→5a; the fourth occurrence after
    // twelve moves, every sente move a check.
    let mut game = Game::new(pos("4k4/9/9/9/9/9/9/9/5R3 b - 1"));
    for _ in 0..3 {
        for mv in ["4i5i", "5a4a", "5i4i", "4a5a"] {
            assert_eq!(game.outcome(), None);
            game.play_usi(mv).unwrap();
        }
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Side::GOTE, Reason::PerpetualCheck))
    );
}

#[test]
fn a_kingless_side_cannot_declare_impasse() {
    // Sente without a king but with eight tokins in its zone and 20 points in hand.
    let game = Game::new(pos("+P+P+P+P+P+P+P+P1/9/9/9/k8/9/9/9/9 b 2R2B 1"));
    assert!(!game.impasse_points(Side::SENTE).king_in_zone);
    assert_eq!(game.can_declare_impasse(), Err(ImpasseError::KingNotInZone));
}

#[test]
fn kif_ki2_and_csa_write_and_read_a_tsume() {
    let mut game = Game::new(pos("7nk/9/8G/9/9/9/9/9/9 b GP2r2b2g4s3n4l17p 1"));
    game.play_usi("G*1b").unwrap();
    let record = ShogiRecord::from_game(&game);
    let kif = write_kif(&record).unwrap();
    let ki2 = write_ki2(&record).unwrap();
    let csa = write_csa(&record).unwrap();
    for (name, back) in [
        ("kif", read_kif(kif.as_bytes())),
        ("ki2", read_ki2(ki2.as_bytes())),
        ("csa", read_csa(csa.as_bytes())),
    ] {
        let back = back.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(back.start_sfen, record.start_sfen, "{name}");
        assert_eq!(back.moves, ["G*1b"], "{name}");
        assert_eq!(back.result, record.result, "{name}");
    }
    assert!(kif.contains("先手の持駒：金　歩"), "{kif}");
}

#[test]
fn kif_rest_of_the_pieces_go_to_the_defender() {
    let kif = "後手の持駒：残り全部\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n| ・ ・ ・ ・ ・ ・ ・v桂v玉|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ 金|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：金\n手数----指手---------消費時間--\n   1 １二金打\n   2 詰み\n";
    let record = read_kif(kif.as_bytes()).unwrap();
    assert_eq!(
        record.start_sfen,
        "7nk/9/8G/9/9/9/9/9/9 b G2r2b2g4s3n4l18p 1"
    );
    assert_eq!(record.moves, ["G*1b"]);
}
