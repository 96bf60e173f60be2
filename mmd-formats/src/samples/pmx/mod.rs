//! PMX samples, built in code as [`Pmx`] values and written to bytes by a hand layout
//! written from the seeds (`layout.rs`), not by the library's writer: the reader must give
//! back, from those bytes, every value put in (a test checks it), and the writer must
//! write the bytes back (the round-trip tests).
//!
//! Together they cover every branch of the PMX grammar:
//!
//! * index widths 1, 2 and 4 for every kind, each at its boundary values (vertex 255 at
//!   width 1 and 65535 at width 2, unsigned; the signed kinds -1 and their maximum, 127 at
//!   width 1, 32767 at width 2, `i32::MAX` at width 4), and a model whose six kinds all have
//!   different widths;
//! * UTF-16LE and UTF-8 text, with a surrogate pair (U+1F600), and raw text that does not
//!   decode (unpaired surrogates, an odd UTF-16 byte length, invalid UTF-8);
//! * additional UV counts 0, 1, 2 and 4;
//! * every weight type (BDEF1/2/4, SDEF, QDEF, the last also in a 2.0 file);
//! * every material flag bit (the 2.1 bits 5-7 included), sphere modes 0-3 and 255, both
//!   toon branches (shared toon 0, 9 and 255; texture index -1 and the maximum);
//! * every bone flag block (tail index and tail offset, inherit rotation and translation,
//!   fixed axis, local axes, external parent, IK with links with and without limits and
//!   with no links), the flags with no block, unknown flag bits (0x0040, 0x4000, 0x8000),
//!   and a parent that comes after its child;
//! * every morph type 0-10, display frames with bone and morph elements, rigid bodies of
//!   every shape and mode, joints of types 0-5;
//! * PMX 2.1 with soft bodies (anchors, pins), with a soft-body count of 0, and with no
//!   soft-body section at all; PMX 2.0 (no soft-body section);
//! * a globals count of 10 (two extra bytes kept), trailing bytes after the last section
//!   (2.0 and 2.1), and a model whose every section has a count of 0.
//!
//! Index values are not checked against the section sizes by the format (nor by the
//! reader), so boundary values appear whatever the number of records.
//!
//! A sample the hand layout cannot write is left out rather than panicking; the test suite
//! checks the list of names, so a missing sample fails there.

mod full;
mod layout;
mod records;

use self::full::full;
use self::records::{bone, vertex};
use crate::index::BoneIndex;
use crate::pmx::*;
use crate::text::{PmxText, TextEncoding};

/// What a sample's header declares (seed 000's header table): the version, the text
/// encoding (globals byte 0), the additional UV count (byte 1) and the six index widths
/// (bytes 2-7: vertex, texture, material, bone, morph, rigid body).
#[derive(Debug, Clone, Copy)]
struct Decl {
    version: f32,
    encoding: TextEncoding,
    additional_uv: u8,
    widths: [u8; 6],
}

impl Decl {
    /// Version 2.1: the soft-body section follows the joints.
    fn is_v21(&self) -> bool {
        self.version > 2.0
    }

    /// The header: the version, then the eight globals.
    fn header(&self) -> Header {
        let encoding = match self.encoding {
            TextEncoding::Utf16Le => 0,
            TextEncoding::Utf8 => 1,
            TextEncoding::Unknown(b) => b,
        };
        let mut globals = vec![encoding, self.additional_uv];
        globals.extend_from_slice(&self.widths);
        Header {
            version: self.version,
            globals,
        }
    }
}

/// A declaration with the given version, encoding, additional UV count and widths.
fn context(version: f32, encoding: TextEncoding, additional_uv: u8, widths: [u8; 6]) -> Decl {
    Decl {
        version,
        encoding,
        additional_uv,
        widths,
    }
}

/// A model with every section empty and empty names.
fn empty(ctx: &Decl) -> Pmx {
    let t = |s: &str| PmxText::new(s, ctx.encoding);
    Pmx {
        header: ctx.header(),
        model: ModelInfo {
            name: t(""),
            name_en: t(""),
            comment: t(""),
            comment_en: t(""),
        },
        vertices: Vertices::new(),
        faces: vec![],
        textures: vec![],
        materials: vec![],
        bones: vec![],
        morphs: vec![],
        display_frames: vec![],
        rigid_bodies: vec![],
        joints: vec![],
        soft_bodies: if ctx.is_v21() { Some(vec![]) } else { None },
        trailing: vec![],
    }
}

/// A model with one vertex of each given weight and nothing else.
fn weights_only(ctx: &Decl, weights: Vec<Weight>) -> Pmx {
    let mut pmx = empty(ctx);
    pmx.model.name = PmxText::new("weights", ctx.encoding);
    pmx.vertices = weights
        .into_iter()
        .enumerate()
        .map(|(i, w)| vertex(ctx, i as f32, w))
        .collect();
    pmx.bones = vec![bone(ctx, "root", [0.0; 3], BoneIndex::NONE)];
    pmx
}

/// A model whose names hold raw bytes that do not decode in the declared encoding.
fn raw_text(ctx: &Decl, raws: [Vec<u8>; 4]) -> Pmx {
    let mut pmx = empty(ctx);
    let [a, b, c, d] = raws;
    pmx.model = ModelInfo {
        name: PmxText::from_raw(a, ctx.encoding),
        name_en: PmxText::from_raw(b, ctx.encoding),
        comment: PmxText::from_raw(c, ctx.encoding),
        comment_en: PmxText::from_raw(d.clone(), ctx.encoding),
    };
    pmx.textures = vec![PmxText::from_raw(d, ctx.encoding)];
    let mut b = bone(ctx, "", [0.0; 3], BoneIndex::NONE);
    b.name = pmx.model.name.clone();
    pmx.bones = vec![b];
    pmx
}

/// The minimal model: one BDEF1 vertex, nothing else.
fn minimal() -> Pmx {
    let ctx = context(2.0, TextEncoding::Utf16Le, 0, [4; 6]);
    let mut pmx = empty(&ctx);
    pmx.model.name = PmxText::new("sample", ctx.encoding);
    pmx.model.name_en = PmxText::new("sample", ctx.encoding);
    pmx.vertices = vec![Vertex {
        position: [0.0, 1.0, 2.0],
        normal: [0.0, 0.0, 1.0],
        uv: [0.5, 0.5],
        additional_uv: vec![],
        weight: Weight::Bdef1 {
            bone: BoneIndex::from_raw(0),
        },
        edge_scale: 1.0,
    }]
    .into();
    pmx
}

/// Every sample model with its name.
fn models() -> Vec<(&'static str, Pmx)> {
    use TextEncoding::{Utf16Le, Utf8};
    let v20 = 2.0f32;
    let v21 = 2.1f32;
    let mut out = Vec::new();

    // The full models: every section, every branch, at every width.
    let c = context(v21, Utf16Le, 4, [1; 6]);
    out.push(("pmx/full_v21_idx1_utf16_uv4.pmx", full(&c, true)));
    let c = context(v21, Utf8, 0, [2; 6]);
    out.push(("pmx/full_v21_idx2_utf8_uv0.pmx", full(&c, true)));
    let c = context(v21, Utf16Le, 2, [4; 6]);
    out.push(("pmx/full_v21_idx4_utf16_uv2.pmx", full(&c, true)));
    // Every kind a different width from its neighbours: a reader that uses the wrong
    // kind's width misreads this one.
    let c = context(v21, Utf8, 1, [4, 1, 2, 1, 2, 4]);
    out.push(("pmx/full_v21_idx_mixed_utf8_uv1.pmx", full(&c, true)));
    let c = context(v20, Utf16Le, 0, [2, 1, 1, 2, 1, 1]);
    out.push(("pmx/full_v20_idx_mixed_utf16.pmx", full(&c, false)));
    let c = context(v20, Utf8, 4, [1, 2, 4, 4, 2, 1]);
    out.push(("pmx/full_v20_idx_mixed_utf8_uv4.pmx", full(&c, false)));

    out.push(("pmx/minimal.pmx", minimal()));

    // Weights: every type at 2-byte bone indices, and QDEF in a 2.0 file (a real file
    // does this).
    let c = context(v20, Utf16Le, 0, [2; 6]);
    let bone = BoneIndex::from_raw;
    out.push((
        "pmx/weights_all_types_v20.pmx",
        weights_only(
            &c,
            vec![
                Weight::Bdef1 { bone: bone(0) },
                Weight::Bdef2 {
                    bones: [bone(0), bone(-1)],
                    weight: 1.0,
                },
                Weight::Bdef4 {
                    bones: [bone(0), bone(32767), bone(-1), bone(-1)],
                    weights: [1.0, 0.0, 0.0, 0.0],
                },
                Weight::Sdef {
                    bones: [bone(0), bone(32767)],
                    weight: 0.5,
                    c: [1.0, 2.0, 3.0],
                    r0: [4.0, 5.0, 6.0],
                    r1: [7.0, 8.0, 9.0],
                },
                Weight::Qdef {
                    bones: [bone(-1), bone(0), bone(-1), bone(0)],
                    weights: [0.0, 0.5, 0.0, 0.5],
                },
            ],
        ),
    ));

    // PMX 2.1 with no soft-body section at all (the file ends after the joints), and with
    // a soft-body count of 0: different files.
    let c = context(v21, Utf16Le, 0, [1, 1, 1, 1, 1, 1]);
    let mut m = full(&c, true);
    m.soft_bodies = None;
    out.push(("pmx/v21_no_soft_body_section.pmx", m));
    let mut m = full(&c, true);
    m.soft_bodies = Some(vec![]);
    out.push(("pmx/v21_soft_body_count_0.pmx", m));

    // Globals count 10: two bytes beyond the eight known ones, kept.
    let c = context(v20, Utf16Le, 0, [2, 1, 1, 2, 1, 1]);
    let mut m = full(&c, false);
    m.header.globals.extend_from_slice(&[0xab, 0xcd]);
    out.push(("pmx/globals_10.pmx", m));

    // Trailing bytes after the last section, in 2.0 and after the 2.1 soft bodies.
    let c = context(v20, Utf8, 0, [4; 6]);
    let mut m = full(&c, false);
    m.trailing = b"\0\0\0\0TRAILING\xff\xfe".to_vec();
    out.push(("pmx/trailing_bytes_v20.pmx", m));
    let c = context(v21, Utf16Le, 1, [2; 6]);
    let mut m = full(&c, true);
    m.trailing = vec![0x01, 0x00, 0x00, 0x00, 0xfd];
    out.push(("pmx/trailing_bytes_v21.pmx", m));

    // Every section present with a count of 0, every name empty (2.0 and 2.1).
    out.push((
        "pmx/zero_counts_v20.pmx",
        empty(&context(v20, Utf16Le, 0, [1; 6])),
    ));
    out.push((
        "pmx/zero_counts_v21.pmx",
        empty(&context(v21, Utf8, 0, [4; 6])),
    ));

    // Raw text that does not decode: UTF-16LE with a lone high surrogate, a lone low
    // surrogate, an odd byte length; UTF-8 with a stray continuation byte, a cut
    // three-byte sequence, an overlong NUL. Each next to a valid surrogate pair (U+1F600).
    let c = context(v20, Utf16Le, 0, [1; 6]);
    out.push((
        "pmx/text_utf16_undecodable.pmx",
        raw_text(
            &c,
            [
                vec![0x41, 0x00, 0x00, 0xd8, 0x42, 0x00],
                vec![0x00, 0xdc, 0x3d, 0xd8, 0x00, 0xde],
                vec![0x41, 0x00, 0x42],
                vec![0x3d, 0xd8, 0x00, 0xde, 0x3d, 0xd8],
            ],
        ),
    ));
    let c = context(v20, Utf8, 0, [1; 6]);
    out.push((
        "pmx/text_utf8_undecodable.pmx",
        raw_text(
            &c,
            [
                vec![b'a', 0x80, b'b'],
                vec![0xe3, 0x81],
                vec![0xc0, 0x80, 0xf0, 0x9f, 0x98, 0x80],
                vec![0xff, 0xfe, 0x00],
            ],
        ),
    ));
    out
}

/// Every PMX sample as `(name, bytes)`, the bytes written by the hand layout. A model it
/// cannot write is left out (the tests check the list of names, so it shows there).
pub fn pmx_samples() -> Vec<(String, Vec<u8>)> {
    models()
        .into_iter()
        .filter_map(|(name, pmx)| layout::pmx_bytes(&pmx).map(|b| (name.to_string(), b)))
        .collect()
}

/// Every PMX sample as `(name, the value its bytes were written from)`.
#[cfg(test)]
pub(super) fn pmx_models() -> Vec<(String, Pmx)> {
    models()
        .into_iter()
        .map(|(name, pmx)| (name.to_string(), pmx))
        .collect()
}
