//! The puzzle endpoints: `GET /api/puzzles/next`, `GET /api/puzzles/daily/{variant}`,
//! `GET /api/puzzles/{id}`, `POST /api/puzzles/{id}/move`, `POST /api/puzzles/{id}/hint` and
//! `POST /api/puzzles/{id}/solution`.

use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use jiang_protocol::{
    PuzzleHint, PuzzleMoveAnswer, PuzzleMoveRequest, PuzzleRated, PuzzleResult, PuzzleSolution,
    PuzzleStepRequest, to_sorted_value,
};
use jiang_puzzles::{CheckError, Puzzle, Theme, Verdict};
use jiang_rules::Variant;
use serde_json::Value;

use super::{puzzle_of, rating_from_wire, rating_of_row, rounded, view, wire_rating};
use crate::error::{ApiError, ErrorCode};
use crate::http::extract::JsonBody;
use crate::http::state::AppState;
use crate::players::handlers::who;
use crate::players::read_error;
use crate::rating::{self, Rating};
use crate::store::{PlayerRow, PuzzlePick, PuzzleRow, PuzzleWrite, StoreError, Write, now_ms};

/// The rating windows tried in turn around the solver's rating when picking the next puzzle.
const WINDOWS: [f64; 4] = [100.0, 250.0, 600.0, f64::INFINITY];

/// The daily puzzle is picked among puzzles rated in this range (all of them if none is).
const DAILY_RANGE: (f64, f64) = (1300.0, 2000.0);

fn not_found(what: impl std::fmt::Display) -> ApiError {
    ApiError::new(ErrorCode::PuzzleNotFound, format!("{what}."))
}

fn parse_variant(text: &str) -> Result<Variant, ApiError> {
    text.parse()
        .map_err(|e| ApiError::new(ErrorCode::UnknownVariant, format!("{e}.")))
}

/// The stored puzzle `id`, or `404 puzzle_not_found`.
async fn load(state: &AppState, id: &str) -> Result<(Puzzle, PuzzleRow), ApiError> {
    let row = state
        .games
        .store()
        .backend()
        .puzzle(id)
        .await
        .map_err(read_error)?
        .ok_or_else(|| not_found(format_args!("There is no puzzle `{id}`")))?;
    Ok((puzzle_of(&row)?, row))
}

/// The view of a puzzle for whoever asks (a player's rating and attempt included).
async fn view_for(
    state: &AppState,
    player: Option<&PlayerRow>,
    puzzle: &Puzzle,
    row: &PuzzleRow,
) -> Result<Json<Value>, ApiError> {
    let backend = state.games.store().backend();
    let (you, attempted) = match player {
        Some(p) => {
            let rating = backend
                .puzzle_rating(&p.id, &row.variant)
                .await
                .map_err(read_error)?;
            let attempt = backend.attempt(&p.id, &row.id).await.map_err(read_error)?;
            (
                rating.as_ref().map(rating_of_row),
                attempt.is_some_and(|a| a.score.is_some()),
            )
        }
        None => (None, false),
    };
    Ok(Json(to_sorted_value(&view(puzzle, row, you, attempted)?)))
}

/// `GET /api/puzzles/next?variant=…[&theme=…][&rating=…][&after=…]`: a puzzle near the solver's
/// rating (a key holder's stored one, else `rating`, else 1500) not yet tried by a key holder,
/// other than `after`.
pub(crate) async fn next(
    State(state): State<AppState>,
    headers: HeaderMap,
    RawQuery(query): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let (mut variant, mut theme, mut target, mut after) = (None, None, None, None);
    for (key, value) in url::form_urlencoded::parse(query.as_deref().unwrap_or("").as_bytes()) {
        match &*key {
            "variant" => variant = Some(parse_variant(&value)?),
            "theme" if !value.is_empty() => {
                let parsed: Theme = value.parse().map_err(|_| {
                    ApiError::invalid_request(format_args!(
                        "unknown theme `{value}`: expected one of {}",
                        Theme::ALL
                            .iter()
                            .map(|t| t.name())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                })?;
                theme = Some(parsed);
            }
            "rating" => {
                let r: f64 = value
                    .parse()
                    .ok()
                    .filter(|r: &f64| r.is_finite())
                    .ok_or_else(|| {
                        ApiError::invalid_request(format_args!("rating `{value}` is not a number"))
                    })?;
                target = Some(r.clamp(0.0, 4000.0));
            }
            "after" => after = Some(value.into_owned()),
            "theme" => {}
            other => {
                return Err(ApiError::invalid_request(format_args!(
                    "unknown query parameter `{other}`: expected variant, theme, rating or after"
                )));
            }
        }
    }
    let variant = variant.ok_or_else(|| {
        ApiError::invalid_request("`variant` is required (xiangqi, jieqi, shogi or minishogi)")
    })?;
    let auth = who(&state, &headers, false).await?;
    let player = auth.optional()?;
    let backend = state.games.store().backend();
    if let Some(p) = player {
        let stored = backend
            .puzzle_rating(&p.id, variant.name())
            .await
            .map_err(read_error)?;
        target = Some(stored.map_or(rating::INITIAL_RATING, |r| r.rating));
    }
    let target = target.unwrap_or(rating::INITIAL_RATING);
    // Nearest first; a key holder who tried every puzzle near him gets one tried before.
    let passes = match player {
        Some(p) => vec![Some(p.id.as_str()), None],
        None => vec![None],
    };
    for unseen in passes {
        for window in WINDOWS {
            let pick = PuzzlePick {
                variant: variant.name(),
                theme: theme.map(Theme::name),
                low: target - window,
                high: target + window,
                player: unseen,
                skip: after.as_deref(),
            };
            if let Some(row) = backend.pick_puzzle(pick).await.map_err(read_error)? {
                let puzzle = puzzle_of(&row)?;
                return view_for(&state, player, &puzzle, &row).await;
            }
        }
    }
    Err(not_found(format_args!(
        "No {variant} puzzle{} is available",
        theme.map_or(String::new(), |t| format!(" with the theme {t}"))
    )))
}

/// Today's date (UTC) as `YYYY-MM-DD`.
fn today() -> String {
    let (y, m, d, ..) = jiang_rules::utc_civil(now_ms());
    format!("{y:04}-{m:02}-{d:02}")
}

/// `GET /api/puzzles/daily/{variant}`: the same puzzle for everyone all (UTC) day.
pub(crate) async fn daily(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(variant): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let variant = parse_variant(&variant)?;
    let auth = who(&state, &headers, false).await?;
    let backend = state.games.store().backend();
    let day = today();
    let chosen = backend
        .daily_puzzle(variant.name(), &day)
        .await
        .map_err(read_error)?;
    let id = match chosen {
        Some(id) => id,
        None => {
            let mut pick = PuzzlePick {
                variant: variant.name(),
                theme: None,
                low: DAILY_RANGE.0,
                high: DAILY_RANGE.1,
                player: None,
                skip: None,
            };
            let mut found = backend.pick_puzzle(pick).await.map_err(read_error)?;
            if found.is_none() {
                (pick.low, pick.high) = (f64::NEG_INFINITY, f64::INFINITY);
                found = backend.pick_puzzle(pick).await.map_err(read_error)?;
            }
            let Some(found) = found else {
                return Err(not_found(format_args!(
                    "There are no {variant} puzzles yet"
                )));
            };
            // Two nodes (or requests) may pick at once: the first stored wins, and both read it.
            write(
                &state,
                PuzzleWrite::Daily {
                    variant: variant.name().to_owned(),
                    day: day.clone(),
                    puzzle: found.id.clone(),
                },
            )
            .await?;
            backend
                .daily_puzzle(variant.name(), &day)
                .await
                .map_err(read_error)?
                .unwrap_or(found.id)
        }
    };
    let (puzzle, row) = load(&state, &id).await?;
    view_for(&state, auth.optional()?, &puzzle, &row).await
}

/// `GET /api/puzzles/{id}`.
pub(crate) async fn show(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let auth = who(&state, &headers, false).await?;
    let (puzzle, row) = load(&state, &id).await?;
    view_for(&state, auth.optional()?, &puzzle, &row).await
}

/// Stores a puzzle write.
async fn write(state: &AppState, write: PuzzleWrite) -> Result<(), ApiError> {
    match state.games.store().write(vec![Write::Puzzle(write)]).await {
        Ok(()) => Ok(()),
        Err(StoreError::Closed) => Err(ApiError::unavailable()),
        Err(e) => {
            tracing::error!(error = %e, "puzzle write failed");
            Err(ApiError::storage_unavailable())
        }
    }
}

/// A refusal of the puzzle rules as the API says it.
fn refusal(error: CheckError) -> ApiError {
    match error {
        CheckError::Illegal { .. } => ApiError::new(ErrorCode::IllegalMove, format!("{error}.")),
        CheckError::OffLine { .. } => ApiError::new(ErrorCode::BadMoves, format!("{error}.")),
        CheckError::NotSolversTurn => ApiError::new(ErrorCode::NotYourTurn, format!("{error}.")),
        CheckError::Corrupt { .. } => {
            tracing::error!(%error, "stored puzzle does not replay");
            ApiError::internal("This puzzle is stored corrupt.")
        }
    }
}

/// Ends the attempt with `score`: a key holder's through the store (rated once per puzzle),
/// a browser's own `rating` computed here against the puzzle's (nothing stored). `None` when
/// nothing was rated.
async fn conclude(
    state: &AppState,
    player: Option<&PlayerRow>,
    puzzle: &PuzzleRow,
    browser: Option<(Rating, bool)>,
    score: f64,
) -> Result<Option<PuzzleRated>, ApiError> {
    match (player, browser) {
        (Some(p), _) => {
            let backend = state.games.store().backend();
            let before = backend
                .attempt(&p.id, &puzzle.id)
                .await
                .map_err(read_error)?;
            if before.as_ref().is_some_and(|a| a.score.is_some()) {
                return Ok(None);
            }
            write(
                state,
                PuzzleWrite::Conclude {
                    player: p.id.clone(),
                    puzzle: puzzle.id.clone(),
                    variant: puzzle.variant.clone(),
                    score,
                    at: now_ms(),
                },
            )
            .await?;
            let attempt = backend
                .attempt(&p.id, &puzzle.id)
                .await
                .map_err(read_error)?;
            let rating = backend
                .puzzle_rating(&p.id, &puzzle.variant)
                .await
                .map_err(read_error)?;
            Ok(match (attempt.and_then(|a| a.change), rating) {
                (Some(change), Some(rating)) => Some(PuzzleRated {
                    rating: rating_of_row(&rating),
                    change: rounded(change, 2),
                }),
                _ => None,
            })
        }
        (None, Some((mine, hinted))) => {
            let theirs = Rating {
                rating: puzzle.rating,
                deviation: puzzle.deviation,
                volatility: puzzle.volatility,
            };
            let score = if hinted { score.min(0.5) } else { score };
            let (after, _) = rating::rate_game(mine, theirs, score);
            Ok(Some(PuzzleRated {
                rating: wire_rating(after),
                change: rounded(after.rating - mine.rating, 2),
            }))
        }
        (None, None) => Ok(None),
    }
}

/// `POST /api/puzzles/{id}/move`: the verdict on a move, the opponent's reply, and when the
/// attempt ends, the rating.
pub(crate) async fn play(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<PuzzleMoveRequest>,
) -> Result<Json<Value>, ApiError> {
    let browser = request
        .rating
        .map(rating_from_wire)
        .transpose()?
        .map(|r| (r, request.hinted));
    let auth = who(&state, &headers, true).await?;
    let (puzzle, row) = load(&state, &id).await?;
    let verdict = jiang_puzzles::check(&puzzle, &request.line, &request.mv).map_err(refusal)?;
    let player = auth.optional()?;
    let answer = match verdict {
        Verdict::Right { played, reply } => PuzzleMoveAnswer {
            result: PuzzleResult::Right,
            played: Some(played),
            reply: Some(reply),
            rated: None,
        },
        Verdict::Solved { played } => PuzzleMoveAnswer {
            result: PuzzleResult::Solved,
            played: Some(played),
            reply: None,
            rated: conclude(&state, player, &row, browser, 1.0).await?,
        },
        Verdict::Wrong => PuzzleMoveAnswer {
            result: PuzzleResult::Wrong,
            played: None,
            reply: None,
            rated: conclude(&state, player, &row, browser, 0.0).await?,
        },
    };
    Ok(Json(to_sorted_value(&answer)))
}

/// `POST /api/puzzles/{id}/hint`: where the next move starts (a key holder's solve then counts
/// half).
pub(crate) async fn hint(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<PuzzleStepRequest>,
) -> Result<Json<Value>, ApiError> {
    let auth = who(&state, &headers, true).await?;
    let (puzzle, row) = load(&state, &id).await?;
    let from = jiang_puzzles::hint(&puzzle, &request.line).map_err(refusal)?;
    if let Some(p) = auth.optional()? {
        write(
            &state,
            PuzzleWrite::Hint {
                player: p.id.clone(),
                puzzle: row.id.clone(),
                at: now_ms(),
            },
        )
        .await?;
    }
    Ok(Json(to_sorted_value(&PuzzleHint { from })))
}

/// `POST /api/puzzles/{id}/solution`: the whole line; an attempt not yet ended ends lost.
pub(crate) async fn solution(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    JsonBody(request): JsonBody<PuzzleStepRequest>,
) -> Result<Json<Value>, ApiError> {
    let browser = match (request.rating, request.ended) {
        (Some(r), false) => Some((rating_from_wire(r)?, false)),
        _ => None,
    };
    let auth = who(&state, &headers, true).await?;
    let (puzzle, row) = load(&state, &id).await?;
    let rated = conclude(&state, auth.optional()?, &row, browser, 0.0).await?;
    Ok(Json(to_sorted_value(&PuzzleSolution {
        solution: puzzle.solution,
        rated,
    })))
}
