use mmd_formats::MmdContext;

/// A context whose value lists do not fit their members' types.
#[derive(MmdContext)]
#[mmd(from(raw: (f32, u8)))]
struct Ctx {
    /// A scale: float literals, not integers.
    #[mmd(from = raw.0, valid = [1, 2.0])]
    scale: f32,
    /// A count: no negative values.
    #[mmd(from = raw.1, valid = [-1, 0])]
    count: u8,
}

fn main() {}
