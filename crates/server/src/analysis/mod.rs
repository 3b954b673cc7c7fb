//! The analysis board's API: `POST /api/analysis` plays a line of moves from a start on the
//! rules (through [`crate::table`], as games do) and answers every position with its legal
//! moves in the reader's notation, check and the rules' verdict; `POST /api/analysis/export`
//! writes a move tree with its variations as a PGN or KIF record.
//!
//! A game can be opened by id only once it is over (`game_in_progress` otherwise): engine
//! help must never reach a game being played. Jieqi after a game: `knowledge: all` replays the
//! deal (public once the game is over); `red`/`black` replay the public game, and while the
//! line is the game's own record, the pools, captures and engine input are that side's view
//! at the ply (the covered pieces it captured, never those the other side captured).
//!
//! Rooms: this module (the board's rules calls and exports), `engine` (the analysis WebSocket
//! and computer reviews), `import` (`POST /api/import`), `positions` (the editor's judge).
//! May use: `table`, `game` (to read a finished game), `engine_pool`, `http::{state, extract,
//! ws}`; never the router.

pub(crate) mod engine;
pub(crate) mod import;
pub(crate) mod positions;

use axum::Json;
use axum::extract::State;
use jiang_protocol::{
    AnalysedGame, AnalysisAnswer, AnalysisPosition, AnalysisRequest, EngineStart, ExportRequest,
    ExportedRecord, GameResult, Knowledge, ReviewRequest, TreeMove, to_sorted_value,
};
use jiang_rules::variation::{Node, RecordFacts, RecordedEnding};
use jiang_rules::{Outcome, Reason, Side, Variant};
use serde_json::Value;

use crate::error::{ApiError, ErrorCode};
use crate::game::Command;
use crate::http::extract::JsonBody;
use crate::http::games::setup_error;
use crate::http::state::AppState;
use crate::table::{
    self, AnyGame, NotationStyle, RecordFormat, Refusal, TreeExportError, WireGame,
};

/// Where a board starts: the fields every request declared by the protocol's `board_request!`
/// shares (`AnalysisRequest`, `ExportRequest`, `ReviewRequest`, `EngineStart`).
pub(crate) struct Source<'a> {
    variant: Option<&'a str>,
    game: Option<&'a str>,
    fen: Option<&'a str>,
    knowledge: Option<Knowledge>,
}

/// `Source::from(&request)` for each request that names a start by these four fields.
macro_rules! source_from {
    ($($request:ty),*) => {$(
        impl<'a> From<&'a $request> for Source<'a> {
            fn from(request: &'a $request) -> Self {
                Source {
                    variant: request.variant.as_deref(),
                    game: request.game.as_deref(),
                    fen: request.fen.as_deref(),
                    knowledge: request.knowledge,
                }
            }
        }
    )*};
}
source_from!(AnalysisRequest, ExportRequest, ReviewRequest, EngineStart);

/// A board at its start, and the finished game it belongs to.
struct Board {
    table: AnyGame,
    game: Option<AnalysedGame>,
}

/// A result as views show it.
fn result_view(variant: Variant, outcome: Outcome) -> GameResult {
    GameResult {
        winner: outcome.winner.map(|s| variant.side_name(s).to_owned()),
        reason: outcome.reason.name().to_owned(),
        result: outcome.result().to_owned(),
    }
}

fn parse_variant(name: &str) -> Result<Variant, ApiError> {
    name.parse().map_err(|e: jiang_rules::UnknownVariant| {
        ApiError::new(ErrorCode::UnknownVariant, format!("{e}."))
    })
}

/// The board a request starts from.
async fn open(state: &AppState, source: Source<'_>) -> Result<Board, ApiError> {
    let Some(id) = source.game else {
        let Some(name) = source.variant else {
            return Err(ApiError::invalid_request(
                "give a variant, or a finished game's id",
            ));
        };
        let variant = parse_variant(name)?;
        if source.knowledge.is_some() {
            return Err(ApiError::new(
                ErrorCode::Unsupported,
                "`knowledge` applies to a finished Jieqi game opened by id.",
            ));
        }
        let table = AnyGame::analysis(variant, source.fen).map_err(setup_error)?;
        return Ok(Board { table, game: None });
    };
    if source.fen.is_some() {
        return Err(ApiError::new(
            ErrorCode::Unsupported,
            "Give either a game or a fen, not both.",
        ));
    }
    let finished = state
        .games
        .ask(id, |reply| Command::Finished { reply })
        .await?;
    let variant = finished.table.variant();
    if let Some(name) = source.variant
        && parse_variant(name)? != variant
    {
        return Err(ApiError::invalid_request(format_args!(
            "game `{id}` is a {variant} game, not {name}"
        )));
    }
    let table = match (variant, source.knowledge) {
        (Variant::Jieqi, Some(Knowledge::Red)) => finished.table.knowledge_restart(Side::RED),
        (Variant::Jieqi, Some(Knowledge::Black)) => finished.table.knowledge_restart(Side::BLACK),
        (Variant::Jieqi, _) | (_, None | Some(Knowledge::All)) => finished.table.restart(),
        (_, Some(_)) => {
            return Err(ApiError::new(
                ErrorCode::Unsupported,
                "`knowledge` red or black applies to Jieqi only.",
            ));
        }
    };
    let game = AnalysedGame {
        id: id.to_owned(),
        moves: finished.table.moves().to_vec(),
        result: finished.result.map(|o| result_view(variant, o)),
    };
    Ok(Board {
        table,
        game: Some(game),
    })
}

/// A notation style by name, refused with `bad_notation_style` when unknown.
fn style_named(name: &str) -> Result<NotationStyle, ApiError> {
    NotationStyle::parse(name).ok_or_else(|| {
        ApiError::new(
            ErrorCode::BadNotationStyle,
            format!(
                "Unknown notation style `{name}`: expected wxf, chinese, chinese-traditional, iccs, japanese, western, western-letters or usi."
            ),
        )
    })
}

fn wrong_family(e: table::WrongFamily) -> ApiError {
    let text = e.to_string();
    let mut chars = text.chars();
    let first: String = chars
        .next()
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    ApiError::new(
        ErrorCode::BadNotationStyle,
        format!("{first}{}.", chars.as_str()),
    )
}

/// The position `table` stands in, as the board shows it.
fn position_of(
    table: &AnyGame,
    style: NotationStyle,
    with_deal: bool,
) -> Result<AnalysisPosition, ApiError> {
    let variant = table.variant();
    let outcome = table.outcome();
    let legal_moves = table.legal_moves();
    let legal_notation = table.legal_notation(style).map_err(wrong_family)?;
    Ok(AnalysisPosition {
        ply: table.moves().len() as u64,
        fen: table.fen(),
        to_move: outcome
            .is_none()
            .then(|| variant.side_name(table.turn()).to_owned()),
        check: table.hints(&[]).check,
        legal_moves,
        legal_notation,
        result: outcome.map(|o| result_view(variant, o)),
        pool: table.pool(),
        captured: table.captured(),
        covered_pieces: if with_deal {
            table.covered_pieces()
        } else {
            None
        },
    })
}

/// Whether the board shows the deal: a finished Jieqi game analysed "as it was".
fn shows_deal(table: &AnyGame, game: Option<&AnalysedGame>, knowledge: Option<Knowledge>) -> bool {
    game.is_some()
        && table.variant() == Variant::Jieqi
        && matches!(knowledge, None | Some(Knowledge::All))
}

/// Plays `moves` on `table`, calling `after` with the ply and the table after each; the first
/// move the rules refuse is `illegal_move`, naming its number.
pub(crate) fn play_line(
    table: &mut AnyGame,
    moves: &[String],
    with_deal: bool,
    mut after: impl FnMut(usize, &AnyGame) -> Result<(), ApiError>,
) -> Result<(), ApiError> {
    for (i, mv) in moves.iter().enumerate() {
        // With the deal, a move may come back as the board recorded it (`h2e2R`): the deal
        // must agree with its letter.
        let played = if with_deal && mv.len() == 5 {
            table.replay(mv)
        } else {
            table.play(mv).map(|_| ())
        };
        played.map_err(|e| {
            ApiError::new(
                ErrorCode::IllegalMove,
                format!("Move {} `{mv}` is not legal there: {e}.", i + 1),
            )
            .with_reason(e.reason())
        })?;
        after(i + 1, table)?;
    }
    Ok(())
}

/// A board at its start for the engine's requests: the table, the finished game it belongs
/// to, and whether it shows the deal.
pub(crate) async fn start_board(
    state: &AppState,
    source: Source<'_>,
) -> Result<(AnyGame, Option<AnalysedGame>, bool), ApiError> {
    let knowledge = source.knowledge;
    let Board { table, game } = open(state, source).await?;
    let with_deal = shows_deal(&table, game.as_ref(), knowledge);
    Ok((table, game, with_deal))
}

/// The table at the end of an engine `start`'s line.
pub(crate) async fn position_for_engine(
    state: &AppState,
    request: &EngineStart,
) -> Result<AnyGame, ApiError> {
    let (mut table, _, with_deal) = start_board(state, Source::from(request)).await?;
    play_line(&mut table, &request.moves, with_deal, |_, _| Ok(()))?;
    Ok(table)
}

/// `style` by name, checked against the variant's family.
pub(crate) fn style_for(table: &AnyGame, name: &str) -> Result<NotationStyle, ApiError> {
    let style = style_named(name)?;
    table.legal_notation(style).map_err(wrong_family)?;
    Ok(style)
}

/// `POST /api/analysis`.
pub(crate) async fn analyse(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<AnalysisRequest>,
) -> Result<Json<Value>, ApiError> {
    let style = style_named(&request.style)?;
    let (mut table, game, with_deal) = start_board(&state, Source::from(&request)).await?;
    let from = request.from.unwrap_or(0);
    if from > request.moves.len() as u64 {
        return Err(ApiError::invalid_request(format_args!(
            "`from` is {from}, but the line has {} moves",
            request.moves.len()
        )));
    }
    let mut positions = Vec::new();
    if from == 0 {
        positions.push(position_of(&table, style, with_deal)?);
    }
    play_line(&mut table, &request.moves, with_deal, |ply, table| {
        if ply as u64 >= from {
            positions.push(position_of(table, style, with_deal)?);
        }
        Ok(())
    })?;
    let notation = table.notation(style).map_err(wrong_family)?;
    let notes = table.reveal_notes(style);
    let answer = AnalysisAnswer {
        variant: table.variant().name().to_owned(),
        start: table.initial_fen(),
        style: style.name().to_owned(),
        moves: table.moves().to_vec(),
        notation,
        notes,
        positions,
        game,
    };
    Ok(Json(to_sorted_value(&answer)))
}

/// A tree of the protocol as the rules' tree of move texts.
fn tree_of(line: &[TreeMove]) -> Vec<Node<String>> {
    line.iter()
        .map(|m| Node {
            mv: m.mv.clone(),
            variations: m.variations.iter().map(|v| tree_of(v)).collect(),
        })
        .collect()
}

/// What the export writes besides the tree: a finished game's own moves and result, or what
/// the request says of the record the tree came from (refused with `game`).
fn record_facts(
    variant: Variant,
    game: Option<&AnalysedGame>,
    record: Option<&jiang_protocol::RecordFacts>,
) -> Result<RecordFacts, ApiError> {
    let side = |name: &str| {
        variant.side_from_name(name).ok_or_else(|| {
            ApiError::invalid_request(format_args!("`{name}` is not a side of {variant}"))
        })
    };
    let outcome = |winner: Option<&str>, reason: &str| -> Result<Outcome, ApiError> {
        let reason = reason
            .parse::<Reason>()
            .map_err(|e| ApiError::invalid_request(format_args!("{e}")))?;
        Ok(Outcome {
            winner: winner.map(side).transpose()?,
            reason,
        })
    };
    match (game, record) {
        (Some(_), Some(_)) => Err(ApiError::new(
            ErrorCode::Unsupported,
            "Give either a game or a record's facts, not both.",
        )),
        (Some(game), None) => Ok(RecordFacts {
            names: [None, None],
            ending: match &game.result {
                Some(r) => Some(RecordedEnding {
                    moves: game.moves.clone(),
                    outcome: outcome(r.winner.as_deref(), &r.reason)?,
                }),
                None => None,
            },
        }),
        (None, Some(record)) => {
            let mut names = [None, None];
            for (name, player) in &record.players {
                names[side(name)?.index()] = Some(player.clone());
            }
            let ending = match &record.result {
                Some(r) => Some(RecordedEnding {
                    moves: record.moves.clone(),
                    outcome: outcome(r.winner.as_deref(), &r.reason)?,
                }),
                None => None,
            };
            Ok(RecordFacts { names, ending })
        }
        (None, None) => Ok(RecordFacts::default()),
    }
}

/// `POST /api/analysis/export`.
pub(crate) async fn export(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<ExportRequest>,
) -> Result<Json<Value>, ApiError> {
    let (table, game, _) = start_board(&state, Source::from(&request)).await?;
    let facts = record_facts(table.variant(), game.as_ref(), request.record.as_ref())?;
    let format = match (request.format.as_str(), request.moves.as_deref()) {
        ("pgn", moves) => {
            RecordFormat::pgn_with_moves(moves.unwrap_or("iccs")).ok_or_else(|| {
                ApiError::new(
                    ErrorCode::BadMoves,
                    "Unknown PGN move notation: expected iccs, wxf or chinese.",
                )
            })?
        }
        ("kif", None) => RecordFormat::Kif,
        ("kif", Some(_)) => {
            return Err(ApiError::new(
                ErrorCode::BadMoves,
                "`moves` applies to the pgn format only.",
            ));
        }
        (other, _) => {
            return Err(ApiError::new(
                ErrorCode::UnsupportedFormat,
                format!("Unknown export format `{other}`: expected pgn or kif."),
            ));
        }
    };
    let text = table
        .write_tree(&tree_of(&request.tree), format, &facts)
        .map_err(|e| match e {
            TreeExportError::WrongFormat { .. } => {
                ApiError::new(ErrorCode::UnsupportedFormat, e.to_string())
            }
            TreeExportError::Tree(_) => ApiError::new(ErrorCode::IllegalMove, e.to_string()),
            TreeExportError::Unwritable(_) => {
                ApiError::new(ErrorCode::InvalidRequest, e.to_string())
            }
        })?;
    let answer = ExportedRecord {
        format: request.format.clone(),
        file_name: format!("analysis.{}", format.extension()),
        text,
    };
    Ok(Json(to_sorted_value(&answer)))
}
