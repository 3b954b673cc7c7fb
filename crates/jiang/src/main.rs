//! `jiang`: the server (`jiang serve`, the default) and the tools for players and engine
//! authors. This file only reads the command line and hands over.

mod tools;

use std::io::{self, BufWriter};
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use jiang_rules::Variant;

/// Play Xiangqi, Jieqi, Shogi and Minishogi; tools for players and engine authors.
#[derive(Parser)]
#[command(name = "jiang", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let result = match cli.command {
        Some(Command::Perft {
            variant,
            depth,
            fen,
            divide,
        }) => tools::perft(variant, &fen, depth, divide, &mut out),
        Some(Command::Moves { variant, fen }) => match fen {
            Some(fen) => tools::moves(variant, io::Cursor::new(fen), &mut out),
            None => tools::moves(variant, io::stdin().lock(), &mut out),
        },
        Some(Command::Outcome { variant }) => tools::outcome(variant, io::stdin().lock(), &mut out),
        None => Err(tools::ToolError::Usage(
            "the server is not built yet; try `jiang --help`".into(),
        )),
    };
    drop(out);
    match result {
        Ok(tools::Status::Clean) => ExitCode::SUCCESS,
        Ok(tools::Status::SomeInputRejected) => ExitCode::from(1),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
