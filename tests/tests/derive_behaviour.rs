//! Behaviour of `#[derive(Mmd)]` on downstream-style types defined here: every directive
//! reads known bytes (written by hand, each byte commented) into the expected value and
//! writes that value back to the same bytes; the writer refuses, with an `Err` naming the
//! field, every value that would not read back the same; read errors carry the field path,
//! the offset and the right kind.

use mmd_formats::file::{decode_all, encode_all};
use mmd_formats::{
    BoneIndex, Decode, Error, ErrorKind, IndexKind, IndexWidths, Mmd, PmxText, SliceInput,
    TextContext, TextEncoding, VertexIndex,
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/// Reads `bytes` (all of them) and writes the value back, asserting both directions.
#[track_caller]
fn round_trip<T, C>(bytes: &[u8], ctx: &C, expected: &T)
where
    T: Decode<C> + mmd_formats::Encode<C> + PartialEq + std::fmt::Debug,
    C: ?Sized,
{
    let value: T = decode_all(bytes, ctx).unwrap_or_else(|e| panic!("read failed: {e}"));
    assert_eq!(&value, expected);
    let written = encode_all(&value, ctx).unwrap_or_else(|e| panic!("write failed: {e}"));
    mmd_tests::assert_bytes_eq(&written, bytes, "write(read(bytes))");
    assert_eq!(value.size_hint(ctx), bytes.len(), "size_hint");
}

/// The error of a write that must fail.
#[track_caller]
fn write_err<T: mmd_formats::Encode<C>, C: ?Sized>(value: &T, ctx: &C) -> Error {
    match encode_all(value, ctx) {
        Ok(bytes) => panic!("write should fail, wrote {bytes:02x?}"),
        Err(e) => e,
    }
}

/// The error of a read that must fail.
#[track_caller]
fn read_err<T: Decode<C> + std::fmt::Debug, C: ?Sized>(bytes: &[u8], ctx: &C) -> Error {
    match decode_all::<T, C>(bytes, ctx) {
        Ok(v) => panic!("read should fail, read {v:?}"),
        Err(e) => e,
    }
}

#[track_caller]
fn assert_inconsistent(e: &Error, path: &str, offset: u64) {
    assert!(
        matches!(e.kind(), ErrorKind::Inconsistent { .. }),
        "expected an Inconsistent error, got {e}"
    );
    assert_eq!(e.path_string(), path, "path of {e}");
    assert_eq!(e.offset(), offset, "offset of {e}");
}

// ---------------------------------------------------------------------------------------
// A test context: index widths, text encoding and one extra number
// ---------------------------------------------------------------------------------------

/// A context like PMX's: six index widths (in `IndexKind::ALL` order), a text encoding and
/// a count that `len = ctx.extra` fields use.
#[derive(Debug, Clone, Copy, PartialEq)]
struct TestCtx {
    widths: [u8; 6],
    encoding: TextEncoding,
    extra: u8,
}

impl IndexWidths for TestCtx {
    fn index_width(&self, kind: IndexKind) -> u8 {
        let i = IndexKind::ALL.iter().position(|k| *k == kind).unwrap_or(0);
        self.widths[i]
    }
}

impl TextContext for TestCtx {
    fn text_encoding(&self) -> TextEncoding {
        self.encoding
    }
}

const CTX: TestCtx = TestCtx {
    widths: [2, 1, 1, 1, 1, 1],
    encoding: TextEncoding::Utf8,
    extra: 1,
};

// ---------------------------------------------------------------------------------------
// count
// ---------------------------------------------------------------------------------------

/// One counted sequence per count type.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Counts {
    /// A u8 count.
    #[mmd(count = u8)]
    a: Vec<u8>,
    /// A u16 count.
    #[mmd(count = u16)]
    b: Vec<i16>,
    /// A u32 count.
    #[mmd(count = u32)]
    c: Vec<u32>,
    /// An i32 count.
    #[mmd(count = i32)]
    d: Vec<f32>,
}

#[rustfmt::skip]
const COUNTS: [u8; 28] = [
    0x02, 0x0a, 0x0b,                   // a: u8 count 2, then 10, 11
    0x01, 0x00, 0xfe, 0xff,             // b: u16 count 1, then -2
    0x01, 0x00, 0x00, 0x00,             // c: u32 count 1
    0x78, 0x56, 0x34, 0x12,             //    0x12345678
    0x02, 0x00, 0x00, 0x00,             // d: i32 count 2
    0x00, 0x00, 0x80, 0x3f,             //    1.0
    0x00, 0x00, 0x20, 0xc1,             //    -10.0
    0x00,                               // (not part of Counts: see the test)
];

fn counts() -> Counts {
    Counts {
        a: vec![10, 11],
        b: vec![-2],
        c: vec![0x1234_5678],
        d: vec![1.0, -10.0],
    }
}

#[test]
fn count_of_every_integer_type() {
    round_trip(&COUNTS[..27], &(), &counts());
    // Empty sequences: a zero count of each width.
    let empty = Counts {
        a: vec![],
        b: vec![],
        c: vec![],
        d: vec![],
    };
    round_trip(&[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], &(), &empty);
    // The byte after the value is not read: decode_all says so.
    let e = read_err::<Counts, _>(&COUNTS, &());
    assert_eq!(e.offset(), 27);
}

#[test]
fn negative_i32_count_is_invalid() {
    let mut bytes = COUNTS[..27].to_vec();
    bytes[15..19].copy_from_slice(&(-1i32).to_le_bytes());
    let e = read_err::<Counts, _>(&bytes, &());
    assert!(matches!(e.kind(), ErrorKind::Invalid { .. }), "{e}");
    assert_eq!(e.path_string(), "d");
    assert_eq!(e.offset(), 15);
    assert_eq!(
        e.to_string(),
        "d: count -1 at 0xf (expected a count of 0 or more)"
    );
}

#[test]
fn u8_count_with_256_elements_is_an_error() {
    let mut v = counts();
    v.a = vec![0; 256];
    let e = write_err(&v, &());
    assert_inconsistent(&e, "a", 0);
    assert!(e.to_string().contains("a count that fits u8"), "{e}");
    assert!(e.to_string().contains("256 elements"), "{e}");
    // 255 still fits.
    v.a = vec![0; 255];
    let bytes = encode_all(&v, &()).unwrap();
    assert_eq!(bytes[0], 255);
}

/// A count whose records could never fit.
#[derive(Mmd, Debug, PartialEq)]
struct Big {
    /// Records of 16 bytes, an i32 count first.
    #[mmd(count = i32)]
    values: Vec<[f32; 4]>,
}

// A global allocator that can record the largest allocation a thread makes, so that the
// test below can show a huge count is refused before anything is allocated for it.
struct Tracking;

thread_local! {
    static LARGEST: Cell<Option<usize>> = const { Cell::new(None) };
}

unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = LARGEST.try_with(|c| {
            if let Some(m) = c.get() {
                c.set(Some(m.max(layout.size())));
            }
        });
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

#[test]
fn count_larger_than_the_input_fails_at_once_without_allocating() {
    let mut bytes = vec![0u8; 20];
    bytes[..4].copy_from_slice(&i32::MAX.to_le_bytes()); // count 2^31-1, then 16 bytes
    LARGEST.with(|c| c.set(Some(0)));
    let result = Big::decode(&mut SliceInput::new(&bytes), &());
    let largest = LARGEST.with(|c| c.replace(None)).unwrap_or(0);
    let e = result.unwrap_err();
    match e.kind() {
        ErrorKind::CountTooLarge {
            count,
            min_record_size,
            remaining,
        } => {
            assert_eq!(*count, (1 << 31) - 1);
            assert_eq!(*min_record_size, 16);
            assert_eq!(*remaining, 16);
        }
        other => panic!("expected CountTooLarge, got {other:?}"),
    }
    assert_eq!(e.path_string(), "values");
    assert_eq!(e.offset(), 0);
    // The 16 bytes after the count are one whole record, and the input ends where the
    // second would start: nothing present is corrupt, so this reads as a cut file.
    assert!(e.is_truncated(), "{e}");
    assert_eq!(e.cut_path().as_deref(), Some("values[1][0]"), "{e}");
    assert_eq!(e.input_end(), Some(20), "{e}");
    // Only the error itself was allocated (its box and its path), nothing near 32 GiB.
    assert!(
        largest < 1024,
        "largest allocation during the read: {largest} bytes"
    );
    // One record does fit.
    bytes[..4].copy_from_slice(&1i32.to_le_bytes());
    assert_eq!(
        decode_all::<Big, _>(&bytes, &()).unwrap().values,
        vec![[0.0; 4]]
    );
}

// ---------------------------------------------------------------------------------------
// len
// ---------------------------------------------------------------------------------------

/// Lengths from an earlier field and from the context.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = TestCtx)]
struct Lens {
    /// How many `items`.
    n: u8,
    /// `n` items.
    #[mmd(len = *n)]
    items: Vec<u16>,
    /// As many pairs as the context's `extra`.
    #[mmd(len = ctx.extra)]
    extras: Vec<[u8; 2]>,
}

#[test]
fn len_from_an_earlier_field_and_from_the_context() {
    #[rustfmt::skip]
    let bytes = [
        0x02,                   // n = 2
        0x01, 0x00, 0x02, 0x00, // items: 1, 2
        0xaa, 0xbb,             // extras (ctx.extra = 1): [0xaa, 0xbb]
    ];
    let v = Lens {
        n: 2,
        items: vec![1, 2],
        extras: vec![[0xaa, 0xbb]],
    };
    round_trip(&bytes, &CTX, &v);
    // The same bytes with ctx.extra = 0 leave two bytes unread; with 2, they run short.
    let zero = TestCtx { extra: 0, ..CTX };
    let e = read_err::<Lens, _>(&bytes, &zero);
    assert_eq!(e.offset(), 5);
    let two = TestCtx { extra: 2, ..CTX };
    let e = read_err::<Lens, _>(&bytes, &two);
    assert!(matches!(e.kind(), ErrorKind::CountTooLarge { .. }), "{e}");
    assert_eq!(e.path_string(), "extras");
    assert_eq!(e.offset(), 5);
}

#[test]
fn len_mismatch_is_an_error() {
    let v = Lens {
        n: 2,
        items: vec![1, 2, 3],
        extras: vec![[0, 0]],
    };
    let e = write_err(&v, &CTX);
    assert_inconsistent(&e, "items", 1);
    assert_eq!(
        e.to_string(),
        "items: cannot write at 0x1: 3 elements (expected 2 elements (`*n`))"
    );
    let v = Lens {
        n: 0,
        items: vec![],
        extras: vec![],
    };
    let e = write_err(&v, &CTX);
    assert_inconsistent(&e, "extras", 1);
    assert!(e.to_string().contains("`ctx.extra`"), "{e}");
}

// ---------------------------------------------------------------------------------------
// item: values held in a container other than a Vec
// ---------------------------------------------------------------------------------------

/// Values kept as their sum and their differences (a container of its own).
#[derive(Debug, Clone, PartialEq, Default)]
struct Deltas(Vec<i32>);

impl mmd_formats::Seq<u16> for Deltas {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn size_hint_all<C: ?Sized>(&self, _ctx: &C) -> usize
    where
        u16: mmd_formats::Encode<C>,
    {
        2 * self.0.len()
    }
    fn decode_n<C: ?Sized, I: mmd_formats::Input + ?Sized>(
        input: &mut I,
        ctx: &C,
        n: usize,
    ) -> mmd_formats::Result<Self>
    where
        u16: Decode<C>,
    {
        let mut last = 0i32;
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let v = i32::from(u16::decode(input, ctx).map_err(|e| e.in_index(i))?);
            out.push(v - last);
            last = v;
        }
        Ok(Deltas(out))
    }
    fn from_values(values: Vec<u16>) -> Self {
        let mut last = 0i32;
        Deltas(
            values
                .into_iter()
                .map(|v| {
                    let d = i32::from(v) - last;
                    last = i32::from(v);
                    d
                })
                .collect(),
        )
    }
    fn encode_all<C: ?Sized, O: mmd_formats::Output + ?Sized>(
        &self,
        out: &mut O,
        ctx: &C,
    ) -> mmd_formats::Result<()>
    where
        u16: mmd_formats::Encode<C>,
    {
        let mut v = 0i32;
        for (i, d) in self.0.iter().enumerate() {
            v += d;
            let value = u16::try_from(v).map_err(|_| {
                Error::inconsistent(out.position(), "a value that fits u16", v.to_string())
                    .in_index(i)
            })?;
            mmd_formats::Encode::encode(&value, out, ctx).map_err(|e| e.in_index(i))?;
        }
        Ok(())
    }
}

impl mmd_formats::walk::Walk for Deltas {
    fn walk(&self, v: &mut dyn mmd_formats::walk::Visitor) {
        let mut sum = 0i32;
        v.begin_seq(self.0.len());
        for d in &self.0 {
            sum += d;
            v.leaf(mmd_formats::walk::Leaf::U16(sum as u16));
        }
        v.end();
    }
}

/// A counted field held in `Deltas`.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Held {
    /// A u8 count, then u16 values.
    #[mmd(count = u8, item = u16)]
    values: Deltas,
    /// After them.
    tail: u8,
}

#[test]
fn item_holds_a_counted_field_in_another_container() {
    #[rustfmt::skip]
    let bytes = [
        0x03,                               // count 3
        0x05, 0x00, 0x07, 0x00, 0x06, 0x00, // 5, 7, 6
        0xee,                               // tail
    ];
    let v = Held {
        values: Deltas(vec![5, 2, -1]),
        tail: 0xee,
    };
    round_trip(&bytes, &(), &v);
    // Described and walked as the Vec<u16> it stands for.
    use mmd_formats::layout::{Body, Describe, Repeat};
    let Some(Body::Struct(fields)) = Held::layout().map(|l| &l.body) else {
        panic!("a struct layout");
    };
    assert_eq!(fields[0].ty, "u16");
    assert!(matches!(
        fields[0].repeat,
        Repeat::Counted { count_size: 1, .. }
    ));
    let tree = mmd_formats::walk::Value::of(&v);
    let seq = tree.field("values").and_then(|s| s.as_seq()).unwrap();
    assert_eq!(seq.len(), 3);
    // Errors: the container's own, with the field and index; a cut inside the values.
    let e = write_err(
        &Held {
            values: Deltas(vec![5, -6]),
            tail: 0,
        },
        &(),
    );
    assert_eq!(e.path_string(), "values[1]");
    let e = read_err::<Held, _>(&bytes[..5], &());
    assert!(matches!(e.kind(), ErrorKind::CountTooLarge { .. }), "{e}");
    assert_eq!(e.path_string(), "values");
}

/// Records that hold their values in `Deltas`, one after another.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct ManyHeld {
    /// A u8 count of records.
    #[mmd(count = u8)]
    items: Vec<Held>,
}

#[test]
fn a_container_without_a_fixed_writer_sends_its_record_down_the_ordinary_path() {
    // `Deltas` implements only the required methods of `Seq`; its `encode_fixed_all` is the
    // default, which declines, so each `Held` in a run of records (which the writer first
    // tries to buffer on the fixed path) is written the ordinary way, values and all.
    #[rustfmt::skip]
    let bytes = [
        0x02,                               // two records
        0x02, 0x01, 0x00, 0x03, 0x00, 0xaa, // [1, 3], tail
        0x01, 0x09, 0x00, 0xbb,             // [9], tail
    ];
    let v = ManyHeld {
        items: vec![
            Held {
                values: Deltas(vec![1, 2]),
                tail: 0xaa,
            },
            Held {
                values: Deltas(vec![9]),
                tail: 0xbb,
            },
        ],
    };
    round_trip(&bytes, &(), &v);
}

// ---------------------------------------------------------------------------------------
// if
// ---------------------------------------------------------------------------------------

/// Flag-conditional fields.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Cond {
    /// Bit 0: `weight` follows; bit 1: `list` follows.
    flags: u8,
    /// Present with bit 0.
    #[mmd(if = *flags & 1 != 0)]
    weight: Option<f32>,
    /// Present with bit 1, a u8 count first.
    #[mmd(if = *flags & 2 != 0, count = u8)]
    list: Option<Vec<u8>>,
}

#[test]
fn if_reads_exactly_when_the_condition_holds() {
    #[rustfmt::skip]
    let both = [
        0x03,                   // flags: weight and list
        0x00, 0x00, 0x80, 0x3f, // weight 1.0
        0x02, 0x05, 0x06,       // list: count 2, then 5, 6
    ];
    let v = Cond {
        flags: 3,
        weight: Some(1.0),
        list: Some(vec![5, 6]),
    };
    round_trip(&both, &(), &v);
    // flags 2: no weight; the list is present with zero elements.
    let v = Cond {
        flags: 2,
        weight: None,
        list: Some(vec![]),
    };
    round_trip(&[0x02, 0x00], &(), &v);
    // flags 0: nothing follows.
    let v = Cond {
        flags: 0,
        weight: None,
        list: None,
    };
    round_trip(&[0x00], &(), &v);
}

#[test]
fn if_writer_checks_presence_against_the_condition() {
    let holds_but_none = Cond {
        flags: 1,
        weight: None,
        list: None,
    };
    let e = write_err(&holds_but_none, &());
    assert_inconsistent(&e, "weight", 1);
    assert_eq!(
        e.to_string(),
        "weight: cannot write at 0x1: None (expected Some(..), because `*flags & 1 != 0` holds)"
    );
    let fails_but_some = Cond {
        flags: 0,
        weight: None,
        list: Some(vec![1]),
    };
    let e = write_err(&fails_but_some, &());
    assert_inconsistent(&e, "list", 1);
    assert!(
        e.to_string()
            .contains("None, because `*flags & 2 != 0` does not hold"),
        "{e}"
    );
}

// ---------------------------------------------------------------------------------------
// unless_eof and rest
// ---------------------------------------------------------------------------------------

/// Optional trailing blocks, then whatever follows.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Motion {
    /// Always there.
    frame: u32,
    /// A block that older files leave out; a u32 count first.
    #[mmd(unless_eof, count = u32)]
    cameras: Option<Vec<u16>>,
    /// Another optional block.
    #[mmd(unless_eof)]
    light: Option<u16>,
    /// Trailing bytes, kept.
    #[mmd(rest)]
    trailing: Vec<u8>,
}

#[test]
fn unless_eof_absent_differs_from_present_with_zero_elements() {
    let absent = Motion {
        frame: 7,
        cameras: None,
        light: None,
        trailing: vec![],
    };
    // The file ends after the frame: cameras absent.
    round_trip(&[0x07, 0x00, 0x00, 0x00], &(), &absent);
    let zero = Motion {
        cameras: Some(vec![]),
        ..absent.clone()
    };
    #[rustfmt::skip]
    let zero_bytes = [
        0x07, 0x00, 0x00, 0x00, // frame 7
        0x00, 0x00, 0x00, 0x00, // cameras: count 0 (present, empty); the file ends
    ];
    round_trip(&zero_bytes, &(), &zero);
    assert_ne!(absent, zero);
    #[rustfmt::skip]
    let full = [
        0x07, 0x00, 0x00, 0x00, // frame 7
        0x01, 0x00, 0x00, 0x00, // cameras: count 1
        0x09, 0x00,             //   9
        0x34, 0x12,             // light 0x1234
        0xee, 0xff,             // trailing
    ];
    let v = Motion {
        frame: 7,
        cameras: Some(vec![9]),
        light: Some(0x1234),
        trailing: vec![0xee, 0xff],
    };
    round_trip(&full, &(), &v);
}

#[test]
fn unless_eof_truncated_block_is_an_error_not_absent() {
    // Two bytes of a four-byte count: the block is there but cut, which is an error.
    let e = read_err::<Motion, _>(&[0x07, 0, 0, 0, 0x01, 0x00], &());
    assert!(e.is_truncated(), "{e}");
    assert_eq!(e.path_string(), "cameras");
    assert_eq!(e.offset(), 4);
}

#[test]
fn nothing_may_be_written_after_an_absent_unless_eof_field() {
    let some_after_absent = Motion {
        frame: 1,
        cameras: None,
        light: Some(1),
        trailing: vec![],
    };
    let e = write_err(&some_after_absent, &());
    assert_inconsistent(&e, "light", 4);
    assert!(e.to_string().contains("nothing after `cameras`"), "{e}");
    let rest_after_absent = Motion {
        frame: 1,
        cameras: None,
        light: None,
        trailing: vec![0xee],
    };
    let e = write_err(&rest_after_absent, &());
    assert_inconsistent(&e, "trailing", 4);
    assert!(e.to_string().contains("nothing after `cameras`"), "{e}");
}

/// A version-gated block that may also be missing at the end of the file.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Versioned {
    /// 1 or 2; only version 2 has `extra`.
    version: u8,
    /// Present in version 2 unless the file ends first; a u8 count first.
    #[mmd(if = *version >= 2, unless_eof, count = u8)]
    extra: Option<Vec<u8>>,
    /// Trailing bytes.
    #[mmd(rest)]
    trailing: Vec<u8>,
}

#[test]
fn if_combined_with_unless_eof() {
    let v = |version, extra, trailing| Versioned {
        version,
        extra,
        trailing,
    };
    // Version 1: the byte after the version is trailing, not a count.
    round_trip(&[0x01, 0x55], &(), &v(1, None, vec![0x55]));
    // Version 2, file ends: absent.
    round_trip(&[0x02], &(), &v(2, None, vec![]));
    // Version 2, count 0: present and empty.
    round_trip(&[0x02, 0x00], &(), &v(2, Some(vec![]), vec![]));
    // Version 2, count 1, one byte, then trailing.
    round_trip(
        &[0x02, 0x01, 0x42, 0x99],
        &(),
        &v(2, Some(vec![0x42]), vec![0x99]),
    );

    let e = write_err(&v(1, Some(vec![]), vec![]), &());
    assert_inconsistent(&e, "extra", 1);
    assert!(
        e.to_string().contains("`*version >= 2` does not hold"),
        "{e}"
    );
    let e = write_err(&v(2, None, vec![1]), &());
    assert_inconsistent(&e, "trailing", 1);
}

// ---------------------------------------------------------------------------------------
// select
// ---------------------------------------------------------------------------------------

/// Chosen by a bool the enclosing struct computes.
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
#[mmd(selected_by = bool, name = "tail kind")]
enum TailSel {
    /// Selector false: a signed offset.
    #[mmd(tag = false)]
    Offset(i8),
    /// Selector true: a bone number.
    #[mmd(tag = true)]
    Bone(u16),
}

/// Chosen by an integer the enclosing struct computes.
#[derive(Mmd, Debug, Clone, Copy, PartialEq)]
#[mmd(selected_by = u8, name = "payload kind")]
enum Payload {
    /// 0: nothing.
    #[mmd(tag = 0)]
    Empty,
    /// 1: one byte.
    #[mmd(tag = 1)]
    Byte(u8),
    /// 7: two u16 values.
    #[mmd(tag = 7)]
    Pair {
        /// First.
        a: u16,
        /// Second.
        b: u16,
    },
}

/// Two selected fields.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Selects {
    /// Bit 0 chooses the tail.
    flags: u8,
    /// `TailSel::Bone` when bit 0 is set.
    #[mmd(select = *flags & 1 != 0)]
    tail: TailSel,
    /// Chooses the payload.
    kind: u8,
    /// The payload `kind` names.
    #[mmd(select = *kind)]
    payload: Payload,
}

#[test]
fn select_with_bool_and_integer_selectors() {
    #[rustfmt::skip]
    let bone_pair = [
        0x01,       // flags: bit 0, tail is a bone
        0x34, 0x12, // tail: Bone(0x1234)
        0x07,       // kind 7
        0x01, 0x00, // payload Pair { a: 1,
        0x02, 0x00, //                b: 2 }
    ];
    let v = Selects {
        flags: 1,
        tail: TailSel::Bone(0x1234),
        kind: 7,
        payload: Payload::Pair { a: 1, b: 2 },
    };
    round_trip(&bone_pair, &(), &v);
    // flags 0: Offset(-3); kind 0: Empty (no bytes).
    let v = Selects {
        flags: 0,
        tail: TailSel::Offset(-3),
        kind: 0,
        payload: Payload::Empty,
    };
    round_trip(&[0x00, 0xfd, 0x00], &(), &v);
    // kind 1: Byte(99).
    let v = Selects {
        flags: 0,
        tail: TailSel::Offset(-3),
        kind: 1,
        payload: Payload::Byte(99),
    };
    round_trip(&[0x00, 0xfd, 0x01, 0x63], &(), &v);
}

#[test]
fn unknown_selector_value_is_an_error() {
    let e = read_err::<Selects, _>(&[0x00, 0xfd, 0x03, 0x00], &());
    assert!(matches!(e.kind(), ErrorKind::Invalid { .. }), "{e}");
    assert_eq!(e.path_string(), "payload");
    assert_eq!(e.offset(), 3);
    assert_eq!(
        e.to_string(),
        "payload: unknown payload kind 3 at 0x3 (expected 0, 1 or 7)"
    );
}

#[test]
fn selector_mismatch_is_an_error() {
    let v = Selects {
        flags: 1,
        tail: TailSel::Offset(0),
        kind: 0,
        payload: Payload::Empty,
    };
    let e = write_err(&v, &());
    assert_inconsistent(&e, "tail", 1);
    assert!(e.to_string().contains("the variant for true"), "{e}");
    let v = Selects {
        flags: 0,
        tail: TailSel::Offset(0),
        kind: 0,
        payload: Payload::Byte(1),
    };
    let e = write_err(&v, &());
    assert_inconsistent(&e, "payload", 3);
    assert!(e.to_string().contains("(`*kind`)"), "{e}");
}

// ---------------------------------------------------------------------------------------
// tag enums: u8 and i8 tags; unit, tuple and named variants
// ---------------------------------------------------------------------------------------

/// A u8 tag.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(tag = u8, name = "shape kind")]
enum Shape {
    /// 0: a unit variant.
    #[mmd(tag = 0)]
    Point,
    /// 1: a tuple variant.
    #[mmd(tag = 1)]
    Circle(f32),
    /// 2: a named variant.
    #[mmd(tag = 2)]
    Rect {
        /// Width.
        w: u16,
        /// Height.
        h: u16,
    },
}

/// A signed i8 tag with negative values.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(tag = i8, name = "step kind")]
enum Step {
    /// -2: back by a number of steps.
    #[mmd(tag = -2)]
    Back(u8),
    /// -1: stay.
    #[mmd(tag = -1)]
    Stay,
    /// 5: forward.
    #[mmd(tag = 5)]
    Forward {
        /// How far.
        by: u8,
        /// How often.
        times: u8,
    },
}

/// Sequences of tagged values.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Shapes {
    /// Shapes, a u8 count first.
    #[mmd(count = u8)]
    shapes: Vec<Shape>,
    /// Steps, a u8 count first.
    #[mmd(count = u8)]
    steps: Vec<Step>,
}

#[test]
fn tag_enums_with_unsigned_and_signed_tags() {
    #[rustfmt::skip]
    let bytes = [
        0x03,                         // 3 shapes
        0x00,                         //   tag 0: Point
        0x01, 0x00, 0x00, 0x00, 0x40, //   tag 1: Circle(2.0)
        0x02, 0x03, 0x00, 0x04, 0x00, //   tag 2: Rect { w: 3, h: 4 }
        0x03,                         // 3 steps
        0xfe, 0x09,                   //   tag -2: Back(9)
        0xff,                         //   tag -1: Stay
        0x05, 0x01, 0x02,             //   tag 5: Forward { by: 1, times: 2 }
    ];
    let v = Shapes {
        shapes: vec![Shape::Point, Shape::Circle(2.0), Shape::Rect { w: 3, h: 4 }],
        steps: vec![Step::Back(9), Step::Stay, Step::Forward { by: 1, times: 2 }],
    };
    round_trip(&bytes, &(), &v);
}

#[test]
fn unknown_tag_names_the_enum_and_the_expected_values() {
    let e = read_err::<Shapes, _>(&[0x01, 0x09, 0x00], &());
    assert!(matches!(e.kind(), ErrorKind::Invalid { .. }), "{e}");
    assert_eq!(e.offset(), 1);
    assert_eq!(
        e.to_string(),
        "shapes[0]: unknown shape kind 9 at 0x1 (expected 0, 1 or 2)"
    );
    // A negative unknown tag is shown signed.
    let e = read_err::<Shapes, _>(&[0x00, 0x01, 0xfd], &());
    assert_eq!(
        e.to_string(),
        "steps[0]: unknown step kind -3 at 0x2 (expected -2, -1 or 5)"
    );
}

#[test]
fn truncated_variant_names_the_variant_and_field() {
    // Rect's height has one byte of two.
    let e = read_err::<Shapes, _>(&[0x01, 0x02, 0x03, 0x00, 0x04], &());
    assert!(e.is_truncated(), "{e}");
    assert_eq!(e.path_string(), "shapes[0].Rect.h");
    assert_eq!(e.offset(), 4);
    assert_eq!(
        e.to_string(),
        "shapes[0].Rect.h: expected 2 bytes at 0x4, file ends at 0x5"
    );
}

// ---------------------------------------------------------------------------------------
// Tuple structs
// ---------------------------------------------------------------------------------------

/// A tuple struct: paths use the field number.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Pair(u8, #[mmd(count = u8)] Vec<u16>);

/// A one-field tuple struct is transparent in paths.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Wrapper(#[mmd(count = u8)] Vec<u8>);

#[test]
fn tuple_structs() {
    // 0x05, then count 1, then 0x0102.
    round_trip(&[0x05, 0x01, 0x02, 0x01], &(), &Pair(5, vec![0x0102]));
    round_trip(&[0x02, 0xaa, 0xbb], &(), &Wrapper(vec![0xaa, 0xbb]));
    let e = read_err::<Pair, _>(&[0x05, 0x01, 0x02], &());
    assert_eq!(e.path_string(), "1");
    let e = write_err(&Wrapper(vec![0; 300]), &());
    assert_inconsistent(&e, "", 0);
}

// ---------------------------------------------------------------------------------------
// magic
// ---------------------------------------------------------------------------------------

/// A signature, then a version byte.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(magic = b"MMD1")]
struct Magic {
    /// Version.
    version: u8,
}

#[test]
fn magic_is_checked_and_written() {
    round_trip(&[b'M', b'M', b'D', b'1', 0x03], &(), &Magic { version: 3 });
    let e = read_err::<Magic, _>(&[b'M', b'M', b'D', b'0', 0x03], &());
    assert!(matches!(e.kind(), ErrorKind::Invalid { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "magic: magic \"MMD0\" at 0x0 (expected magic \"MMD1\")"
    );
    let e = read_err::<Magic, _>(b"MM", &());
    assert!(e.is_truncated(), "{e}");
    assert_eq!(e.path_string(), "magic");
}

// ---------------------------------------------------------------------------------------
// Truncation inside nested records
// ---------------------------------------------------------------------------------------

/// A record whose value is optional.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Item {
    /// Non-zero: a value follows.
    flags: u8,
    /// The value.
    #[mmd(if = *flags != 0)]
    value: Option<u32>,
}

/// Records after an id.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Outer {
    /// Id.
    id: u16,
    /// Items, a u8 count first.
    #[mmd(count = u8)]
    items: Vec<Item>,
}

#[test]
fn truncated_input_names_the_path_and_offset() {
    #[rustfmt::skip]
    let bytes = [
        0x01, 0x00, // id 1
        0x02,       // 2 items (each at least 1 byte: the count check passes)
        0x00,       //   items[0]: flags 0, no value
        0x01,       //   items[1]: flags 1, a value follows...
        0xaa, 0xbb, //     ...but only 2 of its 4 bytes
    ];
    let e = read_err::<Outer, _>(&bytes, &());
    assert!(e.is_truncated(), "{e}");
    assert_eq!(e.path_string(), "items[1].value");
    assert_eq!(e.offset(), 5);
    match e.kind() {
        ErrorKind::Truncated { needed, end } => assert_eq!((*needed, *end), (4, 7)),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        e.to_string(),
        "items[1].value: expected 4 bytes at 0x5, file ends at 0x7"
    );
    // With the last two bytes, it reads and writes back.
    let mut full = bytes.to_vec();
    full.extend_from_slice(&[0xcc, 0xdd]);
    let v = Outer {
        id: 1,
        items: vec![
            Item {
                flags: 0,
                value: None,
            },
            Item {
                flags: 1,
                value: Some(0xddcc_bbaa),
            },
        ],
    };
    round_trip(&full, &(), &v);
}

// ---------------------------------------------------------------------------------------
// switch_ctx, indices and text
// ---------------------------------------------------------------------------------------

/// A header that declares the context of the rest of a document.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct DocHeader {
    /// Text encoding: 0 = UTF-16LE, 1 = UTF-8.
    encoding: u8,
    /// How many `uvs`.
    extra: u8,
    /// Bone index width.
    bone_width: u8,
    /// Vertex index width.
    vertex_width: u8,
}

impl DocHeader {
    /// The context; an index width other than 1, 2 or 4 is an error at its offset (from the
    /// header's start).
    fn context(&self) -> mmd_formats::Result<TestCtx> {
        for (at, w) in [(2, self.bone_width), (3, self.vertex_width)] {
            if !matches!(w, 1 | 2 | 4) {
                return Err(Error::invalid(
                    at,
                    "an index width of 1, 2 or 4",
                    format!("index width {w}"),
                ));
            }
        }
        Ok(TestCtx {
            widths: [self.vertex_width, 1, 1, self.bone_width, 1, 1],
            encoding: TextEncoding::from_byte(self.encoding),
            extra: self.extra,
        })
    }
}

/// A document whose header switches the context.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = ())]
struct Doc {
    /// The header; the context of every later field comes from it.
    #[mmd(switch_ctx = header.context())]
    header: DocHeader,
    /// A name in the header's encoding.
    name: PmxText,
    /// A bone (signed; -1 = none).
    bone: BoneIndex,
    /// A vertex (unsigned at 1 and 2 bytes).
    vertex: VertexIndex,
    /// `extra` values.
    #[mmd(len = ctx.extra)]
    uvs: Vec<f32>,
}

/// A document after a prefix, so that offsets of context errors are seen to be absolute.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Wrapped {
    /// Prefix.
    id: u16,
    /// The document.
    doc: Doc,
}

#[rustfmt::skip]
const DOC: [u8; 21] = [
    0x01, 0x02, 0x01, 0x02,             // header: UTF-8, extra 2, bone width 1, vertex width 2
    0x02, 0x00, 0x00, 0x00, b'h', b'i', // name: length 2, "hi"
    0xff,                               // bone: -1 (1 byte, signed)
    0xfe, 0xff,                         // vertex: 65534 (2 bytes, unsigned)
    0x00, 0x00, 0x00, 0x3f,             // uvs[0]: 0.5
    0x00, 0x00, 0x00, 0xc0,             // uvs[1]: -2.0
];

fn doc() -> Doc {
    Doc {
        header: DocHeader {
            encoding: 1,
            extra: 2,
            bone_width: 1,
            vertex_width: 2,
        },
        name: PmxText::new("hi", TextEncoding::Utf8),
        bone: BoneIndex::NONE,
        vertex: VertexIndex::from_raw(65534),
        uvs: vec![0.5, -2.0],
    }
}

#[test]
fn switch_ctx_drives_later_fields() {
    round_trip(&DOC, &(), &doc());
    let v: Doc = decode_all(&DOC, &()).unwrap();
    assert!(v.bone.is_none());
    assert_eq!(v.vertex.get(), Some(65534));
    assert_eq!(v.name.to_str().as_deref(), Some("hi"));
}

#[test]
fn switch_ctx_error_carries_the_absolute_offset() {
    let mut bytes = vec![0x09, 0x00]; // id 9
    bytes.extend_from_slice(&DOC);
    bytes[2 + 2] = 3; // bone width 3
    let e = read_err::<Wrapped, _>(&bytes, &());
    assert!(matches!(e.kind(), ErrorKind::Invalid { .. }), "{e}");
    assert_eq!(e.path_string(), "doc.header");
    assert_eq!(e.offset(), 4);
    assert_eq!(
        e.to_string(),
        "doc.header: index width 3 at 0x4 (expected an index width of 1, 2 or 4)"
    );
}

#[test]
fn index_that_does_not_fit_its_width_is_an_error() {
    let mut v = doc();
    v.bone = BoneIndex::from_raw(200); // width 1: -128..=127
    let e = write_err(&v, &());
    assert_inconsistent(&e, "bone", 10);
    assert!(e.to_string().contains("bone index 200"), "{e}");
    v.bone = BoneIndex::from_raw(127);
    assert!(encode_all(&v, &()).is_ok());

    let mut v = doc();
    v.vertex = VertexIndex::from_raw(70000); // width 2: 0..=65535
    let e = write_err(&v, &());
    assert_inconsistent(&e, "vertex", 11);
    assert!(e.to_string().contains("vertex index 70000"), "{e}");
}

#[test]
fn text_in_another_encoding_than_the_context_is_an_error() {
    let mut v = doc();
    v.name = PmxText::new("hi", TextEncoding::Utf16Le);
    let e = write_err(&v, &());
    assert_inconsistent(&e, "name", 4);
    assert!(e.to_string().contains("Utf16Le"), "{e}");
}

/// `switch_ctx` may give a bare `Ok(..)`: the generated code names the error type.
mod switch_ctx_with_bare_ok {
    use mmd_formats::{Decode, Encode, Mmd, SliceInput};

    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct Counted {
        pub n: u8,
    }

    #[derive(Mmd, Debug, PartialEq)]
    #[mmd(ctx = Counted)]
    pub struct Inner {
        #[mmd(len = ctx.n)]
        pub values: Vec<u8>,
    }

    #[derive(Mmd, Debug, PartialEq)]
    #[mmd(ctx = ())]
    pub struct Outer {
        #[mmd(switch_ctx = Ok(Counted { n: *n }))]
        pub n: u8,
        pub inner: Inner,
    }

    #[test]
    fn reads_and_writes() {
        let bytes = [2u8, 7, 9];
        let v = Outer::decode(&mut SliceInput::new(&bytes), &()).unwrap();
        assert_eq!(v.inner.values, vec![7, 9]);
        let mut out = Vec::new();
        v.encode(&mut out, &()).unwrap();
        assert_eq!(out, bytes);
    }
}

/// A present `unless_eof` value that writes no bytes would read back as absent: Err.
mod unless_eof_present_but_empty {
    use mmd_formats::{Encode, Mmd};

    #[derive(Mmd, Debug, PartialEq)]
    pub struct Empty {
        #[mmd(len = 0u8)]
        pub nothing: Vec<u8>,
    }

    #[derive(Mmd, Debug, PartialEq)]
    pub struct File {
        pub a: u8,
        #[mmd(unless_eof)]
        pub tail: Option<Empty>,
    }

    #[test]
    fn is_an_error() {
        let f = File {
            a: 1,
            tail: Some(Empty { nothing: vec![] }),
        };
        let err = f.encode(&mut Vec::new(), &()).unwrap_err();
        assert_eq!(err.path_string(), "tail");
        assert_eq!(err.offset(), 1);
        let ok = File { a: 1, tail: None };
        let mut out = Vec::new();
        ok.encode(&mut out, &()).unwrap();
        assert_eq!(out, [1]);
    }
}
