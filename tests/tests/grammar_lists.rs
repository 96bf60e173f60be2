//! Lists that a count does not give and values of a declared size (issue 22: "Sections that
//! run until an end tag (a tag byte 0xFF and one more byte), and objects that run to the
//! end of the file"; "Records of a declared size (each item is `item_size` bytes ...) and
//! newer writers add fields the reader must skip"), on a small made-up format laid out by
//! hand: `until` keeps the terminating element, `rest` reads values to the end of the input
//! or of the region a `size` bounds, and `size` reads each value from exactly that many
//! bytes. Each sample round-trips byte-exactly, through JSON too; every malformed file is
//! an error at the offset and path of the value that broke, and every value the writer
//! cannot write back as it would be read is an error, never a silent change.

use mmd_formats::file::{decode_all, encode_all};
use mmd_formats::json;
use mmd_formats::layout::Describe;
use mmd_formats::Encode;
use mmd_formats::Mmd;

/// A section: a kind byte, a length byte and that many bytes; kind 0xFF ends the list.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct Section {
    /// The section's kind (0xFF: the end).
    pub kind: u8,
    /// The number of data bytes.
    pub len: u8,
    /// The data.
    #[mmd(len = len)]
    pub data: Vec<u8>,
}

/// An item: an id, then whatever a newer writer added, kept.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct Item {
    /// The item's id.
    pub id: u16,
    /// The bytes of the item this reader does not know.
    #[mmd(rest)]
    pub extra: Vec<u8>,
}

/// An extension region: `u16` values to its end.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct Ext {
    /// Every value of the region.
    #[mmd(rest)]
    pub values: Vec<u16>,
}

/// The file.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(
    magic = b"LST",
    file(id = "lst", title = "A made-up list format", application = "none")
)]
pub struct Lists {
    /// The size of each item.
    pub item_size: u8,
    /// The size of the extension region.
    pub ext_size: u8,
    /// The extension region.
    #[mmd(size = ext_size)]
    pub ext: Ext,
    /// Sections up to the end section.
    #[mmd(until = |s| s.kind == 0xFF)]
    pub sections: Vec<Section>,
    /// Items of `item_size` bytes each, to the end of the file.
    #[mmd(rest, size = item_size)]
    pub items: Vec<Item>,
}

/// The sample, laid out by hand.
fn sample() -> Vec<u8> {
    let mut b = b"LST".to_vec();
    b.push(3); // item_size
    b.push(4); // ext_size
    b.extend([0x01, 0x00, 0x02, 0x00]); // ext: values 1, 2
    b.extend([0x05, 0x02, 0xAA, 0xBB]); // section kind 5, 2 bytes
    b.extend([0x06, 0x00]); // section kind 6, no bytes
    b.extend([0xFF, 0x01, 0x7E]); // the end section, one byte
    b.extend([0x0A, 0x00, 0x99]); // item 10, one extra byte
    b.extend([0x0B, 0x00, 0x98]); // item 11
    b
}

fn read(bytes: &[u8]) -> mmd_formats::Result<Lists> {
    decode_all(bytes, &())
}

#[test]
fn the_sample_reads_as_laid_out_and_writes_back_byte_exactly() {
    let bytes = sample();
    let v = read(&bytes).unwrap();
    assert_eq!(v.ext.values, vec![1, 2]);
    let kinds: Vec<u8> = v.sections.iter().map(|s| s.kind).collect();
    assert_eq!(
        kinds,
        vec![5, 6, 0xFF],
        "the terminating section is kept as the last"
    );
    assert_eq!(v.sections[2].data, vec![0x7E]);
    assert_eq!(
        v.items,
        vec![
            Item {
                id: 10,
                extra: vec![0x99]
            },
            Item {
                id: 11,
                extra: vec![0x98]
            }
        ]
    );
    assert_eq!(encode_all(&v, &()).unwrap(), bytes);
    // The writer's reservation (issue 27) is exact for these lists too.
    assert_eq!(v.size_hint(&()), bytes.len());
}

#[test]
fn no_items_and_an_empty_region_round_trip() {
    let mut b = b"LST".to_vec();
    b.extend([2, 0]); // item_size 2, ext_size 0
    b.extend([0xFF, 0x00]); // only the end section
    let v = read(&b).unwrap();
    assert!(v.ext.values.is_empty() && v.items.is_empty());
    assert_eq!(v.sections.len(), 1);
    assert_eq!(encode_all(&v, &()).unwrap(), b);
    assert_eq!(v.size_hint(&()), b.len());
}

#[test]
fn the_json_form_builds_the_same_bytes() {
    let bytes = sample();
    let v = read(&bytes).unwrap();
    let text = json::to_string(&v);
    // Hand-checked shape: lists of records, not bytes.
    assert!(text.contains("\"sections\":[{\"kind\":5"), "{text}");
    assert!(text.contains("\"items\":[{\"id\":10"), "{text}");
    let back: Lists = json::from_str(&text, &()).unwrap();
    assert_eq!(back, v);
    assert_eq!(encode_all(&back, &()).unwrap(), bytes);
}

#[test]
fn a_list_that_never_meets_its_end_is_an_error_at_the_missing_element() {
    let mut b = sample();
    b.truncate(3 + 2 + 4 + 4 + 2); // the sections without the end section
    let e = read(&b).unwrap_err();
    assert_eq!(e.path_string(), "sections[2].kind", "{e}");
    assert_eq!(e.offset(), 15, "{e}");
}

#[test]
fn a_region_read_past_its_size_is_an_error_at_the_value_that_crosses_it() {
    let mut b = sample();
    b[4] = 3; // ext_size 3: the second u16 crosses the region's end
    let e = read(&b).unwrap_err();
    assert_eq!(e.path_string(), "ext.values[1]", "{e}");
    assert_eq!(e.offset(), 7, "{e}");
    assert!(
        e.to_string().contains("the region of `ext_size` bytes"),
        "{e}"
    );
    assert!(
        !e.is_truncated(),
        "a region too small is corrupt data, not a cut file: {e}"
    );
}

#[test]
fn a_region_larger_than_the_file_is_an_error_at_the_field() {
    let mut b = b"LST".to_vec();
    b.extend([2, 200, 1, 0]);
    let e = read(&b).unwrap_err();
    assert_eq!(e.path_string(), "ext", "{e}");
    assert_eq!(e.offset(), 5, "{e}");
}

#[test]
fn items_that_do_not_fill_the_file_are_an_error_at_the_last_item() {
    let mut b = sample();
    b.push(0x0C); // a last item of one byte, but item_size is 3
    let e = read(&b).unwrap_err();
    assert_eq!(e.path_string(), "items[2]", "{e}");
    assert_eq!(e.offset(), 24, "{e}");
}

#[test]
fn a_value_that_does_not_fill_its_size_is_an_error_naming_the_fix() {
    /// A record with a region its type cannot fill (no `rest` at its end).
    #[derive(Mmd, Debug, PartialEq)]
    struct Tight {
        size: u8,
        #[mmd(size = size)]
        pair: Pair,
    }
    #[derive(Mmd, Debug, PartialEq)]
    struct Pair {
        a: u8,
        b: u8,
    }
    let e = decode_all::<Tight, _>(&[3, 1, 2, 3], &()).unwrap_err();
    assert_eq!(e.path_string(), "pair", "{e}");
    assert_eq!(e.offset(), 3, "{e}");
    assert!(e.to_string().contains("`rest`"), "{e}");
    let ok: Tight = decode_all(&[2, 1, 2], &()).unwrap();
    assert_eq!(encode_all(&ok, &()).unwrap(), vec![2, 1, 2]);
}

#[test]
fn the_writer_refuses_lists_that_would_read_back_otherwise() {
    let v = read(&sample()).unwrap();
    // The end section removed: the list would run on into the items.
    let mut no_end = v.clone();
    no_end.sections.pop();
    let e = encode_all(&no_end, &()).unwrap_err();
    assert_eq!(e.path_string(), "sections[1]", "{e}");
    // An end section in the middle: the list would stop there.
    let mut early = v.clone();
    early.sections[0].kind = 0xFF;
    let e = encode_all(&early, &()).unwrap_err();
    assert_eq!(e.path_string(), "sections[0]", "{e}");
    assert!(e.to_string().contains("2 more after it"), "{e}");
    // No sections at all.
    let mut none = v.clone();
    none.sections.clear();
    let e = encode_all(&none, &()).unwrap_err();
    assert_eq!(e.path_string(), "sections", "{e}");
}

#[test]
fn the_writer_refuses_values_that_do_not_take_their_size() {
    let v = read(&sample()).unwrap();
    let mut long = v.clone();
    long.items[1].extra.push(0); // 4 bytes where item_size says 3
    let e = encode_all(&long, &()).unwrap_err();
    assert_eq!(e.path_string(), "items[1]", "{e}");
    assert_eq!(e.offset(), 21, "{e}");
    assert!(e.to_string().contains("3 bytes"), "{e}");
    let mut short = v.clone();
    short.ext.values.pop(); // 2 bytes where ext_size says 4
    let e = encode_all(&short, &()).unwrap_err();
    assert_eq!(e.path_string(), "ext", "{e}");
}

#[test]
fn the_descriptor_states_each_construct() {
    let layout = <Lists as Describe>::layout().unwrap();
    let mmd_formats::layout::Body::Struct(fields) = &layout.body else {
        panic!("a struct")
    };
    let by = |n: &str| fields.iter().find(|f| f.name == n).unwrap();
    assert!(matches!(
        by("sections").repeat,
        mmd_formats::layout::Repeat::Until(e) if e.text == "s.kind == 0xFF"
    ));
    let until = match by("sections").repeat {
        mmd_formats::layout::Repeat::Until(e) => e.tree,
        _ => unreachable!(),
    };
    assert!(matches!(
        until,
        mmd_formats::layout::Expr::Binary(
            mmd_formats::layout::BinOp::Eq,
            mmd_formats::layout::Expr::Field(mmd_formats::layout::Expr::Element, "kind"),
            mmd_formats::layout::Expr::Int(255)
        )
    ));
    assert!(matches!(
        by("items").repeat,
        mmd_formats::layout::Repeat::Rest
    ));
    assert_eq!(by("items").bound.unwrap().text, "item_size");
    assert_eq!(by("ext").bound.unwrap().text, "ext_size");
    // The element types are described, not left blank.
    assert_eq!((by("items").layout)().unwrap().name, "Item");
    assert_eq!((by("sections").layout)().unwrap().name, "Section");
}

#[test]
fn the_reference_and_the_schema_go_below_the_lists() {
    let spec = mmd_spec::Spec::of::<Lists>().unwrap();
    let md = mmd_spec::render_markdown(&spec);
    assert!(
        md.contains("until `s.kind == 0xFF` holds of the element just read"),
        "{md}"
    );
    assert!(
        md.contains("exactly `item_size` each, to the end of the file"),
        "{md}"
    );
    assert!(md.contains("## Item") || md.contains("### Item"), "{md}");
    let schema: serde_json::Value = serde_json::from_str(&mmd_spec::render_schema(&spec)).unwrap();
    let text = schema.to_string();
    assert!(text.contains("\"sections\":{\"$comment\""), "{text}");
    let props = find_props(&schema, "sections").expect("sections in the schema");
    assert_eq!(props["type"], "array", "{props}");
}

/// The schema of the member `name` anywhere in `v`.
fn find_props<'a>(v: &'a serde_json::Value, name: &str) -> Option<&'a serde_json::Value> {
    match v {
        serde_json::Value::Object(m) => {
            if let Some(p) = m.get("properties").and_then(|p| p.get(name)) {
                return Some(p);
            }
            m.values().find_map(|x| find_props(x, name))
        }
        serde_json::Value::Array(a) => a.iter().find_map(|x| find_props(x, name)),
        _ => None,
    }
}
