//! Every cause of an illegal shogi-family move, typed (`shogi::Illegal`), on hand-made
//! positions: what `Position::parse_move` and `Game::play_usi` say, and the English sentence
//! (the bytes the server sends as the error's message).

use jiang_rules::shogi::{Game, Illegal, MoveError, PieceKind, PlayError, Position, Square};
use jiang_rules::{Outcome, Reason, Side, Variant};

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

/// What `parse_move` says about `mv` in `sfen`: the typed reason and its sentence.
fn refusal(variant: Variant, sfen: &str, mv: &str) -> (Illegal, String) {
    let position = Position::from_sfen(variant, sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    match position.parse_move(mv) {
        Ok(_) => panic!("{mv} is legal in {sfen}"),
        Err(MoveError::Illegal { text, reason }) => {
            assert_eq!(text, mv);
            (reason, reason.to_string())
        }
        Err(e) => panic!("{mv} in {sfen}: {e}"),
    }
}

/// Kings on 9a and 5i; sente holds a gold, a knight, a lance and a pawn.
const HANDS: &str = "k8/9/9/9/9/9/9/9/4K4 b GNLP 1";
/// The same for gote (kings on 5a and 9i).
const GOTE_HANDS: &str = "4k4/9/9/9/9/9/9/9/K8 w nlp 1";
/// Sente has a pawn on file 5 and a tokin on file 3, and a pawn in hand.
const NIFU: &str = "k8/9/6+P2/9/9/9/4P4/9/4K4 b P 1";
/// Gote king 1a; sente gold 1c guards 1b and 2b; sente lance 2i guards 2a and 2b.
const UCHIFUZUME: &str = "8k/9/8G/9/9/9/9/9/4K2L1 b P 1";
/// A sente gold on 5d, a pawn on 5b and a knight on 6d.
const IN_ZONE: &str = "k8/4P4/9/3NG4/9/9/9/9/4K4 b - 1";
/// Minishogi: a sente pawn on 3b.
const MINI_PAWN: &str = "k4/2P2/5/5/4K b - 1";
/// Gote's rook on 5a pins sente's gold on 5h to the king on 5i.
const PINNED: &str = "k3r4/9/9/9/9/9/9/4G4/4K4 b G 1";
/// Gote's rook on 5a checks sente's king on 5i.
const CHECKED: &str = "k3r4/9/9/9/9/9/9/9/4K4 b G 1";
const START: &str = "startpos";

#[test]
fn every_cause_of_an_illegal_move_is_typed_and_said_in_english() {
    use Illegal::*;
    use PieceKind::*;
    let (s, m) = (Variant::Shogi, Variant::Minishogi);
    let off_board = OffBoard {
        square: sq("9a"),
        size: 5,
    };
    let pawn_step = |to| Unreachable {
        kind: Pawn,
        from: sq("7g"),
        to: sq(to),
    };
    let must = |kind, to| MustPromote { kind, to: sq(to) };
    let cases = [
        (m, START, "9a9b", off_board),
        (s, START, "P*5e", NotInHand(Pawn)),
        (s, HANDS, "G*5i", DropOnOccupied(sq("5i"))),
        (s, HANDS, "P*5a", DeadDrop(Pawn)),
        (s, HANDS, "L*5a", DeadDrop(Lance)),
        (s, HANDS, "N*5b", DeadDrop(Knight)),
        (s, GOTE_HANDS, "N*5h", DeadDrop(Knight)),
        (s, NIFU, "P*5e", Nifu { file: 5 }),
        (s, UCHIFUZUME, "P*1b", Uchifuzume),
        (s, START, "5e5d", NoPiece(sq("5e"))),
        (s, START, "3c3d", NotYourPiece(sq("3c"))),
        (s, START, "5i4i", OwnPieceOnTarget(sq("4i"))),
        (s, START, "7g7e", pawn_step("7e")),
        (s, IN_ZONE, "5d5c+", CannotPromote(Gold)),
        (s, START, "7g7f+", PromotionOutsideZone),
        (s, IN_ZONE, "5b5a", must(Pawn, "5a")),
        (s, IN_ZONE, "6d5b", OwnPieceOnTarget(sq("5b"))),
        (s, IN_ZONE, "6d7b", must(Knight, "7b")),
        (m, MINI_PAWN, "3b3a", must(Pawn, "3a")),
        (s, CHECKED, "G*1e", IgnoresCheck),
        (s, CHECKED, "5i5h", IgnoresCheck),
        (s, PINNED, "5h4h", LeavesKingInCheck),
    ];
    assert_eq!(cases.len(), SENTENCES.lines().count());
    for ((variant, sfen, mv, want), sentence) in cases.into_iter().zip(SENTENCES.lines()) {
        let (reason, said) = refusal(variant, sfen, mv);
        assert_eq!((reason, said.as_str()), (want, sentence), "{mv} in {sfen}");
    }
}

/// What each case of [`every_cause_of_an_illegal_move_is_typed_and_said_in_english`] says, in
/// its order: the bytes the server sends after "Illegal move `…`: `…` is illegal: ".
const SENTENCES: &str = "\
9a is not on the 5×5 board
you have no pawn in hand
5i is occupied: drops go on empty squares
a pawn dropped on the last rank could never move
a lance dropped on the last rank could never move
a knight dropped on the last two ranks could never move
a knight dropped on the last two ranks could never move
nifu: you already have an unpromoted pawn on file 5
uchifuzume: a pawn drop may not give checkmate
there is no piece on 5e
the piece on 3c is not yours
4i holds your own piece
the pawn on 7g cannot reach 7e
a gold cannot promote
promotion needs a move that starts or ends in the promotion zone
a pawn must promote on 5a: it could never move again
5b holds your own piece
a knight must promote on 7b: it could never move again
a pawn must promote on 3a: it could never move again
your king is in check and this does not answer it
your king is in check and this does not answer it
it would leave your king in check";

#[test]
fn the_error_of_a_refused_move_text_keeps_its_sentence() {
    let position = Position::startpos(Variant::Shogi);
    let e = position.parse_move("7g7e").unwrap_err();
    assert_eq!(
        e.to_string(),
        "`7g7e` is illegal: the pawn on 7g cannot reach 7e"
    );
    assert!(matches!(
        position.parse_move("7g"),
        Err(MoveError::Syntax(_))
    ));
}

#[test]
fn a_game_refuses_a_move_after_its_end_and_a_move_of_another_position() {
    // 1c1b mates: the gold on 2c defends 1b, the knight on 3c covers 2a.
    let start = Position::from_sfen(Variant::Shogi, "8k/9/6NGP/9/9/9/9/9/4K4 b - 1").unwrap();
    let mut game = Game::new(start.clone());
    game.play_usi("1c1b").unwrap();
    let mate = Outcome::win(Side::SENTE, Reason::Checkmate);
    assert_eq!(game.outcome(), Some(mate));
    assert_eq!(
        game.play_usi("9a9b"),
        Err(MoveError::Illegal {
            text: "9a9b".into(),
            reason: Illegal::GameOver(mate),
        })
    );
    let mv = start.parse_move("5i5h").unwrap();
    assert_eq!(game.play(mv), Err(PlayError::GameOver(mate)));

    // A move legal in another position names the rule it breaks here.
    let mut game = Game::new(Position::startpos(Variant::Shogi));
    let elsewhere = start.parse_move("1c1b").unwrap();
    assert_eq!(
        game.play(elsewhere),
        Err(PlayError::NotLegal {
            mv: elsewhere,
            reason: Illegal::NotYourPiece(sq("1c")),
        })
    );
    assert_eq!(game.position(), &Position::startpos(Variant::Shogi));
}
