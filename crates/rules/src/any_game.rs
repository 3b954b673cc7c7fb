//! A game of any of the four variants from its standard start, played with the move texts an
//! engine sends: what a program refereeing engine against engine needs (`jiang match`, the
//! engine's self-play), written once for both.

use rand_core::CryptoRng;

use crate::jieqi::{JieqiError, JieqiGame};
use crate::{Game as _, Outcome, Position as _, Side, Variant, shogi, xiangqi};

/// A game of any variant from its standard start. Jieqi holds the true game, deal included:
/// whoever holds an `AnyGame` is the referee, and tells each engine only what its seat may
/// know (`JieqiGame::view`).
#[derive(Clone)]
pub enum AnyGame {
    /// Xiangqi.
    Xiangqi(Box<xiangqi::Game>),
    /// Jieqi: the true game, deal included.
    Jieqi(Box<JieqiGame>),
    /// Shogi or Minishogi.
    Shogi(Box<shogi::Game>),
}

/// Why the rules refused a move or a declaration, in whichever family: the family's own typed
/// reason. Nothing changed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RefusedMove {
    /// A xiangqi move that is not legal (or the game is over).
    #[error(transparent)]
    Xiangqi(#[from] xiangqi::PlayError),
    /// A Jieqi move that is not legal (or the game is over).
    #[error(transparent)]
    Jieqi(#[from] JieqiError),
    /// A shogi-family move that is not legal, or a declaration that does not hold.
    #[error(transparent)]
    Shogi(#[from] shogi::PlayError),
    /// USI `win` sent where a move was expected.
    #[error("`win` is a declaration, not a move")]
    DeclarationAsMove,
    /// An impasse declaration in a variant without one (the xiangqi family).
    #[error("{} has no impasse declaration", .0.name())]
    NoImpasse(Variant),
}

impl AnyGame {
    /// A new game of `variant` from its standard start; Jieqi is dealt with `rng`, which must
    /// be a cryptographically secure generator.
    pub fn new<R: CryptoRng + ?Sized>(variant: Variant, rng: &mut R) -> AnyGame {
        match variant {
            Variant::Xiangqi => AnyGame::Xiangqi(Box::new(xiangqi::Game::new(
                xiangqi::Position::start(variant),
            ))),
            Variant::Jieqi => AnyGame::Jieqi(Box::new(JieqiGame::new(rng))),
            Variant::Shogi | Variant::Minishogi => AnyGame::Shogi(Box::new(shogi::Game::new(
                shogi::Position::startpos(variant),
            ))),
        }
    }

    /// The variant being played.
    pub fn variant(&self) -> Variant {
        match self {
            AnyGame::Xiangqi(_) => Variant::Xiangqi,
            AnyGame::Jieqi(_) => Variant::Jieqi,
            AnyGame::Shogi(game) => game.position().variant(),
        }
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        match self {
            AnyGame::Xiangqi(game) => game.position().turn(),
            AnyGame::Jieqi(game) => game.position().turn(),
            AnyGame::Shogi(game) => game.position().turn(),
        }
    }

    /// Plies played.
    pub fn ply(&self) -> usize {
        match self {
            AnyGame::Xiangqi(game) => game.ply(),
            AnyGame::Jieqi(game) => game.public_game().ply(),
            AnyGame::Shogi(game) => game.moves().len(),
        }
    }

    /// The outcome once the rules (including a shogi declaration that held) ended the game.
    /// An end recorded from outside play ([`JieqiGame::end`]) is not one.
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            AnyGame::Xiangqi(game) => game.outcome(),
            AnyGame::Jieqi(game) => game.public_game().outcome(),
            AnyGame::Shogi(game) => game.outcome(),
        }
    }

    /// The legal moves as an engine sends them (Jieqi: without reveal suffix), sorted.
    pub fn legal_moves(&self) -> Vec<String> {
        match self {
            AnyGame::Xiangqi(game) => game.position().legal_move_texts(),
            AnyGame::Jieqi(game) => game.legal_moves(),
            AnyGame::Shogi(game) => game.position().legal_move_texts(),
        }
    }

    /// Plays a move as an engine sends it: ICCS or USI. A Jieqi engine sends no reveal suffix
    /// (the deal supplies it); one it adds anyway is ignored. `win` is not a move (see
    /// [`AnyGame::declare_impasse`]). An illegal move changes nothing and says why.
    pub fn play(&mut self, text: &str) -> Result<(), RefusedMove> {
        match self {
            AnyGame::Xiangqi(game) => Ok(game.play_text(text)?),
            AnyGame::Jieqi(game) => {
                let plain = match text.len() {
                    5 if text.is_char_boundary(4) => &text[..4],
                    _ => text,
                };
                game.play(plain)?;
                Ok(())
            }
            AnyGame::Shogi(game) => {
                if text == "win" {
                    return Err(RefusedMove::DeclarationAsMove);
                }
                Ok(game.play_token(text)?)
            }
        }
    }

    /// USI `bestmove win`: the side to move declares impasse. The rules decide whether it
    /// holds; a declaration that does not hold is refused with the failed condition.
    pub fn declare_impasse(&mut self) -> Result<Outcome, RefusedMove> {
        match self {
            AnyGame::Shogi(game) => game
                .declare_impasse()
                .map_err(|e| RefusedMove::Shogi(e.into())),
            _ => Err(RefusedMove::NoImpasse(self.variant())),
        }
    }

    /// Whether `side` could ever give check (a flag against a side that cannot is a draw in
    /// the xiangqi family; clocks-and-games.md). The shogi family always can.
    pub fn can_ever_check(&self, side: Side) -> bool {
        match self {
            AnyGame::Xiangqi(game) => game.can_ever_check(side),
            AnyGame::Jieqi(game) => game.position().can_ever_check(side),
            AnyGame::Shogi(_) => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    fn start(variant: Variant) -> AnyGame {
        AnyGame::new(variant, &mut ChaCha20Rng::seed_from_u64(1))
    }

    #[test]
    fn every_variant_starts_with_its_first_side_and_its_opening_moves() {
        for (variant, moves) in [
            (Variant::Xiangqi, 44),
            (Variant::Jieqi, 44),
            (Variant::Shogi, 30),
            (Variant::Minishogi, 14),
        ] {
            let game = start(variant);
            assert_eq!(game.variant(), variant);
            assert_eq!(game.turn(), Side::First, "{variant}");
            assert_eq!(game.ply(), 0);
            assert_eq!(game.outcome(), None);
            assert_eq!(game.legal_moves().len(), moves, "{variant}");
        }
    }

    #[test]
    fn a_jieqi_move_is_played_without_its_reveal_and_with_one_ignored() {
        let mut game = start(Variant::Jieqi);
        game.play("h2e2").unwrap();
        assert_eq!((game.ply(), game.turn()), (1, Side::Second));
        // Whatever identity the engine names, the deal decides.
        game.play("h9g7X").unwrap();
        assert_eq!(game.ply(), 2);
    }

    #[test]
    fn refused_moves_change_nothing_and_say_why() {
        let mut xiangqi = start(Variant::Xiangqi);
        assert!(matches!(xiangqi.play("a0a5"), Err(RefusedMove::Xiangqi(_))));
        assert_eq!(
            xiangqi.declare_impasse(),
            Err(RefusedMove::NoImpasse(Variant::Xiangqi))
        );
        assert_eq!(xiangqi.ply(), 0);
        let mut jieqi = start(Variant::Jieqi);
        assert!(matches!(jieqi.play("a0a5"), Err(RefusedMove::Jieqi(_))));
        let mut shogi = start(Variant::Shogi);
        assert_eq!(shogi.play("win"), Err(RefusedMove::DeclarationAsMove));
        assert!(matches!(shogi.play("7g7e"), Err(RefusedMove::Shogi(_))));
        assert!(matches!(
            shogi.declare_impasse(),
            Err(RefusedMove::Shogi(shogi::PlayError::Impasse(_)))
        ));
        assert_eq!((shogi.ply(), shogi.outcome()), (0, None));
    }

    #[test]
    fn a_shogi_declaration_that_holds_ends_the_game() {
        // Sente's king and 17 pieces in the zone: 25 points on the board + 3 pawns in hand = 28.
        let sfen = "KRBGGSS+N+N/LLPPPPPPP/9/9/9/9/9/9/4k4 b 3P 1";
        let position = shogi::Position::from_fen(Variant::Shogi, sfen).unwrap();
        let mut game = AnyGame::Shogi(Box::new(shogi::Game::new(position)));
        let won = Outcome::win(Side::First, crate::Reason::Impasse);
        assert_eq!(game.declare_impasse(), Ok(won));
        assert_eq!(game.outcome(), Some(won));
        assert!(matches!(
            game.play("9b9a"),
            Err(RefusedMove::Shogi(shogi::PlayError::GameOver(_)))
        ));
    }

    #[test]
    fn only_the_xiangqi_family_can_lack_checking_material() {
        let bare =
            xiangqi::Position::from_fen(Variant::Xiangqi, "3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
        let game = AnyGame::Xiangqi(Box::new(xiangqi::Game::new(bare)));
        assert!(!game.can_ever_check(Side::First));
        assert!(start(Variant::Xiangqi).can_ever_check(Side::Second));
        assert!(start(Variant::Jieqi).can_ever_check(Side::First));
        assert!(start(Variant::Minishogi).can_ever_check(Side::Second));
    }
}
