use mmd_formats::Mmd;

#[derive(Mmd)]
#[mmd(tag = u8)]
enum Chunk {
    #[mmd(tag = 1)]
    Num(u16),
    #[mmd(default)]
    Other(u8),
    #[mmd(default)]
    Unknown(u8),
}

fn main() {}
