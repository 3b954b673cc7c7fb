//! Record formats and notation styles: which a family has, and a game's move list in one.

use crate::xiangqi::notation::{MoveFormat, Script, Style as XiangqiStyle, move_list};
use crate::{Family, Variant, xiangqi};

/// The record formats of a family, for error messages.
pub(super) fn formats_of(family: Family) -> &'static str {
    match family {
        Family::Xiangqi => "pgn or fen",
        Family::Shogi => "kif, ki2, csa or sfen",
    }
}

/// The record formats a game can be written in (the server's `GET /api/games/{id}/record`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum RecordFormat {
    /// PGN-style record (xiangqi family), ICCS moves with `[Format "ICCS"]`.
    Pgn,
    /// PGN-style record with WXF moves (`?format=pgn&moves=wxf`; Jieqi stays ICCS).
    #[cfg_attr(feature = "serde", serde(skip))]
    PgnWxf,
    /// PGN-style record with Chinese moves (`?format=pgn&moves=chinese`; Jieqi stays ICCS).
    #[cfg_attr(feature = "serde", serde(skip))]
    PgnChinese,
    /// KIF (shogi family), UTF-8.
    Kif,
    /// KI2 (shogi family), UTF-8.
    Ki2,
    /// CSA (shogi family).
    Csa,
    /// The current position as FEN (xiangqi family).
    Fen,
    /// The current position as SFEN (shogi family).
    Sfen,
}

impl RecordFormat {
    /// The file extension of a download. Jiang writes KIF and KI2 as UTF-8, and UTF-8 KIF is
    /// `.kifu` (`.ki2u`) by the convention of Kifu for Windows, ShogiGUI and cshogi, which
    /// read a `.kif` file as Shift_JIS: UTF-8 keeps every player name, where Shift_JIS cannot
    /// hold many.
    pub fn extension(self) -> &'static str {
        match self {
            RecordFormat::Pgn | RecordFormat::PgnWxf | RecordFormat::PgnChinese => "pgn",
            RecordFormat::Kif => "kifu",
            RecordFormat::Ki2 => "ki2u",
            RecordFormat::Csa => "csa",
            RecordFormat::Fen => "fen",
            RecordFormat::Sfen => "sfen",
        }
    }

    /// The content type of a download; every record is UTF-8 and says so.
    pub fn content_type(self) -> &'static str {
        match self {
            RecordFormat::Pgn | RecordFormat::PgnWxf | RecordFormat::PgnChinese => {
                "application/x-chess-pgn; charset=utf-8"
            }
            _ => "text/plain; charset=utf-8",
        }
    }

    /// The format's name between nodes of a cluster (`pgn`, `pgn-wxf`, `pgn-chinese`, `kif`, …).
    pub fn name(self) -> &'static str {
        match self {
            RecordFormat::Pgn => "pgn",
            RecordFormat::PgnWxf => "pgn-wxf",
            RecordFormat::PgnChinese => "pgn-chinese",
            RecordFormat::Kif => "kif",
            RecordFormat::Ki2 => "ki2",
            RecordFormat::Csa => "csa",
            RecordFormat::Fen => "fen",
            RecordFormat::Sfen => "sfen",
        }
    }

    /// The format of [`RecordFormat::name`] `name`, if any.
    pub fn from_name(name: &str) -> Option<RecordFormat> {
        [
            RecordFormat::Pgn,
            RecordFormat::PgnWxf,
            RecordFormat::PgnChinese,
            RecordFormat::Kif,
            RecordFormat::Ki2,
            RecordFormat::Csa,
            RecordFormat::Fen,
            RecordFormat::Sfen,
        ]
        .into_iter()
        .find(|f| f.name() == name)
    }

    /// The PGN flavour named by the `moves` query parameter (`iccs`, `wxf`, `chinese`).
    pub fn pgn_with_moves(moves: &str) -> Option<RecordFormat> {
        match moves {
            "iccs" => Some(RecordFormat::Pgn),
            "wxf" => Some(RecordFormat::PgnWxf),
            "chinese" => Some(RecordFormat::PgnChinese),
            _ => None,
        }
    }

    /// The movetext format of a PGN flavour, `None` for the other formats.
    pub(super) fn move_format(self) -> Option<MoveFormat> {
        match self {
            RecordFormat::Pgn => Some(MoveFormat::Iccs),
            RecordFormat::PgnWxf => Some(MoveFormat::Wxf),
            RecordFormat::PgnChinese => Some(MoveFormat::Chinese(Script::Simplified)),
            _ => None,
        }
    }
}

/// The human move notations (the server's `GET /api/games/{id}/notation?style=…`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotationStyle {
    /// ICCS, the xiangqi family's machine notation (Jieqi: with reveal suffixes).
    Iccs,
    /// WXF (`C2.5`), xiangqi family.
    Wxf,
    /// Chinese in simplified characters (`炮二平五`), xiangqi family.
    Chinese,
    /// Chinese in traditional characters (`砲二平五`), xiangqi family.
    ChineseTraditional,
    /// USI, the shogi family's machine notation.
    Usi,
    /// Japanese (`☗７六歩`), shogi family.
    Japanese,
    /// Western with numeric squares (`P-76`), shogi family.
    Western,
    /// Western with USI-style squares (`P-7f`), shogi family.
    WesternLetters,
}

impl NotationStyle {
    /// Every style, for error messages.
    pub const ALL: [NotationStyle; 8] = [
        NotationStyle::Iccs,
        NotationStyle::Wxf,
        NotationStyle::Chinese,
        NotationStyle::ChineseTraditional,
        NotationStyle::Usi,
        NotationStyle::Japanese,
        NotationStyle::Western,
        NotationStyle::WesternLetters,
    ];

    /// The style's name in the API (`wxf`, `chinese-traditional`, `western-letters`, …).
    pub fn name(self) -> &'static str {
        match self {
            NotationStyle::Iccs => "iccs",
            NotationStyle::Wxf => "wxf",
            NotationStyle::Chinese => "chinese",
            NotationStyle::ChineseTraditional => "chinese-traditional",
            NotationStyle::Usi => "usi",
            NotationStyle::Japanese => "japanese",
            NotationStyle::Western => "western",
            NotationStyle::WesternLetters => "western-letters",
        }
    }

    /// The style named `name` in the API, if any.
    pub fn parse(name: &str) -> Option<NotationStyle> {
        NotationStyle::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The family whose moves this style writes.
    pub fn family(self) -> Family {
        match self {
            NotationStyle::Iccs
            | NotationStyle::Wxf
            | NotationStyle::Chinese
            | NotationStyle::ChineseTraditional => Family::Xiangqi,
            _ => Family::Shogi,
        }
    }

    /// The names of the styles of `family`, comma-separated, for error messages.
    pub fn names_for(family: Family) -> String {
        NotationStyle::ALL
            .into_iter()
            .filter(|s| s.family() == family)
            .map(NotationStyle::name)
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Why a move list cannot be written in a notation style.
#[derive(Debug, thiserror::Error)]
#[error("a {variant} game cannot be written in {} notation: use one of {}", .style.name(), NotationStyle::names_for(.variant.family()))]
pub struct WrongFamily {
    /// The game's variant.
    pub variant: Variant,
    /// The style asked for.
    pub style: NotationStyle,
}

/// The xiangqi family's move list of `game` in `style` (for Jieqi, the public game).
pub(super) fn xiangqi_move_list(
    variant: Variant,
    game: &xiangqi::Game,
    style: NotationStyle,
) -> Result<Vec<String>, WrongFamily> {
    let rules_style = match style {
        NotationStyle::Iccs => XiangqiStyle::Iccs,
        NotationStyle::Wxf => XiangqiStyle::Wxf,
        NotationStyle::Chinese => XiangqiStyle::Chinese(Script::Simplified),
        NotationStyle::ChineseTraditional => XiangqiStyle::Chinese(Script::Traditional),
        _ => return Err(WrongFamily { variant, style }),
    };
    Ok(move_list(game, rules_style))
}
