//! The PMX samples' bytes, written by hand from the seeds' layout tables: seed 000 (the
//! header, vertex, material, bone, morph, display-frame, rigid-body and joint tables and
//! the weight-type table), seed 001 (the bone flags' conditional fields and the IK block,
//! `if (hasLimit)`), seed 002 (the section order, signed `int` counts, index types and
//! the soft-body table of PMX 2.1).
//!
//! Nothing here calls the library's writer. A field the library's model does not
//! represent the way a seed states it (a variant whose tag byte disagrees, a flag bit
//! without its block) makes the whole sample unwritable: `None`.

use super::super::bytes::Out;
use crate::index::{
    BoneIndex, MaterialIndex, MorphIndex, RigidBodyIndex, TextureIndex, VertexIndex,
};
use crate::pmx::*;
use crate::text::PmxText;

/// What the header declares and the rest of the file is laid out by (seed 000's header
/// table: globals 0 text encoding, 1 additional UVs, 2-7 index widths).
struct Layout {
    /// Globals byte 0: 0 UTF-16LE, 1 UTF-8.
    utf8: bool,
    /// Globals byte 1: additional vec4 UVs per vertex.
    uv: usize,
    /// Globals bytes 2-7: index widths of vertex, texture, material, bone, morph and
    /// rigid body, in that order.
    widths: [u8; 6],
    /// Version 2.1 (seed 002: "Compare as floating point values"): the soft-body section
    /// follows the joints.
    v21: bool,
}

/// A writer that knows the file's layout.
struct W {
    out: Out,
    l: Layout,
}

/// The file's bytes: header, model info, the nine counted sections, the 2.1 soft bodies,
/// trailing bytes (seed 002's "Header | Model information | [int] Vertex count | …"
/// table). `None` when the model cannot be written as the seeds lay it out.
pub(super) fn pmx_bytes(p: &Pmx) -> Option<Vec<u8>> {
    let g = &p.header.globals;
    let mut widths = [0u8; 6];
    widths.copy_from_slice(g.get(2..8)?);
    let l = Layout {
        utf8: match g.first()? {
            0 => false,
            1 => true,
            _ => return None,
        },
        uv: usize::from(*g.get(1)?),
        widths,
        v21: p.header.version > 2.0,
    };
    let mut w = W {
        out: Out::default(),
        l,
    };
    // Seed 000: `PMX ` (a space at the end), the version float32, the globals count, the
    // globals; then the model name, English name, comment and English comment.
    w.out.raw(b"PMX ").f32(p.header.version);
    w.out.u8(u8::try_from(g.len()).ok()?).raw(g);
    for t in [
        &p.model.name,
        &p.model.name_en,
        &p.model.comment,
        &p.model.comment_en,
    ] {
        w.text(t);
    }
    w.list(&p.vertices.to_vec(), W::vertex)?;
    w.list(&p.faces, |w, v| w.vertex_index(*v))?;
    w.list(&p.textures, |w, t| {
        w.text(t);
        Some(())
    })?;
    w.list(&p.materials, W::material)?;
    w.list(&p.bones, W::bone)?;
    w.list(&p.morphs, W::morph)?;
    w.list(&p.display_frames, W::frame)?;
    w.list(&p.rigid_bodies, W::rigid_body)?;
    w.list(&p.joints, W::joint)?;
    // Seed 002: `[int] SoftBody count | 2.1`; seed 000: a 2.0 file has no such block.
    match (&p.soft_bodies, w.l.v21) {
        (Some(soft), true) => w.list(soft, W::soft_body)?,
        (Some(_), false) => return None,
        (None, _) => {}
    }
    w.out.raw(&p.trailing);
    Some(w.out.0)
}

impl W {
    /// A count as a signed `int` (seed 002: "Note that it is a signed int"), then each
    /// record.
    fn list<T>(
        &mut self,
        items: &[T],
        mut record: impl FnMut(&mut W, &T) -> Option<()>,
    ) -> Option<()> {
        self.out.i32(i32::try_from(items.len()).ok()?);
        items.iter().try_for_each(|x| record(self, x))
    }

    /// A text: its byte length, then the bytes in the header's encoding (seed 000:
    /// 「文字列は『バイト長 + 本体』」; seed 001: `length` is bytes, not characters). Text
    /// that decodes is encoded here; raw bytes that do not decode are written as they are.
    fn text(&mut self, t: &PmxText) {
        let bytes = match t.to_str() {
            Some(s) if self.l.utf8 => s.as_bytes().to_vec(),
            Some(s) => s.encode_utf16().flat_map(u16::to_le_bytes).collect(),
            None => t.as_bytes().to_vec(),
        };
        self.out.u32(bytes.len() as u32).raw(&bytes);
    }

    /// A vertex index: unsigned at 1 and 2 bytes, an `int` at 4 (seed 000: 「頂点インデッ
    /// クスは符号なし」; seed 002's index table).
    fn vertex_index(&mut self, v: VertexIndex) -> Option<()> {
        self.out.int(self.l.widths[0], i64::from(v.raw()), false)?;
        Some(())
    }

    /// A signed index (texture, material, bone, morph, rigid body: -1 is none) at the
    /// width of globals byte `2 + kind`.
    fn index(&mut self, kind: usize, raw: i32) -> Option<()> {
        self.out.int(self.l.widths[kind], i64::from(raw), true)?;
        Some(())
    }

    fn texture(&mut self, i: TextureIndex) -> Option<()> {
        self.index(1, i.raw())
    }

    fn material_index(&mut self, i: MaterialIndex) -> Option<()> {
        self.index(2, i.raw())
    }

    fn bone_index(&mut self, i: BoneIndex) -> Option<()> {
        self.index(3, i.raw())
    }

    fn morph_index(&mut self, i: MorphIndex) -> Option<()> {
        self.index(4, i.raw())
    }

    fn rigid_index(&mut self, i: RigidBodyIndex) -> Option<()> {
        self.index(5, i.raw())
    }

    /// Seed 000's vertex table: position, normal, UV, the additional UVs the header
    /// declares, the weight type, its bones and weights, the edge scale.
    fn vertex(&mut self, v: &Vertex) -> Option<()> {
        self.out.f32s(&v.position).f32s(&v.normal).f32s(&v.uv);
        if v.additional_uv.len() != self.l.uv {
            return None;
        }
        for uv in &v.additional_uv {
            self.out.f32s(uv);
        }
        // Seed 000's weight table: 0 BDEF1 (one bone), 1 BDEF2 (two bones, one weight),
        // 2 BDEF4 (four bones, four weights), 3 SDEF (BDEF2, then C, R0, R1), 4 QDEF (as
        // BDEF4).
        match &v.weight {
            Weight::Bdef1 { bone } => {
                self.out.u8(0);
                self.bone_index(*bone)?;
            }
            Weight::Bdef2 { bones, weight } => {
                self.out.u8(1);
                self.bones(bones)?;
                self.out.f32(*weight);
            }
            Weight::Bdef4 { bones, weights } => {
                self.out.u8(2);
                self.bones(bones)?;
                self.out.f32s(weights);
            }
            Weight::Sdef {
                bones,
                weight,
                c,
                r0,
                r1,
            } => {
                self.out.u8(3);
                self.bones(bones)?;
                self.out.f32(*weight).f32s(c).f32s(r0).f32s(r1);
            }
            Weight::Qdef { bones, weights } => {
                self.out.u8(4);
                self.bones(bones)?;
                self.out.f32s(weights);
            }
        }
        self.out.f32(v.edge_scale);
        Some(())
    }

    fn bones(&mut self, bones: &[BoneIndex]) -> Option<()> {
        bones.iter().try_for_each(|b| self.bone_index(*b))
    }

    /// Seed 000's material table: names, diffuse RGBA, specular RGB and strength, ambient
    /// RGB, draw flags, edge colour and size, texture and sphere texture, sphere mode, the
    /// shared-toon flag and (0) a texture index or (1) one toon byte, memo, face count.
    fn material(&mut self, m: &Material) -> Option<()> {
        self.text(&m.name);
        self.text(&m.name_en);
        self.out
            .f32s(&m.diffuse)
            .f32s(&m.specular)
            .f32(m.specular_strength)
            .f32s(&m.ambient)
            .u8(m.flags.bits())
            .f32s(&m.edge_color)
            .f32(m.edge_size);
        self.texture(m.texture)?;
        self.texture(m.sphere_texture)?;
        self.out.u8(m.sphere_mode);
        match m.toon {
            Toon::Texture(t) => {
                self.out.u8(0);
                self.texture(t)?;
            }
            Toon::Shared(n) => {
                self.out.u8(1).u8(n);
            }
        }
        self.text(&m.memo);
        self.out.i32(m.face_count);
        Some(())
    }

    /// Seed 000's bone table, then the blocks its flag table names, in seed 002's order:
    /// tail (0x0001: a bone index, else an offset), inherit (0x0100 or 0x0200: parent and
    /// weight), fixed axis (0x0400), local axes (0x0800: X then Z), external parent key
    /// (0x2000: an int32), IK (0x0020: target, loop count, limit angle, links, each a bone
    /// and a limit byte, and when that byte is not 0 the lower and upper limits, seed 001).
    fn bone(&mut self, b: &Bone) -> Option<()> {
        let flags = b.flags.bits();
        let on = |bit: u16| flags & bit != 0;
        self.text(&b.name);
        self.text(&b.name_en);
        self.out.f32s(&b.position);
        self.bone_index(b.parent)?;
        self.out.i32(b.layer).u16(flags);
        match (on(0x0001), b.tail) {
            (true, BoneTail::Bone(i)) => self.bone_index(i)?,
            (false, BoneTail::Offset(o)) => {
                self.out.f32s(&o);
            }
            _ => return None,
        }
        if on(0x0100) || on(0x0200) {
            let inherit = b.inherit.as_ref()?;
            self.bone_index(inherit.parent)?;
            self.out.f32(inherit.weight);
        }
        if on(0x0400) {
            self.out.f32s(b.fixed_axis.as_ref()?);
        }
        if on(0x0800) {
            let axes = b.local_axes.as_ref()?;
            self.out.f32s(&axes.x).f32s(&axes.z);
        }
        if on(0x2000) {
            self.out.i32(b.external_parent?);
        }
        if on(0x0020) {
            let ik = b.ik.as_ref()?;
            self.bone_index(ik.target)?;
            self.out.i32(ik.loop_count).f32(ik.limit_angle);
            self.list(&ik.links, |w, link| {
                w.bone_index(link.bone)?;
                w.out.u8(link.has_limit);
                if link.has_limit != 0 {
                    w.out.f32s(link.limit_min.as_ref()?);
                    w.out.f32s(link.limit_max.as_ref()?);
                }
                Some(())
            })?;
        }
        Some(())
    }

    /// Seed 000's morph table: names, panel, type, element count, then the elements of
    /// the type: 0 group and 9 flip (morph, weight), 1 vertex (vertex, offset), 2 bone
    /// (bone, translation, rotation quaternion), 3 UV and 4-7 additional UV (vertex,
    /// four floats), 8 material (material, operation byte, diffuse 16, specular 12,
    /// strength 4, ambient 12, edge colour 16, edge size 4, texture 16, sphere 16, toon
    /// 16), 10 impulse (rigid body, local byte, velocity 12, torque 12).
    fn morph(&mut self, m: &Morph) -> Option<()> {
        self.text(&m.name);
        self.text(&m.name_en);
        self.out.u8(m.panel);
        let group = |w: &mut W, o: &GroupOffset| {
            w.morph_index(o.morph)?;
            w.out.f32(o.weight);
            Some(())
        };
        let uv = |w: &mut W, o: &UvOffset| {
            w.vertex_index(o.vertex)?;
            w.out.f32s(&o.offset);
            Some(())
        };
        match &m.offsets {
            MorphOffsets::Group(o) => self.typed(0, o, group),
            MorphOffsets::Vertex(o) => self.typed(1, o, |w, o| {
                w.vertex_index(o.vertex)?;
                w.out.f32s(&o.offset);
                Some(())
            }),
            MorphOffsets::Bone(o) => self.typed(2, o, |w, o| {
                w.bone_index(o.bone)?;
                w.out.f32s(&o.translation).f32s(&o.rotation);
                Some(())
            }),
            MorphOffsets::Uv(o) => self.typed(3, o, uv),
            MorphOffsets::AdditionalUv1(o) => self.typed(4, o, uv),
            MorphOffsets::AdditionalUv2(o) => self.typed(5, o, uv),
            MorphOffsets::AdditionalUv3(o) => self.typed(6, o, uv),
            MorphOffsets::AdditionalUv4(o) => self.typed(7, o, uv),
            MorphOffsets::Material(o) => self.typed(8, o, |w, o| {
                w.material_index(o.material)?;
                w.out
                    .u8(o.operation)
                    .f32s(&o.diffuse)
                    .f32s(&o.specular)
                    .f32(o.specular_strength)
                    .f32s(&o.ambient)
                    .f32s(&o.edge_color)
                    .f32(o.edge_size)
                    .f32s(&o.texture_tint)
                    .f32s(&o.sphere_tint)
                    .f32s(&o.toon_tint);
                Some(())
            }),
            MorphOffsets::Flip(o) => self.typed(9, o, group),
            MorphOffsets::Impulse(o) => self.typed(10, o, |w, o| {
                w.rigid_index(o.rigid_body)?;
                w.out.u8(o.local).f32s(&o.velocity).f32s(&o.torque);
                Some(())
            }),
        }
    }

    /// A morph's type byte, then its counted elements.
    fn typed<T>(
        &mut self,
        morph_type: u8,
        items: &[T],
        record: impl FnMut(&mut W, &T) -> Option<()>,
    ) -> Option<()> {
        self.out.u8(morph_type);
        self.list(items, record)
    }

    /// Seed 000: names, special flag, element count, then per element its target byte (0
    /// bone, 1 morph) and an index of that kind's width.
    fn frame(&mut self, f: &DisplayFrame) -> Option<()> {
        self.text(&f.name);
        self.text(&f.name_en);
        self.out.u8(f.special);
        self.list(&f.elements, |w, e| match *e {
            FrameElement::Bone(i) => {
                w.out.u8(0);
                w.bone_index(i)
            }
            FrameElement::Morph(i) => {
                w.out.u8(1);
                w.morph_index(i)
            }
        })
    }

    /// Seed 000: names, bone, group (1), non-collision mask (2), shape (1), size, position,
    /// rotation (12 each), mass, linear and angular damping, restitution, friction (4
    /// each), physics mode (1).
    fn rigid_body(&mut self, r: &RigidBody) -> Option<()> {
        self.text(&r.name);
        self.text(&r.name_en);
        self.bone_index(r.bone)?;
        self.out
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
        Some(())
    }

    /// Seed 000: names, type (1), rigid bodies A and B, position, rotation, then the
    /// translation and rotation limits and the springs (12 × 6; seed 002's order: position
    /// min, max, rotation min, max, position spring, rotation spring).
    fn joint(&mut self, j: &Joint) -> Option<()> {
        self.text(&j.name);
        self.text(&j.name_en);
        self.out.u8(j.kind);
        self.rigid_index(j.rigid_a)?;
        self.rigid_index(j.rigid_b)?;
        self.out
            .f32s(&j.position)
            .f32s(&j.rotation)
            .f32s(&j.translation_min)
            .f32s(&j.translation_max)
            .f32s(&j.rotation_min)
            .f32s(&j.rotation_max)
            .f32s(&j.spring_translation)
            .f32s(&j.spring_rotation);
        Some(())
    }

    /// Seed 002's soft-body table: names, shape (byte), material, group (byte), no-collision
    /// mask (short), flags (byte), B-link distance and cluster count (int), total mass and
    /// collision margin (float), aero model (int), twelve config floats (VCF … AHR), six
    /// cluster floats (SRHR_CL … SS_SPLT_CL), four iteration ints, the three material
    /// stiffness values (4 bytes each, kept as stored), the anchors (rigid body, vertex,
    /// near mode byte) and the vertex pins.
    fn soft_body(&mut self, s: &SoftBody) -> Option<()> {
        self.text(&s.name);
        self.text(&s.name_en);
        self.out.u8(s.shape);
        self.material_index(s.material)?;
        self.out
            .u8(s.group)
            .u16(s.collision_mask)
            .u8(s.flags.bits())
            .i32(s.b_link_distance)
            .i32(s.cluster_count)
            .f32(s.total_mass)
            .f32(s.collision_margin)
            .i32(s.aero_model)
            .f32s(&[
                s.vcf, s.dp, s.dg, s.lf, s.pr, s.vc, s.df, s.mt, s.chr, s.khr, s.shr, s.ahr,
            ])
            .f32s(&[
                s.srhr_cl,
                s.skhr_cl,
                s.sshr_cl,
                s.sr_splt_cl,
                s.sk_splt_cl,
                s.ss_splt_cl,
            ])
            .i32(s.v_it)
            .i32(s.p_it)
            .i32(s.d_it)
            .i32(s.c_it)
            .raw(&s.lst)
            .raw(&s.ast)
            .raw(&s.vst);
        self.list(&s.anchors, |w, a| {
            w.rigid_index(a.rigid_body)?;
            w.vertex_index(a.vertex)?;
            w.out.u8(a.near_mode);
            Some(())
        })?;
        self.list(&s.pins, |w, v| w.vertex_index(*v))
    }
}
