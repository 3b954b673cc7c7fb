//! A node's liveness record, the abandonment sweep and the correspondence deadline sweep: the
//! background upkeep that restart fairness, the abandonment rule and correspondence clocks rely
//! on.
//!
//! The heartbeat rewrites the current run's row in `node_runs` every [`INTERVAL`] through the
//! store, and once more, marked as a stop, at a graceful shutdown after every game actor has
//! stopped. At the next start the runs say when the clocks ran: a graceful stop is exact, and
//! a crash (kill -9, power cut) is known to within one interval plus one commit, which bounds
//! the think time a crash can refund (clocks-and-games.md: only the downtime is refunded).

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{oneshot, watch};
use tokio::task::JoinHandle;

use crate::game::Games;
use crate::store::now_ms;
use crate::store::{Store, Write};

/// How often a node records that it is alive: a crash refunds at most about this much think
/// time (plus the time of one commit).
pub const INTERVAL: Duration = Duration::from_secs(1);

/// How often untimed games are checked for abandonment (also once at start).
const SWEEP_INTERVAL: Duration = Duration::from_secs(3600);

/// Starts the heartbeat of `node`'s run that started at `started_at`. Sending on (or dropping)
/// the returned sender makes it write a last beat marked as a stop and end, releasing its
/// [`Store`].
pub(crate) fn spawn(
    store: Store,
    node: String,
    started_at: i64,
    interval: Duration,
) -> (oneshot::Sender<()>, JoinHandle<()>) {
    let (stop_tx, mut stop_rx) = oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        let mut ticks = tokio::time::interval(interval);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ticks.tick().await; // The first tick is immediate; the run's start is its first beat.
        loop {
            tokio::select! {
                _ = ticks.tick() => beat(&store, &node, started_at, false).await,
                _ = &mut stop_rx => break,
            }
        }
        beat(&store, &node, started_at, true).await;
    });
    (stop_tx, task)
}

async fn beat(store: &Store, node: &str, started_at: i64, stopped: bool) {
    let write = Write::Heartbeat {
        node: node.to_owned(),
        started_at,
        alive_at: now_ms(),
        stopped,
    };
    if let Err(e) = store.write(vec![write]).await {
        tracing::warn!(error = %e, stopped, "heartbeat not stored");
    }
}

/// Runs [`Games::sweep_abandoned`] now and every [`SWEEP_INTERVAL`] until shutdown.
pub(crate) fn spawn_abandonment_sweep(games: Arc<Games>, mut shutdown: watch::Receiver<bool>) {
    tokio::spawn(async move {
        loop {
            if *shutdown.borrow() {
                break;
            }
            if let Err(e) = games.sweep_abandoned().await {
                tracing::warn!(error = %e, "abandonment sweep failed");
            }
            tokio::select! {
                _ = tokio::time::sleep(SWEEP_INTERVAL) => {}
                _ = shutdown.changed() => break,
            }
        }
    });
}

/// The shortest pause of the deadline sweep: a deadline that could not be settled (the store
/// failing) is not retried in a tight loop.
const DEADLINE_SWEEP_MIN: Duration = Duration::from_secs(1);

/// Runs [`Games::sweep_deadlines`] now and again until shutdown: at once after a full page,
/// else at the earliest stored deadline, but at least every `deadline_sweep_max` (60 s) and at
/// most every second.
pub(crate) fn spawn_deadline_sweep(games: Arc<Games>, mut shutdown: watch::Receiver<bool>) {
    tokio::spawn(async move {
        let max = games.settings().deadline_sweep_max;
        loop {
            if *shutdown.borrow() {
                break;
            }
            let full = match games.sweep_deadlines().await {
                Ok(full) => full,
                Err(e) => {
                    tracing::warn!(error = %e, "correspondence deadline sweep failed");
                    false
                }
            };
            let wait = if full {
                Duration::ZERO
            } else {
                match games.store().next_deadline().await {
                    Ok(Some(at)) => {
                        let ms = u64::try_from(at.saturating_sub(now_ms())).unwrap_or(0);
                        Duration::from_millis(ms).clamp(DEADLINE_SWEEP_MIN.min(max), max)
                    }
                    Ok(None) | Err(_) => max,
                }
            };
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = shutdown.changed() => break,
            }
        }
    });
}
