//! Perfect matchings in general graphs, for pairing players: Edmonds' blossom algorithm
//! (augmenting paths through odd cycles) and a greedy pairing with an exact look-ahead built on
//! it. Players are indices `0..n`; who may meet whom is a predicate.

/// "No vertex".
const NONE: usize = usize::MAX;

/// A matching among the players still `alive` (not yet paired for good), in the graph of pairs
/// that `allowed` accepts.
struct Matching<F> {
    allowed: F,
    alive: Vec<bool>,
    mate: Vec<usize>,
}

impl<F: Fn(usize, usize) -> bool> Matching<F> {
    /// An empty matching over `players`, indices below `n`.
    fn new(n: usize, players: &[usize], allowed: F) -> Self {
        let mut alive = vec![false; n];
        for &p in players {
            alive[p] = true;
        }
        Matching {
            allowed,
            alive,
            mate: vec![NONE; n],
        }
    }

    /// Whether `a` and `b` are both alive, distinct and may meet.
    fn edge(&self, a: usize, b: usize) -> bool {
        a != b && self.alive[a] && self.alive[b] && (self.allowed)(a, b)
    }

    /// The base of the lowest common ancestor of `a` and `b` in the alternating tree.
    fn lca(&self, base: &[usize], parent: &[usize], mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; self.mate.len()];
        loop {
            a = base[a];
            seen[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = parent[self.mate[a]];
        }
        loop {
            b = base[b];
            if seen[b] {
                return b;
            }
            b = parent[self.mate[b]];
        }
    }

    /// Marks the blossom path from `v` up to base `b`, re-pointing parents through `child`.
    fn mark_path(
        &self,
        base: &[usize],
        parent: &mut [usize],
        blossom: &mut [bool],
        mut v: usize,
        b: usize,
        mut child: usize,
    ) {
        while base[v] != b {
            blossom[base[v]] = true;
            blossom[base[self.mate[v]]] = true;
            parent[v] = child;
            child = self.mate[v];
            v = parent[self.mate[v]];
        }
    }

    /// Searches an augmenting path from the unmatched `root`: its free end and the parent links.
    fn find_path(&self, root: usize) -> Option<(usize, Vec<usize>)> {
        let n = self.mate.len();
        let mut used = vec![false; n];
        let mut parent = vec![NONE; n];
        let mut base: Vec<usize> = (0..n).collect();
        let mut queue = std::collections::VecDeque::from([root]);
        used[root] = true;
        while let Some(v) = queue.pop_front() {
            for to in 0..n {
                if !self.edge(v, to) || base[v] == base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && parent[self.mate[to]] != NONE) {
                    // An odd cycle: contract the blossom.
                    let current = self.lca(&base, &parent, v, to);
                    let mut blossom = vec![false; n];
                    self.mark_path(&base, &mut parent, &mut blossom, v, current, to);
                    self.mark_path(&base, &mut parent, &mut blossom, to, current, v);
                    for i in 0..n {
                        if self.alive[i] && blossom[base[i]] {
                            base[i] = current;
                            if !used[i] {
                                used[i] = true;
                                queue.push_back(i);
                            }
                        }
                    }
                } else if parent[to] == NONE {
                    parent[to] = v;
                    if self.mate[to] == NONE {
                        return Some((to, parent));
                    }
                    let next = self.mate[to];
                    used[next] = true;
                    queue.push_back(next);
                }
            }
        }
        None
    }

    /// Grows the matching by an augmenting path from the unmatched `root`, if there is one.
    fn augment(&mut self, root: usize) -> bool {
        let Some((mut v, parent)) = self.find_path(root) else {
            return false;
        };
        while v != NONE {
            let pv = parent[v];
            let next = self.mate[pv];
            self.mate[v] = pv;
            self.mate[pv] = v;
            v = next;
        }
        true
    }

    /// Pairs `p` with `q` for good if the other alive players can then still all be matched
    /// (the matching is perfect before and after); otherwise changes nothing.
    fn try_pair(&mut self, p: usize, q: usize) -> bool {
        if !self.edge(p, q) {
            return false;
        }
        let (mp, mq) = (self.mate[p], self.mate[q]);
        if mp == NONE || mq == NONE {
            return false; // only called on a perfect matching; never happens
        }
        self.alive[p] = false;
        self.alive[q] = false;
        self.mate[p] = NONE;
        self.mate[q] = NONE;
        if mp == q {
            return true;
        }
        // p's and q's partners are left free: the rest can be completed exactly when an
        // augmenting path joins them.
        let saved = self.mate.clone();
        self.mate[mp] = NONE;
        self.mate[mq] = NONE;
        if self.augment(mp) {
            return true;
        }
        self.mate = saved;
        self.mate[p] = mp;
        self.mate[q] = mq;
        self.alive[p] = true;
        self.alive[q] = true;
        false
    }
}

/// Pairs all of `players` (indices below `n`, an even number of them, in priority order) so
/// that every pair passes `allowed`, or `None` if that is impossible.
///
/// Greedy with an exact look-ahead: the first unpaired player takes the first of
/// `candidates(unpaired)` (their preferred opponents, best first; `unpaired[0]` is the player)
/// after which everyone else can still be paired. A perfect matching is kept up to date, so each
/// test is one augmenting-path search, O(n²), and the result is the one an exhaustive
/// backtracking search over the same candidate order would give. If the candidates leave out
/// every partner that works, the matching's own partner is taken.
pub(crate) fn pair_in_order(
    n: usize,
    players: &[usize],
    allowed: impl Fn(usize, usize) -> bool,
    candidates: impl Fn(&[usize]) -> Vec<usize>,
) -> Option<Vec<(usize, usize)>> {
    let mut m = Matching::new(n, players, allowed);
    // A greedy start, then augmenting paths for whoever is left unmatched.
    for (i, &v) in players.iter().enumerate() {
        if m.mate[v] != NONE {
            continue;
        }
        let free = players[i + 1..]
            .iter()
            .find(|&&u| m.mate[u] == NONE && m.edge(v, u));
        if let Some(&u) = free {
            m.mate[v] = u;
            m.mate[u] = v;
        }
    }
    for &v in players {
        if m.mate[v] == NONE {
            m.augment(v);
        }
    }
    if players.iter().any(|&v| m.mate[v] == NONE) {
        return None;
    }
    let mut rest = players.to_vec();
    let mut pairs = Vec::with_capacity(rest.len() / 2);
    while let Some(&p) = rest.first() {
        let q = candidates(&rest)
            .into_iter()
            .find(|&q| m.try_pair(p, q))
            .unwrap_or_else(|| {
                let q = m.mate[p];
                m.try_pair(p, q);
                q
            });
        pairs.push((p, q));
        rest.retain(|&x| x != p && x != q);
    }
    Some(pairs)
}
