//! Game clocks: a pure state machine fed with explicit instants (see
//! `../shared/rules/clocks-and-games.md`).
