//! `jiang convert`: reads a record of any format (PGN, KIF, KI2, CSA, a FEN/SFEN or a
//! `position …` line; UTF-8, Shift_JIS or EUC-JP; format and variant detected) from a file or
//! standard input and writes it in another format of its family to standard output.

use std::io::{self, Read, Write};
use std::path::PathBuf;

use jiang_rules::Variant;
use jiang_rules::import::{ExportFormat, export, import};

use crate::tools::{Status, ToolError};

/// `jiang convert` arguments.
#[derive(clap::Args)]
pub struct Args {
    /// The format to write: pgn, wxf (PGN with WXF moves), kif, ki2, csa, fen, sfen or usi.
    #[arg(long)]
    to: ExportFormat,
    /// The variant of the record, when detection should not decide (a bare Jieqi FEN).
    #[arg(long)]
    variant: Option<Variant>,
    /// The record file; standard input without it.
    file: Option<PathBuf>,
}

/// Largest record read.
const MAX_BYTES: u64 = 4 << 20;

/// Converts the record named by `args` and writes it to `out`.
pub fn run(args: &Args, out: &mut impl Write) -> Result<Status, ToolError> {
    let mut bytes = Vec::new();
    match &args.file {
        Some(path) => std::fs::File::open(path)
            .map_err(|e| ToolError::Usage(format!("cannot open {}: {e}", path.display())))?
            .take(MAX_BYTES)
            .read_to_end(&mut bytes)?,
        None => io::stdin().lock().take(MAX_BYTES).read_to_end(&mut bytes)?,
    };
    let game = import(&bytes, args.variant).map_err(|e| ToolError::BadRecord(e.to_string()))?;
    let text = export(&game, args.to).map_err(|e| ToolError::Usage(e.to_string()))?;
    out.write_all(text.as_bytes())?;
    Ok(Status::Clean)
}
