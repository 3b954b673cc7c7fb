//! `docs/api.md` and the protocol agree: the error table lists every [`ErrorCode`] once with
//! its status, and every JSON example parses with the type its code fence names.

use std::collections::HashMap;

use jiang_protocol::{
    AnalysisAnswer, AnalysisRequest, ChatMuteRequest, ClaimRequest, ClientMessage, CreateGame,
    CreatePlayer, CreateTournament, Created, DrawRequest, EngineClientMessage, EngineServerMessage,
    ErrorBody, ErrorCode, ErrorReason, ExportRequest, ExportedRecord, GameView, Health,
    ImportedGame, Joined, Leaderboard, LobbyClientMessage, LobbyServerMessage, LobbyShare,
    LobbySnapshot, MoveRequest, NodeAlive, NodeReply, NodeRequest, NotationList, PairRequest,
    Paired, PlayerCreated, PlayerView, PositionCheck, PremoveRequest, PuzzleHint, PuzzleMoveAnswer,
    PuzzleMoveRequest, PuzzleSolution, PuzzleStepRequest, PuzzleView, QrRequest, RenamePlayer,
    ReviewAnswer, ReviewRequest, ServerMessage, Summaries, SummariesRequest, TakebackRequest,
    TournamentBerserk, TournamentClientMessage, TournamentEntry, TournamentList,
    TournamentServerMessage, TournamentSummary, TournamentView, ValidatePosition,
};
use serde::de::DeserializeOwned;

fn api_md() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md");
    std::fs::read_to_string(path).expect("docs/api.md is readable")
}

/// The rows of the table under the heading line `heading` whose header row starts with
/// `header`: each row's cells, trimmed and without backquotes (`cells[0]` is the empty text
/// before the first `|`).
fn table_rows(doc: &str, heading: &str, header: &str) -> Vec<Vec<String>> {
    let section = doc
        .split(&format!("\n{heading}\n"))
        .nth(1)
        .unwrap_or_else(|| panic!("docs/api.md has no `{heading}` section"));
    let section = section.split("\n#").next().unwrap_or(section);
    section
        .lines()
        .skip_while(|line| !line.starts_with(header))
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            line.split('|')
                .map(|cell| cell.trim().trim_matches('`').to_owned())
                .collect()
        })
        .collect()
}

/// The `(status, code)` rows of the table under `## Errors`.
fn error_table(doc: &str) -> Vec<(u16, String)> {
    table_rows(doc, "## Errors", "| status | code |")
        .into_iter()
        .map(|cells| {
            let status = cells[1]
                .parse()
                .unwrap_or_else(|_| panic!("bad status in {cells:?}"));
            (status, cells[2].clone())
        })
        .collect()
}

#[test]
fn the_error_table_and_the_codes_agree() {
    let rows = error_table(&api_md());
    assert!(!rows.is_empty(), "no error table found");
    let mut seen: HashMap<&str, u16> = HashMap::new();
    for (status, code) in &rows {
        assert!(
            seen.insert(code, *status).is_none(),
            "`{code}` is documented twice"
        );
        let parsed: ErrorCode = serde_json::from_value(serde_json::json!(code))
            .unwrap_or_else(|_| panic!("`{code}` is documented but is no ErrorCode"));
        assert_eq!(parsed.status(), *status, "`{code}`: documented status");
    }
    for code in ErrorCode::ALL {
        assert!(
            seen.contains_key(code.as_str()),
            "`{code}` is missing from docs/api.md's error table"
        );
    }
    assert_eq!(rows.len(), ErrorCode::ALL.len());
}

/// The `(reason, code)` rows of the table under `### Reasons`.
fn reason_table(doc: &str) -> Vec<(String, String)> {
    table_rows(doc, "### Reasons", "| reason | code |")
        .into_iter()
        .map(|cells| (cells[1].clone(), cells[2].clone()))
        .collect()
}

#[test]
fn the_reason_table_and_the_reasons_agree() {
    let rows = reason_table(&api_md());
    let documented: Vec<&str> = rows.iter().map(|(r, _)| r.as_str()).collect();
    let known: Vec<&str> = ErrorReason::ALL.iter().map(|r| r.as_str()).collect();
    assert_eq!(documented, known, "docs/api.md's reason table, in order");
    for (reason, code) in &rows {
        let parsed: ErrorReason = serde_json::from_value(serde_json::json!(reason)).unwrap();
        assert_eq!(parsed.code().as_str(), code, "`{reason}`: documented code");
    }
}

/// Every fenced block of `doc` whose info string starts with `json`: (info, body).
fn json_fences(doc: &str) -> Vec<(String, String)> {
    let mut fences = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in doc.lines() {
        match &mut current {
            None => {
                if let Some(info) = line.strip_prefix("```")
                    && info.starts_with("json")
                {
                    current = Some((info.trim().to_owned(), String::new()));
                }
            }
            Some((_, body)) => {
                if line.starts_with("```") {
                    fences.push(current.take().expect("inside a fence"));
                } else {
                    body.push_str(line);
                    body.push('\n');
                }
            }
        }
    }
    fences
}

fn parses<T: DeserializeOwned>(text: &str) -> Result<(), String> {
    serde_json::from_str::<T>(text)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// `parse_as(name, text)`: parses `text` as the protocol type spelled `name` in the docs, one
/// of the types listed.
macro_rules! parse_as_one_of {
    ($($ty:ident),* $(,)?) => {
        fn parse_as(name: &str, text: &str) -> Result<(), String> {
            match name {
                $(stringify!($ty) => parses::<$ty>(text),)*
                other => Err(format!("no protocol type `{other}`")),
            }
        }
    };
}

parse_as_one_of!(
    PuzzleView,
    PuzzleMoveRequest,
    PuzzleMoveAnswer,
    PuzzleStepRequest,
    PuzzleHint,
    PuzzleSolution,
    CreateGame,
    Created,
    Joined,
    MoveRequest,
    DrawRequest,
    NotationList,
    ImportedGame,
    ValidatePosition,
    PositionCheck,
    Health,
    AnalysisRequest,
    AnalysisAnswer,
    ExportRequest,
    ExportedRecord,
    EngineClientMessage,
    ReviewRequest,
    ReviewAnswer,
    EngineServerMessage,
    ErrorBody,
    GameView,
    ServerMessage,
    ClientMessage,
    TakebackRequest,
    PremoveRequest,
    ClaimRequest,
    ChatMuteRequest,
    PairRequest,
    Paired,
    LobbySnapshot,
    LobbyServerMessage,
    LobbyClientMessage,
    SummariesRequest,
    Summaries,
    NodeRequest,
    NodeReply,
    NodeAlive,
    LobbyShare,
    CreatePlayer,
    PlayerCreated,
    RenamePlayer,
    PlayerView,
    Leaderboard,
    QrRequest,
    CreateTournament,
    TournamentSummary,
    TournamentList,
    TournamentView,
    TournamentEntry,
    TournamentBerserk,
    TournamentServerMessage,
    TournamentClientMessage,
);

#[test]
fn every_json_example_parses_with_its_type() {
    let fences = json_fences(&api_md());
    assert!(fences.len() >= 5, "too few JSON examples: {}", fences.len());
    for (info, body) in fences {
        // ```json Type: one value; ```jsonl Type: one value a line.
        let (kind, name) = info
            .split_once(' ')
            .unwrap_or_else(|| panic!("a ```{info} example names no protocol type"));
        let texts: Vec<&str> = match kind {
            "json" => vec![body.as_str()],
            "jsonl" => body.lines().filter(|l| !l.trim().is_empty()).collect(),
            other => panic!("unknown fence kind `{other}`"),
        };
        for text in texts {
            if let Err(e) = parse_as(name.trim(), text) {
                panic!("docs/api.md example (```{info}) does not parse: {e}\n{text}");
            }
        }
    }
}

#[test]
fn a_wrong_label_or_a_renamed_field_is_caught() {
    assert!(parse_as("GameView", r#"{"id": "x"}"#).is_err());
    assert!(parse_as("CreateGame", r#"{"variant": "xiangqi", "colour": "red"}"#).is_err());
    assert!(parse_as("ClientMessage", r#"{"type": "move", "mv": "h2e2"}"#).is_err());
    // The requests that open a board refuse unknown fields too, a `start` message's included.
    let start = r#"{"type": "start", "variant": "xiangqi", "style": "wxf""#;
    assert!(parse_as("EngineClientMessage", &format!("{start}}}")).is_ok());
    let extra = format!(r#"{start}, "colour": "red"}}"#);
    assert!(parse_as("EngineClientMessage", &extra).is_err());
    let review = r#"{"variant": "xiangqi", "style": "wxf", "ply": 1}"#;
    assert!(parse_as("ReviewRequest", review).is_err());
    assert!(parse_as("Nothing", "{}").is_err());
}
