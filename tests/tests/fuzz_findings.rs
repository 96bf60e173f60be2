//! What the coverage-guided fuzzer (`tests/fuzz`, see `tests/FUZZING.md`) found, each
//! kept as an input built here by hand, checked against the rule it broke. The same
//! inputs are in `tests/fuzz/regressions/`, which every fuzz run replays first.

use mmd_formats::format::Format;
use mmd_formats::walk::Segment;

/// The byte runs of the innermost spans (`Spans::cells`), as (start, end).
fn cells(format: Format, bytes: &[u8]) -> Vec<(u64, u64)> {
    let spans = format.spans(bytes).expect("the input reads");
    spans.cells().into_iter().map(|(_, a, b)| (a, b)).collect()
}

/// A VPD bone block whose `}` line starts with a CR (`\r}`): the reader takes the CR as
/// blank space before the `}` (grammar: `[ws] "}"`, and CR counts as blank inside a line),
/// so the block ends there. The spans looked for a `}` after spaces and TABs only, missed
/// it, and stretched `bones[0]` over `bones[1]`: the cells then overlapped.
/// Found by `read_vpd`.
#[test]
fn vpd_block_closed_after_a_cr_ends_at_its_brace() {
    let head: &[u8] = b"Vocaloid Pose Data file\n\nm.osm;\n2;\n\n";
    let bone0: &[u8] = b"Bone0{a\n0,0,0;\n0,0,0,1;\n\r}";
    let bone1: &[u8] = b"\nBone1{b\n0,0,0;\n0,0,0,1;\n}\n";
    let bytes = [head, bone0, bone1].concat();
    let block0 = (head.len() as u64, (head.len() + bone0.len()) as u64);
    let block1_start = block0.1 + 1;

    let spans = Format::Vpd.spans(&bytes).expect("the pose reads");
    let span = |i| {
        let s = spans
            .get(&[Segment::Field("bones"), Segment::Index(i)])
            .unwrap_or_else(|| panic!("no span for bones[{i}]"));
        (s.start(), s.end())
    };
    assert_eq!(
        span(0),
        block0,
        "bones[0]: from `Bone0` to one past its `}}`"
    );
    assert_eq!(span(1).0, block1_start, "bones[1] starts at `Bone1`");

    let mut at = 0;
    for (start, end) in cells(Format::Vpd, &bytes) {
        assert!(start >= at && end > start, "cell {start}..{end} after {at}");
        at = end;
    }
}

/// A VPD file with a `//` comment line between a block's last number and its `}`, cut
/// right after the comment's first `/`: the start of a file that reads, so the error must
/// say the file was cut short (where the `}` was expected, the reader called the lone `/`
/// corrupt data, unlike everywhere else a statement is expected). Found by `read_vpd`.
#[test]
fn vpd_cut_inside_a_comment_before_the_brace_is_a_truncation() {
    let head: &[u8] = b"Vocaloid Pose Data file\n\nm.osm;\n1;\n\nBone0{a\n0,0,0;\n0,0,0,1;\n";
    let whole = [head, b"// c\n}\n"].concat();
    mmd_formats::vpd::Vpd::from_bytes(&whole).expect("the whole file reads");

    let cut = [head, b"/"].concat();
    let e = mmd_formats::vpd::Vpd::from_bytes(&cut).expect_err("the cut file is not whole");
    assert!(e.is_truncated(), "not a truncation: {e}");
    assert_eq!(e.input_end(), Some(cut.len() as u64), "{e}");
}

/// A VPD pose in JSON (`mmd build`) with a number that as an `f32` is infinite: 3.5e38 is
/// past the largest `f32`, 3.4028235e38, and VPD text holds only finite numbers, so the
/// build fails. The error named `$.bones[1][5]` (the block's numbers counted across
/// `translation` and `rotation`), which is no value of the document; it must name the
/// number, `$.bones[1].rotation[2]`, both for a block of `source` whose number changes and
/// for a block added after them, and `$.morphs[0].weight` for a morph. Found by
/// `build_json`.
#[test]
fn vpd_json_number_past_f32_is_named_at_its_member() {
    let bones = r#"[{"name":"a","translation":[0,0,0],"rotation":[0,0,0,1]},
        {"name":"b","translation":[0,0,0],"rotation":[0,0,3.5e38,1]}]"#;
    let head = r#""signature":"Vocaloid Pose Data file","model_file":"m.osm","bone_count":2"#;
    // The pose as MMD's template would write it: the second block's rotation in source
    // is 0,0,0,1, so the JSON changes its third number.
    let source = r#""source":"Vocaloid Pose Data file\n\nm.osm;\n2;\n\nBone0{a\n0,0,0;\n0,0,0,1;\n}\n\nBone1{b\n0,0,0;\n0,0,0,1;\n}\n""#;
    let want = "$.bones[1].rotation[2]: inf: a VPD number is written as text, which holds \
                only finite numbers";
    let cases = [
        (
            format!(r#"{{{head},"bones":{bones},"morphs":[],{source}}}"#),
            want,
        ),
        (format!(r#"{{{head},"bones":{bones},"morphs":[]}}"#), want),
        (
            format!(r#"{{{head},"bones":[],"morphs":[{{"name":"c","weight":-1e39}}],{source}}}"#),
            "$.morphs[0].weight: -inf: a VPD number is written as text, which holds only \
             finite numbers",
        ),
    ];
    for (text, want) in cases {
        let e = Format::Vpd
            .build(&text)
            .expect_err("an infinite number does not build");
        assert_eq!(e.to_string(), want, "{text}");
    }
}
