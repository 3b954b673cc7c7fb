//! The two traits every family implements, so that the tools (`perft`, `moves`, `outcome`) and
//! the server are written once for all four variants.

use std::error::Error;

use crate::{Outcome, Side, Variant};

/// A validated position: always legal to play from. Parsing text gives one (or a typed error
/// saying what was wrong and where); so does playing a legal move on one.
pub trait Position: Clone + Send + Sync + 'static {
    /// A move in this family. Values come only from [`Position::legal_moves`] or
    /// [`Position::parse_move`], so holding one means it was legal where it was made.
    type Move: Copy + Eq + Send + Sync + 'static;
    /// Why a FEN/SFEN could not be read or validated.
    type SetupError: Error + Send + Sync + 'static;
    /// Why a move text is not a legal move here.
    type MoveError: Error + Send + Sync + 'static;

    /// The variant's standard start (for Jieqi, the public start: every piece but the generals
    /// covered).
    fn start(variant: Variant) -> Self;

    /// Reads a FEN (xiangqi family) or SFEN (shogi family) for `variant`; `startpos` gives
    /// [`Position::start`].
    fn from_fen(variant: Variant, text: &str) -> Result<Self, Self::SetupError>;

    /// The canonical FEN/SFEN of this position.
    fn fen(&self) -> String;

    /// The variant this position belongs to.
    fn variant(&self) -> Variant;

    /// The side to move.
    fn turn(&self) -> Side;

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool;

    /// Every legal move, in generation order.
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// A move in the family's machine notation: ICCS (`h2e2`, Jieqi reveals `h2e2C`) or USI
    /// (`7g7f`, `8h2b+`, `P*5e`).
    fn move_text(&self, mv: Self::Move) -> String;

    /// The legal move that `text` names in machine notation, or why it is not one.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveError>;

    /// The position after `mv`, which must be legal here.
    fn play(&mut self, mv: Self::Move);

    /// The number of leaf nodes `depth` plies deep (bulk-counted at the last ply).
    fn perft(&self, depth: u32) -> u64;

    /// What `jiang moves` prints for this position: every legal move in machine notation,
    /// sorted, without duplicates.
    fn legal_move_texts(&self) -> Vec<String> {
        let mut texts: Vec<String> = self
            .legal_moves()
            .into_iter()
            .map(|mv| self.move_text(mv))
            .collect();
        texts.sort();
        texts.dedup();
        texts
    }
}

/// A game: a start position and the moves played from it, deciding the outcomes that need
/// history (repetition, move limits, declarations).
pub trait Game: Sized + Send + Sync + 'static {
    /// The family's position type.
    type Position: Position;
    /// Why a move (or a declaration) could not be played: the family's own typed reasons
    /// (the game is over, the move does not parse or breaks a rule, a declaration fails).
    type PlayError: Error + Send + Sync + 'static;

    /// A new game from `start`.
    fn new(start: Self::Position) -> Self;

    /// The start position.
    fn start(&self) -> &Self::Position;

    /// The current position.
    fn position(&self) -> &Self::Position;

    /// Plays `mv`, a move of the current position (so legal there). Once the game is over by
    /// the rules nothing more can be played, and the error says so.
    fn play_move(&mut self, mv: <Self::Position as Position>::Move) -> Result<(), Self::PlayError>;

    /// Plays one token of a move list in machine notation, as `jiang outcome` reads them
    /// (including the Jieqi reveal suffix and the shogi declaration `win`). A token that is not
    /// legal changes nothing and says why.
    fn play_text(&mut self, text: &str) -> Result<(), Self::PlayError>;

    /// The outcome if the moves played so far ended the game, decided by the rules files in
    /// their order; `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;
}

/// The [`Position`] items that a family's position answers with the types `Move` and
/// `MoveError` of its module, its fields `variant` and `turn`, its inherent methods of the same
/// names (`legal_moves`, `parse_move`, `play`) and its moves' `Display` (`move_text`): written
/// once for both families, inside their `impl crate::Position`.
macro_rules! position_moves_from_inherent_methods {
    () => {
        type Move = Move;
        type MoveError = MoveError;

        fn variant(&self) -> crate::Variant {
            self.variant
        }

        fn turn(&self) -> crate::Side {
            self.turn
        }

        fn legal_moves(&self) -> Vec<Self::Move> {
            Self::legal_moves(self)
        }

        fn move_text(&self, mv: Self::Move) -> String {
            mv.to_string()
        }

        fn parse_move(&self, text: &str) -> Result<Self::Move, Self::MoveError> {
            Self::parse_move(self, text)
        }

        fn play(&mut self, mv: Self::Move) {
            Self::play(self, mv)
        }
    };
}

/// `impl crate::Game for $game` from its inherent `new`, `start`, `position`, `play` and
/// `outcome`, with `$play_text(game, text)` for [`Game::play_text`]: written once for both
/// families.
macro_rules! game_from_inherent_methods {
    ($game:ty, $position:ty, $error:ty, play_text: $play_text:expr) => {
        impl crate::Game for $game {
            type Position = $position;
            type PlayError = $error;

            fn new(start: $position) -> Self {
                Self::new(start)
            }

            fn start(&self) -> &$position {
                Self::start(self)
            }

            fn position(&self) -> &$position {
                Self::position(self)
            }

            fn play_move(
                &mut self,
                mv: <$position as crate::Position>::Move,
            ) -> Result<(), $error> {
                Self::play(self, mv)
            }

            fn play_text(&mut self, text: &str) -> Result<(), $error> {
                ($play_text)(self, text)
            }

            fn outcome(&self) -> Option<crate::Outcome> {
                Self::outcome(self)
            }
        }
    };
}
