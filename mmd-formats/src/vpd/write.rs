//! The VPD writer for new files, in MMD's template, and MMD's number format.

use super::{LineEnding, Pose, MAGIC};
use crate::error::{Error, Result};

/// Formats a value as C `%f` does for MMD (six decimals, `-` kept on `-0.000000`).
/// `None` for NaN and infinities, which MMD's form cannot hold.
pub(super) fn format_number(v: f32) -> Option<String> {
    v.is_finite().then(|| format!("{:.6}", f64::from(v)))
}

/// The `%f` texts of `values` with the values they read back as; an error (at output
/// offset `offset`, path `field`) for a value that is not finite.
pub(super) fn number_texts<const N: usize>(
    values: &[f32; N],
    field: &'static str,
    offset: u64,
) -> Result<[(String, f32); N]> {
    let mut out: [(String, f32); N] = std::array::from_fn(|_| (String::new(), 0.0));
    for (slot, &v) in out.iter_mut().zip(values) {
        let text = format_number(v).ok_or_else(|| {
            Error::inconsistent(offset, "a finite number", format!("{v}")).in_field(field)
        })?;
        // Cannot fail for `{:.6}` output; fall back to the value itself regardless.
        let back = text.parse::<f32>().unwrap_or(v);
        *slot = (text, back);
    }
    Ok(out)
}

/// Encodes a name as Shift_JIS, failing when it cannot be written so that it reads back
/// as the same text on the same kind of line.
fn encode_name(s: &str, offset: usize, model_file: bool) -> Result<Vec<u8>> {
    let fail = |expected: &str| {
        Err(Error::inconsistent(
            offset as u64,
            expected,
            format!("{s:?}"),
        ))
    };
    if s.contains(['\r', '\n']) {
        return fail("a name without line breaks");
    }
    if model_file {
        if s.contains(';') {
            return fail("a model file name without `;` (it ends the name)");
        }
        if s.starts_with("//") {
            return fail("a model file name that does not start with `//` (a comment line)");
        }
        if s.trim_matches([' ', '\t']) != s {
            return fail("a model file name without spaces or TABs at either end");
        }
    }
    let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(s);
    if unmappable {
        return fail("text that Shift_JIS can encode");
    }
    let (back, had_errors) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(&bytes);
    if had_errors || back != s {
        return fail("text that Shift_JIS gives back unchanged");
    }
    Ok(bytes.into_owned())
}

fn sjis(s: &str) -> Vec<u8> {
    encoding_rs::SHIFT_JIS.encode(s).0.into_owned()
}

/// Appends `values` in `%f` form joined by `,`.
fn push_numbers(out: &mut Vec<u8>, values: &[f32], field: &'static str) -> Result<()> {
    for (k, &v) in values.iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        let text = format_number(v).ok_or_else(|| {
            Error::inconsistent(out.len() as u64, "a finite number", format!("{v}")).in_field(field)
        })?;
        out.extend_from_slice(text.as_bytes());
    }
    Ok(())
}

/// Writes `pose` in MMD's template (see [`Vpd::from_pose`](super::Vpd::from_pose)).
pub(super) fn write_pose(pose: &Pose, eol: LineEnding) -> Result<Vec<u8>> {
    let eol = eol.as_bytes();
    let mut out = Vec::with_capacity(128 + 96 * (pose.bones.len() + pose.morphs.len()));
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(eol);
    out.extend_from_slice(eol);

    let model =
        encode_name(&pose.model_file, out.len(), true).map_err(|e| e.in_field("model_file"))?;
    out.extend_from_slice(&model);
    out.extend_from_slice(b";\t\t");
    out.extend_from_slice(&sjis("// 親ファイル名"));
    out.extend_from_slice(eol);

    out.extend_from_slice(pose.bones.len().to_string().as_bytes());
    out.extend_from_slice(b";\t\t\t\t");
    out.extend_from_slice(&sjis("// 総ポーズボーン数"));
    out.extend_from_slice(eol);
    out.extend_from_slice(eol);

    for (i, bone) in pose.bones.iter().enumerate() {
        let in_bone = |e: Error| e.in_index(i).in_field("bones");
        let name =
            encode_name(&bone.name, out.len(), false).map_err(|e| in_bone(e.in_field("name")))?;
        out.extend_from_slice(format!("Bone{i}{{").as_bytes());
        out.extend_from_slice(&name);
        out.extend_from_slice(eol);
        out.extend_from_slice(b"  ");
        push_numbers(&mut out, &bone.translation, "translation").map_err(in_bone)?;
        out.extend_from_slice(b";\t\t\t\t// trans x,y,z");
        out.extend_from_slice(eol);
        out.extend_from_slice(b"  ");
        push_numbers(&mut out, &bone.rotation, "rotation").map_err(in_bone)?;
        out.extend_from_slice(b";\t\t// Quaternion x,y,z,w");
        out.extend_from_slice(eol);
        out.push(b'}');
        out.extend_from_slice(eol);
        out.extend_from_slice(eol);
    }

    for (i, morph) in pose.morphs.iter().enumerate() {
        let in_morph = |e: Error| e.in_index(i).in_field("morphs");
        let name =
            encode_name(&morph.name, out.len(), false).map_err(|e| in_morph(e.in_field("name")))?;
        out.extend_from_slice(format!("Morph{i}{{").as_bytes());
        out.extend_from_slice(&name);
        out.extend_from_slice(eol);
        out.extend_from_slice(b"  ");
        push_numbers(&mut out, &[morph.weight], "weight").map_err(in_morph)?;
        out.extend_from_slice(b";\t\t\t\t// weight");
        out.extend_from_slice(eol);
        out.push(b'}');
        out.extend_from_slice(eol);
        out.extend_from_slice(eol);
    }
    Ok(out)
}
