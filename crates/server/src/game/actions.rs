//! The actions: joining, records, moves, draws, rematches, endings, timers and handing a
//! game over, each validated, computed on a copy, stored, then applied (see `game`).

use std::time::Instant;

use jiang_rules::{Outcome, Reason, RecordClock, Side};

use jiang_protocol::PlayerRef;

use crate::error::{ApiError, ErrorCode};
use crate::seat;
use crate::store::{MoveRow, PlayerWrite, Write};
use crate::table::{self, RecordFormat, RecordInfo, Refusal};

use super::rows::{NewGame, duration_ms, seat_write};
use super::view::Event;
use super::{
    Action, DrawAction, Games, Joined, Live, RecordFile, State, Status, TIMER_RETRY, now_ms,
};

impl Live {
    /// Seats whoever asks in the free seat; `player` is its public id if it gave a player key.
    /// A rated game takes players only, and never the same player in both seats.
    pub(super) async fn join(
        &mut self,
        games: &Games,
        player: Option<String>,
        now: Instant,
    ) -> Result<Joined, ApiError> {
        if self.state.status.is_over() {
            return Err(ApiError::new(ErrorCode::GameOver, "This game is over."));
        }
        if self.computer.is_some() {
            return Err(ApiError::new(
                ErrorCode::SeatTaken,
                "The computer holds the other seat of this game; you can watch it.",
            ));
        }
        let Some(free) = Side::BOTH
            .into_iter()
            .find(|s| self.state.tokens[s.index()].is_none())
        else {
            return Err(ApiError::new(
                ErrorCode::SeatTaken,
                "Both seats of this game are taken; you can watch it.",
            ));
        };
        let range = self.state.meta.rating_range;
        if (self.state.meta.rated || range.is_some()) && player.is_none() {
            return Err(ApiError::new(
                ErrorCode::PlayerKeyRequired,
                "This game takes players only: join it with a player key.",
            ));
        }
        // The joiner as the seat shows it, with its rating now, read from the store.
        let shown = match &player {
            Some(id) => Some(self.player_shown(games, id).await?),
            None => None,
        };
        if let Some(me) = &shown {
            let other = self.state.meta.players[(!free).index()].as_ref();
            if self.state.meta.rated && other.is_some_and(|p| p.id == me.id) {
                return Err(ApiError::new(
                    ErrorCode::SamePlayer,
                    "You hold the other seat of this rated game already.",
                ));
            }
            let rating = me.rating.unwrap_or_default();
            if let Some([min, max]) = range
                && !(min..=max).contains(&rating)
            {
                return Err(ApiError::new(
                    ErrorCode::RatingOutOfRange,
                    format!("This game is for ratings {min} to {max}; yours is {rating}."),
                ));
            }
        }
        let token = seat::new_token();
        let mut next = self.state.clone();
        next.tokens[free.index()] = Some(seat::hash_token(&token));
        next.status = Status::Playing;
        next.meta.started_at = Some(now_ms());
        next.meta.players[free.index()] = shown;
        next.first_move_deadline = Some(now + self.first_move_timeout(games));
        let unit = player
            .iter()
            .map(|p| seat_write(&self.id, free.index(), p, next.meta.rated))
            .collect();
        self.commit(games, next, unit, now).await?;
        // The new player's absence counts from now, not from when the game was loaded.
        if !self.subscribers.iter().any(|s| s.viewer == Some(free)) {
            self.comforts.away_since[free.index()] = Some(now);
        }
        tracing::info!(game = %self.id, side = self.name(free), "seat taken");
        self.broadcast(Event::State, now);
        Ok(Joined {
            side: self.name(free).to_owned(),
            token,
        })
    }

    pub(super) fn record(
        &self,
        games: &Games,
        format: RecordFormat,
    ) -> Result<RecordFile, ApiError> {
        // Each move's time: from the previous move, the first from when the game started.
        let mut last = self.state.meta.started_at.unwrap_or(self.created_at);
        let move_ms = self
            .state
            .move_at_ms
            .iter()
            .map(|&at| {
                let spent = u64::try_from(at - last).unwrap_or(0);
                last = at;
                spent
            })
            .collect();
        let info = RecordInfo {
            id: self.id.clone(),
            url: format!("{}/g/{}", games.settings.public_url, self.id),
            clock: self.state.meta.control.as_ref().map(|c| RecordClock {
                main_ms: c.main.as_millis() as u64,
                increment_ms: c.increment.as_millis() as u64,
                byoyomi_ms: c.byoyomi.as_millis() as u64,
                periods: c.periods,
                days: c.days,
            }),
            move_ms,
            created_at: self.created_at,
            result: self.state.result,
            takebacks: self.takeback_notes(),
        };
        let text = self
            .state
            .table
            .record(format, &info)
            .map_err(|e| ApiError::new(ErrorCode::UnsupportedFormat, e.to_string()))?;
        Ok(RecordFile {
            text,
            content_type: format.content_type(),
            file_name: format!("jiang-{}-{}.{}", self.variant, self.id, format.extension()),
        })
    }

    pub(super) fn ensure_playing(&self) -> Result<(), ApiError> {
        match self.state.status {
            Status::Playing => Ok(()),
            Status::Waiting => Err(ApiError::new(
                ErrorCode::NotStarted,
                "The game has not started: the opponent's seat is still free.",
            )),
            Status::Ended | Status::Aborted => {
                Err(ApiError::new(ErrorCode::GameOver, "This game is over."))
            }
        }
    }

    /// If the side to move has run out of time by `now`, ends the game on time and says so.
    pub(super) async fn settle_flag(
        &mut self,
        games: &Games,
        now: Instant,
    ) -> Result<(), ApiError> {
        let flagged = self.state.clock.as_ref().and_then(|c| c.flagged(now));
        if let (Some(side), Status::Playing) = (flagged, self.state.status) {
            self.end_on_time(games, side, now).await?;
            return Err(ApiError::new(
                ErrorCode::GameOver,
                "Time ran out before this arrived: the game is over.",
            ));
        }
        Ok(())
    }

    pub(super) async fn act(
        &mut self,
        games: &Games,
        side: Side,
        action: Action,
        now: Instant,
    ) -> Result<(), ApiError> {
        match action {
            Action::Move(text) => {
                self.play_one(games, side, &text, now).await?;
                self.play_premove(games, side, now).await;
                Ok(())
            }
            Action::Resign => {
                self.ensure_playing()?;
                self.settle_flag(games, now).await?;
                self.finish(
                    games,
                    Outcome::win(!side, Reason::Resignation),
                    Vec::new(),
                    now,
                )
                .await
            }
            Action::Abort => {
                if self.state.status.is_over() {
                    return Err(ApiError::new(ErrorCode::GameOver, "This game is over."));
                }
                if self.ply() >= 2 {
                    return Err(ApiError::new(
                        ErrorCode::TooLateToAbort,
                        "Both sides have moved: the game can no longer be aborted (resign instead).",
                    ));
                }
                self.finish(games, Outcome::draw(Reason::Aborted), Vec::new(), now)
                    .await
            }
            Action::Draw(what) => self.draw(games, side, what, now).await,
            Action::Impasse => {
                self.ensure_playing()?;
                if !self.state.table.has_impasse_declaration() {
                    return Err(ApiError::new(
                        ErrorCode::ImpasseNotAllowed,
                        format!("{} has no impasse declaration.", self.variant),
                    ));
                }
                if self.state.table.turn() != side {
                    return Err(ApiError::new(
                        ErrorCode::NotYourTurn,
                        "You may declare impasse only on your turn.",
                    ));
                }
                // Condition 5: the declarer still has time (rules/shogi.md, impasse).
                self.settle_flag(games, now).await?;
                match self.state.table.declare_impasse() {
                    Ok(outcome) => self.finish(games, outcome, Vec::new(), now).await,
                    Err(why) => Err(ApiError::new(
                        ErrorCode::ImpasseRejected,
                        format!("The impasse declaration does not hold: {why}"),
                    )
                    .with_reason(why.reason())),
                }
            }
            Action::Rematch => self.rematch(games, side, now).await,
            Action::Berserk => self.berserk(games, side, now).await,
            Action::Takeback(what) => self.takeback(games, side, what, now).await,
            Action::Premove(text) => self.premove(side, text, now),
            Action::Claim(result) => self.claim(games, side, result, now).await,
            Action::ChatMute(channel, muted) => {
                self.chat_mute(games, side, channel, muted, now).await
            }
        }
    }

    /// Plays `side`'s move `text`, stores it and tells everyone.
    pub(super) async fn play_one(
        &mut self,
        games: &Games,
        side: Side,
        text: &str,
        now: Instant,
    ) -> Result<(), ApiError> {
        self.ensure_playing()?;
        if self.state.table.turn() != side {
            return Err(ApiError::new(
                ErrorCode::NotYourTurn,
                "It is not your turn.",
            ));
        }
        self.settle_flag(games, now).await?;
        let mut next = self.state.clone();
        let recorded = next.table.play(text).map_err(|e| {
            ApiError::new(
                ErrorCode::IllegalMove,
                format!("Illegal move `{text}`: {e}"),
            )
            .with_reason(e.reason())
        })?;
        let ply = next.ply();
        if let Some(clock) = &mut next.clock {
            if ply > 2 {
                if let Err(flag) = clock.press(now) {
                    // Cannot happen after settle_flag; treat as a flag anyway (the move is
                    // dropped: it was only computed on the copy).
                    self.end_on_time(games, flag.side, now).await?;
                    return Err(ApiError::new(ErrorCode::GameOver, "Your time ran out."));
                }
            } else if ply == 2 {
                // Clocks start once each side has made its first move.
                clock.start(next.table.turn(), now);
            }
        }
        next.first_move_deadline = (ply < 2).then(|| now + self.first_move_timeout(games));
        if next.meta.draw_offer == Some((!side).index()) {
            // Moving instead of answering declines the opponent's offer.
            next.meta.draw_offer = None;
        }
        // A move answers any takeback request: the opponent's is declined, one's own lapses.
        next.meta.takeback = None;
        let at_ms = now_ms();
        next.move_at_ms.push(at_ms);
        let append = Write::AppendMove(MoveRow {
            game_id: self.id.clone(),
            ply: ply as i64,
            text: recorded.clone(),
            clock: next.clock_snapshot_json(now),
            at_ms,
        });
        let ended = next.table.outcome();
        if let Some(outcome) = ended {
            next.apply_end(outcome, now);
        }
        self.commit(games, next, vec![append], now).await?;
        self.broadcast(Event::Move(recorded), now);
        if ended.is_some() {
            self.broadcast(Event::End, now);
            self.log_end();
        }
        Ok(())
    }

    pub(super) async fn draw(
        &mut self,
        games: &Games,
        side: Side,
        what: DrawAction,
        now: Instant,
    ) -> Result<(), ApiError> {
        if !self.state.table.allows_agreed_draws() {
            return Err(ApiError::new(
                ErrorCode::DrawNotAllowed,
                "Shogi has no agreed draws.",
            ));
        }
        self.ensure_playing()?;
        self.settle_flag(games, now).await?;
        let offered_by_opponent = self.state.meta.draw_offer == Some((!side).index());
        if self.computer.is_some() && what == DrawAction::Offer {
            // The computer declines at once: the offer is not recorded (see `computer`).
            return Ok(());
        }
        let mut next = self.state.clone();
        match what {
            DrawAction::Offer | DrawAction::Accept if offered_by_opponent => {
                self.finish(games, Outcome::draw(Reason::Agreement), Vec::new(), now)
                    .await
            }
            DrawAction::Offer => {
                if self.state.meta.draw_offer == Some(side.index()) {
                    return Ok(());
                }
                next.meta.draw_offer = Some(side.index());
                self.commit(games, next, Vec::new(), now).await?;
                self.broadcast(Event::DrawOffer, now);
                Ok(())
            }
            DrawAction::Accept | DrawAction::Decline if !offered_by_opponent => Err(ApiError::new(
                ErrorCode::NoDrawOffer,
                "Your opponent has not offered a draw.",
            )),
            DrawAction::Accept => unreachable!("handled above"),
            DrawAction::Decline => {
                next.meta.draw_offer = None;
                self.commit(games, next, Vec::new(), now).await?;
                self.broadcast(Event::DrawOffer, now);
                Ok(())
            }
        }
    }

    /// `side` berserks (docs/tournaments.md): in an arena's game, before its first move, with
    /// a clock that has main time. The tournament's standings read it from the game's link row,
    /// written in the same unit as the game.
    pub(super) async fn berserk(
        &mut self,
        games: &Games,
        side: Side,
        now: Instant,
    ) -> Result<(), ApiError> {
        let refused = |why: String| ApiError::new(ErrorCode::BerserkNotAllowed, why);
        let Some(tournament) = &self.state.meta.tournament else {
            return Err(refused(
                "Berserk is only for arena tournament games.".into(),
            ));
        };
        if tournament.kind != jiang_protocol::TournamentKind::Arena {
            return Err(refused(
                "Berserk is an arena's rule; a Swiss has none.".into(),
            ));
        }
        self.ensure_playing()?;
        self.settle_flag(games, now).await?;
        // Only before one's own first move: the first mover has moved from ply 1 on, the
        // other from ply 2 on.
        let ply = self.ply();
        if ply >= 2 || (ply == 1 && self.state.table.turn() != side) {
            return Err(refused(
                "Berserk is possible only before your first move.".into(),
            ));
        }
        let mut next = self.state.clone();
        let Some(clock) = &mut next.clock else {
            return Err(refused("This game has no clock.".into()));
        };
        clock
            .berserk(side)
            .map_err(|why| refused(format!("Cannot berserk: {why}.")))?;
        let link = Write::Tournament(crate::store::TournamentWrite::Berserk {
            game: self.id.clone(),
            seat: side.index(),
        });
        self.commit(games, next, vec![link], now).await?;
        self.broadcast(Event::State, now);
        Ok(())
    }

    pub(super) async fn rematch(
        &mut self,
        games: &Games,
        side: Side,
        now: Instant,
    ) -> Result<(), ApiError> {
        if self.state.meta.tournament.is_some() {
            return Err(ApiError::new(
                ErrorCode::RematchNotAllowed,
                "Tournament games have no rematch: the tournament pairs its players.",
            ));
        }
        if !self.state.status.is_over() {
            return Err(ApiError::new(
                ErrorCode::GameNotOver,
                "A rematch can be asked for once the game is over.",
            ));
        }
        if self.state.meta.next.is_some() || self.state.meta.rematch[side.index()] {
            return Ok(());
        }
        // The caller's token was just checked (and so remembered) by `seat_of`.
        let Some(token) = &self.shown_tokens[side.index()] else {
            return Err(ApiError::internal("The seat token went missing."));
        };
        let new_seat = seat::hash_token(&seat::rematch_token(token, &self.id));
        let mut next = self.state.clone();
        next.meta.rematch[side.index()] = true;
        next.meta.rematch_seats[side.index()] = Some(new_seat);
        if let Some(computer) = self.computer {
            // The computer always agrees; its seat in the rematch has no token either.
            next.meta.rematch[computer.side.index()] = true;
        }
        let mut unit = Vec::new();
        if next.meta.rematch.iter().all(|&r| r) {
            let setup = table::rematch(self.variant, &self.setup)
                .map_err(|e| ApiError::internal(e.to_string()))?;
            let mut hashes: [Option<String>; 2] = [None, None];
            let mut players: [Option<PlayerRef>; 2] = [None, None];
            for old in Side::BOTH {
                let new = self.rematch_side(old).index();
                hashes[new] = next.meta.rematch_seats[old.index()].clone();
                players[new] = next.meta.players[old.index()].clone();
            }
            let next_id = seat::new_game_id();
            let new_game = NewGame {
                variant: self.variant,
                setup,
                control: next.meta.control,
                tokens: hashes,
                open: false,
                unlisted: next.meta.unlisted,
                computer: self.computer.map(|c| c.level),
                players,
                rated: next.meta.rated,
                rating_range: None,
                tournament: None,
            };
            unit.extend(new_game.writes(&next_id));
            next.meta.next = Some(next_id);
        }
        self.commit(games, next, unit, now).await?;
        self.broadcast(Event::Rematch, now);
        Ok(())
    }

    /// Ends the game with `outcome`, stores it, tells everyone.
    pub(super) async fn finish(
        &mut self,
        games: &Games,
        outcome: Outcome,
        unit: Vec<Write>,
        now: Instant,
    ) -> Result<(), ApiError> {
        let mut next = self.state.clone();
        next.apply_end(outcome, now);
        self.commit(games, next, unit, now).await?;
        self.comforts.premoves = [None, None];
        self.broadcast(Event::End, now);
        self.log_end();
        Ok(())
    }

    /// Player `id` as a seat of this game shows it: name and rating in its variant and speed,
    /// read from the store now. A player deleted meanwhile is `401 wrong_player_key`.
    async fn player_shown(&self, games: &Games, id: &str) -> Result<PlayerRef, ApiError> {
        let speed = crate::players::speed_of(self.state.meta.control.as_ref());
        let backend = games.store.backend();
        crate::players::player_ref(&*backend, id, self.variant.name(), speed)
            .await
            .map_err(crate::players::read_error)?
            .ok_or_else(crate::players::wrong_key)
    }

    /// The write that rates the end `next` of a rated game between two players: a win, a
    /// draw or a loss (on time, by resignation, by a claim against an absent player) counts;
    /// an abandoned game does not (nor does an aborted one, which never gets here).
    pub(super) fn rating_write(&self, next: &State) -> Option<Write> {
        if !next.meta.rated {
            return None;
        }
        let [Some(first), Some(second)] = next.meta.players.clone().map(|p| p.map(|p| p.id)) else {
            return None;
        };
        let outcome = next.result?;
        if outcome.reason == Reason::Abandoned || first == second {
            return None;
        }
        let first_score = match outcome.winner {
            Some(Side::First) => 1.0,
            Some(Side::Second) => 0.0,
            None => 0.5,
        };
        Some(Write::Player(PlayerWrite::RateGame {
            game_id: self.id.clone(),
            variant: self.variant.name().to_owned(),
            speed: crate::players::speed_of(next.meta.control.as_ref()).to_owned(),
            players: [first, second],
            first_score,
            at: now_ms(),
        }))
    }

    pub(super) fn log_end(&self) {
        if let Some(r) = self.state.result {
            tracing::info!(game = %self.id, result = r.result(), reason = r.reason.name(), "game over");
        }
    }

    pub(super) async fn end_on_time(
        &mut self,
        games: &Games,
        flagged: Side,
        now: Instant,
    ) -> Result<(), ApiError> {
        let outcome = self.state.table.flag_outcome(flagged);
        self.finish(games, outcome, Vec::new(), now).await
    }

    /// The abandonment rule, checked when a game is loaded: an untimed game in progress past
    /// both first moves that nobody changed for `abandon_after` ends as `abandoned`, with no
    /// winner.
    pub(super) async fn expire_if_abandoned(&mut self, games: &Games, now: Instant) {
        let cutoff = now_ms().saturating_sub(duration_ms(games.settings.abandon_after));
        // Before both first moves the first-move countdown applies (an abort) instead.
        if self.state.status == Status::Playing
            && self.state.meta.control.is_none()
            && self.ply() >= 2
            && self.loaded_updated_at < cutoff
        {
            let _ = self
                .finish(games, Outcome::draw(Reason::Abandoned), Vec::new(), now)
                .await;
        }
    }

    /// Cluster mode, as the actor stops: at a graceful shutdown a game in play is written with
    /// its clocks as they stand (so that its next owner charges nothing more), then the lease
    /// is released so that another node may take the game at once. After a lost lease nothing
    /// is written or released; if that last write fails the lease is left to expire (the next
    /// owner then charges the clocks up to this node's last heartbeat, as after a crash).
    pub(super) async fn hand_over(&mut self, games: &Games) {
        let (Some(cluster), Some(epoch)) = (games.cluster.clone(), self.lease) else {
            return;
        };
        if self.lost {
            return;
        }
        if *games.shutdown.borrow() && self.state.status == Status::Playing {
            let state = self.state.clone();
            if self
                .commit(games, state, Vec::new(), Instant::now())
                .await
                .is_err()
            {
                return;
            }
        }
        cluster.release(&self.id, epoch).await;
    }

    pub(super) async fn on_timer(&mut self, games: &Games, now: Instant) {
        if self.state.status != Status::Playing {
            return;
        }
        let stored = if let Some(side) = self.state.clock.as_ref().and_then(|c| c.flagged(now)) {
            self.end_on_time(games, side, now).await
        } else if self.first_move_countdown().is_some_and(|d| d <= now) {
            // clocks-and-games.md: no first move within 30 s of the game being ready → abort.
            self.finish(games, Outcome::draw(Reason::Aborted), Vec::new(), now)
                .await
        } else {
            Ok(())
        };
        // The change was not applied if it could not be stored: try again a little later.
        self.timer_retry_at = stored.is_err().then(|| Instant::now() + TIMER_RETRY);
    }
}
