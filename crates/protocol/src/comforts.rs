//! The comforts of live play: chat, takebacks, premoves and the opponent's presence (requests,
//! the view's parts and the WebSocket events).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// A chat channel of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChatChannel {
    /// The two players (spectators never see it).
    Players,
    /// The spectators (players see it too unless they hide it).
    Spectators,
}

impl ChatChannel {
    /// Both channels.
    pub const BOTH: [ChatChannel; 2] = [ChatChannel::Players, ChatChannel::Spectators];

    /// The API name (`players`, `spectators`).
    pub const fn name(self) -> &'static str {
        match self {
            ChatChannel::Players => "players",
            ChatChannel::Spectators => "spectators",
        }
    }

    /// The channel named `name`, if any.
    pub fn parse(name: &str) -> Option<ChatChannel> {
        ChatChannel::BOTH.into_iter().find(|c| c.name() == name)
    }

    /// 0 for `players`, 1 for `spectators`.
    pub const fn index(self) -> usize {
        match self {
            ChatChannel::Players => 0,
            ChatChannel::Spectators => 1,
        }
    }
}

/// One line of a game's chat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatLine {
    /// Its number in the game's history (1 for the first line or takeback noted).
    pub seq: u64,
    /// The channel it was said in.
    pub channel: ChatChannel,
    /// The side name of the player who said it; `null` for a spectator.
    pub from: Option<String>,
    /// The text, exactly as sent (plain text: clients show it as text, never as markup).
    pub text: String,
    /// When it was said, milliseconds since the Unix epoch.
    pub at_ms: i64,
}

/// A takeback made in a game, as its history keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakebackNote {
    /// Its number in the game's history (shared with the chat lines).
    pub seq: u64,
    /// The side name of the player who asked for it.
    pub by: String,
    /// Plies left after it.
    pub ply: u64,
    /// The moves taken back, as they were recorded.
    pub moves: Vec<String>,
    /// The same moves in each notation style of the variant's family, by style name (`wxf`,
    /// `chinese`, `chinese-traditional`, `iccs`; `japanese`, `western`, `western-letters`,
    /// `usi`), so that a page shows them in its reader's notation (empty for a takeback stored
    /// before the server wrote them).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub names: std::collections::BTreeMap<String, Vec<String>>,
    /// When it was accepted, milliseconds since the Unix epoch.
    pub at_ms: i64,
}

/// A player's chat settings in one game (stored with the game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatMuted {
    /// The players' channel is off for this player: it neither receives nor sends there.
    pub players: bool,
    /// The spectators' channel is hidden from this player.
    pub spectators: bool,
}

/// `chat_history`: the chat this viewer may see, sent after `state` when a socket subscribes
/// and again when the viewer's chat settings change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatHistoryMessage {
    /// Plies played.
    pub ply: u64,
    /// The lines, oldest first.
    pub lines: Vec<ChatLine>,
    /// Every takeback made in the game, oldest first (everyone sees them).
    pub takebacks: Vec<TakebackNote>,
    /// For a player: its settings; `null` for a spectator.
    pub muted: Option<ChatMuted>,
}

/// `chat`: a new line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// Plies played.
    pub ply: u64,
    /// The line.
    #[serde(flatten)]
    pub line: ChatLine,
}

/// `POST /api/games/{id}/chat_mute` (and the WebSocket's `chat_mute`): a player turns a channel
/// off or on for itself in this game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChatMuteRequest {
    /// Which channel.
    pub channel: ChatChannel,
    /// Off (`true`) or on again.
    pub muted: bool,
}

/// The takeback sub-actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TakebackAction {
    /// Ask to take back your last move.
    Request,
    /// Withdraw your own request.
    Cancel,
    /// Accept the opponent's request.
    Accept,
    /// Decline the opponent's request.
    Decline,
}

/// `POST /api/games/{id}/takeback`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakebackRequest {
    /// What to do.
    pub action: TakebackAction,
}

/// `takeback`: a request was made, withdrawn or declined (an accepted one sends `state`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TakebackMessage {
    /// Plies played.
    pub ply: u64,
    /// The side whose request stands, `null` for none.
    pub takeback: Option<String>,
}

/// `POST /api/games/{id}/premove`: queue a move for your next turn, or cancel it (`null`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PremoveRequest {
    /// The move (machine notation, as for `move`); `null` cancels the queued one.
    #[serde(rename = "move")]
    pub mv: Option<String>,
}

/// `premove`: the player's queued move changed (sent to that player's sockets only).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PremoveMessage {
    /// Plies played.
    pub ply: u64,
    /// The queued move, `null` for none.
    pub premove: Option<String>,
    /// A queued move that was not legal when its turn came, and so was dropped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dropped: Option<String>,
}

/// What a player present claims once the opponent has been away for the grace period.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClaimResult {
    /// The win.
    Win,
    /// A draw (Xiangqi and Jieqi only).
    Draw,
}

/// `POST /api/games/{id}/claim`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimRequest {
    /// What is claimed.
    pub result: ClaimResult,
}

/// One absent player: no open WebSocket holds its seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AwayView {
    /// How long it has been away, in milliseconds.
    pub ms: u64,
    /// Milliseconds until the opponent may claim (0: now).
    pub claim_in_ms: u64,
}

/// `presence`: a player's last socket closed, or a player came back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PresenceMessage {
    /// Plies played.
    pub ply: u64,
    /// Per side name, the players away (absent ones are present).
    pub away: BTreeMap<String, AwayView>,
}
