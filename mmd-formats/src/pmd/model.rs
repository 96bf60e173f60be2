//! Vertices and materials.

use crate::text::{decode_sjis, ShiftJis};
use crate::Mmd;
use std::borrow::Cow;

/// One vertex: 38 bytes.
#[derive(Mmd, Debug, Clone, Copy, PartialEq, Default)]
pub struct Vertex {
    /// Position (x, y, z) in model units, left-handed (DirectX style).
    pub position: [f32; 3],
    /// Normal (x, y, z).
    pub normal: [f32; 3],
    /// Texture coordinate (u, v); v points down (DirectX style).
    pub uv: [f32; 2],
    /// The two bones that deform the vertex (bone indices).
    pub bones: [u16; 2],
    /// Weight of `bones[0]` in percent, 0-100; `bones[1]` gets 100 minus it. Values above
    /// 100 are not seen in files; they are kept.
    pub weight: u8,
    /// Edge flag: **1 = no edge** for this vertex (MMDAgent's "noEdgeFlag"), 0 = edge.
    ///
    /// Trap: the material edge flag means the opposite (1 = draw the edge).
    pub edge_flag: u8,
}

impl Vertex {
    /// The weights of `bones[0]` and `bones[1]`, 0.0-1.0 (from the percent byte).
    pub fn bone_weights(&self) -> [f32; 2] {
        let w = f32::from(self.weight) / 100.0;
        [w, 1.0 - w]
    }

    /// True when the pencil-outline edge is drawn at this vertex (edge flag 0).
    pub fn draws_edge(&self) -> bool {
        self.edge_flag == 0
    }
}

/// One material: 70 bytes. It covers the next `face_vertex_count` entries of the face
/// list (materials take the face list in order; the start is the running sum).
#[derive(Mmd, Debug, Clone, Copy, PartialEq, Default)]
pub struct Material {
    /// Diffuse colour (r, g, b, alpha). Alpha is the material's opacity (0.4 to 1.0 in
    /// known files, often 0.9999).
    pub diffuse: [f32; 4],
    /// Specularity: the specular power ("shininess").
    pub specularity: f32,
    /// Specular colour (r, g, b).
    pub specular: [f32; 3],
    /// Ambient colour (r, g, b).
    pub ambient: [f32; 3],
    /// Toon: 0-9 name toon01-toon10, entry 0-9 of the toon-texture block; **255 = none**
    /// (MMD's built-in toon0.bmp).
    pub toon_index: u8,
    /// Edge flag: **1 = draw the edge** for this material, 0 = no edge.
    ///
    /// Trap: the vertex edge flag means the opposite (1 = no edge).
    pub edge_flag: u8,
    /// The number of face-list entries (vertex indices, three per triangle) this material
    /// uses, taken in order from the face list.
    ///
    /// Trap: it counts indices, not triangles.
    pub face_vertex_count: u32,
    /// Texture file name, 20 bytes of Shift_JIS: `texture*sphere` when both a texture and
    /// a sphere map are used, `*` separating them (`mfgl1.png*metal.sph` fills 19 bytes and
    /// the NUL). A name that is only a sphere map (`.sph`, `.spa`) is possible.
    pub texture: ShiftJis<20>,
}

/// A material's texture field split at `*` (see [`Material::texture_files`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TextureFiles<'a> {
    /// The texture file name bytes (Shift_JIS), when there is one.
    pub texture: Option<&'a [u8]>,
    /// The sphere-map file name bytes (Shift_JIS), when there is one.
    pub sphere: Option<&'a [u8]>,
}

impl<'a> TextureFiles<'a> {
    /// The texture file name, decoded.
    pub fn texture_name(&self) -> Option<Cow<'a, str>> {
        self.texture.map(decode_sjis)
    }

    /// The sphere-map file name, decoded.
    pub fn sphere_name(&self) -> Option<Cow<'a, str>> {
        self.sphere.map(decode_sjis)
    }

    /// True when the sphere map is additive (`.spa`); otherwise it multiplies (`.sph`).
    pub fn sphere_is_additive(&self) -> bool {
        self.sphere
            .is_some_and(|s| ends_with_ignore_case(s, b".spa"))
    }
}

fn ends_with_ignore_case(name: &[u8], suffix: &[u8]) -> bool {
    name.len() >= suffix.len()
        && name
            .get(name.len() - suffix.len()..)
            .is_some_and(|tail| tail.eq_ignore_ascii_case(suffix))
}

impl Material {
    /// The toon slot 0-9 (toon01-toon10), or `None` for 255 (no toon texture of the
    /// model's own: toon0.bmp). Other values (10-254) are returned as they are.
    pub fn toon_slot(&self) -> Option<u8> {
        (self.toon_index != 0xFF).then_some(self.toon_index)
    }

    /// True when the edge is drawn for this material (edge flag not 0).
    pub fn draws_edge(&self) -> bool {
        self.edge_flag != 0
    }

    /// The texture and sphere-map file names: the name (up to its NUL) split at the first
    /// `*`. Without a `*`, a name ending in `.sph` or `.spa` is a sphere map alone, any
    /// other is a texture alone. Empty parts are `None`.
    ///
    /// Splitting the bytes is safe in Shift_JIS: `*` (0x2A) is never the second byte of a
    /// two-byte character.
    pub fn texture_files(&self) -> TextureFiles<'_> {
        let name = self.texture.name_bytes();
        fn part(b: &[u8]) -> Option<&[u8]> {
            (!b.is_empty()).then_some(b)
        }
        match name.iter().position(|&b| b == b'*') {
            Some(star) => TextureFiles {
                texture: name.get(..star).and_then(part),
                sphere: name.get(star + 1..).and_then(part),
            },
            None if ends_with_ignore_case(name, b".sph")
                || ends_with_ignore_case(name, b".spa") =>
            {
                TextureFiles {
                    texture: None,
                    sphere: Some(name),
                }
            }
            None => TextureFiles {
                texture: part(name),
                sphere: None,
            },
        }
    }
}
