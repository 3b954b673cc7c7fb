//! Shared helpers for the rules-review behaviour tests: run the built `jiang` binary exactly as
//! another program would, through its public CLI contract (`outcome` and `moves`).

#![allow(dead_code)] // each test crate uses a different subset

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

/// Starts `jiang <args>` with standard input and output piped and standard error going to
/// `stderr`.
pub fn spawn_jiang(args: &[&str], stderr: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_jiang"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .expect("the jiang binary runs")
}

/// Runs `jiang <args>` with `stdin` bytes piped in and waits for it; returns all it wrote and
/// its exit status (the one way every CLI test runs the built binary).
pub fn run_jiang(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = spawn_jiang(args, Stdio::piped());
    // A refused command line may exit before reading its input: a broken pipe is no failure.
    if let Err(e) = child.stdin.take().expect("stdin is piped").write_all(stdin) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().expect("jiang finishes")
}

/// Runs `jiang <args>` with `stdin`; returns its standard output.
pub fn jiang(args: &[&str], stdin: &str) -> String {
    let out = run_jiang(args, stdin.as_bytes());
    String::from_utf8(out.stdout).expect("output is UTF-8")
}

/// The single line `jiang outcome <variant>` prints for one input line.
pub fn outcome(variant: &str, line: &str) -> String {
    let out = jiang(&["outcome", variant], &format!("{line}\n"));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "one verdict line for `{line}`, got {out:?}");
    lines[0].to_owned()
}

/// `<fen> moves <moves>` with `moves` repeated `times` times (a cycle), then `tail`.
pub fn cycle(fen: &str, moves: &str, times: usize, tail: &str) -> String {
    let mut line = format!("{fen} moves");
    for _ in 0..times {
        line.push(' ');
        line.push_str(moves);
    }
    if !tail.is_empty() {
        line.push(' ');
        line.push_str(tail);
    }
    line
}

/// Asserts the verdict of `jiang outcome <variant>` on `line`.
#[track_caller]
pub fn assert_outcome(variant: &str, line: &str, expected: &str) {
    assert_eq!(outcome(variant, line), expected, "input: {variant}: {line}");
}

/// Asserts the verdict once the cycle `moves` has been played `times` times from `fen`, so
/// that the start position stands for the `times + 1`-th time.
#[track_caller]
pub fn assert_cycle_verdict(variant: &str, fen: &str, moves: &str, times: usize, expected: &str) {
    assert_outcome(variant, &cycle(fen, moves, times, ""), expected);
}

/// Asserts that the verdict comes exactly when the `times`-th round of the cycle `moves` from
/// `fen` is complete: one ply earlier the game still goes on.
#[track_caller]
pub fn assert_verdict_exactly_at(
    variant: &str,
    fen: &str,
    moves: &str,
    times: usize,
    expected: &str,
) {
    let (all_but_the_last, _) = moves.rsplit_once(' ').expect("a cycle of several plies");
    assert_outcome(
        variant,
        &cycle(fen, moves, times - 1, all_but_the_last),
        "* ongoing",
    );
    assert_cycle_verdict(variant, fen, moves, times, expected);
}

/// Asserts that the verdict is `illegal <n> …` (the move number `n` is refused, with a reason)
/// and that the reason mentions `needle` (case-insensitive) when it is not empty.
#[track_caller]
pub fn assert_illegal(variant: &str, line: &str, n: usize, needle: &str) {
    let verdict = outcome(variant, line);
    let prefix = format!("illegal {n} ");
    assert!(
        verdict.starts_with(&prefix) && verdict.len() > prefix.len(),
        "expected `illegal {n} <why>` for {variant}: {line}, got `{verdict}`"
    );
    assert!(
        verdict.to_lowercase().contains(&needle.to_lowercase()),
        "the reason should mention `{needle}`: `{verdict}` (input {variant}: {line})"
    );
}

/// The legal moves `jiang moves <variant> --fen <fen>` prints (one line, space separated).
pub fn moves(variant: &str, fen: &str) -> Vec<String> {
    let out = jiang(&["moves", variant, "--fen", fen], "");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() <= 1, "one line of moves for {fen}, got {out:?}");
    lines
        .first()
        .map(|l| l.split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default()
}
