//! Xiangqi pieces and their FEN letters.

use std::fmt;

use crate::Side;

/// The seven kinds of xiangqi piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// General (帥/將), `K`.
    General,
    /// Advisor (仕/士), `A`.
    Advisor,
    /// Elephant (相/象), `B` (input also accepts `E`).
    Elephant,
    /// Horse (傌/馬), `N` (input also accepts `H`).
    Horse,
    /// Chariot (俥/車), `R`.
    Chariot,
    /// Cannon (炮/砲), `C`.
    Cannon,
    /// Soldier (兵/卒), `P`.
    Soldier,
}

impl PieceKind {
    /// Every kind, general first.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ];

    /// The kinds a covered (Jieqi) piece may be: every kind but the general, in the order of
    /// a Jieqi FEN pool (`A2B2N2R2C2P5`).
    pub const COVERED: [PieceKind; 6] = {
        let [_general, covered @ ..] = PieceKind::ALL;
        covered
    };

    /// `0..7`, in the order of [`PieceKind::ALL`]: an index into per-kind tables.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The uppercase FEN letter: `K A B N R C P`.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::General => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Chariot => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Soldier => 'P',
        }
    }

    /// The kind for a letter of either case; `E` and `H` are accepted for elephant and horse.
    pub fn from_letter(letter: char) -> Option<PieceKind> {
        Some(match letter.to_ascii_uppercase() {
            'K' => PieceKind::General,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Chariot,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Soldier,
            _ => return None,
        })
    }

    /// The traditional character for `side`: Red's (帥 仕 相 傌 俥 炮 兵) or Black's
    /// (將 士 象 馬 車 砲 卒).
    pub const fn character(self, side: Side) -> char {
        match (self, side) {
            (PieceKind::General, Side::First) => '帥',
            (PieceKind::General, Side::Second) => '將',
            (PieceKind::Advisor, Side::First) => '仕',
            (PieceKind::Advisor, Side::Second) => '士',
            (PieceKind::Elephant, Side::First) => '相',
            (PieceKind::Elephant, Side::Second) => '象',
            (PieceKind::Horse, Side::First) => '傌',
            (PieceKind::Horse, Side::Second) => '馬',
            (PieceKind::Chariot, Side::First) => '俥',
            (PieceKind::Chariot, Side::Second) => '車',
            (PieceKind::Cannon, Side::First) => '炮',
            (PieceKind::Cannon, Side::Second) => '砲',
            (PieceKind::Soldier, Side::First) => '兵',
            (PieceKind::Soldier, Side::Second) => '卒',
        }
    }
}

/// A piece of one side.
pub type Piece = crate::Piece<PieceKind>;

impl Piece {
    /// The FEN letter: uppercase for Red, lowercase for Black.
    pub const fn fen_letter(self) -> char {
        let upper = self.kind.letter();
        match self.side {
            Side::First => upper,
            Side::Second => upper.to_ascii_lowercase(),
        }
    }

    /// The piece for a FEN letter (`E`/`H` accepted): uppercase is Red.
    pub fn from_fen_letter(letter: char) -> Option<Piece> {
        let kind = PieceKind::from_letter(letter)?;
        let side = if letter.is_ascii_uppercase() {
            Side::First
        } else {
            Side::Second
        };
        Some(Piece { side, kind })
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.fen_letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for kind in PieceKind::ALL {
            for side in Side::BOTH {
                let piece = Piece::new(side, kind);
                assert_eq!(Piece::from_fen_letter(piece.fen_letter()), Some(piece));
            }
        }
        assert_eq!(PieceKind::from_letter('e'), Some(PieceKind::Elephant));
        assert_eq!(PieceKind::from_letter('H'), Some(PieceKind::Horse));
        assert_eq!(PieceKind::from_letter('X'), None);
    }
}
