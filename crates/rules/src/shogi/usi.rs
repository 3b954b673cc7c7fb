//! USI move text against a position: the legal move it names, or exactly why it is not one.

use super::movegen::MoveList;
use super::moves::{UsiMove, parse_usi};
use super::position::*;
use super::tables::PAWN;
use std::fmt;

use super::{Move, PieceKind, Position, Square};
use crate::Outcome;

/// Why a USI move text is not a legal move in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Not USI move syntax.
    #[error("`{0}` is not a USI move: expected like `7g7f`, `8h2b+` or `P*5e`")]
    Syntax(String),
    /// Well-formed but not legal here.
    #[error("`{text}` is illegal: {reason}")]
    Illegal {
        /// The move text.
        text: String,
        /// Which rule it breaks.
        reason: Illegal,
    },
}

/// Which rule a well-formed shogi-family move breaks (shogi.md): the first that fails, in the
/// order drops, then board moves, are checked. Its `Display` is the English explanation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// A square of the text is off the variant's board (Minishogi is 5×5).
    OffBoard {
        /// The square named.
        square: Square,
        /// The board's files (and ranks).
        size: u8,
    },
    /// A drop of a piece the mover has none of in hand.
    NotInHand(PieceKind),
    /// A drop on an occupied square.
    DropOnOccupied(Square),
    /// A drop where the piece could never move: a pawn or lance on the last rank, a knight on
    /// the last two.
    DeadDrop(PieceKind),
    /// Nifu: a pawn dropped on a file (the one given) that already holds an unpromoted pawn of
    /// the mover's.
    Nifu {
        /// The file, 1 to 9.
        file: u8,
    },
    /// Uchifuzume: a pawn drop that gives checkmate.
    Uchifuzume,
    /// No piece stands on the from square.
    NoPiece(Square),
    /// The piece on the from square is the opponent's.
    NotYourPiece(Square),
    /// The target square holds one of the mover's own pieces.
    OwnPieceOnTarget(Square),
    /// The piece cannot reach the target (how it moves, or a piece in between).
    Unreachable {
        /// The piece's kind.
        kind: PieceKind,
        /// Where it stands.
        from: Square,
        /// Where it was sent.
        to: Square,
    },
    /// A promotion of a kind that does not promote (gold, king, an already promoted piece).
    CannotPromote(PieceKind),
    /// A promotion by a move that neither starts nor ends in the promotion zone.
    PromotionOutsideZone,
    /// A move without promotion to where the piece could never move again: a pawn or lance to
    /// the last rank, a knight to the last two.
    MustPromote {
        /// The piece's kind.
        kind: PieceKind,
        /// The target square.
        to: Square,
    },
    /// The mover's king is in check and the move does not answer it.
    IgnoresCheck,
    /// The move would leave (or put) the mover's king in check.
    LeavesKingInCheck,
    /// The game is already over (only a [`Game`](super::Game) says this).
    GameOver(Outcome),
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Illegal::OffBoard { square, size } => {
                write!(f, "{square} is not on the {size}×{size} board")
            }
            Illegal::NotInHand(kind) => write!(f, "you have no {} in hand", name(kind)),
            Illegal::DropOnOccupied(to) => write!(f, "{to} is occupied: drops go on empty squares"),
            Illegal::DeadDrop(PieceKind::Knight) => {
                f.write_str("a knight dropped on the last two ranks could never move")
            }
            Illegal::DeadDrop(kind) => {
                write!(
                    f,
                    "a {} dropped on the last rank could never move",
                    name(kind)
                )
            }
            Illegal::Nifu { file } => write!(
                f,
                "nifu: you already have an unpromoted pawn on file {file}"
            ),
            Illegal::Uchifuzume => f.write_str("uchifuzume: a pawn drop may not give checkmate"),
            Illegal::NoPiece(from) => write!(f, "there is no piece on {from}"),
            Illegal::NotYourPiece(from) => write!(f, "the piece on {from} is not yours"),
            Illegal::OwnPieceOnTarget(to) => write!(f, "{to} holds your own piece"),
            Illegal::Unreachable { kind, from, to } => {
                write!(f, "the {} on {from} cannot reach {to}", name(kind))
            }
            Illegal::CannotPromote(kind) => write!(f, "a {} cannot promote", name(kind)),
            Illegal::PromotionOutsideZone => {
                f.write_str("promotion needs a move that starts or ends in the promotion zone")
            }
            Illegal::MustPromote { kind, to } => write!(
                f,
                "a {} must promote on {to}: it could never move again",
                name(kind)
            ),
            Illegal::IgnoresCheck => {
                f.write_str("your king is in check and this does not answer it")
            }
            Illegal::LeavesKingInCheck => f.write_str("it would leave your king in check"),
            Illegal::GameOver(outcome) => write!(f, "the game is already over ({outcome})"),
        }
    }
}

impl Position {
    /// Every legal move, in generation order (promotions before non-promotions per piece).
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list.as_slice().to_vec()
    }

    /// Whether `mv` is legal here (a `Move` from another position may not be).
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list.as_slice().contains(&mv)
    }

    /// The legal move that the USI text names, or which rule it breaks.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let parsed = parse_usi(text).ok_or_else(|| MoveError::Syntax(text.to_owned()))?;
        let size = self.size();
        let illegal = |reason: Illegal| MoveError::Illegal {
            text: text.to_owned(),
            reason,
        };
        let on_board = |square: Square| {
            if square.on_board(size) {
                Ok(square.index())
            } else {
                Err(illegal(Illegal::OffBoard { square, size }))
            }
        };
        let mv = match parsed {
            UsiMove::Normal { from, to, promote } => {
                Move::normal(on_board(from)?, on_board(to)?, promote)
            }
            UsiMove::Drop { kind, to } => Move::drop(kind.index(), on_board(to)?),
        };
        self.why_illegal(mv)
            .map_or(Ok(mv), |reason| Err(illegal(reason)))
    }

    /// Which rule `mv` (with its squares on the board) breaks here, `None` when it is legal.
    pub fn why_illegal(&self, mv: Move) -> Option<Illegal> {
        if self.is_legal(mv) {
            None
        } else {
            Some(self.broken_rule(mv))
        }
    }

    /// The squares where a piece of `kind` of the side to move could never move again: the
    /// last rank for a pawn or lance, the last two for a knight (shogi.md, Drops and
    /// Promotion).
    fn stuck_ranks(&self, kind: PieceKind) -> u128 {
        let (geo, us) = (self.geo(), self.turn.index());
        match kind {
            PieceKind::Pawn | PieceKind::Lance => geo.last_rank[us],
            PieceKind::Knight => geo.last_two_ranks[us],
            _ => 0,
        }
    }

    /// Which rule an illegal (but on-board) move breaks.
    fn broken_rule(&self, mv: Move) -> Illegal {
        let us = self.turn.index();
        let geo = self.geo();
        let to = mv.to_index();
        let to_sq = mv.to();
        let in_check = self.is_check();
        let check = if in_check {
            Illegal::IgnoresCheck
        } else {
            Illegal::LeavesKingInCheck
        };
        if let Some(kind) = mv.drop_kind() {
            let k = kind.index();
            if self.hands[us][k] == 0 {
                return Illegal::NotInHand(kind);
            }
            if self.cells[to] != 0 {
                return Illegal::DropOnOccupied(to_sq);
            }
            if self.stuck_ranks(kind) & (1 << to) != 0 {
                return Illegal::DeadDrop(kind);
            }
            if k == PAWN_K && self.pawn_files(us) & (1 << to) != 0 {
                return Illegal::Nifu { file: to_sq.file() };
            }
            if k == PAWN_K
                && self.kings[us ^ 1] != NO_KING
                && PAWN[us ^ 1][self.kings[us ^ 1] as usize] & (1 << to) != 0
                && !in_check
            {
                return Illegal::Uchifuzume;
            }
            return check;
        }
        let from = mv.origin_field();
        let from_sq = mv.from().expect("board move");
        let Some(piece) = self.piece_at(from_sq) else {
            return Illegal::NoPiece(from_sq);
        };
        if piece.side != self.turn {
            return Illegal::NotYourPiece(from_sq);
        }
        if self.by_side[us] & (1 << to) != 0 {
            return Illegal::OwnPieceOnTarget(to_sq);
        }
        let att = Position::piece_attacks(piece.kind.index(), us, from, self.occupied());
        if att & (1 << to) == 0 {
            return Illegal::Unreachable {
                kind: piece.kind,
                from: from_sq,
                to: to_sq,
            };
        }
        let zone = geo.zone[us];
        if mv.promotes() {
            if piece.kind.promoted().is_none() {
                return Illegal::CannotPromote(piece.kind);
            }
            if zone & ((1 << from) | (1 << to)) == 0 {
                return Illegal::PromotionOutsideZone;
            }
        } else {
            if self.stuck_ranks(piece.kind) & (1 << to) != 0 {
                return Illegal::MustPromote {
                    kind: piece.kind,
                    to: to_sq,
                };
            }
        }
        check
    }
}

fn name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "pawn",
        PieceKind::Lance => "lance",
        PieceKind::Knight => "knight",
        PieceKind::Silver => "silver",
        PieceKind::Gold => "gold",
        PieceKind::Bishop => "bishop",
        PieceKind::Rook => "rook",
        PieceKind::King => "king",
        PieceKind::Tokin => "tokin",
        PieceKind::PromotedLance => "promoted lance",
        PieceKind::PromotedKnight => "promoted knight",
        PieceKind::PromotedSilver => "promoted silver",
        PieceKind::Horse => "horse",
        PieceKind::Dragon => "dragon",
    }
}
