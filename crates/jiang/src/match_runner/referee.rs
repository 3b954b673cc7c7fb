//! The referee: Jiang's rules decide every move and every end, for the four variants alike.
//!
//! Jieqi: the referee holds the true game (the deal from the operating system's generator)
//! and tells each engine only what its seat may know ([`jieqi_position`], built from that
//! seat's [`JieqiView`] alone).

use jiang_rules::jieqi::{JieqiView, Observer};
use jiang_rules::shogi::notation::write_kif;
use jiang_rules::xiangqi::notation::Record;
use jiang_rules::xiangqi::{PieceKind, Position as XiangqiPosition};
use jiang_rules::{AnyGame, FamilyRecord, Outcome, Reason, Side, Variant, xiangqi};
use rand::CryptoRng;
use std::time::{SystemTime, UNIX_EPOCH};

/// A position as sent to an engine: `startpos` or a FEN/SFEN, then the moves played since.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// `startpos`, or a FEN (xiangqi family) or SFEN (shogi family).
    pub start: String,
    /// The moves from `start`, in ICCS (Jieqi reveals with their suffix) or USI.
    pub moves: Vec<String>,
}

/// The game being refereed (Jieqi: the true game, deal included).
#[derive(Clone)]
pub struct Referee {
    game: AnyGame,
}

/// A game's end as the runner decided it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The winning side, `None` for a draw.
    pub winner: Option<Side>,
    /// Why.
    pub reason: EndReason,
    /// A sentence for forfeits and time losses: what the engine did.
    pub detail: Option<String>,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// By the rules (mate, repetition, impasse, …), a resignation or the clock.
    Rules(Reason),
    /// The engine to move broke the protocol or the rules of play.
    Forfeit(Forfeit),
}

/// An engine's fault that loses the game outright.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forfeit {
    /// It answered a move that is not legal (or nothing, or a false impasse claim).
    IllegalMove,
    /// Its process died, closed its output or failed to start.
    Crash,
}

impl EndReason {
    /// The kebab-case name printed on the game's line.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Rules(reason) => reason.name(),
            EndReason::Forfeit(Forfeit::IllegalMove) => "illegal-move",
            EndReason::Forfeit(Forfeit::Crash) => "crash",
        }
    }
}

impl GameEnd {
    /// The end the rules decided.
    pub fn by_rules(outcome: Outcome) -> GameEnd {
        GameEnd {
            winner: outcome.winner,
            reason: EndReason::Rules(outcome.reason),
            detail: None,
        }
    }

    /// `1-0` (the first side won), `0-1` or `1/2-1/2`.
    pub fn result(&self) -> &'static str {
        match self.winner {
            Some(Side::First) => "1-0",
            Some(Side::Second) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The rules' outcome, if the end is one the rules name (forfeits are not).
    fn outcome(&self) -> Option<Outcome> {
        match self.reason {
            EndReason::Rules(reason) => Some(Outcome {
                winner: self.winner,
                reason,
            }),
            EndReason::Forfeit(_) => None,
        }
    }
}

/// Names and clock of a game, for its record.
pub struct RecordInfo<'a> {
    /// 1-based game number.
    pub round: usize,
    /// The engine playing Red or sente.
    pub first: &'a str,
    /// The engine playing Black or gote.
    pub second: &'a str,
    /// PGN `TimeControl` value.
    pub pgn_time_control: String,
    /// KIF `持ち時間` value.
    pub kif_time_control: String,
    /// Seconds each move took, from the first move (0 for opening moves).
    pub move_seconds: Vec<u32>,
    /// When the game started.
    pub started: SystemTime,
}

impl Referee {
    /// A new game of `variant` from its standard start; Jieqi is dealt with `rng`, which must
    /// be a cryptographically secure generator.
    pub fn new<R: CryptoRng + ?Sized>(variant: Variant, rng: &mut R) -> Referee {
        Referee {
            game: AnyGame::new(variant, rng),
        }
    }

    /// The variant being played.
    pub fn variant(&self) -> Variant {
        self.game.variant()
    }

    /// The side to move.
    pub fn turn(&self) -> Side {
        self.game.turn()
    }

    /// Plies played.
    pub fn ply(&self) -> usize {
        self.game.ply()
    }

    /// The outcome once the rules have ended the game.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    /// The legal moves as an engine sends them (Jieqi: without reveal suffix), sorted.
    pub fn legal_moves(&self) -> Vec<String> {
        self.game.legal_moves()
    }

    /// Plays a move as an engine sent it; changes nothing and says why when it is not legal.
    /// A Jieqi engine sends no reveal suffix (the deal supplies it); one it adds is ignored.
    pub fn play(&mut self, text: &str) -> Result<(), String> {
        self.game
            .play_engine_move(text)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    /// USI `bestmove win`: the side to move declares impasse. The rules decide whether it
    /// holds; a declaration that does not hold is refused with the failed condition.
    pub fn declare_impasse(&mut self) -> Result<Outcome, String> {
        self.game.declare_impasse().map_err(|e| e.to_string())
    }

    /// The loss of `side` on time: a draw instead when the winner could never give check
    /// (xiangqi family).
    pub fn timeout(&self, side: Side) -> Outcome {
        self.game.flag_outcome(side)
    }

    /// What the engine playing `side` is told: the whole game from the start, except Jieqi,
    /// where it gets its own view (see [`jieqi_position`]).
    pub fn position_for(&self, side: Side) -> Result<PositionCommand, String> {
        match self.game.view(Observer::player(side)) {
            Some(view) => jieqi_position(&view),
            None => Ok(PositionCommand {
                start: "startpos".to_owned(),
                moves: self.game.moves().to_vec(),
            }),
        }
    }

    /// Records an end decided outside the rules of play (Jieqi then publishes the deal).
    pub fn finish(&mut self, end: &GameEnd) {
        let outcome = end.outcome().unwrap_or(Outcome::win(
            end.winner.unwrap_or(Side::First),
            Reason::Resignation,
        ));
        self.game.end(outcome);
    }

    /// The game's record: PGN-style for the xiangqi family, KIF (UTF-8) for the shogi family.
    pub fn record(&self, end: &GameEnd, info: &RecordInfo<'_>) -> Result<String, String> {
        let pgn = |mut record: Record| {
            let (y, m, d, ..) = civil_utc(info.started);
            record.set_tag("Event", "jiang match");
            record.set_tag("Date", &format!("{y:04}.{m:02}.{d:02}"));
            record.set_tag("Round", &info.round.to_string());
            record.set_tag("Red", info.first);
            record.set_tag("Black", info.second);
            record.set_tag("TimeControl", &info.pgn_time_control);
            match end.outcome() {
                Some(outcome) => record.set_outcome(outcome),
                None => {
                    record.set_tag("Result", end.result());
                    record.set_tag("Termination", end.reason.name());
                }
            }
            if let Some(detail) = &end.detail {
                record.set_tag("TerminationDetail", detail);
            }
            record.to_string()
        };
        match self.game.family_record() {
            FamilyRecord::Xiangqi(record) => Ok(pgn(*record)),
            FamilyRecord::Shogi(mut record) => {
                record.sente_name = Some(info.first.to_owned());
                record.gote_name = Some(info.second.to_owned());
                record.time_control = Some(info.kif_time_control.clone());
                let (y, mo, d, h, mi, sec) = civil_utc(info.started);
                record.start_time = Some(format!("{y:04}/{mo:02}/{d:02} {h:02}:{mi:02}:{sec:02}"));
                record.move_seconds = info.move_seconds.clone();
                record.result = end.outcome();
                if end.outcome().is_none() {
                    // KIF's special move for a foul by the side to move.
                    record.other_end = Some("反則負け".to_owned());
                }
                write_kif(&record).map_err(|e| e.to_string())
            }
        }
    }
}

/// What the engine of `view.observer` is told in Jieqi, from its view alone (so nothing it
/// may not know can reach it, by construction).
///
/// The position is the one after the last capture (the start if none), as a Jieqi FEN whose
/// pool field is this player's knowledge at that point: the identities it had not seen then
/// (its own pieces captured while covered stay in its pool — it never learns what they were;
/// an opponent's covered piece it captured leaves the opponent's pool — it saw it). Then the
/// moves since, with their public reveal suffixes. Nothing before the last capture can recur,
/// so the engine still sees every position that counts for repetition; the FEN's halfmove
/// clock carries the move limit.
pub fn jieqi_position(view: &JieqiView) -> Result<PositionCommand, String> {
    let start = XiangqiPosition::parse_fen(Variant::Jieqi, &view.initial_fen)
        .map_err(|e| format!("the view's start: {e}"))?;
    let mut game = xiangqi::Game::new(start.clone());
    let mut base = (0, start);
    for (i, text) in view.moves.iter().enumerate() {
        game.play_iccs(text)
            .map_err(|e| format!("the view's move {} `{text}`: {e}", i + 1))?;
        if game.position().halfmove_clock() == 0 {
            base = (i + 1, game.position().clone());
        }
    }
    let (base_ply, base_position) = base;
    // The observer's unseen identities now, plus those revealed since the base: what it had
    // not seen at the base (no capture since, so nothing else changed).
    let mut counts = Side::BOTH.map(|side| KINDS.map(|kind| view.pools[side.index()].count(kind)));
    for mv in &game.moves()[base_ply..] {
        if let Some(piece) = mv.reveal() {
            let slot = KINDS
                .iter()
                .position(|&k| k == piece.kind)
                .ok_or_else(|| format!("a revealed general in `{mv}`"))?;
            counts[piece.side.index()][slot] += 1;
        }
    }
    let pool: String = Side::BOTH
        .into_iter()
        .flat_map(|side| {
            KINDS
                .iter()
                .zip(counts[side.index()])
                .filter(|&(_, n)| n > 0)
                .map(move |(&kind, n)| {
                    format!("{}{n}", xiangqi::Piece::new(side, kind).fen_letter())
                })
        })
        .collect();
    let pool = if pool.is_empty() {
        "-".to_owned()
    } else {
        pool
    };
    let canonical = base_position.to_fen();
    let fields: Vec<&str> = canonical.split(' ').collect();
    let [board, side, _, halfmove, fullmove] = fields[..] else {
        return Err(format!("unexpected Jieqi FEN `{canonical}`"));
    };
    let fen = format!("{board} {side} {pool} {halfmove} {fullmove}");
    // What the engine will read must be a valid position from which the moves are legal.
    let mut check = xiangqi::Game::new(
        XiangqiPosition::parse_fen(Variant::Jieqi, &fen)
            .map_err(|e| format!("the position sent `{fen}`: {e}"))?,
    );
    let moves: Vec<String> = view.moves[base_ply..].to_vec();
    for text in &moves {
        check
            .play_iccs(text)
            .map_err(|e| format!("the move sent `{text}` after `{fen}`: {e}"))?;
    }
    Ok(PositionCommand { start: fen, moves })
}

/// The UTC calendar date and time of `at`: (year, month, day, hour, minute, second).
fn civil_utc(at: SystemTime) -> (i64, u32, u32, u32, u32, u32) {
    let ms = at
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    jiang_rules::utc_civil(ms)
}

/// The pool's kinds in FEN order.
const KINDS: [PieceKind; 6] = PieceKind::COVERED;

#[cfg(test)]
mod tests {
    use super::*;
    use jiang_rules::jieqi::{Deal, JieqiGame, Salt};
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    #[test]
    fn civil_dates() {
        let at = |secs: u64| UNIX_EPOCH + std::time::Duration::from_secs(secs);
        // 2000-02-29 12:34:56 UTC (a leap day of a century leap year).
        assert_eq!(civil_utc(at(951_827_696)), (2000, 2, 29, 12, 34, 56));
    }

    fn salt() -> Salt {
        Salt::random(&mut StdRng::seed_from_u64(7))
    }

    fn game(deal: &str, moves: &[&str]) -> JieqiGame {
        let mut game = JieqiGame::with_deal(deal.parse::<Deal>().unwrap(), salt());
        for mv in moves {
            game.play(mv).unwrap();
        }
        game
    }

    fn command(game: &JieqiGame, side: Side) -> PositionCommand {
        jieqi_position(&game.view(Observer::player(side))).unwrap()
    }

    const STANDARD: &str = "RNBAABNRCCPPPPP/rnbaabnrccppppp";
    /// The standard deal with Black's h9 (a horse) and i9 (a chariot) swapped.
    const SWAPPED: &str = "RNBAABNRCCPPPPP/rnbaabrnccppppp";

    #[test]
    fn the_start_is_the_public_start_with_full_pools() {
        let game = game(STANDARD, &[]);
        for side in Side::BOTH {
            assert_eq!(
                command(&game, side),
                PositionCommand {
                    start: xiangqi::JIEQI_START.to_owned(),
                    moves: vec![]
                }
            );
        }
    }

    #[test]
    fn reveals_are_public_and_hidden_identities_are_not() {
        // Red's h2 (a cannon in both deals) moves: revealed to all. Black's pieces all stay
        // covered, so deals that differ only in them look the same to both players.
        let a = game(STANDARD, &["h2e2", "h7e7"]);
        let b = game(SWAPPED, &["h2e2", "h7e7"]);
        for side in Side::BOTH {
            let sent = command(&a, side);
            assert_eq!(sent, command(&b, side));
            assert_eq!(sent.start, xiangqi::JIEQI_START);
            assert_eq!(sent.moves, ["h2e2C", "h7e7c"]);
        }
    }

    #[test]
    fn only_the_captor_learns_a_covered_piece_it_captured() {
        // Red's h2 piece (moving as a cannon) jumps h7 and captures Black's covered h9: a
        // horse in the standard deal, a chariot in the swapped one.
        let a = game(STANDARD, &["h2h9"]);
        let b = game(SWAPPED, &["h2h9"]);
        // Black never learns what it lost: the same message whatever the deal, its own
        // pool still full.
        let black = command(&a, Side::BLACK);
        assert_eq!(black, command(&b, Side::BLACK));
        assert!(black.moves.is_empty(), "the capture is the base");
        assert_eq!(
            black.start,
            "xxxxkxxCx/9/1x5x1/x1x1x1x1x/9/9/X1X1X1X1X/1X7/9/XXXXKXXXX b A2B2N2R2C1P5a2b2n2r2c2p5 0 1"
        );
        // Red saw it: its pool of Black's identities lacks exactly that piece.
        let red_a = command(&a, Side::RED);
        let red_b = command(&b, Side::RED);
        assert!(
            red_a.start.contains(" A2B2N2R2C1P5a2b2n1r2c2p5 "),
            "{}",
            red_a.start
        );
        assert!(
            red_b.start.contains(" A2B2N2R2C1P5a2b2n2r1c2p5 "),
            "{}",
            red_b.start
        );
    }

    #[test]
    fn the_moves_since_the_last_capture_follow_the_base_with_the_pool_as_it_was() {
        let moves = ["h2h9", "i9i8", "b2e2", "a9a8"];
        let a = game(STANDARD, &moves);
        let black = command(&a, Side::BLACK);
        // Base: after the capture; Black's a9/i9 reveals come after it, so they are back in
        // the base's pool (both chariots) and appear as suffixes.
        assert_eq!(black.moves, ["i9i8r", "b2e2C", "a9a8r"]);
        assert!(
            black.start.contains(" A2B2N2R2C1P5a2b2n2r2c2p5 "),
            "{}",
            black.start
        );
        let red = command(&a, Side::RED);
        assert_eq!(red.moves, black.moves);
        assert!(
            red.start.contains(" A2B2N2R2C1P5a2b2n1r2c2p5 "),
            "{}",
            red.start
        );
        // The swapped deal: h9 was a chariot, so i9 reveals the horse.
        let b = game(SWAPPED, &moves);
        let black_b = command(&b, Side::BLACK);
        assert_eq!(black_b.moves, ["i9i8n", "b2e2C", "a9a8r"]);
        assert_eq!(
            black_b.start, black.start,
            "Black still does not know what it lost"
        );
        let red_b = command(&b, Side::RED);
        assert!(
            red_b.start.contains(" A2B2N2R2C1P5a2b2n2r1c2p5 "),
            "{}",
            red_b.start
        );
    }
}
