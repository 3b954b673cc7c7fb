//! The comforts of live play (issue 14): the chat, takebacks, premoves and the players'
//! presence with its claims. The rules of each are in docs/api.md ("Live play comforts").

use std::collections::BTreeMap;
use std::net::IpAddr;

use jiang_protocol::{
    AwayView, ChatChannel, ChatHistoryMessage, ChatLine, ChatMuted, ClaimResult, ErrorReason,
    TakebackAction, TakebackNote,
};

use super::*;
use crate::http::ratelimit::{Bucket, Rate};
use crate::store::LogRow;

/// The longest chat line, in characters (Unicode scalar values).
pub const CHAT_MAX_CHARS: usize = 200;

/// The most chat lines a game keeps; later lines are refused (`chat_full`).
pub const CHAT_MAX_LINES: usize = 1000;

/// Chat lines per speaker (a player's seat, or a spectator's address): 5 at once, then one
/// every 2 s.
const CHAT_RATE: Rate = Rate {
    per_second: 0.5,
    burst: 5.0,
};

/// A takeback is refused while the opponent, who has to answer it, has less than this on its
/// clock (the current phase: main time, or the byo-yomi countdown).
pub const TAKEBACK_MIN_OPPONENT_MS: u64 = 20_000;

/// The longest premove text accepted (machine notation is 4–5 characters).
const PREMOVE_MAX_LEN: usize = 8;

/// The longest grace period before a claim against an absent player.
const GRACE_MAX: Duration = Duration::from_secs(120);

/// How long a player must have been away before the opponent may claim: a tenth of the
/// game's expected length per side (main time + 40 × (increment + byo-yomi)), at least
/// `floor` and at most 120 s; 120 s for an untimed game.
pub fn claim_grace(control: Option<&TimeControl>, floor: Duration) -> Duration {
    let Some(c) = control else {
        return GRACE_MAX.max(floor);
    };
    let expected = c.main + (c.increment + c.byoyomi) * 40;
    (expected / 10).clamp(floor.min(GRACE_MAX), GRACE_MAX)
}

/// Who is speaking in a chat, for its rate limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Speaker {
    Seat(Side),
    Spectator(IpAddr),
}

/// The in-memory part of the comforts: the log (chat and takebacks, as stored), the premoves
/// (held here only: a restart drops them), the presence and the chat rate limits.
#[derive(Default)]
pub(super) struct Comforts {
    pub(super) log: Vec<LogRow>,
    pub(super) premoves: [Option<String>; 2],
    /// Since when each side has had no open WebSocket (`None`: present).
    pub(super) away_since: [Option<Instant>; 2],
    pub(super) chat_buckets: HashMap<Speaker, Bucket>,
}

impl Comforts {
    /// The comforts of a game loaded at `now` with its stored `log`: both players count as away
    /// until their sockets subscribe.
    pub(super) fn loaded(log: Vec<LogRow>, now: Instant) -> Comforts {
        Comforts {
            log,
            away_since: [Some(now); 2],
            ..Comforts::default()
        }
    }

    fn chat_lines(&self) -> usize {
        self.log.iter().filter(|l| l.kind == "chat").count()
    }

    fn next_seq(&self) -> i64 {
        self.log.last().map_or(1, |l| l.seq + 1)
    }
}

/// A stored chat row as the protocol's line (`None` for other entries).
fn chat_line(variant: Variant, row: &LogRow) -> Option<ChatLine> {
    if row.kind != "chat" {
        return None;
    }
    Some(ChatLine {
        seq: row.seq as u64,
        channel: ChatChannel::parse(row.channel.as_deref()?)?,
        from: row
            .side
            .map(|i| variant.side_name(side_of_index(i as usize)).to_owned()),
        text: row.body.clone(),
        at_ms: row.at_ms,
    })
}

/// The body of a stored takeback entry.
#[derive(Serialize, Deserialize)]
struct TakebackBody {
    ply: u64,
    moves: Vec<String>,
    /// The moves in each notation style of the family, by style name (absent in takebacks
    /// stored before they were written).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    names: BTreeMap<String, Vec<String>>,
}

/// Whether `text` could be a move in machine notation (ICCS or USI): premoves are checked only
/// this far when queued, and fully by the rules when their turn comes.
fn looks_like_move(text: &str) -> bool {
    (4..=PREMOVE_MAX_LEN).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'*' || b == b'+')
}

impl Live {
    /// Whether `viewer` may see a line of `channel`.
    fn sees(&self, viewer: Option<Side>, channel: ChatChannel) -> bool {
        match (viewer, channel) {
            (None, ChatChannel::Spectators) => true,
            (None, ChatChannel::Players) => false,
            (Some(side), channel) => {
                let muted = self.state.meta.chat_muted[side.index()];
                match channel {
                    ChatChannel::Players => !muted.players,
                    ChatChannel::Spectators => !muted.spectators,
                }
            }
        }
    }

    /// The `chat_history` of `viewer`: the chat lines it may see and every takeback.
    pub(super) fn chat_history(&self, viewer: Option<Side>) -> ChatHistoryMessage {
        let lines = self
            .comforts
            .log
            .iter()
            .filter_map(|row| chat_line(self.variant, row))
            .filter(|line| self.sees(viewer, line.channel))
            .collect();
        let takebacks = self
            .comforts
            .log
            .iter()
            .filter(|row| row.kind == "takeback")
            .filter_map(|row| {
                let body: TakebackBody = serde_json::from_str(&row.body).ok()?;
                Some(TakebackNote {
                    seq: row.seq as u64,
                    by: self
                        .name(side_of_index(row.side.unwrap_or(0) as usize))
                        .to_owned(),
                    ply: body.ply,
                    moves: body.moves,
                    names: body.names,
                    at_ms: row.at_ms,
                })
            })
            .collect();
        ChatHistoryMessage {
            ply: self.ply() as u64,
            lines,
            takebacks,
            muted: viewer.map(|side| self.state.meta.chat_muted[side.index()]),
        }
    }

    /// The takebacks as the records note them, one line each.
    pub(super) fn takeback_notes(&self) -> Vec<String> {
        self.chat_history(None)
            .takebacks
            .iter()
            .map(|t| {
                format!(
                    "takeback by {}: {} (from ply {})",
                    t.by,
                    t.moves.join(" "),
                    t.ply + 1
                )
            })
            .collect()
    }

    /// A chat line for `viewer`, if it may see it.
    pub(super) fn chat_for(&self, viewer: Option<Side>, line: &ChatLine) -> bool {
        self.sees(viewer, line.channel)
    }

    /// Handles a chat line from a subscriber.
    pub(super) async fn chat(
        &mut self,
        games: &Games,
        chat: ChatRequest,
        now: Instant,
    ) -> Result<(), ApiError> {
        let ChatRequest {
            sub,
            client,
            channel,
            text,
        } = chat;
        let Some(viewer) = self
            .subscribers
            .iter()
            .find(|s| s.id == sub)
            .map(|s| s.viewer)
        else {
            return Err(ApiError::unavailable());
        };
        let chars = text.chars().count();
        if text.trim().is_empty() || chars > CHAT_MAX_CHARS || text.chars().any(char::is_control) {
            return Err(ApiError::new(
                ErrorCode::ChatInvalid,
                format!("A chat line is one line of 1 to {CHAT_MAX_CHARS} characters."),
            ));
        }
        match (viewer, channel) {
            (Some(side), ChatChannel::Players) => {
                if self.state.meta.chat_muted[side.index()].players {
                    return Err(ApiError::new(
                        ErrorCode::ChatNotAllowed,
                        "You turned the players' chat off in this game.",
                    ));
                }
            }
            (None, ChatChannel::Spectators) => {}
            (Some(_), ChatChannel::Spectators) => {
                return Err(ApiError::new(
                    ErrorCode::ChatNotAllowed,
                    "Players chat in the players' channel; the spectators' one is theirs.",
                ));
            }
            (None, ChatChannel::Players) => {
                return Err(ApiError::new(
                    ErrorCode::ChatNotAllowed,
                    "Spectators chat in the spectators' channel.",
                ));
            }
        }
        if self.comforts.chat_lines() >= CHAT_MAX_LINES {
            return Err(ApiError::new(
                ErrorCode::ChatFull,
                format!("This game's chat holds {CHAT_MAX_LINES} lines, the most it keeps."),
            ));
        }
        let speaker = viewer.map_or(
            Speaker::Spectator(crate::http::ratelimit::address_group(client)),
            Speaker::Seat,
        );
        let bucket = self
            .comforts
            .chat_buckets
            .entry(speaker)
            .or_insert_with(|| Bucket::new(CHAT_RATE, now));
        if !bucket.take(CHAT_RATE, now) {
            return Err(ApiError::new(
                ErrorCode::RateLimited,
                "Too many chat lines: wait a few seconds.",
            ));
        }
        let row = LogRow {
            game_id: self.id.clone(),
            seq: self.comforts.next_seq(),
            kind: "chat".into(),
            channel: Some(channel.name().into()),
            side: viewer.map(|s| s.index() as i64),
            body: text,
            at_ms: now_ms(),
        };
        self.store_log(games, row.clone()).await?;
        let line = chat_line(self.variant, &row).expect("a chat row");
        self.comforts.log.push(row);
        self.broadcast(Event::Chat(line), now);
        Ok(())
    }

    async fn store_log(&self, games: &Games, row: LogRow) -> Result<(), ApiError> {
        games
            .store
            .write(vec![Write::AppendLog(row)])
            .await
            .map_err(|e| store_error(&self.id, e))
    }

    /// A player turns a chat channel off or on for itself.
    pub(super) async fn chat_mute(
        &mut self,
        games: &Games,
        side: Side,
        channel: ChatChannel,
        muted: bool,
        now: Instant,
    ) -> Result<(), ApiError> {
        let mut settings: ChatMuted = self.state.meta.chat_muted[side.index()];
        match channel {
            ChatChannel::Players => settings.players = muted,
            ChatChannel::Spectators => settings.spectators = muted,
        }
        if settings == self.state.meta.chat_muted[side.index()] {
            return Ok(());
        }
        let mut next = self.state.clone();
        next.meta.chat_muted[side.index()] = settings;
        self.commit(games, next, Vec::new(), now).await?;
        self.broadcast(Event::ChatHistory(Some(side)), now);
        Ok(())
    }

    // ----- takebacks -----

    /// How many plies a takeback asked by `requester` removes: its last move, and the
    /// opponent's reply when there is one.
    fn takeback_plies(&self, requester: Side) -> usize {
        if self.state.table.turn() == requester {
            2
        } else {
            1
        }
    }

    /// Why a takeback by `requester` cannot be made now, if it cannot.
    fn takeback_refusal(&self, requester: Side, now: Instant) -> Result<usize, ApiError> {
        let plies = self.takeback_plies(requester);
        let ply = self.ply();
        // The first move of each side stays (before them, abort instead).
        if ply < plies + 2 {
            return Err(ApiError::new(
                ErrorCode::NothingToTakeBack,
                "There is no move of yours to take back (the first move of each side stays).",
            ));
        }
        let keep = ply - plies;
        if self.variant == Variant::Jieqi {
            // jieqi.md: a reveal is public at once and a captured covered piece is known to its
            // captor; taking either back would leave a face-down piece someone knows. The
            // rules define no takeback, so none of these is taken back.
            let revealed = self.state.table.moves()[keep..].iter().any(|m| m.len() > 4);
            let covered_capture = self
                .state
                .table
                .variant_fields(None)
                .captured
                .unwrap_or_default()
                .values()
                .flatten()
                .any(|c| c.was_covered && c.ply as usize > keep);
            if revealed || covered_capture {
                return Err(ApiError::new(
                    ErrorCode::TakebackHidden,
                    "Jieqi: a move that revealed or captured a face-down piece cannot be taken back.",
                ));
            }
        }
        if let Some(clock) = &self.state.clock {
            let left = clock.snapshot(now).side(!requester).ms;
            if left < TAKEBACK_MIN_OPPONENT_MS {
                return Err(ApiError::new(
                    ErrorCode::TakebackUnfair,
                    format!(
                        "Your opponent has under {} s on the clock: no takeback now.",
                        TAKEBACK_MIN_OPPONENT_MS / 1000
                    ),
                ));
            }
        }
        Ok(keep)
    }

    pub(super) async fn takeback(
        &mut self,
        games: &Games,
        side: Side,
        what: TakebackAction,
        now: Instant,
    ) -> Result<(), ApiError> {
        self.ensure_playing()?;
        self.settle_flag(games, now).await?;
        let standing = self.state.meta.takeback.map(side_of_index);
        let mut next = self.state.clone();
        match what {
            TakebackAction::Request => {
                if standing == Some(side) {
                    return Ok(());
                }
                if standing.is_some() {
                    return Err(ApiError::new(
                        ErrorCode::TakebackPending,
                        "Your opponent asked for a takeback: answer it first.",
                    ));
                }
                if self.computer.is_some_and(|c| c.side == !side) {
                    // The computer agrees to every fair takeback at once (docs/api.md); a
                    // search under way for the position taken back is dropped by the actor.
                    return self.take_back(games, side, now).await;
                }
                self.takeback_refusal(side, now)?;
                next.meta.takeback = Some(side.index());
            }
            TakebackAction::Cancel | TakebackAction::Decline => {
                let whose = if what == TakebackAction::Cancel {
                    side
                } else {
                    !side
                };
                if standing != Some(whose) {
                    return Err(no_takeback(what));
                }
                next.meta.takeback = None;
            }
            TakebackAction::Accept => {
                if standing != Some(!side) {
                    return Err(no_takeback(what));
                }
                return self.take_back(games, !side, now).await;
            }
        }
        self.commit(games, next, Vec::new(), now).await?;
        self.broadcast(Event::Takeback, now);
        Ok(())
    }

    /// Takes back `requester`'s last move (and the reply to it): the position and move list go
    /// back, the clocks keep what they show now and the requester's runs (docs/api.md,
    /// "Takebacks"), and the takeback is stored in the game's log.
    async fn take_back(
        &mut self,
        games: &Games,
        requester: Side,
        now: Instant,
    ) -> Result<(), ApiError> {
        let keep = self.takeback_refusal(requester, now)?;
        let moves = self.state.table.moves().to_vec();
        let table = AnyGame::open(self.variant, &self.setup, &moves[..keep])
            .map_err(|e| ApiError::internal(e.to_string()))?;
        let mut next = self.state.clone();
        next.table = table;
        next.move_at_ms.truncate(keep);
        next.meta.takeback = None;
        next.meta.draw_offer = None;
        if let Some(clock) = &mut next.clock {
            clock.start(requester, now);
        }
        let row = LogRow {
            game_id: self.id.clone(),
            seq: self.comforts.next_seq(),
            kind: "takeback".into(),
            channel: None,
            side: Some(requester.index() as i64),
            body: serde_json::to_string(&TakebackBody {
                ply: keep as u64,
                moves: moves[keep..].to_vec(),
                // Named now, while the table still holds them: the moves in every notation
                // of the family (public names only: Jieqi's public game).
                names: table::NotationStyle::ALL
                    .into_iter()
                    .filter_map(|style| {
                        let all = self.state.table.notation(style).ok()?;
                        Some((style.name().to_owned(), all.get(keep..)?.to_vec()))
                    })
                    .collect(),
            })
            .expect("takeback body serialises"),
            at_ms: now_ms(),
        };
        let unit = vec![
            Write::TruncateMoves {
                game_id: self.id.clone(),
                keep: keep as i64,
            },
            Write::AppendLog(row.clone()),
        ];
        self.commit(games, next, unit, now).await?;
        self.comforts.log.push(row);
        self.comforts.premoves = [None, None];
        tracing::info!(game = %self.id, side = self.name(requester), ply = keep, "takeback");
        self.broadcast(Event::State, now);
        self.broadcast(Event::ChatHistory(None), now);
        Ok(())
    }

    // ----- premoves -----

    pub(super) fn premove(
        &mut self,
        side: Side,
        text: Option<String>,
        now: Instant,
    ) -> Result<(), ApiError> {
        self.ensure_playing()?;
        if let Some(text) = &text {
            if self.state.table.turn() == side {
                return Err(ApiError::new(
                    ErrorCode::PremoveNotAllowed,
                    "It is your turn: play the move instead of queueing it.",
                ));
            }
            if !looks_like_move(text) {
                return Err(ApiError::new(
                    ErrorCode::IllegalMove,
                    format!("Illegal move `{text}`: not a move in machine notation."),
                )
                .with_reason(Some(ErrorReason::Malformed)));
            }
        }
        self.comforts.premoves[side.index()] = text;
        self.broadcast(Event::Premove(side, None), now);
        Ok(())
    }

    /// After `mover`'s move: plays the opponent's premove at once (the same instant: no time
    /// spent beyond what the increment rules give), or drops it if it is not legal now.
    pub(super) async fn play_premove(&mut self, games: &Games, mover: Side, now: Instant) {
        let next = !mover;
        let Some(text) = self.comforts.premoves[next.index()].take() else {
            return;
        };
        if self.state.status != Status::Playing {
            self.broadcast(Event::Premove(next, None), now);
            return;
        }
        let mut played = self.play_one(games, next, &text, now).await;
        if played.is_err()
            && self.variant.family() == jiang_rules::Family::Shogi
            && !text.ends_with('+')
        {
            // A premove onto a square where the piece must promote: the promotion.
            let promoted = format!("{text}+");
            if self.state.table.legal_moves().contains(&promoted) {
                played = self.play_one(games, next, &promoted, now).await;
            }
        }
        let dropped = played.is_err().then_some(text);
        self.broadcast(Event::Premove(next, dropped), now);
    }

    // ----- presence -----

    /// The players away, for the view (empty unless playing).
    pub(super) fn away_view(&self, now: Instant) -> BTreeMap<String, AwayView> {
        // A correspondence game expects its players away: there is no claim to offer.
        if self.state.status != Status::Playing || self.is_correspondence() {
            return BTreeMap::new();
        }
        Side::BOTH
            .into_iter()
            .filter(|s| self.state.tokens[s.index()].is_some())
            .filter_map(|s| {
                let since = self.comforts.away_since[s.index()]?;
                let away = now.saturating_duration_since(since);
                Some((
                    self.name(s).to_owned(),
                    AwayView {
                        ms: floor_ms_of(away),
                        claim_in_ms: floor_ms_of(self.grace.saturating_sub(away)),
                    },
                ))
            })
            .collect()
    }

    /// A subscriber of `side` came or went: updates the side's presence and tells everyone.
    pub(super) fn presence_changed(&mut self, side: Side, now: Instant) {
        let present = self.subscribers.iter().any(|s| s.viewer == Some(side));
        let was_present = self.comforts.away_since[side.index()].is_none();
        if present == was_present {
            return;
        }
        self.comforts.away_since[side.index()] = (!present).then_some(now);
        if self.state.status == Status::Playing {
            // Against the computer the first-move countdown runs only while its person is
            // away (see `first_move_countdown`): a whole state tells everyone where it stands.
            let countdown_moved =
                self.computer.is_some() && self.state.first_move_deadline.is_some();
            let event = if countdown_moved {
                Event::State
            } else {
                Event::Presence
            };
            self.broadcast(event, now);
        }
    }

    pub(super) async fn claim(
        &mut self,
        games: &Games,
        side: Side,
        result: ClaimResult,
        now: Instant,
    ) -> Result<(), ApiError> {
        self.ensure_playing()?;
        if result == ClaimResult::Draw && !self.state.table.allows_agreed_draws() {
            return Err(ApiError::new(
                ErrorCode::DrawNotAllowed,
                "Shogi has no draws by agreement or claim: claim the win, or wait.",
            ));
        }
        self.settle_flag(games, now).await?;
        if self.is_correspondence() {
            // Days per move: being away is the rule, and the deadline ends the game.
            return Err(ApiError::new(
                ErrorCode::ClaimTooEarly,
                "In a correspondence game your opponent has until their deadline to move: \
                 there is nothing to claim (they lose on time if they miss it).",
            ));
        }
        if self.computer.is_some_and(|c| c.side == !side) {
            // The computer never leaves its seat: there is no one to claim against.
            return Err(ApiError::new(
                ErrorCode::ClaimTooEarly,
                "The computer is always here: there is nothing to claim.",
            ));
        }
        let grace = self.grace;
        let opponent_away = self.comforts.away_since[(!side).index()]
            .map(|since| now.saturating_duration_since(since));
        let me_present = self.subscribers.iter().any(|s| s.viewer == Some(side));
        // Before both first moves the first-move countdown aborts the game instead.
        match opponent_away {
            Some(away) if away >= grace && me_present && self.ply() >= 2 => {}
            _ => {
                return Err(ApiError::new(
                    ErrorCode::ClaimTooEarly,
                    format!(
                        "You may claim once your opponent has been away for {} s while you are here.",
                        grace.as_secs()
                    ),
                ));
            }
        }
        let outcome = match result {
            ClaimResult::Win => Outcome::win(side, Reason::Disconnection),
            ClaimResult::Draw => Outcome::draw(Reason::Disconnection),
        };
        self.finish(games, outcome, Vec::new(), now).await
    }
}

fn no_takeback(what: TakebackAction) -> ApiError {
    let message = match what {
        TakebackAction::Cancel => "You have not asked for a takeback.",
        _ => "Your opponent has not asked for a takeback.",
    };
    ApiError::new(ErrorCode::NoTakeback, message)
}
