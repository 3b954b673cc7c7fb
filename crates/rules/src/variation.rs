//! Move trees with variations, as an analysis board keeps them and as PGN (`(…)`) and KIF
//! (`変化：`) records write them.
//!
//! A line is a slice of [`Node`]s played one after another from a position. Each node's
//! `variations` are the other lines that could have been played *instead of* its move, from
//! the same position (PGN's convention: a variation follows the move it replaces).

use crate::Position;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Variant, xiangqi};

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
