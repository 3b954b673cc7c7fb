//! Tournaments (arena and Swiss): `POST /api/tournaments`, `GET /api/tournaments`,
//! `GET /api/tournaments/{id}`, `POST /api/tournaments/{id}/join`, `…/withdraw`, `…/berserk`,
//! and the tournament socket `GET /api/tournaments/{id}/ws`. The rules (scoring, tie-breaks,
//! pairing) are in `docs/tournaments.md`; standings are always derived from the stored games.

use serde::{Deserialize, Serialize};

use crate::request::TimeControlSpec;

/// The two kinds of tournaments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentKind {
    /// A fixed duration; join and leave at will; paired again as soon as a game ends.
    Arena,
    /// A fixed number of rounds; everyone plays every round, never the same opponent twice.
    Swiss,
}

/// Where a tournament stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    /// Before `starts_at`: players may join.
    Upcoming,
    /// Started: games are being paired.
    Running,
    /// Over: the standings are final.
    Finished,
}

/// `POST /api/tournaments` (with a player key): a new tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateTournament {
    /// `arena` or `swiss`.
    pub kind: TournamentKind,
    /// The variant's name.
    pub variant: String,
    /// Every game's time control (required: tournament games are timed).
    pub clock: TimeControlSpec,
    /// Arena only: its duration in minutes (1–1440).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes: Option<u32>,
    /// Swiss only: the number of rounds (1–50).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// When it starts, RFC 3339 (`2026-12-24T18:00:00Z`); absent: now. At most 30 days ahead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starts_at: Option<String>,
    /// Whether its games are rated.
    #[serde(default)]
    pub rated: bool,
}

/// A tournament as lists and views show it (also the answer to `POST /api/tournaments`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentSummary {
    /// The tournament's id.
    pub id: String,
    /// `arena` or `swiss`.
    pub kind: TournamentKind,
    /// The variant's name.
    pub variant: String,
    /// The time control of every game.
    pub clock: TimeControlSpec,
    /// Arena: the duration in minutes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes: Option<u32>,
    /// Swiss: the number of rounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// When it starts (or started), RFC 3339 UTC.
    pub starts_at: String,
    /// Arena: when pairing stops (RFC 3339 UTC); games still running then are played out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ends_at: Option<String>,
    /// When it finished (RFC 3339 UTC), once finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finished_at: Option<String>,
    /// Whether its games are rated.
    pub rated: bool,
    /// `upcoming`, `running` or `finished`.
    pub status: TournamentStatus,
    /// The public id of the player who created it (`jiang` when `scheduled`).
    pub created_by: String,
    /// Held by the server on a schedule (`--schedule`), not created by a player.
    #[serde(default, skip_serializing_if = "is_false")]
    pub scheduled: bool,
    /// How many players joined and did not withdraw.
    pub players: u32,
}

/// `GET /api/tournaments`: the newest tournaments of each status (at most 50 each).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentList {
    /// Not started yet, soonest first.
    pub upcoming: Vec<TournamentSummary>,
    /// Running, oldest start first.
    pub running: Vec<TournamentSummary>,
    /// Finished, most recent first.
    pub finished: Vec<TournamentSummary>,
}

/// One game of a player's arena score sheet or Swiss record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SheetMark {
    /// The game (absent for a Swiss bye).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// `win`, `draw`, `loss`, `bye` (Swiss) or `aborted`.
    pub outcome: String,
    /// Arena: the points the game scored (with fire and berserk); Swiss: half points (2 a win,
    /// 1 a draw).
    pub points: u32,
    /// Arena: the player was on fire (two wins in a row before) for this game.
    #[serde(default, skip_serializing_if = "is_false")]
    pub on_fire: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentStanding {
    /// The player's public id.
    pub id: String,
    /// The player's name, if set.
    pub name: Option<String>,
    /// The rank (players equal on every criterion share one).
    pub rank: u32,
    /// The score: arena points, or Swiss points (1 a win or a bye, ½ a draw).
    pub score: f64,
    /// Games played (aborted games are not counted).
    pub games: u32,
    /// Wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// Withdrawn (no longer paired; the points stay).
    #[serde(default, skip_serializing_if = "is_false")]
    pub withdrawn: bool,
    /// Arena: on fire now (the last two counted games were wins).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_fire: Option<bool>,
    /// Swiss: Buchholz (the sum of the opponents' scores).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buchholz: Option<f64>,
    /// Swiss: Sonneborn–Berger.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sonneborn_berger: Option<f64>,
    /// The games in the order they finished (arena) or by round (Swiss, with the bye).
    pub sheet: Vec<SheetMark>,
}

/// One game of a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentGame {
    /// The game's id (`/api/games/{id}`).
    pub id: String,
    /// Swiss: the round.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// The player in the first seat (public id).
    pub first: String,
    /// The player in the second seat (public id).
    pub second: String,
    /// `playing`, or once over: `first` (won), `second` (won), `draw` or `aborted`.
    pub result: String,
}

/// A Swiss bye.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentBye {
    /// The round.
    pub round: u32,
    /// The player who sat out (public id).
    pub player: String,
}

/// A tournament's whole state: what `GET /api/tournaments/{id}` carries (the socket sends it a
/// page at a time: [`TournamentPage`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentState {
    /// The tournament.
    pub tournament: TournamentSummary,
    /// Swiss: the round being played (0 before the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// Everyone who joined, best first.
    pub standings: Vec<TournamentStanding>,
    /// Every game, oldest first.
    pub games: Vec<TournamentGame>,
    /// Swiss: the byes given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub byes: Vec<TournamentBye>,
}

/// A player's own game in a tournament: the seat and its secret token, to play it through the
/// game endpoints (`Authorization: Bearer <token>`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MyTournamentGame {
    /// The game's id.
    pub id: String,
    /// The player's side name (`red`, `black`, `sente`, `gote`).
    pub side: String,
    /// The seat's secret token.
    pub token: String,
}

/// `GET /api/tournaments/{id}`: the state and, asked with a player key, that player's game in
/// progress (`null` when none, or without a key).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentView {
    /// The state.
    #[serde(flatten)]
    pub state: TournamentState,
    /// The asking player's game in progress.
    pub my_game: Option<MyTournamentGame>,
}

/// The answer to `POST /api/tournaments/{id}/join` and `…/withdraw`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentEntry {
    /// The tournament.
    pub tournament: String,
    /// The player.
    pub player: String,
    /// Whether the player is now withdrawn.
    pub withdrawn: bool,
}

/// The answer to `POST /api/tournaments/{id}/berserk`: the game berserked in, and the side.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentBerserk {
    /// The game's id.
    pub game: String,
    /// The berserking player's side name.
    pub side: String,
}

/// How many lines of the standings one page holds (the socket's `standings` message).
pub const STANDINGS_PAGE_LINES: usize = 20;

/// How many finished games of its players a page lists at most (the latest; those in progress
/// are all listed).
pub const PAGE_FINISHED_GAMES: usize = 50;

/// The socket's `standings` message: one page of the standings, and the games of that page's
/// players. A thousand players' whole state is most of a megabyte; a page is a few kilobytes,
/// whatever the size of the tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TournamentPage {
    /// The tournament.
    pub tournament: TournamentSummary,
    /// Swiss: the round being played (0 before the first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// This page, from 1.
    pub page: u32,
    /// How many pages the standings fill ([`STANDINGS_PAGE_LINES`] lines each; 1 when nobody
    /// joined yet).
    pub pages: u32,
    /// The page's lines of the standings, best first.
    pub standings: Vec<TournamentStanding>,
    /// The games of the page's players, oldest first: every one in progress, and the latest
    /// [`PAGE_FINISHED_GAMES`] finished.
    pub games: Vec<TournamentGame>,
    /// How many games of the whole tournament are in progress.
    pub playing: u32,
    /// How many games the whole tournament has had (in progress, finished or aborted).
    pub played: u32,
    /// Swiss: the byes given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub byes: Vec<TournamentBye>,
    /// The names of the players that `games` and `byes` mention but the page does not list
    /// (public id → name; players without a name are left out).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub names: std::collections::BTreeMap<String, String>,
}

/// A message of the tournament socket, server to client.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TournamentServerMessage {
    /// The page of the standings the socket follows: on connect, after every change (a join, a
    /// withdrawal, a pairing, a game's end, the start, the finish), and in answer to `page`.
    Standings(Box<TournamentPage>),
    /// To the player whose key the socket was opened with: "your next game" (on connect too,
    /// when one is in progress).
    Game(MyTournamentGame),
    /// The answer to `ping`.
    Pong {},
    /// A client message refused.
    Error {
        /// The error code.
        code: crate::ErrorCode,
        /// Why, in words.
        message: String,
    },
}

/// A message of the tournament socket, client to server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum TournamentClientMessage {
    /// Keep-alive; answered with `pong`.
    Ping {},
    /// Follow page `page` of the standings (from 1; past the last: the last), or without it
    /// the page where the socket's player stands (the first for a watcher), as on connect.
    /// Answered with that page's `standings`.
    Page {
        /// The page, from 1.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        page: Option<u32>,
    },
}
