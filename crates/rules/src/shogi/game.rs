//! A shogi-family game: the positions played, and the outcomes that need history
//! (sennichite, perpetual check, the length cap) or a declaration (impasse).

use super::handicap::Handicap;
use super::position::*;
use super::tables::Bits;
use super::{Illegal, Move, MoveError, Position};
use crate::{Outcome, Reason, Side, Variant};

/// The game ends in a draw once this many moves (by the SFEN move numbering) have been played.
pub const MOVE_CAP: u32 = 700;

/// How many times a position must occur for sennichite.
const SENNICHITE_OCCURRENCES: usize = 4;

/// Why a move or a declaration could not be played in a shogi-family game. Nothing changes.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The game has already ended.
    #[error("the game is already over ({0})")]
    GameOver(Outcome),
    /// The move, valid in form, is not legal in the current position.
    #[error("`{mv}` is not legal here: {reason}")]
    NotLegal {
        /// The move.
        mv: Move,
        /// Which rule it breaks.
        reason: Illegal,
    },
    /// The move text does not name a legal move (the error says why).
    #[error(transparent)]
    Move(#[from] MoveError),
    /// The impasse declaration does not hold (the error names the failed condition).
    #[error(transparent)]
    Impasse(#[from] ImpasseError),
}

/// Why an impasse declaration does not hold: the first condition of shogi.md (Impasse) that
/// fails, in the rule's order. (Condition 5, time on the clock, belongs to the server.)
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ImpasseError {
    /// Minishogi has no impasse rule.
    #[error("{0} has no impasse rule")]
    NotAvailable(Variant),
    /// The game is already over.
    #[error("the game is already over")]
    GameOver,
    /// Condition 1.
    #[error("impasse condition 1 fails: the king is not in the promotion zone")]
    KingNotInZone,
    /// Condition 2.
    #[error(
        "impasse condition 2 fails: {pieces} pieces besides the king in the promotion zone, at least 10 needed"
    )]
    TooFewPieces {
        /// Pieces other than the king in the zone.
        pieces: u32,
    },
    /// Condition 3.
    #[error("impasse condition 3 fails: the king is in check")]
    InCheck,
    /// Condition 4.
    #[error("impasse condition 4 fails: {points} points, {needed} needed")]
    TooFewPoints {
        /// The declarer's points (zone plus hand, plus any handicap credit).
        points: u32,
        /// 28 for sente, 27 for gote.
        needed: u32,
    },
}

/// One side's impasse counts, for the UI and for adjudication.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImpassePoints {
    /// Whether the king stands in its promotion zone (condition 1).
    pub king_in_zone: bool,
    /// Pieces other than the king in the promotion zone (condition 2 needs 10).
    pub pieces_in_zone: u32,
    /// The 27-point declaration count: pieces in the zone plus in hand (rook, bishop and their
    /// promotions 5, others 1, king 0) plus the handicap credit (condition 4 needs 28 for
    /// sente, 27 for gote).
    pub declaration: u32,
    /// The points needed by the declaration rule: 28 for sente, 27 for gote.
    pub needed: u32,
    /// The 24-point count (information only): every piece on the board and in hand, same
    /// values, plus the handicap credit.
    pub total: u32,
}

/// What the game keeps of each position reached: what makes two positions the same for
/// sennichite (shogi.md: board, both hands, side to move; the variant is the game's) and
/// whether the side to move was in check, for perpetual check. About a third of a full
/// [`Position`], so a server holding many long games stays small; the positions themselves
/// are replayed from the start when they are needed.
#[derive(Clone, Debug)]
struct Entry {
    key: u64,
    cells: [u8; 81],
    hands: [[u8; 7]; 2],
    turn: Side,
    check: bool,
    /// The move that led here (`None` for the start).
    mv: Option<Move>,
}

impl Entry {
    fn new(position: &Position, mv: Option<Move>) -> Entry {
        Entry {
            key: position.key(),
            cells: position.cells,
            hands: position.hands,
            turn: position.turn(),
            check: position.is_check(),
            mv,
        }
    }

    /// Whether `position` is the position of this entry (same board, hands and side to move).
    fn is(&self, position: &Position) -> bool {
        self.key == position.key()
            && self.turn == position.turn()
            && self.cells == position.cells
            && self.hands == position.hands
    }
}

/// A shogi or minishogi game from a start position, with its outcome.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    current: Position,
    /// One entry per position reached, the start first.
    entries: Vec<Entry>,
    handicap: Option<&'static Handicap>,
    declared: Option<Outcome>,
}

/// Impasse points of a piece kind: rook and bishop (promoted or not) 5, king 0, others 1.
fn points(kind: usize) -> u32 {
    match kind {
        ROOK_K | BISHOP_K | DRAGON_K | HORSE_K => 5,
        KING_K => 0,
        _ => 1,
    }
}

impl Game {
    /// A game from `start`. When `start` is exactly a handicap preset's start position, the
    /// game is taken to be that handicap game (the uwate gets the impasse credit).
    pub fn new(start: Position) -> Game {
        let handicap = Handicap::recognise(&start);
        Game::with_handicap(start, handicap)
    }

    /// A game from `start`, played under `handicap` (or as an even game for `None`).
    pub fn with_handicap(start: Position, handicap: Option<&'static Handicap>) -> Game {
        Game {
            entries: vec![Entry::new(&start, None)],
            current: start.clone(),
            start,
            handicap,
            declared: None,
        }
    }

    /// The handicap this game is played under, if any (the uwate is gote).
    pub fn handicap(&self) -> Option<&'static Handicap> {
        self.handicap
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.current
    }

    /// The moves played, in order.
    pub fn moves(&self) -> Vec<Move> {
        self.entries.iter().filter_map(|e| e.mv).collect()
    }

    /// Every position of the game: the start, then one after each move. They are replayed
    /// from the start (see `Entry`): this walks the whole game.
    pub fn positions(&self) -> impl Iterator<Item = Position> + '_ {
        let replayed = self.entries[1..].iter().filter_map(|e| e.mv).scan(
            self.start.clone(),
            |position, mv| {
                position.play(mv);
                Some(position.clone())
            },
        );
        std::iter::once(self.start.clone()).chain(replayed)
    }

    /// Plays a legal move (from [`Position::legal_moves`] or [`Position::parse_move`] on the
    /// current position). Refuses, changing nothing, once the game is over or when the move
    /// is not legal here.
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        if let Some(outcome) = self.outcome() {
            return Err(PlayError::GameOver(outcome));
        }
        if let Some(reason) = self.position().why_illegal(mv) {
            return Err(PlayError::NotLegal { mv, reason });
        }
        self.push(mv);
        Ok(())
    }

    /// Plays a USI move text. Once the game is over, every well-formed move is refused with
    /// [`Illegal::GameOver`].
    pub fn play_usi(&mut self, text: &str) -> Result<Move, MoveError> {
        let parsed = self.position().parse_move(text);
        if let Some(outcome) = self.outcome()
            && !matches!(parsed, Err(MoveError::Syntax(_)))
        {
            return Err(MoveError::Illegal {
                text: text.to_owned(),
                reason: Illegal::GameOver(outcome),
            });
        }
        let mv = parsed?;
        self.push(mv);
        Ok(mv)
    }

    /// Plays `mv`, legal in the current position of a game that goes on.
    fn push(&mut self, mv: Move) {
        let mut next = self.position().clone();
        next.play(mv);
        self.entries.push(Entry::new(&next, Some(mv)));
        self.current = next;
    }

    /// Impasse counts of `side` in the current position.
    pub fn impasse_points(&self, side: Side) -> ImpassePoints {
        let pos = self.position();
        let s = side.index();
        let zone = pos.geo().zone[s];
        let ours = pos.by_side[s];
        let mut in_zone = 0;
        let mut pieces_in_zone = 0;
        let mut total = 0;
        for sq in Bits(ours) {
            let kind = (pos.cells[sq] as usize - 1) % 14;
            total += points(kind);
            if zone & (1 << sq) != 0 && kind != KING_K {
                in_zone += points(kind);
                pieces_in_zone += 1;
            }
        }
        let hand: u32 = (0..7).map(|k| points(k) * pos.hands[s][k] as u32).sum();
        let credit = match self.handicap {
            Some(h) if side == Side::GOTE => h.credit,
            _ => 0,
        };
        ImpassePoints {
            // A tsume's attacker has no king: never in the zone, never a declaration.
            king_in_zone: pos.kings[s] != NO_KING && zone & (1 << pos.kings[s]) != 0,
            pieces_in_zone,
            declaration: in_zone + hand + credit,
            needed: if side == Side::SENTE { 28 } else { 27 },
            total: total + hand + credit,
        }
    }

    /// Checks conditions 1–4 of the declaration rule for the side to move, in order.
    pub fn can_declare_impasse(&self) -> Result<(), ImpasseError> {
        let pos = self.position();
        if pos.variant() != Variant::Shogi {
            return Err(ImpasseError::NotAvailable(pos.variant()));
        }
        if self.outcome().is_some() {
            return Err(ImpasseError::GameOver);
        }
        let p = self.impasse_points(pos.turn());
        if !p.king_in_zone {
            return Err(ImpasseError::KingNotInZone);
        }
        if p.pieces_in_zone < 10 {
            return Err(ImpasseError::TooFewPieces {
                pieces: p.pieces_in_zone,
            });
        }
        if pos.is_check() {
            return Err(ImpasseError::InCheck);
        }
        if p.declaration < p.needed {
            return Err(ImpasseError::TooFewPoints {
                points: p.declaration,
                needed: p.needed,
            });
        }
        Ok(())
    }

    /// The side to move declares impasse: the game ends as its win (reason `impasse`) when
    /// the declaration holds; otherwise nothing changes and the failed condition is returned.
    pub fn declare_impasse(&mut self) -> Result<Outcome, ImpasseError> {
        self.can_declare_impasse()?;
        let outcome = Outcome::win(self.position().turn(), Reason::Impasse);
        self.declared = Some(outcome);
        Ok(outcome)
    }

    /// The outcome decided by the moves (and any declaration) so far, in the order of
    /// shogi.md: no legal moves, sennichite, bare kings, the 700-move cap.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.declared.is_some() {
            return self.declared;
        }
        let pos = self.position();
        let to_move = pos.turn();
        // 1. No legal moves: the side to move loses (shogi has no stalemate draw).
        if pos.count_moves() == 0 {
            return Some(Outcome::no_legal_move(to_move, pos.is_check()));
        }
        // 2. Sennichite.
        if let Some(outcome) = self.sennichite() {
            return Some(outcome);
        }
        // 3. Bare kings with empty hands: neither side can ever mate. Reported as
        //    `insufficient-material` (the shared reason for "nobody can mate").
        let kings_only = pos.occupied() == pos.by_kind[KING_K];
        if kings_only && pos.hands == [[0; 7]; 2] {
            return Some(Outcome::draw(Reason::InsufficientMaterial));
        }
        // 4. The 700th move has been played (SFEN numbering: move number 701 is next).
        if pos.ply() > MOVE_CAP {
            return Some(Outcome::draw(Reason::MoveLimit));
        }
        None
    }

    /// The fourth occurrence of the current position (board, hands, side to move).
    fn sennichite(&self) -> Option<Outcome> {
        let current = self.position();
        let last = self.entries.len() - 1;
        let mut first = last;
        let mut count = 0;
        for (i, e) in self.entries.iter().enumerate() {
            if e.is(current) {
                count += 1;
                first = first.min(i);
            }
        }
        if count < SENNICHITE_OCCURRENCES {
            return None;
        }
        // Did `side` give check with every one of its moves since the first occurrence? The
        // position after a move of `side` has the other side to move, in check.
        let checked_throughout = |side: Side| {
            self.entries[first + 1..=last]
                .iter()
                .filter(|e| e.turn != side)
                .all(|e| e.check)
        };
        let sente = checked_throughout(Side::SENTE);
        let gote = checked_throughout(Side::GOTE);
        let minishogi = current.variant() == Variant::Minishogi;
        Some(match (sente, gote) {
            (true, false) => Outcome::win(Side::GOTE, Reason::PerpetualCheck),
            (false, true) => Outcome::win(Side::SENTE, Reason::PerpetualCheck),
            // Minishogi: a plain repetition is a loss for sente (shogi.md). When both sides
            // checked throughout, no single side "checked perpetually": plain repetition.
            _ if minishogi => Outcome::win(Side::GOTE, Reason::Repetition),
            _ => Outcome::draw(Reason::Repetition),
        })
    }

    /// Plays one token as `jiang outcome` reads them: a USI move, or `win` for an impasse
    /// declaration by the side to move.
    pub fn play_token(&mut self, text: &str) -> Result<(), PlayError> {
        if text == "win" {
            return self.declare_impasse().map(|_| ()).map_err(PlayError::from);
        }
        if let Some(outcome) = self.outcome() {
            return Err(PlayError::GameOver(outcome));
        }
        let mv = self.position().parse_move(text)?;
        self.play(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sfen(text: &str) -> Position {
        Position::from_sfen(Variant::Shogi, text).unwrap()
    }

    #[test]
    fn an_entry_is_the_same_position_only_with_the_same_board_hands_and_side() {
        // shogi.md: the same position means the same board, both hands and side to move.
        let here = sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1");
        let entry = Entry::new(&here, None);
        assert!(entry.is(&here));
        assert!(
            entry.is(&sfen("4k4/9/9/9/9/9/9/9/4K4 b P 31")),
            "move number ignored"
        );
        assert!(
            !entry.is(&sfen("4k4/9/9/9/9/9/9/9/4K4 b p 1")),
            "the pawn in gote's hand"
        );
        assert!(
            !entry.is(&sfen("4k4/9/9/9/9/9/9/9/4K4 w P 1")),
            "gote to move"
        );
        assert!(
            !entry.is(&sfen("3k5/9/9/9/9/9/9/9/4K4 b P 1")),
            "the king elsewhere"
        );
        assert!(!entry.check);
        assert!(Entry::new(&sfen("4k4/4R4/9/9/9/9/9/9/4K4 w - 1"), None).check);
    }
}
