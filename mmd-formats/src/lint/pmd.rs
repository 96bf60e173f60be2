//! The checks of a PMD model. PMD has no deform layers, inherits or display-frame flags:
//! the rules that need them are PMX-only.

use super::shared;
use super::{finding, Finding};
use crate::pmd::Pmd;

/// PMD's "none" for a 16-bit bone index.
const NONE: u16 = 0xFFFF;

/// Every model rule on `m` that PMD can break, in the order of its sections.
pub fn check(m: &Pmd) -> Vec<Finding> {
    let mut out = Vec::new();
    let bones = m.bones.len();
    let range = |out: &mut Vec<Finding>, path: String, index: usize, len: usize, what: &str| {
        if index >= len {
            out.push(finding(
                "E001",
                path,
                format!("{what} {index} does not exist: the model has {len} {what}s"),
            ));
            false
        } else {
            true
        }
    };
    for (v, vertex) in m.vertices.iter().enumerate() {
        for (k, b) in vertex.bones.iter().enumerate() {
            range(
                &mut out,
                format!("vertices[{v}].bones[{k}]"),
                usize::from(*b),
                bones,
                "bone",
            );
        }
        if vertex.weight > 100 {
            out.push(finding(
                "W009",
                format!("vertices[{v}].weight"),
                format!(
                    "weight {}% for the first bone leaves {}% for the second: a weight is negative",
                    vertex.weight,
                    100 - i32::from(vertex.weight)
                ),
            ));
        }
    }
    let counts: Vec<i64> = m
        .materials
        .iter()
        .map(|x| i64::from(x.face_vertex_count))
        .collect();
    shared::faces(
        &mut out,
        m.faces.iter().map(|f| u64::from(*f)),
        m.vertices.len(),
        &counts,
        |i| format!("materials[{i}].face_vertex_count"),
    );
    for (path, text) in super::files::texture_paths(super::Model::Pmd(m)) {
        super::files::absolute(&mut out, path, &text);
    }
    let name = |i: usize| match m.bones.get(i) {
        Some(b) => format!("bones[{i}] {:?}", b.name.decode()),
        None => format!("bones[{i}]"),
    };
    let mut parents = Vec::with_capacity(bones);
    for (i, bone) in m.bones.iter().enumerate() {
        let parent = match bone.parent {
            NONE => None,
            p => range(
                &mut out,
                format!("bones[{i}].parent"),
                usize::from(p),
                bones,
                "bone",
            )
            .then_some(usize::from(p)),
        };
        parents.push(parent);
        if bone.tail != NONE {
            range(
                &mut out,
                format!("bones[{i}].tail"),
                usize::from(bone.tail),
                bones,
                "bone",
            );
        }
    }
    for (c, chain) in m.ik_chains.iter().enumerate() {
        let at = |f: &str| format!("ik_chains[{c}].{f}");
        range(
            &mut out,
            at("ik_bone"),
            usize::from(chain.ik_bone),
            bones,
            "bone",
        );
        range(
            &mut out,
            at("effector"),
            usize::from(chain.effector),
            bones,
            "bone",
        );
        shared::loop_count(&mut out, at("iterations"), i64::from(chain.iterations));
        for (k, link) in chain.links.iter().enumerate() {
            range(
                &mut out,
                format!("ik_chains[{c}].links[{k}]"),
                usize::from(*link),
                bones,
                "bone",
            );
        }
    }
    shared::parents(&mut out, &parents, name);
    for (i, bone) in m.bones.iter().enumerate() {
        let shown = bone.name.decode();
        let len = bone.name.name_bytes().len();
        shared::name_length(
            &mut out,
            "W012",
            "bone",
            format!("bones[{i}].name"),
            &shown,
            len,
        );
    }
    shared::duplicates(
        &mut out,
        "W015",
        "bones",
        m.bones
            .iter()
            .map(|b| (b.name.name_bytes(), b.name.decode().into_owned())),
    );
    morphs(m, &mut out);
    frames(m, &mut out);
    physics(m, &mut out);
    out
}

fn morphs(m: &Pmd, out: &mut Vec<Finding>) {
    // The base morph (type 0, the first) lists vertices; the others list positions in it.
    let base = m.morphs.first().filter(|x| x.morph_type == 0);
    for (i, morph) in m.morphs.iter().enumerate() {
        let (len, of) = if i == 0 && base.is_some() {
            let len = m.vertices.len();
            (len, format!("the model has {len} vertices"))
        } else {
            let len = base.map_or(0, |b| b.elements.len());
            (len, format!("the base morph lists {len} vertices"))
        };
        shared::vertices_past_end(
            out,
            "E007",
            morph.elements.iter().map(|e| u64::from(e.index)),
            len,
            |k| format!("morphs[{i}].elements[{k}].index"),
            &of,
            "entries of this morph",
        );
        let shown = morph.name.decode();
        let bytes = morph.name.name_bytes().len();
        shared::name_length(
            out,
            "W013",
            "morph",
            format!("morphs[{i}].name"),
            &shown,
            bytes,
        );
    }
    shared::duplicates(
        out,
        "W016",
        "morphs",
        m.morphs
            .iter()
            .map(|x| (x.name.name_bytes(), x.name.decode().into_owned())),
    );
    for (k, morph) in m.morph_display.iter().enumerate() {
        let index = usize::from(*morph);
        if index >= m.morphs.len() {
            out.push(finding(
                "E001",
                format!("morph_display[{k}]"),
                format!(
                    "morph {index} does not exist: the model has {} morphs",
                    m.morphs.len()
                ),
            ));
        }
    }
}

/// PMD bone types a user keys: rotate (0), rotate and move (1), IK (2), twist (8).
const OPERABLE: [u8; 4] = [0, 1, 2, 8];

fn frames(m: &Pmd, out: &mut Vec<Finding>) {
    let mut listed = vec![false; m.bones.len()];
    for (k, entry) in m.bone_display.iter().enumerate() {
        let bone = usize::from(entry.bone);
        match listed.get_mut(bone) {
            Some(slot) => *slot = true,
            None => out.push(finding(
                "E001",
                format!("bone_display[{k}].bone"),
                format!(
                    "bone {bone} does not exist: the model has {} bones",
                    m.bones.len()
                ),
            )),
        }
        let frames = m.frame_names.len();
        if entry.frame_index().is_none_or(|f| f >= frames) {
            out.push(finding(
                "E001",
                format!("bone_display[{k}].frame"),
                format!(
                    "frame {} does not exist: the model has frames 1 to {frames}",
                    entry.frame
                ),
            ));
        }
    }
    // Bone 0 (センター) is shown in PMD's implicit root frame.
    for (i, bone) in m.bones.iter().enumerate().skip(1) {
        if OPERABLE.contains(&bone.bone_type) && !listed[i] {
            out.push(finding(
                "I002",
                format!("bones[{i}]"),
                format!(
                    "{:?} can be operated but is in no display frame, so the timeline has no row \
                     for it",
                    bone.name.decode()
                ),
            ));
        }
    }
}

fn physics(m: &Pmd, out: &mut Vec<Finding>) {
    let bones = m.bones.len();
    let bodies = m.rigid_bodies.as_deref().unwrap_or_default();
    for (i, body) in bodies.iter().enumerate() {
        if let Some(b) = body.bone_index() {
            if usize::from(b) >= bones {
                out.push(finding(
                    "E001",
                    format!("rigid_bodies[{i}].bone"),
                    format!("bone {b} does not exist: the model has {bones} bones"),
                ));
            }
        }
    }
    for (i, joint) in m.joints.as_deref().unwrap_or_default().iter().enumerate() {
        let mut ok = true;
        for (field, body) in [("rigid_a", joint.rigid_a), ("rigid_b", joint.rigid_b)] {
            if body as usize >= bodies.len() {
                ok = false;
                out.push(finding(
                    "E001",
                    format!("joints[{i}].{field}"),
                    format!(
                        "rigid body {body} does not exist: the model has {} rigid bodies",
                        bodies.len()
                    ),
                ));
            }
        }
        if ok && joint.rigid_a == joint.rigid_b {
            out.push(finding(
                "W018",
                format!("joints[{i}].rigid_b"),
                format!(
                    "the joint joins rigid body {} to itself, so it holds nothing",
                    joint.rigid_a
                ),
            ));
        }
    }
}
