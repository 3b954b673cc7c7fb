//! A fresh PostgreSQL database for one test, shared by the server's tests and the binary's
//! (`crates/jiang/tests/process`, which includes this file by path).

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
