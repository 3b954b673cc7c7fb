//! WebSocket messages, both ways.

use serde::{Deserialize, Serialize};

use crate::comforts::{
    ChatChannel, ChatHistoryMessage, ChatMessage, ClaimResult, PremoveMessage, PresenceMessage,
    TakebackAction, TakebackMessage,
};
use crate::error::{ErrorCode, ErrorReason};
use crate::request::DrawAction;
use crate::view::{ClockView, GameState, GameView, RematchView};

/// Client → server. The variants without fields are written `{}` so that serde refuses
/// unknown fields in them too (it ignores them for unit variants of a tagged enum).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMessage {
    /// Play a move.
    Move {
        /// The move (Jieqi: without the reveal letter).
        #[serde(rename = "move")]
        mv: String,
    },
    /// Resign.
    Resign {},
    /// Offer, accept or decline a draw.
    Draw {
        /// What to do.
        action: DrawAction,
    },
    /// Abort before both sides moved.
    Abort {},
    /// Declare impasse (shogi).
    Impasse {},
    /// Ask for a rematch.
    Rematch {},
    /// Berserk (arena tournament games, before one's first move): half the main time, no
    /// increment or byo-yomi, one more point for a win.
    Berserk {},
    /// Ask for the clock now.
    Clock {},
    /// Keep-alive; answered by `pong`.
    Ping {},
    /// Say something in a chat channel (players: `players`; spectators: `spectators`).
    Chat {
        /// The channel.
        channel: ChatChannel,
        /// The text (at most 200 characters, one line).
        text: String,
    },
    /// A player turns a chat channel off or on for itself in this game.
    ChatMute {
        /// The channel.
        channel: ChatChannel,
        /// Off (`true`) or on.
        muted: bool,
    },
    /// Request, cancel, accept or decline a takeback.
    Takeback {
        /// What to do.
        action: TakebackAction,
    },
    /// Queue a move for your next turn; `null` cancels it.
    Premove {
        /// The move, or `null`.
        #[serde(rename = "move")]
        mv: Option<String>,
    },
    /// Claim the win or a draw once the opponent has been away for the grace period.
    Claim {
        /// What is claimed.
        result: ClaimResult,
    },
}

/// Server → client. Every message but `pong` and `error` carries `ply`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMessage {
    /// On connect and when the game becomes ready: the full view.
    State(GameView),
    /// After every accepted move.
    Move(MoveEvent),
    /// When the game ends: the full view.
    End(GameView),
    /// A draw offer was made or declined.
    DrawOffer(DrawOfferMessage),
    /// The spectator count changed.
    Spectators(CountMessage),
    /// A rematch was asked for or created.
    Rematch(RematchMessage),
    /// The answer to a client `clock` message.
    Clock(ClockMessage),
    /// A new chat line.
    Chat(ChatMessage),
    /// The chat this viewer may see (after `state` on connect, and after a mute change).
    ChatHistory(ChatHistoryMessage),
    /// A takeback request was made, withdrawn or declined.
    Takeback(TakebackMessage),
    /// The player's own queued premove changed (to that player only).
    Premove(PremoveMessage),
    /// A player went away or came back.
    Presence(PresenceMessage),
    /// The answer to `ping`.
    Pong {},
    /// A client message was refused.
    Error {
        /// The code, as in HTTP errors.
        code: ErrorCode,
        /// A sentence for a person.
        message: String,
        /// `illegal_move` and `impasse_rejected` only: which rule refused it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<ErrorReason>,
    },
}

/// A `move` event: the move as recorded and the new view without `moves`/`initial_fen`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveEvent {
    /// The recorded move (Jieqi: with the reveal letter).
    #[serde(rename = "move")]
    pub mv: String,
    /// The view after it.
    #[serde(flatten)]
    pub state: GameState,
}

/// A `draw_offer` event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawOfferMessage {
    /// Plies played.
    pub ply: u64,
    /// The side whose offer stands, `null` for none.
    pub draw_offer: Option<String>,
}

/// A `spectators` event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CountMessage {
    /// Plies played.
    pub ply: u64,
    /// How many spectators are connected.
    pub spectators: u64,
}

/// A `rematch` event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RematchMessage {
    /// Plies played.
    pub ply: u64,
    /// Who asked and the next game.
    #[serde(flatten)]
    pub rematch: RematchView,
}

/// A `clock` message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockMessage {
    /// Plies played.
    pub ply: u64,
    /// The clock now (`null` without one).
    pub clock: Option<ClockView>,
}
