//! The games against the computer played beside the human ones, to keep the engine threads
//! busy (not part of the report).

use std::time::Duration;

use futures_util::SinkExt;
use jiang_protocol::{ClientMessage, CreateGame, Created, GameStatus, Opponent, ServerMessage};
use rand::Rng;
use rand::seq::IndexedRandom;
use tokio_tungstenite::tungstenite::Message;

use crate::nodes::Target;

use crate::play::{GameError, Tally, next_event, next_message, refused};

/// What the games against the computer did.
#[derive(Default)]
pub(crate) struct ComputerTally {
    pub(crate) games: u64,
    pub(crate) moves: u64,
    pub(crate) errors: Tally,
}

/// How long the visitor of a game against the computer thinks before each move.
const COMPUTER_GAME_THINK: std::ops::Range<Duration> =
    Duration::from_millis(200)..Duration::from_millis(600);

/// Keeps one game against the computer going until `stop`: the visitor's side plays a random
/// legal move whenever it is to move, the computer answers in its own time. With `--verify` a
/// game that a failing node interrupts is replaced without counting an error.
pub(crate) async fn computer_slot(target: &Target, stop: &tokio::sync::Notify) -> ComputerTally {
    let mut tally = ComputerTally::default();
    let stopped = stop.notified();
    tokio::pin!(stopped);
    loop {
        tally.games += 1;
        let outcome = tokio::select! {
            outcome = computer_game(target, &mut tally.moves) => outcome,
            _ = &mut stopped => return tally,
        };
        if let Err(e) = outcome {
            if !(target.verify && e.recoverable()) {
                tally.errors.error(&e);
            }
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_secs(1)) => {}
                _ = &mut stopped => return tally,
            }
        }
    }
}

/// Plays one game against the computer to its end, counting the computer's moves.
async fn computer_game(target: &Target, moves: &mut u64) -> Result<(), GameError> {
    let body = CreateGame {
        variant: target.variant.name().to_owned(),
        opponent: Some(Opponent::Computer(target.computer_level)),
        ..CreateGame::default()
    };
    let node = target.next_number();
    let created: Created = target.post(node, "create", "/api/games", &body).await?;
    let mut player = target.connect(node, &created.id, &created.token).await?;
    let ServerMessage::State(view) = next_event(&mut player.socket, "state").await? else {
        return Err(GameError::Unexpected(
            "the first message is not a state".into(),
        ));
    };
    let mut state = view.state;
    loop {
        if state.status != GameStatus::Playing {
            let _ = player.socket.close(None).await;
            return Ok(());
        }
        if state.you.is_some() && state.you == state.to_move {
            // A short think, as a person's (a weak computer answers at once, and the server
            // limits the messages per socket).
            let think = rand::rng().random_range(COMPUTER_GAME_THINK);
            tokio::time::sleep(think).await;
            let choice = state.legal_moves.choose(&mut rand::rng()).cloned();
            if let Some(mv) = choice {
                let text =
                    serde_json::to_string(&ClientMessage::Move { mv }).expect("a move serialises");
                player
                    .socket
                    .send(Message::Text(text.into()))
                    .await
                    .map_err(|e| GameError::Socket(e.to_string()))?;
            }
        }
        // The computer may think long while its turn waits in the engine queue: no timeout.
        let event = loop {
            match next_message(&mut player.socket).await? {
                ServerMessage::Move(event) => break event.state,
                ServerMessage::End(view) => break view.state,
                ServerMessage::Error { code, message, .. } => return Err(refused(code, &message)),
                _ => {}
            }
        };
        if event.you != event.to_move {
            // Our own move's echo: wait for the computer's.
            state = event;
            continue;
        }
        *moves += 1;
        state = event;
    }
}
