-- One row rewritten by the store's health probe (`/healthz`): a write as small as a real one
-- can be, to learn whether a write can be committed right now.
CREATE TABLE IF NOT EXISTS store_probe (
    id BIGINT PRIMARY KEY,
    at_ms BIGINT NOT NULL
);
