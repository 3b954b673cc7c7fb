//! The errors of the shogi notations: one enum for move text, one for records.

/// Why a move text (Japanese, Western) is not a legal move in the position it was read in.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The text is not well formed.
    #[error("`{text}`: expected {expected} at character {at}")]
    Syntax {
        /// The move text as given.
        text: String,
        /// The 0-based character index where reading stopped.
        at: usize,
        /// What was expected there.
        expected: &'static str,
    },
    /// `同` was used but there is no previous move to refer to.
    #[error("`{0}`: 同 (same square) needs a previous move")]
    NoPreviousMove(String),
    /// The side mark (☗/☖) names the side that is not to move.
    #[error("`{0}`: it is not that side's turn")]
    WrongSide(String),
    /// The text is well formed but names no legal move here.
    #[error("`{0}` is not a legal move here")]
    NoSuchMove(String),
    /// The text fits several legal moves.
    #[error("`{text}` is ambiguous here: it fits {count} legal moves")]
    Ambiguous {
        /// The move text as given.
        text: String,
        /// How many legal moves fit it.
        count: usize,
    },
}

impl NotationError {
    /// The move text as given.
    pub fn text(&self) -> &str {
        match self {
            NotationError::Syntax { text, .. } | NotationError::Ambiguous { text, .. } => text,
            NotationError::NoPreviousMove(text)
            | NotationError::WrongSide(text)
            | NotationError::NoSuchMove(text) => text,
        }
    }
}

/// Why a KIF or CSA record could not be read. Line numbers are 1-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// The bytes are neither UTF-8, Shift_JIS nor EUC-JP.
    #[error("the record is neither UTF-8, Shift_JIS nor EUC-JP text")]
    Encoding,
    /// A header, diagram or board line is malformed.
    #[error("line {line}: {message}")]
    Syntax {
        /// The line number.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// The start position is not a valid position.
    #[error("line {line}: the start position is invalid: {message}")]
    StartPosition {
        /// The line number of the diagram or header that set it (0 when implied).
        line: usize,
        /// Why the position is invalid.
        message: String,
    },
    /// A move is malformed or illegal where it is played.
    #[error("line {line}, move {ply}: {source}")]
    Move {
        /// The line number.
        line: usize,
        /// The 1-based move number in the record.
        ply: usize,
        /// Why the move could not be read.
        source: NotationError,
    },
    /// A record to write holds something that cannot be written (an illegal move, a bad start).
    #[error("cannot write the record: {0}")]
    Unwritable(String),
}
