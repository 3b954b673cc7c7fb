//! The game endpoints: create, join, view, actions, notation and records. Thin: each parses,
//! hands the work to the game's actor (`crate::game`) and answers.

use std::net::IpAddr;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{MethodRouter, post};
use axum::{Extension, Json};
use jiang_protocol::{CreateGame, Created, EmptyRequest, GameView, to_sorted_value};
use jiang_rules::{Side, Variant};
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::clock::TimeControl;
use crate::error::{ApiError, ErrorCode};
use crate::game::{Action, Command, NewGame};
use crate::http::extract::{
    SameSiteJson, action_token, bearer, cookie, parse_body, seat_cookie_name, seated_answer,
};
use crate::http::state::{AppState, ClientAddress};
use crate::seat;
use crate::table::{self, AnyGame, NotationStyle, RecordFormat, SetupError};

pub(crate) async fn create_game(
    State(state): State<AppState>,
    Extension(ClientAddress(client)): Extension<ClientAddress>,
    headers: HeaderMap,
    // No other site may make a visitor's browser create a game (and get its seat cookie).
    SameSiteJson(request): SameSiteJson<CreateGame>,
) -> Result<Response, ApiError> {
    let player = seat_player(&state, &headers, request.rated).await?;
    let created = create(&state, request, client, player).await?;
    Ok(seated_answer(
        &state,
        StatusCode::CREATED,
        (&created.id, &created.token),
        &created,
    ))
}

/// The player (public id) a request takes a seat as: its player key's, if any. A rated seat
/// needs one (`401`); a wrong key in the `Authorization` header is `401` too, while a stale
/// player cookie just means an anonymous seat. The cookie takes a seat only from this site's
/// own pages, as the seat cookie acts (`403 cross_origin`).
pub(crate) async fn seat_player(
    state: &AppState,
    headers: &HeaderMap,
    rated: bool,
) -> Result<Option<String>, ApiError> {
    let auth = crate::players::handlers::who(state, headers, true).await?;
    if rated {
        return Ok(Some(auth.require()?.id.clone()));
    }
    Ok(auth.optional()?.map(|p| p.id.clone()))
}

/// Validates and stores the game `request` asks for, with the creator's seat (held by
/// `player`, if it gave a player key); an open one is listed in the lobby (within `client`'s
/// seek limits).
pub(crate) async fn create(
    state: &AppState,
    request: CreateGame,
    client: IpAddr,
    player: Option<String>,
) -> Result<Created, ApiError> {
    let computer = crate::game::requested_level(request.opponent)?;
    if request.rated && (computer.is_some() || request.fen.is_some() || request.handicap.is_some())
    {
        return Err(ApiError::new(
            ErrorCode::RatedNotAllowed,
            "A rated game is between two players from the usual start: no computer, no custom \
             position, no handicap.",
        ));
    }
    if request.rated && player.is_none() {
        return Err(ApiError::new(
            ErrorCode::PlayerKeyRequired,
            "A rated game needs a player key.",
        ));
    }
    if let Some([min, max]) = request.rating_range
        && (min > max || computer.is_some())
    {
        return Err(ApiError::invalid_request(
            "`rating_range` is [min, max] with min ≤ max, between people",
        ));
    }
    if computer.is_some() && request.open {
        // The computer holds the other seat at once: there is nothing to seek.
        return Err(ApiError::invalid_request(
            "a game against the computer cannot be an open seek",
        ));
    }
    let control = request
        .clock
        .map(TimeControl::try_from)
        .transpose()
        .map_err(ApiError::invalid_request)?;
    let variant = parse_variant(&request.variant)?;
    let side = match request.side.as_deref() {
        None | Some("random") => {
            if rand::random::<bool>() {
                Side::First
            } else {
                Side::Second
            }
        }
        Some(name) => variant.side_from_name(name).ok_or_else(|| {
            ApiError::new(
                ErrorCode::InvalidSide,
                format!(
                    "Unknown side `{name}` for {variant}: expected {}, {} or random.",
                    variant.side_name(Side::First),
                    variant.side_name(Side::Second)
                ),
            )
        })?,
    };
    let setup = table::create(variant, request.fen.as_deref(), request.handicap.as_deref())
        .map_err(setup_error)?;
    // Validate by building the table once: the start must be playable.
    let table = AnyGame::open(variant, &setup, &[]).map_err(setup_error)?;
    if let Some(outcome) = table.outcome() {
        return Err(ApiError::new(
            ErrorCode::InvalidFen,
            format!(
                "The game would be over before it starts ({}).",
                outcome.reason
            ),
        ));
    }
    drop(table);
    // The creator as its seat and seek show it: name and rating now, read from the store.
    let speed = crate::players::speed_of(control.as_ref());
    let shown = match &player {
        Some(id) => {
            crate::players::player_ref(&*state.games.store().backend(), id, variant.name(), speed)
                .await
                .map_err(crate::players::read_error)?
        }
        None => None,
    };
    if request.open {
        state.lobby.reserve(client)?;
    }
    let id = seat::new_game_id();
    let token = seat::new_token();
    let mut tokens = [None, None];
    tokens[side.index()] = Some(seat::hash_token(&token));
    let handicap = setup.handicap.clone();
    let new_game = NewGame {
        variant,
        setup,
        control,
        tokens,
        open: request.open,
        unlisted: request.unlisted,
        computer,
        players: {
            let mut players = [None, None];
            players[side.index()] = shown.clone();
            players
        },
        rated: request.rated,
        rating_range: request.rating_range,
        tournament: None,
    };
    let stored = state.games.store().write(new_game.writes(&id)).await;
    if let Err(e) = stored {
        if request.open {
            state.lobby.unreserve(client);
        }
        tracing::error!(error = %e, "cannot store a new game");
        return Err(ApiError::internal("The game could not be stored."));
    }
    if request.open {
        let [first, second] = new_game.tokens;
        let info = crate::lobby::SeekInfo {
            variant,
            control,
            side: !side,
            handicap,
            rated: request.rated,
            player: shown,
            rating_range: request.rating_range,
        };
        let hash = first.or(second).expect("the creator's seat is taken");
        state.lobby.add_seek(&id, info, client, hash);
    }
    tracing::info!(game = %id, %variant, open = request.open, computer = ?computer, "game created");
    if computer.is_some() {
        // The computer may have the first move: its actor starts now.
        state.games.wake(&id);
    }
    let url = format!("{}/g/{id}", state.games.settings().public_url);
    Ok(Created {
        id,
        side: variant.side_name(side).to_owned(),
        token,
        url,
    })
}

/// A request's `variant`, or `400 unknown_variant`.
pub(crate) fn parse_variant(name: &str) -> Result<Variant, ApiError> {
    name.parse().map_err(|e: jiang_rules::UnknownVariant| {
        ApiError::new(ErrorCode::UnknownVariant, format!("{e}."))
    })
}

pub(crate) fn setup_error(e: SetupError) -> ApiError {
    let code = match e {
        SetupError::BadFen(_) => ErrorCode::InvalidFen,
        SetupError::BadHandicap(_) => ErrorCode::InvalidHandicap,
        SetupError::Unsupported(_) => ErrorCode::Unsupported,
        SetupError::Corrupt(_) => return ApiError::internal(e.to_string()),
    };
    ApiError::new(code, format!("{e}."))
}

pub(crate) async fn view_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let explicit = bearer(&headers);
    let from_cookie = cookie(&headers, &seat_cookie_name(&id));
    let view = state
        .games
        .ask(&id, |reply| Command::View {
            token: explicit.clone().or_else(|| from_cookie.clone()),
            reply,
        })
        .await;
    match view {
        // A stale cookie (not a bearer header) just means watching.
        Err(e) if e.code == ErrorCode::WrongToken && explicit.is_none() => state
            .games
            .ask(&id, |reply| Command::View { token: None, reply })
            .await
            .map(view_json),
        other => other.map(view_json),
    }
}

pub(crate) async fn join_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    // No other site may make a visitor's browser take a seat.
    _: SameSiteJson<EmptyRequest>,
) -> Result<Response, ApiError> {
    // Whether the game is rated is the game's to say: its actor refuses a missing player.
    let player = seat_player(&state, &headers, false).await?;
    let joined = state
        .games
        .ask(&id, |reply| Command::Join {
            player: player.clone(),
            reply,
        })
        .await?;
    Ok(seated_answer(
        &state,
        StatusCode::OK,
        (&id, &joined.token),
        &joined,
    ))
}

/// A view as the JSON an answer carries.
pub(crate) fn view_json(view: GameView) -> Json<Value> {
    Json(to_sorted_value(&view))
}

/// Applies `action` for the seat of `token` (from [`action_token`], or the WebSocket's seat);
/// the view the seat sees after it.
pub(crate) async fn act(
    state: &AppState,
    id: &str,
    token: Option<String>,
    action: Action,
) -> Result<GameView, ApiError> {
    state
        .games
        .ask(id, |reply| Command::Act {
            token: token.clone(),
            action: action.clone(),
            reply,
        })
        .await
}

/// The `POST` route of a game action whose body `R` is made into the [`Action`] by `to_action`.
pub(crate) fn action<R: DeserializeOwned + 'static>(
    to_action: fn(R) -> Action,
) -> MethodRouter<AppState> {
    post(move |s, p, h, b| body_action(s, p, h, b, to_action))
}

/// `POST /api/games/{id}/<action>`: the body, read strictly as `R` (`MoveRequest`,
/// `DrawRequest`, or `EmptyRequest` for resign, abort, impasse and rematch, whose body must be
/// empty or `{}`), made into the [`Action`] by `to_action`.
pub(crate) async fn body_action<R: DeserializeOwned>(
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
    to_action: impl FnOnce(R) -> Action,
) -> Result<Json<Value>, ApiError> {
    let token = action_token(&state, &headers, &id)?;
    let request: R = parse_body(body)?;
    act(&state, &id, token, to_action(request))
        .await
        .map(view_json)
}

/// `GET /api/games/{id}/notation?style=…`: every move of the game in a human notation,
/// computed by the rules crate, with the positions the game went through (the web client's
/// move list and its steps back). The same for every viewer: only public information goes
/// into it.
pub(crate) async fn notation(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Json<Value>, ApiError> {
    let requested = query
        .as_deref()
        .unwrap_or("")
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == "style")
        .map(|(_, v)| v.to_owned());
    let Some(name) = requested else {
        return Err(ApiError::new(
            ErrorCode::BadNotationStyle,
            "Give a notation style: ?style=wxf, chinese, chinese-traditional, iccs, japanese, western, western-letters or usi.",
        ));
    };
    let style = NotationStyle::parse(&name).ok_or_else(|| {
        ApiError::new(
            ErrorCode::BadNotationStyle,
            format!(
                "Unknown notation style `{name}`: expected wxf, chinese, chinese-traditional, iccs, japanese, western, western-letters or usi."
            ),
        )
    })?;
    let history = state
        .games
        .ask(&id, |reply| Command::Notation { style, reply })
        .await?;
    Ok(Json(to_sorted_value(&history)))
}

/// `GET /api/games/{id}/record?format=…` (default: pgn for the xiangqi family, kif for shogi).
pub(crate) async fn record(
    State(state): State<AppState>,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> Result<Response, ApiError> {
    let param = |name: &str| {
        query
            .as_deref()
            .unwrap_or("")
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_owned())
    };
    let format = match param("format") {
        None => None,
        Some(name) => Some(
            serde_json::from_value::<RecordFormat>(json!(name)).map_err(|_| {
                ApiError::new(
                    ErrorCode::UnsupportedFormat,
                    format!(
                        "Unknown record format `{name}`: expected pgn, kif, ki2, csa, fen or sfen."
                    ),
                )
            })?,
        ),
    };
    // `moves=iccs|wxf|chinese` picks the PGN movetext.
    let format = match (format, param("moves")) {
        (_, None) => format,
        (None | Some(RecordFormat::Pgn), Some(moves)) => {
            Some(RecordFormat::pgn_with_moves(&moves).ok_or_else(|| {
                ApiError::new(
                    ErrorCode::BadMoves,
                    format!("Unknown PGN move notation `{moves}`: expected iccs, wxf or chinese."),
                )
            })?)
        }
        (Some(_), Some(_)) => {
            return Err(ApiError::new(
                ErrorCode::BadMoves,
                "`moves` applies to the pgn format only.",
            ));
        }
    };
    let file = state
        .games
        .ask(&id, |reply| Command::Record {
            format: format.unwrap_or(RecordFormat::Pgn),
            reply,
        })
        .await;
    // Without a format, the family's own record: retry with KIF for the shogi family.
    let file = match (format, file) {
        (None, Err(e)) if e.code == ErrorCode::UnsupportedFormat => {
            state
                .games
                .ask(&id, |reply| Command::Record {
                    format: RecordFormat::Kif,
                    reply,
                })
                .await?
        }
        (_, file) => file?,
    };
    let mut response = file.text.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(file.content_type),
    );
    headers.insert(
        header::CONTENT_DISPOSITION,
        HeaderValue::from_str(&format!("attachment; filename=\"{}\"", file.file_name))
            .expect("ascii file name"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    Ok(response)
}
