//! Expressions that name fields of the enclosing records (issue 22: "expressions that name
//! ... fields of enclosing records", Kaitai's `_parent`), on a small made-up format laid out
//! by hand in the shape of MikuMikuMoving's sections: a file whose version decides a field
//! of each section, sections whose header gives the size and number of their items and a
//! minor version that decides the items' layout, and items that read a field two levels up.
//! Each sample round-trips byte-exactly, through JSON too; a malformed file is an error at
//! the offset and path of the value that broke, and a value the writer cannot write back
//! as it would be read is an error.

use mmd_formats::file::{decode_all, encode_all};
use mmd_formats::json;
use mmd_formats::layout::{Describe, Expr};
use mmd_formats::Mmd;

/// The file: a version, then its sections.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(
    magic = b"NST",
    file(id = "nst", title = "A made-up nested format", application = "none")
)]
pub struct Nested {
    /// The file's version (2 adds a flag byte to each section).
    pub version: u8,
    /// The number of sections.
    pub section_count: u8,
    /// The sections.
    #[mmd(len = section_count, with_parent)]
    pub sections: Vec<Section>,
}

/// A section: its minor version, the size and number of its items, then the items.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(parent = Nested)]
pub struct Section {
    /// The section's minor version (1 adds a weight to each item).
    pub minor: u8,
    /// The size of each item.
    pub item_size: u8,
    /// The number of items.
    pub item_count: u8,
    /// A flag byte, from file version 2.
    #[mmd(if = *parent.version >= 2)]
    pub flags: Option<u8>,
    /// The items, `item_size` bytes each.
    #[mmd(len = item_count, size = item_size, with_parent)]
    pub items: Vec<Item>,
    /// One value per item, as many as the section says.
    #[mmd(with_parent)]
    pub row: Row,
}

/// An item: an id, a weight from minor version 1, a byte per file version, and what a
/// newer writer added.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(parent = Section)]
pub struct Item {
    /// The item's id.
    pub id: u16,
    /// The weight, from the section's minor version 1.
    #[mmd(if = *parent.minor >= 1)]
    pub weight: Option<u16>,
    /// One byte per file version, two levels up.
    #[mmd(len = parent.parent.version)]
    pub marks: Vec<u8>,
    /// The bytes of the item this reader does not know.
    #[mmd(rest)]
    pub extra: Vec<u8>,
}

/// One `u16` per item of the section.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(parent = Section)]
pub struct Row {
    /// The values.
    #[mmd(len = parent.item_count)]
    pub values: Vec<u16>,
}

/// The sample, laid out by hand: version 2, two sections.
fn sample() -> Vec<u8> {
    let mut b = b"NST".to_vec();
    b.extend([2, 2]); // version 2, two sections
                      // Section 0: minor 1, items of 7 bytes, two of them, flags 0x5A.
    b.extend([1, 7, 2, 0x5A]);
    b.extend([0x0A, 0x00, 0x34, 0x12, 0xE1, 0xE2, 0x99]); // id 10, weight 0x1234, marks, 1 extra
    b.extend([0x0B, 0x00, 0x01, 0x00, 0xE3, 0xE4, 0x98]); // id 11, weight 1, marks, 1 extra
    b.extend([0x01, 0x00, 0x02, 0x00]); // row: 1, 2
                                        // Section 1: minor 0, items of 4 bytes, one of them, flags 0.
    b.extend([0, 4, 1, 0x00]);
    b.extend([0x0C, 0x00, 0xE5, 0xE6]); // id 12, no weight, marks, nothing extra
    b.extend([0x03, 0x00]); // row: 3
    b
}

#[test]
fn reads_fields_of_enclosing_records() {
    let bytes = sample();
    let file: Nested = decode_all(&bytes, &()).unwrap();
    assert_eq!(file.sections.len(), 2);
    let s0 = &file.sections[0];
    assert_eq!(s0.flags, Some(0x5A));
    assert_eq!(s0.items[0].weight, Some(0x1234));
    assert_eq!(s0.items[0].marks, [0xE1, 0xE2]);
    assert_eq!(s0.items[0].extra, [0x99]);
    assert_eq!(s0.row.values, [1, 2]);
    let s1 = &file.sections[1];
    assert_eq!(s1.items[0].weight, None);
    assert_eq!(s1.items[0].marks, [0xE5, 0xE6]);
    assert!(s1.items[0].extra.is_empty());
    assert_eq!(s1.row.values, [3]);
    assert_eq!(encode_all(&file, &()).unwrap(), bytes);
}

fn read(bytes: &[u8]) -> mmd_formats::Result<Nested> {
    decode_all(bytes, &())
}

/// Version 1 (no flag byte, one mark per item) and a section without items.
fn sample_v1() -> Vec<u8> {
    let mut b = b"NST".to_vec();
    b.extend([1, 2]);
    b.extend([1, 5, 1]); // minor 1, items of 5 bytes, one item
    b.extend([0x0A, 0x00, 0x34, 0x12, 0xE1]);
    b.extend([0x07, 0x00]); // row: 7
    b.extend([0, 9, 0]); // minor 0, no items (their size is never used)
    b
}

#[test]
fn a_version_without_the_flag_byte_and_an_empty_section_round_trip() {
    let bytes = sample_v1();
    let v = read(&bytes).unwrap();
    assert_eq!(v.sections[0].flags, None);
    assert_eq!(v.sections[0].items[0].marks, [0xE1]);
    assert!(v.sections[1].items.is_empty() && v.sections[1].row.values.is_empty());
    assert_eq!(encode_all(&v, &()).unwrap(), bytes);
    assert_eq!(mmd_formats::Encode::size_hint(&v, &()), bytes.len());
}

#[test]
fn the_json_form_builds_the_same_bytes() {
    for bytes in [sample(), sample_v1()] {
        let v = read(&bytes).unwrap();
        let text = json::to_string(&v);
        assert!(text.contains("\"items\":[{\"id\":10"), "{text}");
        let back: Nested = json::from_str(&text, &()).unwrap();
        assert_eq!(back, v);
        assert_eq!(encode_all(&back, &()).unwrap(), bytes);
    }
}

#[test]
fn json_that_disagrees_with_an_enclosing_field_is_an_error_at_its_path() {
    let v = read(&sample()).unwrap();
    // A weight in a section of minor version 0, whose items have none.
    let mut bad = v.clone();
    bad.sections[1].items[0].weight = Some(5);
    let text = json::to_string(&bad);
    let e = json::from_str::<Nested, _>(&text, &()).unwrap_err();
    assert_eq!(e.path_string(), "$.sections[1].items[0].weight", "{e}");
    assert!(e.to_string().contains("parent.minor"), "{e}");
    // A row with one value too many for the section's `item_count`.
    let mut long = v.clone();
    long.sections[0].row.values.push(9);
    let e = json::from_str::<Nested, _>(&json::to_string(&long), &()).unwrap_err();
    assert_eq!(e.path_string(), "$.sections[0].row.values", "{e}");
}

#[test]
fn a_field_of_the_enclosing_record_decides_what_is_read() {
    // Section 1 of the sample with minor version 1: its item now has a weight, which
    // takes the bytes of its marks, so the marks run past the item's 4 bytes.
    let mut b = sample();
    let s1 = 3 + 2 + 4 + 14 + 4;
    b[s1] = 1;
    let e = read(&b).unwrap_err();
    assert_eq!(e.path_string(), "sections[1].items[0].marks", "{e}");
    assert_eq!(e.offset(), (s1 + 4 + 4) as u64, "{e}");
}

#[test]
fn a_field_two_levels_up_decides_a_length() {
    // Version 3: three marks per item, which fill the first section's items of 7 bytes
    // (an id, a weight, three marks) but not the second's of 4 (an id, three marks).
    let mut b = sample();
    b[3] = 3;
    let e = read(&b).unwrap_err();
    assert_eq!(e.path_string(), "sections[1].items[0].marks", "{e}");
    assert_eq!(e.offset(), 3 + 2 + 4 + 14 + 4 + 4 + 2, "{e}");
}

#[test]
fn the_writer_checks_values_against_the_enclosing_fields() {
    let v = read(&sample()).unwrap();
    // A weight where the section's minor version says there is none.
    let mut bad = v.clone();
    bad.sections[1].items[0].weight = Some(5);
    let e = encode_all(&bad, &()).unwrap_err();
    assert_eq!(e.path_string(), "sections[1].items[0].weight", "{e}");
    assert!(e.to_string().contains("*parent.minor >= 1"), "{e}");
    // A mark too many for the file's version, two levels up.
    let mut marks = v.clone();
    marks.sections[0].items[1].marks.push(0);
    let e = encode_all(&marks, &()).unwrap_err();
    assert_eq!(e.path_string(), "sections[0].items[1].marks", "{e}");
    assert!(e.to_string().contains("parent.parent.version"), "{e}");
    // A row shorter than the section's item count.
    let mut row = v.clone();
    row.sections[0].row.values.pop();
    let e = encode_all(&row, &()).unwrap_err();
    assert_eq!(e.path_string(), "sections[0].row.values", "{e}");
    assert!(e.to_string().contains("parent.item_count"), "{e}");
}

#[test]
fn the_descriptor_holds_the_enclosing_fields_as_a_tree() {
    let item = <Item as Describe>::layout().unwrap();
    assert_eq!((item.parent.unwrap())().unwrap().name, "Section");
    let mmd_formats::layout::Body::Struct(fields) = &item.body else {
        panic!("a struct")
    };
    let by = |n: &str| fields.iter().find(|f| f.name == n).unwrap();
    let mmd_formats::layout::Presence::If(c) = by("weight").presence else {
        panic!("a condition")
    };
    assert_eq!(c.text, "*parent.minor >= 1");
    assert!(matches!(
        c.tree,
        Expr::Binary(
            mmd_formats::layout::BinOp::Ge,
            Expr::Field(Expr::Parent(1), "minor"),
            Expr::Int(1)
        )
    ));
    let mmd_formats::layout::Repeat::Len(l) = by("marks").repeat else {
        panic!("a length")
    };
    assert!(matches!(l.tree, Expr::Field(Expr::Parent(2), "version")));
    assert!(<Nested as Describe>::layout().unwrap().parent.is_none());
}

#[test]
fn the_reference_says_whose_field_an_expression_names() {
    let spec = mmd_spec::Spec::of::<Nested>().unwrap();
    let md = mmd_spec::render_markdown(&spec);
    assert!(
        md.contains("`parent.minor` is the enclosing record's (`Section`) `minor`"),
        "{md}"
    );
    assert!(
        md.contains(
            "`parent.parent.version` is the `Nested` that holds the enclosing record: `version`"
        ),
        "{md}"
    );
    assert!(md.contains("if `*parent.minor >= 1`"), "{md}");
    let schema: serde_json::Value = serde_json::from_str(&mmd_spec::render_schema(&spec)).unwrap();
    let text = schema.to_string();
    assert!(text.contains("\"marks\""), "{text}");
    assert!(text.contains("\"row\""), "{text}");
}

#[test]
fn spans_explain_and_diff_go_inside_the_nested_records() {
    use mmd_formats::inspect::spans::{explain, Spans};
    let bytes = sample();
    let v = read(&bytes).unwrap();
    // Byte 13: the first item's weight (magic 3, header 2, section header 4, id 2).
    let e = explain(&v, &(), 11).unwrap().expect("inside the file");
    assert_eq!(e.path.to_string(), "sections[0].items[0].weight", "{e:?}");
    assert_eq!((e.start, e.end), (11, 13));
    let spans = Spans::of(&v, &()).unwrap();
    let mut at = 0;
    for (span, start, end) in spans.cells() {
        assert_eq!(start, at, "{}", span.path());
        at = end;
    }
    assert_eq!(at, bytes.len() as u64);
    let mut other = v.clone();
    other.sections[1].row.values[0] = 4;
    let d = mmd_formats::diff::diff(&v, &other);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].path.to_string(), "sections[1].row.values[0]");
}

#[test]
fn binrw_reads_and_writes_the_file_alike() {
    use binrw::{BinRead, BinWrite};
    let bytes = sample();
    let v = Nested::read_le(&mut binrw::io::Cursor::new(&bytes)).unwrap();
    assert_eq!(v, read(&bytes).unwrap());
    let mut out = binrw::io::Cursor::new(Vec::new());
    v.write_le(&mut out).unwrap();
    assert_eq!(out.into_inner(), bytes);
}

#[test]
fn every_cut_of_the_file_is_an_error_not_a_panic() {
    let bytes = sample();
    for n in 0..bytes.len() {
        assert!(read(&bytes[..n]).is_err(), "{n}");
    }
}
