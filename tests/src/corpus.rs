//! Where the fixture corpus is, for every corpus test in the workspace (this crate's, and
//! through its dev-dependency on `mmd-tests`, those of `mmd-formats` and `mmd-spec`).
//!
//! - `MMD_CORPUS` names the corpus folder; without it, `../shared/fixtures` beside the
//!   workspace.
//! - Without the corpus a corpus test passes with nothing checked, and says so on stderr
//!   once per test binary. The note is written past the test harness's output capture,
//!   so it shows in a plain `cargo test` run.
//! - `MMD_REQUIRE_CORPUS=1` (as CI sets it) turns a missing corpus into a failure of every
//!   corpus test.
//! - A named fixture ([`fixture`], [`fixture_path`]) that is missing while the corpus is
//!   there fails the test: a renamed or deleted file never turns a test into a silent pass.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Once;

/// The environment variable that makes a missing corpus a failure.
pub const REQUIRE_VAR: &str = "MMD_REQUIRE_CORPUS";

/// Whether `MMD_REQUIRE_CORPUS` asks for the corpus: set to anything but empty or `0`.
pub fn corpus_required() -> bool {
    std::env::var_os(REQUIRE_VAR).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Where the corpus should be: `$MMD_CORPUS`, else `../shared/fixtures` beside the workspace.
pub fn corpus_location() -> PathBuf {
    match std::env::var_os("MMD_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/fixtures"),
    }
}

/// The fixture corpus folder, or `None` when it is not there (after a note on stderr, once
/// per test binary).
///
/// Panics when it is not there and `MMD_REQUIRE_CORPUS` is set.
#[track_caller]
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = corpus_location();
    if dir.is_dir() {
        return Some(dir);
    }
    if corpus_required() {
        panic!(
            "{REQUIRE_VAR} is set but there is no fixture corpus at {} (set MMD_CORPUS to the \
             folder holding pmx/, pmd/, vmd/, vpd/, bad/ and MANIFEST.tsv)",
            dir.display()
        );
    }
    static NOTE: Once = Once::new();
    NOTE.call_once(|| {
        // Straight to stderr: the harness captures `eprintln!` of passing tests.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: no fixture corpus at {}: the corpus tests of this binary check nothing \
             (set MMD_CORPUS to point at one; {REQUIRE_VAR}=1 makes this a failure)",
            dir.display()
        );
    });
    None
}

/// The files in `<corpus>/<sub>` whose extension is `ext` (case-insensitive), sorted.
///
/// `None` when there is no corpus (see [`corpus_dir`]). Panics when the folder exists but
/// holds no such file: an empty fixture folder must fail loudly, never pass.
#[track_caller]
pub fn corpus_files(sub: &str, ext: &str) -> Option<Vec<PathBuf>> {
    let dir = corpus_dir()?.join(sub);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .is_some_and(|x| x.to_string_lossy().eq_ignore_ascii_case(ext))
        })
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no .{ext} files in {}: the corpus is incomplete",
        dir.display()
    );
    Some(files)
}

/// The path of the named fixture `rel` (`"pmx/alicia_solid.pmx"`, relative to the corpus).
///
/// `None` when there is no corpus (see [`corpus_dir`]); panics when the corpus is there but
/// the file is not.
#[track_caller]
pub fn fixture_path(rel: &str) -> Option<PathBuf> {
    let path = corpus_dir()?.join(rel);
    assert!(
        path.is_file(),
        "fixture {rel} is missing from the corpus ({})",
        path.display()
    );
    Some(path)
}

/// The bytes of the named fixture `rel` (relative to the corpus).
///
/// `None` when there is no corpus (see [`corpus_dir`]); panics when the corpus is there but
/// the file is missing or cannot be read.
#[track_caller]
pub fn fixture(rel: &str) -> Option<Vec<u8>> {
    let path = fixture_path(rel)?;
    Some(std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display())))
}
