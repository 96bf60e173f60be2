//! A hand-written PMX byte builder for the PMX test suites, written from the seed layouts
//! (`../shared/seeds/000` and `002`), not with the library's writer: a byte writer that
//! knows the file's text encoding and six index widths (`B`), a whole-file assembler
//! (`F`), and record writers for the records the tests build again and again.
//!
//! Every number is little-endian; a PMX text is an `i32` byte length then the bytes in the
//! file's encoding; an index is 1, 2 or 4 bytes wide, its width given per kind by the header.

use mmd_formats::pmx::{MorphOffsets, Pmx, UvOffset};
use mmd_formats::Error;

/// Section number of the vertices (the first counted section).
pub const VERTICES: usize = 0;
/// Section number of the face (vertex index) list.
pub const FACES: usize = 1;
/// Section number of the texture paths.
pub const TEXTURES: usize = 2;
/// Section number of the materials.
pub const MATERIALS: usize = 3;
/// Section number of the bones.
pub const BONES: usize = 4;
/// Section number of the morphs.
pub const MORPHS: usize = 5;
/// Section number of the display frames.
pub const FRAMES: usize = 6;
/// Section number of the rigid bodies.
pub const RIGIDS: usize = 7;
/// Section number of the joints (the last of the nine counted sections).
pub const JOINTS: usize = 8;
/// The field path the library gives each of the nine counted sections, by section number.
pub const SECTION_NAMES: [&str; 9] = [
    "vertices",
    "faces",
    "textures",
    "materials",
    "bones",
    "morphs",
    "display_frames",
    "rigid_bodies",
    "joints",
];

/// Bytes in a context: the encoding byte (`globals[0]`: 0 UTF-16LE, anything else written
/// as UTF-8) and the six index widths (`globals[2..8]`: vertex, texture, material, bone,
/// morph, rigid body).
#[derive(Clone, Debug)]
pub struct B {
    /// The bytes written so far.
    pub buf: Vec<u8>,
    /// The text encoding byte: 0 writes text as UTF-16LE, any other value as UTF-8.
    pub enc: u8,
    /// The index widths in bytes, in header order: vertex, texture, material, bone, morph,
    /// rigid body.
    pub w: [u8; 6],
}

/// The bytes of `s` in the encoding `enc` (0 UTF-16LE, any other value UTF-8), without the
/// length prefix.
pub fn encode_text(enc: u8, s: &str) -> Vec<u8> {
    if enc == 0 {
        s.encode_utf16().flat_map(u16::to_le_bytes).collect()
    } else {
        s.as_bytes().to_vec()
    }
}

impl B {
    /// One byte.
    pub fn u8(&mut self, v: u8) -> &mut Self {
        self.buf.push(v);
        self
    }
    /// A little-endian `u16`.
    pub fn u16(&mut self, v: u16) -> &mut Self {
        self.raw(&v.to_le_bytes())
    }
    /// A little-endian `i32`.
    pub fn i32(&mut self, v: i32) -> &mut Self {
        self.raw(&v.to_le_bytes())
    }
    /// A little-endian `f32`.
    pub fn f32(&mut self, v: f32) -> &mut Self {
        self.raw(&v.to_le_bytes())
    }
    /// Little-endian `f32`s, one after the other.
    pub fn f32s(&mut self, v: &[f32]) -> &mut Self {
        for x in v {
            self.f32(*x);
        }
        self
    }
    /// Bytes as they are.
    pub fn raw(&mut self, v: &[u8]) -> &mut Self {
        self.buf.extend_from_slice(v);
        self
    }
    /// The low `w` bytes of `v`, little-endian (two's complement for negatives). Panics
    /// when `w` is above 8.
    pub fn int(&mut self, w: u8, v: i64) -> &mut Self {
        let b = v.to_le_bytes();
        self.raw(&b[..w as usize])
    }
    /// A vertex index at the vertex width.
    pub fn vi(&mut self, v: i64) -> &mut Self {
        self.int(self.w[0], v)
    }
    /// A texture index at the texture width.
    pub fn ti(&mut self, v: i64) -> &mut Self {
        self.int(self.w[1], v)
    }
    /// A material index at the material width.
    pub fn mi(&mut self, v: i64) -> &mut Self {
        self.int(self.w[2], v)
    }
    /// A bone index at the bone width.
    pub fn bi(&mut self, v: i64) -> &mut Self {
        self.int(self.w[3], v)
    }
    /// A morph index at the morph width.
    pub fn moi(&mut self, v: i64) -> &mut Self {
        self.int(self.w[4], v)
    }
    /// A rigid-body index at the rigid-body width.
    pub fn ri(&mut self, v: i64) -> &mut Self {
        self.int(self.w[5], v)
    }
    /// A PMX string: i32 byte length, then the bytes in the file's encoding.
    pub fn text(&mut self, s: &str) -> &mut Self {
        let b = encode_text(self.enc, s);
        self.i32(b.len() as i32).raw(&b)
    }
    /// A PMX string of raw bytes: i32 byte length, then the bytes as they are.
    pub fn raw_text(&mut self, b: &[u8]) -> &mut Self {
        self.i32(b.len() as i32).raw(b)
    }
    /// How many bytes are written so far.
    pub fn len(&self) -> usize {
        self.buf.len()
    }
    /// Whether nothing is written yet.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }
}

/// A whole file: header, model info, nine counted sections, the 2.1 soft bodies, trailing.
#[derive(Clone, Debug)]
pub struct F {
    /// The header version, written as its `f32` bits.
    pub version: f32,
    /// The globals: encoding, additional UV count, six index widths, and any extra bytes;
    /// their count is written before them.
    pub globals: Vec<u8>,
    /// The model info bytes (four texts), as they are.
    pub info: Vec<u8>,
    /// The nine counted sections, in file order: (count, record bytes).
    pub sec: Vec<(i32, Vec<u8>)>,
    /// The soft-body section, `None` for none at all: (count, record bytes).
    pub soft: Option<(i32, Vec<u8>)>,
    /// Bytes after the last section.
    pub trailing: Vec<u8>,
}

impl F {
    /// A file of the given version, encoding byte, additional UV count and index widths,
    /// with model info of four empty texts (16 zero bytes), every count 0 and, above
    /// version 2.05, a soft-body count of 0.
    pub fn new(version: f32, enc: u8, uv: u8, w: [u8; 6]) -> F {
        let mut globals = vec![enc, uv];
        globals.extend_from_slice(&w);
        F {
            version,
            globals,
            info: vec![0; 16],
            sec: vec![(0, vec![]); 9],
            soft: (version > 2.05).then(|| (0, vec![])),
            trailing: vec![],
        }
    }
    /// A 2.0 file in UTF-16LE with no additional UVs and the index widths `w`.
    pub fn v20(w: [u8; 6]) -> F {
        F::new(2.0, 0, 0, w)
    }
    /// An empty byte writer in this file's encoding and index widths (globals 0 and 2..8).
    pub fn b(&self) -> B {
        let mut w = [0u8; 6];
        w.copy_from_slice(&self.globals[2..8]);
        B {
            buf: vec![],
            enc: self.globals[0],
            w,
        }
    }
    /// Sets section `s` to `count` and the bytes of `body`.
    pub fn set(&mut self, s: usize, count: i32, body: &B) -> &mut Self {
        self.sec[s] = (count, body.buf.clone());
        self
    }
    /// Sets the model info to what `write` writes with this file's writer.
    pub fn set_info(&mut self, write: impl FnOnce(&mut B)) -> &mut Self {
        let mut b = self.b();
        write(&mut b);
        self.info = b.buf;
        self
    }
    /// Sets the model info to the four texts: name, English name, comment, English comment.
    pub fn set_info_texts(&mut self, texts: [&str; 4]) -> &mut Self {
        self.set_info(|b| {
            for t in texts {
                b.text(t);
            }
        })
    }
    /// The length of the header: magic, version, globals count and globals.
    pub fn header_len(&self) -> usize {
        9 + self.globals.len()
    }
    /// The offset of section `s`'s count.
    pub fn offset_of(&self, s: usize) -> usize {
        self.header_len()
            + self.info.len()
            + self.sec[..s]
                .iter()
                .map(|(_, b)| 4 + b.len())
                .sum::<usize>()
    }
    /// The offset of the soft-body count (right after the joints).
    pub fn soft_offset(&self) -> usize {
        self.offset_of(8) + 4 + self.sec[8].1.len()
    }
    /// The file's bytes.
    pub fn bytes(&self) -> Vec<u8> {
        let mut out = b"PMX ".to_vec();
        out.extend_from_slice(&self.version.to_le_bytes());
        out.push(self.globals.len() as u8);
        out.extend_from_slice(&self.globals);
        out.extend_from_slice(&self.info);
        for (n, b) in &self.sec {
            out.extend_from_slice(&n.to_le_bytes());
            out.extend_from_slice(b);
        }
        if let Some((n, b)) = &self.soft {
            out.extend_from_slice(&n.to_le_bytes());
            out.extend_from_slice(b);
        }
        out.extend_from_slice(&self.trailing);
        out
    }
    /// Reads the file, checks it writes back byte-exactly, returns the model.
    pub fn read(&self) -> Pmx {
        roundtrip(&self.bytes())
    }
    /// Reads the file and returns the read error; panics when it reads.
    pub fn read_err(&self) -> Error {
        match Pmx::from_bytes(&self.bytes()) {
            Ok(_) => panic!("expected a read error"),
            Err(e) => e,
        }
    }
}

/// Reads `bytes`, checks the model writes back to exactly `bytes`, returns the model.
#[track_caller]
pub fn roundtrip(bytes: &[u8]) -> Pmx {
    let pmx = Pmx::from_bytes(bytes).unwrap_or_else(|e| panic!("read failed: {e}"));
    let out = pmx
        .to_bytes()
        .unwrap_or_else(|e| panic!("write failed: {e}"));
    crate::assert_bytes_eq(&out, bytes, "round trip");
    pmx
}

/// The built-in sample `name` (from `mmd_formats::samples::pmx_samples`): its bytes and the
/// model read from them. Panics when there is no such sample or it does not read.
pub fn sample(name: &str) -> (Vec<u8>, Pmx) {
    let (_, bytes) = mmd_formats::samples::pmx_samples()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no sample {name}"));
    let p = Pmx::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    (bytes, p)
}

/// The toon branch of a material record: the shared-toon flag byte, then a 1-byte shared
/// toon (`S`), a texture index (`X`), or any flag and byte (`Raw`).
#[derive(Clone, Copy, Debug)]
pub enum T {
    /// Flag 1, then the shared toon number (one byte).
    S(u8),
    /// Flag 0, then a texture index at the texture width.
    X(i64),
    /// Any flag byte, then one byte.
    Raw(u8, u8),
}

impl T {
    /// Writes the flag byte and what follows it.
    pub fn write(self, b: &mut B) {
        match self {
            T::S(v) => b.u8(1).u8(v),
            T::X(v) => b.u8(0).ti(v),
            T::Raw(f, v) => b.u8(f).u8(v),
        };
    }
}

/// A material record, field by field in file order (seed layouts).
#[derive(Clone, Copy, Debug)]
pub struct MaterialRecord<'a> {
    /// The name.
    pub name: &'a str,
    /// The English name.
    pub name_en: &'a str,
    /// Diffuse RGBA, specular RGB, specular strength, ambient RGB: 11 `f32`s.
    pub colours: [f32; 11],
    /// The draw flags byte.
    pub flags: u8,
    /// Edge colour RGBA and edge size: 5 `f32`s.
    pub edge: [f32; 5],
    /// The texture index.
    pub texture: i64,
    /// The sphere texture index.
    pub sphere: i64,
    /// The sphere mode byte.
    pub sphere_mode: u8,
    /// The toon branch.
    pub toon: T,
    /// The memo text.
    pub memo: &'a str,
    /// The face (vertex index) count.
    pub faces: i32,
}

impl<'a> MaterialRecord<'a> {
    /// A material named `name` with the given toon and face count; English name and memo
    /// empty; colours 0.8 0.6 0.4 0.5 / 0.1 0.2 0.3 / 5.0 / 0.3 0.2 0.1; draw flags 0x1f;
    /// edge 0 0 0 1 and size 1; texture 0, no sphere texture (-1), sphere mode 0.
    pub fn new(name: &'a str, toon: T, faces: i32) -> Self {
        MaterialRecord {
            name,
            name_en: "",
            colours: [0.8, 0.6, 0.4, 0.5, 0.1, 0.2, 0.3, 5.0, 0.3, 0.2, 0.1],
            flags: 0x1f,
            edge: [0.0, 0.0, 0.0, 1.0, 1.0],
            texture: 0,
            sphere: -1,
            sphere_mode: 0,
            toon,
            memo: "",
            faces,
        }
    }
    /// Writes the record; returns the offset in `b` of the toon flag byte.
    pub fn write(&self, b: &mut B) -> usize {
        b.text(self.name)
            .text(self.name_en)
            .f32s(&self.colours)
            .u8(self.flags)
            .f32s(&self.edge)
            .ti(self.texture)
            .ti(self.sphere)
            .u8(self.sphere_mode);
        let at = b.len();
        self.toon.write(b);
        b.text(self.memo).i32(self.faces);
        at
    }
}

/// The start of a bone record: names (the English one empty), position, parent, layer 0,
/// flags.
pub fn bone_head(b: &mut B, name: &str, pos: [f32; 3], parent: i64, flags: u16) {
    b.text(name)
        .text("")
        .f32s(&pos)
        .bi(parent)
        .i32(0)
        .u16(flags);
}

/// A bone with only an offset tail (0, 1, 0) (flags 0x001e: rotatable, translatable,
/// visible, enabled).
pub fn plain_bone(b: &mut B, name: &str, pos: [f32; 3], parent: i64) {
    bone_head(b, name, pos, parent, 0x001e);
    b.f32s(&[0.0, 1.0, 0.0]);
}

/// An IK link: the bone index, the limit byte, and the lower and upper limits (6 `f32`s)
/// when given (written whatever the limit byte says).
pub type Link = (i64, u8, Option<[f32; 6]>);

/// An IK bone at the origin with no parent: flags 0x0020 (IK only), an offset tail of
/// zeros, then the IK block: target bone, loop count, limit angle, link count and links.
pub fn ik_bone(b: &mut B, name: &str, target: i64, loops: i32, angle: f32, links: &[Link]) {
    bone_head(b, name, [0.0; 3], -1, 0x0020);
    b.f32s(&[0.0; 3])
        .bi(target)
        .i32(loops)
        .f32(angle)
        .i32(links.len() as i32);
    for (bone, limit, limits) in links {
        b.bi(*bone).u8(*limit);
        if let Some(l) = limits {
            b.f32s(l);
        }
    }
}

/// A display frame record: names, special flag, element count, then each element as its
/// target byte and index: a morph index for target 1, a bone index for any other byte.
pub fn display_frame(b: &mut B, name: &str, name_en: &str, special: u8, elements: &[(u8, i64)]) {
    b.text(name)
        .text(name_en)
        .u8(special)
        .i32(elements.len() as i32);
    for (target, index) in elements {
        b.u8(*target);
        if *target == 1 {
            b.moi(*index);
        } else {
            b.bi(*index);
        }
    }
}

/// The offsets of a UV or additional-UV morph (types 3 to 7); panics for any other type.
#[track_caller]
pub fn uv_offsets(offsets: &MorphOffsets) -> &[UvOffset] {
    match offsets {
        MorphOffsets::Uv(o)
        | MorphOffsets::AdditionalUv1(o)
        | MorphOffsets::AdditionalUv2(o)
        | MorphOffsets::AdditionalUv3(o)
        | MorphOffsets::AdditionalUv4(o) => o,
        o => panic!("{o:?}"),
    }
}
