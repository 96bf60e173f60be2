//! Field-level diff and the JSON dump, over samples and fixtures, and over a small derived
//! type that uses every directive.

use mmd_formats::inspect::diff::{diff, diff_values, Change, Difference};
use mmd_formats::inspect::spans::Spans;
use mmd_formats::inspect::Format;
use mmd_formats::walk::{Leaf, Path, Segment, Value};
use mmd_formats::{Decode, Mmd, SliceInput};

fn inputs() -> Vec<(String, Vec<u8>)> {
    mmd_tests::all_inputs()
}

/// A file compared with itself has no difference. `Format::diff` answers equal bytes
/// without walking them, so the walk-and-compare path is checked on two trees read
/// separately from the same bytes; every input must read (no `Err` passes).
#[test]
fn a_file_has_no_difference_with_itself() {
    let mut walked = 0;
    for (name, bytes) in inputs() {
        let format = Format::detect(&bytes).unwrap_or_else(|| panic!("{name}: no format"));
        let d = format
            .diff(&bytes, &bytes)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(d.is_empty(), "{name}: {}", d[0]);
        if bytes.len() > 1 << 20 {
            continue; // time: two walks of a multi-megabyte file in a debug build
        }
        let a = format
            .tree(&bytes)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let b = format
            .tree(&bytes.clone())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let d = diff_values(&a, &b);
        assert!(d.is_empty(), "{name}: {}", d[0]);
        // The comparison is not blind: the tree differs from an emptied copy of itself.
        assert!(!diff_values(&a, &Value::Absent).is_empty(), "{name}");
        walked += 1;
    }
    let samples = mmd_formats::samples::all().len();
    assert!(
        walked >= samples,
        "only {walked} files walked ({samples} samples)"
    );
}

#[test]
fn patching_one_float_in_place_is_exactly_one_difference() {
    let mut patched_files = 0;
    for (name, bytes) in inputs() {
        let format = Format::detect(&bytes).unwrap_or_else(|| panic!("{name}: no format"));
        if format == Format::Vpd {
            continue;
        }
        let (tree, spans) = format
            .tree_and_spans(&bytes)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let floats: Vec<(Path, u64, f32)> = spans
            .leaves()
            .filter_map(|s| match tree.lookup(s.path().segments()).as_deref() {
                Some(Value::Leaf(Leaf::F32(x))) => Some((s.path(), s.start(), *x)),
                _ => None,
            })
            .collect();
        if floats.is_empty() {
            continue;
        }
        patched_files += 1;
        // Three floats per file (one for large files: each diff reads both files).
        let picks = if bytes.len() > 1 << 20 {
            vec![floats.len() / 2]
        } else {
            vec![0, floats.len() / 2, floats.len() - 1]
        };
        for k in picks {
            let (path, at, old) = floats[k].clone();
            let new = if old.is_finite() && old + 1.0 != old {
                old + 1.0
            } else {
                f32::from_bits(old.to_bits() ^ 1)
            };
            // Seed 000's in-place patch: write 4 bytes, nothing moves.
            let mut patched = bytes.clone();
            patched[at as usize..at as usize + 4].copy_from_slice(&new.to_le_bytes());
            let d = diff_values(&tree, &format.tree(&patched).unwrap());
            // A float that decides the layout reads the rest differently: only the PMX
            // version does that (above 2.05 a soft-body block follows the joints).
            if format == Format::Pmx && path.to_string() == "header.version" && d.len() > 1 {
                continue;
            }
            let want = vec![Difference {
                path: path.clone(),
                change: Change::Changed {
                    old: Value::Leaf(Leaf::F32(old)),
                    new: Value::Leaf(Leaf::F32(new)),
                },
            }];
            assert_eq!(d, want, "{name}: patch of {path}");
            assert_eq!(d[0].to_string(), format!("{path}: {old:?} -> {new:?}"));
        }
    }
    assert!(patched_files >= 5, "{patched_files}");
}

#[test]
fn longer_lists_and_present_blocks_are_reported_element_by_element() {
    use mmd_formats::vmd::{BoneKey, Vmd};
    let key = |f| {
        BoneKey::new(
            mmd_formats::ShiftJis::new("a").unwrap(),
            f,
            [0.0; 3],
            [0.0; 4],
        )
    };
    let mut a = Vmd::new_v2("m").unwrap();
    a.bone_keys = vec![key(0), key(1)];
    let mut b = a.clone();
    b.bone_keys.push(key(2));
    b.bone_keys.push(key(3));
    let d = diff(&a, &b);
    let paths: Vec<String> = d.iter().map(|d| d.to_string()).collect();
    assert_eq!(
        paths,
        [
            "bone_keys[2]: added BoneKey {..}",
            "bone_keys[3]: added BoneKey {..}"
        ]
    );
    let d = diff(&b, &a);
    assert!(matches!(d[0].change, Change::Removed(_)) && d.len() == 2);
    // An absent block against a present, empty one.
    let mut c = a.clone();
    c.show_ik_keys = None;
    let d = diff(&a, &c);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].to_string(), "show_ik_keys: [0 elements] -> absent");
}

/// A small format that uses every directive (built here, so this runs with no fixture).
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(magic = b"DD")]
struct Doc {
    flags: u8,
    #[mmd(if = *flags & 1 != 0)]
    weight: Option<f32>,
    #[mmd(count = u16)]
    shapes: Vec<Shape>,
    #[mmd(len = *flags >> 4)]
    nibbles: Vec<u8>,
    #[mmd(select = *flags & 2 != 0)]
    tail: Tail,
    #[mmd(unless_eof)]
    extra: Option<u32>,
    #[mmd(rest)]
    trailing: Vec<u8>,
}

#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(tag = i8, name = "shape kind")]
enum Shape {
    #[mmd(tag = -1)]
    Nothing,
    #[mmd(tag = 2)]
    Circle(f32),
    #[mmd(tag = 3)]
    Box(f32, f32),
    #[mmd(tag = 4)]
    Named { w: u16, h: i16 },
}

#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(selected_by = bool)]
enum Tail {
    #[mmd(tag = false)]
    Short(u8),
    #[mmd(tag = true)]
    Long { value: u32 },
}

fn doc_bytes() -> Vec<u8> {
    let mut b = b"DD".to_vec();
    b.push(0x23); // weight present, long tail, 2 nibbles
    b.extend(1.5f32.to_le_bytes());
    b.extend(4u16.to_le_bytes());
    b.push(0xff); // Nothing
    b.push(2);
    b.extend(2.0f32.to_le_bytes());
    b.push(3);
    b.extend(3.0f32.to_le_bytes());
    b.extend(4.0f32.to_le_bytes());
    b.push(4);
    b.extend(5u16.to_le_bytes());
    b.extend((-6i16).to_le_bytes());
    b.extend([7, 8]); // nibbles
    b.extend(9u32.to_le_bytes()); // Long tail
    b.extend(10u32.to_le_bytes()); // extra
    b.extend([11, 12, 13]); // trailing
    b
}

#[test]
fn every_directive_walks_and_records_spans_that_agree() {
    let bytes = doc_bytes();
    let doc = Doc::decode(&mut SliceInput::new(&bytes), &()).unwrap();
    let spans = Spans::of(&doc, &()).unwrap();
    let tree = Value::of(&doc);
    let cells: Vec<(String, u64, u64)> = spans
        .cells()
        .into_iter()
        .map(|(s, a, b)| (s.path().to_string(), a, b))
        .collect();
    // Derived by hand from the layout written in `doc_bytes`.
    let want: Vec<(&str, u64, u64)> = vec![
        ("magic", 0, 2),
        ("flags", 2, 3),
        ("weight", 3, 7),
        ("shapes.count", 7, 9),
        ("shapes[0].tag", 9, 10),
        ("shapes[1].tag", 10, 11),
        ("shapes[1].Circle", 11, 15),
        ("shapes[2].tag", 15, 16),
        ("shapes[2].Box.0", 16, 20),
        ("shapes[2].Box.1", 20, 24),
        ("shapes[3].tag", 24, 25),
        ("shapes[3].Named.w", 25, 27),
        ("shapes[3].Named.h", 27, 29),
        ("nibbles", 29, 31),
        ("tail.Long.value", 31, 35),
        ("extra", 35, 39),
        ("trailing", 39, 42),
    ];
    let got: Vec<(&str, u64, u64)> = cells.iter().map(|(p, a, b)| (p.as_str(), *a, *b)).collect();
    assert_eq!(got, want);
    for (s, _, _) in spans.cells() {
        assert!(tree.lookup(s.path().segments()).is_some(), "{}", s.path());
    }
    assert_eq!(
        tree.lookup(&[Segment::Field("shapes"), Segment::Index(0), Segment::Tag])
            .as_deref(),
        Some(&Value::Leaf(Leaf::I8(-1)))
    );
    // A different variant is one change at the enum's path.
    let mut other = doc.clone();
    other.shapes[1] = Shape::Box(2.0, 2.0);
    let d = diff(&doc, &other);
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].to_string(), "shapes[1]: Shape::Circle -> Shape::Box");
    // A change inside a struct variant is at the field's path.
    let mut other = doc.clone();
    other.shapes[3] = Shape::Named { w: 5, h: 7 };
    assert_eq!(
        diff(&doc, &other)[0].to_string(),
        "shapes[3].Named.h: -6 -> 7"
    );
    // The tree of the same bytes is the same: a diff of values built twice is empty.
    assert!(diff_values(&tree, &Value::of(&doc.clone())).is_empty());
}

/// The JSON value at `path` (variants are single-key objects).
fn json_at<'a>(mut j: &'a serde_json::Value, path: &Path) -> &'a serde_json::Value {
    for seg in path.segments() {
        j = match seg {
            Segment::Field(n) => &j[*n],
            Segment::Index(i) => &j[*i],
            _ => panic!("{path}"),
        };
    }
    j
}

#[test]
fn dump_json_holds_every_leaf_exactly() {
    let mut checked = 0;
    for (name, bytes) in inputs() {
        let format = Format::detect(&bytes).unwrap_or_else(|| panic!("{name}: no format"));
        if bytes.len() > 1 << 20 {
            continue; // time: the walk over JSON is slow in debug builds
        }
        let tree = format
            .tree(&bytes)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = serde_json::to_string(&tree).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        for (path, leaf) in tree.leaves() {
            let j = json_at(&json, &path);
            match leaf {
                Leaf::F32(x) if x.is_finite() => {
                    let back = j.as_f64().unwrap_or_else(|| panic!("{name}: {path} {j}"));
                    assert_eq!((back as f32).to_bits(), x.to_bits(), "{name}: {path}");
                }
                Leaf::F32(x) => assert_eq!(j["bits"], format!("{:08x}", x.to_bits())),
                Leaf::Text(t) if t.clean => assert_eq!(j.as_str(), Some(t.text.as_str())),
                Leaf::Text(t) => {
                    assert_eq!(j["raw"], mmd_formats::walk::hex(&t.raw), "{name}: {path}")
                }
                Leaf::U8(v) => assert_eq!(j.as_u64(), Some(u64::from(*v))),
                Leaf::U32(v) => assert_eq!(j.as_u64(), Some(u64::from(*v))),
                Leaf::I32(v) => assert_eq!(j.as_i64(), Some(i64::from(*v))),
                Leaf::Index { raw, .. } => assert_eq!(j.as_i64(), Some(*raw)),
                Leaf::Bytes(b) => assert_eq!(j["hex"], mmd_formats::walk::hex(b)),
                _ => assert!(!j.is_null(), "{name}: {path}"),
            }
            checked += 1;
        }
        // The counts a reader expects.
        if format == Format::Pmx {
            let m = mmd_formats::pmx::Pmx::from_bytes(&bytes).unwrap();
            assert_eq!(json["vertices"].as_array().unwrap().len(), m.vertices.len());
            assert_eq!(json["bones"].as_array().unwrap().len(), m.bones.len());
            assert_eq!(
                json["materials"].as_array().unwrap().len(),
                m.materials.len()
            );
        }
        if format == Format::Vmd {
            let v = mmd_formats::vmd::Vmd::from_bytes(&bytes).unwrap();
            assert_eq!(
                json["bone_keys"].as_array().unwrap().len(),
                v.bone_keys.len()
            );
            assert_eq!(json["morph_keys"].is_null(), v.morph_keys.is_none());
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn junk_after_a_nul_makes_text_raw_in_the_json() {
    let mut name = mmd_formats::ShiftJis::new("a").unwrap();
    name.0[2] = 0xfd;
    let key = mmd_formats::vmd::MorphKey {
        name,
        frame: 1,
        weight: 0.1,
    };
    let j = serde_json::to_value(Value::of(&key)).unwrap();
    assert_eq!(j["name"]["text"], "a");
    assert_eq!(j["name"]["raw"], "6100fd000000000000000000000000");
    assert_eq!(j["name"]["encoding"], "shift_jis");
    // A clean name is a plain string, and 0.1f32 prints in its shortest form.
    let key = mmd_formats::vmd::MorphKey {
        name: mmd_formats::ShiftJis::new("まばたき").unwrap(),
        ..key
    };
    let text = serde_json::to_string(&Value::of(&key)).unwrap();
    assert_eq!(text, r#"{"name":"まばたき","frame":1,"weight":0.1}"#);
}
