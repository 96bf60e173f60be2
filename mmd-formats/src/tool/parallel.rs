//! Working on several inputs at once, with the output in the inputs' order.
//!
//! [`ordered`] runs one piece of work per input on up to `jobs` threads and hands each
//! result to the caller in the order of the inputs, as a loop over them would. A worker
//! starts an input only while it is fewer than [`WINDOW_PER_JOB`] × `jobs` inputs ahead of
//! the last result handed over, so the inputs being worked on and the results waiting for
//! their turn stay a few at a time, whatever the number of inputs: a slow input holds the
//! others back instead of letting their results pile up.

use std::collections::BTreeMap;
use std::num::NonZeroUsize;
use std::sync::{mpsc, Condvar, Mutex, MutexGuard, PoisonError};

use crate::tool::exit::Outcome;

/// How many inputs per job may be started ahead of the last result handed over.
pub const WINDOW_PER_JOB: usize = 16;

/// The number of jobs when none is given: the parallelism the system offers (the number
/// of cores this process may use), or 1 when it cannot tell.
pub fn available() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
}

/// Which inputs are taken and which results are handed over, shared by the workers.
struct Queue<I> {
    /// The inputs not yet taken.
    items: I,
    /// How many inputs were taken (the index of the next one).
    taken: usize,
    /// How many results were handed over.
    handed: usize,
    /// Set when the caller stopped taking results: the workers end.
    stop: bool,
    /// How many workers wait for their input to come within the window.
    waiting: usize,
}

/// Locks `m`; a worker that panicked while holding it (which [`ordered`]'s callers
/// prevent) leaves the queue usable.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Runs `work` on every item on up to `jobs` threads (no more than there are items, nor
/// than the system gives; 1: in this thread, one after another) and calls `emit` with the
/// results in the order of the items. Stops at the first error `emit` returns (the work
/// already started ends, nothing new starts) and returns it.
///
/// `work` must not panic: a panic in a worker thread ends the whole run (callers catch the
/// library's panics inside `work`, as [`crate::tool::guard::catch`] does).
pub fn ordered<T, R, I>(
    items: I,
    jobs: usize,
    work: impl Fn(T) -> R + Sync,
    mut emit: impl FnMut(R) -> Outcome<()>,
) -> Outcome<()>
where
    I: IntoIterator<Item = T>,
    I::IntoIter: Send,
    T: Send,
    R: Send,
{
    let items = items.into_iter();
    // No more threads than items.
    let jobs = jobs.min(items.size_hint().1.unwrap_or(usize::MAX));
    if jobs <= 1 {
        for item in items {
            emit(work(item))?;
        }
        return Ok(());
    }
    let window = jobs.saturating_mul(WINDOW_PER_JOB);
    let queue = Mutex::new(Queue {
        items,
        taken: 0,
        handed: 0,
        stop: false,
        waiting: 0,
    });
    let turn = Condvar::new();
    let (send, results) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        let mut workers = 0;
        for _ in 0..jobs {
            let send = send.clone();
            let (queue, turn, work) = (&queue, &turn, &work);
            let worker = std::thread::Builder::new().spawn_scoped(scope, move || loop {
                let (index, item) = {
                    let mut q = lock(queue);
                    if q.stop {
                        return;
                    }
                    let Some(item) = q.items.next() else { return };
                    let index = q.taken;
                    q.taken += 1;
                    // Wait until this input is within the window after the last result
                    // handed over. The oldest input not yet handed over is always inside
                    // it, so the run always moves on.
                    while index >= q.handed.saturating_add(window) && !q.stop {
                        q.waiting += 1;
                        q = turn.wait(q).unwrap_or_else(PoisonError::into_inner);
                        q.waiting -= 1;
                    }
                    if q.stop {
                        return;
                    }
                    (index, item)
                };
                if send.send((index, work(item))).is_err() {
                    return;
                }
            });
            // The system may refuse more threads: the ones there are do the work.
            match worker {
                Ok(_) => workers += 1,
                Err(_) => break,
            }
        }
        // Only the workers hold senders now: the results end when every worker has ended.
        drop(send);
        if workers == 0 {
            // Not one thread: this one does the work.
            let mut q = lock(&queue);
            for item in q.items.by_ref() {
                emit(work(item))?;
            }
            return Ok(());
        }
        let mut waiting: BTreeMap<usize, R> = BTreeMap::new();
        let mut next = 0;
        let outcome = (|| {
            for (index, result) in &results {
                waiting.insert(index, result);
                while let Some(result) = waiting.remove(&next) {
                    emit(result)?;
                    next += 1;
                    let mut q = lock(&queue);
                    q.handed = next;
                    // Wake the workers only when one waits: most results find none.
                    if q.waiting > 0 {
                        turn.notify_all();
                    }
                }
            }
            Ok(())
        })();
        if outcome.is_err() {
            lock(&queue).stop = true;
            turn.notify_all();
        }
        // Workers still sending find no receiver and end.
        drop(results);
        outcome
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::exit::{Exit, Stop};
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    #[test]
    fn results_come_in_the_order_of_the_items_for_any_number_of_jobs() {
        for jobs in [1, 2, 3, 8] {
            let mut seen = Vec::new();
            // Earlier items take longer, so they finish after later ones.
            ordered(
                0..40u64,
                jobs,
                |i| {
                    std::thread::sleep(Duration::from_millis((40 - i) % 7));
                    i * 10
                },
                |r| {
                    seen.push(r);
                    Ok(())
                },
            )
            .map_err(|_| ())
            .unwrap();
            assert_eq!(seen, (0..40).map(|i| i * 10).collect::<Vec<_>>(), "{jobs}");
        }
    }

    #[test]
    fn workers_stay_within_the_window() {
        let jobs = 2;
        let started = AtomicUsize::new(0);
        let mut handed = 0usize;
        let mut most_ahead = 0usize;
        ordered(
            0..100usize,
            jobs,
            |i| {
                started.fetch_max(i + 1, Ordering::SeqCst);
                i
            },
            |_| {
                // Slow to take results: the workers would run ahead if nothing held them.
                std::thread::sleep(Duration::from_millis(1));
                let ahead = started.load(Ordering::SeqCst) - handed;
                most_ahead = most_ahead.max(ahead);
                handed += 1;
                Ok(())
            },
        )
        .map_err(|_| ())
        .unwrap();
        assert_eq!(handed, 100);
        assert!(
            most_ahead <= jobs * WINDOW_PER_JOB,
            "{most_ahead} inputs started ahead of the results handed over"
        );
    }

    #[test]
    fn an_error_from_emit_stops_the_run() {
        for jobs in [1, 2, 4] {
            let worked = AtomicUsize::new(0);
            let mut handed = 0;
            let outcome = ordered(
                0..10_000u32,
                jobs,
                |i| {
                    worked.fetch_add(1, Ordering::SeqCst);
                    i
                },
                |i| {
                    handed += 1;
                    if i == 3 {
                        Err(Stop::Closed(Exit::Failed))
                    } else {
                        Ok(())
                    }
                },
            );
            assert!(matches!(outcome, Err(Stop::Closed(Exit::Failed))), "{jobs}");
            assert_eq!(handed, 4);
            let worked = worked.load(Ordering::SeqCst);
            assert!(
                worked <= 4 + jobs * WINDOW_PER_JOB + jobs,
                "{worked} items worked on after the stop ({jobs} jobs)"
            );
        }
    }
}
