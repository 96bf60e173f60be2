use mmd_formats::Mmd;

#[derive(Mmd)]
#[mmd(tag = u8)]
struct Record {
    frame: u32,
}

fn main() {}
