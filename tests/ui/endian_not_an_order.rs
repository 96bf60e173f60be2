use mmd_formats::Mmd;

#[derive(Mmd)]
struct Record {
    #[mmd(endian = network)]
    value: u32,
}

fn main() {}
