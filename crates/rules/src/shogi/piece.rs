//! Shogi pieces, promoted and unpromoted, with their SFEN letters and kanji.

use std::fmt;

use crate::Side;

/// The fourteen kinds of shogi piece: eight base kinds and six promoted ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// Pawn 歩, `P`.
    Pawn,
    /// Lance 香, `L`.
    Lance,
    /// Knight 桂, `N`.
    Knight,
    /// Silver 銀, `S`.
    Silver,
    /// Gold 金, `G`.
    Gold,
    /// Bishop 角, `B`.
    Bishop,
    /// Rook 飛, `R`.
    Rook,
    /// King 玉/王, `K`.
    King,
    /// Tokin と (promoted pawn), `+P`.
    Tokin,
    /// Promoted lance 杏, `+L`.
    PromotedLance,
    /// Promoted knight 圭, `+N`.
    PromotedKnight,
    /// Promoted silver 全, `+S`.
    PromotedSilver,
    /// Horse 馬 (promoted bishop), `+B`.
    Horse,
    /// Dragon 龍 (promoted rook), `+R`.
    Dragon,
}

impl PieceKind {
    /// Every kind, base kinds first.
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::King,
        PieceKind::Tokin,
        PieceKind::PromotedLance,
        PieceKind::PromotedKnight,
        PieceKind::PromotedSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// The kinds that can be held in hand, in the canonical SFEN hand order R B G S N L P.
    pub const HAND_ORDER: [PieceKind; 7] = [
        PieceKind::Rook,
        PieceKind::Bishop,
        PieceKind::Gold,
        PieceKind::Silver,
        PieceKind::Knight,
        PieceKind::Lance,
        PieceKind::Pawn,
    ];

    /// `0..14`, in the order of [`PieceKind::ALL`]; hand kinds are `0..7`.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The promoted form, if this kind promotes (not gold, king, or an already promoted piece).
    pub const fn promoted(self) -> Option<PieceKind> {
        Some(match self {
            PieceKind::Pawn => PieceKind::Tokin,
            PieceKind::Lance => PieceKind::PromotedLance,
            PieceKind::Knight => PieceKind::PromotedKnight,
            PieceKind::Silver => PieceKind::PromotedSilver,
            PieceKind::Bishop => PieceKind::Horse,
            PieceKind::Rook => PieceKind::Dragon,
            _ => return None,
        })
    }

    /// The base kind: what a captured piece becomes in hand.
    pub const fn unpromoted(self) -> PieceKind {
        match self {
            PieceKind::Tokin => PieceKind::Pawn,
            PieceKind::PromotedLance => PieceKind::Lance,
            PieceKind::PromotedKnight => PieceKind::Knight,
            PieceKind::PromotedSilver => PieceKind::Silver,
            PieceKind::Horse => PieceKind::Bishop,
            PieceKind::Dragon => PieceKind::Rook,
            other => other,
        }
    }

    /// Whether this is a promoted kind.
    pub const fn is_promoted(self) -> bool {
        self.index() >= PieceKind::Tokin.index()
    }

    /// The uppercase SFEN letter of the base kind (`P` for pawn and tokin alike).
    pub const fn letter(self) -> char {
        match self.unpromoted() {
            PieceKind::Pawn => 'P',
            PieceKind::Lance => 'L',
            PieceKind::Knight => 'N',
            PieceKind::Silver => 'S',
            PieceKind::Gold => 'G',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            _ => 'K',
        }
    }

    /// The base kind for an SFEN letter of either case.
    pub fn from_letter(letter: char) -> Option<PieceKind> {
        Some(match letter.to_ascii_uppercase() {
            'P' => PieceKind::Pawn,
            'L' => PieceKind::Lance,
            'N' => PieceKind::Knight,
            'S' => PieceKind::Silver,
            'G' => PieceKind::Gold,
            'B' => PieceKind::Bishop,
            'R' => PieceKind::Rook,
            'K' => PieceKind::King,
            _ => return None,
        })
    }

    /// The usual one-character kanji (歩 香 桂 銀 金 角 飛 玉 と 杏 圭 全 馬 龍); the king is 玉
    /// here, see [`Piece::kanji`] for 王.
    pub const fn kanji(self) -> char {
        match self {
            PieceKind::Pawn => '歩',
            PieceKind::Lance => '香',
            PieceKind::Knight => '桂',
            PieceKind::Silver => '銀',
            PieceKind::Gold => '金',
            PieceKind::Bishop => '角',
            PieceKind::Rook => '飛',
            PieceKind::King => '玉',
            PieceKind::Tokin => 'と',
            PieceKind::PromotedLance => '杏',
            PieceKind::PromotedKnight => '圭',
            PieceKind::PromotedSilver => '全',
            PieceKind::Horse => '馬',
            PieceKind::Dragon => '龍',
        }
    }
}

/// A piece of one side.
pub type Piece = crate::Piece<PieceKind>;

impl Piece {
    /// The kanji, with the convention that sente's king is 玉 and gote's is 王.
    pub const fn kanji(self) -> char {
        match (self.kind, self.side) {
            (PieceKind::King, Side::Second) => '王',
            (kind, _) => kind.kanji(),
        }
    }
}

impl fmt::Display for Piece {
    /// SFEN: `+` for promoted, uppercase for sente (`+P`, `k`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind.is_promoted() {
            f.write_str("+")?;
        }
        let letter = self.kind.letter();
        let letter = match self.side {
            Side::First => letter,
            Side::Second => letter.to_ascii_lowercase(),
        };
        write!(f, "{letter}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_round_trips() {
        for kind in PieceKind::ALL {
            if let Some(p) = kind.promoted() {
                assert!(p.is_promoted() && !kind.is_promoted());
                assert_eq!(p.unpromoted(), kind);
                assert_eq!(p.letter(), kind.letter());
            }
        }
        assert_eq!(PieceKind::Gold.promoted(), None);
        assert_eq!(PieceKind::King.promoted(), None);
        assert_eq!(PieceKind::Dragon.promoted(), None);
        assert_eq!(Piece::new(Side::GOTE, PieceKind::Tokin).to_string(), "+p");
        assert_eq!(Piece::new(Side::GOTE, PieceKind::King).kanji(), '王');
        for (i, kind) in PieceKind::ALL.iter().enumerate() {
            assert_eq!(kind.index(), i);
        }
    }
}
