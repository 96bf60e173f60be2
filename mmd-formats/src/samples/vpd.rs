//! VPD samples: poses written the way MMD writes them, the way other tools write them,
//! and with every oddity the reader accepts and keeps.
//!
//! Every sample is literal text (Shift_JIS through `encoding_rs`), written line by line
//! from the VPD grammar (`vpd/grammar.md`: MMD's template, `%f` numbers), not by the
//! library's writer. A test checks the pose the reader gives back against the values the
//! text states.

fn sjis(s: &str) -> Vec<u8> {
    encoding_rs::SHIFT_JIS.encode(s).0.into_owned()
}

/// A pose in MMD's template, with `eol` ending every line: the signature line, an empty
/// line, the model file with its comment, the bone count with its comment, an empty line,
/// then each bone block (`Bone<i>{name`, the translation and rotation lines with their
/// comments, `}`) and each morph block (`Morph<i>{name`, the weight, `}`), an empty line
/// after each. Numbers are given as the text to write.
fn mmd_text(
    model_file: &str,
    bones: &[(&str, &str, &str)],
    morphs: &[(&str, &str)],
    eol: &str,
) -> Vec<u8> {
    let mut t = format!("Vocaloid Pose Data file{eol}{eol}");
    t += &format!("{model_file};\t\t// 親ファイル名{eol}");
    t += &format!("{};\t\t\t\t// 総ポーズボーン数{eol}{eol}", bones.len());
    for (i, (name, translation, rotation)) in bones.iter().enumerate() {
        t += &format!("Bone{i}{{{name}{eol}");
        t += &format!("  {translation};\t\t\t\t// trans x,y,z{eol}");
        t += &format!("  {rotation};\t\t// Quaternion x,y,z,w{eol}");
        t += &format!("}}{eol}{eol}");
    }
    for (i, (name, weight)) in morphs.iter().enumerate() {
        t += &format!("Morph{i}{{{name}{eol}");
        t += &format!("  {weight};\t\t\t\t// weight{eol}");
        t += &format!("}}{eol}{eol}");
    }
    sjis(&t)
}

/// Three bones: full-width and half-width katakana names, `-0.000000` (the sign kept)
/// both as -0.0 and as what MMD writes for a tiny negative value, and a quaternion that is
/// not normalised.
const THREE_BONES: [(&str, &str, &str); 3] = [
    (
        "センター",
        "0.000000,3.450000,-0.000000",
        "0.000000,0.000000,0.000000,1.000000",
    ),
    (
        "右ひじ",
        "-0.000000,0.000000,0.000000",
        "0.254777,-0.400929,0.000063,0.879969",
    ),
    (
        "ﾈｸﾀｲ１",
        "-7.011534,2.764069,12.500000",
        "0.000000,-0.010000,0.000000,0.999950",
    ),
];

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
pub fn vpd_samples() -> Vec<(String, Vec<u8>)> {
    let osm = "初音ミク.osm";
    let morphs = [("まばたき", "1.000000"), ("あ", "0.250000")];
    [
        ("vpd/mmd_crlf.vpd", mmd_text(osm, &THREE_BONES, &[], "\r\n")),
        ("vpd/mmd_lf.vpd", mmd_text(osm, &THREE_BONES, &[], "\n")),
        // Morph blocks after the bones, in the mmd_tools / MikuMikuMoving form.
        (
            "vpd/morphs.vpd",
            mmd_text(osm, &THREE_BONES[..1], &morphs, "\r\n"),
        ),
        ("vpd/empty_pose.vpd", mmd_text("", &[], &[], "\r\n")),
        ("vpd/threejs_style.vpd", threejs_style()),
        ("vpd/oddities.vpd", oddities()),
    ]
    .into_iter()
    .map(|(name, bytes)| (name.to_string(), bytes))
    .collect()
}
