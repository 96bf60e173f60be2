use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    #[mmd(count = u32, item = u16)]
    values: Vec<u16>,
    #[mmd(item = u8)]
    flag: u8,
}

fn main() {}
