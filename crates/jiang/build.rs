//! Sets `cfg(pg_tests)` and `cfg(cluster_tests)` for this crate's PostgreSQL and cluster tests,
//! as `crates/server/build.rs` does (see `crates/server/build/test_cfgs.rs`).

include!("../server/build/test_cfgs.rs");

fn main() {
    test_cfgs();
}
