use mmd_formats::Mmd;

#[derive(Mmd)]
#[mmd(tag = u8)]
enum Chunk {
    #[mmd(tag = 1)]
    Image {
        offset: u32,
        size: u32,
        #[mmd(pos = offset, size = size)]
        data: Data,
    },
}

#[derive(Mmd)]
struct Data {
    #[mmd(rest)]
    bytes: Vec<u8>,
}

fn main() {}
