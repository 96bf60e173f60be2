//! The PMD samples' bytes, written by hand from the PMD layout.
//!
//! No seed gives the PMD layout (seed 001 only names its page, 「PMD格式详解」, and says
//! PMD indices are a fixed 2 bytes and its text fixed-length Shift_JIS). This follows the
//! layout the MMD tools share, as `tests/tests/pmd_traps.rs` writes it by hand (and checks
//! it there against every PMD fixture, walked by an independent reader): little-endian
//! numbers, Shift_JIS names in fixed fields, and the record sizes noted below.
//!
//! Nothing here calls the library's writer. A model whose stored counts disagree with its
//! lists, or whose optional blocks are not a prefix of English names, toon textures, rigid
//! bodies, joints, cannot be written: `None`.

use super::super::bytes::{is_prefix, Out};
use crate::pmd::*;

/// The file's bytes. `None` when the model cannot be written as the layout lays it out.
pub(super) fn pmd_bytes(p: &Pmd) -> Option<Vec<u8>> {
    let mut o = Out::default();
    // Header: `Pmd`, the version float, the model name (20 bytes), the comment (256).
    o.raw(b"Pmd")
        .f32(p.header.version)
        .raw(&p.header.name.0)
        .raw(&p.header.comment.0);
    // Vertices (u32 count; 38 bytes each): position, normal, UV, two bone numbers (u16),
    // the first bone's weight (u8, 0-100), the edge flag (u8).
    o.u32(u32::try_from(p.vertices.len()).ok()?);
    for v in &p.vertices {
        o.f32s(&v.position)
            .f32s(&v.normal)
            .f32s(&v.uv)
            .u16(v.bones[0])
            .u16(v.bones[1])
            .u8(v.weight)
            .u8(v.edge_flag);
    }
    // Faces (u32 count of vertex numbers, u16 each).
    o.u32(u32::try_from(p.faces.len()).ok()?);
    for f in &p.faces {
        o.u16(*f);
    }
    // Materials (u32 count; 70 bytes each): diffuse RGBA, specularity, specular RGB,
    // ambient RGB, toon number (u8), edge flag (u8), face vertex count (u32), texture
    // file name (20 bytes).
    o.u32(u32::try_from(p.materials.len()).ok()?);
    for m in &p.materials {
        o.f32s(&m.diffuse)
            .f32(m.specularity)
            .f32s(&m.specular)
            .f32s(&m.ambient)
            .u8(m.toon_index)
            .u8(m.edge_flag)
            .u32(m.face_vertex_count)
            .raw(&m.texture.0);
    }
    // Bones (u16 count; 39 bytes each): name (20), parent (u16), tail (u16), type (u8),
    // IK parent (u16), position.
    o.u16(u16::try_from(p.bones.len()).ok()?);
    for b in &p.bones {
        o.raw(&b.name.0)
            .u16(b.parent)
            .u16(b.tail)
            .u8(b.bone_type)
            .u16(b.ik_parent)
            .f32s(&b.position);
    }
    // IK chains (u16 count): IK bone (u16), effector (u16), link count (u8), iterations
    // (u16), control weight (f32), then the links (u16 each).
    o.u16(u16::try_from(p.ik_chains.len()).ok()?);
    for c in &p.ik_chains {
        if usize::from(c.link_count) != c.links.len() {
            return None;
        }
        o.u16(c.ik_bone)
            .u16(c.effector)
            .u8(c.link_count)
            .u16(c.iterations)
            .f32(c.control_weight);
        for l in &c.links {
            o.u16(*l);
        }
    }
    // Morphs (u16 count): name (20), element count (u32), type (u8), then the elements
    // (16 bytes each: a vertex number, u32, and a position).
    o.u16(u16::try_from(p.morphs.len()).ok()?);
    for m in &p.morphs {
        if usize::try_from(m.element_count).ok()? != m.elements.len() {
            return None;
        }
        o.raw(&m.name.0).u32(m.element_count).u8(m.morph_type);
        for e in &m.elements {
            o.u32(e.index).f32s(&e.position);
        }
    }
    // Morph display list (u8 count, u16 each), bone frame names (u8 count, 50 bytes
    // each), bone display list (u32 count; bone u16, frame u8).
    o.u8(u8::try_from(p.morph_display.len()).ok()?);
    for m in &p.morph_display {
        o.u16(*m);
    }
    o.u8(u8::try_from(p.frame_names.len()).ok()?);
    for f in &p.frame_names {
        o.raw(&f.0);
    }
    o.u32(u32::try_from(p.bone_display.len()).ok()?);
    for d in &p.bone_display {
        o.u16(d.bone).u8(d.frame);
    }
    extensions(p, &mut o)?;
    o.raw(&p.trailing);
    Some(o.0)
}

/// The optional extension blocks, each present only if every earlier one is: the English
/// flag (u8) and, when it is not 0, the English names (model name 20, comment 256, one
/// 20-byte name per bone, one per morph but the base, one 50-byte name per bone frame);
/// the ten 100-byte toon texture names; the rigid bodies; the joints.
fn extensions(p: &Pmd, o: &mut Out) -> Option<()> {
    let present = [
        p.english.is_some(),
        p.toon_textures.is_some(),
        p.rigid_bodies.is_some(),
        p.joints.is_some(),
    ];
    if !is_prefix(&present) {
        return None;
    }
    if let Some(en) = &p.english {
        o.u8(en.flag);
        match (en.flag, &en.names) {
            (0, None) => {}
            (0, Some(_)) | (_, None) => return None,
            (_, Some(n)) => {
                let morph_names = p.morphs.len().saturating_sub(1);
                if n.bone_names.len() != p.bones.len()
                    || n.morph_names.len() != morph_names
                    || n.frame_names.len() != p.frame_names.len()
                {
                    return None;
                }
                o.raw(&n.model_name.0).raw(&n.comment.0);
                n.bone_names.iter().for_each(|x| {
                    o.raw(&x.0);
                });
                n.morph_names.iter().for_each(|x| {
                    o.raw(&x.0);
                });
                n.frame_names.iter().for_each(|x| {
                    o.raw(&x.0);
                });
            }
        }
    }
    if let Some(toon) = &p.toon_textures {
        toon.names.iter().for_each(|x| {
            o.raw(&x.0);
        });
    }
    if let Some(bodies) = &p.rigid_bodies {
        // Rigid bodies (u32 count; 83 bytes each): name (20), bone (u16), group (u8),
        // collision mask (u16), shape (u8), size, position, rotation, mass, linear
        // and angular damping, restitution, friction, mode (u8).
        o.u32(u32::try_from(bodies.len()).ok()?);
        for r in bodies {
            o.raw(&r.name.0)
                .u16(r.bone)
                .u8(r.group)
                .u16(r.collision_mask)
                .u8(r.shape)
                .f32s(&r.size)
                .f32s(&r.position)
                .f32s(&r.rotation)
                .f32s(&[
                    r.mass,
                    r.linear_damping,
                    r.angular_damping,
                    r.restitution,
                    r.friction,
                ])
                .u8(r.mode);
        }
    }
    if let Some(joints) = &p.joints {
        // Joints (u32 count; 124 bytes each): name (20), rigid bodies A and B (u32 each),
        // position, rotation, position limits, rotation limits, position and rotation
        // springs.
        o.u32(u32::try_from(joints.len()).ok()?);
        for j in joints {
            o.raw(&j.name.0)
                .u32(j.rigid_a)
                .u32(j.rigid_b)
                .f32s(&j.position)
                .f32s(&j.rotation)
                .f32s(&j.position_min)
                .f32s(&j.position_max)
                .f32s(&j.rotation_min)
                .f32s(&j.rotation_max)
                .f32s(&j.spring_position)
                .f32s(&j.spring_rotation);
        }
    }
    Some(())
}
