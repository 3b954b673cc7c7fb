//! A game's set-up: everything that, with the moves, rebuilds it. Created once (a custom start,
//! a handicap or the standard start; Jieqi's deal from the caller's secure generator), stored by
//! the caller, and opened again with the moves as recorded.

use rand_core::CryptoRng;

use crate::jieqi::{Deal, DealError, JieqiGame, Salt};
use crate::{Family, Position, Variant, shogi, xiangqi};

use super::{AnyGame, SetupError};

/// The persistent set-up of a game. For Jieqi it holds the secret deal: it must not leave its
/// keeper before the end. (With the `serde` feature it is stored as JSON.)
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct Setup {
    /// The start position (public form) as FEN/SFEN.
    pub initial_fen: String,
    /// The shogi handicap name, if any.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub handicap: Option<String>,
    /// Jieqi: the deal letters (jieqi.md order), secret until the end.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub deal: Option<String>,
    /// Jieqi: the commitment salt (hex), secret until the end.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "Option::is_none")
    )]
    pub salt: Option<String>,
}

impl Setup {
    /// A new game's set-up: the start from `fen`, a `handicap` name or the variant's standard
    /// start, and for Jieqi a fresh secret deal from `rng`, which must be cryptographically
    /// secure (jieqi.md, setup). A shogi-family start without one side's king (a tsume) is
    /// refused: a game needs both kings; [`AnyGame::analysis`] opens such a position.
    pub fn create<R: CryptoRng + ?Sized>(
        variant: Variant,
        fen: Option<&str>,
        handicap: Option<&str>,
        rng: &mut R,
    ) -> Result<Setup, SetupError> {
        if fen.is_some() && handicap.is_some() {
            return Err(SetupError::Unsupported(
                "give either a fen or a handicap, not both".into(),
            ));
        }
        if handicap.is_some() && variant.family() != Family::Shogi {
            return Err(SetupError::BadHandicap(format!(
                "handicaps exist only in shogi and minishogi, not in {variant}"
            )));
        }
        if variant == Variant::Jieqi && fen.is_some() {
            return Err(SetupError::Unsupported(
                "a Jieqi game always starts from a fresh shuffled deal: fen is not accepted".into(),
            ));
        }
        if variant == Variant::Jieqi {
            let game = JieqiGame::new(rng);
            return Ok(Setup {
                initial_fen: game.public_game().start().fen(),
                handicap: None,
                deal: Some(game.deal().to_string()),
                salt: Some(game.salt().to_string()),
            });
        }
        let setup = Setup::undealt(variant, fen, handicap)?;
        if variant.family() == Family::Shogi {
            // shogi.md: a game has one king per side. A tsume position (no attacker's king)
            // is valid for analysis only.
            let start = shogi::Position::from_fen(variant, &setup.initial_fen)
                .map_err(|e| SetupError::BadFen(e.to_string()))?;
            if let Some(side) = start.kingless_side() {
                return Err(SetupError::BadFen(format!(
                    "{} has no king: a game needs both kings (shogi.md). A position without \
                     one side's king, such as a tsume problem, can be opened on the analysis \
                     board but not played as a game",
                    variant.side_name(side)
                )));
            }
        }
        Ok(setup)
    }

    /// The set-up of a variant that deals nothing (all but Jieqi), checked as in
    /// [`Setup::create`].
    fn undealt(
        variant: Variant,
        fen: Option<&str>,
        handicap: Option<&str>,
    ) -> Result<Setup, SetupError> {
        let plain = |initial_fen: String| Setup {
            initial_fen,
            handicap: handicap.map(str::to_owned),
            deal: None,
            salt: None,
        };
        match (variant, fen, handicap) {
            (_, _, Some(name)) => {
                let h = shogi::handicap(variant, name).ok_or_else(|| {
                    let known: Vec<&str> = shogi::HANDICAPS
                        .iter()
                        .filter(|h| h.variant == variant)
                        .map(|h| h.name)
                        .collect();
                    SetupError::BadHandicap(format!(
                        "unknown {variant} handicap `{name}`: expected one of {}",
                        known.join(", ")
                    ))
                })?;
                Ok(plain(h.position().fen()))
            }
            (Variant::Xiangqi, Some(text), None) => xiangqi::Position::from_fen(variant, text)
                .map(|p| plain(p.fen()))
                .map_err(|e| SetupError::BadFen(e.to_string())),
            (_, Some(text), None) => shogi::Position::from_fen(variant, text)
                .map(|p| plain(p.fen()))
                .map_err(|e| SetupError::BadFen(e.to_string())),
            (Variant::Xiangqi, None, None) => Ok(plain(xiangqi::Position::start(variant).fen())),
            (_, None, None) => Ok(plain(shogi::Position::start(variant).fen())),
        }
    }

    /// The same set-up for a rematch: the same start and handicap, and for Jieqi a new deal
    /// from `rng`.
    pub fn rematch<R: CryptoRng + ?Sized>(
        &self,
        variant: Variant,
        rng: &mut R,
    ) -> Result<Setup, SetupError> {
        if variant == Variant::Jieqi {
            Setup::create(variant, None, None, rng)
        } else {
            Ok(Setup {
                deal: None,
                salt: None,
                ..self.clone()
            })
        }
    }
}

impl AnyGame {
    /// Rebuilds a game from its set-up and its moves as recorded.
    pub fn open(variant: Variant, setup: &Setup, moves: &[String]) -> Result<AnyGame, SetupError> {
        let mut game = AnyGame::at_start(variant, setup)?;
        for (i, mv) in moves.iter().enumerate() {
            game.replay(mv)
                .map_err(|e| SetupError::Corrupt(format!("move {} `{mv}`: {e}", i + 1)))?;
        }
        Ok(game)
    }

    /// A board for the analysis of a position that belongs to no game: `fen` (or the variant's
    /// start); in the shogi family this includes a tsume without the attacker's king
    /// (shogi.md). Jieqi: the public game from a position with covered pieces (and an optional
    /// pool); a covered piece's move names the identity supposed for it.
    pub fn analysis(variant: Variant, fen: Option<&str>) -> Result<AnyGame, SetupError> {
        if variant != Variant::Jieqi {
            let setup = Setup::undealt(variant, fen, None)?;
            return AnyGame::open(variant, &setup, &[]);
        }
        let start = match fen {
            Some(text) => xiangqi::Position::from_fen(variant, text)
                .map_err(|e| SetupError::BadFen(e.to_string()))?,
            None => xiangqi::Position::start(variant),
        };
        Ok(AnyGame::from_xiangqi(xiangqi::Game::new(start)))
    }

    /// A game at the set-up's start.
    fn at_start(variant: Variant, setup: &Setup) -> Result<AnyGame, SetupError> {
        let corrupt = |what: String| SetupError::Corrupt(what);
        match variant {
            Variant::Xiangqi => {
                let start = xiangqi::Position::from_fen(variant, &setup.initial_fen)
                    .map_err(|e| corrupt(e.to_string()))?;
                Ok(AnyGame::from_xiangqi(xiangqi::Game::new(start)))
            }
            Variant::Jieqi => {
                let deal: Deal = setup
                    .deal
                    .as_deref()
                    .ok_or_else(|| corrupt("no deal".into()))?
                    .parse()
                    .map_err(|e: DealError| corrupt(e.to_string()))?;
                let salt: Salt = setup
                    .salt
                    .as_deref()
                    .ok_or_else(|| corrupt("no salt".into()))?
                    .parse()
                    .map_err(|_| corrupt("bad salt".into()))?;
                Ok(AnyGame::from_jieqi(JieqiGame::with_deal(deal, salt)))
            }
            Variant::Shogi | Variant::Minishogi => {
                let start = shogi::Position::from_fen(variant, &setup.initial_fen)
                    .map_err(|e| corrupt(e.to_string()))?;
                let handicap = match &setup.handicap {
                    Some(name) => Some(
                        shogi::handicap(variant, name)
                            .ok_or_else(|| corrupt(format!("unknown handicap {name}")))?,
                    ),
                    None => None,
                };
                Ok(AnyGame::from_shogi(shogi::Game::with_handicap(
                    start, handicap,
                )))
            }
        }
    }
}
