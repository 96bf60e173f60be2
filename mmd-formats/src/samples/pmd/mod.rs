//! PMD samples, built in code as [`Pmd`] values and written to bytes by a hand layout
//! (`layout.rs`), not by the library's writer: the reader must give back, from those bytes,
//! every value put in (a test checks it), and the writer must write the bytes back.
//!
//! Together they cover every branch of the PMD grammar:
//!
//! * every place a file may end: after the bone display list (no extension at all), after
//!   an English flag of 0, after the English names, after the toon textures, after the
//!   rigid bodies (no joint count), and after the joints (every block present); the
//!   physics blocks present with counts of 0; an English flag of 0 followed by the toon
//!   and physics blocks; an English flag of 2 (read as "names follow"); trailing bytes;
//! * English morph names for several morphs (one fewer than the morphs: the base has
//!   none), for the base morph alone (no entries) and for no morphs at all (no entries);
//! * name fields with a NUL and 0xFD fill, all-zero fill, NUL NUL then 0xFD, leftovers of a
//!   longer name after the NUL, empty with 0xFD fill, 19 bytes and the NUL, 20 bytes with
//!   no NUL, a two-byte character cut by the end of the field, the cp932 pair 0x81 0x60
//!   (`～`), and bone frame names ending in LF;
//! * IK chains with no links and with several links; every bone type 0-10 and one past
//!   them; a follow-rotate bone with a negative coefficient; tails of 0 and 0xFFFF;
//! * every morph type 0-4, a second morph of type 0 after the base, an unknown type, and
//!   a morph with no elements;
//! * toon indices 0, 9, 255 and one past the ten slots; textures with and without a
//!   sphere map, a sphere map alone, an empty texture; vertex weights 0, 100 and between;
//!   both edge flags; rigid bodies of every shape and mode, with a bone of 0xFFFF; -0.0.
//!
//! A sample that fails to build or that the hand layout cannot write is left out rather
//! than panicking; the test suite checks the list of names, so a missing sample fails
//! there.

mod layout;

use crate::error::Result;
use crate::pmd::*;
use crate::text::ShiftJis;

/// `s` in Shift_JIS, NUL-terminated when it leaves room, zero-filled.
fn zero<const N: usize>(s: &str) -> Result<ShiftJis<N>> {
    ShiftJis::new(s)
}

/// `s` in Shift_JIS, a NUL, then 0xFD to the end of the field (how MMD and PMDEditor
/// write names).
fn fd<const N: usize>(s: &str) -> Result<ShiftJis<N>> {
    let mut name = ShiftJis::<N>::new(s)?;
    let used = name.name_bytes().len();
    if let Some(fill) = name.0.get_mut(used + 1..) {
        fill.fill(0xFD);
    }
    Ok(name)
}

/// A field holding exactly `bytes`, zero-filled after them (longer input is cut).
fn raw<const N: usize>(bytes: &[u8]) -> ShiftJis<N> {
    let mut out = [0u8; N];
    for (d, s) in out.iter_mut().zip(bytes) {
        *d = *s;
    }
    ShiftJis(out)
}

/// Shift_JIS bytes of `s` (lossy: only used with text Shift_JIS can encode).
fn sjis(s: &str) -> Vec<u8> {
    encoding_rs::SHIFT_JIS.encode(s).0.into_owned()
}

/// A name of exactly `N` bytes with no NUL whose last byte is the first half of a
/// two-byte character: an ASCII prefix, then `あ` (82 A0) repeated, then 0x82.
fn cut_mid_character<const N: usize>() -> ShiftJis<N> {
    let mut out = [0u8; N];
    // An odd number of ASCII bytes leaves an odd slot at the end for the lone lead byte.
    let prefix = if N.is_multiple_of(2) { 1 } else { 2 };
    for (i, b) in out.iter_mut().enumerate() {
        // Lead bytes at even distances from the prefix, the last byte included.
        *b = if i < prefix {
            b'x'
        } else if (i - prefix) % 2 == 0 {
            0x82
        } else {
            0xA0
        };
    }
    ShiftJis(out)
}

fn vertex(position: [f32; 3], uv: [f32; 2], bones: [u16; 2], weight: u8, edge_flag: u8) -> Vertex {
    Vertex {
        position,
        normal: [0.0, 0.0, -1.0],
        uv,
        bones,
        weight,
        edge_flag,
    }
}

fn material(
    toon_index: u8,
    edge_flag: u8,
    face_vertex_count: u32,
    texture: ShiftJis<20>,
) -> Material {
    Material {
        diffuse: [0.8, 0.6, 0.4, 0.9999],
        specularity: 5.0,
        specular: [0.1, 0.1, 0.1],
        ambient: [0.4, 0.3, 0.2],
        toon_index,
        edge_flag,
        face_vertex_count,
        texture,
    }
}

fn bone(name: ShiftJis<20>, parent: u16, tail: u16, bone_type: u8, ik_parent: u16, y: f32) -> Bone {
    Bone {
        name,
        parent,
        tail,
        bone_type,
        ik_parent,
        position: [0.0, y, -0.0],
    }
}

fn element(index: u32, position: [f32; 3]) -> MorphElement {
    MorphElement { index, position }
}

/// The rich model cut to its first `n` morphs (none shown in the morph panel), then
/// English names for what is left, toon textures and empty physics blocks.
fn morphs_then_english(n: usize) -> Result<Pmd> {
    let mut m = rich()?;
    m.morphs.truncate(n);
    m.morph_display.clear();
    m.english = english(&m)?;
    m.toon_textures = Some(toon_fd()?);
    Ok(no_physics(m))
}

/// `m` with both physics blocks present and empty (a count of 0 each).
fn no_physics(mut m: Pmd) -> Pmd {
    m.rigid_bodies = Some(Vec::new());
    m.joints = Some(Vec::new());
    m
}

/// The rich model with its first `n` extension blocks present, in file order: English
/// names, toon textures (0xFD fill), rigid bodies, joints.
fn with_blocks(n: usize) -> Result<Pmd> {
    let mut m = rich()?;
    if n >= 1 {
        m.english = english(&m)?;
    }
    if n >= 2 {
        m.toon_textures = Some(toon_fd()?);
    }
    if n >= 3 {
        m.rigid_bodies = Some(rigid_bodies()?);
    }
    if n >= 4 {
        m.joints = Some(joints()?);
    }
    Ok(m)
}

/// The base sections of the richest sample: 4 vertices, 3 triangles, 4 materials, bones of
/// every type, IK chains with and without links, morphs of every type.
fn rich() -> Result<Pmd> {
    let mut comment = fd::<256>("PMD sample\nline two\n")?;
    // Leftovers of a longer comment after the NUL.
    if let Some(tail) = comment.0.get_mut(30..34) {
        tail.copy_from_slice(b"old!");
    }
    let header = Header {
        version: 1.0,
        name: cut_mid_character::<20>(),
        comment,
    };
    let vertices = vec![
        vertex([0.0, 0.0, 0.0], [0.0, 0.0], [0, 1], 100, 0),
        vertex([1.0, -0.0, 0.5], [1.0, 0.0], [1, 2], 0, 1),
        vertex([0.0, 1.0, -0.5], [0.0, 1.0], [2, 3], 50, 0),
        vertex([-1.0, 2.0, 0.25], [0.5, 0.5], [3, 0], 37, 1),
    ];
    let faces = vec![0, 1, 2, 0, 2, 3, 1, 3, 2];
    let materials = vec![
        material(0, 1, 3, fd("tex.bmp*sphere.sph")?),
        material(255, 0, 3, fd("")?),
        material(9, 1, 3, zero("mfgl1.png*metal.sph")?),
        material(12, 0, 0, fd("env.spa")?),
    ];
    let b = |s: &str| fd::<20>(s);
    let none = 0xFFFF;
    let bones = vec![
        bone(b("センター")?, none, 1, 1, 0, 8.0),
        bone(b("上半身")?, 0, 2, 0, 0, 10.0),
        bone(b("右足ＩＫ")?, 0, 3, 2, 0, 1.0),
        bone(b("?")?, 0, 0, 3, 0, 0.0),
        bone(b("右ひざ")?, 0, 0, 4, 2, 4.0),
        bone(b("右目")?, 1, 0, 5, 6, 15.0),
        bone(b("右つま先")?, 4, 0, 6, 0, 0.5),
        bone(b("右足先")?, 6, 0, 7, 0, 0.2),
        bone(b("右腕捩")?, 1, 0xFFFF, 8, 0, 12.0),
        bone(b("右肩補助")?, 1, 0, 9, (-50i16) as u16, 13.0),
        bone(b("移動")?, 0, 0, 10, 0, 0.0),
        bone(b("謎")?, none, 0, 200, 7, 0.0),
    ];
    let ik_chains = vec![
        IkChain::new(2, 6, 40, 0.5, vec![4, 1, 0]),
        IkChain::new(2, 4, 3, 1.0036, vec![]),
    ];
    let morphs = vec![
        Morph::new(
            fd("base")?,
            0,
            vec![
                element(0, [0.0, 0.0, 0.0]),
                element(1, [1.0, -0.0, 0.5]),
                element(2, [0.0, 1.0, -0.5]),
            ],
        ),
        Morph::new(fd("真面目")?, 1, vec![element(0, [0.0, 0.1, 0.0])]),
        Morph::new(
            fd("まばたき")?,
            2,
            vec![element(1, [0.0, -0.2, 0.0]), element(2, [-0.0, 0.0, 0.0])],
        ),
        Morph::new(fd("あ")?, 3, vec![element(2, [0.0, 0.0, 0.3])]),
        Morph::new(fd("照れ")?, 4, vec![]),
        // A second morph of type 0: an ordinary offset morph, not a base.
        Morph::new(
            fd("頂点モーフ0.75")?,
            0,
            vec![element(0, [0.01, 0.0, 0.0]), element(1, [0.0, 0.02, 0.0])],
        ),
        Morph::new(zero("unknown type")?, 9, vec![element(2, [1.0, 1.0, 1.0])]),
    ];
    let frame_names = vec![fd::<50>("センター\n")?, zero::<50>("IK\n")?];
    let bone_display = vec![
        BoneDisplay { bone: 1, frame: 1 },
        BoneDisplay { bone: 2, frame: 2 },
        BoneDisplay { bone: 4, frame: 2 },
    ];
    Ok(Pmd {
        header,
        vertices,
        faces,
        materials,
        bones,
        ik_chains,
        morph_display: (1..morphs.len() as u16).collect(),
        morphs,
        frame_names,
        bone_display,
        english: None,
        toon_textures: None,
        rigid_bodies: None,
        joints: None,
        trailing: Vec::new(),
    })
}

/// English names for `model`: one per bone, one per morph but the base, one per frame.
fn english_for(model: &Pmd) -> Result<EnglishNames> {
    let counts = model.counts();
    let bone_names = (0..counts.bones)
        .map(|i| {
            if i == 1 {
                fd("")
            } else {
                fd(&format!("bone{i}"))
            }
        })
        .collect::<Result<Vec<_>>>()?;
    let morph_names = (1..counts.morphs)
        .map(|i| fd(&format!("morph{i}")))
        .collect::<Result<Vec<_>>>()?;
    let frame_names = (0..counts.frames)
        .map(|i| fd(&format!("Frame{i}")))
        .collect::<Result<Vec<_>>>()?;
    Ok(EnglishNames {
        // 19 bytes and the NUL: the field is full.
        model_name: zero("abcdefghijklmnopqrs")?,
        comment: fd("English comment\n")?,
        bone_names,
        morph_names,
        frame_names,
    })
}

fn english(model: &Pmd) -> Result<Option<English>> {
    Ok(Some(English {
        flag: 1,
        names: Some(english_for(model)?),
    }))
}

/// The toon block as MMD writes it: `toonNN.bmp`, a NUL, 0xFD fill.
fn toon_fd() -> Result<ToonTextures> {
    let mut names = [ShiftJis::<100>::default(); 10];
    for (i, slot) in names.iter_mut().enumerate() {
        *slot = fd(&format!("toon{:02}.bmp", i + 1))?;
    }
    Ok(ToonTextures { names })
}

fn rigid(name: ShiftJis<20>, bone: u16, group: u8, mask: u16, shape: u8, mode: u8) -> RigidBody {
    RigidBody {
        name,
        bone,
        group,
        collision_mask: mask,
        shape,
        size: [0.5, 1.0, 0.25],
        position: [0.0, -0.0, 0.1],
        rotation: [0.0, 1.5707964, 0.0],
        mass: 1.0,
        linear_damping: 0.5,
        angular_damping: 0.5,
        restitution: 0.0,
        friction: 0.5,
        mode,
    }
}

fn rigid_bodies() -> Result<Vec<RigidBody>> {
    let mut leftover = raw::<20>(b"u_body1\0\0y\0");
    if let Some(fill) = leftover.0.get_mut(11..) {
        fill.fill(0xFD);
    }
    let mut nul_nul_fd = raw::<20>(b"u_body2\0\0");
    if let Some(fill) = nul_nul_fd.0.get_mut(9..) {
        fill.fill(0xFD);
    }
    Ok(vec![
        rigid(leftover, 0, 0, 0xFFFF, 0, 0),
        rigid(nul_nul_fd, 0xFFFF, 8, 0xFFF0, 1, 1),
        rigid(fd("頭")?, 1, 15, 0x0000, 2, 2),
    ])
}

fn joints() -> Result<Vec<Joint>> {
    let mut junk = sjis("右髪1");
    junk.push(0);
    junk.extend(sjis("み "));
    junk.push(0);
    Ok(vec![
        Joint {
            name: raw(&junk),
            rigid_a: 0,
            rigid_b: 1,
            position: [0.0, 10.0, -0.0],
            rotation: [0.0, 0.0, 0.0],
            position_min: [-0.1, -0.1, -0.1],
            position_max: [0.1, 0.1, 0.1],
            rotation_min: [-0.5, -0.5, -0.5],
            rotation_max: [0.5, 0.5, 0.5],
            spring_position: [0.0, 0.0, 0.0],
            spring_rotation: [10.0, 10.0, 10.0],
        },
        Joint {
            name: fd("J2")?,
            rigid_a: 1,
            rigid_b: 2,
            ..Joint::default()
        },
    ])
}

/// A named sample builder.
type Builder = (&'static str, fn() -> Result<Pmd>);

/// Every sample as a value, by name (without the `pmd/` prefix and extension).
fn models() -> Vec<(&'static str, Result<Pmd>)> {
    let build: Vec<Builder> = vec![
        // No extension: the file ends after the bone display list.
        ("ends_after_bone_display", || {
            let mut m = rich()?;
            m.header.name = fd("no extensions")?;
            Ok(m)
        }),
        // Every section empty, no extension.
        ("empty", || {
            Ok(Pmd {
                header: Header {
                    version: 1.0,
                    name: fd("")?,
                    comment: fd("")?,
                },
                ..Pmd::default()
            })
        }),
        // The English flag byte 0, then the end of the file.
        ("ends_after_english_flag_0", || {
            let mut m = rich()?;
            m.english = Some(English {
                flag: 0,
                names: None,
            });
            Ok(m)
        }),
        // English names, then the end of the file.
        ("ends_after_english_names", || with_blocks(1)),
        // English names and toon textures, no physics (like a real file).
        ("ends_after_toon", || with_blocks(2)),
        // Rigid bodies, then the end of the file: no joint count.
        ("ends_after_rigid_bodies", || with_blocks(3)),
        // Every block present.
        ("full", || with_blocks(4)),
        // The physics blocks present with counts of 0 (8 bytes).
        ("physics_empty", || {
            let mut m = no_physics(with_blocks(1)?);
            m.toon_textures = Some(ToonTextures::standard());
            Ok(m)
        }),
        // English flag 0, then the toon textures and the physics blocks all the same.
        ("english_flag_0_then_toon_and_physics", || {
            let mut m = no_physics(with_blocks(2)?);
            m.english = Some(English {
                flag: 0,
                names: None,
            });
            Ok(m)
        }),
        // An English flag of 2: any value but 0 says the names follow.
        ("english_flag_2", || {
            let mut m = with_blocks(4)?;
            m.english = Some(English {
                flag: 2,
                names: Some(english_for(&m)?),
            });
            Ok(m)
        }),
        // No morphs at all: the English block has no morph names (not -1 of them).
        ("no_morphs_with_english", || morphs_then_english(0)),
        // The base morph alone: no English morph names either.
        ("base_morph_only_with_english", || morphs_then_english(1)),
        // Name fields of every form, in a model with only bones and frame names.
        ("name_forms", || {
            let mut fd_fd = [0xFDu8; 20];
            fd_fd[0] = 0;
            let mut nul_nul_fd = raw::<20>(b"nulnul\0\0");
            if let Some(fill) = nul_nul_fd.0.get_mut(8..) {
                fill.fill(0xFD);
            }
            let mut wave = sjis("ﾎﾞｰﾝ02");
            wave.extend([0x81, 0x60]);
            let names = vec![
                raw::<20>(&wave),
                ShiftJis([0; 20]),
                ShiftJis(fd_fd),
                nul_nul_fd,
                zero("nineteen-bytes-name")?,
                ShiftJis(*b"twenty-bytes-no-nul!"),
                cut_mid_character::<20>(),
            ];
            let bones = names
                .into_iter()
                .map(|n| bone(n, 0xFFFF, 0, 0, 0, 0.0))
                .collect();
            let mut no_nul_comment = [b'c'; 256];
            no_nul_comment[0] = b'\n';
            let mut frame_wave = sjis("ﾎﾞｰﾝ02");
            frame_wave.extend([0x81, 0x60]);
            let mut m = Pmd {
                header: Header {
                    version: 1.0,
                    name: ShiftJis(*b"abcdefghijklmnopqrst"),
                    comment: ShiftJis(no_nul_comment),
                },
                bones,
                frame_names: vec![raw(&frame_wave), cut_mid_character::<50>()],
                ..Pmd::default()
            };
            let mut en = english_for(&m)?;
            en.model_name = cut_mid_character::<20>();
            en.comment = cut_mid_character::<256>();
            m.english = Some(English {
                flag: 1,
                names: Some(en),
            });
            m.toon_textures = Some(ToonTextures::standard());
            Ok(m)
        }),
        // A version other than 1.0 (kept as read), and bytes after the joints.
        ("trailing_bytes", || {
            let mut m = rich()?;
            m.header.version = 1.5;
            m.english = english(&m)?;
            m.toon_textures = Some(toon_fd()?);
            m.rigid_bodies = Some(rigid_bodies()?);
            m.joints = Some(joints()?);
            m.trailing = b"\0\x01trailing\xFD".to_vec();
            Ok(m)
        }),
    ];
    build.into_iter().map(|(n, f)| (n, f())).collect()
}

/// Every PMD sample as `(name, bytes)`, named `pmd/<name>.pmd`, the bytes written by the
/// hand layout.
pub fn pmd_samples() -> Vec<(String, Vec<u8>)> {
    models()
        .into_iter()
        .filter_map(|(name, model)| {
            let bytes = layout::pmd_bytes(&model.ok()?)?;
            Some((format!("pmd/{name}.pmd"), bytes))
        })
        .collect()
}

/// Every PMD sample that builds as `(name, the value its bytes were written from)`.
#[cfg(test)]
pub(super) fn pmd_models() -> Vec<(String, Pmd)> {
    models()
        .into_iter()
        .filter_map(|(name, model)| Some((format!("pmd/{name}.pmd"), model.ok()?)))
        .collect()
}
