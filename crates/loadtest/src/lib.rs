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
//! With `--lobby-clients`, it loads the lobby instead (see [`lobby`]).
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

mod lobby;
mod nodes;
mod verify;

pub use lobby::LobbyReport;
pub use nodes::NodeCounts;
pub use verify::Verification;

use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use jiang_protocol::{
    ClientMessage, CreateGame, Created, EmptyRequest, ErrorCode, GameStatus, Joined, Opponent,
    ServerMessage, TimeControlSpec,
};
use jiang_rules::Variant;
use rand::Rng;
use rand::seq::IndexedRandom;
use tokio::net::TcpStream;
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

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

/// What went wrong with one game; counted, and the game abandoned (with `--verify`, the
/// [recoverable](GameError::recoverable) ones are ridden out instead).
#[derive(Debug, thiserror::Error)]
enum GameError {
    #[error("HTTP {what}: {reason}")]
    Http { what: &'static str, reason: String },
    #[error("HTTP {what}: status {status}: {body}")]
    Status {
        what: &'static str,
        status: u16,
        body: String,
    },
    #[error("HTTP {what}: the answer is not what was expected: {reason}")]
    BadAnswer { what: &'static str, reason: String },
    #[error("HTTP {0}: the retry found it done (the first attempt's answer was lost)")]
    LostAnswer(&'static str),
    #[error("WebSocket connect: {0}")]
    Connect(String),
    #[error("WebSocket upgrade refused with status {0}")]
    Upgrade(u16),
    #[error("WebSocket: {0}")]
    Socket(String),
    #[error("socket closed by the server")]
    Closed,
    #[error("server error event: {code}: {message}")]
    Refused { code: ErrorCode, message: String },
    #[error("no {0} within 10 s")]
    Timeout(&'static str),
    #[error("unexpected event: {0}")]
    Unexpected(String),
    /// What the load generator believed of a game is behind the server: a move it did not
    /// send arrived, or the two players' states disagree (after a failure, a move sent before
    /// it can still be played).
    #[error("out of step with the game: {0}")]
    Stale(String),
}

/// Statuses that say "this node cannot serve now, another may": a proxy's bad gateway and
/// gateway timeout, the server's 503s.
fn transient_status(status: u16) -> bool {
    matches!(status, 502..=504)
}

impl GameError {
    /// A short label to tally errors by.
    fn kind(&self) -> String {
        match self {
            GameError::Http { what, .. } => format!("http {what}"),
            GameError::Status { what, status, .. } => format!("http {what} {status}"),
            GameError::BadAnswer { what, .. } => format!("http {what} bad answer"),
            GameError::LostAnswer(what) => format!("http {what} answer lost"),
            GameError::Connect(_) => "ws connect".into(),
            GameError::Upgrade(status) => format!("ws connect {status}"),
            GameError::Socket(_) => "ws error".into(),
            GameError::Closed => "ws closed".into(),
            GameError::Refused { code, .. } => format!("refused {code}"),
            GameError::Timeout(what) => format!("timeout {what}"),
            GameError::Unexpected(_) => "unexpected event".into(),
            GameError::Stale(_) => "out of step".into(),
        }
    }

    /// Whether a node dying or restarting explains it, so that `--verify` tries again
    /// elsewhere: no answer at all, a 502/503/504, a dropped socket, a 503 refusal, an event
    /// that never came.
    fn recoverable(&self) -> bool {
        match self {
            GameError::Http { .. }
            | GameError::LostAnswer(_)
            | GameError::Connect(_)
            | GameError::Socket(_)
            | GameError::Closed
            | GameError::Timeout(_)
            | GameError::Stale(_) => true,
            GameError::Status { status, .. } | GameError::Upgrade(status) => {
                transient_status(*status)
            }
            GameError::Refused { code, .. } => code.status() == 503,
            GameError::BadAnswer { .. } | GameError::Unexpected(_) => false,
        }
    }

    /// Whether it is a refusal that a stale picture of the game explains (a move for a turn
    /// or position that is no longer there): recoverable right after a failure, when a move
    /// sent before it may still have been played since.
    fn refused_as_stale(&self) -> bool {
        matches!(
            self,
            GameError::Refused {
                code: ErrorCode::NotYourTurn | ErrorCode::IllegalMove | ErrorCode::GameOver,
                ..
            }
        )
    }
}

/// Whether `recorded` (a `move` event's move) is the move `sent`: the same text, or Jieqi's
/// with the letter of the piece it revealed.
fn is_move(recorded: &str, sent: &str) -> bool {
    recorded.strip_prefix(sent).is_some_and(|rest| {
        rest.is_empty() || (rest.len() == 1 && rest.bytes().all(|b| b.is_ascii_alphabetic()))
    })
}

/// The load test's results.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Report {
    /// Games live when the measurement started.
    pub games: usize,
    /// Player sockets open when the measurement started.
    pub sockets: usize,
    /// Moves measured.
    pub moves: u64,
    /// Length of the measurement window.
    pub window: Duration,
    /// Move latencies, sorted.
    pub latencies: Vec<Duration>,
    /// Errors of all kinds (with `--verify`, those not ridden out).
    pub errors: u64,
    /// What each URL was sent (printed when there are several).
    pub nodes: Vec<NodeCounts>,
    /// `--verify`: the failures ridden out and the lost-moves check.
    pub verification: Option<Verification>,
}

impl Report {
    /// Moves per second over the window.
    pub fn rate(&self) -> f64 {
        self.moves as f64 / self.window.as_secs_f64().max(1e-9)
    }

    /// Nearest-rank percentile (`p` in 0..=100) of the latencies.
    pub fn percentile(&self, p: f64) -> Option<Duration> {
        percentile(&self.latencies, p)
    }

    /// Whether the run passed its own measure (exit status 0).
    pub fn passed(&self) -> bool {
        self.moves > 0 && self.errors == 0 && self.verification.as_ref().is_none_or(|v| v.lost == 0)
    }
}

/// Nearest-rank percentile of sorted values.
fn percentile(sorted: &[Duration], p: f64) -> Option<Duration> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// Milliseconds with two decimals, `-` for none: the report's one way to write a time.
fn ms(d: Option<Duration>) -> String {
    match d {
        Some(d) => format!("{:.2}", d.as_secs_f64() * 1000.0),
        None => "-".to_owned(),
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "games {}", self.games)?;
        writeln!(f, "sockets {}", self.sockets)?;
        writeln!(f, "moves {}", self.moves)?;
        writeln!(f, "moves/s {:.1}", self.rate())?;
        writeln!(f, "latency p50 {} ms", ms(self.percentile(50.0)))?;
        writeln!(f, "latency p99 {} ms", ms(self.percentile(99.0)))?;
        writeln!(f, "errors {}", self.errors)?;
        nodes::write_lines(f, &self.nodes)?;
        if let Some(verification) = &self.verification {
            writeln!(f, "latency max {} ms", ms(self.latencies.last().copied()))?;
            write!(f, "{verification}")?;
        }
        Ok(())
    }
}

/// Runs `jiang loadtest` and prints the report; the exit status is documented above.
pub fn main(args: Args) -> ExitCode {
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

type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// One player's socket and the node (index into the URLs) it is connected to.
struct Player {
    socket: Socket,
    node: usize,
}

/// A game in progress: its seats, both players, whose move it is and what is legal for it.
struct LiveGame {
    id: String,
    tokens: [String; 2],
    players: [Player; 2],
    mover: usize,
    ply: u64,
    legal: Vec<String>,
}

/// Per-slot tallies, merged at the end.
#[derive(Default)]
struct Tally {
    moves: u64,
    latencies: Vec<Duration>,
    errors: BTreeMap<String, (u64, String)>,
    games_created: u64,
    /// `--verify`: the moves acknowledged, per game and ply.
    acked: verify::Acked,
    /// `--verify`: failed move (or failure) → next acknowledged move of that game.
    recoveries: Vec<Duration>,
    /// `--verify`: the failures ridden out by reconnecting, by kind (as `errors`).
    ridden_out: BTreeMap<String, (u64, String)>,
}

impl Tally {
    fn error(&mut self, e: &GameError) {
        count_kind(&mut self.errors, e);
    }

    fn error_count(&self) -> u64 {
        self.errors.values().map(|(n, _)| n).sum()
    }

    fn merge(&mut self, other: Tally) {
        self.moves += other.moves;
        self.latencies.extend(other.latencies);
        self.games_created += other.games_created;
        merge_kinds(&mut self.errors, other.errors);
        self.acked.extend(other.acked);
        self.recoveries.extend(other.recoveries);
        merge_kinds(&mut self.ridden_out, other.ridden_out);
    }

    /// Notes a `move` event: with `--verify`, the server's word that `mv` is stored at `ply`
    /// (the first word for a ply is kept: a different move there later is a loss).
    fn acknowledged(&mut self, target: &Target, game: &str, ply: u64, mv: &str) {
        if target.verify {
            self.acked
                .entry(game.to_owned())
                .or_default()
                .entry(ply)
                .or_insert_with(|| mv.to_owned());
        }
    }
}

/// Counts `e` under its kind, keeping the first of each kind as the example.
fn count_kind(kinds: &mut BTreeMap<String, (u64, String)>, e: &GameError) {
    kinds.entry(e.kind()).or_insert((0, e.to_string())).0 += 1;
}

/// Adds the counts of `other` to `kinds`, keeping `kinds`' example where both have the kind.
fn merge_kinds(
    kinds: &mut BTreeMap<String, (u64, String)>,
    other: BTreeMap<String, (u64, String)>,
) {
    for (kind, (n, example)) in other {
        kinds.entry(kind).or_insert((0, example)).0 += n;
    }
}

/// Sets up every game, then plays them all for `window`.
async fn drive(
    target: Arc<Target>,
    games: usize,
    computer_games: usize,
    window: Duration,
    mean_think: Duration,
) -> Result<Report, LoadtestError> {
    target.check_health().await?;

    let setup_started = Instant::now();
    // The computers start thinking first and go on until the end of the window.
    let computers_stop = Arc::new(tokio::sync::Notify::new());
    let computers: Vec<_> = (0..computer_games)
        .map(|_| {
            let (target, stop) = (target.clone(), computers_stop.clone());
            tokio::spawn(async move { computer_slot(&target, &stop).await })
        })
        .collect();
    let mut tally = Tally::default();
    let ready = set_up_limited(
        &target,
        games,
        |target| async move { new_game(&target).await },
        &mut tally,
    )
    .await;
    tally.games_created += games as u64;
    let live = ready.iter().filter(|g| g.is_some()).count();
    eprintln!(
        "set up {live} of {games} games ({} sockets) in {:.1} s",
        2 * live,
        setup_started.elapsed().as_secs_f64()
    );

    let start = Instant::now();
    let deadline = start + window;
    let slots: Vec<_> = ready
        .into_iter()
        .map(|game| {
            let target = target.clone();
            tokio::spawn(play_slot(target, game, deadline, mean_think))
        })
        .collect();
    for slot in slots {
        tally.merge(slot.await.expect("game task panicked"));
    }
    let elapsed = start.elapsed();
    computers_stop.notify_waiters();
    let mut computer = ComputerTally::default();
    for slot in computers {
        let t = slot.await.expect("computer game task panicked");
        computer.games += t.games;
        computer.moves += t.moves;
        merge_kinds(&mut tally.errors, t.errors.errors);
    }
    if computer_games > 0 {
        eprintln!(
            "computer games: {} kept at once, {} created, {} computer moves",
            computer_games, computer.games, computer.moves
        );
    }
    eprintln!(
        "played for {:.1} s; {} games created in all",
        elapsed.as_secs_f64(),
        tally.games_created
    );
    let verification = if target.verify {
        let acked = std::mem::take(&mut tally.acked);
        let checked = verify::check(&target, acked).await;
        for unread in &checked.unread {
            tally.error(unread);
        }
        let mut recoveries = std::mem::take(&mut tally.recoveries);
        recoveries.sort_unstable();
        Some(Verification {
            reconnects: target.reconnects(),
            retries: target.retries(),
            recoveries,
            acknowledged: checked.acknowledged,
            lost: checked.lost,
        })
    } else {
        None
    };
    for (kind, (n, example)) in &tally.ridden_out {
        eprintln!("reconnected after x{n} [{kind}], e.g.: {example}");
    }
    for (kind, (n, example)) in &tally.errors {
        eprintln!("error x{n} [{kind}], e.g.: {example}");
    }
    if tally
        .errors
        .keys()
        .any(|kind| kind.ends_with(" 429") || kind.contains("rate_limited"))
    {
        eprintln!(
            "hint: the server limits requests per client address, and all of this load comes \
             from one; start it with `jiang serve --rate-limit 0` (JIANG_RATE_LIMIT=0)"
        );
    }
    let mut latencies = std::mem::take(&mut tally.latencies);
    latencies.sort_unstable();
    Ok(Report {
        games: live,
        sockets: 2 * live,
        moves: tally.moves,
        window,
        latencies,
        errors: tally.error_count(),
        nodes: target.counts(),
        verification,
    })
}

/// Keeps one game going until `deadline`, replacing it when it ends or fails.
async fn play_slot(
    target: Arc<Target>,
    mut game: Option<LiveGame>,
    deadline: Instant,
    mean_think: Duration,
) -> Tally {
    let mut tally = Tally::default();
    let mut failures_in_a_row = 0u32;
    while Instant::now() < deadline {
        let current = match game.take() {
            Some(g) => g,
            None => {
                tally.games_created += 1;
                match new_game(&target).await {
                    Ok(g) => g,
                    Err(e) => {
                        // `--verify`: a join whose answer was lost (retries already spent
                        // the rest) only costs the game.
                        if !(target.verify && matches!(e, GameError::LostAnswer(_))) {
                            tally.error(&e);
                        }
                        failures_in_a_row += 1;
                        // Back off so that a broken server is not hammered.
                        let pause = Duration::from_millis(100 << failures_in_a_row.min(5));
                        tokio::time::sleep(pause).await;
                        continue;
                    }
                }
            }
        };
        match play(&target, current, deadline, mean_think, &mut tally).await {
            Ok(()) => failures_in_a_row = 0,
            Err(e) => {
                tally.error(&e);
                failures_in_a_row += 1;
            }
        }
    }
    tally
}

/// Creates a game (game number `i` on node `i`), joins its second seat through the next node
/// and connects both players, each through the node it used.
async fn new_game(target: &Target) -> Result<LiveGame, GameError> {
    let body = CreateGame {
        variant: target.variant.name().to_owned(),
        clock: Some(TimeControlSpec {
            main: MAIN_SECONDS as f64,
            ..TimeControlSpec::default()
        }),
        ..CreateGame::default()
    };
    let node = target.next_number();
    let created: Created = target.post(node, "create", "/api/games", &body).await?;
    let path = format!("/api/games/{}/join", created.id);
    let joined: Joined = target
        .post(node + 1, "join", &path, &EmptyRequest {})
        .await?;
    let tokens = [created.token, joined.token];
    open_game(target, created.id, tokens, [node, node + 1]).await
}

/// Connects both players of game `id` (through `nodes`; while `--verify` retries, each player
/// tries the following nodes on its own, so that one dead node does not hold both back) and
/// reads where the game stands from their `state` messages.
async fn open_game(
    target: &Target,
    id: String,
    tokens: [String; 2],
    nodes: [usize; 2],
) -> Result<LiveGame, GameError> {
    target
        .retrying(|k| {
            let (id, tokens) = (&id, &tokens);
            let connect = move |p: usize| {
                target.retrying(move |j| target.connect(nodes[p] + k + j, id, &tokens[p]))
            };
            async move {
                let (a, b) = tokio::try_join!(connect(0), connect(1))?;
                read_states(id.clone(), tokens.clone(), [a, b]).await
            }
        })
        .await
}

/// A game from its two players' first messages.
async fn read_states(
    id: String,
    tokens: [String; 2],
    mut players: [Player; 2],
) -> Result<LiveGame, GameError> {
    // Each socket's first message is its `state`: the mover is the one whose seat is to move.
    let mut mover = None;
    let mut plies = [0; 2];
    let mut legal = Vec::new();
    let mut over = false;
    for (i, player) in players.iter_mut().enumerate() {
        let ServerMessage::State(view) = next_event(&mut player.socket, "state").await? else {
            return Err(GameError::Unexpected(
                "the first message is not a state".into(),
            ));
        };
        let state = view.state;
        plies[i] = state.ply;
        over |= state.status != GameStatus::Playing;
        if state.you.is_some() && state.you == state.to_move {
            mover = Some(i);
            legal = state.legal_moves;
        }
    }
    if plies[0] != plies[1] {
        // A move was played between the two reads (one sent before a failure).
        return Err(GameError::Stale(format!(
            "the players' states are at plies {} and {}",
            plies[0], plies[1]
        )));
    }
    let ply = plies[0];
    if over {
        // Ended meanwhile (a move stored whose answer was lost ended it): nothing to play.
        legal.clear();
    }
    let mover = match mover {
        Some(mover) => mover,
        None if over => 0,
        None => {
            return Err(GameError::Unexpected(
                "neither player is to move in the initial state".into(),
            ));
        }
    };
    Ok(LiveGame {
        id,
        tokens,
        players,
        mover,
        ply,
        legal,
    })
}

/// The next JSON message from the server on `socket` (pings are answered by tungstenite),
/// within [`ANSWER_TIMEOUT`].
async fn next_event(
    socket: &mut Socket,
    waiting_for: &'static str,
) -> Result<ServerMessage, GameError> {
    tokio::time::timeout(ANSWER_TIMEOUT, next_message(socket))
        .await
        .map_err(|_| GameError::Timeout(waiting_for))?
}

/// The next JSON message from the server on `socket`, however long it takes.
async fn next_message(socket: &mut Socket) -> Result<ServerMessage, GameError> {
    loop {
        let message = socket.next().await;
        let text = match message {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Close(_))) | None => return Err(GameError::Closed),
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(GameError::Socket(e.to_string())),
        };
        return serde_json::from_str(text.as_str()).map_err(|e| {
            // serde names every expected variant: keep the start of it and of the message.
            let why: String = e.to_string().chars().take(120).collect();
            let what: String = text.as_str().chars().take(300).collect();
            GameError::Unexpected(format!("{why}…: {what}"))
        });
    }
}

/// Plays `game` until it ends or `deadline` passes, then closes its sockets. With `--verify`
/// a recoverable failure reconnects both players (on the next nodes) and play goes on.
async fn play(
    target: &Target,
    mut game: LiveGame,
    deadline: Instant,
    mean_think: Duration,
    tally: &mut Tally,
) -> Result<(), GameError> {
    // With `--verify`: when the failure being recovered from began.
    let mut failed_at: Option<Instant> = None;
    loop {
        let mut pending = None;
        let result = play_moves(
            target,
            &mut game,
            deadline,
            mean_think,
            tally,
            &mut pending,
            &mut failed_at,
        )
        .await;
        for player in &mut game.players {
            let _ = tokio::time::timeout(Duration::from_secs(1), player.socket.close(None)).await;
        }
        let error = match result {
            Ok(()) => return Ok(()),
            Err(e)
                if target.verify
                    && (e.recoverable() || (failed_at.is_some() && e.refused_as_stale())) =>
            {
                e
            }
            Err(e) => {
                if target.verify {
                    // Rare by construction: say which game, for the servers' logs.
                    eprintln!("game {} at ply {}: {e}", game.id, game.ply);
                }
                return Err(e);
            }
        };
        if Instant::now() >= deadline {
            return Ok(()); // nothing more to play in this game
        }
        failed_at.get_or_insert(pending.unwrap_or_else(Instant::now));
        count_kind(&mut tally.ridden_out, &error);
        target.note_reconnect();
        let nodes = game.players.each_ref().map(|p| p.node + 1);
        game = open_game(target, game.id, game.tokens, nodes).await?;
    }
}

/// Plays moves in `game` until it ends or `deadline` passes; `pending` is when the move
/// waiting for its event was sent, `failed_at` when the failure being recovered from (with
/// `--verify`) began, cleared by the next acknowledged move.
async fn play_moves(
    target: &Target,
    game: &mut LiveGame,
    deadline: Instant,
    mean_think: Duration,
    tally: &mut Tally,
    pending: &mut Option<Instant>,
    failed_at: &mut Option<Instant>,
) -> Result<(), GameError> {
    loop {
        if game.legal.is_empty() {
            return Ok(()); // the game is over
        }
        if !mean_think.is_zero() {
            let think = rand::rng().random_range(Duration::ZERO..=2 * mean_think);
            tokio::time::sleep(think).await;
        }
        if Instant::now() >= deadline {
            return Ok(());
        }
        let mv = game
            .legal
            .choose(&mut rand::rng())
            .expect("not empty")
            .clone();
        let text = serde_json::to_string(&ClientMessage::Move { mv: mv.clone() })
            .expect("a move serialises");
        let target_ply = game.ply + 1;
        let (left, right) = game.players.split_at_mut(1);
        let (mover, opponent) = if game.mover == 0 {
            (&mut left[0], &mut right[0])
        } else {
            (&mut right[0], &mut left[0])
        };
        let sent = Instant::now();
        *pending = Some(sent);
        mover
            .socket
            .send(Message::Text(text.into()))
            .await
            .map_err(|e| target.socket_failed(mover.node, GameError::Socket(e.to_string())))?;
        // Wait for the opponent's `move` event of this ply, watching the mover's socket for a
        // refusal meanwhile (and reading its own echo).
        let event = loop {
            tokio::select! {
                event = next_event(&mut opponent.socket, "move event") => {
                    match event.map_err(|e| target.socket_failed(opponent.node, e))? {
                        ServerMessage::Move(event) => {
                            tally.acknowledged(target, &game.id, event.state.ply, &event.mv);
                            if event.state.ply >= target_ply {
                                if event.state.ply > target_ply || !is_move(&event.mv, &mv) {
                                    return Err(GameError::Stale(format!(
                                        "sent {mv} for ply {target_ply}, ply {} is {}",
                                        event.state.ply, event.mv
                                    )));
                                }
                                break event;
                            }
                        }
                        ServerMessage::Error { code, message, .. } => return Err(refused(code, &message)),
                        _ => {}
                    }
                }
                event = next_event(&mut mover.socket, "move echo") => {
                    match event.map_err(|e| target.socket_failed(mover.node, e))? {
                        ServerMessage::Move(event) => {
                            tally.acknowledged(target, &game.id, event.state.ply, &event.mv);
                        }
                        ServerMessage::Error { code, message, .. } => return Err(refused(code, &message)),
                        _ => {}
                    }
                }
            }
        };
        let latency = sent.elapsed();
        *pending = None;
        if let Some(failed) = failed_at.take() {
            tally.recoveries.push(failed.elapsed());
        }
        tally.moves += 1;
        tally.latencies.push(latency);
        target.moved(mover.node);
        game.ply = event.state.ply;
        game.mover = 1 - game.mover;
        game.legal = if event.state.status == GameStatus::Playing {
            event.state.legal_moves
        } else {
            Vec::new()
        };
    }
}

/// What the games against the computer did.
#[derive(Default)]
struct ComputerTally {
    games: u64,
    moves: u64,
    errors: Tally,
}

/// How long the visitor of a game against the computer thinks before each move.
const COMPUTER_GAME_THINK: std::ops::Range<Duration> =
    Duration::from_millis(200)..Duration::from_millis(600);

/// Keeps one game against the computer going until `stop`: the visitor's side plays a random
/// legal move whenever it is to move, the computer answers in its own time. With `--verify` a
/// game that a failing node interrupts is replaced without counting an error.
async fn computer_slot(target: &Target, stop: &tokio::sync::Notify) -> ComputerTally {
    let mut tally = ComputerTally::default();
    let stopped = stop.notified();
    tokio::pin!(stopped);
    loop {
        tally.games += 1;
        let outcome = tokio::select! {
            outcome = computer_game(target, &mut tally.moves) => outcome,
            _ = &mut stopped => return tally,
        };
        if let Err(e) = outcome {
            if !(target.verify && e.recoverable()) {
                tally.errors.error(&e);
            }
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_secs(1)) => {}
                _ = &mut stopped => return tally,
            }
        }
    }
}

/// Plays one game against the computer to its end, counting the computer's moves.
async fn computer_game(target: &Target, moves: &mut u64) -> Result<(), GameError> {
    let body = CreateGame {
        variant: target.variant.name().to_owned(),
        opponent: Some(Opponent::Computer(target.computer_level)),
        ..CreateGame::default()
    };
    let node = target.next_number();
    let created: Created = target.post(node, "create", "/api/games", &body).await?;
    let mut player = target.connect(node, &created.id, &created.token).await?;
    let ServerMessage::State(view) = next_event(&mut player.socket, "state").await? else {
        return Err(GameError::Unexpected(
            "the first message is not a state".into(),
        ));
    };
    let mut state = view.state;
    loop {
        if state.status != GameStatus::Playing {
            let _ = player.socket.close(None).await;
            return Ok(());
        }
        if state.you.is_some() && state.you == state.to_move {
            // A short think, as a person's (a weak computer answers at once, and the server
            // limits the messages per socket).
            let think = rand::rng().random_range(COMPUTER_GAME_THINK);
            tokio::time::sleep(think).await;
            let choice = state.legal_moves.choose(&mut rand::rng()).cloned();
            if let Some(mv) = choice {
                let text =
                    serde_json::to_string(&ClientMessage::Move { mv }).expect("a move serialises");
                player
                    .socket
                    .send(Message::Text(text.into()))
                    .await
                    .map_err(|e| GameError::Socket(e.to_string()))?;
            }
        }
        // The computer may think long while its turn waits in the engine queue: no timeout.
        let event = loop {
            match next_message(&mut player.socket).await? {
                ServerMessage::Move(event) => break event.state,
                ServerMessage::End(view) => break view.state,
                ServerMessage::Error { code, message, .. } => return Err(refused(code, &message)),
                _ => {}
            }
        };
        if event.you != event.to_move {
            // Our own move's echo: wait for the computer's.
            state = event;
            continue;
        }
        *moves += 1;
        state = event;
    }
}

fn refused(code: ErrorCode, message: &str) -> GameError {
    GameError::Refused {
        code,
        message: message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let values: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        assert_eq!(percentile(&values, 50.0), Some(Duration::from_millis(50)));
        assert_eq!(percentile(&values, 99.0), Some(Duration::from_millis(99)));
        assert_eq!(percentile(&values, 100.0), Some(Duration::from_millis(100)));
        assert_eq!(percentile(&values, 0.0), Some(Duration::from_millis(1)));
        assert_eq!(percentile(&[], 50.0), None);
        let one = [Duration::from_millis(7)];
        assert_eq!(percentile(&one, 99.0), Some(Duration::from_millis(7)));
    }

    #[test]
    fn report_format() {
        let report = Report {
            games: 3,
            sockets: 6,
            moves: 20,
            window: Duration::from_secs(4),
            latencies: vec![Duration::from_micros(1500), Duration::from_micros(21_704)],
            errors: 0,
            ..Report::default()
        };
        assert_eq!(
            report.to_string(),
            "games 3\nsockets 6\nmoves 20\nmoves/s 5.0\nlatency p50 1.50 ms\n\
             latency p99 21.70 ms\nerrors 0\n"
        );
        let empty = Report {
            window: Duration::from_secs(1),
            ..Report::default()
        };
        assert!(empty.to_string().contains("latency p50 - ms\n"));
    }

    #[test]
    fn several_urls_and_verify_add_lines_after_the_seven() {
        let node = |url: &str, moves| NodeCounts {
            url: url.into(),
            requests: 2,
            sockets: 2,
            moves,
            failures: 0,
        };
        let mut report = Report {
            games: 1,
            sockets: 2,
            moves: 3,
            window: Duration::from_secs(1),
            latencies: vec![Duration::from_millis(2), Duration::from_millis(40)],
            nodes: vec![node("http://a:1", 2), node("http://b:2", 1)],
            verification: Some(Verification {
                acknowledged: 3,
                ..Verification::default()
            }),
            ..Report::default()
        };
        let text = report.to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 7 + 2 + 5, "{text}");
        assert_eq!(lines[6], "errors 0");
        assert_eq!(
            &lines[7..],
            [
                "url http://a:1 requests 2 sockets 2 moves 2 failures 0",
                "url http://b:2 requests 2 sockets 2 moves 1 failures 0",
                "latency max 40.00 ms",
                "reconnects 0",
                "retries 0",
                "recovery 0 p50 - ms max - ms",
                "acknowledged 3, lost 0",
            ]
        );
        assert!(report.passed());
        report.verification.as_mut().expect("set").lost = 1;
        assert!(!report.passed(), "a lost move fails the run");
    }

    #[test]
    fn only_node_failures_are_ridden_out() {
        let status = |status| GameError::Status {
            what: "join",
            status,
            body: String::new(),
        };
        let refused = |code| refused(code, "");
        for e in [
            GameError::Closed,
            GameError::Connect("refused".into()),
            GameError::Timeout("move event"),
            GameError::LostAnswer("join"),
            GameError::Upgrade(503),
            status(502),
            status(503),
            refused(ErrorCode::StorageUnavailable),
            refused(ErrorCode::Unavailable),
        ] {
            assert!(e.recoverable(), "{e}");
        }
        for e in [
            status(409),
            status(429),
            GameError::Upgrade(403),
            refused(ErrorCode::NotYourTurn),
            GameError::Unexpected("?".into()),
        ] {
            assert!(!e.recoverable(), "{e}");
        }
        // Right after a failure a move sent before it may still be played: out of step.
        assert!(GameError::Stale("ply 7 is h2e2".into()).recoverable());
        for code in [
            ErrorCode::NotYourTurn,
            ErrorCode::IllegalMove,
            ErrorCode::GameOver,
        ] {
            assert!(refused(code).refused_as_stale());
        }
        assert!(!refused(ErrorCode::RateLimited).refused_as_stale());
        assert!(!GameError::Closed.refused_as_stale());
    }

    #[test]
    fn a_move_event_is_recognised_with_its_jieqi_reveal() {
        assert!(is_move("h2e2", "h2e2"));
        assert!(is_move("h2e2C", "h2e2"), "Jieqi: the revealed piece");
        assert!(is_move("P*5e", "P*5e"));
        assert!(!is_move("7g7f+", "7g7f"), "a promotion is another move");
        assert!(!is_move("h2e3", "h2e2"));
        assert!(!is_move("h2e2", "h2e2C"));
    }

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
