use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    big: u8,
    #[mmd(endian = if *big != 0 { big } else { little })]
    matrix: [[f32; 2]; 2],
}

fn main() {}
