//! Legal move generation with check and pin handling (no make-and-test), and perft.
//!
//! The generator computes the checkers and the pinned pieces once, then emits, per piece, the
//! set of destinations without promotion and the set with promotion into a [`Sink`]: a move
//! list, or a counter that only adds popcounts (bulk counting at the last perft ply).

use super::Move;
use super::position::*;
use super::tables::{
    Bitboard, Bits, KING, PAWN, between, bishop_pseudo, lance_pseudo, line, rook_pseudo,
};

/// Where generated moves go.
pub(crate) trait Sink {
    /// Board moves of the piece on `from`: to each of `plain` without promotion, to each of
    /// `promoting` with promotion.
    fn board(&mut self, from: usize, plain: Bitboard, promoting: Bitboard);
    /// Drops of hand kind `kind` on each of `targets`.
    fn drops(&mut self, kind: usize, targets: Bitboard);
}

/// Counts moves without listing them.
pub(crate) struct Counter(pub(crate) u64);

impl Sink for Counter {
    #[inline(always)]
    fn board(&mut self, _from: usize, plain: Bitboard, promoting: Bitboard) {
        self.0 += (plain.count_ones() + promoting.count_ones()) as u64;
    }
    #[inline(always)]
    fn drops(&mut self, _kind: usize, targets: Bitboard) {
        self.0 += targets.count_ones() as u64;
    }
}

/// The most legal moves a shogi position can have is 593.
pub(crate) const MAX_MOVES: usize = 600;

/// A move list on the stack: no heap allocation per node.
pub(crate) struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    pub(crate) fn new() -> MoveList {
        MoveList {
            moves: [Move::normal(0, 0, false); MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    pub(crate) fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl Sink for MoveList {
    #[inline]
    fn board(&mut self, from: usize, plain: Bitboard, promoting: Bitboard) {
        for to in Bits(promoting) {
            self.push(Move::normal(from, to, true));
        }
        for to in Bits(plain) {
            self.push(Move::normal(from, to, false));
        }
    }
    #[inline]
    fn drops(&mut self, kind: usize, targets: Bitboard) {
        for to in Bits(targets) {
            self.push(Move::drop(kind, to));
        }
    }
}

/// What every piece's move generation needs to know about the position.
struct Ctx {
    us: usize,
    occ: Bitboard,
    /// Allowed destinations: not our own pieces, and answering a check if there is one.
    target: Bitboard,
    pinned: Bitboard,
    ksq: usize,
    zone: Bitboard,
}

/// The perft recursion, written once for each instruction-set flavour.
macro_rules! perft_body {
    ($pos:expr, $depth:expr, $recurse:ident $(, $unsafe:ident)?) => {{
        let pos: &Position = $pos;
        match $depth {
            0 => 1,
            1 => pos.count_moves(),
            depth => {
                let mut list = MoveList::new();
                pos.generate(&mut list);
                let mut nodes = 0;
                for &mv in list.as_slice() {
                    let mut child = pos.clone();
                    child.play(mv);
                    nodes += $($unsafe)? { child.$recurse(depth - 1) };
                }
                nodes
            }
        }
    }};
}

impl Position {
    /// Moves of the promotable pieces of kind `KIND`; `forced` are the destinations where
    /// they must promote.
    #[inline(always)]
    fn piece_moves<const KIND: usize, S: Sink>(&self, c: &Ctx, forced: Bitboard, sink: &mut S) {
        for from in Bits(self.by_kind[KIND] & self.by_side[c.us]) {
            let mut att = Position::piece_attacks(KIND, c.us, from, c.occ) & c.target;
            if c.pinned & (1 << from) != 0 {
                att &= line(c.ksq, from);
            }
            let promoting = if c.zone & (1 << from) != 0 {
                att
            } else {
                att & c.zone
            };
            sink.board(from, att & !forced, promoting);
        }
    }

    /// Moves of pieces that never promote, moving like `KIND` (any gold-mover for `GOLD_K`).
    #[inline(always)]
    fn fixed_moves<const KIND: usize, S: Sink>(&self, c: &Ctx, pieces: Bitboard, sink: &mut S) {
        for from in Bits(pieces) {
            let mut att = Position::piece_attacks(KIND, c.us, from, c.occ) & c.target;
            if c.pinned & (1 << from) != 0 {
                att &= line(c.ksq, from);
            }
            sink.board(from, att, 0);
        }
    }

    /// The pieces of `side` pinned to its own king.
    #[inline]
    pub(crate) fn pinned(&self, side: usize) -> Bitboard {
        if self.kings[side] == NO_KING {
            return 0; // nothing to pin to (a tsume's attacker)
        }
        let ksq = self.kings[side] as usize;
        let them = self.by_side[side ^ 1];
        let k = &self.by_kind;
        let snipers = ((rook_pseudo(ksq) & (k[ROOK_K] | k[DRAGON_K]))
            | (bishop_pseudo(ksq) & (k[BISHOP_K] | k[HORSE_K]))
            | (lance_pseudo(side, ksq) & k[LANCE_K]))
            & them;
        let occ = self.occupied();
        let mut pinned = 0;
        for s in Bits(snipers) {
            let b = between(ksq, s) & occ;
            if b != 0 && b & (b - 1) == 0 {
                pinned |= b;
            }
        }
        pinned & self.by_side[side]
    }

    /// Emits every legal move of the side to move into `sink`.
    #[inline(always)]
    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        let geo = self.geo();
        let us = self.turn.index();
        let ours = self.by_side[us];
        let occ = self.occupied();
        let ksq = self.kings[us] as usize;
        let checkers = self.checkers();

        // King moves: the destination must be safe with the king lifted (x-rays of sliders).
        // A tsume's attacker has no king (and is then never in check, never pinned).
        if ksq != NO_KING as usize {
            let mut king_to = 0;
            for to in Bits(KING[ksq] & !ours & geo.board) {
                if !self.is_attacked(to, us ^ 1, occ ^ (1 << ksq)) {
                    king_to |= 1 << to;
                }
            }
            sink.board(ksq, king_to, 0);
        }
        if checkers & checkers.wrapping_sub(1) != 0 {
            return; // double check: only the king may move
        }

        let (target, drop_target) = if checkers == 0 {
            (!ours & geo.board, !occ & geo.board)
        } else {
            let checker = checkers.trailing_zeros() as usize;
            let block = between(ksq, checker);
            (block | checkers, block)
        };
        let pinned = self.pinned(us);
        let zone = geo.zone[us];
        let k = &self.by_kind;

        // Promotable pieces: optional promotion when the move starts or ends in the zone,
        // forced where the piece could never move again (shogi.md, Promotion).
        let ctx = Ctx {
            us,
            occ,
            target,
            pinned,
            ksq,
            zone,
        };
        self.piece_moves::<PAWN_K, S>(&ctx, geo.last_rank[us], sink);
        self.piece_moves::<LANCE_K, S>(&ctx, geo.last_rank[us], sink);
        self.piece_moves::<KNIGHT_K, S>(&ctx, geo.last_two_ranks[us], sink);
        self.piece_moves::<SILVER_K, S>(&ctx, 0, sink);
        self.piece_moves::<BISHOP_K, S>(&ctx, 0, sink);
        self.piece_moves::<ROOK_K, S>(&ctx, 0, sink);
        // Pieces that never promote (gold-movers, horse, dragon).
        let golds = (k[GOLD_K] | k[TOKIN_K] | k[PLANCE_K] | k[PKNIGHT_K] | k[PSILVER_K]) & ours;
        self.fixed_moves::<GOLD_K, S>(&ctx, golds, sink);
        self.fixed_moves::<HORSE_K, S>(&ctx, k[HORSE_K] & ours, sink);
        self.fixed_moves::<DRAGON_K, S>(&ctx, k[DRAGON_K] & ours, sink);

        // Drops: only on empty squares (and only to block when in check), never on a square
        // the piece could never leave, no nifu, no pawn-drop mate (shogi.md, Drops).
        let hand = &self.hands[us];
        if drop_target == 0 {
            return;
        }
        for kind in [ROOK_K, BISHOP_K, GOLD_K, SILVER_K] {
            if hand[kind] > 0 {
                sink.drops(kind, drop_target);
            }
        }
        if hand[KNIGHT_K] > 0 {
            sink.drops(KNIGHT_K, drop_target & !geo.last_two_ranks[us]);
        }
        if hand[LANCE_K] > 0 {
            sink.drops(LANCE_K, drop_target & !geo.last_rank[us]);
        }
        if hand[PAWN_K] > 0 {
            let mut t = drop_target & !geo.last_rank[us] & !self.pawn_files(us);
            // The one square where a pawn drop gives check: in front of the enemy king (none
            // when the enemy is a tsume's attacker, without a king).
            let mate_square = match self.kings[us ^ 1] {
                NO_KING => 0,
                ek => PAWN[us ^ 1][ek as usize] & t,
            };
            if mate_square != 0 && self.pawn_drop_mates(mate_square.trailing_zeros() as usize) {
                t &= !mate_square;
            }
            sink.drops(PAWN_K, t);
        }
    }

    /// Whether dropping a pawn of the side to move on `sq` (which gives check) would leave
    /// the defender without a legal reply: uchifuzume. The pawn is the only checker (a drop
    /// uncovers nothing) and adjacent (nothing can block), so the defender escapes only by
    /// capturing it or by moving the king.
    pub(crate) fn pawn_drop_mates(&self, sq: usize) -> bool {
        let us = self.turn.index();
        let them = us ^ 1;
        let ek = self.kings[them] as usize;
        let occ = self.occupied() | (1 << sq);
        let geo = self.geo();
        // Captures of the pawn by a piece other than the king, when that exposes no check.
        let capturers = self.attackers(sq, them, occ) & !(1 << ek);
        for c in Bits(capturers) {
            if !self.is_attacked(ek, us, occ ^ (1 << c)) {
                return false;
            }
        }
        // King moves (including taking the pawn) to a square our pieces do not attack. The
        // pawn itself only attacks the king's square, so it matters here only as a blocker.
        for to in Bits(KING[ek] & !self.by_side[them] & geo.board) {
            if !self.is_attacked(to, us, occ ^ (1 << ek)) {
                return false;
            }
        }
        true
    }

    /// The number of legal moves (bulk count).
    #[inline(always)]
    pub(crate) fn count_moves(&self) -> u64 {
        let mut c = Counter(0);
        self.generate(&mut c);
        c.0
    }

    /// Leaf nodes `depth` plies deep, counted in bulk at the last ply.
    pub(crate) fn perft_nodes(&self, depth: u32) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("lzcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
        {
            // SAFETY: the CPU supports every feature `perft_x86` is compiled for.
            return unsafe { self.perft_x86(depth) };
        }
        self.perft_portable(depth)
    }

    /// Perft compiled for the baseline CPU.
    pub(crate) fn perft_portable(&self, depth: u32) -> u64 {
        perft_body!(self, depth, perft_portable)
    }

    /// Perft compiled with the bit-counting instructions: the baseline x86-64 target counts
    /// bits in software, which costs a fifth of the time of bulk counting.
    ///
    /// # Safety
    /// The CPU must support `popcnt`, `lzcnt` and `bmi1`.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,lzcnt,bmi1")]
    unsafe fn perft_x86(&self, depth: u32) -> u64 {
        // SAFETY: the caller guarantees the features (see above).
        perft_body!(self, depth, perft_x86, unsafe)
    }
}
