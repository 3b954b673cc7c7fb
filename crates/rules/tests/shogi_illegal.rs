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

/// Gote king 1a; sente gold 1c guards 1b and 2b; sente lance 2i guards 2a and 2b.
const UCHIFUZUME: &str = "8k/9/8G/9/9/9/9/9/4K2L1 b P 1";
/// Gote's rook on 5a pins sente's gold on 5h to the king on 5i.
const PINNED: &str = "k3r4/9/9/9/9/9/9/4G4/4K4 b G 1";
/// Gote's rook on 5a checks sente's king on 5i.
const CHECKED: &str = "k3r4/9/9/9/9/9/9/9/4K4 b G 1";
const START: &str = "startpos";

#[test]
fn every_cause_of_an_illegal_move_is_typed_and_explained() {
    use PieceKind::*;
    let s = Variant::Shogi;
    let m = Variant::Minishogi;
    let cases: &[(Variant, &str, &str, Illegal, &str)] = &[
        (
            m,
            START,
            "9a9b",
            Illegal::OffBoard {
                square: sq("9a"),
                size: 5,
            },
            "9a is not on the 5×5 board",
        ),
        (
            s,
            START,
            "P*5e",
            Illegal::NotInHand(Pawn),
            "you have no pawn in hand",
        ),
        (
            s,
            "k8/9/9/9/9/9/9/9/4K4 b G 1",
            "G*5i",
            Illegal::DropOnOccupied(sq("5i")),
            "5i is occupied: drops go on empty squares",
        ),
        (
            s,
            "k8/9/9/9/9/9/9/9/4K4 b NLP 1",
            "P*5a",
            Illegal::DeadDrop(Pawn),
            "a pawn dropped on the last rank could never move",
        ),
        (
            s,
            "k8/9/9/9/9/9/9/9/4K4 b NLP 1",
            "L*5a",
            Illegal::DeadDrop(Lance),
            "a lance dropped on the last rank could never move",
        ),
        (
            s,
            "k8/9/9/9/9/9/9/9/4K4 b NLP 1",
            "N*5b",
            Illegal::DeadDrop(Knight),
            "a knight dropped on the last two ranks could never move",
        ),
        (
            s,
            "4k4/9/9/9/9/9/9/9/K8 w nlp 1",
            "N*5h",
            Illegal::DeadDrop(Knight),
            "a knight dropped on the last two ranks could never move",
        ),
        (
            s,
            "k8/9/6+P2/9/9/9/4P4/9/4K4 b P 1",
            "P*5e",
            Illegal::Nifu { file: 5 },
            "nifu: you already have an unpromoted pawn on file 5",
        ),
        (
            s,
            UCHIFUZUME,
            "P*1b",
            Illegal::Uchifuzume,
            "uchifuzume: a pawn drop may not give checkmate",
        ),
        (
            s,
            START,
            "5e5d",
            Illegal::NoPiece(sq("5e")),
            "there is no piece on 5e",
        ),
        (
            s,
            START,
            "3c3d",
            Illegal::NotYourPiece(sq("3c")),
            "the piece on 3c is not yours",
        ),
        (
            s,
            START,
            "5i4i",
            Illegal::OwnPieceOnTarget(sq("4i")),
            "4i holds your own piece",
        ),
        (
            s,
            START,
            "7g7e",
            Illegal::Unreachable {
                kind: Pawn,
                from: sq("7g"),
                to: sq("7e"),
            },
            "the pawn on 7g cannot reach 7e",
        ),
        (
            s,
            "k8/9/9/4G4/9/9/9/9/4K4 b - 1",
            "5d5c+",
            Illegal::CannotPromote(Gold),
            "a gold cannot promote",
        ),
        (
            s,
            START,
            "7g7f+",
            Illegal::PromotionOutsideZone,
            "promotion needs a move that starts or ends in the promotion zone",
        ),
        (
            s,
            "k8/4P4/9/9/9/9/9/9/4K4 b - 1",
            "5b5a",
            Illegal::MustPromote {
                kind: Pawn,
                to: sq("5a"),
            },
            "a pawn must promote on 5a: it could never move again",
        ),
        (
            s,
            "k8/9/9/4N4/9/9/9/9/4K4 b - 1",
            "5d4b",
            Illegal::MustPromote {
                kind: Knight,
                to: sq("4b"),
            },
            "a knight must promote on 4b: it could never move again",
        ),
        (
            m,
            "k4/2P2/5/5/4K b - 1",
            "3b3a",
            Illegal::MustPromote {
                kind: Pawn,
                to: sq("3a"),
            },
            "a pawn must promote on 3a: it could never move again",
        ),
        (
            s,
            CHECKED,
            "G*1e",
            Illegal::IgnoresCheck,
            "your king is in check and this does not answer it",
        ),
        (
            s,
            CHECKED,
            "5i5h",
            Illegal::IgnoresCheck,
            "your king is in check and this does not answer it",
        ),
        (
            s,
            PINNED,
            "5h4h",
            Illegal::LeavesKingInCheck,
            "it would leave your king in check",
        ),
    ];
    for &(variant, sfen, mv, want, sentence) in cases {
        let (reason, text) = refusal(variant, sfen, mv);
        assert_eq!(reason, want, "{mv} in {sfen}");
        assert_eq!(text, sentence, "{mv} in {sfen}");
    }
}

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
