use mmd_formats::pmx::BoneTail;
use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    flags: u8,
    #[mmd(select = *flags & 1 != 0)]
    tail: BoneTail,
}

fn main() {}
