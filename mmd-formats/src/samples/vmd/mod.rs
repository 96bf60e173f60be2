//! VMD samples: both headers, every possible end of file, every name-field oddity, every
//! record kind, and the interpolation bytes MMD writes.
//!
//! Built in code as [`Vmd`] values and written to bytes by a hand layout (`layout.rs`,
//! from seed 004), not by the library's writer: the reader must give back, from those
//! bytes, every value put in (a test checks it), and the writer must write the bytes back.
//! A sample that fails to build or that the hand layout cannot write is left out; the
//! test suite checks the list of names.

mod layout;

use crate::error::Result;
use crate::text::ShiftJis;
use crate::vmd::*;

/// A name field from raw bytes: the text, then `fill` up to the field's end.
fn raw_name<const N: usize>(text: &[u8], nul: bool, fill: u8) -> ShiftJis<N> {
    let mut raw = [fill; N];
    let n = text.len().min(N);
    raw[..n].copy_from_slice(&text[..n]);
    if nul && n < N {
        raw[n] = 0;
    }
    ShiftJis(raw)
}

fn bone(name: &str, frame: u32) -> Result<BoneKey> {
    Ok(BoneKey::new(
        ShiftJis::new(name)?,
        frame,
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 1.0],
    ))
}

fn morph(name: &str, frame: u32, weight: f32) -> Result<MorphKey> {
    Ok(MorphKey {
        name: ShiftJis::new(name)?,
        frame,
        weight,
    })
}

fn camera(frame: u32, distance: f32) -> CameraKey {
    CameraKey {
        frame,
        distance,
        target: [0.0, 10.0, 0.0],
        rotation: [0.1, -0.2, 0.0],
        interpolation: CameraInterpolation::LINEAR.to_bytes(),
        fov: 30,
        perspective: 0,
    }
}

fn light(frame: u32) -> LightKey {
    LightKey {
        frame,
        color: [0.6, 0.6, 0.6],
        direction: [-0.5, -1.0, 0.5],
    }
}

/// A v2 file with one key in every block.
fn all_six() -> Result<Vmd> {
    let mut v = Vmd::new_v2("初音ミク")?;
    v.bone_keys = vec![bone("センター", 0)?, bone("左腕", 15)?];
    v.morph_keys = Some(vec![morph("まばたき", 3, 1.0)?]);
    v.camera_keys = Some(vec![camera(0, -45.0)]);
    v.light_keys = Some(vec![light(0)]);
    v.self_shadow_keys = Some(vec![SelfShadowKey {
        frame: 0,
        mode: 1,
        distance: 0.088_75,
    }]);
    v.show_ik_keys = Some(vec![ShowIkKey {
        frame: 0,
        show: 1,
        ik: vec![IkState {
            name: ShiftJis::new("左足ＩＫ")?,
            enabled: 1,
        }],
    }]);
    Ok(v)
}

/// `all_six` cut after block `keep` (1 = bone only ... 5 = up to self-shadow).
fn ends_after(keep: usize) -> Result<Vmd> {
    let mut v = all_six()?;
    if keep < 6 {
        v.show_ik_keys = None;
    }
    if keep < 5 {
        v.self_shadow_keys = None;
    }
    if keep < 4 {
        v.light_keys = None;
    }
    if keep < 3 {
        v.camera_keys = None;
    }
    if keep < 2 {
        v.morph_keys = None;
    }
    Ok(v)
}

fn v1_header() -> Result<Vmd> {
    let mut v = Vmd::new_v2("")?;
    v.header = Header::new_v1("miku")?;
    v.bone_keys = vec![bone("頭", 0)?];
    // An old file: no self-shadow or IK block.
    v.self_shadow_keys = None;
    v.show_ik_keys = None;
    Ok(v)
}

fn signature_junk() -> Result<Vmd> {
    let mut v = Vmd::new_v2("LatミクVer2.3N")?;
    v.header.signature[26..30].copy_from_slice(b"JKLM");
    v.bone_keys = vec![bone("首", 0)?];
    Ok(v)
}

fn names_fd_junk() -> Result<Vmd> {
    let mut v = Vmd::new_v2("")?;
    // `センター` then NUL then 0xFD to the end, as older MMD writes it.
    let center = b"\x83\x5a\x83\x93\x83\x5e\x81\x5b";
    v.header.model_name = ModelName::V2(raw_name(b"Mei", true, 0xFD));
    let mut key = bone("", 0)?;
    key.name = raw_name(center, true, 0xFD);
    let mut m = morph("", 0, 0.5)?;
    m.name = raw_name(b"\x82\xa0", true, 0xFD); // あ
    v.bone_keys = vec![key];
    v.morph_keys = Some(vec![m]);
    Ok(v)
}

fn names_no_nul() -> Result<Vmd> {
    let mut v = Vmd::new_v2("")?;
    v.header.model_name = ModelName::V2(raw_name(b"ik_multi_axis_limit_", false, 0));
    // `前クローク2_1xc`: exactly 15 bytes, no NUL.
    let name = b"\x91\x4f\x83\x4e\x83\x8d\x81\x5b\x83\x4e\x32\x5f\x31\x78\x63";
    let mut key = bone("", 0)?;
    key.name = ShiftJis(*name);
    v.bone_keys = vec![key, key];
    v.morph_keys = Some(vec![MorphKey {
        name: raw_name(b"brow_laugh_geo_", false, 0),
        frame: 0,
        weight: 0.25,
    }]);
    Ok(v)
}

fn names_cut_mid_char() -> Result<Vmd> {
    let mut v = Vmd::new_v2("")?;
    // `Tda式初音ミク Mトレ` then the lead byte of a cut character, no NUL (20 bytes).
    let (head, _, _) = encoding_rs::SHIFT_JIS.encode("Tda式初音ミク Mトレ");
    let mut name = [0u8; 20];
    let n = head.len().min(19);
    name[..n].copy_from_slice(&head[..n]);
    name[19] = 0x81;
    v.header.model_name = ModelName::V2(ShiftJis(name));
    // A 15-byte bone name: seven Japanese characters, then a lone lead byte.
    let (seven, _, _) = encoding_rs::SHIFT_JIS.encode("左人指３先ＩＫ");
    let mut key = bone("", 0)?;
    key.name = raw_name(&seven, false, 0x83);
    v.bone_keys = vec![key];
    Ok(v)
}

fn show_ik() -> Result<Vmd> {
    let mut v = Vmd::new_v2("ik")?;
    let ik = |name: &str, on: bool| -> Result<IkState> {
        Ok(IkState {
            name: ShiftJis::new(name)?,
            enabled: u8::from(on),
        })
    };
    v.show_ik_keys = Some(vec![
        ShowIkKey {
            frame: 0,
            show: 1,
            ik: vec![],
        },
        ShowIkKey {
            frame: 30,
            show: 1,
            ik: vec![
                ik("左足ＩＫ", false)?,
                ik("右足ＩＫ", false)?,
                ik("左つま先ＩＫ", true)?,
                ik("前クローク2_1xcIK", true)?,
            ],
        },
        ShowIkKey {
            frame: 60,
            show: 0,
            ik: vec![ik("左足ＩＫ", true)?],
        },
    ]);
    Ok(v)
}

fn interpolation() -> Result<Vmd> {
    let mut v = Vmd::new_v2("curves")?;
    let linear = bone("センター", 0)?;
    let eased = Interpolation {
        x: Curve::new(64, 0, 64, 127),
        y: Curve::new(0, 0, 127, 127),
        z: Curve::new(10, 30, 90, 110),
        rotation: Curve::new(127, 0, 0, 127),
    };
    let mut custom = bone("センター", 30)?;
    custom.set_interpolation(&eased);
    let mut off = bone("右腕", 30)?;
    off.set_physics_off(true);
    // An older MMD: row 0 bytes 2, 3 copy the curve, row ends `01` / `01 00` / `01 00 00`.
    let mut old = bone("左腕", 45)?;
    old.interpolation = eased.to_bytes_with(&InterpolationExtras {
        physics: [eased.z.x1, eased.rotation.x1],
        tail: [1, 1, 0, 1, 0, 0],
    });
    // A non-MMD writer: one curve per 4 bytes of row 0, rows 1-3 zero, values over 127.
    let mut odd = bone("下半身", 60)?;
    odd.interpolation = [0; 64];
    odd.interpolation[..16].copy_from_slice(&[
        10, 50, 90, 130, 20, 60, 100, 140, 30, 70, 110, 150, 40, 80, 120, 160,
    ]);
    // Floats kept as bits: -0.0 and a NaN payload.
    let mut bits = bone("全ての親", 90)?;
    bits.position = [-0.0, f32::from_bits(0x7fc0_1234), 1.5];
    v.bone_keys = vec![custom, linear, off, old, odd, bits];
    Ok(v)
}

fn camera_file() -> Result<Vmd> {
    let mut v = Vmd::new_v2("")?;
    // `カメラ・照明`, NUL, then junk left from a reused buffer (`on Data`), as MMD writes it.
    let mut name = [0u8; 20];
    let (head, _, _) = encoding_rs::SHIFT_JIS.encode("カメラ・照明");
    let n = head.len().min(12);
    name[..n].copy_from_slice(&head[..n]);
    name[13..20].copy_from_slice(b"on Data");
    v.header.model_name = ModelName::V2(ShiftJis(name));
    let mut eased = camera(0, -30.0);
    eased.set_interpolation(&CameraInterpolation {
        target_x: Curve::new(0, 63, 69, 127),
        rotation: Curve::new(20, 20, 107, 107),
        ..CameraInterpolation::LINEAR
    });
    let mut ortho = camera(61, 0.0);
    ortho.perspective = 1;
    ortho.fov = 83;
    // Unsorted, with a cut (60 -> 61) and a key at the same frame twice.
    v.camera_keys = Some(vec![
        camera(60, -45.0),
        eased,
        ortho,
        camera(120, 12.5),
        camera(120, -12.5),
    ]);
    Ok(v)
}

fn light_file() -> Result<Vmd> {
    let mut v = Vmd::new_v2("light")?;
    v.light_keys = Some(vec![light(0), light(300)]);
    v.self_shadow_keys = Some(vec![
        SelfShadowKey {
            frame: 0,
            mode: 0,
            distance: 0.0,
        },
        SelfShadowKey {
            frame: 300,
            mode: 2,
            distance: 0.05,
        },
    ]);
    Ok(v)
}

fn trailing_bytes() -> Result<Vmd> {
    let mut v = all_six()?;
    v.trailing = b"Nuthouse01".to_vec();
    Ok(v)
}

fn unsorted_duplicates() -> Result<Vmd> {
    let mut v = Vmd::new_v2("Mei")?;
    v.bone_keys = vec![bone("左腕", 30)?, bone("左腕", 0)?, bone("右腕", 10)?];
    v.morph_keys = Some(vec![
        morph("base", 0, 0.0)?,
        morph("base", 0, 0.0)?,
        morph("笑い", 20, 1.0)?,
        morph("笑い", 5, 0.0)?,
    ]);
    Ok(v)
}

/// A function that builds one sample.
type Build = fn() -> Result<Vmd>;

/// Every sample as `(name, the value or why it did not build)`.
fn models() -> Vec<(String, Result<Vmd>)> {
    let all: [(&str, Build); 19] = [
        ("v1_header", v1_header),
        ("v2_header", || Vmd::new_v2("初音ミク")),
        ("signature_junk", signature_junk),
        ("ends_after_bone", || ends_after(1)),
        ("ends_after_morph", || ends_after(2)),
        ("ends_after_camera", || ends_after(3)),
        ("ends_after_light", || ends_after(4)),
        ("ends_after_self_shadow", || ends_after(5)),
        ("all_six_blocks", all_six),
        ("all_blocks_empty", || Vmd::new_v2("empty")),
        ("names_fd_junk", names_fd_junk),
        ("names_no_nul", names_no_nul),
        ("names_cut_mid_char", names_cut_mid_char),
        ("show_ik", show_ik),
        ("interpolation", interpolation),
        ("camera", camera_file),
        ("light", light_file),
        ("trailing_bytes", trailing_bytes),
        ("unsorted_duplicates", unsorted_duplicates),
    ];
    all.into_iter()
        .map(|(name, build)| (format!("vmd/{name}.vmd"), build()))
        .collect()
}

/// Every VMD sample as `(name, bytes)`, the bytes written by the hand layout.
pub fn vmd_samples() -> Vec<(String, Vec<u8>)> {
    models()
        .into_iter()
        .filter_map(|(name, v)| Some((name, layout::vmd_bytes(&v.ok()?)?)))
        .collect()
}

/// Every VMD sample that builds as `(name, the value its bytes were written from)`.
#[cfg(test)]
pub(super) fn vmd_models() -> Vec<(String, Vmd)> {
    models()
        .into_iter()
        .filter_map(|(name, v)| Some((name, v.ok()?)))
        .collect()
}
