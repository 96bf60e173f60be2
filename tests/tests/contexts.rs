//! Declared contexts (`#[derive(MmdContext)]`, `#[mmd(context = Ctx(args))]`): the one
//! statement gives the computation, its errors (offset and path of the place the wrong
//! value was read from, on read and on write), the traits leaf types read with, and the
//! descriptor the renderers use.

use mmd_formats::file::{decode_all, encode_all};
use mmd_formats::layout::{ContextRole, DescribeContext, Expr};
use mmd_formats::{Describe, Index, Mmd, MmdContext, PmxText, TextEncoding};
use std::io::Cursor;

mmd_formats::index_kind! {
    /// Node indices of a made-up format.
    pub struct Node = "node";
}
type NodeIndex = Index<Node>;

/// A header: a signature with a version in it, then settings.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(magic = b"NODE")]
struct Header {
    /// `v1` or `v2` then two spaces.
    tag: [u8; 4],
    /// Settings, a u8 count first: text encoding, node index width.
    #[mmd(count = u8)]
    settings: Vec<u8>,
}

/// The context the body is read with.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq)]
#[mmd(from(header: Header))]
struct Ctx {
    /// 1 for `v1`, 2 for anything else starting with `v`.
    #[mmd(
        from = if header.tag.starts_with(b"v1") { 1 } else if header.tag.starts_with(b"v") { 2 } else { 0 },
        valid = [1, 2],
        name = "version",
    )]
    version: u8,
    /// Settings byte 0.
    #[mmd(from = header.settings[0], text_encoding)]
    encoding: TextEncoding,
    /// Settings byte 1.
    #[mmd(from = header.settings[1], valid = [1, 2, 4], name = "node index width", index_width = NodeIndex)]
    node_width: u8,
}

/// The body.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = Ctx)]
struct Body {
    /// A name.
    name: PmxText,
    /// Nodes, a u16 count first.
    #[mmd(count = u16)]
    nodes: Vec<NodeIndex>,
    /// Version 2 only.
    #[mmd(if = ctx.version == 2)]
    extra: Option<u32>,
}

/// A whole file.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = ())]
struct File {
    /// Signature and settings.
    #[mmd(context = Ctx(header))]
    header: Header,
    /// Everything after.
    body: Body,
}

/// `NODE`, tag, settings count + settings, then a body with a 4-byte name `ab` (UTF-8),
/// one node and, in v2, an extra u32.
fn bytes(tag: &[u8; 4], settings: &[u8], v2: bool) -> Vec<u8> {
    let mut b = b"NODE".to_vec();
    b.extend(tag);
    b.push(settings.len() as u8);
    b.extend(settings);
    b.extend([2, 0, 0, 0, b'a', b'b']);
    b.extend([1, 0, 0xff, 0xff]); // one node: -1 at width 2
    if v2 {
        b.extend([7, 0, 0, 0]);
    }
    b
}

#[test]
fn the_declared_context_drives_the_body() {
    let b = bytes(b"v2  ", &[1, 2], true);
    let f: File = decode_all(&b, &()).unwrap();
    assert_eq!(f.body.nodes, vec![NodeIndex::NONE]);
    assert_eq!(f.body.name, PmxText::new("ab", TextEncoding::Utf8));
    assert_eq!(f.body.extra, Some(7));
    assert_eq!(encode_all(&f, &()).unwrap(), b);
    let v1 = bytes(b"v1  ", &[1, 2], false);
    let f: File = decode_all(&v1, &()).unwrap();
    assert_eq!(f.body.extra, None);
    assert_eq!(encode_all(&f, &()).unwrap(), v1);
}

#[test]
fn a_value_a_member_does_not_accept_is_an_error_at_its_place() {
    // Settings start at 9 (magic 4, tag 4, count 1): byte 1 (the width) is at 10.
    let b = bytes(b"v2  ", &[1, 3], true);
    let e = decode_all::<File, _>(&b, &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "header.settings[1]: node index width 3 at 0xa (expected a node index width of 1, 2 or 4)"
    );
    assert!(!e.is_truncated());
    // The version: computed from the tag, which starts at 4.
    let b = bytes(b"x2  ", &[1, 2], true);
    let e = decode_all::<File, _>(&b, &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "header.tag: version 0 at 0x4 (expected a version of 1 or 2)"
    );
}

#[test]
fn a_missing_element_is_an_error_not_a_panic() {
    // One setting: settings[1] (the width) is missing; the error is at the count (8).
    let b = bytes(b"v2  ", &[1], true);
    let e = decode_all::<File, _>(&b, &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "header.settings: 1 element at 0x8 (expected at least 2 elements for the \
         node index width)"
    );
}

#[test]
fn offsets_are_absolute_through_binrw_at_an_offset() {
    use binrw::BinRead;
    let mut data = vec![0xEE; 5];
    data.extend(bytes(b"v2  ", &[1, 3], true));
    let mut cur = Cursor::new(data);
    cur.set_position(5);
    let e = File::read_le(&mut cur).unwrap_err();
    let e = mmd_formats::Error::from_binrw(e);
    assert_eq!(e.offset(), 5 + 10, "{e}");
    assert_eq!(e.path_string(), "header.settings[1]");
}

#[test]
fn the_writer_computes_the_context_too() {
    let b = bytes(b"v2  ", &[1, 2], true);
    let mut f: File = decode_all(&b, &()).unwrap();
    f.header.settings[1] = 5;
    let e = encode_all(&f, &()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "header.settings[1]: node index width 5 at 0xa (expected a node index width of 1, 2 or 4)"
    );
    // A width that reads but does not fit the value is the index's own error.
    f.header.settings[1] = 1;
    f.body.nodes = vec![NodeIndex::from_raw(300)];
    let e = encode_all(&f, &()).unwrap_err();
    assert!(e.to_string().contains("node index 300"), "{e}");
}

#[test]
fn the_context_describes_itself() {
    let l = Ctx::context_layout();
    assert_eq!(l.name, "Ctx");
    assert_eq!(l.params.len(), 1);
    assert_eq!((l.params[0].name, l.params[0].ty), ("header", "Header"));
    let members: Vec<_> = l
        .members
        .iter()
        .map(|m| (m.name, m.from.text, m.valid, m.role))
        .collect();
    assert_eq!(
        members,
        [
            (
                "version",
                "if header.tag.starts_with(b\"v1\") {1} else if header.tag.starts_with(b\"v\") {2} else {0}",
                Some(&["1", "2"][..]),
                None
            ),
            (
                "encoding",
                "header.settings[0]",
                None,
                Some(ContextRole::TextEncoding)
            ),
            (
                "node_width",
                "header.settings[1]",
                Some(&["1", "2", "4"][..]),
                Some(ContextRole::IndexWidth("node"))
            ),
        ]
    );
    // The switch names the context and its argument.
    let mmd_formats::layout::Body::Struct(fields) = &File::layout().unwrap().body else {
        panic!("not a struct")
    };
    let sw = fields[0].context.expect("a declared switch");
    assert_eq!(sw.args.len(), 1);
    assert_eq!(
        (sw.args[0].text, sw.args[0].tree),
        ("header", &Expr::Name("header"))
    );
    assert!(std::ptr::eq((sw.layout)(), l));
    assert_eq!(fields[0].switch_ctx, Some("Ctx(header)"));
    // The index leaf names its kind.
    assert_eq!(
        format!("{:?}", NodeIndex::shape()),
        "Leaf(LeafLayout { name: \"Index\", doc: \"An index whose width (1, 2 or 4 bytes) the context declares for its kind; signed at every width (`i8`, `i16`, `i32`), -1 meaning none.\", kind: Index { kind: \"node\", sign: Signed, none: Some(-1) } })"
    );
}
