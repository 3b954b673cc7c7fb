-- Correspondence games (issue 25): a clock of N days per move (`{"days": N}`). Their actors
-- leave memory between moves, so the server cannot keep their timers: each game in progress
-- with a correspondence clock stores here the instant (ms since the Unix epoch) at which the
-- side to move loses on time, or, before both sides' first moves, at which the game is aborted.
-- It is wall-clock time: a restart does not move it. NULL for every other game and once the
-- game is over. A periodic sweep (and one at start) wakes the games whose deadline passed.
-- One file for both back ends.
ALTER TABLE games ADD COLUMN deadline_at BIGINT;

-- Any game in progress: the side (index: 0 first, 1 second) to move, so that a player's page
-- and a browser's "My games" can list the games where it is the player's turn first without
-- replaying moves. NULL once the game is over, while it waits for an opponent, and for rows
-- written before this column (until their next change).
ALTER TABLE games ADD COLUMN to_move BIGINT;

CREATE INDEX IF NOT EXISTS games_by_deadline ON games (deadline_at) WHERE deadline_at IS NOT NULL;
