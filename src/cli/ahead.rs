//! Work prepared ahead on two threads and consumed in order on one (issue 20).
//!
//! `verify` has two kinds of work per chunk of entries: preparing it (parse, signatures),
//! which any thread can do in any order, and consuming it (the rules), which must happen in
//! log order on one thread. A plain producer/consumer pair runs at the pace of the slower
//! side, leaving the other core idle part of the time. Here the consumer, instead of
//! waiting for a chunk the helper is still preparing, prepares the next unclaimed chunk
//! itself, so both cores stay busy whichever side is heavier.

use std::sync::{Condvar, Mutex};

/// How many chunks may be prepared beyond the one being consumed: enough to keep both
/// threads busy, few enough that the prepared-but-unconsumed work stays small.
const WINDOW: usize = 8;

struct Shared<T> {
    /// The next chunk nobody has claimed.
    next: usize,
    /// Chunks prepared and not yet consumed, by index.
    ready: Vec<Option<T>>,
    /// Chunks consumed so far (the consumer is at this index).
    consumed: usize,
    /// The consumer stopped early: the helper claims nothing more.
    stop: bool,
}

/// Run `prepare` on the chunks `0..n`, on this thread and one helper thread, and hand every
/// result to `consume` in index order on this thread. A chunk whose result `fatal` judges an
/// error is the helper's last; `consume` returning an error stops everything and is returned.
pub fn prepare_ahead<T, E>(
    n: usize,
    prepare: impl Fn(usize) -> T + Sync,
    fatal: impl Fn(&T) -> bool + Sync,
    mut consume: impl FnMut(T) -> Result<(), E>,
) -> Result<(), E>
where
    T: Send,
{
    let shared = Mutex::new(Shared { next: 0, ready: (0..n).map(|_| None).collect(), consumed: 0, stop: false });
    let changed = Condvar::new();
    let lock = || shared.lock().unwrap_or_else(|p| p.into_inner());
    std::thread::scope(|scope| {
        scope.spawn(|| {
            loop {
                let c = {
                    let mut s = lock();
                    loop {
                        if s.stop || s.next >= n {
                            return;
                        }
                        if s.next < s.consumed + WINDOW {
                            break;
                        }
                        s = changed.wait(s).unwrap_or_else(|p| p.into_inner());
                    }
                    s.next += 1;
                    s.next - 1
                };
                let out = prepare(c);
                let last = fatal(&out);
                lock().ready[c] = Some(out);
                changed.notify_all();
                if last {
                    return;
                }
            }
        });
        let result = (|| {
            for k in 0..n {
                let out = {
                    let mut s = lock();
                    loop {
                        if let Some(out) = s.ready[k].take() {
                            s.consumed = k + 1;
                            break out;
                        }
                        // Nothing to take yet: prepare the next unclaimed chunk (this one, if
                        // the helper has not reached it) rather than wait.
                        if s.next < n && s.next < k + WINDOW {
                            let c = s.next;
                            s.next += 1;
                            drop(s);
                            let out = prepare(c);
                            s = lock();
                            s.ready[c] = Some(out);
                            continue;
                        }
                        s = changed.wait(s).unwrap_or_else(|p| p.into_inner());
                    }
                };
                changed.notify_all();
                consume(out)?;
            }
            Ok(())
        })();
        lock().stop = true;
        changed.notify_all();
        result
    })
}

#[cfg(test)]
mod tests {
    use super::prepare_ahead;

    #[test]
    fn every_chunk_is_consumed_once_and_in_order() {
        for n in [0, 1, 2, 7, 8, 9, 100] {
            let mut seen = Vec::new();
            let r: Result<(), ()> = prepare_ahead(
                n,
                |c| c * 10,
                |_| false,
                |v| {
                    seen.push(v);
                    Ok(())
                },
            );
            assert!(r.is_ok());
            assert_eq!(seen, (0..n).map(|c| c * 10).collect::<Vec<_>>(), "n = {n}");
        }
    }

    #[test]
    fn a_consumer_error_stops_both_threads() {
        let prepared = std::sync::atomic::AtomicUsize::new(0);
        let mut seen = Vec::new();
        let r = prepare_ahead(
            1000,
            |c| {
                prepared.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                c
            },
            |_| false,
            |v| {
                seen.push(v);
                if v == 5 { Err(v) } else { Ok(()) }
            },
        );
        assert_eq!(r, Err(5));
        assert_eq!(seen, vec![0, 1, 2, 3, 4, 5]);
        // Nothing was prepared beyond the window past the failing chunk.
        assert!(prepared.into_inner() <= 6 + super::WINDOW + 1);
    }

    #[test]
    fn the_first_error_in_order_is_the_one_consumed() {
        // Chunks 3 and 6 fail to prepare; whoever prepared them, chunk 3's error comes first.
        let mut seen = Vec::new();
        let r = prepare_ahead(
            10,
            |c| if c == 3 || c == 6 { Err(c) } else { Ok(c) },
            |r: &Result<usize, usize>| r.is_err(),
            |v| {
                seen.push(v);
                v.map(|_| ())
            },
        );
        assert_eq!(r, Err(3));
        assert_eq!(seen, vec![Ok(0), Ok(1), Ok(2), Err(3)]);
    }
}
