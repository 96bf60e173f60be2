//! Shared helpers for the mmd-formats test suites: where the fixture corpus is, and a
//! byte comparison that shows a hex diff around the first difference.

/// Where the fixture corpus is: one lookup, and `MMD_REQUIRE_CORPUS`, for every corpus test.
pub mod corpus;
pub use corpus::{corpus_dir, corpus_files, corpus_required, fixture, fixture_path};

/// A hand-written PMX byte builder (seed layouts) shared by the PMX test suites.
pub mod pmx_bytes;

/// Large synthetic PMX, PMD and VMD files (for the `speed` bench), shaped like real ones.
pub mod synth;

/// Every input of every format: the built-in samples (named `<builtin>/NAME`), then the
/// fixtures of each format when the corpus is there (named by path), with their bytes.
pub fn all_inputs() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = mmd_formats::samples::all()
        .into_iter()
        .map(|s| (format!("<builtin>/{}", s.name), s.bytes))
        .collect();
    for ext in ["pmx", "pmd", "vmd", "vpd"] {
        for f in corpus_files(ext, ext).unwrap_or_default() {
            let bytes =
                std::fs::read(&f).unwrap_or_else(|e| panic!("cannot read {}: {e}", f.display()));
            out.push((f.display().to_string(), bytes));
        }
    }
    out
}

/// An output that keeps the bytes and says it records spans, so every writer takes the
/// ordinary (field by field) path into it, never the fixed one.
#[derive(Default)]
pub struct SpanOutput(pub Vec<u8>);

impl mmd_formats::Output for SpanOutput {
    fn position(&self) -> u64 {
        self.0.len() as u64
    }
    fn write_bytes(&mut self, bytes: &[u8]) -> mmd_formats::Result<()> {
        self.0.extend_from_slice(bytes);
        Ok(())
    }
    fn enter(&mut self, _: mmd_formats::path::Segment) {}
    fn records_spans(&self) -> bool {
        true
    }
}

/// Asserts two byte strings are equal, showing a hex dump around the first difference.
#[track_caller]
pub fn assert_bytes_eq(actual: &[u8], expected: &[u8], what: &str) {
    if actual == expected {
        return;
    }
    let at = actual
        .iter()
        .zip(expected)
        .position(|(a, b)| a != b)
        .unwrap_or(actual.len().min(expected.len()));
    let from = at.saturating_sub(16);
    let dump = |b: &[u8]| {
        b.get(from..(at + 16).min(b.len()))
            .unwrap_or(&[])
            .iter()
            .map(|x| format!("{x:02x}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    panic!(
        "{what}: bytes differ first at {at:#x} (lengths {} vs {} expected)\n  actual   @{from:#x}: {}\n  expected @{from:#x}: {}",
        actual.len(),
        expected.len(),
        dump(actual),
        dump(expected)
    );
}

/// The README's code examples, run as doc tests so they always compile and pass.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeExamples;
