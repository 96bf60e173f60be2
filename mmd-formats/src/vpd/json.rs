//! The JSON form of a VPD file, both ways, by hand (VPD has a hand-written codec).
//!
//! Printed: the walk (`signature`, `model_file`, `bone_count`, `bones` with `name`,
//! `translation` and `rotation`, `morphs` with `name` and `weight`), then `source`: the
//! whole file as text (a string when it is clean Shift_JIS, else `{"text", "raw",
//! "encoding"}`), which keeps what the values do not: comments, indentation, line ends,
//! number formatting.
//!
//! Read back: the file is `source`, with every value that differs from it rewritten and
//! nothing else touched: a changed number is written in MMD's `%f` form (six decimals)
//! when that reads back as the same `f32`, else in the shortest form that does; a changed
//! name or model file is encoded as Shift_JIS (the [text rule](crate::json) applies);
//! a changed `bone_count` rewrites the count's digits (it is written as given: a count
//! that disagrees with the blocks is kept, as on read); bone and morph blocks past those
//! of `source` are added after the last block of their kind, in MMD's template, and
//! blocks `source` has beyond the JSON's are removed. Without `source`, the file is
//! written as MMD writes a new one (CR LF line ends). The result must read back with the
//! JSON's values, or it is an error.

use super::{Num, Span, Vpd};
use crate::json::rt::magic;
use crate::json::{FromJson, Json, JsonError};
use crate::text::decode_sjis;
use crate::walk::{Leaf, Text, TextKind, Value};

impl Vpd {
    /// The tree `mmd dump --json` prints for the file: the [walk](crate::walk::Walk),
    /// and `source`, the whole text, which the JSON form needs to give the same bytes
    /// back (see [`FromJson`] for `Vpd`).
    pub fn json_tree(&self) -> crate::Result<Value> {
        let mut tree = Value::of(self);
        let leaf = self.source_leaf()?;
        if let Value::Struct { fields, .. } = &mut tree {
            fields.push(("source", Value::Leaf(leaf)));
        }
        Ok(tree)
    }

    /// The member `source` of [`Vpd::json_tree`] alone: the whole text as a leaf, for a
    /// printer that streams the walk and adds it at the end.
    pub fn source_leaf(&self) -> crate::Result<Leaf> {
        let src = self.to_bytes()?;
        let (text, had_errors) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(&src);
        let clean = !had_errors && encoding_rs::SHIFT_JIS.encode(&text).0 == src.as_slice();
        // Where it is not clean, the text the rule compares with: what `raw` decodes to.
        let text = if clean {
            text.into_owned()
        } else {
            decode_sjis(&src).into_owned()
        };
        let leaf = Leaf::Text(Box::new(Text {
            text,
            raw: src,
            kind: TextKind::ShiftJis,
            clean,
        }));
        Ok(leaf)
    }
}

/// The message for text holding a character Shift_JIS lacks: which character, where (its
/// line, column and character index), and at most 40 characters of the text around it
/// (a `source` may be megabytes long).
fn lacking(s: &str) -> String {
    let lacks = |c: char| {
        let mut buf = [0u8; 4];
        encoding_rs::SHIFT_JIS.encode(c.encode_utf8(&mut buf)).2
    };
    let Some((index, c)) = s.chars().enumerate().find(|&(_, c)| lacks(c)) else {
        return "the text has a character Shift_JIS lacks".to_owned();
    };
    let before: Vec<char> = s.chars().take(index).collect();
    let line = 1 + before.iter().filter(|&&b| b == '\n').count();
    let column = 1 + before.iter().rev().take_while(|&&b| b != '\n').count();
    let start = index.saturating_sub(20);
    let mut shown: String = s.chars().skip(start).take(40).collect();
    if start > 0 {
        shown.insert(0, '…');
    }
    if s.chars().nth(start + 40).is_some() {
        shown.push('…');
    }
    format!(
        "expected text Shift_JIS can encode, found {c:?} (U+{:04X}) at line {line}, column \
         {column} (character {index}): {shown:?}",
        u32::from(c)
    )
}

/// Shift_JIS text given in JSON (the [text rule](crate::json)): a string is encoded; an
/// object keeps `raw` unless `text` differs from what it decodes to.
fn sjis_text(json: &Json<'_>) -> Result<Vec<u8>, JsonError> {
    let encode = |s: &str| -> Result<Vec<u8>, JsonError> {
        let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(s);
        if unmappable {
            return Err(JsonError::new(lacking(s)));
        }
        Ok(bytes.into_owned())
    };
    match json {
        Json::String(s) => encode(s),
        Json::Object(_) => {
            let raw = json
                .get("raw")
                .and_then(Json::as_str)
                .ok_or_else(|| JsonError::new("text given as an object needs `raw` (hex)"))
                .and_then(crate::json::hex_decode)?;
            if let Some(e) = json.get("encoding") {
                if e.as_str() != Some("shift_jis") {
                    return Err(JsonError::new(format!(
                        "the encoding is shift_jis, not {}",
                        e.describe()
                    ))
                    .in_field("encoding"));
                }
            }
            match json.get("text").map(|t| t.as_str().ok_or(t)) {
                None => Ok(raw),
                Some(Err(t)) => Err(JsonError::expected("a string", t).in_field("text")),
                Some(Ok(t)) if t != decode_sjis(&raw) => encode(t),
                Some(Ok(_)) => Ok(raw),
            }
        }
        other => Err(JsonError::expected(
            "text: a string, or {\"text\", \"raw\", \"encoding\"}",
            other,
        )),
    }
}

/// One block's values, as the JSON gives them.
struct Block {
    name: Vec<u8>,
    numbers: Vec<f32>,
}

fn blocks(
    json: &Json<'_>,
    fields: &'static [&'static str],
    sizes: &[usize],
) -> Result<Vec<Block>, JsonError> {
    let items = json
        .elements()
        .ok_or_else(|| JsonError::expected("an array", json))?;
    // Room for the blocks as they are built (see `FromJson::seq_from_json`).
    let mut out = Vec::new();
    for (i, item) in items.enumerate() {
        let b = (|| {
            let item = item?;
            let o = crate::json::rt::object(&item, "block", fields)?;
            let name = sjis_text(o.get(0)).map_err(|e| e.in_field(fields[0]))?;
            let mut numbers = Vec::new();
            for (k, &n) in sizes.iter().enumerate() {
                let j = o.get(k + 1);
                let field = fields[k + 1];
                if n == 1 {
                    numbers.push(f32::from_json(j, &()).map_err(|e| e.in_field(field))?);
                } else {
                    let v = Vec::<f32>::from_json(j, &()).map_err(|e| e.in_field(field))?;
                    if v.len() != n {
                        return Err(JsonError::new(format!(
                            "expected an array of {n}, found an array of {}",
                            v.len()
                        ))
                        .in_field(field));
                    }
                    numbers.extend(v);
                }
            }
            Ok(Block { name, numbers })
        })()
        .map_err(|e: JsonError| e.in_index(i))?;
        out.push(b);
    }
    Ok(out)
}

/// The text of a new value: `%f` when it reads back as the same `f32`, else the shortest
/// form that does.
fn number_text(v: f32) -> Result<String, JsonError> {
    if !v.is_finite() {
        return Err(JsonError::new(format!(
            "{v:?}: a VPD number is written as text, which holds only finite numbers"
        )));
    }
    let f = format!("{:.6}", f64::from(v));
    if f.parse::<f32>().is_ok_and(|b| b.to_bits() == v.to_bits()) {
        return Ok(f);
    }
    Ok(format!("{v}"))
}

/// A replacement of `start..end` of the source by `bytes`.
struct Edit {
    start: usize,
    end: usize,
    bytes: Vec<u8>,
}

impl Vpd {
    /// The line end the file uses (CR LF unless its first line ends in LF alone).
    fn eol(&self) -> &'static [u8] {
        match self.src.iter().position(|&b| b == b'\n') {
            Some(i) if i == 0 || self.src[i - 1] != b'\r' => b"\n",
            _ => b"\r\n",
        }
    }

    /// The extent of each block: from its keyword's line to where the next text resumes.
    fn extent(&self, name: Span, last: &Num) -> (usize, usize) {
        let start = self.line_start(name.start) as usize;
        // Back to the start of the line, indentation included.
        let start = self.src[..start]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let end = self.block_end(last.span.end) as usize;
        let end = match self
            .src
            .get(end..)
            .and_then(|r| r.iter().position(|&b| b == b'\n'))
        {
            Some(i) => end + i + 1,
            None => self.src.len(),
        };
        let mut p = end;
        loop {
            let rest = self.src.get(p..).unwrap_or(&[]);
            let line_len = rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(rest.len(), |i| i + 1);
            if line_len == 0
                || !rest[..line_len]
                    .iter()
                    .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
            {
                return (start, p);
            }
            p += line_len;
        }
    }
}

/// A new block in MMD's template.
fn block_text(
    keyword: &str,
    index: usize,
    b: &Block,
    comments: &[&str],
    eol: &[u8],
) -> Result<Vec<u8>, JsonError> {
    let mut out = format!("{keyword}{index}{{").into_bytes();
    out.extend_from_slice(&b.name);
    out.extend_from_slice(eol);
    let mut at = 0;
    for (n, comment) in comments.iter().enumerate() {
        let len = if keyword == "Bone" { [3, 4][n] } else { 1 };
        out.extend_from_slice(b"  ");
        for k in 0..len {
            if k > 0 {
                out.push(b',');
            }
            let text = number_text(b.numbers[at + k]).map_err(|e| at_number(e, keyword, at + k))?;
            out.extend_from_slice(text.as_bytes());
        }
        at += len;
        out.extend_from_slice(comment.as_bytes());
        out.extend_from_slice(eol);
    }
    out.push(b'}');
    out.extend_from_slice(eol);
    out.extend_from_slice(eol);
    Ok(out)
}

/// The error about number `k` of a block (its numbers counted across its fields, as
/// `Block` holds them) at its JSON path inside the block: `translation[k]`,
/// `rotation[k - 3]` or `weight`.
fn at_number(e: JsonError, keyword: &str, k: usize) -> JsonError {
    match (keyword, k) {
        ("Bone", 0..=2) => e.in_index(k).in_field("translation"),
        ("Bone", _) => e.in_index(k - 3).in_field("rotation"),
        _ => e.in_field("weight"),
    }
}

const BONE_FIELDS: &[&str] = &["name", "translation", "rotation"];
const MORPH_FIELDS: &[&str] = &["name", "weight"];
const BONE_COMMENTS: &[&str] = &[";\t\t\t\t// trans x,y,z", ";\t\t// Quaternion x,y,z,w"];
const MORPH_COMMENTS: &[&str] = &[";\t\t\t\t// weight"];

/// Edits for the blocks of one kind: values rewritten, blocks removed or added.
#[allow(clippy::too_many_arguments)]
fn block_edits(
    base: &Vpd,
    have: &[(Span, Vec<&Num>)],
    want: &[Block],
    keyword: &str,
    comments: &[&str],
    insert_at: usize,
    field: &'static str,
    edits: &mut Vec<Edit>,
) -> Result<(), JsonError> {
    for (i, ((name, nums), b)) in have.iter().zip(want).enumerate() {
        if base.bytes(*name) != b.name.as_slice() {
            edits.push(Edit {
                start: name.start,
                end: name.end,
                bytes: b.name.clone(),
            });
        }
        for (k, (num, &v)) in nums.iter().zip(&b.numbers).enumerate() {
            if num.value.to_bits() != v.to_bits() {
                let text = number_text(v)
                    .map_err(|e| at_number(e, keyword, k).in_index(i).in_field(field))?;
                edits.push(Edit {
                    start: num.span.start,
                    end: num.span.end,
                    bytes: text.into_bytes(),
                });
            }
        }
    }
    for (name, nums) in have.iter().skip(want.len()) {
        let (start, end) = base.extent(*name, nums.last().copied().expect("a block has numbers"));
        edits.push(Edit {
            start,
            end,
            bytes: Vec::new(),
        });
    }
    let mut added = Vec::new();
    for (i, b) in want.iter().enumerate().skip(have.len()) {
        added.extend(
            block_text(keyword, i, b, comments, base.eol())
                .map_err(|e| e.in_index(i).in_field(field))?,
        );
    }
    if !added.is_empty() {
        edits.push(Edit {
            start: insert_at,
            end: insert_at,
            bytes: added,
        });
    }
    Ok(())
}

/// The VPD form of [the JSON rules](crate::json), from what [`Vpd::json_tree`] prints.
///
/// The file is `source`, with every value that differs from it rewritten and nothing else
/// touched: a changed number is written in MMD's `%f` form (six decimals) when that reads
/// back as the same `f32`, else in the shortest form that does; a changed name or model
/// file is encoded as Shift_JIS (the text rule applies); a changed `bone_count` rewrites
/// the count's digits (it is written as given: a count that disagrees with the blocks is
/// kept, as on read); bone and morph blocks past those of `source` are added after the
/// last block of their kind, in MMD's template, and blocks `source` has beyond the JSON's
/// are removed. Without `source`, the file is written as MMD writes a new one (CR LF line
/// ends). The result must read back with the JSON's values, or it is an error.
impl<C: ?Sized> FromJson<C> for Vpd {
    fn from_json(json: &Json<'_>, _ctx: &C) -> Result<Self, JsonError> {
        const ALL: &[&str] = &[
            "signature",
            "model_file",
            "bone_count",
            "bones",
            "morphs",
            "source",
        ];
        let Json::Object(members) = json else {
            return Err(JsonError::expected("an object (a Vpd)", json));
        };
        for (k, _) in members {
            if !ALL.contains(&k.as_ref()) {
                return Err(JsonError::new(format!(
                    "unknown member `{k}` of a Vpd; its members are `signature`, `model_file`, \
                     `bone_count`, `bones`, `morphs` and `source`"
                )));
            }
        }
        let get = |name: &'static str| {
            json.get(name)
                .ok_or_else(|| JsonError::new(format!("missing member `{name}` of a Vpd")))
        };
        magic(get("signature")?, super::MAGIC).map_err(|_| {
            JsonError::new("expected the signature \"Vocaloid Pose Data file\"")
                .in_field("signature")
        })?;
        let model_file = sjis_text(get("model_file")?).map_err(|e| e.in_field("model_file"))?;
        let bone_count =
            u32::from_json(get("bone_count")?, &()).map_err(|e| e.in_field("bone_count"))?;
        let bones = blocks(get("bones")?, BONE_FIELDS, &[3, 4]).map_err(|e| e.in_field("bones"))?;
        let morphs =
            blocks(get("morphs")?, MORPH_FIELDS, &[1]).map_err(|e| e.in_field("morphs"))?;
        let base = match json.get("source") {
            Some(s) => {
                let bytes = sjis_text(s).map_err(|e| e.in_field("source"))?;
                Vpd::from_bytes(&bytes).map_err(|e| {
                    JsonError::new(format!("is not a VPD file: {e}")).in_field("source")
                })?
            }
            None => Vpd::new("").map_err(|e| JsonError::new(e.to_string()))?,
        };

        let mut edits = Vec::new();
        if base.model_file_bytes() != model_file.as_slice() {
            edits.push(Edit {
                start: base.model_file.start,
                end: base.model_file.end,
                bytes: model_file.clone(),
            });
        }
        if base.declared_bone_count != bone_count {
            let s = base.bone_count_span;
            edits.push(Edit {
                start: s.start,
                end: s.end,
                bytes: bone_count.to_string().into_bytes(),
            });
        }
        let have_bones: Vec<(Span, Vec<&Num>)> = base
            .bones
            .iter()
            .map(|b| (b.name, b.translation.iter().chain(&b.rotation).collect()))
            .collect();
        let have_morphs: Vec<(Span, Vec<&Num>)> = base
            .morphs
            .iter()
            .map(|m| (m.name, vec![&m.weight]))
            .collect();
        let kept_end = |have: &[(Span, Vec<&Num>)], n: usize| {
            have.get(..n)
                .and_then(<[_]>::last)
                .map(|(name, nums)| base.extent(*name, nums.last().copied().expect("numbers")).1)
        };
        let bones_at = kept_end(&have_bones, bones.len())
            .or_else(|| {
                have_morphs
                    .first()
                    .map(|(name, nums)| base.extent(*name, nums[0]).0)
            })
            .unwrap_or(base.src.len());
        let morphs_at = kept_end(&have_morphs, morphs.len())
            .or_else(|| kept_end(&have_bones, have_bones.len()))
            .unwrap_or(base.src.len());
        block_edits(
            &base,
            &have_bones,
            &bones,
            "Bone",
            BONE_COMMENTS,
            bones_at,
            "bones",
            &mut edits,
        )?;
        block_edits(
            &base,
            &have_morphs,
            &morphs,
            "Morph",
            MORPH_COMMENTS,
            morphs_at,
            "morphs",
            &mut edits,
        )?;

        // Apply in source order (a stable sort keeps bone insertions before morph ones).
        edits.sort_by_key(|e| (e.start, e.end));
        let mut out = Vec::with_capacity(base.src.len() + 64);
        let mut pos = 0;
        for e in &edits {
            if e.start < pos {
                continue;
            }
            out.extend_from_slice(&base.src[pos..e.start]);
            out.extend_from_slice(&e.bytes);
            pos = e.end;
        }
        out.extend_from_slice(&base.src[pos..]);
        let vpd = Vpd::from_bytes(&out).map_err(|e| {
            JsonError::new(format!("the values do not make a VPD file that reads: {e}"))
        })?;
        check_reads_back(&vpd, &model_file, bone_count, &bones, &morphs)?;
        Ok(vpd)
    }
}

/// The file built must read back with the JSON's values (a name with a line break or a
/// `{` could change how it reads).
fn check_reads_back(
    vpd: &Vpd,
    model_file: &[u8],
    bone_count: u32,
    bones: &[Block],
    morphs: &[Block],
) -> Result<(), JsonError> {
    let wrong = |what: String| JsonError::new(format!("{what} would not read back as given"));
    if vpd.model_file_bytes() != model_file {
        return Err(wrong("the model file name".into()).in_field("model_file"));
    }
    if vpd.declared_bone_count != bone_count {
        return Err(wrong("the bone count".into()).in_field("bone_count"));
    }
    if vpd.bones.len() != bones.len() || vpd.morphs.len() != morphs.len() {
        return Err(wrong(
            "the number of blocks (a name that breaks the layout?)".into(),
        ));
    }
    for (i, (b, want)) in vpd.bones.iter().zip(bones).enumerate() {
        let nums: Vec<u32> = b
            .translation
            .iter()
            .chain(&b.rotation)
            .map(|n| n.value.to_bits())
            .collect();
        let want_nums: Vec<u32> = want.numbers.iter().map(|v| v.to_bits()).collect();
        if vpd.bytes(b.name) != want.name.as_slice() || nums != want_nums {
            return Err(wrong("the bone".into()).in_index(i).in_field("bones"));
        }
    }
    for (i, (m, want)) in vpd.morphs.iter().zip(morphs).enumerate() {
        if vpd.bytes(m.name) != want.name.as_slice()
            || m.weight.value.to_bits() != want.numbers[0].to_bits()
        {
            return Err(wrong("the morph".into()).in_index(i).in_field("morphs"));
        }
    }
    Ok(())
}

/// `serde::Serialize` in the JSON form of this module ([`Vpd::json_tree`]).
#[cfg(feature = "serde")]
impl serde::Serialize for Vpd {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::Error;
        self.json_tree().map_err(S::Error::custom)?.serialize(s)
    }
}

/// `serde::Deserialize` from the JSON form of this module (see [`FromJson`] for `Vpd`).
#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Vpd {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        crate::json::deserialize(d)
    }
}
