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
