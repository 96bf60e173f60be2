//! VPD samples: poses written the way MMD writes them, the way other tools write them,
//! and with every oddity the reader accepts and keeps.

use crate::vpd::{BonePose, LineEnding, MorphPose, Pose, Vpd};

fn sjis(s: &str) -> Vec<u8> {
    encoding_rs::SHIFT_JIS.encode(s).0.into_owned()
}

/// Three bones: full-width and half-width katakana names, `-0.0`, a tiny negative value
/// (written `-0.000000`), a quaternion that is not normalised.
fn three_bones() -> Pose {
    Pose {
        model_file: "初音ミク.osm".into(),
        bones: vec![
            BonePose {
                name: "センター".into(),
                translation: [0.0, 3.45, -0.0],
                rotation: [0.0, 0.0, 0.0, 1.0],
            },
            BonePose {
                name: "右ひじ".into(),
                translation: [-1e-9, 0.0, 0.0],
                rotation: [0.254777, -0.400929, 0.000063, 0.879969],
            },
            BonePose {
                name: "ﾈｸﾀｲ１".into(),
                translation: [-7.011534, 2.764069, 12.5],
                rotation: [0.0, -0.01, 0.0, 0.99995],
            },
        ],
        morphs: vec![],
    }
}

/// Morph blocks after the bones, in the mmd_tools / MikuMikuMoving form.
fn with_morphs() -> Pose {
    let mut pose = three_bones();
    pose.bones.truncate(1);
    pose.morphs = vec![
        MorphPose {
            name: "まばたき".into(),
            weight: 1.0,
        },
        MorphPose {
            name: "あ".into(),
            weight: 0.25,
        },
    ];
    pose
}

/// What three.js's exporter writes: no comments, LF, and its own number text.
fn threejs_style() -> Vec<u8> {
    let mut b = b"Vocaloid Pose Data file\n\n".to_vec();
    b.extend(sjis("初音ミク.osm;\n1;\n\nBone0{頭\n"));
    b.extend(b"  0.000000,0.000000,0.000000;\n  0.1,-0.000000,0.000000,0.994987;\n}\n\n");
    b
}

/// Every oddity the reader keeps: text after the signature, CRLF, LF and mixed endings, a
/// whitespace-only blank line, comment lines inside a block, a count line without `;` that
/// disagrees with the blocks, indented lines, a non-consecutive index, numbers with eight
/// significant digits, `+` and exponent forms, spaces around values, a name that is not
/// valid Shift_JIS, a Nuthouse01-style morph weight without a comment, no final newline.
fn oddities() -> Vec<u8> {
    let mut b = b"Vocaloid Pose Data file (edited)\r\n \t\r\n".to_vec();
    b.extend(sjis(
        "// a comment line\nモデル.osm ;\t\t// 親ファイル名\r\n",
    ));
    b.extend(b"5\t// no semicolon\n\n");
    b.extend(sjis("Bone0{左足ＩＫ\r\n"));
    b.extend(b"  123.456789, -0.000000 ,+1e-3;\t// trans\n");
    b.extend(b"  // a comment inside the block\n");
    b.extend(b"  0.12345678,0,-.5,1.;\r\n}   // end\n\n");
    b.extend(b"\tBone7{\x83\n");
    b.extend(b"  1,2,3;\n  0,0,0,1; trailing text\n}\n");
    b.extend(sjis("Morph0{にやり\n  0.5;\n}"));
    b
}

/// Every VPD sample as `(name, bytes)`.
// Reachable from `samples::all()` once samples/mod.rs re-exports it.
pub fn vpd_samples() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let written = [
        ("vpd/mmd_crlf.vpd", three_bones(), LineEnding::CrLf),
        ("vpd/mmd_lf.vpd", three_bones(), LineEnding::Lf),
        ("vpd/morphs.vpd", with_morphs(), LineEnding::CrLf),
        ("vpd/empty_pose.vpd", Pose::default(), LineEnding::CrLf),
    ];
    for (name, pose, eol) in written {
        if let Ok(bytes) = Vpd::from_pose_with(&pose, eol).and_then(|v| v.to_bytes()) {
            out.push((name.to_string(), bytes));
        }
    }
    out.push(("vpd/threejs_style.vpd".to_string(), threejs_style()));
    out.push(("vpd/oddities.vpd".to_string(), oddities()));
    out
}
