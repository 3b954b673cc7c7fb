//! Moves of the xiangqi family and their ICCS text.

use std::fmt;

use super::{Piece, Square};

/// A legal move: from, to and, for a Jieqi move of a covered piece, the identity it reveals.
///
/// Values come only from move generation ([`super::Position::legal_moves`]) or from parsing
/// against a position ([`super::Position::parse_move`], [`super::Position::find_move`]), so
/// holding one means it was legal where it was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    from: Square,
    to: Square,
    reveal: Option<Piece>,
}

impl Move {
    pub(crate) const fn new(from: Square, to: Square, reveal: Option<Piece>) -> Move {
        Move { from, to, reveal }
    }

    pub(crate) fn from_indices(from: usize, to: usize) -> Move {
        Move {
            from: Square::from_index(from).expect("point index"),
            to: Square::from_index(to).expect("point index"),
            reveal: None,
        }
    }

    pub(crate) const fn with_reveal(self, reveal: Piece) -> Move {
        Move {
            reveal: Some(reveal),
            ..self
        }
    }

    /// The point the piece leaves.
    pub const fn from(self) -> Square {
        self.from
    }

    /// The point the piece arrives on (capturing whatever stood there).
    pub const fn to(self) -> Square {
        self.to
    }

    /// Jieqi: the piece a covered piece turned out to be, if this move revealed one.
    pub const fn reveal(self) -> Option<Piece> {
        self.reveal
    }

    /// The ICCS text without any reveal suffix (`h2e2`): what a player sends.
    pub fn iccs(self) -> String {
        format!("{}{}", self.from, self.to)
    }
}

impl fmt::Display for Move {
    /// ICCS with the reveal suffix if any: `h2e2`, `h2e2C`, `h9g7n`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)?;
        if let Some(p) = self.reveal {
            write!(f, "{}", p.fen_letter())?;
        }
        Ok(())
    }
}

/// Why a move text is not a legal move in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not of the form `<from><to>[reveal]`.
    #[error("`{0}` is not a move: expected ICCS like `h2e2` (Jieqi reveals: `h2e2C`)")]
    Malformed(String),
    /// No piece stands on the from point.
    #[error("there is no piece on {0}")]
    NoPiece(Square),
    /// The piece on the from point belongs to the side not to move.
    #[error("the piece on {0} is not the mover's")]
    NotYourPiece(Square),
    /// The piece cannot reach the point at all (geometry, blocking, own piece there).
    #[error("{mv} is not a legal move: that piece cannot move there")]
    Unreachable {
        /// The move as written, without suffix.
        mv: String,
    },
    /// The move would leave the mover's general attacked (or facing the other general).
    #[error("{mv} is not a legal move: it would leave the general in check")]
    LeavesGeneralAttacked {
        /// The move as written, without suffix.
        mv: String,
    },
    /// Jieqi: a covered piece moved without saying what it is.
    #[error("{mv} moves a covered piece: add the revealed piece's letter, like `{mv}C`")]
    MissingReveal {
        /// The move as written.
        mv: String,
    },
    /// A reveal letter on a move of a face-up piece (or in Xiangqi).
    #[error("{mv} does not reveal anything: drop the letter `{letter}`")]
    UnexpectedReveal {
        /// The move without suffix.
        mv: String,
        /// The stray letter.
        letter: char,
    },
    /// The reveal letter is not a piece letter of the mover's colour.
    #[error(
        "`{letter}` is not a revealable piece of the mover: use A B N R C P for Red, a b n r c p for Black"
    )]
    BadRevealLetter {
        /// The letter given.
        letter: char,
    },
    /// The revealed identity is no longer in the mover's pool.
    #[error("no covered {piece} is left to reveal (not in the pool)")]
    RevealNotInPool {
        /// The identity asked for.
        piece: Piece,
    },
}
