//! PMX samples.

use crate::pmx::*;
use crate::text::PmxText;

/// A minimal model: one BDEF1 vertex, no faces, nothing else.
fn minimal() -> Pmx {
    let ctx = PmxContext::default();
    let t = |s: &str| PmxText::new(s, ctx.encoding);
    Pmx {
        header: Header::new(&ctx),
        model: ModelInfo {
            name: t("sample"),
            name_en: t("sample"),
            comment: t(""),
            comment_en: t(""),
        },
        vertices: vec![Vertex {
            position: [0.0, 1.0, 2.0],
            normal: [0.0, 0.0, 1.0],
            uv: [0.5, 0.5],
            additional_uv: vec![],
            weight: Weight::Bdef1 {
                bone: crate::index::BoneIndex::from_raw(0),
            },
            edge_scale: 1.0,
        }],
        faces: vec![],
        textures: vec![],
        materials: vec![],
        bones: vec![],
        morphs: vec![],
        display_frames: vec![],
        rigid_bodies: vec![],
        joints: vec![],
        soft_bodies: None,
        trailing: vec![],
    }
}

/// Every PMX sample as `(name, bytes)`.
pub fn pmx_samples() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    if let Ok(bytes) = minimal().to_bytes() {
        out.push(("pmx/minimal.pmx".to_string(), bytes));
    }
    out
}
