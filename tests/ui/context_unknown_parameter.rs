use mmd_formats::pmx::Header;
use mmd_formats::MmdContext;

/// A context from a header.
#[derive(MmdContext)]
#[mmd(from(header: Header))]
struct Ctx {
    /// The version.
    #[mmd(from = heder.version)]
    version: f32,
}

fn main() {}
