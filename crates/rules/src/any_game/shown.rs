//! What a board shows besides the position, decided here so that a client holds no rules of
//! its own: the checked king, the human names of the legal moves (to match a typed move
//! against), whether an impasse may be declared, and the positions the game went through.
//!
//! All of it is public information: in Jieqi a covered piece is named only by its point, and
//! positions are the public ones (covered pieces face down).

use crate::xiangqi::notation::{Script, Style as XiangqiStyle};
use crate::{Position as _, Variant, shogi, xiangqi};

use super::{AnyGame, NotationStyle, Public};

/// A position the game went through, as a board shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicPosition {
    /// The public FEN/SFEN.
    pub fen: String,
    /// The checked king's or general's square, if the side to move is in check.
    pub check: Option<String>,
}

impl AnyGame {
    /// The square of the king (general) in check in the current position, if any.
    pub fn check(&self) -> Option<String> {
        either_family!(self, |game| game.position().checked_king())
    }

    /// The human names of the current position's legal moves, keyed by the machine text a
    /// player sends (Jieqi: without the reveal), as the notation modules list them.
    pub fn legal_move_names(&self) -> Vec<(String, Vec<String>)> {
        match self.public() {
            Public::Xiangqi(game) => xiangqi::notation::legal_move_names(game.position())
                .into_iter()
                .map(|(mv, names)| (mv.iccs(), names))
                .collect(),
            // The previous move, for 同 ("same square").
            Public::Shogi(game) => {
                shogi::notation::legal_move_names(game.position(), game.moves().last().copied())
                    .into_iter()
                    .map(|(mv, names)| (mv.to_string(), names))
                    .collect()
            }
        }
    }

    /// Whether the side to move may declare impasse now (shogi); `None` in the variants
    /// without the rule (minishogi has none: shogi.md).
    pub fn can_declare_impasse(&self) -> Option<bool> {
        match self.public() {
            Public::Shogi(game) if game.position().variant() == Variant::Shogi => {
                Some(game.can_declare_impasse().is_ok())
            }
            _ => None,
        }
    }

    /// The start and every position after it, public.
    pub fn public_positions(&self) -> Vec<PublicPosition> {
        either_family!(self, |game| game
            .positions()
            .map(|p| PublicPosition {
                check: p.checked_king(),
                fen: p.fen(),
            })
            .collect())
    }

    /// Jieqi: the note shown after each move for its reveal, in `style`; `None` elsewhere.
    pub fn reveal_notes(&self, style: NotationStyle) -> Option<Vec<String>> {
        let game = self.public_xiangqi()?;
        if game.position().variant() != Variant::Jieqi {
            return None;
        }
        let style = match style {
            NotationStyle::Wxf => XiangqiStyle::Wxf,
            NotationStyle::Chinese => XiangqiStyle::Chinese(Script::Simplified),
            NotationStyle::ChineseTraditional => XiangqiStyle::Chinese(Script::Traditional),
            _ => XiangqiStyle::Iccs,
        };
        Some(
            game.moves()
                .iter()
                .map(|&mv| xiangqi::notation::reveal_note(mv, style))
                .collect(),
        )
    }
}

/// The square of the king (general) in check, if the side to move is in check.
trait CheckedKing {
    fn checked_king(&self) -> Option<String>;
}

impl CheckedKing for xiangqi::Position {
    fn checked_king(&self) -> Option<String> {
        self.in_check()
            .then(|| self.general(self.turn()).to_string())
    }
}

impl CheckedKing for shogi::Position {
    fn checked_king(&self) -> Option<String> {
        self.is_check()
            .then(|| self.king_square(self.turn()).map(|sq| sq.to_string()))
            .flatten()
    }
}
