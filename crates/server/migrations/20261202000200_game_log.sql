-- What a game keeps beside its moves (issue 14, live play comforts): its chat lines and the
-- takebacks made in it, in order. One table for both back ends. `kind` is `chat` (then
-- `channel` is `players` or `spectators`, `side` the speaker's side index or null for a
-- spectator, `body` the text) or `takeback` (then `side` is the requester's side index and
-- `body` the JSON `{"ply": <plies left>, "moves": [<the moves taken back>]}`).
CREATE TABLE IF NOT EXISTS game_log (
    game_id TEXT NOT NULL,
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    channel TEXT,
    side BIGINT,
    body TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
