//! `POST /api/positions/validate`: the board editor's judge. The rules crate reads the FEN or
//! SFEN and lists every problem of the setup, typed and located; this module only turns them
//! into the wire's [`PositionProblem`]s.

use axum::Json;
use jiang_protocol::{
    ImportedResult, PositionCheck, PositionProblem, ValidatePosition, to_sorted_value,
};
use jiang_rules::shogi::{self, SetupProblem};
use jiang_rules::xiangqi::{self, FenError};
use jiang_rules::{Family, Outcome, Side, Variant};
use serde_json::Value;

use crate::error::ApiError;
use crate::http::extract::JsonBody;

/// `POST /api/positions/validate` → `200` [`PositionCheck`], whether the position is valid or
/// not; `400` only for a request that is not one (body, unknown variant).
pub(crate) async fn validate(
    JsonBody(request): JsonBody<ValidatePosition>,
) -> Result<Json<Value>, ApiError> {
    let variant = crate::http::games::parse_variant(&request.variant)?;
    Ok(Json(to_sorted_value(&check(variant, &request.fen))))
}

/// The rules' verdict on `text` as a `variant` position.
pub fn check(variant: Variant, text: &str) -> PositionCheck {
    let side = |s: Side| variant.side_name(s).to_owned();
    let verdict = match variant.family() {
        Family::Xiangqi => xiangqi_check(variant, text),
        Family::Shogi => shogi_check(variant, text),
    };
    match verdict {
        Err(problems) => PositionCheck {
            valid: false,
            fen: None,
            problems,
            turn: None,
            check: false,
            outcome: None,
            playable: false,
        },
        Ok(Valid {
            fen,
            turn,
            check,
            outcome,
            game_start,
        }) => PositionCheck {
            valid: true,
            fen: Some(fen),
            problems: Vec::new(),
            turn: Some(side(turn)),
            check,
            playable: outcome.is_none() && variant != Variant::Jieqi && game_start,
            outcome: outcome.map(|o| ImportedResult {
                winner: o.winner.map(side),
                reason: o.reason.name().to_owned(),
            }),
        },
    }
}

/// What the answer says of a valid position.
struct Valid {
    fen: String,
    turn: Side,
    check: bool,
    outcome: Option<Outcome>,
    /// Whether a game may start here: a shogi tsume without the attacker's king is valid for
    /// analysis only (shogi.md: a game has both kings).
    game_start: bool,
}

/// A FEN that cannot be read, located for a reader of any language.
fn unreadable_fen(error: FenError) -> Vec<PositionProblem> {
    let (part, rank) = match &error {
        FenError::Empty | FenError::FieldCount { .. } => ("fields", None),
        FenError::RankCount { .. } => ("board", None),
        FenError::BadCharacter { rank, .. }
        | FenError::RankLength { rank, .. }
        | FenError::CoveredInXiangqi { rank, .. }
        | FenError::CoveredOffStartPoint { rank, .. } => ("board", Some(rank.to_string())),
        FenError::BadSide(_) => ("side", None),
        FenError::BadPlaceholder { .. } | FenError::PoolInXiangqi(_) | FenError::BadPool(_) => {
            ("pool", None)
        }
        FenError::BadCounter { .. } => ("counters", None),
        // The setup's problems are reported typed (`xiangqi_problem`), never as unreadable.
        _ => ("board", None),
    };
    vec![PositionProblem::Unreadable {
        message: error.to_string(),
        part: part.to_owned(),
        rank,
    }]
}

/// An SFEN that cannot be read, located for a reader of any language.
fn unreadable_sfen(error: shogi::SfenError) -> Vec<PositionProblem> {
    use shogi::SfenError as E;
    let (part, rank) = match &error {
        E::Empty | E::NotShogi(_) | E::Missing(_) | E::Trailing(_) => ("fields", None),
        E::RankCount { .. } | E::Illegal(_) => ("board", None),
        E::Rank { rank, .. } => ("board", Some(rank.to_string())),
        E::Side(_) => ("side", None),
        E::Hands { .. } => ("hands", None),
        E::MoveNumber(_) => ("counters", None),
    };
    vec![PositionProblem::Unreadable {
        message: error.to_string(),
        part: part.to_owned(),
        rank,
    }]
}

fn xiangqi_check(variant: Variant, text: &str) -> Result<Valid, Vec<PositionProblem>> {
    let setup = xiangqi::Setup::parse(variant, text).map_err(unreadable_fen)?;
    let problems = setup.problems(variant);
    if !problems.is_empty() {
        return Err(problems
            .iter()
            .map(|p| xiangqi_problem(variant, p))
            .collect());
    }
    let position = setup
        .validate(variant)
        .map_err(|e| vec![xiangqi_problem(variant, &e)])?;
    let game = xiangqi::Game::new(position.clone());
    Ok(Valid {
        fen: position.to_fen(),
        turn: position.turn(),
        check: position.in_check(),
        outcome: game.outcome(),
        game_start: true,
    })
}

fn shogi_check(variant: Variant, text: &str) -> Result<Valid, Vec<PositionProblem>> {
    let setup = shogi::Setup::parse(variant, text).map_err(unreadable_sfen)?;
    let problems = setup.problems();
    if !problems.is_empty() {
        return Err(problems.iter().map(|p| shogi_problem(variant, p)).collect());
    }
    let position = setup.validate().map_err(unreadable_sfen)?;
    let game = shogi::Game::new(position.clone());
    Ok(Valid {
        fen: position.sfen(),
        turn: position.turn(),
        check: position.is_check(),
        outcome: game.outcome(),
        game_start: position.kingless_side().is_none(),
    })
}

/// The wire name of a xiangqi-family kind.
fn xiangqi_kind(kind: xiangqi::PieceKind) -> &'static str {
    use xiangqi::PieceKind as K;
    match kind {
        K::General => "general",
        K::Advisor => "advisor",
        K::Elephant => "elephant",
        K::Horse => "horse",
        K::Chariot => "chariot",
        K::Cannon => "cannon",
        K::Soldier => "soldier",
    }
}

/// The wire name of a shogi kind (promoted kinds by their base kind).
fn shogi_kind(kind: shogi::PieceKind) -> &'static str {
    use shogi::PieceKind as K;
    match kind.unpromoted() {
        K::Pawn => "pawn",
        K::Lance => "lance",
        K::Knight => "knight",
        K::Silver => "silver",
        K::Gold => "gold",
        K::Bishop => "bishop",
        K::Rook => "rook",
        _ => "king",
    }
}

fn xiangqi_problem(variant: Variant, problem: &FenError) -> PositionProblem {
    let side = |s: xiangqi::SideName| variant.side_name(s.0).to_owned();
    match *problem {
        FenError::GeneralCount { side: s, found } => PositionProblem::KingCount {
            side: side(s),
            found: found as u32,
        },
        FenError::GeneralOutsidePalace { side: s, square } => PositionProblem::KingOutsidePalace {
            side: side(s),
            square: square.to_string(),
        },
        FenError::UnreachablePoint { piece, square, .. } => PositionProblem::PieceOutOfPlace {
            side: variant.side_name(piece.side).to_owned(),
            piece: xiangqi_kind(piece.kind).to_owned(),
            square: square.to_string(),
        },
        FenError::CoveredOffStartPoint {
            side: s, square, ..
        } => PositionProblem::CoveredOffStart {
            side: side(s),
            square: square.to_string(),
        },
        FenError::TooMany {
            side: s,
            letter,
            found,
            max,
            ..
        } => PositionProblem::TooMany {
            side: Some(side(s)),
            piece: xiangqi::PieceKind::from_letter(letter)
                .map_or("piece", xiangqi_kind)
                .to_owned(),
            found: found as u32,
            max: u32::from(max),
        },
        FenError::PoolTooSmall {
            side: s,
            covered,
            pool,
        } => PositionProblem::PoolTooSmall {
            side: side(s),
            covered,
            pool,
        },
        FenError::GeneralsFacing { red, .. } => PositionProblem::GeneralsFacing {
            file: red.to_string()[..1].to_owned(),
        },
        FenError::OpponentInCheck { side: s } => PositionProblem::OpponentInCheck { side: side(s) },
        // Syntax errors come from parsing, never from the setup's problems.
        ref other => PositionProblem::Unreadable {
            message: other.to_string(),
            part: "board".to_owned(),
            rank: None,
        },
    }
}

fn shogi_problem(variant: Variant, problem: &SetupProblem) -> PositionProblem {
    let side = |s: Side| variant.side_name(s).to_owned();
    match *problem {
        SetupProblem::KingCount { side: s, found } => PositionProblem::KingCount {
            side: side(s),
            found,
        },
        SetupProblem::StuckPiece {
            side: s,
            kind,
            square,
        } => PositionProblem::StuckPiece {
            side: side(s),
            piece: shogi_kind(kind).to_owned(),
            square: square.to_string(),
        },
        SetupProblem::Nifu { side: s, file } => PositionProblem::Nifu {
            side: side(s),
            file,
        },
        SetupProblem::TooMany { kind, found, max } => PositionProblem::TooMany {
            side: None,
            piece: shogi_kind(kind).to_owned(),
            found,
            max: u32::from(max),
        },
        SetupProblem::OpponentInCheck { side: s } => {
            PositionProblem::OpponentInCheck { side: side(s) }
        }
    }
}
