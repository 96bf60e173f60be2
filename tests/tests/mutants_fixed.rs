//! The fixed paths' own promises (`FixedBytes`, `FixedOut`, `Decode::decode_fixed`,
//! `Encode::encode_fixed`, `codec::fixed_run`, `codec::encode_buffered`, `fixed::fixed_one`),
//! stated where a mutation test (`cargo mutants`, see `tests/MUTANTS.md`) showed that no
//! other test held them.
//!
//! Every reader and writer falls back to the ordinary path when the fixed one declines, so
//! a fixed path that always declines still reads and writes every file correctly: the
//! round-trip suites cannot see it. These tests call the fixed paths themselves and check
//! that they are taken where the crate's documentation says they are (a value whose size
//! the context fixes, in memory) and that they give the same values and bytes as the
//! ordinary path (which stays the reference).

use mmd_formats::codec::{encode_buffered, fixed_run};
use mmd_formats::fixed::fixed_one;
use mmd_formats::pmx::{PmxContext, Vertices, Weight};
use mmd_formats::vmd::BoneKey;
use mmd_formats::{
    BoneIndex, Decode, Encode, FixedBytes, FixedOut, Input, IoInput, Output, PmxText, Seq,
    SliceInput, TextEncoding, VertexIndex,
};
use mmd_tests::SpanOutput;
use std::io::Cursor;

/// A VMD bone key's 111 bytes (seed 004's layout: name 15 Shift_JIS bytes, frame u32,
/// position 3 x f32, rotation 4 x f32, interpolation 64 bytes), with the name's junk after
/// the NUL that real files carry (0xFD).
fn bone_key_bytes(frame: u32) -> Vec<u8> {
    let mut b = Vec::new();
    let mut name = [0xFDu8; 15];
    name[..7].copy_from_slice(b"center\0");
    b.extend_from_slice(&name);
    b.extend_from_slice(&frame.to_le_bytes());
    for v in [1.5f32, -2.0, 0.25, 0.0, 0.0, 0.38268343, 0.9238795] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.extend((0..64u8).map(|i| i.wrapping_mul(7)));
    assert_eq!(b.len(), 111);
    b
}

/// The value the ordinary (value-by-value) reader gives, from a stream.
fn ordinary<T: Decode<()>>(bytes: &[u8]) -> T {
    let mut cursor = Cursor::new(bytes);
    let mut input = IoInput::new(&mut cursor).unwrap();
    T::decode(&mut input, &()).unwrap()
}

// ---------------------------------------------------------------------------------------
// FixedBytes and FixedOut: front to back, None when it does not fit, nothing moved then
// ---------------------------------------------------------------------------------------

#[test]
fn fixed_bytes_hand_out_the_front_and_keep_the_rest() {
    let data = [1u8, 2, 3, 4, 5, 6, 7];
    let mut bytes = FixedBytes::new(&data);
    assert_eq!(bytes.rest(), &data[..]);
    assert_eq!(bytes.take::<2>(), Some([1, 2]));
    assert_eq!(bytes.take_slice(3), Some(&[3u8, 4, 5][..]));
    assert_eq!(bytes.rest(), &[6u8, 7][..]);
    // Too few bytes: None, and nothing is taken.
    assert_eq!(bytes.take::<3>(), None);
    assert_eq!(bytes.take_slice(3), None);
    assert_eq!(bytes.rest(), &[6u8, 7][..]);
    assert_eq!(bytes.take_slice(2), Some(&[6u8, 7][..]));
    assert_eq!(bytes.rest(), &[] as &[u8]);
    assert_eq!(bytes.take::<0>(), Some([]));
}

#[test]
fn fixed_out_writes_front_to_back_and_refuses_what_does_not_fit() {
    let mut buf = [0u8; 7];
    let mut out = FixedOut::new(&mut buf);
    assert_eq!(out.written(), 0);
    assert_eq!(out.put([1u8, 2]), Some(()));
    assert_eq!(out.written(), 2);
    assert_eq!(out.put_slice(&[3, 4]), Some(()));
    out.take_slice(1)
        .expect("one byte fits")
        .copy_from_slice(&[5]);
    assert_eq!(out.written(), 5);
    // Three bytes do not fit in the two left: None, and nothing is written or counted.
    assert_eq!(out.put([9u8, 9, 9]), None);
    assert_eq!(out.put_slice(&[9, 9, 9]), None);
    assert!(out.take_slice(3).is_none());
    assert_eq!(out.written(), 5);
    assert_eq!(out.put([6u8]), Some(()));
    assert_eq!(out.put_slice(&[7]), Some(()));
    assert_eq!(out.written(), 7);
    assert_eq!(out.put([0u8]), None);
    assert_eq!(buf, [1, 2, 3, 4, 5, 6, 7]);
}

// ---------------------------------------------------------------------------------------
// Leaves and records take the fixed path and agree with the ordinary one
// ---------------------------------------------------------------------------------------

/// `T` decodes from `bytes` on the fixed path (all of them, nothing left), equal to the
/// ordinary read, and encodes back to `bytes` on the fixed path.
fn fixed_both_ways<T: Decode<()> + Encode<()> + PartialEq + std::fmt::Debug>(bytes: &[u8]) {
    assert_eq!(T::fixed_size(&()), Some(bytes.len()), "fixed size");
    let mut src = FixedBytes::new(bytes);
    let value = T::decode_fixed(&mut src, &()).expect("the fixed path takes the value");
    assert!(src.rest().is_empty(), "the value took all its bytes");
    assert_eq!(
        value,
        ordinary::<T>(bytes),
        "fixed and ordinary reads agree"
    );
    let mut buf = vec![0xAAu8; bytes.len()];
    let mut out = FixedOut::new(&mut buf);
    value
        .encode_fixed(&mut out, &())
        .expect("the fixed path writes the value");
    assert_eq!(out.written(), bytes.len());
    assert_eq!(buf, bytes, "the fixed writer gives the bytes back");
    // One byte short: the fixed reader and writer decline.
    let mut short = FixedBytes::new(&bytes[..bytes.len() - 1]);
    assert!(T::decode_fixed(&mut short, &()).is_none());
    let mut small = vec![0u8; bytes.len() - 1];
    assert!(value
        .encode_fixed(&mut FixedOut::new(&mut small), &())
        .is_none());
}

#[test]
fn number_leaves_and_arrays_take_the_fixed_path() {
    fixed_both_ways::<u8>(&[0xFE]);
    fixed_both_ways::<i8>(&[0x80]);
    fixed_both_ways::<u16>(&0xBEEFu16.to_le_bytes());
    fixed_both_ways::<i32>(&(-5i32).to_le_bytes());
    fixed_both_ways::<u64>(&0x0102_0304_0506_0708u64.to_le_bytes());
    fixed_both_ways::<f32>(&1.5f32.to_le_bytes());
    fixed_both_ways::<f64>(&(-0.125f64).to_le_bytes());
    fixed_both_ways::<[u8; 5]>(&[1, 2, 3, 4, 5]);
    let floats: Vec<u8> = [1.0f32, 2.0, -3.5]
        .iter()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    fixed_both_ways::<[f32; 3]>(&floats);
    let shorts: Vec<u8> = [7i16, -7].iter().flat_map(|v| v.to_le_bytes()).collect();
    fixed_both_ways::<[i16; 2]>(&shorts);
}

#[test]
fn a_vmd_bone_key_takes_the_fixed_path() {
    // Every field of a bone key has a size the (empty) context fixes: 111 bytes.
    fixed_both_ways::<BoneKey>(&bone_key_bytes(42));
}

#[test]
fn a_tagged_enum_writes_its_tag_and_variant_on_the_fixed_path() {
    // Seed 000: a PMX vertex's weight is a type byte (0 BDEF1, 1 BDEF2, 2 BDEF4, 3 SDEF)
    // and that type's data, bone indices of the header's bone-index width (2 bytes here).
    let ctx = PmxContext::new(2.0, TextEncoding::Utf16Le, 0, [4, 1, 1, 2, 1, 1]);
    let mut sdef = vec![3u8, 5, 0, 6, 0];
    sdef.extend_from_slice(&0.75f32.to_le_bytes());
    sdef.extend((0..9).flat_map(|i| (i as f32).to_le_bytes()));
    let mut bdef4 = vec![2u8, 1, 0, 2, 0, 0xFF, 0xFF, 0xFF, 0xFF];
    bdef4.extend([0.5f32, 0.5, 0.0, 0.0].iter().flat_map(|f| f.to_le_bytes()));
    for bytes in [
        vec![0u8, 7, 0],
        vec![1u8, 1, 0, 2, 0, 0, 0, 0x40, 0x3F],
        bdef4,
        sdef,
    ] {
        let weight = Weight::decode(&mut SliceInput::new(&bytes), &ctx).unwrap();
        let mut buf = vec![0xAAu8; bytes.len()];
        let mut out = FixedOut::new(&mut buf);
        weight
            .encode_fixed(&mut out, &ctx)
            .unwrap_or_else(|| panic!("{weight:?} takes the fixed path"));
        assert_eq!(out.written(), bytes.len());
        assert_eq!(buf, bytes, "{weight:?}");
    }
}

#[test]
fn indices_of_widths_1_2_and_4_take_the_fixed_path() {
    // Seed 000: an index is 1, 2 or 4 bytes as the header's globals say; vertex indices of
    // 1 and 2 bytes are unsigned, every other index is signed (-1 = none).
    for (w, bytes, bone, vertex) in [
        (1u8, vec![0xFFu8], -1i32, 255u32),
        (2, vec![0xFE, 0xFF], -2, 65534),
        (4, vec![0x05, 0x00, 0x01, 0x00], 65541, 65541),
    ] {
        let ctx = PmxContext::new(2.0, TextEncoding::Utf16Le, 0, [w; 6]);
        assert_eq!(BoneIndex::fixed_size(&ctx), Some(usize::from(w)));
        assert_eq!(VertexIndex::fixed_size(&ctx), Some(usize::from(w)));
        let b = BoneIndex::decode_fixed(&mut FixedBytes::new(&bytes), &ctx).unwrap();
        assert_eq!(b.raw(), bone);
        let v = VertexIndex::decode_fixed(&mut FixedBytes::new(&bytes), &ctx).unwrap();
        assert_eq!(v.raw(), vertex);
        for written in [
            {
                let mut buf = vec![0u8; bytes.len()];
                b.encode_fixed(&mut FixedOut::new(&mut buf), &ctx).unwrap();
                buf
            },
            {
                let mut buf = vec![0u8; bytes.len()];
                v.encode_fixed(&mut FixedOut::new(&mut buf), &ctx).unwrap();
                buf
            },
        ] {
            assert_eq!(written, bytes, "width {w}");
        }
    }
    // Any other width: no fixed size (the ordinary reader reports the width).
    let ctx = PmxContext::new(2.0, TextEncoding::Utf16Le, 0, [3; 6]);
    assert_eq!(BoneIndex::fixed_size(&ctx), None);
}

#[test]
fn runs_and_arrays_of_indices_read_as_one_index_at_a_time_does() {
    // Seed 000: indices are 1, 2 or 4 bytes; vertex indices of 1 and 2 bytes are unsigned
    // (0..255, 0..65535), all others signed (-1 = none). A run read from memory (one
    // bounds check for all) must give what reading one index at a time from a stream gives.
    let bytes: Vec<u8> = vec![0x00, 0x7F, 0x80, 0xFF, 0x01, 0xFE, 0x34, 0x12];
    for w in [1u8, 2, 4] {
        let ctx = PmxContext::new(2.0, TextEncoding::Utf16Le, 0, [w; 6]);
        let n = bytes.len() / usize::from(w);
        let one_by_one = |signed: bool| -> Vec<i64> {
            let mut cursor = Cursor::new(&bytes);
            let mut input = IoInput::new(&mut cursor).unwrap();
            (0..n)
                .map(|_| {
                    if signed {
                        i64::from(BoneIndex::decode(&mut input, &ctx).unwrap().raw())
                    } else {
                        i64::from(VertexIndex::decode(&mut input, &ctx).unwrap().raw())
                    }
                })
                .collect()
        };
        let bones: Vec<BoneIndex> = Seq::decode_n(&mut SliceInput::new(&bytes), &ctx, n).unwrap();
        let bones: Vec<i64> = bones.iter().map(|b| i64::from(b.raw())).collect();
        assert_eq!(bones, one_by_one(true), "bone indices, width {w}");
        let vertices: Vec<VertexIndex> =
            Seq::decode_n(&mut SliceInput::new(&bytes), &ctx, n).unwrap();
        let vertices: Vec<i64> = vertices.iter().map(|v| i64::from(v.raw())).collect();
        assert_eq!(vertices, one_by_one(false), "vertex indices, width {w}");
        // An array of two (a BDEF2 weight's bones) is read as one run too.
        let pair = <[BoneIndex; 2]>::decode(&mut SliceInput::new(&bytes), &ctx).unwrap();
        let pair: Vec<i64> = pair.iter().map(|b| i64::from(b.raw())).collect();
        assert_eq!(
            pair,
            one_by_one(true)[..2],
            "a pair of bone indices, width {w}"
        );
    }
    // The signed values at widths 1 and 2, spelled out: 0x80 is -128, 0xFF is -1 (none);
    // 80 FF is -128, 01 FE is -511.
    let ctx = PmxContext::new(2.0, TextEncoding::Utf16Le, 0, [1; 6]);
    let four = <[BoneIndex; 4]>::decode(&mut SliceInput::new(&bytes[..4]), &ctx).unwrap();
    assert_eq!(four.map(|b| b.raw()), [0, 127, -128, -1]);
    let ctx = PmxContext::new(2.0, TextEncoding::Utf16Le, 0, [2; 6]);
    let four = <[BoneIndex; 4]>::decode(&mut SliceInput::new(&bytes), &ctx).unwrap();
    assert_eq!(four.map(|b| b.raw()), [0x7F00, -128, -511, 0x1234]);
}

/// An input in memory that counts the calls that take bytes from it (`read_into`,
/// `read_array`, `read_with`, `read_vec`, `skip`): one for a run read in one go, one per
/// value for a run read value by value.
struct CountingInput<'a> {
    inner: SliceInput<'a>,
    calls: usize,
}

impl<'a> CountingInput<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        CountingInput {
            inner: SliceInput::new(bytes),
            calls: 0,
        }
    }
}

impl Input for CountingInput<'_> {
    fn position(&self) -> u64 {
        self.inner.position()
    }
    fn end(&self) -> u64 {
        self.inner.end()
    }
    fn read_into(&mut self, buf: &mut [u8]) -> mmd_formats::Result<()> {
        self.calls += 1;
        self.inner.read_into(buf)
    }
    fn read_array<const N: usize>(&mut self) -> mmd_formats::Result<[u8; N]> {
        self.calls += 1;
        self.inner.read_array()
    }
    fn read_vec(&mut self, n: u64) -> mmd_formats::Result<Vec<u8>> {
        self.calls += 1;
        self.inner.read_vec(n)
    }
    fn read_with<R>(&mut self, n: usize, f: impl FnOnce(&[u8]) -> R) -> mmd_formats::Result<R> {
        self.calls += 1;
        self.inner.read_with(n, f)
    }
    fn holds_all(&self) -> bool {
        self.inner.holds_all()
    }
    fn in_memory(&self) -> Option<&[u8]> {
        self.inner.in_memory()
    }
    fn skip(&mut self, n: usize) -> mmd_formats::Result<()> {
        self.calls += 1;
        self.inner.skip(n)
    }
}

/// Reads `n` values of `T` from memory (an array when `n` is `None`) and checks that they
/// were taken in one run: one call that takes all their bytes.
fn one_run<T: Decode<C>, C>(bytes: &[u8], ctx: &C, n: Option<usize>) {
    let mut input = CountingInput::new(bytes);
    match n {
        Some(n) => drop(<Vec<T> as Seq<T>>::decode_n(&mut input, ctx, n).unwrap()),
        None => drop(T::decode(&mut input, ctx).unwrap()),
    }
    assert_eq!(
        input.calls,
        1,
        "{}: calls that took bytes",
        std::any::type_name::<T>()
    );
    assert_eq!(input.position(), bytes.len() as u64);
}

#[test]
fn runs_in_memory_are_read_in_one_go() {
    // Counted runs of numbers and indices, and arrays of them, are read from memory with
    // one bounds check and one call that takes their bytes (the crate's "fixed paths").
    let bytes: Vec<u8> = (0..64u8).collect();
    for w in [1u8, 2, 4] {
        let ctx = PmxContext::new(2.0, TextEncoding::Utf16Le, 0, [w; 6]);
        let n = 16 / usize::from(w);
        one_run::<BoneIndex, _>(&bytes[..16], &ctx, Some(n));
        one_run::<VertexIndex, _>(&bytes[..16], &ctx, Some(n));
        one_run::<[BoneIndex; 4], _>(&bytes[..4 * usize::from(w)], &ctx, None);
    }
    one_run::<u8, _>(&bytes, &(), Some(64));
    one_run::<u16, _>(&bytes, &(), Some(32));
    one_run::<f32, _>(&bytes, &(), Some(16));
    one_run::<[f32; 3], _>(&bytes[..12], &(), None);
    one_run::<[u8; 7], _>(&bytes[..7], &(), None);
    one_run::<BoneKey, _>(
        &(0..2).flat_map(bone_key_bytes).collect::<Vec<_>>(),
        &(),
        Some(2),
    );
}

/// An output that records no spans and counts its writes.
#[derive(Default)]
struct Counting {
    bytes: Vec<u8>,
    writes: usize,
}

impl Output for Counting {
    fn position(&self) -> u64 {
        self.bytes.len() as u64
    }
    fn write_bytes(&mut self, bytes: &[u8]) -> mmd_formats::Result<()> {
        self.bytes.extend_from_slice(bytes);
        self.writes += 1;
        Ok(())
    }
}

/// `write` into an output that counts its writes gives `expected`, at least `per_write`
/// bytes a write on average.
#[track_caller]
fn written_in_blocks(
    expected: &[u8],
    per_write: usize,
    write: impl FnOnce(&mut Counting) -> mmd_formats::Result<()>,
) {
    let mut out = Counting::default();
    write(&mut out).unwrap();
    assert_eq!(out.bytes, expected);
    assert!(
        out.writes * per_write <= expected.len(),
        "{} writes for {} bytes",
        out.writes,
        expected.len()
    );
}

#[test]
fn vertices_go_out_a_block_at_a_time() {
    // To an output that records no spans, `Vertices` writes a few hundred bytes at a time
    // (the fixed path), not field by field: 1,000 BDEF2 vertices of 46 bytes (seed 000:
    // position, normal, UV, type, two 1-byte bones and a weight, edge scale).
    let ctx = PmxContext::new(2.0, TextEncoding::Utf16Le, 0, [4, 1, 1, 1, 1, 1]);
    let n = 1000;
    let mut bytes = Vec::new();
    for i in 0..n {
        for v in [i as f32, 1.0, 2.0, 0.0, 1.0, 0.0, 0.5, 0.25] {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        bytes.extend_from_slice(&[1, 3, 4]);
        bytes.extend_from_slice(&0.5f32.to_le_bytes());
        bytes.extend_from_slice(&1.0f32.to_le_bytes());
    }
    let vertices = Vertices::decode_n(&mut SliceInput::new(&bytes), &ctx, n).unwrap();
    // Into a buffer (a record that holds vertices, written on the fixed path): all of
    // them when they fit, `None` when they do not.
    let mut buf = vec![0u8; bytes.len()];
    let mut fixed = FixedOut::new(&mut buf);
    assert_eq!(vertices.encode_fixed_all(&mut fixed, &ctx), Some(()));
    assert_eq!(fixed.written(), bytes.len());
    assert_eq!(buf, bytes);
    let mut small = vec![0u8; bytes.len() - 1];
    assert!(vertices
        .encode_fixed_all(&mut FixedOut::new(&mut small), &ctx)
        .is_none());
    written_in_blocks(&bytes, 128, |out| vertices.encode_all(out, &ctx));
}

#[test]
fn text_writes_on_the_fixed_path_in_the_headers_encoding() {
    // Seed 000: PMX text is an i32 byte length, then that many bytes in the encoding the
    // header names (0 UTF-16LE, 1 UTF-8). Text in the other encoding than the header's is
    // refused by the ordinary writer, so the fixed one declines it.
    let utf16 = PmxContext::new(2.0, TextEncoding::Utf16Le, 0, [1; 6]);
    let utf8 = PmxContext::new(2.0, TextEncoding::Utf8, 0, [1; 6]);
    let bytes = [4u8, 0, 0, 0, 0x1D, 0x52, 0xF3, 0x97]; // "初音" in UTF-16LE (U+521D U+97F3)
    let text = PmxText::decode(&mut SliceInput::new(&bytes), &utf16).unwrap();
    assert_eq!(text.to_str().as_deref(), Some("初音"));
    let mut buf = [0u8; 8];
    let mut out = FixedOut::new(&mut buf);
    assert_eq!(text.encode_fixed(&mut out, &utf16), Some(()));
    assert_eq!(out.written(), 8);
    assert_eq!(buf, bytes);
    let mut buf = [0u8; 8];
    assert!(text
        .encode_fixed(&mut FixedOut::new(&mut buf), &utf8)
        .is_none());
    assert!(text.encode(&mut Vec::new(), &utf8).is_err());
    let mut small = [0u8; 7];
    assert!(text
        .encode_fixed(&mut FixedOut::new(&mut small), &utf16)
        .is_none());
}

#[test]
fn runs_of_indices_go_out_a_block_at_a_time_and_stop_at_one_that_does_not_fit() {
    // Seed 000: a PMX face list is a run of vertex indices of the header's width. To an
    // output that records no spans, a run is written a block (1 KiB) at a time.
    let ctx = PmxContext::new(2.0, TextEncoding::Utf16Le, 0, [2; 6]);
    let faces: Vec<VertexIndex> = (0..3000u32)
        .map(|i| VertexIndex::new(i as usize * 20).unwrap())
        .collect();
    let expected: Vec<u8> = (0..3000u32)
        .flat_map(|i| ((i * 20) as u16).to_le_bytes())
        .collect();
    written_in_blocks(&expected, 512, |out| faces.encode_all(out, &ctx));
    // Bone indices of width 1 hold -128..=127: the eleventh (300) does not fit. The write
    // fails there, with its index in the path, though later blocks would fit.
    let ctx = PmxContext::new(2.0, TextEncoding::Utf16Le, 0, [1; 6]);
    let mut bones: Vec<BoneIndex> = (0..3000)
        .map(|i| BoneIndex::new(i % 100).unwrap())
        .collect();
    bones[10] = BoneIndex::new(300).unwrap();
    let e = bones
        .encode_all(&mut Counting::default(), &ctx)
        .unwrap_err();
    assert_eq!(e.path_string(), "[10]", "{e}");
    let e = faces
        .encode_all(
            &mut Counting::default(),
            &PmxContext::new(2.0, TextEncoding::Utf16Le, 0, [1; 6]),
        )
        .unwrap_err();
    assert_eq!(e.path_string(), "[13]", "{e}");
}

#[test]
fn fixed_one_reads_from_memory_and_steps_over_the_value() {
    let mut bytes = bone_key_bytes(3);
    bytes.extend_from_slice(&[0xEE, 0xEF]);
    let mut input = SliceInput::new(&bytes);
    let key = fixed_one(&mut input, BoneKey::fixed_size(&()), |b| {
        BoneKey::decode_fixed(b, &())
    })
    .expect("a bone key in memory takes the fixed path");
    assert_eq!(key.frame, 3);
    assert_eq!(
        u8::decode(&mut input, &()).unwrap(),
        0xEE,
        "the input stepped 111 bytes"
    );
    // Too few bytes left, or no fixed size: None and nothing consumed.
    assert!(fixed_one(&mut input, BoneKey::fixed_size(&()), |b| {
        BoneKey::decode_fixed(b, &())
    })
    .is_none());
    assert!(fixed_one(&mut input, None, |b| u8::decode_fixed(b, &())).is_none());
    assert_eq!(u8::decode(&mut input, &()).unwrap(), 0xEF);
}

// ---------------------------------------------------------------------------------------
// Runs: fixed_run and encode_buffered
// ---------------------------------------------------------------------------------------

#[test]
fn fixed_run_reads_a_run_in_memory_and_declines_a_stream() {
    let mut bytes: Vec<u8> = (1..=3).flat_map(bone_key_bytes).collect();
    bytes.push(0x99);
    let mut input = SliceInput::new(&bytes);
    let mut keys = Vec::new();
    assert!(fixed_run::<BoneKey, _, _>(&mut input, &(), 3, &mut keys));
    assert_eq!(keys.iter().map(|k| k.frame).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(
        u8::decode(&mut input, &()).unwrap(),
        0x99,
        "the run was stepped over"
    );

    // More values than bytes: declined, nothing consumed, nothing kept.
    let mut input = SliceInput::new(&bytes);
    let mut none = Vec::new();
    assert!(!fixed_run::<BoneKey, _, _>(&mut input, &(), 4, &mut none));
    assert!(none.is_empty());
    assert_eq!(BoneKey::decode(&mut input, &()).unwrap().frame, 1);

    // A stream has no bytes in memory: declined, the ordinary reader takes over.
    let mut cursor = Cursor::new(&bytes);
    let mut stream = IoInput::new(&mut cursor).unwrap();
    let mut none = Vec::new();
    assert!(!fixed_run::<BoneKey, _, _>(&mut stream, &(), 1, &mut none));
    assert!(none.is_empty());
}

#[test]
fn encode_buffered_writes_every_fixed_value_in_blocks() {
    // 40 keys of 111 bytes: more than one block of the write buffer.
    let bytes: Vec<u8> = (0..40).flat_map(bone_key_bytes).collect();
    let keys: Vec<BoneKey> = {
        let mut input = SliceInput::new(&bytes);
        (0..40)
            .map(|_| BoneKey::decode(&mut input, &()).unwrap())
            .collect()
    };
    let mut out = Vec::new();
    assert_eq!(encode_buffered(&keys, &mut out, &()).unwrap(), 40);
    assert_eq!(out, bytes);
    // Nothing to write, or an output that records spans: nothing taken.
    let mut out = Vec::new();
    assert_eq!(
        encode_buffered::<BoneKey, _, _>(&[], &mut out, &()).unwrap(),
        0
    );
    let mut spans = SpanOutput::default();
    assert_eq!(encode_buffered(&keys, &mut spans, &()).unwrap(), 0);
    assert!(spans.0.is_empty());
}

#[test]
fn a_vector_of_fixed_values_writes_on_the_fixed_path() {
    let values: Vec<u16> = vec![1, 0x0203, 0xFFFF];
    assert_eq!(Seq::len(&values), 3);
    assert!(!Seq::is_empty(&values));
    assert!(Seq::is_empty(&Vec::<u16>::from_values(Vec::new())));
    let mut buf = [0u8; 6];
    let mut out = FixedOut::new(&mut buf);
    assert_eq!(values.encode_fixed_all(&mut out, &()), Some(()));
    assert_eq!(out.written(), 6);
    assert_eq!(buf, [1, 0, 3, 2, 0xFF, 0xFF]);
    let mut small = [0u8; 5];
    assert!(values
        .encode_fixed_all(&mut FixedOut::new(&mut small), &())
        .is_none());
    let bytes: Vec<u8> = vec![4, 5, 6];
    let mut buf = [0u8; 3];
    assert_eq!(
        bytes.encode_fixed_all(&mut FixedOut::new(&mut buf), &()),
        Some(())
    );
    assert_eq!(buf, [4, 5, 6]);
}
