-- One row per server node (one today; several on one PostgreSQL in a cluster): the last time
-- the node knew it was alive (`alive_at`, rewritten every second by its heartbeat) and, after a
-- graceful stop, when it stopped (`stopped_at`, null while it runs or after a crash). A restart
-- charges the side to move its think time up to this instant and refunds only the downtime.
CREATE TABLE IF NOT EXISTS nodes (
    node TEXT PRIMARY KEY,
    alive_at BIGINT NOT NULL,
    stopped_at BIGINT
);

-- The abandonment sweep looks for untimed games in progress that have not changed for a long
-- time.
CREATE INDEX IF NOT EXISTS games_by_status_updated ON games (status, updated_at);
