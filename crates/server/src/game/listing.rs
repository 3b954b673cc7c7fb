//! What the lobby hears from a game actor (see `crate::lobby`), and the public summary of a
//! stored game (a browser's "My games").

use jiang_protocol::{GameSummary, TimeControlSpec};

use super::rows::StoredResult;
use super::*;
use crate::lobby::{Listing, PlayingGame};

impl Live {
    /// Where the game stands for the lobby now.
    fn listing(&self) -> Listing {
        match self.state.status {
            // A waiting game has one seat taken: any seated socket is the creator's.
            Status::Waiting => Listing::Waiting {
                creator_present: self.subscribers.iter().any(|s| s.viewer.is_some()),
            },
            Status::Playing => Listing::Playing(PlayingGame {
                variant: self.variant,
                control: self.state.meta.control,
                handicap: self.setup.handicap.clone(),
                moves: self.ply() as u64,
                spectators: self.spectator_count() as u64,
                listed: !self.state.meta.unlisted && !self.abandoned_by_person(),
                computer: self.computer.map(|c| c.level),
                players: Side::BOTH
                    .iter()
                    .filter_map(|&s| {
                        let player = self.state.meta.players[s.index()].clone()?;
                        Some((self.name(s).to_owned(), player))
                    })
                    .collect(),
            }),
            Status::Ended | Status::Aborted => Listing::Over,
        }
    }

    /// Tells the lobby where the game stands, if that changed since it was last told.
    pub(super) fn sync_lobby(&mut self, games: &Games) {
        let listing = self.listing();
        if self.lobby_told.as_ref() != Some(&listing) {
            games.lobby.game_listing(&self.id, listing.clone());
            self.lobby_told = Some(listing);
        }
    }
}

/// A result under the variant's side names.
pub(super) fn game_result(variant: Variant, outcome: Outcome) -> GameResult {
    GameResult {
        winner: outcome.winner.map(|s| variant.side_name(s).to_owned()),
        reason: outcome.reason.name().to_owned(),
        result: outcome.result().to_owned(),
    }
}

/// What anyone may see of stored game `stored` at a glance: no token, no Jieqi secret, nothing
/// a spectator could not see. `None` for a row that cannot be read.
pub(crate) fn summary(stored: &StoredGame) -> Option<GameSummary> {
    let row = &stored.row;
    let variant: Variant = row.variant.parse().ok()?;
    let setup: Setup = serde_json::from_str(&row.setup).ok()?;
    let meta: Meta = serde_json::from_str(&row.meta).ok()?;
    let status = Status::parse(&row.status)?;
    let result = match row.result.as_deref() {
        None => None,
        Some(text) => {
            let stored: StoredResult = serde_json::from_str(text).ok()?;
            let reason: Reason = stored.reason.parse().ok()?;
            let outcome = Outcome {
                winner: stored.winner.map(side_of_index),
                reason,
            };
            Some(game_result(variant, outcome))
        }
    };
    Some(GameSummary {
        id: row.id.clone(),
        variant: variant.name().to_owned(),
        status,
        clock: meta.control.map(TimeControlSpec::from),
        handicap: setup.handicap,
        moves: stored.moves.len() as u64,
        result,
        created_at: row.created_at,
        updated_at: row.updated_at,
        to_move: row
            .to_move
            .filter(|_| status == Status::Playing)
            .map(|i| variant.side_name(side_of_index(i as usize)).to_owned()),
        deadline: row.deadline_at.filter(|_| status == Status::Playing),
    })
}
