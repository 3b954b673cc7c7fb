// Shared by the build scripts of `crates/server` and `crates/jiang` (each `include!`s it).

/// Sets `cfg(pg_tests)` when `JIANG_TEST_DATABASE_URL` is set, and `cfg(cluster_tests)` when
/// `JIANG_TEST_NATS_URL` is set too: the tests that need them carry
/// `#[cfg_attr(not(pg_tests), ignore = "…")]` (or `cluster_tests`), so without the services
/// they are reported as ignored instead of passing without running.
fn test_cfgs() {
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
