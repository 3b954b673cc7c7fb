//! `jiang loadtest`: a load generator for a running Jiang server.
//!
//! Its own crate so that the server does not carry an HTTP client: it speaks plain `http://`
//! and `ws://` only (it targets a local server; there is no TLS client in the binary), and an
//! `https://` URL is refused with a clear error.
//!
//! It creates `--games` games (`POST /api/games`, a one-hour clock so nobody flags), takes the
//! second seat of each (`POST /api/games/{id}/join`), connects both players of each game over
//! WebSocket (`/api/games/{id}/ws?token=…`), then for `--seconds` plays random legal moves
//! taken from the `legal_moves` of the `state`/`move` events the mover receives. A game that
//! ends is replaced by a new one, so the number of live games stays at `--games`.
//!
//! For every move it measures the time from sending `{"type": "move", …}` on the mover's socket
//! to the opponent's socket receiving the `move` event of that ply. That time includes the
//! server's work (validation, the durable write, the broadcast) and the load generator's own
//! scheduling on a shared machine, so it is an upper bound on the server's part.
//!
//! Each game waits a random think time before each move (uniform, mean `games / rate`), so that
//! together the games offer about `--rate` moves per second (default 2.5 per game);
//! `--rate 0` removes the think time (each game then moves as fast as the server answers, and
//! the server's per-socket rate limit may refuse moves).
//!
//! # Report (standard output; other programs parse it)
//! Exactly these seven lines, in this order:
//! ```text
//! games 1000
//! sockets 2000
//! moves 61234
//! moves/s 2041.1
//! latency p50 3.21 ms
//! latency p99 21.70 ms
//! errors 0
//! ```
//! `games` and `sockets` are the games and player sockets live when the measurement started;
//! `moves` counts the moves sent during the `--seconds` window whose `move` event reached the
//! opponent; `moves/s` is `moves / seconds` (one decimal); the latencies are nearest-rank
//! percentiles in milliseconds (two decimals; `-` when no move was measured); `errors` counts
//! everything that went wrong (failed requests, refused moves, closed sockets, events that
//! never came within 10 s). Details (setup time, games created, errors by kind) go to standard
//! error. Exit status: 0 when moves > 0 and errors = 0, 1 otherwise, 2 when it could not run.
//! Several URLs and `--verify` add lines after these seven (below).
//!
//! The server limits API requests per client address, and all of this load comes from one:
//! start it with `jiang serve --rate-limit 0` for a load test.
//!
//! # Computer games
//! `--computer <n>` adds `n` games against the computer (level `--computer-level`, default 8;
//! untimed: up to 3 s a move)
//! played beside the human games: one socket each, a random legal move 0.2–0.6 s after it
//! becomes the visitor's turn, so that the server's engine threads are always busy. Their moves are not
//! part of the report (it measures the human games, which must keep their latency while the
//! computers think); standard error tells how many computer games ran and how many moves the
//! computers made. A computer that does not answer within the window is not an error.
//!
//! With `--lobby-clients`, it loads the lobby instead (see [`lobby`]); with `--arena-players`,
//! an arena tournament (see [`arena`]).
//!
//! # Several nodes (`--url` repeated)
//! `--url` may be given several times, one per node of a cluster (every node accepts every
//! request). Game number `i` (numbered as they are created) is created on `url[i % n]`, its
//! creator's socket connects there and its second seat is joined and connected through
//! `url[(i + 1) % n]`, so that every move crosses nodes; games against the computer and lobby
//! clients are spread the same way. After the seven lines the report then has one line per URL:
//! ```text
//! url http://127.0.0.1:8081 requests 668 sockets 667 moves 20411 failures 0
//! ```
//! `requests`: HTTP requests sent there (retries included); `sockets`: WebSockets opened there
//! (reconnections included); `moves`: measured moves whose mover's socket was there (the lines
//! add up to `moves`); `failures`: requests and connections there that failed and sockets
//! there that dropped. With a single `--url` there is no such line.
//!
//! # Lost moves (`--verify`)
//! With `--verify` the load generator rides out nodes that die or restart, and checks at the
//! end that the site kept every move it acknowledged:
//! - a request that fails without an answer (connection refused or reset, timeout) or with 502,
//!   503 or 504 is sent again to the next URL after a short backoff (100 ms, doubling to 1 s),
//!   for up to 30 s; a join whose retry finds the seat taken (the first attempt was stored but
//!   its answer lost) drops that game and a new one is made;
//! - a socket that drops, a move refused with a 503 code (`storage_unavailable`,
//!   `unavailable`, `cluster_unavailable`) or a move event that does not come within 10 s
//!   makes the game reconnect both players, each to the next URL, and continue from the fresh
//!   `state` (reconnections are retried the same way, each player on its own). So does a game
//!   found out of step: a `move` event of another move than the one sent, two `state`s at
//!   different plies, or, before the first acknowledged move after a failure, a move refused
//!   as `not_your_turn`, `illegal_move` or `game_over` (a move sent before the failure may be
//!   played after it);
//! - every `move` event received, on either player's socket, is an acknowledgement: the server
//!   sends it only once the move is stored. At the end each game with acknowledged moves is
//!   read through the public view (`GET /api/games/{id}`, retried as above) and every
//!   acknowledged move must be in its `moves` at its ply.
//!
//! Failures recovered this way are not `errors`. After the seven lines (and the URL lines) the
//! report adds:
//! ```text
//! latency max 812.40 ms
//! reconnects 12
//! retries 3
//! recovery 12 p50 420.10 ms max 2310.00 ms
//! acknowledged 61234, lost 0
//! ```
//! `latency max` is the longest measured move; `reconnects` the games resynchronised after a
//! failure; `retries` the requests and connections sent again; `recovery` how many games
//! recovered and, for each, the time from its failed move being sent (or the failure, when no
//! move was pending) to its next acknowledged move (a takeover seen from a player);
//! `acknowledged` the moves acknowledged, `lost` those missing from (or different in) the stored
//! game. Lost moves are listed on standard error. Exit status: 0 only when moves > 0,
//! errors = 0 and lost = 0.

mod arena;
mod computer;
mod drive;
mod lobby;
mod nodes;
mod play;
mod report;
mod verify;

pub use arena::ArenaReport;
pub use lobby::LobbyReport;
pub use nodes::NodeCounts;
pub use report::Report;
pub use verify::Verification;

use drive::drive;
use play::{GameError, Player, Socket, Tally};
use report::{ms, percentile};

use std::fmt;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use jiang_rules::Variant;
use tokio::sync::Semaphore;

use nodes::{Node, Target};

/// How long to wait for any expected answer (HTTP response, WebSocket event).
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);
/// How many games are being set up at once.
const SETUP_CONCURRENCY: usize = 64;
/// Default offered load per game, in moves per second.
const DEFAULT_RATE_PER_GAME: f64 = 2.5;
/// Main time of the games' clock, in seconds: long enough that nobody flags.
const MAIN_SECONDS: u64 = 3600;

/// Command-line arguments of `jiang loadtest`.
#[derive(clap::Args, Debug, Clone)]
pub struct Args {
    /// Base URL of the server, e.g. `http://127.0.0.1:8080`; repeat it for the nodes of a
    /// cluster (games, sockets and requests are spread over them).
    #[arg(long, required = true)]
    pub url: Vec<String>,
    /// Games played at once (two sockets each).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Length of the measurement, in seconds.
    #[arg(long, default_value_t = 10)]
    pub seconds: u64,
    /// Moves per second offered by all games together (default: 2.5 per game); 0 means no
    /// think time at all.
    #[arg(long)]
    pub rate: Option<f64>,
    /// The variant to play: xiangqi, jieqi, shogi or minishogi.
    #[arg(long, default_value = "xiangqi")]
    pub variant: Variant,
    /// Lobby mode: this many lobby WebSocket clients watch while seeks are created and taken
    /// (`--games` and `--rate` do not apply).
    #[arg(long)]
    pub lobby_clients: Option<usize>,
    /// Lobby mode: open seeks created (and each taken half a second later) per second.
    #[arg(long, default_value_t = 100.0)]
    pub seeks_per_second: f64,
    /// Games against the computer played beside the human games (level 8, untimed), so that
    /// the engine threads are busy while the human games are measured.
    #[arg(long, default_value_t = 0)]
    pub computer: usize,
    /// The level of those computers, 1–8.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=8))]
    pub computer_level: u32,
    /// Arena mode: this many players join one arena and play its games for `--seconds`,
    /// paired again after every game (`--games` does not apply; `--rate` is the moves per
    /// second of all games together, default 2.5 per game).
    #[arg(long)]
    pub arena_players: Option<usize>,
    /// Ride out nodes that die (sockets reconnect, requests are retried on another URL) and
    /// check at the end that every acknowledged move is stored: prints `acknowledged N, lost M`.
    #[arg(long)]
    pub verify: bool,
}

/// Why the load test could not run at all.
#[derive(Debug, thiserror::Error)]
pub enum LoadtestError {
    /// `--url` is not an http URL.
    #[error("--url {url:?} is not an http:// URL")]
    BadUrl {
        /// What was given.
        url: String,
    },
    /// `--url` is an https URL: the load generator has no TLS client.
    #[error(
        "--url {url:?}: https is not supported; the load generator speaks plain http:// to a \
         local server (point it at the server's own address, not at a TLS proxy)"
    )]
    TlsUnsupported {
        /// What was given.
        url: String,
    },
    /// A numeric argument out of range.
    #[error("{0}")]
    BadArgument(&'static str),
    /// The server did not answer `GET /healthz`.
    #[error("cannot reach the server at {url}: {reason}")]
    Unreachable {
        /// The URL tried.
        url: String,
        /// Why.
        reason: String,
    },
    /// The runtime or the HTTP client could not be built.
    #[error("cannot start: {0}")]
    Setup(String),
}

/// Runs `jiang loadtest` and prints the report; the exit status is documented above.
pub fn main(args: Args) -> ExitCode {
    if args.arena_players.is_some() {
        return exit_with(run_arena(&args), ArenaReport::passed);
    }
    if args.lobby_clients.is_some() {
        return exit_with(run_lobby(&args), |report| {
            !report.latencies.is_empty() && report.errors == 0
        });
    }
    exit_with(run(&args), Report::passed)
}

/// Prints a report (or the error) and gives the exit status: 0 when `passed`, 1 when the run
/// failed its own measure, 2 when it could not run.
fn exit_with<R: fmt::Display>(
    result: Result<R, LoadtestError>,
    passed: impl FnOnce(&R) -> bool,
) -> ExitCode {
    match result {
        Ok(report) => {
            let mut out = std::io::stdout().lock();
            let _ = write!(out, "{report}");
            let _ = out.flush();
            if passed(&report) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Starts `count` runs of `task` against `target`, at most [`SETUP_CONCURRENCY`] at a time.
fn spawn_limited<T, F, Fut>(
    target: &Arc<Target>,
    count: usize,
    task: F,
) -> Vec<tokio::task::JoinHandle<T>>
where
    F: Fn(Arc<Target>) -> Fut,
    Fut: Future<Output = T> + Send + 'static,
    T: Send + 'static,
{
    let limit = Arc::new(Semaphore::new(SETUP_CONCURRENCY));
    (0..count)
        .map(|_| {
            let limit = limit.clone();
            let run = task(target.clone());
            tokio::spawn(async move {
                let _permit = limit.acquire_owned().await.expect("never closed");
                run.await
            })
        })
        .collect()
}

/// Runs `task` `count` times under [`spawn_limited`] and waits for every run: each run's value
/// in order, `None` where it failed (the failure counted in `errors`).
async fn set_up_limited<T, F, Fut>(
    target: &Arc<Target>,
    count: usize,
    task: F,
    errors: &mut Tally,
) -> Vec<Option<T>>
where
    F: Fn(Arc<Target>) -> Fut,
    Fut: Future<Output = Result<T, GameError>> + Send + 'static,
    T: Send + 'static,
{
    let mut done = Vec::with_capacity(count);
    for run in spawn_limited(target, count, task) {
        match run.await.expect("set-up task panicked") {
            Ok(value) => done.push(Some(value)),
            Err(e) => {
                errors.error(&e);
                done.push(None);
            }
        }
    }
    done
}

/// The lobby mode (`--lobby-clients`): validates its arguments and runs it.
pub fn run_lobby(args: &Args) -> Result<LobbyReport, LoadtestError> {
    let clients = args.lobby_clients.unwrap_or(0);
    if clients == 0 {
        return Err(LoadtestError::BadArgument(
            "--lobby-clients must be at least 1",
        ));
    }
    if !(args.seeks_per_second.is_finite() && args.seeks_per_second > 0.0) {
        return Err(LoadtestError::BadArgument(
            "--seeks-per-second must be a number of seeks per second, more than 0",
        ));
    }
    if args.seconds == 0 {
        return Err(LoadtestError::BadArgument("--seconds must be at least 1"));
    }
    if args.verify {
        return Err(LoadtestError::BadArgument(
            "--verify checks the moves of games; it does not apply to --lobby-clients",
        ));
    }
    let (runtime, target) = setup(args, clients / 2)?;
    runtime.block_on(lobby::drive(
        target,
        clients,
        args.seeks_per_second,
        Duration::from_secs(args.seconds),
    ))
}

/// The arena mode (`--arena-players`): validates its arguments and runs it.
pub fn run_arena(args: &Args) -> Result<ArenaReport, LoadtestError> {
    let players = args.arena_players.unwrap_or(0);
    if players < 2 {
        return Err(LoadtestError::BadArgument(
            "--arena-players must be at least 2",
        ));
    }
    if args.seconds == 0 {
        return Err(LoadtestError::BadArgument("--seconds must be at least 1"));
    }
    if args.verify || args.lobby_clients.is_some() {
        return Err(LoadtestError::BadArgument(
            "--arena-players runs alone: without --verify and --lobby-clients",
        ));
    }
    let games = players / 2;
    let rate = args.rate.unwrap_or(DEFAULT_RATE_PER_GAME * games as f64);
    if !(rate.is_finite() && rate >= 0.0) {
        return Err(LoadtestError::BadArgument(
            "--rate must be a number of moves per second, 0 or more",
        ));
    }
    let mean_think = if rate > 0.0 {
        Duration::from_secs_f64(games as f64 / rate)
    } else {
        Duration::ZERO
    };
    // Each player has a tournament socket and, while it plays, a game socket.
    let (runtime, target) = setup(args, players)?;
    runtime.block_on(arena::drive(
        target,
        players,
        Duration::from_secs(args.seconds),
        mean_think,
    ))
}

/// The target's URLs and HTTP client, and a runtime, for `sockets / 2` games' worth of sockets.
fn setup(
    args: &Args,
    games: usize,
) -> Result<(tokio::runtime::Runtime, Arc<Target>), LoadtestError> {
    let nodes = args
        .url
        .iter()
        .map(|url| Node::parse(url))
        .collect::<Result<Vec<_>, _>>()?;
    if nodes.is_empty() {
        return Err(LoadtestError::BadArgument("--url is required"));
    }
    raise_open_file_limit(games);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| LoadtestError::Setup(e.to_string()))?;
    let http = reqwest::Client::builder()
        .timeout(ANSWER_TIMEOUT)
        .pool_max_idle_per_host(SETUP_CONCURRENCY)
        .build()
        .map_err(|e| LoadtestError::Setup(e.to_string()))?;
    let target = Arc::new(Target::new(
        http,
        nodes,
        args.variant,
        args.computer_level,
        args.verify,
    ));
    Ok((runtime, target))
}

/// Validates the arguments, raises the open-file limit and runs the test.
pub fn run(args: &Args) -> Result<Report, LoadtestError> {
    let (runtime, target) = setup(args, args.games + args.computer)?;
    if args.games == 0 {
        return Err(LoadtestError::BadArgument("--games must be at least 1"));
    }
    if args.seconds == 0 {
        return Err(LoadtestError::BadArgument("--seconds must be at least 1"));
    }
    let rate = args
        .rate
        .unwrap_or(DEFAULT_RATE_PER_GAME * args.games as f64);
    if !(rate.is_finite() && rate >= 0.0) {
        return Err(LoadtestError::BadArgument(
            "--rate must be a number of moves per second, 0 or more",
        ));
    }
    let mean_think = if rate > 0.0 {
        Duration::from_secs_f64(args.games as f64 / rate)
    } else {
        Duration::ZERO
    };
    runtime.block_on(drive(
        target,
        args.games,
        args.computer,
        Duration::from_secs(args.seconds),
        mean_think,
    ))
}

/// Raises the soft open-file limit to what `games` need (two sockets each, plus the HTTP
/// pool), or says plainly on standard error that it could not.
fn raise_open_file_limit(games: usize) {
    let needed = (2 * games + SETUP_CONCURRENCY + 64) as u64;
    match rlimit::increase_nofile_limit(needed) {
        Ok(limit) if limit >= needed => {}
        Ok(limit) => eprintln!(
            "warning: the open-file limit is {limit}, but {games} games need about {needed} \
             descriptors; raise it (`ulimit -n {needed}`, as root `ulimit -Hn` first) or run \
             fewer games. The server needs the same."
        ),
        Err(e) => eprintln!(
            "warning: cannot read or raise the open-file limit ({e}); {games} games need about \
             {needed} descriptors"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_arguments_are_refused_before_anything_runs() {
        let args = |url: &str, games, seconds, rate| Args {
            url: vec![url.into()],
            games,
            seconds,
            rate,
            variant: Variant::Xiangqi,
            lobby_clients: None,
            seeks_per_second: 100.0,
            computer: 0,
            computer_level: 8,
            verify: false,
            arena_players: None,
        };
        assert!(matches!(
            run(&args("ftp://x", 1, 1, None)),
            Err(LoadtestError::BadUrl { .. })
        ));
        assert!(matches!(
            run(&args("https://127.0.0.1:1", 1, 1, None)),
            Err(LoadtestError::TlsUnsupported { .. })
        ));
        assert!(matches!(
            run(&args("http://127.0.0.1:1", 0, 1, None)),
            Err(LoadtestError::BadArgument(_))
        ));
        assert!(matches!(
            run(&args("http://127.0.0.1:1", 1, 0, None)),
            Err(LoadtestError::BadArgument(_))
        ));
        assert!(matches!(
            run(&args("http://127.0.0.1:1", 1, 1, Some(-1.0))),
            Err(LoadtestError::BadArgument(_))
        ));
        // Port 1 on loopback: nothing listens there.
        assert!(matches!(
            run(&args("http://127.0.0.1:1", 1, 1, None)),
            Err(LoadtestError::Unreachable { .. })
        ));
        // Every URL is checked, not only the first.
        let mut two = args("http://127.0.0.1:1", 1, 1, None);
        two.url.push("https://127.0.0.1:2".into());
        assert!(matches!(
            run(&two),
            Err(LoadtestError::TlsUnsupported { url }) if url == "https://127.0.0.1:2"
        ));
        // The lobby mode has no moves to verify.
        let lobby = Args {
            lobby_clients: Some(2),
            verify: true,
            ..args("http://127.0.0.1:1", 1, 1, None)
        };
        assert!(matches!(
            run_lobby(&lobby),
            Err(LoadtestError::BadArgument(why)) if why.contains("--verify")
        ));
    }
}
