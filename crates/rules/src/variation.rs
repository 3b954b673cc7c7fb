//! Move trees with variations, as an analysis board keeps them and as PGN (`(…)`) and KIF
//! (`変化：`) records write them.
//!
//! A line is a slice of [`Node`]s played one after another from a position. Each node's
//! `variations` are the other lines that could have been played *instead of* its move, from
//! the same position (PGN's convention: a variation follows the move it replaces).

use crate::{Game, Outcome, Position};

/// One move of a line and the alternatives to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node<M> {
    /// The move.
    pub mv: M,
    /// Lines played instead of `mv`, from the position before it, in order.
    pub variations: Vec<Vec<Node<M>>>,
}

impl<M> Node<M> {
    /// A node without variations.
    pub fn new(mv: M) -> Node<M> {
        Node {
            mv,
            variations: Vec::new(),
        }
    }
}

/// Why a tree of move texts could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("ply {ply}: `{text}` is not a legal move there: {why}")]
pub struct TreeError {
    /// 1-based ply of the move from the tree's start.
    pub ply: usize,
    /// The move text.
    pub text: String,
    /// Why the rules refuse it.
    pub why: String,
}

/// Reads a tree of machine-notation move texts (ICCS, Jieqi with reveals; USI) from `start`,
/// checking every move, variations included, against the rules.
pub fn parse_tree<P: Position>(
    start: &P,
    line: &[Node<String>],
) -> Result<Vec<Node<P::Move>>, TreeError> {
    parse_line(start, line, 1)
}

fn parse_line<P: Position>(
    start: &P,
    line: &[Node<String>],
    first_ply: usize,
) -> Result<Vec<Node<P::Move>>, TreeError> {
    let mut position = start.clone();
    let mut out = Vec::with_capacity(line.len());
    for (i, node) in line.iter().enumerate() {
        let ply = first_ply + i;
        let mv = position.parse_move(&node.mv).map_err(|e| TreeError {
            ply,
            text: node.mv.clone(),
            why: e.to_string(),
        })?;
        let variations = node
            .variations
            .iter()
            .map(|v| parse_line(&position, v, ply))
            .collect::<Result<_, _>>()?;
        out.push(Node { mv, variations });
        position.play(mv);
    }
    Ok(out)
}

/// The main line of a tree: its first move at each ply.
pub fn main_line<M: Copy>(line: &[Node<M>]) -> Vec<M> {
    line.iter().map(|n| n.mv).collect()
}

/// What a record says besides its moves, for writing an analysis tree that came from a
/// record (an imported one, or a finished game's): the players' names and how the recorded
/// line ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordFacts {
    /// The players' names: the first side's (Red, Sente) and the second's.
    pub names: [Option<String>; 2],
    /// How the recorded line ended.
    pub ending: Option<RecordedEnding>,
}

/// A recorded line and how it ended (resignation, time, checkmate, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedEnding {
    /// The recorded moves from the start, in machine notation (ICCS, Jieqi with reveals; USI).
    pub moves: Vec<String>,
    /// How the game ended after them.
    pub outcome: Outcome,
}

/// How the main line of `tree` (played from `start`) ended, for a record of the tree: the
/// recorded ending of `facts` when the main line is the recorded line (a resignation or a
/// time loss belongs to that line only); otherwise the rules' verdict at the end of the main
/// line (checkmate, repetition, …); `None` while it goes on (or when a move of the main line
/// cannot be played, which [`parse_tree`] reports first).
pub fn main_line_outcome<G: Game>(
    start: &G::Position,
    tree: &[Node<String>],
    facts: &RecordFacts,
) -> Option<Outcome> {
    if let Some(ending) = &facts.ending
        && tree.len() == ending.moves.len()
        && tree.iter().zip(&ending.moves).all(|(n, m)| n.mv == *m)
    {
        return Some(ending.outcome);
    }
    let mut game = G::new(start.clone());
    for node in tree {
        game.play_text(&node.mv).ok()?;
    }
    game.outcome()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Reason, Side, Variant, xiangqi};

    #[test]
    fn the_recorded_ending_belongs_to_the_recorded_line_only() {
        let start = xiangqi::Position::start(Variant::Xiangqi);
        let line = |moves: &[&str]| -> Vec<Node<String>> {
            moves.iter().map(|m| Node::new((*m).to_owned())).collect()
        };
        let resigned = Outcome::win(Side::Second, Reason::Resignation);
        let facts = RecordFacts {
            names: [None, None],
            ending: Some(RecordedEnding {
                moves: vec!["h2e2".to_owned(), "h9g7".to_owned()],
                outcome: resigned,
            }),
        };
        let outcome = |moves: &[&str], facts: &RecordFacts| {
            main_line_outcome::<xiangqi::Game>(&start, &line(moves), facts)
        };
        assert_eq!(outcome(&["h2e2", "h9g7"], &facts), Some(resigned));
        assert_eq!(outcome(&["h2e2"], &facts), None);
        assert_eq!(outcome(&["h2e2", "b9c7"], &facts), None);
        // The rules' own ending is written whatever was recorded: a checkmate.
        let mate =
            xiangqi::Position::parse_fen(Variant::Xiangqi, "4k4/R8/1R7/9/9/9/9/9/9/3K5 w").unwrap();
        let mated =
            main_line_outcome::<xiangqi::Game>(&mate, &line(&["b7b9"]), &RecordFacts::default());
        assert_eq!(
            mated.map(|o| (o.winner, o.reason)),
            Some((Some(Side::First), Reason::Checkmate))
        );
    }

    #[test]
    fn trees_are_checked_move_by_move_variations_included() {
        let start = xiangqi::Position::start(Variant::Xiangqi);
        let tree = vec![
            Node {
                mv: "h2e2".to_owned(),
                variations: vec![vec![Node::new("b2e2".to_owned())]],
            },
            Node::new("h9g7".to_owned()),
        ];
        let parsed = parse_tree(&start, &tree).unwrap();
        assert_eq!(parsed.len(), 2);
        assert_eq!(parsed[0].variations[0][0].mv.to_string(), "b2e2");
        let bad = vec![Node {
            mv: "h2e2".to_owned(),
            variations: vec![vec![Node::new("h9g7".to_owned())]],
        }];
        let e = parse_tree(&start, &bad).unwrap_err();
        assert_eq!((e.ply, e.text.as_str()), (1, "h9g7"));
    }
}
