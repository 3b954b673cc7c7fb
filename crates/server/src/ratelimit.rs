//! Per-client rate limits: token buckets keyed by IP address (HTTP) or held per socket
//! (WebSocket messages). Exceeding one answers 429 / `rate_limited` and changes nothing.

use std::collections::HashMap;
use std::net::IpAddr;
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

    fn is_unlimited(self) -> bool {
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

    /// Whether `client` may make one more request now.
    pub fn check(&self, client: IpAddr) -> bool {
        if self.rate.is_unlimited() {
            return true;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

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
