//! The group-commit writer: every write unit waits in one queue, a batch is committed in one
//! transaction, and only then is each unit acknowledged (see the `store` module's doc).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{mpsc, oneshot, watch};

use super::{Backend, RunRow, StoreError, StoredGame, Write};

/// A write unit waiting for its commit.
struct Pending {
    unit: Vec<Write>,
    done: oneshot::Sender<Result<(), StoreError>>,
}

/// How long a known store state (from the last commit or probe) stands before
/// [`Store::health`] probes again.
const HEALTH_MAX_AGE: Duration = Duration::from_secs(1);

/// What the writer last learnt about the database.
#[derive(Default)]
struct HealthState {
    /// When it learnt it (`None`: nothing written yet).
    at: Option<std::time::Instant>,
    /// Why the last commit failed, if it did.
    problem: Option<String>,
}

/// The store's health, shared by the writer (which records every commit's outcome) and
/// [`Store::health`].
#[derive(Default)]
struct Health {
    state: std::sync::Mutex<HealthState>,
    /// Held while a probe runs, so concurrent health checks share one probe.
    probing: tokio::sync::Mutex<()>,
}

impl Health {
    fn record(&self, problem: Option<String>) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        state.at = Some(std::time::Instant::now());
        state.problem = problem;
    }

    /// The last state if it is recent enough to stand.
    fn fresh(&self) -> Option<Result<(), String>> {
        let state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let at = state.at?;
        (at.elapsed() < HEALTH_MAX_AGE).then(|| match &state.problem {
            Some(problem) => Err(problem.clone()),
            None => Ok(()),
        })
    }
}

/// Makes the writer give up: the commit in flight is abandoned (its units answered
/// [`StoreError::Closed`]; whether it landed is unknown, but it is never acknowledged) and every
/// unit queued then or later is refused. The server's shutdown uses it at its deadline.
#[derive(Clone)]
pub struct AbortWrites(Arc<watch::Sender<bool>>);

impl AbortWrites {
    /// Gives up on every unit not yet committed.
    pub fn abort(&self) {
        self.0.send_replace(true);
    }
}

/// Resolves once `abort` is set; never if every [`AbortWrites`] is gone without setting it.
async fn aborted(abort: &mut watch::Receiver<bool>) {
    if abort.wait_for(|a| *a).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// The store the server uses: reads go straight to the back end; writes are group-committed by
/// one writer task.
#[derive(Clone)]
pub struct Store {
    backend: Arc<dyn Backend>,
    queue: mpsc::UnboundedSender<Pending>,
    health: Arc<Health>,
    abort: AbortWrites,
}

/// The most write units committed in one transaction.
const MAX_BATCH: usize = 512;

/// Commits `batch` and answers each unit: all together if that works, otherwise each alone
/// (one unit's constraint failure must not spoil the others), recording every outcome in
/// `health`.
async fn commit_batch(backend: &dyn Backend, health: &Health, batch: &mut Vec<Pending>) {
    let units: Vec<Vec<Write>> = batch
        .iter_mut()
        .map(|p| std::mem::take(&mut p.unit))
        .collect();
    let outcome = backend.commit(&units).await;
    note(health, &outcome);
    match outcome {
        Ok(()) => {
            for p in batch.drain(..) {
                let _ = p.done.send(Ok(()));
            }
        }
        Err(e) if units.len() > 1 && e.is_rejection() => {
            // One unit spoiled the batch: commit each alone so the others land.
            for (p, unit) in batch.drain(..).zip(units) {
                let outcome = backend.commit(std::slice::from_ref(&unit)).await;
                note(health, &outcome);
                let _ = p.done.send(outcome.map_err(StoreError::into_failure));
            }
        }
        Err(e) => {
            tracing::error!(error = %e, units = units.len(), "store write failed");
            // Every unit gets the same cause, shared.
            let (cause, rejected) = match e.into_failure() {
                StoreError::Rejected(cause) => (cause, true),
                StoreError::Unavailable(cause) => (cause, false),
                other => (Arc::new(other), false),
            };
            for p in batch.drain(..) {
                let cause = cause.clone();
                let _ = p.done.send(Err(if rejected {
                    StoreError::Rejected(cause)
                } else {
                    StoreError::Unavailable(cause)
                }));
            }
        }
    }
}

/// Records a commit's outcome: a success or a storage failure says something about the
/// database; a rejected unit does not.
fn note(health: &Health, outcome: &Result<(), StoreError>) {
    match outcome {
        Ok(()) => health.record(None),
        Err(e) if e.is_rejection() => {}
        Err(e) => health.record(Some(e.to_string())),
    }
}

impl Store {
    /// Starts the writer task over `backend`. The task ends when every `Store` clone is dropped
    /// and its queue is drained, or promptly after [`AbortWrites::abort`].
    pub fn new(backend: Arc<dyn Backend>) -> (Store, tokio::task::JoinHandle<()>) {
        let (queue, mut rx) = mpsc::unbounded_channel::<Pending>();
        let (abort_tx, mut abort) = watch::channel(false);
        let health = Arc::new(Health::default());
        let writer_backend = backend.clone();
        let writer_health = health.clone();
        let writer = tokio::spawn(async move {
            let mut batch: Vec<Pending> = Vec::new();
            loop {
                let received = tokio::select! {
                    biased;
                    _ = aborted(&mut abort) => break,
                    n = rx.recv_many(&mut batch, MAX_BATCH) => n,
                };
                if received == 0 {
                    return;
                }
                tokio::select! {
                    biased;
                    _ = aborted(&mut abort) => break,
                    _ = commit_batch(&*writer_backend, &writer_health, &mut batch) => {}
                }
            }
            // Aborted: the units in flight or queued are answered "closed", never acknowledged.
            tracing::error!(
                "store writes abandoned at the shutdown deadline; queued units refused"
            );
            for p in batch.drain(..) {
                let _ = p.done.send(Err(StoreError::Closed));
            }
            while let Some(p) = rx.recv().await {
                let _ = p.done.send(Err(StoreError::Closed));
            }
        });
        let store = Store {
            backend,
            queue,
            health,
            abort: AbortWrites(Arc::new(abort_tx)),
        };
        (store, writer)
    }

    /// Durably applies `unit` (all of it or none), returning once it is committed. An error
    /// means nothing of the unit was stored.
    pub async fn write(&self, unit: Vec<Write>) -> Result<(), StoreError> {
        let (done, wait) = oneshot::channel();
        self.queue
            .send(Pending { unit, done })
            .map_err(|_| StoreError::Closed)?;
        wait.await.unwrap_or(Err(StoreError::Closed))
    }

    /// Whether a write can be committed now: the outcome of the last commit if it is under a
    /// second old, otherwise of a tiny probe write through the same queue. `Err` says why not.
    pub async fn health(&self) -> Result<(), String> {
        if let Some(known) = self.health.fresh() {
            return known;
        }
        let _probing = self.health.probing.lock().await;
        if let Some(known) = self.health.fresh() {
            return known; // Another check probed meanwhile.
        }
        self.write(vec![Write::Probe(super::now_ms())])
            .await
            .map_err(|e| e.to_string())
    }

    /// A handle that makes the writer give up on uncommitted units (for a shutdown deadline);
    /// holding it does not keep the writer alive.
    pub fn abort_handle(&self) -> AbortWrites {
        self.abort.clone()
    }

    /// One game and its moves.
    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        self.backend.load(id).await
    }

    /// Every game in progress.
    pub async fn load_live(&self) -> Result<Vec<StoredGame>, StoreError> {
        self.backend.load_live().await
    }

    /// The games with a timer to run after a restart (see [`Backend::load_resumable`]).
    pub async fn load_resumable(&self) -> Result<Vec<StoredGame>, StoreError> {
        self.backend.load_resumable().await
    }

    /// Server node `node`'s recorded runs, oldest first (see [`RunRow`]).
    pub async fn runs(&self, node: &str) -> Result<Vec<RunRow>, StoreError> {
        self.backend.runs(node).await
    }

    /// Ids of untimed games in progress unchanged since before `cutoff` (see
    /// [`Backend::abandoned`]).
    pub async fn abandoned(&self, cutoff: i64, limit: i64) -> Result<Vec<String>, StoreError> {
        self.backend.abandoned(cutoff, limit).await
    }

    /// Ids of correspondence games in progress whose deadline has passed by `now` (see
    /// [`Backend::due`]).
    pub async fn due(&self, now: i64, limit: i64) -> Result<Vec<String>, StoreError> {
        self.backend.due(now, limit).await
    }

    /// The earliest deadline of a correspondence game in progress (see
    /// [`Backend::next_deadline`]).
    pub async fn next_deadline(&self) -> Result<Option<i64>, StoreError> {
        self.backend.next_deadline().await
    }

    /// The back end (to close it after the writer has drained).
    pub fn backend(&self) -> Arc<dyn Backend> {
        self.backend.clone()
    }
}
