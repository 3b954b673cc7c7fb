//! The CLI contract for the shogi family, run against the built binary.

mod common;

/// Runs `jiang <args>` with `stdin`; returns (stdout, exit code).
fn jiang(args: &[&str], stdin: &str) -> (String, i32) {
    let out = common::run_jiang(args, stdin.as_bytes());
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

/// The `<nodes> nodes <ms> ms` line.
fn nodes(last_line: &str) -> u64 {
    let parts: Vec<&str> = last_line.split(' ').collect();
    assert_eq!(parts.len(), 4, "{last_line}");
    assert_eq!((parts[1], parts[3]), ("nodes", "ms"), "{last_line}");
    parts[2].parse::<u64>().expect("milliseconds");
    parts[0].parse().unwrap()
}

#[test]
fn perft_prints_nodes_and_time() {
    let (out, code) = jiang(&["perft", "shogi", "3"], "");
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 1);
    assert_eq!(nodes(out.lines().last().unwrap()), 25470);
    let (out, _) = jiang(&["perft", "minishogi", "4", "--fen", "startpos"], "");
    assert_eq!(nodes(out.trim()), 35401);
    let midgame = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
    let (out, _) = jiang(&["perft", "shogi", "2", "--fen", midgame], "");
    assert_eq!(nodes(out.trim()), 28684);
}

#[test]
fn perft_divide_lists_root_moves_sorted() {
    let (out, code) = jiang(&["perft", "shogi", "2", "--divide"], "");
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 31);
    assert_eq!(nodes(lines[30]), 900);
    let divide = &lines[..30];
    assert!(divide.contains(&"7g7f: 30"));
    let mut sorted = divide.to_vec();
    sorted.sort();
    assert_eq!(sorted, divide);
    let sum: u64 = divide
        .iter()
        .map(|l| l.split(": ").nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 900);
    // Drops and promotions appear in USI.
    let (out, _) = jiang(
        &[
            "perft",
            "minishogi",
            "1",
            "--divide",
            "--fen",
            "k4/2P2/5/5/4K b G 1",
        ],
        "",
    );
    assert!(out.contains("3b3a+: 1\n"), "{out}");
    assert!(out.contains("G*3c: 1\n"), "{out}");
}

#[test]
fn perft_with_a_bad_sfen_fails() {
    let (out, code) = jiang(&["perft", "shogi", "1", "--fen", "9/9 b - 1"], "");
    assert_eq!(code, 2);
    assert!(out.is_empty());
}

#[test]
fn moves_reads_positions_and_reports_errors() {
    let input = "startpos\n\
                 lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1\n\
                 8k/9/8G/9/9/9/9/9/4K2L1 b P 1\n\
                 8k/9/6NG1/9/9/9/9/9/4K4 w - 1\n";
    let (out, code) = jiang(&["moves", "shogi"], input);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("1g1f 1i1h 2g2f 2h1h"), "{}", lines[0]);
    assert_eq!(lines[0].split(' ').count(), 30);
    assert!(
        lines[1].starts_with("error: ") && lines[1].contains("rank i"),
        "{}",
        lines[1]
    );
    // Uchifuzume: P*1b is not listed, other drops are.
    assert!(!lines[2].split(' ').any(|m| m == "P*1b"));
    assert!(lines[2].split(' ').any(|m| m == "P*1d"));
    // No legal moves: an empty line.
    assert_eq!(lines[3], "");
}

#[test]
fn moves_with_fen_and_promotions() {
    let (out, code) = jiang(
        &["moves", "shogi", "--fen", "k8/4P4/9/9/9/9/9/9/4K4 b - 1"],
        "",
    );
    assert_eq!(code, 0);
    assert_eq!(out, "5b5a+ 5i4h 5i4i 5i5h 5i6h 5i6i\n");
    let (out, code) = jiang(&["moves", "minishogi"], "startpos\n");
    assert_eq!(code, 0);
    assert_eq!(out.trim().split(' ').count(), 14);
}

#[test]
fn outcome_lines() {
    let shuffle = "5i5h 5a5b 5h5i 5b5a";
    let input = format!(
        "startpos\n\
         startpos moves 7g7f 3c3d 8h2b+\n\
         startpos moves {shuffle} {shuffle} {shuffle}\n\
         startpos moves 7g7f 7g7f\n\
         startpos moves 7g7f 3c3d 8h2b 3a2b\n\
         8k/9/6NGP/9/9/9/9/9/4K4 b - 1 moves 1c1b\n\
         8k/9/6NGP/9/9/9/9/9/4K4 b - 1 moves 1c1b 1a2a\n\
         4k4/9/9/9/9/9/9/9/4K4 b - 1\n\
         nonsense\n\
         8k/9/8G/9/9/9/9/9/4K2L1 b P 1 moves P*1b\n"
    );
    let (out, code) = jiang(&["outcome", "shogi"], &input);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 10, "{out}");
    assert_eq!(lines[0], "* ongoing");
    assert_eq!(lines[1], "* ongoing");
    assert_eq!(lines[2], "1/2-1/2 repetition");
    assert!(lines[3].starts_with("illegal 2 "), "{}", lines[3]);
    assert!(lines[4].starts_with("* ongoing"), "{}", lines[4]);
    assert_eq!(lines[5], "1-0 checkmate");
    assert!(
        lines[6].starts_with("illegal 2 the game is already over"),
        "{}",
        lines[6]
    );
    assert_eq!(lines[7], "1/2-1/2 insufficient-material");
    assert!(lines[8].starts_with("error: "), "{}", lines[8]);
    assert!(
        lines[9].starts_with("illegal 1 ") && lines[9].contains("uchifuzume"),
        "{}",
        lines[9]
    );
}

#[test]
fn outcome_win_token_declares_impasse() {
    let holds = "+L+NSGKGS+N+L/1R5B1/9/9/9/9/9/9/4k4 b 10P 1 moves win";
    let short = "+L+NSGKGS+N+L/1R5B1/9/9/9/9/9/9/4k4 b 9P 1 moves win";
    let gote = "4K4/9/9/9/9/9/9/1b5r1/+l+nsgkgs+n+l w 9p 1 moves win";
    let later = "+L+NSGKGS+N+L/1R5B1/9/9/9/9/9/9/4k4 b 10P 1 moves 8b8c 5i5h win";
    let not_in_zone = "startpos moves win";
    let input = format!("{holds}\n{short}\n{gote}\n{later}\n{not_in_zone}\n");
    let (out, code) = jiang(&["outcome", "shogi"], &input);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "1-0 impasse");
    assert!(
        lines[1].starts_with("illegal 1 ") && lines[1].contains("condition 4"),
        "{}",
        lines[1]
    );
    assert_eq!(lines[2], "0-1 impasse");
    assert_eq!(lines[3], "1-0 impasse");
    assert!(
        lines[4].starts_with("illegal 1 ") && lines[4].contains("condition 1"),
        "{}",
        lines[4]
    );
    // No impasse in Minishogi.
    let (out, _) = jiang(&["outcome", "minishogi"], "startpos moves win\n");
    assert!(out.starts_with("illegal 1 "), "{out}");
}

#[test]
fn outcome_in_handicap_and_minishogi_games() {
    // Handicap game (gote, the uwate, moved first); gote is mated: 1-0 is sente's win.
    let (out, _) = jiang(
        &["outcome", "shogi"],
        "8k/9/6NGP/9/9/9/9/9/4K4 b - 2 moves 1c1b\n",
    );
    assert_eq!(out, "1-0 checkmate\n");
    // A handicap start: gote moves first, so a sente move first is illegal.
    let lance = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    let (out, _) = jiang(
        &["outcome", "shogi"],
        &format!("{lance} moves 7g7f\n{lance} moves 3c3d 7g7f\n"),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("illegal 1 "), "{out}");
    assert_eq!(lines[1], "* ongoing");
    // Minishogi: a plain repetition loses for sente.
    let cycle = "1e1d 5a5b 1d1e 5b5a";
    let (out, _) = jiang(
        &["outcome", "minishogi"],
        &format!("startpos moves {cycle} {cycle} {cycle}\n"),
    );
    assert_eq!(out, "0-1 repetition\n");
    // Perpetual check loses.
    let (out, _) = jiang(
        &["outcome", "shogi"],
        "8k/9/9/9/9/9/9/9/K5R2 b - 1 moves 3i1i 1a2a 1i2i 2a1a 2i1i 1a2a 1i2i 2a1a 2i1i 1a2a 1i2i 2a1a 2i1i\n",
    );
    assert_eq!(out, "0-1 perpetual-check\n");
}
