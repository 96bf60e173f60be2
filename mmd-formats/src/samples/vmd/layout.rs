//! The VMD samples' bytes, written by hand from seed 004's layout tables (「全体のレイアウト」
//! and one table per record kind), and DESIGN.md for the old header (`Vocaloid Motion Data
//! file`, a 10-byte model name).
//!
//! Nothing here calls the library's writer. A model it cannot write as the seed lays it
//! out (a model name whose length does not go with the signature, a block present after
//! an absent one) gives `None`.

use super::super::bytes::{is_prefix, Out};
use crate::vmd::*;

/// The signature of the old header, which has a 10-byte model name (DESIGN.md).
const V1: &[u8] = b"Vocaloid Motion Data file";

/// The file's bytes. `None` when the model cannot be written as the seed lays it out.
pub(super) fn vmd_bytes(v: &Vmd) -> Option<Vec<u8>> {
    let mut o = Out::default();
    // Seed 004: 0, the 30-byte header string; 30, the model name (20 bytes; 10 after the
    // old header).
    o.raw(&v.header.signature);
    match (&v.header.model_name, v.header.signature.starts_with(V1)) {
        (ModelName::V1(name), true) => o.raw(&name.0),
        (ModelName::V2(name), false) => o.raw(&name.0),
        _ => return None,
    };
    // Bone keys (111 bytes): name (15), frame (u32), position (f32 × 3), rotation
    // quaternion (f32 × 4), the 64 interpolation bytes.
    o.u32(u32::try_from(v.bone_keys.len()).ok()?);
    for k in &v.bone_keys {
        o.raw(&k.name.0)
            .u32(k.frame)
            .f32s(&k.position)
            .f32s(&k.rotation)
            .raw(&k.interpolation);
    }
    // 「後ろのブロックは存在しないことがあります」: each later block is there only if every
    // earlier one is.
    let present = [
        v.morph_keys.is_some(),
        v.camera_keys.is_some(),
        v.light_keys.is_some(),
        v.self_shadow_keys.is_some(),
        v.show_ik_keys.is_some(),
    ];
    if !is_prefix(&present) {
        return None;
    }
    // Morph keys (23 bytes): name (15), frame (u32), weight (f32).
    if let Some(keys) = &v.morph_keys {
        o.u32(u32::try_from(keys.len()).ok()?);
        for k in keys {
            o.raw(&k.name.0).u32(k.frame).f32(k.weight);
        }
    }
    // Camera keys (61 bytes): frame (u32), distance (f32), target (f32 × 3), rotation
    // (f32 × 3, Euler radians), the 24 interpolation bytes, view angle (u32), perspective
    // (u8).
    if let Some(keys) = &v.camera_keys {
        o.u32(u32::try_from(keys.len()).ok()?);
        for k in keys {
            o.u32(k.frame)
                .f32(k.distance)
                .f32s(&k.target)
                .f32s(&k.rotation)
                .raw(&k.interpolation)
                .u32(k.fov)
                .u8(k.perspective);
        }
    }
    // Light keys (28 bytes): frame (u32), colour (f32 × 3), direction (f32 × 3).
    if let Some(keys) = &v.light_keys {
        o.u32(u32::try_from(keys.len()).ok()?);
        for k in keys {
            o.u32(k.frame).f32s(&k.color).f32s(&k.direction);
        }
    }
    // Self-shadow keys (9 bytes): frame (u32), mode (u8), distance (f32).
    if let Some(keys) = &v.self_shadow_keys {
        o.u32(u32::try_from(keys.len()).ok()?);
        for k in keys {
            o.u32(k.frame).u8(k.mode).f32(k.distance);
        }
    }
    // Show/IK keys (9 + 21 × IK count): frame (u32), show (u8), IK count (u32), then per
    // IK a 20-byte bone name and an enabled byte.
    if let Some(keys) = &v.show_ik_keys {
        o.u32(u32::try_from(keys.len()).ok()?);
        for k in keys {
            o.u32(k.frame)
                .u8(k.show)
                .u32(u32::try_from(k.ik.len()).ok()?);
            for ik in &k.ik {
                o.raw(&ik.name.0).u8(ik.enabled);
            }
        }
    }
    o.raw(&v.trailing);
    Some(o.0)
}
