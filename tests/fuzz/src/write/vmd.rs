//! VMD values made inconsistent through their public fields.

use arbitrary::Arbitrary;
use mmd_formats::vmd::{
    signature_bytes, Header, IkState, ModelName, Vmd, VmdVersion, SIGNATURE_PREFIX,
};
use mmd_formats::ShiftJis;

use super::{pick, resize, Len, Presence};

/// One fuzz case: which sample, then the edits in order.
#[derive(Debug, Arbitrary)]
pub struct Case {
    /// The sample (modulo the number of samples).
    pub sample: u8,
    /// The edits.
    pub edits: Vec<Edit>,
}

/// A 30-byte signature.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum Signature {
    /// MMD's version 1 signature, zero-filled.
    V1,
    /// MMD's version 2 signature, zero-filled.
    V2,
    /// A version's 25 bytes followed by other filler (real files hold junk there).
    Filler {
        /// Version 1 (else 2).
        v1: bool,
        /// The five bytes after the version.
        filler: [u8; 5],
    },
    /// `Vocaloid Motion Data` followed by any ten bytes.
    Prefix([u8; 10]),
    /// Any 30 bytes.
    Raw([u8; 30]),
}

/// One of the five blocks that may be absent.
#[derive(Debug, Clone, Copy, Arbitrary)]
pub enum Block {
    /// Morph keys.
    Morph,
    /// Camera keys.
    Camera,
    /// Light keys.
    Light,
    /// Self-shadow keys.
    SelfShadow,
    /// IK / show keys.
    ShowIk,
}

/// One edit through the public fields.
#[derive(Debug, Arbitrary)]
pub enum Edit {
    /// The signature, the model name left as it is (its width may no longer fit).
    Signature(Signature),
    /// The model name as a field of the given version's width, from raw bytes.
    ModelName {
        /// Version 1 (10 bytes; else 20).
        v1: bool,
        /// The bytes (cut or zero-filled to the width).
        raw: Vec<u8>,
    },
    /// A new header from a name (`Header::new_v1` / `new_v2` must refuse what does not
    /// fit); replaces the header when accepted.
    NewHeader {
        /// Version 1 (else 2).
        v1: bool,
        /// The model name.
        name: String,
    },
    /// A block made absent, empty, or kept (an absent block before a present one cannot
    /// be written).
    Block {
        /// Which.
        block: Block,
        /// What becomes of it.
        presence: Presence,
    },
    /// Bytes after the last block (after an absent block they cannot be written).
    Trailing(Vec<u8>),
    /// A bone key's name from a string (more than 15 bytes must be refused).
    BoneName {
        /// Which key.
        key: u16,
        /// The name.
        name: String,
    },
    /// The number of bone keys.
    BoneKeys(Len),
    /// The IK states of an IK / show key.
    IkStates {
        /// Which key.
        key: u16,
        /// How many.
        len: Len,
    },
}

/// Applies one edit; an edit whose target does not exist in this file does nothing.
pub fn apply(v: &mut Vmd, edit: Edit) {
    match edit {
        Edit::Signature(s) => v.header.signature = signature(s),
        Edit::ModelName { v1, raw } => {
            v.header.model_name = if v1 {
                ModelName::V1(ShiftJis(fixed(&raw)))
            } else {
                ModelName::V2(ShiftJis(fixed(&raw)))
            }
        }
        Edit::NewHeader { v1, name } => {
            let header = if v1 {
                Header::new_v1(&name)
            } else {
                Header::new_v2(&name)
            };
            if let Ok(h) = header {
                v.header = h;
            }
            let _ = Vmd::new_v2(&name);
        }
        Edit::Block { block, presence } => match block {
            Block::Morph => presence.apply(&mut v.morph_keys),
            Block::Camera => presence.apply(&mut v.camera_keys),
            Block::Light => presence.apply(&mut v.light_keys),
            Block::SelfShadow => presence.apply(&mut v.self_shadow_keys),
            Block::ShowIk => presence.apply(&mut v.show_ik_keys),
        },
        Edit::Trailing(bytes) => v.trailing = bytes,
        Edit::BoneName { key, name } => {
            if let (Some(k), Ok(name)) = (pick(&mut v.bone_keys, key), ShiftJis::new(&name)) {
                k.name = name;
            }
        }
        Edit::BoneKeys(len) => resize(&mut v.bone_keys, len.small(), None),
        Edit::IkStates { key, len } => {
            let keys = v.show_ik_keys.as_mut();
            if let Some(k) = keys.and_then(|keys| pick(keys, key)) {
                let fill = IkState {
                    name: ShiftJis::default(),
                    enabled: 1,
                };
                resize(&mut k.ik, len.small(), Some(fill));
            }
        }
    }
}

fn signature(s: Signature) -> [u8; 30] {
    match s {
        Signature::V1 => signature_bytes(VmdVersion::V1),
        Signature::V2 => signature_bytes(VmdVersion::V2),
        Signature::Filler { v1, filler } => {
            let mut out = signature_bytes(if v1 { VmdVersion::V1 } else { VmdVersion::V2 });
            out[25..].copy_from_slice(&filler);
            out
        }
        Signature::Prefix(rest) => {
            let mut out = [0u8; 30];
            out[..20].copy_from_slice(SIGNATURE_PREFIX);
            out[20..].copy_from_slice(&rest);
            out
        }
        Signature::Raw(raw) => raw,
    }
}

/// `raw` cut or zero-filled to `N` bytes.
fn fixed<const N: usize>(raw: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    let n = raw.len().min(N);
    out[..n].copy_from_slice(&raw[..n]);
    out
}

/// Builds the case's value and checks the writer's rule on it
/// ([`check_binary`](super::check_binary)).
pub fn check(case: Case) {
    static SAMPLES: std::sync::OnceLock<Vec<Vmd>> = std::sync::OnceLock::new();
    let samples = SAMPLES.get_or_init(|| {
        super::samples(mmd_formats::inspect::Format::Vmd, |b| {
            Vmd::from_bytes(b).ok()
        })
    });
    let mut v = samples[usize::from(case.sample) % samples.len()].clone();
    for edit in case.edits {
        apply(&mut v, edit);
    }
    let _ = v.context();
    let _ = v.summary();
    super::check_binary(&v);
}
