use mmd_formats::Mmd;

#[derive(Mmd)]
struct Icon {
    offset: u32,
    #[mmd(pos = offset, size = 4)]
    image: u32,
}

fn main() {}
