-- Cluster mode (issue 25): one node at a time runs the tournaments' pairing loop, the holder of
-- the `pairing` row here. Like `game_leases`: `owner` is a node id, `epoch` is bumped at every
-- take (the fencing token every write of the loop checks), `expires_at` in milliseconds since
-- the Unix epoch (0 once released). A single node never uses it.
CREATE TABLE IF NOT EXISTS tournament_leases (
    name TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
