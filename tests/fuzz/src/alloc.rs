//! A counting global allocator: the peak of live heap bytes while a closure runs.
//!
//! The rule checked with it is the project's: no input makes the library allocate far
//! beyond the input's size (an allocation sized from a count that was not checked against
//! the bytes left is thousands of times the input).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting live bytes and their peak.
pub struct Counting;

fn grew(n: usize) {
    let now = CURRENT.fetch_add(n, Relaxed) + n;
    PEAK.fetch_max(now, Relaxed);
}

// SAFETY: every call is forwarded to `System` unchanged; only counters are updated.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        CURRENT.fetch_sub(layout.size(), Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                CURRENT.fetch_sub(layout.size() - new_size, Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f` and returns its result with the peak of live heap bytes above what was live
/// when it started (the fuzz targets are single-threaded, so every byte counted is `f`'s).
pub fn peak_during<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let base = CURRENT.load(Relaxed);
    PEAK.store(base, Relaxed);
    let r = f();
    (r, PEAK.load(Relaxed).saturating_sub(base))
}

/// The most a read of `len` input bytes may have live at once: 32 bytes a byte, plus
/// 64 KiB.
///
/// The bound of `tests/tests/hostile_alloc.rs`. The largest ratio of a record's size in
/// memory to its smallest encoding is a PMX IK link's, 40 bytes for 2 (a 1-byte bone index
/// and a 0 limit flag), so a valid file made of IK links takes 20 bytes a byte, and so does
/// the list a cut file's link count reserves (the fuzzer found this when the bound was 16).
pub fn read_bound(len: usize) -> usize {
    32 * len + 64 * 1024
}

/// The most building a file from `len` bytes of JSON text may have live at once: 64 bytes
/// a byte, plus 64 KiB.
///
/// The parsed tree is the larger part: a node is 32 bytes, an array element can be 2
/// bytes of text (`0,`), and a `Vec` that grows by doubling can hold twice the room its
/// elements use (16 bytes a byte, 32 at worst); an array of one element is 4 nodes of
/// room, so `[[0],[0],..` takes 48 bytes a byte. The values built and the file written
/// are smaller than their JSON (every field is named in it).
pub fn build_bound(len: usize) -> usize {
    64 * len + 64 * 1024
}
