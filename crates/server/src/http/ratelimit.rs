//! Per-client rate limits: token buckets keyed by client address (API requests, WebSocket
//! upgrades and WebSocket actions share one per address) or held per socket (all WebSocket
//! messages). Exceeding one answers 429 / `rate_limited` and changes nothing.
//! Behind a reverse proxy the client's address comes from `X-Forwarded-For`, but only when the
//! request came from a proxy the operator trusts ([`client_address`]). IPv6 clients are
//! counted by their /64 ([`address_group`]).

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::Mutex;
use std::time::Instant;

/// A rate: `per_second` sustained, `burst` at once. `per_second == 0` disables the limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Sustained requests per second.
    pub per_second: f64,
    /// Requests allowed at once.
    pub burst: f64,
}

impl Rate {
    /// No limit at all (load tests).
    pub const UNLIMITED: Rate = Rate {
        per_second: 0.0,
        burst: 0.0,
    };

    /// Whether this is [`Rate::UNLIMITED`] (or any rate of 0 per second).
    pub fn is_unlimited(self) -> bool {
        self.per_second <= 0.0
    }
}

/// One token bucket.
#[derive(Clone, Copy, Debug)]
pub struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    /// A full bucket.
    pub fn new(rate: Rate, now: Instant) -> Self {
        Bucket {
            tokens: rate.burst,
            at: now,
        }
    }

    /// Takes one token if there is one.
    pub fn take(&mut self, rate: Rate, now: Instant) -> bool {
        if rate.is_unlimited() {
            return true;
        }
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens = (self.tokens + elapsed * rate.per_second).min(rate.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Buckets per client address. The lock is held for a few arithmetic operations only.
pub struct Limiter {
    rate: Rate,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

/// Forget idle clients once the table holds this many.
const PRUNE_AT: usize = 10_000;

impl Limiter {
    /// A limiter with `rate` per client.
    pub fn new(rate: Rate) -> Self {
        Limiter {
            rate,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `client` (its [`address_group`]) may make one more request now.
    pub fn check(&self, client: IpAddr) -> bool {
        if self.rate.is_unlimited() {
            return true;
        }
        let client = address_group(client);
        let now = Instant::now();
        let mut buckets = self.buckets.lock().expect("rate limiter poisoned");
        if buckets.len() >= PRUNE_AT {
            let full_after = self.rate.burst / self.rate.per_second;
            buckets.retain(|_, b| now.saturating_duration_since(b.at).as_secs_f64() < full_after);
        }
        buckets
            .entry(client)
            .or_insert_with(|| Bucket::new(self.rate, now))
            .take(self.rate, now)
    }
}

/// The key an address is counted under by every per-address limit: an IPv4 address as it is
/// (also when written IPv4-mapped, `::ffff:a.b.c.d`), an IPv6 address by its /64 network,
/// the smallest block a provider hands one subscriber (RFC 6177): one host can change its
/// interface identifier at will, so counting each IPv6 address alone would limit nothing.
pub fn address_group(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from_bits(v6.to_bits() & !u128::from(u64::MAX))),
        },
    }
}

/// The address a request is counted against.
///
/// That is the peer's address, unless the peer is one of the `trusted` reverse proxies: then it
/// is the nearest address in `X-Forwarded-For` (read right to left, all such headers in order)
/// that is not itself a trusted proxy. Each proxy appends the address it got the request from,
/// so anything left of that entry may have been written by the client and is never believed.
/// An entry that is not an IP address (with or without a port) ends the walk at the last
/// trusted hop, so a misconfigured proxy never lumps its clients under a forged name.
pub fn client_address<'a>(
    peer: IpAddr,
    forwarded_for: impl DoubleEndedIterator<Item = &'a [u8]>,
    trusted: &[IpAddr],
) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let mut client = peer;
    for header in forwarded_for.rev() {
        let Ok(text) = std::str::from_utf8(header) else {
            return client;
        };
        for entry in text.rsplit(',') {
            let entry = entry.trim();
            let Some(ip) = entry
                .parse::<IpAddr>()
                .ok()
                .or_else(|| entry.parse::<SocketAddr>().ok().map(|a| a.ip()))
            else {
                return client;
            };
            client = ip;
            if !trusted.contains(&ip) {
                return ip;
            }
        }
    }
    client
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn client(peer: &str, headers: &[&str], trusted: &[&str]) -> IpAddr {
        let trusted: Vec<IpAddr> = trusted.iter().map(|t| ip(t)).collect();
        client_address(ip(peer), headers.iter().map(|h| h.as_bytes()), &trusted)
    }

    #[test]
    fn forwarded_addresses_count_only_behind_a_trusted_proxy() {
        let trusted = ["127.0.0.1"];
        let chain = ["127.0.0.1", "10.0.0.2"];
        // (peer, X-Forwarded-For headers, trusted proxies, the client)
        let cases: &[(&str, &[&str], &[&str], &str)] = &[
            // No trusted proxy: the header is the client's own words.
            ("10.0.0.9", &["1.2.3.4"], &[], "10.0.0.9"),
            // A trusted proxy: the address it appended.
            ("127.0.0.1", &["1.2.3.4"], &trusted, "1.2.3.4"),
            // A forged entry left of the proxy's is ignored.
            ("127.0.0.1", &["6.6.6.6, 1.2.3.4"], &trusted, "1.2.3.4"),
            // A chain of trusted proxies is walked through; several headers read as one list.
            (
                "127.0.0.1",
                &["6.6.6.6, 1.2.3.4", "10.0.0.2"],
                &chain,
                "1.2.3.4",
            ),
            // Ports and IPv6.
            ("::1", &["[2001:db8::7]:4711"], &["::1"], "2001:db8::7"),
            ("::1", &["2001:db8::7"], &["::1"], "2001:db8::7"),
            // No header, junk, or only trusted hops: the last trusted hop.
            ("127.0.0.1", &[], &trusted, "127.0.0.1"),
            ("127.0.0.1", &["1.2.3.4, junk"], &trusted, "127.0.0.1"),
            ("127.0.0.1", &["junk, 1.2.3.4"], &trusted, "1.2.3.4"),
            ("127.0.0.1", &["10.0.0.2"], &chain, "10.0.0.2"),
        ];
        for &(peer, headers, proxies, want) in cases {
            assert_eq!(
                client(peer, headers, proxies),
                ip(want),
                "{peer} {headers:?}"
            );
        }
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_64() {
        assert_eq!(address_group(ip("1.2.3.4")), ip("1.2.3.4"));
        assert_eq!(address_group(ip("::ffff:1.2.3.4")), ip("1.2.3.4"));
        assert_eq!(
            address_group(ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd")),
            ip("2001:db8:1:2::")
        );
        assert_ne!(
            address_group(ip("2001:db8:1:2::1")),
            address_group(ip("2001:db8:1:3::1"))
        );
        // One bucket for a whole /64: a host cannot escape its limit by changing addresses.
        let limiter = Limiter::new(Rate {
            per_second: 0.001,
            burst: 2.0,
        });
        assert!(limiter.check(ip("2001:db8:1:2::1")));
        assert!(limiter.check(ip("2001:db8:1:2::ffff")));
        assert!(!limiter.check(ip("2001:db8:1:2:9::9")));
        assert!(limiter.check(ip("2001:db8:1:3::1")));
    }

    #[test]
    fn a_bucket_refills_at_its_rate() {
        let rate = Rate {
            per_second: 2.0,
            burst: 3.0,
        };
        let t0 = Instant::now();
        let mut b = Bucket::new(rate, t0);
        assert!(b.take(rate, t0) && b.take(rate, t0) && b.take(rate, t0));
        assert!(!b.take(rate, t0));
        assert!(b.take(rate, t0 + Duration::from_millis(500)));
        assert!(!b.take(rate, t0 + Duration::from_millis(500)));
        assert!(Bucket::new(Rate::UNLIMITED, t0).take(Rate::UNLIMITED, t0));
    }
}
