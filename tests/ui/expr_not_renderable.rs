use mmd_formats::{Mmd, MmdContext};

#[derive(Mmd)]
#[mmd(ctx = ())]
struct Record {
    flag: u8,
    #[mmd(if = *flag != 0)]
    count: Option<u8>,
    #[mmd(len = count.unwrap_or_default())]
    items: Vec<u8>,
    #[mmd(if = helper(items.len()))]
    extra: Option<u8>,
}

fn helper(n: usize) -> bool {
    n > 1
}

#[derive(MmdContext, Clone, Copy)]
#[mmd(from(a: u8))]
struct Ctx {
    /// Not a helper either.
    #[mmd(from = a.pow(2))]
    squared: u8,
}

fn main() {}
