//! Built-in sample files, built in code, that cover every branch of every format.
//!
//! They seed the tests, the fuzzers and `mmd check` with no arguments, so all of these
//! work on a fresh clone with no fixture files.
//!
//! Their bytes do not come from the library's writer: the PMX, PMD and VMD samples are
//! values written to bytes by hand layouts stated from the format documents, the VPD
//! samples literal text. A unit test reads every sample back and compares the result
//! with the value its bytes were written from, so the reader and those layouts are two
//! independent statements that must agree, and `mmd check`'s round trip on them shows
//! the writer agrees too.

mod bytes;
#[cfg(test)]
mod check;
mod pmd;
mod pmx;
mod vmd;
mod vpd;

pub use self::pmd::pmd_samples;
pub use self::pmx::pmx_samples;
pub use self::vmd::vmd_samples;
pub use self::vpd::vpd_samples;

/// A named sample file.
#[derive(Debug, Clone)]
pub struct Sample {
    /// A file-like name (`pmx/utf16_width1.pmx`).
    pub name: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

/// Every built-in sample, of every format.
pub fn all() -> Vec<Sample> {
    [pmx_samples(), pmd_samples(), vmd_samples(), vpd_samples()]
        .into_iter()
        .flatten()
        .map(|(name, bytes)| Sample { name, bytes })
        .collect()
}
