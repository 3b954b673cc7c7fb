//! The transposition table: a fixed array of entries indexed by the node key, replaced by
//! depth and age.

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

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
struct Slot {
    key: u64,
    mv: u16,
    score: i16,
    depth: i8,
    /// 0 empty, 1 exact, 2 lower, 3 upper.
    bound: u8,
    age: u8,
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

/// The transposition table, sized in megabytes.
pub struct Table {
    slots: Vec<Slot>,
    age: u8,
}

impl Table {
    /// A table of about `megabytes` MB (at least one slot).
    pub fn new(megabytes: usize) -> Table {
        let count = (megabytes.max(1) * 1024 * 1024 / std::mem::size_of::<Slot>()).max(1);
        Table {
            slots: vec![Slot::default(); count],
            age: 0,
        }
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.age = 0;
    }

    /// Marks a new search: older entries are replaced first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// The entry for `key`, if stored, with mate scores made relative to `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let slot = &self.slots[self.index(key)];
        if slot.bound == 0 || slot.key != key {
            return None;
        }
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
    pub fn store(&mut self, key: u64, ply: usize, mv: u16, score: i32, depth: i32, bound: Bound) {
        let age = self.age;
        let index = self.index(key);
        let slot = &mut self.slots[index];
        let replace = slot.bound == 0
            || slot.key == key
            || slot.age != age
            || depth >= slot.depth as i32
            || bound == Bound::Exact;
        if !replace {
            return;
        }
        let mv = if mv == 0 && slot.key == key {
            slot.mv
        } else {
            mv
        };
        *slot = Slot {
            key,
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_with_mate_distance_adjusted() {
        let mut t = Table::new(1);
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
