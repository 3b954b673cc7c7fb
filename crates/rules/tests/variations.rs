//! Records with variations (PGN `(…)`, KIF `変化：`) read back by Jiang's own readers: the main
//! line comes back move for move, and the variations are where the formats put them.

use jiang_rules::shogi::notation::{ShogiRecord, read_kif, write_kif_with_variations};
use jiang_rules::variation::{Node, parse_tree};
use jiang_rules::xiangqi::notation::{MoveFormat, Record, Script};
use jiang_rules::{Position, Variant, shogi, xiangqi};

fn line(moves: &[&str]) -> Vec<Node<String>> {
    moves.iter().map(|m| Node::new((*m).to_owned())).collect()
}

/// `main` with `variation` as an alternative to its move at index `at` (and `nested` as an
/// alternative to the variation's second move).
fn tree(main: &[&str], at: usize, variation: &[&str], nested: &[&str]) -> Vec<Node<String>> {
    let mut tree = line(main);
    let mut var = line(variation);
    var[1].variations.push(line(nested));
    tree[at].variations.push(var);
    tree
}

#[test]
fn pgn_variations_are_numbered_in_parentheses_and_the_main_line_reads_back() {
    let start = xiangqi::Position::start(Variant::Xiangqi);
    let text_tree = tree(
        &["h2e2", "h9g7", "h0g2", "i9h9"],
        1,
        &["b9c7", "b2c2", "b7b3"],
        &["h0g2"],
    );
    let tree = parse_tree(&start, &text_tree).unwrap();
    let record = Record::new(start.clone());
    for format in [
        MoveFormat::Iccs,
        MoveFormat::Wxf,
        MoveFormat::Chinese(Script::Simplified),
    ] {
        let text = record.to_text_with_variations(format, &tree);
        let read: Record = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
        let main: Vec<String> = read.moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(main, ["h2e2", "h9g7", "h0g2", "i9h9"], "{text}");
        if format == MoveFormat::Iccs {
            assert!(
                text.contains(
                    "1. h2e2 h9g7 (1... b9c7 2. b2c2 (2. h0g2) 2... b7b3) 2. h0g2 i9h9 *"
                ),
                "{text}"
            );
        }
    }
}

#[test]
fn kif_variations_follow_the_main_line_latest_branch_first_and_the_main_line_reads_back() {
    let start = shogi::Position::start(Variant::Shogi);
    let main = ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e"];
    let mut text_tree = tree(&main, 3, &["4a3b", "2f2e", "3b3c"], &["6i7h"]);
    text_tree[1].variations.push(line(&["8c8d", "6g6f"]));
    let tree = parse_tree(&start, &text_tree).unwrap();
    let mut record = ShogiRecord::new(Variant::Shogi);
    record.start_sfen = start.fen();
    record.moves = main.iter().map(|m| (*m).to_owned()).collect();
    let text = write_kif_with_variations(&record, &tree).unwrap();
    let read = read_kif(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(read.moves, record.moves, "{text}");
    let blocks: Vec<&str> = text.lines().filter(|l| l.starts_with("変化")).collect();
    // The branch at ply 4 (and its nested branch at ply 5) before the branch at ply 2.
    assert_eq!(blocks, ["変化：4手", "変化：5手", "変化：2手"], "{text}");
    assert!(text.contains("変化：4手\n   4 ３二金(41)"), "{text}");
    assert!(text.contains("変化：2手\n   2 ８四歩(83)"), "{text}");
    // A tree whose main line is not the record's is refused.
    let mut other = record.clone();
    other.moves.pop();
    assert!(write_kif_with_variations(&other, &tree).is_err());
}
