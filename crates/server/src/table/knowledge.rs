//! Jieqi analysis of a finished game "as one side knew it": the public game, and while the
//! line follows the game's record, that side's view at each ply (jieqi.md: a side knows the
//! covered pieces it captured, not those the other side captured). The true game is replayed
//! on the deal only to build that view; nothing else of it leaves this table. A position where
//! the rules ended the game (checkmate, …) is the end, where jieqi.md reveals everything to
//! everyone: its view names every capture.

use std::collections::BTreeMap;

use jiang_protocol::{Capture, VariantFields};
use jiang_rules::jieqi::{JieqiGame, JieqiView, Observer};
use jiang_rules::variation::{Node, RecordFacts};
use jiang_rules::{Outcome, Side, Variant};

use crate::hints::{Hints, ShownPosition};
use crate::table::{
    NotationStyle, PlayError, RecordError, RecordFormat, RecordInfo, Table, TreeExportError,
    WrongFamily, forward, jieqi_captures, jieqi_unseen,
};

/// The public game of a finished Jieqi game, with one side's knowledge while on the record.
pub(crate) struct KnownTable {
    /// The public game: what is played, shown and written.
    public: Box<dyn Table>,
    /// The game on its deal, in step with `public` while the line is the game's record;
    /// `None` once the line left it (a variation: public information only, as supposed).
    truth: Option<JieqiGame>,
    /// The game on its deal at the start, for [`Table::restart`].
    start: JieqiGame,
    /// The game's moves as recorded.
    record: Vec<String>,
    /// Whose knowledge this is.
    observer: Observer,
}

impl KnownTable {
    /// A board at the start of `record` (played on `truth`, a fresh game on the deal) as
    /// `observer` knew it; `public` is the public game at the same start.
    pub(crate) fn new(
        public: Box<dyn Table>,
        truth: JieqiGame,
        record: Vec<String>,
        observer: Observer,
    ) -> KnownTable {
        KnownTable {
            public,
            start: truth.clone(),
            truth: Some(truth),
            record,
            observer,
        }
    }

    /// The observer's view, while the line is the game's record.
    fn view(&self) -> Option<JieqiView> {
        self.truth.as_ref().map(|game| game.view(self.observer))
    }
}

impl Clone for KnownTable {
    fn clone(&self) -> Self {
        KnownTable {
            public: self.public.boxed_clone(),
            truth: self.truth.clone(),
            start: self.start.clone(),
            record: self.record.clone(),
            observer: self.observer,
        }
    }
}

impl Table for KnownTable {
    fn boxed_clone(&self) -> Box<dyn Table> {
        Box::new(self.clone())
    }
    // Whatever the side knew, the board is the public game's (the methods in name order; those it answers itself follow).
    forward! { public =>
        fn allows_agreed_draws(&self) -> bool;
        fn can_ever_check(&self, side: Side) -> bool;
        fn fen(&self) -> String;
        fn has_impasse_declaration(&self) -> bool;
        fn hints(&self, legal_moves: &[String]) -> Hints;
        fn initial_fen(&self) -> String;
        fn legal_moves(&self) -> Vec<String>;
        fn legal_notation(&self, style: NotationStyle) -> Result<Vec<String>, WrongFamily>;
        fn moves(&self) -> &[String];
        fn notation(&self, style: NotationStyle) -> Result<Vec<String>, WrongFamily>;
        fn outcome(&self) -> Option<Outcome>;
        fn positions(&self, style: NotationStyle) -> (Vec<ShownPosition>, Option<Vec<String>>);
        fn public_restart(&self) -> Box<dyn Table>;
        fn record(&self, format: RecordFormat, info: &RecordInfo) -> Result<String, RecordError>;
        fn to_move(&self) -> Side;
        fn variant(&self) -> Variant;
        fn variant_fields(&self, viewer: Option<Side>) -> VariantFields;
        fn write_tree(&self, tree: &[Node<String>], format: RecordFormat, facts: &RecordFacts)
            -> Result<String, TreeExportError>;
    }
    fn play(&mut self, text: &str) -> Result<String, PlayError> {
        let recorded = self.public.play(text)?;
        let ply = self.public.moves().len();
        let on_record = self.record.get(ply - 1) == Some(&recorded);
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
    fn replay(&mut self, recorded: &str) -> Result<(), PlayError> {
        self.play(recorded).map(|_| ())
    }
    fn end(&mut self, outcome: Outcome) {
        self.public.end(outcome);
    }
    fn declare_impasse(&mut self) -> Result<Outcome, PlayError> {
        self.public.declare_impasse()
    }
    fn restart(&self) -> Box<dyn Table> {
        Box::new(KnownTable::new(
            self.public.restart(),
            self.start.clone(),
            self.record.clone(),
            self.observer,
        ))
    }
    fn pool(&self) -> Option<BTreeMap<String, String>> {
        match self.view() {
            Some(view) => Some(jieqi_unseen(&view)),
            None => self.public.pool(),
        }
    }
    fn captured(&self) -> Option<BTreeMap<String, Vec<Capture>>> {
        self.view().map(|view| jieqi_captures(&view))
    }
    fn engine_input(&self, seat: Side) -> Result<jiang_engine::Input, jiang_engine::InputError> {
        // On the record: the observer's view, never the deal; off it: the public game.
        match self.view() {
            Some(view) => jiang_engine::Input::from_view(&view),
            None => self.public.engine_input(seat),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table;

    /// The engine reasons over what the side knew: after Red took a covered piece, Red's input
    /// differs from the public game's, and Black's (which does not know it) does not.
    #[test]
    fn the_engine_input_is_the_sides_view_on_the_record() {
        let setup = table::create(Variant::Jieqi, None, None).unwrap();
        let mut finished = table::open(Variant::Jieqi, &setup, &[]).unwrap();
        finished.play("h2h9").unwrap();
        let input = |mut t: Box<dyn Table>| {
            for mv in finished.moves() {
                t.play(mv).unwrap();
            }
            format!("{:?}", t.engine_input(t.to_move()).unwrap())
        };
        let public = input(finished.public_restart());
        let red = input(finished.knowledge_restart(Side::RED));
        let black = input(finished.knowledge_restart(Side::BLACK));
        assert_ne!(red, public);
        assert_eq!(black, public);
    }
}
