//! Records the short git commit for the pages' `{{commit}}` (override: `JIANG_COMMIT`), and
//! sets `cfg(pg_tests)` when `JIANG_TEST_DATABASE_URL` is set: the PostgreSQL tests carry
//! `#[cfg_attr(not(pg_tests), ignore = "…")]`, so without a database they are reported as
//! ignored instead of passing without running (see `tests/common/mod.rs`, `postgres_url`).
//! `cfg(cluster_tests)` likewise needs `JIANG_TEST_NATS_URL` too (the lease tests in
//! `src/cluster.rs`); `build/test_cfgs.rs` sets both, for this crate and `crates/jiang`.

use std::path::{Path, PathBuf};
use std::process::Command;

include!("build/test_cfgs.rs");

fn main() {
    test_cfgs();
    println!("cargo:rerun-if-env-changed=JIANG_COMMIT");
    let commit = std::env::var("JIANG_COMMIT")
        .ok()
        .filter(|s| !s.is_empty())
        .or_else(|| git(&["rev-parse", "--short", "HEAD"]))
        .unwrap_or_else(|| "unknown".to_owned());
    for path in commit_sources() {
        println!("cargo:rerun-if-changed={}", path.display());
    }
    println!("cargo:rustc-env=JIANG_COMMIT={commit}");
}

/// Runs git and returns its trimmed output, if it succeeded and said something.
fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
}

/// The files whose change can move HEAD's commit, limited to ones that exist: cargo counts a
/// watched path that does not exist as changed, so watching a missing `packed-refs` (after
/// `git gc`) or a missing loose ref (in a fresh clone) would rebuild on every build.
///
/// - `HEAD`: a checkout of another branch or commit.
/// - The branch's loose ref when it exists (every commit rewrites it; `git pack-refs` deletes
///   it, which cargo sees). When it does not, its nearest existing folder: the next commit
///   creates the loose ref there.
/// - `packed-refs` when it exists (a packed branch moves only by being unpacked, which
///   writes the loose ref, or by a new `packed-refs`).
fn commit_sources() -> Vec<PathBuf> {
    let git_path = |path: &str| git(&["rev-parse", "--git-path", path]).map(PathBuf::from);
    let mut sources: Vec<PathBuf> = ["HEAD", "packed-refs"]
        .into_iter()
        .filter_map(git_path)
        .filter(|p| p.exists())
        .collect();
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"])
        && let Some(loose) = git_path(&branch)
    {
        sources.extend(
            loose
                .ancestors()
                .find(|p| p.exists())
                .map(Path::to_path_buf),
        );
    }
    sources
}
