//! KIF records (柿木形式), as Kifu for Windows, ShogiGUI and KifuBrowser write them:
//!
//! ```text
//! #KIF version=2.0 encoding=UTF-8
//! 開始日時：2024/01/02 10:00:00
//! 手合割：平手
//! 先手：Alice
//! 後手：Bob
//! 持ち時間：10分+30秒
//! 手数----指手---------消費時間--
//!    1 ７六歩(77)   ( 0:03/00:00:03)
//!    2 ３四歩(33)   ( 0:05/00:00:05)
//!    3 投了         ( 0:01/00:00:04)
//! まで2手で後手の勝ち
//! ```
//!
//! A start position that is neither the standard one nor a handicap preset is written as a
//! board diagram (BOD: `|v香v桂…|一` rows, 先手の持駒/後手の持駒, 後手番). Minishogi records say
//! `手合割：5五将棋` (with a 5×5 diagram when the start is not the standard one). Handicap
//! games label the players 下手 (sente) and 上手 (gote).
//!
//! Import accepts UTF-8 or Shift_JIS, `#` and `*` comments, `&` lines, missing time columns,
//! ASCII or full-width colons, 竜/龍 and 全/圭/杏 spellings, and stops at the first
//! variation (`変化：`).
//!
//! Rooms: `write`, `read`, and `end` (the ending, shared with KI2).

mod end;
mod read;
mod write;

pub(crate) use end::{EndNotes, NoteLine, only_end_lines, summary_winner};
pub use read::read_kif;
pub(crate) use read::{read_header, record_from_header};
pub(crate) use write::{begin_record, end_words};
pub use write::{write_kif, write_kif_shift_jis, write_kif_with_variations};

use crate::Variant;
use crate::shogi::{HANDICAPS, Position};

/// The KIF name of Minishogi's "handicap" line.
pub(crate) const MINISHOGI_NAME: &str = "5五将棋";

/// Handicap names that KIF writers use for starts Jiang has no preset for (python-shogi,
/// cshogi and Kifu for Windows know them), with their start SFEN. Jiang's own presets are
/// [`HANDICAPS`].
pub(crate) const OTHER_HANDICAPS: [(&str, &str); 6] = [
    (
        "右香落ち",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "三枚落ち",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "五枚落ち",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左五枚落ち",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    // Left and right are the handicap giver's (gote's right is the 9 file).
    (
        "右七枚落ち",
        "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左七枚落ち",
        "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];

/// The start position a 手合割 name stands for (shogi only), if Jiang knows the name.
pub(crate) fn handicap_by_name(name: &str) -> Option<Position> {
    let name = name.trim();
    if name == "平手" {
        return Some(Position::startpos(Variant::Shogi));
    }
    if let Some(h) = HANDICAPS
        .iter()
        .find(|h| h.variant == Variant::Shogi && h.japanese == name)
    {
        return Some(h.position());
    }
    // Spellings seen in real files.
    match name {
        "飛車香落ち" => return handicap_by_name("飛香落ち"),
        "左香落ち" => return handicap_by_name("香落ち"),
        n if n.ends_with('落') => return handicap_by_name(&format!("{n}ち")),
        _ => {}
    }
    OTHER_HANDICAPS
        .iter()
        .find(|(n, _)| *n == name)
        .and_then(|(_, sfen)| Position::from_sfen(Variant::Shogi, sfen).ok())
}

/// The 手合割 name of a shogi start that is not one of Jiang's presets but has a name.
pub(crate) fn handicap_name_of(start: &Position) -> Option<&'static str> {
    OTHER_HANDICAPS
        .iter()
        .find(|(_, sfen)| Position::from_sfen(Variant::Shogi, sfen).ok().as_ref() == Some(start))
        .map(|(n, _)| *n)
}

/// Display width of KIF text: full-width characters count two columns (as in Shift_JIS).
pub(crate) fn width(text: &str) -> usize {
    text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}
