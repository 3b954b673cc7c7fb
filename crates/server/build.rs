//! Records the short git commit for the pages' `{{commit}}` (override: `JIANG_COMMIT`), and
//! sets `cfg(pg_tests)` when `JIANG_TEST_DATABASE_URL` is set: the PostgreSQL tests carry
//! `#[cfg_attr(not(pg_tests), ignore = "…")]`, so without a database they are reported as
//! ignored instead of passing without running (see `tests/common/mod.rs`, `postgres_url`).
//! `cfg(cluster_tests)` likewise needs `JIANG_TEST_NATS_URL` too (the lease tests in
//! `src/cluster.rs`); `build/test_cfgs.rs` sets both, for this crate and `crates/jiang`.

use std::process::Command;

include!("build/test_cfgs.rs");

fn main() {
    test_cfgs();
    println!("cargo:rerun-if-env-changed=JIANG_COMMIT");
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .map(|s| s.trim().to_owned())
            .filter(|s| !s.is_empty())
    };
    let commit = std::env::var("JIANG_COMMIT")
        .ok()
        .filter(|s| !s.is_empty())
        .or_else(|| git(&["rev-parse", "--short", "HEAD"]))
        .unwrap_or_else(|| "unknown".to_owned());
    for path in ["HEAD", "packed-refs"] {
        if let Some(p) = git(&["rev-parse", "--git-path", path]) {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"])
        && let Some(p) = git(&["rev-parse", "--git-path", &head])
    {
        println!("cargo:rerun-if-changed={p}");
    }
    println!("cargo:rustc-env=JIANG_COMMIT={commit}");
}
