//! The human games: creating and joining them, their sockets, and random legal moves played
//! and timed; with `--verify`, failures ridden out.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use jiang_protocol::{
    ClientMessage, CreateGame, Created, EmptyRequest, ErrorCode, GameStatus, Joined, ServerMessage,
    TimeControlSpec,
};
use rand::Rng;
use rand::seq::IndexedRandom;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use crate::nodes::Target;

use crate::{ANSWER_TIMEOUT, MAIN_SECONDS, verify};

/// What went wrong with one game; counted, and the game abandoned (with `--verify`, the
/// [recoverable](GameError::recoverable) ones are ridden out instead).
#[derive(Debug, thiserror::Error)]
pub(crate) enum GameError {
    #[error("HTTP {what}: {reason}")]
    Http { what: &'static str, reason: String },
    #[error("HTTP {what}: status {status}: {body}")]
    Status {
        what: &'static str,
        status: u16,
        body: String,
    },
    #[error("HTTP {what}: the answer is not what was expected: {reason}")]
    BadAnswer { what: &'static str, reason: String },
    #[error("HTTP {0}: the retry found it done (the first attempt's answer was lost)")]
    LostAnswer(&'static str),
    #[error("WebSocket connect: {0}")]
    Connect(String),
    #[error("WebSocket upgrade refused with status {0}")]
    Upgrade(u16),
    #[error("WebSocket: {0}")]
    Socket(String),
    #[error("socket closed by the server")]
    Closed,
    #[error("server error event: {code}: {message}")]
    Refused { code: ErrorCode, message: String },
    #[error("no {0} within 10 s")]
    Timeout(&'static str),
    #[error("unexpected event: {0}")]
    Unexpected(String),
    /// What the load generator believed of a game is behind the server: a move it did not
    /// send arrived, or the two players' states disagree (after a failure, a move sent before
    /// it can still be played).
    #[error("out of step with the game: {0}")]
    Stale(String),
}

/// Statuses that say "this node cannot serve now, another may": a proxy's bad gateway and
/// gateway timeout, the server's 503s.
fn transient_status(status: u16) -> bool {
    matches!(status, 502..=504)
}

impl GameError {
    /// A short label to tally errors by.
    pub(crate) fn kind(&self) -> String {
        match self {
            GameError::Http { what, .. } => format!("http {what}"),
            GameError::Status { what, status, .. } => format!("http {what} {status}"),
            GameError::BadAnswer { what, .. } => format!("http {what} bad answer"),
            GameError::LostAnswer(what) => format!("http {what} answer lost"),
            GameError::Connect(_) => "ws connect".into(),
            GameError::Upgrade(status) => format!("ws connect {status}"),
            GameError::Socket(_) => "ws error".into(),
            GameError::Closed => "ws closed".into(),
            GameError::Refused { code, .. } => format!("refused {code}"),
            GameError::Timeout(what) => format!("timeout {what}"),
            GameError::Unexpected(_) => "unexpected event".into(),
            GameError::Stale(_) => "out of step".into(),
        }
    }

    /// Whether a node dying or restarting explains it, so that `--verify` tries again
    /// elsewhere: no answer at all, a 502/503/504, a dropped socket, a 503 refusal, an event
    /// that never came.
    pub(crate) fn recoverable(&self) -> bool {
        match self {
            GameError::Http { .. }
            | GameError::LostAnswer(_)
            | GameError::Connect(_)
            | GameError::Socket(_)
            | GameError::Closed
            | GameError::Timeout(_)
            | GameError::Stale(_) => true,
            GameError::Status { status, .. } | GameError::Upgrade(status) => {
                transient_status(*status)
            }
            GameError::Refused { code, .. } => code.status() == 503,
            GameError::BadAnswer { .. } | GameError::Unexpected(_) => false,
        }
    }

    /// Whether it is a refusal that a stale picture of the game explains (a move for a turn
    /// or position that is no longer there): recoverable right after a failure, when a move
    /// sent before it may still have been played since.
    pub(crate) fn refused_as_stale(&self) -> bool {
        matches!(
            self,
            GameError::Refused {
                code: ErrorCode::NotYourTurn | ErrorCode::IllegalMove | ErrorCode::GameOver,
                ..
            }
        )
    }
}

/// Whether `recorded` (a `move` event's move) is the move `sent`: the same text, or Jieqi's
/// with the letter of the piece it revealed.
pub(crate) fn is_move(recorded: &str, sent: &str) -> bool {
    recorded.strip_prefix(sent).is_some_and(|rest| {
        rest.is_empty() || (rest.len() == 1 && rest.bytes().all(|b| b.is_ascii_alphabetic()))
    })
}

pub(crate) type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// One player's socket and the node (index into the URLs) it is connected to.
pub(crate) struct Player {
    pub(crate) socket: Socket,
    pub(crate) node: usize,
}

/// A game in progress: its seats, both players, whose move it is and what is legal for it.
pub(crate) struct LiveGame {
    pub(crate) id: String,
    pub(crate) tokens: [String; 2],
    pub(crate) players: [Player; 2],
    pub(crate) mover: usize,
    pub(crate) ply: u64,
    pub(crate) legal: Vec<String>,
}

/// Per-slot tallies, merged at the end.
#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) moves: u64,
    pub(crate) latencies: Vec<Duration>,
    pub(crate) errors: BTreeMap<String, (u64, String)>,
    pub(crate) games_created: u64,
    /// `--verify`: the moves acknowledged, per game and ply.
    pub(crate) acked: verify::Acked,
    /// `--verify`: failed move (or failure) → next acknowledged move of that game.
    pub(crate) recoveries: Vec<Duration>,
    /// `--verify`: the failures ridden out by reconnecting, by kind (as `errors`).
    pub(crate) ridden_out: BTreeMap<String, (u64, String)>,
}

impl Tally {
    pub(crate) fn error(&mut self, e: &GameError) {
        count_kind(&mut self.errors, e);
    }

    pub(crate) fn error_count(&self) -> u64 {
        self.errors.values().map(|(n, _)| n).sum()
    }

    pub(crate) fn merge(&mut self, other: Tally) {
        self.moves += other.moves;
        self.latencies.extend(other.latencies);
        self.games_created += other.games_created;
        merge_kinds(&mut self.errors, other.errors);
        self.acked.extend(other.acked);
        self.recoveries.extend(other.recoveries);
        merge_kinds(&mut self.ridden_out, other.ridden_out);
    }

    /// Notes a `move` event: with `--verify`, the server's word that `mv` is stored at `ply`
    /// (the first word for a ply is kept: a different move there later is a loss).
    pub(crate) fn acknowledged(&mut self, target: &Target, game: &str, ply: u64, mv: &str) {
        if target.verify {
            self.acked
                .entry(game.to_owned())
                .or_default()
                .entry(ply)
                .or_insert_with(|| mv.to_owned());
        }
    }
}

/// Counts `e` under its kind, keeping the first of each kind as the example.
pub(crate) fn count_kind(kinds: &mut BTreeMap<String, (u64, String)>, e: &GameError) {
    kinds.entry(e.kind()).or_insert((0, e.to_string())).0 += 1;
}

/// Adds the counts of `other` to `kinds`, keeping `kinds`' example where both have the kind.
pub(crate) fn merge_kinds(
    kinds: &mut BTreeMap<String, (u64, String)>,
    other: BTreeMap<String, (u64, String)>,
) {
    for (kind, (n, example)) in other {
        kinds.entry(kind).or_insert((0, example)).0 += n;
    }
}

/// Keeps one game going until `deadline`, replacing it when it ends or fails.
pub(crate) async fn play_slot(
    target: Arc<Target>,
    mut game: Option<LiveGame>,
    deadline: Instant,
    mean_think: Duration,
) -> Tally {
    let mut tally = Tally::default();
    let mut failures_in_a_row = 0u32;
    while Instant::now() < deadline {
        let current = match game.take() {
            Some(g) => g,
            None => {
                tally.games_created += 1;
                match new_game(&target).await {
                    Ok(g) => g,
                    Err(e) => {
                        // `--verify`: a join whose answer was lost (retries already spent
                        // the rest) only costs the game.
                        if !(target.verify && matches!(e, GameError::LostAnswer(_))) {
                            tally.error(&e);
                        }
                        failures_in_a_row += 1;
                        // Back off so that a broken server is not hammered.
                        let pause = Duration::from_millis(100 << failures_in_a_row.min(5));
                        tokio::time::sleep(pause).await;
                        continue;
                    }
                }
            }
        };
        match play(&target, current, deadline, mean_think, &mut tally).await {
            Ok(()) => failures_in_a_row = 0,
            Err(e) => {
                tally.error(&e);
                failures_in_a_row += 1;
            }
        }
    }
    tally
}

/// Creates a game (game number `i` on node `i`), joins its second seat through the next node
/// and connects both players, each through the node it used.
pub(crate) async fn new_game(target: &Target) -> Result<LiveGame, GameError> {
    let body = CreateGame {
        variant: target.variant.name().to_owned(),
        clock: Some(TimeControlSpec {
            main: MAIN_SECONDS as f64,
            ..TimeControlSpec::default()
        }),
        ..CreateGame::default()
    };
    let node = target.next_number();
    let created: Created = target.post(node, "create", "/api/games", &body).await?;
    let path = format!("/api/games/{}/join", created.id);
    let joined: Joined = target
        .post(node + 1, "join", &path, &EmptyRequest {})
        .await?;
    let tokens = [created.token, joined.token];
    open_game(target, created.id, tokens, [node, node + 1]).await
}

/// Connects both players of game `id` (through `nodes`; while `--verify` retries, each player
/// tries the following nodes on its own, so that one dead node does not hold both back) and
/// reads where the game stands from their `state` messages.
pub(crate) async fn open_game(
    target: &Target,
    id: String,
    tokens: [String; 2],
    nodes: [usize; 2],
) -> Result<LiveGame, GameError> {
    target
        .retrying(|k| {
            let (id, tokens) = (&id, &tokens);
            let connect = move |p: usize| {
                target.retrying(move |j| target.connect(nodes[p] + k + j, id, &tokens[p]))
            };
            async move {
                let (a, b) = tokio::try_join!(connect(0), connect(1))?;
                read_states(id.clone(), tokens.clone(), [a, b]).await
            }
        })
        .await
}

/// A game from its two players' first messages.
pub(crate) async fn read_states(
    id: String,
    tokens: [String; 2],
    mut players: [Player; 2],
) -> Result<LiveGame, GameError> {
    // Each socket's first message is its `state`: the mover is the one whose seat is to move.
    let mut mover = None;
    let mut plies = [0; 2];
    let mut legal = Vec::new();
    let mut over = false;
    for (i, player) in players.iter_mut().enumerate() {
        let ServerMessage::State(view) = next_event(&mut player.socket, "state").await? else {
            return Err(GameError::Unexpected(
                "the first message is not a state".into(),
            ));
        };
        let state = view.state;
        plies[i] = state.ply;
        over |= state.status != GameStatus::Playing;
        if state.you.is_some() && state.you == state.to_move {
            mover = Some(i);
            legal = state.legal_moves;
        }
    }
    if plies[0] != plies[1] {
        // A move was played between the two reads (one sent before a failure).
        return Err(GameError::Stale(format!(
            "the players' states are at plies {} and {}",
            plies[0], plies[1]
        )));
    }
    let ply = plies[0];
    if over {
        // Ended meanwhile (a move stored whose answer was lost ended it): nothing to play.
        legal.clear();
    }
    let mover = match mover {
        Some(mover) => mover,
        None if over => 0,
        None => {
            return Err(GameError::Unexpected(
                "neither player is to move in the initial state".into(),
            ));
        }
    };
    Ok(LiveGame {
        id,
        tokens,
        players,
        mover,
        ply,
        legal,
    })
}

/// The next JSON message from the server on `socket` (pings are answered by tungstenite),
/// within [`ANSWER_TIMEOUT`].
pub(crate) async fn next_event(
    socket: &mut Socket,
    waiting_for: &'static str,
) -> Result<ServerMessage, GameError> {
    tokio::time::timeout(ANSWER_TIMEOUT, next_message(socket))
        .await
        .map_err(|_| GameError::Timeout(waiting_for))?
}

/// The next JSON message from the server on `socket`, however long it takes.
pub(crate) async fn next_message(socket: &mut Socket) -> Result<ServerMessage, GameError> {
    loop {
        let message = socket.next().await;
        let text = match message {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Close(_))) | None => return Err(GameError::Closed),
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(GameError::Socket(e.to_string())),
        };
        return serde_json::from_str(text.as_str()).map_err(|e| {
            // serde names every expected variant: keep the start of it and of the message.
            let why: String = e.to_string().chars().take(120).collect();
            let what: String = text.as_str().chars().take(300).collect();
            GameError::Unexpected(format!("{why}…: {what}"))
        });
    }
}

/// Plays `game` until it ends or `deadline` passes, then closes its sockets. With `--verify`
/// a recoverable failure reconnects both players (on the next nodes) and play goes on.
async fn play(
    target: &Target,
    mut game: LiveGame,
    deadline: Instant,
    mean_think: Duration,
    tally: &mut Tally,
) -> Result<(), GameError> {
    // With `--verify`: when the failure being recovered from began.
    let mut failed_at: Option<Instant> = None;
    loop {
        let mut pending = None;
        let result = play_moves(
            target,
            &mut game,
            deadline,
            mean_think,
            tally,
            &mut pending,
            &mut failed_at,
        )
        .await;
        for player in &mut game.players {
            let _ = tokio::time::timeout(Duration::from_secs(1), player.socket.close(None)).await;
        }
        let error = match result {
            Ok(()) => return Ok(()),
            Err(e)
                if target.verify
                    && (e.recoverable() || (failed_at.is_some() && e.refused_as_stale())) =>
            {
                e
            }
            Err(e) => {
                if target.verify {
                    // Rare by construction: say which game, for the servers' logs.
                    eprintln!("game {} at ply {}: {e}", game.id, game.ply);
                }
                return Err(e);
            }
        };
        if Instant::now() >= deadline {
            return Ok(()); // nothing more to play in this game
        }
        failed_at.get_or_insert(pending.unwrap_or_else(Instant::now));
        count_kind(&mut tally.ridden_out, &error);
        target.note_reconnect();
        let nodes = game.players.each_ref().map(|p| p.node + 1);
        game = open_game(target, game.id, game.tokens, nodes).await?;
    }
}

/// Plays moves in `game` until it ends or `deadline` passes; `pending` is when the move
/// waiting for its event was sent, `failed_at` when the failure being recovered from (with
/// `--verify`) began, cleared by the next acknowledged move.
async fn play_moves(
    target: &Target,
    game: &mut LiveGame,
    deadline: Instant,
    mean_think: Duration,
    tally: &mut Tally,
    pending: &mut Option<Instant>,
    failed_at: &mut Option<Instant>,
) -> Result<(), GameError> {
    loop {
        if game.legal.is_empty() {
            return Ok(()); // the game is over
        }
        if !mean_think.is_zero() {
            let think = rand::rng().random_range(Duration::ZERO..=2 * mean_think);
            tokio::time::sleep(think).await;
        }
        if Instant::now() >= deadline {
            return Ok(());
        }
        let mv = game
            .legal
            .choose(&mut rand::rng())
            .expect("not empty")
            .clone();
        let text = serde_json::to_string(&ClientMessage::Move { mv: mv.clone() })
            .expect("a move serialises");
        let target_ply = game.ply + 1;
        let (left, right) = game.players.split_at_mut(1);
        let (mover, opponent) = if game.mover == 0 {
            (&mut left[0], &mut right[0])
        } else {
            (&mut right[0], &mut left[0])
        };
        let sent = Instant::now();
        *pending = Some(sent);
        mover
            .socket
            .send(Message::Text(text.into()))
            .await
            .map_err(|e| target.socket_failed(mover.node, GameError::Socket(e.to_string())))?;
        // Wait for the opponent's `move` event of this ply, watching the mover's socket for a
        // refusal meanwhile (and reading its own echo).
        let event = loop {
            tokio::select! {
                event = next_event(&mut opponent.socket, "move event") => {
                    match event.map_err(|e| target.socket_failed(opponent.node, e))? {
                        ServerMessage::Move(event) => {
                            tally.acknowledged(target, &game.id, event.state.ply, &event.mv);
                            if event.state.ply >= target_ply {
                                if event.state.ply > target_ply || !is_move(&event.mv, &mv) {
                                    return Err(GameError::Stale(format!(
                                        "sent {mv} for ply {target_ply}, ply {} is {}",
                                        event.state.ply, event.mv
                                    )));
                                }
                                break event;
                            }
                        }
                        ServerMessage::Error { code, message, .. } => return Err(refused(code, &message)),
                        _ => {}
                    }
                }
                event = next_event(&mut mover.socket, "move echo") => {
                    match event.map_err(|e| target.socket_failed(mover.node, e))? {
                        ServerMessage::Move(event) => {
                            tally.acknowledged(target, &game.id, event.state.ply, &event.mv);
                        }
                        ServerMessage::Error { code, message, .. } => return Err(refused(code, &message)),
                        _ => {}
                    }
                }
            }
        };
        let latency = sent.elapsed();
        *pending = None;
        if let Some(failed) = failed_at.take() {
            tally.recoveries.push(failed.elapsed());
        }
        tally.moves += 1;
        tally.latencies.push(latency);
        target.moved(mover.node);
        game.ply = event.state.ply;
        game.mover = 1 - game.mover;
        game.legal = if event.state.status == GameStatus::Playing {
            event.state.legal_moves
        } else {
            Vec::new()
        };
    }
}

pub(crate) fn refused(code: ErrorCode, message: &str) -> GameError {
    GameError::Refused {
        code,
        message: message.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_node_failures_are_ridden_out() {
        let status = |status| GameError::Status {
            what: "join",
            status,
            body: String::new(),
        };
        let refused = |code| refused(code, "");
        for e in [
            GameError::Closed,
            GameError::Connect("refused".into()),
            GameError::Timeout("move event"),
            GameError::LostAnswer("join"),
            GameError::Upgrade(503),
            status(502),
            status(503),
            refused(ErrorCode::StorageUnavailable),
            refused(ErrorCode::Unavailable),
        ] {
            assert!(e.recoverable(), "{e}");
        }
        for e in [
            status(409),
            status(429),
            GameError::Upgrade(403),
            refused(ErrorCode::NotYourTurn),
            GameError::Unexpected("?".into()),
        ] {
            assert!(!e.recoverable(), "{e}");
        }
        // Right after a failure a move sent before it may still be played: out of step.
        assert!(GameError::Stale("ply 7 is h2e2".into()).recoverable());
        for code in [
            ErrorCode::NotYourTurn,
            ErrorCode::IllegalMove,
            ErrorCode::GameOver,
        ] {
            assert!(refused(code).refused_as_stale());
        }
        assert!(!refused(ErrorCode::RateLimited).refused_as_stale());
        assert!(!GameError::Closed.refused_as_stale());
    }

    #[test]
    fn a_move_event_is_recognised_with_its_jieqi_reveal() {
        assert!(is_move("h2e2", "h2e2"));
        assert!(is_move("h2e2C", "h2e2"), "Jieqi: the revealed piece");
        assert!(is_move("P*5e", "P*5e"));
        assert!(!is_move("7g7f+", "7g7f"), "a promotion is another move");
        assert!(!is_move("h2e3", "h2e2"));
        assert!(!is_move("h2e2", "h2e2C"));
    }
}
