//! Edits through the JSON form (issue 13): a value changed in the JSON gives a file that
//! reads back with it, with counts and lengths following and every other byte unchanged,
//! and `diff` shows exactly the edited field; the text rule; grammar-breaking JSON is an
//! error naming the JSON path.

use mmd_formats::inspect::diff::{diff_values, Change};
use mmd_formats::inspect::Format;
use mmd_formats::json::{self, Json, Number};
use mmd_formats::pmx::{MorphOffsets, Pmx};
use mmd_formats::vmd::{BoneKey, Vmd};
use mmd_formats::{samples, ShiftJis};
use std::borrow::Cow;

/// The value at `path` (`materials.0.diffuse.0`) of a parsed document.
fn at<'b, 'a>(doc: &'b mut Json<'a>, path: &str) -> &'b mut Json<'a> {
    let mut cur = doc;
    for seg in path.split('.').filter(|s| !s.is_empty()) {
        cur = match cur {
            Json::Object(members) => {
                &mut members
                    .iter_mut()
                    .find(|(k, _)| k == seg)
                    .unwrap_or_else(|| panic!("no member {seg} in {path}"))
                    .1
            }
            Json::Array(items) => &mut items[seg.parse::<usize>().unwrap()],
            other => panic!("{path}: {seg} of {other:?}"),
        };
    }
    cur
}

fn num(text: &'static str) -> Json<'static> {
    Json::Number(Number::Text(text))
}

/// The (path, change) lines of the field-level differences of two files.
fn differences(format: Format, a: &[u8], b: &[u8]) -> Vec<String> {
    let (ta, tb) = (format.tree(a).unwrap(), format.tree(b).unwrap());
    diff_values(&ta, &tb)
        .iter()
        .map(|d| {
            let kind = match d.change {
                Change::Changed { .. } => "changed",
                Change::Added(_) => "added",
                Change::Removed(_) => "removed",
            };
            format!("{} {kind}", d.path)
        })
        .collect()
}

/// The first sample of `format` whose value satisfies `pick`, and the value.
fn sample<T>(
    list: Vec<(String, Vec<u8>)>,
    read: fn(&[u8]) -> mmd_formats::Result<T>,
    pick: impl Fn(&T) -> bool,
) -> (Vec<u8>, T) {
    list.into_iter()
        .map(|(_, b)| {
            let v = read(&b).unwrap();
            (b, v)
        })
        .find(|(_, v)| pick(v))
        .expect("a sample with what the test needs")
}

/// Dumps `bytes`, applies `edit` to the parsed JSON, and builds.
fn edit(
    format: Format,
    bytes: &[u8],
    edit: impl FnOnce(&mut Json<'_>),
) -> Result<Vec<u8>, json::JsonError> {
    let text = json::value_to_string(&format.json_tree(bytes).unwrap());
    let mut doc = json::parse(&text).unwrap().into_built().unwrap();
    edit(&mut doc);
    format.build_tree(&doc)
}

/// The byte offsets where `a` and `b` (of equal length) differ.
fn changed_offsets(a: &[u8], b: &[u8]) -> Vec<usize> {
    assert_eq!(a.len(), b.len());
    (0..a.len()).filter(|&i| a[i] != b[i]).collect()
}

#[test]
fn a_material_colour_changes_four_bytes() {
    let (bytes, pmx) = sample(samples::pmx_samples(), Pmx::from_bytes, |p| {
        !p.materials.is_empty()
    });
    let new = if pmx.materials[0].diffuse[0] == 0.25 {
        "0.75"
    } else {
        "0.25"
    };
    let out = edit(Format::Pmx, &bytes, |d| {
        *at(d, "materials.0.diffuse.0") = num(new)
    })
    .unwrap();
    let back = Pmx::from_bytes(&out).unwrap();
    assert_eq!(back.materials[0].diffuse[0], new.parse::<f32>().unwrap());
    assert_eq!(
        back.materials[0].diffuse[1..],
        pmx.materials[0].diffuse[1..]
    );
    let changed = changed_offsets(&bytes, &out);
    assert!(!changed.is_empty() && changed.len() <= 4, "{changed:?}");
    assert!(changed.last().unwrap() - changed[0] < 4, "{changed:?}");
    assert_eq!(
        differences(Format::Pmx, &bytes, &out),
        ["materials[0].diffuse[0] changed"]
    );
}

#[test]
fn a_bone_name_changes_its_length_and_nothing_else() {
    let (bytes, pmx) = sample(samples::pmx_samples(), Pmx::from_bytes, |p| {
        !p.bones.is_empty()
    });
    let old_len = pmx.bones[0].name.as_bytes().len();
    let out = edit(Format::Pmx, &bytes, |d| {
        *at(d, "bones.0.name") = Json::String(Cow::Borrowed("とても長い新しいボーンの名前"))
    })
    .unwrap();
    let back = Pmx::from_bytes(&out).unwrap();
    assert_eq!(
        back.bones[0].name.to_string(),
        "とても長い新しいボーンの名前"
    );
    let new_len = back.bones[0].name.as_bytes().len();
    assert_eq!(
        out.len() as i64 - bytes.len() as i64,
        new_len as i64 - old_len as i64
    );
    // Before the name's length prefix and after its bytes, the file is the same.
    let start = bytes.iter().zip(&out).position(|(a, b)| a != b).unwrap();
    let tail = bytes.len() - start - 4 - old_len;
    assert_eq!(bytes[bytes.len() - tail..], out[out.len() - tail..]);
    assert_eq!(
        differences(Format::Pmx, &bytes, &out),
        ["bones[0].name changed"]
    );
}

#[test]
fn a_key_added_to_a_vmd_track_moves_the_count() {
    let (bytes, vmd) = sample(samples::vmd_samples(), Vmd::from_bytes, |v| {
        !v.bone_keys.is_empty()
    });
    let n = vmd.bone_keys.len();
    let out = edit(Format::Vmd, &bytes, |d| {
        let Json::Array(keys) = at(d, "bone_keys") else {
            panic!()
        };
        let mut key = keys[0].clone();
        *at(&mut key, "frame") = num("4321");
        keys.push(key);
    })
    .unwrap();
    let back = Vmd::from_bytes(&out).unwrap();
    assert_eq!(back.bone_keys.len(), n + 1);
    let mut want: BoneKey = vmd.bone_keys[0];
    want.frame = 4321;
    assert_eq!(back.bone_keys[n], want);
    assert_eq!(out.len(), bytes.len() + 111);
    assert_eq!(
        differences(Format::Vmd, &bytes, &out),
        [format!("bone_keys[{n}] added")]
    );
}

#[test]
fn a_morph_offset_removed_moves_the_count() {
    let count = |o: &MorphOffsets| match o {
        MorphOffsets::Vertex(v) => v.len(),
        MorphOffsets::Bone(v) => v.len(),
        MorphOffsets::Material(v) => v.len(),
        MorphOffsets::Group(v) => v.len(),
        _ => 0,
    };
    let (bytes, pmx) = sample(samples::pmx_samples(), Pmx::from_bytes, |p| {
        p.morphs.iter().any(|m| count(&m.offsets) > 0)
    });
    let i = pmx
        .morphs
        .iter()
        .position(|m| count(&m.offsets) > 0)
        .unwrap();
    let n = count(&pmx.morphs[i].offsets);
    let mut variant = String::new();
    let out = edit(Format::Pmx, &bytes, |d| {
        let Json::Object(members) = at(d, &format!("morphs.{i}.offsets")) else {
            panic!()
        };
        variant = members[0].0.to_string();
        let Json::Array(items) = &mut members[0].1 else {
            panic!()
        };
        items.pop();
    })
    .unwrap();
    let back = Pmx::from_bytes(&out).unwrap();
    assert_eq!(count(&back.morphs[i].offsets), n - 1);
    assert!(out.len() < bytes.len());
    assert_eq!(
        differences(Format::Pmx, &bytes, &out),
        [format!("morphs[{i}].offsets.{variant}[{}] removed", n - 1)]
    );
}

/// A VMD whose one bone key's name has junk after its NUL (as real files do).
fn vmd_with_junk() -> Vec<u8> {
    let mut vmd = Vmd::new("model").unwrap();
    let mut raw = [0xFDu8; 15];
    let name = ShiftJis::<15>::new("センター").unwrap();
    raw[..9].copy_from_slice(&name.0[..9]);
    vmd.bone_keys.push(BoneKey::new(
        ShiftJis(raw),
        0,
        [0.0; 3],
        [0.0, 0.0, 0.0, 1.0],
    ));
    vmd.to_bytes().unwrap()
}

#[test]
fn the_text_rule_keeps_raw_unless_the_text_was_edited() {
    let bytes = vmd_with_junk();
    let text = json::value_to_string(&Format::Vmd.json_tree(&bytes).unwrap());
    assert!(
        text.contains(r#""name":{"text":"センター","raw":"835a8393835e815b00fdfdfdfdfdfd","encoding":"shift_jis"}"#),
        "{text}"
    );
    // Unchanged: the junk is kept.
    assert_eq!(Format::Vmd.build(&text).unwrap(), bytes);
    // `raw` alone: kept.
    let raw_only = text.replace(r#""text":"センター","#, "");
    assert_eq!(Format::Vmd.build(&raw_only).unwrap(), bytes);
    // The text edited: encoded, NUL and zeros after it (the junk goes with the old name).
    let edited = text.replace(r#""text":"センター""#, r#""text":"上半身""#);
    let out = Format::Vmd.build(&edited).unwrap();
    let key = &Vmd::from_bytes(&out).unwrap().bone_keys[0];
    assert_eq!(key.name, ShiftJis::<15>::new("上半身").unwrap());
    assert_eq!(
        differences(Format::Vmd, &bytes, &out),
        ["bone_keys[0].name changed"]
    );
    // Edited text that does not fit, or cannot be encoded, is an error.
    let long = text.replace(r#""text":"センター""#, r#""text":"センター上半身下半身""#);
    assert_eq!(
        Format::Vmd.build(&long).unwrap_err().to_string(),
        "$.bone_keys[0].name: 20 bytes do not fit the 15-byte field"
    );
    let foreign = text.replace(r#""text":"センター""#, r#""text":"😀""#);
    assert_eq!(
        Format::Vmd.build(&foreign).unwrap_err().to_string(),
        "$.bone_keys[0].name: '😀' (U+1F600) has no Shift_JIS form"
    );
    // `encoding` names the field's encoding.
    let wrong = text.replace(r#""encoding":"shift_jis""#, r#""encoding":"utf-8""#);
    assert_eq!(
        Format::Vmd.build(&wrong).unwrap_err().to_string(),
        "$.bone_keys[0].name.encoding: the field's encoding is shift_jis, not the string \"utf-8\""
    );
}

#[test]
fn pmx_text_that_does_not_decode_keeps_its_bytes_until_edited() {
    let mut pmx = Pmx::new("m", &Default::default());
    pmx.model.comment =
        mmd_formats::PmxText::from_raw(vec![0x00, 0xD8], mmd_formats::TextEncoding::Utf16Le);
    let bytes = pmx.to_bytes().unwrap();
    let text = json::value_to_string(&Format::Pmx.json_tree(&bytes).unwrap());
    assert!(
        text.contains(r#""comment":{"text":"�","raw":"00d8","encoding":"utf-16le"}"#),
        "{text}"
    );
    assert_eq!(Format::Pmx.build(&text).unwrap(), bytes);
    let edited = text.replace(r#""text":"�""#, r#""text":"ok""#);
    let back = Pmx::from_bytes(&Format::Pmx.build(&edited).unwrap()).unwrap();
    assert_eq!(back.model.comment.as_bytes(), b"o\0k\0");
}

/// The error of building the JSON of `bytes` after `change` (a text replacement that must
/// apply).
fn error_after(format: Format, bytes: &[u8], from: &str, to: &str) -> String {
    let text = json::value_to_string(&format.json_tree(bytes).unwrap());
    assert!(text.contains(from), "{from} is not in {text}");
    let changed = text.replacen(from, to, 1);
    format.build(&changed).unwrap_err().to_string()
}

#[test]
fn json_that_breaks_the_grammar_names_the_path() {
    // A PMX with 1-byte bone indices, a bone whose inherit flag is clear, vertices.
    let (bytes, pmx) = sample(samples::pmx_samples(), Pmx::from_bytes, |p| {
        p.header.globals[5] == 1 && !p.bones.is_empty() && !p.vertices.is_empty()
    });
    let pmx_err = |from: &str, to: &str| error_after(Format::Pmx, &bytes, from, to);
    let version = format!("\"version\":{:?}", pmx.header.version);
    assert_eq!(
        pmx_err(&version, "\"version\":\"2.0\""),
        "$.header.version: expected a number (or {\"float\", \"bits\"}), found the string \"2.0\""
    );
    assert_eq!(
        pmx_err("\"parent\":", "\"parent\":200,\"was\":"),
        "$.bones[0]: unknown member `was` of a Bone; its members are `name`, `name_en`, \
         `position`, `parent`, `layer`, `flags`, `tail`, `inherit`, `fixed_axis`, \
         `local_axes`, `external_parent` and `ik`"
    );
    let parent = format!("\"parent\":{}", pmx.bones[0].parent.raw());
    assert_eq!(
        pmx_err(&parent, "\"parent\":200"),
        "$.bones[0].parent: bone index 200 does not fit the declared 1-byte width (-128 to 127)"
    );
    assert_eq!(
        pmx_err("\"name_en\":", "\"nom\":"),
        "$.model: unknown member `nom` of a ModelInfo; its members are `name`, `name_en`, \
         `comment` and `comment_en`"
    );
    let weight = "\"weight\":{\"B";
    let e = pmx_err(weight, "\"weight\":{\"Bxdef9");
    assert!(
        e.starts_with("$.vertices[0].weight: unknown variant `Bxdef9"),
        "{e}"
    );
    assert!(
        e.ends_with("of Weight; expected `Bdef1`, `Bdef2`, `Bdef4`, `Sdef` or `Qdef`"),
        "{e}"
    );
    let uv = "\"additional_uv\":[";
    let n = pmx.vertices.get(0).expect("a vertex").additional_uv.len();
    assert_eq!(
        pmx_err(uv, "\"additional_uv\":[[0,0,0,0],"),
        format!(
            "$.vertices[0].additional_uv: expected {n} elements (`ctx.additional_uv`), found {}",
            n + 1
        )
    );
    assert_eq!(
        pmx_err(
            "\"inherit\":null",
            "\"inherit\":{\"parent\":0,\"weight\":1.0}"
        ),
        "$.bones[0].inherit: expected null, because \
         `flags.intersects(BoneFlags::INHERIT_ROTATION | BoneFlags::INHERIT_TRANSLATION)` \
         does not hold"
    );
    let globals = "\"globals\":{\"hex\":\"";
    let g = &pmx.header.globals;
    let hex: String = g.iter().map(|b| format!("{b:02x}")).collect();
    let mut bad = g.clone();
    bad[5] = 3;
    let bad_hex: String = bad.iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(
        pmx_err(&format!("{globals}{hex}"), &format!("{globals}{bad_hex}")),
        "$.header.globals[5]: bone index width 3: expected a bone index width of 1, 2 or 4"
    );
    let many = "00".repeat(256);
    assert_eq!(
        pmx_err(&format!("{globals}{hex}"), &format!("{globals}{hex}{many}")),
        format!(
            "$.header.globals: {} elements: the count before them is a u8, which cannot hold it",
            g.len() + 256
        )
    );
    // A missing member, and text that is not JSON.
    let text = json::value_to_string(&Format::Pmx.json_tree(&bytes).unwrap());
    let mut doc = json::parse(&text).unwrap().into_built().unwrap();
    let Json::Object(members) = at(&mut doc, "bones.0") else {
        panic!()
    };
    members.retain(|(k, _)| k != "position");
    assert_eq!(
        Format::Pmx.build_tree(&doc).unwrap_err().to_string(),
        "$.bones[0]: missing member `position` of a Bone"
    );
    assert_eq!(
        Format::Pmx
            .build("{\"header\": [1,}")
            .unwrap_err()
            .to_string(),
        "line 1, column 15: expected a value, found `}`"
    );
}

#[test]
fn flags_and_floats_read_back_in_every_form() {
    let (bytes, pmx) = sample(samples::pmx_samples(), Pmx::from_bytes, |p| {
        !p.bones.is_empty()
    });
    let bits = pmx.bones[0].flags.bits();
    let text = json::value_to_string(&Format::Pmx.json_tree(&bytes).unwrap());
    let bones_at = text.find("\"bones\":[{\"name\"").unwrap();
    let flags_at = bones_at + text[bones_at..].find("\"flags\":{").unwrap();
    let end = flags_at + text[flags_at..].find('}').unwrap() + 1;
    let with = |flags: &str| format!("{}\"flags\":{flags}{}", &text[..flags_at], &text[end..]);
    // Bits alone, names alone (when no unknown bit is set), both agreeing: the same file.
    let same = |out: Vec<u8>| mmd_tests::assert_bytes_eq(&out, &bytes, "flags");
    same(
        Format::Pmx
            .build(&with(&format!("{{\"bits\":{bits}}}")))
            .unwrap(),
    );
    let names: Vec<String> = mmd_formats::walk::Value::of(&pmx.bones[0].flags)
        .as_leaf()
        .unwrap()
        .flag_names()
        .iter()
        .map(|n| format!("{n:?}"))
        .collect();
    same(
        Format::Pmx
            .build(&with(&format!("{{\"names\":[{}]}}", names.join(","))))
            .unwrap(),
    );
    // Disagreeing: an error naming both.
    let err = Format::Pmx
        .build(&with(&format!("{{\"bits\":{},\"names\":[]}}", bits | 1)))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("$.bones[0].flags: `bits`"), "{err}");
    assert!(err.ends_with("change both, or give only one"), "{err}");
    // A float by its bits; a NaN with a payload keeps it.
    let mut doc = json::parse(&text).unwrap().into_built().unwrap();
    *at(&mut doc, "bones.0.position.0") =
        json::parse("{\"float\":\"NaN\",\"bits\":\"7fc00123\"}").unwrap();
    let back = Pmx::from_bytes(&Format::Pmx.build_tree(&doc).unwrap()).unwrap();
    assert_eq!(back.bones[0].position[0].to_bits(), 0x7fc0_0123);
    let dumped = json::value_to_string(&mmd_formats::walk::Value::of(&back));
    assert!(
        dumped.contains("{\"float\":\"NaN\",\"bits\":\"7fc00123\"}"),
        "{dumped}"
    );
    *at(&mut doc, "bones.0.position.0") =
        json::parse("{\"float\":\"inf\",\"bits\":\"7fc00123\"}").unwrap();
    assert_eq!(
        Format::Pmx.build_tree(&doc).unwrap_err().to_string(),
        "$.bones[0].position[0].float: the bits 7fc00123 are NaN, not the string \"inf\""
    );
    // -0.0 and a denormal survive as numbers.
    *at(&mut doc, "bones.0.position.0") = num("-0.0");
    *at(&mut doc, "bones.0.position.1") = num("1e-45");
    let back = Pmx::from_bytes(&Format::Pmx.build_tree(&doc).unwrap()).unwrap();
    assert_eq!(back.bones[0].position[0].to_bits(), 0x8000_0000);
    assert_eq!(back.bones[0].position[1].to_bits(), 1);
}
