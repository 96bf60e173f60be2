use mmd_formats::MmdContext;

/// A context that accepts a width no index has.
#[derive(MmdContext)]
#[mmd(from(raw: [u8; 1]))]
struct Ctx {
    /// The bone index width.
    #[mmd(from = raw[0], valid = [1, 2, 3, 4], index_width = mmd_formats::BoneIndex)]
    bone_width: u8,
}

fn main() {}
