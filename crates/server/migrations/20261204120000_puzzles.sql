-- Puzzles (issue 26). One file for both back ends.
--
-- A puzzle as shipped (`puzzles/*.jsonl`) or found in the server's own finished games, with its
-- Glicko-2 rating, which rated attempts move. `themes` is the theme names between spaces, with a
-- space at each end (`' mate mate_in_2 '`), so that one theme is `LIKE '% mate %'`.
-- `solution`, `proof` are JSON as in the puzzle file; the solution never leaves the server
-- before it is earned.
CREATE TABLE IF NOT EXISTS puzzles (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    position TEXT NOT NULL,
    solution TEXT NOT NULL,
    themes TEXT NOT NULL,
    proof TEXT NOT NULL,
    source TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    plays BIGINT NOT NULL,
    added_at BIGINT NOT NULL
);

CREATE INDEX IF NOT EXISTS puzzles_by_rating ON puzzles (variant, rating);

-- A player's puzzle rating per variant (players with a key; a browser without one keeps its
-- own).
CREATE TABLE IF NOT EXISTS puzzle_ratings (
    player_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    attempts BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (player_id, variant)
);

-- A player's attempt at a puzzle: one row per player and puzzle, so only the first attempt is
-- rated. `hinted` is 1 once a hint was asked; `score` (1, 0.5 with a hint, 0) and `change` are
-- set when the attempt ends (solved, a wrong move, or the solution viewed).
CREATE TABLE IF NOT EXISTS puzzle_attempts (
    player_id TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    hinted BIGINT NOT NULL,
    score DOUBLE PRECISION,
    change DOUBLE PRECISION,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (player_id, puzzle_id)
);

-- The daily puzzle of each variant: the first node to ask on a day picks it; every node reads
-- the same one.
CREATE TABLE IF NOT EXISTS puzzle_daily (
    variant TEXT NOT NULL,
    day TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    PRIMARY KEY (variant, day)
);

-- Finished games already searched for puzzles by the server's importer (the newest end time
-- seen per node-independent key `games`).
CREATE TABLE IF NOT EXISTS puzzle_scans (
    name TEXT PRIMARY KEY,
    scanned_until BIGINT NOT NULL
);
