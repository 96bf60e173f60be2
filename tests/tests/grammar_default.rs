//! The default variant of a tag enum (issue 29 item 3: "A tag enum has no default variant:
//! a RIFF chunk with an id the format does not list ... cannot be kept, so
//! forward-compatible formats (RIFF chunks, MVD's section types) cannot be stated as
//! enums"). `#[mmd(default)]` marks the variant read for every tag no other variant lists;
//! its first field holds that tag. On a small chunk format laid out by hand: an unknown
//! chunk is kept with its tag and body, written back byte-exactly, through JSON too, shown
//! by explain and dump at its own bytes; a default variant that holds a listed tag is
//! refused by the writer (it would read back as the listed variant); the descriptor and the
//! reference state the rule.

use mmd_formats::file::{decode_all, encode_all};
use mmd_formats::inspect::spans::explain;
use mmd_formats::layout::{Body, Describe};
use mmd_formats::{json, Encode, Mmd};

/// One chunk: a kind byte, then a body the kind gives.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(tag = u8, name = "chunk kind")]
pub enum Chunk {
    /// A number.
    #[mmd(tag = 1)]
    Num {
        /// The number.
        value: u16,
    },
    /// A run of bytes.
    #[mmd(tag = 2)]
    Text {
        /// How many bytes follow.
        len: u8,
        /// The bytes.
        #[mmd(len = len)]
        bytes: Vec<u8>,
    },
    /// Any other kind, kept: the kind, a size byte and that many bytes.
    #[mmd(default)]
    Other {
        /// The kind as read.
        kind: u8,
        /// How many bytes follow.
        size: u8,
        /// The bytes, kept as they are.
        #[mmd(len = size)]
        body: Vec<u8>,
    },
}

/// A file of chunks: a signature, then chunks to the end.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(
    magic = b"CHK",
    file(id = "chk", title = "Chunks", application = "tests")
)]
pub struct Chunks {
    /// The chunks in file order.
    #[mmd(rest)]
    pub chunks: Vec<Chunk>,
}

/// A tag enum whose default variant is the tag alone (a lone tuple field).
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(tag = u16)]
pub enum Mark {
    /// The start mark.
    #[mmd(tag = 0x100)]
    Start,
    /// Any other mark, kept.
    #[mmd(default)]
    Unknown(u16),
}

/// Laid out by hand: "CHK", a Num (kind 1, 0x0302), an unknown kind 7 with 2 bytes
/// (0xAA 0xBB), a Text (kind 2, 1 byte 'x'), an unknown kind 0 with no bytes.
fn sample() -> Vec<u8> {
    let mut b = b"CHK".to_vec();
    b.extend([1, 0x02, 0x03]); // 3..6
    b.extend([7, 2, 0xAA, 0xBB]); // 6..10
    b.extend([2, 1, b'x']); // 10..13
    b.extend([0, 0]); // 13..15
    b
}

#[test]
fn an_unknown_tag_is_kept_with_its_body_and_written_back() {
    let bytes = sample();
    let v: Chunks = decode_all(&bytes, &()).unwrap();
    assert_eq!(
        v.chunks,
        vec![
            Chunk::Num { value: 0x0302 },
            Chunk::Other {
                kind: 7,
                size: 2,
                body: vec![0xAA, 0xBB]
            },
            Chunk::Text {
                len: 1,
                bytes: b"x".to_vec()
            },
            Chunk::Other {
                kind: 0,
                size: 0,
                body: vec![]
            },
        ]
    );
    assert_eq!(encode_all(&v, &()).unwrap(), bytes);
    assert_eq!(v.size_hint(&()), bytes.len());
}

#[test]
fn a_default_that_is_the_tag_alone_round_trips() {
    let m: Mark = decode_all(&[0x00, 0x01], &()).unwrap();
    assert_eq!(m, Mark::Start);
    let m: Mark = decode_all(&[0x34, 0x12], &()).unwrap();
    assert_eq!(m, Mark::Unknown(0x1234));
    assert_eq!(encode_all(&m, &()).unwrap(), vec![0x34, 0x12]);
    assert_eq!(m.size_hint(&()), 2);
}

#[test]
fn the_json_form_keeps_the_tag_and_builds_the_same_bytes() {
    let bytes = sample();
    let v: Chunks = decode_all(&bytes, &()).unwrap();
    let text = json::to_string(&v);
    assert!(
        text.contains(r#"{"Other":{"kind":7,"size":2"#),
        "the tag is the default variant's first member: {text}"
    );
    let back: Chunks = json::from_str(&text, &()).unwrap();
    assert_eq!(back, v);
    assert_eq!(encode_all(&back, &()).unwrap(), bytes);
}

#[test]
fn the_default_variant_may_not_hold_a_listed_tag() {
    // Kind 2 is Text's: written as Other it would read back as Text.
    let v = Chunks {
        chunks: vec![
            Chunk::Num { value: 1 },
            Chunk::Other {
                kind: 2,
                size: 0,
                body: vec![],
            },
        ],
    };
    let e = encode_all(&v, &()).unwrap_err();
    let text = e.to_string();
    assert_eq!(e.path_string(), "chunks[1].Other.kind", "{text}");
    assert_eq!(e.offset(), 6, "after CHK and the 3-byte Num: {text}");
    assert!(
        text.contains("chunk kind 2, which is variant `Text`'s"),
        "{text}"
    );
    let e = encode_all(&Mark::Unknown(0x100), &()).unwrap_err();
    assert!(e.to_string().contains("variant `Start`'s"), "{e}");
}

#[test]
fn a_body_error_in_the_default_variant_names_its_field() {
    // Unknown kind 9 claims 5 bytes; 1 is there.
    let mut b = b"CHK".to_vec();
    b.extend([9, 5, 0xEE]);
    let e = decode_all::<Chunks, _>(&b, &()).unwrap_err();
    assert_eq!(e.path_string(), "chunks[0].Other.body", "{e}");
}

#[test]
fn explain_finds_the_kept_tag_and_body_at_their_bytes() {
    let bytes = sample();
    let v: Chunks = decode_all(&bytes, &()).unwrap();
    // Byte 6 is the unknown chunk's kind: its first field.
    let x = explain(&v, &(), 6).unwrap().unwrap();
    assert_eq!(x.path.to_string(), "chunks[1].Other.kind");
    assert_eq!((x.start, x.end), (6, 7));
    // Byte 9 is the second of its body (bytes are one value, 8..10).
    let x = explain(&v, &(), 9).unwrap().unwrap();
    assert_eq!(x.path.to_string(), "chunks[1].Other.body");
    assert_eq!((x.start, x.end), (8, 10));
    // Byte 3 is a listed chunk's tag, which stays the tag.
    let x = explain(&v, &(), 3).unwrap().unwrap();
    assert_eq!((x.start, x.end), (3, 4));
}

#[test]
fn the_descriptor_marks_the_default_variant() {
    let Some(t) = <Chunk as Describe>::layout() else {
        panic!("Chunk describes itself")
    };
    let Body::Enum { variants, .. } = &t.body else {
        panic!("an enum")
    };
    let flags: Vec<(&str, &str, bool)> = variants
        .iter()
        .map(|v| (v.name, v.tag, v.default))
        .collect();
    assert_eq!(
        flags,
        vec![
            ("Num", "1", false),
            ("Text", "2", false),
            ("Other", "", true)
        ]
    );
    // The smallest chunk: a tag and an empty Other (size byte), or a Num's 2 bytes: 2.
    assert_eq!(<Chunk as Describe>::MIN_SIZE, 2);
}

#[test]
fn the_reference_states_what_other_tags_do() {
    let spec = mmd_spec::Spec::of::<Chunks>().unwrap();
    let md = mmd_spec::render_markdown(&spec);
    assert!(
        md.contains("Any other value reads as `Other`, which keeps it in its first field `kind`."),
        "{md}"
    );
    assert!(md.contains("| any other | `Other` |"), "{md}");
    assert!(
        md.contains("Its first field is the tag itself (read once)"),
        "{md}"
    );
    assert!(!md.contains("Any other value is an error"), "{md}");
    // The schema describes the kept tag as the variant's first member.
    let schema: serde_json::Value = serde_json::from_str(&mmd_spec::render_schema(&spec)).unwrap();
    let other = find(&schema, "Other").expect("the schema has the Other variant");
    let text = other.to_string();
    for member in ["kind", "size", "body"] {
        assert!(text.contains(&format!("\"{member}\"")), "{member}: {text}");
    }
}

/// The value of the first `properties` member called `name`, anywhere in `v`.
fn find<'a>(v: &'a serde_json::Value, name: &str) -> Option<&'a serde_json::Value> {
    match v {
        serde_json::Value::Object(m) => {
            if let Some(hit) = m.get("properties").and_then(|p| p.get(name)) {
                return Some(hit);
            }
            m.values().find_map(|x| find(x, name))
        }
        serde_json::Value::Array(a) => a.iter().find_map(|x| find(x, name)),
        _ => None,
    }
}
