//! Declared contexts at their edges: members read from elements of a sequence of records,
//! indices that are not literals, no parameters at all, negative and float value lists,
//! and errors on the writer's side through binrw at an offset. Each error's offset is
//! worked out by hand in a comment.

use binrw::BinWrite;
use mmd_formats::file::{decode_all, encode_all};
use mmd_formats::{Index, Mmd, MmdContext};
use std::io::Cursor;

mmd_formats::index_kind! {
    /// Slots of a made-up format.
    pub struct Slot = "slot";
}
type SlotIndex = Index<Slot>;

/// One entry of a header table.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Entry {
    /// A tag byte.
    tag: u8,
    /// The entry's value.
    x: u8,
}

/// A header: a table of entries (a u8 count first), then which entry holds the width.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Header {
    /// The entries.
    #[mmd(count = u8)]
    items: Vec<Entry>,
    /// The entry whose `x` is the slot width.
    pick: u8,
}

/// The slot width, from the third entry of the table.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(header: Header))]
struct ThirdCtx {
    /// Entry 2's value.
    #[mmd(from = header.items[2].x, valid = [1, 2, 4], name = "slot width", index_width = SlotIndex)]
    width: u8,
}

/// The slot width, from the entry the header picks.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(header: Header))]
struct PickedCtx {
    /// The picked entry's value.
    #[mmd(from = header.items[header.pick as usize].x, valid = [1, 2, 4], name = "slot width", index_width = SlotIndex)]
    width: u8,
}

/// A header, then one slot at the width entry 2 gives.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = ())]
struct Third {
    /// The header.
    #[mmd(context = ThirdCtx(header))]
    header: Header,
    /// One slot.
    slot: SlotIndex,
}

/// A header, then one slot at the width the picked entry gives.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = ())]
struct Picked {
    /// The header.
    #[mmd(context = PickedCtx(header))]
    header: Header,
    /// One slot.
    slot: SlotIndex,
}

/// `n` entries `(tag i, x)` with the given x values, the pick, then `slot`.
fn file(xs: &[u8], pick: u8, slot: &[u8]) -> Vec<u8> {
    let mut b = vec![xs.len() as u8];
    for (i, x) in xs.iter().enumerate() {
        b.extend([i as u8, *x]);
    }
    b.push(pick);
    b.extend(slot);
    b
}

#[test]
fn a_member_from_an_element_of_a_record_sequence() {
    let b = file(&[9, 9, 2], 0, &[0xff, 0xff]);
    let f: Third = decode_all(&b, &()).unwrap();
    assert_eq!(f.slot, SlotIndex::NONE);
    assert_eq!(encode_all(&f, &()).unwrap(), b);
    // A width of 3 in entry 2: count (1) + two entries (4) + tag (1) puts its x at 6.
    let b = file(&[9, 9, 3], 0, &[0, 0, 0]);
    let e = decode_all::<Third, _>(&b, &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "header.items[2].x: slot width 3 at 0x6 (expected a slot width of 1, 2 or 4)"
    );
    // Two entries only: the table (its count at 0) lacks element 2.
    let b = file(&[1, 1], 0, &[0]);
    let e = decode_all::<Third, _>(&b, &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "header.items: 2 elements at 0x0 (expected at least 3 elements for the slot width)"
    );
}

#[test]
fn a_member_indexed_by_a_value_it_reads() {
    let b = file(&[9, 4], 1, &[1, 0, 0, 0]);
    let f: Picked = decode_all(&b, &()).unwrap();
    assert_eq!(f.slot, SlotIndex::from_raw(1));
    assert_eq!(encode_all(&f, &()).unwrap(), b);
    // The pick (at 5) names entry 7 of 2: a fault at the table, never a panic.
    let b = file(&[9, 4], 7, &[1]);
    let e = decode_all::<Picked, _>(&b, &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "header.items: 2 elements at 0x0 (expected at least 8 elements for the slot width)"
    );
}

/// A context with no parameters: a fixed width.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from())]
struct FixedCtx {
    /// Always 2.
    #[mmd(from = 2, valid = [1, 2, 4], index_width = SlotIndex)]
    width: u8,
}

/// A byte, then a slot at the fixed width.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = ())]
struct Fixed {
    /// Any byte; the context switches after it.
    #[mmd(context = FixedCtx())]
    lead: u8,
    /// One slot, 2 bytes.
    slot: SlotIndex,
}

#[test]
fn a_context_with_no_parameters() {
    let b = [7, 0xfe, 0xff];
    let f: Fixed = decode_all(&b, &()).unwrap();
    assert_eq!(f.slot, SlotIndex::from_raw(-2));
    assert_eq!(encode_all(&f, &()).unwrap(), b);
    let l = <FixedCtx as mmd_formats::layout::DescribeContext>::context_layout();
    assert!(l.params.is_empty());
}

/// Two bytes: a signed delta and a scale.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct Tuning {
    /// -1, 0 or 1.
    delta: i8,
    /// 0.5 or 2.0.
    scale: f32,
}

/// A context whose value lists hold a negative and float literals.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(t: Tuning))]
struct TuningCtx {
    /// The delta.
    #[mmd(from = t.delta, valid = [-1, 0, 1])]
    delta: i8,
    /// The scale.
    #[mmd(from = t.scale, valid = [0.5, 2.0])]
    scale: f32,
}

/// The tuning, then a byte.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = ())]
struct Tuned {
    /// The tuning.
    #[mmd(context = TuningCtx(tuning))]
    tuning: Tuning,
    /// A byte.
    after: u8,
}

#[test]
fn negative_and_float_value_lists() {
    let mut b = vec![0xff];
    b.extend(0.5f32.to_le_bytes());
    b.push(3);
    let f: Tuned = decode_all(&b, &()).unwrap();
    assert_eq!(f.tuning.delta, -1);
    // delta -2 (at 0).
    b[0] = 0xfe;
    let e = decode_all::<Tuned, _>(&b, &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "tuning.delta: delta -2 at 0x0 (expected a delta of -1, 0 or 1)"
    );
    // scale 1.0 (at 1).
    b[0] = 1;
    b[1..5].copy_from_slice(&1.0f32.to_le_bytes());
    let e = decode_all::<Tuned, _>(&b, &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "tuning.scale: scale 1 at 0x1 (expected a scale of 0.5 or 2.0)"
    );
}

#[test]
fn writer_errors_through_binrw_at_an_offset_are_absolute() {
    let b = file(&[9, 9, 2], 0, &[0xff, 0xff]);
    let mut f: Third = decode_all(&b, &()).unwrap();
    f.header.items[2].x = 3;
    let mut cur = Cursor::new(vec![0xEE; 5]);
    cur.set_position(5);
    let e = mmd_formats::Error::from_binrw(f.write_le(&mut cur).unwrap_err());
    // The stream starts the value at 5; entry 2's x is 6 bytes into it.
    assert_eq!(e.offset(), 5 + 6, "{e}");
    assert_eq!(e.path_string(), "header.items[2].x");
}

/// A context read from a sequence the record holds (not one value).
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(entries: [Entry]))]
struct EntriesCtx {
    /// Entry 1's value.
    #[mmd(from = entries[1].x, valid = [1, 2, 4], name = "slot width", index_width = SlotIndex)]
    width: u8,
}

/// Entries (a u8 count first), then a slot at the width entry 1 gives.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = ())]
struct FromEntries {
    /// The entries.
    #[mmd(count = u8, context = EntriesCtx(entries))]
    entries: Vec<Entry>,
    /// One slot.
    slot: SlotIndex,
}

#[test]
fn a_fault_inside_a_sequence_argument_is_at_its_element() {
    // count (0), entry 0 (1, 2), entry 1 (3, 4): entry 1's x is at 4.
    let b = [2, 0, 9, 1, 3, 0];
    let e = decode_all::<FromEntries, _>(&b, &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "entries[1].x: slot width 3 at 0x4 (expected a slot width of 1, 2 or 4)"
    );
}

/// The slot width, from one byte.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(byte: u8))]
struct ByteCtx {
    /// The byte.
    #[mmd(from = *byte, valid = [1, 2, 4], name = "slot width", index_width = SlotIndex)]
    width: u8,
}

/// Settings (a u8 count first) whose element 1 is passed to the context.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = ())]
struct IndexedArgument {
    /// The settings.
    #[mmd(count = u8, context = ByteCtx(settings[1]))]
    settings: Vec<u8>,
    /// One slot.
    slot: SlotIndex,
}

#[test]
fn an_index_in_a_context_argument_is_an_error_not_a_panic() {
    let e = decode_all::<IndexedArgument, _>(&[1, 2, 0], &()).unwrap_err();
    assert_eq!(e.path_string(), "settings", "{e}");
    assert_eq!(e.offset(), 0, "{e}");
}

/// Settings, then a byte present when setting 1 is not 0.
#[derive(Mmd, Debug, Clone, PartialEq)]
struct IndexedCondition {
    /// The settings.
    #[mmd(count = u8)]
    settings: Vec<u8>,
    /// Present when setting 1 is not 0.
    #[mmd(if = settings[1] != 0)]
    extra: Option<u8>,
}

#[test]
fn an_index_in_a_condition_is_an_error_not_a_panic() {
    // One setting (count 1 at 0x0, the setting at 0x1): `settings[1]` is not there. The
    // error is at the start of the field the condition read, 0x0.
    let e = decode_all::<IndexedCondition, _>(&[1, 2], &()).unwrap_err();
    assert_eq!(e.path_string(), "settings", "{e}");
    assert_eq!(e.offset(), 0, "{e}");
    assert_eq!(
        e.to_string(),
        "settings: 1 element at 0x0 (expected at least 2 elements)"
    );
    // Two settings: the condition reads, setting 1 is 5, so `extra` is there.
    let v = decode_all::<IndexedCondition, _>(&[2, 0, 5, 9], &()).unwrap();
    assert_eq!(v.extra, Some(9));
}

#[test]
fn the_json_form_checks_its_expressions_too() {
    // Built from JSON, the same expressions read the fields built so far: a missing
    // element is an error at the field it was read from, never a panic.
    let e = mmd_formats::json::from_str::<IndexedCondition, _>(
        r#"{"settings": {"hex": "02"}, "extra": null}"#,
        &(),
    )
    .unwrap_err();
    assert_eq!(e.path_string(), "$.settings", "{e}");
    assert!(e.message().contains("expected at least 2 elements"), "{e}");
    let e = mmd_formats::json::from_str::<IndexedArgument, _>(
        r#"{"settings": {"hex": "02"}, "slot": 0}"#,
        &(),
    )
    .unwrap_err();
    assert_eq!(e.path_string(), "$.settings", "{e}");
    let ok = mmd_formats::json::from_str::<IndexedCondition, _>(
        r#"{"settings": {"hex": "0005"}, "extra": 9}"#,
        &(),
    )
    .unwrap();
    assert_eq!(ok.extra, Some(9));
}

/// The slot width, from element 2 of a byte run.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(bytes: [u8]))]
struct RunCtx {
    /// Byte 2.
    #[mmd(from = bytes[2], valid = [1, 2, 4], name = "slot width", index_width = SlotIndex)]
    width: u8,
}

/// A lead byte, three bytes, then a slot at the width byte 2 gives.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = ())]
struct FromRun {
    /// Any byte.
    lead: u8,
    /// Three bytes (no count).
    #[mmd(len = 3, context = RunCtx(bytes))]
    bytes: Vec<u8>,
    /// One slot.
    slot: SlotIndex,
}

#[test]
fn a_fault_inside_a_byte_run_argument_is_at_its_byte() {
    let b = [7, 0, 0, 1, 5];
    let f: FromRun = decode_all(&b, &()).unwrap();
    assert_eq!(f.slot, SlotIndex::from_raw(5));
    // lead (0), bytes at 1: byte 2 is at 3.
    let e = decode_all::<FromRun, _>(&[7, 0, 0, 3, 5, 0, 0], &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bytes[2]: slot width 3 at 0x3 (expected a slot width of 1, 2 or 4)"
    );
    // The same on the writer's side, through the counted form above.
    let b = [2, 0, 9, 1, 2, 0xff, 0xff];
    let mut f: FromEntries = decode_all(&b, &()).unwrap();
    f.entries[1].x = 8;
    let e = encode_all(&f, &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "entries[1].x: slot width 8 at 0x4 (expected a slot width of 1, 2 or 4)"
    );
}

/// The slot width, from the last entry of the table.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(header: Header))]
struct LastCtx {
    /// The last entry's value.
    #[mmd(from = header.items[header.items.len() - 1].x, valid = [1, 2, 4], name = "slot width", index_width = SlotIndex)]
    width: u8,
}

/// A header, then a slot at the width its last entry gives.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = ())]
struct Last {
    /// The header.
    #[mmd(context = LastCtx(header))]
    header: Header,
    /// One slot.
    slot: SlotIndex,
}

#[test]
fn arithmetic_in_a_member_is_an_error_not_a_panic() {
    let b = file(&[2], 0, &[0xff, 0xff]);
    let f: Last = decode_all(&b, &()).unwrap();
    assert_eq!(f.slot, SlotIndex::NONE);
    assert!(decode_all::<Last, _>(&file(&[], 0, &[0]), &()).is_err());
}

/// A byte, then a field whose context is computed from a constant that is not an
/// accepted width.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = ())]
struct ConstantArgument {
    /// A leading byte.
    lead: u8,
    /// The switching field.
    #[mmd(context = ByteCtx(3))]
    body: u8,
    /// One slot.
    slot: SlotIndex,
}

#[test]
fn a_fault_no_field_is_to_blame_for_is_at_the_switching_field() {
    // `lead` at 0x0, `body` at 0x1: the width 3 comes from no field, so the error is at
    // the field that switches the context, 0x1 (not at the record's start).
    let e = decode_all::<ConstantArgument, _>(&[7, 9, 0], &()).unwrap_err();
    assert_eq!(e.path_string(), "body", "{e}");
    assert_eq!(e.offset(), 1, "{e}");
    let value = ConstantArgument {
        lead: 7,
        body: 9,
        slot: SlotIndex::from_raw(0),
    };
    let e = encode_all(&value, &()).unwrap_err();
    assert_eq!(e.path_string(), "body", "{e}");
    assert_eq!(e.offset(), 1, "{e}");
}
