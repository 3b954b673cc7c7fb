//! Tsume (詰将棋): shogi mate problems, composed by a seeded random composer and proved by
//! the engine's tsume search ([`jiang_engine::mate::Prover`]).
//!
//! Conventions (docs/puzzles.md, "Tsume"):
//! - the attacker (sente, to move) has **no king** (shogi.md: a tsume is published without
//!   it); the defender (gote) has its king and holds **every piece not on the board and not in
//!   the attacker's hand**;
//! - every attacker move is a **check**, and the attacker mates in the fewest moves against
//!   the defender's **longest** defence (every interposition counted); a mating pawn drop is
//!   illegal (uchifuzume), so it is never a solution;
//! - the solution is the mate search's main line ([`Prover::line`]); a line in which the
//!   defender drops a piece to block a check and the attacker takes it at once is left out
//!   (published tsume do not count such a futile interposition, 無駄合, so the line's length
//!   would not be the conventional one);
//! - **uniqueness**: at every attacker move but the last, the solution's move is the only
//!   check that mates within the moves left (otherwise the problem has 余詰, a second solution,
//!   and is rejected); at the last move another mate is accepted (as in published tsume, and
//!   the trainer accepts any mating last move), except in a mate in 1, whose only move must be
//!   unique.
//!
//! The composer places the defender's king on one of the top three ranks, a few defending
//! pieces around it, a few attacking pieces near it and a few pieces in the attacker's hand;
//! proves the shortest mate (up to [`MAX_PLIES`]); checks uniqueness; then removes every piece
//! that plays no role (to the defender's hand) while the problem stays a unique mate of the
//! same length. Everything is bounded by node counts, so a seed gives the same problems on any
//! machine.

use jiang_engine::mate::{Exhausted, Prover};
use jiang_rules::shogi::{Move, PieceKind, Position, Square};
use jiang_rules::{Side, Variant};

use crate::format::{Proof, ProofKind, Puzzle, Theme};

/// The longest tsume composed, in plies (a 7-ply tsume, 七手詰, has 4 attacker moves).
pub const MAX_PLIES: u32 = 7;

/// The node budget of one composition attempt (finding, proving and pruning).
const COMPOSE_NODES: u64 = 1_500_000;

/// The node budget of [`verify`].
const VERIFY_NODES: u64 = 3_000_000;

/// How many pieces of each hand kind (R B G S N L P, [`PieceKind::HAND_ORDER`]) a full shogi
/// set holds.
const SHOGI_SET: [u8; 7] = [2, 2, 4, 4, 4, 4, 18];

/// How many pieces of each hand kind a full minishogi set holds (no knights, no lances).
const MINISHOGI_SET: [u8; 7] = [2, 2, 2, 2, 0, 0, 2];

fn full_set(variant: Variant) -> [u8; 7] {
    if variant == Variant::Minishogi {
        MINISHOGI_SET
    } else {
        SHOGI_SET
    }
}

/// A small deterministic generator (SplitMix64): the composer's only source of chance.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }
}

/// A problem being composed: the board and the attacker's hand; the defender's hand is the
/// rest of the set.
#[derive(Clone)]
struct Draft {
    board: [Option<(Side, PieceKind)>; 81],
    /// The attacker's (sente's) hand, counts in [`PieceKind::HAND_ORDER`].
    hand: [u8; 7],
}

fn hand_slot(kind: PieceKind) -> usize {
    PieceKind::HAND_ORDER
        .iter()
        .position(|&k| k == kind.unpromoted())
        .unwrap_or(0)
}

impl Draft {
    /// The SFEN, sente (the attacker) to move, the defender holding every other piece, or
    /// `None` when the set does not have the pieces.
    fn sfen(&self) -> Option<String> {
        let mut used = [0u8; 7];
        let mut text = String::new();
        for rank in 1..=9u8 {
            let mut empty = 0;
            for file in (1..=9u8).rev() {
                let sq = Square::new(file, rank)?;
                match self.board[sq.index()] {
                    None => empty += 1,
                    Some((side, kind)) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        if kind != PieceKind::King {
                            used[hand_slot(kind)] += 1;
                        }
                        let piece = jiang_rules::shogi::Piece::new(side, kind).to_string();
                        text.push_str(&piece);
                    }
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            if rank < 9 {
                text.push('/');
            }
        }
        let mut hands = String::new();
        for (i, kind) in PieceKind::HAND_ORDER.into_iter().enumerate() {
            used[i] = used[i].checked_add(self.hand[i])?;
            if used[i] > SHOGI_SET[i] {
                return None;
            }
            push_count(&mut hands, self.hand[i], kind.letter());
        }
        for (i, kind) in PieceKind::HAND_ORDER.into_iter().enumerate() {
            push_count(
                &mut hands,
                SHOGI_SET[i] - used[i],
                kind.letter().to_ascii_lowercase(),
            );
        }
        if hands.is_empty() {
            hands.push('-');
        }
        Some(format!("{text} b {hands} 1"))
    }

    fn position(&self) -> Option<Position> {
        Position::from_sfen(Variant::Shogi, &self.sfen()?).ok()
    }

    /// The pieces that could be removed: every board piece but the king, every hand piece.
    fn removable(&self) -> Vec<Removal> {
        let mut out: Vec<Removal> = (0..81)
            .filter(|&i| matches!(self.board[i], Some((_, kind)) if kind != PieceKind::King))
            .map(Removal::Board)
            .collect();
        out.extend((0..7).filter(|&i| self.hand[i] > 0).map(Removal::Hand));
        out
    }

    fn without(&self, removal: Removal) -> Draft {
        let mut d = self.clone();
        match removal {
            Removal::Board(i) => d.board[i] = None,
            Removal::Hand(i) => d.hand[i] -= 1,
        }
        d
    }
}

fn push_count(out: &mut String, n: u8, letter: char) {
    if n > 1 {
        out.push_str(&n.to_string());
    }
    if n > 0 {
        out.push(letter);
    }
}

/// A piece taken off a draft (it goes to the defender's hand).
#[derive(Clone, Copy)]
enum Removal {
    Board(usize),
    Hand(usize),
}

/// A random draft around a gote king on the top three ranks.
fn draft(rng: &mut Rng) -> Draft {
    let mut board = [None; 81];
    let kf = 1 + rng.below(9) as i32;
    let kr = [1, 1, 1, 2, 2, 3][rng.below(6) as usize];
    let king = Square::new(kf as u8, kr as u8).expect("on board");
    board[king.index()] = Some((Side::GOTE, PieceKind::King));
    let mut place = |rng: &mut Rng, side: Side, kind: PieceKind, reach: i32| {
        for _ in 0..8 {
            let f = kf + rng.below(2 * reach as u64 + 1) as i32 - reach;
            let r = kr + rng.below(2 * reach as u64 + 1) as i32 - reach / 2;
            if let Some(sq) = Square::new(f.clamp(0, 10) as u8, r.clamp(0, 10) as u8)
                && board[sq.index()].is_none()
            {
                board[sq.index()] = Some((side, kind));
                return;
            }
        }
    };
    use PieceKind::*;
    let defenders = [Pawn, Pawn, Gold, Silver, Knight, Lance, Gold, Bishop];
    for _ in 0..rng.below(4) {
        let kind = rng.pick(&defenders);
        place(rng, Side::GOTE, kind, 2);
    }
    let attackers = [
        Pawn, Pawn, Gold, Silver, Knight, Lance, Bishop, Rook, Dragon, Horse, Tokin, Silver,
    ];
    for _ in 0..1 + rng.below(3) {
        let kind = rng.pick(&attackers);
        let reach = if matches!(kind, Rook | Bishop | Dragon | Horse | Lance) {
            4
        } else {
            2
        };
        place(rng, Side::SENTE, kind, reach);
    }
    let mut hand = [0u8; 7];
    let in_hand = [
        Gold, Gold, Silver, Silver, Knight, Lance, Pawn, Bishop, Rook,
    ];
    for _ in 0..rng.below(4) {
        hand[hand_slot(rng.pick(&in_hand))] += 1;
    }
    Draft { board, hand }
}

/// The attacker's checks in `position`, with the position after each.
fn checks(position: &Position) -> Vec<(Move, Position)> {
    position
        .legal_moves()
        .into_iter()
        .filter_map(|mv| {
            let mut child = position.clone();
            child.play(mv);
            child.is_check().then_some((mv, child))
        })
        .collect()
}

/// Why a position is not a sound tsume, or the proof that it is.
#[derive(Debug)]
enum Unsound {
    /// The prover's budget ran out.
    Unknown,
    /// Not a sound problem, and why.
    Not(String),
}

impl From<Exhausted> for Unsound {
    fn from(_: Exhausted) -> Unsound {
        Unsound::Unknown
    }
}

/// What a sound tsume's proof found.
struct Proven {
    line: Vec<Move>,
    /// The attacker's checks at the start (for the rating).
    root_checks: usize,
}

/// Proves that the attacker to move in `position` mates in exactly `plies` plies, that the
/// main line is unique at every attacker move but the last (and at the only move of a mate in
/// 1), and that every defender move of the line is a longest defence.
fn prove(prover: &mut Prover, position: &Position, plies: u32) -> Result<Proven, Unsound> {
    if plies % 2 == 0 {
        return Err(Unsound::Not("a tsume has an odd number of plies".into()));
    }
    if plies > 2 && prover.mates_within(position, plies - 2)? {
        return Err(Unsound::Not("a shorter mate exists".into()));
    }
    let line = prover
        .line(position, plies)?
        .ok_or_else(|| Unsound::Not(format!("no mate in {plies} plies")))?;
    if line.len() != plies as usize {
        return Err(Unsound::Not(format!(
            "the main line has {} plies, not {plies}",
            line.len()
        )));
    }
    let mut pos = position.clone();
    let mut root_checks = 0;
    for (i, &mv) in line.iter().enumerate() {
        let left = plies - i as u32; // plies left, this move included
        if i % 2 == 0 {
            let all = checks(&pos);
            if i == 0 {
                root_checks = all.len();
            }
            let mut mating = Vec::new();
            for (check, child) in &all {
                if prover.defender_mated_within(child, left - 1)? {
                    mating.push(*check);
                }
            }
            if !mating.contains(&mv) {
                return Err(Unsound::Not(format!("move {} {mv} does not mate", i + 1)));
            }
            let last = left == 1;
            if mating.len() > 1 && (!last || plies == 1) {
                return Err(Unsound::Not(format!(
                    "move {}: {} checks mate within {left} plies (余詰)",
                    i + 1,
                    mating.len()
                )));
            }
        } else {
            // A longest defence: after it the attacker needs all the plies left.
            let mut child = pos.clone();
            child.play(mv);
            if left >= 3 && prover.mates_within(&child, left - 3)? {
                return Err(Unsound::Not(format!(
                    "reply {} {mv} is not a longest defence",
                    i + 1
                )));
            }
        }
        pos.play(mv);
    }
    if !(pos.is_check() && pos.legal_moves().is_empty()) {
        return Err(Unsound::Not("the line does not end in mate".into()));
    }
    // A piece dropped to block the check and taken at once is, in published tsume, a futile
    // interposition (無駄合) that does not count: such a line's length would not be the
    // problem's conventional length, so the problem is left out.
    for (i, pair) in line.windows(2).enumerate() {
        if i % 2 == 1 && pair[0].is_drop() && pair[1].to() == pair[0].to() {
            return Err(Unsound::Not(format!(
                "reply {} {} is an interposition taken at once",
                i + 1,
                pair[0]
            )));
        }
    }
    Ok(Proven { line, root_checks })
}

/// The shortest sound tsume in `position` up to [`MAX_PLIES`], if any.
fn sound(prover: &mut Prover, position: &Position) -> Result<Proven, Unsound> {
    if checks(position).is_empty() {
        return Err(Unsound::Not("no check".into()));
    }
    let plies = prover
        .mate_distance(position, MAX_PLIES)?
        .ok_or_else(|| Unsound::Not("no mate".into()))?;
    prove(prover, position, plies)
}

/// One attempt: a draft, proved and pruned, or `None`.
fn compose(rng: &mut Rng) -> Option<(Position, Proven)> {
    let mut draft = draft(rng);
    let position = draft.position()?;
    let mut prover = Prover::new(COMPOSE_NODES);
    let mut proven = sound(&mut prover, &position).ok()?;
    let plies = proven.line.len() as u32;
    // Remove pieces that play no role while the problem stays sound and as long.
    let mut changed = true;
    while changed {
        changed = false;
        for removal in draft.removable() {
            let smaller = draft.without(removal);
            let Some(position) = smaller.position() else {
                continue;
            };
            match prover.mate_distance(&position, plies) {
                Ok(Some(p)) if p == plies => {}
                Ok(_) => continue,
                Err(Exhausted) => return None,
            }
            match prove(&mut prover, &position, plies) {
                Ok(p) => {
                    draft = smaller;
                    proven = p;
                    changed = true;
                    break;
                }
                Err(Unsound::Unknown) => return None,
                Err(Unsound::Not(_)) => {}
            }
        }
    }
    Some((draft.position()?, proven))
}

/// The rating estimate (Glicko-2 scale): 900 for a mate in 1, plus 300 for each further
/// attacker move, plus 15 for each check the attacker could give at the start beyond the
/// first (more tempting checks, harder to find the one), capped at +300.
fn rating(plies: u32, root_checks: usize) -> f64 {
    let moves = plies.div_ceil(2) as f64;
    let choice = (root_checks.saturating_sub(1) as f64 * 15.0).min(300.0);
    900.0 + 300.0 * (moves - 1.0) + choice
}

/// The themes of a tsume's line: tsume, mate, the length, drop/promotion/sacrifice where
/// they occur, one_move/long.
fn themes(position: &Position, line: &[Move]) -> Vec<Theme> {
    let mut themes = vec![Theme::Tsume, Theme::Mate];
    let moves = line.len().div_ceil(2);
    themes.push(Theme::mate_in(moves));
    let solver: Vec<Move> = line.iter().step_by(2).copied().collect();
    if solver.iter().any(|m| m.is_drop()) {
        themes.push(Theme::Drop);
    }
    if solver.iter().any(|m| m.promotes()) {
        themes.push(Theme::Promotion);
    }
    // A sacrifice: the defender takes the piece the attacker has just moved or dropped.
    let mut pos = position.clone();
    let mut sacrifice = false;
    for pair in line.chunks(2) {
        if let [attack, reply] = pair {
            pos.play(*attack);
            let captures = pos.piece_at(reply.to()).is_some();
            sacrifice |= captures && reply.to() == attack.to();
            pos.play(*reply);
        }
    }
    if sacrifice {
        themes.push(Theme::Sacrifice);
    }
    if moves == 1 {
        themes.push(Theme::OneMove);
    }
    if moves >= 3 {
        themes.push(Theme::Long);
    }
    themes.sort();
    themes
}

fn puzzle(position: &Position, proven: &Proven, source: String) -> Puzzle {
    let sfen = position.sfen();
    let solution: Vec<String> = proven.line.iter().map(Move::to_string).collect();
    let plies = solution.len() as u32;
    Puzzle {
        id: Puzzle::derive_id(Variant::Shogi, &sfen, &solution),
        variant: Variant::Shogi,
        themes: themes(position, &proven.line),
        rating: rating(plies, proven.root_checks),
        proof: Proof {
            kind: ProofKind::Mate,
            plies,
            depth: plies,
        },
        position: sfen,
        solution,
        source,
    }
}

/// Composes `count` shogi tsume from `seed` (the same seed gives the same problems), mate in
/// 1, 3, 5 and 7 plies mixed: about a fifth each of 1 and 7 plies, and 3 and 5 plies for the
/// rest, as far as the attempts find them (after many attempts a length still short of its
/// share is filled with the others). Each passes [`verify`]'s checks by construction.
pub fn generate(count: usize, seed: u64) -> Vec<Puzzle> {
    let mut rng = Rng(seed);
    // Shares of 1-, 3-, 5- and 7-ply problems.
    let shares = [count / 5, count * 3 / 10, count * 3 / 10];
    let quota = [
        shares[0],
        shares[1],
        shares[2],
        count - shares[0] - shares[1] - shares[2],
    ];
    let mut found = [0usize; 4];
    let mut out: Vec<Puzzle> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let patience = count as u64 * 2_000 + 10_000;
    let mut attempt = 0u64;
    while out.len() < count {
        attempt += 1;
        let Some((position, proven)) = compose(&mut rng) else {
            continue;
        };
        let slot = (proven.line.len() / 2).min(3);
        let relaxed = attempt > patience;
        if found[slot] >= quota[slot] && !relaxed {
            continue;
        }
        if !seen.insert(position.sfen()) {
            continue;
        }
        found[slot] += 1;
        out.push(puzzle(
            &position,
            &proven,
            format!("Jiang tsume composer, seed {seed}, attempt {attempt}"),
        ));
    }
    out
}

/// Checks a tsume puzzle from scratch: a shogi-family position where the side to move (the
/// attacker) has no king and the defender holds every piece that is neither on the board nor
/// in the attacker's hand; the solution is the mate search's main line, every attacker move a
/// check, a mate in exactly its length against the longest defence, unique at every attacker
/// move but the last; the proof, themes and id agree.
pub fn verify(puzzle: &Puzzle) -> Result<(), String> {
    if !matches!(puzzle.variant, Variant::Shogi | Variant::Minishogi) {
        return Err(format!("{} is not a shogi-family variant", puzzle.variant));
    }
    let position =
        Position::from_sfen(puzzle.variant, &puzzle.position).map_err(|e| e.to_string())?;
    if position.kingless_side() != Some(position.turn()) {
        return Err("the attacker (the side to move) must have no king".into());
    }
    let set = full_set(puzzle.variant);
    for (i, kind) in PieceKind::HAND_ORDER.into_iter().enumerate() {
        let on_board = position
            .pieces()
            .filter(|(_, p)| p.kind != PieceKind::King && p.kind.unpromoted() == kind)
            .count();
        let total = on_board
            + usize::from(position.hand_count(Side::SENTE, kind))
            + usize::from(position.hand_count(Side::GOTE, kind));
        if total != usize::from(set[i]) {
            return Err(format!(
                "{total} pieces of kind {} in all: the defender must hold the rest of the set",
                kind.letter()
            ));
        }
    }
    let plies = puzzle.solution.len() as u32;
    if plies == 0 || plies % 2 == 0 || plies > MAX_PLIES {
        return Err(format!("a solution of {plies} plies"));
    }
    if puzzle.proof.kind != ProofKind::Mate || puzzle.proof.plies != plies {
        return Err(format!("proof {:?} for {plies} plies", puzzle.proof));
    }
    if puzzle.id != Puzzle::derive_id(puzzle.variant, &puzzle.position, &puzzle.solution) {
        return Err(format!("id {} is not derived from the puzzle", puzzle.id));
    }
    // Every attacker move of the recorded line is legal and checks.
    let mut line = Vec::new();
    let mut pos = position.clone();
    for (i, text) in puzzle.solution.iter().enumerate() {
        let mv = pos
            .parse_move(text)
            .map_err(|e| format!("move {} `{text}`: {e}", i + 1))?;
        pos.play(mv);
        if i % 2 == 0 && !pos.is_check() {
            return Err(format!("move {} `{text}` does not check", i + 1));
        }
        line.push(mv);
    }
    let mut prover = Prover::new(VERIFY_NODES);
    let proven = match prove(&mut prover, &position, plies) {
        Ok(p) => p,
        Err(Unsound::Unknown) => return Err("the proof ran out of its node budget".into()),
        Err(Unsound::Not(why)) => return Err(why),
    };
    if proven.line != line {
        let main: Vec<String> = proven.line.iter().map(Move::to_string).collect();
        return Err(format!("the mate search's main line is {main:?}"));
    }
    let expected = themes(&position, &line);
    if puzzle.themes != expected {
        return Err(format!("themes {:?}, expected {expected:?}", puzzle.themes));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tsume(sfen: &str, solution: &[&str]) -> Puzzle {
        let position = Position::from_sfen(Variant::Shogi, sfen).unwrap();
        let line: Vec<Move> = {
            let mut pos = position.clone();
            solution
                .iter()
                .map(|t| {
                    let mv = pos.parse_move(t).unwrap();
                    pos.play(mv);
                    mv
                })
                .collect()
        };
        let proven = Proven {
            line,
            root_checks: checks(&position).len(),
        };
        puzzle(&position, &proven, "test".into())
    }

    #[test]
    fn a_real_tsume_verifies_and_its_faults_are_named() {
        // `taichitsume` of the interop corpus, mate in 7: the record's line is the main line
        // up to its last move (the search may end with another mate).
        let sfen = "6+Pnl/6Sk1/6sp1/9/8P/9/9/9/9 b GS2r2b3g1s3n3l15p 1";
        let position = Position::from_sfen(Variant::Shogi, sfen).unwrap();
        let mut prover = Prover::new(VERIFY_NODES);
        let proven = prove(&mut prover, &position, 7).unwrap();
        let p = puzzle(&position, &proven, "test".into());
        assert_eq!(verify(&p), Ok(()));
        assert!(p.themes.contains(&Theme::MateIn4) && p.themes.contains(&Theme::Sacrifice));
        // A shorter length is refused, and so is a puzzle with a wrong id or theme.
        assert!(prove(&mut prover, &position, 5).is_err());
        let mut wrong = p.clone();
        wrong.themes.retain(|&t| t != Theme::Drop);
        assert!(verify(&wrong).is_err());
        let mut wrong = p.clone();
        wrong.id = "s-0000000000".into();
        assert!(verify(&wrong).unwrap_err().contains("id"));
    }

    #[test]
    fn a_second_solution_or_a_missing_piece_of_the_set_is_refused() {
        // Mate in 1 two ways (a gold dropped on 1b or on 2b, each guarded by a pawn): not
        // unique, rejected.
        let p = tsume("8k/9/7PP/9/9/9/9/9/9 b G2r2b3g4s4n4l16p 1", &["G*1b"]);
        let e = verify(&p).unwrap_err();
        assert!(e.contains("余詰") || e.contains("main line"), "{e}");
        // The defender must hold the rest of the set.
        let p = tsume("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l16p 1", &["G*5b"]);
        assert!(verify(&p).unwrap_err().contains("rest of the set"));
        // The same problem, sound: unique mate in 1.
        let p = tsume("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", &["G*5b"]);
        assert_eq!(verify(&p), Ok(()));
        assert!(p.themes.contains(&Theme::OneMove) && p.themes.contains(&Theme::Drop));
    }

    #[test]
    fn a_pawn_drop_mate_is_never_a_solution() {
        // Uchifuzume: P*1b would mate; the problem has no mate in 1 but a gold drop.
        let sfen = "7nk/9/8G/9/9/9/9/9/9 b P2r2b3g4s3n4l17p 1";
        let position = Position::from_sfen(Variant::Shogi, sfen).unwrap();
        let mut prover = Prover::new(VERIFY_NODES);
        assert_eq!(prover.mates_within(&position, 1), Ok(false));
        if let Ok(proven) = sound(&mut prover, &position) {
            assert_ne!(proven.line[0].to_string(), "P*1b");
        }
        // With a gold in hand instead, the drop on 1b mates in 1.
        let sfen = "7nk/9/8G/9/9/9/9/9/9 b G2r2b2g4s3n4l18p 1";
        let position = Position::from_sfen(Variant::Shogi, sfen).unwrap();
        assert_eq!(prover.mate_distance(&position, 7), Ok(Some(1)));
    }

    #[test]
    fn the_composer_is_reproducible_and_sound() {
        let a = generate(3, 11);
        let b = generate(3, 11);
        assert_eq!(a, b);
        assert_eq!(a.len(), 3);
        for p in &a {
            assert_eq!(verify(p), Ok(()), "{p:?}");
            assert_eq!(
                Position::from_sfen(Variant::Shogi, &p.position)
                    .unwrap()
                    .kingless_side(),
                Some(Side::SENTE)
            );
        }
    }
}
