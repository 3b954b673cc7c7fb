//! One test (or more) for every rule of `../shared/rules/shogi.md`, on hand-checked
//! positions.

use jiang_rules::shogi::{
    Game, HANDICAPS, ImpasseError, MoveError, PieceKind, PlayError, Position, SfenError, Square,
    handicap,
};
use jiang_rules::{Game as _, Outcome, Reason, Side, Variant};

fn pos(sfen: &str) -> Position {
    Position::from_sfen(Variant::Shogi, sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn mini(sfen: &str) -> Position {
    Position::from_sfen(Variant::Minishogi, sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn moves(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

fn has(p: &Position, mv: &str) -> bool {
    moves(p).iter().any(|m| m == mv)
}

/// Asserts that `mv` is not among the legal moves of `p` and that its refusal mentions
/// `reason`.
#[track_caller]
fn assert_illegal(p: &Position, mv: &str, reason: &str) {
    assert!(!has(p, mv), "{mv} is listed as legal in {}", p.sfen());
    let why = why(p, mv);
    assert!(why.contains(reason), "{mv} in {}: {why}", p.sfen());
}

/// The reason text of an illegal move.
fn why(p: &Position, mv: &str) -> String {
    match p.parse_move(mv) {
        Ok(_) => panic!("{mv} should be illegal in {}", p.sfen()),
        Err(e) => e.to_string(),
    }
}

fn play_all(game: &mut Game, list: &str) {
    for mv in list.split_whitespace() {
        game.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
}

/// The game from `sfen` after the moves of `list`.
fn after(sfen: &str, list: &str) -> Game {
    let mut game = Game::new(pos(sfen));
    play_all(&mut game, list);
    game
}

/// Sente wins by checkmate.
const SENTE_MATES: Outcome = Outcome::win(Side::SENTE, Reason::Checkmate);

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

// ---------------------------------------------------------------- moves and USI

#[test]
fn usi_moves_and_accessors() {
    let start = Position::startpos(Variant::Shogi);
    let mv = start.parse_move("7g7f").unwrap();
    assert_eq!(mv.from(), Some(sq("7g")));
    assert_eq!(mv.to(), sq("7f"));
    assert!(!mv.promotes() && mv.drop_kind().is_none());
    assert_eq!(mv.to_string(), "7g7f");
    assert!(matches!(start.parse_move("7g7"), Err(MoveError::Syntax(_))));
    assert!(matches!(
        start.parse_move("P*5e+"),
        Err(MoveError::Syntax(_))
    ));
    assert!(why(&start, "7g7e").contains("cannot reach"));
    assert!(why(&start, "7c7d").contains("not yours"));
    assert!(why(&start, "5e5d").contains("no piece"));
    assert!(why(&start, "P*5e").contains("no pawn in hand"));
    // A bishop trade: 8h2b+ captures and promotes; the bishop goes to hand.
    let mut game = Game::new(start);
    play_all(&mut game, "7g7f 3c3d 8h2b+");
    let p = game.position();
    assert_eq!(p.hand_count(Side::SENTE, PieceKind::Bishop), 1);
    assert_eq!(p.piece_at(sq("2b")).unwrap().kind, PieceKind::Horse);
    assert_eq!(
        p.sfen(),
        "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"
    );
}

#[test]
fn minishogi_start_and_moves() {
    let p = Position::startpos(Variant::Minishogi);
    assert_eq!(p.sfen(), "rbsgk/4p/5/P4/KGSBR b - 1");
    assert_eq!(p.legal_moves().len(), 14);
    assert!(why(&p, "9i9h").contains("not on the 5×5 board"));
}

// ---------------------------------------------------------------- promotion

#[test]
fn pawn_lance_knight_must_promote_where_they_could_never_move() {
    // Sente pawn 5b, lance 1c, knight 3d; gote king 9a out of the way.
    let p = pos("k8/4P4/8L/6N2/9/9/9/9/4K4 b - 1");
    assert!(has(&p, "5b5a+"));
    assert_illegal(&p, "5b5a", "must promote");
    assert!(has(&p, "1c1a+") && !has(&p, "1c1a"));
    assert!(has(&p, "1c1b+") && has(&p, "1c1b")); // lance on rank b may stay unpromoted
    assert!(has(&p, "3d2b+") && !has(&p, "3d2b")); // knight on the last two ranks
    assert!(has(&p, "3d4b+") && !has(&p, "3d4b"));
    // Gote: pawn reaching rank i.
    let g = pos("4k4/9/9/9/9/9/9/4p4/K8 w - 1");
    assert!(has(&g, "5h5i+") && !has(&g, "5h5i"));
}

#[test]
fn promotion_is_optional_entering_leaving_or_inside_the_zone() {
    // Sente silver on 5d enters the zone; silver on 3c leaves it; rook 8c moves inside it.
    let p = pos("k8/9/1R4S2/4S4/9/9/9/9/4K4 b - 1");
    assert!(has(&p, "5d5c+") && has(&p, "5d5c"));
    assert!(!has(&p, "5d4e+") && has(&p, "5d4e")); // outside the zone: no promotion
    assert!(has(&p, "3c4d+") && has(&p, "3c4d")); // starts in the zone
    assert!(has(&p, "8c8b+") && has(&p, "8c8b"));
    assert!(has(&p, "8c8h+")); // a rook leaving the zone along its file may promote
    assert!(why(&p, "5d4e+").contains("promotion zone"));
}

#[test]
fn gold_king_and_promoted_pieces_never_promote() {
    let p = pos("k8/4G4/3+P5/9/9/9/9/9/4K4 b - 1");
    assert!(!moves(&p).iter().any(|m| m.ends_with('+')));
    assert!(why(&p, "5b5a+").contains("cannot promote"));
}

#[test]
fn captured_promoted_piece_goes_to_hand_unpromoted() {
    // Sente gold takes a gote dragon on 5c.
    let mut game = Game::new(pos("k8/9/4+r4/4G4/9/9/9/9/K8 b - 1"));
    play_all(&mut game, "5d5c");
    assert_eq!(game.position().hand_count(Side::SENTE, PieceKind::Rook), 1);
    assert_eq!(game.position().sfen(), "k8/9/4G4/9/9/9/9/9/K8 w R 2");
}

#[test]
fn minishogi_zone_is_the_last_rank() {
    // Silver on 3c: 3b is outside Minishogi's one-rank zone, 3a... is not reachable here.
    let p = mini("k4/5/2S2/5/K4 b - 1");
    assert!(has(&p, "3c3b") && !has(&p, "3c3b+"));
    let q = mini("k4/2S2/5/5/K4 b - 1");
    assert!(has(&q, "3b3a+") && has(&q, "3b3a"));
    let r = mini("k4/2P2/5/5/K4 b - 1");
    assert!(has(&r, "3b3a+") && !has(&r, "3b3a"));
}

// ---------------------------------------------------------------- drops

#[test]
fn drops_go_on_empty_squares_unpromoted() {
    let p = pos("k8/9/9/9/9/9/9/9/4K4 b G 1");
    assert_eq!(p.legal_moves().len(), 5 + 81 - 2); // king moves + every empty square
    assert!(why(&p, "G*5i").contains("occupied"));
    let mv = p.parse_move("G*5e").unwrap();
    assert_eq!(mv.drop_kind(), Some(PieceKind::Gold));
    assert_eq!(mv.from(), None);
    assert!(!mv.promotes());
}

#[test]
fn nifu_counts_unpromoted_pawns_only() {
    // Sente pawn on file 5, tokin on file 3.
    let p = pos("k8/9/6+P2/9/9/9/4P4/9/4K4 b P 1");
    assert_illegal(&p, "P*5e", "nifu");
    assert!(has(&p, "P*3e"));
    assert!(has(&p, "P*4e"));
}

#[test]
fn no_drop_on_a_rank_the_piece_could_never_leave() {
    let p = pos("k8/9/9/9/9/9/9/9/4K4 b NLP 1");
    assert!(!has(&p, "P*5a") && has(&p, "P*5b"));
    assert!(!has(&p, "L*5a") && has(&p, "L*5b"));
    assert!(!has(&p, "N*5a") && !has(&p, "N*5b") && has(&p, "N*5c"));
    assert!(why(&p, "N*5b").contains("could never move"));
    assert!(why(&p, "L*5a").contains("could never move"));
    // Gote: the last ranks are h and i.
    let g = pos("4k4/9/9/9/9/9/9/9/K8 w nlp 1");
    assert!(!has(&g, "P*5i") && has(&g, "P*5h"));
    assert!(!has(&g, "N*5h") && has(&g, "N*5g"));
    // Minishogi: no pawn drop on the last rank.
    let m = mini("k4/5/5/5/4K b P 1");
    assert!(!has(&m, "P*3a") && has(&m, "P*3b"));
}

/// Gote king 1a; sente gold 1c guards 1b and 2b; sente lance 2i guards 2a and 2b.
const UCHIFUZUME: &str = "8k/9/8G/9/9/9/9/9/4K2L1 b P 1";

#[test]
fn uchifuzume_a_mating_pawn_drop_is_not_a_move() {
    let p = pos(UCHIFUZUME);
    assert_illegal(&p, "P*1b", "uchifuzume");
    assert!(has(&p, "P*1d")); // other pawn drops are fine
}

#[test]
fn a_pawn_drop_check_that_does_not_mate_is_legal() {
    // Without the lance the king escapes to 2a.
    let p = pos("8k/9/8G/9/9/9/9/9/4K4 b P 1");
    assert!(has(&p, "P*1b"));
    // Unprotected pawn: the king may capture it, so the drop is legal too.
    let q = pos("8k/9/9/9/9/9/9/9/4K2L1 b P 1");
    assert!(has(&q, "P*1b"));
    let mut game = Game::new(q);
    play_all(&mut game, "P*1b");
    assert!(game.position().is_check());
    assert_eq!(game.outcome(), None);
    // The king's capture is only an escape when the pawn is not defended: here the gold on
    // 1c defends it but gote's silver on 2a can capture, so the drop is legal.
    let r = pos("7sk/9/8G/9/9/9/9/9/4K2L1 b P 1");
    assert!(has(&r, "P*1b"));
}

#[test]
fn uchifuzume_when_the_capturer_is_pinned() {
    // Gote's silver on 2a could take a pawn on 1b, but it is pinned on rank a by sente's
    // rook on 9a; the king cannot take (the gold on 1c defends 1b) nor step to 2b.
    let p = pos("R6sk/9/8G/9/9/9/9/9/4K4 b P 1");
    // 2a is occupied by the silver, 2b covered by the gold: only capturing the pawn could help,
    // and the silver may not leave rank a.
    assert!(!has(&p, "P*1b"));
}

#[test]
fn mate_by_a_pawn_move_or_a_dropped_gold_is_fine() {
    // Pawn move 1c1b mates (gold 2c defends 1b, knight 3c covers 2a).
    let game = after("8k/9/6NGP/9/9/9/9/9/4K4 b - 1", "1c1b");
    assert_eq!(game.outcome(), Some(SENTE_MATES));
    // Dropping a gold where the pawn drop was forbidden mates legally.
    let game = after("8k/9/8G/9/9/9/9/9/4K2L1 b G 1", "G*1b");
    assert_eq!(game.outcome(), Some(SENTE_MATES));
}

// ---------------------------------------------------------------- check and legality

#[test]
fn moves_that_leave_the_king_in_check_are_illegal() {
    // Sente gold on 5h is pinned by a gote rook on 5a against the king on 5i.
    let p = pos("4r3k/9/9/9/9/9/9/4G4/4K4 b - 1");
    assert!(has(&p, "5h5g"));
    assert_illegal(&p, "5h4g", "check");
    // The king may not step onto an attacked square, nor away along the checking line.
    let q = pos("4r3k/9/9/9/9/9/9/9/4K4 b - 1");
    assert!(q.is_check());
    assert!(!has(&q, "5i5h"));
    assert!(has(&q, "5i4h") && has(&q, "5i6i"));
    // In check, a drop must block.
    let r = pos("4r3k/9/9/9/9/9/9/9/4K4 b G 1");
    let drops: Vec<String> = moves(&r).into_iter().filter(|m| m.contains('*')).collect();
    assert_eq!(drops.len(), 7); // 5b..5h
}

#[test]
fn a_dropped_piece_promotes_on_a_later_move() {
    let game = after("k8/9/9/9/9/9/9/9/4K4 b S 1", "S*5c 9a9b");
    let p = game.position();
    assert!(has(p, "5c5b+") && has(p, "5c5b") && has(p, "5c4d+"));
}

#[test]
fn pinned_pieces_move_along_the_pin_and_may_take_the_pinner() {
    // Sente rook 5g pinned by a gote lance on 5a: it may slide on file 5 and capture it.
    let p = pos("4l3k/9/9/9/9/9/4R4/9/4K4 b - 1");
    assert!(has(&p, "5g5a") && has(&p, "5g5a+") && has(&p, "5g5b"));
    assert!(!has(&p, "5g4g") && !has(&p, "5g6g"));
    // A pinned bishop may not move off its diagonal, a pinned knight not at all.
    let q = pos("8k/9/9/9/9/2b6/9/4N4/5K3 b - 1");
    assert!(!moves(&q).iter().any(|m| m.starts_with("5h")));
}

#[test]
fn the_king_may_not_take_a_defended_piece() {
    // Gote gold on 5h defended by a gote silver on 4g: the king cannot take it.
    let p = pos("8k/9/9/9/9/9/5s3/4g4/4K4 b - 1");
    assert!(p.is_check());
    assert!(!has(&p, "5i5h"));
    // Every other square is covered by the gold: mate.
    assert!(moves(&p).is_empty());
    assert_eq!(
        Game::new(p).outcome(),
        Some(Outcome::win(Side::GOTE, Reason::Checkmate))
    );
}

#[test]
fn double_check_allows_only_king_moves() {
    // Gote rook 5a and bishop 1e both check the sente king on 5i; the gold could capture
    // neither usefully.
    let p = pos("4r3k/9/9/9/8b/9/9/5G3/4K4 b - 1");
    assert!(p.is_check());
    assert!(moves(&p).iter().all(|m| m.starts_with("5i")));
}

// ---------------------------------------------------------------- end of the game

#[test]
fn no_legal_moves_loses_checkmate_or_stalemate() {
    // Gote to move, not in check, every king move covered: a loss (no stalemate draw).
    let game = Game::new(pos("8k/9/6NG1/9/9/9/9/9/4K4 w - 1"));
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Side::SENTE, Reason::Stalemate))
    );
    assert_eq!(game.outcome().unwrap().result(), "1-0");
}

/// Kings and rooks shuffle: the start position occurs at plies 0, 4, 8 and 12.
const SHUFFLE: &str = "5i5h 5a5b 5h5i 5b5a";

#[test]
fn sennichite_fourth_occurrence_is_a_draw() {
    let mut game = Game::new(Position::startpos(Variant::Shogi));
    play_all(&mut game, &format!("{SHUFFLE} {SHUFFLE}"));
    assert_eq!(game.outcome(), None); // third occurrence
    play_all(&mut game, "5i5h 5a5b 5h5i");
    assert_eq!(game.outcome(), None);
    play_all(&mut game, "5b5a");
    assert_eq!(game.outcome(), Some(Outcome::draw(Reason::Repetition)));
    assert!(game.play_text("7g7f").is_err()); // the game is over
}

/// Plays `list`; the game must go on until the last move and end with it.
fn ends_on_last_move(game: &mut Game, list: &str) -> Outcome {
    let moves: Vec<&str> = list.split_whitespace().collect();
    for (i, mv) in moves.iter().enumerate() {
        assert_eq!(game.outcome(), None, "over before move {} ({mv})", i + 1);
        game.play_text(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    game.outcome().expect("the last move ends the game")
}

/// Plays `first` then `cycle` three times from `sfen`: the fourth occurrence of the position
/// after `first` ends the game, perpetual check lost by the checker.
fn assert_perpetual_check(sfen: &str, first: &str, cycle: &str, winner: Side) {
    let mut game = Game::new(pos(sfen));
    assert_eq!(
        ends_on_last_move(&mut game, &format!("{first} {cycle} {cycle} {cycle}")),
        Outcome::win(winner, Reason::PerpetualCheck)
    );
}

#[test]
fn perpetual_check_loses() {
    // Sente's rook checks on every move while gote's king shuffles 1a-2a: the position after
    // 3i1i recurs after plies 5, 9 and 13.
    let (sfen, cycle) = ("8k/9/9/9/9/9/9/9/K5R2 b - 1", "1a2a 1i2i 2a1a 2i1i");
    assert_perpetual_check(sfen, "3i1i", cycle, Side::GOTE);
}

#[test]
fn perpetual_check_by_gote_loses_too() {
    let (sfen, cycle) = ("k5r2/9/9/9/9/9/9/9/8K w - 1", "1i2i 1a2a 2i1i 2a1a");
    assert_perpetual_check(sfen, "3a1a", cycle, Side::SENTE);
}

#[test]
fn minishogi_plain_repetition_is_a_loss_for_sente() {
    let mut game = Game::new(Position::startpos(Variant::Minishogi));
    let cycle = "1e1d 5a5b 1d1e 5b5a";
    let outcome = ends_on_last_move(&mut game, &format!("{cycle} {cycle} {cycle}"));
    assert_eq!(outcome, Outcome::win(Side::GOTE, Reason::Repetition));
    assert_eq!(outcome.result(), "0-1");
}

#[test]
fn minishogi_perpetual_check_loses_for_the_checker() {
    // Gote's rook checks sente's king on every move: gote loses, not sente.
    let mut game = Game::new(mini("2r1k/5/5/5/K4 w - 1"));
    let cycle = "5e4e 5a4a 4e5e 4a5a";
    assert_eq!(
        ends_on_last_move(&mut game, &format!("3a5a {cycle} {cycle} {cycle}")),
        Outcome::win(Side::SENTE, Reason::PerpetualCheck)
    );
}

#[test]
fn bare_kings_with_empty_hands_draw() {
    let game = Game::new(pos("4k4/9/9/9/9/9/9/9/4K4 b - 1"));
    assert_eq!(
        game.outcome(),
        Some(Outcome::draw(Reason::InsufficientMaterial))
    );
    // A piece in hand keeps the game going.
    assert_eq!(
        Game::new(pos("4k4/9/9/9/9/9/9/9/4K4 b P 1")).outcome(),
        None
    );
    // Capturing the last piece on the board does not bare the kings: it goes to hand.
    let mut game = Game::new(pos("4k4/9/9/9/9/9/9/4g4/4K4 b - 1"));
    assert_eq!(game.outcome(), None);
    play_all(&mut game, "5i5h");
    assert_eq!(game.outcome(), None); // sente holds the gold in hand
}

#[test]
fn seven_hundredth_move_draws() {
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 699";
    let mut game = Game::new(pos(start));
    play_all(&mut game, "7g7f");
    assert_eq!(game.outcome(), None); // move 699 played
    play_all(&mut game, "3c3d");
    assert_eq!(game.outcome(), Some(Outcome::draw(Reason::MoveLimit)));
}

#[test]
fn checkmate_comes_before_the_length_cap() {
    let game = after("8k/9/6NGP/9/9/9/9/9/4K4 b - 700", "1c1b");
    assert_eq!(game.outcome(), Some(SENTE_MATES));
}

// ---------------------------------------------------------------- impasse

/// Sente: king 5a, ten pieces in the zone (18 points), ten pawns in hand: 28 points.
const IMPASSE_SENTE: &str = "+L+NSGKGS+N+L/1R5B1/9/9/9/9/9/9/4k4 b 10P 1";

#[test]
fn impasse_declaration_that_holds() {
    let mut game = Game::new(pos(IMPASSE_SENTE));
    let points = game.impasse_points(Side::SENTE);
    assert_eq!(points.declaration, 28);
    assert_eq!(points.needed, 28);
    assert_eq!(points.pieces_in_zone, 10);
    assert!(points.king_in_zone);
    assert_eq!(points.total, 28);
    assert_eq!(game.can_declare_impasse(), Ok(()));
    game.play_text("win").unwrap();
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Side::SENTE, Reason::Impasse))
    );
}

/// Asserts that the side to move in `game` may not declare impasse, for `error`, and that a
/// declaration made anyway is refused with a message naming the failed `condition`.
#[track_caller]
fn assert_impasse_refused(game: &mut Game, error: ImpasseError, condition: &str) {
    assert_eq!(game.can_declare_impasse(), Err(error.clone()));
    let err = game.play_text("win").unwrap_err();
    assert_eq!(err, PlayError::Impasse(error));
    assert!(err.to_string().contains(condition), "{err}");
}

#[test]
fn impasse_fails_without_the_king_in_the_zone() {
    let mut game = Game::new(pos("+L+NSG1GS+N+L/1R5B1/9/4K4/9/9/9/9/4k4 b 10P 1"));
    assert_impasse_refused(&mut game, ImpasseError::KingNotInZone, "condition 1");
    assert_eq!(game.outcome(), None);
}

#[test]
fn impasse_fails_with_nine_pieces_in_the_zone() {
    let game = Game::new(pos("+L+NSGKGS+N1/1R5B1/9/9/9/9/9/9/4k4 b 11P 1"));
    assert_eq!(game.impasse_points(Side::SENTE).declaration, 28);
    assert_eq!(
        game.can_declare_impasse(),
        Err(ImpasseError::TooFewPieces { pieces: 9 })
    );
}

#[test]
fn impasse_fails_in_check() {
    let mut game = Game::new(pos("+L+NSGKGS+N+L/1R5B1/9/9/4r4/9/9/9/4k4 b 10P 1"));
    assert_impasse_refused(&mut game, ImpasseError::InCheck, "condition 3");
}

#[test]
fn impasse_needs_28_points_for_sente_27_for_gote() {
    let game = Game::new(pos("+L+NSGKGS+N+L/1R5B1/9/9/9/9/9/9/4k4 b 9P 1"));
    assert_eq!(
        game.can_declare_impasse(),
        Err(ImpasseError::TooFewPoints {
            points: 27,
            needed: 28
        })
    );
    // The mirrored position with gote to move: 27 points suffice.
    let gote = Game::new(pos("4K4/9/9/9/9/9/9/1b5r1/+l+nsgkgs+n+l w 9p 1"));
    assert_eq!(gote.impasse_points(Side::GOTE).declaration, 27);
    assert_eq!(gote.can_declare_impasse(), Ok(()));
}

#[test]
fn impasse_credits_the_handicap_giver() {
    // Gote with 17 points (18 - 9 + 8): short without credit, enough as the 2-piece uwate.
    let sfen = "4K4/9/9/9/9/9/9/1b5r1/+l+nsgkgs+n+l w 8p 1";
    let even = Game::new(pos(sfen));
    assert_eq!(
        even.can_declare_impasse(),
        Err(ImpasseError::TooFewPoints {
            points: 26,
            needed: 27
        })
    );
    let h = handicap(Variant::Shogi, "2-piece").unwrap();
    let uwate = Game::with_handicap(pos(sfen), Some(h));
    assert_eq!(uwate.impasse_points(Side::GOTE).declaration, 36);
    assert_eq!(uwate.can_declare_impasse(), Ok(()));
    // The shitate gets no credit.
    assert_eq!(uwate.impasse_points(Side::SENTE).declaration, 0);
}

#[test]
fn no_impasse_in_minishogi() {
    let mut game = Game::new(Position::startpos(Variant::Minishogi));
    assert_eq!(
        game.can_declare_impasse(),
        Err(ImpasseError::NotAvailable(Variant::Minishogi))
    );
    assert!(game.play_text("win").is_err());
}

#[test]
fn impasse_points_at_the_start() {
    let game = Game::new(Position::startpos(Variant::Shogi));
    let p = game.impasse_points(Side::SENTE);
    assert!(!p.king_in_zone);
    assert_eq!((p.pieces_in_zone, p.declaration, p.total), (0, 0, 27));
}

// ---------------------------------------------------------------- handicaps

#[test]
fn handicap_presets_match_the_rules_file_and_gote_moves_first() {
    let names = [
        "lance",
        "bishop",
        "rook",
        "rook-lance",
        "2-piece",
        "4-piece",
        "6-piece",
        "8-piece",
        "10-piece",
    ];
    for name in names {
        let h = handicap(Variant::Shogi, name).unwrap();
        let p = h.position();
        assert_eq!(p.turn(), Side::GOTE, "{name}");
        assert_eq!(p.sfen(), h.sfen, "{name}");
        assert_eq!(Game::new(p).handicap(), Some(h), "{name}");
    }
    assert_eq!(
        handicap(Variant::Shogi, "2-piece").unwrap().sfen,
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    assert_eq!(
        handicap(Variant::Shogi, "10-piece").unwrap().sfen,
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
    );
    for name in ["bishop", "rook"] {
        let h = handicap(Variant::Minishogi, name).unwrap();
        assert_eq!(h.position().turn(), Side::GOTE);
    }
    assert_eq!(
        handicap(Variant::Minishogi, "rook").unwrap().sfen,
        "1bsgk/4p/5/P4/KGSBR w - 1"
    );
    assert!(handicap(Variant::Minishogi, "2-piece").is_none());
    assert!(handicap(Variant::Shogi, "queen").is_none());
    assert_eq!(HANDICAPS.len(), 11);
    // The credit is the points of the removed pieces.
    let credits: Vec<u32> = names
        .iter()
        .map(|n| handicap(Variant::Shogi, n).unwrap().credit)
        .collect();
    assert_eq!(credits, [1, 5, 5, 6, 10, 12, 14, 16, 18]);
}

#[test]
fn a_handicap_game_result_is_written_from_sente() {
    // Gote (the uwate, who moved first) is mated: sente wins, 1-0.
    let game = after("8k/9/6NGP/9/9/9/9/9/4K4 b - 2", "1c1b");
    assert_eq!(game.outcome(), Some(SENTE_MATES));
    assert_eq!(game.outcome().unwrap().result(), "1-0");
}

// ---------------------------------------------------------------- SFEN

#[test]
fn sfen_round_trips_and_writes_hands_canonically() {
    let p = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    assert_eq!(p.sfen(), Position::startpos(Variant::Shogi).sfen());
    let q = pos("8k/9/9/9/9/9/9/9/K8 b 2pPSbG3L 12");
    assert_eq!(q.sfen(), "8k/9/9/9/9/9/9/9/K8 b GS3LPb2p 12");
    assert_eq!(q.hand_count(Side::GOTE, PieceKind::Pawn), 2);
    assert_eq!(
        q.hand(Side::SENTE),
        vec![
            (PieceKind::Gold, 1),
            (PieceKind::Silver, 1),
            (PieceKind::Lance, 3),
            (PieceKind::Pawn, 1)
        ]
    );
    assert_eq!(
        Position::from_sfen(Variant::Shogi, "startpos").unwrap(),
        Position::startpos(Variant::Shogi)
    );
    assert_eq!(mini("startpos").sfen(), "rbsgk/4p/5/P4/KGSBR b - 1");
}

#[test]
fn sfen_errors_say_what_and_where() {
    let err = |s: &str| Position::from_sfen(Variant::Shogi, s).unwrap_err();
    assert_eq!(err(""), SfenError::Empty);
    // Each text and the kind of error it gives.
    macro_rules! assert_errors {
        ($($text:literal => $kind:pat),+ $(,)?) => {$(
            let e = err($text);
            assert!(matches!(e, $kind), "{}: {e:?}", $text);
        )+};
    }
    assert_errors! {
        "9/9 b - 1" => SfenError::RankCount { found: 2, .. },
        "8k/9/9/9/9/9/9/9/K8" => SfenError::Missing(_),
        "8k/9/9/9/9/9/9/9/K8 b 2 1" => SfenError::Hands { .. },
        "8k/9/9/9/9/9/9/9/K8 b K 1" => SfenError::Hands { .. },
        "8k/9/9/9/9/9/9/9/K8 b - 0" => SfenError::MoveNumber(_),
        "8k/9/9/9/9/9/9/9/K8 b - 1 x" => SfenError::Trailing(_),
    }
    let e = err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1");
    assert!(matches!(e, SfenError::Rank { rank: 'i', .. }), "{e}");
    assert!(e.to_string().contains("`X`"));
    let e = err("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNLL b - 1");
    assert!(e.to_string().contains("rank i"), "{e}");
    let e = err("lnsgkgsnl/1r5b1/ppppppppp/9/9/8/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1");
    assert!(
        e.to_string().contains("rank f") && e.to_string().contains("8 squares"),
        "{e}"
    );
    assert!(
        err("8k/9/9/9/9/9/9/9/K8 x - 1")
            .to_string()
            .contains("side")
    );
    assert!(
        err("8k/9/9/9/9/9/9/9/+K8 b - 1")
            .to_string()
            .contains("cannot be promoted")
    );
}

#[test]
fn sfen_validation_rejects_impossible_positions() {
    let illegal = |s: &str| match Position::from_sfen(Variant::Shogi, s) {
        Err(SfenError::Illegal(why)) => why.to_string(),
        other => panic!("{s}: {other:?}"),
    };
    // A tsume lacks the attacker's king (valid); no king at all is not.
    assert!(Position::from_sfen(Variant::Shogi, "9/9/9/9/9/9/9/9/K8 b - 1").is_ok());
    assert!(illegal("9/9/9/9/9/9/9/9/9 b R 1").contains("0 kings"));
    assert!(illegal("k7k/9/9/9/9/9/9/9/K8 b - 1").contains("2 kings"));
    assert!(illegal("k3P4/9/9/9/9/9/9/9/K8 b - 1").contains("pawn on 5a"));
    assert!(illegal("k8/3N5/9/9/9/9/9/9/K8 b - 1").contains("knight on 6b"));
    assert!(illegal("k8/9/9/9/9/9/9/9/K3l4 b - 1").contains("lance on 5i"));
    assert!(illegal("k8/9/4P4/9/4P4/9/9/9/K8 b - 1").contains("nifu"));
    assert!(illegal("k8/9/9/9/9/9/9/9/K8 b 19P 1").contains("the set has 18"));
    assert!(illegal("k8/9/9/9/9/9/9/9/K8 b 2B1b 1").contains("the set has 2"));
    // Gote is in check but sente is to move.
    assert!(illegal("k8/R8/9/9/9/9/9/9/8K b - 1").contains("in check"));
    // Minishogi has no lances or knights.
    assert!(
        Position::from_sfen(Variant::Minishogi, "k4/5/5/5/K4 b L 1")
            .unwrap_err()
            .to_string()
            .contains("the set has 0")
    );
    assert!(matches!(
        Position::from_sfen(Variant::Xiangqi, "startpos"),
        Err(SfenError::NotShogi(_))
    ));
}

#[test]
fn sfen_accepts_short_forms() {
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 w");
    assert_eq!(p.sfen(), "4k4/9/9/9/9/9/9/9/4K4 w - 1");
    assert_eq!(pos("sfen 4k4/9/9/9/9/9/9/9/4K4 b - 3").ply(), 3);
}
