//! Every cause of a refused Shogi or Minishogi move through the real API: `400 illegal_move`,
//! the rules' typed reason as `reason`, the English sentence as `message`, nothing changed.

#[macro_use]
mod common;

use common::TestServer;
use reqwest::StatusCode;
use serde_json::json;

/// (variant, SFEN or `None` for the start, the move, the reason, the end of the message).
type Case = (
    &'static str,
    Option<&'static str>,
    &'static str,
    &'static str,
    &'static str,
);

/// One position per cause, sente to move.
const CASES: &[Case] = &[
    // Where the move is: off the board, nothing there, not the mover's.
    (
        "minishogi",
        None,
        "9a9b",
        "off_board",
        "9a is not on the 5×5 board",
    ),
    ("shogi", None, "5e5d", "no_piece", "there is no piece on 5e"),
    (
        "shogi",
        None,
        "3c3d",
        "not_your_piece",
        "the piece on 3c is not yours",
    ),
    // How the piece moves.
    (
        "shogi",
        None,
        "7g7e",
        "unreachable",
        "the pawn on 7g cannot reach 7e",
    ),
    (
        "shogi",
        None,
        "5i4i",
        "unreachable",
        "4i holds your own piece",
    ),
    // Promotion.
    (
        "shogi",
        Some("k8/4P4/9/9/9/9/9/9/4K4 b - 1"),
        "5b5a",
        "must_promote",
        "a pawn must promote on 5a: it could never move again",
    ),
    (
        "shogi",
        Some("k8/9/9/4G4/9/9/9/9/4K4 b - 1"),
        "5d5c+",
        "cannot_promote",
        "a gold cannot promote",
    ),
    (
        "shogi",
        None,
        "7g7f+",
        "cannot_promote",
        "promotion needs a move that starts or ends in the promotion zone",
    ),
    // Drops.
    (
        "shogi",
        None,
        "P*5e",
        "not_in_hand",
        "you have no pawn in hand",
    ),
    (
        "shogi",
        Some("k8/9/9/9/9/9/9/9/4K4 b GN 1"),
        "G*5i",
        "drop_on_occupied",
        "5i is occupied: drops go on empty squares",
    ),
    (
        "shogi",
        Some("k8/9/9/9/9/9/9/9/4K4 b GN 1"),
        "N*5b",
        "dead_drop",
        "a knight dropped on the last two ranks could never move",
    ),
    (
        "shogi",
        Some("k8/9/6+P2/9/9/9/4P4/9/4K4 b P 1"),
        "P*5e",
        "nifu",
        "nifu: you already have an unpromoted pawn on file 5",
    ),
    (
        "shogi",
        Some("8k/9/8G/9/9/9/9/9/4K2L1 b P 1"),
        "P*1b",
        "uchifuzume",
        "uchifuzume: a pawn drop may not give checkmate",
    ),
    // The king's safety.
    (
        "shogi",
        Some("k3r4/9/9/9/9/9/9/4G4/4K4 b - 1"),
        "5h4h",
        "leaves_king_in_check",
        "it would leave your king in check",
    ),
    (
        "shogi",
        Some("k3r4/9/9/9/9/9/9/9/4K4 b G 1"),
        "G*1e",
        "leaves_king_in_check",
        "your king is in check and this does not answer it",
    ),
];

#[tokio::test]
async fn every_refused_shogi_move_names_its_rule() {
    let s = TestServer::start().await;
    for &(variant, fen, mv, reason, because) in CASES {
        let (id, sente, _) = s
            .game(json!({"variant": variant, "fen": fen}), "sente")
            .await;
        let before = s.view(&id, None).await["fen"].clone();
        let (status, v) = s
            .action(&id, "move", Some(&sente), json!({"move": mv}))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{mv}: {v}");
        assert_eq!(
            v,
            json!({"error": {
                "code": "illegal_move",
                "message": format!("Illegal move `{mv}`: `{mv}` is illegal: {because}"),
                "reason": reason,
            }}),
            "{variant} {fen:?}"
        );
        let after = s.view(&id, None).await;
        assert_eq!((&after["fen"], &after["ply"]), (&before, &json!(0)), "{mv}");
    }
    s.stop().await;
}
