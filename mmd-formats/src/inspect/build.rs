//! A file of any format built from its JSON form (what `mmd build` does): the inverse of
//! [`Format::json_tree`] printed as JSON, with the rules of [`json`](crate::json).

use super::Format;
use crate::codec::Encode;
use crate::json::{self, FromJson, Json, JsonError};
use crate::pmd::Pmd;
use crate::pmx::Pmx;
use crate::vmd::Vmd;
use crate::vpd::Vpd;

impl Format {
    /// Builds a file of this format from JSON text (the form `mmd dump --json` prints).
    /// An error names the JSON path at fault (or, for text that is not JSON, its line and
    /// column); nothing is built then.
    ///
    /// ```
    /// use mmd_formats::inspect::Format;
    /// # fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let bytes = mmd_formats::samples::pmx_samples().remove(0).1;
    /// let text = mmd_formats::json::value_to_string(&Format::Pmx.json_tree(&bytes)?);
    /// assert_eq!(Format::Pmx.build(&text)?, bytes);
    /// # Ok(()) }
    /// ```
    pub fn build(self, text: &str) -> Result<Vec<u8>, JsonError> {
        self.build_tree(&json::parse(text)?)
    }

    /// Builds a file of this format from a parsed JSON tree (see [`Format::build`]).
    pub fn build_tree(self, json: &Json<'_>) -> Result<Vec<u8>, JsonError> {
        match self {
            Format::Pmx => encode::<Pmx>(json),
            Format::Pmd => encode::<Pmd>(json),
            Format::Vmd => encode::<Vmd>(json),
            Format::Vpd => encode::<Vpd>(json),
        }
    }
}

/// Builds a `T` and writes it; a write error (which the build's checks should leave
/// none of) is reported at its field path.
fn encode<T: FromJson<()> + Encode<()>>(json: &Json<'_>) -> Result<Vec<u8>, JsonError> {
    let value = T::from_json(json, &())?;
    crate::file::encode_all(&value, &()).map_err(|e| JsonError::from_write(&e))
}
