//! The generator's pipeline: games → [`standard::find`] (each puzzle proved) → one puzzle per
//! id and per position → sorted by id. Games are searched in parallel (one engine per game, so
//! the result does not depend on the number of jobs).

use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use jiang_rules::Variant;

use crate::format::Puzzle;
use crate::source::{self, SourceGame};
use crate::{jieqi, standard};

/// How deep the generator searches, and how long a solution may be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// The finding depth: every position is screened by a search to it, and a candidate's
    /// moves are all ranked to it.
    pub find_depth: u32,
    /// The proof depth (deeper): [`standard::verify`] ranks every move again to it.
    pub proof_depth: u32,
    /// Positions before this ply of a game are not screened (the random opening).
    pub min_ply: usize,
    /// The most solver moves in a solution.
    pub max_solver_moves: usize,
}

impl Settings {
    /// The settings the shipped sets were made with (`docs/puzzles.md`).
    pub fn for_variant(variant: Variant) -> Settings {
        // The proof depth is what re-proving every shipped puzzle of a variant in the tests
        // affords (about a minute on one core); shogi's many moves and drops make each ply
        // dear, so it finds at two plies and proves at four.
        let (find_depth, proof_depth) = match variant {
            Variant::Xiangqi | Variant::Jieqi => (3, 6),
            Variant::Shogi => (2, 4),
            Variant::Minishogi => (3, 5),
        };
        Settings {
            find_depth,
            proof_depth,
            min_ply: 8,
            max_solver_moves: 5,
        }
    }
}

/// What a generation did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Summary {
    /// Games searched.
    pub games: u64,
    /// Positions screened.
    pub positions: u64,
    /// Lines proposed for proof.
    pub candidates: u64,
    /// Puzzles proved, before removing repeats.
    pub proved: u64,
    /// Puzzles kept.
    pub puzzles: u64,
    /// CPU seconds of the workers (their threads' user and system time where the system tells
    /// it, else their busy wall time).
    pub cpu_seconds: f64,
}

impl Summary {
    /// The summary as one line: games, positions, candidates, puzzles, CPU time, rate.
    pub fn line(&self) -> String {
        format!(
            "{} games, {} positions searched, {} candidates, {} proved, {} puzzles kept, {:.0} CPU seconds, {:.0} puzzles per CPU hour",
            self.games,
            self.positions,
            self.candidates,
            self.proved,
            self.puzzles,
            self.cpu_seconds,
            self.per_cpu_hour()
        )
    }

    /// Puzzles kept per CPU hour.
    pub fn per_cpu_hour(&self) -> f64 {
        if self.cpu_seconds > 0.0 {
            self.puzzles as f64 * 3600.0 / self.cpu_seconds
        } else {
            0.0
        }
    }
}

/// Progress after each game.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Games done.
    pub games: u64,
    /// Games to do.
    pub of: u64,
    /// Puzzles proved so far (repeats included).
    pub proved: u64,
}

/// Finds puzzles in `count` games, game `i` being `game(i)` (skipped when `None`: a game that
/// could not be had), with `jobs` threads; calls `progress` after each game. The puzzles come
/// back without repeats and sorted by id (see [`finish`]).
pub fn generate(
    count: usize,
    game: &(dyn Fn(usize) -> Option<SourceGame> + Sync),
    settings: &Settings,
    jobs: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> (Vec<Puzzle>, Summary) {
    let next = AtomicUsize::new(0);
    let shared = Mutex::new((Vec::<Puzzle>::new(), Summary::default()));
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                let clock = CpuClock::start();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    let Some(source) = game(i) else {
                        continue;
                    };
                    let (found, stats) = find_counted(&source, settings);
                    let mut guard = shared.lock().unwrap_or_else(|e| e.into_inner());
                    let (puzzles, summary) = &mut *guard;
                    summary.games += 1;
                    summary.positions += stats.positions;
                    summary.candidates += stats.candidates;
                    summary.proved += found.len() as u64;
                    puzzles.extend(found);
                    progress(Progress {
                        games: summary.games,
                        of: count as u64,
                        proved: summary.proved,
                    });
                }
                let seconds = clock.seconds();
                let mut guard = shared.lock().unwrap_or_else(|e| e.into_inner());
                guard.1.cpu_seconds += seconds;
            });
        }
    });
    let (puzzles, mut summary) = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    let puzzles = finish(puzzles);
    summary.puzzles = puzzles.len() as u64;
    (puzzles, summary)
}

/// Games searched between two writes of the output in [`run_self_play`].
pub const BATCH: usize = 100;

/// Generates from `games` self-play games (seeds `seed`, `seed + 1`, …) with `jobs` threads
/// and writes the set (with at most `mates_in_one_percent` per cent mates in one, when given:
/// [`cap_mates_in_one`]) to `out`, rewriting it after every [`BATCH`] games (so an interrupted
/// run leaves the set of the games done: the same file as a run of that many games). Reports
/// progress on stderr.
pub fn run_self_play(
    variant: Variant,
    games: usize,
    seed: u64,
    jobs: usize,
    settings: &Settings,
    mates_in_one_percent: Option<u8>,
    out: &str,
) -> Result<Summary, crate::format::FormatError> {
    let mut all = Vec::new();
    let mut total = Summary::default();
    let mut done = 0;
    while done < games {
        let count = BATCH.min(games - done);
        let source = self_play_games(variant, seed.wrapping_add(done as u64));
        let (found, summary) = generate(count, &source, settings, jobs, &|_| {});
        done += count;
        total.games += summary.games;
        total.positions += summary.positions;
        total.candidates += summary.candidates;
        total.proved += summary.proved;
        total.cpu_seconds += summary.cpu_seconds;
        all.extend(found);
        all = finish(all);
        // The cap is taken on everything found so far, so the file after n games is the file
        // of a run of n games.
        let kept = match mates_in_one_percent {
            Some(percent) => cap_mates_in_one(all.clone(), percent),
            None => all.clone(),
        };
        total.puzzles = kept.len() as u64;
        write_file(out, &kept)?;
        eprintln!("{done}/{games} games: {}", total.line());
    }
    Ok(total)
}

/// At most `percent` per cent of `puzzles` (sorted by id, as [`finish`] leaves them) mates in
/// one: the surplus is dropped, the last by id (ids are hashes, so which stay is arbitrary but
/// reproducible). Games end in many one-move mates, and a set made mostly of them would be
/// solved by the weakest player (`docs/puzzles.md`, "Mates in one").
pub fn cap_mates_in_one(puzzles: Vec<Puzzle>, percent: u8) -> Vec<Puzzle> {
    let percent = usize::from(percent.min(100));
    let is_mate_in_one =
        |p: &Puzzle| p.proof.kind == crate::format::ProofKind::Mate && p.proof.plies == 1;
    let others = puzzles.iter().filter(|p| !is_mate_in_one(p)).count();
    // m / (m + others) <= percent / 100  <=>  m * (100 - percent) <= percent * others.
    let allowed = if percent == 100 {
        usize::MAX
    } else {
        percent * others / (100 - percent)
    };
    let mut kept = 0;
    puzzles
        .into_iter()
        .filter(|p| {
            if !is_mate_in_one(p) {
                return true;
            }
            kept += 1;
            kept <= allowed
        })
        .collect()
}

/// Writes `puzzles` to the file `path` (one a line).
pub fn write_file(path: &str, puzzles: &[Puzzle]) -> Result<(), crate::format::FormatError> {
    let file = std::fs::File::create(path)?;
    let mut writer = std::io::BufWriter::new(file);
    crate::format::write_puzzles(&mut writer, puzzles)?;
    std::io::Write::flush(&mut writer)?;
    Ok(())
}

/// The self-play games of a run: game `i` is [`source::self_play`] (Jieqi: [`jieqi::self_play`])
/// with seed `seed + i`.
pub fn self_play_games(variant: Variant, seed: u64) -> impl Fn(usize) -> Option<SourceGame> + Sync {
    move |i| {
        let seed = seed.wrapping_add(i as u64);
        match variant {
            Variant::Jieqi => Some(jieqi::self_play(seed)),
            _ => source::self_play(variant, seed).ok(),
        }
    }
}

/// The puzzles of one game with what the search counted: Jieqi's are found by its exact
/// proof over the covered pieces ([`jieqi::find`], which screens every position), the other
/// variants' by [`standard::find_counted`] with `settings`.
fn find_counted(game: &SourceGame, settings: &Settings) -> (Vec<Puzzle>, standard::FindStats) {
    match game.variant {
        Variant::Jieqi => {
            let found = jieqi::find(game);
            let stats = standard::FindStats {
                positions: game.moves.len() as u64,
                decisive: found.len() as u64,
                candidates: found.len() as u64,
            };
            (found, stats)
        }
        _ => standard::find_counted(game, settings),
    }
}

/// Sorts `puzzles` by id and keeps one per id and one per position (the first by id).
pub fn finish(mut puzzles: Vec<Puzzle>) -> Vec<Puzzle> {
    puzzles.sort_by(|a, b| a.id.cmp(&b.id));
    let mut ids = HashSet::new();
    let mut positions = HashSet::new();
    puzzles.retain(|p| ids.insert(p.id.clone()) && positions.insert(position_key(&p.position)));
    puzzles
}

/// A position without its move counters (the same position reached at another move number is
/// the same puzzle).
pub fn position_key(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    // Xiangqi FEN: board side castling en-passant halfmove fullmove; Jieqi's pool form: board
    // side pool halfmove fullmove; SFEN: board side hand number. Keep the board, the side and
    // the pool or the hand (what is hidden, or in hand, makes another puzzle).
    let keep = match fields.len() {
        4 | 5 => 3,
        _ => 2,
    };
    fields
        .iter()
        .take(keep)
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The CPU time of the current thread.
struct CpuClock {
    wall: Instant,
    ticks: Option<u64>,
}

impl CpuClock {
    fn start() -> CpuClock {
        CpuClock {
            wall: Instant::now(),
            ticks: thread_ticks(),
        }
    }

    fn seconds(&self) -> f64 {
        match (self.ticks, thread_ticks()) {
            (Some(a), Some(b)) if b >= a => (b - a) as f64 / 100.0,
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}

/// The current thread's user and system time in clock ticks (Linux, 100 a second).
fn thread_ticks() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command's closing parenthesis: state is field 3; utime, stime 14, 15.
    let after = stat.get(stat.rfind(')')? + 2..)?;
    let fields: Vec<&str> = after.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mates_in_one_cap_keeps_the_first_by_id_and_every_longer_puzzle() {
        use crate::format::{Proof, ProofKind};
        let puzzle = |id: &str, kind: ProofKind, plies: u32| {
            let mut p = Puzzle::hand_made(
                Variant::Xiangqi,
                "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1",
                &["d0e0"],
                kind,
            );
            p.id = id.to_string();
            p.proof = Proof {
                kind,
                plies,
                depth: 6,
            };
            p
        };
        let set = vec![
            puzzle("x1", ProofKind::Mate, 1),
            puzzle("x2", ProofKind::Mate, 3),
            puzzle("x3", ProofKind::Mate, 1),
            puzzle("x4", ProofKind::Advantage, 1),
            puzzle("x5", ProofKind::Mate, 1),
            puzzle("x6", ProofKind::Mate, 5),
            puzzle("x7", ProofKind::Mate, 1),
        ];
        let ids = |set: Vec<Puzzle>| set.into_iter().map(|p| p.id).collect::<Vec<_>>();
        // Three longer puzzles (an advantage in one ply is not a mate): 50% allows three mates
        // in one, a third allows one, none allows none, 100% keeps all.
        assert_eq!(
            ids(cap_mates_in_one(set.clone(), 50)),
            ["x1", "x2", "x3", "x4", "x5", "x6"]
        );
        assert_eq!(
            ids(cap_mates_in_one(set.clone(), 33)),
            ["x1", "x2", "x4", "x6"]
        );
        assert_eq!(ids(cap_mates_in_one(set.clone(), 0)), ["x2", "x4", "x6"]);
        assert_eq!(cap_mates_in_one(set.clone(), 100).len(), 7);
    }

    #[test]
    fn position_keys_drop_the_counters() {
        assert_eq!(
            position_key("4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 3 20"),
            "4k4/9/9/9/9/9/9/9/4A4/3K5 w"
        );
        assert_eq!(position_key("4k/5/5/5/K4 b G 31"), "4k/5/5/5/K4 b G");
        assert_eq!(
            position_key("4k4/9/9/x8/9/9/9/9/9/1R1K5 w R2p5 7 18"),
            "4k4/9/9/x8/9/9/9/9/9/1R1K5 w R2p5"
        );
    }
}
