use mmd_formats::MmdContext;

/// A context whose member says nothing of where it comes from.
#[derive(MmdContext)]
#[mmd(from(raw: u8))]
struct Ctx {
    /// A width.
    #[mmd(valid = [1, 2, 4])]
    width: u8,
}

fn main() {}
