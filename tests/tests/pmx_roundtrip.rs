//! PMX corpus round trips: every `fixtures/pmx/*.pmx` reads and writes back byte-exactly,
//! every `fixtures/bad/*.pmx` is a clean error, and an independent walker (written here
//! from the seed layouts, sharing no code with the library) agrees with the library on
//! every file's section counts and on where the data ends. Run with `--nocapture` to see
//! the per-file counts.
//!
//! Without the corpus the corpus tests print SKIPPED; the walker is still checked against
//! the built-in samples.

use mmd_formats::pmx::*;
use mmd_formats::samples::pmx_samples;
use std::path::Path;

// ---------------------------------------------------------------------------------------
// An independent walker: steps over a PMX file by the seed layouts (000, 002), counting.
// ---------------------------------------------------------------------------------------

/// What the walker finds in a file.
#[derive(Debug, Default, PartialEq)]
struct Walk {
    /// Records in vertices, faces, textures, materials, bones, morphs, display frames,
    /// rigid bodies, joints.
    counts: [usize; 9],
    /// Soft bodies, when the section is there.
    soft_bodies: Option<usize>,
    /// Vertices per weight type 0-4.
    weights: [usize; 5],
    /// Bytes after the last section.
    trailing: usize,
}

struct Walker<'a> {
    b: &'a [u8],
    p: usize,
    w: [usize; 6],
}

impl<'a> Walker<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.p.checked_add(n).ok_or("overflow")?;
        let s = self
            .b
            .get(self.p..end)
            .ok_or_else(|| format!("{n} bytes at {:#x}: file ends", self.p))?;
        self.p = end;
        Ok(s)
    }
    fn skip(&mut self, n: usize) -> Result<(), String> {
        self.take(n).map(|_| ())
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, String> {
        let s = self.take(2)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }
    fn i32(&mut self) -> Result<i32, String> {
        let s = self.take(4)?;
        Ok(i32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
    /// An i32 count: not negative, and not more records than bytes left.
    fn count(&mut self) -> Result<usize, String> {
        let at = self.p;
        let n = self.i32()?;
        let n = usize::try_from(n).map_err(|_| format!("negative count {n} at {at:#x}"))?;
        if n > self.b.len() - self.p {
            return Err(format!("count {n} at {at:#x} exceeds the bytes left"));
        }
        Ok(n)
    }
    fn text(&mut self) -> Result<(), String> {
        let n = self.count()?;
        self.skip(n)
    }
    /// An index of kind k (0 vertex, 1 texture, 2 material, 3 bone, 4 morph, 5 rigid body).
    fn idx(&mut self, k: usize) -> Result<(), String> {
        self.skip(self.w[k])
    }
}

fn walk(bytes: &[u8]) -> Result<Walk, String> {
    let mut w = Walker {
        b: bytes,
        p: 0,
        w: [0; 6],
    };
    if w.take(4)? != b"PMX " {
        return Err("signature".into());
    }
    let version = f32::from_le_bytes(w.take(4)?.try_into().map_err(|_| "version")?);
    let n = w.u8()? as usize;
    let globals = w.take(n)?;
    if globals.len() < 8 {
        return Err("fewer than 8 globals".into());
    }
    let uv = globals[1] as usize;
    for k in 0..6 {
        let width = globals[2 + k] as usize;
        if ![1, 2, 4].contains(&width) {
            return Err(format!("index width {width}"));
        }
        w.w[k] = width;
    }
    let (tw, mw, bw, mow, rw) = (w.w[1], w.w[2], w.w[3], w.w[4], w.w[5]);
    let vw = w.w[0];
    let _ = tw;
    for _ in 0..4 {
        w.text()?;
    }
    let mut out = Walk::default();
    // Vertices.
    let n = w.count()?;
    for _ in 0..n {
        w.skip(32 + 16 * uv)?;
        let at = w.p;
        let t = w.u8()?;
        let body = match t {
            0 => bw,
            1 => 2 * bw + 4,
            2 | 4 => 4 * bw + 16,
            3 => 2 * bw + 4 + 36,
            _ => return Err(format!("weight type {t} at {at}")),
        };
        out.weights[t as usize] += 1;
        w.skip(body + 4)?;
    }
    out.counts[0] = n;
    // Faces.
    let n = w.count()?;
    w.skip(n * vw)?;
    out.counts[1] = n;
    // Textures.
    let n = w.count()?;
    for _ in 0..n {
        w.text()?;
    }
    out.counts[2] = n;
    // Materials.
    let n = w.count()?;
    for _ in 0..n {
        w.text()?;
        w.text()?;
        w.skip(16 + 12 + 4 + 12 + 1 + 16 + 4)?;
        w.idx(1)?;
        w.idx(1)?;
        w.skip(1)?;
        match w.u8()? {
            0 => w.idx(1)?,
            1 => w.skip(1)?,
            t => return Err(format!("toon flag {t}")),
        }
        w.text()?;
        w.skip(4)?;
    }
    out.counts[3] = n;
    // Bones.
    let n = w.count()?;
    for _ in 0..n {
        w.text()?;
        w.text()?;
        w.skip(12)?;
        w.idx(3)?;
        w.skip(4)?;
        let f = w.u16()?;
        if f & 0x0001 != 0 {
            w.idx(3)?;
        } else {
            w.skip(12)?;
        }
        if f & 0x0300 != 0 {
            w.idx(3)?;
            w.skip(4)?;
        }
        if f & 0x0400 != 0 {
            w.skip(12)?;
        }
        if f & 0x0800 != 0 {
            w.skip(24)?;
        }
        if f & 0x2000 != 0 {
            w.skip(4)?;
        }
        if f & 0x0020 != 0 {
            w.idx(3)?;
            w.skip(8)?;
            let links = w.count()?;
            for _ in 0..links {
                w.idx(3)?;
                match w.u8()? {
                    0 => {}
                    1 => w.skip(24)?,
                    l => return Err(format!("IK link limit flag {l}")),
                }
            }
        }
    }
    out.counts[4] = n;
    // Morphs.
    let n = w.count()?;
    for _ in 0..n {
        w.text()?;
        w.text()?;
        w.skip(1)?;
        let t = w.u8()?;
        let size = match t {
            0 | 9 => mow + 4,
            1 => vw + 12,
            2 => bw + 28,
            3..=7 => vw + 16,
            8 => mw + 1 + 112,
            10 => rw + 1 + 24,
            _ => return Err(format!("morph type {t}")),
        };
        let k = w.count()?;
        w.skip(k * size)?;
    }
    out.counts[5] = n;
    // Display frames.
    let n = w.count()?;
    for _ in 0..n {
        w.text()?;
        w.text()?;
        w.skip(1)?;
        let k = w.count()?;
        for _ in 0..k {
            match w.u8()? {
                0 => w.idx(3)?,
                1 => w.idx(4)?,
                t => return Err(format!("frame target {t}")),
            }
        }
    }
    out.counts[6] = n;
    // Rigid bodies.
    let n = w.count()?;
    for _ in 0..n {
        w.text()?;
        w.text()?;
        w.idx(3)?;
        w.skip(1 + 2 + 1 + 36 + 20 + 1)?;
    }
    out.counts[7] = n;
    // Joints.
    let n = w.count()?;
    for _ in 0..n {
        w.text()?;
        w.text()?;
        w.skip(1)?;
        w.idx(5)?;
        w.idx(5)?;
        w.skip(24 + 72)?;
    }
    out.counts[8] = n;
    // Soft bodies (2.1), when the file goes on.
    if version > 2.05 && w.p < bytes.len() {
        let n = w.count()?;
        for _ in 0..n {
            w.text()?;
            w.text()?;
            w.skip(1)?;
            w.idx(2)?;
            w.skip(1 + 2 + 1 + 4 + 4 + 4 + 4 + 4)?;
            w.skip(4 * (12 + 6 + 4 + 3))?;
            let a = w.count()?;
            for _ in 0..a {
                w.idx(5)?;
                w.idx(0)?;
                w.skip(1)?;
            }
            let p = w.count()?;
            w.skip(p * vw)?;
        }
        out.soft_bodies = Some(n);
    }
    out.trailing = bytes.len() - w.p;
    Ok(out)
}

/// What the library read, in the walker's terms.
fn library_walk(p: &Pmx) -> Walk {
    let mut weights = [0usize; 5];
    for v in &p.vertices {
        let t = match v.weight {
            Weight::Bdef1 { .. } => 0,
            Weight::Bdef2 { .. } => 1,
            Weight::Bdef4 { .. } => 2,
            Weight::Sdef { .. } => 3,
            Weight::Qdef { .. } => 4,
        };
        weights[t] += 1;
    }
    Walk {
        counts: [
            p.vertices.len(),
            p.faces.len(),
            p.textures.len(),
            p.materials.len(),
            p.bones.len(),
            p.morphs.len(),
            p.display_frames.len(),
            p.rigid_bodies.len(),
            p.joints.len(),
        ],
        soft_bodies: p.soft_bodies.as_ref().map(Vec::len),
        weights,
        trailing: p.trailing.len(),
    }
}

/// Reads, writes back, compares; checks the walker agrees; returns the model.
fn check_file(name: &str, bytes: &[u8]) -> Pmx {
    let p = Pmx::from_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    let out = p
        .to_bytes()
        .unwrap_or_else(|e| panic!("{name}: write: {e}"));
    mmd_tests::assert_bytes_eq(&out, bytes, name);
    let walked = walk(bytes).unwrap_or_else(|e| panic!("{name}: walker: {e}"));
    assert_eq!(
        library_walk(&p),
        walked,
        "{name}: library and walker disagree"
    );
    p
}

fn file_name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

/// The `pmx/*.pmx` entries of the corpus manifest.
fn manifest_pmx_count(corpus: &Path) -> usize {
    let text = std::fs::read_to_string(corpus.join("MANIFEST.tsv")).expect("MANIFEST.tsv");
    text.lines()
        .filter_map(|l| l.split('\t').next())
        .filter(|f| f.starts_with("pmx/") && f.to_ascii_lowercase().ends_with(".pmx"))
        .count()
}

// ---------------------------------------------------------------------------------------
// Tests.
// ---------------------------------------------------------------------------------------

#[test]
fn walker_agrees_with_the_library_on_every_sample() {
    let samples = pmx_samples();
    assert!(samples.len() >= 17);
    for (name, bytes) in &samples {
        check_file(name, bytes);
    }
    // Both fail where the layout is broken: the minimal sample's one weight-type byte
    // (header 17 bytes, names "sample" twice in UTF-16 and two empty comments 40, the
    // vertex count 4, position, normal and uv 32) set to 9.
    let (_, minimal) = samples
        .iter()
        .find(|(n, _)| n == "pmx/minimal.pmx")
        .expect("minimal sample");
    let at = 17 + 40 + 4 + 32;
    assert_eq!(minimal[at], 0);
    let mut broken = minimal.clone();
    broken[at] = 9;
    assert_eq!(walk(&broken).unwrap_err(), format!("weight type 9 at {at}"));
    let e = Pmx::from_bytes(&broken).unwrap_err();
    assert_eq!(
        (e.offset(), e.path_string().as_str()),
        (at as u64, "vertices[0].weight")
    );
}

#[test]
fn every_corpus_pmx_round_trips_byte_exact() {
    let Some(files) = mmd_tests::corpus_files("pmx", "pmx") else {
        return;
    };
    let corpus = mmd_tests::corpus_dir().unwrap();
    assert_eq!(
        files.len(),
        manifest_pmx_count(&corpus),
        "pmx files found vs listed in MANIFEST.tsv"
    );
    for path in &files {
        let name = format!("pmx/{}", file_name(path));
        let bytes = std::fs::read(path).unwrap();
        let p = check_file(&name, &bytes);
        let c = library_walk(&p);
        println!(
            "{name}: v{} {} bytes; vertices {} faces {} textures {} materials {} bones {} \
             morphs {} frames {} rigid {} joints {} soft {:?} trailing {}; weights {:?}",
            p.header.version,
            bytes.len(),
            c.counts[0],
            c.counts[1],
            c.counts[2],
            c.counts[3],
            c.counts[4],
            c.counts[5],
            c.counts[6],
            c.counts[7],
            c.counts[8],
            c.soft_bodies,
            c.trailing,
            c.weights
        );
    }
    println!("{} PMX files byte-exact", files.len());
}

#[test]
fn every_bad_pmx_is_an_error_inside_the_file() {
    let Some(files) = mmd_tests::corpus_files("bad", "pmx") else {
        return;
    };
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let name = file_name(path);
        let r = std::panic::catch_unwind(|| Pmx::from_bytes(&bytes));
        let e = match r {
            Ok(Ok(_)) => panic!("{name}: a bad file read without error"),
            Ok(Err(e)) => e,
            Err(_) => panic!("{name}: the reader panicked"),
        };
        assert!(e.offset() < bytes.len() as u64, "{name}: {e}");
        assert!(!e.path_string().is_empty(), "{name}: {e}");
        assert!(walk(&bytes).is_err(), "{name}: the walker reads it");
        println!("bad/{name}: {e}");
    }
}

/// The bad file's weight-type byte at 683 (0x2ab) is 63: both readers stop there.
#[test]
fn bad_joint_orient_file_fails_at_the_weight_type() {
    let Some(bytes) = mmd_tests::fixture("bad/bad_tml_joint_orient_test.pmx") else {
        return;
    };
    assert_eq!(bytes[683], 63);
    let e = Pmx::from_bytes(&bytes).unwrap_err();
    assert_eq!(e.offset(), 683, "{e}");
    assert_eq!(e.path_string(), "vertices[13].weight", "{e}");
    assert_eq!(walk(&bytes).unwrap_err(), "weight type 63 at 683");
}

/// DESIGN.md: a PMX 2.0 file that uses QDEF (a 2.1 weight type).
#[test]
fn uml_qdef_twist_cylinder_is_v20_with_qdef() {
    let Some(bytes) = mmd_tests::fixture("pmx/uml_qdef_twist_cylinder.pmx") else {
        return;
    };
    let p = check_file("uml_qdef_twist_cylinder.pmx", &bytes);
    assert_eq!(p.header.version, 2.0);
    assert!(!p.context().unwrap().is_v21());
    let qdef = p
        .vertices
        .iter()
        .filter(|v| matches!(v.weight, Weight::Qdef { .. }))
        .count();
    assert!(qdef > 0);
    println!("QDEF vertices: {qdef} of {}", p.vertices.len());
}

/// DESIGN.md: a material with sphere mode 255.
#[test]
fn nanoem_effects_main_has_sphere_mode_255() {
    let Some(bytes) = mmd_tests::fixture("pmx/nanoem_effects_main.pmx") else {
        return;
    };
    let p = check_file("nanoem_effects_main.pmx", &bytes);
    let n = p.materials.iter().filter(|m| m.sphere_mode == 255).count();
    assert!(n > 0);
    println!(
        "materials with sphere mode 255: {n} of {}",
        p.materials.len()
    );
}

/// Seed 000 (its table of alicia.pmx: 22,311 vertices; widths 2/1/1/2/1/1; UTF-16LE, no
/// additional UV; BDEF1 8,858, BDEF2 10,121, BDEF4 3,332, SDEF 0) and seed 003 (アリシア:
/// 150 bones and the flag counts) agree with the corpus copy of the model.
#[test]
fn alicia_matches_the_counts_in_seeds_000_and_003() {
    let Some(bytes) = mmd_tests::fixture("pmx/alicia_solid.pmx") else {
        return;
    };
    let p = check_file("alicia_solid.pmx", &bytes);
    let c = p.context().unwrap();
    assert_eq!(c.widths, [2, 1, 1, 2, 1, 1]);
    assert_eq!(c.encoding, mmd_formats::TextEncoding::Utf16Le);
    assert_eq!(c.additional_uv, 0);
    assert_eq!(p.header.globals.len(), 8);
    let w = library_walk(&p);
    assert_eq!(w.counts[0], 22_311);
    assert_eq!(w.weights, [8_858, 10_121, 3_332, 0, 0]);
    assert_eq!(p.bones.len(), 150);
    let count = |bit: u16| p.bones.iter().filter(|b| b.flags.bits() & bit != 0).count();
    let seed_003 = [
        (0x0001u16, 77usize),
        (0x0002, 150),
        (0x0004, 14),
        (0x0008, 130),
        (0x0010, 133),
        (0x0020, 7),
        (0x0080, 0),
        (0x0100, 21),
        (0x0200, 1),
        (0x0400, 5),
        (0x0800, 66),
        (0x1000, 0),
        (0x2000, 0),
    ];
    for (bit, n) in seed_003 {
        assert_eq!(count(bit), n, "bone flag {bit:#06x}");
    }
    // Materials cover the face list exactly (seed 000: the running sum is the start).
    let sum: i64 = p.materials.iter().map(|m| m.face_count as i64).sum();
    assert_eq!(sum, p.faces.len() as i64);
}

/// The corpus's only soft body (PMX 2.1, UTF-8): LST/AST/VST hold 00 00 80 3f each, the
/// float 1.0 (Bullet's default), which as seed 002's int would be 1065353216.
#[test]
fn miu_sample_pmx21_soft_body_stiffness_reads_as_float_one() {
    let Some(bytes) = mmd_tests::fixture("pmx/miu_sample_pmx21_utf8.pmx") else {
        return;
    };
    let p = check_file("miu_sample_pmx21_utf8.pmx", &bytes);
    assert_eq!(p.header.version.to_bits(), 0x4006_6666);
    assert_eq!(
        p.context().unwrap().encoding,
        mmd_formats::TextEncoding::Utf8
    );
    let s = p.soft_bodies.as_ref().expect("soft-body section");
    assert_eq!(s.len(), 1);
    for raw in [s[0].lst, s[0].ast, s[0].vst] {
        assert_eq!(raw, [0x00, 0x00, 0x80, 0x3f]);
        assert_eq!(f32::from_le_bytes(raw), 1.0);
        assert_eq!(i32::from_le_bytes(raw), 1_065_353_216);
    }
}

/// Seed 000 (a parent may come after its child): two corpus files have bone 1 → parent 2.
#[test]
fn corpus_parents_after_children() {
    for rel in [
        "pmx/bmmd_bone_hierarchy_test2.pmx",
        "pmx/uml_hair_physics.pmx",
    ] {
        let Some(bytes) = mmd_tests::fixture(rel) else {
            return;
        };
        let p = check_file(rel, &bytes);
        assert_eq!(p.bones[1].parent.get(), Some(2), "{rel}");
    }
}
