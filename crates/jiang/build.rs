//! Sets `cfg(pg_tests)` when `JIANG_TEST_DATABASE_URL` is set, as `crates/server/build.rs`
//! does: the PostgreSQL tests of this crate carry `#[cfg_attr(not(pg_tests), ignore = "…")]`,
//! so without a database they are reported as ignored instead of passing without running.
//! `cfg(cluster_tests)` likewise needs `JIANG_TEST_NATS_URL` too (tests/cluster.rs).

fn main() {
    println!("cargo:rustc-check-cfg=cfg(pg_tests)");
    println!("cargo:rerun-if-env-changed=JIANG_TEST_DATABASE_URL");
    println!("cargo:rustc-check-cfg=cfg(cluster_tests)");
    println!("cargo:rerun-if-env-changed=JIANG_TEST_NATS_URL");
    let set = |name: &str| std::env::var_os(name).is_some_and(|url| !url.is_empty());
    if set("JIANG_TEST_DATABASE_URL") {
        println!("cargo:rustc-cfg=pg_tests");
        if set("JIANG_TEST_NATS_URL") {
            println!("cargo:rustc-cfg=cluster_tests");
        }
    }
}
