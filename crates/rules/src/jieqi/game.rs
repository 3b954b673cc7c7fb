//! The true state of a Jieqi game: the public game plus the deal and what each side learnt.

use std::fmt;

use rand_core::CryptoRng;

use super::view::{CapturedPiece, JieqiView, Observer, Revelation, UnseenPool};
use super::{Commitment, Deal, Salt};
use crate::xiangqi::notation::Record;
use crate::xiangqi::{Game, Move, MoveError, Occupant, Piece, PlayError, Position, Square};
use crate::{Outcome, Side, Variant};

/// Why a move could not be played, or an end could not be recorded, in a Jieqi game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JieqiError {
    /// The move text is not `<from><to>` in ICCS.
    #[error("`{0}` is not a move: send ICCS like `h2e2`, without a reveal letter")]
    Malformed(String),
    /// The move is not legal now.
    #[error(transparent)]
    Illegal(MoveError),
    /// The game has already ended.
    #[error("the game is already over ({0})")]
    GameOver(Outcome),
    /// Restoring a game: a stored move's reveal letter is not what the deal says.
    #[error("stored move {ply} `{text}` does not match the deal")]
    DealMismatch {
        /// 1-based ply.
        ply: usize,
        /// The stored text.
        text: String,
    },
}

impl From<PlayError> for JieqiError {
    fn from(error: PlayError) -> Self {
        match error {
            PlayError::GameOver(outcome) => JieqiError::GameOver(outcome),
            PlayError::Illegal(e) => JieqiError::Illegal(e),
        }
    }
}

/// One capture, as it truly happened.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Capture {
    /// 1-based ply of the capturing move.
    pub ply: usize,
    /// Who captured.
    pub captor: Side,
    /// Where.
    pub square: Square,
    /// What the captured piece was (for a covered piece: its dealt identity).
    pub piece: Piece,
    /// Whether it was still face down (then only the captor learns `piece`).
    pub was_covered: bool,
}

/// A Jieqi game as the server holds it: the public [`Game`], the secret [`Deal`] and
/// [`Salt`], the published [`Commitment`], and every capture with its true identity.
///
/// Never send this to a client: send [`JieqiGame::view`] for that client's observer. `Debug`
/// prints public information only.
#[derive(Clone)]
pub struct JieqiGame {
    game: Game,
    deal: Deal,
    salt: Salt,
    commitment: Commitment,
    captures: Vec<Capture>,
    /// An end decided outside the rules of play (resignation, time, agreement, abort).
    ended: Option<Outcome>,
}

impl JieqiGame {
    /// A new game with a fresh deal and salt from `rng`, which must be cryptographically
    /// secure (the server passes the operating system's generator).
    pub fn new<R: CryptoRng + ?Sized>(rng: &mut R) -> JieqiGame {
        let deal = Deal::shuffled(rng);
        let salt = Salt::random(rng);
        JieqiGame::with_deal(deal, salt)
    }

    /// A new game with a given deal and salt (restoring a stored game, or tests).
    pub fn with_deal(deal: Deal, salt: Salt) -> JieqiGame {
        JieqiGame {
            game: Game::new(Position::start(Variant::Jieqi)),
            deal,
            salt,
            commitment: Commitment::new(&deal, &salt),
            captures: Vec::new(),
            ended: None,
        }
    }

    /// Rebuilds a stored game: the deal, the salt and the moves played (ICCS, with or without
    /// reveal suffixes; a suffix must agree with the deal).
    pub fn restore<'a>(
        deal: Deal,
        salt: Salt,
        moves: impl IntoIterator<Item = &'a str>,
    ) -> Result<JieqiGame, JieqiError> {
        let mut game = JieqiGame::with_deal(deal, salt);
        for (i, text) in moves.into_iter().enumerate() {
            let (plain, suffix) = if text.len() == 5 && text.is_char_boundary(4) {
                (&text[..4], Some(&text[4..]))
            } else {
                (text, None)
            };
            let mv = game.play(plain)?;
            let written = mv.reveal().map(|p| p.fen_letter().to_string());
            if suffix.is_some_and(|s| Some(s) != written.as_deref()) {
                return Err(JieqiError::DealMismatch {
                    ply: i + 1,
                    text: text.to_owned(),
                });
            }
        }
        Ok(game)
    }

    /// Plays a move as a player sends it: ICCS without a reveal letter (`h2e2`). The
    /// identity of a covered piece comes from the deal; the move played on the public game,
    /// and returned, carries it as a suffix (`h2e2C`). Capturing a covered piece records its
    /// identity for the captor only. Nothing changes on an error.
    pub fn play(&mut self, text: &str) -> Result<Move, JieqiError> {
        let malformed = || JieqiError::Malformed(text.to_owned());
        if text.len() != 4 || !text.is_ascii() {
            return Err(malformed());
        }
        let from: Square = text[..2].parse().map_err(|_| malformed())?;
        let to: Square = text[2..].parse().map_err(|_| malformed())?;
        self.play_between(from, to)
    }

    /// Plays the legal move from `from` to `to` (a move from [`Position::legal_moves_unrevealed`]
    /// of the public position, or one read with the human notations), revealing the dealt
    /// identity if the piece is covered.
    pub fn play_between(&mut self, from: Square, to: Square) -> Result<Move, JieqiError> {
        if let Some(outcome) = self.outcome() {
            return Err(JieqiError::GameOver(outcome));
        }
        let position = self.game.position();
        let mover = position.turn();
        let reveal = match position.occupant(from) {
            Some(Occupant::Covered(side)) if side == mover => self.deal.identity_at(side, from),
            _ => None,
        };
        let mv = position
            .find_move(from, to, reveal)
            .map_err(JieqiError::Illegal)?;
        let captured = position.occupant(to).and_then(|target| match target {
            Occupant::Piece(piece) => Some((piece, false)),
            Occupant::Covered(side) => self
                .deal
                .identity_at(side, to)
                .map(|kind| (Piece::new(side, kind), true)),
        });
        self.game.play(mv)?;
        if let Some((piece, was_covered)) = captured {
            self.captures.push(Capture {
                ply: self.game.ply(),
                captor: mover,
                square: to,
                piece,
                was_covered,
            });
        }
        Ok(mv)
    }

    /// Ends the game for a reason decided outside play: resignation, time, agreement or
    /// abort. Everything is revealed from then on.
    pub fn end(&mut self, outcome: Outcome) -> Result<(), JieqiError> {
        if let Some(existing) = self.outcome() {
            return Err(JieqiError::GameOver(existing));
        }
        self.ended = Some(outcome);
        Ok(())
    }

    /// The outcome, once the game has ended by the rules or by [`JieqiGame::end`].
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome().or(self.ended)
    }

    /// Whether the game has ended (and everything may be published).
    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The public game: positions with covered points, moves with reveal suffixes.
    pub fn public_game(&self) -> &Game {
        &self.game
    }

    /// The public position now.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The legal moves of the side to move as players send them (ICCS without suffix),
    /// sorted. Public information: legality never depends on a hidden identity.
    pub fn legal_moves(&self) -> Vec<String> {
        if self.is_over() {
            return Vec::new();
        }
        let mut moves: Vec<String> = self
            .position()
            .legal_moves_unrevealed()
            .into_iter()
            .map(Move::iccs)
            .collect();
        moves.sort();
        moves
    }

    /// The secret deal. Publish it only after the game ([`JieqiView`] does that).
    pub fn deal(&self) -> &Deal {
        &self.deal
    }

    /// The secret salt. Publish it only after the game.
    pub fn salt(&self) -> &Salt {
        &self.salt
    }

    /// The commitment to the deal and salt: public from the start.
    pub fn commitment(&self) -> &Commitment {
        &self.commitment
    }

    /// What `observer` may know now (jieqi.md, "What each observer may know"): the only
    /// thing to send to a client.
    pub fn view(&self, observer: Observer) -> JieqiView {
        let over = self.is_over();
        let knows = |capture: &Capture| {
            over || !capture.was_covered || Some(capture.captor) == observer.side()
        };
        let captured = Side::BOTH.map(|captor| {
            self.captures
                .iter()
                .filter(|c| c.captor == captor)
                .map(|c| CapturedPiece {
                    ply: c.ply,
                    square: c.square,
                    side: c.piece.side,
                    was_covered: c.was_covered,
                    piece: knows(c).then_some(c.piece),
                })
                .collect()
        });
        let pools = Side::BOTH.map(|side| {
            let mut pool = UnseenPool::full();
            if over {
                return UnseenPool::empty();
            }
            for mv in self.game.moves() {
                if let Some(piece) = mv.reveal().filter(|p| p.side == side) {
                    pool.remove(piece.kind);
                }
            }
            for c in &self.captures {
                if c.was_covered && c.piece.side == side && knows(c) {
                    pool.remove(c.piece.kind);
                }
            }
            pool
        });
        let position = self.position();
        let revelation = over.then(|| Revelation {
            deal: self.deal,
            salt: self.salt,
            covered: position
                .occupants()
                .filter_map(|(square, occupant)| match occupant {
                    Occupant::Covered(side) => self
                        .deal
                        .identity_at(side, square)
                        .map(|kind| (square, Piece::new(side, kind))),
                    Occupant::Piece(_) => None,
                })
                .collect(),
        });
        JieqiView {
            observer,
            initial_fen: self.game.start().to_fen(),
            fen: position.to_fen(),
            moves: self.game.moves().iter().map(Move::to_string).collect(),
            ply: self.game.ply(),
            to_move: position.turn(),
            captured,
            pools,
            covered: Side::BOTH.map(|side| position.covered_count(side)),
            commitment: self.commitment,
            outcome: self.outcome(),
            revelation,
        }
    }

    /// The record anyone may download: the public game (reveals as suffixes), the
    /// `Commitment` tag, and once the game is over the `Deal` and `Salt` tags and the result.
    pub fn record(&self) -> Record {
        let mut record = Record::from_game(&self.game);
        if let Some(outcome) = self.outcome() {
            record.set_outcome(outcome);
        }
        record.set_tag("Commitment", &self.commitment.to_string());
        if self.is_over() {
            record.set_tag("Deal", &self.deal.to_string());
            record.set_tag("Salt", &self.salt.to_string());
        }
        record
    }
}

impl fmt::Debug for JieqiGame {
    /// Public information only: a game can be logged without leaking the deal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JieqiGame")
            .field("fen", &self.position().to_fen())
            .field("ply", &self.game.ply())
            .field("outcome", &self.outcome())
            .field("commitment", &self.commitment)
            .finish_non_exhaustive()
    }
}
