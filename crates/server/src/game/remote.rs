//! Cluster mode's side of the game actors (see `crate::cluster`): commands forwarded to the
//! node that owns a game and answered there, sockets relayed from the owner, and the
//! background upkeep (lease renewal, liveness, orphan sweep).
//!
//! A socket on node B for a game owned by node A: B subscribes to its own subject
//! `jiang.sub.B.<key>` first, then asks A (`subscribe`); A registers an ordinary subscriber
//! whose queue a pump task publishes on that subject. The actor builds each text for that
//! subscriber's observer exactly as for a local socket, so a socket never receives another
//! observer's view (Jieqi privacy), and the pump's queue is bounded like a socket's. The stream
//! ends with an empty message when A drops the subscriber; B also ends it when A falls silent
//! ([`crate::cluster::DEAD_AFTER`]), and A drops it when B does: the socket then closes with
//! 1012 and the browser reconnects (to any node) and gets a fresh `state`.

use std::net::IpAddr;

use futures_util::StreamExt;
use jiang_protocol::{ClientMessage, LobbyShare, NodeAlive, NodeReply, NodeRequest};

use super::*;
use crate::cluster::{Cluster, ForwardError};

/// Events queued for a relayed socket, as for a local one (`ws::QUEUE`).
const QUEUE: usize = 64;

/// The client message of action `action` (the form it travels in between nodes).
pub(crate) fn action_message(action: &Action) -> ClientMessage {
    match action.clone() {
        Action::Move(mv) => ClientMessage::Move { mv },
        Action::Resign => ClientMessage::Resign {},
        Action::Draw(action) => ClientMessage::Draw { action },
        Action::Abort => ClientMessage::Abort {},
        Action::Impasse => ClientMessage::Impasse {},
        Action::Rematch => ClientMessage::Rematch {},
        Action::Berserk => ClientMessage::Berserk {},
        Action::Takeback(action) => ClientMessage::Takeback { action },
        Action::Premove(mv) => ClientMessage::Premove { mv },
        Action::Claim(result) => ClientMessage::Claim { result },
        Action::ChatMute(channel, muted) => ClientMessage::ChatMute { channel, muted },
    }
}

/// The action a client message asks for; `None` for the messages that are not actions
/// (`ping`, `clock`, `chat`).
pub(crate) fn message_action(message: ClientMessage) -> Option<Action> {
    Some(match message {
        ClientMessage::Move { mv } => Action::Move(mv),
        ClientMessage::Resign {} => Action::Resign,
        ClientMessage::Draw { action } => Action::Draw(action),
        ClientMessage::Abort {} => Action::Abort,
        ClientMessage::Impasse {} => Action::Impasse,
        ClientMessage::Rematch {} => Action::Rematch,
        ClientMessage::Berserk {} => Action::Berserk,
        ClientMessage::Takeback { action } => Action::Takeback(action),
        ClientMessage::Premove { mv } => Action::Premove(mv),
        ClientMessage::Claim { result } => Action::Claim(result),
        ClientMessage::ChatMute { channel, muted } => Action::ChatMute(channel, muted),
        ClientMessage::Ping {} | ClientMessage::Clock {} | ClientMessage::Chat { .. } => {
            return None;
        }
    })
}

/// What became of a command sent to another node.
pub(super) enum Forwarded {
    /// Answered: the command's reply was sent.
    Answered,
    /// That node does not run the game (any more).
    NotOwner,
    /// That node is gone.
    Gone,
    /// It could not be reached.
    Unavailable,
}

/// Sends `reply` the answer `answer` makes (through `ok` when it is the expected kind);
/// what became of the command.
fn settle<T>(
    answer: Result<NodeReply, ForwardError>,
    reply: Reply<T>,
    ok: impl FnOnce(NodeReply) -> Option<T>,
) -> Forwarded {
    match answer {
        Err(ForwardError::Gone) => Forwarded::Gone,
        Err(ForwardError::Unavailable) => Forwarded::Unavailable,
        Ok(NodeReply::NotOwner {}) => Forwarded::NotOwner,
        Ok(NodeReply::Error {
            code,
            message,
            reason,
        }) => {
            let _ = reply.send(Err(ApiError {
                code,
                message,
                reason,
            }));
            Forwarded::Answered
        }
        Ok(other) => match ok(other) {
            Some(value) => {
                let _ = reply.send(Ok(value));
                Forwarded::Answered
            }
            None => {
                let _ = reply.send(Err(ApiError::internal("A node answered out of turn.")));
                Forwarded::Answered
            }
        },
    }
}

impl Games {
    /// Forwards `command` for game `id` to node `owner` and relays its answer into the
    /// command's reply.
    pub(super) async fn forward(
        self: &Arc<Self>,
        cluster: &Arc<Cluster>,
        owner: &str,
        id: &str,
        command: Command,
    ) -> Forwarded {
        let game = id.to_owned();
        match command {
            Command::View { token, reply } => {
                let answer = cluster
                    .request(owner, &NodeRequest::View { game, token })
                    .await;
                settle(answer, reply, |r| match r {
                    NodeReply::View { view } => Some(*view),
                    _ => None,
                })
            }
            Command::Join { player, reply } => {
                let answer = cluster
                    .request(owner, &NodeRequest::Join { game, player })
                    .await;
                settle(answer, reply, |r| match r {
                    NodeReply::Joined { joined } => Some(joined),
                    _ => None,
                })
            }
            Command::Act {
                token,
                action,
                reply,
            } => {
                let request = NodeRequest::Act {
                    game,
                    token,
                    action: action_message(&action),
                };
                let answer = cluster.request(owner, &request).await;
                settle(answer, reply, |r| match r {
                    NodeReply::View { view } => Some(*view),
                    _ => None,
                })
            }
            Command::Record { format, reply } => {
                let request = NodeRequest::Record {
                    game,
                    format: format.name().to_owned(),
                };
                let answer = cluster.request(owner, &request).await;
                settle(answer, reply, |r| match r {
                    NodeReply::Record {
                        text, file_name, ..
                    } => Some(RecordFile {
                        text,
                        content_type: format.content_type(),
                        file_name,
                    }),
                    _ => None,
                })
            }
            Command::Notation { style, reply } => {
                let request = NodeRequest::Notation {
                    game,
                    style: style.name().to_owned(),
                };
                let answer = cluster.request(owner, &request).await;
                settle(answer, reply, |r| match r {
                    NodeReply::Notation { notation } => Some(notation),
                    _ => None,
                })
            }
            Command::Chat { chat, reply } => {
                let request = NodeRequest::Chat {
                    game,
                    sub: chat.sub,
                    client: chat.client.to_string(),
                    channel: chat.channel,
                    text: chat.text,
                };
                let answer = cluster.request(owner, &request).await;
                settle(answer, reply, |r| match r {
                    NodeReply::Done {} => Some(()),
                    _ => None,
                })
            }
            Command::Finished { reply } => {
                // A finished game does not change any more: read it from the store here.
                let _ = reply.send(self.finished_from_store(id).await);
                Forwarded::Answered
            }
            Command::Subscribe { token, tx, reply } => {
                self.subscribe_remote(cluster, owner, game, token, tx, reply)
                    .await
            }
            Command::Unsubscribe { sub } => {
                cluster
                    .tell(owner, &NodeRequest::Unsubscribe { game, sub })
                    .await;
                Forwarded::Answered
            }
            Command::ClockSync { sub } => {
                cluster
                    .tell(owner, &NodeRequest::ClockSync { game, sub })
                    .await;
                Forwarded::Answered
            }
            Command::LeaseLost { .. } => Forwarded::Answered,
        }
    }

    /// A socket here subscribes to game `game` owned by `owner`: its events arrive on this
    /// node's subject for it and go into `tx`.
    async fn subscribe_remote(
        self: &Arc<Self>,
        cluster: &Arc<Cluster>,
        owner: &str,
        game: String,
        token: Option<String>,
        tx: mpsc::Sender<Arc<str>>,
        reply: Reply<u64>,
    ) -> Forwarded {
        let key = cluster.new_key();
        let subject = cluster.socket_subject(cluster.node(), key);
        let Ok(subscription) = cluster.nats().subscribe(subject).await else {
            return Forwarded::Unavailable;
        };
        let request = NodeRequest::Subscribe {
            game: game.clone(),
            token,
            node: cluster.node().to_owned(),
            key,
        };
        let answer = cluster.request(owner, &request).await;
        let sub = match &answer {
            Ok(NodeReply::Subscribed { sub }) => Some(*sub),
            _ => None,
        };
        let forwarded = settle(answer, reply, |r| match r {
            NodeReply::Subscribed { sub } => Some(sub),
            _ => None,
        });
        if let Some(sub) = sub {
            cluster.relay_opened(&game, sub, owner);
            tokio::spawn(relay(cluster.clone(), owner.to_owned(), subscription, tx));
        }
        forwarded
    }

    /// A finished game read from the store (the analysis board's, on a node that does not run
    /// its actor).
    async fn finished_from_store(&self, id: &str) -> Result<Finished, ApiError> {
        let stored = match self.store.load(id).await {
            Ok(Some(stored)) => stored,
            Ok(None) => return Err(ApiError::game_not_found(id)),
            Err(e) => return Err(store_error(id, e)),
        };
        match load_live(stored, &self.settings, Instant::now(), &[]) {
            Load::Found(live) if live.state.status.is_over() => Ok(Finished {
                table: live.state.table,
                result: live.state.result,
            }),
            Load::Found(_) => Err(ApiError::new(
                ErrorCode::GameInProgress,
                "This game is still being played: it can be analysed once it is over.",
            )),
            Load::Missing => Err(ApiError::game_not_found(id)),
            Load::Broken(_) => Err(ApiError::internal(
                "This game's stored data cannot be read.",
            )),
        }
    }

    /// Answers a command another node forwarded (`None`: this node does not run the game).
    async fn serve_request(
        self: &Arc<Self>,
        cluster: &Arc<Cluster>,
        request: NodeRequest,
    ) -> NodeReply {
        if *self.shutdown.borrow() {
            return NodeReply::NotOwner {};
        }
        match request {
            NodeRequest::View { game, token } => answer(
                self.ask_routed(
                    &game,
                    |reply| Command::View {
                        token: token.clone(),
                        reply,
                    },
                    false,
                )
                .await,
                |view| NodeReply::View {
                    view: Box::new(view),
                },
            ),
            NodeRequest::Join { game, player } => answer(
                self.ask_routed(
                    &game,
                    |reply| Command::Join {
                        player: player.clone(),
                        reply,
                    },
                    false,
                )
                .await,
                |joined| NodeReply::Joined { joined },
            ),
            NodeRequest::Act {
                game,
                token,
                action,
            } => {
                let Some(action) = message_action(action) else {
                    return bad_request("not an action");
                };
                answer(
                    self.ask_routed(
                        &game,
                        |reply| Command::Act {
                            token: token.clone(),
                            action: action.clone(),
                            reply,
                        },
                        false,
                    )
                    .await,
                    |view| NodeReply::View {
                        view: Box::new(view),
                    },
                )
            }
            NodeRequest::Record { game, format } => {
                let Some(format) = RecordFormat::from_name(&format) else {
                    return bad_request("unknown record format");
                };
                answer(
                    self.ask_routed(&game, |reply| Command::Record { format, reply }, false)
                        .await,
                    |file| NodeReply::Record {
                        text: file.text,
                        content_type: file.content_type.to_owned(),
                        file_name: file.file_name,
                    },
                )
            }
            NodeRequest::Notation { game, style } => {
                let Some(style) = NotationStyle::parse(&style) else {
                    return bad_request("unknown notation style");
                };
                answer(
                    self.ask_routed(&game, |reply| Command::Notation { style, reply }, false)
                        .await,
                    |notation| NodeReply::Notation { notation },
                )
            }
            NodeRequest::Subscribe {
                game,
                token,
                node,
                key,
            } => {
                // The asking node is alive: it just asked.
                cluster.heard(NodeAlive {
                    node: node.clone(),
                    stopping: false,
                });
                let (tx, rx) = mpsc::channel(QUEUE);
                let subscribed = self
                    .ask_routed(
                        &game,
                        |reply| Command::Subscribe {
                            token: token.clone(),
                            tx: tx.clone(),
                            reply,
                        },
                        false,
                    )
                    .await;
                drop(tx);
                if let Some(Ok(sub)) = &subscribed {
                    let subject = cluster.socket_subject(&node, key);
                    tokio::spawn(pump(
                        self.clone(),
                        cluster.clone(),
                        game,
                        *sub,
                        node,
                        subject,
                        rx,
                    ));
                }
                answer(subscribed, |sub| NodeReply::Subscribed { sub })
            }
            NodeRequest::Ping {} => NodeReply::Done {},
            NodeRequest::Unsubscribe { game, sub } => {
                self.tell(&game, Command::Unsubscribe { sub });
                NodeReply::Done {}
            }
            NodeRequest::ClockSync { game, sub } => {
                self.tell(&game, Command::ClockSync { sub });
                NodeReply::Done {}
            }
            NodeRequest::Chat {
                game,
                sub,
                client,
                channel,
                text,
            } => {
                let Ok(client) = client.parse::<IpAddr>() else {
                    return bad_request("bad client address");
                };
                let chat = ChatRequest {
                    sub,
                    client,
                    channel,
                    text,
                };
                answer(
                    self.ask_routed(
                        &game,
                        |reply| Command::Chat {
                            chat: chat.clone(),
                            reply,
                        },
                        false,
                    )
                    .await,
                    |()| NodeReply::Done {},
                )
            }
        }
    }
}

fn bad_request(what: &str) -> NodeReply {
    NodeReply::Error {
        code: ErrorCode::InvalidMessage,
        message: format!("Invalid message between nodes: {what}."),
        reason: None,
    }
}

/// The reply for a local answer (`None`: not this node's game).
fn answer<T>(result: Option<Result<T, ApiError>>, ok: impl FnOnce(T) -> NodeReply) -> NodeReply {
    match result {
        None => NodeReply::NotOwner {},
        Some(Ok(value)) => ok(value),
        Some(Err(e)) => NodeReply::Error {
            code: e.code,
            message: e.message,
            reason: e.reason,
        },
    }
}

/// Every second, from a second from now: when a relay looks at the other node's liveness.
fn liveness_checks() -> tokio::time::Interval {
    let every = Duration::from_secs(1);
    let mut ticks = tokio::time::interval_at((Instant::now() + every).into(), every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    ticks
}

/// Holder side: the owner's messages for one socket, into its queue, until the owner ends
/// the stream (an empty message), falls silent, or the socket is gone or too slow.
async fn relay(
    cluster: Arc<Cluster>,
    owner: String,
    mut subscription: async_nats::Subscriber,
    tx: mpsc::Sender<Arc<str>>,
) {
    let mut ticks = liveness_checks();
    loop {
        tokio::select! {
            message = subscription.next() => {
                let Some(message) = message else { break };
                if message.payload.is_empty() {
                    break;
                }
                let text: Arc<str> = String::from_utf8_lossy(&message.payload).into();
                if tx.try_send(text).is_err() {
                    break;
                }
            }
            _ = ticks.tick() => {
                if tx.is_closed() || !cluster.is_alive(&owner) {
                    break;
                }
            }
        }
    }
    // Dropping `tx` closes the socket (1012, reconnect) if it is still open.
    let _ = subscription.unsubscribe().await;
}

/// Owner side: one remote socket's queue, published on its subject, until the actor drops
/// it (then an empty message ends the stream) or the socket's node falls silent.
async fn pump(
    games: Arc<Games>,
    cluster: Arc<Cluster>,
    game: String,
    sub: u64,
    node: String,
    subject: String,
    mut rx: mpsc::Receiver<Arc<str>>,
) {
    let mut ticks = liveness_checks();
    loop {
        tokio::select! {
            text = rx.recv() => match text {
                Some(text) => {
                    let _ = cluster
                        .nats()
                        .publish(subject.clone(), text.as_bytes().to_vec().into())
                        .await;
                }
                None => {
                    let _ = cluster.nats().publish(subject, Vec::new().into()).await;
                    break;
                }
            },
            _ = ticks.tick() => {
                if !cluster.is_alive(&node) {
                    games.tell(&game, Command::Unsubscribe { sub });
                    break;
                }
            }
        }
    }
}

/// Starts cluster mode's background tasks: the command service, liveness (saying and
/// hearing), lease renewal and the orphan sweep. They end at shutdown (the service once
/// `closed` is set, after the actors have stopped).
pub(crate) async fn spawn_tasks(
    games: Arc<Games>,
    cluster: Arc<Cluster>,
    mut closed: watch::Receiver<bool>,
) -> Result<(), crate::cluster::ClusterError> {
    let nats = cluster.nats().clone();
    let mut commands = nats
        .subscribe(cluster.command_subject(cluster.node()))
        .await?;
    let mut alive = nats.subscribe(cluster.topic("alive")).await?;
    let mut lobby = nats.subscribe(cluster.topic("lobby")).await?;
    {
        // Weak: the service must not keep the registry (whose drop tells the shutdown that
        // every actor has stopped) alive; it answers `not_owner` once the registry is gone.
        let (games, cluster) = (Arc::downgrade(&games), cluster.clone());
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    message = commands.next() => {
                        let Some(message) = message else { break };
                        let (games, cluster) = (games.clone(), cluster.clone());
                        tokio::spawn(async move {
                            let reply = match (
                                serde_json::from_slice::<NodeRequest>(&message.payload),
                                games.upgrade(),
                            ) {
                                (Ok(request), Some(games)) => {
                                    games.serve_request(&cluster, request).await
                                }
                                (Ok(_), None) => NodeReply::NotOwner {},
                                (Err(e), _) => bad_request(&e.to_string()),
                            };
                            if let Some(to) = message.reply {
                                let payload = serde_json::to_vec(&reply).expect("serialises");
                                let _ = cluster.nats().publish(to, payload.into()).await;
                            }
                        });
                    }
                    _ = closed.changed() => break,
                }
            }
        });
    }
    {
        // Liveness and the lobby: each node says both once a second and hears the others'.
        let cluster = cluster.clone();
        let hub = games.lobby.clone();
        let mut shutdown = games.shutdown.clone();
        tokio::spawn(async move {
            let mut ticks = tokio::time::interval(crate::cluster::ALIVE_EVERY);
            loop {
                tokio::select! {
                    message = alive.next() => {
                        let Some(message) = message else { break };
                        if let Ok(heard) = serde_json::from_slice::<NodeAlive>(&message.payload) {
                            cluster.heard(heard);
                        }
                    }
                    message = lobby.next() => {
                        let Some(message) = message else { break };
                        if let Ok(share) = serde_json::from_slice::<LobbyShare>(&message.payload) {
                            hub.merge(share, cluster.node());
                        }
                    }
                    _ = ticks.tick() => {
                        cluster.say_alive(false).await;
                        let share = hub.share(cluster.node());
                        let payload = serde_json::to_vec(&share).expect("serialises");
                        let _ = cluster.nats().publish(cluster.topic("lobby"), payload.into()).await;
                    }
                    _ = shutdown.changed() => break,
                }
            }
        });
    }
    {
        let (games, cluster) = (games.clone(), cluster.clone());
        let mut shutdown = games.shutdown.clone();
        tokio::spawn(async move {
            let mut renew = tokio::time::interval(crate::cluster::RENEW_EVERY);
            renew.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let mut sweep = tokio::time::interval(crate::cluster::SWEEP_EVERY);
            sweep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = renew.tick() => match cluster.renew().await {
                        Ok(lost) => {
                            for (id, epoch) in lost {
                                tracing::warn!(game = %id, epoch, "lease lost; the game's actor stops here");
                                games.tell(&id, Command::LeaseLost { epoch });
                            }
                        }
                        Err(e) => tracing::warn!(error = %e, "leases not renewed"),
                    },
                    _ = sweep.tick() => match cluster.orphans(100).await {
                        Ok(ids) => {
                            for id in ids {
                                games.wake(&id);
                            }
                        }
                        Err(e) => tracing::warn!(error = %e, "orphan sweep failed"),
                    },
                    _ = shutdown.changed() => break,
                }
            }
        });
    }
    Ok(())
}
