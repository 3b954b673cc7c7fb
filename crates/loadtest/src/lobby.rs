//! `jiang loadtest --lobby-clients N --seeks-per-second R`: the lobby under load.
//!
//! It connects `N` lobby WebSockets (`/api/lobby/ws`), then for `--seconds` opens `R` seeks a
//! second (`POST /api/games` with `"open": true`, a one-hour clock) and takes each one half a
//! second after it was created (`POST /api/games/{id}/join`), so the seeks, the Watch list and
//! the counts all change all the time. Every client reads every message it gets; for each seek
//! it sees appear it records the time from the seek's creation (the create request's answer)
//! to the message that showed it (a message that arrives before the answer counts as 0).
//!
//! # Report (standard output)
//! ```text
//! lobby clients 2000
//! seeks 3000
//! seeks/s 100.0
//! taken 2998
//! seen 5996000
//! seen p50 130.00 ms
//! seen p99 260.00 ms
//! resyncs 0
//! errors 0
//! ```
//! `seeks` counts the seeks created in the window, `taken` those joined; `seen` counts
//! (client, seek) sightings and the percentiles are over all of them; `resyncs` counts
//! snapshots received after the first (a client that fell behind); `errors` failed requests,
//! closed sockets and the like. Exit status: 0 when seeks were seen and errors = 0, else 1.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use jiang_protocol::{CreateGame, Created, EmptyRequest, Joined, TimeControlSpec};
use serde::Deserialize;
use tokio_tungstenite::tungstenite::Message;

use crate::nodes::{self, NodeCounts, Target};
use crate::{GameError, LoadtestError, MAIN_SECONDS, Socket, Tally, ms, percentile};

/// How long after its creation each seek is taken.
const TAKE_AFTER: Duration = Duration::from_millis(500);

/// The lobby load test's results.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LobbyReport {
    /// Lobby clients connected when the measurement started.
    pub clients: usize,
    /// Seeks created in the window.
    pub seeks: u64,
    /// Seeks taken.
    pub taken: u64,
    /// Length of the window.
    pub window: Duration,
    /// Creation → sighting times, sorted.
    pub latencies: Vec<Duration>,
    /// Snapshots received after the first.
    pub resyncs: u64,
    /// Errors of all kinds.
    pub errors: u64,
    /// What each URL was sent (printed when there are several).
    pub nodes: Vec<NodeCounts>,
}

impl fmt::Display for LobbyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = |p: f64| ms(percentile(&self.latencies, p));
        writeln!(f, "lobby clients {}", self.clients)?;
        writeln!(f, "seeks {}", self.seeks)?;
        writeln!(
            f,
            "seeks/s {:.1}",
            self.seeks as f64 / self.window.as_secs_f64().max(1e-9)
        )?;
        writeln!(f, "taken {}", self.taken)?;
        writeln!(f, "seen {}", self.latencies.len())?;
        writeln!(f, "seen p50 {} ms", ms(50.0))?;
        writeln!(f, "seen p99 {} ms", ms(99.0))?;
        writeln!(f, "resyncs {}", self.resyncs)?;
        writeln!(f, "errors {}", self.errors)?;
        nodes::write_lines(f, &self.nodes)
    }
}

/// When each seek was created (its create request answered).
type CreatedAt = Arc<Mutex<HashMap<String, Instant>>>;

/// What a client needs of a lobby message: its type and the ids of the seeks it adds.
#[derive(Deserialize)]
struct Glance {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    seeks: Vec<SeekId>,
}

#[derive(Deserialize)]
struct SeekId {
    id: String,
}

/// What one client measured.
#[derive(Default)]
struct Seen {
    latencies: Vec<Duration>,
    resyncs: u64,
    errors: Tally,
}

/// Runs the lobby load test against `target`.
pub(crate) async fn drive(
    target: Arc<Target>,
    clients: usize,
    per_second: f64,
    window: Duration,
) -> Result<LobbyReport, LoadtestError> {
    target.check_health().await?;
    let created: CreatedAt = Arc::default();
    let mut setup_errors = Tally::default();
    let sockets: Vec<Socket> = crate::set_up_limited(
        &target,
        clients,
        |target| async move { connect(&target).await },
        &mut setup_errors,
    )
    .await
    .into_iter()
    .flatten()
    .collect();
    let connected = sockets.len();
    eprintln!("{connected} lobby clients connected; creating {per_second} seeks/s");
    let start = Instant::now();
    let deadline = start + window;
    // Clients read until a little after the window, so that the last seeks are seen.
    let read_until = deadline + Duration::from_secs(2);
    let readers: Vec<_> = sockets
        .into_iter()
        .map(|socket| tokio::spawn(read(socket, created.clone(), read_until)))
        .collect();
    let mut tally = Tally::default();
    let mut seeks = 0u64;
    let mut takers = Vec::new();
    let every = Duration::from_secs_f64(1.0 / per_second);
    let mut next = start;
    while next < deadline {
        tokio::time::sleep_until(next.into()).await;
        next += every;
        seeks += 1;
        let target = target.clone();
        let created = created.clone();
        takers.push(tokio::spawn(async move {
            seek_and_take(&target, &created).await
        }));
    }
    let mut taken = 0;
    for taker in takers {
        match taker.await.expect("seek task panicked") {
            Ok(()) => taken += 1,
            Err(e) => tally.error(&e),
        }
    }
    let mut latencies = Vec::new();
    let mut resyncs = 0;
    for reader in readers {
        let seen = reader.await.expect("reader panicked");
        latencies.extend(seen.latencies);
        resyncs += seen.resyncs;
        tally.merge(seen.errors);
    }
    tally.merge(setup_errors);
    for (kind, (n, example)) in &tally.errors {
        eprintln!("error x{n} [{kind}], e.g.: {example}");
    }
    latencies.sort_unstable();
    Ok(LobbyReport {
        clients: connected,
        seeks,
        taken,
        window,
        latencies,
        resyncs,
        errors: tally.error_count(),
        nodes: target.counts(),
    })
}

/// Connects the next lobby client (client `i` on node `i`).
async fn connect(target: &Target) -> Result<Socket, GameError> {
    target.connect_lobby(target.next_number()).await
}

/// Opens one seek (seek `i` on node `i`), then takes it [`TAKE_AFTER`] later through the
/// next node.
async fn seek_and_take(target: &Target, created: &CreatedAt) -> Result<(), GameError> {
    let body = CreateGame {
        variant: target.variant.name().to_owned(),
        clock: Some(TimeControlSpec {
            main: MAIN_SECONDS as f64,
            ..TimeControlSpec::default()
        }),
        open: true,
        ..CreateGame::default()
    };
    let node = target.next_number();
    let seek: Created = target.post(node, "create", "/api/games", &body).await?;
    created
        .lock()
        .expect("poisoned")
        .insert(seek.id.clone(), Instant::now());
    tokio::time::sleep(TAKE_AFTER).await;
    let path = format!("/api/games/{}/join", seek.id);
    let _: Joined = target
        .post(node + 1, "join", &path, &EmptyRequest {})
        .await?;
    Ok(())
}

/// Reads one client's messages until `until`, timing each seek it sees appear.
async fn read(mut socket: Socket, created: CreatedAt, until: Instant) -> Seen {
    let mut seen = Seen::default();
    let mut snapshots = 0u64;
    // Seeks seen before their creation was recorded: (id, when seen).
    let mut early: Vec<(String, Instant)> = Vec::new();
    loop {
        let message = tokio::select! {
            m = socket.next() => m,
            _ = tokio::time::sleep_until(until.into()) => break,
        };
        let now = Instant::now();
        let text = match message {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Close(_))) | None => {
                seen.errors.error(&GameError::Closed);
                break;
            }
            Some(Ok(_)) => continue,
            Some(Err(e)) => {
                seen.errors.error(&GameError::Socket(e.to_string()));
                break;
            }
        };
        let glance: Glance = match serde_json::from_str(text.as_str()) {
            Ok(g) => g,
            Err(e) => {
                seen.errors
                    .error(&GameError::Unexpected(format!("{e}: {}", text.as_str())));
                continue;
            }
        };
        if glance.kind == "snapshot" {
            snapshots += 1;
            // The first snapshot lists what was there before the window: not timed.
            if snapshots == 1 {
                continue;
            }
        }
        let created = created.lock().expect("poisoned");
        early.retain(|(id, at)| match created.get(id) {
            Some(made) => {
                seen.latencies.push(at.saturating_duration_since(*made));
                false
            }
            None => true,
        });
        for seek in glance.seeks {
            match created.get(&seek.id) {
                Some(made) => seen.latencies.push(now.saturating_duration_since(*made)),
                None => early.push((seek.id, now)),
            }
        }
    }
    // Seen before the creation was answered: 0 (a seek whose creation was never answered is
    // not timed).
    {
        let created = created.lock().expect("poisoned");
        seen.latencies.extend(
            early
                .iter()
                .filter(|(id, _)| created.contains_key(id))
                .map(|_| Duration::ZERO),
        );
    }
    seen.resyncs = snapshots.saturating_sub(1);
    let _ = socket.close(None).await;
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_format() {
        // 10 seeks in a 2 s window: 5.0 seeks/s.
        let window = Duration::from_secs(2);
        let report = LobbyReport {
            clients: 2,
            seeks: 10,
            taken: 9,
            window,
            latencies: vec![Duration::from_millis(3), Duration::from_millis(250)],
            ..LobbyReport::default()
        };
        assert_eq!(
            report.to_string(),
            "lobby clients 2\nseeks 10\nseeks/s 5.0\ntaken 9\nseen 2\nseen p50 3.00 ms\n\
             seen p99 250.00 ms\nresyncs 0\nerrors 0\n"
        );
    }
}
