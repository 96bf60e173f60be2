use mmd_formats::Mmd;

#[derive(Mmd)]
#[mmd(tag = u16)]
enum Chunk {
    #[mmd(tag = 1)]
    Num(u16),
    #[mmd(default)]
    Other { size: u8, kind: u16 },
}

fn main() {}
