//! The `jiang` binary's tools for the xiangqi family, run as a user runs them: exact output
//! formats (they are a contract other programs parse) and exit statuses.

use std::process::Output;

mod common;

fn jiang(args: &[&str], stdin: &str) -> Output {
    common::run_jiang(args, stdin.as_bytes())
}

fn stdout_lines(out: &Output) -> Vec<String> {
    String::from_utf8(out.stdout.clone())
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Checks `<nodes> nodes <ms> ms` and returns the node count.
fn nodes_line(line: &str) -> u64 {
    let parts: Vec<&str> = line.split(' ').collect();
    assert_eq!(parts.len(), 4, "{line}");
    assert_eq!((parts[1], parts[3]), ("nodes", "ms"), "{line}");
    parts[2].parse::<u64>().expect("milliseconds");
    parts[0].parse().expect("nodes")
}

#[test]
fn perft_prints_nodes_and_milliseconds() {
    let out = jiang(&["perft", "xiangqi", "3"], "");
    assert!(out.status.success());
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 1);
    assert_eq!(nodes_line(&lines[0]), 79666);
}

#[test]
fn perft_with_a_fen_and_divide() {
    let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
    let out = jiang(&["perft", "xiangqi", "2", "--fen", fen, "--divide"], "");
    assert!(out.status.success());
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 38 + 1);
    let mut sum = 0;
    let mut previous = String::new();
    for line in &lines[..38] {
        let (mv, count) = line.split_once(": ").expect("`move: count`");
        assert_eq!(mv.len(), 4, "{line}");
        assert!(mv > previous.as_str(), "sorted: {previous} then {mv}");
        previous = mv.to_owned();
        sum += count.parse::<u64>().unwrap();
    }
    assert_eq!(sum, 1128);
    assert_eq!(nodes_line(&lines[38]), 1128);
}

#[test]
fn perft_startpos_and_jieqi_divide_with_reveals() {
    let out = jiang(
        &["perft", "xiangqi", "1", "--fen", "startpos", "--divide"],
        "",
    );
    let lines = stdout_lines(&out);
    assert_eq!(lines[0], "a0a1: 1");
    assert_eq!(nodes_line(lines.last().unwrap()), 44);
    let out = jiang(&["perft", "jieqi", "1", "--divide"], "");
    let lines = stdout_lines(&out);
    assert!(lines.contains(&"h2e2C: 1".to_owned()) && lines.contains(&"e0e1: 1".to_owned()));
    assert_eq!(nodes_line(lines.last().unwrap()), 43 * 6 + 1);
}

#[test]
fn perft_with_a_bad_fen_fails_with_the_reason() {
    let out = jiang(&["perft", "xiangqi", "2", "--fen", "rnbakabnr/9 w"], "");
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("error: bad position: field 1 (board)"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn moves_reads_positions_from_stdin_one_line_each() {
    let input = "startpos\n\
                 3k5/4R4/4R4/9/9/9/9/9/9/4K4 b\n\
                 rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x\n\
                 4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1\n";
    let out = jiang(&["moves", "xiangqi"], input);
    assert_eq!(
        out.status.code(),
        Some(1),
        "a bad line makes the exit status 1"
    );
    let lines = stdout_lines(&out);
    assert_eq!(lines.len(), 4);
    let start: Vec<&str> = lines[0].split(' ').collect();
    assert_eq!(start.len(), 44);
    let mut sorted = start.clone();
    sorted.sort();
    assert_eq!(start, sorted);
    assert_eq!(start[0], "a0a1");
    assert_eq!(lines[1], "", "stalemated: an empty line");
    assert_eq!(
        lines[2],
        "error: field 2 (side to move): expected `w`, `r` or `b`, found `x`"
    );
    assert_eq!(lines[3], "d0d1");
}

#[test]
fn moves_with_fen_flag_and_clean_exit() {
    let out = jiang(
        &["moves", "xiangqi", "--fen", "4k4/9/9/9/9/9/9/9/9/3K5 w"],
        "",
    );
    assert!(out.status.success());
    assert_eq!(stdout_lines(&out), ["d0d1"]);
}

#[test]
fn jieqi_moves_have_no_reveal_suffix() {
    let out = jiang(&["moves", "jieqi"], "startpos\n");
    assert!(out.status.success());
    let xiangqi = jiang(&["moves", "xiangqi"], "startpos\n");
    assert_eq!(stdout_lines(&out), stdout_lines(&xiangqi));
}

#[test]
fn outcome_prints_one_verdict_per_line() {
    let input = "\
3k5/4R4/9/4R4/9/9/9/9/9/4K4 w moves e6e7
4k4/R8/9/9/9/9/9/9/9/3K3R1 w - - 0 1 moves h0h9
startpos moves h2e2 h9g7 h2h9
startpos moves h2e2 h9g7
startpos
4k4/R8/9/9/9/9/9/9/9/3K5 w moves a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9
4k4/R8/9/9/9/9/9/9/9/3K5 w moves a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9
this is not a fen
startpos moves h2e2 moves
";
    let out = jiang(&["outcome", "xiangqi"], input);
    assert_eq!(out.status.code(), Some(1));
    let lines = stdout_lines(&out);
    assert_eq!(lines[0], "1-0 stalemate");
    assert_eq!(lines[1], "1-0 checkmate");
    assert_eq!(lines[2], "illegal 3 there is no piece on h2");
    assert_eq!(lines[3], "* ongoing");
    assert_eq!(lines[4], "* ongoing");
    assert_eq!(lines[5], "0-1 perpetual-check");
    assert!(
        lines[6].starts_with("illegal 9 the game is already over"),
        "{}",
        lines[6]
    );
    assert!(lines[7].starts_with("error: "), "{}", lines[7]);
    assert!(lines[8].starts_with("illegal 2 "), "{}", lines[8]);
    assert_eq!(lines.len(), 9);
}

#[test]
fn outcome_in_jieqi_needs_reveal_suffixes() {
    let input = "startpos moves h2e2C h7e7n\nstartpos moves h2e2\nstartpos moves h2e2C h7e7N\n";
    let out = jiang(&["outcome", "jieqi"], input);
    let lines = stdout_lines(&out);
    assert_eq!(lines[0], "* ongoing");
    assert_eq!(
        lines[1],
        "illegal 1 h2e2 moves a covered piece: add the revealed piece's letter, like `h2e2C`"
    );
    assert!(lines[2].starts_with("illegal 2 "), "{}", lines[2]);
    assert!(out.status.success());
}

#[test]
fn shogi_family_is_still_reported_as_not_implemented_here() {
    // The shogi family is wired by its own branch; this branch must not break the dispatch.
    let out = jiang(&["perft", "shogi", "1"], "");
    assert!(!out.status.success() || String::from_utf8_lossy(&out.stdout).contains("nodes"));
}
