-- Tournaments (issue 25): arenas and Swiss tournaments. One file for both back ends.
--
-- Standings and pairings are never stored: they are derived from the games linked here (their
-- results read from `games`) by the pure `jiang-tournament` crate, so a restart loses no point
-- and pairs nobody twice.
--
-- `kind` is `arena` or `swiss`; `clock` the time control as the API's JSON; `minutes` (arena)
-- or `rounds` (Swiss); `status` is `upcoming`, `running` or `finished`; times are milliseconds
-- since the Unix epoch.
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    variant TEXT NOT NULL,
    clock TEXT NOT NULL,
    minutes BIGINT,
    rounds BIGINT,
    starts_at BIGINT NOT NULL,
    rated BIGINT NOT NULL,
    created_by TEXT NOT NULL,
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    finished_at BIGINT
);

CREATE INDEX IF NOT EXISTS tournaments_by_status ON tournaments (status, starts_at);

-- Who joined which tournament; `withdrawn` is 1 after a withdrawal (joining again sets it back
-- to 0). A withdrawn player keeps their points and is no longer paired.
CREATE TABLE IF NOT EXISTS tournament_entries (
    tournament_id TEXT NOT NULL,
    player_id TEXT NOT NULL,
    joined_at BIGINT NOT NULL,
    withdrawn BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, player_id)
);

-- Each tournament game, written in the transaction that creates the game: its players by seat,
-- the Swiss round (NULL in an arena), berserk flags per seat, and the seats' tokens, which the
-- paired players fetch with their player key (`my_game`). `ended_at` is set once the pairing
-- loop has seen the game end (the game's own last change then): the arena's order of games.
CREATE TABLE IF NOT EXISTS tournament_games (
    game_id TEXT PRIMARY KEY,
    tournament_id TEXT NOT NULL,
    round BIGINT,
    first_player TEXT NOT NULL,
    second_player TEXT NOT NULL,
    token_first TEXT NOT NULL,
    token_second TEXT NOT NULL,
    berserk_first BIGINT NOT NULL,
    berserk_second BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    ended_at BIGINT
);

CREATE INDEX IF NOT EXISTS tournament_games_by_tournament
    ON tournament_games (tournament_id, created_at);

-- Swiss byes: one per round at most, written with the round's games.
CREATE TABLE IF NOT EXISTS tournament_byes (
    tournament_id TEXT NOT NULL,
    round BIGINT NOT NULL,
    player_id TEXT NOT NULL,
    PRIMARY KEY (tournament_id, round)
);
