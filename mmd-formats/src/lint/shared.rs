//! What the PMX and PMD checks share: names as motions see them, faces and materials,
//! duplicate names, IK loop counts.

use std::collections::HashMap;

use super::{finding, Finding};

/// The longest bone or morph name a VMD key holds, in Shift_JIS bytes.
pub const VMD_NAME_BYTES: usize = 15;

/// MMD's largest IK loop count (PMX 2.0 specification).
pub const MAX_IK_LOOPS: i64 = 255;

/// A name as Shift_JIS bytes; `None` when a character has no Shift_JIS form.
pub fn sjis(name: &str) -> Option<Vec<u8>> {
    let (bytes, _, unmappable) = encoding_rs::SHIFT_JIS.encode(name);
    (!unmappable).then(|| bytes.into_owned())
}

/// W012 / W013 for a name of `len` Shift_JIS bytes.
pub fn name_length(
    out: &mut Vec<Finding>,
    code: &str,
    what: &str,
    path: String,
    shown: &str,
    len: usize,
) {
    if len > VMD_NAME_BYTES {
        out.push(finding(
            code,
            path,
            format!(
                "{shown:?} is {len} bytes in Shift_JIS; a VMD key holds {VMD_NAME_BYTES}, so \
                 no motion can move this {what}"
            ),
        ));
    }
}

/// W015 / W016: every name after the first with the same bytes, naming the first.
pub fn duplicates<'a>(
    out: &mut Vec<Finding>,
    code: &str,
    section: &str,
    names: impl Iterator<Item = (&'a [u8], String)>,
) {
    let mut first: HashMap<&[u8], usize> = HashMap::new();
    for (i, (key, shown)) in names.enumerate() {
        if key.is_empty() {
            continue;
        }
        match first.get(key) {
            Some(&j) => out.push(finding(
                code,
                format!("{section}[{i}].name"),
                format!(
                    "{shown:?} is also the name of {section}[{j}]; a motion binds by name, so \
                     only one of them moves"
                ),
            )),
            None => {
                first.insert(key, i);
            }
        }
    }
}

/// W004 / W005 for an IK loop count.
pub fn loop_count(out: &mut Vec<Finding>, path: String, loops: i64) {
    if loops <= 0 {
        out.push(finding(
            "W004",
            path,
            format!("the IK loops {loops} times, so it never moves its chain"),
        ));
    } else if loops > MAX_IK_LOOPS {
        out.push(finding(
            "W005",
            path,
            format!("the IK loops {loops} times; MMD runs at most {MAX_IK_LOOPS}"),
        ));
    }
}

/// E004, E005, E006, W007 for a face list of `faces` vertex indices (as `u64`, each
/// checked against `vertices`) and the materials' counts (`material_path(i)` is where
/// material `i`'s count is).
pub fn faces(
    out: &mut Vec<Finding>,
    faces: impl ExactSizeIterator<Item = u64>,
    vertices: usize,
    counts: &[i64],
    material_path: impl Fn(usize) -> String,
) {
    let total = faces.len();
    if !total.is_multiple_of(3) {
        out.push(finding(
            "E004",
            "faces.count",
            format!("{total} face indices are not whole triangles (3 indices each)"),
        ));
    }
    let of = format!("the model has {vertices} vertices");
    vertices_past_end(
        out,
        "E005",
        faces,
        vertices,
        |i| format!("faces[{i}]"),
        &of,
        "face indices",
    );
    let mut sum: i64 = 0;
    for (i, &c) in counts.iter().enumerate() {
        if c < 0 {
            out.push(finding(
                "E006",
                material_path(i),
                format!("the material's face count is negative ({c})"),
            ));
            continue;
        }
        if c % 3 != 0 {
            out.push(finding(
                "E004",
                material_path(i),
                format!("the material's face count {c} is not whole triangles (3 indices each)"),
            ));
        }
        sum = sum.saturating_add(c);
    }
    let total = total as i64;
    if sum > total {
        out.push(finding(
            "E006",
            "materials",
            format!(
                "the materials' face counts add up to {sum} indices; the face list has {total}"
            ),
        ));
    } else if sum < total {
        out.push(finding(
            "W007",
            "materials",
            format!(
                "the materials' face counts add up to {sum} indices; the face list has {total}, \
                 so its last {} are never drawn",
                total - sum
            ),
        ));
    }
}

/// E003 and I001 from the parent links (`None` for a root; an index past the end is the
/// caller's E001 and must be given as `None`).
pub fn parents(out: &mut Vec<Finding>, parents: &[Option<usize>], name: impl Fn(usize) -> String) {
    let links = parents.iter().map(|p| {
        p.map_or(crate::BoneIndex::NONE, |i| {
            crate::BoneIndex::new(i).unwrap_or_default()
        })
    });
    let skeleton = crate::pmx::skeleton::Skeleton::from_parents(links);
    for problem in skeleton.problems() {
        if let crate::pmx::skeleton::SkeletonProblem::Cycle { bones } = problem {
            let first = bones.first().copied().unwrap_or(0);
            let list: Vec<String> = bones.iter().map(|b| format!("bones[{b}]")).collect();
            let through = if bones.len() == 1 {
                format!("{} is its own parent", name(first))
            } else {
                format!(
                    "the parents of {} lead back to it ({})",
                    name(first),
                    list.join(" -> ")
                )
            };
            out.push(finding("E003", format!("bones[{first}].parent"), through));
        }
    }
    for (i, p) in parents.iter().enumerate() {
        if let Some(p) = *p {
            if p > i {
                out.push(finding(
                    "I001",
                    format!("bones[{i}].parent"),
                    format!(
                        "the parent of {} is bones[{p}], after it in the list; compute bones \
                         parents first, not in file order",
                        name(i)
                    ),
                ));
            }
        }
    }
}

/// A quaternion's length, when it is far from 1 (W026).
pub fn far_from_unit(q: [f32; 4]) -> Option<f32> {
    let len = q.iter().map(|c| c * c).sum::<f32>().sqrt();
    (!len.is_finite() || (len - 1.0).abs() > 0.01).then_some(len)
}

/// E005 / E007: one finding for the vertex indices (`indices`) at or past `len`: the
/// first, where it is (`path(i)`), and how many (one finding per bad index would flood the
/// output for a model whose vertices were cut). `of` says where `len` comes from (`the
/// model has 4 vertices`), `many` what the indices are (`face indices`).
pub fn vertices_past_end(
    out: &mut Vec<Finding>,
    code: &str,
    indices: impl Iterator<Item = u64>,
    len: usize,
    path: impl Fn(usize) -> String,
    of: &str,
    many: &str,
) {
    let mut bad = indices
        .enumerate()
        .filter(|(_, v)| *v >= len as u64)
        .peekable();
    if let Some(&(i, v)) = bad.peek() {
        let n = bad.count();
        let more = if n > 1 {
            format!(" ({n} {many} name no vertex)")
        } else {
            String::new()
        };
        out.push(finding(
            code,
            path(i),
            format!("vertex {v} does not exist: {of}{more}"),
        ));
    }
}
