//! The [`Hub`]: carries a tournament's changes from the handlers and the pairing loop to its
//! sockets (the standings to all, "your next game" to its player), throttles the standings by
//! size, and in cluster mode shares all of it with the other nodes over NATS.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use jiang_protocol::{TournamentNews, TournamentShare};
use tokio::sync::{Notify, broadcast};

use super::pages::Standings;

/// What the sockets of one tournament are told.
#[derive(Clone, Debug)]
pub(crate) enum Event {
    /// The new standings (each socket sends the page it follows).
    Standings(Arc<Standings>),
    /// A `game` message for `player` only.
    Paired { player: String, message: Arc<str> },
}

/// What the standings of one tournament may cost its sockets, in bytes a second (see
/// [`publish_standings`]).
pub const STANDINGS_BYTES_PER_SECOND: f64 = 20e6;

/// A player in a tournament: (tournament id, player id).
type PlayerIn = (String, String);

/// The tournament sockets' channels, and the pairing loop's wake-up. In cluster mode it also
/// shares every event and wake-up with the other nodes (`jiang.tournament`), in order, and
/// hands theirs to its own sockets: the loop runs on one node, sockets on any.
#[derive(Default)]
pub(crate) struct Hub {
    /// Per tournament: its standings, to every socket.
    channels: Mutex<HashMap<String, broadcast::Sender<Event>>>,
    /// Per (tournament, player): that player's own messages ("your next game"), so that a
    /// pairing of hundreds reaches each player's sockets without passing through everyone's.
    personal: Mutex<HashMap<PlayerIn, broadcast::Sender<Arc<str>>>>,
    /// Per tournament: the last standings sent, for a socket that fell behind.
    latest: Mutex<HashMap<String, Arc<Standings>>>,
    /// Poked after a join, a withdrawal or a new tournament: the loop looks at once.
    pub(crate) wake: Notify,
    /// Per tournament: when its next standings may go out, and whether a change waits.
    standings: Mutex<HashMap<String, (std::time::Instant, bool)>>,
    /// Cluster mode: the queue of what this node shares (see [`Hub::share_with`]).
    outbox: std::sync::OnceLock<tokio::sync::mpsc::UnboundedSender<(String, TournamentNews)>>,
}

impl Hub {
    pub(crate) fn new() -> Arc<Hub> {
        Arc::new(Hub::default())
    }

    /// Cluster mode: shares this node's events and wake-ups on `jiang.tournament`, and hands
    /// the other nodes' to this node's sockets and loop, until `shutdown`.
    pub(crate) async fn share_with(
        self: &Arc<Self>,
        cluster: Arc<crate::cluster::Cluster>,
        mut shutdown: tokio::sync::watch::Receiver<bool>,
    ) -> Result<(), crate::cluster::ClusterError> {
        use futures_util::StreamExt;
        let subject = cluster.topic("tournament");
        let mut heard = cluster.nats().subscribe(subject.clone()).await?;
        let (tx, mut outbox) = tokio::sync::mpsc::unbounded_channel();
        let _ = self.outbox.set(tx);
        let hub = self.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    message = heard.next() => {
                        let Some(message) = message else { break };
                        match serde_json::from_slice::<TournamentShare>(&message.payload) {
                            Ok(share) if share.node != cluster.node() => hub.hear(share),
                            Ok(_) => {}
                            Err(e) => tracing::warn!(error = %e, "unreadable tournament share"),
                        }
                    }
                    Some((tournament, news)) = outbox.recv() => {
                        let share = TournamentShare {
                            node: cluster.node().to_owned(),
                            tournament,
                            news,
                        };
                        let payload = serde_json::to_vec(&share).expect("serialises");
                        let _ = cluster.nats().publish(subject.clone(), payload.into()).await;
                    }
                    _ = shutdown.changed() => break,
                }
            }
        });
        Ok(())
    }

    /// Another node's news: to this node's sockets (or loop).
    fn hear(&self, share: TournamentShare) {
        let event = match share.news {
            TournamentNews::Standings { state } => Event::Standings(Standings::new(*state)),
            TournamentNews::Paired { player, message } => Event::Paired {
                player,
                message: message.into(),
            },
            TournamentNews::Wake {} => {
                self.wake.notify_one();
                return;
            }
        };
        self.deliver(&share.tournament, event);
    }

    /// Whether tournament `id`'s standings must wait (then marked to be sent when due).
    pub(super) fn hold_standings(&self, id: &str) -> bool {
        let mut standings = self.standings.lock().expect("hub lock");
        match standings.get_mut(id) {
            Some((not_before, waiting)) if std::time::Instant::now() < *not_before => {
                *waiting = true;
                true
            }
            _ => false,
        }
    }

    /// Tournament `id`'s standings went out now, a page of about `page_bytes` to each socket:
    /// the next wait until their cost is paid (to this node's sockets, and in a cluster the
    /// whole state, every page, once more for the other nodes).
    pub(super) fn standings_sent(&self, id: &str, page_bytes: usize, pages: u32) {
        let sockets = {
            let channels = self.channels.lock().expect("hub lock");
            channels
                .get(id)
                .map_or(0, broadcast::Sender::receiver_count)
        };
        let shared = if self.outbox.get().is_some() {
            pages as usize
        } else {
            0
        };
        let bytes = page_bytes as f64 * (sockets + shared) as f64;
        let wait = Duration::from_secs_f64(bytes / STANDINGS_BYTES_PER_SECOND);
        let mut standings = self.standings.lock().expect("hub lock");
        standings.insert(id.to_owned(), (std::time::Instant::now() + wait, false));
        // Forget the tournaments whose wait is over and that have nothing waiting.
        let now = std::time::Instant::now();
        standings.retain(|_, (not_before, waiting)| *waiting || *not_before > now);
    }

    /// The tournaments whose held-back standings may go out now.
    pub(crate) fn standings_due(&self) -> Vec<String> {
        let now = std::time::Instant::now();
        let standings = self.standings.lock().expect("hub lock");
        standings
            .iter()
            .filter(|(_, (not_before, waiting))| *waiting && *not_before <= now)
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// Pokes the pairing loop, wherever it runs.
    pub(crate) fn poke(&self, tournament: &str) {
        self.wake.notify_one();
        if let Some(outbox) = self.outbox.get() {
            let _ = outbox.send((tournament.to_owned(), TournamentNews::Wake {}));
        }
    }

    /// A receiver of tournament `id`'s events.
    pub(crate) fn subscribe(&self, id: &str) -> broadcast::Receiver<Event> {
        let mut channels = self.channels.lock().expect("hub lock");
        channels
            .entry(id.to_owned())
            .or_insert_with(|| broadcast::channel(64).0)
            .subscribe()
    }

    /// A receiver of `player`'s own messages in tournament `id`.
    pub(crate) fn subscribe_personal(
        &self,
        id: &str,
        player: &str,
    ) -> broadcast::Receiver<Arc<str>> {
        let mut personal = self.personal.lock().expect("hub lock");
        personal
            .entry((id.to_owned(), player.to_owned()))
            .or_insert_with(|| broadcast::channel(8).0)
            .subscribe()
    }

    /// The last standings of tournament `id` sent to its sockets.
    pub(crate) fn latest_standings(&self, id: &str) -> Option<Arc<Standings>> {
        self.latest.lock().expect("hub lock").get(id).cloned()
    }

    /// Forgets tournament `id`'s channels if no socket listens any more (a socket's end, an
    /// unknown id).
    pub(crate) fn prune(&self, id: &str) {
        let mut channels = self.channels.lock().expect("hub lock");
        if channels.get(id).is_some_and(|s| s.receiver_count() == 0) {
            channels.remove(id);
            self.latest.lock().expect("hub lock").remove(id);
        }
        drop(channels);
        self.personal
            .lock()
            .expect("hub lock")
            .retain(|(t, _), s| t != id || s.receiver_count() > 0);
    }

    /// Sends `event` to tournament `id`'s sockets, on every node of a cluster.
    pub(crate) fn publish(&self, id: &str, event: Event) {
        if let Some(outbox) = self.outbox.get() {
            let news = match &event {
                Event::Standings(standings) => TournamentNews::Standings {
                    state: Box::new(standings.state().clone()),
                },
                Event::Paired { player, message } => TournamentNews::Paired {
                    player: player.clone(),
                    message: message.to_string(),
                },
            };
            let _ = outbox.send((id.to_owned(), news));
        }
        self.deliver(id, event);
    }

    /// Sends `event` to this node's sockets of tournament `id`, if any (a channel nobody
    /// listens to any more is dropped).
    fn deliver(&self, id: &str, event: Event) {
        let event = match event {
            Event::Paired { player, message } => {
                let personal = self.personal.lock().expect("hub lock");
                if let Some(sender) = personal.get(&(id.to_owned(), player)) {
                    let _ = sender.send(message);
                }
                return;
            }
            Event::Standings(message) => {
                self.latest
                    .lock()
                    .expect("hub lock")
                    .insert(id.to_owned(), message.clone());
                Event::Standings(message)
            }
        };
        let mut channels = self.channels.lock().expect("hub lock");
        if let Some(sender) = channels.get(id) {
            if sender.receiver_count() == 0 {
                channels.remove(id);
            } else {
                let _ = sender.send(event);
            }
        }
    }

    /// Whether any socket watches tournament `id` (in a cluster, always: another node's may).
    pub(crate) fn watched(&self, id: &str) -> bool {
        if self.outbox.get().is_some() {
            return true;
        }
        let channels = self.channels.lock().expect("hub lock");
        channels.get(id).is_some_and(|s| s.receiver_count() > 0)
    }
}
