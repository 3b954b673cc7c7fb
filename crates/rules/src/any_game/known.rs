//! Jieqi analysis of a finished game "as one side knew it": the public game, and while the
//! line follows the game's record, that side's view at each ply (jieqi.md: a side knows the
//! covered pieces it captured, not those the other side captured). The true game is replayed
//! on the deal only to build that view; nothing else of it leaves here. A position where the
//! rules ended the game (checkmate, …) is the end, where jieqi.md reveals everything to
//! everyone: its view names every capture.

use crate::jieqi::{JieqiGame, JieqiView, Observer};
use crate::xiangqi;

use super::{RefusedMove, play_xiangqi};

/// The public game of a finished Jieqi game, with one side's knowledge while on the record.
#[derive(Clone)]
pub(super) struct Known {
    /// The public game: what is played, shown and written.
    pub(super) public: xiangqi::Game,
    /// The game on its deal, in step with `public` while the line is the game's record;
    /// `None` once the line left it (a variation: public information only, as supposed).
    truth: Option<JieqiGame>,
    /// The game on its deal at the start, for a restart.
    start: JieqiGame,
    /// The game's moves as recorded.
    record: Vec<String>,
    /// Whose knowledge this is.
    observer: Observer,
}

impl Known {
    /// A board at the start of `record` (played on `truth`, a fresh game on the deal) as
    /// `observer` knew it.
    pub(super) fn new(truth: JieqiGame, record: Vec<String>, observer: Observer) -> Known {
        Known {
            public: xiangqi::Game::new(truth.public_game().start().clone()),
            start: truth.clone(),
            truth: Some(truth),
            record,
            observer,
        }
    }

    /// The same knowledge back at the start.
    pub(super) fn restart(&self) -> Known {
        Known::new(self.start.clone(), self.record.clone(), self.observer)
    }

    /// The observer's view, while the line is the game's record.
    pub(super) fn view(&self) -> Option<JieqiView> {
        self.truth.as_ref().map(|game| game.view(self.observer))
    }

    /// Plays `text` on the public game as ply `ply + 1`; returns the text recorded.
    pub(super) fn play(&mut self, text: &str, ply: usize) -> Result<String, RefusedMove> {
        let recorded = play_xiangqi(&mut self.public, text)?;
        let on_record = self.record.get(ply) == Some(&recorded);
        // Only the public record decides whether the line still is the game: the true game
        // follows it with the move's plain text, and must record the same move.
        self.truth = self
            .truth
            .take()
            .filter(|_| on_record)
            .and_then(|mut game| {
                let plain = recorded.get(..4)?;
                let mv = game.play(plain).ok()?;
                (mv.to_string() == recorded).then_some(game)
            });
        Ok(recorded)
    }
}
