//! The peer readers from crates.io, each wrapped as a full in-memory read of one format,
//! and our own reader beside them. Shared by the `speed` bench and the `synth_files` test.
//!
//! Every wrapper reads every section the crate can read (the `mmd` crate is a chain of
//! streaming readers: it is driven to the end and every record collected), keeps the
//! parsed value, and reports the section counts it saw so a test can check a peer really
//! read the file.

// Each user of this module uses a different part of it.
#![allow(dead_code)]

use std::any::Any;

/// A file format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// PMX 2.0 / 2.1 model.
    Pmx,
    /// PMD model.
    Pmd,
    /// VMD motion.
    Vmd,
}

impl Format {
    /// The extension and table label.
    pub fn name(self) -> &'static str {
        match self {
            Format::Pmx => "pmx",
            Format::Pmd => "pmd",
            Format::Vmd => "vmd",
        }
    }
}

/// A parsed value of any reader, kept alive (for the memory measurement) and dropped
/// outside the timed region.
pub type Parsed = Box<dyn Any>;

/// Section name and record count, as a reader saw them.
pub type Counts = Vec<(&'static str, usize)>;

/// One peer reader of one format.
pub struct Peer {
    /// The crate name as on crates.io.
    pub name: &'static str,
    /// The crate version in the lock file (kept in step with the root `Cargo.toml`).
    pub version: &'static str,
    /// The format this entry reads.
    pub format: Format,
    /// What the crate does not read of the format (empty: everything).
    pub skips: &'static str,
    /// Known faults found while writing this harness, that make it fail on valid files.
    pub known: &'static str,
    /// A full read of the whole file from memory.
    pub read: fn(&[u8]) -> Result<Parsed, String>,
    /// The section counts of a value `read` returned.
    pub counts: fn(&dyn Any) -> Counts,
}

/// The peer crates, in table column order.
pub const PEER_CRATES: [(&str, &str); 5] = [
    ("mmd-anim-format", "0.5.3"),
    ("mmd", "0.0.6"),
    ("PMXUtil", "0.9.0"),
    ("pmx_parser", "0.2.0"),
    ("vmd_parser", "0.1.0"),
];

/// How a peer is built here, where it differs from its defaults.
pub const PEER_BUILD_NOTES: [(&str, &str); 1] = [(
    "mmd",
    "built without its default `vek` feature (vectors are plain arrays; ArrayVec kept for the additional UVs), which spares vek and its dependencies from the build",
)];

/// Every (peer, format) pair.
pub fn peers() -> Vec<Peer> {
    vec![
        Peer {
            name: "mmd-anim-format",
            version: "0.5.3",
            format: Format::Pmx,
            skips: "",
            known: "",
            read: |b| ok(mmd_anim_format::parse_pmx_model(b)),
            counts: |v| {
                let m = get::<mmd_anim_format::PmxParsedModel>(v);
                let c = &m.metadata.counts;
                vec![
                    ("vertices", c.vertices),
                    ("face_indices", m.geometry.indices.len()),
                    ("materials", c.materials),
                    ("bones", c.bones),
                    ("morphs", c.morphs),
                    ("display_frames", c.display_frames),
                    ("rigid_bodies", c.rigid_bodies),
                    ("joints", c.joints),
                ]
            },
        },
        Peer {
            name: "mmd-anim-format",
            version: "0.5.3",
            format: Format::Pmd,
            skips: "",
            known: "",
            read: |b| ok(mmd_anim_format::parse_pmd_model(b)),
            counts: |v| {
                let m = get::<mmd_anim_format::PmdParsedModel>(v);
                vec![
                    ("vertices", m.geometry.vertices.len()),
                    ("face_indices", m.geometry.indices.len()),
                    ("materials", m.materials.len()),
                    ("bones", m.skeleton.bones.len()),
                    ("ik_chains", m.skeleton.ik.len()),
                    ("morphs", m.morphs.len()),
                    ("rigid_bodies", m.rigid_bodies.len()),
                    ("joints", m.joints.len()),
                ]
            },
        },
        Peer {
            name: "mmd-anim-format",
            version: "0.5.3",
            format: Format::Vmd,
            skips: "",
            known: "",
            read: |b| ok(mmd_anim_format::parse_vmd_animation(b)),
            counts: |v| {
                let m = get::<mmd_anim_format::VmdParsedAnimation>(v);
                vec![
                    ("bone_keys", m.bone_frames.len()),
                    ("morph_keys", m.morph_frames.len()),
                    ("camera_keys", m.camera_frames.len()),
                    ("light_keys", m.light_frames.len()),
                    ("self_shadow_keys", m.self_shadow_frames.len()),
                    ("show_ik_keys", m.property_frames.len()),
                ]
            },
        },
        Peer {
            name: "mmd",
            version: "0.0.6",
            format: Format::Pmx,
            skips: "display frames, rigid bodies, joints, soft bodies (it has no reader for them)",
            known: "",
            read: |b| mmd_rs_read(b).map(|m| Box::new(m) as Parsed),
            counts: |v| {
                let m = get::<MmdRsModel>(v);
                vec![
                    ("vertices", m.vertices.len()),
                    ("face_indices", m.faces.len() * 3),
                    ("textures", m.textures.len()),
                    ("materials", m.materials.len()),
                    ("bones", m.bones.len()),
                    ("morphs", m.morphs.len()),
                ]
            },
        },
        Peer {
            name: "PMXUtil",
            version: "0.9.0",
            format: Format::Pmx,
            skips: "",
            known: "it panics (unwraps) on a file it cannot read",
            read: |b| pmxutil_read(b).map(|m| Box::new(m) as Parsed),
            counts: |v| {
                let m = get::<PmxUtilModel>(v);
                vec![
                    ("vertices", m.vertices.len()),
                    ("face_indices", m.faces.len() * 3),
                    ("textures", m.textures.len()),
                    ("materials", m.materials.len()),
                    ("bones", m.bones.len()),
                    ("morphs", m.morphs.len()),
                    ("display_frames", m.frames.len()),
                    ("rigid_bodies", m.rigid_bodies.len()),
                    ("joints", m.joints.len()),
                ]
            },
        },
        Peer {
            name: "pmx_parser",
            version: "0.2.0",
            format: Format::Pmx,
            skips: "",
            known: "reads a material-morph offset 8 bytes short (no specular strength, no edge size), so every file with a material morph fails a few records later",
            read: |b| ok(pmx_parser::pmx_read(&mut &b[..])),
            counts: |v| {
                let (_, m) = get::<(pmx_parser::header::Header, pmx_parser::pmx::Pmx)>(v);
                vec![
                    ("vertices", m.vertices.count() as usize),
                    ("face_indices", m.elements.element_indices.len()),
                    ("textures", m.textures.textures.len()),
                    ("materials", m.materials.materials.len()),
                    ("bones", m.bones.bones.len()),
                    ("morphs", m.morphs.morphs.len()),
                    ("display_frames", m.display_frames.display_frames.len()),
                    ("rigid_bodies", m.rigid_bodies.rigid_bodies.len()),
                    ("joints", m.joints.joints.len()),
                ]
            },
        },
        Peer {
            name: "vmd_parser",
            version: "0.1.0",
            format: Format::Vmd,
            skips: "self-shadow and IK/show blocks (it stops after the light block)",
            known: "decodes the whole fixed-length name field, past the NUL, so the 0xFD padding MMD writes there fails as an encoding error",
            read: |b| ok(vmd_parser::vmd_read(&mut &b[..])),
            counts: |v| {
                let m = get::<vmd_parser::Vmd>(v);
                vec![
                    ("bone_keys", m.bone.len()),
                    ("morph_keys", m.morph.len()),
                    ("camera_keys", m.camera.len()),
                    ("light_keys", m.light.len()),
                ]
            },
        },
    ]
}

fn ok<T: 'static, E: std::fmt::Display>(r: Result<T, E>) -> Result<Parsed, String> {
    r.map(|v| Box::new(v) as Parsed).map_err(|e| e.to_string())
}

fn n<T>(o: &Option<Vec<T>>) -> usize {
    o.as_ref().map_or(0, Vec::len)
}

fn get<T: 'static>(v: &dyn Any) -> &T {
    v.downcast_ref::<T>()
        .expect("counts called with the value of another reader")
}

type MmdCfg = mmd_rs::DefaultConfig;

/// What the `mmd` crate reads of a PMX file, collected.
pub struct MmdRsModel {
    /// Name, English name, comment, English comment.
    pub info: [String; 4],
    /// Vertices.
    pub vertices: Vec<mmd_rs::Vertex<MmdCfg>>,
    /// Triangles.
    pub faces: Vec<[i32; 3]>,
    /// Texture paths.
    pub textures: Vec<String>,
    /// Materials.
    pub materials: Vec<mmd_rs::Material<MmdCfg>>,
    /// Bones.
    pub bones: Vec<mmd_rs::Bone<MmdCfg>>,
    /// Morphs.
    pub morphs: Vec<mmd_rs::pmx::morph::Morph<MmdCfg>>,
}

fn mmd_rs_read(b: &[u8]) -> Result<MmdRsModel, String> {
    use mmd_rs::reader::*;
    let e = |e: mmd_rs::Error| e.to_string();
    let mut header = HeaderReader::new(b).map_err(e)?;
    let info = [
        std::mem::take(&mut header.model_local_name),
        std::mem::take(&mut header.model_universal_name),
        std::mem::take(&mut header.local_comments),
        std::mem::take(&mut header.universal_comments),
    ];
    let mut v = VertexReader::new(header).map_err(e)?;
    let vertices = v
        .iter::<MmdCfg>()
        .collect::<Result<Vec<_>, _>>()
        .map_err(e)?;
    let mut s = SurfaceReader::new(v).map_err(e)?;
    let faces = s
        .iter::<MmdCfg>()
        .collect::<Result<Vec<_>, _>>()
        .map_err(e)?;
    let mut t = TextureReader::new(s).map_err(e)?;
    let textures = t.iter().collect::<Result<Vec<_>, _>>().map_err(e)?;
    let mut m = MaterialReader::new(t).map_err(e)?;
    let materials = m
        .iter::<MmdCfg>()
        .collect::<Result<Vec<_>, _>>()
        .map_err(e)?;
    let mut bo = BoneReader::new(m).map_err(e)?;
    let bones = bo
        .iter::<MmdCfg>()
        .collect::<Result<Vec<_>, _>>()
        .map_err(e)?;
    let mut mo = MorphReader::new(bo).map_err(e)?;
    let morphs = mo
        .iter::<MmdCfg>()
        .collect::<Result<Vec<_>, _>>()
        .map_err(e)?;
    Ok(MmdRsModel {
        info,
        vertices,
        faces,
        textures,
        materials,
        bones,
        morphs,
    })
}

/// Everything PMXUtil reads of a PMX file.
pub struct PmxUtilModel {
    /// Names and comments.
    pub info: PMXUtil::types::ModelInfo,
    /// Vertices.
    pub vertices: Vec<PMXUtil::types::Vertex>,
    /// Triangles.
    pub faces: Vec<PMXUtil::types::Face>,
    /// Texture paths.
    pub textures: Vec<String>,
    /// Materials.
    pub materials: Vec<PMXUtil::types::Material>,
    /// Bones.
    pub bones: Vec<PMXUtil::types::Bone>,
    /// Morphs.
    pub morphs: Vec<PMXUtil::types::Morph>,
    /// Display frames.
    pub frames: Vec<PMXUtil::types::Frame>,
    /// Rigid bodies.
    pub rigid_bodies: Vec<PMXUtil::types::Rigid>,
    /// Joints.
    pub joints: Vec<PMXUtil::types::Joint>,
    /// Soft bodies (PMX 2.1).
    pub soft_bodies: Vec<PMXUtil::types::SoftBody>,
}

/// PMXUtil panics on a bad file (it unwraps every read); the bench catches that.
fn pmxutil_read(b: &[u8]) -> Result<PmxUtilModel, String> {
    let stage = PMXUtil::reader::ModelInfoStage::from_reader(b)
        .ok_or_else(|| "not a PMX header it accepts".to_string())?;
    let (info, s) = stage.read();
    let (vertices, s) = s.read();
    let (faces, s) = s.read();
    let (textures, s) = s.read();
    let (materials, s) = s.read();
    let (bones, s) = s.read();
    let (morphs, s) = s.read();
    let (frames, s) = s.read();
    let (rigid_bodies, s) = s.read();
    let (joints, s) = s.read();
    let soft_bodies = s.map(|s| s.read()).unwrap_or_default();
    Ok(PmxUtilModel {
        info,
        vertices,
        faces,
        textures,
        materials,
        bones,
        morphs,
        frames,
        rigid_bodies,
        joints,
        soft_bodies,
    })
}

/// Our reader: `from_bytes` for the format.
pub fn ours_read(format: Format, b: &[u8]) -> Result<Parsed, String> {
    match format {
        Format::Pmx => ok(mmd_formats::pmx::Pmx::from_bytes(b)),
        Format::Pmd => ok(mmd_formats::pmd::Pmd::from_bytes(b)),
        Format::Vmd => ok(mmd_formats::vmd::Vmd::from_bytes(b)),
    }
}

/// Our writer: `Encode::encode` of a value `ours_read` returned, appended to `out`
/// (the caller gives a vector with the capacity already reserved).
pub fn ours_write(format: Format, v: &dyn Any, out: &mut Vec<u8>) -> Result<(), String> {
    use mmd_formats::Encode;
    let e = |e: mmd_formats::Error| e.to_string();
    match format {
        Format::Pmx => get::<mmd_formats::pmx::Pmx>(v).encode(out, &()).map_err(e),
        Format::Pmd => get::<mmd_formats::pmd::Pmd>(v).encode(out, &()).map_err(e),
        Format::Vmd => get::<mmd_formats::vmd::Vmd>(v).encode(out, &()).map_err(e),
    }
}

/// Our write as a user calls it: `to_bytes` on the value `ours_read` returned.
pub fn ours_to_bytes(format: Format, v: &dyn Any) -> Result<Vec<u8>, String> {
    let e = |e: mmd_formats::Error| e.to_string();
    match format {
        Format::Pmx => get::<mmd_formats::pmx::Pmx>(v).to_bytes().map_err(e),
        Format::Pmd => get::<mmd_formats::pmd::Pmd>(v).to_bytes().map_err(e),
        Format::Vmd => get::<mmd_formats::vmd::Vmd>(v).to_bytes().map_err(e),
    }
}

/// The section counts of a value `ours_read` returned, named as the peers name them.
pub fn ours_counts(format: Format, v: &dyn Any) -> Counts {
    match format {
        Format::Pmx => {
            let m = get::<mmd_formats::pmx::Pmx>(v);
            vec![
                ("vertices", m.vertices.len()),
                ("face_indices", m.faces.len()),
                ("textures", m.textures.len()),
                ("materials", m.materials.len()),
                ("bones", m.bones.len()),
                ("morphs", m.morphs.len()),
                ("display_frames", m.display_frames.len()),
                ("rigid_bodies", m.rigid_bodies.len()),
                ("joints", m.joints.len()),
            ]
        }
        Format::Pmd => {
            let m = get::<mmd_formats::pmd::Pmd>(v);
            vec![
                ("vertices", m.vertices.len()),
                ("face_indices", m.faces.len()),
                ("materials", m.materials.len()),
                ("bones", m.bones.len()),
                ("ik_chains", m.ik_chains.len()),
                ("morphs", m.morphs.len()),
                ("rigid_bodies", m.rigid_bodies.as_ref().map_or(0, Vec::len)),
                ("joints", m.joints.as_ref().map_or(0, Vec::len)),
            ]
        }
        Format::Vmd => {
            let m = get::<mmd_formats::vmd::Vmd>(v);
            vec![
                ("bone_keys", m.bone_keys.len()),
                ("morph_keys", n(&m.morph_keys)),
                ("camera_keys", n(&m.camera_keys)),
                ("light_keys", n(&m.light_keys)),
                ("self_shadow_keys", n(&m.self_shadow_keys)),
                ("show_ik_keys", n(&m.show_ik_keys)),
            ]
        }
    }
}
