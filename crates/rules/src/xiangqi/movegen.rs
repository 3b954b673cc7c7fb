//! Legal move generation, check detection, `play` and perft: one generator for Xiangqi and
//! Jieqi, the variant picking the few behaviours that differ (free revealed advisors and
//! elephants, reveals).

use super::bitboard::{
    ADVISOR_PALACE, Bitboard, Bits, DIAGONAL_STEPS, ELEPHANT_LEAPS, GENERAL_STEPS, HORSE_ATTACKERS,
    HORSE_LEGS, RAYS, ROTATED, SOLDIER_ATTACKERS, SOLDIER_STEPS, bit, on_own_half, slider_attacks,
    zobrist,
};
use super::moves::Move;
use super::position::{COVERED_BIT, Position, cell_code, code_kind, side_of};
use super::{Piece, PieceKind, Square};
use crate::Side;

pub(super) const GENERAL: usize = PieceKind::General as usize;
pub(super) const ADVISOR: usize = PieceKind::Advisor as usize;
pub(super) const ELEPHANT: usize = PieceKind::Elephant as usize;
pub(super) const HORSE: usize = PieceKind::Horse as usize;
pub(super) const CHARIOT: usize = PieceKind::Chariot as usize;
pub(super) const CANNON: usize = PieceKind::Cannon as usize;
pub(super) const SOLDIER: usize = PieceKind::Soldier as usize;

/// The most legal from-to pairs a xiangqi position can have is well under 256 (two chariots
/// and two cannons reach at most 17 points each, everything else far fewer).
const MAX_PAIRS: usize = 256;

/// A fixed-capacity list of legal from-to pairs (no reveal yet): no heap allocation.
pub(crate) struct PairList {
    pairs: [(u8, u8); MAX_PAIRS],
    len: usize,
}

impl PairList {
    fn new() -> PairList {
        PairList {
            pairs: [(0, 0); MAX_PAIRS],
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, from: usize, to: usize) {
        self.pairs[self.len] = (from as u8, to as u8);
        self.len += 1;
    }

    pub(crate) fn as_slice(&self) -> &[(u8, u8)] {
        &self.pairs[..self.len]
    }
}

impl Position {
    /// Calls `emit(from, targets)` for every piece of the side to move with its pseudo-legal
    /// targets (geometry, blocking and own pieces respected; the general's safety not yet).
    #[inline(always)]
    pub(crate) fn for_each_pseudo(&self, emit: impl FnMut(usize, Bitboard)) {
        self.for_each_pseudo_of(self.turn.index(), emit);
    }

    /// [`Position::for_each_pseudo`] for the pieces of the side with index `us`.
    #[inline(always)]
    pub(crate) fn for_each_pseudo_of(&self, us: usize, mut emit: impl FnMut(usize, Bitboard)) {
        let them = 1 - us;
        let own = self.occ[us];
        let all = own | self.occ[them];
        let free = self.is_jieqi();
        let p = &self.pieces[us];

        let k = self.generals[us] as usize;
        emit(k, GENERAL_STEPS[us][k] & !own);
        for from in Bits(p[ADVISOR]) {
            // Jieqi: a revealed advisor steps diagonally anywhere; covered ones (and every
            // Xiangqi advisor) stay in the palace (jieqi.md, "Revealed pieces").
            let steps = if free && self.covered & bit(from) == 0 {
                DIAGONAL_STEPS[from]
            } else {
                ADVISOR_PALACE[us][from]
            };
            emit(from, steps & !own);
        }
        for from in Bits(p[ELEPHANT]) {
            // Jieqi: a revealed elephant may cross the river; the eye still blocks.
            let crosses = free && self.covered & bit(from) == 0;
            let mut targets = 0;
            for leap in &ELEPHANT_LEAPS[from] {
                let to = leap.to as usize;
                if to < 90
                    && all & bit(leap.block as usize) == 0
                    && (crosses || on_own_half(us, to))
                {
                    targets |= bit(to);
                }
            }
            emit(from, targets & !own);
        }
        for from in Bits(p[HORSE]) {
            let mut targets = 0;
            for &(leg, through) in &HORSE_LEGS[from] {
                if leg < 90 && all & bit(leg as usize) == 0 {
                    targets |= through;
                }
            }
            emit(from, targets & !own);
        }
        for from in Bits(p[CHARIOT]) {
            let (slide, _) = slider_attacks(from, all, self.rotated);
            emit(from, slide & !own);
        }
        for from in Bits(p[CANNON]) {
            let (slide, jump) = slider_attacks(from, all, self.rotated);
            emit(from, (slide & !all) | (jump & self.occ[them]));
        }
        for from in Bits(p[SOLDIER]) {
            emit(from, SOLDIER_STEPS[us][from] & !own);
        }
    }

    /// Whether `side`'s general on `king` is attacked by the other side, with the board's
    /// occupancy replaced by `occ`/`rotated` and the enemy pieces restricted to `keep` (a
    /// captured piece is masked out). The enemy general counts as attacking along an open
    /// file (flying general, xiangqi.md "Check and legality").
    #[inline(always)]
    fn general_attacked(
        &self,
        side: usize,
        king: usize,
        occ: Bitboard,
        rotated: Bitboard,
        keep: Bitboard,
    ) -> bool {
        let them = 1 - side;
        let p = &self.pieces[them];
        let (slide, jump) = slider_attacks(king, occ, rotated);
        // Generals never share a rank (their palaces are on different ranks), so the
        // general in the slide set can only be a facing general on the file.
        if slide & (p[CHARIOT] | p[GENERAL]) & keep != 0 || jump & p[CANNON] & keep != 0 {
            return true;
        }
        for &(leg, from) in &HORSE_ATTACKERS[king] {
            if leg < 90 && occ & bit(leg as usize) == 0 && from & p[HORSE] & keep != 0 {
                return true;
            }
        }
        if SOLDIER_ATTACKERS[them][king] & p[SOLDIER] & keep != 0 {
            return true;
        }
        // Advisors and elephants can only reach the enemy palace when revealed in Jieqi;
        // confined ones never stand where these tables would find them, so no variant test.
        if DIAGONAL_STEPS[king] & p[ADVISOR] & keep != 0 {
            return true;
        }
        if p[ELEPHANT] & keep != 0 {
            for leap in &ELEPHANT_LEAPS[king] {
                if leap.to < 90
                    && occ & bit(leap.block as usize) == 0
                    && p[ELEPHANT] & keep & bit(leap.to as usize) != 0
                {
                    return true;
                }
            }
        }
        false
    }

    /// Whether the side to move's general is safe after moving `from` → `to`.
    #[inline(always)]
    fn safe_after(&self, from: usize, to: usize) -> bool {
        let us = self.turn.index();
        let all = self.occ[0] | self.occ[1];
        let occ = (all & !bit(from)) | bit(to);
        let rotated = (self.rotated & !ROTATED[from]) | ROTATED[to];
        let general = self.generals[us] as usize;
        let king = if from == general { to } else { general };
        !self.general_attacked(us, king, occ, rotated, !bit(to))
    }

    /// [`Position::safe_after`] for a move of a piece other than the general while not in
    /// check: only lines through the general (chariot, cannon, facing general) and, if the
    /// piece leaves a diagonal neighbour, a horse leg or elephant eye can open.
    #[inline(always)]
    fn safe_after_quiet(&self, from: usize, to: usize) -> bool {
        let us = self.turn.index();
        let p = &self.pieces[1 - us];
        let keep = !bit(to);
        let occ = ((self.occ[0] | self.occ[1]) & !bit(from)) | bit(to);
        let rotated = (self.rotated & !ROTATED[from]) | ROTATED[to];
        let king = self.generals[us] as usize;
        let (slide, jump) = slider_attacks(king, occ, rotated);
        if slide & (p[CHARIOT] | p[GENERAL]) & keep != 0 || jump & p[CANNON] & keep != 0 {
            return false;
        }
        if DIAGONAL_STEPS[king] & bit(from) != 0 {
            for &(leg, attackers) in &HORSE_ATTACKERS[king] {
                if leg as usize == from && attackers & p[HORSE] & keep != 0 {
                    return false;
                }
            }
            for leap in &ELEPHANT_LEAPS[king] {
                if leap.block as usize == from && p[ELEPHANT] & keep & bit(leap.to as usize) != 0 {
                    return false;
                }
            }
        }
        true
    }

    /// Whether `side`'s general is attacked now.
    pub(crate) fn side_in_check(&self, side: Side) -> bool {
        let s = side.index();
        self.general_attacked(
            s,
            self.generals[s] as usize,
            self.occ[0] | self.occ[1],
            self.rotated,
            !0,
        )
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.side_in_check(self.turn)
    }

    /// The points whose change (a piece leaving or arriving) could expose the general of the
    /// side to move, when it is not in check: its rays that hold an enemy chariot, cannon or
    /// general (blockers and cannon screens), the legs of enemy horses and the eyes of enemy
    /// elephants aimed at it, and the general's own point. Any move touching none of these is
    /// legal as it stands.
    #[inline(always)]
    fn risky_points(&self) -> Bitboard {
        let us = self.turn.index();
        let king = self.generals[us] as usize;
        let p = &self.pieces[1 - us];
        let mut risky = bit(king);
        let sliders = p[CHARIOT] | p[CANNON] | p[GENERAL];
        for ray in &RAYS[king] {
            if ray & sliders != 0 {
                risky |= ray;
            }
        }
        for &(leg, from) in &HORSE_ATTACKERS[king] {
            if leg < 90 && from & p[HORSE] != 0 {
                risky |= bit(leg as usize);
            }
        }
        if p[ELEPHANT] != 0 {
            for leap in &ELEPHANT_LEAPS[king] {
                if leap.to < 90 && p[ELEPHANT] & bit(leap.to as usize) != 0 {
                    risky |= bit(leap.block as usize);
                }
            }
        }
        risky
    }

    /// Calls `emit(from, to)` for every legal from-to pair of the side to move.
    #[inline(always)]
    fn for_each_legal(&self, mut emit: impl FnMut(usize, usize)) {
        if self.in_check() {
            self.for_each_pseudo(|from, targets| {
                for to in Bits(targets) {
                    if self.safe_after(from, to) {
                        emit(from, to);
                    }
                }
            });
            return;
        }
        let risky = self.risky_points();
        let general = self.generals[self.turn.index()] as usize;
        self.for_each_pseudo(|from, targets| {
            if from == general {
                for to in Bits(targets) {
                    if self.safe_after(from, to) {
                        emit(from, to);
                    }
                }
            } else if risky & bit(from) != 0 {
                for to in Bits(targets) {
                    if self.safe_after_quiet(from, to) {
                        emit(from, to);
                    }
                }
            } else {
                for to in Bits(targets) {
                    if risky & bit(to) == 0 || self.safe_after_quiet(from, to) {
                        emit(from, to);
                    }
                }
            }
        });
    }

    /// Counts the legal moves of the side to move, each move of a covered piece counted
    /// `covered_weight` times: popcounts where no check is needed.
    #[inline(always)]
    fn count_legal(&self, covered_weight: u64) -> u64 {
        let mut n = 0u64;
        if self.in_check() {
            self.for_each_legal(|from, _| {
                n += if self.covered & bit(from) != 0 {
                    covered_weight
                } else {
                    1
                }
            });
            return n;
        }
        let risky = self.risky_points();
        let general = self.generals[self.turn.index()] as usize;
        let covered = self.covered;
        // Pieces whose moves need a safety test are set aside (at most 16) so that the
        // per-piece closure stays small enough to inline.
        let mut deferred = [(0usize, 0 as Bitboard); 16];
        let mut deferred_len = 0;
        self.for_each_pseudo(|from, targets| {
            if (bit(from) | targets) & risky != 0 {
                deferred[deferred_len] = (from, targets);
                deferred_len += 1;
            } else {
                let count = targets.count_ones() as u64;
                n += if covered & bit(from) != 0 {
                    count * covered_weight
                } else {
                    count
                };
            }
        });
        for &(from, targets) in &deferred[..deferred_len] {
            let count = if from == general {
                Bits(targets)
                    .filter(|&to| self.safe_after(from, to))
                    .count() as u64
            } else if risky & bit(from) != 0 {
                Bits(targets)
                    .filter(|&to| self.safe_after_quiet(from, to))
                    .count() as u64
            } else {
                (targets & !risky).count_ones() as u64
                    + Bits(targets & risky)
                        .filter(|&to| self.safe_after_quiet(from, to))
                        .count() as u64
            };
            n += if covered & bit(from) != 0 {
                count * covered_weight
            } else {
                count
            };
        }
        n
    }

    /// Every legal from-to pair (reveal identities not yet attached).
    pub(crate) fn legal_pairs(&self) -> PairList {
        let mut list = PairList::new();
        self.for_each_legal(|from, to| list.push(from, to));
        list
    }

    /// How many identities a move of a covered piece of the side to move branches into.
    fn reveal_branches(&self) -> u64 {
        self.pools[self.turn.index()].kinds().count() as u64
    }

    /// Every legal move. In Jieqi a move of a covered piece appears once per distinct
    /// identity still in the mover's pool (the identity it would reveal).
    pub fn legal_moves(&self) -> Vec<Move> {
        let pairs = self.legal_pairs();
        let mut moves = Vec::with_capacity(pairs.len);
        let pool = self.pools[self.turn.index()];
        for &(from, to) in pairs.as_slice() {
            let mv = Move::from_indices(from as usize, to as usize);
            if self.covered & bit(from as usize) != 0 {
                for kind in pool.kinds() {
                    moves.push(mv.with_reveal(Piece::new(self.turn, kind)));
                }
            } else {
                moves.push(mv);
            }
        }
        moves
    }

    /// Every legal from-to move without reveal identities, deduplicated: what a Jieqi player
    /// (who does not know what a covered piece is) chooses from. Same as
    /// [`Position::legal_moves`] in Xiangqi.
    pub fn legal_moves_unrevealed(&self) -> Vec<Move> {
        self.legal_pairs()
            .as_slice()
            .iter()
            .map(|&(f, t)| Move::from_indices(f as usize, t as usize))
            .collect()
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut any = false;
        self.for_each_legal(|_, _| any = true);
        any
    }

    /// The number of legal moves (Jieqi reveals counted per identity as in `legal_moves`).
    pub fn count_legal_moves(&self) -> u64 {
        self.count_legal(self.reveal_branches())
    }

    /// Whether the pseudo-legal geometry allows `from` → `to` for the side to move.
    pub(crate) fn is_pseudo_legal(&self, from: usize, to: usize) -> bool {
        let mut found = false;
        self.for_each_pseudo(|f, targets| found |= f == from && targets & bit(to) != 0);
        found
    }

    /// Whether `from` → `to` is legal for the side to move.
    pub(crate) fn is_legal_pair(&self, from: usize, to: usize) -> bool {
        self.occ[self.turn.index()] & bit(from) != 0
            && self.is_pseudo_legal(from, to)
            && self.safe_after(from, to)
    }

    /// Leaf nodes `depth` plies deep, bulk-counted at the last ply.
    ///
    /// Jieqi perft (our definition): a move of a covered piece branches into one child per
    /// distinct identity in the mover's **public pool**, each revealing that identity; the
    /// pools shrink accordingly. A position's children are exactly [`Position::legal_moves`].
    pub fn perft(&self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_legal_moves(),
            _ => {
                let pairs = self.legal_pairs();
                let pool = self.pools[self.turn.index()];
                let mut nodes = 0;
                for &(from, to) in pairs.as_slice() {
                    let (from, to) = (from as usize, to as usize);
                    if self.covered & bit(from) != 0 {
                        for kind in pool.kinds() {
                            let mut child = self.clone();
                            child.make(from, to, Some(kind));
                            nodes += child.perft(depth - 1);
                        }
                    } else {
                        let mut child = self.clone();
                        child.make(from, to, None);
                        nodes += child.perft(depth - 1);
                    }
                }
                nodes
            }
        }
    }

    /// Plays a legal move. `mv` must come from this position's move generation or parsing.
    pub fn play(&mut self, mv: Move) {
        debug_assert!(self.is_legal_pair(mv.from().index(), mv.to().index()));
        self.make(
            mv.from().index(),
            mv.to().index(),
            mv.reveal().map(|p| p.kind),
        );
    }

    /// Moves the piece on `from` to `to`, revealing it as `reveal` if it was covered.
    #[inline(always)]
    pub(crate) fn make(&mut self, from: usize, to: usize, reveal: Option<PieceKind>) {
        let us = self.turn.index();
        let them = 1 - us;
        let code = self.board[from];
        let captured = self.board[to];
        let (fb, tb) = (bit(from), bit(to));
        if captured != 0 {
            self.occ[them] ^= tb;
            self.pieces[them][code_kind(captured)] ^= tb;
            self.covered &= !tb;
            self.hash ^= zobrist::CELL[captured as usize][to];
            self.halfmove = 0;
        } else {
            self.rotated |= ROTATED[to];
            self.halfmove += 1;
        }
        self.rotated ^= ROTATED[from];
        let new_code = if code & COVERED_BIT != 0 {
            // A covered piece is revealed on its destination (jieqi.md, "Reveal").
            let kind = reveal.unwrap_or(PieceKind::ALL[code_kind(code)]);
            self.pools[us].remove(kind);
            self.covered ^= fb;
            cell_code(side_of(us), kind, false)
        } else {
            code
        };
        self.board[from] = 0;
        self.board[to] = new_code;
        self.occ[us] ^= fb | tb;
        self.pieces[us][code_kind(code)] ^= fb;
        self.pieces[us][code_kind(new_code)] |= tb;
        if code_kind(code) == GENERAL {
            self.generals[us] = to as u8;
        }
        self.hash ^= zobrist::CELL[code as usize][from]
            ^ zobrist::CELL[new_code as usize][to]
            ^ zobrist::BLACK_TO_MOVE;
        if us == 1 {
            self.fullmove += 1;
        }
        self.turn = !self.turn;
    }

    /// The position after `mv`, leaving this one unchanged.
    pub fn after(&self, mv: Move) -> Position {
        let mut child = self.clone();
        child.play(mv);
        child
    }

    /// Whether `mv` gives check.
    pub fn gives_check(&self, mv: Move) -> bool {
        self.after(mv).in_check()
    }

    /// The legal move from `from` to `to` revealing `reveal` (required exactly when the piece
    /// on `from` is covered), or why there is none. The hidden-information layer uses this to
    /// attach the dealt identity to a player's `h2e2`.
    pub fn find_move(
        &self,
        from: Square,
        to: Square,
        reveal: Option<PieceKind>,
    ) -> Result<Move, super::MoveError> {
        use super::MoveError;
        let text = format!("{from}{to}");
        let (f, t) = (from.index(), to.index());
        let code = self.board[f];
        if code == 0 {
            return Err(MoveError::NoPiece(from));
        }
        if side_of(super::position::code_side(code)) != self.turn {
            return Err(MoveError::NotYourPiece(from));
        }
        if !self.is_pseudo_legal(f, t) {
            return Err(MoveError::Unreachable { mv: text });
        }
        if !self.safe_after(f, t) {
            return Err(MoveError::LeavesGeneralAttacked { mv: text });
        }
        let covered = code & COVERED_BIT != 0;
        let mv = Move::new(from, to, None);
        match (covered, reveal) {
            (false, None) => Ok(mv),
            (false, Some(kind)) => Err(MoveError::UnexpectedReveal {
                mv: text,
                letter: Piece::new(self.turn, kind).fen_letter(),
            }),
            (true, None) => Err(MoveError::MissingReveal { mv: text }),
            (true, Some(kind)) => {
                let piece = Piece::new(self.turn, kind);
                if self.pools[self.turn.index()].count(kind) == 0 {
                    Err(MoveError::RevealNotInPool { piece })
                } else {
                    Ok(mv.with_reveal(piece))
                }
            }
        }
    }

    /// Reads an ICCS move (`h2e2`; Jieqi covered moves need the reveal suffix, `h2e2C` for
    /// Red, `h9g7n` for Black) and returns the legal move it names, or why it is not one.
    pub fn parse_move(&self, text: &str) -> Result<Move, super::MoveError> {
        use super::MoveError;
        let malformed = || MoveError::Malformed(text.to_owned());
        if !text.is_ascii() || !(4..=5).contains(&text.len()) {
            return Err(malformed());
        }
        let from: Square = text[0..2].parse().map_err(|_| malformed())?;
        let to: Square = text[2..4].parse().map_err(|_| malformed())?;
        let reveal = match text.as_bytes().get(4) {
            None => None,
            Some(&letter) => {
                let letter = letter as char;
                let piece = Piece::from_fen_letter(letter)
                    .filter(|p| p.side == self.turn && p.kind != PieceKind::General);
                match piece {
                    Some(p) => Some(p.kind),
                    None => {
                        let on_covered = self.board[from.index()] & COVERED_BIT != 0;
                        return Err(if on_covered || !letter.is_ascii_alphabetic() {
                            MoveError::BadRevealLetter { letter }
                        } else {
                            MoveError::UnexpectedReveal {
                                mv: text[..4].to_owned(),
                                letter,
                            }
                        });
                    }
                }
            }
        };
        self.find_move(from, to, reveal)
    }
}
