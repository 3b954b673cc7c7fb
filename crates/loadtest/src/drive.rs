//! The games mode's run: every game set up (and the computer games started), all of them
//! played for the window, then the tally (and, with `--verify`, the check of every
//! acknowledged move) made into the report.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::computer::{ComputerTally, computer_slot};
use crate::nodes::Target;
use crate::play::{Tally, merge_kinds, new_game, play_slot};
use crate::report::Report;
use crate::{LoadtestError, Verification, set_up_limited, verify};

/// Sets up every game, then plays them all for `window`.
pub(crate) async fn drive(
    target: Arc<Target>,
    games: usize,
    computer_games: usize,
    window: Duration,
    mean_think: Duration,
) -> Result<Report, LoadtestError> {
    target.check_health().await?;

    let setup_started = Instant::now();
    // The computers start thinking first and go on until the end of the window.
    let computers_stop = Arc::new(tokio::sync::Notify::new());
    let computers: Vec<_> = (0..computer_games)
        .map(|_| {
            let (target, stop) = (target.clone(), computers_stop.clone());
            tokio::spawn(async move { computer_slot(&target, &stop).await })
        })
        .collect();
    let mut tally = Tally::default();
    let ready = set_up_limited(
        &target,
        games,
        |target| async move { new_game(&target).await },
        &mut tally,
    )
    .await;
    tally.games_created += games as u64;
    let live = ready.iter().filter(|g| g.is_some()).count();
    eprintln!(
        "set up {live} of {games} games ({} sockets) in {:.1} s",
        2 * live,
        setup_started.elapsed().as_secs_f64()
    );

    let start = Instant::now();
    let deadline = start + window;
    let slots: Vec<_> = ready
        .into_iter()
        .map(|game| {
            let target = target.clone();
            tokio::spawn(play_slot(target, game, deadline, mean_think))
        })
        .collect();
    for slot in slots {
        tally.merge(slot.await.expect("game task panicked"));
    }
    let elapsed = start.elapsed();
    computers_stop.notify_waiters();
    let mut computer = ComputerTally::default();
    for slot in computers {
        let t = slot.await.expect("computer game task panicked");
        computer.games += t.games;
        computer.moves += t.moves;
        merge_kinds(&mut tally.errors, t.errors.errors);
    }
    if computer_games > 0 {
        eprintln!(
            "computer games: {} kept at once, {} created, {} computer moves",
            computer_games, computer.games, computer.moves
        );
    }
    eprintln!(
        "played for {:.1} s; {} games created in all",
        elapsed.as_secs_f64(),
        tally.games_created
    );
    let verification = if target.verify {
        let acked = std::mem::take(&mut tally.acked);
        let checked = verify::check(&target, acked).await;
        for unread in &checked.unread {
            tally.error(unread);
        }
        let mut recoveries = std::mem::take(&mut tally.recoveries);
        recoveries.sort_unstable();
        Some(Verification {
            reconnects: target.reconnects(),
            retries: target.retries(),
            recoveries,
            acknowledged: checked.acknowledged,
            lost: checked.lost,
        })
    } else {
        None
    };
    for (kind, (n, example)) in &tally.ridden_out {
        eprintln!("reconnected after x{n} [{kind}], e.g.: {example}");
    }
    for (kind, (n, example)) in &tally.errors {
        eprintln!("error x{n} [{kind}], e.g.: {example}");
    }
    if tally
        .errors
        .keys()
        .any(|kind| kind.ends_with(" 429") || kind.contains("rate_limited"))
    {
        eprintln!(
            "hint: the server limits requests per client address, and all of this load comes \
             from one; start it with `jiang serve --rate-limit 0` (JIANG_RATE_LIMIT=0)"
        );
    }
    let mut latencies = std::mem::take(&mut tally.latencies);
    latencies.sort_unstable();
    Ok(Report {
        games: live,
        sockets: 2 * live,
        moves: tally.moves,
        window,
        latencies,
        errors: tally.error_count(),
        nodes: target.counts(),
        verification,
    })
}
