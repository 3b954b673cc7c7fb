-- Players without accounts (issue 24). One file for both back ends.
--
-- A player is a public id and a secret key the browser holds; only the key's SHA-256 (hex) is
-- stored. `name_key` is the name after NFKC and Unicode case folding: names are unique by it.
-- Deleting a player clears its key and name and sets `deleted_at`; its games stay.
CREATE TABLE IF NOT EXISTS players (
    id TEXT PRIMARY KEY,
    key_hash TEXT UNIQUE,
    name TEXT,
    name_key TEXT UNIQUE,
    created_at BIGINT NOT NULL,
    deleted_at BIGINT
);

-- One Glicko-2 rating per player, variant and speed (`realtime`, `correspondence`), changed only
-- in the transaction that stores the end of a rated game.
CREATE TABLE IF NOT EXISTS ratings (
    player_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    speed TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (player_id, variant, speed)
);

CREATE INDEX IF NOT EXISTS ratings_by_board ON ratings (variant, speed, rating);

-- Each rating after each rated game (the player page's graph). One row per player and game:
-- a game can never be rated twice.
CREATE TABLE IF NOT EXISTS rating_history (
    player_id TEXT NOT NULL,
    game_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    speed TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    change DOUBLE PRECISION NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (player_id, game_id)
);

-- Which player holds which seat of which game (written with the seat), and whether the game is
-- rated (0 or 1).
CREATE TABLE IF NOT EXISTS player_games (
    game_id TEXT NOT NULL,
    side BIGINT NOT NULL,
    player_id TEXT NOT NULL,
    rated BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, side)
);

CREATE INDEX IF NOT EXISTS player_games_by_player ON player_games (player_id, created_at);
