//! Positioned fields (issue 29 item 2: "a field read at an absolute (or relative to a
//! named base) offset given by an expression, with a size, in any order and overlapping
//! the sequential fields or not; written back at that position, with the bytes around it
//! kept"), on an ICO-like file laid out by hand: a 6-byte header, a directory of 16-byte
//! entries, each giving its image's size and absolute offset, and the images in another
//! order than the directory's, with junk between and after them. Each sample round-trips
//! byte-exactly, through JSON too; the spans put each image at its offset; a position past
//! the end (a hostile one too) is an error at the entry's image, never a panic or a huge
//! allocation; and a value whose images no longer fit where the directory says is an
//! error, never bytes written where reading would not find them.

use mmd_formats::file::{decode_all, encode_all};
use mmd_formats::inspect::spans::{explain, Spans};
use mmd_formats::json;
use mmd_formats::layout::Describe;
use mmd_formats::walk::Segment;
use mmd_formats::Mmd;

/// A directory entry (16 bytes).
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct Entry {
    /// The image's width in pixels (0: 256).
    pub width: u8,
    /// The image's height in pixels (0: 256).
    pub height: u8,
    /// The number of palette colours (0: none).
    pub colours: u8,
    /// Reserved, 0.
    pub reserved: u8,
    /// Colour planes.
    pub planes: u16,
    /// Bits per pixel.
    pub bpp: u16,
    /// The image's size in bytes.
    pub size: u32,
    /// The image's offset from the start of the file.
    pub offset: u32,
}

/// An image: a kind byte, then its bytes.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct Image {
    /// The kind.
    pub kind: u8,
    /// The rest of the image.
    #[mmd(rest)]
    pub data: Vec<u8>,
}

/// The file.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(file(id = "ico_like", title = "An ICO-like file", application = "none"))]
pub struct Ico {
    /// Reserved, 0.
    pub reserved: u16,
    /// 1 for an icon.
    pub kind: u16,
    /// The number of images.
    pub count: u16,
    /// The directory.
    #[mmd(len = count)]
    pub entries: Vec<Entry>,
    /// The images, each where its entry says.
    #[mmd(len = count, pos = entries[_index].offset, size = entries[_index].size)]
    pub images: Vec<Image>,
    /// The bytes no other field holds.
    #[mmd(gaps)]
    pub gaps: Vec<Vec<u8>>,
}

fn entry(size: u32, offset: u32) -> Vec<u8> {
    let mut e = vec![16, 16, 0, 0, 1, 0, 32, 0];
    e.extend(size.to_le_bytes());
    e.extend(offset.to_le_bytes());
    e
}

/// Header (6), two entries (32): 38 bytes; then junk 0xEE 0xEE at 38-39, image 1 (3 bytes)
/// at 40-42, junk 0xDD at 43, image 0 (4 bytes) at 44-47, trailing junk 0xCC 0xCC.
fn sample() -> Vec<u8> {
    let mut b = vec![0, 0, 1, 0, 2, 0];
    b.extend(entry(4, 44));
    b.extend(entry(3, 40));
    b.extend([0xEE, 0xEE]);
    b.extend([7, 0xB1, 0xB2]);
    b.push(0xDD);
    b.extend([9, 0xA1, 0xA2, 0xA3]);
    b.extend([0xCC, 0xCC]);
    b
}

fn read(bytes: &[u8]) -> mmd_formats::Result<Ico> {
    decode_all(bytes, &())
}

#[test]
fn the_images_read_where_their_entries_say_and_write_back_byte_exactly() {
    let b = sample();
    assert_eq!(b.len(), 50);
    let v = read(&b).unwrap();
    assert_eq!(v.count, 2);
    assert_eq!(v.entries[0].offset, 44);
    assert_eq!(
        v.images,
        vec![
            Image {
                kind: 9,
                data: vec![0xA1, 0xA2, 0xA3]
            },
            Image {
                kind: 7,
                data: vec![0xB1, 0xB2]
            },
        ]
    );
    assert_eq!(v.gaps, vec![vec![0xEE, 0xEE], vec![0xDD], vec![0xCC, 0xCC]]);
    assert_eq!(encode_all(&v, &()).unwrap(), b);
}

#[test]
fn the_json_form_builds_the_same_bytes() {
    let v = read(&sample()).unwrap();
    let text = json::to_string(&v);
    assert!(text.contains("\"gaps\""), "{text}");
    let back: Ico = json::from_str(&text, &()).unwrap();
    assert_eq!(back, v);
    assert_eq!(encode_all(&back, &()).unwrap(), sample());
}

#[test]
fn the_spans_and_explain_put_each_image_at_its_offset() {
    let v = read(&sample()).unwrap();
    let e = explain(&v, &(), 45).unwrap().expect("inside the file");
    assert_eq!(e.path.to_string(), "images[0].data", "{e:?}");
    assert_eq!((e.start, e.end), (45, 48));
    let e = explain(&v, &(), 40).unwrap().expect("inside the file");
    assert_eq!(e.path.to_string(), "images[1].kind", "{e:?}");
    assert_eq!((e.start, e.end), (40, 41));
    let e = explain(&v, &(), 43).unwrap().expect("inside the file");
    assert_eq!(e.path.to_string(), "gaps[1]", "{e:?}");
    assert_eq!((e.start, e.end), (43, 44));
    let e = explain(&v, &(), 49).unwrap().expect("inside the file");
    assert_eq!(e.path.to_string(), "gaps[2]", "{e:?}");
    // The leaves tile the file: every byte is some field's, once.
    let spans = Spans::of(&v, &()).unwrap();
    let mut at = 0;
    for (span, start, end) in spans.cells() {
        assert_eq!(start, at, "{}", span.path());
        at = end;
    }
    assert_eq!(at, 50);
    assert_eq!(spans.byte_len(), 50);
}

#[test]
fn images_back_to_back_and_at_the_end_need_no_gaps() {
    let mut b = vec![0, 0, 1, 0, 2, 0];
    b.extend(entry(2, 41));
    b.extend(entry(3, 38));
    b.extend([1, 2, 3, 4, 5]);
    let v = read(&b).unwrap();
    assert!(v.gaps.is_empty(), "{:?}", v.gaps);
    assert_eq!(v.images[0].kind, 4);
    assert_eq!(encode_all(&v, &()).unwrap(), b);
}

#[test]
fn an_image_may_overlap_the_directory_or_another_image() {
    // Image 0 is the last 4 bytes of the second entry (its offset field); image 1 covers
    // image 0's bytes and one more.
    let mut b = vec![0, 0, 1, 0, 2, 0];
    b.extend(entry(4, 34));
    b.extend(entry(5, 34));
    b.push(0x55);
    let v = read(&b).unwrap();
    assert_eq!(v.images[0].kind, 34);
    assert_eq!(v.images[1].data, vec![0, 0, 0, 0x55]);
    assert!(v.gaps.is_empty());
    assert_eq!(encode_all(&v, &()).unwrap(), b);
    // Changed so that it disagrees with the directory: refused at the image.
    let mut bad = v.clone();
    bad.images[0].data[0] = 1;
    let e = encode_all(&bad, &()).unwrap_err();
    assert_eq!(e.path_string(), "images[0]", "{e}");
    assert_eq!(e.offset(), 35, "{e}");
    assert!(e.to_string().contains("overlaps"), "{e}");
}

#[test]
fn a_position_past_the_end_is_an_error_at_the_image() {
    let mut b = sample();
    b[6 + 16 + 12] = 48; // image 1 at 48: its 3 bytes end at 51, past the end (50)
    let e = read(&b).unwrap_err();
    assert_eq!(e.path_string(), "images[1]", "{e}");
    assert_eq!(e.offset(), 48, "{e}");
    let text = e.to_string();
    assert!(text.contains("0x30") && text.contains("0x32"), "{text}");
    assert!(text.contains("entries[_index].offset"), "{text}");
}

#[test]
fn hostile_positions_sizes_and_counts_are_errors_without_a_panic() {
    // Offset u32::MAX.
    let mut b = sample();
    b[6 + 12..6 + 16].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = read(&b).unwrap_err();
    assert_eq!(e.path_string(), "images[0]", "{e}");
    assert!(e.to_string().contains("0xffffffff"), "{e}");
    // Size u32::MAX.
    let mut b = sample();
    b[6 + 8..6 + 12].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = read(&b).unwrap_err();
    assert_eq!(e.path_string(), "images[0]", "{e}");
    // Both at their maximum: the sum does not wrap.
    b[6 + 12..6 + 16].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(read(&b).unwrap_err().path_string(), "images[0]");
    // A count of 65535 with a short directory: an error at the directory, before any image.
    let mut b = sample();
    b[4..6].copy_from_slice(&u16::MAX.to_le_bytes());
    let e = read(&b).unwrap_err();
    assert!(e.path_string().starts_with("entries"), "{e}");
    // A size that the image does not fill.
    let mut b = sample();
    b[6 + 8] = 0; // image 0 of size 0: its kind byte is past its region
    let e = read(&b).unwrap_err();
    assert_eq!(e.path_string(), "images[0].kind", "{e}");
    // Every cut of the sample is an error, never a panic.
    let full = sample();
    for n in 0..full.len() {
        let _ = read(&full[..n]);
    }
}

#[test]
fn the_writer_refuses_images_that_no_longer_fit() {
    let v = read(&sample()).unwrap();
    // Image 1 grown by a byte: 4 bytes where its entry says 3.
    let mut grown = v.clone();
    grown.images[1].data.push(0);
    let e = encode_all(&grown, &()).unwrap_err();
    assert_eq!(e.path_string(), "images[1]", "{e}");
    assert_eq!(e.offset(), 40, "{e}");
    assert!(e.to_string().contains("3 bytes"), "{e}");
    // A gap of the wrong length for its hole.
    let mut gap = v.clone();
    gap.gaps[0].push(0);
    let e = encode_all(&gap, &()).unwrap_err();
    assert_eq!(e.path_string(), "gaps[0]", "{e}");
    assert_eq!(e.offset(), 38, "{e}");
    // One gap too few: the hole before image 0 has none.
    let mut few = v.clone();
    few.gaps.truncate(1);
    let e = encode_all(&few, &()).unwrap_err();
    assert_eq!(e.path_string(), "gaps", "{e}");
    assert_eq!(e.offset(), 43, "{e}");
    // Two gaps after the last image: only one can follow it.
    let mut many = v.clone();
    many.gaps.push(vec![1]);
    let e = encode_all(&many, &()).unwrap_err();
    assert!(e.path_string().starts_with("gaps["), "{e}");
    // An empty gap reads back as none.
    let mut empty = v.clone();
    empty.gaps.push(Vec::new());
    assert!(encode_all(&empty, &()).is_err());
    // Fewer images than the count.
    let mut fewer = v.clone();
    fewer.images.pop();
    let e = encode_all(&fewer, &()).unwrap_err();
    assert_eq!(e.path_string(), "images", "{e}");
    // Each refusal above is a value that reads back otherwise; the sample itself writes.
    assert_eq!(encode_all(&v, &()).unwrap(), sample());
}

/// A BMP-like file: a 6-byte file header, then an info header whose profile offset counts
/// from the info header's first byte, and an optional profile there.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(file(id = "based", title = "Based positions", application = "none"))]
pub struct Based {
    /// The file's signature word.
    pub sig: u16,
    /// The file size.
    pub file_size: u32,
    /// The info header.
    pub info: Info,
    /// The profile, when the info header has one.
    #[mmd(
        if = info.profile_size != 0,
        pos = info.profile_offset,
        pos_base = info,
        size = info.profile_size
    )]
    pub profile: Option<Profile>,
    /// The bytes no other field holds.
    #[mmd(gaps)]
    pub gaps: Vec<Vec<u8>>,
}

/// A colour profile: its bytes.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct Profile {
    /// Every byte of it.
    #[mmd(rest)]
    pub bytes: Vec<u8>,
}

/// The info header.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct Info {
    /// The profile's offset from this header's first byte.
    pub profile_offset: u32,
    /// The profile's size (0: none).
    pub profile_size: u32,
}

#[test]
fn a_position_relative_to_a_field_counts_from_its_start() {
    let mut b = vec![0x42, 0x4D, 20, 0, 0, 0];
    b.extend(10u32.to_le_bytes()); // the profile at info + 10 = 16
    b.extend(3u32.to_le_bytes());
    b.extend([0x99, 0x98]); // junk at 14-15
    b.extend([1, 2, 3]); // the profile
    b.push(0x77);
    let v: Based = decode_all(&b, &()).unwrap();
    assert_eq!(
        v.profile,
        Some(Profile {
            bytes: vec![1, 2, 3]
        })
    );
    assert_eq!(v.gaps, vec![vec![0x99, 0x98], vec![0x77]]);
    assert_eq!(encode_all(&v, &()).unwrap(), b);
    let back: Based = json::from_str(&json::to_string(&v), &()).unwrap();
    assert_eq!(encode_all(&back, &()).unwrap(), b);
    // No profile: everything after the info header is one gap.
    let mut n = vec![0x42, 0x4D, 20, 0, 0, 0];
    n.extend([0; 8]);
    n.extend([5, 6]);
    let v: Based = decode_all(&n, &()).unwrap();
    assert_eq!(v.profile, None);
    assert_eq!(v.gaps, vec![vec![5, 6]]);
    assert_eq!(encode_all(&v, &()).unwrap(), n);
    // A profile where the header says there is none: refused.
    let mut bad = v.clone();
    bad.profile = Some(Profile { bytes: vec![] });
    assert_eq!(encode_all(&bad, &()).unwrap_err().path_string(), "profile");
}

#[test]
fn the_descriptor_holds_the_position_and_the_gaps() {
    use mmd_formats::layout::{Body, Expr, Placement};
    let layout = <Ico as Describe>::layout().unwrap();
    let Body::Struct(fields) = &layout.body else {
        panic!("a struct")
    };
    let images = fields.iter().find(|f| f.name == "images").unwrap();
    let Placement::At { pos, base: None } = images.placement else {
        panic!("positioned: {:?}", images.placement)
    };
    assert_eq!(pos.text, "entries[_index].offset");
    assert!(
        matches!(
            pos.tree,
            Expr::Field(
                Expr::Index(Expr::Name("entries"), Expr::ItemIndex),
                "offset"
            )
        ),
        "{:?}",
        pos.tree
    );
    assert_eq!(images.bound.map(|b| b.text), Some("entries[_index].size"));
    let gaps = fields.iter().find(|f| f.name == "gaps").unwrap();
    assert_eq!(gaps.placement, Placement::Gaps);
    let based = <Based as Describe>::layout().unwrap();
    let Body::Struct(fields) = &based.body else {
        panic!("a struct")
    };
    let profile = fields.iter().find(|f| f.name == "profile").unwrap();
    assert!(
        matches!(
            profile.placement,
            Placement::At {
                base: Some("info"),
                ..
            }
        ),
        "{:?}",
        profile.placement
    );
}

#[test]
fn the_reference_the_schema_and_the_grammar_state_the_positions() {
    let spec = mmd_spec::Spec::of::<Ico>().unwrap();
    let md = mmd_spec::render_markdown(&spec);
    assert!(
        md.contains("at offset `entries[_index].offset` (each element's own"),
        "{md}"
    );
    assert!(md.contains("exactly `entries[_index].size`"), "{md}");
    let schema: serde_json::Value = serde_json::from_str(&mmd_spec::render_schema(&spec)).unwrap();
    let text = schema.to_string();
    assert!(
        text.contains("read at offset `entries[_index].offset`"),
        "{text}"
    );
    assert!(text.contains("no positioned field holds"), "{text}");
    let ksy = mmd_spec::render_ksy(&spec).unwrap();
    assert!(ksy.contains("'-mmd-gaps': gaps"), "{ksy}");
    assert!(ksy.contains("type: images_at(_index)"), "{ksy}");
    assert!(
        ksy.contains("pos: '_parent.entries[index].offset'"),
        "{ksy}"
    );
    // The one with a base counts from the base's fixed offset.
    let based = mmd_spec::render_ksy(&mmd_spec::Spec::of::<Based>().unwrap()).unwrap();
    assert!(based.contains("pos: '6 + info.profile_offset'"), "{based}");
}

#[test]
fn each_image_has_its_span_and_the_hints_and_binrw_agree() {
    let b = sample();
    let v = read(&b).unwrap();
    let spans = Spans::of(&v, &()).unwrap();
    let at = |path: &[Segment]| spans.get(path).map(|s| (s.start(), s.end()));
    let images = Segment::Field("images");
    assert_eq!(at(&[images, Segment::Index(0)]), Some((44, 48)));
    assert_eq!(at(&[images, Segment::Index(1)]), Some((40, 43)));
    assert_eq!(
        at(&[Segment::Field("gaps"), Segment::Index(2)]),
        Some((48, 50))
    );
    // The size hint is exact when no positioned value overlaps another.
    assert_eq!(mmd_formats::Encode::size_hint(&v, &()), b.len());
    // Through binrw, over a stream: the same value, the same bytes.
    use binrw::{BinRead, BinWrite};
    let mut cur = std::io::Cursor::new(b.clone());
    let r = Ico::read_le(&mut cur).unwrap();
    assert_eq!(r, v);
    let mut out = std::io::Cursor::new(Vec::new());
    r.write_le(&mut out).unwrap();
    assert_eq!(out.into_inner(), b);
}

#[test]
fn every_byte_mutation_reads_to_an_error_or_writes_back_byte_exactly() {
    // Each byte of the sample set to each of a few values: a directory pointing anywhere,
    // overlapping images, sizes of 0 or past the end. What reads must write back the same
    // bytes (and through JSON too); what does not read is an error, never a panic.
    let full = sample();
    let mut read_ok = 0;
    for i in 0..full.len() {
        for x in [0u8, 1, 2, 7, 0x27, 0x2C, 0x30, 0x31, 0x7F, 0xFF] {
            let mut b = full.clone();
            b[i] = x;
            if let Ok(v) = read(&b) {
                read_ok += 1;
                assert_eq!(encode_all(&v, &()).unwrap(), b, "byte {i} = {x:#x}");
                let back: Ico = json::from_str(&json::to_string(&v), &()).unwrap();
                assert_eq!(back, v, "byte {i} = {x:#x}");
            }
        }
    }
    assert!(read_ok > 100, "{read_ok}");
}
