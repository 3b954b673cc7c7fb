//! Counting what is open (connections, WebSockets) against a total cap and a per-address cap.
//! A [`Slot`] is held for as long as the thing it counts is open and gives its place back when
//! dropped, so no path can forget to release it.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

use crate::http::ratelimit::address_group;

/// Why a slot was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Full {
    /// As many as the total cap are open.
    #[error("the server holds its maximum of {0} open")]
    Total(usize),
    /// As many as the per-address cap are open for this address (or its IPv6 /64).
    #[error("this address holds its maximum of {0} open")]
    Address(usize),
}

/// Open things, counted in total and per address group. A cap of 0 means no cap.
#[derive(Debug)]
pub struct Slots {
    total_cap: usize,
    per_address_cap: usize,
    counts: Mutex<Counts>,
    emptied: Notify,
}

#[derive(Debug, Default)]
struct Counts {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// One open thing; dropping it frees its place.
#[derive(Debug)]
pub struct Slot {
    slots: Arc<Slots>,
    address: Option<IpAddr>,
}

impl Slots {
    /// Slots with at most `total_cap` open in all and `per_address_cap` per address group
    /// (0: no such cap).
    pub fn new(total_cap: usize, per_address_cap: usize) -> Arc<Self> {
        Arc::new(Slots {
            total_cap,
            per_address_cap,
            counts: Mutex::new(Counts::default()),
            emptied: Notify::new(),
        })
    }

    /// Takes a slot for `address` (`None`: counted in the total only, e.g. a trusted proxy that
    /// carries many clients), or says which cap is reached.
    pub fn try_acquire(self: &Arc<Self>, address: Option<IpAddr>) -> Result<Slot, Full> {
        let address = address.map(address_group);
        let mut counts = self.counts.lock().expect("slot counts poisoned");
        if self.total_cap > 0 && counts.total >= self.total_cap {
            return Err(Full::Total(self.total_cap));
        }
        if let Some(address) = address {
            let open = counts.by_address.entry(address).or_insert(0);
            if self.per_address_cap > 0 && *open >= self.per_address_cap {
                return Err(Full::Address(self.per_address_cap));
            }
            *open += 1;
        }
        counts.total += 1;
        Ok(Slot {
            slots: Arc::clone(self),
            address,
        })
    }

    /// How many are open.
    pub fn open(&self) -> usize {
        self.counts.lock().expect("slot counts poisoned").total
    }

    /// Resolves once nothing is open.
    pub async fn wait_empty(&self) {
        loop {
            let emptied = self.emptied.notified();
            tokio::pin!(emptied);
            // Registered before the count is read: a release in between still wakes us.
            emptied.as_mut().enable();
            if self.open() == 0 {
                return;
            }
            emptied.await;
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut counts = self.slots.counts.lock().expect("slot counts poisoned");
        counts.total -= 1;
        if let Some(address) = self.address
            && let Some(open) = counts.by_address.get_mut(&address)
        {
            *open -= 1;
            if *open == 0 {
                counts.by_address.remove(&address);
            }
        }
        if counts.total == 0 {
            self.slots.emptied.notify_waiters();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> Option<IpAddr> {
        Some(text.parse().unwrap())
    }

    #[test]
    fn caps_hold_and_dropping_a_slot_frees_it() {
        let slots = Slots::new(3, 2);
        let a1 = slots.try_acquire(ip("10.0.0.1")).unwrap();
        let _a2 = slots.try_acquire(ip("10.0.0.1")).unwrap();
        assert_eq!(
            slots.try_acquire(ip("10.0.0.1")).unwrap_err(),
            Full::Address(2)
        );
        // The same /64 is the same address.
        let _b = slots.try_acquire(ip("2001:db8::1")).unwrap();
        assert_eq!(
            slots.try_acquire(ip("10.0.0.2")).unwrap_err(),
            Full::Total(3)
        );
        drop(a1);
        assert_eq!(slots.open(), 2);
        let _b2 = slots.try_acquire(ip("2001:db8::2")).unwrap();
        drop(_b2);
        let _b3 = slots.try_acquire(ip("2001:db8::3")).unwrap();
        assert_eq!(
            slots.try_acquire(ip("2001:db8::4")).unwrap_err(),
            Full::Total(3)
        );
    }

    #[test]
    fn zero_means_no_cap_and_unaddressed_slots_count_in_the_total_only() {
        let slots = Slots::new(0, 0);
        let held: Vec<Slot> = (0..1000)
            .map(|_| slots.try_acquire(ip("10.0.0.1")).unwrap())
            .collect();
        assert_eq!(slots.open(), 1000);
        drop(held);
        assert_eq!(slots.open(), 0);
        let capped = Slots::new(0, 1);
        let _proxy1 = capped.try_acquire(None).unwrap();
        let _proxy2 = capped.try_acquire(None).unwrap();
        let _client = capped.try_acquire(ip("10.0.0.1")).unwrap();
        assert!(capped.try_acquire(ip("10.0.0.1")).is_err());
    }

    #[tokio::test]
    async fn waiting_for_empty_ends_when_the_last_slot_goes() {
        let slots = Slots::new(0, 0);
        slots.wait_empty().await;
        let slot = slots.try_acquire(None).unwrap();
        let waiter = tokio::spawn({
            let slots = Arc::clone(&slots);
            async move { slots.wait_empty().await }
        });
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        drop(slot);
        tokio::time::timeout(std::time::Duration::from_secs(10), waiter)
            .await
            .expect("woken")
            .unwrap();
    }
}
