//! Messages between the nodes of a cluster (`jiang serve --cluster nats://…`), carried by NATS
//! as JSON. Clients never see them; they are typed here like every other wire format.
//!
//! Subjects (`jiang` is the default `--cluster-name`, which sites sharing one NATS server set
//! apart; `<node>` is a node id, `<key>` a number chosen by the node that holds a socket):
//!
//! | subject | payload | who publishes → who listens |
//! |---|---|---|
//! | `jiang.node.<node>.cmd` | [`NodeRequest`], answered (request/reply) with [`NodeReply`] | any node → the owner of a game |
//! | `jiang.sub.<node>.<key>` | one [`crate::ServerMessage`] (the exact text of one socket's view), or an empty payload: the end of the stream | the owner of a game → the node holding that one socket |
//! | `jiang.alive` | [`NodeAlive`], every second | every node → every node |
//! | `jiang.lobby` | [`LobbyShare`], on change and every second | every node → every node |
//!
//! Jieqi privacy: a socket's events travel on that socket's own subject only, built by the owner
//! for that socket's observer; no subject carries another observer's view.

use serde::{Deserialize, Serialize};

use crate::{
    ChatChannel, ClientMessage, ErrorCode, ErrorReason, GameView, Joined, LiveGame, NotationList,
    Seek,
};

/// A command for a game, sent to the node that owns it (`jiang.node.<owner>.cmd`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum NodeRequest {
    /// The view of the seat `token` holds (none: a spectator's). Answer: [`NodeReply::View`].
    View {
        /// The game.
        game: String,
        /// The seat token shown, if any.
        token: Option<String>,
    },
    /// Take the free seat. Answer: [`NodeReply::Joined`].
    Join {
        /// The game.
        game: String,
        /// The public id of the joining player, if it gave a player key.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
    },
    /// A player's action (one of the WebSocket's action messages). Answer: [`NodeReply::View`].
    Act {
        /// The game.
        game: String,
        /// The seat token shown, if any.
        token: Option<String>,
        /// The action.
        action: ClientMessage,
    },
    /// A record download. Answer: [`NodeReply::Record`].
    Record {
        /// The game.
        game: String,
        /// The format (`pgn`, `pgn-wxf`, `pgn-chinese`, `kif`, `ki2`, `csa`, `fen`, `sfen`).
        format: String,
    },
    /// The move list in a notation. Answer: [`NodeReply::Notation`].
    Notation {
        /// The game.
        game: String,
        /// The notation style's API name.
        style: String,
    },
    /// A socket on node `node` subscribes: its events go to `jiang.sub.<node>.<key>`.
    /// Answer: [`NodeReply::Subscribed`].
    Subscribe {
        /// The game.
        game: String,
        /// The seat token shown, if any.
        token: Option<String>,
        /// The node holding the socket.
        node: String,
        /// The socket's key on that node.
        key: u64,
    },
    /// The socket of subscription `sub` closed (no answer).
    Unsubscribe {
        /// The game.
        game: String,
        /// The owner's subscription id.
        sub: u64,
    },
    /// The socket of subscription `sub` asks for the clock (no answer; the clock goes to its
    /// subject).
    ClockSync {
        /// The game.
        game: String,
        /// The owner's subscription id.
        sub: u64,
    },
    /// Are you there? Answer: [`NodeReply::Done`] (sent after a command timed out: "no
    /// responders" then means the node is gone).
    Ping {},
    /// A chat line from the socket of subscription `sub`. Answer: [`NodeReply::Done`].
    Chat {
        /// The game.
        game: String,
        /// The owner's subscription id.
        sub: u64,
        /// The client's address (the chat's per-address limits).
        client: String,
        /// The channel.
        channel: ChatChannel,
        /// The text.
        text: String,
    },
}

/// The owner's answer to a [`NodeRequest`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum NodeReply {
    /// A view (after `view` or `act`).
    View {
        /// The view.
        view: Box<GameView>,
    },
    /// The seat taken.
    Joined {
        /// The seat.
        joined: Joined,
    },
    /// A record file.
    Record {
        /// Its text.
        text: String,
        /// Its content type.
        content_type: String,
        /// The download's file name.
        file_name: String,
    },
    /// The move list.
    Notation {
        /// The list.
        notation: NotationList,
    },
    /// Subscribed: the owner's subscription id (for `unsubscribe`, `clock_sync`, `chat`).
    Subscribed {
        /// The id.
        sub: u64,
    },
    /// Done, nothing to say (a chat line).
    Done {},
    /// This node does not run the game (its lease is another node's): ask again.
    NotOwner {},
    /// The command was refused, as it would have been on the owner's own API.
    Error {
        /// The code.
        code: ErrorCode,
        /// The sentence for a person.
        message: String,
        /// The rules' reason, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<ErrorReason>,
    },
}

/// A tournament's news shared on `jiang.tournament`: the pairing loop runs on one node, the
/// players' tournament sockets on any; every node hands what another node shares to its own
/// sockets of that tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentShare {
    /// The node that shares it (it told its own sockets already).
    pub node: String,
    /// The tournament.
    pub tournament: String,
    /// What happened.
    pub news: TournamentNews,
}

/// What a [`TournamentShare`] says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum TournamentNews {
    /// The tournament's new state: each node cuts it into the pages its sockets follow.
    Standings {
        /// The whole state.
        state: Box<crate::TournamentState>,
    },
    /// The socket's `game` message ("your next game"), for `player`'s sockets only.
    Paired {
        /// The player's public id.
        player: String,
        /// The message text.
        message: String,
    },
    /// A join, a withdrawal or a new tournament: the node running the pairing looks at once.
    Wake {},
}

/// A node's heartbeat on `jiang.alive`: a node not heard from for a few seconds is taken for
/// gone (its relays close so that sockets reconnect elsewhere).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeAlive {
    /// The node's id.
    pub node: String,
    /// `true` in its last message before a graceful stop.
    #[serde(default)]
    pub stopping: bool,
}

/// What one node contributes to the lobby (`jiang.lobby`): every node lists the seeks and games
/// it knows of plus those the other nodes share.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LobbyShare {
    /// The node's id.
    pub node: String,
    /// Its open seeks.
    pub seeks: Vec<Seek>,
    /// Its open seeks' seat-token hashes (SHA-256, hex), by id: another node's lobby socket
    /// may hold a seek with its token (`hold`).
    #[serde(default)]
    pub seats: std::collections::BTreeMap<String, String>,
    /// Seeks (its own or another node's) whose creator's page is there now: a lobby socket
    /// holds it or a socket is open on the creator's seat.
    #[serde(default)]
    pub held: Vec<String>,
    /// Other nodes' seeks whose game started or ended there lately: their nodes drop them.
    #[serde(default)]
    pub taken: Vec<String>,
    /// The games in play whose actors run there and may be listed.
    pub games: Vec<LiveGame>,
    /// Games in play there, listed or not.
    pub playing: u64,
    /// Its open WebSockets.
    pub players: u64,
}
