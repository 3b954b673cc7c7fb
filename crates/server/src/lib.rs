//! Jiang's game server: the HTTP and WebSocket API, one actor per live game, clocks and
//! storage. Built on `jiang-rules`; serves the front end in `web/`.

pub mod clock;
