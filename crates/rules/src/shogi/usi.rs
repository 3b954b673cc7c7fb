//! USI move text against a position: the legal move it names, or exactly why it is not one.

use super::movegen::MoveList;
use super::moves::{UsiMove, parse_usi};
use super::position::*;
use super::tables::PAWN;
use super::{Move, PieceKind, Position, Square};

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
        reason: String,
    },
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
        let illegal = |reason: String| MoveError::Illegal {
            text: text.to_owned(),
            reason,
        };
        let on_board = |sq: Square| {
            if sq.on_board(size) {
                Ok(sq.index())
            } else {
                Err(illegal(format!("{sq} is not on the {size}×{size} board")))
            }
        };
        let mv = match parsed {
            UsiMove::Normal { from, to, promote } => {
                Move::normal(on_board(from)?, on_board(to)?, promote)
            }
            UsiMove::Drop { kind, to } => Move::drop(kind.index(), on_board(to)?),
        };
        if self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(illegal(self.why_illegal(mv)))
        }
    }

    /// Which rule an illegal (but on-board) move breaks, for error messages.
    fn why_illegal(&self, mv: Move) -> String {
        let us = self.turn.index();
        let geo = self.geo();
        let to = mv.to_index();
        let to_sq = mv.to();
        let in_check = self.is_check();
        let check_note = || {
            if in_check {
                "your king is in check and this does not answer it".to_owned()
            } else {
                "it would leave your king in check".to_owned()
            }
        };
        if let Some(kind) = mv.drop_kind() {
            let k = kind.index();
            if self.hands[us][k] == 0 {
                return format!("you have no {} in hand", name(kind));
            }
            if self.cells[to] != 0 {
                return format!("{to_sq} is occupied: drops go on empty squares");
            }
            if (k == PAWN_K || k == LANCE_K) && geo.last_rank[us] & (1 << to) != 0 {
                return format!("a {} dropped on the last rank could never move", name(kind));
            }
            if k == KNIGHT_K && geo.last_two_ranks[us] & (1 << to) != 0 {
                return "a knight dropped on the last two ranks could never move".into();
            }
            if k == PAWN_K && self.pawn_files(us) & (1 << to) != 0 {
                return format!(
                    "nifu: you already have an unpromoted pawn on file {}",
                    to_sq.file()
                );
            }
            if k == PAWN_K
                && PAWN[us ^ 1][self.kings[us ^ 1] as usize] & (1 << to) != 0
                && !in_check
            {
                return "uchifuzume: a pawn drop may not give checkmate".into();
            }
            return check_note();
        }
        let from = mv.origin_field();
        let from_sq = mv.from().expect("board move");
        let Some(piece) = self.piece_at(from_sq) else {
            return format!("there is no piece on {from_sq}");
        };
        if piece.side != self.turn {
            return format!("the piece on {from_sq} is not yours");
        }
        if self.by_side[us] & (1 << to) != 0 {
            return format!("{to_sq} holds your own piece");
        }
        let att = Position::piece_attacks(piece.kind.index(), us, from, self.occupied());
        if att & (1 << to) == 0 {
            return format!("the {} on {from_sq} cannot reach {to_sq}", name(piece.kind));
        }
        let zone = geo.zone[us];
        if mv.promotes() {
            if piece.kind.promoted().is_none() {
                return format!("a {} cannot promote", name(piece.kind));
            }
            if zone & ((1 << from) | (1 << to)) == 0 {
                return "promotion needs a move that starts or ends in the promotion zone".into();
            }
        } else {
            let forced = match piece.kind {
                PieceKind::Pawn | PieceKind::Lance => geo.last_rank[us],
                PieceKind::Knight => geo.last_two_ranks[us],
                _ => 0,
            };
            if forced & (1 << to) != 0 {
                return format!(
                    "a {} must promote on {to_sq}: it could never move again",
                    name(piece.kind)
                );
            }
        }
        check_note()
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
