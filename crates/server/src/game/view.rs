//! The view builder: what one observer (a player or a spectator) sees of a game, and the events
//! sent to subscribers, as the protocol's types.

use super::*;
use jiang_protocol::{ChatMessage, PremoveMessage, PresenceMessage, TakebackMessage};

/// What the actor tells subscribers after a change.
pub(super) enum Event {
    /// Everything changed (join): a full `state`.
    State,
    /// A move was played.
    Move(String),
    /// The game ended.
    End,
    /// The draw offer changed.
    DrawOffer,
    /// The spectator count changed.
    Spectators,
    /// A rematch was asked for or created.
    Rematch,
    /// A chat line (sent to those who may see its channel).
    Chat(jiang_protocol::ChatLine),
    /// The chat history again: to one side's sockets (its settings changed), or to everyone
    /// (`None`: a takeback was added).
    ChatHistory(Option<Side>),
    /// The takeback request changed.
    Takeback,
    /// A side's premove changed (to that side only), with the one dropped as illegal.
    Premove(Side, Option<String>),
    /// A player went away or came back.
    Presence,
}

impl Live {
    pub(super) fn clock_view(&self, now: Instant) -> Option<ClockView> {
        let clock = self.state.clock.as_ref()?;
        let snap = clock.snapshot(now);
        // Correspondence: the side to move's deadline as a date.
        let deadline = self
            .state
            .deadline()
            .map(|at| super::rows::epoch_ms_at(at, now));
        let to_move = self.state.table.turn();
        let sides = table::per_side(self.variant, |side| {
            let t = snap.side(side);
            SideClock {
                ms: t.ms,
                periods: t.periods,
                byoyomi: t.byoyomi,
                deadline: deadline.filter(|_| side == to_move),
            }
        });
        let running = snap
            .running
            .filter(|_| self.state.status == Status::Playing)
            .map(|s| self.name(s).to_owned());
        Some(ClockView { running, sides })
    }

    fn result_view(&self) -> Option<GameResult> {
        self.state
            .result
            .map(|r| super::listing::game_result(self.variant, r))
    }

    pub(super) fn spectator_count(&self) -> usize {
        self.subscribers
            .iter()
            .filter(|s| s.viewer.is_none())
            .count()
    }

    fn draw_offer_view(&self) -> Option<String> {
        self.state
            .meta
            .draw_offer
            .map(|i| self.name(side_of_index(i)).to_owned())
    }

    /// The view without the start and the move list (what a `move` event carries).
    fn state_view(&self, viewer: Option<Side>, now: Instant) -> GameState {
        let to_move = self.state.table.turn();
        let playing = self.state.status == Status::Playing;
        let legal_moves = if playing && viewer == Some(to_move) {
            self.state.table.legal_moves()
        } else {
            Vec::new()
        };
        GameState {
            id: self.id.clone(),
            variant: self.variant.name().to_owned(),
            status: self.state.status,
            fen: self.state.table.fen(),
            ply: self.ply() as u64,
            to_move: (!self.state.status.is_over()).then(|| self.name(to_move).to_owned()),
            you: viewer.map(|s| self.name(s).to_owned()),
            hints: self.state.table.hints(&legal_moves),
            legal_moves,
            clock: self.clock_view(now),
            time_control: TimeControl::display_optional(self.state.meta.control.as_ref()),
            clock_settings: self.state.meta.control.map(Into::into),
            result: self.result_view(),
            draw_offer: self.draw_offer_view(),
            spectators: self.spectator_count() as u64,
            seats: Side::BOTH
                .iter()
                .map(|&s| {
                    (
                        self.name(s).to_owned(),
                        self.state.tokens[s.index()].is_some()
                            || self.computer.is_some_and(|c| c.side == s),
                    )
                })
                .collect(),
            first_move_ms: self
                .first_move_countdown()
                // Correspondence: the side to move's clock shows its first move's deadline.
                .filter(|_| playing && !self.is_correspondence())
                .map(|d| d.saturating_duration_since(now).as_millis() as u64),
            handicap: self.setup.handicap.clone(),
            rematch: self.rematch_view(viewer),
            takeback: self
                .state
                .meta
                .takeback
                .filter(|_| playing)
                .map(|i| self.name(side_of_index(i)).to_owned()),
            premove: viewer.and_then(|s| self.comforts.premoves[s.index()].clone()),
            away: self.away_view(now),
            computer: self.computer_view(),
            rated: self.state.meta.rated,
            players: Side::BOTH
                .iter()
                .filter_map(|&s| {
                    let player = self.state.meta.players[s.index()].as_ref()?;
                    Some((self.name(s).to_owned(), player.id.clone()))
                })
                .collect(),
            tournament: self.tournament_view(),
            variant_fields: self.state.table.variant_fields(viewer),
        }
    }

    /// The tournament this game belongs to, with the sides that berserked.
    fn tournament_view(&self) -> Option<jiang_protocol::GameTournament> {
        let link = self.state.meta.tournament.as_ref()?;
        let berserked = self
            .state
            .clock
            .as_ref()
            .map_or([false; 2], Clock::berserked);
        Some(jiang_protocol::GameTournament {
            id: link.id.clone(),
            kind: link.kind,
            berserk: Side::BOTH
                .iter()
                .filter(|s| berserked[s.index()])
                .map(|&s| self.name(s).to_owned())
                .collect(),
        })
    }

    pub(super) fn view(&self, viewer: Option<Side>, now: Instant) -> GameView {
        GameView {
            initial_fen: self.state.table.initial_fen(),
            moves: self.state.table.moves().to_vec(),
            state: self.state_view(viewer, now),
        }
    }

    fn rematch_view(&self, viewer: Option<Side>) -> RematchView {
        let requested = Side::BOTH
            .into_iter()
            .filter(|s| self.state.meta.rematch[s.index()])
            .map(|s| self.name(s).to_owned())
            .collect();
        let mut r = RematchView {
            requested,
            id: self.state.meta.next.clone(),
            token: None,
            side: None,
        };
        if let (Some(me), Some(_)) = (viewer, &self.state.meta.next)
            && let Some(token) = &self.shown_tokens[me.index()]
        {
            r.token = Some(seat::rematch_token(token, &self.id));
            r.side = Some(self.name(self.rematch_side(me)).to_owned());
        }
        r
    }

    /// The `state` message for `viewer`.
    pub(super) fn view_text(&self, viewer: Option<Side>, now: Instant) -> String {
        to_sorted_json(&ServerMessage::State(self.view(viewer, now)))
    }

    /// The message `event` makes for `viewer`; `None` when it is not for that viewer.
    pub(super) fn event_text(
        &self,
        event: &Event,
        viewer: Option<Side>,
        now: Instant,
    ) -> Option<String> {
        let ply = self.ply() as u64;
        let message = match event {
            Event::State => ServerMessage::State(self.view(viewer, now)),
            Event::Move(text) => ServerMessage::Move(MoveEvent {
                mv: text.clone(),
                state: self.state_view(viewer, now),
            }),
            Event::End => ServerMessage::End(self.view(viewer, now)),
            Event::DrawOffer => ServerMessage::DrawOffer(DrawOfferMessage {
                ply,
                draw_offer: self.draw_offer_view(),
            }),
            Event::Spectators => ServerMessage::Spectators(CountMessage {
                ply,
                spectators: self.spectator_count() as u64,
            }),
            Event::Rematch => ServerMessage::Rematch(RematchMessage {
                ply,
                rematch: self.rematch_view(viewer),
            }),
            Event::Chat(line) => {
                if !self.chat_for(viewer, line) {
                    return None;
                }
                ServerMessage::Chat(ChatMessage {
                    ply,
                    line: line.clone(),
                })
            }
            Event::ChatHistory(only) => {
                if only.is_some() && *only != viewer {
                    return None;
                }
                ServerMessage::ChatHistory(self.chat_history(viewer))
            }
            Event::Takeback => ServerMessage::Takeback(TakebackMessage {
                ply,
                takeback: self
                    .state
                    .meta
                    .takeback
                    .map(|i| self.name(side_of_index(i)).to_owned()),
            }),
            Event::Premove(side, dropped) => {
                if viewer != Some(*side) {
                    return None;
                }
                ServerMessage::Premove(PremoveMessage {
                    ply,
                    premove: self.comforts.premoves[side.index()].clone(),
                    dropped: dropped.clone(),
                })
            }
            Event::Presence => ServerMessage::Presence(PresenceMessage {
                ply,
                away: self.away_view(now),
            }),
        };
        Some(to_sorted_json(&message))
    }
}
