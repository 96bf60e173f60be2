//! PMX 2.0 and 2.1 models.
//!
//! A PMX file is a [`Header`] whose globals set the context ([`PmxContext`]: text encoding,
//! additional UVs, six index widths), then the sections in this order, each an `i32` count
//! followed by its records: vertices, faces (vertex indices, three per triangle), textures,
//! materials, bones, morphs, display frames, rigid bodies, joints, and in 2.1 soft bodies.
//! Bytes after the last section are kept in [`Pmx::trailing`].
//!
//! This module holds the layout types and their small typed views. What is done with a
//! model is in two submodules: [`edit`] recolours materials and renames records, changing
//! only the bytes of the field edited, and [`skeleton`] orders the bones as a tree, gives
//! their local positions and deform order, and finds the bones physics drives.
//!
//! ```
//! use mmd_formats::pmx::{PmxContext, Pmx};
//! # fn main() -> Result<(), mmd_formats::Error> {
//! let model = Pmx::new("初音ミク", &PmxContext::default());
//! let bytes = model.to_bytes()?;
//! assert_eq!(&bytes[..4], b"PMX ");
//! assert_eq!(Pmx::from_bytes(&bytes)?, model);
//! assert_eq!(model.summary().name, "初音ミク");
//! # Ok(()) }
//! ```

mod bone;
pub mod edit;
mod frame;
mod header;
mod material;
mod morph;
mod physics;
pub mod skeleton;
mod soft_body;
mod summary;
mod vertex;
mod vertices;

pub use crate::physics::{CollisionMask, RigidShape};
pub use bone::{Bone, BoneFlags, BoneTail, Ik, IkLink, Inherit, LocalAxes};
pub use frame::{DisplayFrame, FrameElement};
pub use header::{Header, ModelInfo, PmxContext};
pub use material::{Material, MaterialFlags, Toon};
pub use morph::{
    BoneOffset, GroupOffset, ImpulseOffset, MaterialOffset, Morph, MorphOffsets, UvOffset,
    VertexOffset,
};
pub use physics::{Joint, RigidBody};
pub use soft_body::{SoftBody, SoftBodyAnchor, SoftBodyFlags};
pub use summary::PmxSummary;
pub use vertex::{Vertex, Weight};
pub use vertices::{VertexIter, VertexMut, Vertices};

use crate::error::Result;
use crate::index::VertexIndex;
use crate::text::PmxText;
use crate::Mmd;

/// A whole PMX file.
///
/// PMX is the model format of PMX Editor and MikuMikuDance 7.39 and later. All numbers
/// are little-endian; `f32` is IEEE 754 single precision. The header's globals declare
/// the text encoding, the number of additional UVs and six index widths ([`PmxContext`]);
/// every later section is read with that context.
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(
    ctx = (),
    file(
        id = "pmx",
        title = "PMX 2.0 / 2.1",
        application = "PMX Editor, MikuMikuDance 7.39 and later"
    )
)]
pub struct Pmx {
    /// Signature, version and globals. The globals set the context for everything after.
    #[mmd(context = PmxContext(header))]
    pub header: Header,
    /// Model name and comment.
    pub model: ModelInfo,
    /// Vertices, preceded by an i32 count.
    #[mmd(count = i32, item = Vertex)]
    pub vertices: Vertices,
    /// The face list: vertex indices, three per triangle, preceded by an i32 count of
    /// indices (not of triangles). Materials take consecutive runs of it.
    #[mmd(count = i32)]
    pub faces: Vec<VertexIndex>,
    /// Texture paths relative to the model file (Windows separators), preceded by an i32 count.
    #[mmd(count = i32)]
    pub textures: Vec<PmxText>,
    /// Materials, preceded by an i32 count.
    #[mmd(count = i32)]
    pub materials: Vec<Material>,
    /// Bones, preceded by an i32 count.
    #[mmd(count = i32)]
    pub bones: Vec<Bone>,
    /// Morphs, preceded by an i32 count.
    #[mmd(count = i32)]
    pub morphs: Vec<Morph>,
    /// Display frames, preceded by an i32 count.
    #[mmd(count = i32)]
    pub display_frames: Vec<DisplayFrame>,
    /// Rigid bodies, preceded by an i32 count.
    #[mmd(count = i32)]
    pub rigid_bodies: Vec<RigidBody>,
    /// Joints, preceded by an i32 count.
    #[mmd(count = i32)]
    pub joints: Vec<Joint>,
    /// Soft bodies (PMX 2.1 only), preceded by an i32 count. `None` in 2.0 files, and in
    /// 2.1 files that end after the joints.
    #[mmd(if = ctx.is_v21, unless_eof, count = i32)]
    pub soft_bodies: Option<Vec<SoftBody>>,
    /// Bytes after the last section, kept verbatim.
    #[mmd(rest)]
    pub trailing: Vec<u8>,
}

impl Pmx {
    /// A new model with no vertices, faces, textures, materials, bones, morphs, display
    /// frames, rigid bodies or joints, whose header declares `context` (version, text
    /// encoding, additional UVs, index widths; [`PmxContext::default`] is PMX 2.0, UTF-16LE,
    /// no additional UV and 4-byte indices). The name is encoded as `context` says; the
    /// English name and the comments are empty. A version 2.1 context gives an empty
    /// soft-body block.
    pub fn new(name: &str, context: &PmxContext) -> Self {
        let text = |s: &str| PmxText::new(s, context.encoding);
        Pmx {
            header: Header::new(context),
            model: ModelInfo {
                name: text(name),
                name_en: text(""),
                comment: text(""),
                comment_en: text(""),
            },
            vertices: Vertices::new(),
            faces: Vec::new(),
            textures: Vec::new(),
            materials: Vec::new(),
            bones: Vec::new(),
            morphs: Vec::new(),
            display_frames: Vec::new(),
            rigid_bodies: Vec::new(),
            joints: Vec::new(),
            soft_bodies: context.is_v21().then(Vec::new),
            trailing: Vec::new(),
        }
    }

    /// The context the header declares.
    pub fn context(&self) -> Result<PmxContext> {
        self.header.context()
    }

    /// The faces as triangles (a trailing incomplete triangle is left out).
    pub fn triangles(&self) -> impl Iterator<Item = [VertexIndex; 3]> + '_ {
        self.faces.chunks_exact(3).map(|c| [c[0], c[1], c[2]])
    }
}

crate::file::whole_file_api!(Pmx, "PMX");
