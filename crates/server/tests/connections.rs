//! Connection hygiene and per-address budgets, against a real server on a random port: half-open
//! connections (slowloris), the header-read timeout, the connection caps, graceful shutdown
//! with a deadline, WebSocket caps, budgets and idle timeout, debounced spectator counts,
//! oversized WebSocket messages and 405 answers.
//!
//! Several tests connect from 127.0.0.2 or 127.0.0.3 (Linux routes all of 127/8 to loopback) to
//! be a second client address.

mod common;

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use common::TestServer;
use futures_util::{SinkExt, StreamExt};
use jiang_server::{Config, Rate};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::{self, Message};

type Ws = WebSocketStream<TcpStream>;

/// The start of a request whose headers never end.
const PARTIAL_REQUEST: &[u8] = b"GET /healthz HTTP/1.1\r\nHost: jiang.test\r\nX-Slow: ";

/// The largest WebSocket message the server reads at all (docs/api.md).
const MAX_READ: usize = 256 * 1024;

/// The "it finishes" deadline of these tests: generous, never a performance bound.
const DEADLINE: Duration = Duration::from_secs(30);

async fn server(adjust: impl FnOnce(&mut Config)) -> TestServer {
    TestServer::with(common::Backend::Sqlite, "connections", adjust).await
}

/// A server allowing `per_second` API requests per second, in bursts of `burst`.
async fn rate_limited(per_second: f64, burst: f64) -> TestServer {
    server(|c| c.rate_limit = Rate { per_second, burst }).await
}

fn addr(s: &TestServer) -> SocketAddr {
    s.base
        .trim_start_matches("http://")
        .parse()
        .expect("host:port")
}

/// A TCP connection to the server from the local address `from` (e.g. `127.0.0.2`); an error
/// if the server reset it at once (over a cap) before the connect call returned.
async fn try_tcp_from(from: &str, to: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4().expect("socket");
    socket
        .bind(format!("{from}:0").parse().unwrap())
        .expect("bind a loopback address");
    socket.connect(to).await
}

async fn tcp_from(from: &str, to: SocketAddr) -> TcpStream {
    try_tcp_from(from, to).await.expect("connect")
}

/// Whether a new connection from `from` is reset (or closed) by the server without an answer.
async fn refused(from: &str, to: SocketAddr) -> bool {
    match try_tcp_from(from, to).await {
        Err(_) => true,
        Ok(mut stream) => healthz_on(&mut stream).await.is_none(),
    }
}

/// A connection from `from` that has sent part of a request's headers and stops there, or
/// `None` if the server reset it at once.
async fn half_open(from: &str, to: SocketAddr) -> Option<TcpStream> {
    let mut stream = try_tcp_from(from, to).await.ok()?;
    // The server may already have reset it: that is for the caller to find out.
    let _ = stream.write_all(PARTIAL_REQUEST).await;
    Some(stream)
}

/// Sends `GET /healthz` on `stream` and returns the status line, or `None` if the server
/// closed or reset the connection.
async fn healthz_on(stream: &mut TcpStream) -> Option<String> {
    let request = b"GET /healthz HTTP/1.1\r\nHost: jiang.test\r\n\r\n";
    if stream.write_all(request).await.is_err() {
        return None;
    }
    let mut answer = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        let read = tokio::time::timeout(DEADLINE, stream.read(&mut buf))
            .await
            .expect("an answer or a close within the deadline");
        match read {
            Ok(0) | Err(_) => return None,
            Ok(n) => answer.extend_from_slice(&buf[..n]),
        }
        if let Some(end) = answer.windows(2).position(|w| w == b"\r\n") {
            return Some(String::from_utf8_lossy(&answer[..end]).into_owned());
        }
    }
}

/// Whether the server ends `stream` (EOF or reset) within the deadline, reading and discarding
/// whatever it sends first.
async fn closed_by_server(stream: &mut TcpStream) -> bool {
    let mut buf = [0u8; 1024];
    let until = Instant::now() + DEADLINE;
    loop {
        match tokio::time::timeout_at(until.into(), stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => continue,
        }
    }
}

/// A WebSocket to `url` from the local address `from`.
async fn ws_from(from: &str, s: &TestServer, url: &str) -> Result<Ws, tungstenite::Error> {
    let stream = tcp_from(from, addr(s)).await;
    tokio_tungstenite::client_async(url, stream)
        .await
        .map(|(ws, _)| ws)
}

async fn ws(s: &TestServer, url: &str) -> Ws {
    ws_from("127.0.0.1", s, url).await.expect("websocket opens")
}

/// The next JSON text message (pings are answered by tungstenite while reading).
async fn next_json(socket: &mut Ws) -> Value {
    loop {
        let message = tokio::time::timeout(DEADLINE, socket.next())
            .await
            .expect("a message within the deadline")
            .expect("socket open")
            .expect("no socket error");
        match message {
            Message::Text(text) => return serde_json::from_str(&text).expect("JSON"),
            Message::Close(frame) => panic!("socket closed: {frame:?}"),
            _ => continue,
        }
    }
}

async fn next_of(socket: &mut Ws, kind: &str) -> Value {
    loop {
        let v = next_json(socket).await;
        if v["type"] == kind {
            return v;
        }
    }
}

async fn send(socket: &mut Ws, value: Value) {
    socket
        .send(Message::Text(value.to_string().into()))
        .await
        .expect("send");
}

/// Reads until the server closes `socket`; the close frame's code if it sent one.
async fn close_code(socket: &mut Ws) -> Option<u16> {
    loop {
        match tokio::time::timeout(DEADLINE, socket.next())
            .await
            .expect("closed within the deadline")
        {
            Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
            Some(Ok(_)) => continue,
            Some(Err(_)) | None => return None,
        }
    }
}

#[tokio::test]
async fn half_open_connections_do_not_lock_others_out() {
    // 1,100 connections here and up to as many in the server, in this one process.
    let limit = rlimit::increase_nofile_limit(8_192).expect("open-file limit");
    assert!(limit >= 3_000, "open-file limit {limit} is too low");
    let s = server(|c| c.limits.header_timeout = Duration::from_secs(300)).await;
    let to = addr(&s);
    let mut slow = Vec::new();
    let mut reset = 0;
    for _ in 0..1_100 {
        match half_open("127.0.0.1", to).await {
            Some(stream) => slow.push(stream),
            None => reset += 1,
        }
    }
    // Another client is served while they hang on.
    let other = reqwest::Client::builder()
        .local_address("127.0.0.2".parse::<std::net::IpAddr>().unwrap())
        .timeout(DEADLINE)
        .build()
        .unwrap();
    let started = Instant::now();
    let response = other.get(s.url("/healthz")).send().await.expect("answered");
    assert_eq!(response.status(), StatusCode::OK);
    eprintln!(
        "a request with 1,100 half-open connections open took {:?}",
        started.elapsed()
    );
    // The slowloris client holds at most its per-address share; the rest were reset at once.
    let cap = Config::default().limits.max_connections_per_address;
    let checks = slow.iter_mut().map(|stream| async move {
        let mut buf = [0u8; 16];
        matches!(
            tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buf)).await,
            Ok(Ok(0) | Err(_))
        )
    });
    reset += futures_util::future::join_all(checks)
        .await
        .into_iter()
        .filter(|&reset| reset)
        .count();
    assert_eq!(reset, 1_100 - cap, "connections over the per-address cap");
    drop(slow);
    s.stop().await;
}

#[tokio::test]
async fn the_header_timeout_closes_half_open_and_silent_connections() {
    let s = server(|c| c.limits.header_timeout = Duration::from_secs(1)).await;
    let mut partial = half_open("127.0.0.1", addr(&s)).await.expect("accepted");
    let mut silent = tcp_from("127.0.0.1", addr(&s)).await;
    assert!(closed_by_server(&mut partial).await);
    assert!(closed_by_server(&mut silent).await);
    // A client that sends its request in time is served.
    let mut prompt = tcp_from("127.0.0.1", addr(&s)).await;
    assert_eq!(
        healthz_on(&mut prompt).await.as_deref(),
        Some("HTTP/1.1 200 OK")
    );
    s.stop().await;
}

#[tokio::test]
async fn connections_are_capped_in_total_and_per_address() {
    let s = server(|c| {
        c.limits.header_timeout = Duration::from_secs(300);
        c.limits.max_connections = 6;
        c.limits.max_connections_per_address = 4;
    })
    .await;
    let to = addr(&s);
    let mut first = Vec::new();
    for _ in 0..4 {
        first.push(tcp_from("127.0.0.1", to).await);
    }
    // A fifth from the same address is reset; others are served up to the total.
    assert!(refused("127.0.0.1", to).await, "over the per-address cap");
    let mut second = Vec::new();
    for _ in 0..2 {
        let mut stream = tcp_from("127.0.0.2", to).await;
        assert_eq!(
            healthz_on(&mut stream).await.as_deref(),
            Some("HTTP/1.1 200 OK")
        );
        second.push(stream);
    }
    assert!(refused("127.0.0.3", to).await, "over the total cap");
    // The connections held are served.
    for stream in &mut first {
        assert_eq!(healthz_on(stream).await.as_deref(), Some("HTTP/1.1 200 OK"));
    }
    // Closing two frees their places (once the server has seen them go).
    first.truncate(2);
    let until = Instant::now() + DEADLINE;
    loop {
        if !refused("127.0.0.1", to).await {
            break;
        }
        assert!(Instant::now() < until, "a freed place is never given again");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    s.stop().await;
}

#[tokio::test]
async fn a_trusted_proxy_is_not_capped_per_address() {
    let s = server(|c| {
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
        c.limits.max_connections_per_address = 2;
    })
    .await;
    let mut held = Vec::new();
    for _ in 0..5 {
        let mut stream = tcp_from("127.0.0.1", addr(&s)).await;
        assert_eq!(
            healthz_on(&mut stream).await.as_deref(),
            Some("HTTP/1.1 200 OK")
        );
        held.push(stream);
    }
    let mut client = tcp_from("127.0.0.2", addr(&s)).await;
    let _other = tcp_from("127.0.0.2", addr(&s)).await;
    assert!(healthz_on(&mut client).await.is_some());
    assert!(refused("127.0.0.2", addr(&s)).await);
    s.stop().await;
}

#[tokio::test]
async fn graceful_shutdown_meets_its_deadline_and_still_stores_everything() {
    let mut s = server(|c| {
        c.limits.header_timeout = Duration::from_secs(300);
        c.limits.shutdown_timeout = Duration::from_secs(1);
    })
    .await;
    let (id, red, _black) = s.game(json!({"variant": "xiangqi"}), "red").await;
    s.play(&id, &red, "h2e2").await;
    let mut half_opens = Vec::new();
    for _ in 0..50 {
        half_opens.push(half_open("127.0.0.1", addr(&s)).await.expect("accepted"));
    }
    // Sockets that never read, and one that does.
    let mut quiet = Vec::new();
    for _ in 0..3 {
        quiet.push(ws(&s, &s.ws_url(&id, None)).await);
    }
    let mut reader = ws(&s, &s.ws_url(&id, Some(&red))).await;
    next_of(&mut reader, "state").await;
    let started = Instant::now();
    // Without the deadline this waits for the 300 s header timeout.
    s = tokio::time::timeout(DEADLINE, s.restart())
        .await
        .expect("shutdown finishes within its deadline");
    eprintln!(
        "shutdown and restart with 50 half-open connections took {:?}",
        started.elapsed()
    );
    assert_eq!(close_code(&mut reader).await, Some(1012));
    for stream in &mut half_opens {
        assert!(closed_by_server(stream).await);
    }
    // The orderly steps ran: the move is stored and the game resumes.
    let view = s.view(&id, None).await;
    assert_eq!(view["moves"], json!(["h2e2"]));
    assert_eq!(view["status"], "playing");
    s.stop().await;
}

#[tokio::test]
async fn websockets_are_capped_per_address() {
    let s = server(|c| c.limits.max_sockets_per_address = 3).await;
    let (id, _, _) = s.create(json!({"variant": "xiangqi"})).await;
    let url = s.ws_url(&id, None);
    let mut open = Vec::new();
    for _ in 0..3 {
        open.push(ws(&s, &url).await);
    }
    match ws_from("127.0.0.1", &s, &url).await {
        Err(tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 429);
            let body: Value = serde_json::from_slice(response.body().as_deref().unwrap()).unwrap();
            assert_eq!(body["error"]["code"], "too_many_sockets");
        }
        other => panic!("a fourth socket: {other:?}"),
    }
    // Another address has its own sockets.
    let _elsewhere = ws_from("127.0.0.2", &s, &url).await.expect("opens");
    // Closing one frees its place.
    let mut closing = open.pop().unwrap();
    closing.close(None).await.unwrap();
    drop(closing);
    let until = Instant::now() + DEADLINE;
    while ws_from("127.0.0.1", &s, &url).await.is_err() {
        assert!(
            Instant::now() < until,
            "a closed socket's place is never freed"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    s.stop().await;
}

#[tokio::test]
async fn websocket_upgrades_count_against_the_api_budget() {
    let s = rate_limited(0.01, 4.0).await;
    let (id, _, _) = s.create(json!({"variant": "xiangqi"})).await;
    let url = s.ws_url(&id, None);
    let mut results = Vec::new();
    for _ in 0..5 {
        results.push(ws_from("127.0.0.1", &s, &url).await);
    }
    assert!(results[..3].iter().all(Result::is_ok));
    match &results[3] {
        Err(tungstenite::Error::Http(response)) => assert_eq!(response.status(), 429),
        other => panic!("the fifth request: {other:?}"),
    }
    s.stop().await;
}

#[tokio::test]
async fn a_websocket_action_flood_from_one_address_is_rate_limited() {
    let s = rate_limited(1.0, 30.0).await;
    // Create and join: 2 requests; 20 upgrades: 20 more; 8 actions are left at once.
    let (id, red, _black) = s.game(json!({"variant": "xiangqi"}), "red").await;
    let url = s.ws_url(&id, Some(&red));
    let mut sockets = Vec::new();
    for _ in 0..20 {
        let mut socket = ws(&s, &url).await;
        next_of(&mut socket, "state").await;
        sockets.push(socket);
    }
    let floods = sockets.iter_mut().map(|socket| async move {
        for _ in 0..5 {
            send(socket, json!({"type": "move", "move": "a0a0"})).await;
        }
        let mut codes = Vec::new();
        while codes.len() < 5 {
            let error = next_of(socket, "error").await;
            codes.push(error["code"].as_str().unwrap().to_owned());
        }
        codes
    });
    let codes: Vec<String> = futures_util::future::join_all(floods)
        .await
        .into_iter()
        .flatten()
        .collect();
    let limited = codes.iter().filter(|c| *c == "rate_limited").count();
    let judged = codes.iter().filter(|c| *c == "illegal_move").count();
    assert_eq!(limited + judged, 100, "{codes:?}");
    // Each socket alone is far below its own message rate (20/s, burst 40): only the shared
    // budget refuses; what got through is the budget left plus its refill.
    assert!(limited >= 60, "{limited} refused, {judged} judged");
    // Another address has its own budget.
    let mut other = ws_from("127.0.0.2", &s, &url).await.expect("opens");
    next_of(&mut other, "state").await;
    send(&mut other, json!({"type": "move", "move": "a0a0"})).await;
    assert_eq!(next_of(&mut other, "error").await["code"], "illegal_move");
    s.stop().await;
}

/// Opens a WebSocket by hand on a raw connection that then never writes again (so it never
/// answers a ping); returns the connection after the handshake.
async fn raw_websocket(s: &TestServer, path: &str) -> TcpStream {
    let mut stream = tcp_from("127.0.0.1", addr(s)).await;
    let request = format!(
        "GET {path} HTTP/1.1\r\nHost: jiang.test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        assert_eq!(
            stream.read(&mut byte).await.unwrap(),
            1,
            "handshake cut short"
        );
        head.push(byte[0]);
    }
    assert!(
        head.starts_with(b"HTTP/1.1 101"),
        "{}",
        String::from_utf8_lossy(&head)
    );
    stream
}

#[tokio::test]
async fn an_idle_websocket_is_closed_and_one_that_answers_pings_stays() {
    let s = server(|c| c.limits.ws_idle_timeout = Duration::from_secs(1)).await;
    let (id, _, _) = s.create(json!({"variant": "xiangqi"})).await;
    let path = format!("/api/games/{id}/ws");
    let mut silent = raw_websocket(&s, &path).await;
    let mut alive = ws(&s, &s.ws_url(&id, None)).await;
    // `alive` keeps reading (tungstenite answers each ping with a pong).
    let reading = tokio::spawn(async move {
        let mut pings = 0;
        let until = Instant::now() + Duration::from_secs(4);
        while let Ok(message) = tokio::time::timeout_at(until.into(), alive.next()).await {
            match message {
                Some(Ok(Message::Ping(_))) => pings += 1,
                Some(Ok(Message::Close(frame))) => panic!("closed: {frame:?}"),
                Some(Ok(_)) => {}
                other => panic!("socket failed: {other:?}"),
            }
        }
        (alive, pings)
    });
    // `silent` gets its state, pings, then a close frame with code 1000 and reason `idle`
    // (unmasked: 0x88, length 6, 0x03e8, "idle"), then the end of the connection.
    let mut received = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(DEADLINE, silent.read(&mut buf))
            .await
            .expect("closed within the deadline")
        {
            Ok(0) | Err(_) => break,
            Ok(n) => received.extend_from_slice(&buf[..n]),
        }
    }
    let close = [0x88, 6, 0x03, 0xe8, b'i', b'd', b'l', b'e'];
    assert!(
        received.windows(close.len()).any(|w| w == close),
        "no idle close frame in {} bytes",
        received.len()
    );
    assert!(received.windows(2).any(|w| w == [0x89, 0]), "no ping");
    let (mut alive, pings) = reading.await.unwrap();
    assert!(pings >= 2, "{pings} pings");
    send(&mut alive, json!({"type": "ping"})).await;
    assert_eq!(next_json(&mut alive).await["type"], "pong");
    s.stop().await;
}

#[tokio::test]
async fn spectator_counts_are_debounced_and_the_last_one_arrives() {
    const N: usize = 60;
    let s = server(|_| {}).await;
    let (id, _, _) = s.create(json!({"variant": "xiangqi"})).await;
    let url = s.ws_url(&id, None);
    let joins = (0..N).map(|_| ws(&s, &url));
    let mut sockets = futures_util::future::join_all(joins).await;
    let counts = sockets.iter_mut().map(|socket| async move {
        // Until this socket knows the final count (from its state or a `spectators` message).
        let mut messages = 0;
        loop {
            let m = next_json(socket).await;
            if m["type"] == "spectators" {
                messages += 1;
            }
            if m["spectators"] == N {
                break;
            }
        }
        // Nothing else is on its way.
        while let Ok(Some(Ok(m))) =
            tokio::time::timeout(Duration::from_millis(600), socket.next()).await
        {
            if let Message::Text(text) = m {
                let m: Value = serde_json::from_str(&text).unwrap();
                assert_eq!(m["spectators"], N, "{m}");
                messages += 1;
            }
        }
        messages
    });
    for messages in futures_util::future::join_all(counts).await {
        // Undebounced, the first socket gets N - 1 messages.
        assert!(
            messages < N / 2,
            "{messages} spectator messages for {N} joins"
        );
    }
    assert_eq!(s.view(&id, None).await["spectators"], N);
    // Leaves are told too.
    sockets.truncate(N - 10);
    let mut last = Value::Null;
    while last["spectators"] != N - 10 {
        last = next_of(&mut sockets[0], "spectators").await;
    }
    s.stop().await;
}

#[tokio::test]
async fn an_oversized_message_gets_too_large_and_the_socket_stays() {
    let s = server(|_| {}).await;
    let (id, _, _) = s.create(json!({"variant": "xiangqi"})).await;
    let mut socket = ws(&s, &s.ws_url(&id, None)).await;
    next_of(&mut socket, "state").await;
    let big = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(70 * 1024));
    socket.send(Message::Text(big.into())).await.unwrap();
    let error = next_of(&mut socket, "error").await;
    assert_eq!(error["code"], "too_large");
    send(&mut socket, json!({"type": "ping"})).await;
    assert_eq!(next_of(&mut socket, "pong").await["type"], "pong");
    // Far larger: closed with 1009 (message too big), never buffered.
    let huge = "x".repeat(MAX_READ + 1);
    socket.send(Message::Text(huge.into())).await.unwrap();
    assert_eq!(close_code(&mut socket).await, Some(1009));
    s.stop().await;
}

#[tokio::test]
async fn method_not_allowed_has_the_json_error_body() {
    let s = server(|_| {}).await;
    for (method, path) in [
        (reqwest::Method::DELETE, "/api/games"),
        (reqwest::Method::POST, "/healthz"),
        (reqwest::Method::PUT, "/api/games/abcdefgh12/move"),
    ] {
        let response = s
            .http
            .request(method.clone(), s.url(path))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
        assert!(response.headers().contains_key("allow"), "{method} {path}");
        let body: Value = response.json().await.expect("JSON body");
        assert_eq!(
            body["error"]["code"], "method_not_allowed",
            "{method} {path}"
        );
    }
    s.stop().await;
}
