//! The checks of a PMX model.

use std::collections::HashSet;

use super::shared::{self, sjis};
use super::{finding, Finding};
use crate::index::{kind::Kind, Index};
use crate::pmx::{BoneFlags, FrameElement, MorphOffsets, Pmx, Toon, Weight};

/// Every model rule on `m`, in the order of its sections.
pub fn check(m: &Pmx) -> Vec<Finding> {
    let mut out = Vec::new();
    vertices(m, &mut out);
    faces(m, &mut out);
    materials(m, &mut out);
    textures(m, &mut out);
    bones(m, &mut out);
    morphs(m, &mut out);
    frames(m, &mut out);
    physics(m, &mut out);
    soft_bodies(m, &mut out);
    out
}

/// E001 / E002: checks `index` against `len` records; `none_ok` says whether -1 is
/// allowed. Returns the record when the index names one.
fn check_ref<K: Kind>(
    out: &mut Vec<Finding>,
    path: impl Fn() -> String,
    index: Index<K>,
    len: usize,
    section: &str,
    none_ok: bool,
) -> Option<usize> {
    match index.get() {
        Some(i) if i < len => Some(i),
        Some(i) => {
            out.push(finding(
                "E001",
                path(),
                format!(
                    "{} {i} does not exist: the model has {len} {section}",
                    K::NAME
                ),
            ));
            None
        }
        None if index.is_none() => {
            if !none_ok {
                out.push(finding(
                    "E002",
                    path(),
                    format!("-1 (none) where a {} is required", K::NAME),
                ));
            }
            None
        }
        None => {
            out.push(finding(
                "E001",
                path(),
                format!(
                    "{} index {} is negative; only -1 means none",
                    K::NAME,
                    index.raw()
                ),
            ));
            None
        }
    }
}

fn vertices(m: &Pmx, out: &mut Vec<Finding>) {
    let bones = m.bones.len();
    for (v, vertex) in m.vertices.iter().enumerate() {
        let (slots, weights): (Vec<_>, Vec<f32>) = match &vertex.weight {
            Weight::Bdef1 { bone } => (vec![*bone], vec![1.0]),
            Weight::Bdef2 { bones, weight } | Weight::Sdef { bones, weight, .. } => {
                (bones.to_vec(), vec![*weight, 1.0 - *weight])
            }
            Weight::Bdef4 { bones, weights } | Weight::Qdef { bones, weights } => {
                (bones.to_vec(), weights.to_vec())
            }
        };
        let kind = match vertex.weight {
            Weight::Bdef1 { .. } => "Bdef1",
            Weight::Bdef2 { .. } => "Bdef2",
            Weight::Bdef4 { .. } => "Bdef4",
            Weight::Sdef { .. } => "Sdef",
            Weight::Qdef { .. } => "Qdef",
        };
        let base = format!("vertices[{v}].weight.{kind}");
        for (k, (bone, w)) in slots.iter().zip(&weights).enumerate() {
            let path = || {
                if slots.len() == 1 {
                    format!("{base}.bone")
                } else {
                    format!("{base}.bones[{k}]")
                }
            };
            if bone.is_none() {
                if *w != 0.0 {
                    out.push(finding(
                        "W010",
                        path(),
                        format!("weight {w} on bone -1 (none): no bone carries it"),
                    ));
                }
            } else {
                check_ref(out, path, *bone, bones, "bones", true);
            }
        }
        let negative = weights.iter().any(|w| *w < 0.0);
        if negative {
            let (path, shown) = match vertex.weight {
                Weight::Bdef2 { weight, .. } | Weight::Sdef { weight, .. } => (
                    format!("{base}.weight"),
                    format!(
                        "weight {weight} gives the bones {weight} and {}",
                        1.0 - weight
                    ),
                ),
                _ => (format!("{base}.weights"), format!("weights {weights:?}")),
            };
            out.push(finding(
                "W009",
                path,
                format!("{shown}: a weight is negative"),
            ));
        }
        if let Weight::Bdef4 { weights: w, .. } | Weight::Qdef { weights: w, .. } = vertex.weight {
            let sum: f32 = w.iter().sum();
            if !negative && (!sum.is_finite() || (sum - 1.0).abs() > 0.001) {
                out.push(finding(
                    "W008",
                    format!("{base}.weights"),
                    format!("weights {w:?} add up to {sum}, not 1"),
                ));
            }
        }
        if let Weight::Sdef {
            bones: b,
            c,
            r0,
            r1,
            ..
        } = vertex.weight
        {
            let params = [("c", c), ("r0", r0), ("r1", r1)];
            if let Some((name, value)) = params
                .iter()
                .find(|(_, p)| p.iter().any(|x| !x.is_finite()))
            {
                out.push(finding(
                    "W011",
                    format!("{base}.{name}"),
                    format!("SDEF parameter {name} {value:?} is not finite"),
                ));
            } else if b[0] == b[1] {
                out.push(finding(
                    "W011",
                    format!("{base}.bones"),
                    format!(
                        "SDEF names bone {} twice: there is nothing to blend",
                        b[0].raw()
                    ),
                ));
            }
        }
    }
}

fn faces(m: &Pmx, out: &mut Vec<Finding>) {
    let counts: Vec<i64> = m
        .materials
        .iter()
        .map(|x| i64::from(x.face_count))
        .collect();
    shared::faces(
        out,
        m.faces.iter().map(|f| u64::from(f.raw())),
        m.vertices.len(),
        &counts,
        |i| format!("materials[{i}].face_count"),
    );
}

fn materials(m: &Pmx, out: &mut Vec<Finding>) {
    let textures = m.textures.len();
    for (i, material) in m.materials.iter().enumerate() {
        let at = |f: &str| format!("materials[{i}].{f}");
        check_ref(
            out,
            || at("texture"),
            material.texture,
            textures,
            "textures",
            true,
        );
        check_ref(
            out,
            || at("sphere_texture"),
            material.sphere_texture,
            textures,
            "textures",
            true,
        );
        if let Toon::Texture(t) = material.toon {
            check_ref(out, || at("toon.Texture"), t, textures, "textures", true);
        }
    }
}

fn textures(m: &Pmx, out: &mut Vec<Finding>) {
    for (i, t) in m.textures.iter().enumerate() {
        super::files::absolute(out, format!("textures[{i}]"), &t.to_string_lossy());
    }
}

/// The deform position of each bone: (after physics, layer, index).
fn deform_key(m: &Pmx, i: usize) -> Option<(bool, i32, usize)> {
    let b = m.bones.get(i)?;
    Some((
        b.flags.contains(BoneFlags::PHYSICS_AFTER_DEFORM),
        b.layer,
        i,
    ))
}

fn bones(m: &Pmx, out: &mut Vec<Finding>) {
    let n = m.bones.len();
    let name = |i: usize| match m.bones.get(i) {
        Some(b) => format!("bones[{i}] {:?}", b.name.to_string_lossy()),
        None => format!("bones[{i}]"),
    };
    let mut parents = Vec::with_capacity(n);
    // Bones that inherit (append) from another: an IK link among them is W003.
    let inherit_targets: HashSet<usize> = m
        .bones
        .iter()
        .enumerate()
        .filter(|(_, b)| b.inherit.is_some_and(|h| !h.parent.is_none()))
        .map(|(i, _)| i)
        .collect();
    for (i, bone) in m.bones.iter().enumerate() {
        let at = |f: &str| format!("bones[{i}].{f}");
        let parent = check_ref(out, || at("parent"), bone.parent, n, "bones", true);
        parents.push(parent);
        if let crate::pmx::BoneTail::Bone(t) = bone.tail {
            check_ref(out, || at("tail.Bone"), t, n, "bones", true);
        }
        if let Some(p) = parent {
            if let (Some(own), Some(theirs)) = (deform_key(m, i), deform_key(m, p)) {
                if (own.0, own.1) < (theirs.0, theirs.1) {
                    out.push(finding(
                        "W001",
                        at("layer"),
                        format!(
                            "{} deforms in layer {}{} before its parent {} (layer {}{})",
                            name(i),
                            own.1,
                            if own.0 { " after physics" } else { "" },
                            name(p),
                            theirs.1,
                            if theirs.0 { " after physics" } else { "" },
                        ),
                    ));
                }
            }
        }
        if let Some(h) = bone.inherit {
            let source = check_ref(out, || at("inherit.parent"), h.parent, n, "bones", true);
            if let Some(s) = source {
                if let (Some(own), Some(theirs)) = (deform_key(m, i), deform_key(m, s)) {
                    if theirs > own {
                        out.push(finding(
                            "W002",
                            at("inherit.parent"),
                            format!(
                                "{} inherits from {}, which deforms after it (layer {} vs {}), so \
                                 it reads its source before the source moves",
                                name(i),
                                name(s),
                                theirs.1,
                                own.1
                            ),
                        ));
                    }
                }
            }
        }
        if let Some(ik) = &bone.ik {
            check_ref(out, || at("ik.target"), ik.target, n, "bones", false);
            shared::loop_count(out, at("ik.loop_count"), i64::from(ik.loop_count));
            for (k, link) in ik.links.iter().enumerate() {
                let lat = |f: &str| format!("bones[{i}].ik.links[{k}].{f}");
                let b = check_ref(out, || lat("bone"), link.bone, n, "bones", false);
                if let Some(b) = b.filter(|b| inherit_targets.contains(b)) {
                    out.push(finding(
                        "W003",
                        lat("bone"),
                        format!(
                            "IK link {} also inherits from another bone; players that solve IK \
                             and inherits in different orders bend it differently",
                            name(b)
                        ),
                    ));
                }
                if let (Some(lo), Some(hi)) = (link.limit_min, link.limit_max) {
                    if let Some(axis) = (0..3).find(|&a| lo[a] > hi[a]) {
                        out.push(finding(
                            "W006",
                            lat("limit_min"),
                            format!(
                                "the lower limit {} is above the upper limit {} on axis {}",
                                lo[axis],
                                hi[axis],
                                ["x", "y", "z"][axis]
                            ),
                        ));
                    }
                }
            }
        }
    }
    shared::parents(out, &parents, name);
    names(
        out,
        "bones",
        "W012",
        "bone",
        m.bones
            .iter()
            .map(|b| b.name.to_string_lossy().into_owned()),
    );
}

fn morphs(m: &Pmx, out: &mut Vec<Finding>) {
    let vertices = m.vertices.len();
    for (i, morph) in m.morphs.iter().enumerate() {
        let at =
            |k: usize, f: &str| format!("morphs[{i}].offsets.{}[{k}].{f}", variant(&morph.offsets));
        match &morph.offsets {
            MorphOffsets::Group(o) | MorphOffsets::Flip(o) => {
                for (k, g) in o.iter().enumerate() {
                    check_ref(
                        out,
                        || at(k, "morph"),
                        g.morph,
                        m.morphs.len(),
                        "morphs",
                        false,
                    );
                }
            }
            MorphOffsets::Vertex(o) => {
                let bad = o.iter().map(|x| x.vertex.raw());
                vertex_offsets(out, bad, vertices, |k| at(k, "vertex"));
            }
            MorphOffsets::Uv(o)
            | MorphOffsets::AdditionalUv1(o)
            | MorphOffsets::AdditionalUv2(o)
            | MorphOffsets::AdditionalUv3(o)
            | MorphOffsets::AdditionalUv4(o) => {
                let bad = o.iter().map(|x| x.vertex.raw());
                vertex_offsets(out, bad, vertices, |k| at(k, "vertex"));
            }
            MorphOffsets::Bone(o) => {
                for (k, b) in o.iter().enumerate() {
                    check_ref(out, || at(k, "bone"), b.bone, m.bones.len(), "bones", false);
                }
            }
            MorphOffsets::Material(o) => {
                for (k, x) in o.iter().enumerate() {
                    let len = m.materials.len();
                    check_ref(
                        out,
                        || at(k, "material"),
                        x.material,
                        len,
                        "materials",
                        true,
                    );
                }
            }
            MorphOffsets::Impulse(o) => {
                for (k, x) in o.iter().enumerate() {
                    let len = m.rigid_bodies.len();
                    check_ref(
                        out,
                        || at(k, "rigid_body"),
                        x.rigid_body,
                        len,
                        "rigid bodies",
                        false,
                    );
                }
            }
        }
    }
    names(
        out,
        "morphs",
        "W013",
        "morph",
        m.morphs
            .iter()
            .map(|x| x.name.to_string_lossy().into_owned()),
    );
}

/// The variant name of a morph's offsets, as paths spell it.
fn variant(o: &MorphOffsets) -> &'static str {
    match o {
        MorphOffsets::Group(_) => "Group",
        MorphOffsets::Vertex(_) => "Vertex",
        MorphOffsets::Bone(_) => "Bone",
        MorphOffsets::Uv(_) => "Uv",
        MorphOffsets::AdditionalUv1(_) => "AdditionalUv1",
        MorphOffsets::AdditionalUv2(_) => "AdditionalUv2",
        MorphOffsets::AdditionalUv3(_) => "AdditionalUv3",
        MorphOffsets::AdditionalUv4(_) => "AdditionalUv4",
        MorphOffsets::Material(_) => "Material",
        MorphOffsets::Flip(_) => "Flip",
        MorphOffsets::Impulse(_) => "Impulse",
    }
}

/// E007 for the vertex indices of one morph's offsets.
fn vertex_offsets(
    out: &mut Vec<Finding>,
    indices: impl Iterator<Item = u32>,
    vertices: usize,
    path: impl Fn(usize) -> String,
) {
    let of = format!("the model has {vertices} vertices");
    let indices = indices.map(u64::from);
    let many = "offsets of this morph";
    shared::vertices_past_end(out, "E007", indices, vertices, path, &of, many);
}

/// W012/W013 (length), W014 (characters Shift_JIS lacks), W015/W016 (duplicates).
fn names(
    out: &mut Vec<Finding>,
    section: &str,
    long_code: &str,
    what: &str,
    names: impl Iterator<Item = String>,
) {
    let names: Vec<String> = names.collect();
    let encoded: Vec<Option<Vec<u8>>> = names.iter().map(|n| sjis(n)).collect();
    for (i, (name, bytes)) in names.iter().zip(&encoded).enumerate() {
        let path = format!("{section}[{i}].name");
        match bytes {
            Some(b) => shared::name_length(out, long_code, what, path, name, b.len()),
            None => {
                let lacking: String = name
                    .chars()
                    .filter(|c| sjis(&c.to_string()).is_none())
                    .collect();
                out.push(finding(
                    "W014",
                    path,
                    format!(
                        "{name:?} holds characters Shift_JIS lacks ({lacking:?}), so no motion \
                         or pose can name this {what}"
                    ),
                ));
            }
        }
    }
    let dup = if what == "bone" { "W015" } else { "W016" };
    shared::duplicates(
        out,
        dup,
        section,
        names.iter().map(|n| (n.as_bytes(), n.clone())),
    );
}

fn frames(m: &Pmx, out: &mut Vec<Finding>) {
    let special = [(0usize, "Root"), (1usize, "表情")];
    for (i, want) in special {
        match m.display_frames.get(i) {
            Some(f) if f.special == 1 && f.name.to_string_lossy() == want => {}
            Some(f) => out.push(finding(
                "W017",
                format!("display_frames[{i}]"),
                format!(
                    "frame {i} is {:?} with special flag {}; MMD expects the special frame {want:?} \
                     here",
                    f.name.to_string_lossy(),
                    f.special
                ),
            )),
            None => out.push(finding(
                "W017",
                "display_frames",
                format!("the special frame {want:?} (frame {i}) is missing"),
            )),
        }
    }
    let mut listed = vec![false; m.bones.len()];
    for (i, frame) in m.display_frames.iter().enumerate() {
        for (k, e) in frame.elements.iter().enumerate() {
            let path = |v: &str| format!("display_frames[{i}].elements[{k}].{v}");
            match *e {
                FrameElement::Bone(b) => {
                    let len = m.bones.len();
                    if let Some(b) = check_ref(out, || path("Bone"), b, len, "bones", false) {
                        listed[b] = true;
                    }
                }
                FrameElement::Morph(x) => {
                    let len = m.morphs.len();
                    check_ref(out, || path("Morph"), x, len, "morphs", false);
                }
            }
        }
    }
    let shown = BoneFlags::VISIBLE | BoneFlags::ENABLED;
    for (i, bone) in m.bones.iter().enumerate() {
        if bone.flags.contains(shown) && !listed[i] {
            out.push(finding(
                "I002",
                format!("bones[{i}]"),
                format!(
                    "{:?} is visible and operable but in no display frame, so the timeline has no \
                     row for it",
                    bone.name.to_string_lossy()
                ),
            ));
        }
    }
}

fn physics(m: &Pmx, out: &mut Vec<Finding>) {
    for (i, body) in m.rigid_bodies.iter().enumerate() {
        check_ref(
            out,
            || format!("rigid_bodies[{i}].bone"),
            body.bone,
            m.bones.len(),
            "bones",
            true,
        );
    }
    let bodies = m.rigid_bodies.len();
    for (i, joint) in m.joints.iter().enumerate() {
        let a = check_ref(
            out,
            || format!("joints[{i}].rigid_a"),
            joint.rigid_a,
            bodies,
            "rigid bodies",
            // "関連なしの場合は-1" (PMX 2.0 specification).
            true,
        );
        let b = check_ref(
            out,
            || format!("joints[{i}].rigid_b"),
            joint.rigid_b,
            bodies,
            "rigid bodies",
            // "関連なしの場合は-1" (PMX 2.0 specification).
            true,
        );
        if let (Some(a), Some(b)) = (a, b) {
            if a == b {
                out.push(finding(
                    "W018",
                    format!("joints[{i}].rigid_b"),
                    format!("the joint joins rigid body {a} to itself, so it holds nothing"),
                ));
            }
        }
    }
}

fn soft_bodies(m: &Pmx, out: &mut Vec<Finding>) {
    let vertices = m.vertices.len();
    let vertex = |out: &mut Vec<Finding>, path: String, v: crate::index::VertexIndex| {
        if v.raw() as usize >= vertices {
            out.push(finding(
                "E001",
                path,
                format!(
                    "vertex {} does not exist: the model has {vertices} vertices",
                    v.raw()
                ),
            ));
        }
    };
    for (i, body) in m.soft_bodies.iter().flatten().enumerate() {
        let at = |f: &str| format!("soft_bodies[{i}].{f}");
        let materials = m.materials.len();
        check_ref(
            out,
            || at("material"),
            body.material,
            materials,
            "materials",
            true,
        );
        for (k, anchor) in body.anchors.iter().enumerate() {
            let path = || format!("soft_bodies[{i}].anchors[{k}].rigid_body");
            let bodies = m.rigid_bodies.len();
            check_ref(out, path, anchor.rigid_body, bodies, "rigid bodies", true);
            vertex(
                out,
                format!("soft_bodies[{i}].anchors[{k}].vertex"),
                anchor.vertex,
            );
        }
        for (k, pin) in body.pins.iter().enumerate() {
            vertex(out, format!("soft_bodies[{i}].pins[{k}]"), *pin);
        }
    }
}
