use mmd_formats::Mmd;

#[derive(Mmd)]
struct File {
    offset: u32,
    #[mmd(pos = offset, size = 4, endian = big)]
    value: u32,
    #[mmd(gaps)]
    gaps: Vec<Vec<u8>>,
}

fn main() {}
