-- The runs of each server node (one node today; several on one PostgreSQL in a cluster, each
-- with its own key): when a run started (its clocks resumed), the last time it knew it was
-- alive (`alive_at`, rewritten every second by its heartbeat) and, after a graceful stop, when
-- it stopped (`stopped_at`; null while it runs or after a crash). A restart charges the side to
-- move its think time in the runs since the game's last stored snapshot and refunds only the
-- downtime between runs. Runs that ended before every resumed game's snapshot are deleted.
CREATE TABLE IF NOT EXISTS node_runs (
    node TEXT NOT NULL,
    started_at BIGINT NOT NULL,
    alive_at BIGINT NOT NULL,
    stopped_at BIGINT,
    PRIMARY KEY (node, started_at)
);

-- The abandonment sweep looks for untimed games in progress that have not changed for a long
-- time.
CREATE INDEX IF NOT EXISTS games_by_status_updated ON games (status, updated_at);
