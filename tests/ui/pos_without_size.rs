use mmd_formats::Mmd;

#[derive(Mmd)]
struct Icon {
    offset: u32,
    #[mmd(pos = offset)]
    image: u32,
    #[mmd(gaps)]
    gaps: Vec<Vec<u8>>,
}

fn main() {}
