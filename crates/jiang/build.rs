//! Sets `cfg(pg_tests)` when `JIANG_TEST_DATABASE_URL` is set, as `crates/server/build.rs`
//! does: the PostgreSQL tests of this crate carry `#[cfg_attr(not(pg_tests), ignore = "…")]`,
//! so without a database they are reported as ignored instead of passing without running.

fn main() {
    println!("cargo:rustc-check-cfg=cfg(pg_tests)");
    println!("cargo:rerun-if-env-changed=JIANG_TEST_DATABASE_URL");
    if std::env::var_os("JIANG_TEST_DATABASE_URL").is_some_and(|url| !url.is_empty()) {
        println!("cargo:rustc-cfg=pg_tests");
    }
}
