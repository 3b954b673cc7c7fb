//! `jiang puzzles generate`: finds and proves puzzles in games (Jiang's own self-play from a
//! seed, records, or a server's finished games) or composes shogi tsume, and writes them one a
//! line (`docs/puzzles.md`). Progress and a summary go to standard error.

use std::path::PathBuf;

use jiang_puzzles::generate::{self, Settings};
use jiang_puzzles::source::{SourceGame, from_records};
use jiang_rules::Variant;

use crate::tools::{Status, ToolError};

/// `jiang puzzles` arguments.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: PuzzlesCommand,
}

#[derive(clap::Subcommand)]
enum PuzzlesCommand {
    /// Find puzzles in games: each proved at a deeper search, themed and rated.
    Generate(GenerateArgs),
}

/// `jiang puzzles generate` arguments.
#[derive(clap::Args)]
struct GenerateArgs {
    /// xiangqi, jieqi, shogi or minishogi.
    #[arg(long)]
    variant: Variant,
    /// Records to search (any format `jiang convert` reads; several PGN games a file), or a
    /// server's database (`sqlite://…`, `postgres://…`: its finished games). Without it,
    /// self-play games of Jiang's engine.
    #[arg(long, num_args = 1..)]
    from: Vec<PathBuf>,
    /// Shogi: compose tsume (mate problems without the attacker's king) instead of searching
    /// games; `--games` is how many.
    #[arg(long, conflicts_with = "from")]
    tsume: bool,
    /// Self-play: how many games (with `--tsume`: how many problems).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Self-play: the first game's seed (game i has seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// At most this per cent of the set are mates in one (the surplus is dropped, the last by
    /// id); without it, all are kept.
    #[arg(long, value_parser = clap::value_parser!(u8).range(0..=100))]
    mates_in_one_percent: Option<u8>,
    /// Threads searching games at once.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// The puzzle file to write.
    #[arg(long)]
    out: PathBuf,
}

/// Runs `jiang puzzles …`.
pub fn run(args: &Args) -> Result<Status, ToolError> {
    match &args.command {
        PuzzlesCommand::Generate(args) => generate(args),
    }
}

fn generate(args: &GenerateArgs) -> Result<Status, ToolError> {
    let settings = Settings::for_variant(args.variant);
    let out = args.out.to_string_lossy().into_owned();
    let write_error = |e: jiang_puzzles::FormatError| ToolError::Usage(format!("{out}: {e}"));
    if args.tsume {
        if args.variant != Variant::Shogi {
            return Err(ToolError::Usage(
                "--tsume composes shogi mate problems: give --variant shogi".into(),
            ));
        }
        let started = std::time::Instant::now();
        let puzzles = jiang_puzzles::tsume::generate(args.games, args.seed);
        generate::write_file(&out, &puzzles).map_err(write_error)?;
        eprintln!(
            "{} tsume composed and proved in {:.1} s",
            puzzles.len(),
            started.elapsed().as_secs_f64()
        );
        return Ok(Status::Clean);
    }
    let summary = if args.from.is_empty() {
        generate::run_self_play(
            args.variant,
            args.games,
            args.seed,
            args.jobs,
            &settings,
            args.mates_in_one_percent,
            &out,
        )
        .map_err(write_error)?
    } else {
        let games = read_records(&args.from, args.variant)?;
        eprintln!("{} games of {} read", games.len(), args.variant.name());
        let (mut puzzles, mut summary) = puzzles_from(&games, &settings, args.jobs);
        if let Some(percent) = args.mates_in_one_percent {
            puzzles = generate::cap_mates_in_one(puzzles, percent);
            summary.puzzles = puzzles.len() as u64;
        }
        generate::write_file(&out, &puzzles).map_err(write_error)?;
        summary
    };
    eprintln!("{}", summary.line());
    Ok(Status::Clean)
}

/// The games of `variant` in the record files or databases (games of other variants are
/// skipped).
fn read_records(paths: &[PathBuf], variant: Variant) -> Result<Vec<SourceGame>, ToolError> {
    let mut games = Vec::new();
    for path in paths {
        let text = path.to_string_lossy();
        if text.starts_with("sqlite:") || text.starts_with("postgres") {
            games.extend(
                finished_games(&text)?
                    .into_iter()
                    .filter(|g| g.variant == variant),
            );
            continue;
        }
        let text = std::fs::read_to_string(path)
            .map_err(|e| ToolError::Usage(format!("cannot read {}: {e}", path.display())))?;
        let found = from_records(&text, Some(variant))
            .map_err(|e| ToolError::BadRecord(format!("{}: {e}", path.display())))?;
        games.extend(
            found
                .into_iter()
                .filter(|g| g.variant == variant)
                .map(|mut g| {
                    g.name = format!("{}, {}", path.display(), g.name);
                    g
                }),
        );
    }
    Ok(games)
}

/// The hook for any source of games (records, or the server's finished games): a list of
/// games in, the proved puzzles (sorted, without repeats) and a summary out.
pub fn puzzles_from(
    games: &[SourceGame],
    settings: &Settings,
    jobs: usize,
) -> (Vec<jiang_puzzles::Puzzle>, generate::Summary) {
    let total = games.len();
    generate::generate(total, &|i| games.get(i).cloned(), settings, jobs, &|p| {
        eprintln!("{}/{} games, {} puzzles", p.games, p.of, p.proved)
    })
}

/// Every finished game of the server database at `url`.
fn finished_games(url: &str) -> Result<Vec<SourceGame>, ToolError> {
    let runtime = tokio::runtime::Runtime::new()
        .map_err(|e| ToolError::Usage(format!("cannot start the runtime: {e}")))?;
    runtime.block_on(async {
        let failed = |e: jiang_server::store::StoreError| ToolError::Usage(format!("{url}: {e}"));
        let backend = jiang_server::store::connect(url, jiang_server::Durability::Full)
            .await
            .map_err(failed)?;
        let (games, _) = jiang_server::puzzles::import::finished_games(&*backend, 0, i64::MAX)
            .await
            .map_err(failed)?;
        backend.close().await;
        Ok(games)
    })
}
