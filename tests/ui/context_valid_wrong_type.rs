use mmd_formats::MmdContext;

/// A context with value lists that do not fit their members.
#[derive(MmdContext)]
#[mmd(from(raw: [u8; 2]))]
struct Ctx {
    /// A width.
    #[mmd(from = raw[0], valid = [1, "2", 4.5])]
    width: u8,
    /// A flag.
    #[mmd(from = raw[1] != 0, valid = [1])]
    flag: bool,
}

fn main() {}
