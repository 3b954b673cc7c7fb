//! `jiang`: the server (`jiang serve`, the default) and the tools for players and engine
//! authors. This file only reads the command line and hands over.

mod engine_cli;
mod loadtest;
mod tools;

use std::io::{self, BufWriter};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
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
    Loadtest(loadtest::Args),
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
    #[arg(long, env = "JIANG_SQLITE_SYNC", default_value = "full")]
    sqlite_sync: String,
    /// Address of a reverse proxy in front of the server (repeat, or comma-separated): requests
    /// from it are rate-limited by the client address it writes in `X-Forwarded-For`.
    #[arg(
        long = "trusted-proxy",
        env = "JIANG_TRUSTED_PROXIES",
        value_delimiter = ','
    )]
    trusted_proxies: Vec<std::net::IpAddr>,
}

fn serve(args: ServeArgs) -> Result<tools::Status, tools::ToolError> {
    tracing_subscriber::fmt()
        .with_writer(io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        .init();
    let durability = match args.sqlite_sync.as_str() {
        "full" => jiang_server::Durability::Full,
        "normal" => jiang_server::Durability::Normal,
        other => {
            return Err(tools::ToolError::Usage(format!(
                "--sqlite-sync must be full or normal, not `{other}`"
            )));
        }
    };
    let config = jiang_server::Config {
        listen: args.listen,
        database_url: args.database,
        public_url: args.public_url,
        rate_limit: jiang_server::Rate {
            per_second: args.rate_limit,
            burst: args.rate_limit * 3.0,
        },
        durability,
        trusted_proxies: args.trusted_proxies,
        ..jiang_server::Config::default()
    };
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|e| tools::ToolError::Usage(format!("cannot start the runtime: {e}")))?;
    runtime
        .block_on(async {
            let server = jiang_server::start(config).await?;
            println!("Jiang is serving on {}", server.public_url());
            shutdown_signal().await;
            tracing::info!("shutting down");
            server.shutdown().await
        })
        .map_err(|e| tools::ToolError::Usage(e.to_string()))?;
    Ok(tools::Status::Clean)
}

/// Resolves on SIGINT (Ctrl-C) or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = terminate => {}
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // The server logs from many threads: it must not run while this thread holds stdout.
    let command = match cli.command {
        Some(Command::Serve(args)) => return exit_code(serve(args)),
        None => return exit_code(serve(cli.serve)),
        Some(Command::Loadtest(args)) => return loadtest::main(args),
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
        Command::Serve(_) => unreachable!("handled above"),
        Command::Loadtest(_) | Command::Engine => unreachable!("handled above"),
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
