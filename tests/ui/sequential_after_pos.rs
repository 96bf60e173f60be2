use mmd_formats::Mmd;

#[derive(Mmd)]
struct Icon {
    offset: u32,
    #[mmd(pos = offset, size = 4)]
    image: u32,
    tail: u8,
    #[mmd(gaps)]
    gaps: Vec<Vec<u8>>,
}

fn main() {}
