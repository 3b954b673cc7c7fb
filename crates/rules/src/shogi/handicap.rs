//! Handicap presets (駒落ち): the stronger player (uwate, 上手) plays gote without some
//! pieces and moves first (shogi.md, Handicaps).

use super::Position;
use crate::Variant;

/// A handicap preset: its name, the start SFEN, and the impasse points credited to the uwate
/// (the points of the removed pieces: rook and bishop 5, the others 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handicap {
    /// The variant it belongs to.
    pub variant: Variant,
    /// The name used by the API and the CLI (`rook-lance`, `2-piece`, …).
    pub name: &'static str,
    /// The Japanese name (香落ち, …) for records and the UI.
    pub japanese: &'static str,
    /// The start SFEN (gote, the uwate, to move).
    pub sfen: &'static str,
    /// Impasse points of the removed pieces, credited to the uwate.
    pub credit: u32,
}

/// Every preset, Shogi first.
pub const HANDICAPS: [Handicap; 11] = [
    h(
        Variant::Shogi,
        "lance",
        "香落ち",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        1,
    ),
    h(
        Variant::Shogi,
        "bishop",
        "角落ち",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        5,
    ),
    h(
        Variant::Shogi,
        "rook",
        "飛車落ち",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        5,
    ),
    h(
        Variant::Shogi,
        "rook-lance",
        "飛香落ち",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        6,
    ),
    h(
        Variant::Shogi,
        "2-piece",
        "二枚落ち",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        10,
    ),
    h(
        Variant::Shogi,
        "4-piece",
        "四枚落ち",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        12,
    ),
    h(
        Variant::Shogi,
        "6-piece",
        "六枚落ち",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        14,
    ),
    h(
        Variant::Shogi,
        "8-piece",
        "八枚落ち",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        16,
    ),
    h(
        Variant::Shogi,
        "10-piece",
        "十枚落ち",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        18,
    ),
    h(
        Variant::Minishogi,
        "bishop",
        "角落ち",
        "r1sgk/4p/5/P4/KGSBR w - 1",
        5,
    ),
    h(
        Variant::Minishogi,
        "rook",
        "飛車落ち",
        "1bsgk/4p/5/P4/KGSBR w - 1",
        5,
    ),
];

const fn h(
    variant: Variant,
    name: &'static str,
    japanese: &'static str,
    sfen: &'static str,
    credit: u32,
) -> Handicap {
    Handicap {
        variant,
        name,
        japanese,
        sfen,
        credit,
    }
}

/// The preset named `name` for `variant`, if there is one.
pub fn handicap(variant: Variant, name: &str) -> Option<&'static Handicap> {
    HANDICAPS
        .iter()
        .find(|h| h.variant == variant && h.name == name)
}

impl Handicap {
    /// The start position of this handicap.
    pub fn position(&self) -> Position {
        Position::from_sfen(self.variant, self.sfen).expect("preset SFENs are valid")
    }

    /// The preset whose start position is `position` (board, hands and side to move), if any.
    pub fn recognise(position: &Position) -> Option<&'static Handicap> {
        HANDICAPS
            .iter()
            .filter(|h| h.variant == position.variant())
            .find(|h| h.position() == *position)
    }
}
