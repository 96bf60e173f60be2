use mmd_formats::Mmd;

#[derive(Mmd)]
struct Icon {
    count: u8,
    #[mmd(len = count)]
    sizes: Vec<u8>,
    #[mmd(len = sizes[_index])]
    data: Vec<u8>,
}

fn main() {}
