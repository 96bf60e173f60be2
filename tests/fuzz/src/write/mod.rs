//! The writers on values made inconsistent on purpose.
//!
//! Each target decodes the built-in samples of its format once, picks one, and applies
//! edits drawn by `arbitrary` through the format types' public fields: a flag that says a
//! block follows with no block, a block with no flag, counts and indices that do not fit
//! their width, text in another encoding than the header's, names longer than their
//! field, an absent block followed by a present one, trailing bytes after an absent block.
//! Then it writes the value. The rule ([`check_binary`]): writing either fails with an
//! `Err` (never a panic), or gives a file that reads back as the value written; the spans
//! fail exactly when the write does, and the walk never fails.

use std::fmt::Debug;

use arbitrary::{Arbitrary, Result, Unstructured};
use mmd_formats::inspect::Format;

use crate::api::{self, WholeFile};

pub mod pmd;
pub mod pmx;
pub mod vmd;
pub mod vpd;

/// An integer, most often at the edge of a width these formats use (1, 2 and 4 bytes,
/// signed and unsigned), else any `i32`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Edge(pub i64);

impl Edge {
    const EDGES: [i64; 20] = [
        0,
        1,
        2,
        -1,
        -2,
        0x7F,
        0x80,
        0xFF,
        0x100,
        -0x80,
        -0x81,
        0x7FFF,
        0x8000,
        0xFFFF,
        0x1_0000,
        -0x8000,
        -0x8001,
        i32::MAX as i64,
        i32::MIN as i64,
        u32::MAX as i64,
    ];

    /// As an `i32` (two's complement wrap for the `u32` edges).
    pub fn i32(self) -> i32 {
        self.0 as i32
    }

    /// As a `u32` (two's complement wrap for negative values).
    pub fn u32(self) -> u32 {
        self.0 as u32
    }

    /// As a `u16` (wrapping).
    pub fn u16(self) -> u16 {
        self.0 as u16
    }

    /// As a `u8` (wrapping).
    pub fn u8(self) -> u8 {
        self.0 as u8
    }
}

impl<'a> Arbitrary<'a> for Edge {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        if u.ratio(3, 4)? {
            Ok(Edge(*u.choose(&Self::EDGES)?))
        } else {
            Ok(Edge(i64::from(u.arbitrary::<i32>()?)))
        }
    }
}

/// A length for a list: small, or at the edge of a `u8` or `u16` count (the writer must
/// refuse 256 entries under a `u8` count and 65536 under a `u16` one). Lists under an
/// `i32` or `u32` count take [`Len::small`]: no writer check depends on their length, and
/// tens of thousands of records only slow the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Len(pub usize);

impl<'a> Arbitrary<'a> for Len {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        // The u16 edges are rarer: tens of thousands of records slow every run that has one.
        if u.ratio(1, 16)? {
            Ok(Len(*u.choose(&[255, 256, 257])?))
        } else if u.ratio(1, 64)? {
            Ok(Len(*u.choose(&[65535, 65536, 65537])?))
        } else {
            Ok(Len(u.int_in_range(0..=8)?))
        }
    }
}

impl Len {
    /// At most 257: past a `u8` count's edge, short of a `u16` count's.
    pub fn small(self) -> Len {
        Len(self.0.min(257))
    }
}

/// What an edit does to an optional block or list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Arbitrary)]
pub enum Presence {
    /// Absent (`None`).
    Absent,
    /// Present and empty.
    Empty,
    /// Present with what it held before (empty if it was absent).
    Kept,
}

impl Presence {
    /// Applies to an optional list.
    pub fn apply<T>(self, block: &mut Option<Vec<T>>) {
        match self {
            Presence::Absent => *block = None,
            Presence::Empty => *block = Some(Vec::new()),
            Presence::Kept => {
                block.get_or_insert_with(Vec::new);
            }
        }
    }
}

/// The element `i` picks (modulo the length), if there is one.
pub fn pick<T>(items: &mut [T], i: u16) -> Option<&mut T> {
    let n = items.len();
    if n == 0 {
        None
    } else {
        items.get_mut(usize::from(i) % n)
    }
}

/// The vertex `i` modulo the count, as [`pick`] does for a slice (`None` when there are
/// none); the change is stored back when the view is dropped.
pub fn pick_vertex(
    vertices: &mut mmd_formats::pmx::Vertices,
    i: u16,
) -> Option<mmd_formats::pmx::VertexMut<'_>> {
    let n = vertices.len();
    if n == 0 {
        None
    } else {
        vertices.get_mut(usize::from(i) % n)
    }
}

/// Resizes `vertices` to `len` as [`resize`] does (copies of the last vertex).
pub fn resize_vertices(vertices: &mut mmd_formats::pmx::Vertices, len: Len) {
    let Some(last) = vertices.len().checked_sub(1).and_then(|i| vertices.get(i)) else {
        return;
    };
    vertices.truncate(len.0);
    while vertices.len() < len.0 {
        vertices.push(last.clone());
    }
}

/// Resizes `items` to `len`, growing with copies of its last element or of `fill`;
/// a list that is empty with no `fill` stays empty.
pub fn resize<T: Clone>(items: &mut Vec<T>, len: Len, fill: Option<T>) {
    let Some(last) = items.last().cloned().or(fill) else {
        return;
    };
    items.resize(len.0, last);
}

/// The samples of `format` that read, decoded with `decode`.
pub fn samples<T>(format: Format, decode: impl Fn(&[u8]) -> Option<T>) -> Vec<T> {
    let out: Vec<T> = mmd_formats::samples::all()
        .into_iter()
        .filter(|s| Format::detect(&s.bytes) == Some(format))
        .filter_map(|s| decode(&s.bytes))
        .collect();
    assert!(!out.is_empty(), "no {} sample reads", format.name());
    out
}

/// The writer's rule on a binary whole-file value (see the module documentation).
pub fn check_binary<T: WholeFile + Debug + PartialEq>(value: &T) {
    let _ = api::walk_value(value);
    let written = value.to_bytes();
    let spans = api::value_cells(value);
    assert_eq!(
        spans.is_ok(),
        written.is_ok(),
        "spans and the writer disagree: spans {:?}, write {:?}",
        spans.as_ref().err(),
        written.as_ref().err()
    );
    let bytes = match written {
        Err(e) => {
            assert!(!e.to_string().is_empty(), "an empty error message");
            return;
        }
        Ok(bytes) => bytes,
    };
    if let Ok(cells) = spans {
        let end = cells.iter().try_fold(0, |at, &(start, end)| {
            (start == at && end > start).then_some(end)
        });
        assert_eq!(
            end,
            Some(bytes.len() as u64),
            "the span cells of the value do not tile the {} bytes written",
            bytes.len()
        );
    }
    let back = T::from_bytes(&bytes)
        .unwrap_or_else(|e| panic!("a file written without error does not read back: {e}"));
    // Equal, or equal by `Debug` when a NaN (not equal to itself) is in it; the bytes
    // compare below covers NaN payloads.
    if back != *value {
        let (was, is) = (format!("{value:?}"), format!("{back:?}"));
        assert!(
            was == is,
            "the file written reads back as another value:\nwritten {was}\nread    {is}"
        );
    }
    let again = back
        .to_bytes()
        .unwrap_or_else(|e| panic!("the value read back does not write: {e}"));
    assert!(again == bytes, "the value read back writes other bytes");
}
