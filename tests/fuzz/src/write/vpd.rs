//! The VPD writers: a new file from a pose, and number edits to a file that was read.
//!
//! VPD is text, so its writer's inconsistent values are names Shift_JIS cannot hold or
//! that would end their line early, model file names that would not read back, and
//! numbers that are not finite. Each must be an `Err`. What is written must read back as
//! the pose, its numbers rounded to six decimals as `{:.6}` does.

use arbitrary::{Arbitrary, Result, Unstructured};
use mmd_formats::vpd::{BonePose, LineEnding, MorphPose, Pose, Vpd};

use crate::api;

/// One fuzz case.
#[derive(Debug, Arbitrary)]
pub enum Case {
    /// A new file from a pose.
    FromPose {
        /// The model file name.
        model_file: Name,
        /// Bones: name, translation, rotation.
        bones: Vec<(Name, [Float; 3], [Float; 4])>,
        /// Morphs: name, weight.
        morphs: Vec<(Name, Float)>,
        /// LF line endings (else CR LF).
        lf: bool,
    },
    /// Number edits to a sample.
    Edit {
        /// The sample (modulo the number of samples).
        sample: u8,
        /// The edits.
        edits: Vec<NumberEdit>,
    },
}

/// A number edit through `Vpd::set_bone` / `Vpd::set_morph`.
#[derive(Debug, Arbitrary)]
pub enum NumberEdit {
    /// A bone's translation and rotation.
    Bone {
        /// Which bone (may be past the last).
        index: u8,
        /// The translation.
        translation: [Float; 3],
        /// The rotation.
        rotation: [Float; 4],
    },
    /// A morph's weight.
    Morph {
        /// Which morph (may be past the last).
        index: u8,
        /// The weight.
        weight: Float,
    },
}

/// A name: one that trips the grammar or Shift_JIS, a common one, or any string.
#[derive(Debug, Clone)]
pub struct Name(pub String);

impl<'a> Arbitrary<'a> for Name {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        const NAMES: [&str; 20] = [
            "",
            "センター",
            "全ての親",
            "左腕",
            "右ひじ",
            "あ",
            "初音ミク.osm",
            "a;b",
            "//model",
            " lead",
            "trail\t",
            "line\nbreak",
            "cr\rname",
            "¥",
            "~",
            "Bone0{x",
            "}",
            "😀",
            "\u{0}",
            "Ｆ＿ｘ",
        ];
        let name = if u.ratio(1, 2)? {
            (*u.choose(&NAMES)?).to_string()
        } else {
            u.arbitrary::<String>()?
        };
        Ok(Name(name))
    }
}

/// A float: an edge of `%f` formatting or of finiteness, or any `f32`.
#[derive(Debug, Clone, Copy)]
pub struct Float(pub f32);

impl<'a> Arbitrary<'a> for Float {
    fn arbitrary(u: &mut Unstructured<'a>) -> Result<Self> {
        const FLOATS: [f32; 16] = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            0.000_000_5,
            -0.000_000_5,
            0.000_001_5,
            1.0 / 128.0,
            123_456.79,
            1.0e10,
            f32::MAX,
            f32::MIN_POSITIVE,
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
        ];
        if u.ratio(1, 2)? {
            Ok(Float(*u.choose(&FLOATS)?))
        } else {
            Ok(Float(f32::from_bits(u.arbitrary()?)))
        }
    }
}

fn floats<const N: usize>(f: [Float; N]) -> [f32; N] {
    f.map(|x| x.0)
}

/// What the text `{:.6}` gives for `x` reads back as.
fn rounded(x: f32) -> f32 {
    format!("{x:.6}")
        .parse()
        .unwrap_or_else(|e| panic!("{x:.6} does not parse: {e}"))
}

/// Builds the case's file and checks it.
pub fn check(case: Case) {
    match case {
        Case::FromPose {
            model_file,
            bones,
            morphs,
            lf,
        } => {
            let pose = Pose {
                model_file: model_file.0,
                bones: bones
                    .into_iter()
                    .map(|(name, t, r)| BonePose {
                        name: name.0,
                        translation: floats(t),
                        rotation: floats(r),
                    })
                    .collect(),
                morphs: morphs
                    .into_iter()
                    .map(|(name, w)| MorphPose {
                        name: name.0,
                        weight: w.0,
                    })
                    .collect(),
            };
            let eol = if lf { LineEnding::Lf } else { LineEnding::CrLf };
            check_from_pose(&pose, eol);
        }
        Case::Edit { sample, edits } => check_edits(sample, edits),
    }
}

/// `from_pose_with` fails with an `Err`, or writes a file that reads back as the pose
/// with its numbers rounded, with no warning (it is MMD's own layout).
fn check_from_pose(pose: &Pose, eol: LineEnding) {
    let vpd = match Vpd::from_pose_with(pose, eol) {
        Err(e) => {
            assert!(!e.to_string().is_empty(), "an empty error message");
            return;
        }
        Ok(v) => v,
    };
    let mut expected = pose.clone();
    for b in &mut expected.bones {
        b.translation = b.translation.map(rounded);
        b.rotation = b.rotation.map(rounded);
    }
    for m in &mut expected.morphs {
        m.weight = rounded(m.weight);
    }
    assert_eq!(vpd.pose(), expected, "from_pose holds another pose");
    let back = check_written(&vpd);
    assert_eq!(back.pose(), expected, "the file written reads another pose");
    assert!(
        back.warnings().is_empty(),
        "a file written by from_pose reads with warnings: {:?}",
        back.warnings()
    );
}

/// Each edit is applied or refused whole; the file then writes, reads back as the edited
/// pose, and writes the same bytes again.
fn check_edits(sample: u8, edits: Vec<NumberEdit>) {
    static SAMPLES: std::sync::OnceLock<Vec<Vpd>> = std::sync::OnceLock::new();
    let samples = SAMPLES.get_or_init(|| {
        super::samples(mmd_formats::inspect::Format::Vpd, |b| {
            Vpd::from_bytes(b).ok()
        })
    });
    let mut vpd = samples[usize::from(sample) % samples.len()].clone();
    for edit in edits {
        let before = format!("{:?}", vpd.pose());
        let (result, index, values) = match edit {
            NumberEdit::Bone {
                index,
                translation,
                rotation,
            } => {
                let (t, r) = (floats(translation), floats(rotation));
                let result = vpd.set_bone(index.into(), t, r);
                (result, usize::from(index), [t.as_slice(), &r].concat())
            }
            NumberEdit::Morph { index, weight } => {
                let result = vpd.set_morph(index.into(), weight.0);
                (result, usize::from(index), vec![weight.0])
            }
        };
        let pose = vpd.pose();
        match result {
            Err(_) => assert_eq!(
                format!("{pose:?}"),
                before,
                "a refused edit changed the pose"
            ),
            Ok(()) => {
                let now: Vec<f32> = if values.len() == 1 {
                    vec![pose.morphs[index].weight]
                } else {
                    let b = &pose.bones[index];
                    [b.translation.as_slice(), &b.rotation].concat()
                };
                let want: Vec<f32> = values.iter().map(|&x| rounded(x)).collect();
                assert_eq!(now, want, "an edit stored other values");
            }
        }
    }
    let back = check_written(&vpd);
    assert_eq!(
        format!("{:?}", back.pose()),
        format!("{:?}", vpd.pose()),
        "the edited file reads back as another pose"
    );
}

/// Writes `vpd`, reads it back and writes again: the same bytes. Spans and the walk do
/// not fail.
fn check_written(vpd: &Vpd) -> Vpd {
    let _ = api::walk_value(vpd);
    let spans = api::vpd_cells(vpd);
    assert!(spans.is_ok(), "spans of a VPD value: {:?}", spans.err());
    let bytes = vpd
        .to_bytes()
        .unwrap_or_else(|e| panic!("a VPD value does not write: {e}"));
    let back =
        Vpd::from_bytes(&bytes).unwrap_or_else(|e| panic!("the file written does not read: {e}"));
    let again = back
        .to_bytes()
        .unwrap_or_else(|e| panic!("the file read back does not write: {e}"));
    assert!(again == bytes, "the file read back writes other bytes");
    back
}
