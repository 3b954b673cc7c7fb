//! `jiang loadtest --arena-players N`: an arena tournament under load.
//!
//! It creates `N` players (`POST /api/players`) and an arena (`POST /api/tournaments`, a
//! one-hour clock so nobody flags, lasting the window and a minute more), opens each player's
//! tournament socket (`/api/tournaments/{id}/ws` with `Authorization: Player <key>`) and joins
//! them all. Then, for `--seconds`, every player plays whatever game the socket's `game`
//! message ("your next game") gives them: it connects to the game with the seat's token and
//! plays random legal moves (think time as in the games mode: uniform, mean `N / 2 / rate`),
//! and the player to move at ply 20 to 59 (the same for both, from the game id) resigns, so
//! games end all the time and the arena pairs again and again.
//!
//! It measures the **pairing delay**: for each player, from the moment its game ended (the
//! `end` event reached it) to its next `game` message. The arena pairs everyone waiting once
//! one of them has waited 2 seconds (`arena_pair_wait`), so the delay is that wait plus the
//! pairing's own time; the report shows how the latter grows with the field.
//!
//! # Report (standard output)
//! ```text
//! arena players 1000
//! games 2345
//! moves 45678
//! moves/s 1522.6
//! pairing p50 2.31 s
//! pairing p99 3.10 s
//! errors 0
//! ```
//! `games` counts the games that ended in the window; `moves` the moves acknowledged (the
//! `move` event reached the mover); the pairing percentiles are over every (player, game end)
//! followed by a next game within the window. Exit status: 0 when games ended, pairings were
//! measured and errors = 0, else 1.

use std::fmt;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use jiang_protocol::{
    ClientMessage, CreatePlayer, CreateTournament, EmptyRequest, GameStatus, PlayerCreated,
    ServerMessage, TimeControlSpec, TournamentEntry, TournamentKind, TournamentServerMessage,
    TournamentSummary,
};
use rand::Rng;
use rand::seq::IndexedRandom;
use tokio_tungstenite::tungstenite::Message;

use crate::nodes::{self, NodeCounts, Target};
use crate::play::{GameError, Socket, Tally, next_event};
use crate::{LoadtestError, MAIN_SECONDS, ms, set_up_limited};

/// The fewest plies before a game is resigned; each game resigns at a ply from here to 39
/// more, chosen from its id so that both players agree.
const FIRST_RESIGN_PLY: u64 = 20;

/// The arena load test's results.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct ArenaReport {
    /// Players in the arena when the measurement started.
    pub players: usize,
    /// Games ended in the window.
    pub games: u64,
    /// Moves acknowledged in the window.
    pub moves: u64,
    /// Length of the window.
    pub window: Duration,
    /// Game end → next game, per player, sorted.
    pub delays: Vec<Duration>,
    /// Errors of all kinds.
    pub errors: u64,
    /// What each URL was sent (printed when there are several).
    pub nodes: Vec<NodeCounts>,
}

impl ArenaReport {
    /// Whether the run measured something and met no error.
    pub fn passed(&self) -> bool {
        self.games > 0 && !self.delays.is_empty() && self.errors == 0
    }
}

impl fmt::Display for ArenaReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = |p: f64| match crate::percentile(&self.delays, p) {
            Some(d) => format!("{:.2}", d.as_secs_f64()),
            None => "-".to_owned(),
        };
        writeln!(f, "arena players {}", self.players)?;
        writeln!(f, "games {}", self.games)?;
        writeln!(f, "moves {}", self.moves)?;
        writeln!(
            f,
            "moves/s {:.1}",
            self.moves as f64 / self.window.as_secs_f64().max(1e-9)
        )?;
        writeln!(f, "pairing p50 {} s", seconds(50.0))?;
        writeln!(f, "pairing p99 {} s", seconds(99.0))?;
        writeln!(f, "errors {}", self.errors)?;
        nodes::write_lines(f, &self.nodes)
    }
}

/// What the players' tasks count together.
#[derive(Default)]
struct Counts {
    games: u64,
    moves: u64,
    delays: Vec<Duration>,
    tally: Tally,
}

/// One player: its node, and its tournament socket (opened there).
struct Entrant {
    node: usize,
    socket: Socket,
}

/// Creates the players and the arena, joins everyone, and plays for `window`.
pub(crate) async fn drive(
    target: Arc<Target>,
    players: usize,
    window: Duration,
    mean_think: Duration,
) -> Result<ArenaReport, LoadtestError> {
    target.check_health().await?;
    let setup_started = Instant::now();
    let mut tally = Tally::default();
    let organiser: PlayerCreated = target
        .post(0, "player", "/api/players", &CreatePlayer::default())
        .await
        .map_err(|e| LoadtestError::Setup(format!("cannot create a player: {e}")))?;
    let body = CreateTournament {
        kind: TournamentKind::Arena,
        variant: target.variant.name().to_owned(),
        clock: TimeControlSpec {
            main: MAIN_SECONDS as f64,
            ..TimeControlSpec::default()
        },
        minutes: Some(u32::try_from(window.as_secs() / 60 + 2).unwrap_or(u32::MAX)),
        rounds: None,
        starts_at: None,
        rated: false,
    };
    let arena: TournamentSummary = target
        .post_as(0, "tournament", "/api/tournaments", &organiser.key, &body)
        .await
        .map_err(|e| LoadtestError::Setup(format!("cannot create the arena: {e}")))?;
    let id = Arc::new(arena.id);
    let entrants = set_up_limited(
        &target,
        players,
        |target| {
            let id = id.clone();
            async move { enter(&target, &id).await }
        },
        &mut tally,
    )
    .await;
    let entrants: Vec<Entrant> = entrants.into_iter().flatten().collect();
    eprintln!(
        "{} of {players} players joined arena {id} in {:.1} s",
        entrants.len(),
        setup_started.elapsed().as_secs_f64()
    );
    let joined = entrants.len();
    let counts = Arc::new(Mutex::new(Counts::default()));
    let start = Instant::now();
    let deadline = start + window;
    let tasks: Vec<_> = entrants
        .into_iter()
        .map(|entrant| {
            let (target, counts) = (target.clone(), counts.clone());
            tokio::spawn(async move {
                if let Err(e) = play_arena(&target, entrant, deadline, mean_think, &counts).await {
                    counts.lock().expect("counts").tally.error(&e);
                }
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("player task panicked");
    }
    let mut counts = std::mem::take(&mut *counts.lock().expect("counts"));
    counts.tally.merge(tally);
    counts.delays.sort();
    for (kind, (n, example)) in &counts.tally.errors {
        eprintln!("error {kind}: {n} (e.g. {example})");
    }
    if let Some(max) = counts.delays.last() {
        eprintln!("pairing max {} ms", ms(Some(*max)));
    }
    Ok(ArenaReport {
        players: joined,
        games: counts.games / 2,
        moves: counts.moves,
        window,
        delays: counts.delays,
        errors: counts.tally.error_count(),
        nodes: target.counts(),
    })
}

/// A new player with its tournament socket open, joined to arena `id`.
async fn enter(target: &Target, id: &str) -> Result<Entrant, GameError> {
    let node = target.next_number();
    let me: PlayerCreated = target
        .post(node, "player", "/api/players", &CreatePlayer::default())
        .await?;
    let socket = target.connect_tournament(node, id, &me.key).await?;
    let path = format!("/api/tournaments/{id}/join");
    let _: TournamentEntry = target
        .post_as(node + 1, "join", &path, &me.key, &EmptyRequest {})
        .await?;
    Ok(Entrant { node, socket })
}

/// One player until `deadline`: waits for its next game on the tournament socket, plays it to
/// its end, and again.
async fn play_arena(
    target: &Target,
    mut entrant: Entrant,
    deadline: Instant,
    mean_think: Duration,
    counts: &Mutex<Counts>,
) -> Result<(), GameError> {
    let mut ended_at: Option<Instant> = None;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let next = tokio::time::timeout(left, next_game(&mut entrant.socket)).await;
        let Ok(game) = next else {
            return Ok(()); // the window is over
        };
        let game = game?;
        let now = Instant::now();
        if let Some(ended) = ended_at.take() {
            counts.lock().expect("counts").delays.push(now - ended);
        }
        let mut player = target.connect(entrant.node, &game.0, &game.1).await?;
        let moves = play_game(&mut player.socket, &game.0, deadline, mean_think).await;
        let _ = tokio::time::timeout(Duration::from_secs(1), player.socket.close(None)).await;
        let (moves, over) = moves?;
        let mut counts = counts.lock().expect("counts");
        counts.moves += moves;
        if !over {
            return Ok(()); // the window ended mid-game
        }
        // Both players count the game: the report halves the sum.
        counts.games += 1;
        ended_at = Some(Instant::now());
    }
}

/// The next `game` message on a tournament socket: (game id, seat token).
async fn next_game(socket: &mut Socket) -> Result<(String, String), GameError> {
    loop {
        let text = match socket.next().await {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Close(_))) | None => return Err(GameError::Closed),
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(GameError::Socket(e.to_string())),
        };
        // Only "your next game" matters here: the standings (large in a large arena, and
        // sent after every change) are skipped unread. The server writes keys sorted, so a
        // message's `type` comes last.
        if !text.as_str().ends_with(r#""type":"game"}"#) {
            continue;
        }
        let message: TournamentServerMessage = serde_json::from_str(text.as_str())
            .map_err(|e| GameError::Unexpected(format!("a tournament message: {e}")))?;
        if let TournamentServerMessage::Game(game) = message {
            return Ok((game.id, game.token));
        }
    }
}

/// Plays one side of game `id` on `socket` until the game ends (`true`) or `deadline` passes
/// (`false`); with the moves this side made and saw acknowledged.
async fn play_game(
    socket: &mut Socket,
    id: &str,
    deadline: Instant,
    mean_think: Duration,
) -> Result<(u64, bool), GameError> {
    let resign_at = FIRST_RESIGN_PLY + id.bytes().map(u64::from).sum::<u64>() % 40;
    let mut moves = 0;
    let mut sent = false;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let Ok(message) = tokio::time::timeout(left, next_event(socket, "game event")).await else {
            return Ok((moves, false));
        };
        let state = match message? {
            ServerMessage::State(view) | ServerMessage::End(view) => view.state,
            ServerMessage::Move(event) => {
                if std::mem::take(&mut sent) {
                    moves += 1;
                }
                event.state
            }
            ServerMessage::Error { code, message, .. } => {
                return Err(crate::play::refused(code, &message));
            }
            _ => continue,
        };
        if state.status != GameStatus::Playing {
            return Ok((moves, true));
        }
        if state.you.is_none() || state.you != state.to_move || sent {
            continue;
        }
        if !mean_think.is_zero() {
            let think = rand::rng().random_range(Duration::ZERO..=2 * mean_think);
            tokio::time::sleep(think).await;
        }
        let message = if state.ply >= resign_at {
            ClientMessage::Resign {}
        } else {
            let Some(mv) = state.legal_moves.choose(&mut rand::rng()) else {
                continue;
            };
            sent = true;
            ClientMessage::Move { mv: mv.clone() }
        };
        let text = serde_json::to_string(&message).expect("a message serialises");
        socket
            .send(Message::Text(text.into()))
            .await
            .map_err(|e| GameError::Socket(e.to_string()))?;
    }
}
