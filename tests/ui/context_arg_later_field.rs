use mmd_formats::{Mmd, MmdContext};

/// Counts for what follows.
#[derive(MmdContext)]
#[mmd(from(n: u8))]
struct Counts {
    /// How many.
    #[mmd(from = *n)]
    n: u8,
}

#[derive(Mmd)]
#[mmd(ctx = ())]
struct File {
    #[mmd(context = Counts(later))]
    first: u8,
    later: u8,
}

fn main() {}
