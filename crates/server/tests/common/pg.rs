//! A fresh PostgreSQL database for one test, and what tests do to it from outside, shared by
//! the server's tests, its lease test (`cluster.rs`) and the binary's (`crates/jiang/tests/
//! process`), which include this file by path.

#![allow(dead_code)] // each includer uses a part

/// Creates the database `jiang_test_<suffix>` for `test` on the server named by
/// `JIANG_TEST_DATABASE_URL`: (that admin URL, the new database's URL). Tests that call this
/// carry `#[cfg_attr(not(pg_tests), ignore = "…")]`; run anyway without the variable, this
/// panics saying so.
pub async fn fresh_database(test: &str, suffix: &str) -> (String, String) {
    let Ok(admin) = std::env::var("JIANG_TEST_DATABASE_URL") else {
        panic!(
            "{test} needs PostgreSQL: set JIANG_TEST_DATABASE_URL \
             (e.g. postgres://postgres@127.0.0.1:5432/postgres)"
        );
    };
    let name = format!("jiang_test_{suffix}");
    let pool = sqlx::PgPool::connect(&admin)
        .await
        .expect("JIANG_TEST_DATABASE_URL is reachable");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&pool)
        .await
        .expect("can create a test database");
    pool.close().await;
    let (prefix, _) = admin.rsplit_once('/').expect("URL has a database path");
    println!("running {test} on PostgreSQL database {name}");
    let url = format!("{prefix}/{name}");
    (admin, url)
}

/// The database name at the end of a test database's `url`.
pub fn database_name(url: &str) -> &str {
    url.rsplit_once('/').expect("URL has a database path").1
}

/// Drops the test database at `url` from the server at `admin`, closing its sessions.
pub async fn drop_database(admin: &str, url: &str) -> Result<(), sqlx::Error> {
    let pool = sqlx::PgPool::connect(admin).await?;
    let dropped = sqlx::query(&format!(
        "DROP DATABASE IF EXISTS {} WITH (FORCE)",
        database_name(url)
    ))
    .execute(&pool)
    .await;
    pool.close().await;
    dropped.map(|_| ())
}

/// Makes every new session of the test database `name` read-only (or writable again), from the
/// server at `admin`, and ends the current ones, so that the next write meets the change.
pub async fn set_read_only(admin: &str, name: &str, read_only: bool) {
    let pool = sqlx::PgPool::connect(admin)
        .await
        .expect("admin connection");
    let setting = if read_only { "on" } else { "off" };
    sqlx::query(&format!(
        "ALTER DATABASE {name} SET default_transaction_read_only = {setting}"
    ))
    .execute(&pool)
    .await
    .expect("alter database");
    sqlx::query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1")
        .bind(name)
        .execute(&pool)
        .await
        .expect("terminate sessions");
    pool.close().await;
}
