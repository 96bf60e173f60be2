//! NUL-terminated text of variable length (issue 29 item 6: "NUL-terminated strings of
//! variable length (RIFF INFO, many headers) have no leaf"; "bytes after the NUL inside a
//! bounded field kept"), on a small made-up format laid out by hand: a C string
//! ([`NulText`]) and text padded within a region of a declared size ([`PaddedText`]), in
//! UTF-8, Windows-1252 and Shift_JIS. Each sample round-trips byte-exactly, through JSON
//! too; a cut string is an error at the offset of its missing NUL, and a value that would
//! read back differently is a write error.

use mmd_formats::file::{decode_all, encode_all};
use mmd_formats::json;
use mmd_formats::spans;
use mmd_formats::text::{Latin1, NulText, PaddedText, Sjis};
use mmd_formats::walk::{Leaf, Value};
use mmd_formats::Mmd;

/// A tag: an id ended by a NUL, the value's size, the value padded within it.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct Tag {
    /// The id, UTF-8.
    pub id: NulText,
    /// The value's size.
    pub size: u8,
    /// The value, Windows-1252, padded within `size` bytes.
    #[mmd(size = *size)]
    pub value: PaddedText<Latin1>,
}

/// The file: a Shift_JIS name, then tags to the end.
#[derive(Mmd, Debug, Clone, PartialEq)]
pub struct Tags {
    /// The name.
    pub name: NulText<Sjis>,
    /// The tags.
    #[mmd(rest)]
    pub tags: Vec<Tag>,
}

/// The sample, laid out by hand.
fn sample() -> Vec<u8> {
    let mut b = vec![0x96, 0xBC, 0x91, 0x4F, 0x00]; // "名前" in Shift_JIS, NUL
    b.extend(b"art\0"); // id "art"
    b.push(6); // size
    b.extend(b"Caf\xe9\0\xaa"); // "Café", NUL, one byte kept after it
    b.extend(b"x\0"); // id "x"
    b.push(2); // size
    b.extend(b"ok"); // no NUL: the whole region is the text
    b.extend(b"e\0"); // id "e"
    b.push(0); // size 0: empty text, no NUL
    b
}

fn read(b: &[u8]) -> mmd_formats::Result<Tags> {
    decode_all(b, &())
}

#[test]
fn every_sample_reads_its_texts_and_writes_back_exactly() {
    let b = sample();
    let v = read(&b).unwrap();
    assert_eq!(v.name.text(), "名前");
    assert_eq!(v.name.as_bytes(), [0x96, 0xBC, 0x91, 0x4F]);
    let ids: Vec<String> = v.tags.iter().map(|t| t.id.text().into()).collect();
    assert_eq!(ids, ["art", "x", "e"]);
    let values: Vec<String> = v.tags.iter().map(|t| t.value.text().into()).collect();
    assert_eq!(values, ["Café", "ok", ""]);
    assert_eq!(v.tags[0].value.after(), [0xaa]);
    assert_eq!(v.tags[0].value.text_bytes(), b"Caf\xe9");
    assert!(v.tags[1].value.after().is_empty());
    assert_eq!(encode_all(&v, &()).unwrap(), b);
    assert_eq!(mmd_formats::Encode::size_hint(&v, &()), b.len());
}

#[test]
fn a_text_cut_before_its_nul_is_an_error_at_the_missing_byte() {
    let b = sample();
    // Cut inside the second id: "x" read, its NUL missing at offset 17.
    let cut = &b[..17];
    let e = read(cut).unwrap_err();
    assert!(e.is_truncated(), "{e}");
    assert_eq!(e.offset(), 17, "{e}");
    assert_eq!(e.path_string(), "tags[1].id", "{e}");
    // The name alone, without its NUL.
    let e = read(&b[..4]).unwrap_err();
    assert_eq!((e.offset(), e.path_string().as_str()), (4, "name"), "{e}");
}

#[test]
fn a_padded_text_past_its_region_is_an_error_at_the_region() {
    let mut b = sample();
    b[9] = 60; // the first value's size: past the end of the file
    let e = read(&b).unwrap_err();
    assert_eq!(e.offset(), 10, "{e}");
    assert_eq!(e.path_string(), "tags[0].value", "{e}");
}

#[test]
fn the_json_form_is_a_string_when_clean_and_keeps_the_bytes_when_not() {
    let b = sample();
    let v = read(&b).unwrap();
    let text = json::to_string(&v);
    // Hand-checked: a clean C string is a string; padding kept after the NUL and a region
    // without a NUL are objects with their bytes.
    assert!(text.contains("\"name\":\"名前\""), "{text}");
    assert!(text.contains("\"id\":\"art\""), "{text}");
    assert!(
        text.contains(r#""value":{"text":"Café","raw":"436166e900aa","encoding":"windows-1252"}"#),
        "{text}"
    );
    assert!(
        text.contains(r#""value":{"text":"ok","raw":"6f6b","encoding":"windows-1252"}"#),
        "{text}"
    );
    let back: Tags = json::from_str(&text, &()).unwrap();
    assert_eq!(back, v);
    assert_eq!(encode_all(&back, &()).unwrap(), b);
}

#[test]
fn a_string_from_json_is_encoded_with_its_nul() {
    let t: Tag = json::from_str(r#"{"id":"名","size":4,"value":"été"}"#, &()).unwrap();
    assert_eq!(t.id.as_bytes(), "名".as_bytes());
    assert_eq!(t.value.as_bytes(), b"\xe9t\xe9\0");
    let mut want = "名".as_bytes().to_vec();
    want.extend(b"\0\x04\xe9t\xe9\0");
    assert_eq!(encode_all(&t, &()).unwrap(), want);
    // A character Windows-1252 lacks, a NUL inside, and a raw form without its NUL.
    let e = json::from_str::<Tag, _>(r#"{"id":"a","size":2,"value":"名"}"#, &()).unwrap_err();
    assert!(e.to_string().contains("has no windows-1252 form"), "{e}");
    assert!(e.to_string().contains("value"), "{e}");
    let e = json::from_str::<Tag, _>(r#"{"id":"a\u0000b","size":1,"value":""}"#, &()).unwrap_err();
    assert!(e.to_string().contains("NUL"), "{e}");
    let e = json::from_str::<Tag, _>(
        r#"{"id":{"text":"a","raw":"61","encoding":"utf-8"},"size":1,"value":""}"#,
        &(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("end with their one NUL"), "{e}");
}

#[test]
fn bytes_that_would_read_back_differently_are_a_write_error() {
    let t = Tag {
        id: NulText::from_raw(b"a\0b".to_vec()),
        size: 1,
        value: PaddedText::from_raw(vec![0]),
    };
    let e = encode_all(&t, &()).unwrap_err();
    assert!(e.to_string().contains("a NUL at byte 1 of 3"), "{e}");
    // A padded text of another length than its size.
    let t = Tag {
        id: NulText::new("a").unwrap(),
        size: 3,
        value: PaddedText::new("a").unwrap(),
    };
    let e = encode_all(&t, &()).unwrap_err();
    assert!(e.to_string().contains("a value of 3 bytes"), "{e}");
    assert!(NulText::<Sjis>::new("é\u{1F600}").is_err());
}

#[test]
fn explain_names_the_text_and_its_nul_as_one_field() {
    let b = sample();
    let v = read(&b).unwrap();
    // Byte 8 is the NUL after "art"; byte 12 is inside "Café".
    let x = spans::explain(&v, &(), 8).unwrap().unwrap();
    assert_eq!(
        (x.path.to_string().as_str(), x.start, x.end),
        ("tags[0].id", 5, 9)
    );
    let x = spans::explain(&v, &(), 12).unwrap().unwrap();
    assert_eq!(
        (x.path.to_string().as_str(), x.start, x.end),
        ("tags[0].value", 10, 16)
    );
    match x.value {
        Some(Value::Leaf(Leaf::Text(t))) => {
            assert_eq!(t.text, "Café");
            assert!(!t.clean);
        }
        other => panic!("{other:?}"),
    }
}
