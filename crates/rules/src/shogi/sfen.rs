//! SFEN: reading (with errors naming the field, the rank and the problem) and validation, and
//! writing the canonical form (hands in the order R B G S N L P).

use std::fmt::Write as _;

use super::geometry::geometry;
use super::position::*;
use super::tables::Bits;
use super::{PieceKind, Position, Square};
use crate::{Side, Variant};

/// The standard start of Shogi.
pub const SHOGI_START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
/// The standard start of Minishogi.
pub const MINISHOGI_START: &str = "rbsgk/4p/5/P4/KGSBR b - 1";

/// Why an SFEN could not be read, or describes a position that cannot occur.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SfenError {
    /// The text is empty.
    #[error("empty SFEN: expected `<board> <side> <hands> <move number>` or `startpos`")]
    Empty,
    /// The variant is not of the shogi family.
    #[error("{0} is not a shogi-family variant")]
    NotShogi(Variant),
    /// The board field does not have one rank per row of the board.
    #[error("board field: found {found} ranks separated by `/`, expected {expected}")]
    RankCount {
        /// Ranks found.
        found: usize,
        /// Ranks the variant has.
        expected: u8,
    },
    /// A rank of the board field is malformed.
    #[error("board field, rank {rank}: {problem}")]
    Rank {
        /// The rank's USI letter (`a` is the top rank).
        rank: char,
        /// What was wrong.
        problem: String,
    },
    /// A required field is missing.
    #[error("missing the {0} field")]
    Missing(&'static str),
    /// The side field is not `b` or `w`.
    #[error("side field `{0}`: expected `b` (sente to move) or `w` (gote to move)")]
    Side(String),
    /// The hands field is malformed.
    #[error("hands field `{field}`: {problem}")]
    Hands {
        /// The whole field.
        field: String,
        /// What was wrong.
        problem: String,
    },
    /// The move number is not a positive integer.
    #[error("move number `{0}`: expected a positive integer")]
    MoveNumber(String),
    /// Text follows the move number.
    #[error("unexpected text after the move number: `{0}`")]
    Trailing(String),
    /// The fields are well-formed but the position cannot occur (the first of
    /// [`Setup::problems`]).
    #[error("illegal position: {0}")]
    Illegal(SetupProblem),
}

/// Why a well-formed SFEN does not describe a position that can occur (shogi.md), with where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupProblem {
    /// A side has more than one king, or no king while the other side has none either (or
    /// more than one). shogi.md: a game has one king per side; a tsume (mate problem) lacks
    /// only the attacker's king, and the defender keeps exactly one.
    #[error("{} has {found} kings, expected exactly one", Variant::Shogi.side_name(*side))]
    KingCount {
        /// The side.
        side: Side,
        /// How many kings it has.
        found: u32,
    },
    /// An unpromoted pawn or lance on the last rank, or knight on the last two ranks: it could
    /// never move (shogi.md, "Dead drops").
    #[error("{}'s unpromoted {} on {square} could never move", Variant::Shogi.side_name(*side), kind_name(*kind))]
    StuckPiece {
        /// The piece's side.
        side: Side,
        /// Pawn, lance or knight.
        kind: PieceKind,
        /// Where it stands.
        square: Square,
    },
    /// Two unpromoted pawns of one side on one file (nifu).
    #[error("{} has two unpromoted pawns on file {file} (nifu)", Variant::Shogi.side_name(*side))]
    Nifu {
        /// The side.
        side: Side,
        /// The file, 1-9 (1 is sente's right).
        file: u8,
    },
    /// More pieces of a kind (promoted ones counted as their base kind, hands included) than
    /// the set holds.
    #[error("{found} pieces of kind {} on the board and in hand, the set has {max}", kind.letter())]
    TooMany {
        /// The base kind.
        kind: PieceKind,
        /// How many there are in all.
        found: u32,
        /// How many the variant's set has.
        max: u8,
    },
    /// The side not to move is in check.
    #[error("{} is in check but it is not its turn", Variant::Shogi.side_name(*side))]
    OpponentInCheck {
        /// The side in check.
        side: Side,
    },
}

fn kind_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::Pawn => "pawn",
        PieceKind::Lance => "lance",
        _ => "knight",
    }
}

/// An SFEN read but not yet checked: anything an SFEN can say, valid or not. Validating it
/// gives a [`Position`]; [`Setup::problems`] lists everything wrong with it at once (a board
/// editor shows them all).
#[derive(Clone, Debug)]
pub struct Setup {
    /// The unchecked position (never handed out before validation).
    pos: Position,
}

impl Setup {
    /// Reads an SFEN for `variant` (`startpos` gives the standard start), checking only its
    /// syntax. The hands may list kinds in any order; a missing hands field means empty hands
    /// and a missing move number means 1.
    pub fn parse(variant: Variant, text: &str) -> Result<Setup, SfenError> {
        if !matches!(variant, Variant::Shogi | Variant::Minishogi) {
            return Err(SfenError::NotShogi(variant));
        }
        let text = text.trim();
        let text = text.strip_prefix("sfen ").map(str::trim).unwrap_or(text);
        if text == "startpos" {
            return Ok(Setup {
                pos: Position::startpos(variant),
            });
        }
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or(SfenError::Empty)?;
        let side = fields.next().ok_or(SfenError::Missing("side to move"))?;
        let turn = match side {
            "b" => Side::SENTE,
            "w" => Side::GOTE,
            other => return Err(SfenError::Side(other.to_owned())),
        };
        let hands = fields.next().unwrap_or("-");
        let ply = match fields.next() {
            None => 1,
            Some(n) => match n.parse::<u32>() {
                Ok(n) if (1..1_000_000).contains(&n) => n,
                _ => return Err(SfenError::MoveNumber(n.to_owned())),
            },
        };
        let rest: Vec<&str> = fields.collect();
        if !rest.is_empty() {
            return Err(SfenError::Trailing(rest.join(" ")));
        }
        let mut pos = Position::empty(variant, turn, ply);
        parse_board(&mut pos, board)?;
        parse_hands(&mut pos, hands)?;
        Ok(Setup { pos })
    }

    /// Every reason the setup cannot occur, per side (kings, stuck pieces, nifu), then the
    /// piece counts and the check; empty when [`Setup::validate`] accepts it.
    pub fn problems(&self) -> Vec<SetupProblem> {
        problems(&self.pos)
    }

    /// Checks the setup and gives the position, or the first of [`Setup::problems`].
    pub fn validate(self) -> Result<Position, SfenError> {
        match problems(&self.pos).into_iter().next() {
            None => Ok(self.pos),
            Some(problem) => Err(SfenError::Illegal(problem)),
        }
    }

    /// The setup's SFEN in canonical form (valid or not).
    pub fn sfen(&self) -> String {
        self.pos.sfen()
    }
}

impl Position {
    /// The standard start position of `variant` (Shogi for any non-Minishogi variant).
    pub fn startpos(variant: Variant) -> Position {
        let text = match variant {
            Variant::Minishogi => MINISHOGI_START,
            _ => SHOGI_START,
        };
        let variant = if variant == Variant::Minishogi {
            Variant::Minishogi
        } else {
            Variant::Shogi
        };
        Position::from_sfen(variant, text).expect("the start SFEN is valid")
    }

    /// Reads and validates an SFEN for `variant` (`startpos` gives the standard start). The
    /// hands may list kinds in any order; a missing hands field means empty hands and a missing
    /// move number means 1.
    pub fn from_sfen(variant: Variant, text: &str) -> Result<Position, SfenError> {
        Setup::parse(variant, text)?.validate()
    }

    /// The canonical SFEN: `<board> <side> <hands> <move number>`.
    pub fn sfen(&self) -> String {
        let size = self.size();
        let mut s = String::with_capacity(96);
        for rank in 1..=size {
            let mut empty = 0;
            for file in (1..=size).rev() {
                let sq = (rank as usize - 1) * 9 + file as usize - 1;
                let sq = Square::from_index(sq).expect("on board");
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            write!(s, "{empty}").expect("string");
                            empty = 0;
                        }
                        write!(s, "{p}").expect("string");
                    }
                }
            }
            if empty > 0 {
                write!(s, "{empty}").expect("string");
            }
            if rank < size {
                s.push('/');
            }
        }
        s.push_str(if self.turn == Side::SENTE {
            " b "
        } else {
            " w "
        });
        let before = s.len();
        for side in Side::BOTH {
            for (kind, n) in self.hand(side) {
                if n > 1 {
                    write!(s, "{n}").expect("string");
                }
                let c = kind.letter();
                s.push(if side == Side::SENTE {
                    c
                } else {
                    c.to_ascii_lowercase()
                });
            }
        }
        if s.len() == before {
            s.push('-');
        }
        write!(s, " {}", self.ply).expect("string");
        s
    }
}

fn parse_board(pos: &mut Position, board: &str) -> Result<(), SfenError> {
    let size = geometry(pos.variant).size;
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != size as usize {
        return Err(SfenError::RankCount {
            found: ranks.len(),
            expected: size,
        });
    }
    for (r, text) in ranks.iter().enumerate() {
        let rank_letter = (b'a' + r as u8) as char;
        let err = |problem: String| SfenError::Rank {
            rank: rank_letter,
            problem,
        };
        let mut file = size as i32; // next file to fill, counting down
        let mut promoted = false;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10) {
                if promoted {
                    return Err(err(format!(
                        "`+` must be followed by a piece letter, not `{c}`"
                    )));
                }
                if d == 0 {
                    return Err(err("`0` is not a count of empty squares".into()));
                }
                file -= d as i32;
                if file < 0 {
                    return Err(err(format!("more than {size} squares")));
                }
            } else if c == '+' {
                if promoted {
                    return Err(err("`++` is not a piece".into()));
                }
                promoted = true;
            } else if let Some(kind) = PieceKind::from_letter(c) {
                if file < 1 {
                    return Err(err(format!("more than {size} squares")));
                }
                let kind = if promoted {
                    kind.promoted()
                        .ok_or_else(|| err(format!("`+{c}` cannot be promoted")))?
                } else {
                    kind
                };
                promoted = false;
                let side = if c.is_ascii_uppercase() { 0 } else { 1 };
                let sq = r * 9 + file as usize - 1;
                pos.put(sq, side, kind.index());
                file -= 1;
            } else {
                return Err(err(format!("`{c}` is not a piece letter or a digit")));
            }
        }
        if promoted {
            return Err(err("ends with a `+` without a piece".into()));
        }
        if file != 0 {
            return Err(err(format!(
                "describes {} squares, expected {size}",
                size as i32 - file
            )));
        }
    }
    Ok(())
}

fn parse_hands(pos: &mut Position, field: &str) -> Result<(), SfenError> {
    if field == "-" {
        return Ok(());
    }
    let err = |problem: String| SfenError::Hands {
        field: field.to_owned(),
        problem,
    };
    let mut count: Option<u32> = None;
    let mut seen = [[false; 7]; 2];
    for c in field.chars() {
        if let Some(d) = c.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + d;
            if n > 99 {
                return Err(err("a count above 99".into()));
            }
            count = Some(n);
            continue;
        }
        let kind = PieceKind::from_letter(c)
            .filter(|&k| k != PieceKind::King)
            .ok_or_else(|| err(format!("`{c}` is not a piece that can be held")))?;
        let side = if c.is_ascii_uppercase() { 0 } else { 1 };
        let n = count.take().unwrap_or(1);
        if n == 0 {
            return Err(err(format!("a count of 0 before `{c}`")));
        }
        if seen[side][kind.index()] {
            return Err(err(format!("`{c}` is listed twice")));
        }
        seen[side][kind.index()] = true;
        pos.set_hand(side, kind.index(), n as u8);
    }
    if count.is_some() {
        return Err(err("ends with a count without a piece".into()));
    }
    Ok(())
}

/// Everything that keeps a parsed position from occurring: a side with more than one king, or
/// without a king unless the other side has exactly one (a tsume, shogi.md), a
/// piece on a rank it could never leave, two unpromoted pawns of a side on a file, more pieces
/// of a kind than the set holds, the side not to move in check.
fn problems(pos: &Position) -> Vec<SetupProblem> {
    let geo = pos.geo();
    let mut problems = Vec::new();
    let mut kings_ok = true;
    let counts =
        Side::BOTH.map(|side| (pos.by_kind[KING_K] & pos.by_side[side.index()]).count_ones());
    // One side may have no king: the attacker of a tsume (shogi.md). Not both: a position
    // needs the defender's king.
    let tsume = counts.contains(&1) && counts.contains(&0);
    for side in Side::BOTH {
        let s = side.index();
        let kings = counts[s];
        if kings > 1 || (kings == 0 && !tsume) {
            kings_ok = false;
            problems.push(SetupProblem::KingCount { side, found: kings });
        }
        let stuck = [
            (PAWN_K, geo.last_rank[s]),
            (LANCE_K, geo.last_rank[s]),
            (KNIGHT_K, geo.last_two_ranks[s]),
        ];
        for (kind, ranks) in stuck {
            for sq in Bits(pos.by_kind[kind] & pos.by_side[s] & ranks) {
                problems.push(SetupProblem::StuckPiece {
                    side,
                    kind: PieceKind::ALL[kind],
                    square: Square::from_index(sq).expect("on board"),
                });
            }
        }
        let mut files = 0u16;
        let mut nifu = 0u16;
        for sq in Bits(pos.by_kind[PAWN_K] & pos.by_side[s]) {
            let f = sq % 9;
            if files & (1 << f) != 0 {
                nifu |= 1 << f;
            }
            files |= 1 << f;
        }
        for f in 0..9u8 {
            if nifu & (1 << f) != 0 {
                problems.push(SetupProblem::Nifu { side, file: f + 1 });
            }
        }
    }
    for base in 0..7 {
        let kind = PieceKind::ALL[base];
        let mut n = 0u32;
        for k in PieceKind::ALL {
            if k.unpromoted() == kind {
                n += pos.by_kind[k.index()].count_ones();
            }
        }
        n += pos.hands[0][base] as u32 + pos.hands[1][base] as u32;
        if n > geo.set[base] as u32 {
            problems.push(SetupProblem::TooMany {
                kind,
                found: n,
                max: geo.set[base],
            });
        }
    }
    let waiting = !pos.turn;
    if kings_ok && pos.king_attacked(waiting.index()) {
        problems.push(SetupProblem::OpponentInCheck { side: waiting });
    }
    problems
}
