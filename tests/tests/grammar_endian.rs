//! Byte order in the grammar (issue 29 item 5: "Every primitive is little-endian;
//! big-endian fields (and a byte order chosen by a header, as TIFF does) cannot be
//! stated"). `#[mmd(endian = big)]` on a struct gives its number fields (values, arrays of
//! them, counts) that order; on a field it overrides; `endian = if cond { big } else
//! { little }` chooses it from earlier fields. On two small formats laid out by hand: the
//! values read are the ones the bytes hold most significant byte first, each sample writes
//! back byte-exactly (through JSON too), spans and explain show the right offsets, a cut
//! input is an error at the value that runs past the end, and a TIFF-like header whose
//! first bytes are "MM" or "II" reads the same values from either byte order.

use mmd_formats::file::{decode_all, encode_all};
use mmd_formats::inspect::spans::explain;
use mmd_formats::layout::{Body, Describe, Endian};
use mmd_formats::{json, Encode, Mmd};

/// A nested record: it states no byte order, so it keeps little-endian inside a
/// big-endian struct.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct LittlePair {
    /// A little-endian word.
    pub w: u16,
}

/// A record of a big-endian file.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(
    endian = big,
    file(id = "big_rec", title = "A made-up big-endian record", application = "none")
)]
pub struct BigRecord {
    /// 2 bytes.
    pub a: u16,
    /// 4 bytes.
    pub b: u32,
    /// 4 bytes, signed.
    pub c: i32,
    /// 4 bytes, IEEE 754.
    pub d: f32,
    /// 8 bytes.
    pub e: u64,
    /// Little-endian, its own order overriding the struct's.
    #[mmd(endian = little)]
    pub f: u16,
    /// Two big-endian words.
    pub g: [i16; 2],
    /// A big-endian count, then big-endian values.
    #[mmd(count = u16)]
    pub list: Vec<u32>,
    /// A big-endian count of records that keep their own (little-endian) order.
    #[mmd(count = u16)]
    pub pairs: Vec<LittlePair>,
    /// One byte: no order.
    pub tail: u8,
}

fn big_sample() -> Vec<u8> {
    let mut b = Vec::new();
    b.extend([0x12, 0x34]); // a = 0x1234, at 0
    b.extend([0xDE, 0xAD, 0xBE, 0xEF]); // b = 0xDEADBEEF, at 2
    b.extend([0xFF, 0xFF, 0xFF, 0xFE]); // c = -2, at 6
    b.extend([0x3F, 0xC0, 0x00, 0x00]); // d = 1.5, at 10
    b.extend([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08]); // e, at 14
    b.extend([0x34, 0x12]); // f = 0x1234 little-endian, at 22
    b.extend([0x00, 0x07, 0xFF, 0xF9]); // g = [7, -7], at 24
    b.extend([0x00, 0x02]); // list count 2, at 28
    b.extend([0x00, 0x00, 0x01, 0x00]); // list[0] = 256, at 30
    b.extend([0x00, 0x01, 0x00, 0x00]); // list[1] = 65536, at 34
    b.extend([0x00, 0x01]); // pairs count 1, at 38
    b.extend([0x01, 0x02]); // pairs[0].w = 0x0201 (little-endian), at 40
    b.push(0x99); // tail, at 42
    b
}

fn big_value() -> BigRecord {
    BigRecord {
        a: 0x1234,
        b: 0xDEAD_BEEF,
        c: -2,
        d: 1.5,
        e: 0x0102_0304_0506_0708,
        f: 0x1234,
        g: [7, -7],
        list: vec![256, 65536],
        pairs: vec![LittlePair { w: 0x0201 }],
        tail: 0x99,
    }
}

#[test]
fn big_endian_fields_read_most_significant_byte_first() {
    let bytes = big_sample();
    let v: BigRecord = decode_all(&bytes, &()).unwrap();
    assert_eq!(v, big_value());
    assert_eq!(v.a, 0x1234, "bytes 12 34 read as 0x1234");
}

#[test]
fn big_endian_fields_write_back_byte_exactly() {
    let bytes = big_sample();
    let v: BigRecord = decode_all(&bytes, &()).unwrap();
    assert_eq!(encode_all(&v, &()).unwrap(), bytes);
    assert_eq!(encode_all(&big_value(), &()).unwrap(), bytes);
    assert_eq!(v.size_hint(&()), bytes.len());
}

#[test]
fn big_endian_fields_round_trip_through_json() {
    let v: BigRecord = decode_all(&big_sample(), &()).unwrap();
    let text = json::to_string(&v);
    assert!(
        text.contains("\"a\":4660"),
        "a JSON number is the value: {text}"
    );
    let back: BigRecord = json::from_str(&text, &()).unwrap();
    assert_eq!(back, v);
    assert_eq!(encode_all(&back, &()).unwrap(), big_sample());
}

#[test]
fn explain_shows_big_endian_fields_at_their_bytes() {
    let v: BigRecord = decode_all(&big_sample(), &()).unwrap();
    for (at, path, start, end) in [
        (0u64, "a", 0u64, 2u64),
        (5, "b", 2, 6),
        (9, "c", 6, 10),
        (21, "e", 14, 22),
        (23, "f", 22, 24),
        (27, "g[1]", 26, 28),
        (29, "list.count", 28, 30),
        (33, "list[0]", 30, 34),
        (34, "list[1]", 34, 38),
        (38, "pairs.count", 38, 40),
        (41, "pairs[0].w", 40, 42),
        (42, "tail", 42, 43),
    ] {
        let x = explain(&v, &(), at).unwrap().unwrap();
        assert_eq!(x.path.to_string(), path, "byte {at}");
        assert_eq!((x.start, x.end), (start, end), "byte {at}: {path}");
    }
}

#[test]
fn a_cut_big_endian_input_is_an_error_at_the_value_that_runs_past_the_end() {
    let bytes = big_sample();
    // Cut in the middle of `c` (6..10).
    let e = decode_all::<BigRecord, _>(&bytes[..8], &()).unwrap_err();
    assert_eq!(e.path_string(), "c", "{e}");
    assert_eq!(e.offset(), 6, "{e}");
    // Cut in the middle of list[1] (34..38): named by its index.
    let e = decode_all::<BigRecord, _>(&bytes[..36], &()).unwrap_err();
    assert!(e.path_string().starts_with("list"), "{e}");
    assert!(e.to_string().contains("list[1]"), "{e}");
    // A count read big-endian: 0x0200 elements do not fit.
    let mut b = bytes.clone();
    b[28] = 0x02;
    b[29] = 0x00;
    let e = decode_all::<BigRecord, _>(&b, &()).unwrap_err();
    assert_eq!(e.offset(), 28, "{e}");
    assert!(
        e.to_string().contains("512"),
        "the count read big-endian: {e}"
    );
}

#[test]
fn the_writer_refuses_a_count_that_does_not_fit_in_its_order() {
    let mut v = big_value();
    v.list = vec![0; 70_000];
    let e = encode_all(&v, &()).unwrap_err();
    assert!(e.to_string().contains("u16"), "{e}");
}

/// A TIFF-like header: "MM" says the rest is big-endian, "II" little-endian.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(
    endian = if byte_order.starts_with(b"MM") { big } else { little },
    file(id = "tiffish", title = "A made-up TIFF-like header", application = "none")
)]
pub struct Tiffish {
    /// "II" (little-endian) or "MM" (big-endian).
    pub byte_order: [u8; 2],
    /// 42.
    pub magic: u16,
    /// Where the directory starts.
    pub offset: u32,
    /// Values, counted in the header's order.
    #[mmd(count = u16)]
    pub values: Vec<u32>,
    /// A scale.
    pub scale: f32,
    /// A signed difference.
    pub delta: i16,
    /// Always big-endian, whatever the header says.
    #[mmd(endian = big)]
    pub fixed: u16,
    /// Present when `delta` is negative, in the order a flag chooses (its own).
    #[mmd(endian = if *delta < 0 { little } else { big })]
    pub last: u32,
}

fn tiff_value(order: &[u8; 2]) -> Tiffish {
    Tiffish {
        byte_order: *order,
        magic: 42,
        offset: 0x0000_0108,
        values: vec![1, 0x0102_0304],
        scale: -2.0,
        delta: -300,
        fixed: 0xABCD,
        last: 0x1122_3344,
    }
}

fn tiff_mm() -> Vec<u8> {
    let mut b = b"MM".to_vec();
    b.extend([0x00, 0x2A]); // magic 42
    b.extend([0x00, 0x00, 0x01, 0x08]); // offset 0x108
    b.extend([0x00, 0x02]); // count 2
    b.extend([0x00, 0x00, 0x00, 0x01, 0x01, 0x02, 0x03, 0x04]);
    b.extend([0xC0, 0x00, 0x00, 0x00]); // -2.0
    b.extend([0xFE, 0xD4]); // -300
    b.extend([0xAB, 0xCD]); // fixed, big-endian
    b.extend([0x44, 0x33, 0x22, 0x11]); // last: delta < 0, so little-endian
    b
}

fn tiff_ii() -> Vec<u8> {
    let mut b = b"II".to_vec();
    b.extend([0x2A, 0x00]);
    b.extend([0x08, 0x01, 0x00, 0x00]);
    b.extend([0x02, 0x00]);
    b.extend([0x01, 0x00, 0x00, 0x00, 0x04, 0x03, 0x02, 0x01]);
    b.extend([0x00, 0x00, 0x00, 0xC0]);
    b.extend([0xD4, 0xFE]);
    b.extend([0xAB, 0xCD]); // fixed stays big-endian
    b.extend([0x44, 0x33, 0x22, 0x11]);
    b
}

#[test]
fn a_header_chooses_the_byte_order_of_the_same_body() {
    let mm: Tiffish = decode_all(&tiff_mm(), &()).unwrap();
    let ii: Tiffish = decode_all(&tiff_ii(), &()).unwrap();
    assert_eq!(mm, tiff_value(b"MM"));
    assert_eq!(ii, tiff_value(b"II"));
    assert_eq!(
        Tiffish {
            byte_order: *b"MM",
            ..ii.clone()
        },
        mm,
        "the same values either way"
    );
    assert_eq!(encode_all(&mm, &()).unwrap(), tiff_mm());
    assert_eq!(encode_all(&ii, &()).unwrap(), tiff_ii());
    // Flipping the header flips every number the header governs, and only those.
    let flipped = encode_all(
        &Tiffish {
            byte_order: *b"MM",
            ..ii.clone()
        },
        &(),
    )
    .unwrap();
    assert_eq!(flipped, tiff_mm());
    for v in [&mm, &ii] {
        let back: Tiffish = json::from_str(&json::to_string(v), &()).unwrap();
        assert_eq!(&back, v);
    }
}

#[test]
fn a_field_order_chosen_by_an_earlier_field_reads_both_ways() {
    let mut b = tiff_mm();
    // delta = +300 (01 2C): `last` is then big-endian.
    b[22] = 0x01;
    b[23] = 0x2C;
    let v: Tiffish = decode_all(&b, &()).unwrap();
    assert_eq!(v.delta, 300);
    assert_eq!(v.last, 0x4433_2211);
    assert_eq!(encode_all(&v, &()).unwrap(), b);
}

#[test]
fn explain_and_errors_in_a_header_chosen_order() {
    let ii: Tiffish = decode_all(&tiff_ii(), &()).unwrap();
    let x = explain(&ii, &(), 11).unwrap().unwrap();
    assert_eq!(
        (x.path.to_string(), x.start, x.end),
        ("values[0]".into(), 10, 14)
    );
    let x = explain(&ii, &(), 9).unwrap().unwrap();
    assert_eq!(
        (x.path.to_string(), x.start, x.end),
        ("values.count".into(), 8, 10)
    );
    let x = explain(&ii, &(), 3).unwrap().unwrap();
    assert_eq!((x.path.to_string(), x.start, x.end), ("magic".into(), 2, 4));
    let e = decode_all::<Tiffish, _>(&tiff_mm()[..5], &()).unwrap_err();
    assert_eq!(
        (e.path_string(), e.offset()),
        ("offset".to_string(), 4),
        "{e}"
    );
}

#[test]
fn the_descriptor_states_each_fields_order() {
    let Some(t) = <Tiffish as Describe>::layout() else {
        panic!("Tiffish describes itself")
    };
    let Body::Struct(fields) = t.body else {
        panic!("a struct")
    };
    let order: Vec<(&str, String)> = fields
        .iter()
        .map(|f| {
            let e = match f.endian {
                Endian::Little => "le".to_string(),
                Endian::Big => "be".to_string(),
                Endian::BigIf(c) => format!("be if {}", c.text),
            };
            (f.name, e)
        })
        .collect();
    let header = "be if byte_order.starts_with(b\"MM\")".to_string();
    assert_eq!(
        order,
        vec![
            ("byte_order", "le".to_string()),
            ("magic", header.clone()),
            ("offset", header.clone()),
            ("values", header.clone()),
            ("scale", header.clone()),
            ("delta", header),
            ("fixed", "be".to_string()),
            ("last", "be if !(*delta < 0)".to_string()),
        ]
    );
    let Some(b) = <BigRecord as Describe>::layout() else {
        panic!("BigRecord describes itself")
    };
    let Body::Struct(fields) = b.body else {
        panic!("a struct")
    };
    let be: Vec<&str> = fields
        .iter()
        .filter(|f| f.endian == Endian::Big)
        .map(|f| f.name)
        .collect();
    assert_eq!(be, ["a", "b", "c", "d", "e", "g", "list", "pairs"]);
}

#[test]
fn the_reference_says_big_endian_and_the_schema_is_unchanged() {
    let spec = mmd_spec::Spec::of::<Tiffish>().unwrap();
    let md = mmd_spec::render_markdown(&spec);
    assert!(
        md.contains("`u16`, big-endian if `byte_order.starts_with(b\"MM\")`, else little-endian"),
        "{md}"
    );
    assert!(md.contains("`u16`, big-endian |"), "{md}");
    assert!(
        md.contains("numbers are little-endian unless the type column says otherwise"),
        "{md}"
    );
    let spec = mmd_spec::Spec::of::<BigRecord>().unwrap();
    let md = mmd_spec::render_markdown(&spec);
    assert!(md.contains("`LittlePair`[]"), "{md}");
    assert!(md.contains("count big-endian"), "{md}");
    let schema: serde_json::Value = serde_json::from_str(&mmd_spec::render_schema(&spec)).unwrap();
    // A JSON value is the number either way: the same as a little-endian u16's.
    let a = &schema["$defs"]["BigRecord"]["properties"]["a"];
    assert_eq!(
        (&a["type"], &a["minimum"], &a["maximum"]),
        (&"integer".into(), &0.into(), &65535.into()),
        "{schema}"
    );
    let ksy = mmd_spec::render_ksy(&spec).unwrap();
    assert!(ksy.contains("type: u2be"), "{ksy}");
    assert!(ksy.contains("type: f4be"), "{ksy}");
    assert!(ksy.contains("type: s4be"), "{ksy}");
    assert!(ksy.contains("type: u8be"), "{ksy}");
}
