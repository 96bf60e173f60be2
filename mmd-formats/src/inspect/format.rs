//! The four formats, and how a file tells which one it is: by the signature it opens with.

use std::fmt;

/// The file formats this crate reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// PMX 2.0 / 2.1 model (`PMX ` signature).
    Pmx,
    /// PMD model (`Pmd` signature; Shift_JIS names).
    Pmd,
    /// VPD pose (`Vocaloid Pose Data file` signature; Shift_JIS text).
    Vpd,
    /// VMD motion, camera or light key frames (`Vocaloid Motion Data` signature).
    Vmd,
}

/// The signature each format opens with, in the order they are tried.
const SIGNATURES: [(Format, &[u8]); 4] = [
    (Format::Pmx, b"PMX "),
    (Format::Pmd, b"Pmd"),
    (Format::Vmd, crate::vmd::SIGNATURE_PREFIX),
    (Format::Vpd, crate::vpd::MAGIC),
];

impl Format {
    /// Every format, in the order [`Format::detect`] tries their signatures.
    pub const ALL: [Format; 4] = [Format::Pmx, Format::Pmd, Format::Vmd, Format::Vpd];

    /// The format's usual name (`PMX`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Pmx => "PMX",
            Format::Pmd => "PMD",
            Format::Vpd => "VPD",
            Format::Vmd => "VMD",
        }
    }

    /// The bytes every file of this format opens with (`PMX `, `Pmd`,
    /// `Vocaloid Motion Data`, `Vocaloid Pose Data file`).
    pub fn signature(self) -> &'static [u8] {
        SIGNATURES
            .iter()
            .find(|(f, _)| *f == self)
            .map_or(&[], |(_, s)| s)
    }

    /// Detects the format from the first bytes of a file.
    pub fn detect(bytes: &[u8]) -> Option<Format> {
        Format::identify(bytes).ok()
    }

    /// Detects the format from the first bytes of a file, or says why none fits: the
    /// file opens with none of the signatures, and what it does open with.
    ///
    /// ```
    /// use mmd_formats::inspect::Format;
    /// assert_eq!(Format::identify(b"PMX \0\0\0\x40"), Ok(Format::Pmx));
    /// let why = Format::identify(b"MZ\x90\0").unwrap_err();
    /// assert_eq!(
    ///     why.to_string(),
    ///     "no known signature (PMX, PMD, VMD or VPD); the file starts with 4d 5a 90 00 (\"MZ..\")"
    /// );
    /// ```
    pub fn identify(bytes: &[u8]) -> Result<Format, UnknownFormat> {
        SIGNATURES
            .iter()
            .find(|(_, signature)| bytes.starts_with(signature))
            .map(|(format, _)| *format)
            .ok_or_else(|| UnknownFormat::of(bytes))
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why [`Format::identify`] found no format: the file opens with none of the signatures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFormat {
    /// The file's first bytes (at most [`UnknownFormat::SHOWN`]).
    pub head: Vec<u8>,
    /// The file's length in bytes.
    pub len: u64,
}

impl UnknownFormat {
    /// How many of the first bytes are kept and shown.
    pub const SHOWN: usize = 16;

    pub(crate) fn of(bytes: &[u8]) -> Self {
        UnknownFormat {
            head: bytes.iter().take(Self::SHOWN).copied().collect(),
            len: bytes.len() as u64,
        }
    }
}

impl fmt::Display for UnknownFormat {
    /// `no known signature (PMX, PMD, VMD or VPD); the file starts with 4d 5a ("MZ")`, or
    /// `...; the file is empty`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.among(&["PMX", "PMD", "VMD", "VPD"]))
    }
}

impl UnknownFormat {
    /// The message of a file that opens with none of the signatures of the formats
    /// `known` names (a tool of other formats than these four):
    /// `no known signature (MVD); the file starts with ...`.
    ///
    /// ```
    /// use mmd_formats::inspect::Format;
    /// let why = Format::identify(b"RIFF").unwrap_err();
    /// assert_eq!(
    ///     why.among(&["BMP", "ICO"]),
    ///     "no known signature (BMP or ICO); the file starts with 52 49 46 46 (\"RIFF\")"
    /// );
    /// ```
    pub fn among(&self, known: &[&str]) -> String {
        let names = match known {
            [] => String::new(),
            [one] => (*one).to_owned(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
        };
        let mut text = format!("no known signature ({names}); ");
        let _ = self.write_head(&mut text);
        text
    }

    /// What the file starts with: `the file starts with 4d 5a ("MZ")`.
    fn write_head(&self, f: &mut impl fmt::Write) -> fmt::Result {
        if self.head.is_empty() {
            return f.write_str("the file is empty");
        }
        let hex: Vec<String> = self.head.iter().map(|b| format!("{b:02x}")).collect();
        let text: String = self
            .head
            .iter()
            .map(|&b| match b {
                b' '..=b'~' => char::from(b),
                _ => '.',
            })
            .collect();
        let more = if self.len > self.head.len() as u64 {
            " ..."
        } else {
            ""
        };
        write!(
            f,
            "the file starts with {}{more} ({text:?}{more})",
            hex.join(" ")
        )
    }
}

impl std::error::Error for UnknownFormat {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_signature_names_its_format() {
        for format in Format::ALL {
            let mut bytes = format.signature().to_vec();
            bytes.extend_from_slice(b"\0\0");
            assert_eq!(Format::identify(&bytes), Ok(format));
            assert_eq!(format.to_string(), format.name());
        }
    }

    #[test]
    fn an_unknown_file_says_what_it_starts_with() {
        let why = Format::identify(b"").unwrap_err();
        assert_eq!(
            why.to_string(),
            "no known signature (PMX, PMD, VMD or VPD); the file is empty"
        );
        // A cut signature is not the signature.
        let why = Format::identify(b"PM").unwrap_err();
        assert!(
            why.to_string().ends_with("starts with 50 4d (\"PM\")"),
            "{why}"
        );
        // Long files show their first 16 bytes and say there is more.
        let why = Format::identify(b"NOT AN MMD FILE, really").unwrap_err();
        assert_eq!(why.head.len(), UnknownFormat::SHOWN);
        assert_eq!(why.len, 23);
        assert!(
            why.to_string().ends_with(
                "4e 4f 54 20 41 4e 20 4d 4d 44 20 46 49 4c 45 2c ... (\"NOT AN MMD FILE,\" ...)"
            ),
            "{why}"
        );
    }
}
