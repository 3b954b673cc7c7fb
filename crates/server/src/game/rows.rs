//! Persistence mapping: a game's stored row and moves ↔ its live state.

use jiang_protocol::PlayerRef;

use super::*;

/// The rest of a game's state, persisted as JSON in `games.meta`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub(super) struct Meta {
    /// The time control (none: untimed).
    #[serde(default)]
    pub(super) control: Option<TimeControl>,
    /// The side (index) that offered a draw.
    #[serde(default)]
    pub(super) draw_offer: Option<usize>,
    /// Which sides (by index) asked for a rematch.
    #[serde(default)]
    pub(super) rematch: [bool; 2],
    /// The rematch game, once created.
    #[serde(default)]
    pub(super) next: Option<String>,
    /// For each side (by index) that asked for a rematch: the hash of its seat token in the
    /// rematch game, derived from its token here (see [`seat::rematch_token`]).
    #[serde(default)]
    pub(super) rematch_seats: [Option<String>; 2],
    /// What was left of the first-move countdown when the row was written (its `updated_at`),
    /// in milliseconds, so that a restart resumes the countdown instead of restarting it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) first_move_ms: Option<u64>,
    /// When the second player joined (milliseconds since the epoch): where the first move's
    /// time in the records starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) started_at: Option<i64>,
    /// The side (index) whose takeback request stands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) takeback: Option<usize>,
    /// Each side's (by index) chat settings in this game.
    #[serde(default)]
    pub(super) chat_muted: [jiang_protocol::ChatMuted; 2],
    /// Created open to anyone (an open seek while it waited).
    #[serde(default, skip_serializing_if = "is_false")]
    pub(super) open: bool,
    /// Kept out of the lobby's "Watch" list.
    #[serde(default, skip_serializing_if = "is_false")]
    pub(super) unlisted: bool,
    /// A rated game: its end changes both players' ratings.
    #[serde(default, skip_serializing_if = "is_false")]
    pub(super) rated: bool,
    /// The player holding each seat (by side index), if it gave a key, with its name and
    /// rating as they were when it took the seat (the lobby's Watch list shows them).
    #[serde(default, skip_serializing_if = "no_players")]
    pub(super) players: [Option<PlayerRef>; 2],
    /// The ratings an opponent may have to join, `[min, max]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) rating_range: Option<[i64; 2]>,
    /// The tournament the game was paired in, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) tournament: Option<TournamentOfGame>,
}

/// The tournament a game was paired in (who berserked is the clock's to say).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TournamentOfGame {
    /// The tournament's id.
    pub id: String,
    /// `arena` or `swiss`: only an arena's players may berserk.
    pub kind: jiang_protocol::TournamentKind,
}

fn no_players(players: &[Option<PlayerRef>; 2]) -> bool {
    players.iter().all(Option::is_none)
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A result as persisted.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct StoredResult {
    pub(super) winner: Option<usize>,
    pub(super) reason: String,
}

pub(super) fn side_of_index(i: usize) -> Side {
    if i == 0 { Side::First } else { Side::Second }
}

/// Milliseconds in `d`, saturating.
pub(super) fn duration_ms(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

/// The stored result of an abandoned game: no winner, reason `abandoned`.
pub(super) fn abandoned_result() -> String {
    serde_json::to_string(&StoredResult {
        winner: None,
        reason: Reason::Abandoned.name().to_owned(),
    })
    .expect("result serialises")
}

/// The fields of a new game, before it is stored.
pub(crate) struct NewGame {
    pub variant: Variant,
    pub setup: Setup,
    pub control: Option<TimeControl>,
    /// Token hashes per side; `None` for a free seat (or the computer's).
    pub tokens: [Option<String>; 2],
    /// Open to anyone (an open seek).
    pub open: bool,
    /// Kept out of the lobby's "Watch" list.
    pub unlisted: bool,
    /// The computer's level in a game against it (it holds the seat without a token).
    pub computer: Option<u8>,
    /// The player holding each seat (by side index), if any.
    pub players: [Option<PlayerRef>; 2],
    /// A rated game.
    pub rated: bool,
    /// The ratings an opponent may have to join, `[min, max]`.
    pub rating_range: Option<[i64; 2]>,
    /// The tournament that paired it.
    pub tournament: Option<TournamentOfGame>,
}

impl NewGame {
    /// The row to store.
    pub(crate) fn row(&self, id: &str) -> GameRow {
        let now = now_ms();
        // A game against the computer starts at once.
        let both = self.tokens.iter().all(Option::is_some) || self.computer.is_some();
        GameRow {
            id: id.to_owned(),
            variant: self.variant.name().to_owned(),
            setup: serde_json::to_string(&self.setup).expect("setup serialises"),
            status: if both { "playing" } else { "waiting" }.to_owned(),
            token_first: self.tokens[0].clone(),
            token_second: self.tokens[1].clone(),
            result: None,
            clock: None,
            meta: serde_json::to_string(&Meta {
                control: self.control,
                open: self.open,
                unlisted: self.unlisted,
                rated: self.rated,
                players: self.players.clone(),
                rating_range: self.rating_range,
                tournament: self.tournament.clone(),
                // Both seats taken at creation (a tournament's pairing) or the computer's
                // game: the game starts now.
                started_at: both.then_some(now),
                ..Meta::default()
            })
            .expect("meta serialises"),
            created_at: now,
            updated_at: now,
            opponent: self.computer.map(computer::opponent_column),
            // A correspondence game created playing (a rematch, a computer's) has its first
            // move's deadline from now: the sweep finds it even if nobody ever loads it.
            deadline_at: self
                .control
                .filter(|c| both && c.is_correspondence())
                .map(|c| now.saturating_add(duration_ms(c.byoyomi))),
            to_move: None,
        }
    }

    /// The writes that store the new game `id`: its row, and a seat row per player.
    pub(crate) fn writes(&self, id: &str) -> Vec<Write> {
        let row = self.row(id);
        let mut unit = vec![Write::SaveGame(row)];
        for (side, player) in self.players.iter().enumerate() {
            if let Some(player) = player {
                unit.push(seat_write(id, side, &player.id, self.rated));
            }
        }
        unit
    }
}

/// The write that records player `player` in seat `side` (index) of game `game`.
pub(super) fn seat_write(game: &str, side: usize, player: &str, rated: bool) -> Write {
    Write::Player(PlayerWrite::Seat {
        game_id: game.to_owned(),
        side: side as i64,
        player_id: player.to_owned(),
        rated,
        at: now_ms(),
    })
}

pub(super) enum Load {
    Found(Box<Live>),
    Missing,
    Broken(String),
}

/// Builds a game's live state from its stored row as of `now`. The running clock and the
/// first-move countdown are charged the time they ran in the node's previous `runs` after the
/// row was written (its `updated_at`; see [`Games::resume_all`]). A correspondence game's run
/// on wall-clock time instead: they end at the row's `deadline_at`, downtime or not.
pub(super) fn load_live(
    stored: StoredGame,
    settings: &GameSettings,
    now: Instant,
    runs: &[clock::Run],
) -> Load {
    let row = stored.row;
    let ran = clock::ran_since(row.updated_at, runs);
    let Ok(variant) = row.variant.parse::<Variant>() else {
        return Load::Broken(format!("unknown variant {}", row.variant));
    };
    let setup: Setup = match serde_json::from_str(&row.setup) {
        Ok(s) => s,
        Err(e) => return Load::Broken(format!("setup: {e}")),
    };
    let meta: Meta = match serde_json::from_str(&row.meta) {
        Ok(m) => m,
        Err(e) => return Load::Broken(format!("meta: {e}")),
    };
    let grace = claim_grace(meta.control.as_ref(), settings.claim_grace_min);
    // Correspondence: how long before its deadline the game is (`None` when it has none).
    let correspondence = meta.control.is_some_and(|c| c.is_correspondence());
    let wall_left = row
        .deadline_at
        .filter(|_| correspondence)
        .map(|at| Duration::from_millis(u64::try_from(at.saturating_sub(now_ms())).unwrap_or(0)));
    let move_at_ms: Vec<i64> = stored.moves.iter().map(|m| m.at_ms).collect();
    let moves: Vec<String> = stored.moves.into_iter().map(|m| m.text).collect();
    let mut table = match AnyGame::open(variant, &setup, &moves) {
        Ok(t) => t,
        Err(e) => return Load::Broken(e.to_string()),
    };
    let Some(status) = Status::parse(&row.status) else {
        return Load::Broken(format!("unknown status {}", row.status));
    };
    let tokens = [row.token_first, row.token_second];
    let computer = match computer::from_row(row.opponent.as_deref(), &tokens) {
        Ok(c) => c,
        Err(why) => return Load::Broken(why),
    };
    let result = match row
        .result
        .as_deref()
        .map(serde_json::from_str::<StoredResult>)
    {
        None => None,
        Some(Ok(r)) => r.reason.parse::<Reason>().ok().map(|reason| Outcome {
            winner: r.winner.map(side_of_index),
            reason,
        }),
        Some(Err(e)) => return Load::Broken(format!("result: {e}")),
    };
    if let Some(outcome) = result {
        table.end(outcome);
    }
    let clock = meta.control.map(|control| {
        match row
            .clock
            .as_deref()
            .and_then(|c| serde_json::from_str::<ClockSnapshot>(c).ok())
        {
            Some(snapshot) => {
                // Correspondence: charge whatever brings the side to move to its deadline.
                let ran = match (wall_left, snapshot.moving) {
                    (Some(left), Some(side)) => {
                        Duration::from_millis(snapshot.side(side).ms).saturating_sub(left)
                    }
                    _ => ran,
                };
                Clock::resume(control, &snapshot, ran, now)
            }
            None => Clock::new(control),
        }
    });
    // A row from before the countdown was stored gets the whole countdown, as it used to.
    let first_move_deadline = (status == Status::Playing && moves.len() < 2).then(|| {
        if let Some(left) = wall_left {
            return now + left;
        }
        let timeout = match meta.control {
            Some(c) if c.is_correspondence() => c.byoyomi,
            _ => settings.first_move_timeout,
        };
        let left = meta.first_move_ms.map_or(timeout, Duration::from_millis);
        clock::resume_countdown(left, ran, now)
    });
    Load::Found(Box::new(Live {
        id: row.id,
        variant,
        setup,
        state: State {
            table,
            status,
            tokens,
            meta,
            clock,
            result,
            first_move_deadline,
            move_at_ms,
        },
        created_at: row.created_at,
        loaded_updated_at: row.updated_at,
        shown_tokens: [None, None],
        subscribers: Vec::new(),
        timer_retry_at: None,
        spectators: Debounce::default(),
        comforts: Comforts::loaded(stored.log, now),
        grace,
        lobby_told: None,
        computer,
        computer_retry_at: None,
        lease: None,
        lost: false,
    }))
}

impl Live {
    /// The stored row of `state` at `now`.
    pub(super) fn row(&self, state: &State, now: Instant) -> GameRow {
        let mut meta = state.meta.clone();
        meta.first_move_ms = state
            .first_move_deadline
            .filter(|_| state.status == Status::Playing)
            .map(|d| floor_ms_of(d.saturating_duration_since(now)));
        GameRow {
            id: self.id.clone(),
            variant: self.variant.name().to_owned(),
            setup: serde_json::to_string(&self.setup).expect("setup serialises"),
            status: state.status.name().to_owned(),
            token_first: state.tokens[0].clone(),
            token_second: state.tokens[1].clone(),
            result: state.result.map(|r| {
                serde_json::to_string(&StoredResult {
                    winner: r.winner.map(Side::index),
                    reason: r.reason.name().to_owned(),
                })
                .expect("result serialises")
            }),
            clock: state.clock_snapshot_json(now),
            meta: serde_json::to_string(&meta).expect("meta serialises"),
            created_at: self.created_at,
            updated_at: now_ms(),
            opponent: self.computer.map(|c| computer::opponent_column(c.level)),
            deadline_at: state.deadline().map(|at| epoch_ms_at(at, now)),
            to_move: (state.status == Status::Playing).then(|| state.table.turn().index() as i64),
        }
    }
}

/// The instant `at` in milliseconds since the Unix epoch, `now` being now.
pub(super) fn epoch_ms_at(at: Instant, now: Instant) -> i64 {
    let ahead = duration_ms(at.saturating_duration_since(now));
    let behind = duration_ms(now.saturating_duration_since(at));
    now_ms().saturating_add(ahead).saturating_sub(behind)
}
