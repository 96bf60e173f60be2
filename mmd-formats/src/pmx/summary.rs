//! What a PMX model holds, section by section: the numbers `mmd info` shows.

use super::{Pmx, PmxContext};

/// What a PMX model holds, section by section (see [`Pmx::summary`]).
#[derive(Debug, Clone, PartialEq)]
pub struct PmxSummary {
    /// The header version as stored (2.0 or 2.1).
    pub version: f32,
    /// The context the header's globals declare (text encoding, additional UVs, index
    /// widths); `None` when they declare none that can be used, which only a value built
    /// in code can have.
    pub context: Option<PmxContext>,
    /// The model name (local), decoded for display.
    pub name: String,
    /// Vertices.
    pub vertices: usize,
    /// Face-list entries (vertex indices; three per triangle).
    pub face_indices: usize,
    /// Texture paths.
    pub textures: usize,
    /// Materials.
    pub materials: usize,
    /// Bones.
    pub bones: usize,
    /// Morphs.
    pub morphs: usize,
    /// Display frames.
    pub display_frames: usize,
    /// Rigid bodies.
    pub rigid_bodies: usize,
    /// Joints.
    pub joints: usize,
    /// Soft bodies, or `None` when the block is absent (PMX 2.0, or a 2.1 file that ends
    /// after the joints).
    pub soft_bodies: Option<usize>,
    /// Bytes after the last section.
    pub trailing_bytes: usize,
}

impl Pmx {
    /// Version, context, model name and section counts.
    pub fn summary(&self) -> PmxSummary {
        PmxSummary {
            version: self.header.version,
            context: self.context().ok(),
            name: self.model.name.to_string_lossy().into_owned(),
            vertices: self.vertices.len(),
            face_indices: self.faces.len(),
            textures: self.textures.len(),
            materials: self.materials.len(),
            bones: self.bones.len(),
            morphs: self.morphs.len(),
            display_frames: self.display_frames.len(),
            rigid_bodies: self.rigid_bodies.len(),
            joints: self.joints.len(),
            soft_bodies: self.soft_bodies.as_ref().map(Vec::len),
            trailing_bytes: self.trailing.len(),
        }
    }
}
