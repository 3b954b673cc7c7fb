//! The server nodes (`--url`, repeatable) and the one way to reach them: HTTP requests and
//! WebSocket connections addressed by node number (taken modulo the number of URLs), counted
//! per URL, and with `--verify` retried on the next node after a short backoff when a node
//! does not answer.

use std::fmt;
use std::future::Future;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use jiang_rules::Variant;
use serde::Serialize;
use serde::de::DeserializeOwned;
use tokio_tungstenite::tungstenite;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

use crate::{ANSWER_TIMEOUT, GameError, LoadtestError, Player, Socket};

/// Read buffer of each WebSocket, in bytes.
const SOCKET_BUFFER: usize = 4096;
/// With `--verify`, how long one request or connection is tried again before it counts as an
/// error: longer than a node's restart or a lease's expiry.
const RETRY_BUDGET: Duration = Duration::from_secs(30);

/// What one URL was sent; printed per URL when there are several.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct NodeCounts {
    /// The URL as given (without a trailing `/`).
    pub url: String,
    /// HTTP requests sent (retries included).
    pub requests: u64,
    /// WebSockets opened (reconnections included).
    pub sockets: u64,
    /// Measured moves whose mover's socket was there.
    pub moves: u64,
    /// Requests and connections that failed there, and sockets there that dropped.
    pub failures: u64,
}

/// Writes one `url …` line per node, or nothing for a single node (whose report is unchanged).
pub(crate) fn write_lines(f: &mut fmt::Formatter<'_>, nodes: &[NodeCounts]) -> fmt::Result {
    if nodes.len() < 2 {
        return Ok(());
    }
    for n in nodes {
        writeln!(
            f,
            "url {} requests {} sockets {} moves {} failures {}",
            n.url, n.requests, n.sockets, n.moves, n.failures
        )?;
    }
    Ok(())
}

/// One server node: its URLs and counters.
pub(crate) struct Node {
    base: String,
    ws_base: String,
    requests: AtomicU64,
    sockets: AtomicU64,
    moves: AtomicU64,
    failures: AtomicU64,
}

impl Node {
    /// A node from its `--url`: plain `http://` only.
    pub(crate) fn parse(url: &str) -> Result<Node, LoadtestError> {
        let base = url.trim_end_matches('/').to_owned();
        let ws_base = if let Some(rest) = base.strip_prefix("http://") {
            format!("ws://{rest}")
        } else if base.starts_with("https://") {
            return Err(LoadtestError::TlsUnsupported { url: url.into() });
        } else {
            return Err(LoadtestError::BadUrl { url: url.into() });
        };
        Ok(Node {
            base,
            ws_base,
            requests: AtomicU64::new(0),
            sockets: AtomicU64::new(0),
            moves: AtomicU64::new(0),
            failures: AtomicU64::new(0),
        })
    }

    fn failed(&self) {
        self.failures.fetch_add(1, Ordering::Relaxed);
    }
}

/// Where the servers are, what to play, and the counters shared by every game.
pub(crate) struct Target {
    http: reqwest::Client,
    nodes: Vec<Node>,
    pub(crate) variant: Variant,
    pub(crate) computer_level: u32,
    /// `--verify`: ride out failing nodes and record acknowledged moves.
    pub(crate) verify: bool,
    numbers: AtomicUsize,
    retries: AtomicU64,
    reconnects: AtomicU64,
}

impl Target {
    pub(crate) fn new(
        http: reqwest::Client,
        nodes: Vec<Node>,
        variant: Variant,
        computer_level: u32,
        verify: bool,
    ) -> Target {
        assert!(!nodes.is_empty(), "at least one --url");
        Target {
            http,
            nodes,
            variant,
            computer_level,
            verify,
            numbers: AtomicUsize::new(0),
            retries: AtomicU64::new(0),
            reconnects: AtomicU64::new(0),
        }
    }

    /// Node number `i`, whatever the number of URLs.
    fn node(&self, i: usize) -> &Node {
        &self.nodes[i % self.nodes.len()]
    }

    /// The next number for a game or a lobby client: the node it starts on.
    pub(crate) fn next_number(&self) -> usize {
        self.numbers.fetch_add(1, Ordering::Relaxed)
    }

    /// Counts a dropped socket against its node and passes the error on.
    pub(crate) fn socket_failed(&self, node: usize, e: GameError) -> GameError {
        self.node(node).failed();
        e
    }

    /// Counts a measured move against its mover's node.
    pub(crate) fn moved(&self, node: usize) {
        self.node(node).moves.fetch_add(1, Ordering::Relaxed);
    }

    /// Counts a game resynchronised after a failure (`--verify`).
    pub(crate) fn note_reconnect(&self) {
        self.reconnects.fetch_add(1, Ordering::Relaxed);
    }

    pub(crate) fn reconnects(&self) -> u64 {
        self.reconnects.load(Ordering::Relaxed)
    }

    pub(crate) fn retries(&self) -> u64 {
        self.retries.load(Ordering::Relaxed)
    }

    /// What each URL was sent, in `--url` order.
    pub(crate) fn counts(&self) -> Vec<NodeCounts> {
        self.nodes
            .iter()
            .map(|n| NodeCounts {
                url: n.base.clone(),
                requests: n.requests.load(Ordering::Relaxed),
                sockets: n.sockets.load(Ordering::Relaxed),
                moves: n.moves.load(Ordering::Relaxed),
                failures: n.failures.load(Ordering::Relaxed),
            })
            .collect()
    }

    /// Runs `attempt(k)` for k = 0, 1, …: once without `--verify`; with it, again after a
    /// backoff (100 ms doubling to 1 s) while it fails in a [recoverable](GameError::recoverable)
    /// way, for up to [`RETRY_BUDGET`]. Callers add `k` to their node number, so that each
    /// attempt goes to the next URL.
    pub(crate) async fn retrying<T, F, Fut>(&self, mut attempt: F) -> Result<T, GameError>
    where
        F: FnMut(usize) -> Fut,
        Fut: Future<Output = Result<T, GameError>>,
    {
        let started = Instant::now();
        let mut k = 0;
        loop {
            match attempt(k).await {
                Err(e) if self.verify && e.recoverable() && started.elapsed() < RETRY_BUDGET => {
                    self.retries.fetch_add(1, Ordering::Relaxed);
                    let backoff =
                        Duration::from_millis(100 << k.min(3)).min(Duration::from_secs(1));
                    tokio::time::sleep(backoff).await;
                    k += 1;
                }
                result => return result,
            }
        }
    }

    /// `POST <path>` with a JSON body on node `node`; the JSON answer.
    pub(crate) async fn post<T: DeserializeOwned>(
        &self,
        node: usize,
        what: &'static str,
        path: &str,
        body: &impl Serialize,
    ) -> Result<T, GameError> {
        self.request(node, what, |base| {
            self.http.post(format!("{base}{path}")).json(body)
        })
        .await
    }

    /// `POST <path>` with a JSON body on node `node` as the player of `key`; the JSON answer.
    pub(crate) async fn post_as<T: DeserializeOwned>(
        &self,
        node: usize,
        what: &'static str,
        path: &str,
        key: &str,
        body: &impl Serialize,
    ) -> Result<T, GameError> {
        self.request(node, what, |base| {
            self.http
                .post(format!("{base}{path}"))
                .header("authorization", format!("Player {key}"))
                .json(body)
        })
        .await
    }

    /// `GET <path>` on node `node`; the JSON answer.
    pub(crate) async fn get<T: DeserializeOwned>(
        &self,
        node: usize,
        what: &'static str,
        path: &str,
    ) -> Result<T, GameError> {
        self.request(node, what, |base| self.http.get(format!("{base}{path}")))
            .await
    }

    /// Sends the request `build` makes for a node's base URL, [retrying](Target::retrying)
    /// on the next nodes. A retry answered `409` (a join that the first attempt made) is
    /// [`GameError::LostAnswer`].
    async fn request<T: DeserializeOwned>(
        &self,
        node: usize,
        what: &'static str,
        build: impl Fn(&str) -> reqwest::RequestBuilder,
    ) -> Result<T, GameError> {
        self.retrying(|k| {
            let node = self.node(node + k);
            node.requests.fetch_add(1, Ordering::Relaxed);
            let request = build(&node.base);
            async move {
                let result = send(request, what).await;
                match result {
                    Err(GameError::Status { status: 409, .. }) if k > 0 => {
                        Err(GameError::LostAnswer(what))
                    }
                    Err(e) => {
                        if e.recoverable() {
                            node.failed();
                        }
                        Err(e)
                    }
                    ok => ok,
                }
            }
        })
        .await
    }

    /// Opens a player's WebSocket to game `id` on node `node`.
    pub(crate) async fn connect(
        &self,
        node: usize,
        id: &str,
        token: &str,
    ) -> Result<Player, GameError> {
        let n = self.node(node);
        let mut url = reqwest::Url::parse(&format!("{}/api/games/{id}/ws", n.ws_base))
            .map_err(|e| GameError::Connect(e.to_string()))?;
        url.query_pairs_mut().append_pair("token", token);
        let socket = self.open_socket(node, url.as_str()).await?;
        Ok(Player {
            socket,
            node: node % self.nodes.len(),
        })
    }

    /// Opens the lobby WebSocket on node `node`.
    pub(crate) async fn connect_lobby(&self, node: usize) -> Result<Socket, GameError> {
        let url = format!("{}/api/lobby/ws", self.node(node).ws_base);
        self.open_socket(node, url.as_str()).await
    }

    /// Opens tournament `id`'s WebSocket on node `node` as the player of `key` (who hears
    /// "your next game" on it).
    pub(crate) async fn connect_tournament(
        &self,
        node: usize,
        id: &str,
        key: &str,
    ) -> Result<Socket, GameError> {
        use tungstenite::client::IntoClientRequest;
        let url = format!("{}/api/tournaments/{id}/ws", self.node(node).ws_base);
        let mut request = url
            .into_client_request()
            .map_err(|e| GameError::Connect(e.to_string()))?;
        let auth = format!("Player {key}")
            .parse()
            .map_err(|_| GameError::Connect("a player key that is no header value".into()))?;
        request.headers_mut().insert("authorization", auth);
        self.open_socket(node, request).await
    }

    /// Opens a WebSocket to `url` (on node `node`) within [`ANSWER_TIMEOUT`].
    async fn open_socket(
        &self,
        node: usize,
        url: impl tungstenite::client::IntoClientRequest + Unpin,
    ) -> Result<Socket, GameError> {
        // Small buffers: events are a few KiB, and tungstenite's default 128 KiB read buffer per
        // socket would cost ~250 MB over 2,000 sockets.
        let config = WebSocketConfig::default()
            .read_buffer_size(SOCKET_BUFFER)
            .write_buffer_size(0);
        let node = self.node(node);
        let opened = tokio::time::timeout(
            ANSWER_TIMEOUT,
            tokio_tungstenite::connect_async_with_config(url, Some(config), false),
        )
        .await
        .map_err(|_| GameError::Timeout("WebSocket handshake"))
        .and_then(|r| {
            r.map_err(|e| match e {
                tungstenite::Error::Http(response) => {
                    GameError::Upgrade(response.status().as_u16())
                }
                e => GameError::Connect(e.to_string()),
            })
        });
        match opened {
            Ok((socket, _)) => {
                node.sockets.fetch_add(1, Ordering::Relaxed);
                Ok(socket)
            }
            Err(e) => {
                node.failed();
                Err(e)
            }
        }
    }

    /// Checks that every node answers `GET /healthz`.
    pub(crate) async fn check_health(&self) -> Result<(), LoadtestError> {
        for node in &self.nodes {
            let health = format!("{}/healthz", node.base);
            match self.http.get(&health).send().await {
                Ok(r) if r.status().is_success() => {}
                Ok(r) => {
                    return Err(LoadtestError::Unreachable {
                        url: health,
                        reason: format!("status {}", r.status()),
                    });
                }
                Err(e) => {
                    return Err(LoadtestError::Unreachable {
                        url: health,
                        reason: e.to_string(),
                    });
                }
            }
        }
        Ok(())
    }
}

/// Sends one request; its JSON answer, or why not.
async fn send<T: DeserializeOwned>(
    request: reqwest::RequestBuilder,
    what: &'static str,
) -> Result<T, GameError> {
    let no_answer = |e: reqwest::Error| GameError::Http {
        what,
        reason: e.to_string(),
    };
    let response = request.send().await.map_err(no_answer)?;
    let status = response.status();
    if !status.is_success() {
        let body = response.text().await.unwrap_or_default();
        return Err(GameError::Status {
            what,
            status: status.as_u16(),
            body: body.chars().take(200).collect(),
        });
    }
    let body = response.bytes().await.map_err(no_answer)?;
    serde_json::from_slice(&body).map_err(|e| GameError::BadAnswer {
        what,
        reason: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_plain_http_with_their_websocket_twin() {
        let node = Node::parse("http://127.0.0.1:8080/").expect("http");
        assert_eq!(node.base, "http://127.0.0.1:8080");
        assert_eq!(node.ws_base, "ws://127.0.0.1:8080");
        assert!(matches!(
            Node::parse("https://x"),
            Err(LoadtestError::TlsUnsupported { .. })
        ));
        assert!(matches!(
            Node::parse("ftp://x"),
            Err(LoadtestError::BadUrl { .. })
        ));
    }

    #[test]
    fn node_numbers_wrap_around_the_urls() {
        let nodes = ["http://a:1", "http://b:2", "http://c:3"]
            .map(|u| Node::parse(u).expect("http"))
            .into();
        let target = Target::new(reqwest::Client::new(), nodes, Variant::Xiangqi, 8, false);
        assert_eq!(target.node(0).base, "http://a:1");
        assert_eq!(target.node(4).base, "http://b:2");
        target.moved(5);
        target.moved(2);
        target.socket_failed(1, GameError::Closed);
        let counts = target.counts();
        assert_eq!(counts[2].moves, 2);
        assert_eq!(counts[1].failures, 1);
        assert_eq!(
            counts[0],
            NodeCounts {
                url: "http://a:1".into(),
                ..NodeCounts::default()
            }
        );
    }

    #[test]
    fn per_url_lines_only_for_several_urls() {
        struct Lines(Vec<NodeCounts>);
        impl fmt::Display for Lines {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write_lines(f, &self.0)
            }
        }
        let one = NodeCounts {
            url: "http://a:1".into(),
            requests: 4,
            sockets: 3,
            moves: 20,
            failures: 1,
        };
        assert_eq!(Lines(vec![one.clone()]).to_string(), "");
        let two = NodeCounts {
            url: "http://b:2".into(),
            ..NodeCounts::default()
        };
        assert_eq!(
            Lines(vec![one, two]).to_string(),
            "url http://a:1 requests 4 sockets 3 moves 20 failures 1\n\
             url http://b:2 requests 0 sockets 0 moves 0 failures 0\n"
        );
    }
}
