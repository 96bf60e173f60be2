//! The command line's manners, run as a process: the VMD and PMX tools tell the format
//! first and refuse another one alike, values without meaning are refused and unusual ones
//! warned about, an edit that leaves nothing says so, a cut file is called truncated and
//! still explained, and the help texts state their own rules.
#![cfg(feature = "cli")]

mod cli_common;

use cli_common::{code, json, mmd, s, sample, stderr, stdout, TempDir};
use mmd_formats::vmd::{BoneKey, Vmd};
use mmd_formats::ShiftJis;

/// A motion with bone keys of センター at frames 0, 10 and 20.
fn motion() -> Vec<u8> {
    let mut vmd = Vmd::new_v2("manners").unwrap();
    let name = ShiftJis::new("センター").unwrap();
    for frame in [0, 10, 20] {
        let position = [frame as f32, 0.0, 0.0];
        vmd.bone_keys
            .push(BoneKey::new(name, frame, position, [0.0, 0.0, 0.0, 1.0]));
    }
    vmd.to_bytes().unwrap()
}

/// Every VMD tool, reading `input` and writing nowhere.
fn vmd_tools<'a>(input: &'a str, second: &'a str) -> Vec<Vec<&'a str>> {
    vec![
        vec!["vmd", "mirror", input, "--dry-run"],
        vec!["vmd", "trim", input, "0", "10", "--dry-run"],
        vec!["vmd", "merge", input, second, "--dry-run"],
        vec!["vmd", "speed", input, "2", "--dry-run"],
        vec!["vmd", "fill", input, "--dry-run"],
        vec!["vmd", "sample", input, "--bone", "センター", "--frame", "1"],
    ]
}

/// Every PMX tool, reading `input` and writing nowhere.
fn pmx_tools(input: &str) -> Vec<Vec<&str>> {
    vec![
        vec![
            "pmx",
            "recolor",
            input,
            "--material",
            "0",
            "--rgb",
            "1,0,0",
            "--dry-run",
        ],
        vec!["pmx", "rename", input, "--model", "x", "--dry-run"],
        vec!["pmx", "bones", input],
    ]
}

/// Runs `mmd` with `args` and checks its exit code and that stderr says `says`.
fn expect(args: &[&str], status: i32, says: &str) {
    let out = mmd(args);
    let err = stderr(&out);
    assert_eq!(code(&out), Some(status), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?}: {err}");
}

#[test]
fn both_families_tell_the_format_first_and_refuse_another_alike() {
    let dir = TempDir::new("formats");
    let vmd = dir.write("m.vmd", &motion());
    let pmx = dir.write("model.pmx", &sample("pmx"));
    let empty = dir.write("empty.vmd", b"");
    let text = dir.write("notes.txt", b"memo: buy milk");
    // A model given to the VMD tools, a motion given to the PMX tools: 2, "a X file, not Y"
    // (and no word of a VMD signature).
    let not_vmd = format!("{}: a PMX file, not VMD", pmx.display());
    for args in vmd_tools(s(&pmx), s(&vmd)) {
        expect(&args, 2, &not_vmd);
        assert!(!stderr(&mmd(&args)).contains("signature"), "{args:?}");
    }
    let not_pmx = format!("{}: a VMD file, not PMX", vmd.display());
    for args in pmx_tools(s(&vmd)) {
        expect(&args, 2, &not_pmx);
    }
    // An empty file and a text file are in no format, for either family: 2 as well.
    for input in [&empty, &text] {
        let mut every = vmd_tools(s(input), s(&vmd));
        every.extend(pmx_tools(s(input)));
        for args in every {
            expect(&args, 2, "no known signature");
        }
    }
    // The second input of a merge is told too.
    expect(
        &["vmd", "merge", s(&vmd), s(&pmx), "--dry-run"],
        2,
        &not_vmd,
    );
    // A VMD that does not read is a failure of the edit (1), named as every command names it.
    let cut = dir.write("cut.vmd", &motion()[..70]);
    let truncated = format!("{} (VMD): truncated: ", cut.display());
    for args in vmd_tools(s(&cut), s(&vmd)) {
        expect(&args, 1, &truncated);
    }
}

#[test]
fn a_sample_frame_must_be_a_number_and_a_frame_no_motion_has_is_warned_about() {
    let dir = TempDir::new("frame");
    let vmd = dir.write("m.vmd", &motion());
    // `mmd vmd sample m.vmd --bone センター --frame=FRAME` and `more`.
    let sample_at = |frame: &str, more: &[&str]| {
        let frame = format!("--frame={frame}");
        let mut args = vec!["vmd", "sample", s(&vmd), "--bone", "センター", &frame];
        args.extend_from_slice(more);
        mmd(&args)
    };
    for meaningless in ["nan", "NaN", "inf", "-inf", "1e400", "ten"] {
        let out = sample_at(meaningless, &[]);
        assert_eq!(code(&out), Some(2), "{meaningless}");
        assert!(
            stderr(&out).contains("expected a frame number"),
            "{meaningless}"
        );
        assert_eq!(stdout(&out), "", "{meaningless}");
    }
    // Before frame 0: printed, with a warning that says what value that is.
    let out = sample_at("-5", &[]);
    assert_eq!(code(&out), Some(0));
    assert!(
        stdout(&out).contains("position: [0.0,0.0,0.0]"),
        "{}",
        stdout(&out)
    );
    assert_eq!(
        stderr(&out),
        "mmd vmd sample: warning: frame -5 is before frame 0, where every motion starts: the \
         track holds its first key's value there\n"
    );
    let out = sample_at("5e9", &[]);
    assert_eq!(code(&out), Some(0));
    assert!(
        stderr(&out).contains("past frame 4294967295"),
        "{}",
        stderr(&out)
    );
    // In range: no warning. --json carries the warnings too.
    let out = sample_at("15", &[]);
    assert_eq!((code(&out), stderr(&out)), (Some(0), String::new()));
    let out = sample_at("-5", &["--json"]);
    let doc = json(&out);
    assert_eq!(doc["warnings"].as_array().map(Vec::len), Some(1), "{doc}");
    assert_eq!(stderr(&out), "", "--json keeps stderr clean");
    // A speed factor must be a number (2) and above 0 (1).
    let out = mmd(&["vmd", "speed", s(&vmd), "nan", "--dry-run"]);
    assert_eq!(code(&out), Some(2), "{}", stderr(&out));
    let out = mmd(&["vmd", "speed", s(&vmd), "0", "--dry-run"]);
    assert_eq!(code(&out), Some(1), "{}", stderr(&out));
}

#[test]
fn a_trim_that_leaves_nothing_writes_nothing_and_says_why() {
    let dir = TempDir::new("trim");
    let vmd = dir.write("m.vmd", &motion());
    let out_path = dir.file("out.vmd");
    let out = mmd(&["vmd", "trim", s(&vmd), "10000", "20000", "-o", s(&out_path)]);
    assert_eq!(code(&out), Some(1), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "mmd vmd trim: {}: no key lies in 10000..=20000 (the motion's keys are at frames \
             0..=20): the result would be empty; nothing written\n",
            vmd.display()
        )
    );
    assert!(!out_path.exists());
    // A range with keys still trims.
    let out = mmd(&["vmd", "trim", s(&vmd), "5", "15", "-o", s(&out_path)]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert!(out_path.exists());
}

#[test]
fn an_edit_whose_result_is_its_input_says_unchanged() {
    let dir = TempDir::new("no-op");
    let vmd = dir.write("m.vmd", &motion());
    // One bone, keyed at the first and the last frame already: nothing to fill.
    let out = mmd(&["vmd", "fill", s(&vmd), "--dry-run"]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let expected = format!("unchanged: the result is the bytes of {}\n", vmd.display());
    assert!(stdout(&out).ends_with(&expected), "{}", stdout(&out));
    let doc = json(&mmd(&["vmd", "fill", s(&vmd), "--dry-run", "--json"]));
    assert_eq!(doc["unchanged"], true);
    // Speed 1 moves nothing either; speed 2 does.
    let doc = json(&mmd(&["vmd", "speed", s(&vmd), "1", "--dry-run", "--json"]));
    assert_eq!(doc["unchanged"], true);
    let out = mmd(&["vmd", "speed", s(&vmd), "2", "--dry-run"]);
    assert!(!stdout(&out).contains("unchanged"), "{}", stdout(&out));
    let doc = json(&mmd(&["vmd", "speed", s(&vmd), "2", "--dry-run", "--json"]));
    assert_eq!(doc["unchanged"], false);
}

/// `mmd pmx recolor PMX --material 0 --rgb RGB` and `more`.
fn recolor(pmx: &std::path::Path, rgb: &str, more: &[&str]) -> std::process::Output {
    let mut args = vec!["pmx", "recolor", s(pmx), "--material", "0", "--rgb", rgb];
    args.extend_from_slice(more);
    mmd(&args)
}

#[test]
fn a_colour_outside_0_to_1_is_written_with_a_warning() {
    let dir = TempDir::new("rgb");
    let pmx = dir.write("m.pmx", &sample("pmx"));
    let out_path = dir.file("out.pmx");
    let out = recolor(&pmx, "2,0,0", &["-o", s(&out_path)]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "mmd pmx recolor: warning: materials[0].diffuse: the colour 2,0,0 has a component \
         outside 0 to 1, the range of MMD's colours: written as given\n"
    );
    assert!(out_path.exists());
    let doc = json(&recolor(&pmx, "-0.5,0,1", &["--dry-run", "--json"]));
    assert_eq!(doc["warnings"].as_array().map(Vec::len), Some(1), "{doc}");
    // Inside the range: no warning.
    assert_eq!(stderr(&recolor(&pmx, "1,0.5,0", &["--dry-run"])), "");
    // Not a number at all: refused.
    assert_eq!(code(&recolor(&pmx, "nan,0,0", &["--dry-run"])), Some(2));
}

#[test]
fn the_readme_says_what_recolor_reports() {
    // The README's line: `mmd pmx recolor model.pmx --material 0 --rgb 1,0.5,0.5 -o out.pmx
    // # 12 bytes rewritten`. The tool says the same on any model, and how many changed.
    let readme = include_str!("../../README.md");
    let line = readme
        .lines()
        .find(|l| l.starts_with("mmd pmx recolor "))
        .expect("the README shows recolor");
    assert!(line.contains("--rgb 1,0.5,0.5 "), "{line}");
    let claim = line.split('#').nth(1).expect("a comment").trim();
    assert_eq!(claim, "12 bytes rewritten");
    let dir = TempDir::new("readme");
    let pmx = dir.write("model.pmx", &sample("pmx"));
    let out = recolor(&pmx, "1,0.5,0.5", &["--dry-run"]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let last = stdout(&out).lines().last().unwrap_or_default().to_owned();
    assert!(
        last.contains(&format!("{claim}, ")) && last.ends_with(" of them changed)"),
        "{last}"
    );
    let doc = json(&recolor(&pmx, "1,0.5,0.5", &["--dry-run", "--json"]));
    assert_eq!(doc["bytes_rewritten"], 12);
    let changed = doc["bytes_changed"].as_u64().expect("a count");
    assert!(changed <= 12, "{doc}");
}

#[test]
fn a_cut_file_is_called_truncated_in_text_too() {
    let dir = TempDir::new("cut");
    let whole = sample("pmx");
    let cut = dir.write("cut.pmx", &whole[..whole.len() - 3]);
    for args in [vec!["info", s(&cut)], vec!["dump", s(&cut)]] {
        let out = mmd(&args);
        assert_eq!(code(&out), Some(1), "{args:?}");
        let expected = format!("{} (PMX): truncated: ", cut.display());
        assert!(
            stderr(&out).contains(&expected),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let out = mmd(&["check", s(&cut)]);
    assert_eq!(code(&out), Some(1));
    let expected = format!("FAILED  {} (PMX): truncated: ", cut.display());
    assert!(stdout(&out).starts_with(&expected), "{}", stdout(&out));
    // A corrupt file is not called truncated.
    let mut bad = whole.clone();
    bad[8] = 9; // the globals count: a PMX has 8
    let bad = dir.write("bad.pmx", &bad);
    let out = mmd(&["info", s(&bad)]);
    assert_eq!(code(&out), Some(1));
    assert!(!stderr(&out).contains("truncated"), "{}", stderr(&out));
}

#[test]
fn explain_on_a_cut_file_explains_what_is_there() {
    let dir = TempDir::new("explain-cut");
    let whole = motion();
    // The signature (30), model name (20), bone key count (4), then the first key: its
    // name (15, at 54), frame (4, at 69), position (12, at 73): cut 2 bytes into the
    // position's x.
    let cut = dir.write("cut.vmd", &whole[..75]);
    let out = mmd(&["explain", s(&cut), "0x45", "74"]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let expected = format!(
        "offset: 0x45 (69), byte 0 of the field\n\
         field:  bone_keys[0].frame\n\
         range:  0x45..0x49 (4 bytes)\n\
         bytes:  00 00 00 00\n\
         value:  0\n\
         \n\
         offset: 0x4a (74), byte 1 of the field\n\
         field:  bone_keys[0].position[0]\n\
         range:  0x49..0x4d (4 bytes, cut: the file ends at 0x4b)\n\
         bytes:  {:02x} {:02x}\n\
         value:  none (the file ends inside this field)\n",
        whole[73], whole[74]
    );
    assert_eq!(stdout(&out), expected);
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!(
            "mmd explain: warning: {} (VMD) is truncated: ",
            cut.display()
        )),
        "{err}"
    );
    let out = mmd(&["explain", "--json", s(&cut), "74"]);
    let doc = json(&out);
    assert_eq!(doc["cut"], true);
    assert_eq!(doc["value"], serde_json::Value::Null);
    assert_eq!(doc["end"], 0x4d);
    let doc = json(&mmd(&["explain", "--json", s(&cut), "69"]));
    assert_eq!(
        (doc["cut"].clone(), doc["value"].clone()),
        (false.into(), 0.into())
    );
    // Cut inside the signature: the field is there in part.
    let early = dir.write("early.vmd", &whole[..25]);
    let out = mmd(&["explain", s(&early), "3"]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("range:  0x0..0x1e (30 bytes, cut: the file ends at 0x19)"),
        "{}",
        stdout(&out)
    );
    // A PMX cut inside its globals (which decide the layout of everything after them)
    // cannot be read further: it fails as before, with 1.
    let pmx = sample("pmx");
    let early = dir.write("early.pmx", &pmx[..13]);
    let out = mmd(&["explain", s(&early), "3"]);
    assert_eq!(code(&out), Some(1), "{}", stderr(&out));
    let expected = format!(
        "mmd explain: {} (PMX): truncated: header.globals",
        early.display()
    );
    assert!(stderr(&out).starts_with(&expected), "{}", stderr(&out));
}

/// Every command path (`["vmd", "trim"]`), from the top.
fn command_paths() -> Vec<Vec<String>> {
    let top = stdout(&mmd(&["--help"]));
    let mut paths = Vec::new();
    for name in subcommands(&top) {
        let help = stdout(&mmd(&[&name, "--help"]));
        let subs = subcommands(&help);
        paths.push(vec![name.clone()]);
        for sub in subs {
            paths.push(vec![name.clone(), sub]);
        }
    }
    paths
}

/// The subcommand names a help text lists under `Commands:` (without `help`).
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .filter(|n| n != "help")
        .collect()
}

#[test]
fn help_texts_state_rules_not_sources() {
    let paths = command_paths();
    assert!(paths.len() >= 18, "{paths:?}");
    assert!(paths.contains(&vec!["vmd".to_owned(), "fill".to_owned()]));
    for path in &paths {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let out = mmd(&args);
        assert_eq!(code(&out), Some(0), "{args:?}");
        let help = stdout(&out).to_lowercase();
        assert!(
            !help.contains("seed"),
            "{args:?} cites a source document:\n{help}"
        );
        assert!(help.contains("exit codes"), "{args:?}:\n{help}");
    }
    // The fill rule, stated.
    let fill = stdout(&mmd(&["vmd", "fill", "--help"]));
    assert!(
        fill.contains("Interpolation runs only between two keys of one bone"),
        "{fill}"
    );
}

#[test]
fn each_vmd_tool_shows_only_its_own_notes() {
    // A phrase of each tool's exit codes, which no other tool's help may show.
    let own = [
        ("mirror", "result cannot be written as one"),
        ("trim", "FROM is after TO"),
        ("merge", "the offset moves a key"),
        ("speed", "FACTOR is not above 0"),
        ("fill", "--start is after --end"),
        ("sample", "the track has no key"),
    ];
    for (tool, _) in own {
        let help = stdout(&mmd(&["vmd", tool, "--help"]));
        for (other, phrase) in own {
            assert_eq!(
                help.contains(phrase),
                tool == other,
                "`mmd vmd {tool} --help` and {other}'s {phrase:?}:\n{help}"
            );
        }
    }
}
