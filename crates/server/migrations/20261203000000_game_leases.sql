-- Cluster mode (`jiang serve --cluster`, PostgreSQL only; the table stays empty on SQLite):
-- which node runs each live game's actor. A node takes a game's lease when it starts its actor
-- (free, expired, or its own), renews every lease it holds in one statement every second
-- (`expires_at` = now + 5 s, in ms since the Unix epoch) and releases it (`expires_at = 0`)
-- when the actor stops. `epoch` grows by one at every take: it is the fencing token. Every write
-- of a game's change runs, in the same transaction, an UPDATE of this row that requires the
-- owner and the epoch the actor started with, so a node that lost the lease (expired while it
-- was paused, or taken over) can never write over its successor.
CREATE TABLE IF NOT EXISTS game_leases (
    game_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE INDEX IF NOT EXISTS game_leases_by_owner ON game_leases (owner);
