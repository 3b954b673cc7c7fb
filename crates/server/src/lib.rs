//! Jiang's game server: the HTTP and WebSocket API, one actor per live game, clocks and
//! storage. Built on `jiang-rules`; serves the front end in `web/`.
//!
//! [`start`] binds, opens (creating and migrating) the database, resumes every game in
//! progress that has a timer to run (charging the think time up to the last stop, not the
//! downtime: see `heartbeat`), and serves until [`Server::shutdown`].

mod analysis;
pub mod clock;
pub mod cluster;
pub mod engine_pool;
pub mod error;
pub mod game;
mod heartbeat;
pub mod http;
pub mod lobby;
pub mod players;
pub mod puzzles;
pub mod rating;
pub mod seat;
pub mod store;
pub mod table;
pub mod tournaments;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{mpsc, watch};

pub use http::ratelimit::Rate;
pub use lobby::LobbySettings;
pub use puzzles::PuzzleSettings;
pub use store::Durability;
pub use tournaments::TournamentSettings;

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
    /// Per-client-address limit on new players (`POST /api/players`): 5 at once, then one
    /// every 10 minutes.
    pub player_rate: Rate,
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
    /// This server node's key in the `nodes` table (its heartbeat row): `main` for the single
    /// node of today; each node of a future cluster keeps its own.
    pub node: String,
    /// An untimed game in progress that nobody changed for this long ends as `abandoned`
    /// (30 days).
    pub abandon_after: Duration,
    /// The longest the correspondence deadline sweep sleeps between two looks at the store
    /// (60 s; it wakes at the earliest stored deadline when that is sooner). No flag: tests
    /// shorten it.
    pub deadline_sweep_max: Duration,
    /// Connection and WebSocket limits.
    pub limits: Limits,
    /// The shortest grace period before a player may claim against an absent opponent (10 s;
    /// longer clocks get longer ones, see [`game::claim_grace`]).
    pub claim_grace_min: Duration,
    /// The lobby's seek timeout and abuse limits.
    pub lobby: LobbySettings,
    /// Threads of the engine pool (computer opponents, analysis): at least 1; the default is
    /// [`engine_pool::default_threads`].
    pub engine_threads: usize,
    /// The longest one analysis-board search may run (`--analysis-seconds`, 30 s).
    pub analysis_seconds: Duration,
    /// The engine's budget per position of a computer review, in nodes (`--review-nodes`).
    pub review_nodes: u64,
    /// Cluster mode: the NATS server's URL (`--cluster nats://…`); needs a PostgreSQL
    /// database and a node id of its own per node ([`Config::node`]). See [`cluster`].
    pub cluster: Option<String>,
    /// Cluster mode: the first token of every NATS subject (`jiang`), so that several sites
    /// (or test runs) can share one NATS server.
    pub cluster_name: String,
    /// Puzzles: the shipped sets, the operator's files, the importer's schedule.
    pub puzzles: PuzzleSettings,
    /// How the tournaments' pairing loop runs.
    pub tournaments: TournamentSettings,
}

/// Limits on connections and WebSockets: what keeps one client (or a crowd of idle ones) from
/// locking the others out. A cap of 0 means no cap.
#[derive(Clone, Debug)]
pub struct Limits {
    /// How long a client has to send a request's headers, and the longest an HTTP connection
    /// stays open idle between requests (10 s).
    pub header_timeout: Duration,
    /// Open connections in all, WebSockets included (10,000); more are reset at once.
    pub max_connections: usize,
    /// Open connections per client address, an IPv6 client by its /64 (256; trusted proxies are
    /// not capped: their clients are not known before a request is read).
    pub max_connections_per_address: usize,
    /// Open WebSockets per client address, as the rate limiter names it (64).
    pub max_sockets_per_address: usize,
    /// A WebSocket that sends nothing (no message, no pong to the server's pings) for this long
    /// is closed (60 s); the server pings every quarter of it.
    pub ws_idle_timeout: Duration,
    /// How long a graceful shutdown waits for open connections before dropping them (10 s).
    pub shutdown_timeout: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            header_timeout: Duration::from_secs(10),
            max_connections: 10_000,
            max_connections_per_address: 256,
            max_sockets_per_address: 64,
            ws_idle_timeout: Duration::from_secs(60),
            shutdown_timeout: Duration::from_secs(10),
        }
    }
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
            player_rate: Rate {
                per_second: 1.0 / 600.0,
                burst: 5.0,
            },
            first_move_timeout: Duration::from_secs(30),
            durability: Durability::Full,
            trusted_proxies: Vec::new(),
            idle_timeout: Duration::from_secs(120),
            node: "main".into(),
            abandon_after: Duration::from_secs(30 * 24 * 3600),
            deadline_sweep_max: Duration::from_secs(60),
            limits: Limits::default(),
            claim_grace_min: Duration::from_secs(10),
            lobby: LobbySettings::default(),
            engine_threads: engine_pool::default_threads(),
            analysis_seconds: analysis::engine::DEFAULT_SECONDS,
            review_nodes: analysis::engine::DEFAULT_REVIEW_NODES,
            cluster: None,
            cluster_name: "jiang".into(),
            puzzles: PuzzleSettings::default(),
            tournaments: TournamentSettings::default(),
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
    /// Cluster mode could not start (no PostgreSQL, NATS unreachable, a bad node id).
    #[error(transparent)]
    Cluster(#[from] cluster::ClusterError),
    /// `--public-url` is not an http(s) URL.
    #[error(transparent)]
    PublicUrl(#[from] http::origin::OriginError),
    /// A puzzle file could not be loaded.
    #[error(transparent)]
    Puzzles(#[from] puzzles::import::PuzzleLoadError),
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
    resumed: usize,
    /// The game registry, weakly (a strong reference would keep the actors' shutdown waiting).
    games: std::sync::Weak<game::Games>,
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

    /// How many games were resumed at start (those with a timer to run: timed games and
    /// first-move countdowns).
    pub fn resumed_games(&self) -> usize {
        self.resumed
    }

    /// How many game actors are in memory now (0 once the server has stopped).
    pub fn live_games(&self) -> usize {
        self.games.upgrade().map_or(0, |games| games.live_actors())
    }

    /// Stops gracefully: no new connections, every game actor finishes its current action
    /// (including its write), sockets are closed, the store's queue is drained and the
    /// database closed. Connections still open at the shutdown deadline
    /// ([`Limits::shutdown_timeout`]) are dropped; the steps after them still run.
    pub async fn shutdown(self) -> Result<(), ServeError> {
        let _ = self.shutdown.send(true);
        match self.task.await {
            Ok(result) => result,
            Err(e) => Err(ServeError::Io(std::io::Error::other(e))),
        }
    }
}

/// How long closing the database may take at the end of a shutdown.
const STORE_SHUTDOWN_DEADLINE: Duration = Duration::from_secs(10);

/// How long after the shutdown signal the store may go on committing queued writes; then the
/// writes still pending are refused so that the server stops. It is three quarters of the
/// connections' shutdown deadline, so that a request waiting for such a write still gets its
/// `503 unavailable` over its connection before open connections are dropped.
fn store_write_deadline(limits: &Limits) -> Duration {
    limits.shutdown_timeout.mul_f64(0.75)
}

/// Starts a server with `config`.
pub async fn start(config: Config) -> Result<Server, ServeError> {
    // A public URL that is not http(s) would break the links and the origin check.
    if let Some(url) = &config.public_url {
        http::origin::OriginPolicy::new(url)?;
    }
    // Bind first: a bad address must not leave a new database file behind.
    let listener = TcpListener::bind(&config.listen)
        .await
        .map_err(|source| ServeError::Bind {
            addr: config.listen.clone(),
            source,
        })?;
    // Cluster mode needs PostgreSQL and NATS: refuse to start without them, before anything
    // is created.
    let cluster = match &config.cluster {
        Some(url) => Some(Arc::new(
            cluster::Cluster::connect(
                url,
                &config.cluster_name,
                &config.node,
                &config.database_url,
            )
            .await?,
        )),
        None => None,
    };
    let backend = store::connect(&config.database_url, config.durability).await?;
    let addr = listener.local_addr()?;
    let public_url = config
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{addr}"))
        .trim_end_matches('/')
        .to_owned();
    let (store, writer) = store::Store::new(backend.clone());
    // This node's previous runs: each until its graceful stop or its last heartbeat.
    let runs = store.runs(&config.node).await?;
    match runs.last() {
        Some(run) if run.stopped_at.is_some() => {
            tracing::info!(node = %config.node, stopped_at = run.alive_at, "previous run stopped cleanly");
        }
        Some(run) => {
            tracing::warn!(node = %config.node, last_heartbeat = run.alive_at, "previous run did not stop cleanly");
        }
        None => {}
    }
    let abort_writes = store.abort_handle();
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let (alive_tx, mut alive_rx) = mpsc::channel::<()>(1);
    let sockets = http::slots::Slots::new(0, config.limits.max_sockets_per_address);
    let lobby = lobby::Lobby::new(config.lobby.clone(), sockets.clone(), shutdown_rx.clone());
    lobby.spawn_flusher();
    let engines = engine_pool::EnginePool::new(config.engine_threads);
    let games = game::Games::new(
        store,
        engines.clone(),
        game::GameSettings {
            first_move_timeout: config.first_move_timeout,
            public_url: public_url.clone(),
            idle_timeout: config.idle_timeout,
            abandon_after: config.abandon_after,
            claim_grace_min: config.claim_grace_min,
            deadline_sweep_max: config.deadline_sweep_max,
        },
        shutdown_rx.clone(),
        alive_tx,
        game::NodeParts {
            runs: runs
                .iter()
                .map(|run| clock::Run {
                    started_at: run.started_at,
                    alive_at: run.alive_at,
                })
                .collect(),
            cluster: cluster.clone(),
        },
        lobby.clone(),
    );
    // The puzzles first: once the games are resumed their clocks run, and the seconds spent
    // storing thousands of puzzles would be charged to the players to move (a restart
    // charges the think time, never the downtime: clocks-and-games.md).
    let puzzles = puzzles::import::load_at_start(games.store(), &config.puzzles).await?;
    tracing::info!(puzzles, "puzzles loaded");
    let (resumed, started_at) = games.resume_all(&config.node).await?;
    if let Some(every) = config.puzzles.import_every {
        puzzles::import::spawn(games.store().clone(), every, shutdown_rx.clone());
    }
    // Set once every actor has stopped: the cluster's command service ends then.
    let (cluster_closed_tx, cluster_closed_rx) = watch::channel(false);
    if let Some(cluster) = &cluster {
        game::spawn_tasks(games.clone(), cluster.clone(), cluster_closed_rx).await?;
        tracing::info!(node = %config.node, "cluster mode: leases in PostgreSQL, messages over NATS");
    }
    let (heartbeat_stop, heartbeat) = heartbeat::spawn(
        games.store().clone(),
        config.node.clone(),
        started_at,
        heartbeat::INTERVAL,
    );
    heartbeat::spawn_abandonment_sweep(games.clone(), shutdown_rx.clone());
    heartbeat::spawn_deadline_sweep(games.clone(), shutdown_rx.clone());
    let live_games = Arc::downgrade(&games);
    let tournaments = tournaments::Hub::new();
    if let Some(cluster) = &cluster {
        tournaments
            .share_with(cluster.clone(), shutdown_rx.clone())
            .await?;
    }
    tournaments::runner::spawn(
        games.clone(),
        tournaments.clone(),
        config.tournaments.clone(),
        cluster.clone(),
        shutdown_rx.clone(),
    );
    tracing::info!(%addr, resumed, "jiang server listening");
    let (hard_stop_tx, hard_stop_rx) = watch::channel(false);
    let limits = &config.limits;
    let trusted_proxies: Arc<[IpAddr]> = config.trusted_proxies.clone().into();
    let app = http::router(http::state::AppState {
        games,
        limiter: Arc::new(http::ratelimit::Limiter::new(config.rate_limit)),
        player_limiter: Arc::new(http::ratelimit::Limiter::new(config.player_rate)),
        trusted_proxies: trusted_proxies.clone(),
        origin: Arc::new(http::origin::OriginPolicy::new(&public_url)?),
        sockets,
        lobby,
        tournaments,
        ws_idle_timeout: limits.ws_idle_timeout,
        analysis_seconds: config.analysis_seconds,
        review_nodes: config.review_nodes,
        hard_stop: hard_stop_rx,
    });
    // Shutdown must finish even when the database cannot commit: past the deadline the writer
    // gives up and answers every unit not yet committed with an error (never an ack).
    let mut stop_writes = shutdown_rx.clone();
    let give_up_writes_after = store_write_deadline(limits);
    let write_deadline = tokio::spawn(async move {
        if stop_writes.wait_for(|s| *s).await.is_ok() {
            tokio::time::sleep(give_up_writes_after).await;
            abort_writes.abort();
        }
    });
    let serve_loop = http::serve::ServeLoop {
        listener,
        app,
        connections: http::slots::Slots::new(
            limits.max_connections,
            limits.max_connections_per_address,
        ),
        trusted_proxies,
        header_timeout: limits.header_timeout,
        shutdown_timeout: limits.shutdown_timeout,
        stop: shutdown_rx,
        hard_stop: hard_stop_tx,
    };
    let task = tokio::spawn(async move {
        serve_loop.run().await;
        tracing::debug!("connections closed");
        // Every actor has finished (its last write included) once all `alive` senders are gone.
        while alive_rx.recv().await.is_some() {}
        tracing::debug!("game actors stopped");
        // Every lease is released (or left to expire): the other nodes may take the games.
        let _ = cluster_closed_tx.send(true);
        if let Some(cluster) = &cluster {
            cluster.close().await;
        }
        engines.shutdown().await;
        // The last beat says when the clocks stopped (after the last game write).
        let _ = heartbeat_stop.send(());
        let _ = heartbeat.await;
        // The router held the last `Store`; the writer drains its queue and ends.
        let _ = writer.await;
        write_deadline.abort();
        // Closing waits for connections in use; a wedged database must not hold the exit.
        if tokio::time::timeout(STORE_SHUTDOWN_DEADLINE, backend.close())
            .await
            .is_err()
        {
            tracing::error!("database connections did not close in time");
        }
        tracing::info!("jiang server stopped");
        Ok(())
    });
    Ok(Server {
        addr,
        public_url,
        shutdown: shutdown_tx,
        task,
        resumed,
        games: live_games,
    })
}
