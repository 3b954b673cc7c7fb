//! `GET /api/analysis/ws`: the engine on the analysis board. A `start` names a line (as
//! `POST /api/analysis` does); the server plays it on the rules, hands the engine what the
//! side to move may know (Jieqi: its view, never the deal) and runs the search on the shared
//! engine pool, streaming the best lines (MultiPV, up to 3) with their scores from the side to
//! move's and from Red's (Sente's) point of view and the lines in the reader's notation.
//!
//! Budgets: one search per socket at a time (a new `start` or a `stop` ends the previous one),
//! each at most [`crate::Config::analysis_seconds`]; every socket of one address shares one
//! client key of the pool's round-robin queue, so analysis waits its turn behind computer
//! games and other clients and can never take more than its share of the pool's threads.
//! Sockets count against `--max-sockets-per-address`.

use std::net::IpAddr;
use std::time::Duration;

use axum::Extension;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket};
use axum::response::Response;
use jiang_engine::score::Reported;
use jiang_engine::{Go, Info};
use jiang_protocol::{
    EngineClientMessage, EngineInfo, EngineLine, EngineScore, EngineServerMessage, EngineStart,
    to_sorted_json,
};
use jiang_rules::Side;
use tokio::sync::mpsc;

use crate::engine_pool::{ClientKey, Job, JobHandle};
use crate::error::{ApiError, ErrorCode};
use crate::http::serve::{ConnectionSlot, stopped};
use crate::http::slots::Slot;
use crate::http::state::{AppState, ClientAddress};
use crate::http::ws::Accepted;
use crate::table::{AnyGame, NotationStyle};

/// The largest client message read (a `start` with a long line).
const MAX_MESSAGE: usize = 16 * 1024;

/// The most lines (MultiPV) a search reports.
pub const MAX_LINES: u8 = 3;

pub(crate) async fn upgrade(accepted: Accepted) -> Response {
    let (state, client, slots) = (accepted.state, accepted.client, accepted.slots);
    accepted
        .upgrade
        .max_message_size(MAX_MESSAGE)
        .on_upgrade(move |ws| serve(state, client, ws, slots))
}

/// The search running for this socket.
struct Search {
    number: u64,
    handle: JobHandle,
    /// The analysed position (to write the lines in the style).
    table: AnyGame,
    style: NotationStyle,
    lines: Vec<Option<EngineLine>>,
}

fn send_text(message: &EngineServerMessage) -> Message {
    Message::Text(to_sorted_json(message).into())
}

fn error_message(e: ApiError) -> EngineServerMessage {
    EngineServerMessage::Error {
        code: e.code,
        message: e.message,
        reason: e.reason,
    }
}

async fn serve(state: AppState, client: IpAddr, mut ws: WebSocket, _slots: (Slot, ConnectionSlot)) {
    let (info_tx, mut info_rx) = mpsc::unbounded_channel::<(u64, Info)>();
    let mut search: Option<Search> = None;
    let mut number = 0u64;
    let mut hard_stop = state.hard_stop.clone();
    let idle = state.ws_idle_timeout;
    loop {
        let done = async {
            match search.as_mut() {
                Some(s) => s.handle.wait().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            message = tokio::time::timeout(idle, ws.recv()) => {
                let text = match message {
                    Ok(Some(Ok(Message::Text(text)))) => text,
                    Ok(Some(Ok(Message::Ping(_) | Message::Pong(_)))) => continue,
                    Ok(Some(Ok(Message::Binary(_)))) => {
                        let e = ApiError::new(ErrorCode::InvalidMessage, "Send JSON text messages.");
                        if ws.send(send_text(&error_message(e))).await.is_err() { break; }
                        continue;
                    }
                    // Closed, failed, or silent for the idle timeout.
                    _ => break,
                };
                let reply = match serde_json::from_str::<EngineClientMessage>(&text) {
                    Err(e) => Some(error_message(ApiError::new(
                        ErrorCode::InvalidMessage,
                        format!("Not an analysis message: {e}."),
                    ))),
                    Ok(EngineClientMessage::Ping {}) => Some(EngineServerMessage::Pong {}),
                    Ok(EngineClientMessage::Stop {}) => {
                        if let Some(s) = &search {
                            s.handle.cancel();
                        }
                        None
                    }
                    Ok(EngineClientMessage::Start(request)) => {
                        let started = start(&state, client, &info_tx, number + 1, &request).await;
                        match started {
                            Ok((next, ply)) => {
                                // The previous search ends: its `done` is not waited for.
                                if let Some(old) = search.take() {
                                    old.handle.cancel();
                                }
                                number += 1;
                                search = next;
                                Some(match &search {
                                    Some(_) => EngineServerMessage::Queued { search: number, ply },
                                    // The game is over there: nothing to search.
                                    None => EngineServerMessage::Done { search: number, depth: 0, nodes: 0 },
                                })
                            }
                            Err(e) => Some(error_message(e)),
                        }
                    }
                };
                if let Some(reply) = reply
                    && ws.send(send_text(&reply)).await.is_err()
                {
                    break;
                }
            }
            Some((n, info)) = info_rx.recv() => {
                let Some(s) = search.as_mut().filter(|s| s.number == n) else { continue };
                let Some(message) = info_message(s, &info) else { continue };
                if ws.send(send_text(&message)).await.is_err() { break; }
            }
            result = done => {
                let s = search.take().expect("a search was running");
                let (depth, nodes) = result.map(|t| (t.depth, t.nodes)).unwrap_or((0, 0));
                let message = EngineServerMessage::Done { search: s.number, depth, nodes };
                if ws.send(send_text(&message)).await.is_err() { break; }
            }
            _ = stopped(&mut hard_stop) => break,
        }
    }
    if let Some(s) = search {
        s.handle.cancel();
    }
}

/// Plays the line and submits the search; `None` when the game is over at that position.
async fn start(
    state: &AppState,
    client: IpAddr,
    info_tx: &mpsc::UnboundedSender<(u64, Info)>,
    number: u64,
    request: &EngineStart,
) -> Result<(Option<Search>, u64), ApiError> {
    let lines = request.lines.unwrap_or(1);
    if !(1..=MAX_LINES).contains(&lines) {
        return Err(ApiError::new(
            ErrorCode::InvalidMessage,
            format!("`lines` is {lines}: the engine shows 1 to {MAX_LINES} lines."),
        ));
    }
    let table = crate::analysis::position_for_engine(state, request).await?;
    let style = crate::analysis::style_for(&table, &request.style)?;
    let ply = table.moves().len() as u64;
    if table.outcome().is_some() || table.legal_moves().is_empty() {
        return Ok((None, ply));
    }
    let input = jiang_engine::Input::for_seat(&table, table.turn()).map_err(|e| {
        ApiError::new(
            ErrorCode::InvalidRequest,
            format!("The engine cannot read this position: {e}."),
        )
    })?;
    let tx = info_tx.clone();
    let job = Job {
        client: ClientKey(format!("analysis:{client}")),
        input,
        go: Go {
            clock: jiang_engine::Clock {
                movetime: Some(state.analysis_seconds),
                ..jiang_engine::Clock::default()
            },
            ..Go::default()
        },
        multi_pv: usize::from(lines),
        level: 8,
        seed: number,
        on_info: Some(Box::new(move |info: &Info| {
            let _ = tx.send((number, info.clone()));
        })),
    };
    let handle = state.games.engines().submit(job);
    Ok((
        Some(Search {
            number,
            handle,
            table,
            style,
            lines: vec![None; usize::from(lines)],
        }),
        ply,
    ))
}

/// A score as the protocol writes it, from the side to move's view.
fn score_of(score: i32) -> EngineScore {
    match Reported::of(score) {
        Reported::Centipawns(cp) => EngineScore {
            cp: Some(cp),
            mate: None,
        },
        Reported::Mate(n) => EngineScore {
            cp: None,
            mate: Some(n),
        },
    }
}

/// The `info` message after `info` (one line of an iteration): all the lines known so far.
fn info_message(search: &mut Search, info: &Info) -> Option<EngineServerMessage> {
    let index = info.multipv.checked_sub(1)?;
    let slot = search.lines.get_mut(index)?;
    let first_to_move = search.table.turn() == Side::First;
    let score = score_of(info.score);
    let score_first = if first_to_move {
        score
    } else {
        score_of(-info.score)
    };
    // The line in the style, as far as the rules can play it from the position.
    let mut line = search.table.clone();
    let before = line.moves().len();
    for mv in &info.pv {
        if line.play(mv).is_err() {
            break;
        }
    }
    let pv_notation = line
        .notation(search.style)
        .map(|all| all[before..].to_vec())
        .unwrap_or_default();
    *slot = Some(EngineLine {
        multipv: info.multipv as u32,
        score,
        score_first,
        pv: info.pv.clone(),
        pv_notation,
    });
    Some(EngineServerMessage::Info(EngineInfo {
        search: search.number,
        depth: info.depth,
        nodes: info.nodes,
        ms: u64::try_from(info.elapsed.as_millis()).unwrap_or(u64::MAX),
        lines: search.lines.iter().flatten().cloned().collect(),
    }))
}

/// The default of `--analysis-seconds`.
pub const DEFAULT_SECONDS: Duration = Duration::from_secs(30);

/// The longest line a review takes (plies).
pub const MAX_REVIEW_PLIES: usize = 600;

/// Evaluations are capped here when moves are compared, so that a mate found a move late
/// does not count as thousands of centipawns lost.
const CAP: i32 = 1_000;

/// A position's value for the side to move, in centipawns capped at [`CAP`]: the engine's
/// score, or the rules' verdict where the game is over.
fn capped(score: i32) -> i32 {
    score.clamp(-CAP, CAP)
}

/// The winning chance (0–100) of a capped evaluation, for the accuracy figure.
fn winning_chance(cp: i32) -> f64 {
    50.0 + 50.0 * (2.0 / (1.0 + (-0.004 * f64::from(cp)).exp()) - 1.0)
}

/// The judgement of a move that lost `loss` centipawns.
fn judgement(loss: i32) -> Option<jiang_protocol::Judgement> {
    use jiang_protocol::Judgement as J;
    match loss {
        l if l >= 300 => Some(J::Blunder),
        l if l >= 100 => Some(J::Mistake),
        l if l >= 50 => Some(J::Inaccuracy),
        _ => None,
    }
}

/// `POST /api/analysis/review`: every position of the line evaluated on the engine pool at
/// the same fixed budget (`--review-nodes`), the moves judged by what they lost against the
/// engine's best, and each side's accuracy.
pub(crate) async fn review(
    State(state): State<AppState>,
    Extension(ClientAddress(client)): Extension<ClientAddress>,
    crate::http::extract::JsonBody(request): crate::http::extract::JsonBody<
        jiang_protocol::ReviewRequest,
    >,
) -> Result<axum::Json<serde_json::Value>, ApiError> {
    use jiang_protocol::{MoveVerdict, ReviewAnswer};
    let (mut table, game, with_deal) =
        crate::analysis::start_board(&state, (&request).into()).await?;
    let style = crate::analysis::style_for(&table, &request.style)?;
    let moves = match (request.moves, game) {
        (Some(moves), _) => moves,
        (None, Some(game)) => game.moves,
        (None, None) => Vec::new(),
    };
    if moves.len() > MAX_REVIEW_PLIES {
        return Err(ApiError::invalid_request(format_args!(
            "a review takes at most {MAX_REVIEW_PLIES} plies, not {}",
            moves.len()
        )));
    }
    let mut tables = vec![table.clone()];
    crate::analysis::play_line(&mut table, &moves, with_deal, |_, t| {
        tables.push(t.clone());
        Ok(())
    })?;
    // One job per position, all queued at once under this client's review key: the pool's
    // round-robin serves other clients and computer games between them.
    let key = ClientKey(format!("review:{client}"));
    let mut handles = Vec::with_capacity(tables.len());
    for (i, t) in tables.iter().enumerate() {
        if t.outcome().is_some() || t.legal_moves().is_empty() {
            handles.push(None);
            continue;
        }
        let input = jiang_engine::Input::for_seat(t, t.turn()).map_err(|e| {
            ApiError::new(
                ErrorCode::InvalidRequest,
                format!("The engine cannot read position {i}: {e}."),
            )
        })?;
        handles.push(Some(state.games.engines().submit(Job {
            client: key.clone(),
            input,
            go: Go {
                nodes: Some(state.review_nodes),
                clock: jiang_engine::Clock {
                    movetime: Some(state.analysis_seconds),
                    ..jiang_engine::Clock::default()
                },
                ..Go::default()
            },
            multi_pv: 1,
            level: 8,
            seed: i as u64,
            on_info: None,
        })));
    }
    // The value of each position for its side to move, and the engine's move there.
    let mut values = Vec::with_capacity(tables.len());
    let mut best = Vec::with_capacity(tables.len());
    for (t, handle) in tables.iter().zip(handles) {
        match handle {
            None => {
                let outcome = t.outcome();
                let value = match outcome.and_then(|o| o.winner) {
                    Some(w) if w == t.turn() => jiang_engine::score::MATE,
                    Some(_) => -jiang_engine::score::MATE,
                    None => 0,
                };
                values.push((value, true));
                best.push(None);
            }
            Some(handle) => {
                let thought = handle.result().await.map_err(|e| {
                    ApiError::new(
                        ErrorCode::Unavailable,
                        format!("The engine did not answer: {e}."),
                    )
                })?;
                values.push((thought.score, false));
                best.push(match thought.decision {
                    jiang_engine::Decision::Move(mv) => Some(mv),
                    _ => None,
                });
            }
        }
    }
    let variant = tables[0].variant();
    let evals = tables
        .iter()
        .zip(&values)
        .map(|(t, &(value, over))| {
            (!over).then(|| {
                if t.turn() == Side::First {
                    score_of(value)
                } else {
                    score_of(-value)
                }
            })
        })
        .collect();
    let mut verdicts = Vec::with_capacity(moves.len());
    let mut accuracy_sum = [0.0f64; 2];
    let mut counted = [0u32; 2];
    for i in 0..moves.len() {
        let mover = tables[i].turn();
        let before = capped(values[i].0);
        let after = -capped(values[i + 1].0);
        let loss = (before - after).max(0);
        let played = tables[i + 1].moves()[i].clone();
        let better = best[i]
            .clone()
            .filter(|b| !played.starts_with(b.as_str()) && loss > 0);
        let better_notation = better.as_ref().and_then(|b| {
            let mut line = tables[i].clone();
            line.play(b).ok()?;
            line.notation(style).ok()?.pop()
        });
        let drop = (winning_chance(before) - winning_chance(after)).max(0.0);
        accuracy_sum[mover.index()] +=
            (103.1668 * (-0.04354 * drop).exp() - 3.1669).clamp(0.0, 100.0);
        counted[mover.index()] += 1;
        verdicts.push(MoveVerdict {
            ply: i as u64 + 1,
            loss,
            judgement: judgement(loss),
            better,
            better_notation,
        });
    }
    let accuracy = Side::BOTH
        .into_iter()
        .filter(|s| counted[s.index()] > 0)
        .map(|s| {
            let mean = accuracy_sum[s.index()] / f64::from(counted[s.index()]);
            (
                variant.side_name(s).to_owned(),
                (mean * 10.0).round() / 10.0,
            )
        })
        .collect();
    let answer = ReviewAnswer {
        moves: tables
            .last()
            .map(|t| t.moves().to_vec())
            .unwrap_or_default(),
        nodes_per_position: state.review_nodes,
        evals,
        verdicts,
        accuracy,
    };
    Ok(axum::Json(jiang_protocol::to_sorted_value(&answer)))
}

/// The default of `--review-nodes`.
pub const DEFAULT_REVIEW_NODES: u64 = 40_000;
