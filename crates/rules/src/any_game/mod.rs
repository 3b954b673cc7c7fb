//! A game of any of the four variants: the one type every program that plays, referees or
//! analyses games works with (the server's live games and analysis boards, `jiang match`, the
//! engine's self-play), written once for the four.
//!
//! An [`AnyGame`] holds the true game: in Jieqi the deal too. Whoever holds one is the referee,
//! and tells each observer only what it may know, through [`AnyGame::view`] (jieqi.md, "What
//! each observer may know"); every other answer here is public information. Besides the live
//! game it can be Jieqi's public game (an analysis board with covered pieces) or the public game
//! of a finished Jieqi game as one side knew it ([`AnyGame::knowledge_restart`]).
//!
//! Rooms: `errors` (typed refusals), `setup` (creating and rebuilding games), `formats` (record
//! formats and notation styles), `records` (records and move lists), `shown` (what a board shows
//! besides the position: check, move names, positions), `known` (Jieqi as one side knew it).

use std::collections::BTreeMap;

use rand_core::CryptoRng;

use crate::jieqi::{JieqiGame, JieqiView, Observer};
use crate::{Family, Outcome, Position as _, Reason, Side, Variant, shogi, xiangqi};

/// `$body` with `$game` bound to the public game of whichever family is played: for what
/// both families answer with methods of the same names (the `Game` and `Position` traits').
macro_rules! either_family {
    ($any:expr, |$game:ident| $body:expr) => {
        match $any.public() {
            Public::Xiangqi($game) => $body,
            Public::Shogi($game) => $body,
        }
    };
}

mod errors;
mod formats;
mod known;
mod records;
mod setup;
mod shown;

pub use errors::{RecordError, RefusedMove, SetupError, TreeExportError};
pub use formats::{NotationStyle, RecordFormat, WrongFamily};
use known::Known;
pub use records::{FamilyRecord, RecordInfo};
pub use setup::Setup;
pub use shown::PublicPosition;

/// A game of any variant: the true game, the moves as recorded, and an end decided outside play.
#[derive(Clone)]
pub struct AnyGame {
    kind: Kind,
    /// The moves played, as recorded (ICCS, Jieqi with reveal suffixes; USI).
    moves: Vec<String>,
    /// An end decided outside play (resignation, time, agreement, abort), for the games that do
    /// not keep one themselves (all but Jieqi's true game).
    ended: Option<Outcome>,
}

/// What an [`AnyGame`] is underneath.
#[derive(Clone)]
enum Kind {
    /// Xiangqi, or Jieqi's public game (covered pieces stay covered; a covered piece's move
    /// names the identity supposed for it, `h2e2R`).
    Xiangqi(Box<xiangqi::Game>),
    /// Jieqi: the true game, deal included.
    Jieqi(Box<JieqiGame>),
    /// Shogi or Minishogi.
    Shogi(Box<shogi::Game>),
    /// Jieqi's public game of a finished game, with one side's knowledge while on the record.
    Known(Box<Known>),
}

/// The game as everyone may see it, by family.
#[derive(Clone, Copy)]
enum Public<'a> {
    /// Xiangqi, or Jieqi's public game.
    Xiangqi(&'a xiangqi::Game),
    /// Shogi or Minishogi.
    Shogi(&'a shogi::Game),
}

/// A map from `variant`'s side names to `f` of each side: the shape of every per-side answer.
pub fn per_side<T>(variant: Variant, f: impl Fn(Side) -> T) -> BTreeMap<String, T> {
    Side::BOTH
        .into_iter()
        .map(|side| (variant.side_name(side).to_owned(), f(side)))
        .collect()
}

impl AnyGame {
    fn with_kind(kind: Kind) -> AnyGame {
        AnyGame {
            kind,
            moves: Vec::new(),
            ended: None,
        }
    }

    pub(crate) fn from_xiangqi(game: xiangqi::Game) -> AnyGame {
        AnyGame::with_kind(Kind::Xiangqi(Box::new(game)))
    }

    pub(crate) fn from_jieqi(game: JieqiGame) -> AnyGame {
        AnyGame::with_kind(Kind::Jieqi(Box::new(game)))
    }

    pub(crate) fn from_shogi(game: shogi::Game) -> AnyGame {
        AnyGame::with_kind(Kind::Shogi(Box::new(game)))
    }

    /// A new game of `variant` from its standard start; Jieqi is dealt with `rng`, which must
    /// be a cryptographically secure generator.
    pub fn new<R: CryptoRng + ?Sized>(variant: Variant, rng: &mut R) -> AnyGame {
        match variant {
            Variant::Xiangqi => {
                AnyGame::from_xiangqi(xiangqi::Game::new(xiangqi::Position::start(variant)))
            }
            Variant::Jieqi => AnyGame::from_jieqi(JieqiGame::new(rng)),
            Variant::Shogi | Variant::Minishogi => {
                AnyGame::from_shogi(shogi::Game::new(shogi::Position::startpos(variant)))
            }
        }
    }

    /// The game as everyone may see it: in Jieqi the public game (covered pieces face down).
    fn public(&self) -> Public<'_> {
        match &self.kind {
            Kind::Xiangqi(game) => Public::Xiangqi(game),
            Kind::Jieqi(game) => Public::Xiangqi(game.public_game()),
            Kind::Known(known) => Public::Xiangqi(&known.public),
            Kind::Shogi(game) => Public::Shogi(game),
        }
    }

    /// The public xiangqi-family game being played: Xiangqi, or Jieqi's public game.
    fn public_xiangqi(&self) -> Option<&xiangqi::Game> {
        match self.public() {
            Public::Xiangqi(game) => Some(game),
            Public::Shogi(_) => None,
        }
    }

    /// The current public position of the xiangqi family, `None` in the shogi family.
    fn xiangqi_position(&self) -> Option<&xiangqi::Position> {
        self.public_xiangqi().map(xiangqi::Game::position)
    }

    /// The variant being played.
    pub fn variant(&self) -> Variant {
        either_family!(self, |game| game.position().variant())
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        either_family!(self, |game| game.position().turn())
    }

    /// Plies played.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The moves played, as recorded (Jieqi: with reveal suffixes).
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// The start position as everyone may see it (FEN or SFEN).
    pub fn initial_fen(&self) -> String {
        either_family!(self, |game| game.start().fen())
    }

    /// The current position as everyone may see it (FEN or SFEN).
    pub fn fen(&self) -> String {
        either_family!(self, |game| game.position().fen())
    }

    /// The outcome if the moves played (or [`AnyGame::end`]) ended the game: the rules'
    /// verdict first, as the rules files order them.
    pub fn outcome(&self) -> Option<Outcome> {
        let by_rules = match &self.kind {
            Kind::Xiangqi(game) => game.outcome(),
            Kind::Jieqi(game) => game.outcome(),
            Kind::Shogi(game) => game.outcome(),
            Kind::Known(known) => known.public.outcome(),
        };
        by_rules.or(self.ended)
    }

    /// Records an end decided outside play (resignation, time, agreement, abort); Jieqi then
    /// releases what was hidden. An ended game stays as it ended.
    pub fn end(&mut self, outcome: Outcome) {
        if self.outcome().is_some() {
            return;
        }
        match &mut self.kind {
            Kind::Jieqi(game) => {
                let _ = game.end(outcome);
            }
            _ => self.ended = Some(outcome),
        }
    }

    /// The legal moves of the side to move in the text players send (ICCS without reveal, or
    /// USI), sorted; none once the game is over.
    pub fn legal_moves(&self) -> Vec<String> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        match (&self.kind, self.public()) {
            (Kind::Jieqi(game), _) => game.legal_moves(),
            (_, Public::Xiangqi(game)) => game.position().legal_move_texts(),
            (_, Public::Shogi(game)) => game.position().legal_move_texts(),
        }
    }

    /// Plays a move given as a player sends it; returns the text recorded for it (Jieqi: with
    /// the reveal the deal gives). An illegal move changes nothing and says why.
    pub fn play(&mut self, text: &str) -> Result<String, RefusedMove> {
        // Jieqi's true game refuses a move after its end itself (and says how it ended).
        if let (false, Some(outcome)) = (matches!(self.kind, Kind::Jieqi(_)), self.outcome()) {
            return Err(RefusedMove::Ended(outcome.reason));
        }
        let recorded = match &mut self.kind {
            Kind::Xiangqi(game) => play_xiangqi(game, text)?,
            Kind::Jieqi(game) => game.play(text)?.to_string(),
            Kind::Shogi(game) => {
                let position = game.position();
                let mv = position.parse_move(text).map_err(shogi::PlayError::from)?;
                let recorded = position.move_text(mv);
                game.play(mv)?;
                recorded
            }
            Kind::Known(known) => known.play(text, self.moves.len())?,
        };
        self.moves.push(recorded.clone());
        Ok(recorded)
    }

    /// Plays a move as an engine sends it: ICCS or USI. A Jieqi engine sends no reveal suffix
    /// (the deal supplies it); one it adds anyway is ignored. `win` is not a move (see
    /// [`AnyGame::declare_impasse`]). An illegal move changes nothing and says why.
    pub fn play_engine_move(&mut self, text: &str) -> Result<String, RefusedMove> {
        match self.kind {
            Kind::Shogi(_) if text == "win" => Err(RefusedMove::DeclarationAsMove),
            Kind::Jieqi(_) if text.len() == 5 && text.is_char_boundary(4) => self.play(&text[..4]),
            _ => self.play(text),
        }
    }

    /// Replays a move as recorded (from a store): Jieqi's reveal must be the one the deal gives.
    pub fn replay(&mut self, recorded: &str) -> Result<(), RefusedMove> {
        let played = match self.kind {
            Kind::Jieqi(_) => self.play(recorded.get(..4).unwrap_or(recorded))?,
            _ => self.play(recorded)?,
        };
        // A mismatch means a corrupt store: the caller drops the game.
        if played != recorded {
            return Err(RefusedMove::DealMismatch {
                recorded: recorded.to_owned(),
                played,
            });
        }
        Ok(())
    }

    /// The side to move declares impasse (shogi; 27-point rule): the winning outcome, or which
    /// condition failed. Changes nothing on failure.
    pub fn declare_impasse(&mut self) -> Result<Outcome, RefusedMove> {
        match &mut self.kind {
            Kind::Shogi(game) => game
                .declare_impasse()
                .map_err(|e| RefusedMove::Shogi(e.into())),
            _ => Err(RefusedMove::NoImpasse(self.variant())),
        }
    }

    /// Whether the players may agree a draw (the xiangqi family; shogi has no agreed draws).
    pub fn allows_agreed_draws(&self) -> bool {
        self.variant().family() == Family::Xiangqi
    }

    /// Whether a player may declare impasse (shogi; not minishogi).
    pub fn has_impasse_declaration(&self) -> bool {
        self.variant() == Variant::Shogi
    }

    /// Whether `side` has material that could ever give check (xiangqi family: chariot, horse,
    /// cannon or soldier; Jieqi also any covered piece and a freed advisor or elephant). The
    /// shogi family always can.
    pub fn can_ever_check(&self, side: Side) -> bool {
        match self.public() {
            Public::Xiangqi(game) => game.can_ever_check(side),
            Public::Shogi(_) => true,
        }
    }

    /// The outcome when `flagged` runs out of time: the other side wins, unless it could never
    /// give check (clocks-and-games.md: then a draw, `timeout-vs-insufficient`).
    pub fn flag_outcome(&self, flagged: Side) -> Outcome {
        let winner = !flagged;
        if self.can_ever_check(winner) {
            Outcome::win(winner, Reason::Timeout)
        } else {
            Outcome::draw(Reason::TimeoutVsInsufficient)
        }
    }

    /// What `observer` may know of a Jieqi game now: the only thing about its hidden pieces to
    /// show anyone. `None` for the other variants and for the public games, where nothing is
    /// hidden from anyone.
    pub fn view(&self, observer: Observer) -> Option<JieqiView> {
        match &self.kind {
            Kind::Jieqi(game) => Some(game.view(observer)),
            _ => None,
        }
    }

    /// What the side knew, for a finished Jieqi game analysed as one side knew it
    /// ([`AnyGame::knowledge_restart`]) while the line follows the game's record; `None`
    /// elsewhere.
    pub fn known_view(&self) -> Option<JieqiView> {
        match &self.kind {
            Kind::Known(known) => known.view(),
            _ => None,
        }
    }

    /// What `seat` may know beyond the public game, as an engine playing it gets it: its Jieqi
    /// view ([`AnyGame::view`], or the side's knowledge on a finished game's record); `None`
    /// where the public game is all there is.
    pub fn seat_view(&self, seat: Side) -> Option<JieqiView> {
        self.view(Observer::player(seat))
            .or_else(|| self.known_view())
    }

    /// A new game at this one's start with the same set-up (Jieqi: the same deal), for the
    /// analysis board.
    pub fn restart(&self) -> AnyGame {
        match &self.kind {
            Kind::Xiangqi(game) => AnyGame::from_xiangqi(xiangqi::Game::new(game.start().clone())),
            Kind::Jieqi(game) => {
                AnyGame::from_jieqi(JieqiGame::with_deal(*game.deal(), *game.salt()))
            }
            Kind::Shogi(game) => AnyGame::from_shogi(shogi::Game::with_handicap(
                game.start().clone(),
                game.handicap(),
            )),
            Kind::Known(known) => AnyGame::with_kind(Kind::Known(Box::new(known.restart()))),
        }
    }

    /// A game at this one's start that knows public information only: for Jieqi the public
    /// game (covered pieces stay covered and a covered piece's move must name the identity
    /// supposed for it, `h2e2R`); for the other variants the same as [`AnyGame::restart`].
    pub fn public_restart(&self) -> AnyGame {
        match self.public_xiangqi() {
            Some(game) => AnyGame::from_xiangqi(xiangqi::Game::new(game.start().clone())),
            None => self.restart(),
        }
    }

    /// A game at this one's start for the analysis of the finished game "as `side` knew it":
    /// Jieqi plays the public game (as [`AnyGame::public_restart`]), and while the line follows
    /// the game's record [`AnyGame::known_view`] is `side`'s view at that ply (it knows the
    /// covered pieces it captured). Other variants: [`AnyGame::public_restart`].
    pub fn knowledge_restart(&self, side: Side) -> AnyGame {
        match &self.kind {
            Kind::Jieqi(game) => AnyGame::with_kind(Kind::Known(Box::new(Known::new(
                JieqiGame::with_deal(*game.deal(), *game.salt()),
                self.moves.clone(),
                Observer::player(side),
            )))),
            _ => self.public_restart(),
        }
    }

    /// Jieqi: per side name, the identities not yet turned over (public), or on a finished
    /// game's record as one side knew it, those that side had not seen. `None` elsewhere.
    pub fn pool(&self) -> Option<BTreeMap<String, String>> {
        if let Some(view) = self.known_view() {
            return Some(unseen(&view));
        }
        let position = self.xiangqi_position()?;
        (position.variant() == Variant::Jieqi)
            .then(|| per_side(Variant::Jieqi, |side| position.pool(side).fen_text(side)))
    }

    /// Jieqi with the deal: square → FEN letter of every piece still face down. Only for the
    /// analysis of a finished game, whose deal is public.
    pub fn covered_pieces(&self) -> Option<BTreeMap<String, String>> {
        let Kind::Jieqi(game) = &self.kind else {
            return None;
        };
        let deal = game.deal();
        Some(
            game.position()
                .occupants()
                .filter_map(|(square, occupant)| match occupant {
                    xiangqi::Occupant::Covered(side) => {
                        deal.identity_at(side, square).map(|kind| {
                            (
                                square.to_string(),
                                xiangqi::Piece::new(side, kind).fen_letter().to_string(),
                            )
                        })
                    }
                    xiangqi::Occupant::Piece(_) => None,
                })
                .collect(),
        )
    }

    /// Shogi: each side's standing under the 27-point impasse rule; `None` elsewhere
    /// (minishogi has no impasse rule).
    pub fn impasse_points(&self) -> Option<[shogi::ImpassePoints; 2]> {
        match &self.kind {
            Kind::Shogi(game) if game.position().variant() == Variant::Shogi => {
                Some(Side::BOTH.map(|side| game.impasse_points(side)))
            }
            _ => None,
        }
    }
}

/// Per side name, the identities `view`'s observer has not seen (FEN pool text).
pub fn unseen(view: &JieqiView) -> BTreeMap<String, String> {
    per_side(Variant::Jieqi, |side| view.pools[side.index()].text(side))
}

/// Plays a move of the public xiangqi-family game given in ICCS; returns the text recorded.
fn play_xiangqi(game: &mut xiangqi::Game, text: &str) -> Result<String, RefusedMove> {
    let position = game.position();
    let mv = position
        .parse_move(text)
        .map_err(xiangqi::PlayError::from)?;
    let recorded = position.move_text(mv);
    game.play(mv)?;
    Ok(recorded)
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
        game.play_engine_move("h2e2").unwrap();
        assert_eq!((game.ply(), game.turn()), (1, Side::Second));
        // Whatever identity the engine names, the deal decides.
        game.play_engine_move("h9g7X").unwrap();
        assert_eq!(game.ply(), 2);
    }

    #[test]
    fn refused_moves_change_nothing_and_say_why() {
        let mut xiangqi = start(Variant::Xiangqi);
        assert!(matches!(
            xiangqi.play_engine_move("a0a5"),
            Err(RefusedMove::Xiangqi(_))
        ));
        assert_eq!(
            xiangqi.declare_impasse(),
            Err(RefusedMove::NoImpasse(Variant::Xiangqi))
        );
        assert_eq!(xiangqi.ply(), 0);
        let mut jieqi = start(Variant::Jieqi);
        assert!(matches!(
            jieqi.play_engine_move("a0a5"),
            Err(RefusedMove::Jieqi(_))
        ));
        let mut shogi = start(Variant::Shogi);
        assert_eq!(
            shogi.play_engine_move("win"),
            Err(RefusedMove::DeclarationAsMove)
        );
        assert!(matches!(
            shogi.play_engine_move("7g7e"),
            Err(RefusedMove::Shogi(_))
        ));
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
        let mut game = AnyGame::from_shogi(shogi::Game::new(position));
        let won = Outcome::win(Side::First, crate::Reason::Impasse);
        assert_eq!(game.declare_impasse(), Ok(won));
        assert_eq!(game.outcome(), Some(won));
        assert!(matches!(
            game.play("9b9a"),
            Err(RefusedMove::Ended(crate::Reason::Impasse))
        ));
    }

    #[test]
    fn only_the_xiangqi_family_can_lack_checking_material() {
        let bare =
            xiangqi::Position::from_fen(Variant::Xiangqi, "3k5/9/9/9/9/9/9/9/9/4K4 w").unwrap();
        let game = AnyGame::from_xiangqi(xiangqi::Game::new(bare));
        assert!(!game.can_ever_check(Side::First));
        assert!(start(Variant::Xiangqi).can_ever_check(Side::Second));
        assert!(start(Variant::Jieqi).can_ever_check(Side::First));
        assert!(start(Variant::Minishogi).can_ever_check(Side::Second));
    }
}
