//! `jiang moves` and `jiang outcome` as long-lived oracles: each answer is written (flushed)
//! as soon as its input line is read, while standard input stays open. Before, both buffered
//! their output until standard input closed, so a match runner or a GUI that keeps one
//! process open waited forever for its first answer.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::Duration;

/// Generous: an answer that does not come within this is never coming (the process is
/// waiting for more input or for end of file).
const ANSWER_DEADLINE: Duration = Duration::from_secs(60);

/// A running `jiang <args>` with its stdin open and its stdout lines arriving on a channel.
struct Oracle {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Oracle {
    fn start(args: &[&str]) -> Oracle {
        let mut child = common::spawn_jiang(args, Stdio::null());
        let stdout = child.stdout.take().expect("stdout is piped");
        let (send, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Oracle {
            child,
            stdin,
            lines,
        }
    }

    /// Writes one line (stdin stays open) and returns the answer line.
    fn ask(&mut self, line: &str) -> String {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        writeln!(stdin, "{line}").expect("the oracle reads its input");
        stdin.flush().expect("the line is sent");
        self.lines
            .recv_timeout(ANSWER_DEADLINE)
            .unwrap_or_else(|_| panic!("no answer to `{line}` while stdin is open"))
    }

    /// Closes stdin and returns the exit code; nothing more may have been printed.
    fn finish(mut self) -> Option<i32> {
        drop(self.stdin.take());
        let status = self.child.wait().expect("the oracle exits at end of input");
        assert!(
            self.lines.recv_timeout(ANSWER_DEADLINE).is_err(),
            "nothing more after the last answer"
        );
        status.code()
    }
}

impl Drop for Oracle {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn moves_answers_each_line_before_stdin_closes() {
    let mut oracle = Oracle::start(&["moves", "minishogi"]);
    assert_eq!(
        oracle.ask("rbsgk/4p/5/P4/KGSBR b - 1"),
        "1e1b 1e1c 1e1d 2e1d 2e3d 2e4c 2e5b 3e2d 3e3d 3e4d 4e3d 4e4d 5d5c 5e4d"
    );
    // The same process keeps answering, errors included, each on its own line.
    let error = oracle.ask("not a position");
    assert!(error.starts_with("error: "), "{error}");
    let start = oracle.ask("startpos");
    assert!(start.split(' ').all(|m| m.len() >= 4), "{start}");
    assert_eq!(
        oracle.finish(),
        Some(1),
        "a rejected line makes the status 1"
    );
}

#[test]
fn outcome_answers_each_line_before_stdin_closes() {
    let mut oracle = Oracle::start(&["outcome", "xiangqi"]);
    assert_eq!(oracle.ask("startpos moves h2e2 h9g7"), "* ongoing");
    assert_eq!(
        oracle.ask("startpos moves h2e2 h9g7 x9x8"),
        oracle.ask("startpos moves h2e2 h9g7 x9x8"),
        "the same question, the same answer"
    );
    // Xiangqi: a chariot on the open file mates a bare general with its own general behind.
    assert_eq!(
        oracle.ask("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1"),
        "1-0 checkmate"
    );
    assert_eq!(oracle.finish(), Some(0));
}
