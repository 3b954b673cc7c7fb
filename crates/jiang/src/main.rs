//! `jiang`: the server (`jiang serve`, the default) and the tools for players and engine
//! authors. This file only reads the command line and hands over.

mod convert;
mod engine_cli;
mod match_runner;
mod puzzles_cli;
mod tools;

use std::io::{self, BufWriter};
use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use jiang_rules::Variant;

/// Play Xiangqi, Jieqi, Shogi and Minishogi; tools for players and engine authors.
#[derive(Parser)]
#[command(name = "jiang", version, about, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Without a subcommand, `jiang` serves: these are `jiang serve`'s flags.
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the game server (the default when no subcommand is given).
    Serve(ServeArgs),
    /// Count the leaf nodes of the legal-move tree (bulk counting at the last ply).
    Perft {
        /// xiangqi, jieqi, shogi or minishogi.
        variant: Variant,
        /// Plies to search.
        depth: u32,
        /// The start position: a FEN/SFEN, or `startpos`.
        #[arg(long, default_value = "startpos")]
        fen: String,
        /// First print one line per root move: `h2e2: 3210`.
        #[arg(long)]
        divide: bool,
    },
    /// Print the legal moves of positions, one line each, sorted.
    Moves {
        /// xiangqi, jieqi, shogi or minishogi.
        variant: Variant,
        /// One position; without it, positions are read from standard input, one per line.
        #[arg(long)]
        fen: Option<String>,
    },
    /// Read `<FEN or startpos> [moves <m1> ...]` lines and print how each game stands.
    Outcome {
        /// xiangqi, jieqi, shogi or minishogi.
        variant: Variant,
    },
    /// Load a running server: many games played over WebSocket; prints moves/s and latency.
    Loadtest(jiang_loadtest::Args),
    /// Play two UCI/USI engines against each other, refereed by Jiang's rules; prints each
    /// game and, last, the score and Elo difference.
    Match(match_runner::Args),
    /// Convert a record (format and variant detected) to another format: stdin → stdout.
    Convert(convert::Args),
    /// Puzzles: `jiang puzzles generate` finds and proves puzzles in games.
    Puzzles(puzzles_cli::Args),
    /// Jiang's engine on standard input/output: UCI (`uci`: xiangqi, jieqi) or USI (`usi`:
    /// shogi, minishogi), for GUIs and match runners.
    Engine,
}

/// `jiang serve` flags, each with an environment fallback.
#[derive(clap::Args)]
struct ServeArgs {
    /// Address and port to listen on.
    #[arg(long, env = "JIANG_LISTEN", default_value = "127.0.0.1:8080")]
    listen: String,
    /// Database: `sqlite://<path>` (created and migrated) or `postgres://…`.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://data/jiang.db")]
    database: String,
    /// Base URL of the links the server hands out (default: http://<listen address>).
    #[arg(long, env = "JIANG_PUBLIC_URL")]
    public_url: Option<String>,
    /// API requests per second allowed per client address (0: no limit, for load tests).
    #[arg(long, env = "JIANG_RATE_LIMIT", default_value_t = 20.0)]
    rate_limit: f64,
    /// SQLite `synchronous` setting: `full` (fsync every commit; the default) or `normal`.
    #[arg(long, env = "JIANG_SQLITE_SYNC", value_enum, default_value_t = SqliteSync::Full)]
    sqlite_sync: SqliteSync,
    /// Address of a reverse proxy in front of the server (repeat, or comma-separated): requests
    /// from it are rate-limited by the client address it writes in `X-Forwarded-For`.
    #[arg(
        long = "trusted-proxy",
        env = "JIANG_TRUSTED_PROXIES",
        value_delimiter = ','
    )]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// Seconds a client has to send its request headers (also the longest an HTTP connection
    /// stays idle between requests).
    #[arg(long, env = "JIANG_HEADER_TIMEOUT", default_value = "10", value_parser = seconds)]
    header_timeout: Duration,
    /// Open connections in all, WebSockets included; more are reset at once. Lowered to fit
    /// the open-file limit.
    #[arg(long, env = "JIANG_MAX_CONNECTIONS", default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..))]
    max_connections: u32,
    /// Open connections per client address, IPv6 by /64 (0: no cap; trusted proxies are not
    /// capped).
    #[arg(long, env = "JIANG_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 256)]
    max_connections_per_address: u32,
    /// Open WebSockets per client address (0: no cap).
    #[arg(long, env = "JIANG_MAX_SOCKETS_PER_ADDRESS", default_value_t = 64)]
    max_sockets_per_address: u32,
    /// Seconds a WebSocket may send nothing (no message, no pong to the server's pings)
    /// before it is closed.
    #[arg(long, env = "JIANG_WS_IDLE_TIMEOUT", default_value = "60", value_parser = seconds)]
    ws_idle_timeout: Duration,
    /// Seconds a graceful shutdown waits for open connections before dropping them.
    #[arg(long, env = "JIANG_SHUTDOWN_TIMEOUT", default_value = "10", value_parser = seconds)]
    shutdown_timeout: Duration,
    /// The shortest grace period, in seconds, before a player may claim the win or a draw
    /// against an opponent with no open connection (longer clocks get longer ones).
    #[arg(long, env = "JIANG_CLAIM_GRACE_MIN", default_value = "10", value_parser = seconds)]
    claim_grace_min: Duration,
    /// Open seeks per client address at once (0: no cap).
    #[arg(long, env = "JIANG_MAX_SEEKS_PER_ADDRESS", default_value_t = 3)]
    max_seeks_per_address: u32,
    /// Open seeks a client address may create per minute, in bursts of up to half as many
    /// (seek churn; 0: no limit).
    #[arg(long, env = "JIANG_SEEKS_PER_MINUTE", default_value_t = 10.0)]
    seeks_per_minute: f64,
    /// New players (`POST /api/players`) a client address may create per hour, after a first
    /// burst of 5 (0: no limit).
    #[arg(long, env = "JIANG_PLAYERS_PER_HOUR", default_value_t = 6.0)]
    players_per_hour: f64,
    /// Seconds an open seek stays listed after its creator's page is gone.
    #[arg(long, env = "JIANG_SEEK_TIMEOUT", default_value = "30", value_parser = seconds)]
    seek_timeout: Duration,
    /// Threads that run engine searches (computer opponents); default: half the cores, at
    /// least 1.
    #[arg(long, env = "JIANG_ENGINE_THREADS", value_parser = clap::value_parser!(u32).range(1..=256))]
    engine_threads: Option<u32>,
    /// Seconds one analysis-board engine search may run at most (each socket runs one search
    /// at a time, in the engine pool's fair queue).
    #[arg(long, env = "JIANG_ANALYSIS_SECONDS", default_value = "30", value_parser = seconds)]
    analysis_seconds: Duration,
    /// Nodes the engine searches per position of a computer review (the fixed budget).
    #[arg(long, env = "JIANG_REVIEW_NODES", default_value_t = 40_000, value_parser = clap::value_parser!(u64).range(1..))]
    review_nodes: u64,
    /// A puzzle file (one puzzle a line, docs/puzzles.md) to load at start, besides the
    /// shipped sets; may be given several times.
    #[arg(long = "puzzles", env = "JIANG_PUZZLES", value_delimiter = ',')]
    puzzle_files: Vec<std::path::PathBuf>,
    /// Do not load the puzzle sets shipped in the binary.
    #[arg(long, env = "JIANG_NO_SHIPPED_PUZZLES")]
    no_shipped_puzzles: bool,
    /// Hours between two searches of the finished games for new puzzles (0: never).
    #[arg(long, env = "JIANG_PUZZLE_IMPORT_HOURS", default_value = "6", value_parser = hours)]
    puzzle_import_hours: f64,
    /// A tournament the server holds by itself, on a schedule (UTC): `<when> <variant>
    /// <clock> <length> [rated]`, e.g. `hourly@:00 xiangqi 3+2 57m rated` or
    /// `weekly@sat-18:00 shogi 10|30 7r` (docs/tournaments.md, "Scheduled tournaments"); may
    /// be given several times (the environment variable separates entries with `;`).
    #[arg(long = "schedule", env = "JIANG_SCHEDULE", value_delimiter = ';')]
    schedule: Vec<jiang_server::tournaments::schedule::Schedule>,
    /// Cluster mode: the NATS server that links several nodes serving one site (needs a
    /// PostgreSQL `--database`; see docs/configuration.md, "Cluster").
    #[arg(long, env = "JIANG_CLUSTER")]
    cluster: Option<String>,
    /// This node's id in the cluster (letters, digits, `-`, `_`; unique per node and kept
    /// across restarts). Default: `main` alone, `<host name>-<port>` in a cluster.
    #[arg(long, env = "JIANG_NODE_ID")]
    node_id: Option<String>,
    /// The first token of every NATS subject of the cluster: sites sharing one NATS server
    /// keep apart by it.
    #[arg(long, env = "JIANG_CLUSTER_NAME", default_value = "jiang")]
    cluster_name: String,
}

/// The node id: `--node-id`, else `main` for a single node and `<host name>-<port>` (letters,
/// digits and `-` kept) in a cluster, so that nodes on one machine differ by their ports.
fn node_id(args: &ServeArgs) -> String {
    if let Some(id) = &args.node_id {
        return id.clone();
    }
    if args.cluster.is_none() {
        return "main".into();
    }
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .unwrap_or_default();
    let port = args.listen.rsplit(':').next().unwrap_or("");
    let id: String = format!("{}-{port}", host.trim())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .collect();
    id.trim_start_matches('-').chars().take(64).collect()
}

/// A duration in seconds (fractions allowed), more than zero.
fn seconds(text: &str) -> Result<Duration, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 1e9 => Ok(Duration::from_secs_f64(s)),
        _ => Err(format!(
            "`{text}` is not a number of seconds greater than 0"
        )),
    }
}

/// A number of hours from 0 (never) to 100,000.
fn hours(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(h) if (0.0..=1e5).contains(&h) => Ok(h),
        _ => Err(format!("`{text}` is not a number of hours from 0 (never)")),
    }
}

/// File descriptors kept for everything but client connections (database, listener, files).
const RESERVED_FILES: u64 = 256;

/// Raises the open-file soft limit to the hard limit and returns the connection cap that fits
/// in it (`wanted`, or less with a warning).
fn fit_connections(wanted: usize) -> usize {
    let limit = match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => limit,
        Err(e) => {
            tracing::warn!(error = %e, "cannot read or raise the open-file limit");
            return wanted;
        }
    };
    let room = limit.saturating_sub(RESERVED_FILES).max(1);
    if wanted as u64 > room {
        tracing::warn!(
            open_file_limit = limit,
            max_connections = room,
            "--max-connections lowered to fit the open-file limit (raise it with `ulimit -n`)"
        );
        return room as usize;
    }
    wanted
}

/// The values of `--sqlite-sync`: the command-line face of [`jiang_server::Durability`].
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum SqliteSync {
    /// fsync every commit: a stored move survives a power cut.
    Full,
    /// fsync at checkpoints only: faster; a power cut may lose the last commits.
    Normal,
}

impl From<SqliteSync> for jiang_server::Durability {
    fn from(sync: SqliteSync) -> Self {
        match sync {
            SqliteSync::Full => jiang_server::Durability::Full,
            SqliteSync::Normal => jiang_server::Durability::Normal,
        }
    }
}

fn serve(args: ServeArgs) -> Result<tools::Status, tools::ToolError> {
    tracing_subscriber::fmt()
        .with_writer(io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        .init();
    // `--rate-limit 0` is for load tests, whose clients all come from one address: it turns
    // off every per-address limit, not only the request rate.
    let per_address = |cap: u32| {
        if args.rate_limit > 0.0 {
            cap as usize
        } else {
            0
        }
    };
    let limits = jiang_server::Limits {
        header_timeout: args.header_timeout,
        max_connections: fit_connections(args.max_connections as usize),
        max_connections_per_address: per_address(args.max_connections_per_address),
        max_sockets_per_address: per_address(args.max_sockets_per_address),
        ws_idle_timeout: args.ws_idle_timeout,
        shutdown_timeout: args.shutdown_timeout,
    };
    let node = node_id(&args);
    let config = jiang_server::Config {
        node,
        cluster: args.cluster,
        cluster_name: args.cluster_name,
        listen: args.listen,
        database_url: args.database,
        public_url: args.public_url,
        rate_limit: jiang_server::Rate {
            per_second: args.rate_limit,
            burst: args.rate_limit * 3.0,
        },
        player_rate: if args.rate_limit > 0.0 && args.players_per_hour > 0.0 {
            jiang_server::Rate {
                per_second: args.players_per_hour / 3600.0,
                burst: 5.0,
            }
        } else {
            jiang_server::Rate::UNLIMITED
        },
        durability: args.sqlite_sync.into(),
        claim_grace_min: args.claim_grace_min,
        trusted_proxies: args.trusted_proxies,
        limits,
        lobby: jiang_server::LobbySettings {
            seek_timeout: args.seek_timeout,
            max_seeks_per_address: per_address(args.max_seeks_per_address),
            seek_rate: if args.rate_limit > 0.0 && args.seeks_per_minute > 0.0 {
                jiang_server::Rate {
                    per_second: args.seeks_per_minute / 60.0,
                    burst: (args.seeks_per_minute / 2.0).max(1.0),
                }
            } else {
                jiang_server::Rate::UNLIMITED
            },
        },
        engine_threads: args
            .engine_threads
            .map_or_else(jiang_server::engine_pool::default_threads, |n| n as usize),
        analysis_seconds: args.analysis_seconds,
        review_nodes: args.review_nodes,
        puzzles: jiang_server::PuzzleSettings {
            shipped: !args.no_shipped_puzzles,
            files: args.puzzle_files,
            import_every: (args.puzzle_import_hours > 0.0)
                .then(|| Duration::from_secs_f64(args.puzzle_import_hours * 3600.0)),
        },
        tournaments: jiang_server::TournamentSettings {
            schedule: args.schedule,
            ..jiang_server::TournamentSettings::default()
        },
        ..jiang_server::Config::default()
    };
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|e| tools::ToolError::Usage(format!("cannot start the runtime: {e}")))?;
    runtime
        .block_on(async {
            let server = jiang_server::start(config).await?;
            // Listening before the line is printed: a signal sent as soon as it is read (a
            // test, a supervisor) stops the server gracefully instead of killing it.
            let stop = shutdown_signal();
            println!("Jiang is serving on {}", server.public_url());
            stop.await;
            tracing::info!("shutting down");
            server.shutdown().await
        })
        .map_err(|e| tools::ToolError::Usage(e.to_string()))?;
    Ok(tools::Status::Clean)
}

/// Listens for SIGINT (Ctrl-C) and SIGTERM from the moment it is called (inside the runtime);
/// the future resolves on the first of them.
fn shutdown_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    let signals = {
        use tokio::signal::unix::{SignalKind, signal};
        (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
        )
    };
    async move {
        #[cfg(unix)]
        if let (Ok(mut interrupt), Ok(mut terminate)) = signals {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
            return;
        }
        let _ = tokio::signal::ctrl_c().await;
    }
}

fn main() -> ExitCode {
    // Parsed through `ArgMatches` so that `jiang match` can tell which `--engine` each
    // `--option` follows.
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    // The server logs from many threads: it must not run while this thread holds stdout.
    let command = match cli.command {
        Some(Command::Serve(args)) => return exit_code(serve(args)),
        None => return exit_code(serve(cli.serve)),
        Some(Command::Loadtest(args)) => return jiang_loadtest::main(args),
        Some(Command::Match(args)) => {
            return match_runner::main(args, matches.subcommand_matches("match"));
        }
        Some(Command::Engine) => {
            return match engine_cli::run(io::stdin().lock()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(2)
                }
            };
        }
        Some(command) => command,
    };
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = match command {
        Command::Perft {
            variant,
            depth,
            fen,
            divide,
        } => tools::perft(variant, &fen, depth, divide, &mut out),
        Command::Moves { variant, fen } => match fen {
            Some(fen) => tools::moves(variant, io::Cursor::new(fen), &mut out),
            None => tools::moves(variant, io::stdin().lock(), &mut out),
        },
        Command::Outcome { variant } => tools::outcome(variant, io::stdin().lock(), &mut out),
        Command::Convert(args) => convert::run(&args, &mut out),
        Command::Puzzles(args) => puzzles_cli::run(&args),
        Command::Serve(_) => unreachable!("handled above"),
        Command::Loadtest(_) | Command::Engine => unreachable!("handled above"),
        Command::Match(_) => unreachable!("handled above"),
    };
    drop(out);
    exit_code(result)
}

fn exit_code(result: Result<tools::Status, tools::ToolError>) -> ExitCode {
    match result {
        Ok(tools::Status::Clean) => ExitCode::SUCCESS,
        Ok(tools::Status::SomeInputRejected) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
