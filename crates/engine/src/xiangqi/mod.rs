//! The xiangqi family as a game tree: Xiangqi, and Jieqi played from one side's knowledge.
//!
//! A [`XiangqiNode`] is a public position plus the identities each side's covered pieces
//! may still be, as the searching side knows them ([`Knowledge`]). A move of a covered piece
//! is a chance node: one child per identity still unseen, weighted by how many remain.
//! Nothing here can hold a Jieqi deal: the engine is built from a public position and a view.

pub mod eval;

use jiang_rules::jieqi::JieqiView;
use jiang_rules::xiangqi::{self, Move, PieceKind, Position};
use jiang_rules::{Outcome, Side, Variant};

use crate::see::{self, Exchange};
use crate::tree::{Chance, GameTree, Line, Verdict};

/// Per side, how many of each identity ([`PieceKind::index`]) the searching side has not
/// seen yet: what that side's covered pieces may be. All zero in Xiangqi.
pub type Unseen = [[u8; 7]; 2];

/// Random keys for the unseen counts, so that the table tells apart nodes that differ only
/// in what is still hidden.
const fn unseen_keys() -> [[u64; 7]; 2] {
    let mut keys = [[0u64; 7]; 2];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut s = 0;
    while s < 2 {
        let mut k = 0;
        while k < 7 {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            keys[s][k] = z ^ (z >> 31);
            k += 1;
        }
        s += 1;
    }
    keys
}

static UNSEEN_KEYS: [[u64; 7]; 2] = unseen_keys();

fn unseen_key(unseen: &Unseen) -> u64 {
    let mut key = 0u64;
    for s in 0..2 {
        for k in 1..7 {
            key = key.wrapping_add(UNSEEN_KEYS[s][k].wrapping_mul(unseen[s][k] as u64));
        }
    }
    key
}

/// A node of the xiangqi-family tree.
#[derive(Clone, Debug)]
pub struct XiangqiNode {
    pub(crate) position: Position,
    pub(crate) unseen: Unseen,
    key: u64,
}

impl XiangqiNode {
    /// A node from a public position and what the searching side has not seen.
    fn new(position: Position, unseen: Unseen) -> XiangqiNode {
        let key = position.hash() ^ unseen_key(&unseen);
        XiangqiNode {
            position,
            unseen,
            key,
        }
    }

    /// The public position.
    pub fn position(&self) -> &Position {
        &self.position
    }
}

/// What the searching side knows of a Jieqi game: the public start, the public moves (with
/// the reveals everyone saw) and, per side, the identities it has not seen yet. Built from a
/// [`JieqiView`] or from public text; there is no way to give it a deal.
#[derive(Clone, Debug)]
pub struct Knowledge {
    start: Position,
    moves: Vec<Move>,
    unseen: Unseen,
}

/// Why a game could not be read for the engine.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The FEN is not valid.
    #[error("invalid position: {0}")]
    Fen(#[from] xiangqi::FenError),
    /// A move is not legal.
    #[error("move {index} (`{text}`) is not legal: {reason}")]
    Move {
        /// 1-based index in the list.
        index: usize,
        /// The move text.
        text: String,
        /// Why.
        reason: String,
    },
}

fn counts_of(pool: impl Fn(PieceKind) -> u8) -> [u8; 7] {
    let mut out = [0; 7];
    for kind in PieceKind::ALL {
        out[kind.index()] = pool(kind);
    }
    out
}

impl Knowledge {
    /// From public text: a FEN (`startpos` allowed) and ICCS moves (reveals carry their
    /// suffix). The searching side knows only what is public: each side's public pool.
    ///
    /// Jieqi also takes JieqiBox's FEN forms (see [`jieqibox_fen`]): `board side POOL
    /// CAPTURED halfmove fullmove` and the older `board POOL side - - halfmove fullmove`.
    /// There POOL is what the searching side has not seen and CAPTURED the covered pieces it
    /// saw captured: publicly unrevealed (the public pool is both), known to the searcher (so
    /// not among the identities a covered piece may still be). A JieqiBox move may carry the
    /// identity of a covered piece it captures (`a9a0r`, or after a reveal suffix
    /// `b0c2Nr`): the searching side saw it, so it leaves that side's unseen identities.
    pub fn from_public(
        variant: Variant,
        fen: &str,
        moves: &[&str],
    ) -> Result<Knowledge, InputError> {
        let (start, mut known) = match jieqibox_fen(variant, fen)? {
            Some((start, captured)) => (start, captured),
            None => (Position::parse_fen(variant, fen)?, [[0; 7]; 2]),
        };
        let mut position = start.clone();
        let mut played = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let bad = |reason: String| InputError::Move {
                index: i + 1,
                text: (*text).to_owned(),
                reason,
            };
            let (text_move, captured) = split_capture_suffix(&position, text);
            let mv = position
                .parse_move(text_move)
                .map_err(|e| bad(e.to_string()))?;
            if let Some(piece) = captured {
                let target = text_move[2..4]
                    .parse()
                    .map_err(|_| bad("no target point".to_owned()))?;
                match position.occupant(target) {
                    Some(xiangqi::Occupant::Covered(side)) if side == piece.side => {
                        known[side.index()][piece.kind.index()] += 1;
                    }
                    Some(xiangqi::Occupant::Piece(p)) if p == piece => {}
                    _ => {
                        return Err(bad(format!(
                            "`{}` names a captured piece, but the move does not capture one like it",
                            piece.fen_letter()
                        )));
                    }
                }
            }
            position.play(mv);
            played.push(mv);
        }
        // A captured identity the searcher knows is not among those it has not seen.
        let unseen_of = |side: Side| {
            counts_of(|k| {
                position
                    .pool(side)
                    .count(k)
                    .saturating_sub(known[side.index()][k.index()])
            })
        };
        let unseen = [unseen_of(Side::RED), unseen_of(Side::BLACK)];
        Ok(Knowledge {
            start,
            moves: played,
            unseen,
        })
    }

    /// From one observer's view of a Jieqi game (what a server sends a player): the public
    /// start and moves, and the pools of identities this observer has not seen (it knows the
    /// covered pieces it captured).
    pub fn from_view(view: &JieqiView) -> Result<Knowledge, InputError> {
        let texts: Vec<&str> = view.moves.iter().map(String::as_str).collect();
        let mut knowledge = Knowledge::from_public(Variant::Jieqi, &view.initial_fen, &texts)?;
        for side in Side::BOTH {
            let pool = view.pools[side.index()];
            let public = knowledge.unseen[side.index()];
            // What this observer has not seen can only be less than what is publicly unseen.
            knowledge.unseen[side.index()] = counts_of(|k| pool.count(k).min(public[k.index()]));
        }
        Ok(knowledge)
    }

    /// The public position now.
    pub fn position(&self) -> Position {
        let mut p = self.start.clone();
        for &mv in &self.moves {
            p.play(mv);
        }
        p
    }

    /// The node the engine searches from (the current position with this knowledge).
    pub fn node(&self) -> XiangqiNode {
        XiangqiNode::new(self.position(), self.unseen)
    }

    /// The line to search: the current node and the positions before it since the last
    /// capture, with the moves leading on.
    pub(crate) fn line(&self) -> Line<XiangqiNode> {
        let mut positions = vec![self.start.clone()];
        for &mv in &self.moves {
            let next = positions.last().expect("start").after(mv);
            positions.push(next);
        }
        let current = positions.pop().expect("start");
        let keep = (current.halfmove_clock() as usize).min(positions.len());
        let first = positions.len() - keep;
        let history = positions[first..]
            .iter()
            .map(|p| XiangqiNode::new(p.clone(), self.unseen))
            .collect();
        let moves = self.moves[first..].to_vec();
        Line {
            history,
            moves,
            root: XiangqiNode::new(current, self.unseen),
        }
    }
}

/// Per side and kind, identities of covered pieces captured that the searching side knows.
type Captured = [[u8; 7]; 2];

/// Reads JieqiBox's Jieqi FEN forms, or `None` when `text` is not one of them (Jiang's own
/// forms are left to the rules crate):
/// - `board side POOL CAPTURED halfmove fullmove` (its "new" form; CAPTURED since its
///   2025-09 versions), POOL or CAPTURED not `-` (with both `-` it reads as Jiang's own
///   six-field form: the pool is derived from the board);
/// - `board POOL side - - halfmove fullmove` (its "old" form, seven fields);
/// - `board side - - halfmove fullmove POOL` (its human-vs-computer mode's FEN, seven fields).
///
/// POOL counts, per side by letter case, the face-down identities not yet revealed that the
/// searching side has not seen; CAPTURED the covered pieces captured whose identity it knows
/// (those it captured itself: jieqi.md, "What each observer may know"). Publicly neither is
/// revealed, so the position's public pool is their sum; the searcher's unseen identities
/// are POOL alone.
pub fn jieqibox_fen(
    variant: Variant,
    text: &str,
) -> Result<Option<(Position, Captured)>, InputError> {
    if variant != Variant::Jieqi {
        return Ok(None);
    }
    let fields: Vec<&str> = text.split_whitespace().collect();
    let is_side = |f: &str| matches!(f, "w" | "r" | "b");
    let (board, side, pool, captured, half, full) = match fields.as_slice() {
        [board, side, pool, captured, half, full]
            if is_side(side) && (*pool != "-" || *captured != "-") =>
        {
            (*board, *side, *pool, *captured, *half, *full)
        }
        [board, pool, side, "-", "-", half, full] if is_side(side) => {
            (*board, *side, *pool, "-", *half, *full)
        }
        // What its human-vs-computer mode writes with the new form selected (the
        // limited-knowledge FEN is not converted): the pool last.
        [board, side, "-", "-", half, full, pool] if is_side(side) => {
            (*board, *side, *pool, "-", *half, *full)
        }
        _ => return Ok(None),
    };
    let pool = read_counts(pool, 3, "pool")?;
    let captured = read_counts(captured, 4, "captured")?;
    let mut public = String::new();
    for side in Side::BOTH {
        for kind in PieceKind::COVERED {
            let n = pool[side.index()][kind.index()] + captured[side.index()][kind.index()];
            if n > 0 {
                public.push_str(&format!(
                    "{}{n}",
                    xiangqi::Piece::new(side, kind).fen_letter()
                ));
            }
        }
    }
    if public.is_empty() {
        public.push('-');
    }
    let jiang = format!("{board} {side} {public} {half} {full}");
    Ok(Some((Position::parse_fen(variant, &jiang)?, captured)))
}

/// Reads a JieqiBox count field (`R2N2…r2n2…`, a letter optionally followed by its count,
/// `-` for none).
fn read_counts(text: &str, field: u8, name: &str) -> Result<Captured, InputError> {
    let mut counts = [[0u8; 7]; 2];
    if text == "-" {
        return Ok(counts);
    }
    let bad = |why: String| {
        InputError::Fen(xiangqi::FenError::BadPool(format!(
            "field {field} ({name}, JieqiBox form): {why}"
        )))
    };
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let piece = xiangqi::Piece::from_fen_letter(c)
            .filter(|p| p.kind != PieceKind::General)
            .ok_or_else(|| {
                bad(format!(
                    "`{c}` is not a piece letter (A B N R C P, lowercase for Black)"
                ))
            })?;
        let mut digits = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            digits.push(*d);
            chars.next();
        }
        let n: u8 = if digits.is_empty() {
            1
        } else {
            digits
                .parse()
                .map_err(|_| bad(format!("`{c}{digits}`: the count is too large")))?
        };
        let slot = &mut counts[piece.side.index()][piece.kind.index()];
        *slot = slot.saturating_add(n);
        if *slot > jiang_rules::xiangqi::FULL_SET[piece.kind.index()] {
            return Err(bad(format!("more `{c}` than a full set holds")));
        }
    }
    Ok(counts)
}

/// Splits JieqiBox's captured-identity suffix off a Jieqi move: `a9a0r` (a letter of the
/// side not moving after the four characters) or `b0c2Nr` (a reveal letter, then the
/// captured piece's). Other text is left whole for the rules to read.
fn split_capture_suffix<'a>(
    position: &Position,
    text: &'a str,
) -> (&'a str, Option<xiangqi::Piece>) {
    if position.variant() != Variant::Jieqi || !text.is_ascii() {
        return (text, None);
    }
    let letter = |i: usize| {
        text[i..i + 1]
            .chars()
            .next()
            .and_then(xiangqi::Piece::from_fen_letter)
            .filter(|p| p.side != position.turn())
    };
    match text.len() {
        5 => match letter(4) {
            Some(p) => (&text[..4], Some(p)),
            None => (text, None),
        },
        6 => match letter(5) {
            Some(p) => (&text[..5], Some(p)),
            None => (text, None),
        },
        _ => (text, None),
    }
}

/// Piece worth for ordering captures (a covered piece: the pool's average).
fn worth(node: &XiangqiNode, side: Side, kind: PieceKind, covered: bool) -> i32 {
    if covered {
        eval::covered_worth(node, side)
    } else {
        eval::piece_worth(node.position.variant(), kind)
    }
}

impl Exchange for XiangqiNode {
    #[inline]
    fn attackers(&self, target: usize, side: Side, removed: u128) -> u128 {
        self.position.attackers_of(target, side, removed)
    }

    #[inline]
    fn worth_at(&self, index: usize) -> i32 {
        self.position
            .cell(index)
            .map_or(0, |c| worth(self, c.side, c.kind, c.covered))
    }
}

impl GameTree for XiangqiNode {
    type Move = Move;

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }

    #[inline]
    fn turn(&self) -> Side {
        self.position.turn()
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.position.in_check()
    }

    #[inline]
    fn generate(&self, out: &mut Vec<Move>) {
        self.position.legal_moves_into(out);
    }

    fn chances(&self, mv: Move, out: &mut Vec<Chance>) {
        out.clear();
        if !self.position.is_covered_at(mv.from()) {
            return;
        }
        let us = self.turn();
        let pool = self.position.pool(us);
        for kind in PieceKind::ALL {
            let public = pool.count(kind);
            let n = self.unseen[us.index()][kind.index()].min(public);
            if n > 0 {
                out.push(Chance {
                    weight: n as u32,
                    tag: kind.index() as u8,
                });
            }
        }
        if out.is_empty() {
            // Nothing unseen that the public pool still allows: fall back on the public pool.
            for kind in pool.kinds() {
                out.push(Chance {
                    weight: pool.count(kind) as u32,
                    tag: kind.index() as u8,
                });
            }
        }
    }

    fn chance_offset(&self, _mv: Move, tag: u8) -> i32 {
        let us = self.turn();
        eval::piece_worth(self.position.variant(), PieceKind::ALL[tag as usize])
            - eval::covered_worth(self, us)
    }

    #[inline]
    fn play(&self, mv: Move, tag: Option<u8>) -> XiangqiNode {
        let mut position = self.position.clone();
        let mut unseen = self.unseen;
        let reveal = tag.map(|t| PieceKind::ALL[t as usize]);
        if let Some(kind) = reveal {
            let us = self.turn().index();
            unseen[us][kind.index()] = unseen[us][kind.index()].saturating_sub(1);
        }
        position.play_revealing(mv, reveal);
        let key = if reveal.is_some() {
            position.hash() ^ unseen_key(&unseen)
        } else {
            position.hash() ^ (self.key ^ self.position.hash())
        };
        XiangqiNode {
            position,
            unseen,
            key,
        }
    }

    fn gives_check(&self, mv: Move) -> bool {
        // A reveal's identity is chance's part: treat it as checking (never pruned).
        self.position.is_covered_at(mv.from()) || self.position.gives_check(mv)
    }

    #[inline]
    fn is_noisy(&self, mv: Move) -> bool {
        self.position.captured(mv).is_some()
    }

    fn see_at_least(&self, mv: Move, threshold: i32) -> bool {
        let (from, to) = (mv.from().index(), mv.to().index());
        let victim = self.worth_at(to);
        let mover = self.worth_at(from);
        see::at_least(self, self.turn(), Some(from), to, victim, mover, threshold)
    }

    fn mvv_lva(&self, mv: Move) -> i32 {
        let victim = self
            .position
            .captured(mv)
            .map_or(0, |c| worth(self, c.side, c.kind, c.covered));
        let attacker = self
            .position
            .cell(mv.from().index())
            .map_or(0, |c| worth(self, c.side, c.kind, c.covered));
        victim * 8 - attacker / 8
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        eval::evaluate(self)
    }

    fn null_move_ok(&self) -> bool {
        // Zugzwang guard: keep at least two pieces that move far (chariot, horse, cannon or
        // covered pieces) before passing.
        let us = self.turn();
        let mut strong = 0;
        let own = self.position.occupancy(us);
        let mut bits = own;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            if let Some(c) = self.position.cell(i) {
                if c.covered
                    || matches!(
                        c.kind,
                        PieceKind::Chariot | PieceKind::Horse | PieceKind::Cannon
                    )
                {
                    strong += 1;
                }
            }
        }
        strong >= 2
    }

    fn pass(&self) -> XiangqiNode {
        XiangqiNode::new(self.position.passed(), self.unseen)
    }

    fn rules_score(&self) -> Option<i32> {
        let p = &self.position;
        if p.halfmove_clock() >= xiangqi::MOVE_LIMIT_PLIES {
            return Some(0);
        }
        if !p.can_ever_check(Side::RED) && !p.can_ever_check(Side::BLACK) {
            return Some(0);
        }
        None
    }

    fn repetition_horizon(&self) -> usize {
        self.position.halfmove_clock() as usize
    }

    fn same_position(&self, other: &XiangqiNode) -> bool {
        self.position.same_placement(&other.position) && self.unseen == other.unseen
    }

    fn cycle_verdict(cycle: &[XiangqiNode], moves: &[Move]) -> Verdict {
        let positions: Vec<Position> = cycle.iter().map(|n| n.position.clone()).collect();
        verdict(xiangqi::cycle_verdict(&positions, moves))
    }

    #[inline]
    fn encode(mv: Move) -> u16 {
        1 + (mv.from().index() * 90 + mv.to().index()) as u16
    }

    fn move_text(&self, mv: Move) -> String {
        mv.iccs()
    }
}

fn verdict(outcome: Outcome) -> Verdict {
    match outcome.winner {
        Some(side) => Verdict::Win(side),
        None => Verdict::Draw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_covered_move_is_a_chance_over_the_unseen_pool() {
        let knowledge = Knowledge::from_public(Variant::Jieqi, "startpos", &[]).unwrap();
        let node = knowledge.node();
        let mv = node
            .position
            .legal_moves_unrevealed()
            .into_iter()
            .find(|m| node.position.is_covered_at(m.from()))
            .expect("covered pieces can move");
        let mut chances = Vec::new();
        node.chances(mv, &mut chances);
        let weights: Vec<(PieceKind, u32)> = chances
            .iter()
            .map(|c| (PieceKind::ALL[c.tag as usize], c.weight))
            .collect();
        use PieceKind::*;
        assert_eq!(
            weights,
            vec![
                (Advisor, 2),
                (Elephant, 2),
                (Horse, 2),
                (Chariot, 2),
                (Cannon, 2),
                (Soldier, 5)
            ]
        );
        // Revealing a chariot leaves one unseen, and the key changes with it.
        let child = node.play(mv, Some(Chariot.index() as u8));
        assert_eq!(child.unseen[0][Chariot.index()], 1);
        assert_ne!(child.key(), node.play(mv, Some(Cannon.index() as u8)).key());
        // A covered piece is worth its pool's average.
        let average = (2 * (260 + 270 + 420 + 920 + 460) + 5 * 110) / 15;
        assert_eq!(eval::covered_worth(&node, Side::RED), average);
    }

    /// The exchange on a point: a chariot that takes a soldier guarded by a horse loses the
    /// difference, the same capture without the guard wins the soldier.
    #[test]
    fn a_guarded_soldier_is_a_losing_capture_for_a_chariot() {
        let node = |fen: &str| {
            Knowledge::from_public(Variant::Xiangqi, fen, &[])
                .unwrap()
                .node()
        };
        let guarded = node("3k5/9/9/9/2n6/4p4/9/9/4R4/4K4 w - - 0 1");
        let alone = node("3k5/9/9/9/9/4p4/9/9/4R4/4K4 w - - 0 1");
        let take = |n: &XiangqiNode| n.position().parse_move("e1e4").unwrap();
        let soldier = eval::piece_worth(Variant::Xiangqi, PieceKind::Soldier);
        let chariot = eval::piece_worth(Variant::Xiangqi, PieceKind::Chariot);
        assert!(guarded.see_at_least(take(&guarded), soldier - chariot));
        assert!(!guarded.see_at_least(take(&guarded), soldier - chariot + 1));
        assert!(alone.see_at_least(take(&alone), soldier));
        assert!(!alone.see_at_least(take(&alone), soldier + 1));
    }

    #[test]
    fn xiangqi_moves_are_never_chances() {
        let node = Knowledge::from_public(Variant::Xiangqi, "startpos", &[])
            .unwrap()
            .node();
        let mut moves = Vec::new();
        node.generate(&mut moves);
        assert_eq!(moves.len(), 44);
        let mut chances = Vec::new();
        for mv in moves {
            node.chances(mv, &mut chances);
            assert!(chances.is_empty());
        }
    }

    #[test]
    fn jieqibox_pool_is_what_the_searcher_has_not_seen() {
        // Red took a covered black piece on i6 and saw a pawn (CAPTURED `p1`); Black took a
        // covered red piece on a3 that Red never saw (still in Red's POOL).
        let fen = "1xxxkxxxx/9/1x5x1/x1x1x1x1R/9/9/r1X1X1X1X/1X5X1/9/XXXXKXXX1 w R1r1N2n2B2b2A2a2C2c2P5p4 p1 0 1";
        let k = Knowledge::from_public(Variant::Jieqi, fen, &[]).unwrap();
        let pawn = PieceKind::Soldier.index();
        // Publicly nothing was revealed of the captured pawn: the public pool keeps it.
        assert_eq!(k.position().pool(Side::BLACK).count(PieceKind::Soldier), 5);
        // But Red knows it: one pawn fewer among what Black's covered pieces may be.
        assert_eq!(k.unseen[Side::BLACK.index()][pawn], 4);
        assert_eq!(k.unseen[Side::RED.index()][pawn], 5);
        assert_eq!(k.unseen[Side::RED.index()][PieceKind::Chariot.index()], 1);
        // A capture suffix on a move teaches the same.
        let start = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w R2N2B2A2C2P5r2n2b2a2c2p5 - 0 1";
        let k =
            Knowledge::from_public(Variant::Jieqi, start, &["h2e2C", "a6a5p", "e2e6n"]).unwrap();
        assert_eq!(k.unseen[Side::BLACK.index()][PieceKind::Horse.index()], 1);
        assert_eq!(k.unseen[Side::BLACK.index()][pawn], 4);
        // JieqiBox's human-vs-computer form: the pool last.
        let last = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w - - 0 1 R2r2N2n2B2b2A2a2C2c2P5p5";
        let k = Knowledge::from_public(Variant::Jieqi, last, &[]).unwrap();
        assert_eq!(k.unseen[Side::BLACK.index()][pawn], 5);
        // Jiang's own five-field form is the searcher's unseen pool as is.
        let own = "xxxxkxxxx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X5X1/9/XXXXKXXXX w A2B2N2R2C2P5a2b2n2r2c2p5 0 1";
        let k = Knowledge::from_public(Variant::Jieqi, own, &[]).unwrap();
        assert_eq!(k.unseen[Side::BLACK.index()][pawn], 5);
    }
}
