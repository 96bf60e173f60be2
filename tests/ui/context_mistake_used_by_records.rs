use mmd_formats::{BoneIndex, Mmd, MmdContext, PmxText};

/// A header.
#[derive(Mmd)]
struct Header {
    /// The bone index width.
    width: u8,
}

/// A context with one mistake (a string in a value list).
#[derive(MmdContext)]
#[mmd(from(header: Header))]
struct Ctx {
    /// The bone index width.
    #[mmd(from = header.width, valid = [1, "2"], index_width = BoneIndex)]
    width: u8,
    /// The text encoding.
    #[mmd(from = header.width, text_encoding)]
    encoding: u8,
}

/// A record that reads indices and text with it: the mistake is the context's only.
#[derive(Mmd)]
#[mmd(ctx = Ctx)]
struct Body {
    /// A bone.
    bone: BoneIndex,
    /// A name.
    name: PmxText,
}

/// The file.
#[derive(Mmd)]
#[mmd(ctx = ())]
struct File {
    /// The header.
    #[mmd(context = Ctx(header))]
    header: Header,
    /// The body.
    body: Body,
}

fn main() {}
