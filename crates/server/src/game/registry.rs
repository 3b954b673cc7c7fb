//! The registry of live game actors: starts an actor on demand (loading its game), routes
//! commands to it, resumes timed games after a restart and sweeps abandoned ones.

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
}

impl Games {
    pub(crate) fn new(
        store: Store,
        engines: EnginePool,
        settings: GameSettings,
        shutdown: watch::Receiver<bool>,
        alive: mpsc::Sender<()>,
        runs: Vec<clock::Run>,
        lobby: Arc<crate::lobby::Lobby>,
    ) -> Arc<Games> {
        Arc::new(Games {
            actors: Mutex::new(HashMap::new()),
            store,
            engines,
            settings,
            shutdown,
            alive,
            next_sub: AtomicU64::new(1),
            runs,
            lobby,
        })
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
        let stored = self.store.load_resumable().await?;
        let at = Instant::now();
        let started_at = now_ms();
        let prune_before = stored
            .iter()
            .map(|game| game.row.updated_at)
            .min()
            .unwrap_or(i64::MAX);
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

    /// Sends a command to game `id`'s actor and waits for the answer.
    pub(crate) async fn ask<T>(
        self: &Arc<Self>,
        id: &str,
        make: impl Fn(Reply<T>) -> Command,
    ) -> Result<T, ApiError> {
        if !seat::is_game_id(id) {
            return Err(ApiError::game_not_found(id));
        }
        if *self.shutdown.borrow() {
            return Err(ApiError::unavailable());
        }
        // An idle actor that retires drops what reached it too late without an answer, having
        // first unlisted itself (see `Games::retire`), so the second try meets a fresh actor.
        for _ in 0..3 {
            let tx = self.spawn(id.to_owned(), None);
            let (reply, answer) = oneshot::channel();
            if tx.send(make(reply)).await.is_err() {
                continue; // The actor just stopped; start a fresh one.
            }
            if let Ok(result) = answer.await {
                return result;
            }
        }
        Err(ApiError::unavailable())
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

    /// Sends a command without waiting (unsubscribe, clock sync).
    pub(crate) fn tell(&self, id: &str, command: Command) {
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

/// A game handed to its actor at start: its stored row, and the instant its clocks resume (the
/// start of the node's run).
pub(crate) struct Preloaded {
    pub(super) stored: StoredGame,
    pub(super) at: Instant,
}
