//! The Jieqi hidden-information layer: capture knowledge per observer, the end-of-game
//! reveal, errors that change nothing, restore and records, and the privacy property: a
//! view is a function of what its observer may know and nothing else.

use jiang_rules::jieqi::{
    Deal, JieqiError, JieqiGame, JieqiView, Observer, Salt, deal_index, deal_points, verify,
};
use jiang_rules::xiangqi::notation::Record;
use jiang_rules::xiangqi::{Occupant, Piece, PieceKind, Square};
use jiang_rules::{Outcome, Reason, Side};
use proptest::prelude::*;
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

const OBSERVERS: [Observer; 3] = [Observer::Red, Observer::Black, Observer::Spectator];

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn seeded_game(seed: u64) -> JieqiGame {
    JieqiGame::new(&mut ChaCha20Rng::seed_from_u64(seed))
}

#[test]
fn capture_knowledge_per_observer_and_the_end_of_game_reveal() {
    let mut game = seeded_game(1);
    let deal = *game.deal();
    let red_cannon_point = deal.identity_at(Side::RED, sq("h2")).unwrap();
    let black_victim = deal.identity_at(Side::BLACK, sq("h9")).unwrap();

    // The covered piece on h2 moves as a cannon: over the screen on h7, it takes h9.
    let mv = game.play("h2h9").unwrap();
    assert_eq!(mv.reveal(), Some(Piece::new(Side::RED, red_cannon_point)));
    let red = game.view(Observer::Red);
    let black = game.view(Observer::Black);
    let spectator = game.view(Observer::Spectator);
    for view in [&red, &black, &spectator] {
        assert_eq!(view.moves, [mv.to_string()]);
        assert_eq!(view.captured[1], []);
        assert_eq!(view.captured[0].len(), 1);
        assert_eq!(view.captured[0][0].square, sq("h9"));
        assert!(view.captured[0][0].was_covered);
        assert_eq!(view.covered, [14, 14]);
        assert_eq!(view.revelation, None);
        // Red's own pool: the h2 reveal is public.
        assert_eq!(view.pools[0].total(), 14);
        assert_eq!(
            view.pools[0].count(red_cannon_point),
            red_cannon_point_count(red_cannon_point) - 1
        );
    }
    // Only the captor learns what it took.
    assert_eq!(
        red.captured[0][0].piece,
        Some(Piece::new(Side::BLACK, black_victim))
    );
    assert_eq!(black.captured[0][0].piece, None);
    assert_eq!(spectator.captured[0][0].piece, None);
    assert_eq!(red.pools[1].total(), 14);
    assert_eq!(black.pools[1].total(), 15);
    assert_eq!(spectator.pools[1].total(), 15);
    assert_eq!(
        black,
        JieqiView {
            observer: Observer::Black,
            ..spectator.clone()
        }
    );

    // Black takes the revealed piece back with the covered piece on i9 (a chariot point):
    // a face-up capture is public.
    let back = game.play("i9h9").unwrap();
    for observer in OBSERVERS {
        let view = game.view(observer);
        assert_eq!(view.captured[1].len(), 1);
        assert_eq!(
            view.captured[1][0].piece,
            Some(Piece::new(Side::RED, red_cannon_point))
        );
        assert!(!view.captured[1][0].was_covered);
        assert_eq!(view.moves[1], back.to_string());
    }

    // The game ends (Black resigns): everything is published to everyone.
    game.end(Outcome::win(Side::RED, Reason::Resignation))
        .unwrap();
    for observer in OBSERVERS {
        let view = game.view(observer);
        assert_eq!(
            view.outcome,
            Some(Outcome::win(Side::RED, Reason::Resignation))
        );
        assert_eq!(
            view.captured[0][0].piece,
            Some(Piece::new(Side::BLACK, black_victim))
        );
        let revelation = view.revelation.expect("revealed at the end");
        assert_eq!(revelation.deal, deal);
        assert!(verify(&view.commitment, &revelation.deal, &revelation.salt));
        // 30 covered at the start; h2 and i9 were revealed, h9 was captured face down.
        assert_eq!(revelation.covered.len(), 27);
        for (square, piece) in revelation.covered {
            assert_eq!(deal.identity_at(piece.side, square), Some(piece.kind));
        }
        assert_eq!(view.pools[0].total() + view.pools[1].total(), 0);
    }
}

fn red_cannon_point_count(kind: PieceKind) -> u8 {
    match kind {
        PieceKind::Soldier => 5,
        PieceKind::General => 0,
        _ => 2,
    }
}

#[test]
fn bad_moves_change_nothing() {
    let mut game = seeded_game(2);
    let before = game.view(Observer::Spectator);
    for text in ["h2e2C", "h2e", "", "h2e2 ", "ｈ２ｅ２"] {
        assert!(
            matches!(game.play(text), Err(JieqiError::Malformed(_))),
            "{text}"
        );
    }
    assert!(matches!(game.play("e0e2"), Err(JieqiError::Illegal(_))));
    assert!(matches!(game.play("h9g7"), Err(JieqiError::Illegal(_))));
    assert!(
        matches!(game.play("d0d1"), Err(JieqiError::Illegal(_))),
        "a covered advisor moves as one"
    );
    assert_eq!(game.view(Observer::Spectator), before);
    game.end(Outcome::draw(Reason::Agreement)).unwrap();
    assert!(matches!(game.play("h2e2"), Err(JieqiError::GameOver(_))));
    assert!(matches!(
        game.end(Outcome::draw(Reason::Agreement)),
        Err(JieqiError::GameOver(_))
    ));
    assert_eq!(game.legal_moves(), Vec::<String>::new());
}

#[test]
fn legal_moves_are_sent_without_suffixes() {
    let game = seeded_game(3);
    let moves = game.legal_moves();
    assert!(moves.iter().all(|m| m.len() == 4));
    assert!(moves.contains(&"h2e2".to_owned()) && moves.contains(&"d0e1".to_owned()));
    assert!(!moves.contains(&"d0d1".to_owned()));
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
}

#[test]
fn debug_output_hides_the_secret() {
    let game = JieqiGame::with_deal(
        Deal::STANDARD,
        "000102030405060708090a0b0c0d0e0f".parse().unwrap(),
    );
    let text = format!("{game:?} {:?} {:?}", game.deal(), game.salt());
    assert!(
        !text.contains("RNBAABNR") && !text.contains("0001020304"),
        "{text}"
    );
    assert!(text.contains(&game.commitment().to_string()));
}

/// Plays `plies` random moves (as players send them) and returns them.
fn random_moves(game: &mut JieqiGame, seed: u64, plies: usize) -> Vec<String> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut played = Vec::new();
    for _ in 0..plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let text = &moves[rng.next_u32() as usize % moves.len()];
        game.play(text).unwrap();
        played.push(text.clone());
    }
    played
}

#[test]
fn restore_replays_stored_moves() {
    let mut game = seeded_game(4);
    random_moves(&mut game, 4, 60);
    let public: Vec<String> = game.view(Observer::Spectator).moves;
    let (deal, salt) = (*game.deal(), *game.salt());
    for stored in [
        public.clone(),
        public.iter().map(|m| m[..4].to_owned()).collect(),
    ] {
        let restored = JieqiGame::restore(deal, salt, stored.iter().map(String::as_str)).unwrap();
        for observer in OBSERVERS {
            assert_eq!(restored.view(observer), game.view(observer));
        }
    }
    // A suffix that contradicts the deal is refused.
    let first = &public[0];
    let wrong = if first.ends_with('P') { "C" } else { "P" };
    let tampered = format!("{}{wrong}", &first[..4]);
    assert!(matches!(
        JieqiGame::restore(deal, salt, [tampered.as_str()]),
        Err(JieqiError::DealMismatch { ply: 1, .. })
    ));
}

#[test]
fn records_publish_the_deal_only_at_the_end() {
    let mut game = seeded_game(5);
    random_moves(&mut game, 5, 40);
    let deal_text = game.deal().to_string();
    let salt_text = game.salt().to_string();
    let during = game.record().to_string();
    assert!(during.contains(&format!("[Commitment \"{}\"]", game.commitment())));
    assert!(
        !during.contains(&deal_text) && !during.contains(&salt_text) && !during.contains("[Deal")
    );
    let back = Record::parse(&during).unwrap();
    assert_eq!(back.moves(), game.public_game().moves());

    if !game.is_over() {
        game.end(Outcome::win(Side::BLACK, Reason::Timeout))
            .unwrap();
    }
    let after = game.record().to_string();
    assert!(
        after.contains(&format!("[Deal \"{deal_text}\"]")),
        "{after}"
    );
    assert!(after.contains(&format!("[Salt \"{salt_text}\"]")));
    let back = Record::parse(&after).unwrap();
    assert_eq!(back.moves(), game.public_game().moves());
    let deal: Deal = back.tag("Deal").unwrap().parse().unwrap();
    let salt: Salt = back.tag("Salt").unwrap().parse().unwrap();
    assert!(verify(
        &back.tag("Commitment").unwrap().parse().unwrap(),
        &deal,
        &salt
    ));
}

/// Which deal indices each side's observer `knower` may know after the game so far: those
/// revealed by moves (public) and, if `knower` is a player, those it captured face down.
fn known_indices(game: &JieqiGame, knower: Observer) -> [[bool; 15]; 2] {
    let mut known = [[false; 15]; 2];
    let public = game.public_game();
    for (position, mv) in public.positions().zip(public.moves()) {
        if let Some(Occupant::Covered(side)) = position.occupant(mv.from()) {
            known[side.index()][deal_index(side, mv.from()).unwrap()] = true;
        }
        if let Some(Occupant::Covered(owner)) = position.occupant(mv.to())
            && knower.side() == Some(!owner)
        {
            known[owner.index()][deal_index(owner, mv.to()).unwrap()] = true;
        }
    }
    known
}

/// A different deal that agrees with `deal` on every known index: the unknown identities
/// of each side are shuffled among themselves.
fn redeal(deal: &Deal, known: &[[bool; 15]; 2], rng: &mut ChaCha20Rng) -> Deal {
    let words = Side::BOTH.map(|side| {
        let mut kinds = deal.kinds(side);
        let free: Vec<usize> = (0..15).filter(|&i| !known[side.index()][i]).collect();
        let mut pool: Vec<PieceKind> = free.iter().map(|&i| kinds[i]).collect();
        for i in (1..pool.len()).rev() {
            pool.swap(i, rng.next_u32() as usize % (i + 1));
        }
        for (&i, kind) in free.iter().zip(pool) {
            kinds[i] = kind;
        }
        kinds
            .iter()
            .map(|&k| Piece::new(side, k).fen_letter())
            .collect::<String>()
    });
    format!("{}/{}", words[0], words[1]).parse().unwrap()
}

/// The view with the commitment blanked: the commitment is the one public value computed
/// from the deal (hiding it is the salt's job), so it differs between deals by design.
fn comparable(mut view: JieqiView) -> String {
    view.commitment = "0".repeat(64).parse().unwrap();
    format!("{view:?}")
}

/// Checks that no view before the end holds an identity its observer may not know.
fn assert_view_is_entitled(view: &JieqiView) {
    if view.outcome.is_some() {
        return;
    }
    assert!(view.revelation.is_none());
    for (captor, list) in Side::BOTH.into_iter().zip(&view.captured) {
        for captured in list {
            if captured.was_covered && captured.piece.is_some() {
                assert_eq!(view.observer.side(), Some(captor), "{view:?}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// Views of a spectator, and of each player, are the same for every deal that agrees on
    /// what that observer may know (same public moves), at every ply before the end.
    #[test]
    fn views_depend_only_on_what_the_observer_may_know(seed in any::<u64>(), plies in 1usize..200) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let mut original = JieqiGame::new(&mut rng);
        let moves = random_moves(&mut original, seed ^ 0x5eed, plies);
        for observer in OBSERVERS {
            let known = known_indices(&original, observer);
            let other_deal = redeal(original.deal(), &known, &mut rng);
            let other_salt = Salt::random(&mut rng);
            let mut first = JieqiGame::with_deal(*original.deal(), *original.salt());
            let mut second = JieqiGame::with_deal(other_deal, other_salt);
            for text in &moves {
                let a = first.play(text).unwrap();
                let b = second.play(text).unwrap();
                prop_assert_eq!(a, b, "the same public move");
                let (va, vb) = (first.view(observer), second.view(observer));
                assert_view_is_entitled(&va);
                assert_view_is_entitled(&vb);
                if !first.is_over() {
                    prop_assert_eq!(comparable(va), comparable(vb));
                }
            }
        }
    }
}

/// The property above is not vacuous: random games do capture covered pieces, and the
/// captor's view then differs between deals that differ on the captured identity.
#[test]
fn captors_see_what_others_cannot() {
    let mut captor_views_differed = 0;
    for seed in 0..40u64 {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let mut original = JieqiGame::new(&mut rng);
        let moves = random_moves(&mut original, seed, 120);
        let known = known_indices(&original, Observer::Spectator);
        let other = redeal(original.deal(), &known, &mut rng);
        let mut second = JieqiGame::with_deal(other, *original.salt());
        let mut first = JieqiGame::with_deal(*original.deal(), *original.salt());
        let mut differed = false;
        for text in &moves {
            first.play(text).unwrap();
            second.play(text).unwrap();
            if first.is_over() {
                break;
            }
            for observer in [Observer::Red, Observer::Black] {
                differed |= comparable(first.view(observer)) != comparable(second.view(observer));
            }
            assert_eq!(
                comparable(first.view(Observer::Spectator)),
                comparable(second.view(Observer::Spectator))
            );
        }
        captor_views_differed += usize::from(differed);
    }
    assert!(
        captor_views_differed >= 10,
        "only {captor_views_differed} of 40 games"
    );
}

#[test]
fn deal_points_match_the_public_start() {
    let game = seeded_game(6);
    let start = game.public_game().start();
    for side in Side::BOTH {
        for point in deal_points(side) {
            assert_eq!(start.occupant(point), Some(Occupant::Covered(side)));
        }
    }
}

#[test]
fn the_server_deals_from_the_operating_system() {
    // What the server does: the OS generator, panicking only if the OS has no randomness.
    let mut os = rand_core::UnwrapErr(rand_core::OsRng);
    let a = JieqiGame::new(&mut os);
    let b = JieqiGame::new(&mut os);
    assert_ne!(a.salt(), b.salt());
    assert_ne!(a.commitment(), b.commitment());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Deal, salt, commitment and move texts from anyone never panic, and a refused move
    /// changes nothing.
    #[test]
    fn parsers_never_panic(text in "\\PC{0,40}", near in "[a-j0-9RNBAKCPrnbakcpX/ ]{0,34}") {
        for t in [&text, &near] {
            let _ = t.parse::<Deal>();
            let _ = t.parse::<Salt>();
            let _ = t.parse::<jiang_rules::jieqi::Commitment>();
            let mut game = seeded_game(9);
            let before = game.view(Observer::Spectator);
            if game.play(t).is_err() {
                prop_assert_eq!(game.view(Observer::Spectator), before);
            }
        }
    }
}
