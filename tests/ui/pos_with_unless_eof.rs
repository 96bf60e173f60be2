use mmd_formats::Mmd;

#[derive(Mmd)]
struct Icon {
    offset: u32,
    #[mmd(unless_eof, pos = offset, size = 4)]
    image: Option<u32>,
    #[mmd(gaps)]
    gaps: Vec<Vec<u8>>,
}

fn main() {}
