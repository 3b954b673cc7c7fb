//! The registry of live game actors: starts an actor on demand (loading its game), routes
//! commands to it, resumes timed games after a restart, sweeps abandoned ones and wakes the
//! correspondence games whose deadline passed (their actors are not kept between moves).

use super::*;
use crate::engine_pool::EnginePool;

/// The registry of live actors, shared by the HTTP handlers.
pub(crate) struct Games {
    pub(super) actors: Mutex<HashMap<String, mpsc::Sender<Command>>>,
    pub(super) store: Store,
    /// The engine threads (computer opponents; analysis).
    pub(super) engines: EnginePool,
    pub(super) settings: GameSettings,
    pub(super) shutdown: watch::Receiver<bool>,
    pub(super) alive: mpsc::Sender<()>,
    pub(super) next_sub: AtomicU64,
    /// This node's previous runs (see [`clock::ran_since`]): resumed clocks are charged the
    /// time they ran in them after the game's last stored snapshot.
    pub(super) runs: Vec<clock::Run>,
    /// The lobby, told where each live game stands.
    pub(crate) lobby: Arc<crate::lobby::Lobby>,
    /// Cluster mode: this node's part (leases, forwarding); `None` for a single node.
    pub(super) cluster: Option<Arc<crate::cluster::Cluster>>,
}

impl Games {
    pub(crate) fn new(
        store: Store,
        engines: EnginePool,
        settings: GameSettings,
        shutdown: watch::Receiver<bool>,
        alive: mpsc::Sender<()>,
        node: NodeParts,
        lobby: Arc<crate::lobby::Lobby>,
    ) -> Arc<Games> {
        let NodeParts { runs, cluster } = node;
        // In a cluster a socket's subscription id travels between nodes: each node starts at a
        // random point so that ids of different nodes do not meet.
        let first_sub = if cluster.is_some() {
            rand::random::<u64>() >> 12
        } else {
            1
        };
        Arc::new(Games {
            actors: Mutex::new(HashMap::new()),
            store,
            engines,
            settings,
            shutdown,
            alive,
            next_sub: AtomicU64::new(first_sub),
            runs,
            lobby,
            cluster,
        })
    }

    /// Cluster mode: takes game `id`'s lease for the actor `me` that is starting, with the runs
    /// its clocks are charged by (`None`: this node's previous runs, as for a single node).
    /// `Err(None)`: another node runs the game (the actor unlists itself, so that the callers
    /// forward); `Err(Some(e))`: the database could not say. A single node has no lease.
    pub(super) async fn take_lease(
        &self,
        id: &str,
        me: &mpsc::Sender<Command>,
    ) -> Result<(Option<i64>, Option<Vec<clock::Run>>), Option<ApiError>> {
        use crate::cluster::{Lease, Previous};
        let Some(cluster) = &self.cluster else {
            return Ok((None, None));
        };
        let unavailable = |e: crate::store::StoreError| {
            tracing::warn!(game = %id, error = %e, "cannot take the game's lease");
            Some(ApiError::storage_unavailable())
        };
        match cluster.take(id).await.map_err(unavailable)? {
            Lease::Taken { epoch, previous } => {
                let runs = match previous {
                    Previous::Nobody => None,
                    Previous::Released => Some(Vec::new()),
                    Previous::Node(node) => Some(
                        self.store
                            .runs(&node)
                            .await
                            .map_err(unavailable)?
                            .iter()
                            .map(|run| clock::Run {
                                started_at: run.started_at,
                                alive_at: run.alive_at,
                            })
                            .collect(),
                    ),
                };
                Ok((Some(epoch), runs))
            }
            Lease::Held(_) => {
                let mut actors = self.actors.lock().expect("actor map poisoned");
                if actors.get(id).is_some_and(|tx| tx.same_channel(me)) {
                    actors.remove(id);
                }
                Err(None)
            }
            Lease::Missing => Ok((None, None)),
        }
    }

    /// Whether game `id`'s actor runs on this node.
    fn runs_here(&self, id: &str) -> bool {
        self.actors
            .lock()
            .expect("actor map poisoned")
            .get(id)
            .is_some_and(|tx| !tx.is_closed())
    }

    pub(crate) fn store(&self) -> &Store {
        &self.store
    }

    /// The server's engine pool (shared by computer opponents and analysis).
    pub(crate) fn engines(&self) -> &EnginePool {
        &self.engines
    }

    pub(crate) fn settings(&self) -> &GameSettings {
        &self.settings
    }

    /// Starts the actors of every game in progress that has a timer to run (timed games, and
    /// games in their first-move countdown), after a restart, and records this node's new run
    /// (returning its start, ms since the Unix epoch). Untimed games further on and games
    /// waiting for an opponent have nothing to run; they are loaded when first asked for.
    /// Correspondence games are not started either: the deadline sweep wakes them when due.
    ///
    /// Restart fairness (clocks-and-games.md: the downtime is not charged): each resumed clock
    /// and first-move countdown is charged the time it ran in the node's previous runs after
    /// the game's row was written, and resumes at the new run's start; only the downtime
    /// between runs is refunded. The new run is stored before any actor starts; runs that
    /// ended before every resumed game's snapshot are no longer needed and deleted.
    pub(crate) async fn resume_all(
        self: &Arc<Self>,
        node: &str,
    ) -> Result<(usize, i64), crate::store::StoreError> {
        // In a cluster the orphan sweep starts the games that need a node (see
        // `crate::cluster`), and this node's earlier runs are kept: another node taking over a
        // game this node ran before a crash charges its clocks by them.
        let stored = if self.cluster.is_some() {
            Vec::new()
        } else {
            self.store.load_resumable().await?
        };
        let at = Instant::now();
        let started_at = now_ms();
        let prune_before = if self.cluster.is_some() {
            i64::MIN
        } else {
            stored
                .iter()
                .map(|game| game.row.updated_at)
                .min()
                .unwrap_or(i64::MAX)
        };
        self.store
            .write(vec![Write::StartRun {
                node: node.to_owned(),
                started_at,
                prune_before,
            }])
            .await?;
        let n = stored.len();
        for game in stored {
            let id = game.row.id.clone();
            self.spawn(id, Some(Preloaded { stored: game, at }));
        }
        Ok((n, started_at))
    }

    /// Ends untimed games in progress that nobody changed for `settings.abandon_after` as
    /// `abandoned` (no winner), durably; returns how many. Games whose actor is in memory are
    /// left to a later sweep (once it retires) or to their next load.
    pub(crate) async fn sweep_abandoned(&self) -> Result<usize, crate::store::StoreError> {
        const PAGE: i64 = 500;
        let cutoff = now_ms().saturating_sub(duration_ms(self.settings.abandon_after));
        let result = abandoned_result();
        let mut ended = 0;
        loop {
            let ids = self.store.abandoned(cutoff, PAGE).await?;
            let full_page = ids.len() as i64 == PAGE;
            let unit: Vec<Write> = {
                let actors = self.actors.lock().expect("actor map poisoned");
                ids.into_iter()
                    .filter(|id| actors.get(id).is_none_or(|tx| tx.is_closed()))
                    .map(|id| Write::Abandon {
                        id,
                        result: result.clone(),
                        cutoff,
                        at: now_ms(),
                    })
                    .collect()
            };
            if unit.is_empty() {
                break;
            }
            ended += unit.len();
            self.store.write(unit).await?;
            if !full_page {
                break;
            }
        }
        if ended > 0 {
            tracing::info!(ended, "untimed games ended as abandoned");
        }
        Ok(ended)
    }

    /// Ends the correspondence games whose deadline has passed (at most one page of them),
    /// each through its actor: the sweep asks for the game as a spectator would, which loads
    /// it (in a cluster, on the node holding its lease, or here taking it), and the actor,
    /// on loading, settles its time exactly as its own timer would (the side to move loses on
    /// time, or a draw by `timeout-vs-insufficient`; before both first moves, an abort),
    /// durably and once. An actor already in memory has settled it itself. Returns whether the
    /// page was full (more may be due).
    pub(crate) async fn sweep_deadlines(self: &Arc<Self>) -> Result<bool, StoreError> {
        const PAGE: i64 = 100;
        let due = self.store.due(now_ms(), PAGE).await?;
        let full = due.len() as i64 == PAGE;
        let mut settled = 0;
        for id in &due {
            if *self.shutdown.borrow() {
                break;
            }
            match self
                .ask(id, |reply| Command::View { token: None, reply })
                .await
            {
                Ok(view) if view.state.status != Status::Playing => settled += 1,
                Ok(_) => {
                    tracing::warn!(game = %id, "correspondence deadline passed; not settled yet")
                }
                Err(e) => {
                    tracing::warn!(game = %id, error = %e.message, "correspondence deadline sweep")
                }
            }
        }
        if settled > 0 {
            tracing::info!(settled, "correspondence games past their deadline ended");
        }
        Ok(full && settled > 0)
    }

    /// How many game actors are in memory (a test's and an operator's look at memory use).
    pub(crate) fn live_actors(&self) -> usize {
        self.actors
            .lock()
            .expect("actor map poisoned")
            .values()
            .filter(|tx| !tx.is_closed())
            .count()
    }

    /// The actor of game `id`, started (and loaded from the store) if it is not running.
    pub(super) fn spawn(
        self: &Arc<Self>,
        id: String,
        preloaded: Option<Preloaded>,
    ) -> mpsc::Sender<Command> {
        let mut actors = self.actors.lock().expect("actor map poisoned");
        if let Some(tx) = actors.get(&id)
            && !tx.is_closed()
        {
            return tx.clone();
        }
        let (tx, rx) = mpsc::channel(256);
        actors.insert(id.clone(), tx.clone());
        drop(actors);
        let games = self.clone();
        let me = tx.clone();
        tokio::spawn(async move {
            run_actor(games.clone(), id.clone(), preloaded, &me, rx).await;
            let mut actors = games.actors.lock().expect("actor map poisoned");
            if actors.get(&id).is_some_and(|tx| tx.same_channel(&me)) {
                actors.remove(&id);
            }
        });
        tx
    }

    /// Sends a command to game `id`'s actor and waits for the answer; in a cluster, to the
    /// node that runs the game if it is another.
    pub(crate) async fn ask<T>(
        self: &Arc<Self>,
        id: &str,
        make: impl Fn(Reply<T>) -> Command,
    ) -> Result<T, ApiError> {
        self.ask_routed(id, make, true)
            .await
            .unwrap_or_else(|| Err(ApiError::cluster_unavailable()))
    }

    /// [`Games::ask`]; with `forward` false (a command another node forwarded here) the game
    /// is run here or not at all: `None` when another node holds its lease (the lease table
    /// decides, never this node's cache of owners).
    pub(super) async fn ask_routed<T>(
        self: &Arc<Self>,
        id: &str,
        make: impl Fn(Reply<T>) -> Command,
        forward: bool,
    ) -> Option<Result<T, ApiError>> {
        if !seat::is_game_id(id) {
            return Some(Err(ApiError::game_not_found(id)));
        }
        if *self.shutdown.borrow() {
            return Some(Err(ApiError::unavailable()));
        }
        // An idle actor that retires drops what reached it too late without an answer, having
        // first unlisted itself (see `Games::retire`), so the second try meets a fresh actor.
        // In a cluster an actor that finds the lease held elsewhere does the same, having noted
        // the owner, so the next try forwards; an owner that says no (or is gone) is forgotten
        // and the next try takes the lease or learns the new owner.
        for _ in 0..5 {
            if let Some(cluster) = &self.cluster
                && forward
                && !self.runs_here(id)
                && let Some(owner) = cluster.owner_elsewhere(id)
            {
                let (reply, answer) = oneshot::channel();
                match self.forward(cluster, &owner, id, make(reply)).await {
                    remote::Forwarded::Answered => match answer.await {
                        Ok(result) => return Some(result),
                        Err(_) => continue,
                    },
                    remote::Forwarded::NotOwner => cluster.forget(id),
                    remote::Forwarded::Gone => cluster.owner_gone(id, &owner),
                    remote::Forwarded::Unavailable => {
                        return Some(Err(ApiError::cluster_unavailable()));
                    }
                }
                continue;
            }
            let tx = self.spawn(id.to_owned(), None);
            let (reply, answer) = oneshot::channel();
            if tx.send(make(reply)).await.is_err() {
                continue; // The actor just stopped; start a fresh one.
            }
            if let Ok(result) = answer.await {
                return Some(result);
            }
            // Unanswered: the actor retired, or (cluster) found the lease another node's.
            if !forward
                && let Some(cluster) = &self.cluster
                && cluster.owner_elsewhere(id).is_some()
            {
                return None;
            }
        }
        Some(Err(ApiError::unavailable()))
    }

    /// Lets an idle actor stop unless a command is waiting for it. It is unlisted and its queue
    /// closed under the registry's lock, so no command can be lost to it afterwards: a sender
    /// either finds the queue closed or (asking again) starts a fresh actor. Commands that slipped
    /// in just before the close are dropped unanswered by the caller, which makes `ask` retry.
    pub(super) fn retire(
        &self,
        id: &str,
        me: &mpsc::Sender<Command>,
        rx: &mut mpsc::Receiver<Command>,
    ) -> bool {
        let mut actors = self.actors.lock().expect("actor map poisoned");
        if !rx.is_empty() {
            return false;
        }
        if actors.get(id).is_some_and(|tx| tx.same_channel(me)) {
            actors.remove(id);
        }
        rx.close();
        true
    }

    /// Starts game `id`'s actor if it is not running (a new game against the computer, which
    /// may have to move first).
    pub(crate) fn wake(self: &Arc<Self>, id: &str) {
        self.spawn(id.to_owned(), None);
    }

    /// Sends a command without waiting (unsubscribe, clock sync); in a cluster, a socket's
    /// subscription relayed from another node is that node's to hear it.
    pub(crate) fn tell(&self, id: &str, command: Command) {
        if let Some(cluster) = &self.cluster
            && let Command::Unsubscribe { sub } | Command::ClockSync { sub } = command
            && let Some(owner) = cluster.relay_owner(id, sub)
        {
            use jiang_protocol::NodeRequest;
            let game = id.to_owned();
            let request = if matches!(command, Command::Unsubscribe { .. }) {
                cluster.relay_closed(id, sub);
                NodeRequest::Unsubscribe { game, sub }
            } else {
                NodeRequest::ClockSync { game, sub }
            };
            let cluster = cluster.clone();
            tokio::spawn(async move { cluster.tell(&owner, &request).await });
            return;
        }
        let tx = self
            .actors
            .lock()
            .expect("actor map poisoned")
            .get(id)
            .cloned();
        if let Some(tx) = tx {
            let _ = tx.try_send(command);
        }
    }

    pub(crate) fn new_subscriber_id(&self) -> u64 {
        self.next_sub.fetch_add(1, Ordering::Relaxed)
    }
}

/// What the registry needs of the node it runs on.
pub(crate) struct NodeParts {
    /// The node's previous runs (see [`Games::runs`]).
    pub(crate) runs: Vec<clock::Run>,
    /// Cluster mode: the node's part in the cluster.
    pub(crate) cluster: Option<Arc<crate::cluster::Cluster>>,
}

/// A game handed to its actor at start: its stored row, and the instant its clocks resume (the
/// start of the node's run).
pub(crate) struct Preloaded {
    pub(super) stored: StoredGame,
    pub(super) at: Instant,
}
