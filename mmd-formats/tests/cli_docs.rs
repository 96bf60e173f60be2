//! `mmd completions SHELL` and `mmd man`: made from the clap definitions, so they name every
//! command there is.
#![cfg(feature = "cli")]

mod cli_common;

use cli_common::{code, mmd, s, stderr, stdout, TempDir};

/// The page of every command and subcommand.
const PAGES: [&str; 23] = [
    "mmd.1",
    "mmd-check.1",
    "mmd-info.1",
    "mmd-pmx.1",
    "mmd-pmx-recolor.1",
    "mmd-pmx-rename.1",
    "mmd-pmx-bones.1",
    "mmd-vmd.1",
    "mmd-vmd-mirror.1",
    "mmd-vmd-trim.1",
    "mmd-vmd-merge.1",
    "mmd-vmd-speed.1",
    "mmd-vmd-fill.1",
    "mmd-vmd-bake-ik.1",
    "mmd-vmd-sample.1",
    "mmd-dump.1",
    "mmd-explain.1",
    "mmd-diff.1",
    "mmd-lint.1",
    "mmd-pose.1",
    "mmd-build.1",
    "mmd-completions.1",
    "mmd-man.1",
];

#[test]
fn every_shell_gets_a_script_that_knows_the_commands() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = mmd(&["completions", shell]);
        assert_eq!(code(&out), Some(0), "{shell}: {}", stderr(&out));
        let script = stdout(&out);
        for word in ["check", "recolor", "sample", "jobs", "dry-run"] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
    }
    let out = mmd(&["completions", "tcsh"]);
    assert_eq!(code(&out), Some(2), "an unknown shell is a usage error");
    assert!(stderr(&out).contains("bash"), "{}", stderr(&out));
}

#[test]
fn the_bash_script_is_valid_bash() {
    // bash is there wherever the project's CI runs (`.ci/run` is a bash script).
    let dir = TempDir::new("bash");
    let script = dir.write("mmd.bash", &mmd(&["completions", "bash"]).stdout);
    // Load the script and ask it for the completions of `mmd vmd t`.
    let check = format!(
        "source {}; COMP_WORDS=(mmd vmd t); COMP_CWORD=2; _mmd mmd t vmd; \
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        s(&script)
    );
    let out = std::process::Command::new("bash")
        .args(["-c", &check])
        .output()
        .expect("bash is needed to load the completion script");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replies = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(replies.lines().collect::<Vec<_>>(), ["trim"], "{replies}");
}

#[test]
fn man_prints_the_top_page_and_writes_every_page_into_a_folder() {
    let out = mmd(&["man"]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let page = stdout(&out);
    assert!(page.contains(".TH mmd 1"), "{page}");
    assert!(
        page.contains("mmd\\-check(1)"),
        "the page lists the subcommands"
    );
    let dir = TempDir::new("man");
    let out = mmd(&["man", "--dir", s(dir.path())]);
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let mut written: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    let mut expected: Vec<String> = PAGES.iter().map(|p| p.to_string()).collect();
    expected.sort();
    assert_eq!(written, expected);
    let listed: Vec<String> = stdout(&out).lines().map(str::to_owned).collect();
    assert_eq!(listed.len(), PAGES.len());
    assert_eq!(listed[0], format!("wrote {}", dir.file("mmd.1").display()));
    // A page says what --help says: the trim page has trim's exit codes.
    let trim = std::fs::read_to_string(dir.file("mmd-vmd-trim.1")).unwrap();
    let version = env!("CARGO_PKG_VERSION");
    assert!(
        trim.contains(&format!(
            ".TH mmd-vmd-trim 1  \"mmd {version}\" \"mmd manual\""
        )),
        "{trim}"
    );
    assert!(trim.contains("FROM is after TO"), "{trim}");
    assert_eq!(
        std::fs::read(dir.file("mmd.1")).unwrap(),
        mmd(&["man"]).stdout,
        "mmd man prints the same mmd.1"
    );
    // A folder that does not exist is named (the first missing one), with exit code 2.
    let nowhere = dir.file("no/such");
    let out = mmd(&["man", "--dir", s(&nowhere)]);
    assert_eq!(code(&out), Some(2));
    let expected = format!(
        "mmd man: cannot write {}: the folder {} does not exist",
        nowhere.join("mmd.1").display(),
        dir.file("no").display()
    );
    assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
}
