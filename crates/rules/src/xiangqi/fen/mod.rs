//! FEN for the xiangqi family: an unchecked [`Setup`] parsed with precise errors, validated
//! into a [`Position`], and the canonical writer.
//!
//! Forms (xiangqi.md, jieqi.md "Notation"):
//! - Xiangqi: `board side - - halfmove fullmove`, or the short `board side`;
//! - Jieqi: the same two, plus `board side pool halfmove fullmove` (5 fields), where the pool
//!   lists unrevealed identities (`A2B2N2R2C2P5a2b2n2r2c2p5`, `-` for none). Canonical Jieqi
//!   output is the pool form; without a pool field the pool is derived as the full set minus
//!   the revealed pieces on the board.
//! - The side is `w` or `r` (Red) or `b` (Black); `E`/`H` are read as elephant/horse.

use std::fmt;

use super::position::{FULL_SET, Pool, Position, start_kind};
use super::{Occupant, Piece, PieceKind, Square};
use crate::{Side, Variant};

/// The Xiangqi start position.
pub const XIANGQI_START: &str =
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
/// The Jieqi start position as everyone sees it (every piece but the generals covered).
pub const JIEQI_START: &str =
    "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1";

fn side_name(side: Side) -> &'static str {
    match side {
        Side::First => "Red",
        Side::Second => "Black",
    }
}

/// A side, displayed as `Red` or `Black` in error messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SideName(pub Side);

impl fmt::Display for SideName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(side_name(self.0))
    }
}

/// Why a FEN could not be read or does not describe a playable position. Ranks are named by
/// their ICCS number (9 = Black's back rank, listed first in the FEN).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing but whitespace.
    #[error("empty FEN")]
    Empty,
    /// The number of space-separated fields does not fit any accepted form.
    #[error("expected {expected} space-separated fields, found {found}")]
    FieldCount {
        /// Fields found.
        found: usize,
        /// The accepted counts, in words.
        expected: &'static str,
    },
    /// The board does not have 10 ranks.
    #[error("field 1 (board): expected 10 ranks separated by `/`, found {found}")]
    RankCount {
        /// Ranks found.
        found: usize,
    },
    /// A character that is neither a piece letter nor a digit 1-9.
    #[error("field 1 (board), rank {rank}: `{found}` is not a piece letter or a digit 1-9")]
    BadCharacter {
        /// ICCS rank number.
        rank: u8,
        /// The offending character.
        found: char,
    },
    /// A rank describes a number of points other than 9.
    #[error("field 1 (board), rank {rank}: describes {points} points, expected 9")]
    RankLength {
        /// ICCS rank number.
        rank: u8,
        /// How many points the rank text covers.
        points: usize,
    },
    /// `X`/`x` in a Xiangqi FEN.
    #[error(
        "field 1 (board), rank {rank}: covered piece `{found}` on {square}, but covered pieces exist only in jieqi"
    )]
    CoveredInXiangqi {
        /// ICCS rank number.
        rank: u8,
        /// `X` or `x`.
        found: char,
        /// Where.
        square: Square,
    },
    /// A covered piece on a point that is not one of its side's starting points.
    #[error(
        "field 1 (board), rank {rank}: covered {side} piece on {square}, which is not one of {side}'s starting points"
    )]
    CoveredOffStartPoint {
        /// ICCS rank number.
        rank: u8,
        /// The covered piece's side.
        side: SideName,
        /// Where.
        square: Square,
    },
    /// The side field is not `w`, `r` or `b`.
    #[error("field 2 (side to move): expected `w`, `r` or `b`, found `{0}`")]
    BadSide(String),
    /// A placeholder field of the 6-field form is not `-`.
    #[error("field {field}: expected `-`, found `{found}`")]
    BadPlaceholder {
        /// 3 or 4.
        field: u8,
        /// What was there.
        found: String,
    },
    /// A pool field in a Xiangqi FEN.
    #[error("field 3: a pool field (`{0}`) is only for jieqi; xiangqi FENs have `- -` there")]
    PoolInXiangqi(String),
    /// The pool field cannot be read.
    #[error("field 3 (pool): {0}")]
    BadPool(String),
    /// A halfmove or fullmove field that is not a number in range.
    #[error("field {field} ({name}): expected a number{range}, found `{found}`")]
    BadCounter {
        /// Field number.
        field: u8,
        /// `halfmove clock` or `fullmove number`.
        name: &'static str,
        /// The accepted range, in words.
        range: &'static str,
        /// What was there.
        found: String,
    },
    /// A side has no general or more than one.
    #[error("{side} has {found} generals, expected exactly 1")]
    GeneralCount {
        /// The side.
        side: SideName,
        /// How many were found.
        found: usize,
    },
    /// A general outside its palace.
    #[error("{side}'s general on {square} is outside its palace")]
    GeneralOutsidePalace {
        /// The side.
        side: SideName,
        /// Where.
        square: Square,
    },
    /// A piece on a point it could never reach.
    #[error("`{piece}` on {square}: {why}")]
    UnreachablePoint {
        /// The piece.
        piece: Piece,
        /// Where.
        square: Square,
        /// Which rule it breaks.
        why: &'static str,
    },
    /// More of a kind than a full set holds (pool included in Jieqi).
    #[error(
        "{side} has {found} of `{letter}` (on the board{pool_note}), more than the {max} of a full set"
    )]
    TooMany {
        /// The side.
        side: SideName,
        /// The piece letter.
        letter: char,
        /// How many.
        found: usize,
        /// The most a set holds.
        max: u8,
        /// `" and in the pool"` for Jieqi, else empty.
        pool_note: &'static str,
    },
    /// More covered pieces than identities left in the pool.
    #[error("{side} has {covered} covered pieces but only {pool} identities in the pool")]
    PoolTooSmall {
        /// The side.
        side: SideName,
        /// Covered pieces on the board.
        covered: u32,
        /// Identities in the pool.
        pool: u32,
    },
    /// The two generals face each other on an open file (flying general).
    #[error("the generals on {red} and {black} face each other on an open file")]
    GeneralsFacing {
        /// Red's general.
        red: Square,
        /// Black's general.
        black: Square,
    },
    /// The side that just moved left its general attacked.
    #[error("{side} is not to move but its general is in check")]
    OpponentInCheck {
        /// The side not to move.
        side: SideName,
    },
}

/// An unchecked position as read from a FEN: anything a FEN can say, valid or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// What stands on each point, indexed by [`Square::index`].
    pub board: [Option<Occupant>; 90],
    /// The side to move.
    pub turn: Side,
    /// Jieqi pools `[Red, Black]` if the FEN gave them; derived when `None`.
    pub pools: Option<[Pool; 2]>,
    /// Plies since the last capture.
    pub halfmove: u32,
    /// Move number, from 1.
    pub fullmove: u32,
}

impl Setup {
    /// Reads a FEN for `variant` (`startpos` gives the variant's start), checking only its
    /// syntax; [`Setup::validate`] checks the position.
    pub fn parse(variant: Variant, text: &str) -> Result<Setup, FenError> {
        let text = text.trim();
        if text == "startpos" {
            let start = match variant {
                Variant::Jieqi => JIEQI_START,
                _ => XIANGQI_START,
            };
            return Setup::parse(variant, start);
        }
        let fields: Vec<&str> = text.split_whitespace().collect();
        let jieqi = variant == Variant::Jieqi;
        let expected = if jieqi {
            "2 (board side), 5 (board side pool halfmove fullmove) or 6 (board side - - halfmove fullmove)"
        } else {
            "2 (board side) or 6 (board side - - halfmove fullmove)"
        };
        if fields.is_empty() {
            return Err(FenError::Empty);
        }
        let board = parse_board(variant, fields[0], fields.len())?;
        let turn = match fields.get(1) {
            Some(&"w") | Some(&"r") => Side::RED,
            Some(&"b") => Side::BLACK,
            Some(other) => return Err(FenError::BadSide((*other).to_owned())),
            None => {
                return Err(FenError::FieldCount { found: 1, expected });
            }
        };
        let mut setup = Setup {
            board,
            turn,
            pools: None,
            halfmove: 0,
            fullmove: 1,
        };
        let counters = match fields.len() {
            2 => None,
            6 => {
                for (i, field) in fields[2..4].iter().enumerate() {
                    if *field != "-" {
                        if i == 0 && !jieqi && field.chars().any(|c| c.is_ascii_digit()) {
                            return Err(FenError::PoolInXiangqi((*field).to_owned()));
                        }
                        return Err(FenError::BadPlaceholder {
                            field: 3 + i as u8,
                            found: (*field).to_owned(),
                        });
                    }
                }
                Some((fields[4], fields[5], 5))
            }
            5 if jieqi => {
                setup.pools = Some(parse_pool(fields[2])?);
                Some((fields[3], fields[4], 4))
            }
            found => return Err(FenError::FieldCount { found, expected }),
        };
        if let Some((half, full, first)) = counters {
            setup.halfmove = parse_counter(half, first, "halfmove clock", 0)?;
            setup.fullmove = parse_counter(full, first + 1, "fullmove number", 1)?;
        }
        Ok(setup)
    }

    /// Checks the setup against the rules and builds the position: one general per side in
    /// its palace; Xiangqi advisors, elephants and soldiers only where they can stand; Jieqi
    /// covered pieces only on their side's start points; no more pieces than a set; Jieqi
    /// pools consistent with the board; the generals not facing; the side not to move not in
    /// check. The error is the first of [`Setup::problems`].
    pub fn validate(self, variant: Variant) -> Result<Position, FenError> {
        self.check(variant)
            .map_err(|mut problems| problems.swap_remove(0))
    }

    /// Every reason this setup is not a playable position, in board order (`a0` first) and
    /// then per side; empty when [`Setup::validate`] accepts it. Only the validation variants
    /// of [`FenError`] appear: [`FenError::GeneralCount`], [`FenError::GeneralOutsidePalace`],
    /// [`FenError::UnreachablePoint`], [`FenError::CoveredOffStartPoint`],
    /// [`FenError::TooMany`], [`FenError::PoolTooSmall`], [`FenError::GeneralsFacing`] and
    /// [`FenError::OpponentInCheck`]. The check of the generals comes only when both generals
    /// are where they may stand.
    pub fn problems(&self, variant: Variant) -> Vec<FenError> {
        self.check(variant).err().unwrap_or_default()
    }

    fn check(&self, variant: Variant) -> Result<Position, Vec<FenError>> {
        let jieqi = variant == Variant::Jieqi;
        let mut problems = Vec::new();
        let mut position = Position::empty(variant, self.turn);
        position.halfmove = self.halfmove;
        position.fullmove = self.fullmove;
        let mut counts = [[0usize; 7]; 2];
        let mut covered = [0u32; 2];
        let mut generals_placed = true;
        for sq in Square::all() {
            let Some(occupant) = self.board[sq.index()] else {
                continue;
            };
            let side = occupant.side();
            let kind = match occupant {
                Occupant::Covered(side) => match start_kind(side, sq) {
                    // jieqi.md: a covered piece always stands on one of its side's start
                    // points (the general's excepted: generals are never covered).
                    Some(kind) if kind != PieceKind::General && jieqi => {
                        covered[side.index()] += 1;
                        kind
                    }
                    _ => {
                        problems.push(FenError::CoveredOffStartPoint {
                            rank: sq.rank(),
                            side: SideName(side),
                            square: sq,
                        });
                        continue;
                    }
                },
                Occupant::Piece(piece) => {
                    if let Err(problem) = check_point(piece, sq, jieqi) {
                        if piece.kind == PieceKind::General {
                            generals_placed = false;
                        }
                        problems.push(problem);
                    }
                    counts[side.index()][piece.kind.index()] += 1;
                    piece.kind
                }
            };
            position.put(sq.index(), occupant, kind);
        }
        let pools = match self.pools {
            Some(pools) => pools,
            None if jieqi => {
                let mut pools = [Pool::FULL; 2];
                for side in Side::BOTH {
                    for kind in PieceKind::ALL {
                        let left = FULL_SET[kind.index()]
                            .saturating_sub(counts[side.index()][kind.index()] as u8);
                        pools[side.index()]
                            .set(kind, if kind == PieceKind::General { 0 } else { left });
                    }
                }
                pools
            }
            None => [Pool::EMPTY; 2],
        };
        for side in Side::BOTH {
            let s = side.index();
            if counts[s][PieceKind::General.index()] != 1 {
                generals_placed = false;
                problems.push(FenError::GeneralCount {
                    side: SideName(side),
                    found: counts[s][PieceKind::General.index()],
                });
            }
            for kind in PieceKind::ALL {
                let found = counts[s][kind.index()] + pools[s].count(kind) as usize;
                if kind != PieceKind::General && found > FULL_SET[kind.index()] as usize {
                    problems.push(FenError::TooMany {
                        side: SideName(side),
                        letter: Piece::new(side, kind).fen_letter(),
                        found,
                        max: FULL_SET[kind.index()],
                        pool_note: if jieqi { " and in the pool" } else { "" },
                    });
                }
            }
            if covered[s] > pools[s].total() {
                problems.push(FenError::PoolTooSmall {
                    side: SideName(side),
                    covered: covered[s],
                    pool: pools[s].total(),
                });
            }
        }
        position.pools = pools;
        if generals_placed {
            let (red, black) = (position.general(Side::RED), position.general(Side::BLACK));
            if position.generals_face() {
                problems.push(FenError::GeneralsFacing { red, black });
            } else if position.side_in_check(!self.turn) {
                problems.push(FenError::OpponentInCheck {
                    side: SideName(!self.turn),
                });
            }
        }
        if problems.is_empty() {
            Ok(position)
        } else {
            Err(problems)
        }
    }
}

impl Position {
    /// Whether the two generals stand on one file with nothing between them (xiangqi.md,
    /// "flying general"): never allowed, whoever is to move.
    fn generals_face(&self) -> bool {
        let (red, black) = (self.general(Side::RED), self.general(Side::BLACK));
        red.file() == black.file()
            && (red.rank() + 1..black.rank()).all(|rank| {
                let between = Square::new(red.file(), rank).expect("on board");
                self.occupant(between).is_none()
            })
    }
}

/// Rejects a face-up piece on a point its kind can never occupy (xiangqi.md "Pieces";
/// jieqi.md frees revealed advisors, elephants and soldiers).
fn check_point(piece: Piece, sq: Square, jieqi: bool) -> Result<(), FenError> {
    let side = piece.side;
    let rank = sq.relative_rank(side);
    let file = sq.file();
    let advisor_point = sq.in_palace(side) && (file + rank) % 2 == 1;
    let elephant_point =
        sq.on_own_half(side) && file % 2 == 0 && rank % 2 == 0 && (file + rank) % 4 == 2;
    let soldier_point = rank >= 5 || (rank >= 3 && file % 2 == 0);
    let why = match piece.kind {
        PieceKind::General if !sq.in_palace(side) => {
            return Err(FenError::GeneralOutsidePalace {
                side: SideName(side),
                square: sq,
            });
        }
        PieceKind::Advisor if !(jieqi || advisor_point) => {
            "an advisor stays on the five diagonal points of its palace"
        }
        PieceKind::Elephant if !(jieqi || elephant_point) => {
            "an elephant stays on its seven points on its own side of the river"
        }
        PieceKind::Soldier if !(jieqi || soldier_point) => {
            "a soldier never stands behind or beside its start before crossing the river"
        }
        _ => return Ok(()),
    };
    Err(FenError::UnreachablePoint {
        piece,
        square: sq,
        why,
    })
}

fn parse_board(
    variant: Variant,
    text: &str,
    fields: usize,
) -> Result<[Option<Occupant>; 90], FenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 10 {
        // A single word that is not a board: say so plainly.
        if fields == 1 && ranks.len() == 1 {
            return Err(FenError::RankCount { found: 1 });
        }
        return Err(FenError::RankCount { found: ranks.len() });
    }
    let mut board = [None; 90];
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 9 - i as u8;
        let mut file = 0usize;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10).filter(|&d| d >= 1) {
                file += d as usize;
                continue;
            }
            let occupant = match c {
                'X' | 'x' => {
                    let side = if c == 'X' { Side::RED } else { Side::BLACK };
                    Occupant::Covered(side)
                }
                _ => match Piece::from_fen_letter(c) {
                    Some(piece) => Occupant::Piece(piece),
                    None => return Err(FenError::BadCharacter { rank, found: c }),
                },
            };
            if file >= 9 {
                file += 1;
                continue; // counted as too long below
            }
            let sq = Square::new(file as u8, rank).expect("on board");
            if occupant.is_covered() && variant != Variant::Jieqi {
                return Err(FenError::CoveredInXiangqi {
                    rank,
                    found: c,
                    square: sq,
                });
            }
            board[sq.index()] = Some(occupant);
            file += 1;
        }
        if file != 9 {
            return Err(FenError::RankLength { rank, points: file });
        }
    }
    Ok(board)
}

fn parse_pool(text: &str) -> Result<[Pool; 2], FenError> {
    let mut pools = [Pool::EMPTY; 2];
    if text == "-" {
        return Ok(pools);
    }
    let mut seen = [[false; 7]; 2];
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let piece = Piece::from_fen_letter(c)
            .filter(|p| p.kind != PieceKind::General)
            .ok_or_else(|| {
                FenError::BadPool(format!(
                    "`{c}` is not a pool letter (A B N R C P, lowercase for Black)"
                ))
            })?;
        let mut digits = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            digits.push(*d);
            chars.next();
        }
        let count: u8 = digits.parse().map_err(|_| {
            FenError::BadPool(format!("`{c}` must be followed by its count, like `{c}2`"))
        })?;
        let (s, k) = (piece.side.index(), piece.kind.index());
        if seen[s][k] {
            return Err(FenError::BadPool(format!("`{c}` is listed twice")));
        }
        seen[s][k] = true;
        if count > FULL_SET[k] {
            return Err(FenError::BadPool(format!(
                "{count} of `{c}` is more than the {} of a full set",
                FULL_SET[k]
            )));
        }
        pools[s].set(piece.kind, count);
    }
    Ok(pools)
}

fn parse_counter(text: &str, field: u8, name: &'static str, min: u32) -> Result<u32, FenError> {
    let range = if min == 0 {
        " (0 or more)"
    } else {
        " (1 or more)"
    };
    text.parse::<u32>()
        .ok()
        .filter(|&n| n >= min && n <= 1_000_000)
        .ok_or_else(|| FenError::BadCounter {
            field,
            name,
            range,
            found: text.to_owned(),
        })
}

impl Position {
    /// The board field of the FEN.
    pub fn board_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                let sq = Square::new(file, rank).expect("on board");
                match self.occupant(sq) {
                    None => empty += 1,
                    Some(o) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(o.fen_letter());
                    }
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                s.push('/');
            }
        }
        s
    }

    /// The canonical FEN: `board w|b - - halfmove fullmove` (Xiangqi) or
    /// `board w|b pool halfmove fullmove` (Jieqi).
    pub fn to_fen(&self) -> String {
        let side = if self.turn == Side::RED { 'w' } else { 'b' };
        let middle = if self.is_jieqi() {
            let pool = format!(
                "{}{}",
                self.pools[0].fen_text(Side::RED),
                self.pools[1].fen_text(Side::BLACK)
            );
            if pool.is_empty() {
                "-".to_owned()
            } else {
                pool
            }
        } else {
            "- -".to_owned()
        };
        format!(
            "{} {side} {middle} {} {}",
            self.board_fen(),
            self.halfmove,
            self.fullmove
        )
    }

    /// The unchecked setup of this position (to edit and validate again).
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 90];
        for (sq, o) in self.occupants() {
            board[sq.index()] = Some(o);
        }
        Setup {
            board,
            turn: self.turn,
            pools: self.is_jieqi().then_some(self.pools),
            halfmove: self.halfmove,
            fullmove: self.fullmove,
        }
    }

    /// Reads and validates a FEN for `variant` (`startpos` accepted).
    pub fn parse_fen(variant: Variant, text: &str) -> Result<Position, FenError> {
        Setup::parse(variant, text)?.validate(variant)
    }
}

#[cfg(test)]
mod tests;
