//! The engine pool: a bounded set of OS threads that run [`jiang_engine`] searches for the
//! server (computer opponents, analysis, reviews), fed by a fair queue. Searches never run on
//! the async runtime: a caller [`submit`](EnginePool::submit)s a [`Job`] and awaits its
//! [`JobHandle`].
//!
//! # A job
//! A [`Job`] is an engine [`Input`] (what its side may know: for Jieqi always a view, see
//! [`Input::from_view`]), [`Go`] limits (clock, depth, nodes, `infinite`), a MultiPV count, a
//! level and a seed, plus the [`ClientKey`] of whoever asked, and optionally an [`InfoSink`]
//! called on the pool thread with every [`Info`] the search reports (each completed iteration,
//! one per MultiPV line): hand it a channel sender to stream lines live.
//!
//! # Fairness
//! Jobs wait in one queue per client key; the workers serve the keys round-robin (a key with
//! jobs waiting goes to the back of the line after each job it gets), so a client that
//! submits many jobs delays the others by at most one job each, never starves them. Within a
//! key, jobs run in submission order.
//!
//! # Time
//! A clock in [`Go::clock`] is read when the job *starts*: the time it waited in the queue is
//! charged to it first (main time, then a fixed per-move time), so a computer that waited for
//! a thread still moves within its clock.
//!
//! # Cancellation
//! [`JobHandle::cancel`] (or dropping the handle, or a [`CancelHandle`] kept elsewhere) stops
//! the job: a queued job is dropped without running and answers [`PoolError::Cancelled`]; a
//! running one stops its search as soon as possible and answers the best move found so far
//! (so "stop" in an analysis still yields a result). [`EnginePool::cancel_client`] cancels
//! every job of one key.
//!
//! The workers run at the lowest scheduling priority (Linux: the `SCHED_IDLE` policy, or
//! nice 19 where that is refused), so that on a busy machine a search gives way at once to the
//! threads that serve HTTP and the games: a computer thinks in the time people leave over.
//!
//! Each worker keeps one [`Engine`] (its transposition table allocated once) and clears it
//! before every job (the table and the move ordering's history: [`Engine::new_game`]), so
//! nothing one job learnt (another game, another side's view, a live analysis) reaches the
//! next, and a node-limited job (a review's) gives the same answer on any worker.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use jiang_engine::{Engine, Go, Info, Input, Thought};
use tokio::sync::oneshot;

/// Who submitted a job, for fairness (a game id for a computer opponent, a client for
/// analysis). Jobs of one key run in order; keys take turns.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ClientKey(pub String);

impl ClientKey {
    /// The key of a computer opponent's game.
    pub fn game(id: &str) -> ClientKey {
        ClientKey(format!("game:{id}"))
    }
}

/// Called on the pool thread with each progress report of the search.
pub type InfoSink = Box<dyn FnMut(&Info) + Send>;

/// One search to run.
pub struct Job {
    /// Who asked (fairness).
    pub client: ClientKey,
    /// The position as the searching side may know it.
    pub input: Input,
    /// Limits: clock, depth, nodes, `infinite`. Its `stop` flag is replaced by the job's
    /// cancel flag.
    pub go: Go,
    /// How many lines to rank and report (1 = just the best move).
    pub multi_pv: usize,
    /// The playing level, 1–8 (8 = full strength; analysis uses 8).
    pub level: u8,
    /// Seeds the level's random choices (a game's id and ply make a computer's play
    /// reproducible).
    pub seed: u64,
    /// Progress reports, if wanted.
    pub on_info: Option<InfoSink>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job")
            .field("client", &self.client)
            .field("variant", &self.input.variant())
            .field("go", &self.go)
            .field("multi_pv", &self.multi_pv)
            .field("level", &self.level)
            .finish_non_exhaustive()
    }
}

/// Why a job gave no result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// Cancelled before it started.
    #[error("the engine job was cancelled")]
    Cancelled,
    /// The pool is shutting down (or the search thread failed).
    #[error("the engine pool is not running")]
    Closed,
}

/// Stops one job; cheap to clone and keep apart from the [`JobHandle`].
#[derive(Clone, Debug, Default)]
pub struct CancelHandle(Arc<AtomicBool>);

impl CancelHandle {
    /// Cancels the job (idempotent).
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether it was cancelled.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A submitted job: await [`result`](JobHandle::result). Dropping it cancels the job.
#[derive(Debug)]
pub struct JobHandle {
    cancel: CancelHandle,
    result: Option<oneshot::Receiver<Result<Thought, PoolError>>>,
}

impl JobHandle {
    /// A handle that cancels this job.
    pub fn cancel_handle(&self) -> CancelHandle {
        self.cancel.clone()
    }

    /// Cancels the job (see the module documentation for what a cancelled job answers).
    pub fn cancel(&self) {
        self.cancel.cancel();
    }

    /// The engine's answer.
    pub async fn result(mut self) -> Result<Thought, PoolError> {
        self.wait().await
    }

    /// The engine's answer, without giving up the handle: cancel-safe (in `select!`, a
    /// `wait` dropped before the answer came can be called again). After the answer, the
    /// handle answers [`PoolError::Closed`].
    pub async fn wait(&mut self) -> Result<Thought, PoolError> {
        let Some(rx) = self.result.as_mut() else {
            return Err(PoolError::Closed);
        };
        let answer = rx.await.unwrap_or(Err(PoolError::Closed));
        self.result = None;
        answer
    }
}

impl Drop for JobHandle {
    fn drop(&mut self) {
        // Still waiting for the result: nobody will read it, so stop the work.
        if self.result.is_some() {
            self.cancel.cancel();
        }
    }
}

/// A job in the queue with what the worker needs to answer it.
struct Queued {
    job: Job,
    cancel: CancelHandle,
    submitted: Instant,
    reply: oneshot::Sender<Result<Thought, PoolError>>,
}

#[derive(Default)]
struct Queues {
    /// Keys with jobs waiting, in turn order (each key at most once).
    turn: VecDeque<ClientKey>,
    /// The jobs waiting per key.
    jobs: HashMap<ClientKey, VecDeque<Queued>>,
    /// Set when the pool stops.
    closed: bool,
}

impl Queues {
    /// The next job, round-robin over the keys.
    fn pop(&mut self) -> Option<Queued> {
        let key = self.turn.pop_front()?;
        let queue = self.jobs.get_mut(&key)?;
        let queued = queue.pop_front();
        if queue.is_empty() {
            self.jobs.remove(&key);
        } else {
            self.turn.push_back(key);
        }
        queued
    }

    fn push(&mut self, queued: Queued) {
        let key = queued.job.client.clone();
        let queue = self.jobs.entry(key.clone()).or_default();
        if queue.is_empty() {
            self.turn.push_back(key);
        }
        queue.push_back(queued);
    }
}

struct Shared {
    queues: Mutex<Queues>,
    ready: Condvar,
    /// Jobs running now.
    busy: AtomicUsize,
    /// The cancel flags of the running jobs per key (for `cancel_client`).
    running: Mutex<HashMap<ClientKey, Vec<CancelHandle>>>,
}

/// A bounded pool of engine threads with a fair queue. Cloning shares the pool; the threads
/// stop when [`shutdown`](EnginePool::shutdown) is called or the last clone is dropped.
#[derive(Clone)]
pub struct EnginePool {
    shared: Arc<Shared>,
    threads: usize,
    workers: Arc<Mutex<Vec<JoinHandle<()>>>>,
    _closer: Arc<Closer>,
}

impl std::fmt::Debug for EnginePool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EnginePool")
            .field("threads", &self.threads)
            .finish_non_exhaustive()
    }
}

/// Closes the queue when the last pool clone goes.
struct Closer(Arc<Shared>);

impl Drop for Closer {
    fn drop(&mut self) {
        close(&self.0);
    }
}

fn close(shared: &Shared) {
    let waiting = {
        let mut queues = shared.queues.lock().unwrap_or_else(|e| e.into_inner());
        queues.closed = true;
        queues.turn.clear();
        std::mem::take(&mut queues.jobs)
    };
    for queued in waiting.into_values().flatten() {
        let _ = queued.reply.send(Err(PoolError::Closed));
    }
    for handles in shared
        .running
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .values()
    {
        handles.iter().for_each(CancelHandle::cancel);
    }
    shared.ready.notify_all();
}

/// The default thread count: half the cores, at least one (1 on a 2-core machine), so that
/// searches never take every core from the HTTP and game tasks.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| (n.get() / 2).max(1))
}

/// The transposition table of each worker, in MB.
const HASH_MB: usize = 16;

impl EnginePool {
    /// Starts `threads` worker threads (at least one).
    pub fn new(threads: usize) -> EnginePool {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            queues: Mutex::new(Queues::default()),
            ready: Condvar::new(),
            busy: AtomicUsize::new(0),
            running: Mutex::new(HashMap::new()),
        });
        let workers = (0..threads)
            .map(|i| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("jiang-engine-{i}"))
                    .spawn(move || worker(&shared))
                    .expect("cannot start an engine thread")
            })
            .collect();
        EnginePool {
            _closer: Arc::new(Closer(Arc::clone(&shared))),
            shared,
            threads,
            workers: Arc::new(Mutex::new(workers)),
        }
    }

    /// The number of worker threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Jobs waiting (not yet started).
    pub fn queued(&self) -> usize {
        let queues = self.shared.queues.lock().unwrap_or_else(|e| e.into_inner());
        queues.jobs.values().map(VecDeque::len).sum()
    }

    /// Jobs running now.
    pub fn running(&self) -> usize {
        self.shared.busy.load(Ordering::Relaxed)
    }

    /// Queues `job`; never blocks. After [`shutdown`](EnginePool::shutdown) the handle
    /// answers [`PoolError::Closed`].
    pub fn submit(&self, job: Job) -> JobHandle {
        let cancel = CancelHandle::default();
        let (reply, result) = oneshot::channel();
        let queued = Queued {
            job,
            cancel: cancel.clone(),
            submitted: Instant::now(),
            reply,
        };
        {
            let mut queues = self.shared.queues.lock().unwrap_or_else(|e| e.into_inner());
            if queues.closed {
                let _ = queued.reply.send(Err(PoolError::Closed));
            } else {
                queues.push(queued);
            }
        }
        self.shared.ready.notify_one();
        JobHandle {
            cancel,
            result: Some(result),
        }
    }

    /// Cancels every job of `client`, queued or running.
    pub fn cancel_client(&self, client: &ClientKey) {
        let waiting = {
            let mut queues = self.shared.queues.lock().unwrap_or_else(|e| e.into_inner());
            queues.turn.retain(|k| k != client);
            queues.jobs.remove(client)
        };
        for queued in waiting.into_iter().flatten() {
            queued.cancel.cancel();
            let _ = queued.reply.send(Err(PoolError::Cancelled));
        }
        if let Some(handles) = self
            .shared
            .running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(client)
        {
            handles.iter().for_each(CancelHandle::cancel);
        }
    }

    /// Stops the pool: queued jobs answer [`PoolError::Closed`], running searches are
    /// stopped (their callers get the best move so far), and the threads are joined (on a
    /// blocking thread, so it may be awaited from the runtime).
    pub async fn shutdown(&self) {
        close(&self.shared);
        let workers = std::mem::take(&mut *self.workers.lock().unwrap_or_else(|e| e.into_inner()));
        let _ = tokio::task::spawn_blocking(move || {
            for w in workers {
                let _ = w.join();
            }
        })
        .await;
    }
}

/// Lowers the calling thread's scheduling priority to the lowest: `SCHED_IDLE` (it runs only
/// on a core nothing else wants, and a waking game thread preempts it at once), else nice 19.
/// Best effort: a failure leaves it as it was.
pub(crate) fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `gettid` and `setpriority` take no pointers, and `sched_setscheduler` reads
        // the parameter we pass by reference; on Linux thread id 0 / a thread id names the
        // calling thread only.
        let lowered = unsafe {
            let param = libc::sched_param { sched_priority: 0 };
            libc::sched_setscheduler(0, libc::SCHED_IDLE, &param) == 0 || {
                let tid = libc::gettid();
                libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, 19) == 0
            }
        };
        if !lowered {
            tracing::debug!("cannot lower the engine thread's priority");
        }
    }
}

/// A worker: takes jobs until the pool closes.
fn worker(shared: &Shared) {
    lower_priority();
    let mut engine = Engine::new();
    engine.set_hash(HASH_MB);
    loop {
        let queued = {
            let mut queues = shared.queues.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if queues.closed {
                    return;
                }
                if let Some(q) = queues.pop() {
                    break q;
                }
                queues = shared.ready.wait(queues).unwrap_or_else(|e| e.into_inner());
            }
        };
        if queued.cancel.is_cancelled() || queued.reply.is_closed() {
            let _ = queued.reply.send(Err(PoolError::Cancelled));
            continue;
        }
        shared.busy.fetch_add(1, Ordering::Relaxed);
        let client = queued.job.client.clone();
        register(shared, &client, &queued.cancel, true);
        let (result, returned) = run(engine, queued.job, &queued.cancel, queued.submitted);
        register(shared, &client, &queued.cancel, false);
        shared.busy.fetch_sub(1, Ordering::Relaxed);
        engine = returned.unwrap_or_else(|| {
            let mut fresh = Engine::new();
            fresh.set_hash(HASH_MB);
            fresh
        });
        let _ = queued.reply.send(result);
    }
}

fn register(shared: &Shared, client: &ClientKey, cancel: &CancelHandle, add: bool) {
    let mut running = shared.running.lock().unwrap_or_else(|e| e.into_inner());
    if add {
        running
            .entry(client.clone())
            .or_default()
            .push(cancel.clone());
    } else if let Some(list) = running.get_mut(client) {
        list.retain(|c| !Arc::ptr_eq(&c.0, &cancel.0));
        if list.is_empty() {
            running.remove(client);
        }
    }
}

/// Runs one job on `engine`; a panicking search loses the engine (a fresh one replaces it)
/// and answers [`PoolError::Closed`].
fn run(
    mut engine: Engine,
    job: Job,
    cancel: &CancelHandle,
    submitted: Instant,
) -> (Result<Thought, PoolError>, Option<Engine>) {
    let Job {
        input,
        mut go,
        multi_pv,
        level,
        seed,
        mut on_info,
        ..
    } = job;
    go.clock = charge(go.clock, submitted.elapsed());
    go.stop = Some(Arc::clone(&cancel.0));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
        engine.new_game();
        engine.set_level(level);
        engine.set_multi_pv(multi_pv);
        engine.set_seed(seed);
        let thought = engine.think(&input, &go, &mut |info| {
            if let Some(sink) = on_info.as_mut() {
                sink(info);
            }
        });
        (thought, engine)
    }));
    match outcome {
        Ok((thought, engine)) => (Ok(thought), Some(engine)),
        Err(_) => {
            tracing::error!("an engine search panicked");
            (Err(PoolError::Closed), None)
        }
    }
}

/// The clock as it stands after `waited` in the queue: main time first, then a fixed
/// per-move time (byo-yomi periods are untouched: the engine's budget keeps its own margin).
pub fn charge(mut clock: jiang_engine::Clock, waited: Duration) -> jiang_engine::Clock {
    if let Some(fixed) = clock.movetime {
        clock.movetime = Some(fixed.saturating_sub(waited).max(Duration::from_millis(1)));
    }
    if let Some(remaining) = clock.remaining {
        if remaining >= waited || clock.byoyomi.is_zero() {
            clock.remaining = Some(remaining.saturating_sub(waited));
        } else {
            let over = waited - remaining;
            clock.remaining = Some(Duration::ZERO);
            clock.byoyomi = clock.byoyomi.saturating_sub(over);
        }
    }
    clock
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiang_rules::Variant;
    use std::sync::mpsc;

    fn job(client: &str, depth: u32) -> Job {
        Job {
            client: ClientKey(client.into()),
            input: Input::from_text(Variant::Xiangqi, "startpos", &[]).unwrap(),
            go: Go {
                depth: Some(depth),
                ..Go::default()
            },
            multi_pv: 1,
            level: 8,
            seed: 1,
            on_info: None,
        }
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn a_job_answers_a_move_and_reports_progress() {
        let pool = EnginePool::new(1);
        let (tx, rx) = mpsc::channel();
        let mut j = job("a", 3);
        j.multi_pv = 2;
        j.on_info = Some(Box::new(move |info: &Info| {
            let _ = tx.send((info.depth, info.multipv));
        }));
        let thought = runtime().block_on(pool.submit(j).result()).unwrap();
        assert!(matches!(thought.decision, jiang_engine::Decision::Move(_)));
        let infos: Vec<_> = rx.try_iter().collect();
        assert!(
            infos.contains(&(3, 1)) && infos.contains(&(3, 2)),
            "{infos:?}"
        );
    }

    #[test]
    fn keys_take_turns() {
        let mut queues = Queues::default();
        let mut push = |client: &str| {
            let (reply, rx) = oneshot::channel();
            std::mem::forget(rx);
            queues.push(Queued {
                job: job(client, 1),
                cancel: CancelHandle::default(),
                submitted: Instant::now(),
                reply,
            });
        };
        for _ in 0..3 {
            push("greedy");
        }
        push("b");
        push("c");
        let order: Vec<String> = std::iter::from_fn(|| queues.pop())
            .map(|q| q.job.client.0)
            .collect();
        assert_eq!(order, ["greedy", "b", "c", "greedy", "greedy"]);
    }

    #[test]
    fn a_cancelled_job_does_not_run_and_an_infinite_one_stops() {
        let pool = EnginePool::new(1);
        let rt = runtime();
        let mut infinite = job("a", 1);
        infinite.go = Go {
            infinite: true,
            ..Go::default()
        };
        assert!(infinite.go.depth.is_none());
        let running = pool.submit(infinite);
        let queued = pool.submit(job("b", 1));
        queued.cancel();
        // Let the infinite search start, then stop it: it answers its best move so far.
        while pool.running() == 0 {
            std::thread::yield_now();
        }
        running.cancel();
        let thought = rt.block_on(running.result()).unwrap();
        assert!(matches!(thought.decision, jiang_engine::Decision::Move(_)));
        assert_eq!(
            rt.block_on(queued.result()).err(),
            Some(PoolError::Cancelled)
        );
    }

    #[test]
    fn cancel_client_and_shutdown() {
        let pool = EnginePool::new(1);
        let rt = runtime();
        let mut infinite = job("x", 1);
        infinite.go.infinite = true;
        infinite.go.depth = None;
        let a = pool.submit(infinite);
        let b = pool.submit(job("x", 1));
        while pool.running() == 0 {
            std::thread::yield_now();
        }
        pool.cancel_client(&ClientKey("x".into()));
        assert!(rt.block_on(a.result()).is_ok());
        assert_eq!(rt.block_on(b.result()).err(), Some(PoolError::Cancelled));
        rt.block_on(pool.shutdown());
        assert_eq!(
            rt.block_on(pool.submit(job("y", 1)).result()).err(),
            Some(PoolError::Closed)
        );
    }

    #[test]
    fn queue_time_is_charged_to_the_clock() {
        let ms = Duration::from_millis;
        let fischer = jiang_engine::Clock {
            remaining: Some(ms(1000)),
            ..Default::default()
        };
        assert_eq!(charge(fischer, ms(300)).remaining, Some(ms(700)));
        let byoyomi = jiang_engine::Clock {
            remaining: Some(ms(100)),
            byoyomi: ms(1000),
            ..Default::default()
        };
        let charged = charge(byoyomi, ms(300));
        assert_eq!((charged.remaining, charged.byoyomi), (Some(ms(0)), ms(800)));
        let fixed = jiang_engine::Clock {
            movetime: Some(ms(500)),
            ..Default::default()
        };
        assert_eq!(charge(fixed, ms(200)).movetime, Some(ms(300)));
    }
}
