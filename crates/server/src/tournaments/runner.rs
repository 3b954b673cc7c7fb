//! The pairing loop: one task per node that, every [`TournamentSettings::tick`] (and at once
//! when a handler pokes [`Hub::wake`]), starts tournaments whose time has come, notes the end
//! of their games, pairs (arena: everyone waiting, once someone has waited
//! [`TournamentSettings::arena_pair_wait`]; Swiss: the next round once every game of the round
//! ended), and finishes them. Everything it decides is derived from the store, so a restart
//! picks up exactly where it stopped: a game and its link to the tournament (and a Swiss round's
//! games and bye) are written in one transaction.
//!
//! One node runs the loop at a time: in a cluster, the holder of the pairing lease (a row in
//! `tournament_leases`, taken and renewed at every tick, every write fenced by it).

use std::collections::HashSet;
use std::sync::Arc;

use jiang_protocol::{TournamentKind, TournamentServerMessage, TournamentStatus};
use jiang_tournament::{
    PairingError, PlayerId, SwissPlayer, Waiting, arena_pairings, swiss_pairings,
};
use tokio::sync::watch;

use super::{
    Event, Hub, Loaded, TournamentSettings, arena_games, current_round, game_for, load,
    publish_standings, result_of, status_name, swiss_rounds,
};
use crate::clock::TimeControl;
use crate::cluster::Cluster;
use crate::game::{Games, NewGame, TournamentOfGame};
use crate::store::{
    Backend, StoreError, TournamentGameLink, TournamentGameRow, TournamentWrite, Write, now_ms,
};
use crate::{seat, table};

/// How long a Swiss that started with fewer than two players waits for more before it ends
/// (10 minutes).
pub const SWISS_GATHER_MS: i64 = 10 * 60 * 1000;

/// What one look of the loop works with.
struct Ctx<'a> {
    games: &'a Arc<Games>,
    hub: &'a Hub,
    settings: &'a TournamentSettings,
    /// Cluster mode: the pairing lease this node holds, with its epoch; every write carries
    /// its fence, so a node that lost the lease cannot pair anyone.
    lease: Option<(&'a Cluster, i64)>,
}

impl Ctx<'_> {
    /// Writes `unit` in one transaction, fenced by the pairing lease in cluster mode.
    async fn write(&self, mut unit: Vec<Write>) -> Result<(), StoreError> {
        if let Some((cluster, epoch)) = self.lease {
            unit.push(cluster.pairing_fence(epoch));
        }
        self.games.store().write(unit).await
    }
}

/// Starts the loop; it ends when `shutdown` turns true. In cluster mode every node runs it,
/// but only the holder of the pairing lease looks at the tournaments (the others try to take
/// the lease at every tick, so a node's death is covered within [`crate::cluster::LEASE_TTL`]);
/// a graceful stop releases the lease.
pub(crate) fn spawn(
    games: Arc<Games>,
    hub: Arc<Hub>,
    settings: TournamentSettings,
    cluster: Option<Arc<Cluster>>,
    mut shutdown: watch::Receiver<bool>,
) {
    tokio::spawn(async move {
        // The scheduled occurrences this loop has stored (or found stored).
        let mut scheduled = HashSet::new();
        let mut held: Option<i64> = None;
        loop {
            tokio::select! {
                _ = tokio::time::sleep(settings.tick) => {}
                _ = hub.wake.notified() => {}
                _ = shutdown.changed() => {}
            }
            if *shutdown.borrow() {
                if let (Some(cluster), Some(epoch)) = (&cluster, held) {
                    cluster.release_pairing(epoch).await;
                }
                return;
            }
            let lease = match &cluster {
                None => None,
                Some(cluster) => match cluster.take_pairing().await {
                    Ok(Some(epoch)) => {
                        if held != Some(epoch) {
                            tracing::info!(epoch, "this node runs the tournaments' pairing");
                        }
                        held = Some(epoch);
                        Some((&**cluster, epoch))
                    }
                    Ok(None) => {
                        if held.take().is_some() {
                            tracing::warn!("the tournaments' pairing lease went to another node");
                        }
                        continue;
                    }
                    Err(e) => {
                        tracing::warn!(error = %e, "cannot take the pairing lease; trying again");
                        continue;
                    }
                },
            };
            let ctx = Ctx {
                games: &games,
                hub: &hub,
                settings: &settings,
                lease,
            };
            if let Err(e) = schedule_next(&ctx, &mut scheduled, now_ms()).await {
                tracing::warn!(error = %e, "cannot create a scheduled tournament; trying again");
            }
            if let Err(e) = tick(&ctx).await {
                tracing::warn!(error = %e, "tournament pairing failed; trying again");
            }
        }
    });
}

/// One look at every tournament that is not finished.
async fn tick(ctx: &Ctx<'_>) -> Result<(), StoreError> {
    let backend = ctx.games.store().backend();
    let now = now_ms();
    for row in backend.tournaments_with("upcoming", false, 1000).await? {
        if row.starts_at <= now {
            set_status(ctx, &row.id, TournamentStatus::Running, None).await?;
            tracing::info!(tournament = %row.id, "tournament started");
            publish_standings(ctx.hub, &*backend, &row.id).await;
        }
    }
    for row in backend.tournaments_with("running", false, 1000).await? {
        step(ctx, &*backend, &row.id).await?;
    }
    for id in ctx.hub.standings_due() {
        publish_standings(ctx.hub, &*backend, &id).await;
    }
    Ok(())
}

/// Creates each `--schedule` entry's next occurrence unless `done` says this loop stored it
/// already; the insert ignores an id stored before a restart or by another node.
async fn schedule_next(
    ctx: &Ctx<'_>,
    done: &mut HashSet<String>,
    now: i64,
) -> Result<(), StoreError> {
    let due: Vec<_> = ctx
        .settings
        .schedule
        .iter()
        .map(|entry| entry.next_occurrence(now))
        .filter(|row| !done.contains(&row.id))
        .collect();
    if due.is_empty() {
        return Ok(());
    }
    let ids: Vec<String> = due.iter().map(|row| row.id.clone()).collect();
    let unit = due
        .into_iter()
        .map(|row| Write::Tournament(TournamentWrite::CreateScheduled(row)))
        .collect();
    ctx.write(unit).await?;
    for id in ids {
        tracing::info!(tournament = %id, "scheduled tournament ready");
        done.insert(id);
    }
    Ok(())
}

async fn set_status(
    ctx: &Ctx<'_>,
    id: &str,
    status: TournamentStatus,
    finished_at: Option<i64>,
) -> Result<(), StoreError> {
    ctx.write(vec![Write::Tournament(TournamentWrite::Status {
        tournament: id.to_owned(),
        status: status_name(status).to_owned(),
        finished_at,
    })])
    .await
}

/// One running tournament: note ended games, then pair or finish.
async fn step(ctx: &Ctx<'_>, backend: &dyn Backend, id: &str) -> Result<(), StoreError> {
    let Some(mut loaded) = load(backend, id).await? else {
        return Ok(());
    };
    let mut changed = false;
    let ended: Vec<Write> = loaded
        .games
        .iter()
        .filter(|g| g.ended_at.is_none() && result_of(g).is_some())
        .map(|g| {
            Write::Tournament(TournamentWrite::Ended {
                game: g.game_id.clone(),
                at: g.updated_at,
            })
        })
        .collect();
    if !ended.is_empty() {
        ctx.write(ended).await?;
        changed = true;
        let Some(again) = load(backend, id).await? else {
            return Ok(());
        };
        loaded = again;
    }
    let now = now_ms();
    let done = match loaded.kind {
        TournamentKind::Arena => arena_step(ctx, backend, &loaded, now).await?,
        TournamentKind::Swiss => swiss_step(ctx, backend, &loaded).await?,
    };
    match done {
        Step::Finished => {
            set_status(ctx, id, TournamentStatus::Finished, Some(now)).await?;
            tracing::info!(tournament = %id, "tournament finished");
            changed = true;
        }
        Step::Paired => changed = true,
        Step::Nothing => {}
    }
    if changed {
        publish_standings(ctx.hub, backend, id).await;
    }
    Ok(())
}

enum Step {
    Nothing,
    Paired,
    Finished,
}

/// The players of games still being played.
fn playing(loaded: &Loaded) -> HashSet<&str> {
    loaded
        .games
        .iter()
        .filter(|g| result_of(g).is_none())
        .flat_map(|g| [g.first_player.as_str(), g.second_player.as_str()])
        .collect()
}

/// A player's rating in the tournament's variant (realtime), for the order of pairing.
async fn rating(backend: &dyn Backend, player: &str, loaded: &Loaded) -> Result<i32, StoreError> {
    let found = crate::players::player_ref(
        backend,
        player,
        loaded.variant.name(),
        crate::players::REALTIME,
    )
    .await?;
    Ok(found
        .and_then(|p| p.rating)
        .map_or(1500, |r| i32::try_from(r).unwrap_or(1500)))
}

async fn arena_step(
    ctx: &Ctx<'_>,
    backend: &dyn Backend,
    loaded: &Loaded,
    now: i64,
) -> Result<Step, StoreError> {
    let ends_at = loaded.row.starts_at + loaded.row.minutes.unwrap_or(0) * 60_000;
    let playing = playing(loaded);
    if now >= ends_at {
        // Pairing has stopped; the tournament ends with its last game.
        return Ok(if playing.is_empty() {
            Step::Finished
        } else {
            Step::Nothing
        });
    }
    let waiting: Vec<(&str, i64)> = loaded
        .entries
        .iter()
        .filter(|e| e.withdrawn == 0 && !playing.contains(e.player_id.as_str()))
        .map(|e| {
            let last_end = loaded
                .games
                .iter()
                .filter(|g| g.first_player == e.player_id || g.second_player == e.player_id)
                .map(|g| g.ended_at.unwrap_or(g.updated_at))
                .max()
                .unwrap_or(0);
            let since = e.joined_at.max(last_end).max(loaded.row.starts_at);
            (e.player_id.as_str(), since)
        })
        .collect();
    if waiting.len() < 2 {
        return Ok(Step::Nothing);
    }
    let longest = waiting.iter().map(|(_, since)| *since).min().unwrap_or(now);
    let wait_ms = i64::try_from(ctx.settings.arena_pair_wait.as_millis()).unwrap_or(i64::MAX);
    if now - longest < wait_ms {
        return Ok(Step::Nothing);
    }
    let mut present = Vec::with_capacity(waiting.len());
    for (player, since) in &waiting {
        present.push(Waiting {
            player: PlayerId::new(*player),
            rating: rating(backend, player, loaded).await?,
            waiting_since_ms: u64::try_from(*since).unwrap_or(0),
        });
    }
    let pairs = arena_pairings(&present, &arena_games(&loaded.games));
    if pairs.is_empty() {
        return Ok(Step::Nothing);
    }
    let pairs: Vec<(String, String)> = pairs.into_iter().map(|p| (p.first.0, p.second.0)).collect();
    start_games(ctx, backend, loaded, &pairs, None, None).await?;
    Ok(Step::Paired)
}

async fn swiss_step(
    ctx: &Ctx<'_>,
    backend: &dyn Backend,
    loaded: &Loaded,
) -> Result<Step, StoreError> {
    let round = current_round(loaded);
    let unfinished = loaded
        .games
        .iter()
        .any(|g| g.round == Some(i64::from(round)) && result_of(g).is_none());
    if unfinished {
        return Ok(Step::Nothing);
    }
    let rounds = u32::try_from(loaded.row.rounds.unwrap_or(0)).unwrap_or(0);
    if round >= rounds {
        return Ok(Step::Finished);
    }
    let mut present = Vec::new();
    for e in loaded.entries.iter().filter(|e| e.withdrawn == 0) {
        present.push(SwissPlayer {
            id: PlayerId::new(&e.player_id),
            rating: rating(backend, &e.player_id, loaded).await?,
        });
    }
    let history = swiss_rounds(loaded, round);
    match swiss_pairings(&present, &history) {
        Ok(pairing) => {
            let pairs: Vec<(String, String)> = pairing
                .pairs
                .into_iter()
                .map(|p| (p.first.0, p.second.0))
                .collect();
            let bye = pairing.bye.map(|p| p.0);
            start_games(
                ctx,
                backend,
                loaded,
                &pairs,
                Some(i64::from(pairing.round)),
                bye,
            )
            .await?;
            Ok(Step::Paired)
        }
        Err(PairingError::NotEnoughPlayers)
            if round == 0 && now_ms() < loaded.row.starts_at + SWISS_GATHER_MS =>
        {
            // Started with fewer than two players: wait a little for more.
            Ok(Step::Nothing)
        }
        Err(PairingError::NotEnoughPlayers | PairingError::NoPairingWithoutRepeat) => {
            // Nobody left to pair (or only repeats): the Swiss ends early, as lichess's do.
            Ok(Step::Finished)
        }
        Err(e) => {
            tracing::error!(tournament = %loaded.row.id, error = %e, "Swiss pairing refused; finishing it");
            Ok(Step::Finished)
        }
    }
}

/// Creates a game per pair (first seat first), linked to the tournament, with the Swiss
/// `round` and `bye`, all in one transaction; then wakes the games (their first-move
/// countdowns run) and tells each player's socket their game.
async fn start_games(
    ctx: &Ctx<'_>,
    backend: &dyn Backend,
    loaded: &Loaded,
    pairs: &[(String, String)],
    round: Option<i64>,
    bye: Option<String>,
) -> Result<(), StoreError> {
    let control = TimeControl::try_from(loaded.clock).map_err(|e| {
        StoreError::Io(std::io::Error::other(format!(
            "tournament {} has a bad clock: {e}",
            loaded.row.id
        )))
    })?;
    let mut unit = Vec::new();
    let mut created = Vec::new();
    let at = now_ms();
    for (first, second) in pairs {
        let setup = table::create(loaded.variant, None, None).map_err(|e| {
            StoreError::Io(std::io::Error::other(format!("no start position: {e}")))
        })?;
        let speed = crate::players::REALTIME;
        let variant = loaded.variant.name();
        let players = [
            crate::players::player_ref(backend, first, variant, speed).await?,
            crate::players::player_ref(backend, second, variant, speed).await?,
        ];
        let id = seat::new_game_id();
        let tokens = [seat::new_token(), seat::new_token()];
        let new_game = NewGame {
            variant: loaded.variant,
            setup,
            control: Some(control),
            tokens: [
                Some(seat::hash_token(&tokens[0])),
                Some(seat::hash_token(&tokens[1])),
            ],
            open: false,
            unlisted: false,
            computer: None,
            players,
            rated: loaded.row.rated != 0,
            rating_range: None,
            tournament: Some(TournamentOfGame {
                id: loaded.row.id.clone(),
                kind: loaded.kind,
            }),
        };
        unit.extend(new_game.writes(&id));
        let [token_first, token_second] = tokens;
        let link = TournamentGameLink {
            game_id: id.clone(),
            tournament_id: loaded.row.id.clone(),
            round,
            first_player: first.clone(),
            second_player: second.clone(),
            token_first,
            token_second,
            created_at: at,
        };
        created.push(TournamentGameRow {
            game_id: id,
            round,
            first_player: link.first_player.clone(),
            second_player: link.second_player.clone(),
            token_first: link.token_first.clone(),
            token_second: link.token_second.clone(),
            berserk_first: 0,
            berserk_second: 0,
            created_at: at,
            ended_at: None,
            status: "playing".to_owned(),
            result: None,
            updated_at: at,
            plies: 0,
        });
        unit.push(Write::Tournament(TournamentWrite::Game(link)));
    }
    if let (Some(round), Some(player)) = (round, bye) {
        unit.push(Write::Tournament(TournamentWrite::Bye {
            tournament: loaded.row.id.clone(),
            round,
            player,
        }));
    }
    ctx.write(unit).await?;
    for g in &created {
        ctx.games.wake(&g.game_id);
        tracing::info!(tournament = %loaded.row.id, game = %g.game_id, first = %g.first_player, second = %g.second_player, "tournament game paired");
        for player in [&g.first_player, &g.second_player] {
            if let Some(mine) = game_for(loaded.variant, g, player) {
                let message = jiang_protocol::to_sorted_json(&TournamentServerMessage::Game(mine));
                ctx.hub.publish(
                    &loaded.row.id,
                    Event::Paired {
                        player: player.clone(),
                        message: message.into(),
                    },
                );
            }
        }
    }
    Ok(())
}
