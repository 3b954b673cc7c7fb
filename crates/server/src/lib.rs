//! Jiang's game server: the HTTP and WebSocket API, one actor per live game, clocks and
//! storage. Built on `jiang-rules`; serves the front end in `web/`.
//!
//! [`start`] binds, opens (creating and migrating) the database, resumes every game in
//! progress and serves until [`Server::shutdown`].

pub mod clock;
pub mod error;
pub mod game;
mod http;
mod import;
pub mod pages;
pub mod ratelimit;
pub mod seat;
pub mod store;
pub mod table;
mod ws;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};

pub use ratelimit::Rate;
pub use store::Durability;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on (`127.0.0.1:8080`; port 0 picks a free one).
    pub listen: String,
    /// `sqlite://<path>` or `postgres://…`.
    pub database_url: String,
    /// Base of the links handed out; default `http://<listen address>`.
    pub public_url: Option<String>,
    /// Per-client-address limit on API requests (including WebSocket upgrades).
    pub rate_limit: Rate,
    /// How long the side to move has for its first move before the game is aborted (30 s).
    pub first_move_timeout: Duration,
    /// SQLite durability (see [`Durability`]).
    pub durability: Durability,
    /// Reverse proxies in front of the server: requests from these addresses are counted
    /// against the client named in `X-Forwarded-For` (empty: the header is ignored).
    pub trusted_proxies: Vec<IpAddr>,
    /// How long a game's actor with nothing to do (no subscriber, no running clock) stays in
    /// memory; the game is reloaded from the store when next asked for (120 s).
    pub idle_timeout: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            listen: "127.0.0.1:8080".into(),
            database_url: "sqlite://data/jiang.db".into(),
            public_url: None,
            rate_limit: Rate {
                per_second: 20.0,
                burst: 60.0,
            },
            first_move_timeout: Duration::from_secs(30),
            durability: Durability::Full,
            trusted_proxies: Vec::new(),
            idle_timeout: Duration::from_secs(120),
        }
    }
}

/// Why the server could not start or stopped badly.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The listen address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: String,
        /// Why.
        source: std::io::Error,
    },
    /// The database failed.
    #[error(transparent)]
    Store(#[from] store::StoreError),
    /// Serving failed.
    #[error("server error: {0}")]
    Io(#[from] std::io::Error),
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    public_url: String,
    shutdown: watch::Sender<bool>,
    task: tokio::task::JoinHandle<Result<(), ServeError>>,
}

impl Server {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The base URL of its links.
    pub fn public_url(&self) -> &str {
        &self.public_url
    }

    /// Stops gracefully: no new connections, every game actor finishes its current action
    /// (including its write), sockets are closed, the store's queue is drained and the
    /// database closed.
    pub async fn shutdown(self) -> Result<(), ServeError> {
        let _ = self.shutdown.send(true);
        match self.task.await {
            Ok(result) => result,
            Err(e) => Err(ServeError::Io(std::io::Error::other(e))),
        }
    }
}

/// Starts a server with `config`.
pub async fn start(config: Config) -> Result<Server, ServeError> {
    // Bind first: a bad address must not leave a new database file behind.
    let listener = TcpListener::bind(&config.listen)
        .await
        .map_err(|source| ServeError::Bind {
            addr: config.listen.clone(),
            source,
        })?;
    let backend = store::connect(&config.database_url, config.durability).await?;
    let addr = listener.local_addr()?;
    let public_url = config
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{addr}"))
        .trim_end_matches('/')
        .to_owned();
    let (store, writer) = store::Store::new(backend.clone());
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let (alive_tx, mut alive_rx) = mpsc::channel::<()>(1);
    let games = game::Games::new(
        store,
        game::GameSettings {
            first_move_timeout: config.first_move_timeout,
            public_url: public_url.clone(),
            idle_timeout: config.idle_timeout,
        },
        shutdown_rx.clone(),
        alive_tx,
    );
    let resumed = games.resume_all().await?;
    tracing::info!(%addr, resumed, "jiang server listening");
    let app = http::router(http::AppState {
        games,
        limiter: Arc::new(ratelimit::Limiter::new(config.rate_limit)),
        trusted_proxies: config.trusted_proxies.clone().into(),
    });
    let mut stop = shutdown_rx;
    let task = tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async move {
            let _ = stop.wait_for(|s| *s).await;
        })
        .await?;
        tracing::debug!("connections closed");
        // Every actor has finished (its last write included) once all `alive` senders are gone.
        while alive_rx.recv().await.is_some() {}
        tracing::debug!("game actors stopped");
        // The router held the last `Store`; the writer drains its queue and ends.
        let _ = writer.await;
        backend.close().await;
        tracing::info!("jiang server stopped");
        Ok(())
    });
    Ok(Server {
        addr,
        public_url,
        shutdown: shutdown_tx,
        task,
    })
}
