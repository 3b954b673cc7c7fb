//! Lazy SMP: several threads searching one root with one shared transposition table.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::search::{Info, Limits, Outcome, Searcher};
use crate::tree::{GameTree, Line};

/// Searches like [`Searcher::search`] with `threads` threads (Lazy SMP): the helpers search
/// the same root with the same table, every other one a ply deeper per iteration, until the
/// main search ends; they only fill the shared table, and the main search alone reports and
/// decides. One thread is exactly [`Searcher::search`] (deterministic at a fixed node count).
pub fn search_threads<T: GameTree>(
    main: &mut Searcher<T>,
    threads: usize,
    line: Line<T>,
    limits: Limits,
    report: &mut dyn FnMut(&Info),
) -> Outcome<T::Move> {
    if threads <= 1 {
        return main.search(line, limits, report);
    }
    let halt = Arc::new(AtomicBool::new(false));
    std::thread::scope(|scope| {
        for i in 1..threads {
            let table = main.table.clone();
            let line = line.clone();
            let helper = Limits {
                stop: Some(halt.clone()),
                multi_pv: 1,
                searchmoves: limits.searchmoves.clone(),
                depth_offset: (i % 2) as u32,
                ..Limits::default()
            };
            let spawned = std::thread::Builder::new()
                .name(format!("search helper {i}"))
                .stack_size(64 * 1024 * 1024)
                .spawn_scoped(scope, move || {
                    let mut searcher = Searcher::<T>::with_table(table);
                    searcher.search(line, helper, &mut |_| {});
                });
            // A helper that cannot start leaves the others (and the main search) to it.
            if spawned.is_err() {
                break;
            }
        }
        let outcome = main.search(line, limits, report);
        halt.store(true, Ordering::Relaxed);
        outcome
    })
}
