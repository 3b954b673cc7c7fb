//! `jiang match` runs Jiang's own engine against itself at two levels and prints its result
//! line: the path a fresh clone's user takes to measure the engine (a tiny match; strength is
//! measured by longer matches, never here).

use std::process::Command;

#[test]
fn level_8_plays_level_1_and_the_last_line_is_the_score() {
    let jiang = env!("CARGO_BIN_EXE_jiang");
    let engine = format!("{jiang} engine");
    let output = Command::new(jiang)
        .args([
            "match",
            "--variant",
            "minishogi",
            "--games",
            "2",
            "--movetime",
            "30",
        ])
        .args([
            "--engine", &engine, "--option", "Level=8", "--name", "level8",
        ])
        .args([
            "--engine", &engine, "--option", "Level=1", "--name", "level1",
        ])
        .args(["--seed", "7"])
        .output()
        .expect("jiang match runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stdout}\n{stderr}");
    let last = stdout.lines().last().expect("a result line");
    // `Score of A vs B: W-D-L (score) Elo …`
    let rest = last
        .strip_prefix("Score of level8 vs level1: ")
        .unwrap_or_else(|| panic!("not a score line: {last}"));
    let wdl: Vec<u32> = rest
        .split_whitespace()
        .next()
        .expect("W-D-L")
        .split('-')
        .map(|n| n.parse().expect("a count"))
        .collect();
    assert_eq!(wdl.len(), 3, "{last}");
    assert_eq!(wdl.iter().sum::<u32>(), 2, "two games were played: {last}");
    assert!(rest.contains("Elo"), "{last}");
    // Every game ended by the rules (or a resignation), never by a forfeit of Jiang's engine.
    let games: Vec<&str> = stdout.lines().filter(|l| l.starts_with("Game ")).collect();
    assert_eq!(games.len(), 2, "{stdout}");
    for line in games {
        assert!(
            [
                "checkmate",
                "stalemate",
                "resignation",
                "repetition",
                "impasse",
                "move-limit"
            ]
            .iter()
            .any(|reason| line.contains(reason)),
            "{line}"
        );
    }
}
