use mmd_formats::MmdContext;

/// Format keywords written on a context.
#[derive(MmdContext)]
#[mmd(from(raw: u8), ctx = ())]
struct Ctx {
    /// A width.
    #[mmd(from = *raw, count = u8)]
    width: u8,
}

fn main() {}
