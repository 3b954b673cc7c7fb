//! The transposition table: a fixed array of entries indexed by the node key, replaced by
//! depth and age, shared between search threads.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// What a stored score means relative to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// At least this (a beta cutoff).
    Lower,
    /// At most this (no move reached alpha).
    Upper,
}

/// One stored search result, unpacked.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    mv: u16,
    score: i16,
    depth: i8,
    /// 0 empty, 1 exact, 2 lower, 3 upper.
    bound: u8,
    age: u8,
}

impl Slot {
    fn pack(self) -> u64 {
        self.mv as u64
            | (self.score as u16 as u64) << 16
            | (self.depth as u8 as u64) << 32
            | (self.bound as u64) << 40
            | (self.age as u64) << 48
    }

    fn unpack(data: u64) -> Slot {
        Slot {
            mv: data as u16,
            score: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8 as i8,
            bound: (data >> 40) as u8,
            age: (data >> 48) as u8,
        }
    }
}

/// A hit in the table.
#[derive(Clone, Copy, Debug)]
pub struct Hit {
    /// The best move's code (0 if none).
    pub mv: u16,
    /// The score, adjusted to the probing ply (mate distances).
    pub score: i32,
    /// The depth it was searched to.
    pub depth: i32,
    /// How to read the score.
    pub bound: Bound,
}

/// The transposition table, sized in megabytes, shared by the threads of a search (Lazy
/// SMP) without locks: each entry is two atomic words, the key XOR the data and the data,
/// so that an entry torn by two threads writing at once fails the key check and reads as a
/// miss instead of a wrong hit.
pub struct Table {
    slots: Vec<[AtomicU64; 2]>,
    age: AtomicU8,
}

impl Table {
    /// A table of about `megabytes` MB (at least one slot).
    pub fn new(megabytes: usize) -> Table {
        let count = (megabytes.max(1) * 1024 * 1024 / std::mem::size_of::<[AtomicU64; 2]>()).max(1);
        Table {
            slots: (0..count)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
            age: AtomicU8::new(0),
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        for slot in &self.slots {
            slot[0].store(0, Ordering::Relaxed);
            slot[1].store(0, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks a new search: older entries are replaced first.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The entry at `key`'s index if it holds `key` (a miss for a torn entry).
    #[inline]
    fn read(&self, key: u64) -> (usize, Option<Slot>, u64) {
        let index = self.index(key);
        let [k, d] = &self.slots[index];
        let data = d.load(Ordering::Relaxed);
        let stored = k.load(Ordering::Relaxed) ^ data;
        let slot = Slot::unpack(data);
        let found = (slot.bound != 0 && stored == key).then_some(slot);
        (index, found, if slot.bound == 0 { 0 } else { data })
    }

    /// The entry for `key`, if stored, with mate scores made relative to `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let (_, slot, _) = self.read(key);
        let slot = slot?;
        Some(Hit {
            mv: slot.mv,
            score: crate::score::from_table(slot.score as i32, ply),
            depth: slot.depth as i32,
            bound: match slot.bound {
                1 => Bound::Exact,
                2 => Bound::Lower,
                _ => Bound::Upper,
            },
        })
    }

    /// Stores a result (mate scores made relative to the node).
    #[inline]
    pub fn store(&self, key: u64, ply: usize, mv: u16, score: i32, depth: i32, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed);
        let (index, same, data) = self.read(key);
        let old = Slot::unpack(data);
        let replace = data == 0
            || same.is_some()
            || old.age != age
            || depth >= old.depth as i32
            || bound == Bound::Exact;
        if !replace {
            return;
        }
        let mv = match same {
            Some(s) if mv == 0 => s.mv,
            _ => mv,
        };
        let slot = Slot {
            mv,
            score: crate::score::to_table(score, ply) as i16,
            depth: depth.clamp(-1, 127) as i8,
            bound: match bound {
                Bound::Exact => 1,
                Bound::Lower => 2,
                Bound::Upper => 3,
            },
            age,
        };
        let data = slot.pack();
        let [k, d] = &self.slots[index];
        k.store(key ^ data, Ordering::Relaxed);
        d.store(data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_with_mate_distance_adjusted() {
        let t = Table::new(1);
        let mate_in_3_from_ply_2 = crate::score::MATE - 5;
        t.store(42, 2, 7, mate_in_3_from_ply_2, 4, Bound::Exact);
        let hit = t.probe(42, 4).unwrap();
        assert_eq!(hit.mv, 7);
        assert_eq!(
            hit.score,
            crate::score::MATE - 7,
            "same mate, two plies deeper"
        );
        assert_eq!(hit.bound, Bound::Exact);
        assert!(t.probe(43, 0).is_none());
        t.clear();
        assert!(t.probe(42, 0).is_none());
    }
}
