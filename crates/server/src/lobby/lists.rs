//! The lists' entries and the small steps on them: a seek or a game as the sockets are
//! told it, the Watch order, the bookkeeping of taken seeks and per-address caps.

use std::collections::HashSet;
use std::net::IpAddr;
use std::time::Instant;

use jiang_protocol::{LiveGame, Seek, TimeControlSpec};
use jiang_rules::Variant;

use crate::clock::TimeControl;

use super::{GameEntry, Inner, PlayingGame, SeekEntry, SeekInfo};

/// The ids of `sent` (what the sockets were last sent) that are not `listed` any more.
pub(super) fn no_longer_listed<'a>(
    sent: impl Iterator<Item = &'a String>,
    listed: impl Fn(&String) -> bool,
) -> Vec<String> {
    sent.filter(|id| !listed(id)).cloned().collect()
}

/// "Watch" order: the most watched first, then the newest.
pub(super) fn watch_order(a: &GameEntry, b: &GameEntry) -> std::cmp::Ordering {
    b.game
        .spectators
        .cmp(&a.game.spectators)
        .then(b.started.cmp(&a.started))
}

/// Cluster mode: another node's seek `id` started or ended here; its node is told.
pub(super) fn note_taken(inner: &mut Inner, id: &str, now: Instant) {
    if inner.seeks.get(id).is_some_and(|s| s.origin.is_some()) {
        inner.taken.insert(id.to_owned(), now);
    }
}

/// Cluster mode: marks this node's seeks that another node's page holds.
pub(super) fn update_remote_holds(inner: &mut Inner, now: Instant) {
    let held: HashSet<String> = inner
        .shares
        .values()
        .flat_map(|s| s.held.iter().cloned())
        .collect();
    for (id, seek) in inner.seeks.iter_mut() {
        if seek.origin.is_none() {
            seek.remote_held = held.contains(id);
            seek.update_presence(now);
        }
    }
}

/// Another node's seek as this hub keeps it; `None` if it does not parse.
pub(super) fn seek_info(seek: &Seek) -> Option<SeekInfo> {
    let variant: Variant = seek.variant.parse().ok()?;
    Some(SeekInfo {
        variant,
        control: match seek.clock {
            Some(spec) => Some(TimeControl::try_from(spec).ok()?),
            None => None,
        },
        side: variant.side_from_name(&seek.side)?,
        handicap: seek.handicap.clone(),
        rated: seek.rated,
        player: seek.player.clone(),
        rating_range: seek.rating_range,
    })
}

/// Another node's listed game as this hub keeps it; `None` if it does not parse.
pub(super) fn playing_game(game: &LiveGame) -> Option<PlayingGame> {
    Some(PlayingGame {
        variant: game.variant.parse().ok()?,
        control: match game.clock {
            Some(spec) => Some(TimeControl::try_from(spec).ok()?),
            None => None,
        },
        handicap: game.handicap.clone(),
        moves: game.moves,
        spectators: game.spectators,
        listed: true,
        computer: game.computer,
        players: game.players.clone(),
    })
}

/// Removes seek `id` (if listed) and gives back its address's place; whether it was there.
pub(super) fn remove_seek(inner: &mut Inner, id: &str) -> bool {
    match inner.seeks.remove(id) {
        Some(seek) => {
            release_address(inner, seek.address);
            true
        }
        None => false,
    }
}

pub(super) fn release_address(inner: &mut Inner, address: Option<IpAddr>) {
    if let Some(address) = address
        && let Some(entry) = inner.addresses.get_mut(&address)
    {
        entry.open = entry.open.saturating_sub(1);
    }
}

impl SeekEntry {
    /// Starts or stops the creator's absence.
    pub(super) fn update_presence(&mut self, now: Instant) {
        if self.origin.is_some() {
            return; // Its own node expires it.
        }
        if self.holders > 0 || self.in_game || self.remote_held {
            self.gone_since = None;
        } else if self.gone_since.is_none() {
            self.gone_since = Some(now);
        }
    }

    pub(super) fn view(&self, id: &str, now: Instant) -> Seek {
        Seek {
            id: id.to_owned(),
            variant: self.info.variant.name().to_owned(),
            clock: self.info.control.map(TimeControlSpec::from),
            side: self.info.variant.side_name(self.info.side).to_owned(),
            handicap: self.info.handicap.clone(),
            waiting_ms: u64::try_from(now.saturating_duration_since(self.created).as_millis())
                .unwrap_or(u64::MAX),
            rated: self.info.rated,
            player: self.info.player.clone(),
            rating_range: self.info.rating_range,
        }
    }
}

impl GameEntry {
    pub(super) fn view(&self, id: &str) -> LiveGame {
        LiveGame {
            id: id.to_owned(),
            variant: self.game.variant.name().to_owned(),
            clock: self.game.control.map(TimeControlSpec::from),
            handicap: self.game.handicap.clone(),
            moves: self.game.moves,
            spectators: self.game.spectators,
            computer: self.game.computer,
            players: self.game.players.clone(),
        }
    }
}
