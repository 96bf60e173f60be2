//! VPD typed values, the MMD-style writer, in-place edits, line endings, and the
//! reader's tolerance and errors. Shift_JIS bytes are spelled out here (checked against
//! Python's cp932 codec and the fixtures), not produced by the library's encoder.

use mmd_formats::vpd::{BonePose, LineEnding, MorphPose, Pose, Vpd};
use mmd_tests::assert_bytes_eq;

/// `初音ミク.osm` in Shift_JIS.
const MIKU_OSM: &[u8] = b"\x8f\x89\x89\xb9\x83\x7e\x83\x4e.osm";
/// `// 親ファイル名`.
const C_PARENT: &[u8] = b"// \x90\x65\x83\x74\x83\x40\x83\x43\x83\x8b\x96\xbc";
/// `// 総ポーズボーン数`.
const C_COUNT: &[u8] = b"// \x91\x8d\x83\x7c\x81\x5b\x83\x59\x83\x7b\x81\x5b\x83\x93\x90\x94";
/// `センター`.
const CENTER: &[u8] = b"\x83\x5a\x83\x93\x83\x5e\x81\x5b";
/// `右ひじ`.
const R_ELBOW: &[u8] = b"\x89\x45\x82\xd0\x82\xb6";
/// `まばたき`.
const BLINK: &[u8] = b"\x82\xdc\x82\xce\x82\xbd\x82\xab";

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// A two-bone pose in MMD's template with LF endings, written out by hand.
fn mmd_text_lf() -> Vec<u8> {
    cat(&[
        b"Vocaloid Pose Data file\n\n",
        MIKU_OSM,
        b";\t\t",
        C_PARENT,
        b"\n2;\t\t\t\t",
        C_COUNT,
        b"\n\nBone0{",
        CENTER,
        b"\n  0.000000,3.450000,-0.000000;\t\t\t\t// trans x,y,z\n",
        b"  0.000000,0.000000,0.000000,1.000000;\t\t// Quaternion x,y,z,w\n}\n\nBone1{",
        R_ELBOW,
        b"\n  -0.000000,0.000000,0.000000;\t\t\t\t// trans x,y,z\n",
        b"  0.254777,-0.400929,0.000063,0.879969;\t\t// Quaternion x,y,z,w\n}\n\n",
    ])
}

fn two_bones() -> Pose {
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
        ],
        morphs: vec![],
    }
}

fn to_crlf(lf: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for &b in lf {
        if b == b'\n' {
            out.push(b'\r');
        }
        out.push(b);
    }
    out
}

/// `fixtures/vpd/openmmd_test.vpd`, checked by hand against its text:
/// line 3 `初音ミク.osm;⇥⇥// 親ファイル名`, line 4 `2;⇥⇥⇥⇥// 総ポーズボーン数`,
/// lines 6-8 `Bone0{右足ＩＫ` / `  0.000000,3.450000,0.000000;…` /
/// `  0.000000,0.000000,0.000000,1.000000;…`, lines 11-13 `Bone1{右ひじ` /
/// `  0.000000,0.000000,0.000000;…` / `  0.254777,-0.400929,0.000063,0.879969;…`.
#[test]
fn openmmd_fixture_values() {
    let Some(bytes) = mmd_tests::fixture("vpd/openmmd_test.vpd") else {
        return;
    };
    let vpd = Vpd::from_bytes(&bytes).unwrap();
    assert_eq!(vpd.model_file_bytes(), MIKU_OSM);
    assert_eq!(vpd.declared_bone_count(), 2);
    assert_eq!(
        vpd.bone_name_bytes(0),
        Some(&b"\x89\x45\x91\xab\x82\x68\x82\x6a"[..])
    );
    assert_eq!(vpd.bone_name_bytes(1), Some(R_ELBOW));
    let pose = vpd.pose();
    let expected = Pose {
        model_file: "初音ミク.osm".into(),
        bones: vec![
            BonePose {
                name: "右足ＩＫ".into(),
                translation: [0.0, 3.45, 0.0],
                rotation: [0.0, 0.0, 0.0, 1.0],
            },
            BonePose {
                name: "右ひじ".into(),
                translation: [0.0, 0.0, 0.0],
                rotation: [0.254777, -0.400929, 0.000063, 0.879969],
            },
        ],
        morphs: vec![],
    };
    assert_eq!(pose, expected);
}

/// `fixtures/vpd/threejs_02.vpd` lines 286-287: `Bone56{右親指１` then
/// `  -0.000000,0.000000,0.000000;⇥⇥⇥⇥// trans x,y,z`: the sign of -0.0 is read.
#[test]
fn threejs_negative_zero_is_read() {
    let Some(bytes) = mmd_tests::fixture("vpd/threejs_02.vpd") else {
        return;
    };
    let pose = Vpd::from_bytes(&bytes).unwrap().pose();
    assert_eq!(pose.bones.len(), 93);
    let bone = &pose.bones[56];
    assert_eq!(bone.name, "右親指１");
    assert_eq!(bone.translation[0].to_bits(), (-0.0f32).to_bits());
    assert_eq!(bone.rotation, [0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn synthetic_values_and_both_line_endings() {
    let lf = mmd_text_lf();
    for bytes in [lf.clone(), to_crlf(&lf)] {
        let vpd = Vpd::from_bytes(&bytes).unwrap();
        assert_bytes_eq(&vpd.to_bytes().unwrap(), &bytes, "round trip");
        assert!(vpd.warnings().is_empty(), "{:?}", vpd.warnings());
        let pose = vpd.pose();
        assert_eq!(pose.model_file, "初音ミク.osm");
        assert_eq!(pose.bones.len(), 2);
        assert_eq!(pose.bones[0].name, "センター");
        assert_eq!(pose.bones[0].translation, [0.0, 3.45, 0.0]);
        assert!(pose.bones[0].translation[2].is_sign_negative());
        assert!(pose.bones[1].translation[0].is_sign_negative());
        assert_eq!(
            pose.bones[1].rotation,
            [0.254777, -0.400929, 0.000063, 0.879969]
        );
    }
    // Mixed endings (LF up to bone 1, CR LF after), without the final empty line or
    // without any final terminator, survive too and read as the same pose.
    let split = lf.windows(6).position(|w| w == b"Bone1{").unwrap();
    let mixed = [&lf[..split], &to_crlf(&lf[split..])[..]].concat();
    for end in [mixed.len() - 2, mixed.len() - 4] {
        let cut = &mixed[..end];
        assert!(
            cut.ends_with(b"}\r\n") || cut.ends_with(b"0.879969;\t\t// Quaternion x,y,z,w\r\n}")
        );
        let vpd = Vpd::from_bytes(cut).unwrap();
        assert_bytes_eq(&vpd.to_bytes().unwrap(), cut, "mixed");
        assert_eq!(vpd.pose(), Vpd::from_bytes(&lf).unwrap().pose());
    }
}

#[test]
fn from_pose_writes_mmd_template_with_crlf() {
    let mut pose = two_bones();
    pose.morphs.push(MorphPose {
        name: "まばたき".into(),
        weight: 1.0,
    });
    let expected = cat(&[
        b"Vocaloid Pose Data file\r\n\r\n",
        MIKU_OSM,
        b";\t\t",
        C_PARENT,
        b"\r\n2;\t\t\t\t",
        C_COUNT,
        b"\r\n\r\nBone0{",
        CENTER,
        b"\r\n  0.000000,3.450000,-0.000000;\t\t\t\t// trans x,y,z\r\n",
        b"  0.000000,0.000000,0.000000,1.000000;\t\t// Quaternion x,y,z,w\r\n}\r\n\r\nBone1{",
        R_ELBOW,
        b"\r\n  -0.000000,0.000000,0.000000;\t\t\t\t// trans x,y,z\r\n",
        b"  0.254777,-0.400929,0.000063,0.879969;\t\t// Quaternion x,y,z,w\r\n}\r\n\r\nMorph0{",
        BLINK,
        b"\r\n  1.000000;\t\t\t\t// weight\r\n}\r\n\r\n",
    ]);
    let vpd = Vpd::from_pose(&pose).unwrap();
    assert_bytes_eq(&vpd.to_bytes().unwrap(), &expected, "from_pose");
    assert_eq!(vpd.pose().morphs, pose.morphs);
    // Without morphs, with LF: exactly the hand-written MMD text.
    let lf = Vpd::from_pose_with(&two_bones(), LineEnding::Lf).unwrap();
    assert_bytes_eq(&lf.to_bytes().unwrap(), &mmd_text_lf(), "from_pose_with Lf");
}

#[test]
fn from_pose_rejects_what_it_cannot_write() {
    type Edit = fn(&mut Pose);
    let cases: [(&str, Edit); 7] = [
        ("bones[1].name", |p| p.bones[1].name = "😀".into()),
        ("bones[0].name", |p| p.bones[0].name = "a¥b".into()),
        ("bones[0].name", |p| p.bones[0].name = "a\nb".into()),
        ("model_file", |p| p.model_file = "a;b.osm".into()),
        ("model_file", |p| p.model_file = " a.osm".into()),
        ("bones[1].rotation", |p| p.bones[1].rotation[3] = f32::NAN),
        ("bones[0].translation", |p| {
            p.bones[0].translation[0] = f32::INFINITY
        }),
    ];
    for (path, edit) in cases {
        let mut pose = two_bones();
        edit(&mut pose);
        let err = Vpd::from_pose(&pose).unwrap_err();
        assert_eq!(err.path_string(), path, "{err}");
    }
}

#[test]
fn set_bone_changes_only_that_bones_numbers() {
    let original = mmd_text_lf();
    let mut vpd = Vpd::from_bytes(&original).unwrap();
    // More digits than f32 holds, and 1/sqrt(2): both come out with six decimals.
    let long: f32 = "123.456789".parse().unwrap();
    let h = std::f32::consts::FRAC_1_SQRT_2;
    vpd.set_bone(1, [1.5, -0.0, long], [0.0, h, 0.0, h])
        .unwrap();
    let bone1 = original.windows(6).position(|w| w == b"Bone1{").unwrap();
    let expected = cat(&[
        &original[..bone1 + 6 + R_ELBOW.len() + 1],
        b"  1.500000,-0.000000,123.456787;\t\t\t\t// trans x,y,z\n",
        b"  0.000000,0.707107,0.000000,0.707107;\t\t// Quaternion x,y,z,w\n}\n\n",
    ]);
    assert_bytes_eq(&vpd.to_bytes().unwrap(), &expected, "set_bone");
    let pose = vpd.pose();
    // The values become what the new text reads back as.
    let num = |t: &str| t.parse::<f32>().unwrap();
    assert_eq!(pose.bones[1].translation, [1.5, 0.0, num("123.456787")]);
    assert!(pose.bones[1].translation[1].is_sign_negative());
    let r = num("0.707107");
    assert_eq!(pose.bones[1].rotation, [0.0, r, 0.0, r]);
    assert_eq!(pose.bones[0], two_bones().bones[0]);
    assert_eq!(Vpd::from_bytes(&expected).unwrap().pose(), pose);
    // Out of range or not finite: an error, nothing changed.
    let before = vpd.to_bytes().unwrap();
    assert_eq!(
        vpd.set_bone(2, [0.0; 3], [0.0; 4])
            .unwrap_err()
            .path_string(),
        "bones"
    );
    let err = vpd.set_bone(0, [0.0, f32::NAN, 0.0], [0.0; 4]).unwrap_err();
    assert_eq!(err.path_string(), "bones[0].translation");
    assert_eq!(vpd.to_bytes().unwrap(), before);
}

#[test]
fn set_bone_on_fixture_keeps_every_other_byte() {
    let Some(bytes) = mmd_tests::fixture("vpd/openmmd_test.vpd") else {
        return;
    };
    let mut vpd = Vpd::from_bytes(&bytes).unwrap();
    vpd.set_bone(0, [0.0, 3.5, 0.0], [0.0, 0.0, 0.0, 1.0])
        .unwrap();
    let out = vpd.to_bytes().unwrap();
    // Line 7 `  0.000000,3.450000,0.000000;` becomes `…3.500000…`: the two bytes `45` become `50`.
    assert_eq!(out.len(), bytes.len());
    let diffs: Vec<usize> = (0..out.len()).filter(|&i| out[i] != bytes[i]).collect();
    let at = bytes.windows(8).position(|w| w == b"3.450000").unwrap();
    assert_eq!(diffs, vec![at + 2, at + 3]);
}

/// What three.js's exporter writes: no comments at all.
#[test]
fn comment_free_input() {
    let bytes = cat(&[
        b"Vocaloid Pose Data file\n\n",
        MIKU_OSM,
        b";\n1;\n\nBone0{",
        CENTER,
        b"\n  0.000000,0.000000,0.000000;\n  0.100000,-0.000000,0.000000,0.994987;\n}\n\n",
    ]);
    let vpd = Vpd::from_bytes(&bytes).unwrap();
    assert_bytes_eq(&vpd.to_bytes().unwrap(), &bytes, "comment-free");
    assert!(vpd.warnings().is_empty());
    let pose = vpd.pose();
    assert_eq!(pose.model_file, "初音ミク.osm");
    assert_eq!(pose.bones[0].rotation, [0.1, 0.0, 0.0, 0.994987]);
    assert!(pose.bones[0].rotation[1].is_sign_negative());
}

/// Morph blocks as mmd_tools writes them (CR LF, `// weight`), and as Nuthouse01 does
/// (no comment, three decimals).
#[test]
fn morph_blocks() {
    let bytes = cat(&[
        b"Vocaloid Pose Data file\r\n\r\n",
        MIKU_OSM,
        b";\t\t",
        C_PARENT,
        b"\r\n0;\t\t\t\t",
        C_COUNT,
        b"\r\n\r\nMorph0{",
        BLINK,
        b"\r\n  0.500000;\t\t\t\t// weight\r\n}\r\n\r\nMorph1{\x82\xa0\r\n  0.25;\r\n}\r\n",
    ]);
    let mut vpd = Vpd::from_bytes(&bytes).unwrap();
    assert_bytes_eq(&vpd.to_bytes().unwrap(), &bytes, "morphs");
    assert!(vpd.warnings().is_empty(), "{:?}", vpd.warnings());
    assert_eq!(vpd.bone_count(), 0);
    assert_eq!(
        vpd.pose().morphs,
        vec![
            MorphPose {
                name: "まばたき".into(),
                weight: 0.5
            },
            MorphPose {
                name: "あ".into(),
                weight: 0.25
            },
        ]
    );
    vpd.set_morph(1, 1.0).unwrap();
    let out = vpd.to_bytes().unwrap();
    assert!(out.ends_with(b"Morph1{\x82\xa0\r\n  1.000000;\r\n}\r\n"));
    assert_eq!(out.len(), bytes.len() + 4);
}

/// Oddities are kept and reported, never rewritten: a count that disagrees with the
/// blocks, a non-consecutive index, eight significant digits, other number forms.
#[test]
fn oddities_are_kept_with_warnings() {
    let bytes = cat(&[
        b"Vocaloid Pose Data file\n\n",
        MIKU_OSM,
        b";\n3;\n\nBone4{",
        CENTER,
        b"\n  123.456789,+1e-3, .5 ;\n  0.12345678,0,0,1.;\n}\n",
    ]);
    let vpd = Vpd::from_bytes(&bytes).unwrap();
    assert_bytes_eq(&vpd.to_bytes().unwrap(), &bytes, "oddities");
    assert_eq!(vpd.declared_bone_count(), 3);
    assert_eq!(vpd.bone_count(), 1);
    let w: Vec<String> = vpd.warnings().iter().map(|w| w.to_string()).collect();
    assert_eq!(w.len(), 2, "{w:?}");
    assert!(
        w[0].starts_with("bones[0]: block index 4 where 0 was expected"),
        "{w:?}"
    );
    assert!(w[0].contains("on line 6 at 0x2f"), "{w:?}");
    assert!(
        w[1].starts_with("bone_count: the count line says 3 bones, the file has 1"),
        "{w:?}"
    );
    assert!(w[1].contains("on line 4 at 0x27"), "{w:?}");
    let b = &vpd.pose().bones[0];
    assert_eq!(b.translation, [123.456_79, 0.001, 0.5]);
    assert_eq!(b.rotation, [0.123_456_78, 0.0, 0.0, 1.0]);
}

#[test]
fn errors_say_where() {
    let text = mmd_text_lf();
    // Cut inside line 13 (bone 1's quaternion), before its `;`.
    let at = text.windows(10).position(|w| w == b"-0.400929,").unwrap() + 9;
    let err = Vpd::from_bytes(&text[..at]).unwrap_err();
    assert_eq!(err.path_string(), "bones[1].rotation");
    let msg = err.to_string();
    assert!(msg.contains("(no `;`) on line 13"), "{msg}");
    assert!(msg.contains("4 decimal numbers"), "{msg}");
    let line13 = text.windows(11).position(|w| w == b"  0.254777,").unwrap();
    assert_eq!(err.offset(), line13 as u64);

    // Three numbers where the quaternion needs four.
    let mut short = text.clone();
    let w = short.windows(10).position(|w| w == b",0.879969;").unwrap();
    short.drain(w..w + 9);
    let err = Vpd::from_bytes(&short).unwrap_err();
    assert_eq!(err.path_string(), "bones[1].rotation");
    assert!(err.to_string().contains("3 values"), "{err}");

    // A number that is not one: the error points at it.
    let mut bad = text.clone();
    let n = bad.windows(8).position(|w| w == b"3.450000").unwrap();
    bad[n + 4] = b'x';
    let err = Vpd::from_bytes(&bad).unwrap_err();
    assert_eq!(err.path_string(), "bones[0].translation");
    assert!(err.to_string().contains("\"3.45x000\""), "{err}");
    assert!(err.to_string().contains("on line 7"), "{err}");
    assert_eq!(err.offset(), n as u64);

    // Not a VPD file, and an unknown line where a block should start.
    let err = Vpd::from_bytes(b"Vocaloid Motion Data 0002").unwrap_err();
    assert_eq!((err.path_string().as_str(), err.offset()), ("signature", 0));
    let mut junk = text.clone();
    junk.extend_from_slice(b"Bonus\n");
    let err = Vpd::from_bytes(&junk).unwrap_err();
    assert_eq!(err.path_string(), "bones[2]");
    assert_eq!(err.offset(), text.len() as u64);
    assert!(err.to_string().contains("on line 16"), "{err}");
    // The end of the file where a block's `}` should be.
    let err = Vpd::from_bytes(&text[..text.len() - 3]).unwrap_err();
    assert_eq!(err.path_string(), "bones[1]");
    assert!(err.to_string().contains("the end of the file"), "{err}");
}
