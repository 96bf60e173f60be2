//! A stream may claim more bytes than it holds: reading from it reserves memory for a
//! bounded number of records before they are read, whatever the count says (DESIGN.md:
//! no input makes the library allocate far beyond the input's size). Found by mutation
//! testing (`tests/MUTANTS.md`): no other test read a counted sequence from a stream
//! that lies about its length.

use mmd_formats::pmx::{PmxContext, Vertices};
use mmd_formats::{Decode, IoInput, Mmd, Seq, SliceInput, TextEncoding};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::{Cursor, Read, Seek, SeekFrom};

/// Records the largest single allocation of this thread while it is `Some`, and counts
/// this thread's allocations of 4 KiB or more while `BIG` is `Some`.
struct Tracking;

thread_local! {
    static LARGEST: Cell<Option<usize>> = const { Cell::new(None) };
    static BIG: Cell<Option<usize>> = const { Cell::new(None) };
}

// SAFETY: every call is forwarded unchanged to the system allocator; the bookkeeping
// only reads the layout.
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = LARGEST.try_with(|c| {
            if let Some(m) = c.get() {
                c.set(Some(m.max(layout.size())));
            }
        });
        if layout.size() >= 4096 {
            let _ = BIG.try_with(|c| {
                if let Some(n) = c.get() {
                    c.set(Some(n + 1));
                }
            });
        }
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `alloc` above, i.e. from the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Tracking = Tracking;

/// A stream that says it is 1 GiB long and holds only `data`.
struct Liar(Cursor<Vec<u8>>);

impl Read for Liar {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf)
    }
}

impl Seek for Liar {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        match pos {
            SeekFrom::End(d) => Ok(((1i64 << 30) + d) as u64),
            other => self.0.seek(other),
        }
    }
}

/// A 64-byte record.
#[derive(Mmd, Debug, PartialEq)]
struct Wide {
    values: [f32; 16],
}

/// A `u32` count of 64-byte records.
#[derive(Mmd, Debug, PartialEq)]
struct Many {
    #[mmd(count = u32)]
    items: Vec<Wide>,
}

#[test]
fn a_stream_that_claims_too_much_reserves_a_bounded_amount() {
    // 10 million records of 64 bytes fit the 1 GiB the stream claims; it holds one.
    let mut data = 10_000_000u32.to_le_bytes().to_vec();
    data.extend([0u8; 64]);
    let mut stream = Liar(Cursor::new(data));
    let mut input = IoInput::new(&mut stream).unwrap();
    LARGEST.with(|c| c.set(Some(0)));
    let result = Many::decode(&mut input, &());
    let largest = LARGEST.with(|c| c.replace(None)).unwrap_or(0);
    let e = result.unwrap_err();
    assert!(e.is_truncated(), "{e}");
    assert_eq!(e.path_string(), "items[1].values[0]", "{e}");
    assert!(
        largest <= 2 << 20,
        "reserved {largest} bytes before the records were there"
    );
}

#[test]
fn an_honest_count_from_a_stream_is_reserved_at_once() {
    // The bound above caps the reservation (1 MiB of records); under it, a stream's count
    // is reserved before the records are read, so the vector does not grow record by
    // record: 1,000 records of 64 bytes take one allocation of 64,000 bytes, not a run
    // of doublings from 4 KiB to 64 KiB.
    let mut data = 1000u32.to_le_bytes().to_vec();
    data.extend(std::iter::repeat_n(0u8, 64 * 1000));
    let mut cursor = Cursor::new(data);
    let mut input = IoInput::new(&mut cursor).unwrap();
    BIG.with(|c| c.set(Some(0)));
    let many = Many::decode(&mut input, &()).unwrap();
    let big = BIG.with(|c| c.replace(None)).unwrap_or(0);
    assert_eq!(many.items.len(), 1000);
    assert!(
        big <= 2,
        "{big} allocations of 4 KiB or more while reading 1,000 records"
    );
}

#[test]
fn additional_uvs_are_reserved_once_for_all_vertices() {
    // Seed 000: a PMX vertex is position, normal, UV, then as many additional UVs (4 x f32
    // each) as the header's globals say, the weight type and data, and the edge scale.
    // `Vertices` keeps the additional UVs in one store beside the vertices and reserves it
    // once, after the first vertex, for exactly the vertices still to come: 2,000
    // vertices with one additional UV take no run of reallocations (doubling, or one per
    // vertex) and no reallocation to give back what was reserved and not used.
    let ctx = PmxContext::new(2.0, TextEncoding::Utf16Le, 1, [1, 1, 1, 1, 1, 1]);
    let n = 2000;
    let mut bytes = Vec::new();
    for i in 0..n {
        let f = i as f32;
        for v in [f, 1.0, 2.0, 0.0, 1.0, 0.0, 0.5, 0.5, f, f, f, f] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes.extend_from_slice(&[0, 0]); // BDEF1, bone 0
        bytes.extend_from_slice(&1.0f32.to_le_bytes());
    }
    let mut input = SliceInput::new(&bytes);
    BIG.with(|c| c.set(Some(0)));
    let vertices = Vertices::decode_n(&mut input, &ctx, n).unwrap();
    let big = BIG.with(|c| c.replace(None)).unwrap_or(0);
    assert_eq!(Seq::len(&vertices), n);
    // One allocation for the vertices, one for their additional UVs; both reservations
    // are exact, so the store's final shrink has nothing to give back.
    assert!(
        big <= 2,
        "{big} allocations of 4 KiB or more while reading {n} vertices"
    );
}
