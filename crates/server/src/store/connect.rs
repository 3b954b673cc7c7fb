//! Opening a database: the URL picks the back end; the file's permissions, SQLite's
//! durability and the migrations are set here.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

use super::sql::{PgBackend, SqliteBackend};
use super::{Backend, StoreError};

///
/// In WAL mode `Normal` survives a crash of the server process but may lose the last commits on
/// a power cut; `Full` fsyncs the WAL on every commit. Group commit makes `Full` affordable, so
/// it is the default; `JIANG_SQLITE_SYNC=normal` trades power-cut durability for speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// fsync on every commit.
    Full,
    /// fsync at checkpoints only.
    Normal,
}

/// How long a SQLite statement waits for a lock held by another process before failing.
const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(3);

/// Makes the SQLite file at `path` (created empty if missing, so that SQLite never creates it
/// with the umask's mode) and its `-wal` and `-shm` companions readable and writable by the
/// owner only (0600): the file holds Jieqi deals, salts and seat-token hashes. SQLite gives the
/// companions it creates the main file's mode. `:memory:` and the like are left alone.
fn restrict_to_owner(path: &std::path::Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        if path.as_os_str().is_empty() || path.as_os_str().to_string_lossy().starts_with(':') {
            return Ok(());
        }
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .mode(0o600)
            .open(path)?;
        for suffix in ["", "-wal", "-shm"] {
            let mut name = path.as_os_str().to_owned();
            name.push(suffix);
            let file = std::path::Path::new(&name);
            if file.exists() {
                std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600))?;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Opens (creating and migrating) the database named by `url`.
pub async fn connect(url: &str, durability: Durability) -> Result<Arc<dyn Backend>, StoreError> {
    if let Some(path) = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
    {
        let path = path.split('?').next().unwrap_or(path);
        match std::path::Path::new(path).parent() {
            Some(dir) if !dir.as_os_str().is_empty() => std::fs::create_dir_all(dir)?,
            _ => {}
        }
        restrict_to_owner(std::path::Path::new(path))?;
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(match durability {
                Durability::Full => SqliteSynchronous::Full,
                Durability::Normal => SqliteSynchronous::Normal,
            })
            // Only the writer writes, so waiting for the lock means someone else holds it: fail
            // the unit (503, retry) rather than stall every queued write for long.
            .busy_timeout(SQLITE_BUSY_TIMEOUT)
            .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        restrict_to_owner(std::path::Path::new(path))?;
        Ok(Arc::new(SqliteBackend { pool }))
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        let options = PgConnectOptions::from_str(url)?;
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .connect_with(options)
            .await?;
        sqlx::migrate!("./migrations").run(&pool).await?;
        Ok(Arc::new(PgBackend { pool }))
    } else {
        Err(StoreError::BadUrl(url.to_owned()))
    }
}
