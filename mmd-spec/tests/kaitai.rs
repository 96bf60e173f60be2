//! The generated Kaitai Struct grammars, run by the real Kaitai compiler, must read every
//! file the way mmd-formats does.
//!
//! Every built-in PMX, PMD and VMD sample and every such fixture of the corpus
//! (`$MMD_CORPUS`, else `../shared/fixtures` beside the workspace; `bad/` is left out) is
//! parsed by `node mmd-spec/kaitai-check/check.js`, which compiles `mmd-spec/kaitai/*.ksy`
//! with `kaitai-struct-compiler` and must consume each file exactly to its end. Its JSON
//! summary (section counts, header fields, first and last records of every section, a few
//! totals) is compared field by field with the same summary built here from our reader;
//! any difference fails.
//!
//! Needs Node.js and `npm ci --prefix mmd-spec/kaitai-check`. Without them the test prints
//! a "skipped" line and passes, unless `MMD_KAITAI=require` is set (as CI does), when it
//! fails.

use mmd_formats::index::VertexIndex;
use mmd_formats::pmx::{BoneTail, FrameElement, MorphOffsets, Pmx, Toon, Weight};
use mmd_formats::vmd::Vmd;
use mmd_formats::{pmd::Pmd, PmxText};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Prints a line past the test harness's output capture, so that a skip or the per-format
/// counts show in `cargo test` output even when the test passes.
fn say(line: &str) {
    let _ = writeln!(std::io::stderr(), "{line}");
}

// ---- value helpers: the same shapes as check.js builds ----

/// A float as JSON: a number, or a string for what JSON cannot hold (and for -0).
fn f(x: f32) -> Value {
    if x.is_nan() {
        json!("NaN")
    } else if x == f32::INFINITY {
        json!("inf")
    } else if x == f32::NEG_INFINITY {
        json!("-inf")
    } else if x == 0.0 && x.is_sign_negative() {
        json!("-0")
    } else {
        json!(f64::from(x))
    }
}

fn fa(a: &[f32]) -> Value {
    Value::Array(a.iter().copied().map(f).collect())
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// Shift_JIS name bytes (up to the NUL) decoded as the WHATWG decoder does, which is what
/// Kaitai's JavaScript runtime uses (`TextDecoder`).
fn sjis(name_bytes: &[u8]) -> String {
    encoding_rs::SHIFT_JIS
        .decode_without_bom_handling(name_bytes)
        .0
        .into_owned()
}

fn txt(t: &PmxText) -> String {
    t.to_string_lossy().into_owned()
}

fn first<T>(a: &[T], g: impl Fn(&T) -> Value) -> Value {
    a.first().map(&g).unwrap_or(Value::Null)
}

fn last<T>(a: &[T], g: impl Fn(&T) -> Value) -> Value {
    a.last().map(&g).unwrap_or(Value::Null)
}

fn opt<T>(a: Option<&T>, g: impl Fn(&T) -> Value) -> Value {
    a.map(g).unwrap_or(Value::Null)
}

// ---- PMX ----

fn pmx_summary(p: &Pmx) -> Value {
    let ctx = p.context().expect("a file that read has a context");
    let vertex_width = ctx.widths()[0];
    // A 4-byte vertex index is signed in the grammar (its i32 bit pattern here).
    let vi = |v: &VertexIndex| -> Value {
        if vertex_width == 4 {
            json!(v.raw() as i32)
        } else {
            json!(v.raw())
        }
    };
    let weight = |w: &Weight| -> Value {
        let (t, bones, weights, sdef): (u8, Vec<i32>, Value, Value) = match w {
            Weight::Bdef1 { bone } => (0, vec![bone.raw()], json!([]), Value::Null),
            Weight::Bdef2 { bones, weight } => (
                1,
                bones.iter().map(|b| b.raw()).collect(),
                json!([f(*weight)]),
                Value::Null,
            ),
            Weight::Bdef4 { bones, weights } => (
                2,
                bones.iter().map(|b| b.raw()).collect(),
                fa(weights),
                Value::Null,
            ),
            Weight::Sdef {
                bones,
                weight,
                c,
                r0,
                r1,
            } => (
                3,
                bones.iter().map(|b| b.raw()).collect(),
                json!([f(*weight)]),
                fa(&[c.as_slice(), r0, r1].concat()),
            ),
            Weight::Qdef { bones, weights } => (
                4,
                bones.iter().map(|b| b.raw()).collect(),
                fa(weights),
                Value::Null,
            ),
        };
        json!({"type": t, "bones": bones, "weights": weights, "sdef": sdef})
    };
    let vertex = |v: &mmd_formats::pmx::Vertex| {
        json!({
            "position": fa(&v.position),
            "normal": fa(&v.normal),
            "uv": fa(&v.uv),
            "additional_uv": v.additional_uv.iter().map(|a| fa(a)).collect::<Vec<_>>(),
            "weight": weight(&v.weight),
            "edge_scale": f(v.edge_scale),
        })
    };
    let material = |m: &mmd_formats::pmx::Material| {
        let (flag, value) = match m.toon {
            Toon::Texture(t) => (0, json!(t.raw())),
            Toon::Shared(s) => (1, json!(s)),
        };
        json!({
            "name": txt(&m.name),
            "name_en": txt(&m.name_en),
            "diffuse": fa(&m.diffuse),
            "specular": fa(&m.specular),
            "specular_strength": f(m.specular_strength),
            "ambient": fa(&m.ambient),
            "flags": m.flags.bits(),
            "edge_color": fa(&m.edge_color),
            "edge_size": f(m.edge_size),
            "texture": m.texture.raw(),
            "sphere_texture": m.sphere_texture.raw(),
            "sphere_mode": m.sphere_mode,
            "toon_flag": flag,
            "toon_value": value,
            "memo": txt(&m.memo),
            "face_count": m.face_count,
        })
    };
    let ik_link = |l: &mmd_formats::pmx::IkLink| {
        json!({
            "bone": l.bone.raw(),
            "has_limit": l.has_limit,
            "limit_min": opt(l.limit_min.as_ref(), |x| fa(x)),
            "limit_max": opt(l.limit_max.as_ref(), |x| fa(x)),
        })
    };
    let bone = |b: &mmd_formats::pmx::Bone| {
        let (tail_bone, tail_offset) = match &b.tail {
            BoneTail::Bone(i) => (json!(i.raw()), Value::Null),
            BoneTail::Offset(o) => (Value::Null, fa(o)),
        };
        json!({
            "name": txt(&b.name),
            "name_en": txt(&b.name_en),
            "position": fa(&b.position),
            "parent": b.parent.raw(),
            "layer": b.layer,
            "flags": b.flags.bits(),
            "tail_bone": tail_bone,
            "tail_offset": tail_offset,
            "inherit": opt(b.inherit.as_ref(), |i| json!({"parent": i.parent.raw(), "weight": f(i.weight)})),
            "fixed_axis": opt(b.fixed_axis.as_ref(), |x| fa(x)),
            "local_axes": opt(b.local_axes.as_ref(), |a| json!({"x": fa(&a.x), "z": fa(&a.z)})),
            "external_parent": opt(b.external_parent.as_ref(), |x| json!(x)),
            "ik": opt(b.ik.as_ref(), |ik| json!({
                "target": ik.target.raw(),
                "loop_count": ik.loop_count,
                "limit_angle": f(ik.limit_angle),
                "links": ik.links.len(),
                "link_first": first(&ik.links, ik_link),
                "link_last": last(&ik.links, ik_link),
            })),
        })
    };
    // (type, offset count, first offset, last offset) of a morph.
    let offsets = |o: &MorphOffsets| -> (u8, usize, Value, Value) {
        let group = |g: &mmd_formats::pmx::GroupOffset| json!({"morph": g.morph.raw(), "weight": f(g.weight)});
        let uv = |u: &mmd_formats::pmx::UvOffset| json!({"vertex": vi(&u.vertex), "offset": fa(&u.offset)});
        fn fl<T>(t: u8, a: &[T], g: impl Fn(&T) -> Value) -> (u8, usize, Value, Value) {
            (t, a.len(), first(a, &g), last(a, &g))
        }
        match o {
            MorphOffsets::Group(a) => fl(0, a, group),
            MorphOffsets::Vertex(a) => fl(
                1,
                a,
                |v| json!({"vertex": vi(&v.vertex), "offset": fa(&v.offset)}),
            ),
            MorphOffsets::Bone(a) => fl(
                2,
                a,
                |b| json!({"bone": b.bone.raw(), "translation": fa(&b.translation), "rotation": fa(&b.rotation)}),
            ),
            MorphOffsets::Uv(a) => fl(3, a, uv),
            MorphOffsets::AdditionalUv1(a) => fl(4, a, uv),
            MorphOffsets::AdditionalUv2(a) => fl(5, a, uv),
            MorphOffsets::AdditionalUv3(a) => fl(6, a, uv),
            MorphOffsets::AdditionalUv4(a) => fl(7, a, uv),
            MorphOffsets::Material(a) => fl(8, a, |m| {
                json!({
                    "material": m.material.raw(),
                    "operation": m.operation,
                    "diffuse": fa(&m.diffuse),
                    "specular": fa(&m.specular),
                    "specular_strength": f(m.specular_strength),
                    "ambient": fa(&m.ambient),
                    "edge_color": fa(&m.edge_color),
                    "edge_size": f(m.edge_size),
                    "texture_tint": fa(&m.texture_tint),
                    "sphere_tint": fa(&m.sphere_tint),
                    "toon_tint": fa(&m.toon_tint),
                })
            }),
            MorphOffsets::Flip(a) => fl(9, a, group),
            MorphOffsets::Impulse(a) => fl(
                10,
                a,
                |i| json!({"rigid_body": i.rigid_body.raw(), "local": i.local, "velocity": fa(&i.velocity), "torque": fa(&i.torque)}),
            ),
        }
    };
    let morph = |m: &mmd_formats::pmx::Morph| {
        let (t, n, of, ol) = offsets(&m.offsets);
        json!({
            "name": txt(&m.name),
            "name_en": txt(&m.name_en),
            "panel": m.panel,
            "type": t,
            "count": n,
            "offset_first": of,
            "offset_last": ol,
        })
    };
    let element = |e: &FrameElement| match e {
        FrameElement::Bone(b) => json!({"target": 0, "index": b.raw()}),
        FrameElement::Morph(m) => json!({"target": 1, "index": m.raw()}),
    };
    let frame = |d: &mmd_formats::pmx::DisplayFrame| {
        json!({
            "name": txt(&d.name),
            "name_en": txt(&d.name_en),
            "special": d.special,
            "elements": d.elements.len(),
            "element_first": first(&d.elements, element),
            "element_last": last(&d.elements, element),
        })
    };
    let rigid = |r: &mmd_formats::pmx::RigidBody| {
        json!({
            "name": txt(&r.name),
            "name_en": txt(&r.name_en),
            "bone": r.bone.raw(),
            "group": r.group,
            "collision_mask": r.collision_mask,
            "shape": r.shape,
            "size": fa(&r.size),
            "position": fa(&r.position),
            "rotation": fa(&r.rotation),
            "mass": f(r.mass),
            "linear_damping": f(r.linear_damping),
            "angular_damping": f(r.angular_damping),
            "restitution": f(r.restitution),
            "friction": f(r.friction),
            "mode": r.mode,
        })
    };
    let joint = |j: &mmd_formats::pmx::Joint| {
        json!({
            "name": txt(&j.name),
            "name_en": txt(&j.name_en),
            "kind": j.kind,
            "rigid_a": j.rigid_a.raw(),
            "rigid_b": j.rigid_b.raw(),
            "position": fa(&j.position),
            "rotation": fa(&j.rotation),
            "translation_min": fa(&j.translation_min),
            "translation_max": fa(&j.translation_max),
            "rotation_min": fa(&j.rotation_min),
            "rotation_max": fa(&j.rotation_max),
            "spring_translation": fa(&j.spring_translation),
            "spring_rotation": fa(&j.spring_rotation),
        })
    };
    let soft = |s: &mmd_formats::pmx::SoftBody| {
        let anchor = |a: &mmd_formats::pmx::SoftBodyAnchor| json!({"rigid_body": a.rigid_body.raw(), "vertex": vi(&a.vertex), "near_mode": a.near_mode});
        json!({
            "name": txt(&s.name),
            "name_en": txt(&s.name_en),
            "shape": s.shape,
            "material": s.material.raw(),
            "group": s.group,
            "collision_mask": s.collision_mask,
            "flags": s.flags.bits(),
            "b_link_distance": s.b_link_distance,
            "cluster_count": s.cluster_count,
            "total_mass": f(s.total_mass),
            "collision_margin": f(s.collision_margin),
            "aero_model": s.aero_model,
            "vcf": f(s.vcf),
            "ss_splt_cl": f(s.ss_splt_cl),
            "v_it": s.v_it,
            "c_it": s.c_it,
            "lst": hex(&s.lst),
            "ast": hex(&s.ast),
            "vst": hex(&s.vst),
            "anchors": s.anchors.len(),
            "anchor_first": first(&s.anchors, anchor),
            "anchor_last": last(&s.anchors, anchor),
            "pins": s.pins.len(),
            "pin_first": first(&s.pins, vi),
            "pin_last": last(&s.pins, vi),
        })
    };
    let mut weight_types = [0usize; 5];
    for v in &p.vertices {
        let t = match v.weight {
            Weight::Bdef1 { .. } => 0,
            Weight::Bdef2 { .. } => 1,
            Weight::Bdef4 { .. } => 2,
            Weight::Sdef { .. } => 3,
            Weight::Qdef { .. } => 4,
        };
        weight_types[t] += 1;
    }
    let mut morph_types = [0usize; 11];
    let mut offset_total = 0;
    for m in &p.morphs {
        let (t, n, _, _) = offsets(&m.offsets);
        morph_types[usize::from(t)] += 1;
        offset_total += n;
    }
    let bits_or = p.bones.iter().fold(0u16, |a, b| a | b.flags.bits());
    let ik_links: usize = p
        .bones
        .iter()
        .map(|b| b.ik.as_ref().map_or(0, |ik| ik.links.len()))
        .sum();
    let soft_bodies = p.soft_bodies.as_deref();
    json!({
        "header": {"version": f(p.header.version), "globals": p.header.globals},
        "model": {
            "name": txt(&p.model.name),
            "name_en": txt(&p.model.name_en),
            "comment": txt(&p.model.comment),
            "comment_en": txt(&p.model.comment_en),
        },
        "counts": {
            "vertices": p.vertices.len(),
            "faces": p.faces.len(),
            "textures": p.textures.len(),
            "materials": p.materials.len(),
            "bones": p.bones.len(),
            "morphs": p.morphs.len(),
            "display_frames": p.display_frames.len(),
            "rigid_bodies": p.rigid_bodies.len(),
            "joints": p.joints.len(),
            "soft_bodies": soft_bodies.map(<[_]>::len),
            "trailing": p.trailing.len(),
        },
        "vertex_first": first(&p.vertices.to_vec(), vertex),
        "vertex_last": last(&p.vertices.to_vec(), vertex),
        "weight_types": weight_types,
        "face_first": first(&p.faces, vi),
        "face_last": last(&p.faces, vi),
        "face_max": p.faces.iter().map(|x| vi(x).as_i64()).max(),
        "texture_first": first(&p.textures, |t| json!(txt(t))),
        "texture_last": last(&p.textures, |t| json!(txt(t))),
        "material_first": first(&p.materials, material),
        "material_last": last(&p.materials, material),
        "material_faces": p.materials.iter().map(|m| i64::from(m.face_count)).sum::<i64>(),
        "bone_first": first(&p.bones, bone),
        "bone_last": last(&p.bones, bone),
        "bone_flags_or": bits_or,
        "ik_links": ik_links,
        "morph_first": first(&p.morphs, morph),
        "morph_last": last(&p.morphs, morph),
        "morph_types": morph_types,
        "morph_offsets": offset_total,
        "frame_first": first(&p.display_frames, frame),
        "frame_last": last(&p.display_frames, frame),
        "frame_elements": p.display_frames.iter().map(|d| d.elements.len()).sum::<usize>(),
        "rigid_first": first(&p.rigid_bodies, rigid),
        "rigid_last": last(&p.rigid_bodies, rigid),
        "joint_first": first(&p.joints, joint),
        "joint_last": last(&p.joints, joint),
        "soft_first": soft_bodies.map_or(Value::Null, |s| first(s, soft)),
        "soft_last": soft_bodies.map_or(Value::Null, |s| last(s, soft)),
    })
}

// ---- PMD ----

fn pmd_summary(p: &Pmd) -> Value {
    use mmd_formats::pmd;
    let vertex = |v: &pmd::Vertex| {
        json!({
            "position": fa(&v.position),
            "normal": fa(&v.normal),
            "uv": fa(&v.uv),
            "bones": v.bones,
            "weight": v.weight,
            "edge_flag": v.edge_flag,
        })
    };
    let material = |m: &pmd::Material| {
        json!({
            "diffuse": fa(&m.diffuse),
            "specularity": f(m.specularity),
            "specular": fa(&m.specular),
            "ambient": fa(&m.ambient),
            "toon_index": m.toon_index,
            "edge_flag": m.edge_flag,
            "face_vertex_count": m.face_vertex_count,
            "texture": sjis(m.texture.name_bytes()),
        })
    };
    let bone = |b: &pmd::Bone| {
        json!({
            "name": sjis(b.name.name_bytes()),
            "parent": b.parent,
            "tail": b.tail,
            "bone_type": b.bone_type,
            "ik_parent": b.ik_parent,
            "position": fa(&b.position),
        })
    };
    let ik = |c: &pmd::IkChain| {
        json!({
            "ik_bone": c.ik_bone,
            "effector": c.effector,
            "link_count": c.link_count,
            "iterations": c.iterations,
            "control_weight": f(c.control_weight),
            "links": c.links,
        })
    };
    let element = |e: &pmd::MorphElement| json!({"index": e.index, "position": fa(&e.position)});
    let morph = |m: &pmd::Morph| {
        json!({
            "name": sjis(m.name.name_bytes()),
            "element_count": m.element_count,
            "morph_type": m.morph_type,
            "element_first": first(&m.elements, element),
            "element_last": last(&m.elements, element),
        })
    };
    let rigid = |r: &pmd::RigidBody| {
        json!({
            "name": sjis(r.name.name_bytes()),
            "bone": r.bone,
            "group": r.group,
            "collision_mask": r.collision_mask,
            "shape": r.shape,
            "size": fa(&r.size),
            "position": fa(&r.position),
            "rotation": fa(&r.rotation),
            "mass": f(r.mass),
            "linear_damping": f(r.linear_damping),
            "angular_damping": f(r.angular_damping),
            "restitution": f(r.restitution),
            "friction": f(r.friction),
            "mode": r.mode,
        })
    };
    let joint = |j: &pmd::Joint| {
        json!({
            "name": sjis(j.name.name_bytes()),
            "rigid_a": j.rigid_a,
            "rigid_b": j.rigid_b,
            "position": fa(&j.position),
            "rotation": fa(&j.rotation),
            "position_min": fa(&j.position_min),
            "position_max": fa(&j.position_max),
            "rotation_min": fa(&j.rotation_min),
            "rotation_max": fa(&j.rotation_max),
            "spring_position": fa(&j.spring_position),
            "spring_rotation": fa(&j.spring_rotation),
        })
    };
    let display = |d: &pmd::BoneDisplay| json!({"bone": d.bone, "frame": d.frame});
    let names = |a: &[mmd_formats::ShiftJis<20>]| -> Vec<String> {
        a.iter().map(|s| sjis(s.name_bytes())).collect()
    };
    let names50 = |a: &[mmd_formats::ShiftJis<50>]| -> Vec<String> {
        a.iter().map(|s| sjis(s.name_bytes())).collect()
    };
    let english = p.english_names();
    let rigids = p.rigid_bodies.as_deref();
    let joints = p.joints.as_deref();
    json!({
        "header": {
            "version": f(p.header.version),
            "name": sjis(p.header.name.name_bytes()),
            "comment": sjis(p.header.comment.name_bytes()),
        },
        "counts": {
            "vertices": p.vertices.len(),
            "faces": p.faces.len(),
            "materials": p.materials.len(),
            "bones": p.bones.len(),
            "ik_chains": p.ik_chains.len(),
            "morphs": p.morphs.len(),
            "morph_display": p.morph_display.len(),
            "frame_names": p.frame_names.len(),
            "bone_display": p.bone_display.len(),
            "english_flag": p.english.as_ref().map(|e| e.flag),
            "english_names": english.is_some(),
            "toon_textures": p.toon_textures.is_some(),
            "rigid_bodies": rigids.map(<[_]>::len),
            "joints": joints.map(<[_]>::len),
            "trailing": p.trailing.len(),
        },
        "vertex_first": first(&p.vertices.to_vec(), vertex),
        "vertex_last": last(&p.vertices.to_vec(), vertex),
        "face_first": first(&p.faces, |x| json!(x)),
        "face_last": last(&p.faces, |x| json!(x)),
        "material_first": first(&p.materials, material),
        "material_last": last(&p.materials, material),
        "bone_first": first(&p.bones, bone),
        "bone_last": last(&p.bones, bone),
        "ik_first": first(&p.ik_chains, ik),
        "ik_last": last(&p.ik_chains, ik),
        "morph_first": first(&p.morphs, morph),
        "morph_last": last(&p.morphs, morph),
        "morph_elements": p.morphs.iter().map(|m| m.elements.len()).sum::<usize>(),
        "morph_display": p.morph_display,
        "frame_names": names50(&p.frame_names),
        "bone_display_first": first(&p.bone_display, display),
        "bone_display_last": last(&p.bone_display, display),
        "english": opt(english, |n| json!({
            "model_name": sjis(n.model_name.name_bytes()),
            "comment": sjis(n.comment.name_bytes()),
            "bone_names": names(&n.bone_names),
            "morph_names": names(&n.morph_names),
            "frame_names": names50(&n.frame_names),
        })),
        "toon_textures": opt(p.toon_textures.as_ref(), |t| json!(
            t.names.iter().map(|s| sjis(s.name_bytes())).collect::<Vec<_>>()
        )),
        "rigid_first": rigids.map_or(Value::Null, |a| first(a, rigid)),
        "rigid_last": rigids.map_or(Value::Null, |a| last(a, rigid)),
        "joint_first": joints.map_or(Value::Null, |a| first(a, joint)),
        "joint_last": joints.map_or(Value::Null, |a| last(a, joint)),
    })
}

// ---- VMD ----

fn vmd_summary(v: &Vmd) -> Value {
    use mmd_formats::vmd;
    let bone = |k: &vmd::BoneKey| {
        json!({
            "name": sjis(k.name.name_bytes()),
            "frame": k.frame,
            "position": fa(&k.position),
            "rotation": fa(&k.rotation),
            "interpolation": hex(&k.interpolation),
        })
    };
    let morph = |k: &vmd::MorphKey| json!({"name": sjis(k.name.name_bytes()), "frame": k.frame, "weight": f(k.weight)});
    let camera = |k: &vmd::CameraKey| {
        json!({
            "frame": k.frame,
            "distance": f(k.distance),
            "target": fa(&k.target),
            "rotation": fa(&k.rotation),
            "interpolation": hex(&k.interpolation),
            "fov": k.fov,
            "perspective": k.perspective,
        })
    };
    let light = |k: &vmd::LightKey| json!({"frame": k.frame, "color": fa(&k.color), "direction": fa(&k.direction)});
    let shadow = |k: &vmd::SelfShadowKey| json!({"frame": k.frame, "mode": k.mode, "distance": f(k.distance)});
    let ik_state =
        |s: &vmd::IkState| json!({"name": sjis(s.name.name_bytes()), "enabled": s.enabled});
    let show_ik = |k: &vmd::ShowIkKey| {
        json!({
            "frame": k.frame,
            "show": k.show,
            "ik": k.ik.len(),
            "ik_first": first(&k.ik, ik_state),
            "ik_last": last(&k.ik, ik_state),
        })
    };
    fn pair<T>(a: Option<&[T]>, g: impl Fn(&T) -> Value) -> Value {
        match a {
            None => json!([null, null]),
            Some(a) => json!([first(a, &g), last(a, &g)]),
        }
    }
    let n = |a: Option<&[_]>| a.map(<[_]>::len);
    let morphs = v.morph_keys.as_deref();
    let cameras = v.camera_keys.as_deref();
    let lights = v.light_keys.as_deref();
    let shadows = v.self_shadow_keys.as_deref();
    let show_iks = v.show_ik_keys.as_deref();
    json!({
        "header": {
            "signature": hex(&v.header.signature),
            "version": v.header.version().map(|x| x.number()),
            "model_name": sjis(v.header.model_name.name_bytes()),
        },
        "counts": {
            "bone_keys": v.bone_keys.len(),
            "morph_keys": morphs.map(<[_]>::len),
            "camera_keys": cameras.map(<[_]>::len),
            "light_keys": lights.map(<[_]>::len),
            "self_shadow_keys": shadows.map(<[_]>::len),
            "show_ik_keys": n(show_iks),
            "trailing": v.trailing.len(),
        },
        "bone": [first(&v.bone_keys, bone), last(&v.bone_keys, bone)],
        "bone_frame_max": v.bone_keys.iter().map(|k| k.frame).max().unwrap_or(0),
        "morph": pair(morphs, morph),
        "camera": pair(cameras, camera),
        "light": pair(lights, light),
        "self_shadow": pair(shadows, shadow),
        "show_ik": pair(show_iks, show_ik),
    })
}

// ---- the comparison ----

/// Every difference between the Kaitai summary `k` and ours `m`, with its path.
fn diff(path: &str, k: &Value, m: &Value, out: &mut Vec<String>) {
    match (k, m) {
        (Value::Number(a), Value::Number(b)) => {
            // Integers compare exactly. Every float in the summaries is an f32 widened to
            // f64 and printed; serde_json's default parser may land one f64 ulp off such a
            // number, so floats compare once narrowed back to the f32 they are.
            let same = if a.is_f64() || b.is_f64() {
                a.as_f64().map(|x| x as f32) == b.as_f64().map(|x| x as f32)
            } else {
                a == b
            };
            if !same {
                out.push(format!("{path}: kaitai {a}, ours {b}"));
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            if a.len() != b.len() {
                out.push(format!(
                    "{path}: kaitai has {} elements, ours {}",
                    a.len(),
                    b.len()
                ));
                return;
            }
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                diff(&format!("{path}[{i}]"), x, y, out);
            }
        }
        (Value::Object(a), Value::Object(b)) => {
            for (key, x) in a {
                match b.get(key) {
                    Some(y) => diff(&format!("{path}.{key}"), x, y, out),
                    None => out.push(format!("{path}.{key}: only in the Kaitai summary")),
                }
            }
            for key in b.keys().filter(|k| !a.contains_key(*k)) {
                out.push(format!("{path}.{key}: only in our summary"));
            }
        }
        (a, b) if a == b => {}
        (a, b) => out.push(format!("{path}: kaitai {a}, ours {b}")),
    }
}

// ---- files ----

struct Case {
    path: PathBuf,
    format: &'static str,
    sample: bool,
    summary: Value,
}

fn format_of(path: &Path) -> Option<&'static str> {
    let ext = path.extension()?.to_string_lossy().to_ascii_lowercase();
    ["pmx", "pmd", "vmd"].into_iter().find(|f| *f == ext)
}

/// Our summary of a file, or why our reader rejects it.
fn our_summary(format: &str, bytes: &[u8]) -> Result<Value, String> {
    match format {
        "pmx" => Pmx::from_bytes(bytes).map(|p| pmx_summary(&p)),
        "pmd" => Pmd::from_bytes(bytes).map(|p| pmd_summary(&p)),
        _ => Vmd::from_bytes(bytes).map(|v| vmd_summary(&v)),
    }
    .map_err(|e| e.to_string())
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        panic!("cannot list {}", dir.display());
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "bad") {
                continue;
            }
            walk(&p, out);
        } else if format_of(&p).is_some() {
            out.push(p);
        }
    }
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir() -> TempDir {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!("mmd-kaitai-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    TempDir(dir)
}

/// The checker folder, or `None` (with the skip line printed) when it cannot run here.
fn checker() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("kaitai-check");
    let installed = dir.join("node_modules/kaitai-struct-compiler").is_dir()
        && dir.join("node_modules/kaitai-struct").is_dir()
        && dir.join("node_modules/js-yaml").is_dir();
    let node = Command::new("node").arg("--version").output();
    let problem = match (&node, installed) {
        (Err(e), _) => format!("`node` cannot be run ({e})"),
        (Ok(o), _) if !o.status.success() => "`node --version` failed".to_string(),
        (_, false) => format!("{} has no node_modules", dir.display()),
        _ => return Some(dir),
    };
    let how = "install Node.js, then run `npm ci --prefix mmd-spec/kaitai-check`";
    if std::env::var("MMD_KAITAI").as_deref() == Ok("require") {
        panic!("MMD_KAITAI=require but {problem}: {how}");
    }
    say(&format!("skipped: the Kaitai cross-check needs Node.js and the checker's packages ({problem}); run `npm ci --prefix mmd-spec/kaitai-check` (MMD_KAITAI=require makes this a failure)"));
    None
}

/// Runs check.js on `files`; one parsed JSON line per file, by path.
fn run_checker(dir: &Path, files: &[PathBuf]) -> (HashMap<String, Value>, std::time::Duration) {
    let start = Instant::now();
    let out = Command::new("node")
        .arg(dir.join("check.js"))
        .args(files)
        .output()
        .expect("node runs");
    let took = start.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    say(stderr.trim_end());
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "check.js failed to run ({}): {stderr}",
        out.status
    );
    let mut results = HashMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("check.js printed a line that is not JSON ({e}): {line}"));
        let file = v["file"].as_str().expect("a file name").to_string();
        results.insert(file, v);
    }
    (results, took)
}

#[test]
fn kaitai_grammars_read_every_file_as_we_do() {
    // The corpus first: with MMD_REQUIRE_CORPUS set, a missing corpus fails even where the
    // checker cannot run.
    let corpus = mmd_tests::corpus_dir();
    let Some(dir) = checker() else { return };
    let tmp = temp_dir();
    let mut cases = Vec::new();
    for s in mmd_formats::samples::all() {
        let name = s.name.replace(['/', '\\'], "__");
        let path = tmp.0.join(&name);
        let Some(format) = format_of(&path) else {
            continue;
        };
        let summary = our_summary(format, &s.bytes)
            .unwrap_or_else(|e| panic!("built-in sample {} does not read: {e}", s.name));
        std::fs::write(&path, &s.bytes).unwrap();
        cases.push(Case {
            path,
            format,
            sample: true,
            summary,
        });
    }
    let mut fixtures = Vec::new();
    if let Some(corpus) = corpus {
        walk(&corpus, &mut fixtures);
        assert!(
            !fixtures.is_empty(),
            "no PMX, PMD or VMD file under {}",
            corpus.display()
        );
    }
    for path in fixtures {
        let format = format_of(&path).expect("walk keeps known formats");
        let bytes = std::fs::read(&path).unwrap();
        match our_summary(format, &bytes) {
            Ok(summary) => cases.push(Case {
                path,
                format,
                sample: false,
                summary,
            }),
            Err(e) => say(&format!(
                "skipped {}: our reader rejects it ({e})",
                path.display()
            )),
        }
    }
    // A file cut in the middle must fail in the Kaitai parser too: the checker's failure
    // reporting is part of what is tested.
    let cut = cases
        .iter()
        .find(|c| c.format == "pmx" && c.sample)
        .map(|c| std::fs::read(&c.path).unwrap())
        .expect("a PMX sample");
    let cut_path = tmp.0.join("cut_in_half.pmx");
    std::fs::write(&cut_path, &cut[..cut.len() / 2]).unwrap();

    let mut files: Vec<PathBuf> = cases.iter().map(|c| c.path.clone()).collect();
    files.push(cut_path.clone());
    let (results, took) = run_checker(&dir, &files);

    let cut_result = &results[&cut_path.to_string_lossy().into_owned()];
    assert_eq!(
        cut_result["ok"],
        json!(false),
        "check.js accepted a PMX cut in half: {cut_result}"
    );
    say("kaitai cross-check: the PMX cut in half fails in the Kaitai parser too, as it must");

    let mut failures = Vec::new();
    let mut counted: HashMap<(&str, bool), usize> = HashMap::new();
    for c in &cases {
        let key = c.path.to_string_lossy().into_owned();
        let Some(r) = results.get(&key) else {
            failures.push(format!("{key}: no result from check.js"));
            continue;
        };
        if r["ok"] != json!(true) {
            failures.push(format!("{key}: the Kaitai parser failed: {}", r["error"]));
            continue;
        }
        let mut diffs = Vec::new();
        diff("", &r["summary"], &c.summary, &mut diffs);
        for d in diffs.iter().take(20) {
            failures.push(format!("{key}: {d}"));
        }
        if diffs.len() > 20 {
            failures.push(format!("{key}: … {} more differences", diffs.len() - 20));
        }
        *counted.entry((c.format, c.sample)).or_default() += 1;
    }
    assert!(
        failures.is_empty(),
        "the Kaitai grammars and our reader disagree ({} problem(s)):\n{}",
        failures.len(),
        failures.join("\n")
    );
    for format in ["pmx", "pmd", "vmd"] {
        let samples = counted.get(&(format, true)).copied().unwrap_or(0);
        assert!(samples > 0, "no built-in {format} sample was checked");
        say(&format!(
            "kaitai cross-check: {format}: {samples} samples + {} fixtures agree",
            counted.get(&(format, false)).copied().unwrap_or(0)
        ));
    }
    say(&format!(
        "kaitai cross-check: {} files in {:.2} s (node: compile + parse)",
        cases.len(),
        took.as_secs_f64()
    ));
}
