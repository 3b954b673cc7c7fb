//! Shogi-family moves: a board move (from, to, promote) or a drop (kind, to), in 16 bits.

use std::fmt;

use super::{PieceKind, Square};

/// A shogi move: a board move, possibly promoting, or a drop from the hand.
///
/// Values come only from move generation or from parsing against a position
/// ([`super::Position::legal_moves`], [`super::Position::parse_move`]), so a `Move` held is
/// one that was legal where it was made. `Display` writes USI: `7g7f`, `8h2b+`, `P*5e`.
///
/// Encoding: bits 0–6 the destination index, bits 7–13 the origin index or `81 + kind` for a
/// drop, bit 14 promotion.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

const DROP_BASE: u16 = 81;
const PROMOTE: u16 = 1 << 14;

impl Move {
    /// A board move.
    #[inline(always)]
    pub(crate) const fn normal(from: usize, to: usize, promote: bool) -> Move {
        Move(to as u16 | (from as u16) << 7 | if promote { PROMOTE } else { 0 })
    }

    /// A drop of a hand kind (`kind` < 7).
    #[inline(always)]
    pub(crate) const fn drop(kind: usize, to: usize) -> Move {
        Move(to as u16 | (DROP_BASE + kind as u16) << 7)
    }

    /// The destination index.
    #[inline(always)]
    pub(crate) const fn to_index(self) -> usize {
        (self.0 & 0x7f) as usize
    }

    /// The raw origin field: a square index below 81, or `81 + kind` for a drop.
    #[inline(always)]
    pub(crate) const fn origin_field(self) -> usize {
        ((self.0 >> 7) & 0x7f) as usize
    }

    /// Whether this is a drop.
    #[inline(always)]
    pub const fn is_drop(self) -> bool {
        self.origin_field() >= DROP_BASE as usize
    }

    /// The square the piece leaves, `None` for a drop.
    pub fn from(self) -> Option<Square> {
        if self.is_drop() {
            None
        } else {
            Square::from_index(self.origin_field())
        }
    }

    /// The square the piece arrives on.
    pub fn to(self) -> Square {
        Square::from_index(self.to_index()).expect("moves hold on-board squares")
    }

    /// Whether the moving piece promotes (always false for drops).
    pub const fn promotes(self) -> bool {
        self.0 & PROMOTE != 0
    }

    /// The kind dropped, `None` for a board move.
    pub fn drop_kind(self) -> Option<PieceKind> {
        if self.is_drop() {
            Some(PieceKind::ALL[self.origin_field() - DROP_BASE as usize])
        } else {
            None
        }
    }
}

impl fmt::Display for Move {
    /// USI: `7g7f`, `8h2b+`, `P*5e`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.drop_kind() {
            Some(kind) => write!(f, "{}*{}", kind.letter(), self.to()),
            None => {
                let from = self.from().expect("board move");
                write!(f, "{from}{}", self.to())?;
                if self.promotes() {
                    f.write_str("+")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

/// The syntax of a USI move, before it is checked against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UsiMove {
    Normal {
        from: Square,
        to: Square,
        promote: bool,
    },
    Drop {
        kind: PieceKind,
        to: Square,
    },
}

/// Reads USI move syntax (`7g7f`, `8h2b+`, `P*5e`); `None` when it is not that shape.
pub(crate) fn parse_usi(text: &str) -> Option<UsiMove> {
    let b = text.as_bytes();
    match b {
        [p, b'*', f, r] => {
            let kind = PieceKind::from_letter(*p as char)?;
            if !p.is_ascii_uppercase() || kind == PieceKind::King {
                return None;
            }
            let to = std::str::from_utf8(&[*f, *r]).ok()?.parse().ok()?;
            Some(UsiMove::Drop { kind, to })
        }
        [f1, r1, f2, r2, rest @ ..] if rest.is_empty() || rest == b"+" => {
            let from = std::str::from_utf8(&[*f1, *r1]).ok()?.parse().ok()?;
            let to = std::str::from_utf8(&[*f2, *r2]).ok()?.parse().ok()?;
            Some(UsiMove::Normal {
                from,
                to,
                promote: !rest.is_empty(),
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        let m = Move::normal(70, 1, true);
        assert_eq!(m.from().unwrap().index(), 70);
        assert_eq!(m.to().index(), 1);
        assert!(m.promotes() && !m.is_drop());
        let d = Move::drop(PieceKind::Pawn.index(), 40);
        assert_eq!(d.drop_kind(), Some(PieceKind::Pawn));
        assert_eq!(d.to_string(), "P*5e");
        assert_eq!(d.from(), None);
        assert_eq!(Move::normal(70, 1, true).to_string(), "8h2a+");
        assert!(parse_usi("p*5e").is_none());
        assert!(parse_usi("K*5e").is_none());
        assert!(parse_usi("7g7f++").is_none());
        assert!(parse_usi("7g7f+").is_some());
    }
}
