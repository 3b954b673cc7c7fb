//! `--verify`: after the run, every move the load generator was acknowledged (a `move` event,
//! sent by the server only once the move is stored) must be in the stored game at its ply, as
//! the public view (`GET /api/games/{id}`) shows it through any node.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use jiang_protocol::GameView;

use crate::nodes::Target;
use crate::{GameError, SETUP_CONCURRENCY, ms, percentile, spawn_limited};

/// The moves acknowledged: game id → ply → the move as recorded.
pub(crate) type Acked = HashMap<String, BTreeMap<u64, String>>;

/// What `--verify` adds to the report.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Verification {
    /// Games resynchronised after a failure.
    pub reconnects: u64,
    /// Requests and connections sent again.
    pub retries: u64,
    /// Per recovered game: from the failed move (or the failure) to its next acknowledged
    /// move, sorted.
    pub recoveries: Vec<Duration>,
    /// Moves acknowledged.
    pub acknowledged: u64,
    /// Acknowledged moves not stored at their ply (or stored as another move).
    pub lost: u64,
}

impl fmt::Display for Verification {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "reconnects {}", self.reconnects)?;
        writeln!(f, "retries {}", self.retries)?;
        writeln!(
            f,
            "recovery {} p50 {} ms max {} ms",
            self.recoveries.len(),
            ms(percentile(&self.recoveries, 50.0)),
            ms(self.recoveries.last().copied())
        )?;
        writeln!(f, "acknowledged {}, lost {}", self.acknowledged, self.lost)
    }
}

/// The outcome of reading back every game.
pub(crate) struct Checked {
    pub(crate) acknowledged: u64,
    pub(crate) lost: u64,
    /// Games that could not be read (counted as errors: their moves were not checked).
    pub(crate) unread: Vec<GameError>,
}

/// The plies of `acked` whose move is not `stored[ply - 1]`: (ply, acknowledged, stored).
pub(crate) fn lost_moves<'a>(
    acked: &'a BTreeMap<u64, String>,
    stored: &'a [String],
) -> Vec<(u64, &'a str, Option<&'a str>)> {
    acked
        .iter()
        .filter_map(|(&ply, mv)| {
            let at = usize::try_from(ply).ok()?.checked_sub(1);
            let there = at.and_then(|i| stored.get(i)).map(String::as_str);
            (there != Some(mv.as_str())).then_some((ply, mv.as_str(), there))
        })
        .collect()
}

/// Most lost moves listed on standard error.
const LOST_LISTED: usize = 50;

/// Reads every game of `acked` (game `i` through node `i`, retried on the others) and counts
/// the acknowledged moves missing from it; lists lost moves on standard error.
pub(crate) async fn check(target: &Arc<Target>, acked: Acked) -> Checked {
    let acknowledged = acked.values().map(|m| m.len() as u64).sum();
    let games: Vec<_> = acked.into_iter().collect();
    let count = games.len();
    let games = Arc::new(std::sync::Mutex::new(games.into_iter().enumerate()));
    eprintln!("verifying {acknowledged} acknowledged moves in {count} games");
    let readers = spawn_limited(target, SETUP_CONCURRENCY.min(count.max(1)), |target| {
        let games = games.clone();
        async move {
            let mut lost = Vec::new();
            let mut unread = Vec::new();
            loop {
                let Some((i, (id, moves))) = games.lock().expect("poisoned").next() else {
                    break;
                };
                let path = format!("/api/games/{id}");
                match target.get::<GameView>(i, "view", &path).await {
                    Ok(view) => lost.extend(lost_moves(&moves, &view.moves).into_iter().map(
                        |(ply, mv, there)| {
                            format!(
                                "lost: game {id} ply {ply}: acknowledged {mv}, stored {}",
                                there.unwrap_or("nothing")
                            )
                        },
                    )),
                    Err(e) => unread.push(e),
                }
            }
            (lost, unread)
        }
    });
    let mut checked = Checked {
        acknowledged,
        lost: 0,
        unread: Vec::new(),
    };
    for reader in readers {
        let (lost, unread) = reader.await.expect("verify task panicked");
        for line in &lost {
            if checked.lost < LOST_LISTED as u64 {
                eprintln!("{line}");
            }
            checked.lost += 1;
        }
        checked.unread.extend(unread);
    }
    if checked.lost > LOST_LISTED as u64 {
        eprintln!(
            "… and {} more lost moves",
            checked.lost - LOST_LISTED as u64
        );
    }
    checked
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acked(moves: &[(u64, &str)]) -> BTreeMap<u64, String> {
        moves.iter().map(|&(p, m)| (p, m.to_owned())).collect()
    }

    fn stored(moves: &[&str]) -> Vec<String> {
        moves.iter().map(|m| (*m).to_owned()).collect()
    }

    #[test]
    fn every_acknowledged_move_present_at_its_ply_is_not_lost() {
        let stored = stored(&["h2e2", "h9g7", "h0g2", "i9h9"]);
        // Plies 1, 2 and 4 acknowledged (3's answer was lost): all there.
        assert!(lost_moves(&acked(&[(1, "h2e2"), (2, "h9g7"), (4, "i9h9")]), &stored).is_empty());
        assert!(lost_moves(&acked(&[]), &stored).is_empty());
    }

    #[test]
    fn a_missing_or_different_move_is_lost() {
        let stored = stored(&["h2e2", "b9c7"]);
        let acked = acked(&[(1, "h2e2"), (2, "h9g7"), (3, "h0g2")]);
        assert_eq!(
            lost_moves(&acked, &stored),
            vec![(2, "h9g7", Some("b9c7")), (3, "h0g2", None)]
        );
        // Ply 0 is no ply: never stored.
        assert_eq!(
            lost_moves(&self::acked(&[(0, "h2e2")]), &stored),
            vec![(0, "h2e2", None)]
        );
    }

    #[test]
    fn report_lines() {
        let v = Verification {
            reconnects: 3,
            retries: 2,
            recoveries: vec![Duration::from_millis(120), Duration::from_millis(900)],
            acknowledged: 4000,
            lost: 0,
        };
        assert_eq!(
            v.to_string(),
            "reconnects 3\nretries 2\nrecovery 2 p50 120.00 ms max 900.00 ms\n\
             acknowledged 4000, lost 0\n"
        );
        assert!(
            Verification::default()
                .to_string()
                .contains("recovery 0 p50 - ms max - ms\n")
        );
    }
}
