//! Tags in their own form (issue 29 item 3: "tags read as text (FourCC) show as decimal
//! numbers in messages"). `#[mmd(tag = u32, tag_form = fourcc)]` says an enum's tags are
//! four ASCII bytes read as a little-endian `u32` (RIFF chunk ids); variants may write
//! their tag as those bytes (`tag = b"fmt "`). On a small chunk format laid out by hand:
//! an unknown id is named as text in the read error, with the ids expected; a non-printable
//! byte is escaped; a default variant holding a listed id is refused with both as text; the
//! JSON keeps the number; the descriptor, the reference and the `.ksy` show the text.

use mmd_formats::file::{decode_all, encode_all};
use mmd_formats::layout::{fourcc_text, Body, Describe, TagSource};
use mmd_formats::{json, Mmd};

/// One chunk: a FourCC id, then a body the id gives.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(tag = u32, tag_form = fourcc, name = "chunk id")]
pub enum Chunk {
    /// The format: one number.
    #[mmd(tag = b"fmt ")]
    Format {
        /// The number.
        value: u16,
    },
    /// The data: a size and that many bytes (the tag written as its number: "data").
    #[mmd(tag = 0x6174_6164)]
    Data {
        /// How many bytes follow.
        size: u8,
        /// The bytes.
        #[mmd(len = size)]
        bytes: Vec<u8>,
    },
}

/// The same chunks, with unknown ids kept.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(tag = u32, tag_form = fourcc, name = "chunk id")]
pub enum Kept {
    /// The format: one number.
    #[mmd(tag = b"fmt ")]
    Format {
        /// The number.
        value: u16,
    },
    /// Any other chunk: its id, a size and that many bytes.
    #[mmd(default)]
    Other {
        /// The id as read.
        id: u32,
        /// How many bytes follow.
        size: u8,
        /// The bytes.
        #[mmd(len = size)]
        body: Vec<u8>,
    },
}

/// A file of chunks to the end.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(file(id = "fourcc_chunks", title = "FourCC chunks", application = "tests"))]
pub struct Chunks {
    /// The chunks in file order.
    #[mmd(rest)]
    pub chunks: Vec<Chunk>,
}

/// A file of chunks to the end, unknown ones kept.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(file(
    id = "fourcc_kept",
    title = "FourCC chunks kept",
    application = "tests"
))]
pub struct KeptChunks {
    /// The chunks in file order.
    #[mmd(rest)]
    pub chunks: Vec<Kept>,
}

/// "fmt " 0x0201, then "data" with 2 bytes (0xAA 0xBB).
fn sample() -> Vec<u8> {
    let mut b = b"fmt ".to_vec(); // 0..4 id
    b.extend([0x01, 0x02]); // 4..6 value
    b.extend(b"data"); // 6..10 id
    b.extend([2, 0xAA, 0xBB]); // 10..13 size, bytes
    b
}

#[test]
fn the_tags_read_and_write_back_by_their_bytes() {
    let v: Chunks = decode_all(&sample(), &()).unwrap();
    assert_eq!(
        v.chunks,
        vec![
            Chunk::Format { value: 0x0201 },
            Chunk::Data {
                size: 2,
                bytes: vec![0xAA, 0xBB]
            }
        ]
    );
    assert_eq!(encode_all(&v, &()).unwrap(), sample());
}

#[test]
fn an_unknown_id_is_named_as_text_with_the_ids_expected() {
    let mut b = sample();
    b[6..10].copy_from_slice(b"junk");
    let e = decode_all::<Chunks, _>(&b, &()).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains(r#"unknown chunk id "junk" at 0x6 (expected "fmt " or "data")"#),
        "{text}"
    );
    assert_eq!(e.offset(), 6, "{text}");
    assert_eq!(e.path_string(), "chunks[1]", "{text}");
    // A byte outside printable ASCII, a quote and a backslash are escaped.
    b[6..10].copy_from_slice(&[b'a', 0, b'"', b'\\']);
    let text = decode_all::<Chunks, _>(&b, &()).unwrap_err().to_string();
    assert!(
        text.contains(r#"unknown chunk id "a\x00\"\\" at 0x6"#),
        "{text}"
    );
}

#[test]
fn a_default_variant_keeps_an_unknown_id_and_refuses_a_listed_one_by_its_text() {
    let mut b = sample();
    b[6..10].copy_from_slice(b"LIST");
    let v: KeptChunks = decode_all(&b, &()).unwrap();
    assert_eq!(
        v.chunks[1],
        Kept::Other {
            id: u32::from_le_bytes(*b"LIST"),
            size: 2,
            body: vec![0xAA, 0xBB]
        }
    );
    assert_eq!(encode_all(&v, &()).unwrap(), b);
    // The JSON keeps the id as its number (the u32 the default variant holds) and builds
    // the same bytes.
    let text = json::to_string(&v);
    let id = u32::from_le_bytes(*b"LIST");
    assert!(
        text.contains(&format!(r#"{{"Other":{{"id":{id},"#)),
        "{text}"
    );
    let back: KeptChunks = json::from_str(&text, &()).unwrap();
    assert_eq!(encode_all(&back, &()).unwrap(), b);
    // "fmt " is Format's: written as Other it would read back as Format.
    let bad = KeptChunks {
        chunks: vec![Kept::Other {
            id: u32::from_le_bytes(*b"fmt "),
            size: 0,
            body: vec![],
        }],
    };
    let e = encode_all(&bad, &()).unwrap_err();
    assert!(
        e.to_string()
            .contains(r#"chunk id "fmt ", which is variant `Format`'s"#),
        "{e}"
    );
    assert_eq!(e.path_string(), "chunks[0].Other.id", "{e}");
}

#[test]
fn the_descriptor_keeps_the_number_and_says_it_is_a_fourcc() {
    let Some(t) = <Chunk as Describe>::layout() else {
        panic!("Chunk describes itself")
    };
    let Body::Enum { tag, variants } = &t.body else {
        panic!("an enum")
    };
    assert!(
        matches!(
            tag,
            TagSource::Read {
                fourcc: true,
                ty: "u32",
                ..
            }
        ),
        "{tag:?}"
    );
    let fmt = u32::from_le_bytes(*b"fmt ");
    assert_eq!(variants[0].tag, fmt.to_string());
    assert_eq!(
        variants[0].tag_shown(tag).unwrap(),
        format!(r#"{fmt} ("fmt ")"#)
    );
    assert_eq!(fourcc_text(u32::from_le_bytes(*b"data")), r#""data""#);
}

#[test]
fn the_reference_and_the_ksy_show_the_text_beside_the_number() {
    let spec = mmd_spec::Spec::of::<KeptChunks>().unwrap();
    let md = mmd_spec::render_markdown(&spec);
    let fmt = u32::from_le_bytes(*b"fmt ");
    assert!(
        md.contains(&format!(r#"| {fmt} ("fmt ") | `Format` |"#)),
        "{md}"
    );
    assert!(md.contains(&format!(r#"Value {fmt} ("fmt ")."#)), "{md}");
    let ksy = mmd_spec::render_ksy(&spec).unwrap();
    assert!(ksy.contains(&format!("{fmt}:")), "{ksy}");
    assert!(ksy.contains(r#"FourCC "fmt "."#), "{ksy}");
}
