//! `docs/api.md` and the protocol agree: the error table lists every [`ErrorCode`] once with
//! its status, and every JSON example parses with the type its code fence names.

use std::collections::HashMap;

use jiang_protocol::{
    AnalysisAnswer, AnalysisRequest, ClientMessage, CreateGame, Created, DrawRequest,
    EngineClientMessage, EngineServerMessage, ErrorBody, ErrorCode, ErrorReason, ExportRequest,
    ExportedRecord, GameView, Health, ImportedGame, Joined, LobbyClientMessage, LobbyServerMessage,
    LobbySnapshot, MoveRequest, NotationList, PairRequest, Paired, PositionCheck, ServerMessage,
    Summaries, SummariesRequest, ValidatePosition,
};
use serde::de::DeserializeOwned;

fn api_md() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/api.md");
    std::fs::read_to_string(path).expect("docs/api.md is readable")
}

/// The `(status, code)` rows of the table under `## Errors`.
fn error_table(doc: &str) -> Vec<(u16, String)> {
    let section = doc
        .split("\n## Errors\n")
        .nth(1)
        .expect("docs/api.md has an Errors section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in section.lines() {
        if line.starts_with("| status | code |") {
            in_table = true;
            continue;
        }
        if !in_table || line.starts_with("|---") {
            continue;
        }
        if !line.starts_with('|') {
            break;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let status = cells[1]
            .parse()
            .unwrap_or_else(|_| panic!("bad status in {line}"));
        let code = cells[2].trim_matches('`').to_owned();
        rows.push((status, code));
    }
    rows
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
    let section = doc
        .split("\n### Reasons\n")
        .nth(1)
        .expect("docs/api.md has a Reasons section");
    let section = section.split("\n#").next().unwrap_or(section);
    section
        .lines()
        .skip_while(|line| !line.starts_with("| reason | code |"))
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            (
                cells[1].trim_matches('`').to_owned(),
                cells[2].trim_matches('`').to_owned(),
            )
        })
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

/// Parses `text` as the protocol type `name`.
fn parse_as(name: &str, text: &str) -> Result<(), String> {
    match name {
        "CreateGame" => parses::<CreateGame>(text),
        "Created" => parses::<Created>(text),
        "Joined" => parses::<Joined>(text),
        "MoveRequest" => parses::<MoveRequest>(text),
        "DrawRequest" => parses::<DrawRequest>(text),
        "NotationList" => parses::<NotationList>(text),
        "ImportedGame" => parses::<ImportedGame>(text),
        "ValidatePosition" => parses::<ValidatePosition>(text),
        "PositionCheck" => parses::<PositionCheck>(text),
        "Health" => parses::<Health>(text),
        "AnalysisRequest" => parses::<AnalysisRequest>(text),
        "AnalysisAnswer" => parses::<AnalysisAnswer>(text),
        "ExportRequest" => parses::<ExportRequest>(text),
        "ExportedRecord" => parses::<ExportedRecord>(text),
        "EngineClientMessage" => parses::<EngineClientMessage>(text),
        "ReviewRequest" => parses::<jiang_protocol::ReviewRequest>(text),
        "ReviewAnswer" => parses::<jiang_protocol::ReviewAnswer>(text),
        "EngineServerMessage" => parses::<EngineServerMessage>(text),
        "ErrorBody" => parses::<ErrorBody>(text),
        "GameView" => parses::<GameView>(text),
        "ServerMessage" => parses::<ServerMessage>(text),
        "ClientMessage" => parses::<ClientMessage>(text),
        "TakebackRequest" => parses::<jiang_protocol::TakebackRequest>(text),
        "PremoveRequest" => parses::<jiang_protocol::PremoveRequest>(text),
        "ClaimRequest" => parses::<jiang_protocol::ClaimRequest>(text),
        "ChatMuteRequest" => parses::<jiang_protocol::ChatMuteRequest>(text),
        "PairRequest" => parses::<PairRequest>(text),
        "Paired" => parses::<Paired>(text),
        "LobbySnapshot" => parses::<LobbySnapshot>(text),
        "LobbyServerMessage" => parses::<LobbyServerMessage>(text),
        "LobbyClientMessage" => parses::<LobbyClientMessage>(text),
        "SummariesRequest" => parses::<SummariesRequest>(text),
        "Summaries" => parses::<Summaries>(text),
        "NodeRequest" => parses::<jiang_protocol::NodeRequest>(text),
        "NodeReply" => parses::<jiang_protocol::NodeReply>(text),
        "NodeAlive" => parses::<jiang_protocol::NodeAlive>(text),
        "LobbyShare" => parses::<jiang_protocol::LobbyShare>(text),
        other => Err(format!("no protocol type `{other}`")),
    }
}

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
    assert!(parse_as("Nothing", "{}").is_err());
}
