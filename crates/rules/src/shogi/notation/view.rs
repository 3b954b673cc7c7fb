//! What the notations need to know about a position and its moves, read from the shogi core
//! through one narrow adapter so that every notation shares it.

use crate::Side;
use crate::shogi::{Piece, PieceKind, Square};

/// The facts about one legal move that notation text is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveFacts {
    /// The origin square, or `None` for a drop.
    pub from: Option<Square>,
    /// The destination square.
    pub to: Square,
    /// Whether the move promotes.
    pub promote: bool,
    /// The moving piece's kind before the move (for a drop, the kind dropped).
    pub kind: PieceKind,
    /// The side making the move.
    pub side: Side,
    /// The kind of the piece captured on `to`, if any.
    pub captured: Option<PieceKind>,
}

impl MoveFacts {
    /// Whether this is a drop from the hand.
    pub fn is_drop(&self) -> bool {
        self.from.is_none()
    }
}

/// How many ranks deep the promotion zone is on a board of `size` (3 for 9×9, 1 for 5×5).
pub(crate) fn zone_depth(size: u8) -> u8 {
    if size >= 9 { 3 } else { 1 }
}

/// Whether `square` is in `side`'s promotion zone on a board of `size`.
pub(crate) fn in_zone(side: Side, square: Square, size: u8) -> bool {
    match side {
        Side::First => square.rank() <= zone_depth(size),
        Side::Second => square.rank() > size - zone_depth(size),
    }
}

/// Whether the move could have promoted (a piece that promotes, moving from or into the zone):
/// the condition for writing 成/不成, `+`/`=`.
pub(crate) fn could_promote(facts: &MoveFacts, size: u8) -> bool {
    match facts.from {
        None => false,
        Some(from) => {
            facts.kind.promoted().is_some()
                && (in_zone(facts.side, from, size) || in_zone(facts.side, facts.to, size))
        }
    }
}

/// The piece on the board after a move of `facts` has been played: what CSA writes.
pub(crate) fn kind_after(facts: &MoveFacts) -> PieceKind {
    if facts.promote {
        facts.kind.promoted().unwrap_or(facts.kind)
    } else {
        facts.kind
    }
}

/// A read-only copy of what a diagram shows: pieces, hands, side to move.
pub(crate) struct BoardView {
    /// 9 for Shogi, 5 for Minishogi.
    pub size: u8,
    /// The side to move.
    pub turn: Side,
    board: [Option<Piece>; Square::COUNT],
    hands: [[u32; 7]; 2],
}

impl BoardView {
    /// An empty board of `size` with `turn` to move.
    pub fn empty(size: u8, turn: Side) -> BoardView {
        BoardView {
            size,
            turn,
            board: [None; Square::COUNT],
            hands: [[0; 7]; 2],
        }
    }

    /// The piece on `square`.
    pub fn piece(&self, square: Square) -> Option<Piece> {
        self.board[square.index()]
    }

    /// Puts `piece` on `square`.
    pub fn set_piece(&mut self, square: Square, piece: Option<Piece>) {
        self.board[square.index()] = piece;
    }

    /// How many of `kind` (a hand kind) `side` holds.
    pub fn hand(&self, side: Side, kind: PieceKind) -> u32 {
        self.hands[side.index()][hand_slot(kind)]
    }

    /// Sets how many of `kind` `side` holds.
    pub fn set_hand(&mut self, side: Side, kind: PieceKind, count: u32) {
        self.hands[side.index()][hand_slot(kind)] = count;
    }

    /// Puts in `side`'s hand every piece of `variant`'s set that is neither on the board nor
    /// in a hand: the tsume convention (CSA `P-00AL`, KIF `後手の持駒：残り全部`). Kings are
    /// never given.
    pub fn give_rest(&mut self, side: Side, variant: crate::Variant) {
        for kind in PieceKind::HAND_ORDER {
            let mut used = self.hand(Side::First, kind) + self.hand(Side::Second, kind);
            for sq in Square::all(self.size) {
                if self.piece(sq).is_some_and(|p| p.kind.unpromoted() == kind) {
                    used += 1;
                }
            }
            let rest = full_set(variant, kind).saturating_sub(used);
            self.set_hand(side, kind, self.hand(side, kind) + rest);
        }
    }

    /// The SFEN of this diagram with move number `ply`.
    pub fn sfen(&self, ply: u32) -> String {
        let mut out = String::new();
        for rank in 1..=self.size {
            let mut empty = 0;
            for file in (1..=self.size).rev() {
                let sq = Square::new(file, rank).expect("on the board");
                match self.piece(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push_str(&p.to_string());
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank < self.size {
                out.push('/');
            }
        }
        out.push_str(match self.turn {
            Side::First => " b ",
            Side::Second => " w ",
        });
        let mut hands = String::new();
        for side in Side::BOTH {
            for kind in PieceKind::HAND_ORDER {
                let n = self.hand(side, kind);
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                hands.push_str(&Piece::new(side, kind).to_string());
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        out.push_str(&hands);
        out.push(' ');
        out.push_str(&ply.max(1).to_string());
        out
    }
}

/// The slot of a hand kind in per-side hand arrays (pawn 0 … rook 6).
fn hand_slot(kind: PieceKind) -> usize {
    kind.unpromoted().index().min(6)
}

/// How many pieces of base kind `kind` a full set of `variant` holds.
pub(crate) fn full_set(variant: crate::Variant, kind: PieceKind) -> u32 {
    match (variant, kind) {
        (crate::Variant::Minishogi, PieceKind::Lance | PieceKind::Knight) => 0,
        (crate::Variant::Minishogi, _) => 2,
        (_, PieceKind::Pawn) => 18,
        (_, PieceKind::Rook | PieceKind::Bishop) => 2,
        _ => 4,
    }
}
