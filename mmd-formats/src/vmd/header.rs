//! The VMD header (signature and model name) and the context it declares.

use crate::error::{Error, Result};
use crate::text::ShiftJis;
use crate::{ContextFault, DeclaredContext, Mmd, MmdContext};
use std::borrow::Cow;

/// The 25 bytes that open a version 2 file (MMD 3.x and later).
pub const SIGNATURE_V2: &[u8; 25] = b"Vocaloid Motion Data 0002";
/// The 25 bytes that open a version 1 file (version 0001, the old MMD).
pub const SIGNATURE_V1: &[u8; 25] = b"Vocaloid Motion Data file";
/// The prefix every VMD starts with, whatever its version.
pub const SIGNATURE_PREFIX: &[u8; 20] = b"Vocaloid Motion Data";

/// The file version, told by the signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VmdVersion {
    /// `Vocaloid Motion Data file` (version 0001): the model name is 10 bytes.
    V1,
    /// `Vocaloid Motion Data 0002`: the model name is 20 bytes.
    V2,
}

impl VmdVersion {
    /// The version number: 1 or 2 (the selector of [`ModelName`]).
    pub const fn number(self) -> u8 {
        match self {
            VmdVersion::V1 => 1,
            VmdVersion::V2 => 2,
        }
    }

    /// The width in bytes of the model-name field: 10 (v1) or 20 (v2).
    pub const fn model_name_len(self) -> usize {
        match self {
            VmdVersion::V1 => 10,
            VmdVersion::V2 => 20,
        }
    }

    /// The 25 signature bytes of this version (before the 5 filler bytes).
    pub const fn signature(self) -> &'static [u8; 25] {
        match self {
            VmdVersion::V1 => SIGNATURE_V1,
            VmdVersion::V2 => SIGNATURE_V2,
        }
    }
}

/// The context the rest of the header is read and written with, computed from the
/// 30-byte signature: the file version, which sets the width of the model name.
///
/// The rule: a signature that starts with `Vocaloid Motion Data file` is version 1 (a
/// 10-byte model name); any other signature that starts with `Vocaloid Motion Data` is
/// version 2 (a 20-byte model name): `Vocaloid Motion Data 0002` as MMD writes it, but
/// also `Vocaloid Motion Data` followed by NULs or other bytes, as some tools write it.
/// A signature that does not start with `Vocaloid Motion Data` is not a VMD.
#[derive(MmdContext, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[mmd(from(signature: [u8; 30]))]
pub struct VmdContext {
    /// The file version: 1 for a signature starting with `Vocaloid Motion Data file`, 2
    /// for any other starting with `Vocaloid Motion Data` (the selector of [`ModelName`]).
    #[mmd(
        from = if signature.starts_with(b"Vocaloid Motion Data file") {
            1
        } else if signature.starts_with(b"Vocaloid Motion Data") {
            2
        } else {
            0
        },
        valid = [1, 2],
        name = "VMD version",
        expected = "a signature starting with \"Vocaloid Motion Data\" (version 1 when \"Vocaloid Motion Data file\", else 2)"
    )]
    pub version: u8,
}

impl VmdContext {
    /// The context a 30-byte signature declares. Offsets in its errors are from the start
    /// of the signature (the start of the file).
    ///
    /// Fails unless the signature starts with `Vocaloid Motion Data`: the version decides
    /// the width of the model name, so a file that is not a VMD cannot be read.
    pub fn from_signature(signature: &[u8; 30]) -> Result<Self> {
        VmdContext::compute((signature,)).map_err(ContextFault::into_error)
    }

    /// The version as a [`VmdVersion`].
    pub fn vmd_version(&self) -> VmdVersion {
        match self.version {
            1 => VmdVersion::V1,
            _ => VmdVersion::V2,
        }
    }
}

/// The VMD header: a 30-byte signature, then the name of the model the motion was made for.
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 30 | signature: `Vocaloid Motion Data 0002` (v2) or `Vocaloid Motion Data file` (v1), then filler |
/// | 30 | 20 (v2) / 10 (v1) | model name, Shift_JIS |
///
/// The version is judged by the signature's prefix: see [`VmdContext`].
#[derive(Mmd, Debug, Clone, PartialEq)]
#[mmd(ctx = ())]
pub struct Header {
    /// Signature, 30 bytes: `Vocaloid Motion Data 0002` (v2) or the old version's
    /// `Vocaloid Motion Data file` (version 0001, v1), then 5 filler bytes. The version is
    /// told by the prefix ([`VmdContext`]); it sets the width of the model name.
    ///
    /// Trap: the spec says the filler is zeros ("0埋め"); real files hold junk after the
    /// NUL (`00 4A 4B 4C 4D`, "JKLM"), and some tools write `Vocaloid Motion Data` and ten
    /// NULs (a version 2 layout). The 30 bytes are kept whole.
    #[mmd(context = VmdContext(signature))]
    pub signature: [u8; 30],
    /// Model name (Shift_JIS): the model the motion was made for; camera and light files
    /// hold a placeholder such as `カメラ・照明`. 20 bytes in v2, 10 in v1.
    ///
    /// Trap: the 20 bytes may end in half a two-byte character (the name was cut to fit);
    /// a decoder shows U+FFFD there, which should be dropped for display.
    ///
    /// Trap: the field may run to its last byte with no NUL, or carry junk after the NUL
    /// (0xFD padding, or `on Data`, the tail of a reused signature buffer). It is kept whole.
    #[mmd(select = ctx.version)]
    pub model_name: ModelName,
}

impl Header {
    /// A version 2 header for a model name (encoded as Shift_JIS, at most 20 bytes).
    pub fn new_v2(model_name: &str) -> Result<Self> {
        Ok(Header {
            signature: signature_bytes(VmdVersion::V2),
            model_name: ModelName::V2(ShiftJis::new(model_name).map_err(in_model_name)?),
        })
    }

    /// A version 1 header for a model name (encoded as Shift_JIS, at most 10 bytes).
    pub fn new_v1(model_name: &str) -> Result<Self> {
        Ok(Header {
            signature: signature_bytes(VmdVersion::V1),
            model_name: ModelName::V1(ShiftJis::new(model_name).map_err(in_model_name)?),
        })
    }

    /// The context the signature declares.
    pub fn context(&self) -> Result<VmdContext> {
        VmdContext::from_signature(&self.signature).map_err(|e| e.in_field("signature"))
    }

    /// The version the signature declares, if it declares one.
    pub fn version(&self) -> Option<VmdVersion> {
        VmdContext::from_signature(&self.signature)
            .ok()
            .map(|c| c.vmd_version())
    }

    /// True when the signature starts with one of the two that MMD writes:
    /// `Vocaloid Motion Data 0002` or `Vocaloid Motion Data file` (what follows in the last
    /// five bytes is filler, often junk). A file whose signature only starts with
    /// `Vocaloid Motion Data` still reads, by the prefix rule of [`VmdContext`].
    pub fn has_standard_signature(&self) -> bool {
        [VmdVersion::V1, VmdVersion::V2]
            .iter()
            .any(|v| self.signature.starts_with(v.signature()))
    }
}

fn in_model_name(e: Error) -> Error {
    e.offset_by(30).in_field("model_name")
}

/// The 30 signature bytes MMD writes for a version: the 25-byte string, then 5 zeros.
pub fn signature_bytes(version: VmdVersion) -> [u8; 30] {
    let mut out = [0u8; 30];
    out[..25].copy_from_slice(version.signature());
    out
}

/// The model-name field, whose width the version sets (no tag in the file: the
/// signature chooses).
#[derive(Mmd, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[mmd(selected_by = u8, name = "VMD version")]
pub enum ModelName {
    /// Version 1 (`Vocaloid Motion Data file`): 10 bytes of Shift_JIS.
    #[mmd(tag = 1)]
    V1(ShiftJis<10>),
    /// Version 2 (`Vocaloid Motion Data 0002`): 20 bytes of Shift_JIS.
    #[mmd(tag = 2)]
    V2(ShiftJis<20>),
}

impl ModelName {
    /// The whole field as stored (10 or 20 bytes, junk after the NUL included).
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            ModelName::V1(s) => &s.0,
            ModelName::V2(s) => &s.0,
        }
    }

    /// The bytes of the name: up to the first NUL, or the whole field.
    pub fn name_bytes(&self) -> &[u8] {
        match self {
            ModelName::V1(s) => s.name_bytes(),
            ModelName::V2(s) => s.name_bytes(),
        }
    }

    /// The name decoded for display; half a character cut at the end is dropped.
    pub fn decode(&self) -> Cow<'_, str> {
        match self {
            ModelName::V1(s) => s.decode(),
            ModelName::V2(s) => s.decode(),
        }
    }

    /// The version whose width this field has.
    pub fn version(&self) -> VmdVersion {
        match self {
            ModelName::V1(_) => VmdVersion::V1,
            ModelName::V2(_) => VmdVersion::V2,
        }
    }
}
