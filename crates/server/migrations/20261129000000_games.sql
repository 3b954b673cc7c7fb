-- Jiang's schema. One file for both back ends (SQLite and PostgreSQL): only types and syntax
-- that both accept (TEXT, BIGINT, ON CONFLICT ... DO UPDATE).

-- One row per game. Secrets are stored hashed (seat tokens: SHA-256 hex) or kept server-side
-- (`setup` holds the Jieqi deal and salt; it is never sent to a client before the end).
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    setup TEXT NOT NULL,
    status TEXT NOT NULL,
    token_first TEXT,
    token_second TEXT,
    result TEXT,
    clock TEXT,
    meta TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE INDEX IF NOT EXISTS games_by_status ON games (status);

-- Every accepted move, in order. `clock` is the clock snapshot right after the move.
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL,
    ply BIGINT NOT NULL,
    mv TEXT NOT NULL,
    clock TEXT,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
