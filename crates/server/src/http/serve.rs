//! The serve loop: accepts TCP connections and serves HTTP/1.1 on them (WebSocket upgrades
//! included) with the limits that keep one client from locking out the others:
//!
//! - a header-read timeout (a connection that does not finish its request headers in time, or
//!   stays idle between requests that long, is closed);
//! - a cap on open connections in total and per client address (an IPv6 client by its /64),
//!   WebSockets included; a connection over a cap is reset at once, before anything is read;
//! - a deadline on graceful shutdown, after which the connections still open are dropped.
//!
//! It replaces `axum::serve`, which gives hyper no timer (so no header timeout is in force) and
//! waits for every connection at shutdown, however long.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

use crate::http::slots::{Slot, Slots};

/// The connection a request came on, as a request extension: a WebSocket keeps it after the
/// upgrade, so that its connection still counts against the caps while it is open.
#[derive(Clone, Debug)]
pub(crate) struct ConnectionSlot(#[allow(dead_code)] pub Arc<Slot>);

/// What the serve loop needs.
pub(crate) struct ServeLoop {
    /// Where connections come from.
    pub listener: TcpListener,
    /// The application.
    pub app: Router,
    /// Open connections (and the WebSockets on them), with their caps.
    pub connections: Arc<Slots>,
    /// Reverse proxies: their connections count in the total only, since each carries many
    /// clients (those are limited per request by the rate limiter and the socket cap).
    pub trusted_proxies: Arc<[IpAddr]>,
    /// How long a client has to send its request headers.
    pub header_timeout: Duration,
    /// How long graceful shutdown waits for open connections before dropping them.
    pub shutdown_timeout: Duration,
    /// Becomes `true` when the server is to stop.
    pub stop: watch::Receiver<bool>,
    /// Set to `true` when the shutdown deadline has passed: every connection task and
    /// WebSocket still running ends at once.
    pub hard_stop: watch::Sender<bool>,
}

impl ServeLoop {
    /// Serves until `stop`, then shuts down: no new connections; open ones finish the request
    /// they are serving (WebSockets close as their game actors stop) until the deadline; then
    /// whatever is left is dropped. Returns once no connection is open.
    pub async fn run(self) {
        let ServeLoop {
            listener,
            app,
            connections,
            trusted_proxies,
            header_timeout,
            shutdown_timeout,
            mut stop,
            hard_stop,
        } = self;
        let mut http = http1::Builder::new();
        http.timer(TokioTimer::new())
            .header_read_timeout(header_timeout)
            .keep_alive(true);
        loop {
            let (stream, peer) = tokio::select! {
                accepted = listener.accept() => match accepted {
                    Ok(accepted) => accepted,
                    Err(e) => {
                        accept_failed(e).await;
                        continue;
                    }
                },
                _ = stopped(&mut stop) => break,
            };
            let address = (!trusted_proxies.contains(&peer.ip())).then_some(peer.ip());
            let slot = match connections.try_acquire(address) {
                Ok(slot) => Arc::new(slot),
                Err(full) => {
                    refuse(stream, peer, full);
                    continue;
                }
            };
            let _ = stream.set_nodelay(true);
            tokio::spawn(serve_connection(
                http.clone(),
                stream,
                peer,
                app.clone(),
                slot,
                stop.clone(),
                hard_stop.subscribe(),
            ));
        }
        drop(listener);
        drop(app);
        let open = connections.open();
        tracing::debug!(open, "no longer accepting; waiting for open connections");
        if tokio::time::timeout(shutdown_timeout, connections.wait_empty())
            .await
            .is_err()
        {
            tracing::warn!(
                open = connections.open(),
                timeout = ?shutdown_timeout,
                "shutdown deadline passed: dropping the connections still open"
            );
            let _ = hard_stop.send(true);
            connections.wait_empty().await;
        }
    }
}

/// Resets a connection over a cap without reading from it: no `TIME_WAIT` left behind, nothing
/// spent on it.
fn refuse(stream: TcpStream, peer: SocketAddr, full: crate::http::slots::Full) {
    tracing::debug!(%peer, %full, "connection refused");
    let _ = stream.set_zero_linger();
    drop(stream);
}

/// An accept error: a connection that went away before it was accepted is nothing; anything
/// else (out of file descriptors, for one) is logged and waited out briefly rather than
/// retried in a tight loop.
async fn accept_failed(e: std::io::Error) {
    use std::io::ErrorKind;
    if matches!(
        e.kind(),
        ErrorKind::ConnectionAborted | ErrorKind::ConnectionReset | ErrorKind::Interrupted
    ) {
        return;
    }
    tracing::error!(error = %e, "cannot accept a connection");
    tokio::time::sleep(Duration::from_millis(100)).await;
}

/// Serves one connection until it ends, the server stops gracefully (the request in progress
/// is finished, then the connection closed) or the shutdown deadline passes.
async fn serve_connection(
    http: http1::Builder,
    stream: TcpStream,
    peer: SocketAddr,
    app: Router,
    slot: Arc<Slot>,
    mut stop: watch::Receiver<bool>,
    mut hard_stop: watch::Receiver<bool>,
) {
    let service = {
        let slot = Arc::clone(&slot);
        hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
            // What `into_make_service_with_connect_info` did, plus the connection's slot.
            request.extensions_mut().insert(ConnectInfo(peer));
            request
                .extensions_mut()
                .insert(ConnectionSlot(Arc::clone(&slot)));
            tower::ServiceExt::oneshot(app.clone(), request)
        })
    };
    let connection = http
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades();
    tokio::pin!(connection);
    let result = tokio::select! {
        result = connection.as_mut() => Some(result),
        _ = stopped(&mut stop) => {
            connection.as_mut().graceful_shutdown();
            tokio::select! {
                result = connection.as_mut() => Some(result),
                _ = stopped(&mut hard_stop) => None,
            }
        }
    };
    if let Some(Err(e)) = result {
        tracing::debug!(%peer, error = %e, "connection ended with an error");
    }
    drop(slot);
}

/// Resolves once `signal` is `true` (or its sender is gone, which means the same).
pub(crate) async fn stopped(signal: &mut watch::Receiver<bool>) {
    let _ = signal.wait_for(|s| *s).await;
}
